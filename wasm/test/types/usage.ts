// Exercises the whole public API with its types; checked by `tsc -p test/types` (never run).
// `@ts-expect-error` lines prove that wrong uses do not compile.
import init, {
  ArbiterError,
  Trax,
  TripleTriad,
  TripleTriadMatch,
  type Captures,
  type ErrorCode,
  type MatchResult,
  type MatchState,
  type RoundResult,
  type Solution,
  type TradeChoice,
  type Transfer,
  type TripleTriadLevel,
  type TripleTriadObservation,
  type TripleTriadPlayer,
  type TripleTriadState,
  type TraxLevel,
  type TraxPlayer,
  type TraxState,
  type TraxTile,
  type TraxTurn,
  type TraxVariant,
  type TraxWin,
} from "arbiter-engine";

export async function browserStart(): Promise<void> {
  await init();
  await init({ module_or_path: "/assets/arbiter_wasm_bg.wasm" });
}

export function tripleTriad(): void {
  // `using` frees the wasm object at the end of the block.
  using g = TripleTriad.fromPreset("ff8", 42);
  const moves: string[] = g.legalMoves();
  const ids: number[] = g.legalActions();
  g.play(moves[0]!);
  g.play(ids[0]!);
  const mover: TripleTriadPlayer | null = g.toMove;
  const over: boolean = g.isOver;
  const outcome: TripleTriadPlayer | "draw" | null = g.outcome;
  const next: TripleTriadPlayer = g.nextPlayer;
  const obs: TripleTriadObservation = g.observation("red");
  const hidden: (import("arbiter-engine").Card | null)[] = obs.opponent_hand;
  const nodes: number = g.perft(3);
  const levels: TripleTriadLevel[] = TripleTriad.levels;
  const choice: string | null = g.chooseMove("perfect", 7n);
  const text: string = g.actionText(3);
  const id: number = g.actionId("0@3");
  const count: number = g.numActions;
  const saved: TripleTriadState = g.toJSON();
  using back = TripleTriad.fromJSON(saved);
  using fromText = TripleTriad.fromJSON(JSON.stringify(saved));
  using copy = back.clone();
  const captures: Captures | null = copy.lastCaptures();
  const rule: "same" | "plus" | "basic" | "battle" | "combo" | undefined = captures?.flips[0]?.rule;
  const score: number = g.score("blue");
  const best: Solution = g.solve();
  const bestMove: string | null = best.bestMove;
  using handMade = TripleTriad.fromJSON({
    rules: { same: true },
    board: [null, null, null, null, null, null, null, null, null],
    hands: { blue: [{ name: "A", ranks: [1, 2, 3, 4] }], red: [] },
    to_move: "blue",
  });
  void [mover, over, outcome, next, hidden, nodes, levels, choice, text, id, count, fromText, rule, score, bestMove, handMade];
  // @ts-expect-error: players are "blue" or "red"
  g.observation("white");
  // @ts-expect-error: levels are named
  g.chooseMove("grandmaster", 1);
  // @ts-expect-error: moves are text or ids
  g.play({ card: 0, cell: 4 });
  // @ts-expect-error: no public constructor
  new TripleTriad();
}

export function tripleTriadMatch(): void {
  const m = TripleTriadMatch.fromPreset("mush", 1);
  using round = m.game();
  m.play(round.legalMoves()[0]!);
  const n: number = m.roundNumber;
  const rounds: RoundResult[] = m.rounds;
  const result: MatchResult | null = m.result;
  const timeout: string | null = m.timeoutMove();
  if (m.isOver) {
    const choice: TradeChoice = m.tradeChoice();
    const picks = typeof choice === "object" && "pick" in choice ? [0] : [];
    const moved: Transfer[] = m.settleTrade(picks);
    const all: Transfer[] | null = m.transfers();
    void [moved, all];
  }
  const save: MatchState = m.toJSON();
  const seed: number | string = save.seed;
  using again = TripleTriadMatch.fromJSON(save);
  using started = TripleTriadMatch.fromJSON({
    config: { trade: "diff", sudden_death: "own_colours", rules: { open: true } },
    blue: [],
    red: [],
    seed: "18446744073709551615",
  });
  using copy = m.clone();
  void [n, rounds, result, timeout, seed, again, started, copy];
  m.free();
}

export function trax(): void {
  const variant: TraxVariant = "loop";
  using g = new Trax(variant);
  using limited = new Trax("8x8", 64);
  using read = Trax.fromRecord("1. @0/ B1\\", "unbounded");
  g.play("@0+");
  g.play(g.legalActions()[0]!);
  const mover: TraxPlayer | null = g.toMove;
  const next: TraxPlayer = g.nextPlayer;
  const outcome: TraxPlayer | "draw" | null = g.outcome;
  const tile: TraxTile | null = g.tileAt(1, 1);
  const north: TraxPlayer | undefined = tile?.edges[0];
  const turn: TraxTurn | null = g.lastTurn();
  const forced: number[] | undefined = turn?.forced.map((c) => c.col);
  const win: TraxWin | null = g.win();
  const kind: "loop" | "line" | undefined = win?.kind;
  const undone: string | null = g.undo();
  const size: { cols: number; rows: number } = g.size;
  const counts: number[] = [g.tiles, g.maxTiles, g.perft(2), g.numActions];
  const levels: TraxLevel[] = Trax.levels;
  const saved: TraxState = g.toJSON();
  const seen: TraxState = g.observation("red");
  using back = Trax.fromJSON(saved);
  using copy = back.clone();
  const named: TraxVariant = copy.variant;
  void [limited, read, mover, next, outcome, north, forced, kind, undone, size, counts, levels, seen, named];
  // @ts-expect-error: Trax players are white and red
  g.observation("blue");
  // @ts-expect-error: no such variant
  new Trax("9x9");
}

export function errors(): void {
  try {
    using g = TripleTriad.fromPreset("ff8", 1);
    g.play("9@9");
  } catch (e) {
    if (e instanceof ArbiterError) {
      const code: ErrorCode = e.code;
      const message: string = e.message;
      const base: Error = e;
      void [code, message, base];
    }
  }
}

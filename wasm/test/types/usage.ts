// Exercises the whole public API with its types; checked by `tsc -p test/types` (never run).
// `@ts-expect-error` lines prove that wrong uses do not compile.
import init, {
  ArbiterError,
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

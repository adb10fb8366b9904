// Exercises the whole public API with its types; checked by `tsc -p js-tests/types` (never run).
// `@ts-expect-error` lines prove that wrong uses do not compile.
import init, {
  ArbiterError,
  Nantong,
  Trax,
  TripleTriad,
  TripleTriadMatch,
  type Captures,
  type FrontierPosition,
  type ErrorCode,
  type MatchResult,
  type MatchState,
  type RoundResult,
  type Solution,
  type SearchOptions,
  type TradeChoice,
  type Transfer,
  type TripleTriadLevel,
  type TripleTriadObservation,
  type TripleTriadPlayer,
  type TripleTriadState,
  type DealScore,
  type FinishedDeal,
  type Meld,
  type NantongAction,
  type NantongCard,
  type NantongLevel,
  type NantongObservation,
  type NantongSeat,
  type NantongStanding,
  type NantongState,
  type NantongWin,
  type TripleTriadNotation,
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
  const moves: TripleTriadNotation[] = g.legalMoves();
  const ids: number[] = g.legalActions();
  const tensor: Float32Array = g.observationTensor("blue");
  const mask: Uint8Array = g.legalActionMask();
  void [tensor, mask];
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
  const choice: TripleTriadNotation | null = g.chooseMove("perfect", 7n);
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
  const options: SearchOptions = { timeMs: 50, nodes: 10_000 };
  const bounded: Solution = g.solve(options);
  const quick: TripleTriadNotation | null = g.chooseMove("expert", 7, { timeMs: 100 });
  const bestMove: string | null = best.bestMove;
  using handMade = TripleTriad.fromJSON({
    rules: { same: true },
    board: [null, null, null, null, null, null, null, null, null],
    hands: { blue: [{ name: "A", ranks: [1, 2, 3, 4] }], red: [] },
    to_move: "blue",
  });
  void [mover, over, outcome, next, hidden, nodes, levels, choice, text, id, count, fromText, rule, score, bestMove, handMade];
  void [bounded, quick];
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
  const kind: boolean | undefined = win?.by_loop;
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

export function nantong(): void {
  using g = new Nantong(2024);
  using dealt = Nantong.deal(g.toJSON().deck, 2);
  const seat: NantongSeat | null = g.actor;
  const mover: NantongSeat | null = g.toMove;
  const dealer: NantongSeat = g.dealer;
  const actions: NantongAction[] = g.legalMoves();
  g.play(actions[0]!);
  if (seat !== null) g.act(seat, "finish");
  const seen: NantongObservation = g.observation(0);
  const hand: NantongCard[] = seen.hand;
  const claim: NantongCard | null = seen.claim;
  const discards: [NantongSeat, NantongCard][] = seen.discards;
  const choice: NantongAction | null = g.chooseMove("basic", 1);
  const levels: NantongLevel[] = Nantong.levels;
  const score: DealScore | null = g.score();
  const total: number | undefined = score?.players[0].total;
  const win: NantongWin | null = g.win();
  const outcome: NantongSeat | "draw" | null = g.outcome;
  const standing: NantongStanding = Nantong.winning(["1m", "1m"], [{ type: "pong", card: "T" }]);
  const melds: Meld[] = [{ type: "opening_triple", card: "5s" }];
  const input: FinishedDeal = {
    indicators: ["2s", "3m"],
    dealer: 0,
    players: [{ hand: ["1m"] }, { hand: [], melds, ready: true }, { hand: [] }],
    win: { seat: 0, heavenly: true },
  };
  const scored: DealScore = Nantong.scoreHand(input);
  const saved: NantongState = g.toJSON();
  const rng: number | string = saved.rng.state;
  using back = Nantong.fromJSON(saved);
  using next = back.nextDeal();
  using copy = next.clone();
  void [dealt, mover, dealer, hand, claim, discards, choice, levels, total, win, outcome, standing, scored, rng, copy];
  // @ts-expect-error: seats are numbers
  g.observation("0");
  // @ts-expect-error: no such card
  Nantong.winning(["1x"]);
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

export async function worker(): Promise<void> {
  const { ArbiterWorker } = await import("arbiter-engine/worker");
  const ai = new ArbiterWorker();
  using round = TripleTriad.fromPreset("ff8", 1);
  using trax = new Trax("8x8");
  using deal = new Nantong(1);
  const card: TripleTriadNotation | null = await ai.chooseMove(round, "expert", 1, { timeMs: 100, nodes: 10_000 });
  const tile: string | null = await ai.chooseMove(trax, "expert", 2n);
  const action: NantongAction | null = await ai.chooseMove(deal, "strong", 3);
  const saved: string | null = await ai.chooseMove({ game: "trax", state: trax.toJSON() }, "hard", 4);
  const solved: Solution = await ai.solve(round);
  void [card, tile, action, saved, solved];
  // @ts-expect-error: Trax has no level "greedy"
  await ai.chooseMove(trax, "greedy", 1);
  // @ts-expect-error: only Triple Triad rounds are solved
  await ai.solve(trax);
  // @ts-expect-error: a saved state names its game
  await ai.chooseMove({ state: trax.toJSON() }, "easy", 1);
  ai.terminate();
}

export function split(g: Trax): number {
  const parts: FrontierPosition[] = g.frontier(2);
  return parts.length + g.perftPart(4, 2, 0, 3);
}

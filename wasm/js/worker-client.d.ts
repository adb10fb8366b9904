// Types of ArbiterWorker's calls, shared by the browser and Node entries (js/worker.d.ts,
// js/worker-node.d.ts).
import type {
  Nantong,
  NantongAction,
  NantongLevel,
  NantongState,
  Solution,
  Trax,
  TraxLevel,
  TraxState,
  TripleTriad,
  TripleTriadLevel,
  TripleTriadNotation,
  TripleTriadStateInput,
} from "../dist/arbiter_wasm.js";

/** An `AbortSignal` (written out so that projects without DOM or Node types can use it). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** How long a call may search, and how to call it off. */
export interface SearchOptions {
  /** A time budget in milliseconds, passed to the engine's `chooseMove`/`solve`. */
  timeMs?: number;
  /** A budget of search nodes, passed to the engine's `chooseMove`/`solve`. */
  nodes?: number;
  /** Calls it off: the promise rejects with the signal's reason; a search already running is
   * stopped by ending the worker's thread (the next call starts a new one). */
  signal?: AbortSignalLike;
}

/** A game as saved state, for callers that keep states rather than game objects. */
export type SavedGame =
  | { game: "triple-triad"; state: TripleTriadStateInput | string }
  | { game: "trax"; state: TraxState | string }
  | { game: "nantong"; state: NantongState | string };

/** The calls of `ArbiterWorker`: each copies the game's state to the worker's thread, so the
 * object stays the caller's to change (or free) while the promise is pending. Calls run one at a
 * time, in order. Engine failures reject with an `ArbiterError` (the same code and words as the
 * same call on the page). */
export declare class WorkerClient {
  protected constructor(spawn: never);
  /** The move that the built-in opponent `level` chooses for the player to move; `null` once the
   * game is over. The same seed gives the same move as `game.chooseMove(level, seed)`. */
  chooseMove(
    game: TripleTriad | Extract<SavedGame, { game: "triple-triad" }>,
    level: TripleTriadLevel,
    seed: number | bigint,
    options?: SearchOptions,
  ): Promise<TripleTriadNotation | null>;
  chooseMove(
    game: Trax | Extract<SavedGame, { game: "trax" }>,
    level: TraxLevel,
    seed: number | bigint,
    options?: SearchOptions,
  ): Promise<string | null>;
  chooseMove(
    game: Nantong | Extract<SavedGame, { game: "nantong" }>,
    level: NantongLevel,
    seed: number | bigint,
    options?: SearchOptions,
  ): Promise<NantongAction | null>;
  /** `game.solve()` of a Triple Triad round, on the worker's thread. */
  solve(game: TripleTriad | Extract<SavedGame, { game: "triple-triad" }>, options?: SearchOptions): Promise<Solution>;
  /** Ends the thread at once, a search in progress included; every pending call rejects with an
   * `AbortError`. A later call starts a new thread. */
  terminate(): void;
}

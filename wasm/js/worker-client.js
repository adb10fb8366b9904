// The page's (or the main thread's) side of ArbiterWorker: requests queue here and go to the
// thread one at a time, so that a call can be called off before it starts, and the one running
// can be stopped only by ending the thread (a search in WebAssembly cannot be interrupted).
import { TripleTriad, Trax, Nantong } from "../dist/arbiter_wasm.js";
import { ArbiterError } from "./error.js";

/** A game object, or `{ game, state }`, as a request names it. */
function describe(game) {
  for (const [name, Class] of [["triple-triad", TripleTriad], ["trax", Trax], ["nantong", Nantong]]) {
    if (game instanceof Class) return { game: name, state: game.toJSON() };
  }
  if (game && typeof game === "object" && ["triple-triad", "trax", "nantong"].includes(game.game) && game.state != null) {
    return { game: game.game, state: game.state };
  }
  throw new ArbiterError(
    "BAD_ARGUMENT",
    `the game must be a TripleTriad, Trax or Nantong object, or { game: "triple-triad" | "trax" | "nantong", state }, got ${game === null ? "null" : typeof game}`,
  );
}

export class WorkerClient {
  #spawn;
  #thread = null;
  #queue = [];
  #running = null;
  #next = 1;

  /** `spawn()` starts a thread: `{ post(message), terminate(), busy(flag) }`, calling back
   * `onMessage(data)` and `onError(message)`. */
  constructor(spawn) {
    this.#spawn = spawn;
  }

  /** The move the built-in opponent `level` chooses, computed on the worker thread. */
  chooseMove(game, level, seed, options = {}) {
    const { signal, ...budget } = options ?? {};
    // Without a budget the call is the two-argument one every version of the engine takes.
    const args = Object.keys(budget).length ? [level, seed, budget] : [level, seed];
    return this.#request(game, "chooseMove", args, signal);
  }

  /** The exact value and a best move of a Triple Triad round, solved on the worker thread. */
  solve(game, options = {}) {
    const { signal, ...budget } = options ?? {};
    return this.#request(game, "solve", Object.keys(budget).length ? [budget] : [], signal);
  }

  /** Ends the thread at once, a search in progress included, and rejects every pending call
   * with an `AbortError`; a later call starts a new thread. */
  terminate() {
    const reason = new DOMException("the worker was terminated", "AbortError");
    const jobs = [this.#running, ...this.#queue.splice(0)];
    this.#stop();
    for (const job of jobs) job && (job.settled?.(), job.reject(reason));
  }

  #request(game, verb, args, signal) {
    return new Promise((resolve, reject) => {
      const job = { id: this.#next++, message: { ...describe(game), verb, args }, resolve, reject };
      signal?.throwIfAborted();
      if (signal) {
        const abort = () => this.#abort(job, signal.reason);
        signal.addEventListener("abort", abort, { once: true });
        job.settled = () => signal.removeEventListener("abort", abort);
      }
      this.#queue.push(job);
      this.#pump();
    });
  }

  #abort(job, reason) {
    if (this.#running === job) this.#stop();
    else if (this.#queue.includes(job)) this.#queue.splice(this.#queue.indexOf(job), 1);
    job.settled?.();
    job.reject(reason);
    this.#pump();
  }

  /** Ends the thread; the call it was running, if any, is the caller's to settle. */
  #stop() {
    this.#thread?.terminate();
    this.#thread = null;
    this.#running = null;
  }

  #pump() {
    if (this.#running || !this.#queue.length) {
      this.#thread?.busy(!!this.#running);
      return;
    }
    const job = (this.#running = this.#queue.shift());
    if (!this.#thread) this.#thread = this.#spawn((data) => this.#answered(data), (message) => this.#failed(message));
    this.#thread.busy(true);
    this.#thread.post({ id: job.id, ...job.message });
  }

  #answered({ id, value, error }) {
    const job = this.#running;
    if (!job || job.id !== id) return;
    this.#running = null;
    job.settled?.();
    if (error) job.reject(new ArbiterError(error.code, error.message));
    else job.resolve(value);
    this.#pump();
  }

  /** The thread died (its script failed to load, say): every pending call fails with why. */
  #failed(message) {
    const job = this.#running;
    this.#stop();
    const error = new ArbiterError("INTERNAL_ERROR", `the worker thread failed: ${message}`);
    for (const j of [job, ...this.#queue.splice(0)]) j && (j.settled?.(), j.reject(error));
  }
}

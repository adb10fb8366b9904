/// <reference lib="dom" />
// Types of arbiter-engine/worker in browsers and bundlers (js/worker.js).
import { WorkerClient } from "./worker-client.js";
export type { AbortSignalLike, SavedGame, SearchOptions } from "./worker-client.js";
export { ArbiterError, type ErrorCode } from "./error.js";

/** The built-in opponents and the solver on a module worker: the page keeps drawing while they
 * think. */
export declare class ArbiterWorker extends WorkerClient {
  /** `module_or_path`: where the worker fetches the WebAssembly module from (as for `init()`;
   * default: beside the glue). */
  constructor(options?: { module_or_path?: string | URL | WebAssembly.Module });
}

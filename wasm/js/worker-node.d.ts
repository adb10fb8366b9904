// Types of arbiter-engine/worker in Node (js/worker-node.js).
import { WorkerClient } from "./worker-client.js";
export type { AbortSignalLike, SavedGame, SearchOptions } from "./worker-client.js";
export { ArbiterError, type ErrorCode } from "./error.js";

/** The built-in opponents and the solver on a worker_threads thread; an idle worker does not keep
 * the process alive. */
export declare class ArbiterWorker extends WorkerClient {
  constructor();
}

// arbiter-engine/worker for browsers and bundlers: the built-in opponents and the solver on a
// module worker, so that a long search never holds up the page.
//
//   import { ArbiterWorker } from "arbiter-engine/worker";
//   const ai = new ArbiterWorker();
//   const move = await ai.chooseMove(game, "expert", seed);   // the page keeps drawing meanwhile
//
// The worker loads the WebAssembly module itself (the page needs no init() for it); bundlers
// see `new Worker(new URL(…, import.meta.url))` and bundle the thread's script.
import { WorkerClient } from "./worker-client.js";

export class ArbiterWorker extends WorkerClient {
  /** `module_or_path`: where the worker fetches the WebAssembly module from, as for `init()`
   * (default: beside the glue). */
  constructor({ module_or_path } = {}) {
    super((onMessage, onError) => {
      const worker = new Worker(new URL("./worker-thread.js", import.meta.url), { type: "module" });
      worker.addEventListener("message", (e) => onMessage(e.data));
      worker.addEventListener("error", (e) => {
        e.preventDefault();
        onError(e.message || "the worker script could not run");
      });
      // A URL object cannot be posted, its text can (resolved here: the worker would resolve it
      // against its own script); a compiled module can be posted as it is.
      const where = module_or_path instanceof URL || typeof module_or_path === "string" ? new URL(module_or_path, location.href).href : module_or_path;
      worker.postMessage({ init: where });
      return { post: (m) => worker.postMessage(m), terminate: () => worker.terminate(), busy() {} };
    });
  }
}
export { ArbiterError } from "./error.js";

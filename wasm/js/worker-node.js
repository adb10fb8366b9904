// arbiter-engine/worker in Node: the same ArbiterWorker on a worker_threads thread. An idle
// worker does not keep the process alive.
import { Worker } from "node:worker_threads";
import { WorkerClient } from "./worker-client.js";

export class ArbiterWorker extends WorkerClient {
  constructor() {
    super((onMessage, onError) => {
      const worker = new Worker(new URL("./worker-thread-node.js", import.meta.url));
      worker.on("message", onMessage);
      worker.on("error", (e) => onError(e?.message ?? String(e)));
      return {
        post: (m) => worker.postMessage(m),
        terminate: () => worker.terminate(),
        busy: (flag) => (flag ? worker.ref() : worker.unref()),
      };
    });
  }
}
export { ArbiterError } from "./error.js";

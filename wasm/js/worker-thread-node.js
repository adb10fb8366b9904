// Node's worker thread (worker_threads): js/node.js compiles the module on import; then it answers
// requests one at a time. Started by js/worker-node.js.
import { parentPort } from "node:worker_threads";
import * as engine from "./node.js";
import { answer } from "./worker-answer.js";

parentPort.on("message", (data) => {
  if (!("init" in data)) parentPort.postMessage(answer(engine, data));
});

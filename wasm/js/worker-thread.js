// The browser's worker thread (a module worker): loads the WebAssembly module once, then answers
// requests one at a time. Started by js/worker.js; never imported by a page.
import init, * as engine from "../dist/arbiter_wasm.js";
import { answer } from "./worker-answer.js";

let ready;
addEventListener("message", async ({ data }) => {
  if ("init" in data) {
    ready = data.init === undefined ? init() : init({ module_or_path: data.init });
    // A failure is reported to the first request, which awaits it below.
    ready.catch(() => {});
    return;
  }
  try {
    await ready;
  } catch (e) {
    postMessage({ id: data.id, error: { code: "INTERNAL_ERROR", message: `the worker could not load the WebAssembly module: ${e?.message ?? e}` } });
    return;
  }
  postMessage(answer(engine, data));
});

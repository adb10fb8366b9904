// The Node entry: the module is compiled synchronously from the file beside the glue, so nothing
// needs an init call. `init` and `initSync` are exported for code shared with the browser; here
// they return at once.
import { readFileSync } from "node:fs";
import { initSync } from "../dist/arbiter_wasm.js";

initSync({ module: readFileSync(new URL("../dist/arbiter_wasm_bg.wasm", import.meta.url)) });

export { default, initSync } from "../dist/arbiter_wasm.js";
export * from "../dist/arbiter_wasm.js";
export { ArbiterError } from "./error.js";

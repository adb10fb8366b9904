// The browser and bundler entry. Call the default export once, and wait for it, before using
// anything else: it fetches and compiles the WebAssembly module.
//
//   import init, { TripleTriad } from "arbiter-engine";
//   await init();                  // fetches arbiter_wasm_bg.wasm next to the glue
//   await init({ module_or_path: "/assets/arbiter_wasm_bg.wasm" });  // or from elsewhere
//
// `initSync({ module })` does the same synchronously from bytes or a compiled module.
export { default, initSync } from "../dist/arbiter_wasm.js";
export * from "../dist/arbiter_wasm.js";
export { ArbiterError } from "./error.js";

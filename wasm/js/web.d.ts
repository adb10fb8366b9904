/// <reference lib="dom" />
// Types of the browser and bundler entry (js/web.js).
export * from "../dist/arbiter_wasm.js";
export { ArbiterError, type ErrorCode } from "./error.js";

/** Where the WebAssembly module comes from: its URL or path, a fetch `Response`, its bytes or a
 * compiled module. */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/**
 * Fetches and compiles the WebAssembly module: call it once and wait for it before using anything
 * else. Without an argument it fetches `arbiter_wasm_bg.wasm` beside the glue (bundlers copy it);
 * later calls resolve at once.
 */
export default function init(input?: { module_or_path: InitInput | Promise<InitInput> }): Promise<unknown>;

/** `init` done synchronously, from the module's bytes or a compiled module. */
export function initSync(input: { module: BufferSource | WebAssembly.Module }): unknown;

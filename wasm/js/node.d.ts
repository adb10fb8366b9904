// Types of the Node entry (js/node.js): the module is compiled on import, nothing to wait for.
export * from "../dist/arbiter_wasm.js";
export { ArbiterError, type ErrorCode } from "./error.js";

/** Resolves at once in Node (the module is ready on import); kept for code shared with browsers. */
export default function init(input?: unknown): Promise<unknown>;

/** Returns at once in Node (the module is ready on import). */
export function initSync(input?: unknown): unknown;

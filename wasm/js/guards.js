// What the WebAssembly glue checks before it calls in, so that misuse throws an ArbiterError that
// says what to do rather than a TypeError or wasm-bindgen's "null pointer passed to rust". The
// build (scripts/build.mjs) wires these into dist/arbiter_wasm.js.
import { ArbiterError } from "./error.js";

/** The module's exports until `init()` has loaded it: any use throws. */
export const notLoaded = new Proxy(
  {},
  {
    get() {
      throw new ArbiterError(
        "BAD_ARGUMENT",
        "the WebAssembly module is not loaded: call `await init()` (the default export of arbiter-engine) once before using the engine",
      );
    },
  },
);

/** The pointer of `object`, a `name` object, unless it was freed. */
export function live(object, name) {
  if (!object.__wbg_ptr) {
    throw new ArbiterError(
      "BAD_ARGUMENT",
      `this ${name} was freed (by free() or at the end of its using block) and cannot be used: clone() it first to keep a copy`,
    );
  }
  return object.__wbg_ptr;
}

// What a worker thread does with one request: load the game from its state, ask it, free it, and
// say what came of it as plain data (an ArbiterError crosses as its code and message).

/** The game classes of `engine` (the glue's exports) by the name a request gives. */
const classes = (engine) => ({ "triple-triad": engine.TripleTriad, trax: engine.Trax, nantong: engine.Nantong });

/**
 * @param {typeof import("../dist/arbiter_wasm.js")} engine
 * @param {{ id: number, game: string, state: unknown, verb: "chooseMove" | "solve", args: unknown[] }} request
 */
export function answer(engine, { id, game, state, verb, args }) {
  try {
    const g = classes(engine)[game].fromJSON(state);
    try {
      return { id, value: g[verb](...args) };
    } finally {
      g.free();
    }
  } catch (e) {
    return { id, error: { code: e?.code ?? "INTERNAL_ERROR", message: String(e?.message ?? e) } };
  }
}

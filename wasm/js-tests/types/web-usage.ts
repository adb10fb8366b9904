// The browser entry: init first (typed with DOM types), then the same classes as in Node.
import init, { initSync, type InitInput } from "arbiter-engine";
import initWeb, { TripleTriad, Trax } from "arbiter-engine/web";

export async function start(wasmUrl: URL, bytes: ArrayBuffer): Promise<string[]> {
  const input: InitInput = wasmUrl;
  await init({ module_or_path: input });
  await initWeb({ module_or_path: fetch(wasmUrl) });
  initSync({ module: bytes });
  // @ts-expect-error: init takes an object, not a number
  await init(5);
  using g = TripleTriad.fromPreset("ff8", 1);
  return g.legalMoves();
}

export async function think(wasmUrl: URL): Promise<string | null> {
  const { ArbiterWorker } = await import("arbiter-engine/worker");
  const ai = new ArbiterWorker({ module_or_path: wasmUrl });
  const controller = new AbortController();
  using g = new Trax("8x8");
  return ai.chooseMove(g, "expert", 1, { signal: controller.signal });
}

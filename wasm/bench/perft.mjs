// Perft through the package, for timing against the native `arbiter perft` (README, Speed):
//   node wasm/bench/perft.mjs triple-triad STATE.json DEPTH   (STATE as `arbiter perft --state`)
//   node wasm/bench/perft.mjs trax VARIANT DEPTH
// Prints the node count and the time perft took inside the process.
import { readFileSync } from "node:fs";
import * as engine from "arbiter-engine";

const [game, what, depth] = process.argv.slice(2);
const g =
  game === "triple-triad" ? engine.TripleTriad.fromJSON(readFileSync(what, "utf8")) : new engine.Trax(what);
const start = performance.now();
const nodes = g.perft(Number(depth));
const seconds = (performance.now() - start) / 1000;
console.log(`${nodes} nodes in ${seconds.toFixed(3)} s (${Math.round(nodes / seconds)} nodes/s)`);

// Perft through the package, for timing against the native `arbiter perft` (README, Speed):
//   node wasm/bench/perft.mjs state PRESET SEED > tt.json     (a preset's first round, as JSON)
//   node wasm/bench/perft.mjs triple-triad tt.json DEPTH      (as `arbiter perft triple-triad --state tt.json DEPTH`)
//   node wasm/bench/perft.mjs trax VARIANT DEPTH              (as `arbiter perft trax --variant VARIANT DEPTH`)
// Prints the node count and the time perft took inside the process.
import { readFileSync } from "node:fs";
import { TripleTriad, Trax } from "arbiter-engine";

const [what, arg, n] = process.argv.slice(2);
if (what === "state") {
  console.log(JSON.stringify(TripleTriad.fromPreset(arg, Number(n))));
} else {
  const g = what === "triple-triad" ? TripleTriad.fromJSON(readFileSync(arg, "utf8")) : new Trax(arg);
  const start = performance.now();
  const nodes = g.perft(Number(n));
  const seconds = (performance.now() - start) / 1000;
  console.log(`perft ${n}: ${nodes} nodes in ${seconds.toFixed(3)} s (${(nodes / seconds / 1e6).toFixed(1)}M nodes/s)`);
}

// The package's WebAssembly modules: the one with every game (the `arbiter-engine` entry) and one
// per game (`arbiter-engine/tripletriad`, ...) for apps that ship a single game; Triple Triad's
// matches (`TripleTriadMatch`) have their own (`arbiter-engine/tripletriad-match`), so that an app
// that plays rounds alone does not carry them. `features` are
// the crate's (Cargo.toml); `dir` is the module's folder under dist/; `classes` the classes it
// exports (the build checks the glue against them); `gzipBudget` the most its .wasm may weigh
// gzipped (level 9), in KiB, which the build prints beside the size and js-tests/size.test.mjs
// enforces, so that growth is noticed when it happens. The budgets are for the standard library
// rebuilt for size on nightly (scripts/build.mjs); with stable's, every module exceeds its own.
export const MODULES = [
  { dir: "", features: ["tripletriad-match", "trax", "nantong"], classes: 4, gzipBudget: 203.7 },
  { dir: "tripletriad", features: ["tripletriad"], classes: 1, gzipBudget: 96.2 },
  { dir: "tripletriad-match", features: ["tripletriad-match"], classes: 2, gzipBudget: 114.7 },
  { dir: "trax", features: ["trax"], classes: 1, gzipBudget: 73.0 },
  { dir: "nantong", features: ["nantong"], classes: 1, gzipBudget: 73.5 },
];

/** gzip level 9, as a server would send the module. */
export const GZIP_LEVEL = 9;

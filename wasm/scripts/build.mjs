// Builds the package into dist/: for each module of scripts/modules.mjs (every game, then each
// game alone), the crate for wasm32 (profile wasm-release) with that module's features, the
// JavaScript glue and types from the wasm-bindgen CLI (the version pinned in Cargo.lock), then
// wasm-opt from npm's binaryen. One `web`-target glue serves both entries of a module: js/web.js
// (async init) and js/node.js (instantiates synchronously from the file, so Node users need no
// init); a game's own module gets the same two entries in its folder, written from those.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { dirname, join, relative, resolve } from "node:path";
import { GZIP_LEVEL, MODULES } from "./modules.mjs";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const root = dirname(pkg);
const dist = join(pkg, "dist");
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: "inherit", ...opts });

// The standard library rebuilt for size (docs/speed.md, a sixth pass): nightly's -Z build-std with
// `optimize_for_size`, and panics that trap at once (panic=immediate-abort) instead of formatting a
// message nobody reads (wasm32-unknown-unknown has no stderr; a panic trapped before too), so
// that core::fmt's panic paths leave. `--cfg arbiter_size` compiles the core's cold code (setup,
// parsing, explanations, matches) for size while the rules and searches stay at opt-level 2
// (core/src/lib.rs, docs/speed.md, a seventh pass). It needs the nightly toolchain with rust-src
// and the wasm32 target; without them the build uses stable and says that the modules will exceed
// their budgets.
const nightly = nightlyForSize();
const NIGHTLY_FLAGS = ["-Zunstable-options", "-Cpanic=immediate-abort", "--cfg", "arbiter_size"].join("\x1f");
if (!nightly) {
  console.warn(
    "warning: no nightly toolchain with rust-src and wasm32-unknown-unknown: building with stable, " +
      "so the modules will exceed their size budgets (./test.sh installs them)",
  );
}

// The glue must come from exactly the CLI version of the crate the module was compiled against.
const lock = readFileSync(join(root, "Cargo.lock"), "utf8");
const pinned = lock.match(/name = "wasm-bindgen"\nversion = "([^"]+)"/)?.[1];
let cli = "";
try {
  cli = execFileSync("wasm-bindgen", ["--version"], { encoding: "utf8" }).trim();
} catch {
  // Reported below.
}
if (cli !== `wasm-bindgen ${pinned}`) {
  console.error(
    `need the wasm-bindgen CLI ${pinned} (Cargo.lock), found ${cli || "none"}:\n` +
      `  cargo install wasm-bindgen-cli --version ${pinned}`,
  );
  process.exit(1);
}

const target = process.env.CARGO_TARGET_DIR ? resolve(root, process.env.CARGO_TARGET_DIR) : join(root, "target");
const built = join(target, "wasm32-unknown-unknown", "wasm-release", "arbiter_wasm.wasm");
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;

rmSync(dist, { recursive: true, force: true });
const sizes = MODULES.map(buildModule);
// js-tests/size.test.mjs says why the sizes exceed their budgets when the build used stable.
writeFileSync(join(dist, "build.json"), `${JSON.stringify({ std: nightly ? "rebuilt for size" : "stable" })}\n`);
for (const { file, raw, gzipped, budget } of sizes) {
  console.log(`${file}: ${kb(raw)}, ${kb(gzipped)} gzipped (budget ${budget} KiB)`);
}

/** Builds one module of scripts/modules.mjs into dist/ (or its folder there); returns its sizes. */
function buildModule({ dir, features, classes, gzipBudget }) {
  const out = join(dist, dir);
  const std = nightly
    ? ["+nightly", "build", "-Z", "build-std=std,panic_abort", "-Z", "build-std-features=optimize_for_size"]
    : ["build"];
  run(
    "cargo",
    [
      ...std,
      "-p",
      "arbiter-wasm",
      "--target",
      "wasm32-unknown-unknown",
      "--profile",
      "wasm-release",
      "--no-default-features",
      "--features",
      features.join(","),
    ],
    { cwd: root, env: nightly ? { ...process.env, CARGO_ENCODED_RUSTFLAGS: NIGHTLY_FLAGS } : process.env },
  );
  run("wasm-bindgen", ["--target", "web", "--out-dir", out, "--out-name", "arbiter_wasm", built]);
  // Only the glue needs these raw export types.
  rmSync(join(out, "arbiter_wasm_bg.wasm.d.ts"));
  // From the module's folder back to the package's root, where js/ is.
  const up = dir ? "../../" : "../";
  guardGlue(join(out, "arbiter_wasm.js"), classes, up);

  const wasm = join(out, "arbiter_wasm_bg.wasm");
  // --low-memory-unused lets wasm-opt fold constant offsets into loads and stores (about 1 KiB
  // gzipped a module): rust-lld puts the stack first, at the bottom of memory, so only a stack
  // within 1 KiB of overflowing would reach the lowest KiB, and it traps a few frames later anyway.
  run(join(pkg, "node_modules", ".bin", "wasm-opt"), ["-O3", "--low-memory-unused", wasm, "-o", wasm]);

  // The generated types end with the init functions' types, written for browsers: they name DOM
  // types and the module's raw exports. js/web.d.ts and js/node.d.ts declare init for each entry
  // instead, so that Node projects need no DOM lib. The classes declare [Symbol.dispose]: projects
  // on an older `lib` need the reference, or they get TS2550 when they check library types.
  const types = join(out, "arbiter_wasm.d.ts");
  const generated = readFileSync(types, "utf8");
  const init = generated.indexOf("export type InitInput");
  if (init < 0) throw new Error(`wasm-bindgen's types changed: no InitInput in ${types}`);
  writeFileSync(types, `/// <reference lib="esnext.disposable" />\n${generated.slice(0, init).trimEnd()}\n`);

  if (dir) writeEntries(out, dir);
  const bytes = readFileSync(wasm);
  return {
    file: relative(pkg, wasm),
    raw: bytes.length,
    gzipped: gzipSync(bytes, { level: GZIP_LEVEL }).length,
    budget: gzipBudget,
  };
}

/** Whether rustup has a nightly toolchain with the standard library's sources and the wasm32 target. */
function nightlyForSize() {
  let sysroot;
  try {
    sysroot = execFileSync("rustc", ["+nightly", "--print", "sysroot"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return false;
  }
  const rustlib = join(sysroot, "lib", "rustlib");
  return existsSync(join(rustlib, "src", "rust", "library", "std", "Cargo.toml")) && existsSync(join(rustlib, "wasm32-unknown-unknown"));
}

/**
 * A game's own module gets the package's two entries and their types, written from js/web.js,
 * js/node.js and their .d.ts with the paths moved into its folder: one text for every module.
 */
function writeEntries(out, dir) {
  for (const entry of ["web.js", "node.js", "web.d.ts", "node.d.ts"]) {
    const template = readFileSync(join(pkg, "js", entry), "utf8");
    if (!template.includes(`"../dist/`) || !template.includes(`"./error.js"`)) {
      throw new Error(`js/${entry} no longer imports ../dist/ and ./error.js: update writeEntries`);
    }
    const text = template.replaceAll(`"./error.js"`, `"../../js/error.js"`).replaceAll(`"../dist/`, `"./`);
    writeFileSync(
      join(out, entry),
      `// arbiter-engine/${dir}: written by scripts/build.mjs from js/${entry}, for this game alone.\n${text}`,
    );
  }
}

// The rules written for players, as `arbiter rules` prints them (cli/src/rules/): the demo's
// "How to play" panels read them from dist/rules/.
mkdirSync(join(dist, "rules"), { recursive: true });
for (const game of ["triple-triad", "trax", "nantong"]) {
  copyFileSync(join(root, "cli", "src", "rules", `${game}.txt`), join(dist, "rules", `${game}.txt`));
}

// Final Fantasy XIV's cards and NPCs, the core's data files as they are (core/data/): JSON beside
// the .wasm rather than in it, read by arbiter-engine/ffxiv and by the demo's FFXIV choice.
mkdirSync(join(dist, "data"), { recursive: true });
for (const file of ["ffxiv-cards.json", "ffxiv-npcs.json"]) {
  copyFileSync(join(root, "core", "data", file), join(dist, "data", file));
}

// The package carries the repository's licence texts (package.json's "files" lists them).
for (const licence of ["LICENSE-MIT", "LICENSE-APACHE"]) {
  if (existsSync(join(root, licence))) copyFileSync(join(root, licence), join(pkg, licence));
  else console.warn(`warning: no ${licence} at the repository root: the package will lack it`);
}

/**
 * Wires js/guards.js into the glue: the module's exports are `notLoaded` until init() (instead of
 * undefined, whose use is a TypeError), and every method of a class reads its object's pointer
 * through `live` (a freed object's pointer is 0, which wasm-bindgen refuses with a plain Error),
 * and `free()` of a freed object does nothing.
 * The build stops if the glue no longer has the shapes this expects.
 */
function guardGlue(file, classCount, up) {
  let glue = readFileSync(file, "utf8");
  const replace = (pattern, by, expected) => {
    const found = glue.match(new RegExp(pattern, "gm"))?.length ?? 0;
    if (found !== expected) throw new Error(`wasm-bindgen's glue changed: ${found} × ${pattern}, expected ${expected}`);
    glue = glue.replace(new RegExp(pattern, "gm"), by);
  };
  replace("^let wasmModule, wasmInstance, wasm;$", "let wasmModule, wasmInstance, wasm = __arbiterNotLoaded;", 1);
  replace("if \\(wasm !== undefined\\) return wasm;", "if (wasm !== __arbiterNotLoaded) return wasm;", 2);
  // Freeing twice does nothing, as free(NULL) in C (and `using` after free() must not throw).
  replace("^( +)wasm\\.__wbg_(\\w+)_free\\(ptr, 0\\);$", "$1if (ptr) wasm.__wbg_$2_free(ptr, 0);", classCount);
  const classes = glue.split(/^(?=export class )/m);
  glue = classes
    .map((part) => {
      const name = part.match(/^export class (\w+) /)?.[1];
      return name ? part.replaceAll("(this.__wbg_ptr", `(__arbiterLive(this, "${name}")`) : part;
    })
    .join("");
  if (!glue.includes("__arbiterLive(this")) throw new Error("wasm-bindgen's glue changed: no method passes this.__wbg_ptr");
  replace(
    "^import \\{ ArbiterError \\} from '../js/error.js';$",
    `import { ArbiterError } from "${up}js/error.js";\nimport { live as __arbiterLive, notLoaded as __arbiterNotLoaded } from "${up}js/guards.js";`,
    1,
  );
  writeFileSync(file, glue);
}

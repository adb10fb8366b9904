// The modules' weight, and each game's own entry: it loads, has its game's classes and no other's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { GZIP_LEVEL, MODULES } from "../scripts/modules.mjs";

const CLASSES = {
  tripletriad: ["TripleTriad", "TripleTriadMatch"],
  trax: ["Trax"],
  nantong: ["Nantong"],
};

// The budgets hold for the standard library rebuilt for size (scripts/build.mjs): a build with
// stable's exceeds them, and the failure says so.
const { std } = JSON.parse(readFileSync(new URL("../dist/build.json", import.meta.url), "utf8"));
const why = std === "stable" ? " (built with stable Rust: the budgets need nightly with rust-src: wasm/README.md, Install)" : "";

for (const { dir, gzipBudget } of MODULES) {
  const file = `dist/${dir ? `${dir}/` : ""}arbiter_wasm_bg.wasm`;
  test(`${file} weighs at most ${gzipBudget} KiB gzipped`, () => {
    const bytes = readFileSync(new URL(`../${file}`, import.meta.url));
    const gzipped = gzipSync(bytes, { level: GZIP_LEVEL }).length / 1024;
    assert.ok(gzipped <= gzipBudget, `${file}: ${gzipped.toFixed(1)} KiB gzipped, over its ${gzipBudget} KiB${why}`);
  });
}

for (const game of Object.keys(CLASSES)) {
  test(`arbiter-engine/${game} plays its game alone`, async () => {
    const entry = await import(`arbiter-engine/${game}`);
    for (const [other, classes] of Object.entries(CLASSES)) {
      for (const name of classes) {
        assert.equal(typeof entry[name], other === game ? "function" : "undefined", `${name} from ${game}`);
      }
    }
    assert.equal(typeof entry.ArbiterError, "function");
    const name = { tripletriad: "triple-triad", trax: "trax", nantong: "nantong" }[game];
    assert.equal(entry.describe(name).game, name);
    // It describes its own game alone: no other game's declaration is linked in.
    assert.deepEqual(entry.describeAll().map((d) => d.game), [name]);
    for (const other of ["triple-triad", "trax", "nantong"].filter((g) => g !== name)) {
      assert.throws(() => entry.describe(other), (e) => e.code === "BAD_ARGUMENT" && e.message.includes(`expected ${name})`));
    }
    const start = { tripletriad: () => entry.TripleTriad.fromPreset("ff8", 1), trax: () => new entry.Trax("8x8"), nantong: () => new entry.Nantong(1) }[game]();
    const all = await import("arbiter-engine");
    const twin = { tripletriad: () => all.TripleTriad.fromPreset("ff8", 1), trax: () => new all.Trax("8x8"), nantong: () => new all.Nantong(1) }[game]();
    // The same engine: the same moves, the same choice of the computer, the same save.
    assert.deepEqual(start.legalMoves(), twin.legalMoves());
    const level = start.constructor.levels[0];
    assert.equal(start.chooseMove(level, 7), twin.chooseMove(level, 7));
    assert.deepEqual(start.toJSON(), twin.toJSON());
    // Errors are the package's one ArbiterError class.
    assert.throws(() => start.play("not a move"), (e) => e instanceof all.ArbiterError && e instanceof entry.ArbiterError);
    start.free();
    twin.free();
  });
}

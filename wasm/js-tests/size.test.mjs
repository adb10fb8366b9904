// The modules' weight, and each game's own entry: it loads, has its game's classes and no other's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { GZIP_LEVEL, MODULES } from "../scripts/modules.mjs";

// Each entry: its game and the classes it exports (Triple Triad's matches have their own entry).
const ENTRIES = {
  tripletriad: { game: "triple-triad", classes: ["TripleTriad"] },
  "tripletriad-match": { game: "triple-triad", classes: ["TripleTriad", "TripleTriadMatch"] },
  trax: { game: "trax", classes: ["Trax"] },
  nantong: { game: "nantong", classes: ["Nantong"] },
};
const EVERY_CLASS = ["TripleTriad", "TripleTriadMatch", "Trax", "Nantong"];

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

for (const [dir, { game: name, classes }] of Object.entries(ENTRIES)) {
  test(`arbiter-engine/${dir} plays its game alone`, async () => {
    const entry = await import(`arbiter-engine/${dir}`);
    for (const cls of EVERY_CLASS) {
      assert.equal(typeof entry[cls], classes.includes(cls) ? "function" : "undefined", `${cls} from ${dir}`);
    }
    assert.equal(typeof entry.ArbiterError, "function");
    assert.equal(entry.describe(name).game, name);
    // It describes its own game alone: no other game's declaration is linked in.
    assert.deepEqual(entry.describeAll().map((d) => d.game), [name]);
    for (const other of ["triple-triad", "trax", "nantong"].filter((g) => g !== name)) {
      assert.throws(() => entry.describe(other), (e) => e.code === "BAD_ARGUMENT" && e.message.includes(`expected ${name})`));
    }
    const first = (from) => ({ "triple-triad": () => from.TripleTriad.fromPreset("ff8", 1), trax: () => new from.Trax("8x8"), nantong: () => new from.Nantong(1) })[name]();
    const all = await import("arbiter-engine");
    const [start, twin] = [first(entry), first(all)];
    // The same engine: the same moves, the same choice of the computer, the same save.
    assert.deepEqual(start.legalMoves(), twin.legalMoves());
    const level = start.constructor.levels[0];
    assert.equal(start.chooseMove(level, 7), twin.chooseMove(level, 7));
    assert.deepEqual(start.toJSON(), twin.toJSON());
    // Errors are the package's one ArbiterError class.
    assert.throws(() => start.play("not a move"), (e) => e instanceof all.ArbiterError && e instanceof entry.ArbiterError);
    start.free();
    twin.free();
    if (entry.TripleTriadMatch) {
      // The match entry's matches are the full module's: the same deal, moves and save.
      const [match, other] = [entry, all].map((from) => from.TripleTriadMatch.fromPreset("mush", 2));
      match.play(match.game().legalMoves()[0]);
      other.play(other.game().legalMoves()[0]);
      assert.deepEqual(match.toJSON(), other.toJSON());
      const loaded = entry.TripleTriadMatch.fromJSON(JSON.stringify(match.toJSON()));
      assert.deepEqual(loaded.toJSON(), match.toJSON());
      loaded.free();
      match.free();
      other.free();
    }
  });
}

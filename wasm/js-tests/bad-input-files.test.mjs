// The bad-input files (conformance/bad-input/*.jsonl) through the package: every case throws an
// ArbiterError with the code and the message, word for word, that the file gives, which are what
// Rust and the C library say too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { ArbiterError, Nantong, Trax, TripleTriad, TripleTriadMatch } from "arbiter-engine";

const dir = new URL("../../conformance/bad-input/", import.meta.url);
const readers = {
  "triple-triad": (input) => TripleTriad.fromJSON(input),
  "triple-triad-match": (input) => TripleTriadMatch.fromJSON(input),
  trax: (input) => Trax.fromJSON(input),
  "trax-record": (input, variant) => Trax.fromRecord(input, variant),
  nantong: (input) => Nantong.fromJSON(input),
  "nantong-finished-deal": (input) => Nantong.scoreHand(input),
};

const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort();

test("there are bad-input files for every game", () => {
  assert.deepEqual(files, ["nantong.jsonl", "trax.jsonl", "triple-triad.jsonl"]);
});

for (const file of files) {
  test(file, () => {
    const cases = readFileSync(new URL(file, dir), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
    assert.ok(cases.length >= 5);
    for (const { name, load, input, variant, code, message } of cases) {
      let thrown;
      try {
        const made = readers[load](input, variant);
        made?.free?.();
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown instanceof ArbiterError, `${name}: ${thrown?.stack ?? "accepted"}`);
      assert.deepEqual({ code: thrown.code, message: thrown.message }, { code, message }, name);
    }
  });
}

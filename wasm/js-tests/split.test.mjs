// The perft split: the parts of a frontier count to the whole perft, as in Rust, C and Python.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Nantong, Trax, TripleTriad } from "arbiter-engine";
import { own, throwsArbiter } from "./helpers.mjs";

test("the parts of every game's frontier sum to the whole count", (t) => {
  const trax = own(t, new Trax("unbounded"));
  trax.play("@0/");
  const cases = [
    [trax, 4, 2],
    [own(t, TripleTriad.fromPreset("ff8", 3)), 3, 1],
    [own(t, new Nantong(2)), 3, 2],
  ];
  for (const [g, depth, split] of cases) {
    const whole = g.perft(depth);
    for (const parts of [1, 2, 5]) {
      let sum = 0;
      for (let part = 0; part < parts; part++) sum += g.perftPart(depth, split, part, parts);
      assert.equal(sum, whole);
    }
    const frontier = g.frontier(split);
    assert.equal(frontier.reduce((s, p) => s + p.count, 0), g.perft(split));
    assert.equal(typeof frontier[0].line, "string");
    throwsArbiter(() => g.perftPart(depth, split, 3, 3), "BAD_ARGUMENT");
    throwsArbiter(() => g.perftPart(split - 1, split, 0, 1), "BAD_ARGUMENT");
  }
});

test("a frontier line replays to its position", (t) => {
  const root = own(t, new Trax("8x8"));
  for (const { line } of root.frontier(3)) {
    const g = own(t, new Trax("8x8"));
    for (const mv of line.split(", ")) g.play(mv);
    assert.equal(g.tiles >= 3, true);
  }
});

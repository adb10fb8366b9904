// The research interface: observation tensors and legal action masks, as in Rust and C.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Nantong, Trax, TripleTriad } from "arbiter-engine";
import { own, throwsArbiter } from "./helpers.mjs";

const inRange = (tensor) => tensor.every((x) => x >= 0 && x <= 1);

test("tensors have each game's length and stay in 0..1", (t) => {
  const tt = own(t, TripleTriad.fromPreset("mush", 3));
  const trax = own(t, new Trax("8x8"));
  trax.play("@0/");
  const nt = own(t, new Nantong(3));
  for (const [g, player, len] of [[tt, "red", 463], [trax, "white", 507], [nt, 2, 733]]) {
    const tensor = g.observationTensor(player);
    assert.ok(tensor instanceof Float32Array);
    assert.equal(tensor.length, len);
    assert.ok(inRange(tensor));
  }
  throwsArbiter(() => trax.observationTensor("green"), "PARSE_ERROR");
  throwsArbiter(() => nt.observationTensor(3), "BAD_ARGUMENT");
});

test("a closed hand does not show in the opponent's tensor", (t) => {
  const state = own(t, TripleTriad.fromPreset("mush", 5)).toJSON();
  const other = structuredClone(state);
  const hidden = state.to_move === "blue" ? "red" : "blue";
  for (const card of other.hands[hidden]) card.ranks = [1, 1, 1, 1];
  const a = own(t, TripleTriad.fromJSON(state));
  const b = own(t, TripleTriad.fromJSON(other));
  const viewer = state.to_move;
  assert.deepEqual(a.observationTensor(viewer), b.observationTensor(viewer));
  assert.notDeepEqual(a.observationTensor(hidden), b.observationTensor(hidden));
});

test("the mask marks exactly the legal action ids", (t) => {
  for (const g of [own(t, TripleTriad.fromPreset("ff8", 1)), own(t, new Trax("8x8")), own(t, new Nantong(1))]) {
    const mask = g.legalActionMask();
    assert.ok(mask instanceof Uint8Array);
    assert.equal(mask.length, g.numActions);
    const ids = g.legalActions();
    assert.equal(mask.reduce((n, x) => n + x, 0), ids.length);
    for (const id of ids) assert.equal(mask[id], 1);
  }
});

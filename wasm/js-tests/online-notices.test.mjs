// The Online tab's notices (demo/online-notices.js): who is told of a challenge that closed, and
// the line that tells a drawn Triple Triad round and the next one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { closedNotice, roundNotice } from "../demo/online-notices.js";

const alice = { id: 1, name: "alice" };
const bob = { id: 2, name: "bob" };
const challenge = { id: 9, by: alice, seats: [{ kind: "player", name: "alice", taken: true }, { kind: "player", name: "bob", taken: false }] };

test("a refusal is told to the challenger, a withdrawal to the player named", () => {
  assert.equal(closedNotice(challenge, "refused", alice), "bob refused your challenge.");
  assert.equal(closedNotice(challenge, "refused", bob), null);
  assert.equal(closedNotice(challenge, "withdrawn", bob), "alice withdrew the challenge.");
  assert.equal(closedNotice(challenge, "withdrawn", alice), null);
  assert.equal(closedNotice(challenge, "started", bob), null);
  assert.equal(closedNotice(challenge, "withdrawn", { id: 3, name: "carol" }), null);
});

test("a drawn round is told with the next one, once", () => {
  const view = { round: 2, rounds: [{ winner: null, scores: [5, 5] }], rounds_before: 0, observation: { to_move: "red" } };
  assert.equal(roundNotice(1, view), "Round 1 is a 5–5 draw: round 2 begins, red moves first.");
  assert.equal(roundNotice(2, view), null);
  assert.equal(roundNotice(undefined, view), null);
  // A long sudden death lists its last rounds only.
  const later = { round: 12, rounds: [{ winner: null, scores: [4, 4] }], rounds_before: 10, public: { to_move: "blue" } };
  assert.equal(roundNotice(11, later), "Round 11 is a 4–4 draw: round 12 begins, blue moves first.");
});

// Triple Triad through the package: a round, a match, saves, captures, the solver.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TripleTriad, TripleTriadMatch, ArbiterError } from "arbiter-engine";
import { own, throwsArbiter } from "./helpers.mjs";

const card = (name, ranks) => ({ name, ranks });

/** Same Wall + Combo from the rules file's worked example: Squall on cell 1 takes X by Same, then
 * W and Z by Combo. */
const comboState = {
  rules: { same: true, same_wall: true, combo: true },
  board: [
    { card: card("T", [5, 2, 5, 5]), owner: "blue" },
    null,
    { card: card("Z", [4, 1, 4, 8]), owner: "red" },
    { card: card("U", [3, 8, 3, 3]), owner: "red" },
    { card: card("X", [7, 6, 2, 5]), owner: "red" },
    { card: card("W", [9, 4, 3, 2]), owner: "red" },
    null,
    null,
    { card: card("V", [9, 1, 1, 1]), owner: "red" },
  ],
  hands: { blue: [card("Squall", [10, 3, 7, 5]), card("B2", [2, 2, 2, 2])], red: [card("R1", [6, 6, 6, 6]), card("R2", [1, 2, 3, 4])] },
  to_move: "blue",
};

test("a round: moves, captures by rule, scores, the end", (t) => {
  const g = own(t, TripleTriad.fromJSON(comboState));
  assert.equal(g.toMove, "blue");
  assert.equal(g.isOver, false);
  assert.equal(g.outcome, null);
  assert.deepEqual(g.legalMoves(), ["0@1", "0@6", "0@7", "1@1", "1@6", "1@7"]);
  assert.deepEqual(g.legalActions(), [1, 6, 7, 10, 15, 16]);
  assert.equal(g.numActions, 45);
  assert.equal(g.lastCaptures(), null);
  g.play("0@1");
  const { steps, ...captures } = g.lastCaptures();
  // The engine's account: the card placed, Same, then Combo's waves.
  assert.deepEqual(steps[0], { rule: "place", cell: 1, card: g.toJSON().board[1].card.name, owner: "blue" });
  assert.deepEqual(steps[1].rule === "same" && steps[1].captured, [4]);
  assert.deepEqual(steps.slice(2).flatMap((s) => (s.rule === "combo" ? s.captured : [])).sort(), [2, 5]);
  assert.deepEqual(captures, {
    placed_on: 1,
    cell: 1,
    rotated: false,
    same_matches: [4],
    flips: [
      { cell: 2, rule: "combo" },
      { cell: 4, rule: "same" },
      { cell: 5, rule: "combo" },
    ],
    placed_lost: false,
  });
  assert.deepEqual([g.score("blue"), g.score("red")], [6, 4]);
  assert.equal(g.toMove, "red");
  g.play(g.actionId("1@6")); // an action id plays like its notation
  assert.equal(g.actionText(g.actionId("1@6")), "1@6");
  g.play("0@7");
  assert.equal(g.isOver, true);
  assert.equal(g.outcome, "blue");
});

test("a full round ends with an outcome, and moves after it are GAME_OVER", (t) => {
  const g = own(t, TripleTriad.fromPreset("ff8", 3));
  while (!g.isOver) g.play(g.legalMoves()[0]);
  assert.equal(g.toMove, null);
  assert.ok(["blue", "red", "draw"].includes(g.outcome));
  assert.equal(g.score("blue") + g.score("red"), 10);
  assert.deepEqual(g.legalMoves(), []);
  assert.equal(g.chooseMove("greedy", 1), null);
  assert.throws(() => g.play("0@0"), { name: "ArbiterError", code: "GAME_OVER", message: "game over: the board is full" });
});

test("a refused move throws ILLEGAL_MOVE with the core's words and changes nothing", (t) => {
  const g = own(t, TripleTriad.fromPreset("ff8", 1));
  g.play("0@4");
  g.play("0@0");
  const before = JSON.stringify(g);
  assert.throws(() => g.play("0@4"), (e) => e instanceof ArbiterError && e.code === "ILLEGAL_MOVE" && e.message === "cell 4 is occupied");
  assert.throws(() => g.play("4@1"), { code: "ILLEGAL_MOVE", message: `${g.toMove} has no card 4 (hand of 4)` });
  assert.throws(() => g.play("5@0"), { code: "PARSE_ERROR" });
  assert.equal(JSON.stringify(g), before);
});

test("toJSON and fromJSON round-trip exactly, as objects and as text", (t) => {
  const g = own(t, TripleTriad.fromPreset("mush", 99));
  for (let i = 0; i < 4; i++) g.play(g.chooseMove("greedy", i));
  const saved = g.toJSON();
  const back = own(t, TripleTriad.fromJSON(saved));
  assert.deepEqual(back.toJSON(), saved);
  const fromText = own(t, TripleTriad.fromJSON(JSON.stringify(g)));
  assert.deepEqual(fromText.toJSON(), saved);
  assert.equal(back.perft(3), g.perft(3));
  assert.deepEqual(back.legalMoves(), g.legalMoves());
});

test("observations hide the opponent's cards unless the rules are open", (t) => {
  const closed = own(t, TripleTriad.fromPreset("mush", 5)); // mush: closed hands
  const state = closed.toJSON();
  assert.equal(state.rules.open, false);
  for (const [me, them] of [["blue", "red"], ["red", "blue"]]) {
    const o = closed.observation(me);
    assert.equal(o.player, me);
    assert.deepEqual(o.hand, state.hands[me]);
    assert.deepEqual(o.opponent_hand, [null, null, null, null, null]);
    const seen = JSON.stringify(o);
    for (const c of state.hands[them]) {
      if (!state.hands[me].some((mine) => mine.name === c.name)) assert.ok(!seen.includes(JSON.stringify(c.name)), c.name);
    }
  }
  const open = own(t, TripleTriad.fromPreset("ff8", 5));
  assert.deepEqual(open.observation("blue").opponent_hand, open.toJSON().hands.red);
});

test("the observation gives the ranks each placed card plays with under Elemental", (t) => {
  // Cells 0 and 3 are fire, cell 2 ice, cell 1 none: Ifrit (fire) gains one on every rank on
  // fire; Bomb (fire) on ice and Geezard (no element) on fire lose one; Plain keeps its own.
  const elemental = (clamp) => ({
    rules: { elemental: true, elemental_clamp: clamp },
    elements: ["fire", null, "ice", "fire", null, null, null, null, null],
    board: [
      { card: { name: "Ifrit", ranks: [9, 6, 10, 2], element: "fire" }, owner: "blue" },
      { card: card("Plain", [1, 10, 5, 5]), owner: "red" },
      { card: { name: "Bomb", ranks: [2, 1, 3, 10], element: "fire" }, owner: "red" },
      { card: card("Geezard", [1, 4, 1, 5]), owner: "blue" },
      null, null, null, null, null,
    ],
    hands: { blue: [card("B1", [5, 5, 5, 5]), card("B2", [5, 5, 5, 5]), card("B3", [5, 5, 5, 5])], red: [card("R1", [5, 5, 5, 5]), card("R2", [5, 5, 5, 5]), card("R3", [5, 5, 5, 5])] },
    to_move: "red",
  });
  const printed = own(t, TripleTriad.fromJSON({ ...elemental(false), rules: {} })).observation("blue");
  assert.deepEqual(printed.effective, [[9, 6, 10, 2], [1, 10, 5, 5], [2, 1, 3, 10], [1, 4, 1, 5], null, null, null, null, null]);
  // Final Fantasy VIII: an A with one more is 11, a 1 with one less is 0.
  const ff8 = own(t, TripleTriad.fromJSON(elemental(false))).observation("red");
  assert.deepEqual(ff8.effective.slice(0, 5), [[10, 7, 11, 3], [1, 10, 5, 5], [1, 0, 2, 9], [0, 3, 0, 4], null]);
  // The English rules keep them within 1..A.
  const mush = own(t, TripleTriad.fromJSON(elemental(true))).observation("blue");
  assert.deepEqual(mush.effective.slice(0, 5), [[10, 7, 10, 3], [1, 10, 5, 5], [1, 1, 2, 9], [1, 3, 1, 4], null]);
  // The printed ranks stay as they are on the card.
  assert.deepEqual(mush.board[0].card.ranks, [9, 6, 10, 2]);
});

test("clone is independent", (t) => {
  const g = own(t, TripleTriad.fromPreset("ff8", 8));
  const c = own(t, g.clone());
  c.play(c.legalMoves()[0]);
  assert.equal(g.legalMoves().length, 45);
  assert.equal(c.legalMoves().length, 5 * 8);
});

test("perft and solve", (t) => {
  const g = own(t, TripleTriad.fromPreset("ttonline", 2));
  assert.equal(g.perft(0), 1);
  assert.equal(g.perft(1), 45);
  assert.equal(g.perft(2), 45 * 40);
  assert.equal(g.perft(10), 0); // a round has nine moves
  for (let i = 0; i < 4; i++) g.play(g.legalMoves()[i]);
  const s = g.solve();
  assert.equal(typeof s.value, "number");
  assert.ok(g.legalMoves().includes(s.bestMove));
  // Playing the best move keeps the value (from the other side).
  const next = own(t, g.clone());
  next.play(s.bestMove);
  assert.equal(next.solve().value + s.value, 0);
  // Within a budget: a solve that runs out says so; chooseMove plays the best move found then.
  const fresh = own(t, TripleTriad.fromPreset("ttonline", 2));
  throwsArbiter(() => fresh.solve({ nodes: 10 }), "LIMIT_EXCEEDED", "solve nodes");
  throwsArbiter(() => fresh.solve({ timeMs: "soon" }), "BAD_ARGUMENT", "solve timeMs");
  assert.ok(fresh.legalMoves().includes(fresh.chooseMove("perfect", 1, { nodes: 10 })));
  assert.ok(fresh.legalMoves().includes(fresh.chooseMove("expert", 1, { timeMs: 1 })));
  assert.deepEqual(g.solve({ nodes: 1e9 }), s);
});

test("the built-in opponents: every level, seeded, deterministic", (t) => {
  assert.deepEqual(TripleTriad.levels, ["random", "greedy", "perfect", "expert"]);
  const g = own(t, TripleTriad.fromPreset("ff8", 4));
  for (const level of TripleTriad.levels) {
    const mv = g.chooseMove(level, 77);
    assert.ok(g.legalMoves().includes(mv), level);
    assert.equal(g.chooseMove(level, 77), mv);
  }
  assert.equal(g.chooseMove("random", 2n ** 64n - 1n), g.chooseMove("random", 18446744073709551615n));
  assert.throws(() => g.chooseMove("grandmaster", 1), { code: "BAD_ARGUMENT" });
});

test("a match: rounds, sudden death, result and the trade", (t) => {
  const m = own(t, TripleTriadMatch.fromPreset("ff8", 21));
  assert.equal(m.roundNumber, 1);
  assert.equal(m.isOver, false);
  assert.equal(m.result, null);
  assert.deepEqual(m.rounds, []);
  assert.throws(() => m.tradeChoice(), { code: "ILLEGAL_MOVE", message: "the match is not over" });
  let seed = 0;
  while (!m.isOver) {
    const round = m.game();
    m.play(round.chooseMove("greedy", seed++));
    round.free();
  }
  const result = m.result;
  assert.equal(result.rounds, m.roundNumber);
  assert.equal(m.rounds.length, result.rounds);
  assert.equal(m.timeoutMove(), null);
  assert.equal(m.transfers(), null);
  const choice = m.tradeChoice();
  const picks = typeof choice === "object" && "pick" in choice ? [...Array(choice.pick.count).keys()] : [];
  const moved = m.settleTrade(picks);
  assert.deepEqual(m.transfers(), moved);
  if (result.winner) {
    assert.deepEqual(choice, { pick: { chooser: result.winner, count: 1 } });
    assert.equal(moved.length, 1);
    assert.equal(moved[0].to, result.winner);
  }
  assert.throws(() => m.settleTrade(picks), { code: "ILLEGAL_MOVE", message: "the trade is already settled" });
  // The save replays to the same match, trade included.
  const back = own(t, TripleTriadMatch.fromJSON(m.toJSON()));
  assert.deepEqual(back.toJSON(), m.toJSON());
  assert.deepEqual(back.transfers(), moved);
});

test("a match's observation hides what the match hides: three of the other hand under Three Open", (t) => {
  const five = (p) => [1, 2, 3, 4, 5].map((i) => card(`${p}${i}`, [i, 5, 5, i]));
  const m = own(t, TripleTriadMatch.fromJSON({ config: { rules: { three_open: true } }, blue: five("B"), red: five("R"), seed: 7 }));
  const seen = m.observation("blue").opponent_hand;
  assert.equal(seen.length, 5);
  assert.equal(seen.filter((c) => c !== null).length, 3);
  // The round alone hides the whole closed hand.
  assert.equal(own(t, m.game()).observation("blue").opponent_hand.filter((c) => c !== null).length, 0);
  assert.ok(Array.isArray(m.observation("red").effective));
  assert.throws(() => m.observation("green"), { code: "PARSE_ERROR" });
  assert.throws(() => m.observation(2), { code: "BAD_ARGUMENT" });
});

test("a match from JSON, with a timeout move that draws nothing", (t) => {
  const five = (p) => [1, 2, 3, 4, 5].map((i) => card(`${p}${i}`, [i, 5, 5, i]));
  const m = own(t, TripleTriadMatch.fromJSON({ config: { trade: "diff", first: "red" }, blue: five("B"), red: five("R"), seed: "1152921504606846977" }));
  assert.equal(m.toJSON().seed, "1152921504606846977"); // beyond 2^53: kept exactly, as text
  const g = own(t, m.game());
  assert.equal(g.toMove, "red");
  const timeout = m.timeoutMove();
  assert.equal(m.timeoutMove(), timeout);
  m.play(timeout);
  const copy = own(t, m.clone());
  copy.play(copy.timeoutMove());
  assert.equal(m.toJSON().rounds[0].length, 1);
  assert.equal(copy.toJSON().rounds[0].length, 2);
  assert.throws(() => TripleTriadMatch.fromJSON({ config: { round_limit: 0 }, blue: five("B"), red: five("R"), seed: 1 }), {
    code: "PARSE_ERROR",
  });
});

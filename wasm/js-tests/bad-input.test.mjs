// Every kind of bad input to every method: each is an ArbiterError with the right code, never a
// TypeError, a trap or a poisoned instance (a panic on wasm32 would abort every later call).
import { test } from "node:test";
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { ArbiterError, TripleTriad, TripleTriadMatch, Trax, Nantong } from "arbiter-engine";
import { own, throwsArbiter } from "./helpers.mjs";

const BAD = "BAD_ARGUMENT";
const PARSE = "PARSE_ERROR";
const cyclic = {};
cyclic.self = cyclic;

/** Bad values of each kind of parameter, with the code each must throw. */
const bad = {
  text: [undefined, null, 5, true, {}, [], Symbol("x"), () => "x", 10n].map((v) => [v, BAD]),
  move: [
    ...[undefined, null, true, {}, [], Symbol("x"), 10n, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 53, 1e300].map((v) => [v, BAD]),
    ...["", "nonsense", "\u{1F980}", "\0", "1".repeat(10_000)].map((v) => [v, PARSE]),
  ],
  count: [undefined, null, "3", -1, 1.5, NaN, Infinity, 2 ** 32, 1e300, 3n, {}].map((v) => [v, BAD]),
  seed: [undefined, null, "1", -1, 1.5, NaN, 2 ** 53, -1n, 2n ** 64n, {}].map((v) => [v, BAD]),
  json: [
    ...[undefined, null, 5, true, Symbol("x"), 10n].map((v) => [v, BAD]),
    ...["", "not json", "{}", "[]", "null", {}, [], cyclic, { big: 1n }, { rules: { nonsense: true } }].map((v) => [v, PARSE]),
  ],
  picks: [undefined, null, 5, "[0]", [-1], [1.5], ["a"], [256], {}, [null]].map((v) => [v, BAD]),
};

/** Calls `call` with each bad value of `kind`. */
function refuses(kind, call, what) {
  for (const [value, code] of bad[kind]) {
    throwsArbiter(() => call(value), code, `${what}(${inspect(value).slice(0, 40)})`);
  }
}

/** The verbs of every game, with a valid value for each other parameter. */
function sharedVerbs(g, player, level) {
  refuses("move", (v) => g.play(v), "play");
  refuses("count", (v) => g.perft(v), "perft");
  refuses("count", (v) => g.actionText(v), "actionText");
  refuses("text", (v) => g.actionId(v), "actionId");
  refuses("text", (v) => g.chooseMove(v, 1), "chooseMove level");
  refuses("seed", (v) => g.chooseMove(level, v), "chooseMove seed");
  refuses("text", (v) => g.chooseMove(v, 1), "chooseMove level");
  throwsArbiter(() => g.chooseMove("grandmaster", 1), BAD, "unknown level");
  throwsArbiter(() => g.actionText(g.numActions), BAD, "action id past the last");
  throwsArbiter(() => g.play(g.numActions), BAD, "action id past the last");
  throwsArbiter(() => g.actionId("nonsense"), PARSE, "actionId of nonsense");
  for (const [value] of bad.text) throwsArbiter(() => g.observation(value), undefined, "observation");
  throwsArbiter(() => g.observation(typeof player === "number" ? 3 : "purple"), undefined, "observation of nobody");
}

/** After all that, the instance still plays a whole game. */
function stillPlays(g, level) {
  let seed = 0;
  while (!g.isOver) g.play(g.chooseMove(level, seed++));
  assert.notEqual(g.outcome, null);
}

test("Triple Triad rounds refuse bad input", (t) => {
  const g = own(t, TripleTriad.fromPreset("ff8", 1));
  sharedVerbs(g, "blue", "greedy");
  for (const [value] of bad.text) throwsArbiter(() => g.score(value), BAD, "score");
  throwsArbiter(() => g.score("purple"), PARSE, "score of nobody");
  refuses("text", (v) => TripleTriad.fromPreset(v, 1), "fromPreset name");
  throwsArbiter(() => TripleTriad.fromPreset("chess", 1), BAD, "unknown preset");
  refuses("seed", (v) => TripleTriad.fromPreset("ff8", v), "fromPreset seed");
  refuses("json", (v) => TripleTriad.fromJSON(v), "fromJSON");
  stillPlays(g, "greedy");
});

test("Triple Triad matches refuse bad input", (t) => {
  const m = own(t, TripleTriadMatch.fromPreset("ff8", 1));
  refuses("move", (v) => m.play(v), "play");
  refuses("json", (v) => TripleTriadMatch.fromJSON(v), "fromJSON");
  refuses("seed", (v) => TripleTriadMatch.fromPreset("ff8", v), "fromPreset seed");
  refuses("text", (v) => TripleTriadMatch.fromPreset(v, 1), "fromPreset name");
  throwsArbiter(() => m.settleTrade([0]), "ILLEGAL_MOVE", "trade before the end");
  let seed = 0;
  while (!m.isOver) {
    const g = m.game();
    m.play(g.chooseMove("random", seed++));
    g.free();
  }
  refuses("picks", (v) => m.settleTrade(v), "settleTrade");
  if (m.result.winner) {
    throwsArbiter(() => m.settleTrade([0, 0]), "ILLEGAL_MOVE", "two picks");
    throwsArbiter(() => m.settleTrade([5]), "ILLEGAL_MOVE", "pick 5");
  }
});

test("Trax games refuse bad input", (t) => {
  const g = own(t, new Trax("8x8"));
  g.play("@0+");
  sharedVerbs(g, "white", "easy");
  refuses("count", (v) => g.tileAt(v, 1), "tileAt col");
  refuses("count", (v) => g.tileAt(1, v), "tileAt row");
  refuses("text", (v) => new Trax(v), "new Trax variant");
  for (const [value, code] of bad.count.filter(([v]) => v !== undefined)) {
    throwsArbiter(() => new Trax("8x8", value), code, `new Trax maxTiles ${String(value)}`);
  }
  refuses("text", (v) => Trax.fromRecord(v, "8x8"), "fromRecord text");
  refuses("text", (v) => Trax.fromRecord("@0+", v), "fromRecord variant");
  refuses("json", (v) => Trax.fromJSON(v), "fromJSON");
  stillPlays(g, "random");
});

test("Nantong deals refuse bad input", (t) => {
  const g = own(t, new Nantong(3));
  sharedVerbs(g, 0, "basic");
  for (const [value] of [...bad.count, ["0"], [3], [-0.5]]) throwsArbiter(() => g.act(value, "finish"), BAD, `act seat ${String(value)}`);
  refuses("move", (v) => g.act(g.actor, v), "act action");
  refuses("seed", (v) => new Nantong(v), "new Nantong");
  const deck = g.toJSON().deck;
  for (const value of [undefined, null, 5, "[]", {}]) throwsArbiter(() => Nantong.deal(value, 0), undefined, "deal deck");
  throwsArbiter(() => Nantong.deal(deck.slice(1), 0), BAD, "deal a short deck");
  throwsArbiter(() => Nantong.deal(["1x", ...deck.slice(1)], 0), PARSE, "deal an unknown card");
  for (const value of [undefined, null, "0", 3, -1, 0.5]) throwsArbiter(() => Nantong.deal(deck, value), BAD, "deal dealer");
  for (const value of [undefined, null, 5, "1m", {}]) throwsArbiter(() => Nantong.winning(value), undefined, "winning hand");
  for (const value of [null, 5, "[]", [{}], [{ type: "pong" }]]) throwsArbiter(() => Nantong.winning([], value), undefined, "winning melds");
  assert.deepEqual(Nantong.winning(Array(300).fill("1m")), { winning: false, waits: [] }); // no hand, no crash
  refuses("json", (v) => Nantong.scoreHand(v), "scoreHand");
  refuses("json", (v) => Nantong.fromJSON(v), "fromJSON");
  stillPlays(g, "random");
});

test("a freed or disposed object throws an ArbiterError that says so; freeing twice does nothing", () => {
  const freed = (name) => (e) => {
    assert.ok(e instanceof ArbiterError, e.stack);
    assert.equal(e.code, "BAD_ARGUMENT");
    assert.match(e.message, new RegExp(`^this ${name} was freed \\(by free\\(\\) or at the end of its using block\\)`));
    return true;
  };
  const g = TripleTriad.fromPreset("ff8", 1);
  g.free();
  for (const call of [() => g.legalMoves(), () => g.isOver, () => g.play("0@0"), () => g.clone(), () => JSON.stringify(g)]) {
    assert.throws(call, freed("TripleTriad"));
  }
  g.free();
  const d = new Trax("loop");
  d[Symbol.dispose](); // what `using` calls at the end of its block
  assert.throws(() => d.legalMoves(), freed("Trax"));
  d.free();
  const m = TripleTriadMatch.fromPreset("ff8", 1);
  m.free();
  assert.throws(() => m.game(), freed("TripleTriadMatch"));
  const n = new Nantong(1);
  n.free();
  assert.throws(() => n.actor, freed("Nantong"));
  // The instance lives on.
  const h = TripleTriad.fromPreset("ff8", 1);
  assert.equal(h.legalMoves().length, 45);
  h.free();
});

test("huge bad text: a short message, an ArbiterError, and memory that does not grow with it", async () => {
  const { initSync } = await import("arbiter-engine");
  const memory = () => initSync().memory.buffer.byteLength;
  const before = memory();
  const short = (code) => (e) => {
    assert.ok(e instanceof ArbiterError, e.stack);
    assert.equal(e.code, code, e.message);
    assert.ok(e.message.length <= 1100, `a message of ${e.message.length} characters`);
    return true;
  };
  // Past the text limit (2^24 characters): refused before it is copied into the module.
  const huge = "x".repeat(50 << 20);
  for (const call of [() => Trax.fromJSON(huge), () => TripleTriad.fromJSON(huge), () => new Trax("8x8").play(huge), () => Trax.fromRecord(huge, "8x8")]) {
    assert.throws(call, short("LIMIT_EXCEEDED"));
  }
  assert.throws(() => Nantong.scoreHand("é".repeat(50 << 20)), short("LIMIT_EXCEEDED"));
  assert.throws(() => TripleTriad.fromJSON({ rules: {}, board: "x".repeat(50 << 20) }), short("LIMIT_EXCEEDED"));
  // Under it: read, refused, and quoted in a few hundred bytes.
  const big = "Z".repeat(10 << 20);
  const g = new Trax("8x8");
  assert.throws(() => g.play(big), short("PARSE_ERROR"));
  assert.throws(() => Trax.fromRecord(big, "8x8"), short("PARSE_ERROR"));
  assert.throws(() => Trax.fromJSON(JSON.stringify({ variant: "8x8", moves: big })), short("PARSE_ERROR"));
  assert.throws(() => g.perft(big), short("BAD_ARGUMENT"));
  g.free();
  const grown = memory() - before;
  assert.ok(grown <= 128 << 20, `the module's memory grew by ${grown >> 20} MiB`);
});

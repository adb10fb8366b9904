// arbiter-engine/worker in Node (worker_threads): the same answers as the same calls on the main
// thread, errors as ArbiterErrors, calls off by AbortSignal and terminate(), and an idle worker
// that does not keep the process alive (this file would never end otherwise).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ArbiterError, Nantong, Trax, TripleTriad } from "arbiter-engine";
import { ArbiterWorker } from "arbiter-engine/worker";
import { own } from "./helpers.mjs";

const ai = new ArbiterWorker();
/** A Trax 8x8 middle game where `expert` thinks for about half a second. */
const thinking = () => Trax.fromRecord("@0+ A2+ B2+ B3/ B4/ B5/ A0/ B2/", "8x8");

test("the worker chooses the moves the main thread chooses, for every game and level", async (t) => {
  const games = [TripleTriad.fromPreset("mush", 3), thinking(), new Nantong(5)].map((g) => own(t, g));
  for (const g of games) {
    for (const level of g.constructor.levels) {
      const seed = 11;
      assert.equal(await ai.chooseMove(g, level, seed), g.chooseMove(level, seed), `${g.constructor.name} ${level}`);
    }
  }
  // A saved state rather than an object; a bigint seed.
  const g = games[1];
  assert.equal(await ai.chooseMove({ game: "trax", state: g.toJSON() }, "hard", 2n ** 60n), g.chooseMove("hard", 2n ** 60n));
  assert.equal(await ai.chooseMove({ game: "trax", state: JSON.stringify(g) }, "easy", 1), g.chooseMove("easy", 1));
});

test("the worker solves a Triple Triad round as the main thread does", async (t) => {
  const g = own(t, TripleTriad.fromPreset("ff8", 8));
  for (let i = 0; i < 3; i++) g.play(g.chooseMove("greedy", i));
  assert.deepEqual(await ai.solve(g), g.solve());
});

test("calls run in order, and the game object stays the caller's", async (t) => {
  const g = own(t, thinking());
  const moves = [1, 2, 3].map((seed) => ai.chooseMove(g, "medium", seed));
  const expected = [1, 2, 3].map((seed) => g.chooseMove("medium", seed));
  g.play(g.legalMoves()[0]); // the calls above copied the state already
  assert.deepEqual(await Promise.all(moves), expected);
  assert.equal(await ai.chooseMove(g, "random", 1), g.chooseMove("random", 1));
});

test("engine failures reject with the ArbiterError the main thread throws", async (t) => {
  const g = own(t, new Trax("8x8"));
  const thrown = (() => {
    try {
      g.chooseMove("grandmaster", 1);
    } catch (e) {
      return e;
    }
  })();
  await assert.rejects(ai.chooseMove(g, "grandmaster", 1), (e) => e instanceof ArbiterError && e.code === thrown.code && e.message === thrown.message);
  await assert.rejects(ai.chooseMove(g, "easy", -1), (e) => e instanceof ArbiterError && e.code === "BAD_ARGUMENT");
  await assert.rejects(ai.chooseMove({ game: "trax", state: "{" }, "easy", 1), (e) => e instanceof ArbiterError && e.code === "PARSE_ERROR");
  await assert.rejects(ai.solve(g), (e) => e instanceof ArbiterError);
  for (const bad of [null, 5, "trax", {}, { game: "chess", state: {} }]) {
    await assert.rejects(ai.chooseMove(bad, "easy", 1), (e) => e instanceof ArbiterError && e.code === "BAD_ARGUMENT", String(bad));
  }
  const freed = new Trax("8x8");
  freed.free();
  await assert.rejects(ai.chooseMove(freed, "easy", 1), (e) => e instanceof ArbiterError && /was freed/.test(e.message));
  // The worker still answers.
  assert.equal(await ai.chooseMove(g, "easy", 1), g.chooseMove("easy", 1));
});

test("an AbortSignal calls off a search in progress at once, and one not yet started", async (t) => {
  const g = own(t, thinking());
  const controller = new AbortController();
  const started = performance.now();
  const running = ai.chooseMove(g, "expert", 9, { signal: controller.signal });
  const queued = ai.chooseMove(g, "expert", 10, { signal: controller.signal });
  const after = ai.chooseMove(g, "easy", 3);
  setTimeout(() => controller.abort(), 50);
  await assert.rejects(running, { name: "AbortError" });
  await assert.rejects(queued, { name: "AbortError" });
  assert.ok(performance.now() - started < 250, `called off after ${performance.now() - started} ms`);
  // The next call gets a new thread.
  assert.equal(await after, g.chooseMove("easy", 3));
  await assert.rejects(ai.chooseMove(g, "easy", 3, { signal: AbortSignal.abort() }), { name: "AbortError" });
});

test("terminate() rejects every pending call; the worker starts again on the next", async (t) => {
  const g = own(t, thinking());
  const pending = [ai.chooseMove(g, "expert", 1), ai.chooseMove(g, "easy", 1)];
  ai.terminate();
  for (const p of pending) await assert.rejects(p, { name: "AbortError" });
  assert.equal(await ai.chooseMove(g, "easy", 2), g.chooseMove("easy", 2));
});

test("budgets are passed on to the engine", async (t) => {
  const g = own(t, thinking());
  // Whatever the engine makes of a budget, the worker answers as the main thread does with it.
  const budget = { timeMs: 50, nodes: 1000 };
  let direct;
  try {
    direct = { value: g.chooseMove("random", 4, budget) };
  } catch (e) {
    direct = { code: e.code };
  }
  const viaWorker = await ai.chooseMove(g, "random", 4, budget).then((value) => ({ value }), (e) => ({ code: e.code }));
  assert.deepEqual(viaWorker, direct);
});

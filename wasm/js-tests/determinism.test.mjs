// The same seeds and moves give the same games as in Rust: js-tests/fixtures/selfplay.json holds
// self-play games computed natively (wasm/tests/selfplay.rs); here the package plays them again
// and must agree move for move and on the final state, random generators included.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { TripleTriad, TripleTriadMatch, Trax, Nantong } from "arbiter-engine";
import { own } from "./helpers.mjs";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/selfplay.json", import.meta.url), "utf8"));

/** Move `i` by the built-in opponent of level `levels[i % length]`, seed `seed + i`. */
function selfplay(levels, seed, choose, play) {
  const moves = [];
  for (let i = 0; ; i++) {
    const mv = choose(levels[i % levels.length], seed + i);
    if (mv === null) return moves;
    play(mv);
    moves.push(mv);
  }
}

/** Plays the fixture's game `key` from `start(fixture start)` and checks it against Rust's. */
function agrees(t, key, Game, start) {
  const { seed, game } = fixture[key];
  const g = own(t, start(fixture[key].start));
  const moves = selfplay(Game.levels, seed, (l, s) => g.chooseMove(l, s), (m) => g.play(m));
  assert.deepEqual(moves, game.moves);
  const rust = own(t, Game.fromJSON(game.final));
  assert.deepEqual(g.toJSON(), rust.toJSON());
  return [g, rust];
}

test("Triple Triad plays as in Rust", (t) => {
  agrees(t, "triple-triad", TripleTriad, ({ preset, seed }) => TripleTriad.fromPreset(preset, seed));
});

test("a Triple Triad match, trade included, plays as in Rust", (t) => {
  const { start, seed, game } = fixture["triple-triad-match"];
  const m = own(t, TripleTriadMatch.fromPreset(start.preset, start.seed));
  const choose = (level, s) => {
    const round = m.game();
    try {
      return round.chooseMove(level, s);
    } finally {
      round.free();
    }
  };
  const moves = selfplay(TripleTriad.levels, seed, choose, (mv) => m.play(mv));
  assert.deepEqual(moves, game.moves);
  const choice = m.tradeChoice();
  const picks = choice === "automatic" ? [] : "pick" in choice ? [...Array(choice.pick.count).keys()] : [0];
  assert.deepEqual(picks, game.picks);
  m.settleTrade(picks);
  assert.deepEqual(m.toJSON(), own(t, TripleTriadMatch.fromJSON(game.final)).toJSON());
});

test("Trax plays as in Rust", (t) => {
  agrees(t, "trax", Trax, ({ variant }) => new Trax(variant));
});

test("a Nantong deal, its generator included, plays as in Rust", (t) => {
  const [g, rust] = agrees(t, "nantong", Nantong, ({ seed }) => new Nantong(seed));
  // The generator state, beyond 2^53, is exact: the next deals agree too.
  assert.deepEqual(own(t, g.nextDeal()).toJSON(), own(t, rust.nextDeal()).toJSON());
});

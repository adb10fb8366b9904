// The same seeds and moves give the same games as in Rust: test/fixtures/selfplay.json holds
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

test("Triple Triad plays as in Rust", (t) => {
  const { start, seed, game } = fixture["triple-triad"];
  const g = own(t, TripleTriad.fromPreset(start.preset, start.seed));
  const moves = selfplay(TripleTriad.levels, seed, (l, s) => g.chooseMove(l, s), (m) => g.play(m));
  assert.deepEqual(moves, game.moves);
  assert.deepEqual(g.toJSON(), own(t, TripleTriad.fromJSON(game.final)).toJSON());
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
  const { start, seed, game } = fixture.trax;
  const g = own(t, new Trax(start.variant));
  const moves = selfplay(Trax.levels, seed, (l, s) => g.chooseMove(l, s), (m) => g.play(m));
  assert.deepEqual(moves, game.moves);
  assert.deepEqual(g.toJSON(), own(t, Trax.fromJSON(game.final)).toJSON());
});

test("a Nantong deal, its generator included, plays as in Rust", (t) => {
  const { start, seed, game } = fixture.nantong;
  const g = own(t, new Nantong(start.seed));
  const moves = selfplay(Nantong.levels, seed, (l, s) => g.chooseMove(l, s), (m) => g.play(m));
  assert.deepEqual(moves, game.moves);
  assert.deepEqual(g.toJSON(), own(t, Nantong.fromJSON(game.final)).toJSON());
  // The generator state, beyond 2^53, is exact: the next deals agree too.
  assert.deepEqual(own(t, g.nextDeal()).toJSON(), own(t, own(t, Nantong.fromJSON(game.final)).nextDeal()).toJSON());
});

#!/usr/bin/env node
// The JavaScript conformance runner: `node wasm/conformance.mjs FILE...` checks the cases of
// conformance/FORMAT.md (JSON Lines, all three games, every kind) through the package's public
// API only, as a web developer would call it. Like `arbiter conformance`: one line per failing
// case, then `N passed, M failed`; the exit code is non-zero when anything failed, was malformed
// or had an unknown kind.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { TripleTriad, TripleTriadMatch, Trax, Nantong } from "arbiter-engine";

/** A case that cannot pass: why. */
class Failure extends Error {}
const fail = (why) => {
  throw new Failure(why);
};
const show = (v) => JSON.stringify(v) ?? String(v);

/** Compares an expected field with what came out, when the case names it. */
function check(expect, key, got) {
  if (Object.hasOwn(expect, key) && !isDeepStrictEqual(expect[key], got)) {
    fail(`${key}: expected ${show(expect[key])}, got ${show(got)}`);
  }
}

/** A required field of a case. */
function input(c, key) {
  if (!Object.hasOwn(c, key)) fail(`malformed case: no field ${show(key)}`);
  return c[key];
}

const isIndex = (v) => Number.isSafeInteger(v) && v >= 0;

function count(c, key) {
  const v = input(c, key);
  if (!isIndex(v)) fail(`malformed case: ${show(key)} is not a non-negative integer`);
  return v;
}

function list(c, key) {
  const v = input(c, key);
  if (!Array.isArray(v)) fail(`malformed case: ${show(key)} is not a list`);
  return v;
}

/** `error` of an exception, for messages (the engine's words for an ArbiterError). */
const reason = (e) => (e instanceof Error ? e.message : String(e));

/** Runs `body` with a wasm object and frees it afterwards. */
function using(object, body) {
  try {
    return body(object);
  } finally {
    object.free();
  }
}

// ---- Triple Triad -----------------------------------------------------------------------------

/** A conformance move `{card, cell}` in notation. */
function ttMove(mv, i) {
  if (!isIndex(mv?.card) || !isIndex(mv?.cell)) fail(`move ${i}: not {card, cell} with integers`);
  return `${mv.card}@${mv.cell}`;
}

/** Runs `attempt`; an expected `"error": true` passes when it throws, and fails when it does not. */
function expecting(expect, attempt, check) {
  const wantError = expect.error === true;
  let result;
  try {
    result = attempt();
  } catch (e) {
    if (wantError) return;
    throw e;
  }
  try {
    if (wantError) fail("expected an error, but everything was accepted");
    check(result);
  } finally {
    result.free();
  }
}

function ttPlay(c, expect) {
  const moves = list(c, "moves");
  expecting(
    expect,
    () => {
      const g = TripleTriad.fromJSON(input(c, "state"));
      try {
        moves.forEach((mv, i) => g.play(ttMove(mv, i)));
      } catch (e) {
        g.free();
        throw e;
      }
      return g;
    },
    (g) => {
      const board = g.toJSON().board.map((p) => p && { name: p.card.name, owner: p.owner });
      check(expect, "board", board);
      check(expect, "score", { blue: g.score("blue"), red: g.score("red") });
      check(expect, "over", g.isOver);
      check(expect, "winner", g.outcome);
      check(expect, "steps", g.lastCaptures()?.steps ?? null);
    },
  );
}

function ttState(c) {
  try {
    return TripleTriad.fromJSON(input(c, "state"));
  } catch (e) {
    if (e instanceof Failure) throw e;
    fail(`bad state: ${reason(e)}`);
  }
}

/** A number read off the case's state into `expect[key]`, or the error `"error": true` expects. */
function ttCount(expect, c, read, key) {
  expecting(
    expect,
    () => ({ value: using(ttState(c), read), free() {} }),
    (r) => check(expect, key, r.value),
  );
}

/** A match case as the package reads matches: `{config, blue, red, seed}`. */
function matchJSON(c) {
  const given = (key, fallback) => c[key] ?? fallback;
  return {
    config: {
      rules: given("rules", {}),
      elements: { given: given("elements", Array(9).fill(null)) },
      walls: given("walls", []),
      sudden_death: input(c, "sudden_death"),
      round_limit: input(c, "round_limit"),
      trade: input(c, "trade"),
      first: input(c, "first"),
      owned: given("owned", null),
    },
    blue: input(c, "blue"),
    red: input(c, "red"),
    seed: 0,
  };
}

const other = (p) => (p === "blue" ? "red" : "blue");

/** Plays the case's match and settles the trade: the match and its transfers. */
function ttMatchPlay(c) {
  const m = TripleTriadMatch.fromJSON(matchJSON(c));
  try {
    const rounds = list(c, "rounds");
    rounds.forEach((round, n) => {
      if (m.isOver) fail(`round ${n + 1} after the end of the match`);
      if (!Array.isArray(round)) fail("a round is not a list");
      for (const mv of round) {
        const name = mv?.card;
        if (typeof name !== "string") fail("a move without a card name");
        if (!isIndex(mv.cell)) fail("a move without a cell");
        const card = using(m.game(), (g) => {
          const mover = g.toMove ?? fail("a move after the end of the round");
          const i = g.toJSON().hands[mover].findIndex((h) => h.name === name);
          return i >= 0 ? i : fail(`${mover} holds no ${name}`);
        });
        m.play(`${card}@${mv.cell}`);
      }
      if (!m.isOver && m.roundNumber !== n + 2) fail(`round ${n + 1} ends before the board is full`);
    });
    const result = m.result ?? fail("the rounds end before the match does");
    const picks = c.picks ?? [];
    if (!Array.isArray(picks)) fail("picks is not a list");
    // Picks name cards the loser brought; a match without a winner has no loser to pick from.
    const brought = result.winner && m.toJSON()[other(result.winner)];
    const indices = picks.map((name) => {
      const i = brought ? brought.findIndex((card) => card.name === name) : -1;
      return i >= 0 ? i : fail(`pick ${show(name)} is not a card the loser brought`);
    });
    const transfers = m.settleTrade(indices);
    return Object.assign(m, { settled: transfers });
  } catch (e) {
    m.free();
    throw e;
  }
}

/** A canonical text of a JSON value (keys sorted), to compare lists as multisets. */
const canonical = (v) =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x,
  );
const multiset = (items) => items.map(canonical).sort();

function ttMatch(c, expect) {
  expecting(
    expect,
    () => ttMatchPlay(c),
    (m) => {
      const rounds = m.rounds.map((r) => ({
        score: { blue: r.scores[0], red: r.scores[1] },
        winner: r.winner ?? "draw",
      }));
      check(expect, "rounds", rounds);
      check(expect, "winner", m.result.winner ?? "draw");
      if (Object.hasOwn(expect, "transfers")) {
        if (!Array.isArray(expect.transfers)) fail("malformed case: transfers is not a list");
        const got = m.settled.map((t) => ({ card: t.card.name, from: t.from, to: t.to }));
        if (!isDeepStrictEqual(multiset(got), multiset(expect.transfers))) {
          fail(`transfers: expected ${show(expect.transfers)}, got ${show(got)}`);
        }
      }
    },
  );
}

const tripleTriad = {
  play: ttPlay,
  perft: (c, expect) => {
    const depth = count(c, "depth");
    ttCount(expect, c, (g) => g.perft(depth), "nodes");
  },
  solve: (c, expect) => ttCount(expect, c, (g) => g.solve().value, "value"),
  match: ttMatch,
};

// ---- Trax -------------------------------------------------------------------------------------

function traxInput(c) {
  const variant = input(c, "variant");
  if (typeof variant !== "string") fail('malformed case: "variant" is not a string');
  const moves = list(c, "moves");
  if (!moves.every((m) => typeof m === "string")) fail("malformed case: a move is not a string");
  let g;
  try {
    g = new Trax(variant);
  } catch (e) {
    fail(`malformed case: ${reason(e)}`);
  }
  return { g, moves };
}

/** Plays the moves: the index of the first refused one (malformed notation included), or -1. */
function traxReplay(g, moves) {
  return moves.findIndex((mv) => {
    try {
      g.play(mv);
      return false;
    } catch {
      return true;
    }
  });
}

const trax = {
  play: (c, expect) => {
    const { g, moves } = traxInput(c);
    using(g, () => {
      const refused = traxReplay(g, moves);
      if (refused >= 0) {
        check(expect, "legal", false);
        check(expect, "illegal_at", refused);
        return;
      }
      check(expect, "legal", true);
      check(expect, "over", g.isOver);
      check(expect, "winner", g.outcome);
      check(expect, "tiles", g.tiles);
      check(expect, "to_move", g.nextPlayer);
      if (Object.hasOwn(expect, "legal_moves")) check(expect, "legal_moves", g.legalMoves().length);
    });
  },
  perft: (c, expect) => {
    const { g, moves } = traxInput(c);
    using(g, () => {
      const depth = count(c, "depth");
      const refused = traxReplay(g, moves);
      if (refused >= 0) fail(`move ${refused} of the case is refused`);
      check(expect, "nodes", g.perft(depth));
    });
  },
};

// ---- Nantong ----------------------------------------------------------------------------------

function codes(c, key) {
  const v = list(c, key);
  if (!v.every((x) => typeof x === "string")) fail(`malformed case: ${key} holds a non-string`);
  return v;
}

const nantong = {
  winning: (c, expect) => {
    const { winning, waits } = Nantong.winning(codes(c, "hand"), Object.hasOwn(c, "melds") ? c.melds : []);
    check(expect, "winning", winning);
    if (Object.hasOwn(expect, "waits")) {
      if (!Array.isArray(expect.waits)) fail("malformed case: waits is not a list");
      if (!isDeepStrictEqual([...waits].sort(), [...expect.waits].sort())) {
        fail(`waits: expected ${show(expect.waits)}, got ${show(waits)}`);
      }
    }
  },
  score: (c, expect) => {
    const { totals, settlement } = Nantong.scoreHand(c);
    check(expect, "totals", totals);
    check(expect, "settlement", settlement);
  },
  replay: (c, expect) => {
    const deck = input(c, "deck");
    const dealer = count(c, "dealer");
    const actions = list(c, "actions");
    let g;
    try {
      g = Nantong.deal(deck, dealer);
    } catch (e) {
      fail(`bad deal: ${reason(e)}`);
    }
    using(g, () => {
      // The cases list only the claim questions a seat could act on: the others are passed.
      for (const [n, a] of actions.entries()) {
        g.passForced();
        if (!isIndex(a?.seat)) fail(`malformed case: action ${n} has no seat`);
        if (typeof a.action !== "string") fail(`malformed case: action ${n} has no action`);
        try {
          g.act(a.seat, a.action);
        } catch (e) {
          if (expect.legal === false) return check(expect, "illegal_at", n);
          fail(`action ${n} (${a.seat}: ${a.action}) refused: ${reason(e)}`);
        }
      }
      g.passForced();
      check(expect, "legal", true);
      check(expect, "over", g.isOver);
      if (Object.hasOwn(expect, "scores")) {
        const score = g.score() ?? fail(`scores: expected ${show(expect.scores)}, but the deal is not over`);
        check(expect.scores, "totals", score.totals);
        check(expect.scores, "settlement", score.settlement);
      }
    });
  },
};

// ---- The run ----------------------------------------------------------------------------------

const games = { "triple-triad": tripleTriad, trax, nantong };

/** Runs one line: the case's name (if any) and why it failed (`null` when it passed). */
function runLine(line) {
  let c;
  try {
    c = JSON.parse(line);
  } catch (e) {
    return [null, `malformed line: ${reason(e)}`];
  }
  const name = typeof c?.name === "string" ? c.name : null;
  try {
    if (c === null || typeof c !== "object" || Array.isArray(c)) fail("malformed case: not an object");
    for (const key of ["game", "kind", "name"]) {
      if (typeof c[key] !== "string") fail(`malformed case: no string field ${show(key)}`);
    }
    const expect = c.expect;
    if (expect === null || typeof expect !== "object" || Array.isArray(expect)) {
      fail('malformed case: no object field "expect"');
    }
    const kinds = Object.hasOwn(games, c.game) ? games[c.game] : fail(`unknown game ${show(c.game)}`);
    const run = Object.hasOwn(kinds, c.kind) ? kinds[c.kind] : fail(`unknown kind ${show(c.kind)} for ${c.game}`);
    run(c, expect);
    return [name, null];
  } catch (e) {
    // An engine error where the case expected success, or anything the case broke.
    return [name, e instanceof Failure ? e.message : `${e?.name ?? "error"}: ${reason(e)}`];
  }
}

const files = process.argv.slice(2);
let passed = 0;
let failed = 0;
const utf8 = new TextDecoder("utf-8", { fatal: true });
for (const file of files) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    console.log(`FAIL ${file}: cannot read: ${reason(e)}`);
    failed++;
    continue;
  }
  let start = 0;
  for (let n = 0; start <= bytes.length; n++) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    const raw = bytes.subarray(start, end);
    start = end + 1;
    let line;
    try {
      line = utf8.decode(raw);
    } catch (e) {
      console.log(`FAIL ${file}:${n + 1}: malformed line: not UTF-8`);
      failed++;
      continue;
    }
    if (line.trim() === "") continue;
    const [name, why] = runLine(line);
    if (why === null) {
      passed++;
    } else {
      failed++;
      console.log(`FAIL ${name ?? `${file}:${n + 1}`}: ${why}`);
    }
  }
}
if (passed + failed === 0) {
  // A run that checked nothing must not look like a success.
  console.log("FAIL no conformance case in the files given");
  failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;

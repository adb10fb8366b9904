// Trax through the package: variants, notation, forced tiles, loops and lines, records, undo.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Trax } from "arbiter-engine";
import { own, throwsArbiter } from "./helpers.mjs";

const played = (t, variant, moves) => {
  const g = own(t, new Trax(variant));
  for (const m of moves.split(" ")) g.play(m);
  return g;
};

test("a game: moves, forced tiles, a loop wins", (t) => {
  const g = own(t, new Trax("unbounded"));
  assert.equal(g.variant, "unbounded");
  assert.equal(g.toMove, "white");
  assert.deepEqual(g.legalMoves(), ["@0+", "@0/"]);
  assert.deepEqual(g.size, { cols: 0, rows: 0 });
  assert.equal(g.lastTurn(), null);
  g.play("@0/");
  assert.deepEqual(g.tileAt(1, 1), { shape: "/", edges: ["white", "red", "red", "white"] }); // N, E, S, W
  assert.equal(g.tileAt(2, 1), null);
  assert.equal(g.legalMoves().length, 12);
  g.play("B1\\");
  g.play("B2/");
  // B2/ forced a fourth tile that closed a red loop: white's move made red win.
  assert.deepEqual(g.lastTurn(), { move: "B2/", placed: { col: 2, row: 2 }, forced: [{ col: 1, row: 2 }] });
  assert.equal(g.tiles, 4);
  assert.equal(g.isOver, true);
  assert.equal(g.outcome, "red");
  const at = (col, row) => ({ col, row });
  assert.deepEqual(g.win(), { winner: "red", by_loop: true, by_line: false, tracks: [[at(2, 2), at(1, 2), at(1, 1), at(2, 1)]] });
  assert.equal(g.toMove, null);
  assert.equal(g.nextPlayer, "red");
  throwsArbiter(() => g.play("C1+"), "GAME_OVER");
  // Undo resumes the game exactly.
  assert.equal(g.undo(), "B2/");
  assert.deepEqual([g.isOver, g.win(), g.tiles, g.toMove], [false, null, 2, "white"]);
  assert.deepEqual(g.lastTurn(), { move: "B1\\", placed: { col: 2, row: 1 }, forced: [] });
});

test("a line wins unbounded games, never loop games", (t) => {
  const column = "@0+ A2+ A3+ A4+ A5+ A6+ A7+ A8+";
  const win = played(t, "unbounded", column).win();
  assert.deepEqual({ ...win, tracks: undefined }, { winner: "white", by_loop: false, by_line: true, tracks: undefined });
  const cells = win.tracks.flat().map(({ col, row }) => [col, row]).sort((a, b) => a[1] - b[1]);
  assert.deepEqual([win.tracks.length, cells], [1, [1, 2, 3, 4, 5, 6, 7, 8].map((row) => [1, row])]);
  const loop = played(t, "loop", column);
  assert.equal(loop.isOver, false);
  assert.equal(loop.win(), null);
});

test("refused moves say why and change nothing", (t) => {
  const g = own(t, new Trax("8x8"));
  throwsArbiter(() => g.play("B2+"), "ILLEGAL_MOVE");
  assert.throws(() => g.play("B2+"), { message: "the first move must be @0+ or @0/, not B2+" });
  throwsArbiter(() => g.play("X9?"), "PARSE_ERROR");
  g.play("@0+");
  const before = g.toJSON();
  throwsArbiter(() => g.play("@0\\"), "ILLEGAL_MOVE");
  assert.deepEqual(g.toJSON(), before);
});

test("the tile limit: once no turn fits, the game is over, drawn", (t) => {
  const g = own(t, new Trax("loop", 3));
  assert.equal(g.maxTiles, 3);
  g.play("@0+");
  g.play("A2+");
  g.play("A3+");
  assert.equal(g.isOver, true);
  assert.equal(g.outcome, "draw");
  throwsArbiter(() => g.play("A4+"), "GAME_OVER");
  assert.deepEqual(g.toJSON(), { variant: "loop", moves: ["@0+", "A2+", "A3+"], max_tiles: 3 });
  throwsArbiter(() => new Trax("loop", 0), "BAD_ARGUMENT");
  throwsArbiter(() => new Trax("loop", 40_000), "BAD_ARGUMENT");
  throwsArbiter(() => new Trax("loop", -1), "BAD_ARGUMENT");
});

test("records, saves and observations", (t) => {
  const g = own(t, Trax.fromRecord('[Event "Club"]\n1. @0/ B1\\ ; a comment\n2. b2/ Resign', "unbounded"));
  assert.deepEqual(g.toJSON(), { variant: "unbounded", moves: ["@0/", "B1\\", "B2/"] });
  assert.deepEqual(g.observation("white"), g.toJSON());
  const back = own(t, Trax.fromJSON(JSON.stringify(g)));
  assert.deepEqual([back.outcome, back.tiles, back.lastTurn()], ["red", 4, g.lastTurn()]);
  throwsArbiter(() => Trax.fromRecord("1. @0/ X9?", "8x8"), "PARSE_ERROR");
  assert.throws(() => Trax.fromRecord("@0/ A1/", "8x8"), { code: "ILLEGAL_MOVE", message: "move 2: A1/: the cell is occupied" });
  throwsArbiter(() => Trax.fromJSON({ variant: "8x8", moves: ["@0\\"] }), "PARSE_ERROR");
  throwsArbiter(() => new Trax("9x9"), "PARSE_ERROR");
});

test("perft, action ids, opponents and copies", (t) => {
  const g = own(t, new Trax("unbounded"));
  assert.deepEqual([0, 1, 2, 3, 4].map((d) => g.perft(d)), [1, 2, 24, 432, 9568]);
  assert.equal(g.perft(2 ** 32 - 1), 0); // deeper than the tile limit allows: nothing, at once
  assert.deepEqual(Trax.levels, ["random", "easy", "medium", "hard", "expert"]);
  assert.equal(new Trax("8x8").numActions, 300);
  for (const id of g.legalActions()) assert.ok(g.legalMoves().includes(g.actionText(id)));
  const c = own(t, g.clone());
  c.play(c.chooseMove("easy", 3));
  assert.equal(g.tiles, 0);
  assert.equal(c.tiles, 1);
  while (!c.isOver) c.play(c.chooseMove("random", c.tiles));
  assert.ok(["white", "red", "draw"].includes(c.outcome));
});

test("the computer within a budget: nodes and milliseconds, the best move so far", (t) => {
  // A Loop column of 300 straight tiles: thousands of moves, a search of seconds without a budget.
  const moves = ["@0+"];
  for (let i = 2; i <= 300; i++) moves.push(`A${i}+`);
  const g = own(t, Trax.fromRecord(moves.join(" "), "loop"));
  const legal = g.legalMoves();
  for (const options of [{ nodes: 50 }, { timeMs: 1 }, { timeMs: 5, nodes: 1 }, {}, null, undefined]) {
    const level = options === undefined ? "medium" : "expert";
    assert.ok(legal.includes(g.chooseMove(level, 1, options)), JSON.stringify(options));
  }
  // Without a clock, a node budget keeps the choice deterministic.
  assert.equal(g.chooseMove("expert", 4, { nodes: 200 }), g.chooseMove("expert", 4, { nodes: 200 }));
  for (const bad of [{ timeMs: -1 }, { timeMs: 0 }, { nodes: 1.5 }, { nodes: 0 }, { fast: true }, "fast", 3]) {
    throwsArbiter(() => g.chooseMove("expert", 1, bad), "BAD_ARGUMENT", JSON.stringify(bad));
  }
  // The budget is read as its JSON carries it: fields JSON drops are absent, and of several faults
  // the first field in byte order is named, whatever the object's own order.
  assert.ok(legal.includes(g.chooseMove("expert", 1, { nodes: 50, timeMs: undefined })));
  const why = (options) => {
    try {
      g.chooseMove("expert", 1, options);
    } catch (e) {
      return e.message;
    }
    return "accepted";
  };
  assert.match(why({ timeMs: -1, fast: true }), /^chooseMove options: unknown option "fast" \(expected timeMs or nodes\), got /);
  assert.match(why({ timeMs: -1, nodes: 0 }), /^chooseMove options: nodes must be a positive integer, got /);
  assert.match(why({ nodes: 2 ** 53 }), /^chooseMove options: nodes must be a positive integer, got /);
  assert.match(why([1]), /^chooseMove options: expected an object \{ timeMs, nodes \}, got /);
});

test("at its tile limit a game is over, drawn: isOver, outcome, legalMoves and chooseMove agree", (t) => {
  const g = own(t, new Trax("unbounded", 12));
  let seed = 0;
  for (let mv = g.chooseMove("easy", seed); mv !== null; mv = g.chooseMove("easy", ++seed)) g.play(mv);
  assert.equal(g.isOver, true);
  assert.notEqual(g.outcome, null);
  assert.equal(g.toMove, null);
  assert.deepEqual(g.legalMoves(), []);
});

test("notation outside the action ids is BAD_ARGUMENT, never another move's id", (t) => {
  const small = own(t, new Trax("8x8"));
  assert.equal(small.actionText(small.actionId("I1+")), "I1+");
  throwsArbiter(() => small.actionId("K1+"), "BAD_ARGUMENT");
  const big = own(t, new Trax("unbounded"));
  assert.equal(big.actionText(big.actionId("A1023+")), "A1023+");
  throwsArbiter(() => big.actionId("A5000+"), "BAD_ARGUMENT");
});

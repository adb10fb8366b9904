// Nantong through the package: deals, seats, actions, claims hidden from others, scores, saves.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Nantong } from "arbiter-engine";
import { own, throwsArbiter } from "./helpers.mjs";

const KINDS = [..."msc"].flatMap((suit) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((rank) => `${rank}${suit}`)).concat(["T", "W", "R"]);
const orderedDeck = () => KINDS.flatMap((k) => [k, k, k, k]);

test("a deal: the dealer, hands, preparation, the first discard", (t) => {
  const g = own(t, Nantong.deal(orderedDeck(), 1));
  assert.equal(g.dealer, 1);
  assert.equal(g.actor, 1);
  assert.equal(g.toMove, 1);
  const seen = g.observation(1);
  assert.equal(seen.hand.length, 23);
  assert.deepEqual(seen.hand_sizes, [22, 23, 22]);
  assert.equal(seen.stock, 51);
  assert.deepEqual(seen.indicators, ["8s", "9s"]); // cards 67 and 68 of the ordered deck
  assert.ok(g.legalMoves().includes("finish"));
  // Every seat ends preparation, dealer first; then the dealer discards.
  while (g.legalMoves().includes("finish")) g.play("finish");
  assert.equal(g.actor, 1);
  const discard = g.legalMoves().find((a) => a.startsWith("discard "));
  g.act(1, discard);
  assert.deepEqual(g.observation(0).discards.at(-1), [1, discard.slice("discard ".length)]);
});

test("acting out of turn or illegally is ILLEGAL_MOVE and changes nothing", (t) => {
  const g = own(t, new Nantong(8));
  const before = JSON.stringify(g);
  const other = (g.actor + 1) % 3;
  throwsArbiter(() => g.act(other, "finish"), "ILLEGAL_MOVE");
  throwsArbiter(() => g.play("pong"), "ILLEGAL_MOVE");
  throwsArbiter(() => g.play("discard 9x"), "PARSE_ERROR");
  throwsArbiter(() => g.act(3, "finish"), "BAD_ARGUMENT");
  assert.equal(JSON.stringify(g), before);
});

test("observations show a seat its own hand only", (t) => {
  const g = own(t, new Nantong(31));
  const state = g.toJSON();
  for (const seat of [0, 1, 2]) {
    const o = g.observation(seat);
    assert.equal(o.seat, seat);
    assert.equal(o.hand.length, o.hand_sizes[seat]);
    assert.deepEqual(Object.keys(o).sort(), ["actions", "claim", "dealer", "discards", "hand", "hand_sizes", "indicators", "last_event", "melds", "ready", "seat", "stock", "to_act"]);
    assert.ok(!("deck" in o) && !("rng" in o));
    if (seat !== g.actor) assert.deepEqual(o.actions, []);
  }
  // The hands of the three seats are disjoint parts of the deck: none shows another's.
  const dealt = state.deck.slice(0, 67);
  const hands = [0, 1, 2].map((s) => g.observation(s).hand);
  assert.deepEqual(hands.flat().sort(), [...dealt].sort());
});

test("after a discard every other seat answers in turn; the last event shows a draw to its drawer only", (t) => {
  const g = own(t, Nantong.deal(orderedDeck(), 1));
  assert.equal(g.observation(0).last_event, null);
  while (g.legalMoves().includes("finish")) g.play("finish");
  g.act(1, g.legalMoves().find((a) => a.startsWith("discard ")));
  // Seat 2 then seat 0 are asked about winning, whatever they hold; pass is always an answer.
  for (const seat of [2, 0]) {
    assert.equal(g.actor, seat);
    for (const s of [0, 1, 2]) assert.equal(g.observation(s).to_act, seat);
    assert.ok(g.legalMoves().includes("pass"));
    g.act(seat, "pass");
  }
  g.passForced();
  // The window is closed: seat 2 drew.
  assert.equal(g.actor, 2);
  const mine = g.observation(2).last_event;
  const theirs = g.observation(0).last_event;
  assert.equal(mine.draws.length, 1);
  assert.deepEqual({ ...mine.draws[0], card: null }, { seat: 2, replacement: false, card: null });
  assert.equal(typeof mine.draws[0].card, "string");
  assert.equal(theirs.draws[0].card, null);
  assert.deepEqual(g.observation(2).hand.length, 23);
});

test("claim questions show only to the seat asked", (t) => {
  // Play until some seat is asked about a discard: the others see no question.
  const g = own(t, new Nantong(5));
  for (let i = 0; !g.isOver && i < 2000; i++) {
    const asked = g.actor;
    const o = g.observation(asked);
    if (o.claim !== null) {
      for (const s of [0, 1, 2].filter((s) => s !== asked)) {
        const other = g.observation(s);
        assert.equal(other.claim, null);
        assert.deepEqual(other.actions, []);
      }
      return;
    }
    g.play(g.chooseMove("basic", i));
  }
  assert.fail("no claim question came up");
});

test("a whole deal: saves round-trip with the generator, scores, the next deal", (t) => {
  const g = own(t, new Nantong(2024n));
  let i = 0;
  while (!g.isOver) {
    g.play(g.chooseMove(Nantong.levels[i % 2], i));
    i++;
    if (i === 40) {
      const saved = JSON.stringify(g);
      const back = own(t, Nantong.fromJSON(saved));
      assert.equal(JSON.stringify(back), saved);
      assert.deepEqual(back.legalMoves(), g.legalMoves());
    }
  }
  assert.equal(g.actor, null);
  assert.deepEqual(g.legalMoves(), []);
  const score = g.score();
  assert.equal(score.settlement.reduce((a, b) => a + b, 0), 0);
  assert.equal(score.totals.length, 3);
  const win = g.win();
  assert.equal(g.outcome, win === null ? "draw" : win.seat);
  // The generator's state is saved exactly (it is far beyond 2^53): the next deals agree.
  const state = g.toJSON();
  assert.equal(typeof state.rng.state, "string");
  const back = own(t, Nantong.fromJSON(state));
  assert.deepEqual(own(t, back.nextDeal()).toJSON(), own(t, g.nextDeal()).toJSON());
  assert.equal(own(t, g.nextDeal()).dealer, (g.dealer + 1) % 3);
});

test("winning checks and waits, with melds", () => {
  const hand = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s 1c 2c 3c T T".split(" ");
  assert.deepEqual(Nantong.winning(hand), { winning: true, waits: [] });
  assert.deepEqual(Nantong.winning(hand.slice(0, -1)), { winning: false, waits: ["T"] });
  const short = hand.slice(3, -1); // 1m 2m 3m made a pong of W instead
  assert.deepEqual(Nantong.winning(short, [{ type: "pong", card: "W" }]), { winning: false, waits: ["T"] });
  throwsArbiter(() => Nantong.winning(["1x"]), "PARSE_ERROR");
  throwsArbiter(() => Nantong.winning(hand, [{ type: "triple", card: "W" }]), "PARSE_ERROR");
});

test("scoring a finished deal", () => {
  const hands = [
    "2m 2m 2m 6s 6s 6s 1m 4m 7m 1s 4s 7s 1c 4c 7c 2c 5c 8c 9c 9c T W",
    "2s 2s 2s 2m 5m 8m 3s 5s 8s 2c 5c 8c 3c 6c 9c 1m 4m 7m 1s 4s 7s R",
    "5m 5m 6m 6m 8m 8m 9m 9m 1s 1s 4s 4s 7s 7s 1c 1c 4c 4c 7c 7c 3c 3c",
  ];
  const input = { indicators: ["2s", "3m"], dealer: 0, players: hands.map((h) => ({ hand: h.split(" ") })), win: null };
  const score = Nantong.scoreHand(input);
  assert.deepEqual(score.totals, [20, 30, 0]);
  assert.equal(score.settlement.reduce((a, b) => a + b, 0), 0);
  // Three 2s in hand: 12 hu, doubled by the 2s indicator's rank, 24 rounded up to 30.
  assert.deepEqual(score.players[1], {
    groups: [{ source: "three_in_hand", card: "2s", base: 12, doublings: ["indicator rank"], value: 24 }],
    base: 24,
    bonuses: [],
    multipliers: [],
    raw: 24,
    total: 30,
  });
  assert.deepEqual(Nantong.scoreHand(JSON.stringify(input)), score);
  // Seventeen pongs are not the end of any deal: refused, not scored.
  const pongs = { ...input, players: [{ ...input.players[0], melds: Array(17).fill({ type: "pong", card: "5m" }) }, ...input.players.slice(1)] };
  throwsArbiter(() => Nantong.scoreHand(pongs), "PARSE_ERROR");
  throwsArbiter(() => Nantong.scoreHand({ ...input, win: undefined }), "PARSE_ERROR");
});

test("perft and action ids", (t) => {
  const g = own(t, Nantong.deal(orderedDeck(), 0));
  assert.equal(g.numActions, 157);
  assert.equal(g.perft(1), g.legalMoves().length);
  assert.deepEqual(g.legalActions().map((id) => g.actionText(id)), g.legalMoves());
  assert.equal(g.actionId("finish"), 156);
  assert.deepEqual(Nantong.levels, ["random", "basic", "strong"]);
});

test("a smaller deal: its sizes, a whole deal, its save, refusals", (t) => {
  const g = own(t, new Nantong(4, { groups: 1, kinds: 5 }));
  assert.deepEqual([g.groups, g.kinds], [1, 5]);
  const seen = g.observation(g.dealer);
  assert.equal(seen.hand.length, 5);
  assert.equal(seen.hand_sizes.reduce((a, b) => a + b, 0), 13);
  assert.equal(seen.stock, 5);
  assert.ok([...seen.hand, ...seen.indicators].every((c) => ["1m", "2m", "3m", "4m", "5m"].includes(c)));
  for (let i = 0; !g.isOver; i++) g.play(g.chooseMove("basic", i));
  const state = g.toJSON();
  assert.equal(state.groups, 1);
  assert.equal(state.deck.length, 20);
  const back = own(t, Nantong.fromJSON(state));
  assert.deepEqual([back.groups, back.kinds, back.outcome], [1, 5, g.outcome]);
  assert.deepEqual(own(t, g.nextDeal()).toJSON().deck.length, 20);
  // Either size alone keeps the other's full value; the full game's save names no groups.
  assert.equal(own(t, new Nantong(4, {})).toJSON().groups, undefined);
  assert.deepEqual(own(t, new Nantong(4, {})).toJSON(), own(t, new Nantong(4)).toJSON());
  assert.equal(own(t, new Nantong(4, { kinds: 20 })).groups, 7);
  // A pair alone wins: two kinds deal the dealer two cards, the others one each.
  const tiny = own(t, Nantong.deal("1m 2m 1m 2m 1m 2m 1m 2m".split(" "), 0, 0));
  assert.deepEqual([tiny.groups, tiny.kinds], [0, 2]);
  assert.deepEqual(tiny.observation(0).hand_sizes, [2, 1, 1]);
  assert.equal(own(t, Nantong.deal(orderedDeck(), 2)).groups, 7);
  throwsArbiter(() => new Nantong(4, { groups: 8 }), "BAD_ARGUMENT");
  assert.throws(() => new Nantong(4, { groups: 7, kinds: 17 }), /at least 18 kinds/);
  throwsArbiter(() => new Nantong(4, { deals: 2 }), "PARSE_ERROR");
  throwsArbiter(() => new Nantong(4, 1), "BAD_ARGUMENT");
  throwsArbiter(() => Nantong.deal(orderedDeck().slice(0, 8), 0, 1), "BAD_ARGUMENT");
  // Without groups a deck is the full game's, as ever.
  assert.throws(() => Nantong.deal(orderedDeck().slice(0, 8), 0), /120 cards/);
  throwsArbiter(() => Nantong.deal("1m 2m 1m 2m 1m 2m 1m 1m".split(" "), 0, 0), "BAD_ARGUMENT");
});

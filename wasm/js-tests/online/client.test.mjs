// arbiter-engine/client against a real arbiter-server process on a loopback port (SQLite in a
// temporary folder): accounts, the lobby's events, challenges, whole matches of each game (their
// moves chosen by the package's own engine from the views the server sends, so every view is
// checked against the rules too), refusals with their codes and nothing changed, spectators who
// never receive a hidden card, and the automatic reconnection after the server is killed.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { ArbiterError, Trax } from "arbiter-engine";
import { ArbiterClient, ConnectionError, ServerError, PROTOCOL } from "arbiter-engine/client";
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { blocks } from "../helpers.mjs";
import { startServer } from "./server.mjs";
import { checkSpectatorFrame } from "./hidden.mjs";

const PASSWORD = "correct horse battery";
let server;
let serial = 0;

before(async () => {
  assert.equal(typeof WebSocket, "function", "a global WebSocket (node --experimental-websocket on Node 20)");
  // Nantong's claim pause kept short: these clients answer at once.
  server = await startServer({ env: { ARBITER_CLAIM_PAUSE_MS: "50" } });
});
after(async () => {
  await server?.close();
});

/** A WebSocket that keeps every frame it receives (to check what reached a client). */
function recording(frames, sockets = []) {
  return class extends WebSocket {
    constructor(url) {
      super(url);
      sockets.push(this);
      this.addEventListener("message", (event) => frames.push(event.data));
    }
  };
}

/** A new client logged in as a new player. */
async function player(prefix, options = {}) {
  const client = await ArbiterClient.connect(server.wsUrl, { reconnectDelays: [100, 200, 400], ...options });
  const name = `${prefix}${++serial}`;
  await client.register(name, PASSWORD);
  return client;
}

/** Resolves once `predicate(match)` holds for the match `id` of `client`. */
function until(client, id, predicate) {
  const now = client.matches.get(id);
  if (now && predicate(now)) return Promise.resolve(now);
  return client.once("match", (m) => m.id === id && predicate(m));
}

/** A move for the seat to act, chosen from what the server showed that seat. */
function chooseMove(match, seed) {
  const view = match.view;
  switch (match.game) {
    case "triple-triad": {
      const obs = view.observation;
      const empty = obs.board.flatMap((slot, cell) => (slot === null ? [cell] : []));
      return `${seed % obs.hand.length}@${empty[seed % empty.length]}`;
    }
    case "trax": {
      const game = new Trax(view.observation.variant);
      try {
        for (const move of view.observation.moves) game.play(move);
        const legal = game.legalMoves();
        return legal[seed % legal.length];
      } finally {
        game.free();
      }
    }
    case "nantong": {
      const actions = view.observation.actions;
      return actions[seed % actions.length];
    }
    default:
      throw new Error(`unknown game ${match.game}`);
  }
}

/** Plays the match `id` to its end between `clients` (one a seat; computers fill the rest). */
async function playOut(clients, id, { seed = 1, limit = 2000 } = {}) {
  for (let i = 0; i < limit; i++) {
    const match = clients[0].matches.get(id); // kept current by the client: read its ply now
    if (match.isOver) return match;
    const ply = match.ply;
    const toMove = match.toMove;
    const mover = clients.find((c) => c.matches.get(id).seat === toMove);
    if (mover !== undefined) {
      const mine = await until(mover, id, (m) => m.ply === ply);
      // A Nantong question whose only answer is pass is the server's to answer.
      const forced = mine.game === "nantong" && mine.view.observation.actions.join() === "pass";
      if (!forced) await mover.play(id, chooseMove(mine, seed + i));
    }
    // A computer's move, or ours reaching the first client.
    await until(clients[0], id, (m) => m.ply > ply || m.isOver);
  }
  throw new Error(`match ${id} not over after ${limit} moves`);
}

describe("connecting and accounts", { timeout: 60_000 }, () => {
  test("hello: the server's welcome, its protocol version, limits and games", async () => {
    const client = await ArbiterClient.connect(server.wsUrl);
    assert.equal(client.welcome.protocol, PROTOCOL);
    assert.deepEqual(Object.keys(client.welcome.games).sort(), ["nantong", "trax", "triple-triad"]);
    assert.deepEqual(client.welcome.games.trax.levels, Trax.levels);
    assert.equal(client.state, "open");
    client.close();
  });

  test("a hello of another protocol version is refused with protocol_version", async () => {
    const socket = new WebSocket(server.wsUrl);
    const frames = [];
    socket.onmessage = (e) => frames.push(JSON.parse(e.data));
    await new Promise((resolve) => (socket.onopen = resolve));
    socket.send(JSON.stringify({ type: "hello", protocol: PROTOCOL + 1 }));
    const closed = await new Promise((resolve) => (socket.onclose = resolve));
    assert.equal(closed.code, 1002);
    assert.equal(frames.at(-1).code, "protocol_version");
  });

  test("no server there: a ConnectionError", async () => {
    await assert.rejects(ArbiterClient.connect("ws://127.0.0.1:9/ws"), (e) => e instanceof ConnectionError && e instanceof ArbiterError);
  });

  test("register, log in elsewhere, refusals as ServerErrors with the server's code", async () => {
    const first = await ArbiterClient.connect(server.wsUrl);
    const name = `ann${++serial}`;
    const { user, token } = await first.register(name, PASSWORD);
    assert.equal(user.name, name);
    assert.equal(typeof token, "string");
    await assert.rejects(first.login(name, PASSWORD), { serverCode: "already_authenticated" });

    const second = await ArbiterClient.connect(server.wsUrl);
    await assert.rejects(second.register(name, PASSWORD), (e) => e instanceof ServerError && e instanceof ArbiterError && e.serverCode === "name_taken" && e.code === "BAD_ARGUMENT");
    await assert.rejects(second.login(name, "wrong password"), { serverCode: "login_failed" });
    await assert.rejects(second.register("no spaces allowed", PASSWORD), { serverCode: "bad_name" });
    await assert.rejects(second.register(`x${++serial}`, "short"), { serverCode: "bad_password" });
    await assert.rejects(second.lobby(), { serverCode: "not_authenticated" });
    const again = await second.login(name, PASSWORD);
    assert.equal(again.user.id, user.id);

    const third = await ArbiterClient.connect(server.wsUrl);
    await assert.rejects(third.resume("not a token"), { serverCode: "bad_token" });
    assert.equal((await third.resume(token)).user.id, user.id);
    for (const c of [first, second, third]) c.close();
  });

  test("a burst of requests over the server's rate: the client paces them, none is refused", async () => {
    const client = await player("fast");
    const errors = [];
    client.on("error", (e) => errors.push(e.serverCode));
    const limits = client.welcome.limits;
    const n = limits.burst + 2 * limits.rate_per_s;
    const pongs = await Promise.all(Array.from({ length: n }, () => client.ping()));
    assert.equal(pongs.filter((p) => p.type === "pong").length, n);
    assert.deepEqual(errors, [], "no rate_limited error");
    client.close();
  });

  test("wrong argument types are BAD_ARGUMENTs before anything is sent", async () => {
    const client = await player("typ");
    await assert.rejects(client.login(5, PASSWORD), { name: "ArbiterError", code: "BAD_ARGUMENT" });
    await assert.rejects(client.play(1, -1), { code: "BAD_ARGUMENT" });
    await assert.rejects(client.play(1, 1.5), { code: "BAD_ARGUMENT" });
    await assert.rejects(client.accept("12"), { code: "BAD_ARGUMENT" });
    assert.throws(() => client.on("moved", "not a function"), { code: "BAD_ARGUMENT" });
    await assert.rejects(client.request({ nope: true }), { code: "BAD_ARGUMENT" });
    client.close();
  });

  test("without a WebSocket class: a BAD_ARGUMENT that says what to do", async () => {
    await assert.rejects(ArbiterClient.connect(server.wsUrl, { WebSocket: null }), { code: "BAD_ARGUMENT", message: /experimental-websocket/ });
  });
});

describe("lobby and challenges", { timeout: 120_000 }, () => {
  test("presence, a challenge refused, one withdrawn, one accepted: every lobby event", async () => {
    const alice = await player("alice");
    await alice.lobby();
    const seen = [];
    alice.on("lobby", () => seen.push("lobby"));
    const bob = await player("bob");
    await until2(() => alice.lobbyState.online.has(bob.user.id));
    await bob.lobby();

    const refused = await alice.challenge({ game: "trax", options: { variant: "8x8" }, seats: [{ kind: "me" }, { kind: "player", name: bob.user.name }], time: 60 });
    assert.equal(refused.by.id, alice.user.id);
    await until2(() => bob.lobbyState.challenges.has(refused.id));
    const closing = alice.once("challenge_closed", (e) => e.challenge === refused.id);
    await bob.refuse(refused.id);
    assert.equal((await closing).reason, "refused");
    assert.ok(!alice.lobbyState.challenges.has(refused.id));

    const withdrawn = await alice.challenge({ game: "trax", seats: [{ kind: "me" }, { kind: "open" }] });
    await assert.rejects(bob.withdraw(withdrawn.id), { serverCode: "not_challenger" });
    await assert.rejects(alice.accept(withdrawn.id), { serverCode: "own_challenge" });
    const gone = bob.once("challenge_closed", (e) => e.challenge === withdrawn.id);
    await alice.withdraw(withdrawn.id);
    assert.equal((await gone).reason, "withdrawn");
    await assert.rejects(bob.accept(withdrawn.id), { serverCode: "no_such_challenge" });

    const taken = await alice.challenge({ game: "trax", seats: [{ kind: "me" }, { kind: "open" }] });
    const started = alice.once("match_started");
    const { seat } = await bob.accept(taken.id);
    assert.equal(seat, 1);
    const { match } = await started;
    await until(alice, match.id, (m) => m.view !== null);
    await until2(() => bob.lobbyState.matches.has(match.id));
    assert.ok(seen.length > 0, "lobby events came");
    for (const c of [alice, bob]) c.close();
  });
});

/** Waits until `condition()` holds (polled: for state kept by the client from events). */
async function until2(condition, timeout = 10_000) {
  const end = Date.now() + timeout;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`not so after ${timeout} ms: ${condition}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Two players in a match of `game` (the challenger seat 0), each with its match state. */
async function pair(game, options, { spec = {}, ...clientOptions } = {}) {
  const a = await player(`${game[0]}a`, clientOptions);
  const b = await player(`${game[0]}b`, clientOptions);
  // Triple Triad between people plays five cards of each one's own collection: picked by id.
  const hands = game === "triple-triad" ? await Promise.all([a, b].map(async (c) => (await c.starter(), physical(await c.stash()).slice(0, 5)))) : null;
  const challenge = await a.challenge({ game, options, seats: [{ kind: "me" }, { kind: "player", name: b.user.name }], ...(hands ? { cards: hands[0] } : {}), ...spec });
  const started = a.once("match_started");
  await b.accept(challenge.id, hands ? { cards: hands[1] } : {});
  const id = (await started).match.id;
  await until(a, id, (m) => m.view !== null);
  await until(b, id, (m) => m.view !== null);
  return { a, b, id };
}

describe("matches", { timeout: 120_000 }, () => {
  test("a whole Trax game between two clients, the views checked against the engine", async () => {
    const { a, b, id } = await pair("trax", { variant: "8x8" });
    const match = await playOut([a, b], id, { seed: 3 });
    assert.equal(match.result.reason, "finished");
    const replay = new Trax("8x8");
    for (const { move } of match.moves) replay.play(move);
    assert.equal(replay.isOver, true);
    const winner = replay.outcome;
    assert.deepEqual(match.result.winners, winner === "draw" ? [] : [winner === "white" ? 0 : 1]);
    assert.deepEqual(b.matches.get(id).moves, match.moves, "both seats hold the same move list");
    replay.free();
    for (const c of [a, b]) c.close();
  });

  test("refused moves: each with its code and the engine's, nothing changed", async () => {
    const { a, b, id } = await pair("triple-triad", { preset: "ff8" });
    const m = a.matches.get(id);
    const [mover, other] = m.toMove === a.matches.get(id).seat ? [a, b] : [b, a];
    const before = (await mover.sync(id)).ply;
    await assert.rejects(other.play(id, "0@0"), { serverCode: "not_your_turn", code: "ILLEGAL_MOVE" });
    await assert.rejects(mover.play(id, "9@9"), (e) => ["bad_move", "illegal_move"].includes(e.serverCode));
    await assert.rejects(mover.play(id, "nonsense"), { serverCode: "bad_move", code: "PARSE_ERROR" });
    await assert.rejects(mover.request({ type: "move", match: id, move: "0@0", ply: before + 5 }), { serverCode: "stale_ply" });
    await assert.rejects(mover.play(id + 1_000_000, "0@0"), { serverCode: "no_such_match" });
    await assert.rejects(mover.request({ type: "no such type" }), { serverCode: "unknown_type" });
    assert.equal((await mover.sync(id)).ply, before, "nothing was played");
    // A legal move by action id is taken.
    const moved = await mover.play(id, 0);
    assert.equal(moved.ply, before + 1);
    assert.equal(moved.action, 0);
    for (const c of [a, b]) c.close();
  });

  test("Triple Triad against a computer seat starts at once and runs the whole match", async () => {
    const alice = await player("ttc");
    await alice.lobby();
    const started = alice.once("match_started");
    const challenge = await alice.challenge({ game: "triple-triad", options: { preset: "ff8" }, seats: [{ kind: "me" }, { kind: "computer", level: "greedy" }] });
    const { match } = await started;
    // It was never open: no seat waits, so it is not among the open challenges.
    assert.ok(!alice.lobbyState.challenges.has(challenge.id));
    const done = await playOut([alice], match.id, { seed: 5 });
    assert.equal(done.result.reason, "finished");
    assert.ok(["won", "lost", "drawn"].includes(done.result.outcome[0]));
    const stats = await alice.stats();
    assert.equal(stats.games["triple-triad"].played, 1);
    alice.close();
  });

  test("Nantong: two people and a computer seat play a deal", async () => {
    const a = await player("nta");
    const b = await player("ntb");
    const challenge = await a.challenge({ game: "nantong", options: { deals: 1 }, seats: [{ kind: "me" }, { kind: "player", name: b.user.name }, { kind: "computer", level: "basic" }] });
    const started = a.once("match_started");
    await b.accept(challenge.id);
    const id = (await started).match.id;
    await until(a, id, (m) => m.view !== null);
    await until(b, id, (m) => m.view !== null);
    const match = await playOut([a, b], id, { seed: 7, limit: 5000 });
    assert.equal(match.result.reason, "finished");
    assert.equal(match.result.scores.length, 3);
    // A state carries the last moves (a deal has hundreds); the others are read page by page.
    while (match.from > 0) await match.loadEarlier();
    const recent = a.welcome.limits.recent_moves;
    assert.ok(match.ply > recent, `${match.ply} moves`);
    // A sync keeps the moves the seat followed; a new connection's holds the last ones.
    assert.deepEqual((await b.sync(id)).moves, match.moves);
    const c = await ArbiterClient.connect(server.wsUrl);
    await c.login(b.user.name, PASSWORD);
    const synced = await c.sync(id);
    assert.equal(synced.ply, match.ply);
    assert.deepEqual([synced.from, synced.moves.length], [match.ply - recent, recent]);
    while (synced.from > 0) assert.ok((await synced.loadEarlier(100)) > 0);
    assert.deepEqual(synced.moves, match.moves);
    assert.deepEqual(await c.history(id, { from: 2, count: 3 }), { match: id, ply: match.ply, from: 2, moves: match.moves.slice(2, 5) });
    await assert.rejects(c.history(id, { from: -1 }), { code: "BAD_ARGUMENT" });
    for (const client of [a, b, c]) client.close();
  });

  test("leaving forfeits: did not finish in the leaver's stats", async () => {
    const { a, b, id } = await pair("trax", { variant: "8x8" });
    const over = b.once("match_over", (e) => e.match === id);
    await a.leave(id);
    const { result } = await over;
    assert.equal(result.reason, "forfeit");
    assert.equal(result.left, 0);
    assert.deepEqual(result.outcome, ["dnf", "won"]);
    assert.equal((await a.stats()).games.trax.dnf, 1);
    for (const c of [a, b]) c.close();
  });
});

describe("spectators", { timeout: 120_000 }, () => {
  test("a spectator of a closed-hand match never receives a card still in a hand", async () => {
    const { a, b, id } = await pair("triple-triad", { preset: "mush" });
    const frames = [];
    const carol = await ArbiterClient.connect(server.wsUrl, { WebSocket: recording(frames) });
    const watched = await carol.spectate(id);
    assert.equal(watched.seat, null);
    assert.equal(watched.spectating, true);
    await playOut([a, b], id, { seed: 11 });
    await until(carol, id, (m) => m.isOver);
    const checked = frames.filter(checkSpectatorFrame).length;
    assert.ok(checked >= 9, `${checked} views checked`);
    for (const c of [a, b, carol]) c.close();
  });

  test("a seat makes its match private, then broadcast: the spectator is put out with the reason; the lobby sees every move", async () => {
    const { a, b, id } = await pair("triple-triad", { preset: "mush" });
    const carol = await ArbiterClient.connect(server.wsUrl);
    await carol.spectate(id);
    const putOut = carol.once("unspectated", (e) => e.match === id);
    const told = b.once("match_spectators", (e) => e.match === id);
    const reply = await a.setSpectators(id, "private");
    assert.equal(reply.spectators, "private");
    assert.equal((await told).by.id, a.user.id);
    assert.equal(b.matches.get(id).summary.spectators, "private", "the other seat's summary follows");
    const out = await putOut;
    assert.equal(out.reason, "private");
    assert.match(out.message, new RegExp(a.user.name));
    assert.equal(carol.matches.has(id), false, "the match is no longer followed");
    await assert.rejects(carol.spectate(id), { serverCode: "private_match" });
    await assert.rejects(carol.setSpectators(id, "open"), { serverCode: "not_authenticated" });
    await assert.rejects(a.setSpectators(id, "friends"), { code: "BAD_ARGUMENT" });

    // Broadcast: a client in the lobby, watching nothing, sees each move with the public view.
    const frames = [];
    const dave = await ArbiterClient.connect(server.wsUrl, { WebSocket: recording(frames) });
    await dave.register(`dave${++serial}`, PASSWORD);
    await dave.lobby();
    assert.equal(dave.lobbyState.matches.has(id), false, "a private match is not listed");
    const listed = dave.once("match_listed", (e) => e.match.id === id);
    await a.setSpectators(id, "broadcast");
    assert.equal((await listed).match.spectators, "broadcast");
    const ply = a.matches.get(id).ply;
    const shown = dave.once("match_broadcast", (e) => e.match === id && e.ply === ply + 1);
    const mover = [a, b].find((c) => c.matches.get(id).seat === c.matches.get(id).toMove);
    const moved = await mover.play(id, chooseMove(mover.matches.get(id), 5));
    const broadcast = await shown;
    assert.equal(broadcast.move, moved.move);
    assert.deepEqual(dave.lobbyState.broadcasts.get(id).view, broadcast.view);
    assert.equal(dave.lobbyState.matches.get(id).ply, ply + 1);
    assert.equal(dave.matches.has(id), false, "a broadcast is not a spectated match");
    const checked = frames.filter((f) => f.includes('"match_broadcast"') && checkSpectatorFrame(f)).length;
    assert.ok(checked >= 1, "the lobby's frames hold the public view only");
    for (const c of [a, b, carol, dave]) c.close();
  });

  test("a private match refuses spectators", async () => {
    const { a, b, id } = await pair("trax", { variant: "8x8" }, { spec: { private: true } });
    const carol = await ArbiterClient.connect(server.wsUrl);
    await assert.rejects(carol.spectate(id), { serverCode: "private_match" });
    for (const c of [a, b, carol]) c.close();
  });
});

/** The cards of a stash, one id per physical card (a card held twice comes twice). */
const physical = (stash) => stash.flatMap((e) => Array.from({ length: e.count }, () => e.card.id));
const countOf = (stash, id) => stash.find((e) => e.card.id === id)?.count ?? 0;

/** A new player with the starter set and a deck `name` of its first five cards. */
async function collector(prefix, name) {
  const client = await player(prefix);
  await client.starter();
  const five = physical(await client.stash()).slice(0, 5);
  await client.createDeck(name);
  await client.addToDeck(name, five);
  return { client, five };
}

describe("the card economy", { timeout: 180_000 }, () => {
  test("starter once, the stash with its details, decks built and checked, refusals with their reasons", async () => {
    const ann = await player("eca");
    const fresh = await ann.wallet();
    assert.deepEqual(fresh, { points: 0, experience: 0, gils: 0, starter_taken: false, current_deck: null, cards: 0 });
    assert.deepEqual(await ann.stash(), []);
    const starter = await ann.starter();
    assert.equal(starter.length, 20);
    for (const c of starter) {
      assert.ok(c.card.level >= 1 && c.card.level <= 3, `${c.id} is of level 1 to 3`);
      assert.match(c.id, /^A\d{3}$/);
      assert.equal(c.card.ranks.length, 4);
    }
    await assert.rejects(ann.starter(), { serverCode: "starter_taken" });
    const stash = await ann.stash();
    assert.equal(stash.reduce((n, e) => n + e.count, 0), 20, "the stash holds the 20");
    assert.deepEqual(physical(stash).sort(), starter.map((c) => c.id).sort());
    assert.ok(stash.every((e) => typeof e.card.card.element === "string" && e.in_decks === 0 && e.at_stake === 0));
    assert.equal((await ann.wallet()).starter_taken, true);

    await assert.rejects(ann.createDeck("two words"), { serverCode: "bad_deck_name" });
    const deck = await ann.createDeck("Start");
    assert.deepEqual(deck.cards, []);
    await assert.rejects(ann.createDeck("start"), { serverCode: "deck_exists" });
    const cards = physical(stash);
    const five = cards.slice(0, 5);
    // All or nothing: one card unknown or not owned refuses the whole addition.
    const strong = (await ann.shopCards("A", 10))[0].card.id;
    await assert.rejects(ann.addToDeck("Start", [five[0], "No Such Card"]), { serverCode: "no_such_card" });
    await assert.rejects(ann.addToDeck("Start", [five[0], strong]), { serverCode: "not_owned" });
    assert.deepEqual((await ann.checkDeck("Start")).deck.cards, [], "nothing was added");
    const full = await ann.addToDeck("Start", five);
    assert.deepEqual(full.cards.map(([, c]) => c.id), five);
    await assert.rejects(ann.addToDeck("Start", [cards[5]]), { serverCode: "deck_full" });
    const { check } = await ann.checkDeck("Start");
    const total = five.reduce((n, id) => n + stash.find((e) => e.card.id === id).card.card.level, 0);
    assert.deepEqual(check, { usable: true, usable_limitless: true, level_total: total, problem: null, reason: null });
    const fewer = await ann.removeFromDeck("Start", [five[4]]);
    assert.equal(fewer.cards.length, 4);
    const short = await ann.checkDeck("Start");
    assert.equal(short.check.usable, false);
    assert.ok(short.check.problem, "an unusable deck says why");
    assert.equal(short.check.reason, "size", "and why as a code");
    await assert.rejects(ann.removeFromDeck("Start", [strong]), { serverCode: "not_in_deck" });
    await assert.rejects(ann.checkDeck("Nope"), { serverCode: "no_such_deck" });
    assert.deepEqual((await ann.decks()).map((d) => d.name), ["Start"]);
    await ann.createDeck("Spare");
    await ann.deleteDeck("Spare");
    assert.deepEqual((await ann.decks()).map((d) => d.name), ["Start"]);
    assert.equal((await ann.stash()).reduce((n, e) => n + e.in_decks, 0), 4, "four cards sit in the deck");
    await assert.rejects(ann.addToDeck(null, 5), { code: "BAD_ARGUMENT" });
    ann.close();
  });

  test("the shop: series and prices, cards of a level, refusals for points, levels and ranks", async () => {
    const bea = await player("ecb");
    const series = await bea.shop();
    const a = series.find((s) => s.series.code === "A");
    assert.equal(a.series.random_price, 10);
    assert.equal(a.series.card_price, 20);
    assert.equal(a.cards, 110);
    assert.equal(a.owned, 0);
    const c = series.find((s) => s.series.code === "C");
    assert.equal(c.series.random_price, null, "custom cards are not sold at random");
    const level7 = await bea.shopCards("A", 7);
    assert.ok(level7.length > 0 && level7.every(({ card, owned }) => card.card.level === 7 && owned === 0));
    await assert.rejects(bea.buyRandom("A", 7), { serverCode: "not_enough_points" });
    await assert.rejects(bea.buyCard(level7[0].card.id), { serverCode: "not_enough_points" });
    await assert.rejects(bea.buyRandom("C", 1), { serverCode: "not_for_sale" });
    await assert.rejects(bea.buyCard("No Such Card"), { serverCode: "no_such_card" });
    await assert.rejects(bea.shopCards("Q"), { serverCode: "no_such_series" });
    const suggestions = await bea.suggest(5);
    assert.equal(suggestions.length, 5);
    assert.ok(suggestions.every((r) => r.length === 4));
    await assert.rejects(bea.suggest(11), { serverCode: "bad_level" });
    await assert.rejects(bea.createCustom({ name: `Ultros${serial}`, level: 5, ranks: suggestions[0], element: "water" }), { serverCode: "not_enough_points" });
    await assert.rejects(bea.createCustom({ name: `Ultros${serial}`, level: 5, ranks: [1, 1, 1, 1] }), (e) => ["bad_custom_card", "not_enough_points"].includes(e.serverCode));
    await assert.rejects(bea.buyRandom("AB", 1), { code: "BAD_ARGUMENT" });
    await assert.rejects(bea.createCustom({ name: "X", level: 1, ranks: [1, 2] }), { code: "BAD_ARGUMENT" });
    assert.deepEqual(await bea.wallet(), { points: 0, experience: 0, gils: 0, starter_taken: false, current_deck: null, cards: 0 }, "nothing changed");
    bea.close();
  });

  test("a match with trade One: decks locked, the winner chooses one card, it moves from stash to stash", async () => {
    const blue = await collector("ecx", "Start");
    const red = await collector("ecy", "Main");
    const a = blue.client;
    const b = red.client;
    for (let attempt = 0; ; attempt++) {
      assert.ok(attempt < 6, "a match with a winner within six");
      const before = { a: await a.stash(), b: await b.stash() };
      const challenge = await a.challenge({
        game: "triple-triad",
        options: { preset: "mush", deck: "Start", stake: { trade: "one" } },
        seats: [{ kind: "me" }, { kind: "player", name: b.user.name }],
      });
      assert.equal(challenge.options.stake.trade, "one");
      if (attempt === 0) {
        // Accepting without naming a deck is refused, the challenge stays open.
        await assert.rejects(b.accept(challenge.id), (e) => ["no_deck", "deck_unusable"].includes(e.serverCode));
      }
      const started = a.once("match_started");
      await b.accept(challenge.id, { deck: "Main" });
      const id = (await started).match.id;
      await until(a, id, (m) => m.view !== null);
      await until(b, id, (m) => m.view !== null);
      // The hands are the decks.
      const hand = b.matches.get(id).view.observation.hand.map((c) => c.name).sort();
      const deckNames = (await b.decks()).find((d) => d.name === "Main").cards.map(([, c]) => c.card.name).sort();
      assert.deepEqual(hand, deckNames, "red's hand is its deck");
      assert.equal((await b.stash()).reduce((n, e) => n + e.at_stake, 0), 5, "red's five are at stake");
      const match = await playOut([a, b], id, { seed: 13 + attempt });
      if (match.result.winners.length === 0) {
        await until(a, id, (m) => m.settlement !== null);
        assert.deepEqual(a.matches.get(id).settlement.moved, [], "a draw moves no card");
        continue;
      }
      const winner = match.result.winners[0] === match.seat ? a : b;
      const loser = winner === a ? b : a;
      for (const c of [winner, loser]) await until(c, id, (m) => m.choice !== null || m.settlement !== null);
      const choice = loser.matches.get(id).choice;
      assert.deepEqual({ chooser: choice.chooser, count: choice.count }, { chooser: winner.user.id, count: 1 }, "the loser sees the winner choosing");
      assert.ok(choice.deadline > Date.now());
      await assert.rejects(loser.choose(id, [1]), { serverCode: "not_the_winner" });
      const list = await winner.winList(id);
      const loserDeck = winner === a ? red.five : blue.five;
      assert.deepEqual(list.cards.map((c) => c.id).sort(), [...loserDeck].sort(), "the loser's five");
      await assert.rejects(winner.choose(id, [1, 2]), { serverCode: "bad_choice" });
      const { moved, settlement } = await winner.choose(id, [2]);
      const taken = list.cards[1];
      assert.equal(moved, settlement.moved.length);
      await until(loser, id, (m) => m.settlement !== null);
      assert.deepEqual(loser.matches.get(id).settlement, winner.matches.get(id).settlement, "both hear the same settlement");
      await assert.rejects(winner.choose(id, [1]), (e) => ["nothing_to_choose", "already_settled"].includes(e.serverCode));
      const after = { winner: await winner.stash(), loser: await loser.stash() };
      const was = winner === a ? { winner: before.a, loser: before.b } : { winner: before.b, loser: before.a };
      if (settlement.kept.length === 0) {
        assert.deepEqual(settlement.moved.map((m) => [m.card.split(" ")[0], m.from, m.to]), [[taken.id, loser.user.name, winner.user.name]]);
        assert.equal(countOf(after.winner, taken.id), countOf(was.winner, taken.id) + 1, "the winner holds one more");
        assert.equal(countOf(after.loser, taken.id), countOf(was.loser, taken.id) - 1, "the loser one fewer");
        const deck = (await loser.decks())[0];
        assert.equal(deck.cards.length, 4);
        assert.match(deck.note, new RegExp(`lost to ${winner.user.name}`));
        const { check } = await loser.checkDeck(deck.name);
        assert.equal(check.usable, false, "a deck that lost a card is unusable");
      }
      const total = (s) => s.reduce((n, e) => n + e.count, 0);
      assert.equal(total(after.winner) + total(after.loser), 40, "no card lost or made");
      assert.ok(after.winner.every((e) => e.at_stake === 0) && after.loser.every((e) => e.at_stake === 0), "nothing at stake any more");
      // Points: 5 a game, 5 more for a win (the text game); the win buys a level-1 card.
      const w = await winner.wallet();
      assert.equal(w.points, 10 + 5 * attempt);
      const bought = await winner.buyRandom("A", 1);
      assert.equal(bought.price, 10);
      assert.equal(bought.card.card.level, 1);
      assert.equal((await winner.wallet()).points, w.points - 10);
      break;
    }
    for (const c of [a, b]) c.close();
  });
});

describe("reconnection", { timeout: 120_000 }, () => {
  test("the server killed and restarted: the clients resume by token and the match goes on", async () => {
    const { a, b, id } = await pair("trax", { variant: "8x8" });
    const played = a.matches.get(id).ply;
    const mover = [a, b].find((c) => c.matches.get(id).seat === c.matches.get(id).toMove);
    await mover.play(id, chooseMove(mover.matches.get(id), 1));
    await until(a, id, (m) => m.ply === played + 1);
    const back = [a, b].map((c) => c.once("reconnected"));
    const dropped = a.once("disconnected");
    await server.restart();
    assert.equal((await dropped).reconnecting, true);
    await Promise.all(back);
    for (const c of [a, b]) {
      assert.equal(c.state, "open");
      assert.equal(c.matches.get(id).ply, played + 1, "the acknowledged move survived");
    }
    const match = await playOut([a, b], id, { seed: 9 });
    assert.equal(match.result.reason, "finished");
    for (const c of [a, b]) c.close();
  });

  test("a dropped socket: the client reconnects by itself, its pending request fails", async () => {
    const sockets = [];
    const { a, b, id } = await pair("trax", { variant: "8x8" }, { WebSocket: recording([], sockets) });
    const back = a.once("reconnected");
    sockets[0].close(); // a's: the first connected
    await back;
    assert.equal(a.state, "open");
    assert.equal(a.matches.get(id).view !== null, true);
    const ping = await a.ping();
    assert.equal(ping.type, "pong");
    for (const c of [a, b]) c.close();
  });

  test("a match that ended while away: its match_over reaches the application after resume, once, though not followed", async () => {
    const { a, b, id } = await pair("trax", { variant: "8x8" });
    const token = b.token;
    await a.lobby();
    const gone = a.once("presence", (p) => p.user.id === b.user.id && !p.online);
    b.close();
    await gone;
    await a.leave(id);
    const told = async () => {
      const back = await ArbiterClient.connect(server.wsUrl, { reconnect: false });
      const over = [];
      back.on("match_over", (e) => over.push(e));
      await back.resume(token);
      await back.ping(); // answered after everything the resume brought
      back.close();
      return { back, over };
    };
    const first = await told();
    assert.deepEqual(first.over.map((e) => [e.match, e.result.reason]), [[id, "forfeit"]]);
    assert.equal(first.back.matches.has(id), false, "a match not followed stays unfollowed");
    assert.deepEqual((await told()).over, [], "told once");
    a.close();
  });

  test("logout: the token no longer resumes, no reconnection", async () => {
    const client = await player("out");
    const token = client.token;
    const closed = client.once("closed");
    client.logout();
    await closed;
    assert.equal(client.state, "closed");
    const other = await ArbiterClient.connect(server.wsUrl);
    await assert.rejects(other.resume(token), { serverCode: "bad_token" });
    other.close();
  });
});

describe("the guide", { timeout: 120_000 }, () => {
  test("wasm/README.md's javascript example runs against the server as written", () => {
    const [code] = blocks(fileURLToPath(new URL("../../README.md", import.meta.url)), "javascript");
    assert.ok(code?.includes("arbiter-engine/client"), "the client's example is in the guide");
    // Inside the package, so that "arbiter-engine/client" resolves to this package.
    const file = fileURLToPath(new URL(`./.readme-client-${process.pid}.mjs`, import.meta.url));
    writeFileSync(file, code.replace("ws://127.0.0.1:8080/ws", server.wsUrl));
    try {
      const out = execFileSync(process.execPath, ["--experimental-websocket", file], { encoding: "utf8", timeout: 60_000 });
      assert.match(out, /^true true$/m);
      assert.match(out, /^(illegal_move ILLEGAL_MOVE|bad_move PARSE_ERROR) /m);
      assert.match(out, /^1 @0\/$/m);
      assert.match(out, /^forfeit 1$/m);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

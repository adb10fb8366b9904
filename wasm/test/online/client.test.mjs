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
  server = await startServer();
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
      await mover.play(id, chooseMove(mine, seed + i));
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
  const challenge = await a.challenge({ game, options, seats: [{ kind: "me" }, { kind: "player", name: b.user.name }], ...spec });
  const started = a.once("match_started");
  await b.accept(challenge.id);
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
    const started = alice.once("match_started");
    await alice.challenge({ game: "triple-triad", options: { preset: "ff8" }, seats: [{ kind: "me" }, { kind: "computer", level: "greedy" }] });
    const { match } = await started;
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
    for (const c of [a, b]) c.close();
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

  test("a private match refuses spectators", async () => {
    const { a, b, id } = await pair("trax", { variant: "8x8" }, { spec: { private: true } });
    const carol = await ArbiterClient.connect(server.wsUrl);
    await assert.rejects(carol.spectate(id), { serverCode: "private_match" });
    for (const c of [a, b, carol]) c.close();
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

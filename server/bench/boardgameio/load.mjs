// The load client for boardgame.io's server, measuring exactly as arbiter-server's load client does
// (server/bench/README.md, "How the load is measured"): N clients, one WebSocket each, paired into
// N/2 matches that run at once; each pair starts a new match as soon as one ends; every client
// plays a random legal move as soon as it is its turn (after --think-ms); a move's round trip is
// from sending it to receiving the state that contains it. Moves and round trips are counted only
// inside the window that follows --warmup seconds, for --seconds seconds.
//
//   node load.mjs --url http://127.0.0.1:8000 --clients 200 --seconds 20 [--warmup 3]
//                 [--think-ms 0] [--seed 1] [--server-pid PID]
//
// Prints one JSON line: moves, moves_per_s, p50_ms, p99_ms, matches_finished, errors, the client's
// own CPU share, and with
// --server-pid the server's resident memory (baseline, peak, per match) and CPU time per move.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const { io } = require("socket.io-client");

const GAME = "triple-triad";

// A small seeded generator (mulberry32) for the clients' choices: runs differ only by timing.
function generator(seed) {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Resident memory (bytes) and CPU time (ms) of a process, from /proc. */
export function processUsage(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rss, cpuMs: (ticks * 1000) / 100 };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length))) - 1];
}

// Lobby requests, a few at a time: a thousand at once overflow the server's listen backlog, and
// setting matches up is not what is measured.
const LOBBY_CONCURRENCY = 16;
let lobbyBusy = 0;
const lobbyQueue = [];

async function post(url, body) {
  if (lobbyBusy >= LOBBY_CONCURRENCY) await new Promise((resolve) => lobbyQueue.push(resolve));
  lobbyBusy++;
  try {
    return await request(url, body);
  } finally {
    lobbyBusy--;
    lobbyQueue.shift()?.();
  }
}

async function request(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

/** One seat's connection; `play` is called with the seat's view when it is its turn. */
class Seat {
  constructor(url, random, stats) {
    this.random = random;
    this.stats = stats;
    this.match = null;
    this.pending = null; // { stateID, sent }
    this.socket = io(`${url}/${GAME}`, { transports: ["websocket"], forceNew: true, reconnection: false });
    this.connected = new Promise((resolve, reject) => {
      this.socket.once("connect", resolve);
      this.socket.once("connect_error", reject);
    });
    if (process.env.DEBUG_LOAD) this.socket.onAny((ev, ...a) => console.error(ev, JSON.stringify(a).slice(0, 120)));
    this.socket.on("sync", (matchID, info) => this.onState(matchID, info.state));
    this.socket.on("update", (matchID, state) => this.onState(matchID, state));
    this.socket.on("disconnect", (reason) => {
      if (!this.stats.stopping) this.stats.errors.push(`disconnected: ${reason}`);
    });
  }

  /** Joins a match with its lobby credentials: resolves once this seat holds the match's state. */
  join(matchID, playerID, credentials, think) {
    this.match = { matchID, playerID, credentials, think, started: false, latest: null };
    this.pending = null;
    this.over = new Promise((resolve) => (this.match.over = resolve));
    return new Promise((resolve) => {
      this.match.synced = resolve;
      this.socket.emit("sync", matchID, playerID, credentials, 2);
    });
  }

  /** Starts playing once both seats are synced (boardgame.io broadcasts a move only to the seats
   * synced when it is made: one that syncs later would miss it); resolves when the match is over. */
  start() {
    this.match.started = true;
    this.onState(this.match.matchID, this.match.latest);
    return this.over;
  }

  onState(matchID, state) {
    const match = this.match;
    if (match === null || matchID !== match.matchID) return;
    if (!match.started) {
      match.latest = state;
      match.synced();
      return;
    }
    const now = performance.now();
    if (this.pending !== null && state._stateID > this.pending.stateID) {
      this.stats.moved(now - this.pending.sent, now);
      this.pending = null;
    }
    if (state.ctx.gameover !== undefined) {
      this.match = null;
      match.over();
      return;
    }
    if (state.ctx.currentPlayer !== match.playerID || this.pending !== null || this.stats.stopping) return;
    const hand = state.G.hands[match.playerID];
    const empty = [];
    state.G.board.forEach((slot, cell) => slot === null && empty.push(cell));
    const args = [this.random(hand.length), empty[this.random(empty.length)]];
    const send = () => {
      if (this.match !== match || this.stats.stopping) return;
      const action = {
        type: "MAKE_MOVE",
        payload: { type: "play", args, playerID: match.playerID, credentials: match.credentials },
      };
      this.pending = { stateID: state._stateID, sent: performance.now() };
      this.socket.emit("update", action, state._stateID, matchID, match.playerID);
    };
    // Uniform between half and one and a half times --think-ms, as arbiter-server's client draws it.
    if (match.think > 0) setTimeout(send, match.think * (0.5 + this.random(1001) / 1000));
    else send();
  }
}

export async function runLoad({ url, clients, seconds, warmup = 3, thinkMs = 0, seed = 1, serverPid }) {
  if (!Number.isInteger(clients) || clients < 2 || clients % 2) throw new Error("--clients must be an even number ≥ 2");
  const rtts = [];
  let windowStart = Infinity;
  let windowEnd = Infinity;
  const stats = {
    stopping: false,
    errors: [],
    finished: 0,
    moved(rtt, at) {
      if (at >= windowStart && at < windowEnd) rtts.push(rtt);
    },
  };
  const seats = Array.from({ length: clients }, (_, i) => new Seat(url, generator(seed * 1_000_003 + i), stats));
  await Promise.all(seats.map((seat) => seat.connected));
  const base = `${url}/games/${GAME}`;
  const pair = async (blue, red, index) => {
    // The first matches start spread over one match's length (nine moves), as arbiter-server's
    // client starts them: started at once, the matches would end, and start again, in waves.
    if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, (thinkMs * 9 * blue.random(1001)) / 1000));
    for (let round = 0; !stats.stopping; round++) {
      const { matchID } = await post(`${base}/create`, { numPlayers: 2 });
      // One join after the other: two at once race in its lobby over an asynchronous storage
      // (FlatFile), and the join written first is lost.
      const join = (playerID) => post(`${base}/${matchID}/join`, { playerID, playerName: `p${index}-${playerID}` });
      const a = await join("0");
      const b = await join("1");
      await Promise.all([
        blue.join(matchID, "0", a.playerCredentials, thinkMs),
        red.join(matchID, "1", b.playerCredentials, thinkMs),
      ]);
      await Promise.all([blue.start(), red.start()]);
      if (performance.now() >= windowStart && performance.now() < windowEnd) stats.finished++;
    }
  };
  const baseline = serverPid ? processUsage(serverPid) : null;
  let peak = baseline ? baseline.rss : 0;
  const sampler = serverPid ? setInterval(() => (peak = Math.max(peak, processUsage(serverPid).rss)), 250) : null;
  const started = performance.now();
  windowStart = started + warmup * 1000;
  windowEnd = windowStart + seconds * 1000;
  const pairs = [];
  for (let i = 0; i < clients; i += 2) {
    pairs.push(pair(seats[i], seats[i + 1], i / 2).catch((e) => stats.errors.push(String(e))));
  }
  await new Promise((resolve) => setTimeout(resolve, warmup * 1000));
  const cpuStart = serverPid ? processUsage(serverPid).cpuMs : 0;
  const clientCpuStart = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const cpuEnd = serverPid ? processUsage(serverPid).cpuMs : 0;
  const clientCpu = process.cpuUsage(clientCpuStart);
  const atEnd = serverPid ? processUsage(serverPid) : null;
  stats.stopping = true;
  if (sampler) clearInterval(sampler);
  for (const seat of seats) seat.socket.close();
  rtts.sort((a, b) => a - b);
  const matches = clients / 2;
  const round = (x) => (x === null ? null : Math.round(x * 100) / 100);
  const report = {
    server: "boardgame.io 0.50.2",
    clients,
    matches,
    seconds,
    think_ms: thinkMs,
    moves: rtts.length,
    moves_per_s: round(rtts.length / seconds),
    p50_ms: round(percentile(rtts, 0.5)),
    p99_ms: round(percentile(rtts, 0.99)),
    matches_finished: stats.finished,
    errors: stats.errors.length,
    // The load client's own share of a core in the window: near 1, it (not the server) is the limit.
    client_cpu_share: round((clientCpu.user + clientCpu.system) / 1000 / (seconds * 1000)),
  };
  if (baseline) {
    report.rss_baseline_mb = round(baseline.rss / 2 ** 20);
    report.rss_peak_mb = round(peak / 2 ** 20);
    report.rss_per_match_kb = round((atEnd.rss - baseline.rss) / 1024 / matches);
    report.cpu_ms_per_move = rtts.length ? round((cpuEnd - cpuStart) / rtts.length) : null;
  }
  if (stats.errors.length) report.first_error = stats.errors[0];
  return report;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      url: { type: "string", default: "http://127.0.0.1:8000" },
      clients: { type: "string", default: "200" },
      seconds: { type: "string", default: "20" },
      warmup: { type: "string", default: "3" },
      "think-ms": { type: "string", default: "0" },
      seed: { type: "string", default: "1" },
      "server-pid": { type: "string" },
    },
  });
  const report = await runLoad({
    url: values.url,
    clients: Number(values.clients),
    seconds: Number(values.seconds),
    warmup: Number(values.warmup),
    thinkMs: Number(values["think-ms"]),
    seed: Number(values.seed),
    serverPid: values["server-pid"] ? Number(values["server-pid"]) : undefined,
  });
  console.log(JSON.stringify(report));
  process.exit(report.errors ? 1 : 0);
}

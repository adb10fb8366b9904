// arbiter-engine/client: a client of arbiter-server's WebSocket protocol (server/PROTOCOL.md).
// It holds no rules: the server is the authority, and the client keeps what the server last said
// (the lobby, each match's state) so that a page can draw it, and replaces it by the server's
// state after every reconnection.
import { ArbiterError } from "./error.js";

/** The protocol version this client speaks (`hello.protocol`). */
export const PROTOCOL = 1;
const CLIENT = "arbiter-engine/client 0.1.0";

// The engine's error code that fits each of the server's codes, so that `e.code` reads the same
// whether a move was refused by a local game or by the server.
const ENGINE_CODE = {
  bad_json: "PARSE_ERROR",
  unknown_type: "PARSE_ERROR",
  hello_first: "PARSE_ERROR",
  protocol_version: "PARSE_ERROR",
  bad_move: "PARSE_ERROR",
  illegal_move: "ILLEGAL_MOVE",
  not_your_turn: "ILLEGAL_MOVE",
  stale_ply: "ILLEGAL_MOVE",
  match_over: "GAME_OVER",
  too_large: "LIMIT_EXCEEDED",
  rate_limited: "LIMIT_EXCEEDED",
  busy: "LIMIT_EXCEEDED",
  too_many_logins: "LIMIT_EXCEEDED",
  login_throttled: "LIMIT_EXCEEDED",
  internal: "INTERNAL_ERROR",
};

/** A request the server refused: `serverCode` is the server's code (PROTOCOL.md's table),
 * `code` the engine's code that fits it, `message` the server's words. */
export class ServerError extends ArbiterError {
  constructor(serverCode, message, request = null) {
    super(ENGINE_CODE[serverCode] ?? "BAD_ARGUMENT", message);
    this.serverCode = serverCode;
    this.request = request;
  }
}

/** The connection could not be opened, or closed before a request was answered. */
export class ConnectionError extends ArbiterError {
  constructor(message, { closeCode = null, reason = "" } = {}) {
    super("INTERNAL_ERROR", message);
    this.closeCode = closeCode;
    this.reason = reason;
  }
}

const badArgument = (message) => new ArbiterError("BAD_ARGUMENT", message);

function requireText(value, what) {
  if (typeof value !== "string") throw badArgument(`${what} must be a string, not ${typeof value}`);
  return value;
}

function requireLevel(value) {
  if (!Number.isSafeInteger(value)) throw badArgument(`a level must be an integer, not ${typeof value === "number" ? value : typeof value}`);
  return value;
}

function requireSeries(value) {
  if (typeof value !== "string" || [...value].length !== 1) throw badArgument("a series is its one-character code (\"A\")");
  return value;
}

function requireCards(cards) {
  if (!Array.isArray(cards) || cards.length === 0 || cards.some((c) => typeof c !== "string")) {
    throw badArgument("cards are a non-empty array of card ids or names");
  }
  return cards;
}

function requireCount(value, what) {
  if (!Number.isSafeInteger(value) || value < 0) throw badArgument(`${what} must be a non-negative integer`);
  return value;
}

/** An `accept` or a `pick` of `challenge` naming a deck or five card ids (or neither). */
function handRequest(type, challenge, { deck, cards }) {
  requireId(challenge, "challenge");
  const request = { type, challenge };
  if (deck !== undefined) request.deck = requireText(deck, "deck");
  if (cards !== undefined) {
    if (!Array.isArray(cards)) throw badArgument("cards is a list of card ids");
    request.cards = cards.map((c) => requireText(c, "cards"));
  }
  return request;
}

function requireId(value, what) {
  return requireCount(value, `${what} id`);
}

const SPECTATORS = ["open", "broadcast", "private"];

// Close codes after which reconnecting would only be refused again.
const FINAL_CLOSES = new Set([1002, 1008, 1009]);

/** One match as the server last described it to this connection, kept current by its events. */
export class Match {
  constructor(client, id) {
    this.client = client;
    this.id = id;
    this.summary = null;
    this.seat = null;
    this.view = null;
    /** The moves known, in order: a `match_state` gives the last ones (`from` is the index of the
     * first of them in the whole list), then each move joins them; `loadEarlier` reads the others. */
    this.moves = [];
    this.from = 0;
    this.toMove = null;
    this.deadline = null;
    this.remainingMs = null;
    this.result = null;
    this.spectating = false;
    /** A match with stakes whose winner is choosing: `{chooser, count, deadline}` (`chooser` a
     * user id) from the server's `tt_choose`, until `settlement` comes. */
    this.choice = null;
    /** What the end of a match with stakes did with the cards (`tt_settled`): `{moved, kept}`. */
    this.settlement = null;
  }

  /** The number of moves played. */
  get ply() {
    return this.from + this.moves.length;
  }

  get game() {
    return this.summary?.game ?? null;
  }

  get isOver() {
    return this.result !== null;
  }

  /** Plays a move for this connection's seat: notation, or an action id. */
  play(move) {
    return this.client.play(this.id, move);
  }

  leave() {
    return this.client.leave(this.id);
  }

  /** Reads up to `count` of the moves before the ones known (at most the server's page,
   * `welcome.limits.history_max`) and puts them first; resolves with how many came (0 once the
   * whole list is known, or if a new state of the match arrived meanwhile). */
  async loadEarlier(count = this.client.welcome?.limits?.history_max ?? 500) {
    const end = this.from;
    const start = Math.max(0, end - count);
    if (end === 0) return 0;
    const page = await this.client.history(this.id, { from: start, count: end - start });
    if (this.from !== end || page.from !== start || page.moves.length !== end - start) return 0;
    this.moves = [...page.moves, ...this.moves];
    this.from = start;
    return page.moves.length;
  }

  applyState(message) {
    this.summary = message.match;
    this.seat = message.seat;
    this.view = message.view;
    // A server before paged histories sent the whole list.
    const from = message.from ?? 0;
    // The moves known before the state's keep their place when they reach it (every move
    // told was stored): a sync does not forget what was read or followed.
    const kept = from > this.from && from <= this.ply ? this.moves.slice(0, from - this.from) : null;
    this.moves = kept ? [...kept, ...message.moves] : message.moves.slice();
    if (!kept) this.from = from;
    this.toMove = message.to_move;
    this.deadline = message.deadline;
    this.remainingMs = message.remaining_ms;
    this.result = message.result;
  }

  /** Takes a `moved` event; false when it does not follow the moves known (then a sync is due). */
  applyMoved(message) {
    if (message.ply !== this.ply + 1) return message.ply <= this.ply;
    const { type: _type, re: _re, view, to_move, deadline, remaining_ms, match: _match, ...move } = message;
    this.moves.push(move);
    this.view = view;
    this.toMove = to_move;
    this.deadline = deadline;
    this.remainingMs = remaining_ms;
    if (this.summary) this.summary = { ...this.summary, ply: message.ply };
    return true;
  }

  applyOver(result) {
    this.result = result;
    this.toMove = null;
    this.deadline = null;
    this.remainingMs = null;
    if (this.summary) this.summary = { ...this.summary, status: "over" };
  }
}

/**
 * A connection to an arbiter-server. Make one with `ArbiterClient.connect(url)`; it says hello,
 * checks the protocol version, and, once logged in, reconnects by itself after a drop (resuming
 * the session with its token and taking the server's state of every match it follows).
 */
export class ArbiterClient {
  /** Opens a connection and waits for the server's `welcome`. */
  static async connect(url, options = {}) {
    const client = new ArbiterClient(url, options);
    await client.#open();
    return client;
  }

  #url;
  #WebSocket;
  #socket = null;
  #nextId = 1;
  #pending = new Map();
  #listeners = new Map();
  #reconnect;
  #timeoutMs;
  #delays;
  #closing = false;
  #attempt = 0;
  #lobbySubscribed = false;
  #spectated = new Set();
  // The server drops what a connection sends over its rate (`welcome.limits`) with an error that
  // cannot say which request it was: the client paces itself below it instead.
  #outbox = [];
  #tokens = 0;
  #refilled = 0;
  #pacing = null;

  constructor(url, options = {}) {
    requireText(typeof url === "object" && url !== null && "href" in url ? url.href : url, "url");
    this.#url = String(url.href ?? url);
    const Impl = options.WebSocket !== undefined ? options.WebSocket : globalThis.WebSocket;
    if (typeof Impl !== "function") {
      throw badArgument(
        "no WebSocket here: Node 20 needs --experimental-websocket (Node 22 has it), or pass options.WebSocket (e.g. the ws package's)",
      );
    }
    this.#WebSocket = Impl;
    this.#reconnect = options.reconnect ?? true;
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#delays = options.reconnectDelays ?? [250, 500, 1000, 2000, 5000];
    /** The server's `welcome`: its version, limits and games. */
    this.welcome = null;
    /** The logged-in user, or null. */
    this.user = null;
    /** The page language the account keeps (`en`, `fr`), or null. */
    this.language = null;
    /** The session token that resumes after a drop (also across page loads, if kept). */
    this.token = options.token ?? null;
    /** `connecting`, `open`, `reconnecting` or `closed`. */
    this.state = "connecting";
    /** The lobby as last heard (after `lobby()`): who is online, challenges, listed matches. */
    this.lobbyState = { online: new Map(), robots: [], challenges: new Map(), matches: new Map(), broadcasts: new Map() };
    /** Every match this connection sits in or watches, by id. */
    this.matches = new Map();
  }

  // ---- events ----------------------------------------------------------------------------

  /** Calls `listener` for every event of `type`; returns a function that stops it. */
  /** The options of `game` as the server's core declares them (`welcome.games[game].options`:
   * names, allowed values, defaults); null before the welcome or for a game it does not host. */
  describe(game) {
    return this.welcome?.games?.[game]?.options ?? null;
  }

  on(type, listener) {
    if (typeof listener !== "function") throw badArgument("the listener must be a function");
    if (!this.#listeners.has(type)) this.#listeners.set(type, new Set());
    this.#listeners.get(type).add(listener);
    return () => this.off(type, listener);
  }

  off(type, listener) {
    this.#listeners.get(type)?.delete(listener);
  }

  /** The next event of `type` (whose payload passes `filter`, if given). */
  once(type, filter = () => true) {
    return new Promise((resolve) => {
      const stop = this.on(type, (payload) => {
        if (!filter(payload)) return;
        stop();
        resolve(payload);
      });
    });
  }

  #emit(type, payload) {
    for (const listener of [...(this.#listeners.get(type) ?? [])]) {
      try {
        listener(payload);
      } catch (e) {
        // A listener's failure is its own: the connection goes on.
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }

  // ---- the connection ----------------------------------------------------------------------

  #open() {
    return new Promise((resolve, reject) => {
      let socket;
      try {
        socket = new this.#WebSocket(this.#url);
      } catch (e) {
        reject(new ConnectionError(`cannot open ${this.#url}: ${e?.message ?? e}`));
        return;
      }
      this.#socket = socket;
      let welcomed = false;
      socket.onopen = () => socket.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, client: CLIENT }));
      socket.onmessage = (event) => {
        let message;
        try {
          message = JSON.parse(typeof event.data === "string" ? event.data : String(event.data));
        } catch {
          return; // the server sends JSON text only; anything else is ignored
        }
        if (welcomed) {
          this.#receive(message);
          return;
        }
        if (message.type === "welcome") {
          if (message.protocol !== PROTOCOL) {
            socket.close(1000, "protocol_version");
            this.#closing = true;
            reject(new ServerError("protocol_version", `the server speaks protocol ${message.protocol}, this client ${PROTOCOL}`));
            return;
          }
          welcomed = true;
          this.welcome = message;
          this.#outbox = [];
          clearTimeout(this.#pacing);
          this.#pacing = null;
          this.#tokens = this.#burst();
          this.#refilled = Date.now();
          this.state = "open";
          this.#attempt = 0;
          resolve();
        } else if (message.type === "error") {
          reject(new ServerError(message.code, message.message, "hello"));
        }
      };
      let lost = false;
      const close = ({ code, reason }) => {
        if (lost || this.#socket !== socket) return;
        lost = true;
        this.#socket = null;
        if (!welcomed) {
          reject(new ConnectionError(`the connection to ${this.#url} closed before the server's welcome (${code})`, { closeCode: code, reason }));
          return;
        }
        this.#dropped({ code, reason });
      };
      socket.onclose = close;
      // A close event follows an error, except in some WebSocket implementations for a
      // connection that never opened (Node 20's): take that error as the close.
      socket.onerror = () => {
        if (socket.readyState === 0) close({ code: 1006, reason: "network error" });
      };
    });
  }

  #rate() {
    return Math.max(1, (this.welcome?.limits?.rate_per_s ?? 20) * 0.9);
  }

  #burst() {
    return Math.max(1, (this.welcome?.limits?.burst ?? 40) - 4);
  }

  /** Sends `text` now if the rate allows, else as soon as it does (in order). */
  #send(text) {
    this.#outbox.push(text);
    this.#pump();
  }

  #pump() {
    if (this.#pacing !== null) return;
    while (this.#outbox.length > 0) {
      const socket = this.#socket;
      if (socket === null || socket.readyState !== 1) {
        this.#outbox = [];
        return;
      }
      const now = Date.now();
      this.#tokens = Math.min(this.#burst(), this.#tokens + ((now - this.#refilled) * this.#rate()) / 1000);
      this.#refilled = now;
      if (this.#tokens < 1) {
        const wait = Math.ceil(((1 - this.#tokens) * 1000) / this.#rate());
        this.#pacing = setTimeout(() => {
          this.#pacing = null;
          this.#pump();
        }, wait);
        return;
      }
      this.#tokens -= 1;
      socket.send(this.#outbox.shift());
    }
  }

  #dropped({ code, reason }) {
    const error = new ConnectionError(`the connection closed (${code}${reason ? ` ${reason}` : ""})`, { closeCode: code, reason });
    for (const { reject, timer } of this.#pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    this.#pending.clear();
    const again = this.#reconnect && !this.#closing && !FINAL_CLOSES.has(code) && reason !== "logout";
    this.state = again ? "reconnecting" : "closed";
    this.#emit("disconnected", { code, reason, reconnecting: again });
    if (again) this.#scheduleReconnect();
    else this.#emit("closed", { code, reason });
  }

  #scheduleReconnect() {
    const delay = this.#delays[Math.min(this.#attempt, this.#delays.length - 1)];
    this.#attempt++;
    setTimeout(async () => {
      if (this.#closing) return;
      try {
        await this.#open();
        await this.#restore();
        this.#emit("reconnected", { user: this.user });
      } catch (e) {
        if (this.#closing) return;
        if (e instanceof ServerError && e.serverCode === "bad_token") {
          // The session is gone (logged out elsewhere): stay connected, logged out.
          this.user = null;
          this.token = null;
          this.#emit("session_lost", { error: e });
          return;
        }
        // The server is not back yet, or refused for now (busy): try again from a new connection
        // (a drop schedules the next try by itself).
        if (this.#socket === null) this.#scheduleReconnect();
        else this.#socket.close(4000, "retry");
      }
    }, delay);
  }

  /** After a reconnection: resumes the session and takes the server's state of everything
   * followed, so that nothing the client shows predates the drop. */
  async #restore() {
    if (this.token !== null) await this.resume(this.token);
    if (this.#lobbySubscribed) await this.lobby();
    for (const match of this.matches.values()) {
      if (this.#spectated.has(match.id)) await this.spectate(match.id);
      else if (match.seat !== null) await this.sync(match.id);
    }
  }

  /** Closes the connection for good (no reconnection). */
  close() {
    this.#closing = true;
    this.#socket?.close(1000, "bye");
  }

  #receive(message) {
    const pending = message.re === undefined || message.re === null ? undefined : this.#pending.get(message.re);
    if (message.type === "error") {
      const error = new ServerError(message.code, message.message, pending?.type ?? null);
      if (pending) {
        this.#settle(message.re, pending);
        pending.reject(error);
      } else {
        this.#emit("error", error);
      }
      return;
    }
    this.#apply(message);
    this.#emit(message.type, message);
    if (pending) {
      this.#settle(message.re, pending);
      pending.resolve(message);
      return;
    }
    // An event that answers a request by what it says (a seat's own move, the end of the match
    // it left), for a server that does not echo `re` on it.
    for (const [id, waiting] of this.#pending) {
      if (waiting.answeredBy?.(message)) {
        this.#settle(id, waiting);
        waiting.resolve(message);
        return;
      }
    }
  }

  #settle(id, pending) {
    this.#pending.delete(id);
    clearTimeout(pending.timer);
  }

  /** Keeps the lobby and the matches current. */
  #apply(message) {
    const lobby = this.lobbyState;
    switch (message.type) {
      case "lobby":
        // A page after the first (it names the page before it) adds to what the first began.
        if (typeof message.after !== "string") {
          lobby.online = new Map();
          lobby.challenges = new Map();
          lobby.matches = new Map();
          lobby.robots = message.robots ?? [];
        }
        for (const user of message.online) lobby.online.set(user.id, user);
        for (const c of message.challenges) lobby.challenges.set(c.id, c);
        for (const m of message.matches) lobby.matches.set(m.id, m);
        if (typeof message.next !== "string") {
          lobby.broadcasts = new Map([...lobby.broadcasts].filter(([id]) => lobby.matches.has(id)));
        }
        break;
      case "presence":
        if (message.online) lobby.online.set(message.user.id, message.user);
        else lobby.online.delete(message.user.id);
        break;
      case "challenge_open":
        lobby.challenges.set(message.challenge.id, message.challenge);
        break;
      case "challenge_created":
        // A challenge with no seat left for a person started its match at once: it was never open.
        if (message.challenge.seats.some((s) => s.kind !== "computer" && !s.taken)) lobby.challenges.set(message.challenge.id, message.challenge);
        break;
      case "challenge_closed":
        lobby.challenges.delete(message.challenge);
        break;
      case "match_listed":
        lobby.matches.set(message.match.id, message.match);
        break;
      case "match_unlisted":
        lobby.matches.delete(message.match);
        lobby.broadcasts.delete(message.match);
        break;
      case "match_broadcast": {
        // A broadcast match's move, shown to the whole lobby: its last move and public view.
        const { type: _type, match: id, ...shown } = message;
        lobby.broadcasts.set(id, shown);
        const listed = lobby.matches.get(id);
        // The lobby is not told when a listed match turns broadcast: its first move says so.
        if (listed) lobby.matches.set(id, { ...listed, ply: message.ply, spectators: "broadcast", private: false });
        break;
      }
      case "match_spectators": {
        const mode = message.spectators;
        const changed = (summary) => ({ ...summary, spectators: mode, private: mode === "private" });
        const listed = lobby.matches.get(message.match);
        if (listed) lobby.matches.set(message.match, changed(listed));
        if (mode !== "broadcast") lobby.broadcasts.delete(message.match);
        const match = this.matches.get(message.match);
        if (match?.summary) {
          match.summary = changed(match.summary);
          this.#emit("match", match);
        }
        break;
      }
      case "unspectated": {
        // The answer to `unspectate`, or the server putting this spectator out (a `reason`: the
        // match went private): either way the match is no longer followed, nor watched again
        // after a reconnection.
        this.#spectated.delete(message.match);
        if (this.matches.get(message.match)?.spectating) this.matches.delete(message.match);
        return;
      }
      case "match_started": {
        const match = this.#match(message.match.id);
        match.summary = message.match;
        match.seat = message.seat;
        break;
      }
      case "match_state": {
        const match = this.#match(message.match.id);
        match.applyState(message);
        match.spectating = message.seat === null;
        this.#emit("match", match);
        return;
      }
      case "moved": {
        const match = this.matches.get(message.match);
        if (!match) return;
        if (match.applyMoved(message)) this.#emit("match", match);
        else this.sync(match.id).catch(() => {}); // a move was missed: take the server's state
        return;
      }
      case "match_over": {
        const match = this.matches.get(message.match);
        if (!match) return;
        match.applyOver(message.result);
        this.#emit("match", match);
        return;
      }
      case "tt_choose":
      case "tt_settled": {
        const match = this.matches.get(message.match);
        if (!match) return;
        if (message.type === "tt_choose") match.choice = { chooser: message.chooser, count: message.count, deadline: message.deadline };
        else {
          match.choice = null;
          match.settlement = { moved: message.moved, kept: message.kept };
        }
        this.#emit("match", match);
        return;
      }
      default:
        return;
    }
    this.#emit("lobby", lobby);
  }

  #match(id) {
    let match = this.matches.get(id);
    if (!match) {
      match = new Match(this, id);
      this.matches.set(id, match);
    }
    return match;
  }

  /** Sends one request and resolves with the server's reply to it (or rejects with its error). */
  request(message) {
    return this.#request(message);
  }

  #request(message, answeredBy = null) {
    if (typeof message !== "object" || message === null || typeof message.type !== "string") {
      return Promise.reject(badArgument("a request is an object with a string `type`"));
    }
    const socket = this.#socket;
    if (socket === null || this.state !== "open" || socket.readyState !== 1) {
      return Promise.reject(new ConnectionError(`not connected (${this.state})`));
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new ConnectionError(`no answer to ${message.type} within ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
      this.#pending.set(id, { resolve, reject, timer, type: message.type, answeredBy });
      this.#send(JSON.stringify({ ...message, id }));
    });
  }

  // ---- accounts ------------------------------------------------------------------------------

  async #authenticate(message) {
    const reply = await this.request(message);
    this.user = reply.user;
    this.token = reply.token;
    this.language = reply.language ?? null;
    return { user: reply.user, token: reply.token, language: this.language };
  }

  /** Creates an account; `language` (`"en"`, `"fr"`), when given, is the page language it keeps. */
  async register(name, password, { language } = {}) {
    requireText(name, "name");
    requireText(password, "password");
    if (language !== undefined) requireText(language, "language");
    return this.#authenticate({ type: "register", name, password, ...(language === undefined ? {} : { language }) });
  }

  /** Keeps `language` (`"en"`, `"fr"`) in the account as its page language; `authenticated`
   * gives it back at every later login (`language` then holds it). */
  async setLanguage(language) {
    requireText(language, "language");
    const reply = await this.request({ type: "language", language });
    this.language = reply.language;
    return reply.language;
  }

  async login(name, password) {
    requireText(name, "name");
    requireText(password, "password");
    return this.#authenticate({ type: "login", name, password });
  }

  /** Logs in with the token of an earlier session (the server then sends the state of every
   * running match this user sits in, and the `match_over` and `tt_settled` events this user
   * missed, for matches this client may not follow). */
  async resume(token) {
    requireText(token, "token");
    return this.#authenticate({ type: "resume", token });
  }

  /** Ends the session on the server (the token no longer resumes) and closes the connection. */
  logout() {
    this.#closing = true;
    this.token = null;
    this.user = null;
    this.language = null;
    this.#send(JSON.stringify({ type: "logout" }));
  }

  async stats(name) {
    if (name !== undefined) requireText(name, "name");
    return this.request(name === undefined ? { type: "stats" } : { type: "stats", name });
  }

  async ping() {
    return this.request({ type: "ping" });
  }

  // ---- lobby and challenges ------------------------------------------------------------------

  /** The lobby's snapshot; from then on its events keep `lobbyState` current (also after a
   * reconnection). */
  async lobby() {
    let reply = await this.request({ type: "lobby" });
    this.#lobbySubscribed = true;
    // The server answers page by page: every page, then the whole as one snapshot.
    while (typeof reply.next === "string") reply = await this.request({ type: "lobby", after: reply.next });
    const lobby = this.lobbyState;
    return {
      ...reply,
      after: null,
      online: [...lobby.online.values()],
      challenges: [...lobby.challenges.values()],
      matches: [...lobby.matches.values()],
    };
  }

  /** Makes a challenge (see PROTOCOL.md for `game`, `options`, `seats`, `time`, `private`). */
  async challenge(spec) {
    if (typeof spec !== "object" || spec === null) throw badArgument("a challenge is an object");
    requireText(spec.game, "game");
    const reply = await this.request({ ...spec, type: "challenge" });
    return reply.challenge;
  }

  /** Takes a seat of a challenge; one that plays picked hands takes `{deck}` (a deck of yours)
   * or `{cards}` (five card ids), else you name them in its picking window (`pick`), or play
   * your current deck (PROTOCOL.md, "Picked hands"). */
  async accept(challenge, { deck, cards } = {}) {
    const reply = await this.request(handRequest("accept", challenge, { deck, cards }));
    return { challenge: reply.challenge, seat: reply.seat };
  }

  /** Names your five in a challenge's picking window (a `picking` event): `{deck}` or `{cards}`
   * (PROTOCOL.md, "The picking window"). */
  async pick(challenge, { deck, cards } = {}) {
    const reply = await this.request(handRequest("pick", challenge, { deck, cards }));
    return { challenge: reply.challenge };
  }

  async refuse(challenge) {
    requireId(challenge, "challenge");
    return this.request({ type: "refuse", challenge });
  }

  async withdraw(challenge) {
    requireId(challenge, "challenge");
    return this.request({ type: "withdraw", challenge });
  }

  // ---- matches -------------------------------------------------------------------------------

  /** Plays `move` (notation, or an action id) for this connection's seat at the match's current
   * ply; resolves with the `moved` event once the server has stored it. */
  async play(matchId, move) {
    requireId(matchId, "match");
    const request = { type: "move", match: matchId };
    if (typeof move === "string") request.move = move;
    else if (Number.isSafeInteger(move) && move >= 0) request.action = move;
    else throw badArgument("a move is its notation (a string) or an action id (a non-negative integer)");
    const match = this.matches.get(matchId);
    if (match) request.ply = match.ply;
    const seat = match?.seat;
    const ply = match ? match.ply + 1 : null;
    return this.#request(request, (m) => m.type === "moved" && m.match === matchId && m.seat === seat && m.ply === ply && !m.timeout);
  }

  /** Leaves a running match (a forfeit); resolves once the client holds the match's result. */
  async leave(matchId) {
    requireId(matchId, "match");
    const over = this.once("match", (m) => m.id === matchId && m.isOver);
    await this.request({ type: "leave", match: matchId });
    const match = this.matches.get(matchId);
    return match?.isOver ? match : over;
  }

  /** Watches a match: resolves with its public state; its moves follow as events. */
  async spectate(matchId) {
    requireId(matchId, "match");
    await this.request({ type: "spectate", match: matchId });
    this.#spectated.add(matchId);
    return this.matches.get(matchId);
  }

  async unspectate(matchId) {
    requireId(matchId, "match");
    return this.request({ type: "unspectate", match: matchId });
  }

  /** Who may watch a running match this connection sits in: `"open"`, `"broadcast"` (every
   * move also shown to the whole lobby) or `"private"` (its spectators are put out). Resolves
   * with the server's `match_spectators` once stored. */
  async setSpectators(matchId, spectators) {
    requireId(matchId, "match");
    if (!SPECTATORS.includes(spectators)) throw badArgument(`spectators is one of ${SPECTATORS.join(", ")}`);
    return this.request({ type: "spectators", match: matchId, spectators });
  }

  /** Takes the server's state of a match again. */
  async sync(matchId) {
    requireId(matchId, "match");
    await this.request({ type: "sync", match: matchId });
    return this.matches.get(matchId);
  }

  /** A page of a match's move list: `count` moves (at most the server's `history_max`) from
   * index `from`; resolves with `{match, ply, from, moves}` (`ply`: the moves played in all). A
   * private match's moves are read by its seats alone. */
  async history(matchId, { from = 0, count } = {}) {
    requireId(matchId, "match");
    const request = { type: "history", match: matchId, from: requireCount(from, "from") };
    if (count !== undefined) request.count = requireCount(count, "count");
    const { type: _type, re: _re, ...page } = await this.request(request);
    return page;
  }

  // ---- the chat ------------------------------------------------------------------------------

  /** Says `text` in the lobby's chat, in match `match`'s (its players and spectators), or to the
   * player `to` alone (a page); `pose` for an action ("waves"). Resolves with `chat_sent` once
   * sent: the line itself comes back as a `chat` event, as to everyone who hears it. A server
   * command (`!aide`, `!scores`, `!quizz` while a question is open) resolves with its answer. */
  async chat(text, { match, to, pose = false } = {}) {
    const request = { type: "chat", text: requireText(text, "text"), pose: pose === true };
    if (match !== undefined) request.match = requireId(match, "match");
    if (to !== undefined) request.to = requireText(to, "to");
    return this.request(request);
  }

  /** A seated player silences the spectators of a match's chat (or lets them speak again);
   * resolves with the server's `chat_silenced`, which the match's room hears too. */
  async silenceSpectators(matchId, silenced = true) {
    requireId(matchId, "match");
    return this.request({ type: "chat_silence", match: matchId, silenced: silenced === true });
  }

  // ---- the card economy (Triple Triad) -----------------------------------------------------

  /** Points, experience, gils, whether the starter was taken, the current deck; and the number
   * of cards owned. */
  async wallet() {
    const reply = await this.request({ type: "tt_wallet" });
    return { ...reply.wallet, cards: reply.cards };
  }

  /** The 20 starter cards (once per player; `starter_taken` after). */
  async starter() {
    return (await this.request({ type: "tt_starter" })).cards;
  }

  /** Every card owned, with its details (ranks, element, level, text), copies, and how many of
   * them are in decks or at stake. */
  async stash() {
    return (await this.request({ type: "tt_stash" })).cards;
  }

  async decks() {
    return (await this.request({ type: "tt_decks" })).decks;
  }

  async createDeck(name) {
    return (await this.request({ type: "tt_deck", op: "create", name: requireText(name, "deck") })).deck;
  }

  async deleteDeck(name) {
    await this.request({ type: "tt_deck", op: "delete", name: requireText(name, "deck") });
  }

  /** Puts cards (ids such as `A001`, or names) of the stash into a deck, all or none; `deck`
   * null: the current deck. */
  async addToDeck(deck, cards) {
    return this.#deckCards("add", deck, cards);
  }

  async removeFromDeck(deck, cards) {
    return this.#deckCards("remove", deck, cards);
  }

  async #deckCards(op, deck, cards) {
    const request = { type: "tt_deck", op, cards: requireCards(cards) };
    if (deck !== null) request.name = requireText(deck, "deck");
    return (await this.request(request)).deck;
  }

  /** The deck check: `{deck, check: {usable, usable_limitless, level_total, problem}}`. */
  async checkDeck(deck = null) {
    const request = { type: "tt_deck", op: "check" };
    if (deck !== null) request.name = requireText(deck, "deck");
    const reply = await this.request(request);
    return { deck: reply.deck, check: reply.check };
  }

  /** The shop's series with their prices and how many of their cards you own. */
  async shop() {
    return (await this.request({ type: "tt_shop" })).series;
  }

  /** The cards of a series (one level, or all) with how many of each you own. */
  async shopCards(series, level = null) {
    const request = { type: "tt_shop", series: requireSeries(series) };
    if (level !== null) request.level = requireLevel(level);
    return (await this.request(request)).cards;
  }

  /** Buys a random card of a series and level: `{card, price}`. */
  async buyRandom(series, level) {
    const reply = await this.request({ type: "tt_buy", series: requireSeries(series), level: requireLevel(level) });
    return { card: reply.card, price: reply.price };
  }

  /** Buys the card of that id or name. */
  async buyCard(card) {
    const reply = await this.request({ type: "tt_buy", card: requireText(card, "card") });
    return { card: reply.card, price: reply.price };
  }

  /** Creates a custom card (ranks top, right, bottom, left) at half the custom series' price. */
  async createCustom({ name, level, ranks, element = "none", text = "" }) {
    if (!Array.isArray(ranks) || ranks.length !== 4 || !ranks.every(Number.isSafeInteger)) {
      throw badArgument("ranks are four integers: top, right, bottom, left");
    }
    const reply = await this.request({
      type: "tt_custom",
      name: requireText(name, "name"),
      level: requireLevel(level),
      ranks,
      element: requireText(element, "element"),
      text: requireText(text, "text"),
    });
    return { card: reply.card, price: reply.price };
  }

  /** Five rank sets (top, right, bottom, left) a custom card of `level` may have. */
  async suggest(level) {
    return (await this.request({ type: "tt_suggest", level: requireLevel(level) })).ranks;
  }

  /** What the winner of a match with stakes may take: `{chooser, count, deadline, cards}`, the
   * loser's five by position (under `direct_swap` also `facing`, the winner's own five). Only the
   * match's two players may ask. */
  async winList(matchId) {
    requireId(matchId, "match");
    return (await this.request({ type: "tt_win_list", match: matchId })).win_list;
  }

  /** The winner's choice: the loser's cards by position (1 to 5), id or name; `[]` takes none.
   * Resolves with `{moved, settlement}` (the number moved, and the `tt_settled` both players
   * receive) once the settlement reached this connection. */
  async choose(matchId, picks) {
    requireId(matchId, "match");
    if (!Array.isArray(picks) || picks.some((p) => typeof p !== "string" && !Number.isSafeInteger(p))) {
      throw badArgument("picks are an array of positions (1 to 5), card ids or names");
    }
    // The settlement may reach this connection before or after the reply.
    let heard = null;
    let wake = () => {};
    const stop = this.on("tt_settled", (m) => {
      if (m.match !== matchId) return;
      heard = m;
      wake();
    });
    try {
      const reply = await this.request({ type: "tt_choose", match: matchId, picks: picks.map(String) });
      if (heard === null) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new ConnectionError(`no tt_settled for match ${matchId} within ${this.#timeoutMs} ms`)), this.#timeoutMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return { moved: reply.moved, settlement: { moved: heard.moved, kept: heard.kept } };
    } finally {
      stop();
    }
  }
}

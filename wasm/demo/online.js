// The Online tab: play people and computer seats through an arbiter-server (the one serving this
// page), on arbiter-engine/client. Log in or register, see who is online, the open challenges and
// the matches in progress, challenge a player, anyone or a computer level to any of the three
// games, play, watch a match. Triple Triad's card economy: the stash, decks, the shop and the
// figures (online-cards.js), the five of your collection you play against people (picked in
// online-picker.js), challenges that put them at stake, and the winner's choice of the loser's
// cards at the end. The session token is kept for the tab, so a reload resumes.
// Every word is the catalogs' (i18n.js) in the page's language, which a logged-in player's
// account keeps: the server sends codes and data, and this page words them.
import { ArbiterClient } from "arbiter-engine/client";
import { TripleTriadMatch } from "arbiter-engine/web";
import { h, describeError, fill, using } from "./ui.js";
import { boardFor, seatName } from "./online-boards.js";
import { CardsView, cardTile } from "./online-cards.js";
import { ChatView } from "./online-chat.js";
import { HandPicker } from "./online-picker.js";
import { rulesText, SPECTATORS } from "./online-rules.js";
import { closedNotice, roundNotice } from "./online-notices.js";
import { has, language, list, onLanguage, setLanguage, t } from "./i18n.js";

const GAMES = ["triple-triad", "trax", "nantong"];
const gameName = (game) => t(`game.${game}`);
const TOKEN = "arbiter-online-token";

/** An option of a game as the server's core declares it (`welcome.games[game].options`). */
const declared = (client, game, name) => client.describe(game)?.options.find((o) => o.name === name);

/** What the lobby shows of a broadcast match: its last move, as it came. */
/** Whether a challenge (as listed, or as the form makes it) plays the hands its people pick:
 * Triple Triad between people or with a stake, not under the random rule (PROTOCOL.md, "Picked
 * hands"); otherwise the hands are dealt or drawn, and a pick would be refused. */
function playsPicked(c) {
  if (c.game !== "triple-triad") return false;
  const random = c.rules?.rules?.includes("random") || c.options?.rules?.random;
  const computer = c.seats.some((s) => s.kind === "computer");
  return !random && (!computer || Boolean(c.options?.stake));
}

function lastBroadcast(match, shown) {
  if (match.spectators !== "broadcast") return null;
  const words = shown && shown.ply === match.ply ? t("lobby.broadcast_move", { name: seatName(match, shown.seat), move: shown.move }) : t("lobby.broadcast");
  return h("span", { class: "online-broadcast", dataset: { ply: shown?.ply ?? "" } }, `(${words}) `);
}

const PANELS = ["lobby", "stash", "decks", "shop", "stats"];

class OnlineView {
  constructor(section) {
    this.section = section;
    this.client = null;
    this.current = null; // the match shown
    this.message = h("p", { class: "message", role: "status", "aria-live": "polite" });
    this.login = this.loginForm();
    this.lobby = h("div", { class: "online-lobby" });
    this.lobbyHead = h("div", { class: "online-head" });
    this.lobbyBody = h("div", { class: "online-columns" });
    this.panel = "lobby";
    this.matchPanel = h("div", { class: "online-match" });
    section.append(this.message, this.login, this.lobby, this.matchPanel);
    this.show("login");
    onLanguage((lang) => this.switched(lang));
    this.connecting = this.connect();
  }

  /** After a switch of language: everything drawn again in it, and the choice kept in the
   * account when logged in. */
  switched(lang) {
    if (this.client?.user && this.client.language !== lang) this.act(this.client.setLanguage(lang));
    const login = this.loginForm();
    this.login.replaceWith(login);
    this.login = login;
    this.show(this.section.dataset.state);
    this.message.textContent = this.words?.() ?? "";
    this.lobbyChat?.word();
    this.matchChat?.word();
    this.picker?.word();
    // The challenge form is built again in the new words, with the choices made in it.
    const filled = this.challengeForm?.values();
    this.challengeForm = null;
    this.renderLobby();
    if (filled) this.challengeForm?.restore(filled);
    if (this.panel !== "lobby") this.cards?.refresh(this.panel);
    if (this.current !== null) {
      this.board?.dispose?.();
      this.board = null;
      this.renderMatch();
    }
  }

  show(state) {
    this.section.dataset.state = state;
    this.login.hidden = state !== "login";
    this.lobby.hidden = state !== "lobby";
    this.matchPanel.hidden = state !== "match";
  }

  /** Puts a line in the message line: `words` is a catalog key (with `params`), or a function
   * that words it, so that a switch of language words it again. */
  say(words, params) {
    this.words = typeof words === "function" ? words : words ? () => t(words, params) : null;
    this.message.textContent = this.words?.() ?? "";
  }

  /** Says why a request was refused. */
  refused(e, key = null) {
    this.say(() => (key ? t(key, { reason: describeError(e) }) : describeError(e)));
  }

  async connect({ quiet = false } = {}) {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    try {
      this.client = await ArbiterClient.connect(url);
    } catch (e) {
      this.say("online.no_server", { url });
      this.section.dataset.state = "offline";
      return;
    }
    const client = this.client;
    this.cards = new CardsView(client, (text) => this.say(() => text));
    this.lobbyChat = new ChatView(client, { lobby: true });
    this.matchChat = new ChatView(client, { lobby: false });
    this.lobby.replaceChildren(this.lobbyHead, this.lobbyBody, ...Object.values(this.cards.panels));
    this.picker = new HandPicker(client, (text) => this.say(text));
    client.on("lobby", (lobby) => {
      for (const [id, c] of lobby.challenges) this.challengesSeen.set(id, c);
      this.renderLobby();
    });
    // The challenges this page was told of, kept until they close to say how they did.
    this.challengesSeen = new Map();
    const seen = ({ challenge }) => this.challengesSeen.set(challenge.id, challenge);
    client.on("challenge_open", seen);
    client.on("challenge_created", seen);
    client.on("challenge_closed", ({ challenge, reason }) => {
      const c = this.challengesSeen.get(challenge);
      // In its picking window a challenge is still to be told of: how the window ends.
      if (reason === "picking") return;
      this.challengesSeen.delete(challenge);
      this.picker.endWindow(challenge);
      const notice = c && client.user ? closedNotice(c, reason, client.user) : null;
      if (notice) this.say(notice);
    });
    client.on("picking", (picking) => {
      this.challengesSeen.set(picking.challenge.id, picking.challenge);
      if (client.user) this.picker.startWindow(picking, client.user);
    });
    // The round each Triple Triad match was last shown at: a new one after a draw is told.
    this.roundsShown = new Map();
    client.on("match", (match) => {
      if (this.current === match.id) this.renderMatch();
      else this.renderLobby();
      const round = match.view?.round;
      if (typeof round !== "number") return;
      const notice = roundNotice(this.roundsShown.get(match.id), match.view);
      this.roundsShown.set(match.id, round);
      if (notice && this.current === match.id) this.say(notice);
    });
    client.on("match_started", ({ match }) => this.openMatch(match.id));
    // Put out by the server (the match went private): say why, back to the lobby.
    client.on("unspectated", ({ match, reason, by, message }) => {
      if (reason === undefined || this.current !== match) return;
      this.backToLobby();
      // A reason this page does not know yet still has the server's words.
      if (has(`online.unspectated.${reason}`)) this.say(`online.unspectated.${reason}`, { name: by?.name });
      else this.say(() => message);
    });
    client.on("error", (e) => this.refused(e));
    // A client logged out and left behind closes after the page said so: it says nothing more.
    client.on("disconnected", ({ reconnecting }) => client === this.client && this.say(reconnecting ? "online.reconnecting" : "online.disconnected"));
    client.on("reconnected", () => this.say("online.reconnected"));
    client.on("session_lost", () => {
      sessionStorage.removeItem(TOKEN);
      this.show("login");
    });
    if (!quiet) this.say("online.connected", { server: client.welcome.server });
    const token = sessionStorage.getItem(TOKEN);
    if (token) {
      try {
        await client.resume(token);
        await this.enter();
      } catch {
        sessionStorage.removeItem(TOKEN);
      }
    }
  }

  loginForm() {
    const name = h("input", { name: "online-name", "aria-label": t("login.name"), autocomplete: "username", required: true });
    const password = h("input", { name: "online-password", type: "password", "aria-label": t("login.password"), autocomplete: "current-password", required: true });
    const submit = (register) => async (e) => {
      e.preventDefault();
      // A click made while the page is still connecting waits for the connection.
      await this.connecting;
      if (!this.client) return;
      try {
        // A new account keeps the page's language; an account's own language comes back with it.
        if (register) await this.client.register(name.value, password.value, { language: language() });
        else await this.client.login(name.value, password.value);
        await this.enter();
      } catch (error) {
        this.refused(error, register ? "login.register_refused" : "login.refused");
      }
    };
    return h(
      "form",
      { class: "online-login", onsubmit: submit(false) },
      h("h2", {}, t("login.title")),
      h("label", {}, `${t("login.name")} `, name),
      h("label", {}, `${t("login.password")} `, password),
      h("button", { type: "submit", class: "primary" }, t("login.log_in")),
      h("button", { type: "button", onclick: submit(true) }, t("login.register")),
    );
  }

  async enter() {
    sessionStorage.setItem(TOKEN, this.client.token);
    // The account's language wins over this browser's; an account without one takes the page's.
    const kept = this.client.language;
    if (kept && kept !== language()) setLanguage(kept);
    else if (!kept) this.act(this.client.setLanguage(language()));
    await this.client.lobby();
    this.say("online.welcome", { name: this.client.user.name });
    this.show("lobby");
    this.showPanel("lobby");
    // A match already running for this player (after a reload) opens at once.
    const running = [...this.client.matches.values()].find((m) => m.seat !== null && !m.isOver);
    if (running) this.openMatch(running.id);
  }

  // ---- the lobby ---------------------------------------------------------------------------

  renderLobby() {
    const client = this.client;
    if (!client?.user) return;
    const lobby = client.lobbyState;
    if (!this.challengeForm) this.challengeForm = this.newChallenge();
    const me = client.user;
    const challenges = [...lobby.challenges.values()].map((c) => {
      const mine = c.by.id === me.id;
      const named = c.seats.some((s) => s.kind === "player" && s.name === me.name && !s.taken);
      const open = c.seats.some((s) => s.kind === "open" && !s.taken);
      return h(
        "li",
        { dataset: { challenge: c.id, game: c.game } },
        `${c.by.name}${t("colon")}${gameName(c.game)} — `,
        h("span", { class: "online-rules" }, rulesText(c.game, c.rules, c.options)),
        " — ",
        c.seats.map((s) => (s.kind === "computer" ? (s.name ?? t("seat.computer", { level: t(`level.${s.level}`) })) : s.kind === "open" ? t("seat.anyone") : s.name)).join(t("lobby.versus")),
        " ",
        mine ? h("button", { type: "button", onclick: () => this.act(client.withdraw(c.id)) }, t("lobby.withdraw")) : null,
        !mine && (named || open)
          ? h(
              "button",
              {
                type: "button",
                class: "primary",
                onclick: () => this.act(client.accept(c.id, playsPicked(c) ? this.picker.fields() : {})),
              },
              t("lobby.accept"),
            )
          : null,
        !mine && named ? h("button", { type: "button", onclick: () => this.act(client.refuse(c.id)) }, t("lobby.refuse")) : null,
      );
    });
    const yours = [...client.matches.values()].filter((m) => m.seat !== null && !m.isOver);
    const seated = (id) => (client.matches.get(id)?.seat ?? null) !== null;
    const listed = [...lobby.matches.values()].filter((m) => m.status === "running" && !seated(m.id));
    this.lobbyHead.replaceChildren(
      h("div", { class: "online-me" }, `${t("lobby.signed_in")} `, h("b", {}, me.name), " ", h("button", { type: "button", onclick: () => this.logout() }, t("lobby.log_out"))),
      h(
        "nav",
        { class: "online-nav", "aria-label": t("shell.online") },
        PANELS.map((key) =>
          h("button", { type: "button", dataset: { panel: key }, "aria-pressed": String(this.panel === key), onclick: () => this.showPanel(key) }, t(`panel.${key}`)),
        ),
      ),
    );
    this.lobbyBody.replaceChildren(
      h(
        "section",
        { "aria-label": t("lobby.players_online") },
        h("h3", {}, t("lobby.online")),
        h("ul", { class: "online-players" }, [...lobby.online.values()].map((u) => h("li", { dataset: { name: u.name } }, u.name))),
        h("h3", {}, t("lobby.robots")),
        h(
          "ul",
          { class: "online-robots" },
          lobby.robots.map((r) =>
            h(
              "li",
              { dataset: { robot: r.name } },
              `${r.name} (${t("lobby.robot_level", { level: t(`level.${r.level}`), game: gameName(r.game) })}) `,
              // A practice game under the French server's preset: challenge it by name, as a player.
              h("button", { type: "button", onclick: () => this.act(this.client.challenge({ game: r.game, options: { preset: "ttonline" }, seats: [{ kind: "me" }, { kind: "player", name: r.name }], time: 60 })) }, t("lobby.challenge")),
            ),
          ),
        ),
      ),
      this.picker.element,
      h("section", { "aria-label": t("lobby.new_challenge") }, h("h3", {}, t("lobby.challenge")), this.challengeForm.form),
      h(
        "section",
        { class: "online-lists", "aria-label": t("lobby.challenges") },
        h("h3", {}, t("lobby.open_challenges")),
        h("ul", { class: "online-challenges" }, challenges.length ? challenges : h("li", { class: "none" }, t("lobby.none"))),
        h("h3", {}, t("lobby.your_matches")),
        h(
          "ul",
          { class: "online-yours" },
          yours.map((m) => h("li", { dataset: { match: m.id } }, `${gameName(m.game)} #${m.id} `, h("button", { type: "button", onclick: () => this.openMatch(m.id) }, t("lobby.open")))),
        ),
        h("h3", {}, t("lobby.matches")),
        h(
          "ul",
          { class: "online-matches" },
          listed.map((m) =>
            h(
              "li",
              { dataset: { match: m.id, game: m.game } },
              `${gameName(m.game)} (`,
              h("span", { class: "online-rules" }, rulesText(m.game, m.rules, m.options)),
              `): ${t("lobby.match_line", { seats: m.seats.map((s, i) => seatName(m, i)).join(t("lobby.versus")), ply: m.ply })} `,
              lastBroadcast(m, lobby.broadcasts.get(m.id)),
              h("button", { type: "button", onclick: () => this.watch(m.id) }, t("lobby.watch")),
            ),
          ),
        ),
      ),
      this.lobbyChat.element,
    );
  }

  /** Shows the lobby or one of the card panels (drawn afresh from the server's answers). */
  showPanel(key) {
    if (key !== this.panel) this.say(null);
    this.panel = key;
    this.lobby.dataset.panel = key;
    this.lobbyBody.hidden = key !== "lobby";
    for (const [name, panel] of Object.entries(this.cards.panels)) panel.hidden = name !== key;
    this.renderLobby();
    if (key !== "lobby") this.cards.refresh(key);
  }

  /** The challenge form: the game and its options, the other seats, the clock, privacy. */
  newChallenge() {
    const welcome = this.client.welcome;
    const game = h("select", { name: "online-game", "aria-label": t("form.game") }, GAMES.map((g) => h("option", { value: g }, gameName(g))));
    const preset = h("select", { name: "online-preset", "aria-label": t("form.preset") }, welcome.games["triple-triad"].presets.map((p) => h("option", { value: p }, p)));
    const variant = h("select", { name: "online-variant", "aria-label": t("form.variant") }, welcome.games.trax.variants.map((v) => h("option", { value: v }, v)));
    const deals = h("input", { name: "online-deals", type: "number", min: 1, max: welcome.games.nantong.max_deals, value: 1, "aria-label": t("form.deals") });
    const time = h("input", { name: "online-time", type: "number", min: welcome.limits.min_time, max: welcome.limits.max_time, value: 60, "aria-label": t("form.time") });
    const privacy = h("input", { name: "online-private", type: "checkbox", "aria-label": t("form.private_label") });
    const broadcast = h("input", { name: "online-broadcast", type: "checkbox", "aria-label": t("form.broadcast_label") });
    // Rules added to the preset's own: the French server's Aléatoire, Élémentaire, Mur puissant.
    const added = {
      random: h("input", { name: "online-random", type: "checkbox" }),
      elemental: h("input", { name: "online-elemental", type: "checkbox" }),
      power_walls: h("input", { name: "online-power-walls", type: "checkbox" }),
    };
    // The server refuses both at once: ticking one clears the other.
    privacy.addEventListener("change", () => privacy.checked && (broadcast.checked = false));
    broadcast.addEventListener("change", () => broadcast.checked && (privacy.checked = false));
    // Stakes: the five you picked are at stake, and the winner rule says what the winner takes
    // from the loser's five.
    const trades = declared(this.client, "triple-triad", "trade");
    const trade = h("select", { name: "online-trade", "aria-label": t("form.trade") }, h("option", { value: "" }, t("form.nothing_at_stake")), trades.values.map((v) => h("option", { value: v }, t(`trade.${v}`))));
    const options = h("div", { class: "online-options" });
    const seats = h("div", { class: "online-seats" });
    const seatRow = (n) => {
      const kind = h(
        "select",
        { name: `online-seat-${n}`, "aria-label": t("form.seat", { seat: n + 1 }) },
        h("option", { value: "open" }, t("seat.anyone")),
        h("option", { value: "player" }, t("form.a_player")),
        h("option", { value: "computer" }, t("form.the_computer")),
      );
      const name = h("input", { name: `online-seat-${n}-name`, "aria-label": t("form.seat_player", { seat: n + 1 }), placeholder: t("form.name_placeholder"), hidden: true });
      const level = h("select", { name: `online-seat-${n}-level`, "aria-label": t("form.seat_level", { seat: n + 1 }), hidden: true });
      const sync = () => {
        name.hidden = kind.value !== "player";
        level.hidden = kind.value !== "computer";
      };
      kind.addEventListener("change", sync);
      return {
        row: h("div", { class: "online-seat" }, h("span", {}, t("form.seat_colon", { seat: n + 1 })), kind, name, level),
        levels(list) {
          level.replaceChildren(...list.map((l) => h("option", { value: l }, t(`level.${l}`))));
        },
        spec() {
          if (kind.value === "player") return { kind: "player", name: name.value.trim() };
          if (kind.value === "computer") return { kind: "computer", level: level.value };
          return { kind: "open" };
        },
      };
    };
    let rows = [];
    const change = () => {
      const g = game.value;
      options.replaceChildren(
        ...(g === "triple-triad"
          ? [
              h("label", {}, `${t("form.preset")} `, preset),
              ...Object.entries(added).map(([rule, box]) => h("label", {}, box, ` ${t(`form.${rule}`)}`)),
              h("label", {}, `${t("form.trade")} `, trade),
            ]
          : [g === "trax" ? h("label", {}, `${t("form.variant")} `, variant) : h("label", {}, `${t("form.deals")} `, deals)]),
      );
      rows = Array.from({ length: welcome.games[g].seats - 1 }, (_, i) => seatRow(i + 1));
      for (const r of rows) r.levels(welcome.games[g].levels);
      seats.replaceChildren(h("span", {}, t("form.seat_you")), ...rows.map((r) => r.row));
    };
    game.addEventListener("change", change);
    change();
    const form = h(
      "form",
      {
        class: "online-new",
        onsubmit: (e) => {
          e.preventDefault();
          const g = game.value;
          const tt = { preset: preset.value };
          // `rules` replaces the preset's: the preset's own, as the engine has them, plus the rule.
          const ticked = Object.keys(added).filter((rule) => added[rule].checked);
          if (ticked.length) tt.rules = { ...using(TripleTriadMatch.fromPreset(preset.value, 0), (m) => m.toJSON().config.rules), ...Object.fromEntries(ticked.map((rule) => [rule, true])) };
          if (trade.value) tt.stake = { trade: trade.value };
          const spec = {
            game: g,
            options: g === "triple-triad" ? tt : g === "trax" ? { variant: variant.value } : { deals: Number(deals.value) },
            seats: [{ kind: "me" }, ...rows.map((r) => r.spec())],
            time: Number(time.value),
            private: privacy.checked,
            broadcast: broadcast.checked,
          };
          if (g === "triple-triad" && playsPicked({ game: g, options: tt, seats: spec.seats })) {
            const pick = this.picker.fields();
            if (pick.deck) tt.deck = pick.deck;
            if (pick.cards) spec.cards = pick.cards;
          }
          this.act(this.client.challenge(spec));
        },
      },
      h("label", {}, `${t("form.game")} `, game),
      options,
      seats,
      h("label", {}, `${t("form.time")} `, time),
      h("label", {}, privacy, ` ${t("form.private")}`),
      h("label", {}, broadcast, ` ${t("form.broadcast")}`),
      h("button", { type: "submit", class: "primary" }, t("lobby.challenge")),
    );
    const fields = () => [...form.elements].filter((e) => e.name);
    return {
      form,
      values: () => fields().map((e) => [e.name, e.type === "checkbox" ? e.checked : e.value]),
      restore(values) {
        // The game first: it decides which of the other fields there are.
        const ordered = [...values.filter(([n]) => n === game.name), ...values.filter(([n]) => n !== game.name)];
        for (const [name, value] of ordered) {
          const field = fields().find((e) => e.name === name);
          if (!field) continue;
          if (field.type === "checkbox") field.checked = value;
          else field.value = value;
          field.dispatchEvent(new Event("change"));
        }
      },
    };
  }

  async act(promise) {
    try {
      await promise;
    } catch (e) {
      this.refused(e);
    }
  }

  async logout() {
    sessionStorage.removeItem(TOKEN);
    this.client.logout();
    this.current = null;
    this.show("login");
    this.say("online.logged_out");
    this.client = null;
    // The new connection keeps "Logged out." on the message line: that is what the person did.
    this.connecting = new Promise((resolve) => setTimeout(resolve, 100)).then(() => this.connect({ quiet: true }));
  }

  // ---- a match -----------------------------------------------------------------------------

  openMatch(id) {
    if (id !== this.current) this.say(null);
    this.current = id;
    this.board?.dispose?.();
    this.board = null;
    this.show("match");
    this.renderMatch();
  }

  async watch(id) {
    try {
      await this.client.spectate(id);
      this.openMatch(id);
    } catch (e) {
      this.refused(e);
    }
  }

  async play(move) {
    const id = this.current;
    try {
      await this.client.play(id, move);
    } catch (e) {
      this.refused(e, "match.move_refused");
    }
  }

  renderMatch() {
    const match = this.client.matches.get(this.current);
    if (!match || !match.view) {
      // The panel is this match's from the start (a page reading `data-match` must not find none,
      // or the last match's); whose turn it is comes with its state.
      this.matchPanel.dataset.match = this.current;
      delete this.matchPanel.dataset.turn;
      this.matchPanel.replaceChildren(h("p", {}, t("match.waiting")));
      return;
    }
    if (!this.board || this.boardGame !== match.game) {
      this.board = boardFor(match.game, (move) => this.play(move));
      this.boardGame = match.game;
      this.status = h("p", { class: "online-status", role: "status" });
      this.clock = h("output", { class: "online-clock", "aria-label": t("match.clock") });
      this.moveList = h("ol", { class: "move-list online-moves", "aria-label": t("match.moves") });
      // A match's state lists its last moves: the earlier ones are read on request.
      this.earlier = h("button", { type: "button", class: "online-earlier", onclick: () => this.act(this.client.matches.get(this.current)?.loadEarlier().then(() => this.renderMatch())) }, t("match.earlier"));
      this.result = h("div", { class: "result", "aria-live": "polite" });
      this.trade = h("div", { class: "online-trade", "aria-live": "polite" });
      this.buttons = h("div", { class: "toolbar" });
      const names = match.summary.seats.map((s, i) => seatName(match.summary, i)).join(t("lobby.versus"));
      this.matchPanel.replaceChildren(
        h("h2", {}, `${gameName(match.game)} #${match.id}${t("colon")}${names}`),
        h("p", { class: "online-rules online-match-rules" }, rulesText(match.game, match.summary.rules, match.summary.options)),
        this.buttons,
        h("div", { class: "online-play" }, this.board.element, h("aside", { class: "online-side" }, this.status, this.clock, this.result, this.trade, h("h3", {}, t("match.moves")), this.earlier, this.moveList, this.matchChat.element)),
      );
      clearInterval(this.ticker);
      this.ticker = setInterval(() => this.tick(), 250);
    }
    this.shownAt = Date.now();
    this.matchChat.show(match.id, match.seat !== null);
    this.board.update(match);
    const yours = match.seat !== null && match.toMove === match.seat && !match.isOver;
    this.matchPanel.dataset.turn = match.isOver ? "over" : match.seat === null ? "watching" : yours ? "you" : "waiting";
    this.matchPanel.dataset.match = match.id;
    this.matchPanel.dataset.game = match.game;
    this.status.textContent = match.isOver
      ? t("match.over")
      : match.seat === null
        ? t("match.watching", { name: seatName(match.summary, match.toMove) })
        : yours
          ? t("match.your_move")
          : t("match.to_move", { name: seatName(match.summary, match.toMove) });
    this.earlier.hidden = match.from === 0;
    this.moveList.start = match.from + 1;
    this.moveList.replaceChildren(
      ...match.moves.map((m) => h("li", { dataset: { move: m.move } }, `${seatName(match.summary, m.seat)}${t("colon")}${m.move}${m.timeout ? ` ${t("match.timed_out")}` : ""}`)),
    );
    if (match.result) {
      const r = match.result;
      const you = match.seat;
      const text =
        you === null
          ? r.winners.length
            ? t("result.won_by", { names: list(r.winners.map((w) => seatName(match.summary, w))), count: r.winners.length })
            : t("outcome.drawn")
          : t(`outcome.${r.outcome[you]}`);
      const final = h("p", { class: "final", dataset: { outcome: you === null ? (r.winners.join(",") || "draw") : r.outcome[you], reason: r.reason } }, t(r.reason === "forfeit" ? "result.forfeit" : "result.line", { text }));
      // Nantong: who finished first and with what total (two may share it).
      const firsts = r.winners.map((w) => seatName(match.summary, w));
      const first = match.game === "nantong" && firsts.length && Array.isArray(r.scores) ? [h("p", { class: "first" }, t("result.first", { names: list(firsts), count: firsts.length, score: r.scores[r.winners[0]] }))] : [];
      this.result.replaceChildren(final, ...first, ...(Array.isArray(r.scores) ? [h("p", {}, t("result.scores", { scores: r.scores.join(" – ") }))] : []));
    } else this.result.replaceChildren();
    this.renderTrade(match);
    const leave = h("button", { type: "button", onclick: () => this.act(this.client.leave(match.id)) }, t("match.leave"));
    // The loser may not go before the winner's choice (the text game's rule), nor the winner.
    const choosing = match.seat !== null && match.choice !== null;
    const back = h(
      "button",
      { type: "button", disabled: choosing, title: choosing ? t("match.winner_choosing") : null, onclick: () => this.backToLobby() },
      t("match.back"),
    );
    this.buttons.replaceChildren(...(match.seat !== null && !match.isOver ? [leave, back, this.spectatorsChoice(match)] : [back]));
    // Drawn with the rest, not only at the next tick: an ended match shows no clock at once.
    this.tick();
  }

  /** The end of a match with stakes: the winner picks the loser's cards the rule allows, with
   * the clock; the loser sees the five and waits; then both see what moved. */
  renderTrade(match) {
    const me = this.client.user?.id;
    const choice = match.seat === null ? null : match.choice;
    const settled = match.seat === null ? null : match.settlement;
    this.trade.dataset.state = choice ? (choice.chooser === me ? "choose" : "wait") : settled ? "settled" : "none";
    if (settled) {
      const you = this.client.user.name;
      const lines = settled.moved.map((m) =>
        h(
          "li",
          { dataset: { card: m.card.split(" ")[0], from: m.from, to: m.to } },
          t(m.to === you ? "choice.you_took" : m.from === you ? "choice.took_yours" : "choice.moved", { card: m.card, from: m.from, to: m.to }),
        ),
      );
      this.trade.replaceChildren(
        h("h3", {}, t("choice.cards")),
        lines.length ? h("ul", { class: "online-moved" }, lines) : h("p", {}, t("choice.none_moved")),
        ...settled.kept.map((c) => h("p", {}, t("choice.kept", { card: c }))),
      );
      this.winList = null;
      return;
    }
    if (!choice) {
      this.trade.replaceChildren();
      return;
    }
    // The five the winner may take: asked once per choice.
    if (this.winList?.match !== match.id) {
      this.winList = { match: match.id, list: null, picked: new Set() };
      this.client.winList(match.id).then(
        (list) => {
          if (this.winList?.match !== match.id) return;
          this.winList.list = list;
          this.renderMatch();
        },
        (e) => this.refused(e),
      );
    }
    const { list, picked } = this.winList;
    const mine = choice.chooser === me;
    const count = choice.count;
    this.choiceClock = h("output", { class: "online-choice-clock", "aria-label": t("choice.time_to_choose") });
    // The loser's cards in the loser's colour.
    const colour = ["blue", "red"][match.summary.seats.findIndex((s) => s.kind === "player" && s.user !== choice.chooser)] ?? "red";
    const cards = (list?.cards ?? []).map((card, i) => {
      const position = i + 1;
      const on = picked.has(position);
      return mine
        ? h(
            "button",
            {
              type: "button",
              class: `online-pick${on ? " selected" : ""}`,
              "aria-pressed": String(on),
              "aria-label": t("choice.take_card", { card: card.card.name }),
              dataset: { position, card: card.id },
              onclick: () => {
                if (on) picked.delete(position);
                else if (picked.size < count) picked.add(position);
                this.renderMatch();
              },
            },
            cardTile(card, { colour }),
          )
        : cardTile(card, { colour });
    });
    const take = async (positions) => {
      try {
        await this.client.choose(match.id, positions);
      } catch (e) {
        this.refused(e);
      }
    };
    fill(
      this.trade,
      h("h3", {}, t("choice.cards")),
      h("p", { class: "online-choice" }, mine
          ? t("choice.you_choose", { count, name: this.seatOf(match, choice.chooser, false) })
          : t("choice.they_choose", { count, name: this.seatOf(match, choice.chooser) })),
      this.choiceClock,
      h("div", { class: "online-picks" }, cards),
      mine
        ? h(
            "div",
            { class: "toolbar" },
            h("button", { type: "button", class: "primary", disabled: picked.size !== count, onclick: () => take([...picked].sort()) }, t("choice.take", { count })),
            h("button", { type: "button", onclick: () => take([]) }, t("choice.take_none")),
          )
        : null,
    );
  }

  /** The name of the other person of a match than `user` (or of `user`, when `same`). */
  /** A seat's choice of who may watch (the text game's +TT/Option), stored by the server. */
  spectatorsChoice(match) {
    const current = match.summary.spectators;
    const select = h(
      "select",
      {
        name: "online-spectators",
        "aria-label": t("match.spectators"),
        onchange: (e) => this.act(this.client.setSpectators(match.id, e.currentTarget.value)),
      },
      SPECTATORS.map((value) => h("option", { value, selected: value === current }, t(`spectators.${value}`))),
    );
    return h("label", { class: "online-spectators" }, `${t("match.spectators_colon")} `, select);
  }

  seatOf(match, user, same = true) {
    const seat = match.summary.seats.find((s) => s.kind === "player" && (s.user === user) === same);
    return seat?.name ?? t("choice.the_loser");
  }

  tick() {
    const match = this.client?.matches.get(this.current);
    if (match?.choice && this.choiceClock) {
      const left = Math.max(0, match.choice.deadline - Date.now());
      this.choiceClock.textContent = t("choice.clock", { seconds: Math.ceil(left / 1000) });
    }
    if (!match || match.isOver || match.remainingMs === null) {
      if (this.clock) this.clock.textContent = "";
      return;
    }
    const left = Math.max(0, match.remainingMs - (Date.now() - this.shownAt));
    const seconds = Math.ceil(left / 1000);
    this.clock.textContent = match.toMove === match.seat ? t("match.clock_you", { seconds }) : t("match.clock_for", { seconds, name: seatName(match.summary, match.toMove) });
  }

  backToLobby() {
    const match = this.client.matches.get(this.current);
    if (match?.spectating) this.client.unspectate(match.id).catch(() => {});
    clearInterval(this.ticker);
    this.current = null;
    this.board = null;
    this.show("lobby");
    this.renderLobby();
  }
}

export function mount(section) {
  return new OnlineView(section);
}

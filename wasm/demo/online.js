// The Online tab: play people and computer seats through an arbiter-server (the one serving this
// page), on arbiter-engine/client. Log in or register, see who is online, the open challenges and
// the matches in progress, challenge a player, anyone or a computer level to any of the three
// games, play, watch a match. Triple Triad's card economy: the stash, decks, the shop and the
// figures (online-cards.js), challenges that put a deck's cards at stake, and the winner's choice
// of the loser's cards at the end. The session token is kept for the tab, so a reload resumes.
import { ArbiterClient } from "arbiter-engine/client";
import { TripleTriadMatch } from "arbiter-engine/web";
import { h, describeError, fill, using } from "./ui.js";
import { boardFor, seatName } from "./online-boards.js";
import { CardsView, cardTile } from "./online-cards.js";
import { ChatView } from "./online-chat.js";
import { rulesText, SPECTATORS } from "./online-rules.js";

const GAMES = { "triple-triad": "Triple Triad", trax: "Trax", nantong: "Nantong" };
// New page texts of this file, in English (the i18n lane moves them into the catalogs).
const PAGE_TEXT = {
  first: (names, score) =>
    names.length > 1 ? `${names.join(" and ")} share first place with ${score} each.` : `${names[0]} finished first with ${score}.`,
};
const TOKEN = "arbiter-online-token";

/** An option of a game as the server's core declares it (`welcome.games[game].options`). */
const declared = (client, game, name) => client.describe(game)?.options.find((o) => o.name === name);

/** What the lobby shows of a broadcast match: its last move, as it came. */
function lastBroadcast(match, shown) {
  if (match.spectators !== "broadcast") return null;
  const last = shown && shown.ply === match.ply ? `: ${seatName(match, shown.seat)} played ${shown.move}` : "";
  return h("span", { class: "online-broadcast", dataset: { ply: shown?.ply ?? "" } }, `(broadcast${last}) `);
}

const PANELS = { lobby: "Lobby", stash: "Stash", decks: "Decks", shop: "Shop", stats: "Stats" };

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
    this.connect();
  }

  show(state) {
    this.section.dataset.state = state;
    this.login.hidden = state !== "login";
    this.lobby.hidden = state !== "lobby";
    this.matchPanel.hidden = state !== "match";
  }

  say(text) {
    this.message.textContent = text;
  }

  async connect() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    try {
      this.client = await ArbiterClient.connect(url);
    } catch (e) {
      this.say(`No game server answers at ${url} (${describeError(e)}): start arbiter-server and open this page from it.`);
      this.section.dataset.state = "offline";
      return;
    }
    const client = this.client;
    this.cards = new CardsView(client, (text) => this.say(text));
    this.lobbyChat = new ChatView(client, { lobby: true });
    this.matchChat = new ChatView(client, { lobby: false });
    this.lobby.replaceChildren(this.lobbyHead, this.lobbyBody, ...Object.values(this.cards.panels));
    this.decksKnown = [];
    this.acceptDecks = new Map();
    client.on("lobby", () => this.renderLobby());
    client.on("match", (match) => {
      if (this.current === match.id) this.renderMatch();
      else this.renderLobby();
    });
    client.on("match_started", ({ match }) => this.openMatch(match.id));
    // Put out by the server (the match went private): say why, back to the lobby.
    client.on("unspectated", ({ match, message }) => {
      if (message === undefined || this.current !== match) return;
      this.backToLobby();
      this.say(message);
    });
    client.on("error", (e) => this.say(describeError(e)));
    client.on("disconnected", ({ reconnecting }) => this.say(reconnecting ? "Connection lost: reconnecting…" : "Disconnected."));
    client.on("reconnected", () => this.say("Reconnected."));
    client.on("session_lost", () => {
      sessionStorage.removeItem(TOKEN);
      this.show("login");
    });
    this.say(`Connected to ${client.welcome.server}.`);
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
    const name = h("input", { name: "online-name", "aria-label": "Name", autocomplete: "username", required: true });
    const password = h("input", { name: "online-password", type: "password", "aria-label": "Password", autocomplete: "current-password", required: true });
    const submit = (register) => async (e) => {
      e.preventDefault();
      if (!this.client) return;
      try {
        if (register) await this.client.register(name.value, password.value);
        else await this.client.login(name.value, password.value);
        await this.enter();
      } catch (error) {
        this.say(describeError(error));
      }
    };
    return h(
      "form",
      { class: "online-login", onsubmit: submit(false) },
      h("h2", {}, "Play online"),
      h("label", {}, "Name ", name),
      h("label", {}, "Password ", password),
      h("button", { type: "submit", class: "primary" }, "Log in"),
      h("button", { type: "button", onclick: submit(true) }, "Register"),
    );
  }

  async enter() {
    sessionStorage.setItem(TOKEN, this.client.token);
    await this.client.lobby();
    this.say(`Welcome, ${this.client.user.name}.`);
    this.show("lobby");
    await this.loadDecks();
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
        `${c.by.name}: ${GAMES[c.game]} — `,
        h("span", { class: "online-rules" }, rulesText(c.game, c.rules, c.options)),
        " — ",
        c.seats.map((s) => (s.kind === "computer" ? (s.name ?? `computer ${s.level}`) : s.kind === "open" ? "anyone" : s.name)).join(" vs "),
        " ",
        mine ? h("button", { type: "button", onclick: () => this.act(client.withdraw(c.id)) }, "Withdraw") : null,
        !mine && (named || open) && c.options.stake && !c.rules?.rules?.includes("random") ? this.deckChoice(c.id) : null,
        !mine && (named || open)
          ? h(
              "button",
              {
                type: "button",
                class: "primary",
                onclick: (e) => {
                  const deck = e.currentTarget.parentElement.querySelector("select.online-accept-deck")?.value;
                  this.act(client.accept(c.id, deck ? { deck } : {}));
                },
              },
              "Accept",
            )
          : null,
        !mine && named ? h("button", { type: "button", onclick: () => this.act(client.refuse(c.id)) }, "Refuse") : null,
      );
    });
    const yours = [...client.matches.values()].filter((m) => m.seat !== null && !m.isOver);
    const seated = (id) => (client.matches.get(id)?.seat ?? null) !== null;
    const listed = [...lobby.matches.values()].filter((m) => m.status === "running" && !seated(m.id));
    this.lobbyHead.replaceChildren(
      h("div", { class: "online-me" }, `Signed in as `, h("b", {}, me.name), " ", h("button", { type: "button", onclick: () => this.logout() }, "Log out")),
      h(
        "nav",
        { class: "online-nav", "aria-label": "Online" },
        Object.entries(PANELS).map(([key, label]) =>
          h("button", { type: "button", dataset: { panel: key }, "aria-pressed": String(this.panel === key), onclick: () => this.showPanel(key) }, label),
        ),
      ),
    );
    this.lobbyBody.replaceChildren(
      h(
        "section",
        { "aria-label": "Players online" },
        h("h3", {}, "Online"),
        h("ul", { class: "online-players" }, [...lobby.online.values()].map((u) => h("li", { dataset: { name: u.name } }, u.name))),
        h("h3", {}, "Computer players"),
        h(
          "ul",
          { class: "online-robots" },
          lobby.robots.map((r) =>
            h(
              "li",
              { dataset: { robot: r.name } },
              `${r.name} (${r.level}) `,
              // A practice game under the French server's preset: challenge it by name, as a player.
              h("button", { type: "button", onclick: () => this.act(this.client.challenge({ game: r.game, options: { preset: "ttonline" }, seats: [{ kind: "me" }, { kind: "player", name: r.name }], time: 60 })) }, "Challenge"),
            ),
          ),
        ),
      ),
      h("section", { "aria-label": "New challenge" }, h("h3", {}, "Challenge"), this.challengeForm.form),
      h(
        "section",
        { "aria-label": "Challenges" },
        h("h3", {}, "Open challenges"),
        h("ul", { class: "online-challenges" }, challenges.length ? challenges : h("li", { class: "none" }, "none")),
        h("h3", {}, "Your matches"),
        h(
          "ul",
          { class: "online-yours" },
          yours.map((m) => h("li", { dataset: { match: m.id } }, `${GAMES[m.game]} #${m.id} `, h("button", { type: "button", onclick: () => this.openMatch(m.id) }, "Open"))),
        ),
        h("h3", {}, "Matches in progress"),
        h(
          "ul",
          { class: "online-matches" },
          listed.map((m) =>
            h(
              "li",
              { dataset: { match: m.id, game: m.game } },
              `${GAMES[m.game]} (`,
              h("span", { class: "online-rules" }, rulesText(m.game, m.rules, m.options)),
              `): ${m.seats.map((s, i) => seatName(m, i)).join(" vs ")}, move ${m.ply} `,
              lastBroadcast(m, lobby.broadcasts.get(m.id)),
              h("button", { type: "button", onclick: () => this.watch(m.id) }, "Watch"),
            ),
          ),
        ),
      ),
      this.lobbyChat.element,
    );
  }

  /** Shows the lobby or one of the card panels (drawn afresh from the server's answers). */
  showPanel(key) {
    if (key !== this.panel) this.say("");
    this.panel = key;
    this.lobby.dataset.panel = key;
    this.lobbyBody.hidden = key !== "lobby";
    for (const [name, panel] of Object.entries(this.cards.panels)) panel.hidden = name !== key;
    if (key === "lobby") this.loadDecks().then(() => this.renderLobby());
    else {
      this.renderLobby();
      this.cards.refresh(key);
    }
  }

  /** The player's decks, for the challenge form and for accepting a challenge with stakes. */
  async loadDecks() {
    try {
      this.decksKnown = (await this.client.decks()).map((d) => d.name);
    } catch {
      this.decksKnown = [];
    }
    this.challengeForm?.decks(this.decksKnown);
  }

  /** The challenge form: the game and its options, the other seats, the clock, privacy. */
  newChallenge() {
    const welcome = this.client.welcome;
    const game = h("select", { name: "online-game", "aria-label": "Game" }, Object.entries(GAMES).map(([g, label]) => h("option", { value: g }, label)));
    const preset = h("select", { name: "online-preset", "aria-label": "Preset" }, welcome.games["triple-triad"].presets.map((p) => h("option", { value: p }, p)));
    const variant = h("select", { name: "online-variant", "aria-label": "Variant" }, welcome.games.trax.variants.map((v) => h("option", { value: v }, v)));
    const deals = h("input", { name: "online-deals", type: "number", min: 1, max: welcome.games.nantong.max_deals, value: 1, "aria-label": "Deals" });
    const time = h("input", { name: "online-time", type: "number", min: welcome.limits.min_time, max: welcome.limits.max_time, value: 60, "aria-label": "Seconds per move" });
    const privacy = h("input", { name: "online-private", type: "checkbox", "aria-label": "Private" });
    const broadcast = h("input", { name: "online-broadcast", type: "checkbox", "aria-label": "Broadcast" });
    const powerWalls = h("input", { name: "online-power-walls", type: "checkbox" });
    // The server refuses both at once: ticking one clears the other.
    privacy.addEventListener("change", () => privacy.checked && (broadcast.checked = false));
    broadcast.addEventListener("change", () => broadcast.checked && (privacy.checked = false));
    // Stakes: a deck of yours brings its five cards as the hand, and the winner rule says what
    // the winner takes from the loser's five.
    const deck = h("select", { name: "online-deck", "aria-label": "Deck" });
    const trades = declared(this.client, "triple-triad", "trade");
    const trade = h("select", { name: "online-trade", "aria-label": "Trade" }, trades.values.map((t) => h("option", { value: t, selected: t === trades.default }, t)));
    const tradeLabel = h("label", {}, "Trade ", trade);
    const syncStake = () => (tradeLabel.hidden = deck.value === "");
    deck.addEventListener("change", syncStake);
    const setDecks = (names) => {
      const kept = deck.value;
      deck.replaceChildren(h("option", { value: "" }, "none: no stakes, dealt cards"), ...names.map((n) => h("option", { value: n, selected: n === kept }, n)));
      syncStake();
    };
    setDecks(this.decksKnown ?? []);
    const options = h("div", { class: "online-options" });
    const seats = h("div", { class: "online-seats" });
    const seatRow = (n) => {
      const kind = h(
        "select",
        { name: `online-seat-${n}`, "aria-label": `Seat ${n + 1}` },
        h("option", { value: "open" }, "anyone"),
        h("option", { value: "player" }, "a player"),
        h("option", { value: "computer" }, "the computer"),
      );
      const name = h("input", { name: `online-seat-${n}-name`, "aria-label": `Seat ${n + 1} player`, placeholder: "name", hidden: true });
      const level = h("select", { name: `online-seat-${n}-level`, "aria-label": `Seat ${n + 1} level`, hidden: true });
      const sync = () => {
        name.hidden = kind.value !== "player";
        level.hidden = kind.value !== "computer";
      };
      kind.addEventListener("change", sync);
      return {
        row: h("div", { class: "online-seat" }, h("span", {}, `Seat ${n + 1}:`), kind, name, level),
        levels(list) {
          level.replaceChildren(...list.map((l) => h("option", { value: l }, l)));
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
              h("label", {}, "Preset ", preset),
              h("label", {}, powerWalls, " power walls (Mur puissant: labels drawn from the seed)"),
              h("label", {}, "Deck ", deck),
              tradeLabel,
            ]
          : [g === "trax" ? h("label", {}, "Variant ", variant) : h("label", {}, "Deals ", deals)]),
      );
      rows = Array.from({ length: welcome.games[g].seats - 1 }, (_, i) => seatRow(i + 1));
      for (const r of rows) r.levels(welcome.games[g].levels);
      seats.replaceChildren(h("span", {}, "Seat 1: you"), ...rows.map((r) => r.row));
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
          if (powerWalls.checked) tt.rules = { ...using(TripleTriadMatch.fromPreset(preset.value, 0), (m) => m.toJSON().config.rules), power_walls: true };
          if (deck.value) Object.assign(tt, { deck: deck.value, stake: { trade: trade.value } });
          const spec = {
            game: g,
            options: g === "triple-triad" ? tt : g === "trax" ? { variant: variant.value } : { deals: Number(deals.value) },
            seats: [{ kind: "me" }, ...rows.map((r) => r.spec())],
            time: Number(time.value),
            private: privacy.checked,
            broadcast: broadcast.checked,
          };
          this.act(this.client.challenge(spec));
        },
      },
      h("label", {}, "Game ", game),
      options,
      seats,
      h("label", {}, "Seconds per move ", time),
      h("label", {}, privacy, " private (no spectators)"),
      h("label", {}, broadcast, " broadcast (every move shown to the lobby)"),
      h("button", { type: "submit", class: "primary" }, "Challenge"),
    );
    return { form, decks: setDecks };
  }

  /** The deck to accept a challenge with stakes with. */
  deckChoice(challenge) {
    return h(
      "select",
      {
        class: "online-accept-deck",
        name: `online-accept-deck-${challenge}`,
        "aria-label": "Your deck",
        // The lobby is drawn again at each of its events: the choice is kept across.
        onchange: (e) => this.acceptDecks.set(challenge, e.target.value),
      },
      this.decksKnown.length
        ? this.decksKnown.map((n) => h("option", { value: n, selected: this.acceptDecks.get(challenge) === n }, n))
        : h("option", { value: "" }, "no deck: build one"),
    );
  }

  async act(promise) {
    try {
      await promise;
    } catch (e) {
      this.say(describeError(e));
    }
  }

  async logout() {
    sessionStorage.removeItem(TOKEN);
    this.client.logout();
    this.current = null;
    this.show("login");
    this.say("Logged out.");
    this.client = null;
    setTimeout(() => this.connect(), 100);
  }

  // ---- a match -----------------------------------------------------------------------------

  openMatch(id) {
    if (id !== this.current) this.say("");
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
      this.say(describeError(e));
    }
  }

  async play(move) {
    const id = this.current;
    try {
      await this.client.play(id, move);
    } catch (e) {
      this.say(`Refused: ${describeError(e)}`);
    }
  }

  renderMatch() {
    const match = this.client.matches.get(this.current);
    if (!match || !match.view) {
      this.matchPanel.replaceChildren(h("p", {}, "Waiting for the match…"));
      return;
    }
    if (!this.board || this.boardGame !== match.game) {
      this.board = boardFor(match.game, (move) => this.play(move));
      this.boardGame = match.game;
      this.status = h("p", { class: "online-status", role: "status" });
      this.clock = h("output", { class: "online-clock", "aria-label": "Clock" });
      this.moveList = h("ol", { class: "move-list online-moves", "aria-label": "Moves" });
      // A match's state lists its last moves: the earlier ones are read on request.
      this.earlier = h("button", { type: "button", class: "online-earlier", onclick: () => this.act(this.client.matches.get(this.current)?.loadEarlier().then(() => this.renderMatch())) }, "Earlier moves");
      this.result = h("div", { class: "result", "aria-live": "polite" });
      this.trade = h("div", { class: "online-trade", "aria-live": "polite" });
      this.buttons = h("div", { class: "toolbar" });
      const names = match.summary.seats.map((s, i) => seatName(match.summary, i)).join(" vs ");
      this.matchPanel.replaceChildren(
        h("h2", {}, `${GAMES[match.game]} #${match.id}: ${names}`),
        h("p", { class: "online-rules online-match-rules" }, rulesText(match.game, match.summary.rules, match.summary.options)),
        this.buttons,
        h("div", { class: "online-play" }, this.board.element, h("aside", { class: "online-side" }, this.status, this.clock, this.result, this.trade, h("h3", {}, "Moves"), this.earlier, this.moveList, this.matchChat.element)),
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
      ? "The match is over."
      : match.seat === null
        ? `Watching: ${seatName(match.summary, match.toMove)} to move.`
        : yours
          ? "Your move."
          : `${seatName(match.summary, match.toMove)} to move.`;
    this.earlier.hidden = match.from === 0;
    this.moveList.start = match.from + 1;
    this.moveList.replaceChildren(
      ...match.moves.map((m) => h("li", { dataset: { move: m.move } }, `${seatName(match.summary, m.seat)}: ${m.move}${m.timeout ? " (time ran out: played by the server)" : ""}`)),
    );
    if (match.result) {
      const r = match.result;
      const you = match.seat;
      const text =
        you === null
          ? r.winners.length
            ? `${r.winners.map((w) => seatName(match.summary, w)).join(", ")} won`
            : "A draw"
          : { won: "You won", lost: "You lost", drawn: "A draw", dnf: "You left: did not finish" }[r.outcome[you]];
      const final = h("p", { class: "final", dataset: { outcome: you === null ? (r.winners.join(",") || "draw") : r.outcome[you], reason: r.reason } }, `${text}${r.reason === "forfeit" ? " (forfeit)" : ""}.`);
      // Nantong: who finished first and with what total (two may share it).
      const first = match.game === "nantong" && r.winners.length && Array.isArray(r.scores) ? [h("p", { class: "first" }, PAGE_TEXT.first(r.winners.map((w) => seatName(match.summary, w)), r.scores[r.winners[0]]))] : [];
      this.result.replaceChildren(final, ...first, ...(Array.isArray(r.scores) ? [h("p", {}, `Scores: ${r.scores.join(" – ")}`)] : []));
    } else this.result.replaceChildren();
    this.renderTrade(match);
    const leave = h("button", { type: "button", onclick: () => this.act(this.client.leave(match.id)) }, "Leave (forfeit)");
    // The loser may not go before the winner's choice (the text game's rule), nor the winner.
    const choosing = match.seat !== null && match.choice !== null;
    const back = h(
      "button",
      { type: "button", disabled: choosing, title: choosing ? "the winner is choosing the cards" : null, onclick: () => this.backToLobby() },
      "Back to the lobby",
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
          m.to === you ? `You took ${m.card} from ${m.from}.` : m.from === you ? `${m.to} took your ${m.card}.` : `${m.card}: ${m.from} to ${m.to}.`,
        ),
      );
      this.trade.replaceChildren(
        h("h3", {}, "The cards"),
        lines.length ? h("ul", { class: "online-moved" }, lines) : h("p", {}, "No card changed hands."),
        ...settled.kept.map((c) => h("p", {}, `${c} stays with its owner: the winner holds as many as allowed.`)),
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
        (e) => this.say(describeError(e)),
      );
    }
    const { list, picked } = this.winList;
    const mine = choice.chooser === me;
    const count = choice.count;
    this.choiceClock = h("output", { class: "online-choice-clock", "aria-label": "Time to choose" });
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
              "aria-label": `Take ${card.card.name}`,
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
        this.say(describeError(e));
      }
    };
    fill(
      this.trade,
      h("h3", {}, "The cards"),
      h("p", { class: "online-choice" }, mine
          ? `You won: take ${count} of ${this.seatOf(match, choice.chooser, false)}'s cards.`
          : `${this.seatOf(match, choice.chooser)} won and is choosing ${count} of your cards.`),
      this.choiceClock,
      h("div", { class: "online-picks" }, cards),
      mine
        ? h(
            "div",
            { class: "toolbar" },
            h("button", { type: "button", class: "primary", disabled: picked.size !== count, onclick: () => take([...picked].sort()) }, count === 1 ? "Take this card" : "Take these cards"),
            h("button", { type: "button", onclick: () => take([]) }, "Take none"),
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
        "aria-label": "Spectators",
        onchange: (e) => this.act(this.client.setSpectators(match.id, e.currentTarget.value)),
      },
      Object.entries(SPECTATORS).map(([value, label]) => h("option", { value, selected: value === current }, label)),
    );
    return h("label", { class: "online-spectators" }, "Spectators: ", select);
  }

  seatOf(match, user, same = true) {
    const seat = match.summary.seats.find((s) => s.kind === "player" && (s.user === user) === same);
    return seat?.name ?? "the loser";
  }

  tick() {
    const match = this.client?.matches.get(this.current);
    if (match?.choice && this.choiceClock) {
      const left = Math.max(0, match.choice.deadline - Date.now());
      this.choiceClock.textContent = `${Math.ceil(left / 1000)} s left to choose`;
    }
    if (!match || match.isOver || match.remainingMs === null) {
      if (this.clock) this.clock.textContent = "";
      return;
    }
    const left = Math.max(0, match.remainingMs - (Date.now() - this.shownAt));
    this.clock.textContent = `${Math.ceil(left / 1000)} s left for ${match.toMove === match.seat ? "you" : seatName(match.summary, match.toMove)}`;
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

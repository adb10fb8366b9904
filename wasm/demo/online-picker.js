// The Online tab's hand picker: the five cards of your own collection you play in a Triple Triad
// game between people (server/PROTOCOL.md, "Picked hands"). It shows your saved decks (one click
// plays a deck) beside your collection (add copies one by one, up to five, then use them); the
// pick goes with your next challenge or accept. Without one, the server's picking window asks for
// it once every seat is taken ("The picking window"): the picker opens with a countdown and the
// pick goes to that game at once; while the opponent picks, the countdown says whom it waits for.
import { describeError, h } from "./ui.js";
import { list, t } from "./i18n.js";
import { cardTile } from "./online-cards.js";
import { rulesText } from "./online-rules.js";

/** The size of a hand. */
const FIVE = 5;

export class HandPicker {
  /** `client` is the page's ArbiterClient; `say(text)` reports a failed request. */
  constructor(client, say) {
    this.client = client;
    this.say = say;
    this.pick = null; // {deck} | {cards: [ids]} | null: the current deck
    this.names = []; // the names of the cards picked, for the summary
    this.chosen = []; // shop cards added so far, in order
    this.stash = [];
    this.decks = [];
    this.windowed = null; // the picking window shown: {challenge, until (this page's clock), waiting, mine}
    this.clock = null;
    this.summaryLine = h("span", { class: "online-picker-summary" });
    this.countdown = h("p", { class: "online-picker-countdown", role: "status", hidden: true });
    this.rules = h("p", { class: "online-rules", hidden: true });
    this.panel = h("div", { class: "online-picker-panel", hidden: true });
    this.toggle = h("button", { type: "button", onclick: () => (this.panel.hidden ? this.open() : this.shut()) });
    this.heading = h("h3");
    this.element = h("section", { class: "online-picker" }, this.heading, this.summaryLine, " ", this.toggle, this.countdown, this.rules, this.panel);
    this.word();
  }

  /** A `picking` event: the window of a challenge whose seats are all taken. When `me` is still
   * to pick, the picker opens and a pick goes to that game; otherwise the countdown says whom
   * the game waits for. */
  startWindow({ challenge, remaining_ms, waiting }, me) {
    const mine = waiting.includes(me.name);
    this.windowed = { challenge: challenge.id, until: Date.now() + remaining_ms, waiting, mine, shown: challenge };
    this.element.dataset.window = mine ? "pick" : "wait";
    clearInterval(this.clock);
    this.clock = setInterval(() => this.tick(), 250);
    this.tick();
    if (mine && this.panel.hidden) this.open();
  }

  /** The window of `challenge` is over (its match started, or it was cancelled). */
  endWindow(challenge) {
    if (this.windowed?.challenge !== challenge) return;
    clearInterval(this.clock);
    this.windowed = null;
    delete this.element.dataset.window;
    delete this.element.dataset.seconds;
    this.countdown.hidden = true;
    this.rules.hidden = true;
    this.shut();
  }

  tick() {
    const w = this.windowed;
    if (!w) return;
    const seconds = Math.max(0, Math.ceil((w.until - Date.now()) / 1000));
    this.element.dataset.seconds = String(seconds);
    this.countdown.hidden = false;
    // The game's rules in words, above the cards they decide.
    this.rules.hidden = false;
    this.rules.textContent = rulesText(w.shown.game, w.shown.rules, w.shown.options);
    this.countdown.textContent =
      w.sent ? t("picker.sent") : w.mine ? t("picker.window", { seconds }) : t("picker.waiting", { players: list(w.waiting), seconds });
    if (seconds === 0) clearInterval(this.clock);
  }

  /** Every word drawn again, in the page's language (after a switch too). */
  word() {
    this.heading.textContent = t("picker.heading");
    this.element.setAttribute("aria-label", t("picker.heading"));
    this.toggle.textContent = t(this.panel.hidden ? "picker.open" : "picker.close");
    this.drawSummary();
    this.tick();
    if (!this.panel.hidden) this.draw();
  }

  /** The fields a challenge or an accept carries for the pick (none: the current deck). */
  fields() {
    return this.pick ? { ...this.pick } : {};
  }

  async open() {
    try {
      [this.stash, this.decks] = await Promise.all([this.client.stash(), this.client.decks()]);
    } catch (e) {
      this.say(describeError(e));
      return;
    }
    this.panel.hidden = false;
    this.element.classList.add("open");
    this.toggle.textContent = t("picker.close");
    this.draw();
  }

  shut() {
    this.panel.hidden = true;
    this.element.classList.remove("open");
    this.toggle.textContent = t("picker.open");
  }

  /** `pick` chosen: for the game whose window waits for it, else for the next challenge or accept. */
  async choose(pick, names) {
    const w = this.windowed;
    if (w?.mine && !w.sent) {
      try {
        await this.client.pick(w.challenge, pick);
      } catch (e) {
        this.say(describeError(e));
        return;
      }
      w.sent = true;
      this.element.dataset.window = "sent";
      this.tick();
      this.shut();
      return;
    }
    this.pick = pick;
    this.names = names;
    this.drawSummary();
    this.shut();
  }

  drawSummary() {
    const text = !this.pick ? t("picker.current") : this.pick.deck ? t("picker.deck", { deck: this.pick.deck }) : t("picker.cards", { cards: list(this.names) });
    this.summaryLine.textContent = text;
    this.element.dataset.pick = this.pick ? (this.pick.deck ? "deck" : "cards") : "current";
  }

  draw() {
    const taken = (id) => this.chosen.filter((c) => c.id === id).length;
    const deckRows = this.decks.map((d) =>
      h(
        "li",
        { dataset: { deck: d.name } },
        h("b", {}, d.name),
        ` (${t("picker.deck_cards", { count: d.cards.length })}) `,
        h("button", { type: "button", disabled: d.cards.length !== FIVE, onclick: () => this.choose({ deck: d.name }, d.cards.map(([, c]) => c.card.name)) }, t("picker.use_deck")),
      ),
    );
    const pool = this.stash.map(({ card, count }) => {
      const left = count - taken(card.id);
      const add = h("button", { type: "button", disabled: left === 0 || this.chosen.length === FIVE, onclick: () => this.add(card) }, t("picker.add"));
      return cardTile(card, { extra: [" · ", t("picker.copies", { count: left, of: count }), " ", add] });
    });
    const chosen = this.chosen.map((card, i) => cardTile(card, { extra: [" ", h("button", { type: "button", onclick: () => this.remove(i) }, t("picker.remove"))] }));
    const total = this.chosen.reduce((sum, c) => sum + c.card.level, 0);
    // Two columns on a wide screen: what you play (the five chosen, your decks) beside your
    // collection; one above the other on a narrow one (online.css).
    this.panel.replaceChildren(
      h(
        "div",
        { class: "online-picker-play" },
        h("h4", {}, t("picker.chosen", { count: this.chosen.length }), " · ", t("picker.levels", { total })),
        h("div", { class: "online-picker-chosen", dataset: { count: this.chosen.length } }, chosen),
        h(
          "div",
          {},
          h("button", { type: "button", class: "primary", disabled: this.chosen.length !== FIVE, onclick: () => this.choose({ cards: this.chosen.map((c) => c.id) }, this.chosen.map((c) => c.card.name)) }, t("picker.use")),
          " ",
          h("button", { type: "button", onclick: () => ((this.chosen = []), this.draw()) }, t("picker.clear")),
        ),
        h("h4", {}, t("picker.decks")),
        h("ul", { class: "online-picker-decks" }, deckRows.length ? deckRows : h("li", { class: "none" }, t("picker.no_decks"))),
      ),
      h("div", { class: "online-picker-collection" }, h("h4", {}, t("picker.collection")), h("div", { class: "online-picker-pool" }, pool.length ? pool : h("p", {}, t("picker.no_cards")))),
    );
  }

  add(card) {
    if (this.chosen.length < FIVE) this.chosen.push(card);
    this.draw();
  }

  remove(i) {
    this.chosen.splice(i, 1);
    this.draw();
  }
}

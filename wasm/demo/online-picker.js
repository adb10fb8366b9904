// The Online tab's hand picker: the five cards of your own collection you play in a Triple Triad
// game between people (server/PROTOCOL.md, "Picked hands"). It shows your saved decks (one click
// plays a deck) and your collection (add copies one by one, up to five, then use them); the pick
// goes with your next challenge or accept. Without a pick the server plays your current deck.
import { h } from "./ui.js";
import { cardTile } from "./online-cards.js";

/** Every text the picker shows (the page's catalogs take them over). */
const TEXT = {
  heading: "Your five cards",
  open: "Pick…",
  close: "Close",
  decks: "Your decks",
  noDecks: "no deck saved",
  useDeck: "Play this deck",
  collection: "Your collection",
  noCards: "No cards yet: take the starter set in Stash.",
  add: "Add",
  remove: "Remove",
  chosen: (n) => `Chosen: ${n} of 5`,
  use: "Play these five",
  clear: "Clear",
  levels: (total) => `levels total ${total}`,
  current: "your current deck (none picked)",
  deck: (name) => `deck ${name}`,
  cards: (names) => `cards ${names.join(", ")}`,
  copies: (left, count) => `${left} of ${count} left`,
  deckCards: (n) => `${n} cards`,
};

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
    this.summaryLine = h("span", { class: "online-picker-summary" });
    this.panel = h("div", { class: "online-picker-panel", hidden: true });
    this.toggle = h("button", { type: "button", onclick: () => (this.panel.hidden ? this.open() : this.shut()) }, TEXT.open);
    this.element = h("section", { class: "online-picker", "aria-label": TEXT.heading }, h("h3", {}, TEXT.heading), this.summaryLine, " ", this.toggle, this.panel);
    this.drawSummary();
  }

  /** The fields a challenge or an accept carries for the pick (none: the current deck). */
  fields() {
    return this.pick ? { ...this.pick } : {};
  }

  async open() {
    try {
      [this.stash, this.decks] = await Promise.all([this.client.stash(), this.client.decks()]);
    } catch (e) {
      this.say(e.message);
      return;
    }
    this.panel.hidden = false;
    this.toggle.textContent = TEXT.close;
    this.draw();
  }

  shut() {
    this.panel.hidden = true;
    this.toggle.textContent = TEXT.open;
  }

  choose(pick, names) {
    this.pick = pick;
    this.names = names;
    this.drawSummary();
    this.shut();
  }

  drawSummary() {
    const text = !this.pick ? TEXT.current : this.pick.deck ? TEXT.deck(this.pick.deck) : TEXT.cards(this.names);
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
        ` (${TEXT.deckCards(d.cards.length)}) `,
        h("button", { type: "button", disabled: d.cards.length !== FIVE, onclick: () => this.choose({ deck: d.name }, d.cards.map(([, c]) => c.card.name)) }, TEXT.useDeck),
      ),
    );
    const pool = this.stash.map(({ card, count }) => {
      const left = count - taken(card.id);
      const add = h("button", { type: "button", disabled: left === 0 || this.chosen.length === FIVE, onclick: () => this.add(card) }, TEXT.add);
      return cardTile(card, { extra: [" · ", TEXT.copies(left, count), " ", add] });
    });
    const chosen = this.chosen.map((card, i) => cardTile(card, { extra: [" ", h("button", { type: "button", onclick: () => this.remove(i) }, TEXT.remove)] }));
    const total = this.chosen.reduce((sum, c) => sum + c.card.level, 0);
    this.panel.replaceChildren(
      h("h4", {}, TEXT.decks),
      h("ul", { class: "online-picker-decks" }, deckRows.length ? deckRows : h("li", { class: "none" }, TEXT.noDecks)),
      h("h4", {}, TEXT.chosen(this.chosen.length), " · ", TEXT.levels(total)),
      h("div", { class: "online-picker-chosen", dataset: { count: this.chosen.length } }, chosen),
      h(
        "div",
        {},
        h("button", { type: "button", class: "primary", disabled: this.chosen.length !== FIVE, onclick: () => this.choose({ cards: this.chosen.map((c) => c.id) }, this.chosen.map((c) => c.card.name)) }, TEXT.use),
        " ",
        h("button", { type: "button", onclick: () => ((this.chosen = []), this.draw()) }, TEXT.clear),
      ),
      h("h4", {}, TEXT.collection),
      h("div", { class: "online-picker-pool" }, pool.length ? pool : h("p", {}, TEXT.noCards)),
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

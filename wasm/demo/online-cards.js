// The Online tab's card economy (Triple Triad): the player's stash with each card's details,
// decks built from it (and what the server's check says of them), the shop, and the player's
// figures. Every list is the server's answer, asked again each time a panel is shown or changed:
// the page keeps no count of its own, so what it shows is what the server holds.
import { h, describeError, fill } from "./ui.js";
import { cardFace, cardLabel } from "./tripletriad.js";

const ELEMENTS = ["none", "fire", "ice", "thunder", "earth", "poison", "wind", "water", "holy"];
const price = (p) => (p === null ? "--" : String(p));
const cardText = (shop) => `${shop.id} ${shop.card.name}`;

/** A card as a small face (in a player's colour) with its id, name and level beneath. */
export function cardTile(shop, { extra = [], colour = "blue" } = {}) {
  return h(
    "figure",
    { class: "cards-tile", dataset: { card: shop.id } },
    h("div", { class: `ttcard ${colour} small`, role: "img", "aria-label": cardLabel(shop.card) }, cardFace(shop.card)),
    h("figcaption", {}, h("b", {}, shop.id), ` ${shop.card.name} · level ${shop.card.level}`, extra),
  );
}

export class CardsView {
  /** `say(text)` puts a line in the tab's message line. */
  constructor(client, say) {
    this.client = client;
    this.say = say;
    this.stash = h("section", { class: "cards-panel online-stash", "aria-label": "Stash" });
    this.decks = h("section", { class: "cards-panel online-decks", "aria-label": "Decks" });
    this.shop = h("section", { class: "cards-panel online-shop", "aria-label": "Shop" });
    this.stats = h("section", { class: "cards-panel online-stats", "aria-label": "Stats" });
    this.panels = { stash: this.stash, decks: this.decks, shop: this.shop, stats: this.stats };
    this.details = false;
    this.pending = {}; // refreshes under way, by panel
    this.shopListing = null; // the cards of the series and level last asked for
  }

  /** Draws panel `name` from the server's answers (the others are left as they are). */
  refresh(name) {
    return this.busy(name, () => this.draw(name));
  }

  /** Runs a request that changes something, says what it did or why not, then redraws `name`;
   * the panel is busy from the request to the drawing. */
  change(name, promise, done) {
    return this.busy(name, async () => {
      try {
        const result = await promise;
        if (done) this.say(done(result));
      } catch (e) {
        this.say(describeError(e));
      }
      await this.draw(name);
    });
  }

  async draw(name) {
    try {
      await { stash: () => this.drawStash(), decks: () => this.drawDecks(), shop: () => this.drawShop(), stats: () => this.drawStats() }[name]();
    } catch (e) {
      this.say(describeError(e));
    }
  }

  /** `aria-busy` on the panel while `work` runs (what is shown meanwhile is the last drawing). */
  async busy(name, work) {
    const panel = this.panels[name];
    this.pending[name] = (this.pending[name] ?? 0) + 1;
    panel.setAttribute("aria-busy", "true");
    try {
      await work();
    } finally {
      if (--this.pending[name] === 0) panel.removeAttribute("aria-busy");
    }
  }

  async drawStash() {
    const client = this.client;
    const [wallet, stash] = await Promise.all([client.wallet(), client.stash()]);
    const owned = stash.reduce((n, e) => n + e.count, 0);
    const head = h(
      "div",
      { class: "cards-head" },
      h("h3", {}, `Your stash: ${owned} card${owned === 1 ? "" : "s"}, ${stash.length} different`),
      h(
        "label",
        {},
        h("input", {
          type: "checkbox",
          name: "online-details",
          checked: this.details,
          onchange: (e) => {
            this.details = e.target.checked;
            this.refresh("stash");
          },
        }),
        " details",
      ),
    );
    const starter = wallet.starter_taken
      ? null
      : h(
          "p",
          {},
          "New players take a starter set once: 20 random cards of levels 1 to 3. ",
          h(
            "button",
            {
              type: "button",
              class: "primary",
              onclick: () => this.change("stash", client.starter(), (cards) => `You took the starter set: ${cards.length} cards.`),
            },
            "Take the starter set",
          ),
        );
    const body = this.details
      ? h(
          "table",
          { class: "cards-table" },
          h("thead", {}, h("tr", {}, ["Card", "Level", "Top", "Right", "Bottom", "Left", "Element", "Copies", "In decks", "At stake", "Text"].map((t) => h("th", {}, t)))),
          h(
            "tbody",
            {},
            stash.map((e) =>
              h(
                "tr",
                { dataset: { card: e.card.id, count: e.count } },
                h("td", {}, cardText(e.card)),
                h("td", {}, String(e.card.card.level)),
                e.card.card.ranks.map((r) => h("td", {}, r === 10 ? "A" : String(r))),
                h("td", {}, e.card.card.element),
                h("td", {}, String(e.count)),
                h("td", {}, String(e.in_decks)),
                h("td", {}, String(e.at_stake)),
                h("td", { class: "cards-text" }, e.card.text),
              ),
            ),
          ),
        )
      : h(
          "div",
          { class: "cards-grid" },
          stash.map((e) =>
            cardTile(e.card, {
              extra: [
                e.count > 1 ? h("span", { class: "tag count" }, `×${e.count}`) : null,
                e.at_stake ? h("span", { class: "tag" }, "at stake") : e.in_decks ? h("span", { class: "tag" }, `in deck${e.in_decks > 1 ? ` ×${e.in_decks}` : ""}`) : null,
              ],
            }),
          ),
        );
    this.stash.dataset.count = owned;
    fill(this.stash, head, starter, stash.length ? body : h("p", { class: "none" }, "No cards yet."));
  }

  async drawDecks() {
    const client = this.client;
    const [decks, stash] = await Promise.all([client.decks(), client.stash()]);
    const checks = await Promise.all(decks.map((d) => client.checkDeck(d.name).then((r) => r.check)));
    const name = h("input", { name: "online-deck-name", "aria-label": "New deck name", placeholder: "deck name", maxlength: 30 });
    const create = h(
      "form",
      {
        class: "cards-form",
        onsubmit: (e) => {
          e.preventDefault();
          const deck = name.value.trim();
          this.change("decks", client.createDeck(deck), () => `Deck ${deck} created: add five cards from your stash.`);
        },
      },
      h("label", {}, "New deck ", name),
      h("button", { type: "submit" }, "Create"),
    );
    const target = h(
      "select",
      { name: "online-deck-target", "aria-label": "Add to deck" },
      decks.map((d) => h("option", { value: d.name, selected: d.name === this.target }, d.name)),
    );
    target.addEventListener("change", () => {
      this.target = target.value;
      this.refresh("decks");
    });
    if (!decks.some((d) => d.name === this.target)) this.target = decks[0]?.name ?? null;
    const rows = decks.map((d, i) => {
      const check = checks[i];
      const verdict = check.usable
        ? `usable: levels ${check.level_total} of 20`
        : check.usable_limitless && d.cards.length === 5
          ? `levels ${check.level_total}: only with the Limitless rule`
          : `unusable: ${check.problem}`;
      return h(
        "li",
        { class: "cards-deck", dataset: { deck: d.name, usable: String(check.usable), cards: d.cards.length } },
        h(
          "div",
          { class: "cards-head" },
          h("h3", {}, d.name, d.current ? h("span", { class: "tag" }, "current") : null),
          h("span", { class: `cards-check ${check.usable ? "ok" : "bad"}`, role: "status" }, `${d.cards.length}/5 cards, ${verdict}`),
          h("button", { type: "button", onclick: () => this.change("decks", client.deleteDeck(d.name), () => `Deck ${d.name} deleted.`) }, "Delete"),
        ),
        // The check's problem names the lost cards already when that is why.
        d.note && !check.problem?.includes(d.note) ? h("p", { class: "cards-note" }, d.note) : null,
        h(
          "div",
          { class: "cards-grid" },
          d.cards.map(([, shop]) =>
            cardTile(shop, {
              extra: [
                " ",
                h(
                  "button",
                  { type: "button", "aria-label": `Remove ${shop.card.name} from ${d.name}`, onclick: () => this.change("decks", client.removeFromDeck(d.name, [shop.id])) },
                  "Remove",
                ),
              ],
            }),
          ),
        ),
      );
    });
    // A deck is a list: a card in other decks may go into this one too, as many copies as the
    // stash holds.
    const inTarget = (id) => (decks.find((d) => d.name === this.target)?.cards ?? []).filter(([, c]) => c.id === id).length;
    const free = stash.map((e) => ({ ...e, free: e.count - inTarget(e.card.id) })).filter((e) => e.free > 0);
    const pool = decks.length
      ? h(
          "div",
          { class: "cards-pool" },
          h("div", { class: "cards-head" }, h("h3", {}, "Your cards not in this deck (a card may be in several decks)"), h("label", {}, "Add to ", target)),
          h(
            "div",
            { class: "cards-grid" },
            free.map((e) =>
              cardTile(e.card, {
                extra: [
                  e.free > 1 ? h("span", { class: "tag count" }, `×${e.free}`) : null,
                  " ",
                  h(
                    "button",
                    {
                      type: "button",
                      "aria-label": `Add ${e.card.card.name}`,
                      onclick: () => this.change("decks", client.addToDeck(target.value, [e.card.id])),
                    },
                    "Add",
                  ),
                ],
              }),
            ),
          ),
        )
      : null;
    fill(
      this.decks,
      h("p", { class: "hint" }, "A deck is a list of five cards of your stash, their levels at most 20 in all (unless the match is Limitless); a card may be in several decks. A card lost in a match leaves every deck it was in."),
      create,
      h("ul", { class: "cards-decks" }, rows.length ? rows : h("li", { class: "none" }, "No decks yet.")),
      pool,
    );
  }

  async drawShop() {
    const client = this.client;
    const [series, wallet] = await Promise.all([client.shop(), client.wallet()]);
    const table = h(
      "table",
      { class: "cards-table cards-series" },
      h("thead", {}, h("tr", {}, ["Series", "", "Random (a level)", "By name (a level)", "Cards", "You own"].map((t) => h("th", {}, t)))),
      h(
        "tbody",
        {},
        series.map(({ series: s, cards, owned }) =>
          h(
            "tr",
            { dataset: { series: s.code } },
            h("td", {}, s.code),
            h("td", {}, s.name),
            h("td", {}, price(s.random_price)),
            h("td", {}, price(s.card_price)),
            h("td", {}, String(cards)),
            h("td", {}, String(owned)),
          ),
        ),
      ),
    );
    const pick = h("select", { name: "online-shop-series", "aria-label": "Series" }, series.map(({ series: s }) => h("option", { value: s.code, selected: s.code === this.shopSeries }, `${s.code} ${s.name}`)));
    const level = h("input", { name: "online-shop-level", type: "number", min: 1, max: 10, value: this.shopLevel ?? 1, "aria-label": "Level" });
    const remember = () => {
      this.shopSeries = pick.value;
      this.shopLevel = Number(level.value);
    };
    const buy = h(
      "form",
      {
        class: "cards-form",
        onsubmit: (e) => {
          e.preventDefault();
          remember();
          this.change("shop", client.buyRandom(pick.value, Number(level.value)), ({ card, price: p }) => `You bought ${cardText(card)} for ${p} points.`);
        },
      },
      h("label", {}, "Series ", pick),
      h("label", {}, "Level ", level),
      h("button", { type: "submit", class: "primary" }, "Buy a random card"),
      h(
        "button",
        {
          type: "button",
          onclick: async () => {
            remember();
            try {
              this.shopListing = { series: pick.value, level: Number(level.value), cards: await client.shopCards(pick.value, Number(level.value)) };
            } catch (e) {
              this.say(describeError(e));
            }
            this.refresh("shop");
          },
        },
        "List the cards",
      ),
    );
    const listed = this.shopListing;
    const perLevel = listed && series.find((s) => s.series.code === listed.series)?.series.card_price;
    const listing = listed
      ? h(
          "div",
          { class: "cards-grid cards-listing" },
          listed.cards.map(({ card, owned }) =>
            cardTile(card, {
              extra: [
                owned ? h("span", { class: "tag" }, `you own ${owned}`) : null,
                " ",
                perLevel
                  ? h(
                      "button",
                      {
                        type: "button",
                        "aria-label": `Buy ${card.card.name}`,
                        onclick: () => {
                          this.shopListing = null;
                          this.change("shop", client.buyCard(card.id), ({ price: p }) => `You bought ${cardText(card)} for ${p} points.`);
                        },
                      },
                      `Buy (${perLevel * card.card.level})`,
                    )
                  : null,
              ],
            }),
          ),
        )
      : null;
    fill(
      this.shop,
      h("p", { class: "cards-points" }, `You have ${wallet.points} points. Prices are points per level of the card; -- : not sold that way.`),
      table,
      buy,
      listing,
      this.customForm(),
    );
  }

  /** A custom card: a name, a level, ranks in that level's range (the server suggests some). */
  customForm() {
    const client = this.client;
    const name = h("input", { name: "online-custom-name", "aria-label": "Card name", maxlength: 24, placeholder: "name" });
    const level = h("input", { name: "online-custom-level", type: "number", min: 1, max: 10, value: 5, "aria-label": "Card level" });
    const sides = ["Top", "Right", "Bottom", "Left"].map((side) => h("input", { name: `online-custom-${side.toLowerCase()}`, type: "number", min: 1, max: 10, value: 5, "aria-label": side, class: "rank" }));
    const element = h("select", { name: "online-custom-element", "aria-label": "Element" }, ELEMENTS.map((e) => h("option", { value: e }, e)));
    const text = h("input", { name: "online-custom-text", "aria-label": "Text", placeholder: "flavour text" });
    const ideas = h("div", { class: "cards-ideas" });
    const suggest = async () => {
      try {
        const sets = await client.suggest(Number(level.value));
        ideas.replaceChildren(
          "Ranks in range: ",
          ...sets.map((ranks) =>
            h(
              "button",
              {
                type: "button",
                onclick: () => ranks.forEach((r, i) => (sides[i].value = r)),
              },
              ranks.join(" "),
            ),
          ),
        );
      } catch (e) {
        this.say(describeError(e));
      }
    };
    return h(
      "form",
      {
        class: "cards-form cards-custom",
        onsubmit: (e) => {
          e.preventDefault();
          const spec = { name: name.value.trim(), level: Number(level.value), ranks: sides.map((s) => Number(s.value)), element: element.value, text: text.value };
          this.change("shop", client.createCustom(spec), ({ card, price: p }) => `You created ${cardText(card)} for ${p} points: it is in your stash.`);
        },
      },
      h("h3", {}, "A card of your own (half the custom series' price)"),
      h("label", {}, "Name ", name),
      h("label", {}, "Level ", level),
      h("button", { type: "button", onclick: suggest }, "Suggest ranks"),
      h("span", { class: "cards-ranks" }, sides),
      h("label", {}, "Element ", element),
      h("label", {}, "Text ", text),
      h("button", { type: "submit" }, "Create"),
      ideas,
    );
  }

  async drawStats() {
    const client = this.client;
    const [wallet, stats] = await Promise.all([client.wallet(), client.stats()]);
    const figure = (label, value, key) => h("div", { class: "cards-figure", dataset: { figure: key } }, h("b", {}, String(value)), ` ${label}`);
    const games = Object.entries(stats.games);
    this.stats.replaceChildren(
      h(
        "div",
        { class: "cards-figures" },
        figure("points", wallet.points, "points"),
        figure("experience", wallet.experience, "experience"),
        figure("gils", wallet.gils, "gils"),
        figure("cards", wallet.cards, "cards"),
      ),
      h(
        "table",
        { class: "cards-table" },
        h("thead", {}, h("tr", {}, ["Game", "Played", "Won", "Lost", "Drawn", "Did not finish"].map((t) => h("th", {}, t)))),
        h(
          "tbody",
          {},
          games.length
            ? games.map(([game, s]) => h("tr", { dataset: { game } }, h("td", {}, game), [s.played, s.won, s.lost, s.drawn, s.dnf].map((n) => h("td", {}, String(n)))))
            : h("tr", {}, h("td", { colspan: 6, class: "none" }, "No games yet.")),
        ),
      ),
      h("p", { class: "hint" }, "Every match earns 5 points, a win 5 more; points buy cards in the shop."),
    );
  }
}

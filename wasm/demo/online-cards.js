// The Online tab's card economy (Triple Triad): the player's stash with each card's details,
// decks built from it (and what the server's check says of them), the shop, and the player's
// figures. Every list is the server's answer, asked again each time a panel is shown or changed:
// the page keeps no count of its own, so what it shows is what the server holds.
import { h, describeError, fill } from "./ui.js";
import { cardFace, cardLabel } from "./tripletriad.js";
import { has, t } from "./i18n.js";

const ELEMENTS = ["none", "fire", "ice", "thunder", "earth", "poison", "wind", "water", "holy"];
const price = (p) => (p === null ? "--" : String(p));
const cardText = (shop) => `${shop.id} ${shop.card.name}`;

/** A card as a small face (in a player's colour) with its id, name and level beneath. */
export function cardTile(shop, { extra = [], colour = "blue" } = {}) {
  return h(
    "figure",
    { class: "cards-tile", dataset: { card: shop.id } },
    h("div", { class: `ttcard ${colour} small`, role: "img", "aria-label": cardLabel(shop.card) }, cardFace(shop.card)),
    h("figcaption", {}, h("b", {}, shop.id), ` ${shop.card.name} · ${t("cards.level", { level: shop.card.level })}`, extra),
  );
}

export class CardsView {
  /** `say(text)` puts a line in the tab's message line. */
  constructor(client, say) {
    this.client = client;
    this.say = say;
    this.stash = h("section", { class: "cards-panel online-stash" });
    this.decks = h("section", { class: "cards-panel online-decks" });
    this.shop = h("section", { class: "cards-panel online-shop" });
    this.stats = h("section", { class: "cards-panel online-stats" });
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
    // Labelled at each drawing, in the page's language of the moment.
    this.panels[name].setAttribute("aria-label", t(`panel.${name}`));
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
      h("h3", {}, t("stash.head", { count: owned, different: stash.length })),
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
        ` ${t("stash.details")}`,
      ),
    );
    const starter = wallet.starter_taken
      ? null
      : h(
          "p",
          {},
          `${t("stash.starter_offer")} `,
          h(
            "button",
            {
              type: "button",
              class: "primary",
              onclick: () => this.change("stash", client.starter(), (cards) => t("stash.starter_taken", { count: cards.length })),
            },
            t("stash.take_starter"),
          ),
        );
    const body = this.details
      ? h(
          "table",
          { class: "cards-table" },
          h("thead", {}, h("tr", {}, ["card", "level", "top", "right", "bottom", "left", "element", "copies", "in_decks", "at_stake", "text"].map((c) => h("th", {}, t(`stash.column.${c}`))))),
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
                h("td", {}, t(`element.${e.card.card.element}`)),
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
                e.at_stake ? h("span", { class: "tag" }, t("stash.at_stake")) : e.in_decks ? h("span", { class: "tag" }, t("stash.in_decks", { count: e.in_decks })) : null,
              ],
            }),
          ),
        );
    this.stash.dataset.count = owned;
    fill(this.stash, head, starter, stash.length ? body : h("p", { class: "none" }, t("stash.none")));
  }

  async drawDecks() {
    const client = this.client;
    const [decks, stash] = await Promise.all([client.decks(), client.stash()]);
    const checks = await Promise.all(decks.map((d) => client.checkDeck(d.name).then((r) => r.check)));
    const name = h("input", { name: "online-deck-name", "aria-label": t("decks.new_name"), placeholder: t("decks.name_placeholder"), maxlength: 30 });
    const create = h(
      "form",
      {
        class: "cards-form",
        onsubmit: (e) => {
          e.preventDefault();
          const deck = name.value.trim();
          this.change("decks", client.createDeck(deck), () => t("decks.created", { deck }));
        },
      },
      h("label", {}, `${t("decks.new")} `, name),
      h("button", { type: "submit" }, t("decks.create")),
    );
    const target = h(
      "select",
      { name: "online-deck-target", "aria-label": t("decks.add_to_deck") },
      decks.map((d) => h("option", { value: d.name, selected: d.name === this.target }, d.name)),
    );
    target.addEventListener("change", () => {
      this.target = target.value;
      this.refresh("decks");
    });
    if (!decks.some((d) => d.name === this.target)) this.target = decks[0]?.name ?? null;
    const rows = decks.map((d, i) => {
      const check = checks[i];
      // Worded from the check's reason; the server's English words only for a reason this page
      // does not know.
      const verdict = check.usable
        ? t("decks.usable", { total: check.level_total })
        : check.reason === "level_total" && check.usable_limitless
          ? t("decks.limitless_only", { total: check.level_total })
          : has(`decks.unusable.${check.reason}`)
            ? t(`decks.unusable.${check.reason}`, { card: check.card, total: check.level_total })
            : t("decks.unusable", { problem: check.problem });
      return h(
        "li",
        { class: "cards-deck", dataset: { deck: d.name, usable: String(check.usable), cards: d.cards.length } },
        h(
          "div",
          { class: "cards-head" },
          h("h3", {}, d.name, d.current ? h("span", { class: "tag" }, t("decks.current")) : null),
          h("span", { class: `cards-check ${check.usable ? "ok" : "bad"}`, role: "status" }, t("decks.check", { count: d.cards.length, verdict })),
          h("button", { type: "button", onclick: () => this.change("decks", client.deleteDeck(d.name), () => t("decks.deleted", { deck: d.name })) }, t("decks.delete")),
        ),
        // The check's problem names the lost cards already when it is shown.
        d.note && !(check.problem && verdict.includes(check.problem)) ? h("p", { class: "cards-note" }, d.note) : null,
        h(
          "div",
          { class: "cards-grid" },
          d.cards.map(([, shop]) =>
            cardTile(shop, {
              extra: [
                " ",
                h(
                  "button",
                  { type: "button", "aria-label": t("decks.remove_card", { card: shop.card.name, deck: d.name }), onclick: () => this.change("decks", client.removeFromDeck(d.name, [shop.id])) },
                  t("decks.remove"),
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
          h("div", { class: "cards-head" }, h("h3", {}, t("decks.free_cards")), h("label", {}, `${t("decks.add_to")} `, target)),
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
                      "aria-label": t("decks.add_card", { card: e.card.card.name }),
                      onclick: () => this.change("decks", client.addToDeck(target.value, [e.card.id])),
                    },
                    t("decks.add"),
                  ),
                ],
              }),
            ),
          ),
        )
      : null;
    fill(
      this.decks,
      h("p", { class: "hint" }, t("decks.hint")),
      create,
      h("ul", { class: "cards-decks" }, rows.length ? rows : h("li", { class: "none" }, t("decks.none"))),
      pool,
    );
  }

  async drawShop() {
    const client = this.client;
    const [series, wallet] = await Promise.all([client.shop(), client.wallet()]);
    const table = h(
      "table",
      { class: "cards-table cards-series" },
      h("thead", {}, h("tr", {}, ["series", "name", "random", "by_name", "cards", "owned"].map((c) => h("th", {}, t(`shop.column.${c}`))))),
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
    const pick = h("select", { name: "online-shop-series", "aria-label": t("shop.series") }, series.map(({ series: s }) => h("option", { value: s.code, selected: s.code === this.shopSeries }, `${s.code} ${s.name}`)));
    const level = h("input", { name: "online-shop-level", type: "number", min: 1, max: 10, value: this.shopLevel ?? 1, "aria-label": t("shop.level") });
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
          this.change("shop", client.buyRandom(pick.value, Number(level.value)), ({ card, price: p }) => t("shop.bought", { card: cardText(card), count: p }));
        },
      },
      h("label", {}, `${t("shop.series")} `, pick),
      h("label", {}, `${t("shop.level")} `, level),
      h("button", { type: "submit", class: "primary" }, t("shop.buy_random")),
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
        t("shop.list"),
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
                owned ? h("span", { class: "tag" }, t("shop.you_own", { count: owned })) : null,
                " ",
                perLevel
                  ? h(
                      "button",
                      {
                        type: "button",
                        "aria-label": t("shop.buy_card", { card: card.card.name }),
                        onclick: () => {
                          this.shopListing = null;
                          this.change("shop", client.buyCard(card.id), ({ price: p }) => t("shop.bought", { card: cardText(card), count: p }));
                        },
                      },
                      t("shop.buy", { price: perLevel * card.card.level }),
                    )
                  : null,
              ],
            }),
          ),
        )
      : null;
    fill(
      this.shop,
      h("p", { class: "cards-points" }, t("shop.points", { count: wallet.points })),
      table,
      buy,
      listing,
      this.customForm(),
    );
  }

  /** A custom card: a name, a level, ranks in that level's range (the server suggests some). */
  customForm() {
    const client = this.client;
    const name = h("input", { name: "online-custom-name", "aria-label": t("custom.card_name"), maxlength: 24, placeholder: t("custom.name_placeholder") });
    const level = h("input", { name: "online-custom-level", type: "number", min: 1, max: 10, value: 5, "aria-label": t("custom.card_level") });
    const sides = ["top", "right", "bottom", "left"].map((side) => h("input", { name: `online-custom-${side}`, type: "number", min: 1, max: 10, value: 5, "aria-label": t(`side.${side}`), class: "rank" }));
    const element = h("select", { name: "online-custom-element", "aria-label": t("custom.element") }, ELEMENTS.map((e) => h("option", { value: e }, t(`element.${e}`))));
    const text = h("input", { name: "online-custom-text", "aria-label": t("custom.text"), placeholder: t("custom.text_placeholder") });
    const ideas = h("div", { class: "cards-ideas" });
    const suggest = async () => {
      try {
        const sets = await client.suggest(Number(level.value));
        ideas.replaceChildren(
          `${t("custom.ranks_in_range")} `,
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
          this.change("shop", client.createCustom(spec), ({ card, price: p }) => t("custom.created", { card: cardText(card), count: p }));
        },
      },
      h("h3", {}, t("custom.head")),
      h("label", {}, `${t("custom.name")} `, name),
      h("label", {}, `${t("shop.level")} `, level),
      h("button", { type: "button", onclick: suggest }, t("custom.suggest")),
      h("span", { class: "cards-ranks" }, sides),
      h("label", {}, `${t("custom.element")} `, element),
      h("label", {}, `${t("custom.text")} `, text),
      h("button", { type: "submit" }, t("decks.create")),
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
        figure(t("stats.points"), wallet.points, "points"),
        figure(t("stats.experience"), wallet.experience, "experience"),
        figure(t("stats.gils"), wallet.gils, "gils"),
        figure(t("stats.cards"), wallet.cards, "cards"),
      ),
      h(
        "table",
        { class: "cards-table" },
        h("thead", {}, h("tr", {}, ["game", "played", "won", "lost", "drawn", "dnf"].map((c) => h("th", {}, t(`stats.column.${c}`))))),
        h(
          "tbody",
          {},
          games.length
            ? games.map(([game, s]) => h("tr", { dataset: { game } }, h("td", {}, t(`game.${game}`)), [s.played, s.won, s.lost, s.drawn, s.dnf].map((n) => h("td", {}, String(n)))))
            : h("tr", {}, h("td", { colspan: 6, class: "none" }, t("stats.none"))),
        ),
      ),
      h("p", { class: "hint" }, t("stats.hint")),
    );
  }
}

// Nantong long cards: you (seat 0) against two computer seats, one deal at a time. The page
// shows what seat 0's observation shows (its own hand, the table, claims put to it), offers its
// legal actions and, at the end of the deal, the engine's itemised score.
import { Nantong } from "arbiter-engine/web";
import { GameView, h, helpLine, hintButton, labelled, messageLine, pause, randomSeed, howToPlay, toolbar, words } from "./ui.js";
import { has, onLanguage, t } from "./i18n.js";

const YOU = 0;
/** A seat's name: "You", "Seat 1", "Seat 2". */
const seatName = (seat) => t(`demo.nt.seat.${seat}`);
const seatNames = () => [0, 1, 2].map(seatName);
const GENERALS = new Set(["T", "W", "R"]);
/** A word the core sends as a code (an action's verb, a meld's type, a score's bonus or
 * doubling) in the page's words: `key`'s, or the code itself while the page does not know it. */
const coded = (key, code) => (has(key) ? t(key) : code);
/** The catalog's spelling of a score's name (`"dealer's first discard"`: `dealer_s_first_discard`). */
const slug = (name) => name.replace(/[^a-z0-9]+/g, "_");
const actionName = (verb) => coded(`demo.nt.action.${verb}`, verb);
const meldName = (type) => coded(`demo.nt.meld.${type}`, type);
const scoreName = (name) => coded(`demo.nt.score.${slug(name)}`, name);

export const cardName = (code) => (GENERALS.has(code) ? t(`demo.nt.general.${code}`) : t("demo.nt.card", { rank: code[0], suit: t(`demo.nt.suit.${code[1]}`) }));
const suitOf = (code) => (GENERALS.has(code) ? "g" : code[1]);

/** The suit's mark, drawn (the machine may have no font for the Chinese characters). */
function suitGlyph(code) {
  const suit = suitOf(code);
  const shapes = {
    c: [h("svg:circle", { cx: 10, cy: 10, r: 8, fill: "#2864b4" }), h("svg:rect", { x: 7, y: 7, width: 6, height: 6, fill: "#fbf4df" })],
    s: [h("svg:path", { d: "M10 1v18", stroke: "#1f7a3a", "stroke-width": 2 }), [4, 10, 16].map((y) => h("svg:ellipse", { cx: 10, cy: y, rx: 6, ry: 2.6, fill: "#1f7a3a" }))],
    m: [h("svg:rect", { x: 2, y: 2, width: 16, height: 16, rx: 2, fill: "#b3202a" }), h("svg:path", { d: "M5 14V6l5 5 5-5v8", stroke: "#fbf4df", "stroke-width": 2, fill: "none" })],
    g: {
      T: [h("svg:circle", { cx: 10, cy: 10, r: 8.5, fill: "#c8961e" }), h("svg:path", { d: "M5 7h10M10 7v9", stroke: "#fbf4df", "stroke-width": 2.4 })],
      W: [0, 72, 144, 216, 288].map((a) => h("svg:ellipse", { cx: 10, cy: 5, rx: 3, ry: 4.5, fill: "#fff", stroke: "#555", transform: `rotate(${a} 10 10)` })),
      R: [0, 72, 144, 216, 288].map((a) => h("svg:ellipse", { cx: 10, cy: 5, rx: 3, ry: 4.5, fill: "#d4242c", stroke: "#6b0d12", transform: `rotate(${a} 10 10)` })),
    }[code],
  };
  return h("svg:svg", { viewBox: "0 0 20 20", class: "glyph", "aria-hidden": "true" }, shapes[suit]);
}

/** A long card: the rank (or the general's initial) at both ends, the suit's mark between. */
export function longCard(code, { tag = "span", cls = "", ...attrs } = {}) {
  const top = GENERALS.has(code) ? code : code[0];
  return h(
    tag,
    { class: `lc suit-${suitOf(code)} ${cls}`, "aria-label": cardName(code), role: tag === "span" ? "img" : null, ...attrs },
    h("b", { class: "lc-rank" }, top),
    suitGlyph(code),
    h("small", { class: "lc-suit" }, t(`demo.nt.short.${GENERALS.has(code) ? code : code[1]}`)),
  );
}

/** What the decision put to the person means, from its observation (`who`: the seats' names). */
export function decisionHelp(obs, who) {
  const can = (verb) => obs.actions.some((a) => a.split(" ")[0] === verb);
  if (!obs.actions.length) return "";
  if (can("finish")) return t("demo.nt.help.preparation");
  if (obs.claim) {
    const from = obs.discards.at(-1);
    const robbing = !can("pong") && !can("kong") && from?.[1] !== obs.claim;
    const said = robbing
      ? t("demo.nt.help.robbing", { seat: who[obs.last_event?.seat] ?? t("demo.nt.a_seat"), card: cardName(obs.claim) })
      : t("demo.nt.help.claim", { seat: who[from?.[0]] ?? t("demo.nt.a_seat"), card: cardName(obs.claim) });
    return [said, ...["win", "pong", "kong"].filter(can).map((verb) => t(`demo.nt.claim.${verb}`)), t("demo.nt.help.claim_pass")].join(" ");
  }
  return [t("demo.nt.help.turn"), can("win") && t("demo.nt.help.turn_win"), (can("concealed_kong") || can("add_kong")) && t("demo.nt.help.turn_kong")].filter(Boolean).join(" ");
}

/** Every seat's hand face up once a deal is over, as the table sees them then. */
export function handsAtEnd(hands, names, win) {
  return h(
    "div",
    { class: "nt-hands-end", role: "group", "aria-label": t("demo.nt.end_hands") },
    h("h3", {}, t("demo.nt.end_hands")),
    hands.map((hand, seat) =>
      h(
        "section",
        { class: `nt-shown${win?.seat === seat ? " winner" : ""}`, "aria-label": t("demo.nt.hand_of", { seat: names[seat] }), dataset: { seat } },
        h("h4", {}, names[seat]),
        h("div", { class: "cards" }, hand.map((c) => longCard(c, { cls: "small" }))),
      ),
    ),
  );
}

/** Cards of `now` that were not in `before` (the card just drawn, a claimed one…). */
function added(before, now) {
  const left = [...before];
  return now.map((c) => {
    const i = left.indexOf(c);
    if (i >= 0) left.splice(i, 1);
    return i < 0;
  });
}

class NantongView extends GameView {
  constructor(section) {
    super();
    this.section = section;
    const hint = hintButton(() => this.deal.actor === YOU && !this.deal.isOver && this.hint(this.deal, Nantong.levels, describe));
    this.tools = toolbar({ game: "nt", levels: Nantong.levels, level: Nantong.levels.at(-1), extra: [hint], start: (seed) => this.start(seed) });
    this.message = messageLine();
    this.help = helpLine();
    this.table = h("div", { class: "nt-table" });
    this.claim = h("div", { class: "claim", role: "alert" });
    this.hand = h("div", { class: "nt-hand", ...labelled("board.your_hand") });
    this.actions = h("div", { class: "actions", role: "group", ...labelled("board.your_actions") });
    this.end = h("div", { class: "nt-end" });
    section.append(this.tools.bar, howToPlay("nantong"), this.table, this.message, this.help, this.claim, this.hand, this.actions, this.end);
    this.deal = null;
    // Everything on the table is drawn from the deal: drawn again in the new words.
    onLanguage(() => {
      if (!this.deal) return;
      this.render();
      if (this.deal.isOver) this.finish();
    });
    this.start(randomSeed());
  }

  start(seed) {
    this.deal?.free();
    this.restart(seed);
    this.dealNumber = 1;
    this.begin(new Nantong(seed));
  }

  begin(deal) {
    this.deal = deal;
    this.previousHand = [];
    this.end.replaceChildren();
    this.run();
  }

  nextDeal() {
    const next = this.deal.nextDeal();
    this.deal.free();
    this.dealNumber++;
    this.generation++;
    this.begin(next);
  }

  render() {
    const obs = this.deal.observation(YOU);
    const over = this.deal.isOver;
    const seats = seatNames();
    const seatPanel = (seat) => {
      const discards = obs.discards.filter(([s]) => s === seat).map(([, c]) => c);
      const lastDiscard = obs.discards.at(-1);
      return h(
        "section",
        { class: `seat seat-${seat}${obs.to_act === seat ? " acting" : ""}`, "aria-label": seats[seat] },
        h(
          "h2",
          {},
          seats[seat],
          seat !== YOU ? h("span", { class: "tag" }, t("demo.nt.computer")) : null,
          obs.dealer === seat ? h("span", { class: "tag dealer" }, t("nantong.dealer")) : null,
          obs.ready[seat] ? h("span", { class: "tag ready" }, t("demo.nt.ready")) : null,
          h("span", { class: "count" }, t("nantong.in_hand", { count: obs.hand_sizes[seat] })),
        ),
        seat === YOU
          ? null
          : over
            ? h("div", { class: "backs shown", "aria-label": t("demo.nt.hand_of", { seat: seats[seat] }) }, this.deal.observation(seat).hand.map((c) => longCard(c, { cls: "tiny" })))
            : h("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: obs.hand_sizes[seat] }, () => h("span", { class: "back" }))),
        h(
          "div",
          { class: "melds", "aria-label": t("nantong.melds") },
          obs.melds[seat].length ? obs.melds[seat].map((m) => h("span", { class: "meld", title: meldName(m.type) }, meldCards(m).map((c) => longCard(c, { cls: "small" })), h("small", {}, meldName(m.type)))) : h("span", { class: "none" }, t("demo.nt.no_melds")),
        ),
        h(
          "div",
          { class: "discards", "aria-label": t("demo.nt.discards_of", { seat: seats[seat] }) },
          discards.map((c, i) => longCard(c, { cls: `small${lastDiscard && lastDiscard[0] === seat && i === discards.length - 1 ? " latest" : ""}` })),
        ),
      );
    };
    this.table.replaceChildren(
      seatPanel(2),
      h(
        "div",
        { class: "centre-info" },
        h("div", { class: "indicators", "aria-label": t("demo.nt.indicators") }, h("span", { class: "label" }, t("demo.nt.indicators")), obs.indicators.map((c) => longCard(c))),
        h("p", { class: "stock" }, h("strong", {}, obs.stock), " ", t("demo.nt.stock", { count: obs.stock })),
        h("p", { class: "deal-no" }, t("demo.nt.deal_seed", { deal: this.dealNumber, seed: this.seed })),
      ),
      seatPanel(1),
      seatPanel(YOU),
    );

    // The hand, by suit; a card is a button when it may be discarded now.
    const legal = new Set(obs.actions);
    const fresh = added(this.previousHand, obs.hand);
    this.previousHand = obs.hand;
    const groups = new Map();
    obs.hand.forEach((c, i) => groups.set(suitOf(c), [...(groups.get(suitOf(c)) ?? []), [c, i]]));
    this.hand.replaceChildren(
      h("h2", {}, t("board.your_hand")),
      ...["m", "s", "c", "g"].filter((s) => groups.has(s)).map((s) =>
        h(
          "div",
          { class: "suit-group", "aria-label": t(s === "g" ? "demo.nt.old_generals" : `demo.nt.suit.${s}`) },
          groups.get(s).map(([c, i]) => {
            const discard = !this.busy && legal.has(`discard ${c}`);
            return longCard(c, {
              tag: "button",
              type: "button",
              cls: `${discard ? "playable" : ""}${fresh[i] && this.previousShown ? " fresh" : ""}`,
              disabled: !discard,
              "aria-label": discard ? t("demo.nt.discard_card", { card: cardName(c) }) : cardName(c),
              dataset: { card: c },
              onclick: () => this.act(`discard ${c}`),
            });
          }),
        ),
      ),
    );
    this.previousShown = true;

    const others = obs.actions.filter((a) => !a.startsWith("discard "));
    this.actions.replaceChildren(
      ...(this.busy
        ? []
        : others.map((a) => {
            const [verb, card] = a.split(" ");
            return h("button", { type: "button", class: verb === "win" ? "primary" : "", dataset: { action: a }, onclick: () => this.act(a) }, actionName(verb), card ? ` ${cardName(card)}` : "");
          })),
    );
    const discarder = obs.discards.at(-1)?.[0];
    this.claim.replaceChildren(
      ...(obs.claim && !this.busy
        ? [longCard(obs.claim), h("span", {}, t(discarder === undefined ? "demo.nt.offers" : "demo.nt.discarded", { seat: seats[discarder] ?? t("demo.nt.a_seat"), card: cardName(obs.claim) }))]
        : []),
    );
    this.claim.hidden = !this.claim.childElementCount;
    this.explain(over || this.busy ? null : () => decisionHelp(obs, seatNames()));
    if (!over && !this.busy && obs.actions.length) {
      const discarding = obs.actions.some((a) => a.startsWith("discard "));
      words(this.message, () => t(obs.claim ? "demo.nt.claim_yours" : discarding ? "demo.nt.your_turn_discard" : "demo.nt.your_turn"));
    }
  }

  async act(action) {
    if (this.busy || this.deal.actor !== YOU) return;
    this.deal.act(YOU, action);
    words(this.message, () => t("demo.nt.did", { seat: seatName(YOU), action: describe(action) }));
    this.advance();
  }

  /** The computer seats act until seat 0 must; only what the table would see is announced. */
  async advance() {
    const generation = this.generation;
    this.busy = true;
    // The person's controls go while the computer seats think on the worker (the table shows
    // what the person just did, nothing of the seats yet).
    this.render();
    let n = 0;
    for (;;) {
      // Every seat answers every discard; on this one screen, questions whose only answer is
      // pass are passed at once for every seat (yours too): the computers read observations only.
      this.deal.passForced();
      if (this.deal.isOver || this.deal.actor === YOU) break;
      const seat = this.deal.actor;
      const ply = this.deal.toJSON().actions.length;
      const action = await this.think(this.deal, this.tools.level, this.seed * 1000 + this.dealNumber * 500 + ply);
      if (generation !== this.generation) return;
      this.deal.act(seat, action);
      // A pass (or a silent finish) would tell that a claim was possible: the table never hears it.
      if (!["pass", "finish"].includes(action)) {
        words(this.message, () => t("demo.nt.did", { seat: seatName(seat), action: describe(action) }));
        this.render();
        await pause(n++ ? 380 : 250);
        if (generation !== this.generation) return;
      }
    }
    this.busy = false;
    this.render();
    if (this.deal.isOver) this.finish();
  }

  finish() {
    const win = this.deal.win();
    const score = this.deal.score();
    this.section.dataset.state = "over";
    const seats = seatNames();
    const yours = win?.seat === YOU;
    const headline = !win
      ? t("demo.nt.exhausted")
      : win.heavenly
        ? t(yours ? "demo.nt.win.you_heavenly" : "demo.nt.win.seat_heavenly", { seat: seats[win.seat] })
        : t(yours ? "demo.nt.win.you" : "demo.nt.win.seat", { seat: seats[win.seat], card: cardName(win.card), source: t(`demo.nt.source.${win.source}`) });
    this.message.textContent = headline;
    this.end.replaceChildren(
      h("h2", {}, t("demo.nt.deal_score", { deal: this.dealNumber })),
      h("p", { class: "final", "data-winner": win ? String(win.seat) : "none" }, headline),
      handsAtEnd([0, 1, 2].map((seat) => this.deal.observation(seat).hand), seats, win),
      h(
        "div",
        { class: "score-cards" },
        score.players.map((p, seat) =>
          h(
            "section",
            { class: `score-card${win?.seat === seat ? " winner" : ""}`, "aria-label": t("demo.nt.score_of", { seat: seats[seat] }) },
            h("h3", {}, seats[seat]),
            h(
              "table",
              {},
              h("tbody", {},
                p.groups.map((g) =>
                  h("tr", {}, h("td", {}, longCard(g.card, { cls: "tiny" }), ` ${meldName(g.source)}`), h("td", {}, `${g.base}${g.doublings.map(() => " ×2").join("")}`, g.doublings.length ? h("small", {}, ` (${g.doublings.map(scoreName).join(", ")})`) : null), h("td", { class: "num" }, g.value)),
                ),
                h("tr", { class: "sub" }, h("td", { colspan: 2 }, t("demo.nt.base_hu")), h("td", { class: "num" }, p.base)),
                p.bonuses.map((b) => h("tr", {}, h("td", { colspan: 2 }, `+ ${scoreName(b.name)}`), h("td", { class: "num" }, `+${b.value}`))),
                p.multipliers.map((m) => h("tr", {}, h("td", { colspan: 2 }, `× 2 ${scoreName(m)}`), h("td", { class: "num" }, "×2"))),
                p.raw !== p.base ? h("tr", {}, h("td", { colspan: 2 }, t("demo.nt.raw")), h("td", { class: "num" }, p.raw)) : null,
                h("tr", { class: "total" }, h("td", { colspan: 2 }, t("demo.nt.total")), h("td", { class: "num", "data-total": p.total }, p.total)),
                h("tr", { class: `settle ${score.settlement[seat] >= 0 ? "plus" : "minus"}` }, h("td", { colspan: 2 }, t("demo.nt.settlement")), h("td", { class: "num", "data-settlement": score.settlement[seat] }, `${score.settlement[seat] > 0 ? "+" : ""}${score.settlement[seat]}`)),
              ),
            ),
          ),
        ),
      ),
      h("div", { class: "end-buttons" }, h("button", { type: "button", class: "primary", onclick: () => this.nextDeal() }, t("demo.nt.next_deal")), h("button", { type: "button", onclick: () => this.start(randomSeed()) }, t("demo.new_game"))),
      h("details", { class: "record" }, h("summary", {}, t("demo.nt.record")), h("pre", {}, JSON.stringify(this.deal.toJSON()))),
    );
  }
}

export function meldCards(meld) {
  const n = { pong: 3, opening_triple: 3, hezi: 2 }[meld.type] ?? 4;
  return Array.from({ length: n }, () => meld.card);
}

export function describe(action) {
  const [verb, card] = action.split(" ");
  if (verb === "discard") return t("demo.nt.discards", { card: cardName(card) });
  return `${actionName(verb).toLowerCase()}${card ? ` ${cardName(card)}` : ""}`;
}

export function mount(section) {
  return new NantongView(section);
}

// Nantong long cards: you (seat 0) against two computer seats, one deal at a time. The page
// shows what seat 0's observation shows (its own hand, the table, claims put to it), offers its
// legal actions and, at the end of the deal, the engine's itemised score.
import { Nantong } from "arbiter-engine/web";
import { GameView, h, helpLine, hintButton, messageLine, pause, randomSeed, howToPlay, toolbar } from "./ui.js";

const YOU = 0;
const SEATS = ["You", "Seat 1", "Seat 2"];
const SUITS = { m: "Myriads", s: "Strings", c: "Coins" };
const GENERALS = { T: "Thousand", W: "White Flower", R: "Red Flower" };
const ACTION_NAMES = {
  win: "Win (hu)",
  pass: "Pass",
  pong: "Pong",
  kong: "Kong",
  declare_hezi: "Declare Tiandi Hezi",
  ready: "Declare ready",
  finish: "Finish preparation",
  concealed_kong: "Concealed kong",
  add_kong: "Add to kong",
  declare_four: "Declare four",
  declare_triple: "Declare triple",
};
const MELD_NAMES = {
  pong: "pong",
  exposed_kong: "kong",
  concealed_kong: "concealed kong",
  opening_four: "opening four",
  opening_triple: "opening triple",
  hezi: "Tiandi Hezi",
  three_in_hand: "three in hand",
  four_in_hand: "four in hand",
  completed_by_discard: "completed by the discard",
};
const SOURCES = { discard: "a discard", self_draw: "a self-drawn card", kong_replacement: "a kong replacement", robbed_kong: "a robbed kong" };

// New page texts of this file, in English (the i18n lane moves them into the catalogs).
const PAGE_TEXT = {
  preparation:
    "Preparation, before play: you may lay out groups from the cards you were dealt (Declare four: four alike, and you draw a replacement; Declare triple: three of an indicator's kind; Tiandi Hezi). “Declare ready” tells the table your hand needs only one card to win: it is then locked, and a win scores double. “Finish preparation” ends your declarations without that; when every player has finished, the dealer discards first.",
  claim: (who, card) => `${who} discarded ${card}.`,
  robbing: (who, card) => `${who} is adding ${card} to a pong.`,
  claimWin: "Win (hu): it completes your hand (seven groups and a pair).",
  claimPong: "Pong: take it with the two alike in your hand, lay the three out, then discard.",
  claimKong: "Kong: take it with the three alike in your hand, lay the four out, draw a replacement.",
  claimPass: "Pass: let it go.",
  turn: "Your turn: click a card to discard it.",
  turnWin: "Win (hu): your hand is complete.",
  turnKong: "Concealed kong: lay out four alike from your hand and draw a replacement. Add to kong: put the fourth card on your pong.",
  endHands: "Every hand at the end",
  handOf: (name) => `${name}'s hand`,
};

export const cardName = (code) => GENERALS[code] ?? `${code[0]} of ${SUITS[code[1]]}`;
const suitOf = (code) => (code in GENERALS ? "g" : code[1]);

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
  const top = code in GENERALS ? code : code[0];
  return h(
    tag,
    { class: `lc suit-${suitOf(code)} ${cls}`, "aria-label": cardName(code), role: tag === "span" ? "img" : null, ...attrs },
    h("b", { class: "lc-rank" }, top),
    suitGlyph(code),
    h("small", { class: "lc-suit" }, code in GENERALS ? GENERALS[code].split(" ")[0] : SUITS[code[1]]),
  );
}

/** What the decision put to the person means, from its observation (`who`: the seats' names). */
export function decisionHelp(obs, who) {
  const can = (verb) => obs.actions.some((a) => a.split(" ")[0] === verb);
  if (!obs.actions.length) return "";
  if (can("finish")) return PAGE_TEXT.preparation;
  if (obs.claim) {
    const from = obs.discards.at(-1);
    const robbing = !can("pong") && !can("kong") && from?.[1] !== obs.claim;
    const said = robbing ? PAGE_TEXT.robbing(who[obs.last_event?.seat] ?? "A seat", cardName(obs.claim)) : PAGE_TEXT.claim(who[from?.[0]] ?? "A seat", cardName(obs.claim));
    return [said, can("win") && PAGE_TEXT.claimWin, can("pong") && PAGE_TEXT.claimPong, can("kong") && PAGE_TEXT.claimKong, PAGE_TEXT.claimPass].filter(Boolean).join(" ");
  }
  return [PAGE_TEXT.turn, can("win") && PAGE_TEXT.turnWin, (can("concealed_kong") || can("add_kong")) && PAGE_TEXT.turnKong].filter(Boolean).join(" ");
}

/** Every seat's hand face up once a deal is over, as the table sees them then. */
export function handsAtEnd(hands, names, win) {
  return h(
    "div",
    { class: "nt-hands-end", role: "group", "aria-label": PAGE_TEXT.endHands },
    h("h3", {}, PAGE_TEXT.endHands),
    hands.map((hand, seat) =>
      h(
        "section",
        { class: `nt-shown${win?.seat === seat ? " winner" : ""}`, "aria-label": PAGE_TEXT.handOf(names[seat]), dataset: { seat } },
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
    this.hand = h("div", { class: "nt-hand", "aria-label": "Your hand" });
    this.actions = h("div", { class: "actions", role: "group", "aria-label": "Your actions" });
    this.end = h("div", { class: "nt-end" });
    section.append(this.tools.bar, howToPlay("nantong"), this.table, this.message, this.help, this.claim, this.hand, this.actions, this.end);
    this.deal = null;
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
    const seatPanel = (seat) => {
      const discards = obs.discards.filter(([s]) => s === seat).map(([, c]) => c);
      const lastDiscard = obs.discards.at(-1);
      return h(
        "section",
        { class: `seat seat-${seat}${obs.to_act === seat ? " acting" : ""}`, "aria-label": SEATS[seat] },
        h(
          "h2",
          {},
          SEATS[seat],
          seat !== YOU ? h("span", { class: "tag" }, "computer") : null,
          obs.dealer === seat ? h("span", { class: "tag dealer" }, "dealer") : null,
          obs.ready[seat] ? h("span", { class: "tag ready" }, "ready") : null,
          h("span", { class: "count" }, `${obs.hand_sizes[seat]} in hand`),
        ),
        seat === YOU
          ? null
          : over
            ? h("div", { class: "backs shown", "aria-label": PAGE_TEXT.handOf(SEATS[seat]) }, this.deal.observation(seat).hand.map((c) => longCard(c, { cls: "tiny" })))
            : h("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: obs.hand_sizes[seat] }, () => h("span", { class: "back" }))),
        h(
          "div",
          { class: "melds", "aria-label": "Melds" },
          obs.melds[seat].length ? obs.melds[seat].map((m) => h("span", { class: "meld", title: MELD_NAMES[m.type] }, meldCards(m).map((c) => longCard(c, { cls: "small" })), h("small", {}, MELD_NAMES[m.type]))) : h("span", { class: "none" }, "no melds"),
        ),
        h(
          "div",
          { class: "discards", "aria-label": `Discards of ${SEATS[seat]}` },
          discards.map((c, i) => longCard(c, { cls: `small${lastDiscard && lastDiscard[0] === seat && i === discards.length - 1 ? " latest" : ""}` })),
        ),
      );
    };
    this.table.replaceChildren(
      seatPanel(2),
      h(
        "div",
        { class: "centre-info" },
        h("div", { class: "indicators", "aria-label": "Indicators" }, h("span", { class: "label" }, "Indicators"), obs.indicators.map((c) => longCard(c))),
        h("p", { class: "stock" }, h("strong", {}, obs.stock), " cards in the stock"),
        h("p", { class: "deal-no" }, `Deal ${this.dealNumber}, seed ${this.seed}`),
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
      h("h2", {}, "Your hand"),
      ...["m", "s", "c", "g"].filter((s) => groups.has(s)).map((s) =>
        h(
          "div",
          { class: "suit-group", "aria-label": s === "g" ? "Old generals" : SUITS[s] },
          groups.get(s).map(([c, i]) => {
            const discard = !this.busy && legal.has(`discard ${c}`);
            return longCard(c, {
              tag: "button",
              type: "button",
              cls: `${discard ? "playable" : ""}${fresh[i] && this.previousShown ? " fresh" : ""}`,
              disabled: !discard,
              "aria-label": discard ? `Discard ${cardName(c)}` : cardName(c),
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
            return h("button", { type: "button", class: verb === "win" ? "primary" : "", dataset: { action: a }, onclick: () => this.act(a) }, ACTION_NAMES[verb] ?? verb, card ? ` ${cardName(card)}` : "");
          })),
    );
    const discarder = obs.discards.at(-1)?.[0];
    this.claim.replaceChildren(
      ...(obs.claim && !this.busy
        ? [longCard(obs.claim), h("span", {}, `${SEATS[discarder] ?? "A seat"} ${discarder === undefined ? "offers" : "discarded"} ${cardName(obs.claim)}: claim it or pass?`)]
        : []),
    );
    this.claim.hidden = !this.claim.childElementCount;
    this.explain(over || this.busy ? "" : decisionHelp(obs, SEATS));
    if (!over && !this.busy && obs.actions.length) {
      const discarding = obs.actions.some((a) => a.startsWith("discard "));
      this.message.textContent = obs.claim ? "A claim is yours to make." : discarding ? "Your turn: click a card to discard it, or choose an action." : "Your turn: choose an action.";
    }
  }

  async act(action) {
    if (this.busy || this.deal.actor !== YOU) return;
    this.deal.act(YOU, action);
    this.message.textContent = `You: ${describe(action)}.`;
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
        this.message.textContent = `${SEATS[seat]}: ${describe(action)}.`;
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
    const headline = win
      ? `${win.seat === YOU ? "You win" : `${SEATS[win.seat]} wins`} on ${win.heavenly ? "a heavenly hand" : `${cardName(win.card)}, from ${SOURCES[win.source]}`}.`
      : "The stock is exhausted: nobody wins; base hu still settles.";
    this.message.textContent = headline;
    this.end.replaceChildren(
      h("h2", {}, `Deal ${this.dealNumber} — score`),
      h("p", { class: "final", "data-winner": win ? String(win.seat) : "none" }, headline),
      handsAtEnd([0, 1, 2].map((seat) => this.deal.observation(seat).hand), SEATS, win),
      h(
        "div",
        { class: "score-cards" },
        score.players.map((p, seat) =>
          h(
            "section",
            { class: `score-card${win?.seat === seat ? " winner" : ""}`, "aria-label": `Score of ${SEATS[seat]}` },
            h("h3", {}, SEATS[seat]),
            h(
              "table",
              {},
              h("tbody", {},
                p.groups.map((g) =>
                  h("tr", {}, h("td", {}, longCard(g.card, { cls: "tiny" }), ` ${MELD_NAMES[g.source] ?? g.source}`), h("td", {}, `${g.base}${g.doublings.map(() => " ×2").join("")}`, g.doublings.length ? h("small", {}, ` (${g.doublings.join(", ")})`) : null), h("td", { class: "num" }, g.value)),
                ),
                h("tr", { class: "sub" }, h("td", { colspan: 2 }, "Base hu"), h("td", { class: "num" }, p.base)),
                p.bonuses.map((b) => h("tr", {}, h("td", { colspan: 2 }, `+ ${b.name}`), h("td", { class: "num" }, `+${b.value}`))),
                p.multipliers.map((m) => h("tr", {}, h("td", { colspan: 2 }, `× 2 ${m}`), h("td", { class: "num" }, "×2"))),
                p.raw !== p.base ? h("tr", {}, h("td", { colspan: 2 }, "Raw"), h("td", { class: "num" }, p.raw)) : null,
                h("tr", { class: "total" }, h("td", { colspan: 2 }, "Total (rounded up to tens)"), h("td", { class: "num", "data-total": p.total }, p.total)),
                h("tr", { class: `settle ${score.settlement[seat] >= 0 ? "plus" : "minus"}` }, h("td", { colspan: 2 }, "Settlement"), h("td", { class: "num", "data-settlement": score.settlement[seat] }, `${score.settlement[seat] > 0 ? "+" : ""}${score.settlement[seat]}`)),
              ),
            ),
          ),
        ),
      ),
      h("div", { class: "end-buttons" }, h("button", { type: "button", class: "primary", onclick: () => this.nextDeal() }, "Next deal"), h("button", { type: "button", onclick: () => this.start(randomSeed()) }, "New game")),
      h("details", { class: "record" }, h("summary", {}, "Deal record (JSON: the deck, the dealer and every action, to replay it)"), h("pre", {}, JSON.stringify(this.deal.toJSON()))),
    );
  }
}

export function meldCards(meld) {
  const n = { pong: 3, opening_triple: 3, hezi: 2 }[meld.type] ?? 4;
  return Array.from({ length: n }, () => meld.card);
}

export function describe(action) {
  const [verb, card] = action.split(" ");
  if (verb === "discard") return `discards ${cardName(card)}`;
  return `${(ACTION_NAMES[verb] ?? verb).toLowerCase()}${card ? ` ${cardName(card)}` : ""}`;
}

export function mount(section) {
  return new NantongView(section);
}

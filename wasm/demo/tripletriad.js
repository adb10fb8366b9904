// Triple Triad against the computer: a match (rounds, sudden death, trade) under a preset or
// any rule set, every capture shown and explained before the turn passes. The person is blue.
import { TripleTriadMatch, TripleTriad, describe as describeOptions } from "arbiter-engine/web";
import { GameView, describeError, h, helpLine, hintButton, howToPlay, messageLine, pause, randomSeed, toolbar, using } from "./ui.js";
import { t } from "./i18n.js";

const YOU = "blue";
const CPU = "red";
/** The allowed values of a match option, as the engine declares them. */
const valuesOf = (name) => describeOptions("triple-triad").options.find((o) => o.name === name).values;
// The rules' names are the page catalog's (`rule.*`), which the Online tab's rules in words share.
const ruleLabel = (key) => t(`rule.${key}`);
// Captures are shown in the order the rules resolve them.
const RULE_NAMES = { wall: "Power wall", same: "Same", plus: "Plus", basic: "Basic", battle: "Battle", combo: "Combo" };
const SIDES = ["top", "right", "bottom", "left"];
const CELL_NAMES = ["top left", "top", "top right", "left", "centre", "right", "bottom left", "bottom", "bottom right"];

const rank = (n) => (n === 10 ? "A" : String(n));
// New page texts of this file, in English (the i18n lane moves them into the catalogs).
const PAGE_TEXT = {
  effective: (printed) => `Elemental: printed ${printed}`,
  yourTurn: "Your turn: pick a card from your hand, then an empty cell. Your card takes each neighbouring red card whose rank facing it is lower than your card's rank on that side.",
  same: "Same: when two or more of your card's sides equal the ranks facing them, those cards are taken.",
  plus: "Plus: when two or more sides add up to the same sum with the ranks facing them, those cards are taken.",
  combo: "Combo: cards taken by Same or Plus take their own weaker neighbours in turn.",
  elemental: "Elemental: a card on a cell of its own element fights with every rank one higher, on another element's cell one lower.",
  hintWords: (name, cell) => `${name} on the ${cell} cell`,
};
const playerName = (p) => (p === YOU ? "You" : "Red");

// Element icons, drawn rather than taken from an emoji font that a machine may lack.
const ELEMENT_ICONS = {
  fire: ["#ff7a1a", "M12 2c1 4 6 6 6 12a6 6 0 0 1-12 0c0-3 2-5 3-6 0 2 1 3 2 3-1-3 0-6 1-9z"],
  ice: ["#8fd8ff", "M11 2h2v6.3l4.4-2.5 1 1.7L14 10l4.4 2.5-1 1.7L13 11.7V22h-2v-10.3l-4.4 2.5-1-1.7L10 10 5.6 7.5l1-1.7L11 8.3z"],
  thunder: ["#ffe04a", "M13 2 5 14h6l-1 8 8-12h-6z"],
  earth: ["#b98a4b", "M2 20 9 7l4 6 3-4 6 11z"],
  poison: ["#b07cff", "M12 3c3 5 6 8 6 12a6 6 0 0 1-12 0c0-4 3-7 6-12zm-2 11a1.5 1.5 0 1 0 0 .1zm4 0a1.5 1.5 0 1 0 0 .1z"],
  wind: ["#9ff0c0", "M3 8h11a3 3 0 1 0-3-3h2a1 1 0 1 1 1 1H3zm0 4h15a3 3 0 1 1-3 3h2a1 1 0 1 0 1-1H3zm0 4h8v2H3z"],
  water: ["#4aa8ff", "M12 2c3 6 7 9 7 13a7 7 0 0 1-14 0c0-4 4-7 7-13z"],
  holy: ["#fff6c2", "M12 2l2.6 6.9L22 9.3l-5.8 4.6 2 7.1L12 17l-6.2 4 2-7.1L2 9.3l7.4-.4z"],
};

export function elementIcon(element, extraClass = "") {
  const icon = ELEMENT_ICONS[element];
  if (!icon) return null;
  return h(
    "svg:svg",
    { class: `element ${extraClass}`, viewBox: "0 0 24 24", role: "img", "aria-label": element },
    h("svg:title", {}, element),
    h("svg:path", { d: icon[1], fill: icon[0], stroke: "#0008", "stroke-width": "0.8" }),
  );
}

/** The ranks a card placed on a cell of `element` fights with: under Elemental one more on a
 * cell of its own element, one less on any other elemental cell (rules/triple-triad.md, kept
 * within 1..A under the clamp); the printed ones elsewhere. */
export function effectiveRanks(card, element, rules) {
  if (!rules.elemental || !element || element === "none") return card.ranks;
  const shift = card.element === element ? 1 : -1;
  return card.ranks.map((r) => (rules.elemental_clamp ? Math.min(10, Math.max(1, r + shift)) : Math.max(0, r + shift)));
}

/** A card's face: the four ranks in a diamond (`ranks`: the effective ones, when Elemental
 * changes them: marked up or down), the element, the power, the name. */
export function cardFace(card, ranks = card.ranks) {
  const change = ranks.some((r, i) => r > card.ranks[i]) ? " raised" : ranks.some((r, i) => r < card.ranks[i]) ? " lowered" : "";
  return [
    h(
      "span",
      { class: `ranks${change}`, "aria-hidden": "true", title: change ? PAGE_TEXT.effective(card.ranks.map(rank).join(" ")) : null },
      ranks.map((r, i) => h("b", { class: `r-${SIDES[i]}` }, rank(r))),
    ),
    elementIcon(card.element),
    h("span", { class: "power", title: "power", "aria-hidden": "true" }, `P${card.power}`),
    h("span", { class: "name" }, card.name),
  ];
}

export const cardLabel = (card, ranks = card.ranks) =>
  `${card.name}: top ${rank(ranks[0])}, right ${rank(ranks[1])}, bottom ${rank(ranks[2])}, left ${rank(ranks[3])}` +
  (ranks.every((r, i) => r === card.ranks[i]) ? "" : ` (${PAGE_TEXT.effective(card.ranks.map(rank).join(" "))})`) +
  (card.element !== "none" ? `, ${card.element}` : "") +
  `, power ${card.power}`;

/** The power-wall labels on a cell's sides, drawn on its edges, and the same in words. */
export function wallMarks(walls, cell) {
  const here = walls.filter((w) => w.cell === cell);
  return {
    marks: here.map((w) => h("span", { class: `wall-label wall-${w.side}`, "aria-hidden": "true" }, w.label)),
    words: here.map((w) => `, ${w.label} wall on the ${w.side}`).join(""),
  };
}

/** What a position shows: plain data read from a round (which is then freed by the caller). */
function snapshot(round) {
  return {
    obs: round.observation(YOU),
    legal: round.legalMoves(),
    toMove: round.toMove,
    scores: [round.score("blue"), round.score("red")],
  };
}

/** The rules panel: a preset, then every option of the engine's configuration. */
function rulesPanel(onChange) {
  const presets = valuesOf("preset");
  const presetSelect = h("select", { name: "tt-preset", "aria-label": "Preset" }, presets.map((p) => h("option", { value: p }, p)));
  const fields = h("div", { class: "rule-fields" });
  const error = h("p", { class: "rule-error", role: "alert" });
  const summary = h("summary", {});
  const panel = h(
    "details",
    { class: "rules-panel" },
    summary,
    h("div", { class: "rule-row" }, h("label", {}, "Preset ", presetSelect), h("span", { class: "hint" }, "Changes apply to the next game.")),
    fields,
    error,
  );
  let config = null;
  const inputs = {};

  // The controls are built from the preset's own configuration, so an option the engine adds
  // shows up here without a change to the page.
  function load(preset) {
    config = using(TripleTriadMatch.fromPreset(preset, 0), (m) => m.toJSON().config);
    fields.replaceChildren();
    for (const [key, value] of Object.entries(config.rules)) {
      if (typeof value === "boolean") {
        inputs[key] = h("input", { type: "checkbox", name: `tt-${key}`, checked: value, onchange: changed });
        fields.append(h("label", { class: "toggle" }, inputs[key], " ", ruleLabel(key)));
      } else {
        inputs[key] = h(
          "select",
          { name: `tt-${key}`, onchange: changed },
          [1, 2].map((n) => h("option", { value: n, selected: n === value }, `${n} side${n > 1 ? "s" : ""}`)),
        );
        fields.append(h("label", { class: "toggle" }, ruleLabel(key), " ", inputs[key]));
      }
    }
    inputs.sudden_death = h("select", { name: "tt-sudden-death", onchange: changed }, valuesOf("sudden_death").map((v) => h("option", { value: v, selected: v === config.sudden_death }, v.replaceAll("_", " "))));
    inputs.trade = h("select", { name: "tt-trade", onchange: changed }, valuesOf("trade").map((v) => h("option", { value: v, selected: v === config.trade }, v.replaceAll("_", " "))));
    fields.append(h("label", { class: "toggle" }, "Sudden death ", inputs.sudden_death), h("label", { class: "toggle" }, "Trade ", inputs.trade));
    changed();
  }

  function current() {
    const rules = {};
    for (const key of Object.keys(config.rules)) {
      const input = inputs[key];
      rules[key] = input.type === "checkbox" ? input.checked : Number(input.value);
    }
    return { ...config, rules, sudden_death: inputs.sudden_death.value, trade: inputs.trade.value };
  }

  // The engine is the judge of what combines: a refused set shows its words and blocks a start.
  function validate() {
    try {
      using(TripleTriadMatch.fromJSON(matchInput(current(), presetSelect.value, 0)), () => {});
      error.textContent = "";
      return true;
    } catch (e) {
      error.textContent = `The engine refuses these rules: ${describeError(e)}`;
      return false;
    }
  }

  function changed() {
    const valid = validate();
    const on = Object.entries(current().rules).filter(([, v]) => v === true).map(([k]) => ruleLabel(k).split(" (")[0]);
    summary.textContent = `Rules: ${presetSelect.value} — ${on.join(", ") || "basic only"}${valid ? "" : " (invalid)"}`;
    onChange?.();
  }

  presetSelect.addEventListener("change", () => load(presetSelect.value));
  load(presets[0]);
  return {
    panel,
    get preset() {
      return presetSelect.value;
    },
    config: current,
    validate,
  };
}

/** The match's input: the preset's hands and seed with the chosen configuration. */
function matchInput(config, preset, seed) {
  const base = using(TripleTriadMatch.fromPreset(preset, seed), (m) => m.toJSON());
  return { config, blue: base.blue, red: base.red, seed: base.seed };
}

class TripleTriadView extends GameView {
  constructor(section) {
    super();
    this.section = section;
    this.rules = rulesPanel();
    const hint = hintButton(() => {
      if (this.match.isOver || this.busy || this.snap.toMove !== YOU) return;
      const hand = this.snap.obs.hand;
      const words = (move) => PAGE_TEXT.hintWords(hand[Number(move.split("@")[0])].name, CELL_NAMES[Number(move.split("@")[1])]);
      // The round is copied to the worker as the call starts: it may be freed at once.
      using(this.match.game(), (round) => this.hint(round, TripleTriad.levels, words));
    });
    this.tools = toolbar({ game: "tt", levels: TripleTriad.levels, level: TripleTriad.levels.at(-1), extra: [hint], start: (seed) => this.start(seed) });
    this.message = messageLine();
    this.help = helpLine();
    this.board = h("div", { class: "tt-board", role: "grid", "aria-label": "Board" });
    this.hands = { blue: h("div", { class: "hand blue", "aria-label": "Your hand" }), red: h("div", { class: "hand red", "aria-label": "Red's hand" }) };
    this.scores = { blue: h("output", { class: "score blue", "aria-label": "Your score" }), red: h("output", { class: "score red", "aria-label": "Red's score" }) };
    this.captureLog = h("ol", { class: "capture-log", "aria-live": "polite", "aria-label": "Captures" });
    this.moveList = h("div", { class: "move-list", "aria-label": "Moves" });
    this.result = h("div", { class: "result", "aria-live": "polite" });
    this.trade = h("div", { class: "trade" });
    this.roundLabel = h("span", { class: "round" });
    section.append(
      this.tools.bar,
      howToPlay("triple-triad"),
      this.rules.panel,
      h(
        "div",
        { class: "tt-table" },
        h("div", { class: "side blue" }, h("h2", {}, "You ", this.scores.blue), this.hands.blue),
        h("div", { class: "centre" }, this.board, this.message, this.help),
        h("div", { class: "side red" }, h("h2", {}, "Red ", this.scores.red), this.hands.red),
        h(
          "aside",
          { class: "tt-info" },
          this.result,
          this.trade,
          h("h3", {}, "Captures ", this.roundLabel),
          this.captureLog,
          h("h3", {}, "Moves"),
          this.moveList,
        ),
      ),
    );
    this.selected = null;
    this.busy = false;
    this.match = null;
    this.start(randomSeed());
  }

  start(seed) {
    if (!this.rules.validate()) {
      this.rules.panel.open = true;
      this.message.textContent = "Fix the rules first: the engine refuses this combination.";
      return;
    }
    this.match?.free();
    this.restart(seed);
    this.match = TripleTriadMatch.fromJSON(matchInput(this.rules.config(), this.rules.preset, seed));
    this.ply = 0;
    this.selected = null;
    this.busy = false;
    this.captureLog.replaceChildren();
    this.moveList.replaceChildren();
    this.result.replaceChildren();
    this.trade.replaceChildren();
    this.section.dataset.state = "playing";
    this.roundLabel.textContent = "";
    this.startRound();
    this.advance();
  }

  startRound() {
    const n = this.match.roundNumber;
    this.roundLabel.textContent = `(round ${n})`;
    this.marks = undefined;
    this.moveList.append(h("h4", { class: "round-start" }, `Round ${n}${n > 1 ? " — sudden death" : ""}`), h("ol", {}));
    this.show(using(this.match.game(), snapshot));
  }

  /** Draws a position; `owners` overrides the colour shown on some cells (captures to come). */
  show(snap, { owners = new Map(), marks = new Map(), placed = -1 } = {}) {
    this.snap = snap;
    const { obs, legal, toMove } = snap;
    const yourTurn = toMove === YOU && !this.busy;
    const rules = obs.rules;
    this.explain(yourTurn ? [PAGE_TEXT.yourTurn, rules.same && PAGE_TEXT.same, rules.plus && PAGE_TEXT.plus, rules.combo && PAGE_TEXT.combo, rules.elemental && PAGE_TEXT.elemental].filter(Boolean).join(" ") : "");
    const legalCells = new Set(legal.filter((m) => this.selected !== null && m.startsWith(`${this.selected}@`)).map((m) => Number(m.split("@")[1])));
    this.board.replaceChildren(
      ...obs.board.map((placedCard, cell) => {
        const element = obs.rules.elemental ? obs.elements[cell] : null;
        const owner = owners.get(cell) ?? placedCard?.owner;
        const mark = marks.get(cell);
        const walls = wallMarks(obs.walls, cell);
        const ranks = placedCard ? effectiveRanks(placedCard.card, element, obs.rules) : null;
        const label = placedCard
          ? `${CELL_NAMES[cell]}: ${owner === YOU ? "your" : "red's"} ${cardLabel(placedCard.card, ranks)}${walls.words}`
          : `${CELL_NAMES[cell]}: empty${element ? `, ${element} cell` : ""}${walls.words}`;
        return h(
          "button",
          {
            type: "button",
            class: `cell${legalCells.has(cell) ? " legal" : ""}${placedCard ? " taken" : ""}`,
            dataset: { cell },
            "aria-label": label,
            "aria-disabled": !legalCells.has(cell) ? "true" : null,
            onclick: () => this.playAt(cell),
          },
          element ? elementIcon(element, "cell-element") : null,
          ...walls.marks,
          placedCard
            ? h(
                "div",
                { class: `ttcard ${owner}${cell === placed ? " placed" : ""}${mark ? " flipped" : ""}` },
                cardFace(placedCard.card, ranks),
                mark ? h("span", { class: `capture-badge ${mark}` }, RULE_NAMES[mark]) : null,
              )
            : null,
        );
      }),
    );
    const yours = obs.hand.map((card, i) =>
      h(
        "button",
        {
          type: "button",
          class: `ttcard blue in-hand${this.selected === i ? " selected" : ""}`,
          "aria-pressed": String(this.selected === i),
          "aria-label": cardLabel(card),
          "aria-disabled": yourTurn ? null : "true",
          dataset: { index: i },
          onclick: () => this.select(i),
          onpointerdown: (e) => this.drag(e, i),
        },
        cardFace(card),
      ),
    );
    const theirs = obs.opponent_hand.map((card) =>
      card
        ? h("div", { class: "ttcard red in-hand", role: "img", "aria-label": cardLabel(card) }, cardFace(card))
        : h("div", { class: "ttcard back in-hand", role: "img", "aria-label": "a hidden card" }),
    );
    this.hands.blue.replaceChildren(...yours);
    this.hands.red.replaceChildren(...theirs);
    this.scores.blue.textContent = snap.scores[0];
    this.scores.red.textContent = snap.scores[1];
    this.section.dataset.turn = toMove ?? "over";
  }

  select(i) {
    if (this.busy || this.snap.toMove !== YOU) return;
    this.selected = this.selected === i ? null : i;
    this.show(this.snap, this.marks);
    this.message.textContent = this.selected === null ? "Pick a card, then a cell." : "Now pick an empty cell (highlighted).";
    if (this.selected !== null) this.board.querySelector(".cell.legal")?.focus({ preventScroll: true });
  }

  /** Drag and drop with pointer events (mouse, pen and touch alike): a card dragged onto an
   * empty cell is played there; a press without a move stays a click. */
  drag(down, index) {
    if (this.busy || this.snap.toMove !== YOU || down.button !== 0) return;
    const source = down.currentTarget;
    let ghost = null;
    const cellAt = (e) => document.elementFromPoint(e.clientX, e.clientY)?.closest(".tt-board .cell");
    const move = (e) => {
      if (!ghost && Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) > 6) {
        ghost = source.cloneNode(true);
        ghost.classList.add("ghost");
        ghost.removeAttribute("id");
        document.body.append(ghost);
        if (this.selected !== index) this.select(index);
      }
      if (!ghost) return;
      ghost.style.left = `${e.clientX}px`;
      ghost.style.top = `${e.clientY}px`;
      for (const c of this.board.querySelectorAll(".drop")) c.classList.remove("drop");
      cellAt(e)?.classList.add("drop");
    };
    const up = (e) => {
      removeEventListener("pointermove", move);
      removeEventListener("pointerup", up);
      removeEventListener("pointercancel", up);
      if (!ghost) return;
      ghost.remove();
      const cell = cellAt(e);
      if (cell && e.type === "pointerup") this.playAt(Number(cell.dataset.cell));
    };
    addEventListener("pointermove", move);
    addEventListener("pointerup", up);
    addEventListener("pointercancel", up);
  }

  async playAt(cell) {
    if (this.busy || this.snap.toMove !== YOU || this.selected === null) return;
    const move = `${this.selected}@${cell}`;
    if (!this.snap.legal.includes(move)) return;
    this.selected = null;
    await this.turn(move);
    this.advance();
  }

  /** The computer plays until it is the person's turn or the match is over. */
  async advance() {
    const generation = this.generation;
    while (!this.match.isOver && this.snap.toMove === CPU) {
      this.busy = true;
      this.message.textContent = "Red is thinking…";
      await pause(350);
      // The round is copied to the worker as the call starts: it may be freed at once.
      const move = await using(this.match.game(), (round) => this.think(round, this.tools.level, this.seed * 1000 + this.ply));
      if (generation !== this.generation) return;
      await this.turn(move);
      if (generation !== this.generation) return;
    }
    this.busy = false;
    if (this.match.isOver) this.finish();
    else {
      this.show(this.snap, this.marks);
      this.message.textContent = "Your turn: pick a card, then a cell (or drag it there).";
    }
  }

  /** Plays a move and shows what it captured, rule by rule, before the turn passes. */
  async turn(move) {
    const generation = this.generation;
    this.busy = true;
    const mover = this.snap.toMove;
    const before = this.snap;
    // The round is played on a copy too: its captures and its full board stay visible even
    // when the move ends a drawn round and sudden death deals the next one.
    const round = this.match.game();
    round.play(move);
    const caps = round.lastCaptures();
    const after = snapshot(round);
    const finished = round.isOver;
    const roundScores = after.scores;
    round.free();
    const roundBefore = this.match.roundNumber;
    this.match.play(move);
    this.ply++;

    const card = before.obs[mover === YOU ? "hand" : "opponent_hand"][Number(move.split("@")[0])] ?? after.obs.board[caps.cell].card;
    const line = h("li", { class: mover, dataset: { move } }, `${playerName(mover)}: ${move} — ${card.name} to the ${CELL_NAMES[caps.cell]}`);
    this.moveList.lastElementChild.append(line);
    this.moveList.scrollTop = this.moveList.scrollHeight;
    this.captureLog.replaceChildren(h("li", {}, `${playerName(mover)} ${mover === YOU ? "play" : "plays"} ${card.name} on the ${CELL_NAMES[caps.cell]}.`));

    // First the card alone, every captured card still in its old colour.
    const owners = new Map();
    const other = mover === YOU ? CPU : YOU;
    for (const f of caps.flips) owners.set(f.cell, after.obs.board[f.cell].owner === mover ? other : mover);
    if (caps.placed_lost && !caps.flips.some((f) => f.cell === caps.cell)) owners.set(caps.cell, mover);
    // The engine's account of the move, step by step; the page only words it.
    const steps = caps.steps.filter((s) => s.rule !== "place");
    const marks = new Map();
    this.show({ ...after, toMove: null }, { owners, marks, placed: caps.cell });
    this.message.textContent = `${playerName(mover)}: ${card.name} to the ${CELL_NAMES[caps.cell]}.`;
    await pause(steps.length ? 450 : 300);
    for (const step of steps) {
      if (generation !== this.generation) return;
      const cells = [...(step.captured ?? []), ...(step.placed_lost ? [caps.cell] : [])];
      for (const cell of cells) {
        owners.delete(cell);
        if (step.rule !== "wall") marks.set(cell, step.rule);
      }
      const text = describe(step, after.obs.board, mover);
      const name = RULE_NAMES[step.rule];
      this.captureLog.append(h("li", { class: `rule-${step.rule}` }, h("strong", {}, name), ` — ${text}`));
      this.message.textContent = `${name}! ${text}`;
      this.show({ ...after, toMove: null }, { owners, marks, placed: caps.cell });
      await pause(900);
    }
    if (!caps.flips.length && !caps.placed_lost) this.captureLog.append(h("li", {}, "No capture."));
    if (generation !== this.generation) return;

    if (finished && !this.match.isOver && this.match.roundNumber !== roundBefore) {
      // A drawn round: show it, then deal the sudden-death round.
      const [b, r] = roundScores;
      this.message.textContent = `Round ${roundBefore} is a draw, ${b}–${r}: sudden death, round ${this.match.roundNumber}.`;
      this.result.replaceChildren(h("p", {}, `Round ${roundBefore}: draw ${b}–${r}. Sudden death!`));
      await pause(1600);
      if (generation !== this.generation) return;
      this.startRound();
      return;
    }
    this.snap = using(this.match.game(), snapshot);
    // The last captures stay marked until the next move.
    this.marks = { marks, placed: caps.cell };
    this.show(this.snap, this.marks);
  }

  finish() {
    this.busy = false;
    this.show({ ...this.snap, toMove: null }, this.marks);
    const { winner, scores, rounds } = this.match.result;
    const [b, r] = scores;
    const text = winner === YOU ? `You win ${b}–${r}!` : winner === CPU ? `Red wins ${r}–${b}.` : `Draw ${b}–${r}.`;
    this.message.textContent = `${text} ${rounds > 1 ? `(after ${rounds} rounds)` : ""}`;
    this.result.replaceChildren(
      h("p", { class: `final ${winner ?? "draw"}`, "data-winner": winner ?? "draw", "data-scores": `${b}-${r}` }, text),
      h("p", {}, `${rounds} round${rounds > 1 ? "s" : ""}, seed ${this.seed}, ${this.rules.preset} rules.`),
    );
    this.section.dataset.state = "trade";
    this.startTrade();
  }

  /** The trade after the last round: the person picks when the rule lets them choose. */
  startTrade() {
    const choice = this.match.tradeChoice();
    const save = this.match.toJSON();
    if (choice === "automatic") return this.settle([]);
    const kind = choice.pick ? "pick" : "swap";
    const { chooser } = choice[kind];
    const count = choice.pick ? choice.pick.count : 1;
    const loser = chooser === YOU ? CPU : YOU;
    const theirs = save[loser];
    if (chooser === CPU) return this.settle(this.match.computerPicks());

    const picked = new Set();
    const confirm = h("button", { type: "button", class: "primary", disabled: true, onclick: () => this.settle([...picked]) }, "Take");
    const options = theirs.map((card, i) =>
      h(
        "div",
        { class: "trade-option" },
        h(
          "button",
          {
            type: "button",
            class: "ttcard red",
            "aria-pressed": "false",
            "aria-label": `Take ${cardLabel(card)}`,
            onclick: (e) => {
              if (picked.has(i)) picked.delete(i);
              else if (kind === "swap" || count === 1) picked.clear(), picked.add(i);
              else if (picked.size < count) picked.add(i);
              for (const [j, b] of options.entries()) b.firstChild.setAttribute("aria-pressed", String(picked.has(j)));
              confirm.disabled = picked.size !== count;
              e.currentTarget.focus();
            },
          },
          cardFace(card),
        ),
        kind === "swap" ? h("div", { class: "gives" }, "for your ", h("div", { class: "ttcard blue small" }, cardFace(save[YOU][i]))) : null,
      ),
    );
    this.trade.replaceChildren(
      h("h3", {}, "Trade"),
      h("p", {}, kind === "swap" ? "Take one of Red's cards; you give up your card in the facing position." : `Take ${count} of the cards Red brought.`),
      h("div", { class: "trade-cards" }, options),
      confirm,
    );
    this.message.textContent += kind === "swap" ? " Pick a card to swap." : ` Pick ${count} card${count > 1 ? "s" : ""} to take.`;
  }

  settle(picks) {
    const transfers = this.match.settleTrade(picks);
    this.section.dataset.state = "over";
    const taken = (to) => transfers.filter((t) => t.to === to).map((t) => t.card.name).join(", ");
    const trade = [taken(YOU) && `You take ${taken(YOU)}.`, taken(CPU) && `Red takes ${taken(CPU)}.`].filter(Boolean);
    this.message.textContent = `${this.result.firstChild.textContent} ${trade.join(" ") || "No card changes hands."}`;
    this.trade.replaceChildren(
      h("h3", {}, "Trade"),
      transfers.length
        ? h(
            "ul",
            { class: "transfers" },
            transfers.map((t) => h("li", {}, h("div", { class: `ttcard ${t.from} small` }, cardFace(t.card)), ` ${t.to === YOU ? "You take" : "Red takes"} ${t.card.name}`)),
          )
        : h("p", {}, "No card changes hands."),
    );
  }
}

/** One line on a step of the engine's account of a move (`lastCaptures().steps`): the pairs it
 * compared, with the ranks as that rule read them, and what it turned. */
function describe(step, board, mover) {
  const name = (cell) => (cell === null ? "the edge" : board[cell].card.name);
  const names = (cells) => cells.map(name).join(", ");
  const turned = (cells) => (cells.length ? `: ${names(cells)} turn${cells.length === 1 ? "s" : ""} ${mover}` : ": nothing to take");
  const versus = (p) => `${name(p.from)}'s ${rank(p.rank)} against ${name(p.to)}'s ${rank(p.other)}`;
  switch (step.rule) {
    case "wall":
      return `the ${step.wall.label} wall (power ${step.power}) pushes the line: ${step.pushes.map((p) => `${name(p.to)} to the ${CELL_NAMES[p.to]}`).join(", ")}`;
    case "same":
      return `equal sides (${step.pairs.map((p) => `${rank(p.rank)} = ${rank(p.other)}${p.to === null ? " (edge)" : ""}`).join(", ")})${turned(step.captured)}`;
    case "plus":
      return `equal sums (${step.pairs.map((p) => `${rank(p.rank)}+${rank(p.other)} = ${p.sum}`).join(", ")})${turned(step.captured)}`;
    case "battle":
      return step.fights
        .map((f) => `${versus(f)}, totals ${f.total} against ${f.other_total}: ${f.winner === null ? "no change" : f.winner === mover ? `${name(f.to)} turns ${mover}` : `${name(f.from)} is lost`}`)
        .join("; ");
    case "combo":
      return `wave ${step.wave}: ${step.pairs.map(versus).join("; ")}${turned(step.captured)}`;
    default:
      return `${step.pairs.map(versus).join("; ")}${turned(step.captured)}`;
  }
}

export function mount(section) {
  return new TripleTriadView(section);
}

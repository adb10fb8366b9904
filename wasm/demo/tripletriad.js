// Triple Triad against the computer: a match (rounds, sudden death, trade) under a preset or
// any rule set, every capture shown and explained before the turn passes. The person is blue.
import { TripleTriadMatch, TripleTriad, describe as describeOptions } from "arbiter-engine/web";
import { GameView, describeError, h, helpLine, hintButton, howToPlay, labelled, messageLine, pause, randomSeed, say, toolbar, using, words } from "./ui.js";
import { has, language, list, onLanguage, t } from "./i18n.js";
import { loadFfxiv, npcDeal, npcRules } from "./ffxiv.js";

const YOU = "blue";
const CPU = "red";
/** The allowed values of a match option, as the engine declares them. */
const valuesOf = (name) => describeOptions("triple-triad").options.find((o) => o.name === name).values;
// The rules' names are the page catalog's (`rule.*`), which the Online tab's rules in words share.
const ruleLabel = (key) => t(`rule.${key}`);
// The name of the rule of a step of the engine's account of a move (`demo.capture.*`).
const ruleName = (rule) => t(`demo.capture.${rule}`);
const SIDES = ["top", "right", "bottom", "left"];
const cellName = (cell) => t(`cell.${cell}`);

const rank = (n) => (n === 10 ? "A" : String(n));

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
    { class: `element ${extraClass}`, viewBox: "0 0 24 24", role: "img", "aria-label": t(`element.${element}`) },
    h("svg:title", {}, t(`element.${element}`)),
    h("svg:path", { d: icon[1], fill: icon[0], stroke: "#0008", "stroke-width": "0.8" }),
  );
}

/** A card's face: the four ranks in a diamond (`ranks`: the effective ones, when Elemental
 * changes them: marked up or down), the element, the power, the name. */
export function cardFace(card, ranks = card.ranks) {
  const change = ranks.some((r, i) => r > card.ranks[i]) ? " raised" : ranks.some((r, i) => r < card.ranks[i]) ? " lowered" : "";
  return [
    h(
      "span",
      { class: `ranks${change}`, "aria-hidden": "true", title: change ? t("demo.tt.printed", { ranks: card.ranks.map(rank).join(" ") }) : null },
      ranks.map((r, i) => h("b", { class: `r-${SIDES[i]}` }, rank(r))),
    ),
    elementIcon(card.element),
    card.type && card.type !== "none" ? h("span", { class: `card-type type-${card.type}`, title: t(`card_type.${card.type}`), "aria-hidden": "true" }, t(`card_type.${card.type}`)) : null,
    h("span", { class: "power", title: t("demo.tt.power"), "aria-hidden": "true" }, `P${card.power}`),
    h("span", { class: "name" }, card.name),
  ];
}

export const cardLabel = (card, ranks = card.ranks) =>
  t("demo.tt.card", { name: card.name, top: rank(ranks[0]), right: rank(ranks[1]), bottom: rank(ranks[2]), left: rank(ranks[3]) }) +
  (ranks.every((r, i) => r === card.ranks[i]) ? "" : t("demo.tt.card_printed", { ranks: card.ranks.map(rank).join(" ") })) +
  (card.element !== "none" ? t("demo.tt.card_element", { element: t(`element.${card.element}`) }) : "") +
  (card.type && card.type !== "none" ? t("demo.tt.card_type", { type: t(`card_type.${card.type}`) }) : "") +
  t("demo.tt.card_power", { power: card.power });

/** The power-wall labels on a cell's sides, drawn on its edges, and the same in words. */
export function wallMarks(walls, cell) {
  const here = walls.filter((w) => w.cell === cell);
  return {
    marks: here.map((w) => h("span", { class: `wall-label wall-${w.side}`, "aria-hidden": "true" }, w.label)),
    words: here.map((w) => t("demo.tt.wall", { label: w.label, side: t(`side.${w.side}`) })).join(""),
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
  const presetSelect = h("select", { name: "tt-preset", ...labelled("demo.tt.preset") }, presets.map((p) => words(h("option", { value: p }), () => t(`demo.preset.${p}`))));
  // Final Fantasy XIV's NPCs, once their data has come: picking one sets its rules and deals its
  // hand against a deck of yours (ffxiv.js).
  const npcSelect = h("select", { name: "tt-npc", disabled: true, ...labelled("demo.tt.npc") }, words(h("option", { value: "" }), () => t("demo.tt.no_npc")));
  let ffxiv = null;
  const npcWords = () => {
    const fr = language() === "fr";
    for (const option of npcSelect.options) {
      const npc = ffxiv?.npcs.find((n) => String(n.id) === option.value);
      if (npc) option.textContent = t("demo.tt.npc_option", { name: fr ? npc.name.fr : npc.name.en, location: fr ? npc.location.fr : npc.location.en });
    }
  };
  loadFfxiv().then((data) => {
    ffxiv = data;
    npcSelect.append(...data.npcs.map((n) => h("option", { value: String(n.id) })));
    npcWords();
    npcSelect.disabled = false;
  });
  onLanguage(npcWords);
  const fields = h("div", { class: "rule-fields" });
  const error = h("p", { class: "rule-error", role: "alert" });
  const summary = h("summary", {});
  const panel = h(
    "details",
    { class: "rules-panel" },
    summary,
    h("div", { class: "rule-row" }, h("label", {}, say("demo.tt.preset_label"), presetSelect), words(h("span", { class: "hint" }), () => t("demo.tt.next_game"))),
    h("div", { class: "rule-row" }, h("label", {}, say("demo.tt.npc_label"), npcSelect), words(h("span", { class: "hint" }), () => t("demo.tt.npc_hint"))),
    fields,
    error,
  );
  let config = null;
  // The rules' controls by flag, and the match's other choices apart (FFXIV has a rule named
  // sudden_death beside the match's option of that name).
  const inputs = {};
  const choices = {};

  // The controls are built from the preset's own configuration, so an option the engine adds
  // shows up here without a change to the page.
  function load(preset) {
    config = using(TripleTriadMatch.fromPreset(preset, 0), (m) => m.toJSON().config);
    // A save leaves out the flags that are off and newer than it (FFXIV's): the engine's
    // declaration lists them all.
    config.rules = { ...Object.fromEntries(valuesOf("rules").map((flag) => [flag, false])), ...config.rules };
    fields.replaceChildren();
    for (const [key, value] of Object.entries(config.rules)) {
      if (typeof value === "boolean") {
        inputs[key] = h("input", { type: "checkbox", name: `tt-${key}`, checked: value, onchange: changed });
        fields.append(h("label", { class: "toggle" }, inputs[key], " ", words(h("span"), () => ruleLabel(key))));
      } else {
        inputs[key] = h(
          "select",
          { name: `tt-${key}`, onchange: changed },
          [1, 2].map((n) => words(h("option", { value: n, selected: n === value }), () => t("demo.tt.sides", { count: n }))),
        );
        fields.append(h("label", { class: "toggle" }, words(h("span"), () => ruleLabel(key)), " ", inputs[key]));
      }
    }
    choices.sudden_death = h("select", { name: "tt-sudden-death", onchange: changed }, valuesOf("sudden_death").map((v) => words(h("option", { value: v, selected: v === config.sudden_death }), () => t(`sudden_death.${v}`))));
    choices.trade = h("select", { name: "tt-trade", onchange: changed }, valuesOf("trade").map((v) => words(h("option", { value: v, selected: v === config.trade }), () => t(`trade.${v}`))));
    fields.append(h("label", { class: "toggle" }, say("demo.tt.sudden_death"), choices.sudden_death), h("label", { class: "toggle" }, say("demo.tt.trade"), choices.trade));
    changed();
  }

  function current() {
    const rules = {};
    for (const key of Object.keys(config.rules)) {
      const input = inputs[key];
      rules[key] = input.type === "checkbox" ? input.checked : Number(input.value);
    }
    return { ...config, rules, sudden_death: choices.sudden_death.value, trade: choices.trade.value };
  }

  // The engine is the judge of what combines: a refused set shows its words and blocks a start.
  function validate() {
    try {
      using(TripleTriadMatch.fromJSON(matchInput(current(), presetSelect.value, 0, npc(), ffxiv)), () => {});
      words(error, () => "");
      return true;
    } catch (e) {
      words(error, () => t("demo.tt.refused", { reason: refusal(e) }));
      return false;
    }
  }

  function changed() {
    const valid = validate();
    const on = Object.entries(current().rules).filter(([, v]) => v === true).map(([k]) => k);
    words(summary, () =>
      t(valid ? "demo.tt.rules_summary" : "demo.tt.rules_summary_invalid", { preset: npcName() ?? t(`demo.preset.${presetSelect.value}`), rules: on.map((k) => ruleLabel(k).split(" (")[0]).join(", ") || t("demo.tt.basic_only") }),
    );
    onChange?.();
  }

  const npc = () => ffxiv?.npcs.find((n) => String(n.id) === npcSelect.value) ?? null;
  const npcName = () => npc()?.name[language() === "fr" ? "fr" : "en"];
  /** The NPC's rules on the preset's options: its flags, no sudden death but its own, no trade. */
  function pickNpc() {
    load(presetSelect.value);
    const chosen = npc();
    if (!chosen) return;
    const flags = Object.keys(config.rules).filter((key) => typeof config.rules[key] === "boolean");
    for (const [flag, on] of Object.entries(npcRules(chosen, flags))) inputs[flag].checked = on;
    choices.sudden_death.value = "off";
    choices.trade.value = "none";
    changed();
  }

  presetSelect.addEventListener("change", pickNpc);
  npcSelect.addEventListener("change", pickNpc);
  load(presets[0]);
  return {
    panel,
    get preset() {
      return presetSelect.value;
    },
    npc,
    ffxiv: () => ffxiv,
    config: current,
    validate,
  };
}

/** Why the engine refuses a set of rules, in the page's words: its reasons name the rules by
 * their codes (`same_wall requires same`, `... cannot be combined with same_wall`). */
function refusal(e) {
  const name = (code) => (has(`rule.${code}`) ? ruleLabel(code) : code);
  const needs = /^(\w+) requires (\w+)$/.exec(e?.message ?? "");
  if (needs) return t("demo.tt.rule_needs", { rule: name(needs[1]), needs: name(needs[2]) });
  const edges = /cannot be combined with (\w+)$/.exec(e?.message ?? "");
  if (edges) return t("demo.tt.rule_edges", { rule: name(edges[1]) });
  return describeError(e);
}

/** The match's input: the preset's hands and seed with the chosen configuration; against a
 * FFXIV NPC, its hand and yours dealt from the seed. */
function matchInput(config, preset, seed, npc, ffxiv) {
  const base = using(TripleTriadMatch.fromPreset(preset, seed), (m) => m.toJSON());
  const hands = npc ? npcDeal(ffxiv, npc, seed) : base;
  return { config, blue: hands.blue, red: hands.red, seed: base.seed };
}

class TripleTriadView extends GameView {
  constructor(section) {
    super();
    this.section = section;
    this.rules = rulesPanel();
    const hint = hintButton(() => {
      if (this.match.isOver || this.busy || this.snap.toMove !== YOU) return;
      const hand = this.snap.obs.hand;
      const wording = (move) => t("demo.tt.hint", { card: hand[Number(move.split("@")[0])].name, cell: cellName(Number(move.split("@")[1])) });
      // The round is copied to the worker as the call starts: it may be freed at once.
      using(this.match.game(), (round) => this.hint(round, TripleTriad.levels, wording));
    });
    this.tools = toolbar({ game: "tt", levels: TripleTriad.levels, level: TripleTriad.levels.at(-1), extra: [hint], start: (seed) => this.start(seed) });
    this.message = messageLine();
    this.help = helpLine();
    this.board = h("div", { class: "tt-board", role: "grid", ...labelled("board.board") });
    this.hands = { blue: h("div", { class: "hand blue", ...labelled("board.your_hand") }), red: h("div", { class: "hand red", ...labelled("demo.tt.red_hand") }) };
    this.scores = { blue: h("output", { class: "score blue", ...labelled("demo.tt.your_score") }), red: h("output", { class: "score red", ...labelled("demo.tt.red_score") }) };
    this.captureLog = h("ol", { class: "capture-log", "aria-live": "polite", ...labelled("demo.tt.captures") });
    this.moveList = h("div", { class: "move-list", ...labelled("match.moves") });
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
        h("div", { class: "side blue" }, h("h2", {}, say("demo.tt.you"), " ", this.scores.blue), this.hands.blue),
        h("div", { class: "centre" }, this.board, this.message, this.help),
        h("div", { class: "side red" }, h("h2", {}, say("demo.tt.red"), " ", this.scores.red), this.hands.red),
        h(
          "aside",
          { class: "tt-info" },
          this.result,
          this.trade,
          h("h3", {}, say("demo.tt.captures"), " ", this.roundLabel),
          this.captureLog,
          h("h3", {}, say("match.moves")),
          this.moveList,
        ),
      ),
    );
    this.selected = null;
    this.busy = false;
    this.match = null;
    // What is drawn from the position (the board's and the cards' labels) is drawn again.
    onLanguage(() => this.shown && this.show(...this.shown));
    this.start(randomSeed());
  }

  start(seed) {
    if (!this.rules.validate()) {
      this.rules.panel.open = true;
      words(this.message, () => t("demo.tt.fix_rules"));
      return;
    }
    this.match?.free();
    this.restart(seed);
    // What the end line names: the rules panel may change before the match ends.
    this.opponent = { preset: this.rules.preset, npc: this.rules.npc() };
    this.match = TripleTriadMatch.fromJSON(matchInput(this.rules.config(), this.opponent.preset, seed, this.opponent.npc, this.rules.ffxiv()));
    this.ply = 0;
    this.selected = null;
    this.busy = false;
    this.captureLog.replaceChildren();
    this.moveList.replaceChildren();
    this.result.replaceChildren();
    this.trade.replaceChildren();
    this.section.dataset.state = "playing";
    words(this.roundLabel, () => "");
    this.startRound();
    this.advance();
  }

  startRound() {
    const n = this.match.roundNumber;
    words(this.roundLabel, () => t("demo.tt.round_label", { round: n }));
    this.marks = undefined;
    this.moveList.append(words(h("h4", { class: "round-start" }), () => t(n > 1 ? "demo.tt.round_sudden" : "demo.tt.round", { round: n })), h("ol", {}));
    this.show(using(this.match.game(), snapshot));
  }

  /** Draws a position; `owners` overrides the colour shown on some cells (captures to come). */
  show(snap, { owners = new Map(), marks = new Map(), placed = -1 } = {}) {
    this.shown = [snap, { owners, marks, placed }];
    this.snap = snap;
    const { obs, legal, toMove } = snap;
    const yourTurn = toMove === YOU && !this.busy;
    const rules = obs.rules;
    this.explain(yourTurn ? () => ["your_turn", ...["same", "plus", "combo", "elemental"].filter((rule) => rules[rule])].map((key) => t(`demo.tt.help.${key}`)).join(" ") : null);
    const legalCells = new Set(legal.filter((m) => this.selected !== null && m.startsWith(`${this.selected}@`)).map((m) => Number(m.split("@")[1])));
    this.board.replaceChildren(
      ...obs.board.map((placedCard, cell) => {
        const element = obs.rules.elemental ? obs.elements[cell] : null;
        const owner = owners.get(cell) ?? placedCard?.owner;
        const mark = marks.get(cell);
        const walls = wallMarks(obs.walls, cell);
        // The ranks it plays with, as the engine reckons them (Elemental's changes).
        const ranks = placedCard ? obs.effective[cell] : null;
        const label = placedCard
          ? t(owner === YOU ? "demo.tt.cell_yours" : "demo.tt.cell_reds", { cell: cellName(cell), card: cardLabel(placedCard.card, ranks) }) + walls.words
          : t(element ? "demo.tt.cell_element" : "demo.tt.cell_empty", { cell: cellName(cell), element: element && t(`element.${element}`) }) + walls.words;
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
                mark ? h("span", { class: `capture-badge ${mark}` }, ruleName(mark)) : null,
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
        : h("div", { class: "ttcard back in-hand", role: "img", "aria-label": t("board.hidden_card") }),
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
    const next = this.selected === null ? "demo.tt.pick_card" : "demo.tt.pick_cell";
    words(this.message, () => t(next));
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
      words(this.message, () => t("demo.tt.red_thinking"));
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
      words(this.message, () => t("demo.tt.your_turn"));
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
    const said = { move, card: card.name };
    const by = mover === YOU ? "you" : "red";
    const line = words(h("li", { class: mover, dataset: { move } }), () => t(`demo.tt.move.${by}`, { ...said, cell: cellName(caps.cell) }));
    this.moveList.lastElementChild.append(line);
    this.moveList.scrollTop = this.moveList.scrollHeight;
    this.captureLog.replaceChildren(words(h("li"), () => t(`demo.tt.play.${by}`, { ...said, cell: cellName(caps.cell) })));

    // First the card alone, every captured card still in its old colour.
    const owners = new Map();
    const other = mover === YOU ? CPU : YOU;
    for (const f of caps.flips) owners.set(f.cell, after.obs.board[f.cell].owner === mover ? other : mover);
    if (caps.placed_lost && !caps.flips.some((f) => f.cell === caps.cell)) owners.set(caps.cell, mover);
    // The engine's account of the move, step by step; the page only words it.
    const steps = caps.steps.filter((s) => s.rule !== "place");
    const marks = new Map();
    this.show({ ...after, toMove: null }, { owners, marks, placed: caps.cell });
    words(this.message, () => t(`demo.tt.placed.${by}`, { ...said, cell: cellName(caps.cell) }));
    await pause(steps.length ? 450 : 300);
    for (const step of steps) {
      if (generation !== this.generation) return;
      const cells = [...(step.captured ?? []), ...(step.placed_lost ? [caps.cell] : [])];
      for (const cell of cells) {
        owners.delete(cell);
        if (step.rule !== "wall") marks.set(cell, step.rule);
      }
      const text = () => describe(step, after.obs.board, mover);
      this.captureLog.append(words(h("li", { class: `rule-${step.rule}` }), () => [h("strong", {}, ruleName(step.rule)), ` — ${text()}`]));
      words(this.message, () => t("demo.tt.step", { rule: ruleName(step.rule), text: text() }));
      this.show({ ...after, toMove: null }, { owners, marks, placed: caps.cell });
      await pause(900);
    }
    if (!caps.flips.length && !caps.placed_lost) this.captureLog.append(words(h("li"), () => t("demo.tt.no_capture")));
    if (generation !== this.generation) return;

    if (finished && !this.match.isOver && this.match.roundNumber !== roundBefore) {
      // A drawn round: show it, then deal the sudden-death round.
      const [blue, red] = roundScores;
      const drawn = { round: roundBefore, blue, red, next: this.match.roundNumber };
      words(this.message, () => t("demo.tt.round_drawn", drawn));
      this.result.replaceChildren(words(h("p"), () => t("demo.tt.round_drawn_short", drawn)));
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
    const [blue, red] = scores;
    const verdict = () => t(winner === YOU ? "demo.tt.you_win" : winner === CPU ? "demo.tt.red_wins" : "demo.tt.draw", { blue, red });
    this.verdict = () => [verdict(), rounds > 1 && t("demo.tt.after_rounds", { count: rounds })].filter(Boolean).join(" ");
    words(this.message, this.verdict);
    const { preset, npc } = this.opponent;
    const seed = this.seed;
    // Against an NPC the rules are its own, whatever preset the panel started from.
    const summary = () =>
      npc
        ? t("demo.tt.match_summary_npc", { count: rounds, seed, npc: npc.name[language() === "fr" ? "fr" : "en"] })
        : t("demo.tt.match_summary", { count: rounds, seed, preset: t(`demo.preset.${preset}`) });
    this.result.replaceChildren(
      words(h("p", { class: `final ${winner ?? "draw"}`, "data-winner": winner ?? "draw", "data-scores": `${blue}-${red}` }), verdict),
      words(h("p", { class: "summary" }), summary),
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
    const confirm = words(h("button", { type: "button", class: "primary", disabled: true, onclick: () => this.settle([...picked]) }), () => t("demo.tt.take"));
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
            "aria-label": t("choice.take_card", { card: cardLabel(card) }),
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
        kind === "swap" ? h("div", { class: "gives" }, say("demo.tt.for_your"), " ", h("div", { class: "ttcard blue small" }, cardFace(save[YOU][i]))) : null,
      ),
    );
    this.trade.replaceChildren(
      h("h3", {}, say("demo.tt.trade_title")),
      words(h("p"), () => (kind === "swap" ? t("demo.tt.swap_help") : t("demo.tt.pick_help", { count }))),
      h("div", { class: "trade-cards" }, options),
      confirm,
    );
    const verdict = this.verdict;
    words(this.message, () => `${verdict()} ${kind === "swap" ? t("demo.tt.pick_swap") : t("demo.tt.pick_take", { count })}`);
  }

  settle(picks) {
    const transfers = this.match.settleTrade(picks);
    this.section.dataset.state = "over";
    const taken = (to) => list(transfers.filter((t) => t.to === to).map((t) => t.card.name));
    const traded = () => [transfers.some((x) => x.to === YOU) && t("demo.tt.you_take", { cards: taken(YOU) }), transfers.some((x) => x.to === CPU) && t("demo.tt.red_takes", { cards: taken(CPU) })].filter(Boolean).join(" ");
    const verdict = this.verdict;
    words(this.message, () => `${verdict()} ${traded() || t("demo.tt.no_transfer")}`);
    this.trade.replaceChildren(
      h("h3", {}, say("demo.tt.trade_title")),
      transfers.length
        ? h(
            "ul",
            { class: "transfers" },
            transfers.map((x) => h("li", {}, h("div", { class: `ttcard ${x.from} small` }, cardFace(x.card)), " ", say(x.to === YOU ? "demo.tt.you_take_card" : "demo.tt.red_takes_card", { card: x.card.name }))),
          )
        : words(h("p"), () => t("demo.tt.no_transfer")),
    );
  }
}

/** One line on a step of the engine's account of a move (`lastCaptures().steps`): the pairs it
 * compared, with the ranks as that rule read them, and what it turned. */
function describe(step, board, mover) {
  const name = (cell) => (cell === null ? t("demo.tt.edge") : board[cell].card.name);
  const turned = (cells) => (cells.length ? t("demo.tt.turned", { count: cells.length, cards: list(cells.map(name)), colour: t(`colour.${mover}`) }) : t("demo.tt.nothing_taken"));
  const versus = (p) => t("demo.tt.versus", { card: name(p.from), rank: rank(p.rank), other: name(p.to), other_rank: rank(p.other) });
  const pairs = (all, pair) => all.map(pair).join(", ");
  switch (step.rule) {
    case "wall":
      return t("demo.tt.wall_push", { label: step.wall.label, power: step.power, pushes: list(step.pushes.map((p) => t("demo.tt.pushed", { card: name(p.to), cell: cellName(p.to) }))) });
    case "same":
      return t("demo.tt.same_sides", { pairs: pairs(step.pairs, (p) => `${rank(p.rank)} = ${rank(p.other)}${p.to === null ? t("demo.tt.edge_mark") : ""}`), turned: turned(step.captured) });
    case "plus":
      return t("demo.tt.plus_sums", { pairs: pairs(step.pairs, (p) => `${rank(p.rank)}+${rank(p.other)} = ${p.sum}`), turned: turned(step.captured) });
    case "battle":
      return step.fights
        .map((f) =>
          t("demo.tt.fight", {
            versus: versus(f),
            total: f.total,
            other_total: f.other_total,
            result: f.winner === null ? t("demo.tt.fight_even") : f.winner === mover ? t("demo.tt.fight_turns", { card: name(f.to), colour: t(`colour.${mover}`) }) : t("demo.tt.fight_lost", { card: name(f.from) }),
          }),
        )
        .join("; ");
    case "combo":
      return t("demo.tt.combo_wave", { wave: step.wave, pairs: step.pairs.map(versus).join("; "), turned: turned(step.captured) });
    default:
      return `${step.pairs.map(versus).join("; ")}${turned(step.captured)}`;
  }
}

export function mount(section) {
  return new TripleTriadView(section);
}

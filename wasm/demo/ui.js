// What the three games' pages share: an element builder, animation pauses, the toolbar (new
// game, seed, the computer's level), the message line and the computer's thinking, which runs on
// the engine's worker so that the page keeps drawing while a strong level searches.
import { ArbiterWorker } from "arbiter-engine/worker";
import { has, language, onLanguage, t } from "./i18n.js";

const ai = new ArbiterWorker();

/** `h("button", {class: "x", onclick}, "text", child)`: attributes starting with `on` are
 * listeners, `false`/`null` attributes and children are left out. */
export function h(tag, attrs = {}, ...children) {
  const el = tag.includes(":")
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.split(":")[1])
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === false || value == null) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") {
      for (const [p, v] of Object.entries(value)) el.style.setProperty(p, v);
    } else el.setAttribute(key, value === true ? "" : value);
  }
  el.append(...children.flat(Infinity).filter((c) => c != null && c !== false));
  return el;
}

/** Replaces `el`'s children, leaving out `null`/`false` ones as `h` does. */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false));
}

// The elements `words` fills, held weakly: an element the page dropped is forgotten.
const worded = new Set();
let pruneAt = 1024;

/** Fills `el` with what `draw()` returns (text, elements or a list of them, read from the
 * catalogs with `t`), now and again after each switch of language, until the next `words(el, …)`;
 * returns `el`. */
export function words(el, draw) {
  if (!el.draw) {
    // The references to elements already collected go now and then, not only at a switch.
    if (worded.size >= pruneAt) {
      for (const ref of worded) if (!ref.deref()) worded.delete(ref);
      pruneAt = 2 * worded.size + 1024;
    }
    worded.add(new WeakRef(el));
  }
  el.draw = draw;
  fill(el, draw());
  return el;
}

onLanguage(() => {
  for (const ref of worded) {
    const el = ref.deref();
    if (!el) worded.delete(ref);
    else if (el.isConnected) fill(el, el.draw());
  }
});

/** `key`'s words in a span that follows the page's language (for a text beside a control). */
export const say = (key, params) => words(h("span"), () => t(key, params));

/** `?fast` in the address shortens every animation and pause to nothing (the browser tests use
 * it; what is shown and what must be clicked stay the same). */
export const fast = new URLSearchParams(location.search).has("fast");
if (fast) document.documentElement.dataset.fast = "";

/** Waits `ms` milliseconds, or only until the next frame in fast mode, so that what was drawn
 * is painted before the next step either way. */
export function pause(ms) {
  return new Promise((resolve) => (fast ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, ms)));
}

/** The attributes of an element whose aria-label is `key`'s words (main.js words them again
 * after a switch of language). */
export const labelled = (key) => ({ "aria-label": t(key), dataset: { i18nLabel: key } });

/** A seed a person can read and type. */
export function randomSeed() {
  return Math.floor(Math.random() * 1e6);
}

/**
 * The toolbar every game has: "New game" (a fresh seed), the seed field (Enter or "Play seed"
 * replays a seed), the computer's level (the engine's own list, weakest first) and the game's
 * own controls. `start(seed)` begins a game.
 */
export function toolbar({ game, levels, level, extra = [], start }) {
  const seedInput = h("input", {
    type: "number",
    min: 0,
    step: 1,
    inputmode: "numeric",
    ...labelled("demo.seed"),
    class: "seed",
    name: `${game}-seed`,
  });
  const levelSelect = h(
    "select",
    { ...labelled("demo.computer_level"), name: `${game}-level` },
    levels.map((l) => words(h("option", { value: l, selected: l === level }), () => t(`level.${l}`))),
  );
  const playSeed = () => {
    const seed = Number(seedInput.value);
    if (Number.isSafeInteger(seed) && seed >= 0) start(seed);
    else seedInput.setCustomValidity(t("demo.seed_invalid")), seedInput.reportValidity();
  };
  seedInput.addEventListener("input", () => seedInput.setCustomValidity(""));
  seedInput.addEventListener("keydown", (e) => e.key === "Enter" && playSeed());
  const bar = h(
    "div",
    { class: "toolbar" },
    words(h("button", { type: "button", class: "primary", onclick: () => start(randomSeed()) }), () => t("demo.new_game")),
    h("label", {}, say("demo.seed_label"), seedInput),
    words(h("button", { type: "button", onclick: playSeed }), () => t("demo.play_seed")),
    h("label", {}, say("demo.computer"), levelSelect),
    extra,
  );
  return {
    bar,
    get level() {
      return levelSelect.value;
    },
    levelSelect,
    showSeed(seed) {
      seedInput.value = String(seed);
    },
  };
}

/** The rules written for players, fetched when the panel is first opened and again after a
 * switch of language: in English the terminal's `arbiter rules` texts (which the package ships
 * in dist/rules/), in French their translation beside the page (rules/fr/); the sections headed
 * `leave` (the terminal's own, such as how it draws Trax tiles in letters) are left out. */
export function howToPlay(game, { leave = [] } = {}) {
  const body = h("div", { class: "how-to-play-text" });
  const load = async () => {
    if (!panel.open || body.dataset.language === language()) return;
    const lang = (body.dataset.language = language());
    const address = lang === "en" ? `../dist/rules/${game}.txt` : `rules/${lang}/${game}.txt`;
    try {
      const answer = await fetch(new URL(address, import.meta.url));
      if (!answer.ok) throw new Error(answer.statusText);
      const text = await answer.text();
      if (lang === language()) fill(body, rulesBlocks(text).filter((block, i, all) => !leave.includes(sectionOf(all, i))));
    } catch {
      body.textContent = t("demo.rules_missing");
    }
  };
  const panel = h("details", { class: "how-to-play", ontoggle: load }, words(h("summary"), () => t("demo.how_to_play")), body);
  onLanguage(load);
  return panel;
}

/** The rules text's blocks as elements: a line in capitals is a heading, `- ` starts an item
 * (its further lines indented by two), a line indented by four is an example, the rest are
 * paragraphs (the layout `arbiter rules` reads, cli/src/rules.rs). */
function rulesBlocks(source) {
  const out = [];
  let open = null; // { kind: "p" | "li" | "pre", text }
  let list = null;
  const close = () => {
    if (!open) return;
    if (open.kind === "li") list.append(h("li", {}, open.text));
    else out.push(h(open.kind, {}, open.text));
    open = null;
  };
  for (const line of source.split("\n")) {
    const example = line.startsWith("    ");
    const more = open && ((open.kind === "li" && line.startsWith("  ") && !example) || (open.kind === "p" && line && !line.startsWith(" ") && !line.startsWith("- ")) || (open.kind === "pre" && example));
    if (more) {
      open.text += open.kind === "pre" ? `\n${line.slice(4)}` : ` ${line.trim()}`;
      continue;
    }
    close();
    if (!line.startsWith("- ") && !line.startsWith("  ")) list = null;
    if (!line.trim()) continue;
    if (example) open = { kind: "pre", text: line.slice(4) };
    else if (line.startsWith("- ")) {
      if (!list) out.push((list = h("ul")));
      open = { kind: "li", text: line.slice(2) };
    } else if (/[A-Z]/.test(line) && line === line.toUpperCase()) out.push(h("h3", {}, line));
    else open = { kind: "p", text: line };
  }
  close();
  return out;
}

/** The heading of the section block `i` of `blocks` is in. */
function sectionOf(blocks, i) {
  for (let j = i; j >= 0; j--) if (blocks[j].tagName === "H3") return blocks[j].textContent;
  return "";
}

/** The line that says what the current decision means, under the message line. */
export function helpLine() {
  return h("p", { class: "help-line" });
}

/** The toolbar's hint button: `onclick` shows the strongest computer player's move. */
export function hintButton(onclick) {
  return words(h("button", { type: "button", class: "hint-button", title: t("demo.hint_title"), dataset: { i18nTitle: "demo.hint_title" }, onclick }), () => t("demo.hint"));
}

/** The game's message line: read out by screen readers as it changes. */
export function messageLine() {
  return h("p", { class: "message", role: "status", "aria-live": "polite" });
}

/** Server codes whose message adds what the code cannot say (the core's reason, a wait, which
 * rule): the page words the code, then gives the server's detail. */
const DETAILED = new Set(["bad_challenge", "bad_move", "illegal_move", "bad_message", "login_throttled", "too_many_logins", "deck_unusable", "bad_stake", "bad_custom_card", "too_few_cards"]);

/** A refusal in the page's words: a server's by its code (server/PROTOCOL.md), a lost
 * connection as such; the engine's own `ArbiterError`s (the offline games') carry their words. */
export function describeError(e) {
  if (e?.serverCode) {
    const key = `error.${e.serverCode}`;
    if (!has(key)) return t("error.unknown", { code: e.serverCode, detail: e.message });
    return DETAILED.has(e.serverCode) && e.message ? t("error.detailed", { text: t(key), detail: e.message }) : t(key);
  }
  if (e && typeof e === "object" && "closeCode" in e) return t("error.connection");
  return e && e.code ? `${e.message} (${e.code})` : String(e?.message ?? e);
}

/** Runs `fn` with a copy the engine hands out (a round, a clone) and frees it afterwards. */
export function using(object, fn) {
  try {
    return fn(object);
  } finally {
    object.free();
  }
}

/** What every game's view does as a game starts: a new generation, so that the steps still
 * pending for the previous game (animations, the computer's turns) see that they are stale and
 * stop, and the seed remembered and shown. */
export class GameView {
  restart(seed) {
    // A search still running for the previous game is called off: the worker is free at once.
    this.thinking?.abort();
    this.generation = (this.generation ?? 0) + 1;
    this.seed = seed;
    this.tools.showSeed(seed);
  }

  /** The move of the computer's `level` in `game`, chosen on the worker. Resolves to `undefined`
   * when a new game started meanwhile (callers check the generation after every wait). */
  async think(game, level, seed) {
    this.thinking = new AbortController();
    try {
      return await ai.chooseMove(game, level, seed, { signal: this.thinking.signal });
    } catch (e) {
      if (e?.name === "AbortError") return undefined;
      throw e;
    }
  }

  /** The hint the terminal gives: the move the strongest of `levels` would make for the person
   * in `game` (its turn), in `wording(move)`'s words, on the help line (`data-hint` holds the
   * move). */
  async hint(game, levels, wording) {
    if (this.busy) return;
    const generation = this.generation;
    words(this.help, () => t("demo.hint_thinking"));
    const move = await this.think(game, levels.at(-1), this.seed + 1);
    if (generation !== this.generation || move === undefined || this.busy) return;
    this.help.dataset.hint = move;
    words(this.help, () => t("demo.hint_says", { move: wording(move) }));
  }

  /** Says what the person's decision now means (`draw()`'s words; `null` while it is not their
   * turn). */
  explain(draw) {
    // A hint stays on show until the decision changes (the last one worded anew, so that a
    // switch of language changes no decision).
    const said = () => draw?.() ?? "";
    if (this.explained?.() === said()) return;
    this.explained = said;
    delete this.help.dataset.hint;
    words(this.help, said);
  }

  /** Shows the game just set up and lets the computer move while it is its turn. */
  run() {
    this.section.dataset.state = "playing";
    this.busy = false;
    this.render();
    this.advance();
  }
}

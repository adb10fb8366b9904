// What the three games' pages share: an element builder, animation pauses, the toolbar (new
// game, seed, the computer's level), the message line and the computer's thinking, which runs on
// the engine's worker so that the page keeps drawing while a strong level searches.
import { ArbiterWorker } from "arbiter-engine/worker";
import { has, t } from "./i18n.js";

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

/** `?fast` in the address shortens every animation and pause to nothing (the browser tests use
 * it; what is shown and what must be clicked stay the same). */
export const fast = new URLSearchParams(location.search).has("fast");
if (fast) document.documentElement.dataset.fast = "";

/** Waits `ms` milliseconds, or only until the next frame in fast mode, so that what was drawn
 * is painted before the next step either way. */
export function pause(ms) {
  return new Promise((resolve) => (fast ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, ms)));
}

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
    "aria-label": "Seed",
    class: "seed",
    name: `${game}-seed`,
  });
  const levelSelect = h(
    "select",
    { "aria-label": "Computer level", name: `${game}-level` },
    levels.map((l) => h("option", { value: l, selected: l === level }, l)),
  );
  const playSeed = () => {
    const seed = Number(seedInput.value);
    if (Number.isSafeInteger(seed) && seed >= 0) start(seed);
    else seedInput.setCustomValidity("a whole number from 0"), seedInput.reportValidity();
  };
  seedInput.addEventListener("input", () => seedInput.setCustomValidity(""));
  seedInput.addEventListener("keydown", (e) => e.key === "Enter" && playSeed());
  const bar = h(
    "div",
    { class: "toolbar" },
    h("button", { type: "button", class: "primary", onclick: () => start(randomSeed()) }, "New game"),
    h("label", {}, "Seed ", seedInput),
    h("button", { type: "button", onclick: playSeed }, "Play seed"),
    h("label", {}, "Computer ", levelSelect),
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

  /** Shows the game just set up and lets the computer move while it is its turn. */
  run() {
    this.section.dataset.state = "playing";
    this.busy = false;
    this.render();
    this.advance();
  }
}

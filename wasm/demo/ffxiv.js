// The Triple Triad tab's Final Fantasy XIV opponents: the game's NPCs with their rules and decks
// (arbiter-engine/ffxiv: the core's data files, JSON beside the .wasm). A match against one is
// dealt here from the game's seed: the NPC's hand from its deck (every fixed card, then distinct
// variable ones), yours from every card under the deck rule (three of 1 to 3 stars, one of 4, one
// of 5: the most a deck may hold of each, rules/triple-triad-ffxiv.md, section 3).
import { ffxivCards, ffxivNpcs } from "arbiter-engine/ffxiv";

let loaded = null;

/** The cards by id and the NPCs, fetched once. */
export function loadFfxiv() {
  loaded ??= Promise.all([ffxivCards(), ffxivNpcs()]).then(([{ cards }, { npcs }]) => ({ cards: new Map(cards.map((c) => [c.id, c])), npcs }));
  return loaded;
}

/** A generator of numbers in [0, 1) from the seed (mulberry32 over both halves of it): the demo's
 * own deal, which the engine then replays from the hands it is given. */
function generator(seed) {
  let a = (seed >>> 0) ^ Math.floor(seed / 2 ** 32);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** `k` distinct items of `pool`, each choice equally likely, in the order drawn. */
function draw(pool, k, random) {
  const left = [...pool];
  return Array.from({ length: k }, () => left.splice(Math.floor(random() * left.length), 1)[0]);
}

/** A card as a match takes it: the English name (the engine's moves name it), ranks, type. */
const matchCard = (c) => ({ name: c.name.en, ranks: c.ranks, type: c.type });

/** The two hands of a match against `npc`: red the NPC's, blue yours. */
export function npcDeal({ cards }, npc, seed) {
  const random = generator(seed);
  const red = [...npc.fixed, ...draw(npc.variable, 5 - npc.fixed.length, random)];
  const ids = (stars) => [...cards.values()].filter((c) => stars.includes(c.rarity)).map((c) => c.id);
  const blue = draw([...draw(ids([1, 2, 3]), 3, random), ...draw(ids([4]), 1, random), ...draw(ids([5]), 1, random)], 5, random);
  return { blue: blue.map((id) => matchCard(cards.get(id))), red: red.map((id) => matchCard(cards.get(id))) };
}

/** The NPC's rules as the match's flags: its own on, every other off; Same and Plus chain, as
 * FFXIV always chains them (the spec's Combo). */
export function npcRules(npc, flags) {
  const on = new Set(npc.rules);
  if (on.has("same") || on.has("plus")) on.add("combo");
  return Object.fromEntries(flags.map((flag) => [flag, on.has(flag)]));
}

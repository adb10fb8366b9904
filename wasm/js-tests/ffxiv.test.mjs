// arbiter-engine/ffxiv: Final Fantasy XIV's cards and NPCs, the core's data files shipped as JSON
// (dist/data/), not baked into the .wasm; a round against an NPC's hand under its rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { ffxivCards, ffxivNpcs } from "arbiter-engine/ffxiv";
import { TripleTriad, describe } from "arbiter-engine";

const core = (file) => JSON.parse(readFileSync(new URL(`../../core/data/${file}`, import.meta.url), "utf8"));

test("the documents are the core's data files", async () => {
  assert.deepEqual(await ffxivCards(), core("ffxiv-cards.json"));
  assert.deepEqual(await ffxivNpcs(), core("ffxiv-npcs.json"));
  // The same files through the package's JSON exports.
  const require = createRequire(import.meta.url);
  assert.deepEqual(require("arbiter-engine/data/ffxiv-npcs.json"), core("ffxiv-npcs.json"));
  // Each call gives the caller its own copy.
  const a = await ffxivCards();
  a.cards.length = 0;
  assert.equal((await ffxivCards()).cards.length, 444);
});

test("cards, types and NPC rules as the engine reads them", async () => {
  const { cards } = await ffxivCards();
  const { npcs } = await ffxivNpcs();
  assert.equal(npcs.length, 128);
  const chocobo = cards.find((c) => c.name.en === "Chocobo");
  assert.deepEqual(chocobo.ranks, [3, 7, 2, 1]);
  assert.equal(cards.filter((c) => c.type !== "none").length, 444 - 333);
  const flags = describe("triple-triad").options.find((o) => o.name === "rules").values;
  for (const n of npcs) for (const rule of n.rules) assert.ok(flags.includes(rule), `${n.name.en}: ${rule}`);

  // Baderon's fixed cards and two variable ones, under his rules, against five cards of blue's.
  const baderon = npcs.find((n) => n.name.en === "Baderon");
  const byId = new Map(cards.map((c) => [c.id, c]));
  const card = (id) => ({ name: byId.get(id).name.en, ranks: byId.get(id).ranks, type: byId.get(id).type });
  const red = [...baderon.fixed, ...baderon.variable.slice(0, 2)].map(card);
  const moogle = cards.find((c) => c.name.en === "Moogle");
  const blue = [moogle.id, 1, 2, 3, 4].map(card);
  const rules = Object.fromEntries(baderon.rules.map((r) => [r, true]));
  const g = TripleTriad.fromJSON({ rules: { ...rules, ascension: true }, board: Array(9).fill(null), hands: { blue, red }, to_move: "blue" });
  assert.equal(g.observation("blue").hand[0].type, "beastman");
  g.play("0@4");
  assert.equal(g.toJSON().board[4].card.type, "beastman");
  g.free();
});

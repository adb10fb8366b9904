// The page's catalogs (wasm/demo/i18n-*.js): both languages have the same keys, the same holes
// and plural forms; every key is used by the page, and every code the server or the engine sends
// (error codes, rules, winner rules, sudden death) has its words. Also the choice of language
// from the browser's list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { describe, Nantong, Trax, TripleTriad } from "arbiter-engine";
import en from "../demo/i18n-en.js";
import fr from "../demo/i18n-fr.js";
import { fromBrowser } from "../demo/i18n.js";

const read = (path) => readFileSync(new URL(path, import.meta.url), "utf8");
const DEMO = new URL("../demo/", import.meta.url);
const SOURCES = readdirSync(DEMO)
  .filter((f) => /\.(js|html)$/.test(f) && !f.startsWith("i18n-"))
  .map((f) => read(`../demo/${f}`))
  .join("\n");
const CATALOGS = { en, fr };

/** The `{name}` holes of an entry (all its plural forms). */
const holes = (entry) => new Set([...JSON.stringify(entry).matchAll(/\{(\w+)\}/g)].map((m) => m[1]));

/** The keys of a family (`error.`), without the prefix. */
const family = (catalog, prefix) => Object.keys(catalog).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));

test("English and French have the same keys and holes, and whole plural forms", () => {
  assert.deepEqual(Object.keys(fr).sort(), Object.keys(en).sort());
  for (const [key, words] of Object.entries(en)) {
    assert.deepEqual(holes(fr[key]), holes(words), `the holes of ${key}`);
    // Each language says for itself whether an entry varies with {count}.
    for (const catalog of [en, fr]) {
      const entry = catalog[key];
      if (typeof entry === "object") assert.deepEqual(Object.keys(entry).sort(), ["one", "other"], `${key}: one and other`);
      else assert.equal(typeof entry, "string", key);
    }
  }
});

test("every key is used by the page, by name or through its family's code", () => {
  // Families read with a code: `t(\`rule.${r}\`)` and the like, in any template literal.
  const families = [...SOURCES.matchAll(/`([a-z_.!-]+)\.\$\{/g)].map((m) => `${m[1]}.`);
  const unused = Object.keys(en).filter((key) => !SOURCES.includes(`"${key}"`) && !families.some((f) => key.startsWith(f) && !key.slice(f.length).includes(".")));
  assert.deepEqual(unused, [], "keys nobody reads");
  // And the other way: every key named in the page is in the catalogs.
  const named = [...SOURCES.matchAll(/\bt\("([a-z_.!-]+)"/g), ...SOURCES.matchAll(/data-i18n(?:-html|-label)?="([a-z_.]+)"/g)].map((m) => m[1]);
  assert.ok(named.length > 200, `the page names its keys (${named.length})`);
  for (const key of named) assert.ok(key in en, `${key} is in the catalogs`);
});

test("every error code of PROTOCOL.md has words, and nothing else is worded as one", () => {
  const protocol = read("../../server/PROTOCOL.md");
  // The rows of the tables of error codes, but for the closes, which are no `error` frame.
  const rows = [...protocol.matchAll(/^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \|(.*)\|$/gm)].filter(([, , when]) => !when.includes("not an error frame"));
  const codes = new Set(rows.flatMap(([, cells]) => [...cells.matchAll(/`([a-z_]+)`/g)].map((m) => m[1])));
  for (const code of codes) assert.ok(`error.${code}` in en, `error.${code}`);
  const page = new Set(["detailed", "unknown", "connection"]);
  for (const code of family(en, "error.")) assert.ok(codes.has(code) || page.has(code), `error.${code} is a code of PROTOCOL.md`);
});

test("every rule, winner rule, sudden death and computer level the engine declares has its name", () => {
  const option = (name) => describe("triple-triad").options.find((o) => o.name === name);
  const rules = option("rules");
  assert.deepEqual(family(en, "rule.").sort(), [...rules.values, ...rules.numbers.map((n) => n.name)].sort());
  assert.deepEqual(family(en, "trade.").sort(), [...option("trade").values].sort());
  assert.deepEqual(family(en, "sudden_death.").sort(), [...option("sudden_death").values].sort());
  assert.deepEqual(family(en, "level.").sort(), [...new Set([...TripleTriad.levels, ...Trax.levels, ...Nantong.levels])].sort());
  // The French server's own words (../shared/seeds/triple-triad-ttonline-fr.txt).
  for (const [rule, words] of Object.entries({ random: "Aléatoire", power_walls: "Mur puissant", elemental: "Élémentaire", same: "Identique", plus: "Plus", combo: "Combo", same_wall: "Même mur", plus_wall: "Mur additionnel", battle: "Bataille", borderless: "Mur cassé" })) {
    assert.ok(fr[`rule.${rule}`].startsWith(words), `rule.${rule}: ${fr[`rule.${rule}`]}`);
  }
  assert.ok(fr["trade.training"].startsWith("Entraînement"));
});

test("the language is the first of the browser's the page has, else English", () => {
  assert.equal(fromBrowser(["fr-FR", "en-US"]), "fr");
  assert.equal(fromBrowser(["de-DE", "FR-ca", "en"]), "fr");
  assert.equal(fromBrowser(["en-GB", "fr"]), "en");
  assert.equal(fromBrowser(["de", "ja"]), "en");
  assert.equal(fromBrowser([]), "en");
  assert.equal(fromBrowser(undefined), "en");
});

test("no French entry is left in English words", () => {
  // Entries written alike in both are names: the games', Combo, Plus, Chat, the level numbers.
  const names = new Set(["game.triple-triad", "game.trax", "game.nantong", "rule.combo", "rule.plus", "rule.open", "chat.title", "panel.decks", "picker.deck", "stats.points", "stats.gils", "element.poison", "level.expert"]);
  // The demo's: the same rule names, Final Fantasy VIII, the French server's "power", and the
  // Chinese words of Nantong (pong, kong, Tiandi Hezi and the forms of a winning hand).
  for (const key of ["demo.capture.plus", "demo.capture.combo", "demo.preset.ff8", "demo.tt.power", "demo.tt.card_power", "demo.nt.action.pong", "demo.nt.action.kong", "demo.nt.meld.pong", "demo.nt.meld.exposed_kong", "demo.nt.meld.hezi", "demo.nt.score.qing_hu", "demo.nt.score.piao_hu", "demo.nt.score.tazi_hu", "demo.nt.score.wenqian"]) names.add(key);
  const same = Object.keys(en).filter((k) => typeof en[k] === "string" && en[k] === fr[k] && /[a-z]{3,}/i.test(en[k].replace(/\{\w+\}/g, "")));
  assert.deepEqual(same.filter((k) => !names.has(k)), []);
});

// describe(): the core's options of each game, and the package's literal types held to them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, describeAll } from "arbiter-engine";
import { ArbiterClient } from "arbiter-engine/client";
import { throwsArbiter } from "./helpers.mjs";

const source = (path) => readFileSync(new URL(path, import.meta.url), "utf8");
const TYPES = source("../src/types.d.ts");
const CLIENT_TYPES = source("../js/client.d.ts");

/** The string literals of `export type NAME = "a" | "b" ...;` in a declaration file. */
function literals(text, name) {
  const m = text.match(new RegExp(`export type ${name} =([^;]*);`));
  assert.ok(m, `no type ${name}`);
  return [...m[1].matchAll(/"([^"]*)"/g)].map((l) => l[1]);
}

/** The field names of `export interface NAME { ... }`. */
function fields(text, name) {
  const m = text.match(new RegExp(`export interface ${name} \\{([^}]*)\\}`));
  assert.ok(m, `no interface ${name}`);
  return [...m[1].matchAll(/^\s*(\w+)\??:/gm)].map((f) => f[1]);
}

const option = (game, name) => describe(game).options.find((o) => o.name === name);

test("describe() gives every game's options, describeAll() all of them in order", () => {
  const all = describeAll();
  assert.deepEqual(all.map((d) => d.game), literals(TYPES, "GameName"));
  for (const d of all) assert.deepEqual(describe(d.game), d);
  assert.deepEqual(option("trax", "variant"), { name: "variant", kind: "choice", values: ["8x8", "unbounded", "loop"], default: "8x8" });
  assert.deepEqual(option("nantong", "deals"), { name: "deals", kind: "number", min: 1, max: 16, default: 4 });
  assert.deepEqual(describe("triple-triad").requires, [["same_wall", "same"], ["plus_wall", "plus"]]);
  throwsArbiter(() => describe("chess"), "BAD_ARGUMENT");
  throwsArbiter(() => describe(7), "BAD_ARGUMENT");
});

test("the literal types are the values describe() declares", () => {
  const same = (type, values) => assert.deepEqual([...type].sort(), [...values].sort());
  same(literals(TYPES, "TripleTriadPreset"), option("triple-triad", "preset").values);
  same(literals(TYPES, "SuddenDeath"), option("triple-triad", "sudden_death").values);
  same(literals(TYPES, "TradeRule"), option("triple-triad", "trade").values);
  same(literals(CLIENT_TYPES, "TradeRuleName"), option("triple-triad", "trade").values);
  same(literals(TYPES, "TraxVariant"), option("trax", "variant").values);
  const rules = option("triple-triad", "rules");
  same(fields(TYPES, "TripleTriadRules"), [...rules.values, ...rules.numbers.map((n) => n.name)]);
});

test("the client's describe() is the welcome's, which the demo's online tab reads", () => {
  const options = describe("trax");
  const client = { welcome: { games: { trax: { options } } } };
  assert.equal(ArbiterClient.prototype.describe.call(client, "trax"), options);
  assert.equal(ArbiterClient.prototype.describe.call({ welcome: null }, "trax"), null);
});

// The picking window in Chromium against a real arbiter-server (`--pick-seconds`): an English
// page challenges a French one to Triple Triad naming no cards; once the French player accepts,
// both pages show the picker with a countdown that runs down; the English player picks five and
// is told whom the game waits for (never what was picked), the French player picks five in French,
// and the match starts on both pages. Screenshots in target/screenshots/evening/picking-*.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ArbiterClient } from "arbiter-engine/client";
import { startServer } from "./server.mjs";
import { launch, openOnline, pickFive, register } from "./pages.mjs";

const shots = fileURLToPath(new URL("../../../target/screenshots/evening/", import.meta.url));
const STEP = { timeout: 20_000 };
const PASSWORD = "correct horse battery";
/** Long enough for a loaded machine's pages to pick by clicking. */
const PICK_SECONDS = 90;

let server, browser;
let serial = 0;

before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer({ env: { ARBITER_PICK_SECONDS: String(PICK_SECONDS) } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A person registered from a page in `locale`'s language (its labels `words`), with the
 * starter set taken (through a connection of their own: the page is what is tested). */
async function person(locale, words) {
  const p = await register(await openOnline(browser, server, { locale, height: 800 }), `pick${Date.now() % 100000}${++serial}`, PASSWORD, words, STEP);
  const name = p.name;
  const client = await ArbiterClient.connect(`${server.url.replace("http", "ws")}/ws`, { reconnect: false });
  await client.login(name, PASSWORD);
  await client.request({ type: "tt_starter" });
  client.close();
  return p;
}

const EN = { name: "Name", password: "Password", register: "Register", add: "Add", use: "Play these five" };
const FR = { name: "Nom", password: "Mot de passe", register: "Créer un compte", add: "Ajouter", use: "Jouer ces cinq-là" };

/** The seconds `p`'s countdown shows. */
const seconds = async (p) => Number(await p.section.locator(".online-picker").getAttribute("data-seconds"));


test("the picker opens with a countdown once every seat is taken, and the last pick starts the game", async () => {
  const en = await person("en-GB", EN);
  const fr = await person("fr-FR", FR);
  const form = en.section.locator(".online-new");
  await form.getByLabel("Seat 2", { exact: true }).selectOption("player");
  await form.getByLabel("Seat 2 player").fill(fr.name);
  await form.getByRole("button", { name: "Challenge" }).click();
  const offer = fr.section.locator('.online-challenges li[data-game="triple-triad"]', { hasText: en.name });
  await offer.getByRole("button", { name: "Accepter" }).click(STEP);

  // Both pages: the picker open with its countdown, in each page's language.
  for (const p of [en, fr]) {
    await p.section.locator('.online-picker[data-window="pick"] .online-picker-panel:not([hidden])').waitFor(STEP);
    const s = await seconds(p);
    assert.ok(s > PICK_SECONDS - 30 && s <= PICK_SECONDS, `${s} s left`);
  }
  assert.match(await en.section.locator(".online-picker-countdown").textContent(), /^Every seat is taken: pick your five cards\. \d+ s left/);
  assert.match(await fr.section.locator(".online-picker-countdown").textContent(), /^Toutes les places sont prises : choisissez vos cinq cartes\. Encore \d+ s/);
  const first = await seconds(fr);
  await fr.page.waitForFunction((s) => Number(document.querySelector("#online .online-picker").dataset.seconds) < s, first, STEP);
  await fr.page.screenshot({ path: `${shots}picking-fr-window.png` });
  await en.page.screenshot({ path: `${shots}picking-en-window.png` });

  // English picks first: told whom the game waits for; no card of the other's in any frame.
  await pickFive(en, STEP);
  await en.section.locator('.online-picker[data-window="wait"]').waitFor(STEP);
  assert.match(await en.section.locator(".online-picker-countdown").textContent(), new RegExp(`^Waiting for ${fr.name} to pick their five cards: \\d+ s left\\.$`));
  await en.page.screenshot({ path: `${shots}picking-en-waiting.png` });
  assert.equal(await fr.section.locator(".online-picker").getAttribute("data-window"), "pick");
  await fr.page.setViewportSize({ width: 390, height: 844 });
  await fr.page.screenshot({ path: `${shots}picking-fr-phone.png`, fullPage: true });
  await fr.page.setViewportSize({ width: 1280, height: 800 });
  const sentBefore = en.frames.length;
  await pickFive(fr, STEP);
  for (const p of [en, fr]) {
    await p.page.waitForFunction(() => document.getElementById("online").dataset.state === "match", null, STEP);
    assert.equal(await p.section.locator(".online-picker").getAttribute("data-window"), null, "the window closed");
  }
  await fr.page.screenshot({ path: `${shots}picking-fr-match.png` });
  const told = en.frames.slice(sentBefore).map((f) => JSON.parse(f));
  assert.ok(!told.some((f) => f.type === "picked"), "the other's pick is answered to them only");
  for (const f of told.filter((f) => f.type === "picking" || f.type === "challenge_closed")) assert.ok(!("cards" in f) && !("deck" in f), JSON.stringify(f));
  assert.deepEqual([...en.errors, ...fr.errors], []);
});

// The picking window in Chromium against a real arbiter-server (`--pick-seconds`): an English
// page challenges a French one to Triple Triad naming no cards; once the French player accepts,
// both pages show the picker with a countdown that runs down; the English player picks five and
// is told whom the game waits for (never what was picked), the French player picks five in French,
// and the match starts on both pages. Screenshots in target/screenshots/evening/picking-*.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { ArbiterClient } from "arbiter-engine/client";
import { startServer } from "./server.mjs";

const shots = fileURLToPath(new URL("../../../target/screenshots/evening/", import.meta.url));
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const STEP = { timeout: 20_000 };
const PASSWORD = "correct horse battery";
/** Long enough for a loaded machine's pages to pick by clicking. */
const PICK_SECONDS = 90;

let server, browser;
let serial = 0;

before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer({ env: { ARBITER_PICK_SECONDS: String(PICK_SECONDS) } });
  browser = await chromium.launch({ executablePath, args });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A person registered from a page in `locale`'s language (its labels `words`), with the
 * starter set taken (through a connection of their own: the page is what is tested). */
async function person(locale, words) {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  const frames = [];
  page.on("websocket", (ws) => ws.on("framereceived", ({ payload }) => frames.push(String(payload))));
  await page.goto(`${server.url}/demo/?fast#online`);
  const section = page.locator("#online");
  const name = `pick${Date.now() % 100000}${++serial}`;
  await section.getByLabel(words.name, { exact: true }).fill(name);
  await section.getByLabel(words.password).fill(PASSWORD);
  await section.getByRole("button", { name: words.register }).click();
  await page.waitForFunction(() => document.getElementById("online").dataset.state === "lobby", null, STEP);
  const client = await ArbiterClient.connect(`${server.url.replace("http", "ws")}/ws`, { reconnect: false });
  await client.login(name, PASSWORD);
  await client.request({ type: "tt_starter" });
  client.close();
  return { context, page, section, name, errors, frames, words };
}

const EN = { name: "Name", password: "Password", register: "Register", add: "Add", use: "Play these five" };
const FR = { name: "Nom", password: "Mot de passe", register: "Créer un compte", add: "Ajouter", use: "Jouer ces cinq-là" };

/** The seconds `p`'s countdown shows. */
const seconds = async (p) => Number(await p.section.locator(".online-picker").getAttribute("data-seconds"));

/** `p` adds five cards of its collection in the open picker and plays them. */
async function pickFive(p) {
  const picker = p.section.locator(".online-picker");
  await picker.locator(".online-picker-pool .cards-tile").first().waitFor(STEP);
  for (let n = 1; n <= 5; n++) {
    await picker.locator(".online-picker-pool button:not([disabled])", { hasText: p.words.add }).first().click();
    await picker.locator(`.online-picker-chosen[data-count="${n}"]`).waitFor(STEP);
  }
  await picker.getByRole("button", { name: p.words.use }).click();
}

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
  await pickFive(en);
  await en.section.locator('.online-picker[data-window="wait"]').waitFor(STEP);
  assert.match(await en.section.locator(".online-picker-countdown").textContent(), new RegExp(`^Waiting for ${fr.name} to pick their five cards: \\d+ s left\\.$`));
  await en.page.screenshot({ path: `${shots}picking-en-waiting.png` });
  assert.equal(await fr.section.locator(".online-picker").getAttribute("data-window"), "pick");
  await fr.page.setViewportSize({ width: 390, height: 844 });
  await fr.page.screenshot({ path: `${shots}picking-fr-phone.png`, fullPage: true });
  await fr.page.setViewportSize({ width: 1280, height: 800 });
  const sentBefore = en.frames.length;
  await pickFive(fr);
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

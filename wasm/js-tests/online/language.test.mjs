// The Online tab in French and English, in Chromium against a real arbiter-server: a browser whose
// language is French gets the page in French (refusals worded from the server's codes, never its
// English sentence nor an engine code), registers, plays a computer player; the switch puts the
// page in English and the account keeps the choice: a fresh French browser that logs in finds
// English. Screenshots of the lobby and a match in both languages: target/demo-shots/language-*.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ArbiterClient } from "arbiter-engine/client";
import { startServer } from "./server.mjs";
import { launch, openOnline } from "./pages.mjs";

const shots = fileURLToPath(new URL("../../../target/demo-shots/", import.meta.url));
const STEP = { timeout: 20_000 };
const PASSWORD = "correct horse battery";

let server, browser;

before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh browser (no kept choice) whose languages are `locale`'s, on the Online tab. */
async function open(locale) {
  const p = await openOnline(browser, server, { locale });
  // Before the page's script runs there is no message line at all: wait for words in it.
  await p.page.waitForFunction(() => (document.querySelector("#online .message")?.textContent ?? "") !== "", null, STEP);
  return p;
}

const inState = (p, state) => p.page.waitForFunction((s) => document.getElementById("online").dataset.state === s, state, STEP);
const message = (p) => p.section.locator(".message").textContent();

/** The account's language as the server gives it at a login. */
async function kept(name) {
  const client = await ArbiterClient.connect(`${server.url.replace("http", "ws")}/ws`, { reconnect: false });
  try {
    return (await client.login(name, PASSWORD)).language;
  } finally {
    client.close();
  }
}

test("a French browser gets the page in French; the switch to English is kept in the account", async () => {
  const name = `lang${Date.now() % 100000}`;
  const fr = await open("fr-FR");
  const { page, section } = fr;
  assert.equal(await page.getAttribute("html", "lang"), "fr");
  assert.equal(await page.locator('nav a[data-game="online"]').textContent(), "En ligne");
  assert.equal(await page.locator('.language button[data-language="fr"]').getAttribute("aria-pressed"), "true");
  assert.match(await message(fr), /^Connecté à arbiter-server/);
  assert.equal(await section.locator(".online-login h2").textContent(), "Jouer en ligne");

  // Refusals worded from the server's codes (#36 item 10): no English sentence, no engine code.
  await section.getByLabel("Nom", { exact: true }).fill(name);
  await section.getByLabel("Mot de passe").fill(PASSWORD);
  await section.getByRole("button", { name: "Se connecter" }).click();
  await page.waitForFunction(() => document.querySelector("#online .message").textContent.startsWith("Connexion refusée"), null, STEP);
  assert.equal(await message(fr), "Connexion refusée : Nom ou mot de passe incorrect.");
  await section.getByLabel("Mot de passe").fill("short");
  await section.getByRole("button", { name: "Créer un compte" }).click();
  await page.waitForFunction(() => document.querySelector("#online .message").textContent.startsWith("Compte non créé"), null, STEP);
  assert.equal(await message(fr), "Compte non créé : Un mot de passe fait 8 à 128 caractères.");

  // Registered from a French page: the account keeps French.
  await section.getByLabel("Mot de passe").fill(PASSWORD);
  await section.getByRole("button", { name: "Créer un compte" }).click();
  await inState(fr, "lobby");
  assert.equal(await message(fr), `Bienvenue, ${name}.`);
  assert.equal(await kept(name), "fr");
  for (const words of ["Défis ouverts", "Parties en cours", "Robots", "Salon", "Collection", "Boutique", "Se déconnecter"]) {
    assert.ok((await section.textContent()).includes(words), `the lobby says « ${words} »`);
  }
  const form = section.locator(".online-new");
  await form.getByLabel("Règles prédéfinies").selectOption("mush");
  await form.getByLabel("Place 2", { exact: true }).selectOption("computer");
  await form.getByRole("button", { name: "Défier" }).click();
  await inState(fr, "match");
  const rules = await section.locator(".online-match-rules").textContent();
  for (const words of ["Règles : Identique, Même mur, Plus, Combo, Élémentaire", "valeurs gardées entre 1 et 10", "aucun enjeu", "mort subite avec les mains d’origine", "limite de niveau 20", "60 s par coup", "tout le monde peut regarder"]) {
    assert.ok(rules.includes(words), `the match's rules say « ${words} »: ${rules}`);
  }
  assert.match(await section.locator(".online-rounds").textContent(), /^Manche 1$/);
  // A card played (after the computer's, when it moves first): the move list and the turn in French.
  await page.waitForFunction(() => document.querySelector("#online .online-match").dataset.turn === "you", null, STEP);
  assert.equal(await section.locator(".online-status").textContent(), "À vous de jouer.");
  await section.locator(".hand.blue button[data-index='0']").click();
  await section.locator(".tt-board .cell.legal").first().click();
  await page.waitForFunction(() => document.querySelector("#online .online-match").dataset.turn === "you" && document.querySelectorAll("#online .online-moves li").length >= 2, null, STEP);
  assert.match(await section.locator(".tt-board .cell.taken").first().getAttribute("aria-label"), /^(en haut|en bas|à gauche|à droite|au centre)[^:]*: .+ \((bleu|rouge)\)/);
  assert.equal(await section.getByRole("button", { name: "Retour au salon" }).count(), 1);
  await page.screenshot({ path: `${shots}language-match-fr.png` });
  await section.getByRole("button", { name: "Retour au salon" }).click();
  await inState(fr, "lobby");
  await page.screenshot({ path: `${shots}language-lobby-fr.png` });

  // The switch: everything worded again in English, and the account told.
  await page.locator('.language button[data-language="en"]').click();
  assert.equal(await page.getAttribute("html", "lang"), "en");
  assert.equal(await page.locator('nav a[data-game="online"]').textContent(), "Online");
  for (const words of ["Open challenges", "Matches in progress", "Computer players", "Log out"]) {
    assert.ok((await section.textContent()).includes(words), `the lobby says "${words}"`);
  }
  // The challenge form keeps the choices made in French.
  assert.equal(await form.getByLabel("Preset").inputValue(), "mush");
  assert.equal(await form.getByLabel("Seat 2", { exact: true }).inputValue(), "computer");
  assert.equal(await form.getByLabel("Seat 2 level").isVisible(), true);
  await section.locator(".online-yours li button").first().click();
  await inState(fr, "match");
  assert.ok((await section.locator(".online-match-rules").textContent()).includes("Rules: Same, Same Wall, Plus, Combo, Elemental"));
  assert.equal(await section.getByRole("button", { name: "Back to the lobby" }).count(), 1);
  await page.screenshot({ path: `${shots}language-match-en.png` });
  await section.getByRole("button", { name: "Back to the lobby" }).click();
  await inState(fr, "lobby");
  await page.screenshot({ path: `${shots}language-lobby-en.png` });
  for (let i = 0; i < 50 && (await kept(name)) !== "en"; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(await kept(name), "en", "the account keeps the switch");

  // Logged out and in again from another French browser: the account's English wins.
  await section.getByRole("button", { name: "Log out" }).click();
  await inState(fr, "login");
  assert.equal(await message(fr), "Logged out.");
  // The page connects again behind it (a second welcome) and still says why it is at the login.
  const welcomes = () => fr.frames.filter((f) => JSON.parse(f).type === "welcome").length;
  for (let i = 0; i < 100 && welcomes() < 2; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(welcomes(), 2);
  assert.equal(await message(fr), "Logged out.");
  assert.deepEqual(fr.errors, []);
  await fr.context.close();
  const again = await open("fr-FR");
  assert.equal(await again.section.locator(".online-login h2").textContent(), "Jouer en ligne");
  await again.section.getByLabel("Nom", { exact: true }).fill(name);
  await again.section.getByLabel("Mot de passe").fill(PASSWORD);
  await again.section.getByRole("button", { name: "Se connecter" }).click();
  await inState(again, "lobby");
  assert.equal(await again.page.getAttribute("html", "lang"), "en");
  assert.equal(await again.page.locator('.language button[data-language="en"]').getAttribute("aria-pressed"), "true");
  assert.equal(await message(again), `Welcome, ${name}.`);
  assert.ok((await again.section.textContent()).includes("Open challenges"));
  assert.deepEqual(again.errors, []);
  await again.context.close();
});

// The French server's evening (issue #35), one scripted run in Chromium against a real
// arbiter-server: a French player registers, picks five cards, challenges Mog-Facile under
// Aléatoire + Élémentaire + Mur puissant with a winner rule, says `!aide` in the lobby's chat and
// answers a quiz question, then plays a person (a second browser context, in English) for a card
// on a 15 s clock, to the end of the game and the card changing hands. Screenshots of each step,
// on the French page and the English one: target/screenshots/evening/NN-*.png (not committed).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ArbiterClient } from "arbiter-engine/client";
import { startServer } from "./server.mjs";
import { clickTripleTriadMove, launch, openOnline, pickFive as pickAll, register } from "./pages.mjs";

const shots = fileURLToPath(new URL("../../../target/screenshots/evening/", import.meta.url));
const STEP = { timeout: 30_000 };
const PASSWORD = "correct horse battery";
/** The card data the quiz asks about (the core's). */
const CARDS = JSON.parse(readFileSync(new URL("../../../core/data/ff8-cards.json", import.meta.url), "utf8"));
/** The rules' answers, as rules/triple-triad.md gives them (server/src/quiz.rs asks them). */
const RULE_ANSWERS = { same_sides: "2", board_cells: "9", hand_cards: "5", elemental_bonus: "1", wall_rank: "A" };
const SIDES = ["top", "right", "bottom", "left"];

let server, browser;
let serial = 0;

before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer({ env: { ARBITER_PICK_SECONDS: "120", ARBITER_THINK_MS: "50", ARBITER_QUIZ_SECONDS: "120" } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const FR = { name: "Nom", password: "Mot de passe", register: "Créer un compte", add: "Ajouter", use: "Jouer ces cinq-là", pick: "Choisir…", stash: "Collection", lobby: "Salon", starter: "Prendre le lot de départ", seat: "Place 2", seatPlayer: "Joueur de la place 2", challenge: "Défier", accept: "Accepter", chat: "Chat du salon", line: "Ligne du chat", say: "Dire", back: "Retour au salon", take: "Prendre cette carte" };
const EN = { name: "Name", password: "Password", register: "Register", add: "Add", use: "Play these five", pick: "Pick…", stash: "Stash", lobby: "Lobby", starter: "Take the starter set", seat: "Seat 2", seatPlayer: "Seat 2 player", challenge: "Challenge", accept: "Accept", chat: "Lobby chat", line: "Chat line", say: "Say", back: "Back to the lobby", take: "Take this card" };

/** A browser context in `locale`, on the Online tab, registered by typing (screenshot `shot`
 * of the filled form first). */
/** Five cards added one by one in `p`'s open picker, then played (`shot`: the picker full). */
const pickFive = (p, shot) => pickAll(p, STEP, shot && (() => shoot(p, shot)));

async function person(locale, words, shot) {
  const p = await openOnline(browser, server, { locale, height: 800 });
  const filled = (page) => page.screenshot({ path: `${shots}${shot}.png` });
  return register(p, `soir${Date.now() % 10000}${++serial}`, PASSWORD, words, STEP, filled);
}

const shoot = (p, shot) => p.page.screenshot({ path: `${shots}${shot}.png`, fullPage: true });
const panel = (p, label) => p.section.locator(".online-nav").getByRole("button", { name: label }).click();
const state = (p, s) => p.page.waitForFunction((s) => document.getElementById("online").dataset.state === s, s, STEP);

async function starter(p) {
  await panel(p, p.words.stash);
  await p.section.getByRole("button", { name: p.words.starter }).click();
  await p.section.locator('.online-stash[data-count="20"]:not([aria-busy])').waitFor(STEP);
  await panel(p, p.words.lobby);
}


/** Plays `players`' Triple Triad match to its end by clicking, `game` choosing the cards and cells
 * (`clickTripleTriadMove`). */
async function playOut(players, game = 0) {
  for (let guard = 0; guard < 400; guard++) {
    const turns = await Promise.all(players.map((p) => p.section.locator(".online-match").getAttribute("data-turn")));
    if (turns.every((s) => s === "over")) return;
    const mover = players[turns.indexOf("you")];
    if (!mover) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const before = await mover.section.locator(".online-moves li").count();
    await clickTripleTriadMove(mover, STEP, game);
    await mover.page.waitForFunction((n) => document.querySelectorAll("#online .online-moves li").length > n, before, STEP);
  }
  throw new Error("the match did not end");
}

/** The quiz's answer to `question` (a `quiz_question`'s). */
function answer(question) {
  if (question.kind === "rule") return RULE_ANSWERS[question.rule];
  const card = CARDS.find((c) => c.name === question.card);
  if (question.kind === "level") return String(card.level);
  if (question.kind === "element") return card.element;
  const r = card.ranks[SIDES.indexOf(question.side)];
  return r === 10 ? "A" : String(r);
}

test("a French evening: register, pick, Mog-Facile, !aide, a quiz, then a person for a card", async () => {
  // Register in French, pick five of the starter.
  const fr = await person("fr-FR", FR, "01-fr-register");
  await starter(fr);
  await shoot(fr, "02-fr-lobby");
  await fr.section.locator(".online-picker").getByRole("button", { name: FR.pick }).click();
  await pickFive(fr, "03-fr-picker");
  await fr.section.locator('.online-picker[data-pick="cards"]').waitFor(STEP);

  // Mog-Facile under Aléatoire + Élémentaire + Mur puissant, Entraînement as the winner rule.
  const form = fr.section.locator(".online-new");
  await form.getByLabel("Règles prédéfinies").selectOption("ttonline");
  for (const rule of ["Aléatoire", "Élémentaire", "Mur puissant"]) await form.getByLabel(rule).check();
  await form.getByLabel("Règle du vainqueur").selectOption("training");
  await form.getByLabel(FR.seat, { exact: true }).selectOption("player");
  await form.getByLabel(FR.seatPlayer).fill("Mog-Facile");
  await shoot(fr, "04-fr-challenge-form");
  await form.getByRole("button", { name: FR.challenge }).click();
  await state(fr, "match");
  const rules = await fr.section.locator(".online-match .online-rules").first().textContent();
  for (const word of ["Aléatoire", "Élémentaire", "Mur puissant", "Entraînement"]) assert.ok(rules.includes(word), `${word} in ${rules}`);
  await shoot(fr, "05-fr-mog-facile");
  await playOut([fr]);
  await shoot(fr, "06-fr-mog-facile-over");
  await fr.section.getByRole("button", { name: FR.back }).click();
  await state(fr, "lobby");

  // !aide, then a quiz question answered right.
  const chat = fr.section.getByRole("region", { name: FR.chat });
  const say = async (text) => {
    await chat.getByLabel(FR.line, { exact: true }).fill(text);
    await chat.getByRole("button", { name: FR.say }).click();
  };
  await say("!aide");
  await chat.locator(".online-chat-log li", { hasText: "!quizz" }).waitFor(STEP);
  await shoot(fr, "07-fr-aide");
  const asked = fr.frames.length;
  await say("!quizz");
  await fr.page.waitForFunction(() => document.querySelectorAll("#online .online-chat-log li[data-kind=\"quiz\"]").length > 0, null, STEP);
  const question = fr.frames.slice(asked).map((f) => JSON.parse(f)).find((f) => f.type === "quiz_question");
  await say(answer(question.question));
  await fr.page.waitForFunction((name) => [...document.querySelectorAll("#online .online-chat-log li[data-kind=\"quiz\"]")].some((li) => li.textContent.includes(name)), fr.name, STEP);
  await shoot(fr, "08-fr-quiz");

  // A person, in English, for a card (One) on a 15 s clock: the French player's five go with the
  // challenge (picked above); the English one names theirs in the picking window. A draw moves no
  // card: they play again, until one is won.
  const en = await person("en-GB", EN, "09-en-register");
  await starter(en);
  await form.getByLabel("Règles prédéfinies").selectOption("ttonline");
  for (const rule of ["Aléatoire", "Élémentaire", "Mur puissant"]) await form.getByLabel(rule).uncheck();
  await form.getByLabel("Règle du vainqueur").selectOption("one");
  await form.getByLabel(FR.seatPlayer).fill(en.name);
  await form.getByLabel("Secondes par coup").fill("15");
  const trade = (p) => p.section.locator('.online-trade[data-state="choose"], .online-trade[data-state="wait"], .online-trade[data-state="settled"]');
  let winner = null;
  for (let attempt = 1; !winner; attempt++) {
    await form.getByRole("button", { name: FR.challenge }).click();
    const offer = en.section.locator('.online-challenges li[data-game="triple-triad"]', { hasText: fr.name });
    await offer.waitFor(STEP);
    await shoot(en, "10-en-offer");
    await offer.getByRole("button", { name: EN.accept }).click();
    await en.section.locator('.online-picker[data-window="pick"] .online-picker-panel:not([hidden])').waitFor(STEP);
    await shoot(en, "11-en-picking");
    await fr.section.locator('.online-picker[data-window="wait"]').waitFor(STEP);
    assert.match(await fr.section.locator(".online-picker-countdown").textContent(), new RegExp(`^En attente du choix de ${en.name} : encore \\d+ s\\.$`));
    await shoot(fr, "12-fr-waiting");
    await pickFive(en);
    for (const p of [fr, en]) await state(p, "match");
    await shoot(fr, "13-fr-match");
    await shoot(en, "14-en-match");
    await playOut([fr, en], attempt - 1);
    await shoot(fr, "15-fr-over");
    await shoot(en, "16-en-over");
    for (const p of [fr, en]) await trade(p).waitFor(STEP);
    const states = await Promise.all([fr, en].map((p) => trade(p).getAttribute("data-state")));
    if (states.includes("choose")) winner = states[0] === "choose" ? fr : en;
    else {
      for (const p of [fr, en]) {
        await p.section.getByRole("button", { name: p.words.back }).click();
        await state(p, "lobby");
      }
    }
  }
  const choice = winner.section.locator('.online-trade[data-state="choose"]');
  await choice.locator(".online-pick").first().click();
  await shoot(winner, `17-${winner === fr ? "fr" : "en"}-choice`);
  await choice.getByRole("button", { name: winner.words.take }).click();
  for (const p of [fr, en]) await p.section.locator('.online-trade[data-state="settled"]').waitFor(STEP);
  await shoot(fr, "18-fr-settled");
  await shoot(en, "19-en-settled");
  for (const p of [fr, en]) assert.equal(await p.section.locator(".online-moved li").count(), 1, "one card changed hands");

  // The French player's key pages in English: the switch words the lobby, the picker and a game
  // against Mog-Facile under the same rules.
  await fr.page.locator('.language button[data-language="en"]').click();
  await fr.section.getByRole("button", { name: EN.back }).click();
  await state(fr, "lobby");
  await shoot(fr, "20-en-lobby");
  await fr.section.locator(".online-picker").getByRole("button", { name: EN.pick }).click();
  await fr.section.locator(".online-picker-pool .cards-tile").first().waitFor(STEP);
  await shoot(fr, "21-en-picker");
  await fr.section.locator(".online-picker").getByRole("button", { name: "Close" }).click();
  await form.getByLabel("Preset").selectOption("ttonline");
  for (const rule of ["random hands", "elemental", "power walls"]) await form.getByLabel(rule).check();
  await form.getByLabel("Trade").selectOption("training");
  await form.getByLabel(EN.seatPlayer).fill("Mog-Facile");
  await form.getByRole("button", { name: EN.challenge }).click();
  await state(fr, "match");
  const words = await fr.section.locator(".online-match .online-rules").first().textContent();
  for (const word of ["Random hands", "Elemental", "Power walls", "Training"]) assert.ok(words.toLowerCase().includes(word.toLowerCase()), `${word} in ${words}`);
  await shoot(fr, "22-en-mog-facile");
  assert.deepEqual([...fr.errors, ...en.errors], []);
});

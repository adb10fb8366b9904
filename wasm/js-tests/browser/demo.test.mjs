// The demo page in a real browser (Debian's chromium, driven by playwright-core): one complete
// game of each game played by clicking as a person would, what the page shows at the end checked
// against a replay of the moves it lists (by the package, in Node), no console errors, and a
// screenshot of each finished game in target/demo-shots/.
//
// `?fast` makes the page skip its animation pauses; the steps and clicks stay the same.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { Nantong, TripleTriad, TripleTriadMatch, Trax, describe as describeOptions } from "arbiter-engine";
import { loadFfxiv, npcDeal, npcRules } from "../../demo/ffxiv.js";

/** `fn(object)`, the object freed after. */
const using = (object, fn) => {
  try {
    return fn(object);
  } finally {
    object.free();
  }
};
import { serve } from "../../demo/server.mjs";
import en from "../../demo/i18n-en.js";
import fr from "../../demo/i18n-fr.js";

const shots = fileURLToPath(new URL("../../../target/demo-shots/", import.meta.url));
// Each demo tab in English and in French (not committed).
const languageShots = fileURLToPath(new URL("../../../target/screenshots/demo/", import.meta.url));
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
// As root and with no network: no sandbox, and nothing that would try to reach one.
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
// Each game below ends within a few dozen clicks; a page that stops answering fails the test.
const STEP = { timeout: 15_000 };

let server, url, browser;

before(async () => {
  mkdirSync(shots, { recursive: true });
  mkdirSync(languageShots, { recursive: true });
  ({ server, url } = await serve(0));
  browser = await chromium.launch({ executablePath, args });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A page at `hash`, its console errors collected; `size` defaults to a laptop's. */
async function open(hash, { width = 1280, height = 800, touch = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, hasTouch: touch, isMobile: touch });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${url}?fast#${hash}`);
  return { page, errors, context };
}

/** Types a seed and presses Enter, as a person replaying a seed would. */
async function playSeed(section, seed) {
  await section.getByLabel("Seed").fill(String(seed));
  await section.getByLabel("Seed").press("Enter");
}

/** Waits until `section` is over or waiting for the person, and says which. */
async function waitForTurn(page, id, yourTurn) {
  const handle = await page.waitForFunction(
    ([id, selector]) => {
      const s = document.getElementById(id);
      if (s.dataset.state !== "playing") return s.dataset.state;
      return s.querySelector(selector) ? "turn" : false;
    },
    [id, yourTurn],
    STEP,
  );
  return handle.jsonValue();
}

/**
 * Plays a Triple Triad match on the page as blue: a card, then a cell (the first move by drag and
 * drop with a mouse; taps on a touch screen), then the trade's picks. Returns the moves played.
 */
async function playTripleTriad(page, { preset, seed, touch = false }) {
  const section = page.locator("#triple-triad");
  const press = (locator) => (touch ? locator.tap() : locator.click());
  await section.getByLabel("Computer level").selectOption(TripleTriad.levels[0]);
  // Without a preset, the rules panel is left as the test set it.
  if (preset) {
    await press(section.locator(".rules-panel summary"));
    await section.getByLabel("Preset").selectOption(preset);
    await press(section.locator(".rules-panel summary"));
  }
  await playSeed(section, seed);

  let moves = 0;
  const yourTurn = ".hand.blue button.ttcard:not([aria-disabled])";
  while ((await waitForTurn(page, "triple-triad", yourTurn)) === "turn") {
    const card = section.locator(yourTurn).first();
    if (moves === 0 && !touch) {
      await card.dragTo(section.locator(".tt-board .cell:not(.taken)").first());
    } else {
      await press(card);
      await press(section.locator(".tt-board .cell.legal").first());
    }
    moves++;
  }
  // The trade: pick the cards the rule allows, then confirm.
  if ((await section.getAttribute("data-state")) === "trade") {
    const take = section.getByRole("button", { name: "Take", exact: true });
    for (const option of await section.locator(".trade-cards button.ttcard").all()) {
      if (await take.isEnabled()) break;
      await press(option);
    }
    await press(take);
  }
  await page.waitForFunction(() => document.getElementById("triple-triad").dataset.state === "over", null, STEP);
  return moves;
}

/**
 * Plays 8x8 Trax on the page as white against the weakest computer, seed 30 (a game of 18 turns
 * that fills the area): a cell pointed at, then clicked, then a tile; with `undo`, one move taken
 * back on the way.
 */
async function playTrax(page, { undo = false } = {}) {
  const section = page.locator("#trax");
  await section.getByLabel("Variant").selectOption("8x8");
  await section.getByLabel("Computer level").selectOption(Trax.levels.includes("easy") ? "easy" : Trax.levels[0]);
  await playSeed(section, 30);
  let turns = 0;
  let undone = !undo;
  while ((await waitForTurn(page, "trax", ".trax-board button.target")) === "turn") {
    if (turns === 3 && !undone) {
      // Take back your last move (and the computer's answer), then go on.
      const before = await section.locator(".trax-moves li").count();
      await section.getByRole("button", { name: "Undo" }).click();
      await page.waitForFunction((n) => document.querySelectorAll("#trax .trax-moves li").length === n - 2, before, STEP);
      undone = true;
      continue;
    }
    // Pointing at a cell previews its tiles; clicking it opens them to choose from.
    const cell = section.locator(".trax-board button.target").first();
    await cell.hover();
    assert.ok((await section.locator(".choices.preview button.choice").count()) >= 2, "a cell offers two or three tiles");
    await cell.click();
    const choices = section.locator(".choices:not(.preview) button.choice");
    // Alternate the tiles so that the person's track wanders rather than loops at once.
    await choices.nth(turns % (await choices.count())).click();
    turns++;
    assert.ok(turns < 40, "the game ends");
  }
}

/** Plays a Nantong deal on the page as seat 0 against the strongest computers: a win or a pong
 * when offered, else the last card that may be discarded, else the first action. */
async function playNantong(page, seed) {
  const section = page.locator("#nantong");
  await section.getByLabel("Computer level").selectOption(Nantong.levels.at(-1));
  await playSeed(section, seed);
  let actions = 0;
  const yours = ".actions button, .nt-hand button.playable";
  while ((await waitForTurn(page, "nantong", yours)) === "turn") {
    const named = (name) => section.locator(".actions").getByRole("button", { name, exact: true });
    if (await named("Win (hu)").count()) await named("Win (hu)").click();
    else if (await named("Pong").count()) await named("Pong").click();
    else if (await section.locator(".nt-hand button.playable").count()) await section.locator(".nt-hand button.playable").last().click();
    else await section.locator(".actions button").first().click();
    actions++;
    assert.ok(actions < 80, "the deal ends");
  }
}

/** The words (four letters or more) of the English catalog that no French entry has, but for
 * those of the cards' names (which stay as they are): none may show on a page in French. */
function englishOnly() {
  const words = (texts) => new Set(texts.flatMap((text) => text.replace(/\{\w+\}|<[^>]*>/g, " ").match(/\p{L}{4,}/gu) ?? []).map((w) => w.toLowerCase()));
  const entries = (catalog) => Object.values(catalog).flatMap((v) => (typeof v === "object" ? Object.values(v) : [v]));
  const cards = JSON.parse(readFileSync(new URL("../../../core/data/ff8-cards.json", import.meta.url), "utf8")).map((c) => c.name);
  const french = words([...entries(fr), ...cards]);
  return [...words(entries(en))].filter((w) => !french.has(w));
}

/** Every text of the elements `selector` (text, aria-label, title; the deal record's JSON, the
 * rules panel's text and what is marked in another language, such as the switch's "English",
 * apart) that holds one of `forbidden`'s words, with the word. */
function wordsLeft(page, selector, forbidden) {
  return page.evaluate(
    ([selector, forbidden]) => {
      const words = new Set(forbidden);
      const texts = [];
      const page = (el) => !el.closest(".record pre, .how-to-play-text") && el.closest("[lang]") === document.documentElement;
      for (const root of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode()); ) if (page(node.parentElement)) texts.push(node.textContent);
        for (const el of root.querySelectorAll("[aria-label], [title]")) if (page(el)) texts.push(el.getAttribute("aria-label") ?? "", el.getAttribute("title") ?? "");
      }
      return texts.flatMap((text) => (text.match(/\p{L}{4,}/gu) ?? []).filter((w) => words.has(w.toLowerCase())).map((w) => `${w} in ${JSON.stringify(text)}`));
    },
    [selector, forbidden],
  );
}

describe("demo page", () => {
  test("Triple Triad: a match by clicks and one drag, sudden death and the trade", async () => {
    const { page, errors, context } = await open("triple-triad");
    const section = page.locator("#triple-triad");
    // The weakest opponent plays fast; seed 1 under ff8 draws round 1 and lets you pick a card.
    const moves = await playTripleTriad(page, { preset: "ff8", seed: 1 });
    assert.ok(moves >= 4, "you played a round");

    // What the page shows against the package replaying the moves it lists.
    const listed = (await section.locator(".move-list li[data-move]").allTextContents()).map((t) => t.match(/\d@\d/)[0]);
    const final = section.locator(".result .final");
    const match = TripleTriadMatch.fromPreset("ff8", 1);
    for (const move of listed) match.play(move);
    const { winner, scores, rounds } = match.result;
    assert.equal(await final.getAttribute("data-winner"), winner ?? "draw");
    assert.equal(await final.getAttribute("data-scores"), scores.join("-"));
    const text = await final.textContent();
    assert.match(text, new RegExp(winner === "blue" ? `You win ${scores[0]}–${scores[1]}` : winner ? `Red wins ${scores[1]}–${scores[0]}` : "Draw"));
    assert.equal(await section.locator(".move-list .round-start").count(), rounds);
    assert.equal(await section.locator(".tt-board .ttcard").count(), 9, "the last board stays on show");
    assert.ok(await section.locator(".capture-log li").count(), "the captures are explained");

    await page.screenshot({ path: `${shots}triple-triad.png` });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("Triple Triad: the rules panel's power walls, their labels and every card's power shown", async () => {
    const { page, errors, context } = await open("triple-triad");
    const section = page.locator("#triple-triad");
    await section.locator(".rules-panel summary").click();
    await section.getByLabel("Preset").selectOption("ff8");
    await section.getByLabel("Power walls (Mur puissant)").check();
    await section.locator(".rules-panel summary").click();
    await playSeed(section, 5);

    // The engine, in Node, deals the same match: the labels are the seed's, the powers the cards'.
    const base = using(TripleTriadMatch.fromPreset("ff8", 5), (m) => m.toJSON());
    base.config.rules.power_walls = true;
    const { config, blue } = using(TripleTriadMatch.fromJSON({ config: base.config, blue: base.blue, red: base.red, seed: base.seed }), (m) => m.toJSON());
    assert.ok(config.walls.length >= 2 && config.walls.length <= 4, JSON.stringify(config.walls));
    // The game before the seed had no walls: their labels say the new one is on show.
    await page.waitForFunction((n) => document.querySelectorAll("#triple-triad .tt-board .wall-label").length === n, config.walls.length, STEP);
    for (const w of config.walls) {
      const shown = section.locator(`.tt-board .cell[data-cell="${w.cell}"] .wall-label.wall-${w.side}`);
      assert.equal(await shown.textContent(), w.label);
      assert.match(await section.locator(`.tt-board .cell[data-cell="${w.cell}"]`).getAttribute("aria-label"), new RegExp(`${w.label} wall on the ${w.side}`));
    }
    assert.equal(await section.locator(".tt-board .wall-label").count(), config.walls.length);
    const powers = await section.locator(".hand.blue .ttcard .power").allTextContents();
    assert.deepEqual(powers, blue.map((c) => `P${c.power}`));
    assert.ok(blue.some((c) => c.power > 0), "the FF8 cards carry their powers");
    await page.screenshot({ path: `${shots}triple-triad-power-walls.png` });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("Triple Triad under Elemental: a card on an elemental cell shows the ranks it fights with", async () => {
    const { page, errors, context } = await open("triple-triad");
    const section = page.locator("#triple-triad");
    // mush: clamped Elemental; seed 27's last board has cards on elemental cells.
    await playTripleTriad(page, { preset: "mush", seed: 27 });
    const listed = (await section.locator(".move-list li[data-move]").allTextContents()).map((t) => t.match(/\d@\d/)[0]);
    const match = TripleTriadMatch.fromPreset("mush", 27);
    for (const move of listed) match.play(move);
    // The ranks each placed card plays with, as the engine reckons them (in Node).
    const obs = using(match.game(), (g) => g.observation("blue"));
    const written = (ranks) => ranks.map((r) => (r === 10 ? "A" : String(r)));
    let changed = 0;
    for (const [cell, placed] of obs.board.entries()) {
      const expected = written(obs.effective[cell]);
      const shown = await section.locator(`.tt-board .cell[data-cell="${cell}"] .ttcard .ranks b`).allTextContents();
      assert.deepEqual(shown, expected, `cell ${cell}: ${placed.card.name} on ${obs.elements[cell]}`);
      if (expected.join() !== written(placed.card.ranks).join()) {
        changed++;
        assert.match(await section.locator(`.tt-board .cell[data-cell="${cell}"]`).getAttribute("aria-label"), new RegExp(`Elemental: printed ${written(placed.card.ranks).join(" ")}`));
      }
    }
    assert.ok(changed > 0, "some card's ranks were changed by its cell");
    await section.locator(".tt-board").screenshot({ path: `${shots}triple-triad-elemental.png` });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("Triple Triad against a FFXIV NPC: its rules, its hand drawn from its deck, the cards' types", async () => {
    const { page, errors, context } = await open("triple-triad");
    const section = page.locator("#triple-triad");
    await section.locator(".rules-panel summary").click();
    // The NPC list comes with the package's data (dist/data/), after the page has loaded.
    await page.waitForFunction(() => !document.querySelector("#triple-triad select[name=tt-npc]").disabled, null, STEP);
    assert.equal(await section.locator("select[name=tt-npc] option").count(), 1 + 128);
    // Memeroon plays All Open; two of its fixed cards have a type.
    await section.getByLabel("FFXIV opponent").selectOption({ label: "Memeroon — Upper La Noscea" });
    assert.ok(await section.getByLabel("All Open (FFXIV)").isChecked());
    for (const rule of ["Same", "Plus", "Combo", "Open", "Same Wall"]) assert.ok(!(await section.getByLabel(rule, { exact: true }).isChecked()), rule);
    assert.equal(await section.locator("select[name=tt-trade]").inputValue(), "none");
    assert.match(await section.locator(".rules-panel summary").textContent(), /^Rules: Memeroon — All Open$/);
    await section.locator(".rules-panel summary").click();

    // The same deal in Node: the demo's draw from the seed, the match the engine plays from it.
    const data = await loadFfxiv();
    const npc = data.npcs.find((n) => n.name.en === "Memeroon");
    const seed = 4;
    const { blue, red } = npcDeal(data, npc, seed);
    assert.ok(npc.fixed.every((id) => red.some((c) => c.name === data.cards.get(id).name.en)), "every fixed card is in the NPC's hand");
    const moves = await playTripleTriad(page, { seed });
    assert.ok(moves >= 4, "you played a round");
    const base = using(TripleTriadMatch.fromPreset("ff8", seed), (m) => m.toJSON());
    const flags = describeOptions("triple-triad").options.find((o) => o.name === "rules").values;
    const config = { ...base.config, rules: { ...base.config.rules, ...npcRules(npc, flags) }, sudden_death: "off", trade: "none" };
    const match = TripleTriadMatch.fromJSON({ config, blue, red, seed: base.seed });
    const listed = (await section.locator(".move-list li[data-move]").allTextContents()).map((t) => t.match(/\d@\d/)[0]);
    for (const move of listed) match.play(move);
    const final = section.locator(".result .final");
    assert.equal(await final.getAttribute("data-winner"), match.result.winner ?? "draw");
    assert.equal(await final.getAttribute("data-scores"), match.result.scores.join("-"));
    // The end line names the NPC and FFXIV's rules, not the preset the panel started from.
    const rounds = match.result.rounds;
    const line = `${rounds} round${rounds > 1 ? "s" : ""}, seed ${seed}, against Memeroon under Final Fantasy XIV's rules.`;
    assert.equal(await section.locator(".result .summary").textContent(), line);
    // The cards show their type: Memeroon's two typed cards cannot both stay in its hand.
    const board = using(match.game(), (g) => g.observation("blue").board);
    const typed = board.filter((p) => p.card.type && p.card.type !== "none").length;
    assert.ok(typed >= 1);
    assert.equal(await section.locator(".tt-board .ttcard .card-type").count(), typed);
    const labels = await section.locator(".tt-board .cell").evaluateAll((cells) => cells.map((c) => c.getAttribute("aria-label")));
    assert.ok(labels.some((l) => /type (Primal|Scion|Beastman|Garlean)/.test(l)), labels.join("\n"));
    match.free();
    await page.screenshot({ path: `${shots}triple-triad-ffxiv.png` });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("Trax: 8x8 by pointing at cells and choosing tiles, one undo, the win shown", async () => {
    const { page, errors, context } = await open("trax");
    const section = page.locator("#trax");
    await playTrax(page, { undo: true });

    const listed = (await section.locator(".trax-moves li").allTextContents()).map((t) => t.split(" ")[1]);
    const game = new Trax("8x8");
    for (const move of listed) game.play(move);
    assert.ok(game.isOver);
    const final = section.locator(".result .final");
    assert.equal(await final.getAttribute("data-winner"), game.outcome);
    const win = game.win();
    if (win) {
      assert.equal(await final.getAttribute("data-by"), [win.by_loop && "loop", win.by_line && "line"].filter(Boolean).join("+"));
      assert.ok(await section.locator(".tile .glow").count(), "the winning track is lit");
    }
    await page.screenshot({ path: `${shots}trax.png` });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("Nantong: a deal by clicking cards and action buttons, the score breakdown shown", async () => {
    const { page, errors, context } = await open("nantong");
    const section = page.locator("#nantong");
    // Seed 15: you win on a self-drawn card.
    const seed = 15;
    await playNantong(page, seed);

    // The deal record the page shows, replayed from the seed by the package.
    const record = JSON.parse(await section.locator(".record pre").textContent());
    const deal = new Nantong(seed);
    assert.deepEqual(deal.toJSON().deck, record.deck);
    for (const { seat, action } of record.actions) deal.act(seat, action);
    assert.ok(deal.isOver);
    const { totals, settlement } = deal.score();
    assert.deepEqual((await section.locator("[data-total]").allTextContents()).map(Number), totals);
    assert.deepEqual((await section.locator("[data-settlement]").allTextContents()).map(Number), settlement);
    assert.equal(await section.locator(".nt-end .final").getAttribute("data-winner"), deal.win() ? String(deal.win().seat) : "none");
    // Every hand is shown face up at the end, as the terminal lists them.
    for (const seat of [0, 1, 2]) {
      const shown = await section.locator(`.nt-hands-end .nt-shown[data-seat="${seat}"] .lc`).evaluateAll((cards) => cards.map((c) => c.getAttribute("aria-label")));
      const held = deal.observation(seat).hand;
      assert.equal(shown.length, held.length, `seat ${seat}'s hand`);
      assert.ok(held.length > 0);
    }

    await page.screenshot({ path: `${shots}nantong.png`, fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("every tab teaches: the rules for players, what the decision at hand means, a hint", async () => {
    const { page, errors, context } = await open("nantong");
    const tabs = [
      { id: "nantong", heading: "A WINNING HAND", help: /Finish preparation/ },
      { id: "trax", heading: "WINNING", help: /loop of your colour/, absent: "ON THE SCREEN" },
      { id: "triple-triad", heading: "EXTRA RULES", help: /pick a card from your hand/ },
    ];
    for (const tab of tabs) {
      await page.goto(`${url}?fast#${tab.id}`);
      const section = page.locator(`#${tab.id}`);
      // Nantong: seed 4 gives you a preparation to finish (the dealer is a computer seat).
      if (tab.id === "nantong") await playSeed(section, 4);
      await section.locator(".how-to-play summary").click();
      await section.locator(".how-to-play-text h3", { hasText: tab.heading }).waitFor(STEP);
      assert.ok((await section.locator(".how-to-play-text p").count()) >= 3, "paragraphs of rules");
      if (tab.absent) assert.equal(await section.locator(".how-to-play-text h3", { hasText: tab.absent }).count(), 0);
      const help = section.locator(".help-line");
      await page.waitForFunction(([id, source]) => new RegExp(source).test(document.querySelector(`#${id} .help-line`).textContent), [tab.id, tab.help.source], STEP);
      await section.getByRole("button", { name: "Hint" }).click();
      await section.locator(".help-line[data-hint]").waitFor(STEP);
      const hint = await help.getAttribute("data-hint");
      assert.match(await help.textContent(), /^Hint: /);
      // The hint is a legal move of the position on show.
      if (tab.id === "nantong") {
        const offered = await section.locator(".actions button").evaluateAll((b) => b.map((x) => x.dataset.action));
        const discards = await section.locator(".nt-hand button.playable").evaluateAll((b) => b.map((x) => `discard ${x.dataset.card}`));
        assert.ok([...offered, ...discards].includes(hint), `${hint} among ${offered} ${discards}`);
      } else if (tab.id === "trax") {
        assert.match(hint, /^[@A-Z]+\d+[+/\\]$/);
        const cell = hint.slice(0, -1);
        assert.ok((await section.locator(".trax-board button.target").count()) > 0, "your turn");
        assert.ok(cell.length >= 2, hint);
      } else {
        const [card, cell] = hint.split("@").map(Number);
        assert.ok(card < (await section.locator(".hand.blue button.ttcard").count()), hint);
        assert.equal(await section.locator(`.tt-board .cell[data-cell="${cell}"].taken`).count(), 0, hint);
      }
      await page.screenshot({ path: `${shots}teach-${tab.id}.png`, fullPage: true });
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("every demo tab in French: no English word left, the rules written for French players", async () => {
    const { page, errors, context } = await open("triple-triad", { height: 900 });
    const forbidden = englishOnly();
    assert.ok(forbidden.includes("seed") && forbidden.includes("turn"), "the list holds the English words");
    const tabs = [
      // mush (clamped Elemental), seed 27: placed cards fight with changed ranks on the last board.
      { id: "triple-triad", play: () => playTripleTriad(page, { preset: "mush", seed: 27 }), english: "EXTRA RULES", french: "RÈGLES SUPPLÉMENTAIRES" },
      { id: "trax", play: () => playTrax(page), english: "WINNING", french: "GAGNER" },
      { id: "nantong", play: () => playNantong(page, 15), english: "A WINNING HAND", french: "UNE MAIN GAGNANTE" },
    ];
    const switchTo = async (lang) => {
      await page.locator(`.language button[data-language="${lang}"]`).click();
      await page.waitForFunction((lang) => document.documentElement.lang === lang, lang, STEP);
    };
    for (const tab of tabs) {
      await page.goto(`${url}?fast#${tab.id}`);
      await switchTo("en");
      const section = page.locator(`#${tab.id}`);
      await tab.play();
      await section.locator(".how-to-play summary").click();
      await section.locator(".how-to-play-text h3", { hasText: tab.english }).waitFor(STEP);
      if (tab.id === "triple-triad") await section.locator(".rules-panel summary").click();
      await page.screenshot({ path: `${languageShots}${tab.id}-en.png`, fullPage: true });

      // The finished game, its rules panel and its "How to play" in French.
      await switchTo("fr");
      await section.locator(".how-to-play-text h3", { hasText: tab.french }).waitFor(STEP);
      assert.equal(await section.locator(".how-to-play-text h3", { hasText: tab.english }).count(), 0);
      assert.deepEqual(await wordsLeft(page, `#${tab.id}, header.top, footer`, forbidden), [], `${tab.id} at the end`);
      if (tab.id === "triple-triad") {
        // The card a cell changed shows the ranks it fought with, and says its printed ones.
        assert.ok(await section.locator(".tt-board .ranks.raised, .tt-board .ranks.lowered").count(), "Elemental changed a placed card");
        assert.ok(await section.locator('.tt-board .cell[aria-label*="Élémentaire : valeurs imprimées"]').count());
      }
      await page.screenshot({ path: `${languageShots}${tab.id}-fr.png`, fullPage: true });

      // A new game, the decision at hand explained and a hint, in French.
      await section.getByRole("button", { name: "Nouvelle partie", exact: true }).first().click();
      await page.waitForFunction((id) => document.querySelector(`#${id} .help-line`).textContent.length > 0, tab.id, STEP);
      await section.getByRole("button", { name: "Indice", exact: true }).click();
      await section.locator(".help-line[data-hint]").waitFor(STEP);
      assert.match(await section.locator(".help-line").textContent(), /^Indice : /);
      assert.deepEqual(await wordsLeft(page, `#${tab.id}`, forbidden), [], `${tab.id} in play`);
      await page.screenshot({ path: `${languageShots}${tab.id}-fr-playing.png`, fullPage: true });

      // And back: the English words return.
      await switchTo("en");
      await section.locator(".how-to-play-text h3", { hasText: tab.english }).waitFor(STEP);
      assert.match(await section.locator(".toolbar").textContent(), /New game/);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("phone size: Triple Triad by taps at 390x844", async () => {
    const { page, errors, context } = await open("triple-triad", { width: 390, height: 844, touch: true });
    // Hidden hands (mush); seed 27 lets you take three cards.
    await playTripleTriad(page, { preset: "mush", seed: 27, touch: true });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scrolling (${width}px wide)`);
    // The finished board and the result line, as a person scrolling back up sees them.
    await page.evaluate(() => scrollTo(0, document.querySelector("#triple-triad .side.red").getBoundingClientRect().top + scrollY - 8));
    await page.screenshot({ path: `${shots}phone.png` });
    assert.deepEqual(errors, []);
    await context.close();
  });
});

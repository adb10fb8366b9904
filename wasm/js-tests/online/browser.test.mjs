// The demo's Online tab in Chromium against a real arbiter-server process: two browser contexts
// register as two players and play a Triple Triad match (closed hands) and a Trax game to the end
// by clicking, a third context watches each, and the watcher's page never shows a card still in a
// hand, in its DOM or in any WebSocket frame it received. The results the pages show are checked
// against the package replaying the moves; screenshots in target/demo-shots/online-*.png. Two
// players take their starters, build decks and play a Triple Triad match with trade One; the
// winner takes a card and both stashes show it moved, on the pages and in the server's replies.
// A refused challenge and a withdrawn one are told to the other side.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Trax } from "arbiter-engine";
import { ArbiterClient } from "arbiter-engine/client";
import { startServer } from "./server.mjs";
import { clickTripleTriadMove, launch, openOnline, register } from "./pages.mjs";
import { checkSpectatorFrame } from "./hidden.mjs";

const shots = fileURLToPath(new URL("../../../target/demo-shots/", import.meta.url));
const STEP = { timeout: 20_000 };
const PASSWORD = "correct horse battery";
/** How the page words the winner rules these tests play (wasm/demo/online-rules.js). */
const TRADE_WORDS = { one: "One card" };

let server, browser;
let serial = 0;

before(async () => {
  mkdirSync(shots, { recursive: true });
  // Nantong's claim pause (no pass told sooner after its question) kept short: the pages here
  // answer at once, and the computer seats too.
  server = await startServer({ env: { ARBITER_CLAIM_PAUSE_MS: "50" } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A person in a browser context of its own: the Online tab open, registered as a new name. */
async function person(prefix) {
  return register(await openOnline(browser, server), `${prefix}${++serial}`, PASSWORD, ENGLISH, STEP);
}

const ENGLISH = { name: "Name", password: "Password", register: "Register" };

/** `by` challenges `to` to `game` with one option, from the lobby's form; `to` accepts. With
 * `stake`, each plays its deck `stake.deck`, picked in the lobby's picker, and the winner rule
 * is `stake.trade`; a Triple Triad game without one plays the five each picked before. */
async function challenge(by, to, game, option, stake = null) {
  const form = by.section.locator(".online-new");
  await form.getByLabel("Game").selectOption(game);
  if (option) await form.getByLabel(option.label).selectOption(option.value);
  if (stake) {
    await pickDeck(by, stake.deck);
    await form.getByLabel("Trade").selectOption(stake.trade);
  }
  await form.getByLabel("Seat 2", { exact: true }).selectOption("player");
  await form.getByLabel("Seat 2 player").fill(to.name);
  await form.getByRole("button", { name: "Challenge" }).click();
  const offer = to.section.locator(`.online-challenges li[data-game="${game}"]`, { hasText: by.name });
  await offer.waitFor(STEP);
  if (stake) {
    assert.match(await offer.textContent(), new RegExp(`winner rule: ${TRADE_WORDS[stake.trade]}`), "the offer says what is at stake");
    await pickDeck(to, stake.deck);
  } else await to.page.screenshot({ path: `${shots}online-lobby-${game}.png` });
  await offer.getByRole("button", { name: "Accept" }).click(STEP);
  for (const p of [by, to]) {
    await p.page.waitForFunction(() => document.getElementById("online").dataset.state === "match", null, STEP);
  }
  return Number(await by.section.locator(".online-match").getAttribute("data-match"));
}

/** `watcher` opens the match from the lobby's list of matches in progress. */
async function watch(watcher, id) {
  const row = watcher.section.locator(`.online-matches li[data-match="${id}"]`);
  await row.getByRole("button", { name: "Watch" }).click(STEP);
  await watcher.page.waitForFunction(() => document.querySelector("#online .online-match")?.dataset.turn === "watching", null, STEP);
}

/** The turn state of a player's page: "you", "waiting" or "over". */
const turnOf = (p) => p.section.locator(".online-match").getAttribute("data-turn");

/** Plays until both pages say the match is over; `move(p)` makes one move on a page whose turn it
 * is, `each()` runs after every move. Returns the number of moves made. */
async function playOut(players, move, each = async () => {}, limit = 400) {
  let moves = 0;
  for (let guard = 0; guard < limit; guard++) {
    const states = await Promise.all(players.map(turnOf));
    if (states.every((s) => s === "over")) return moves;
    const mover = players[states.indexOf("you")];
    if (!mover) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const before = await mover.section.locator(".online-moves li").count();
    // `move` says false when the page offered nothing to do (a forced pass is the server's to
    // answer): then no move of this page's is awaited, the loop looks again.
    if ((await move(mover)) === false) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    try {
      await mover.page.waitForFunction((n) => document.querySelectorAll("#online .online-moves li").length > n, before, STEP);
    } catch (e) {
      // What the page and its socket were at when no move followed: the failure says it.
      const status = await mover.section.locator(".online-side").innerText();
      const actions = await mover.section.locator(".actions").allInnerTexts();
      const frames = mover.frames.slice(-4).map((f) => f.slice(0, 400));
      throw new Error(`${e.message}\nafter ${moves} moves (${before} listed)\nstatus: ${status}\nactions: ${actions}\nlast frames: ${frames.join("\n")}`);
    }
    moves++;
    await each();
  }
  throw new Error("the match did not end");
}

/** Records, on `p`'s page, what the clock and the rounds line say at the moment the match's result
 * is drawn (before any timer of the page could tidy them): `endShown(p)` reads it. */
async function watchEnd(p) {
  await p.page.evaluate(() => {
    const panel = document.querySelector("#online .online-match");
    window.endShown = null;
    new MutationObserver((_, observer) => {
      if (!panel.querySelector(".result .final")) return;
      window.endShown = { clock: panel.querySelector(".online-clock").textContent, rounds: panel.querySelector(".online-rounds")?.textContent ?? null };
      observer.disconnect();
    }).observe(panel, { childList: true, subtree: true, characterData: true });
  });
}

const endShown = (p) => p.page.waitForFunction(() => window.endShown, null, STEP).then((h) => h.jsonValue());

/** The observations of the views `p`'s page was sent, in order. */
const observations = (p) =>
  p.frames
    .map((f) => JSON.parse(f))
    .filter((f) => ["moved", "match_state"].includes(f.type) && f.view?.observation)
    .map((f) => f.view.observation);

/** The first observation `p`'s page is sent of its match, once it has come. */
async function firstObservation(p) {
  for (let waited = 0; waited < STEP.timeout; waited += 50) {
    const [first] = observations(p);
    if (first) return first;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${p.name}'s page was sent no view of its match`);
}

/** Checks the end of a Triple Triad match as `p`'s page drew it: no clock, and each round once. */
async function assertTripleTriadEnd(p) {
  const { clock, rounds } = await endShown(p);
  assert.equal(clock, "", "an ended match shows no clock");
  // Each finished round once (a long sudden death's first draws counted together), in order.
  const listed = /^(?:Round 1: (?:blue won|red won|a draw) \d+–\d+|Rounds 1–(\d+): draws)((?:, round \d+: (?:blue won|red won|a draw) \d+–\d+)*)\.$/.exec(rounds);
  assert.ok(listed, `the rounds line: ${rounds}`);
  const numbers = [...listed[2].matchAll(/round (\d+)/g)].map((m) => Number(m[1]));
  const first = listed[1] ? Number(listed[1]) + 1 : 2;
  assert.deepEqual(numbers, numbers.map((_, i) => first + i), `the rounds line: ${rounds}`);
  assert.equal(await p.section.locator(".online-clock").textContent(), "", "nor later");
}

/** The outcome each page shows for its seat, and its move list. */
async function ending(p) {
  const final = p.section.locator(".online-match .result .final");
  await final.waitFor(STEP);
  const moves = await p.section.locator(".online-moves li").evaluateAll((items) => items.map((li) => li.dataset.move));
  return { outcome: await final.getAttribute("data-outcome"), moves };
}

/** Screenshots of each page, none of which logged an error, then their contexts closed. */
async function finish(people, tag) {
  for (const [who, p] of Object.entries(people)) {
    await p.page.screenshot({ path: `${shots}online-${tag}-${who}.png` });
    assert.deepEqual(p.errors, [], `${who}'s page logged no error`);
  }
  for (const p of Object.values(people)) await p.context.close();
}

function assertOpposite(a, b) {
  const pair = [a.outcome, b.outcome].sort().join(" ");
  assert.ok(["lost won", "drawn drawn"].includes(pair), `the two pages agree: ${pair}`);
}

/** Shows a panel of the lobby ("Lobby", "Stash", "Decks", "Shop", "Stats") once drawn from the
 * server's answers. */
async function panel(p, name) {
  await p.section.locator(".online-nav").getByRole("button", { name, exact: true }).click();
  if (name !== "Lobby") await p.section.locator(`.online-${name.toLowerCase()}:not([aria-busy])`).waitFor(STEP);
}

/** The stash as `p`'s page shows it (with details): copies by card id. */
async function pageStash(p) {
  await panel(p, "Stash");
  const details = p.section.getByLabel("details");
  if (!(await details.isChecked())) {
    await details.check();
    await p.section.locator(".online-stash:not([aria-busy]) table").waitFor(STEP);
  }
  const rows = await p.section.locator(".online-stash tbody tr").evaluateAll((trs) => trs.map((tr) => [tr.dataset.card, Number(tr.dataset.count)]));
  return new Map(rows);
}

/** The stash as the server answers another connection of the same player: copies by card id. */
async function serverStash(p) {
  const client = await ArbiterClient.connect(`${server.url.replace("http", "ws")}/ws`, { reconnect: false });
  try {
    await client.login(p.name, PASSWORD);
    return new Map((await client.stash()).map((e) => [e.card.id, e.count]));
  } finally {
    client.close();
  }
}

/** `p` plays its deck `deck`: one click in the lobby's picker. */
async function pickDeck(p, deck) {
  const picker = p.section.locator(".online-picker");
  await picker.getByRole("button", { name: "Pick…" }).click();
  await picker.locator(`.online-picker-decks li[data-deck="${deck}"]`).getByRole("button", { name: "Play this deck" }).click();
  await p.section.locator('.online-picker[data-pick="deck"]').waitFor(STEP);
  assert.equal(await picker.locator(".online-picker-summary").textContent(), `deck ${deck}`);
}

/** `p` takes the starter set, then picks five of its cards one by one in the lobby's picker
 * (the first copy it may add each time, so a card it holds twice can come twice); returns
 * their names. */
async function starterAndFive(p) {
  await panel(p, "Stash");
  await p.section.getByRole("button", { name: "Take the starter set" }).click();
  await p.section.locator('.online-stash[data-count="20"]:not([aria-busy])').waitFor(STEP);
  await panel(p, "Lobby");
  const picker = p.section.locator(".online-picker");
  await picker.getByRole("button", { name: "Pick…" }).click();
  // The collection and the saved decks (none yet) are shown, the level total as cards come in.
  await picker.locator(".online-picker-pool .cards-tile").first().waitFor(STEP);
  assert.equal(await picker.locator(".online-picker-decks li.none").count(), 1);
  for (let n = 1; n <= 5; n++) {
    await picker.locator(".online-picker-pool button:not([disabled])", { hasText: "Add" }).first().click();
    await picker.locator(`.online-picker-chosen[data-count="${n}"]`).waitFor(STEP);
  }
  assert.equal(await picker.locator(".online-picker-pool button:not([disabled])", { hasText: "Add" }).count(), 0, "no sixth card");
  await p.page.screenshot({ path: `${shots}online-picker.png` });
  await picker.getByRole("button", { name: "Play these five" }).click();
  await p.section.locator('.online-picker[data-pick="cards"]').waitFor(STEP);
  const summary = await picker.locator(".online-picker-summary").textContent();
  // "cards A, B, C, D and E": the page's language's list.
  return summary.replace(/^cards /, "").split(/,? and |, /);
}

/** `p` takes the starter set and builds the deck `name` of its first five cards, by clicking. */
async function starterAndDeck(p, name) {
  await panel(p, "Stash");
  await p.section.getByRole("button", { name: "Take the starter set" }).click();
  await p.section.locator('.online-stash[data-count="20"]:not([aria-busy])').waitFor(STEP);
  await panel(p, "Decks");
  const decks = p.section.locator(".online-decks");
  await decks.getByLabel("New deck name").fill(name);
  await decks.getByRole("button", { name: "Create" }).click();
  for (let n = 1; n <= 5; n++) {
    await decks.locator(".cards-pool .cards-tile button", { hasText: "Add" }).first().click();
    await decks.locator(`.cards-deck[data-deck="${name}"][data-cards="${n}"]`).waitFor(STEP);
  }
  const deck = decks.locator(`.cards-deck[data-deck="${name}"]`);
  assert.equal(await deck.getAttribute("data-usable"), "true", "five starter cards make a usable deck");
  assert.match(await deck.locator(".cards-check").textContent(), /^5\/5 cards, usable: levels \d+ of 20$/);
}

describe("Online tab", () => {
  test("two people play a Triple Triad match (closed hands) to the end; a watcher never sees a hidden card", async () => {
    const alice = await person("alice");
    const bob = await person("bob");
    const carol = await person("carol");
    const picked = [await starterAndFive(alice), await starterAndFive(bob)];
    const id = await challenge(alice, bob, "triple-triad", { label: "Preset", value: "mush" });
    // Each plays the five picked, and sees only them: the other's hand is backs (closed rules).
    for (const [i, p] of [alice, bob].entries()) {
      await p.section.locator('.hand[aria-label="Your hand"] .ttcard').nth(4).waitFor(STEP);
      const mine = await p.section.locator('.hand[aria-label="Your hand"] .ttcard').evaluateAll((cards) => cards.map((c) => c.getAttribute("aria-label")));
      const names = [...picked[i]].sort();
      assert.deepEqual(mine.map((label) => label.split(":")[0]).sort(), names, `${p.name} holds the five picked: ${mine}`);
      assert.equal(await p.section.locator(".hand:not([aria-label='Your hand']) .ttcard:not(.back)").count(), 0, "the other's hand is hidden");
    }
    await watch(carol, id);
    const watcherHands = carol.section.locator(".online-tt .hand");
    const checkWatcher = async () => {
      // Every card the watcher's page shows in a hand is a back.
      assert.equal(await watcherHands.locator(".ttcard:not(.back)").count(), 0, "no face in the watcher's hands");
    };
    await checkWatcher();
    for (const p of [alice, bob]) await watchEnd(p);
    const moves = await playOut(
      [alice, bob],
      (p) => clickTripleTriadMove(p, STEP),
      checkWatcher,
    );
    assert.ok(moves >= 9, `${moves} moves`);
    const [a, b] = [await ending(alice), await ending(bob)];
    assertOpposite(a, b);
    assert.deepEqual(a.moves, b.moves);
    for (const p of [alice, bob]) await assertTripleTriadEnd(p);
    await carol.page.waitForFunction(() => document.querySelector("#online .online-match")?.dataset.turn === "over", null, STEP);
    await checkWatcher();
    const views = carol.frames.filter(checkSpectatorFrame).length;
    assert.ok(views >= moves, `every move reached the watcher (${views} views checked)`);
    await finish({ alice, bob, carol }, "tt");
  });

  test("a refused challenge is told to its challenger, a withdrawn one to the player it named", async () => {
    const alice = await person("refa");
    const bob = await person("refb");
    const offer = async () => {
      const form = alice.section.locator(".online-new");
      await form.getByLabel("Game").selectOption("trax");
      await form.getByLabel("Seat 2", { exact: true }).selectOption("player");
      await form.getByLabel("Seat 2 player").fill(bob.name);
      await form.getByRole("button", { name: "Challenge" }).click();
      const row = bob.section.locator('.online-challenges li[data-game="trax"]', { hasText: alice.name });
      await row.waitFor(STEP);
      return row;
    };
    const notice = (p, text) => p.section.locator('p.message[role="status"]', { hasText: text }).waitFor(STEP);
    await (await offer()).getByRole("button", { name: "Refuse" }).click();
    await notice(alice, `${bob.name} refused your challenge.`);
    await offer();
    await alice.section.locator('.online-challenges li[data-game="trax"]').getByRole("button", { name: "Withdraw" }).click();
    await notice(bob, `${alice.name} withdrew the challenge.`);
    await bob.page.screenshot({ path: `${shots}online-withdrawn.png` });
    for (const p of [alice, bob]) {
      assert.deepEqual(p.errors, []);
      await p.context.close();
    }
  });

  test("Triple Triad under Elemental: a stacked hand shows every name, the board the ranks cards fight with", async () => {
    // A board drawn without an elemental cell ((3/4)^9: 7.5 % of rounds) cannot show the rule: such
    // a match is forfeited, and two new people try again. The same when the last round's board has
    // none: mush replays a drawn round (sudden death), and each round's cells are drawn anew.
    const elemental = (o) => o.elements.some((e) => e && e !== "none");
    let alice, bob, obs;
    for (let tries = 1; ; tries++) {
      assert.ok(tries <= 8, "eight matches in a row ending on a board without an elemental cell");
      alice = await person("ela");
      bob = await person("elb");
      for (const p of [alice, bob]) await starterAndFive(p);
      await challenge(alice, bob, "triple-triad", { label: "Preset", value: "mush" });
      if (!elemental(await firstObservation(alice))) {
        await alice.section.getByRole("button", { name: "Leave (forfeit)" }).click();
        await ending(alice);
        for (const p of [alice, bob]) await p.context.close();
        continue;
      }
      // Each card's name in the stacked hand is the topmost thing where it is drawn.
      const names = alice.section.locator(".online-tt .hand.blue .ttcard .name");
      await names.nth(4).waitFor(STEP);
      const covered = await names.evaluateAll((els) =>
        els.filter((el) => {
          const r = el.getBoundingClientRect();
          return !el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
        }).map((el) => el.textContent),
      );
      assert.deepEqual(covered, [], "no name is hidden under the next card");
      await alice.page.screenshot({ path: `${shots}online-tt-hand-names.png` });
      await playOut([alice, bob], (p) => clickTripleTriadMove(p, STEP));
      await ending(alice);
      obs = observations(alice).at(-1);
      if (elemental(obs)) break;
      for (const p of [alice, bob]) await p.context.close();
    }
    // The last view alice's page received: every placed card against the rule's arithmetic.
    assert.ok(obs.rules.elemental && obs.rules.elemental_clamp);
    const rank = (r) => (r === 10 ? "A" : String(r));
    let changed = 0;
    for (const [cell, placed] of obs.board.entries()) {
      if (!placed) continue;
      const element = obs.elements[cell];
      const shift = !element || element === "none" ? 0 : placed.card.element === element ? 1 : -1;
      const expected = placed.card.ranks.map((r) => rank(Math.min(10, Math.max(1, r + shift))));
      changed += Number(expected.join() !== placed.card.ranks.map(rank).join());
      const shown = await alice.section.locator(`.tt-board .cell[data-cell="${cell}"] .ttcard .ranks b`).allTextContents();
      assert.deepEqual(shown, expected, `cell ${cell}: ${placed.card.name} on ${element}`);
    }
    assert.ok(changed > 0, "some card sits on an elemental cell");
    await alice.page.screenshot({ path: `${shots}online-tt-elemental.png` });
    await finish({ alice, bob }, "elemental");
  });

  test("two people play a Trax game to the end; the pages agree with the engine's replay", async () => {
    const alice = await person("trxa");
    const bob = await person("trxb");
    const carol = await person("trxc");
    const id = await challenge(alice, bob, "trax", { label: "Variant", value: "8x8" });
    await watch(carol, id);
    await playOut([alice, bob], async (p) => {
      await p.section.locator(".trax-board .cell.target").first().click();
      await p.section.locator(".choices .choice").first().click();
    });
    const [a, b] = [await ending(alice), await ending(bob)];
    assertOpposite(a, b);
    assert.deepEqual(a.moves, b.moves);
    const replay = new Trax("8x8");
    for (const move of a.moves) replay.play(move);
    assert.equal(replay.isOver, true);
    const expected = replay.outcome === "draw" ? "drawn" : replay.outcome === "white" ? "won" : "lost";
    assert.equal(a.outcome, expected, "alice (white, the challenger) sees the engine's result");
    replay.free();
    await carol.page.waitForFunction(() => document.querySelector("#online .online-match")?.dataset.turn === "over", null, STEP);
    assert.equal(await carol.section.locator(".trax-board .cell.target").count(), 0, "a watcher is offered no move");
    await finish({ alice, bob, carol }, "trax");
  });

  test("a seat broadcasts its match to the lobby, then makes it private: the watcher is sent back with the reason", async () => {
    const alice = await person("spa");
    const bob = await person("spb");
    const carol = await person("spc");
    const dave = await person("spd");
    const id = await challenge(alice, bob, "trax", { label: "Variant", value: "8x8" });
    await watch(carol, id);
    const choice = alice.section.locator(".online-match").getByLabel("Spectators");
    assert.equal(await choice.inputValue(), "open");
    await choice.selectOption("broadcast");
    const listed = dave.section.locator(`.online-matches li[data-match="${id}"] .online-broadcast`);
    // White's first move: the lobby shows it, as the move lists of the seats have it.
    await alice.section.locator(".trax-board .cell.target").first().click();
    await alice.section.locator(".choices .choice").first().click();
    await dave.page.waitForFunction((i) => document.querySelector(`#online .online-matches li[data-match="${i}"] .online-broadcast`)?.dataset.ply === "1", id, STEP);
    const first = await alice.section.locator(".online-moves li").first().getAttribute("data-move");
    const said = await listed.textContent();
    assert.ok(said.includes(`${alice.name} played ${first}`), said);
    await dave.page.screenshot({ path: `${shots}online-broadcast-lobby.png` });
    await choice.selectOption("private");
    await carol.page.waitForFunction(() => document.getElementById("online").dataset.state === "lobby", null, STEP);
    assert.match(await carol.section.locator(".message").textContent(), new RegExp(`${alice.name} made the match private`));
    await dave.section.locator(`.online-matches li[data-match="${id}"]`).waitFor({ state: "detached", ...STEP });
    assert.equal(await bob.section.locator(".online-match").getByLabel("Spectators").inputValue(), "private", "the other seat's page follows");
    await carol.page.screenshot({ path: `${shots}online-private-watcher.png` });
    await alice.section.getByRole("button", { name: "Leave (forfeit)" }).click();
    await ending(alice);
    await finish({ alice, bob, carol, dave }, "spectators");
  });

  test("Nantong against two computer seats: a reload resumes the match, the deal is played from the server's actions", async () => {
    const ann = await person("nta");
    const form = ann.section.locator(".online-new");
    await form.getByLabel("Game").selectOption("nantong");
    for (const seat of ["Seat 2", "Seat 3"]) {
      await form.getByLabel(seat, { exact: true }).selectOption("computer");
      await form.getByLabel(`${seat} level`).selectOption("random");
    }
    await form.getByRole("button", { name: "Challenge" }).click();
    await ann.page.waitForFunction(() => document.getElementById("online").dataset.state === "match", null, STEP);
    // A reload in the middle of the deal resumes the session and reopens the match where it is.
    const pass = ann.section.locator(".online-nt .actions button").first();
    await pass.waitFor(STEP);
    await pass.click();
    const before = await ann.section.locator(".online-moves li").count();
    await ann.page.reload();
    await ann.page.waitForFunction(() => document.getElementById("online").dataset.state === "match", null, STEP);
    await ann.page.waitForFunction((n) => document.querySelectorAll("#online .online-moves li").length >= n, before, STEP);
    // A question whose only answer is pass offers no button: the server answers it, and the deal
    // goes on without the page (the play-out below clicks only buttons).
    await playOut(
      [ann],
      async (p) => {
        const button = p.section.locator(".online-nt .actions button").first();
        if (!(await button.count())) return false;
        // The button may go between the count and the click: the claim pause ran out and the
        // server answered, or the deal ended. Then nothing was clicked and the loop looks again.
        return button.click({ timeout: 2000 }).then(
          () => undefined,
          () => false,
        );
      },
      async () => {},
      3000,
    );
    // Counted from what the page was told: such a question is on the page for the claim pause
    // (50 ms here) only, which a loaded machine may not let the loop see.
    const forced = ann.frames.map((f) => JSON.parse(f)).filter((f) => {
      const actions = ["moved", "match_state"].includes(f.type) ? f.view?.observation?.actions : null;
      return actions?.length === 1 && actions[0] === "pass";
    });
    assert.ok(forced.length > 0, "some questions were the server's to answer");
    const { outcome } = await ending(ann);
    assert.ok(["won", "lost", "drawn"].includes(outcome), outcome);
    // The last deal's end: every hand face up, as the server sent them once the deal was over.
    const views = ann.frames.map((f) => JSON.parse(f)).filter((f) => ["moved", "match_state"].includes(f.type) && f.view?.observation);
    const last = views.at(-1).view.last_deal;
    assert.ok(last, "the server shows the last deal");
    const shown = ann.section.locator(".online-last-deal .nt-shown");
    assert.equal(await shown.count(), 3);
    for (const seat of [0, 1, 2]) {
      assert.equal(await shown.nth(seat).locator(".lc").count(), last.hands[seat].length, `seat ${seat}'s hand`);
    }
    assert.ok(last.hands.every((hand) => hand.length > 0));
    // Who finished first, unless nobody did (the stock ran out: a draw).
    const first = ann.section.locator(".online-match .result .first");
    if (outcome === "drawn") assert.equal(await first.count(), 0);
    else assert.match(await first.textContent(), /finished first with|share first place with/);
    await ann.section.locator(".online-last-deal").scrollIntoViewIfNeeded();
    await ann.page.screenshot({ path: `${shots}online-nantong-end.png`, fullPage: true });
    await finish({ ann }, "nantong");
  });
  test("a challenge's whole rules are in words on the offer, both match pages and the watcher's view", async () => {
    const alice = await person("rla");
    const bob = await person("rlb");
    const carol = await person("rlc");
    for (const p of [alice, bob]) await starterAndFive(p);
    const form = alice.section.locator(".online-new");
    await form.getByLabel("Game").selectOption("triple-triad");
    await form.getByLabel("Preset").selectOption("mush");
    await form.getByLabel("Seat 2", { exact: true }).selectOption("player");
    await form.getByLabel("Seat 2 player").fill(bob.name);
    await form.getByRole("button", { name: "Challenge" }).click();
    const offer = bob.section.locator(`.online-challenges li[data-game="triple-triad"]`, { hasText: alice.name });
    await offer.waitFor(STEP);
    // The mush preset's rules, resolved by the server and worded by the page: never a preset's
    // name alone ("custom rules" for a challenge made in text), never JSON.
    const words = "Rules: Same, Same Wall, Plus, Combo, Elemental; ranks kept within 1 to 10";
    const said = await offer.locator(".online-rules").textContent();
    for (const part of [words, "nothing at stake", "sudden death with the original hands", "level limit 20", "60 s a move", "anyone may watch"]) {
      assert.ok(said.includes(part), `the offer says "${part}": ${said}`);
    }
    assert.ok(!said.includes("{") && !said.includes("mush"), said);
    await offer.getByRole("button", { name: "Accept" }).click(STEP);
    for (const p of [alice, bob]) {
      await p.page.waitForFunction(() => document.getElementById("online").dataset.state === "match", null, STEP);
    }
    const id = Number(await alice.section.locator(".online-match").getAttribute("data-match"));
    await watch(carol, id);
    for (const p of [alice, bob, carol]) {
      assert.equal(await p.section.locator(".online-match-rules").textContent(), said, `${p.name}'s match page shows the rules`);
    }
    await bob.page.screenshot({ path: `${shots}online-rules-match.png` });
    await finish({ alice, bob, carol }, "rules");
  });

  test("two people stake their decks with trade One; the winner takes a card and both stashes show it moved", async () => {
    const alice = await person("tra");
    const bob = await person("trb");
    for (const p of [alice, bob]) await starterAndDeck(p, "Start");
    const was = new Map();
    for (const p of [alice, bob]) {
      was.set(p, await pageStash(p));
      assert.deepEqual(was.get(p), await serverStash(p), `${p.name}'s page shows the server's stash`);
    }
    await panel(alice, "Decks");
    await alice.page.screenshot({ path: `${shots}online-trade-before.png` });
    let winner, loser;
    for (let attempt = 0; !winner; attempt++) {
      assert.ok(attempt < 6, "a match with a winner within six");
      for (const p of [alice, bob]) await panel(p, "Lobby");
      await challenge(alice, bob, "triple-triad", { label: "Preset", value: "mush" }, { deck: "Start", trade: "one" });
      for (const p of [alice, bob]) await watchEnd(p);
      await playOut([alice, bob], (p) => clickTripleTriadMove(p, STEP, attempt));
      const [a, b] = [await ending(alice), await ending(bob)];
      assertOpposite(a, b);
      for (const p of [alice, bob]) await assertTripleTriadEnd(p);
      if (a.outcome === "drawn") {
        for (const p of [alice, bob]) {
          await p.section.locator('.online-trade[data-state="settled"]').waitFor(STEP);
          assert.equal(await p.section.locator(".online-trade").textContent(), "The cardsNo card changed hands.");
          await p.section.getByRole("button", { name: "Back to the lobby" }).click();
        }
        continue;
      }
      [winner, loser] = a.outcome === "won" ? [alice, bob] : [bob, alice];
    }
    // The loser sees the five at stake and waits, the clock running; neither may leave yet.
    const waiting = loser.section.locator('.online-trade[data-state="wait"]');
    await waiting.waitFor(STEP);
    assert.equal(await waiting.locator(".online-choice").textContent(), `${winner.name} won and is choosing 1 of your cards.`);
    await waiting.locator(".cards-tile").nth(4).waitFor(STEP);
    const choosing = winner.section.locator('.online-trade[data-state="choose"]');
    await choosing.locator(".online-pick").nth(4).waitFor(STEP);
    assert.equal(await choosing.locator(".online-choice").textContent(), `You won: take 1 of ${loser.name}'s cards.`);
    for (const p of [winner, loser]) {
      assert.match(await p.section.locator(".online-choice-clock").textContent(), /^\d+ s left to choose$/);
      assert.equal(await p.section.getByRole("button", { name: "Back to the lobby" }).isDisabled(), true, "no leaving before the choice");
    }
    const five = await waiting.locator(".cards-tile").evaluateAll((tiles) => tiles.map((t) => t.dataset.card));
    assert.deepEqual(await choosing.locator(".online-pick").evaluateAll((bs) => bs.map((b) => b.dataset.card)), five, "both see the same five");
    const pick = choosing.locator(".online-pick").nth(1);
    const taken = await pick.getAttribute("data-card");
    const take = choosing.getByRole("button", { name: "Take this card" });
    assert.equal(await take.isDisabled(), true, "nothing picked yet");
    await pick.click();
    await choosing.locator('.online-pick[aria-pressed="true"]').waitFor(STEP);
    await winner.page.screenshot({ path: `${shots}online-trade-choice.png` });
    await loser.page.screenshot({ path: `${shots}online-trade-choice-loser.png` });
    await choosing.getByRole("button", { name: "Take this card" }).click();
    for (const p of [winner, loser]) await p.section.locator('.online-trade[data-state="settled"]').waitFor(STEP);
    const said = async (p) => (await p.section.locator(".online-moved li").allTextContents()).join(" ");
    assert.match(await said(winner), new RegExp(`^You took ${taken} .+ from ${loser.name}\\.$`));
    assert.match(await said(loser), new RegExp(`^${winner.name} took your ${taken} .+\\.$`));
    // Both stashes, on the pages and in the server's replies: the card moved, nothing else did.
    for (const p of [winner, loser]) {
      await p.section.getByRole("button", { name: "Back to the lobby" }).click();
      const shown = await pageStash(p);
      assert.deepEqual(shown, await serverStash(p), `${p.name}'s page shows the server's stash`);
      const expected = new Map(was.get(p));
      const delta = p === winner ? 1 : -1;
      expected.set(taken, (expected.get(taken) ?? 0) + delta);
      if (expected.get(taken) === 0) expected.delete(taken);
      assert.deepEqual(shown, expected, `${p.name}: ${taken} ${delta > 0 ? "gained" : "lost"}, the rest as before`);
    }
    await winner.page.screenshot({ path: `${shots}online-trade-after.png` });
    // The loser's deck lost the card and says why.
    await panel(loser, "Decks");
    const deck = loser.section.locator('.cards-deck[data-deck="Start"]');
    assert.equal(await deck.getAttribute("data-cards"), "4");
    assert.equal(await deck.getAttribute("data-usable"), "false");
    assert.equal(await deck.locator(".cards-check").textContent(), "4/5 cards, unusable: a deck is five cards");
    assert.match(await deck.locator(".cards-note").textContent(), new RegExp(`was lost to ${winner.name}`), "the deck says why");
    await loser.page.screenshot({ path: `${shots}online-trade-after-loser.png` });
    // The win's points: 5 a game and 5 more for the win.
    await panel(winner, "Stats");
    const points = Number(await winner.section.locator('.online-stats [data-figure="points"] b').textContent());
    assert.ok(points >= 10 && points % 5 === 0, `${points} points`);
    // Which buy a random level-1 card of series A (10 points a level) in the shop.
    await panel(winner, "Shop");
    const shop = winner.section.locator(".online-shop");
    assert.deepEqual(
      await shop.locator('tr[data-series="A"] td').allTextContents(),
      ["A", "Final Fantasy", "10", "20", "110", String((await serverStash(winner)).size)],
      "series A: 10 and 20 points a level, 110 cards, those owned",
    );
    await shop.getByLabel("Series").selectOption("A");
    await shop.getByLabel("Level", { exact: true }).fill("1");
    await shop.getByRole("button", { name: "Buy a random card" }).click();
    await winner.section.locator(".online-shop:not([aria-busy])").waitFor(STEP);
    assert.match(await winner.section.locator(".message").textContent(), /^You bought A\d{3} .+ for 10 points\.$/);
    assert.equal(await shop.locator(".cards-points").textContent(), `You have ${points - 10} points. Prices are points per level of the card; -- : not sold that way.`);
    await winner.page.screenshot({ path: `${shots}online-shop.png` });
    const after = await serverStash(winner);
    assert.equal([...after.values()].reduce((a, b) => a + b, 0), 22, "the bought card is in the stash");
    await finish({ winner, loser }, "trade-end");
  });

  test("the lobby's chat: a page user's line reaches another page and a client; !aide answers the one who typed it", async () => {
    const a = await person("chatty");
    const b = await person("reader");
    const listener = await ArbiterClient.connect(server.wsUrl, { reconnect: false });
    await listener.register(`listen${++serial}`, PASSWORD);
    await listener.lobby();
    const heard = listener.once("chat", (m) => m.from.name === a.name);
    const chat = (p) => p.section.getByRole("region", { name: "Lobby chat" });
    await chat(a).getByLabel("Chat line", { exact: true }).fill("hello from the page\u0007");
    await chat(a).getByRole("button", { name: "Say" }).click();
    for (const p of [a, b]) await chat(p).locator(".online-chat-log li", { hasText: `${a.name}: hello from the page` }).waitFor(STEP);
    assert.equal((await heard).text, "hello from the page", "the bell is stripped");
    await listener.chat("and from a client");
    await chat(a).locator(".online-chat-log li", { hasText: "and from a client" }).waitFor(STEP);
    await chat(a).getByLabel("Chat line", { exact: true }).fill("!aide");
    await chat(a).getByRole("button", { name: "Say" }).click();
    await chat(a).locator(".online-chat-log li", { hasText: "!quizz:" }).waitFor(STEP);
    assert.equal(await chat(b).locator(".online-chat-log li", { hasText: "!quizz" }).count(), 0, "!aide answers its typer alone");
    listener.close();
    await finish({ a, b }, "chat");
  });
});

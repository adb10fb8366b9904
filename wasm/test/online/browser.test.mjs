// The demo's Online tab in Chromium against a real arbiter-server process: two browser contexts
// register as two players and play a Triple Triad match (closed hands) and a Trax game to the end
// by clicking, a third context watches each, and the watcher's page never shows a card still in a
// hand, in its DOM or in any WebSocket frame it received. The results the pages show are checked
// against the package replaying the moves; screenshots in target/demo-shots/online-*.png.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { Trax } from "arbiter-engine";
import { startServer } from "./server.mjs";
import { checkSpectatorFrame } from "./hidden.mjs";

const shots = fileURLToPath(new URL("../../../target/demo-shots/", import.meta.url));
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const STEP = { timeout: 20_000 };
const PASSWORD = "correct horse battery";

let server, browser;
let serial = 0;

before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await chromium.launch({ executablePath, args });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A person in a browser context of its own: the Online tab open, registered as a new name. */
async function person(prefix) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  const frames = [];
  page.on("websocket", (ws) => ws.on("framereceived", ({ payload }) => frames.push(String(payload))));
  await page.goto(`${server.url}/demo/?fast#online`);
  const section = page.locator("#online");
  const name = `${prefix}${++serial}`;
  await section.getByLabel("Name").fill(name);
  await section.getByLabel("Password").fill(PASSWORD);
  await section.getByRole("button", { name: "Register" }).click();
  await page.waitForFunction(() => document.getElementById("online").dataset.state === "lobby", null, STEP);
  return { page, section, name, errors, frames, context };
}

/** `by` challenges `to` to `game` with one option, from the lobby's form; `to` accepts. */
async function challenge(by, to, game, option) {
  const form = by.section.locator(".online-new");
  await form.getByLabel("Game").selectOption(game);
  if (option) await form.getByLabel(option.label).selectOption(option.value);
  await form.getByLabel("Seat 2", { exact: true }).selectOption("player");
  await form.getByLabel("Seat 2 player").fill(to.name);
  await form.getByRole("button", { name: "Challenge" }).click();
  const offer = to.section.locator(`.online-challenges li[data-game="${game}"]`, { hasText: by.name });
  await offer.waitFor(STEP);
  await to.page.screenshot({ path: `${shots}online-lobby-${game}.png` });
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
    await move(mover);
    await mover.page.waitForFunction((n) => document.querySelectorAll("#online .online-moves li").length > n, before, STEP);
    moves++;
    await each();
  }
  throw new Error("the match did not end");
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

describe("Online tab", () => {
  test("two people play a Triple Triad match (closed hands) to the end; a watcher never sees a hidden card", async () => {
    const alice = await person("alice");
    const bob = await person("bob");
    const carol = await person("carol");
    const id = await challenge(alice, bob, "triple-triad", { label: "Preset", value: "mush" });
    await watch(carol, id);
    const watcherHands = carol.section.locator(".online-tt .hand");
    const checkWatcher = async () => {
      // Every card the watcher's page shows in a hand is a back.
      assert.equal(await watcherHands.locator(".ttcard:not(.back)").count(), 0, "no face in the watcher's hands");
    };
    await checkWatcher();
    const moves = await playOut(
      [alice, bob],
      async (p) => {
        await p.section.locator(".hand button.ttcard:not([aria-disabled])").first().click();
        await p.section.locator(".tt-board .cell.legal").first().click();
      },
      checkWatcher,
    );
    assert.ok(moves >= 9, `${moves} moves`);
    const [a, b] = [await ending(alice), await ending(bob)];
    assertOpposite(a, b);
    assert.deepEqual(a.moves, b.moves);
    await carol.page.waitForFunction(() => document.querySelector("#online .online-match")?.dataset.turn === "over", null, STEP);
    await checkWatcher();
    const views = carol.frames.filter(checkSpectatorFrame).length;
    assert.ok(views >= moves, `every move reached the watcher (${views} views checked)`);
    await finish({ alice, bob, carol }, "tt");
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
    await playOut([ann], (p) => p.section.locator(".online-nt .actions button").first().click(), async () => {}, 3000);
    const { outcome } = await ending(ann);
    assert.ok(["won", "lost", "drawn"].includes(outcome), outcome);
    await finish({ ann }, "nantong");
  });
});

// The package itself in Chromium (playwright-core driving Debian's chromium), on a blank page:
// the page keeps drawing while the worker thinks (frame gaps measured during a Trax expert move,
// with the worker and without), a use before init() says what to do, and the README's html
// example runs as written.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, extname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "../../demo/server.mjs";
import { blocks } from "../helpers.mjs";

const pkg = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let server, origin, browser;

before(async () => {
  const served = await serve(0);
  server = served.server;
  origin = new URL(served.url).origin;
  browser = await chromium.launch({ executablePath, args });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A blank page of the package's origin, its console errors collected. */
async function blank() {
  const page = await browser.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${origin}/js-tests/browser/blank.html`);
  return { page, errors };
}

describe("in Chromium", () => {
  test("the page keeps drawing while the worker plays a Trax expert move; without it, it freezes", async () => {
    const { page, errors } = await blank();
    const result = await page.evaluate(async () => {
      const { default: init, Trax } = await import("arbiter-engine");
      const { ArbiterWorker } = await import("arbiter-engine/worker");
      await init();
      /** The longest gap between animation frames while `work` runs, and how long it ran. The
       * gap is measured when each frame's callback runs (performance.now()): in headless
       * Chromium the timestamps rAF passes did not show a 1.1 s freeze (17 ms apart). */
      async function frames(work) {
        await new Promise(requestAnimationFrame);
        let last = performance.now();
        let longest = 0;
        let running = true;
        const tick = () => {
          const now = performance.now();
          longest = Math.max(longest, now - last);
          last = now;
          if (running) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
        await new Promise((r) => setTimeout(r, 100)); // a few frames first
        const started = performance.now();
        const value = await work();
        const took = performance.now() - started;
        await new Promise(requestAnimationFrame); // the frame after the move
        running = false;
        return { longest, took, value };
      }
      const game = Trax.fromRecord("@0+ A2+ B2+ B3/ B4/ B5/ A0/ B2/", "8x8");
      const ai = new ArbiterWorker();
      await ai.chooseMove(game, "random", 0); // the worker's thread is up and its module loaded
      const worker = await frames(() => ai.chooseMove(game, "expert", 9));
      const page = await frames(async () => game.chooseMove("expert", 9));
      ai.terminate();
      return { worker, page };
    });
    const ms = (n) => `${Math.round(n)} ms`;
    console.log(
      `Trax expert move: on the page, the longest frame gap was ${ms(result.page.longest)} (the move took ${ms(result.page.took)}); ` +
        `with the worker, ${ms(result.worker.longest)} (the move took ${ms(result.worker.took)})`,
    );
    assert.equal(result.worker.value, result.page.value, "the same move either way");
    assert.ok(result.page.longest >= result.page.took * 0.8, "on the page the move holds up the frames (the measure can see a freeze)");
    assert.ok(result.worker.longest < 200, `with the worker the longest frame gap is ${ms(result.worker.longest)}`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("the worker's calls, errors and cancellation in a browser", async () => {
    const { page, errors } = await blank();
    const result = await page.evaluate(async () => {
      const { Trax, TripleTriad, ArbiterError } = await import("arbiter-engine");
      const { ArbiterWorker } = await import("arbiter-engine/worker");
      // No init() on the page: the worker loads the module itself; the page only needs the
      // classes' JSON, which a game made elsewhere gives as { game, state }.
      // Where the module is, as init() takes it.
      const ai = new ArbiterWorker({ module_or_path: "../../dist/arbiter_wasm_bg.wasm" });
      const state = { variant: "8x8", moves: ["@0+", "A2+"] };
      const move = await ai.chooseMove({ game: "trax", state }, "easy", 1);
      const refused = await ai.chooseMove({ game: "trax", state }, "grandmaster", 1).catch((e) => [e instanceof ArbiterError, e.code]);
      const controller = new AbortController();
      const started = performance.now();
      const aborted = ai.chooseMove({ game: "trax", state: { variant: "8x8", moves: ["@0+", "A2+", "B2+", "B3/", "B4/", "B5/", "A0/", "B2/"] } }, "expert", 9, { signal: controller.signal });
      setTimeout(() => controller.abort(), 30);
      const name = await aborted.catch((e) => e.name);
      const abortedAfter = performance.now() - started;
      const solved = await ai.solve({ game: "triple-triad", state: { rules: {}, board: Array(9).fill(null), hands: { blue: Array(5).fill({ name: "A", ranks: [5, 5, 5, 5] }), red: Array(5).fill({ name: "B", ranks: [5, 5, 5, 5] }) }, to_move: "blue" } });
      ai.terminate();
      return { move, refused, name, abortedAfter, solved, classes: [typeof Trax, typeof TripleTriad] };
    });
    assert.match(result.move, /^[@A-C][0-3][+/\\]$/);
    assert.deepEqual(result.refused, [true, "BAD_ARGUMENT"]);
    assert.equal(result.name, "AbortError");
    assert.ok(result.abortedAfter < 300, `called off after ${result.abortedAfter} ms`);
    assert.equal(typeof result.solved.value, "number");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("a use before init() is an ArbiterError that says to call it", async () => {
    const { page, errors } = await blank();
    const thrown = await page.evaluate(async () => {
      const { Trax, TripleTriad, ArbiterError } = await import("arbiter-engine");
      const attempts = [() => new Trax("8x8"), () => TripleTriad.fromPreset("ff8", 1), () => TripleTriad.levels];
      return attempts.map((call) => {
        try {
          call();
          return "no error";
        } catch (e) {
          return [e instanceof ArbiterError, e.code, e.message];
        }
      });
    });
    for (const [isArbiter, code, message] of thrown) {
      assert.ok(isArbiter, String(message));
      assert.equal(code, "BAD_ARGUMENT");
      assert.match(message, /not loaded: call `await init\(\)`/);
    }
    // After init() the same calls work.
    const works = await page.evaluate(async () => {
      const { default: init, Trax } = await import("arbiter-engine");
      await init();
      return new Trax("8x8").legalMoves().length;
    });
    assert.equal(works, 2);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("the README's html example runs as written", async () => {
    const [html] = blocks(join(pkg, "README.md"), "html");
    assert.ok(html, "the README has an html example");
    // The example sits in a site's page beside node_modules/arbiter-engine (this package).
    const page = await browser.newPage();
    const errors = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));
    const types = { ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
    await page.route("http://site.test/**", (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === "/") return route.fulfill({ contentType: "text/html", body: `<!doctype html><link rel="icon" href="data:,">${html}` });
      const file = path.replace(/^\/node_modules\/arbiter-engine\//, "");
      if (file === path) return route.fulfill({ status: 404 });
      return route.fulfill({ contentType: types[extname(file)] ?? "application/octet-stream", body: readFileSync(join(pkg, file)) });
    });
    await page.goto("http://site.test/");
    await page.waitForFunction(() => document.body.textContent.trim().length > 0, null, { timeout: 15_000 });
    const shown = await page.evaluate(() => document.body.textContent.trim());
    assert.ok(shown.split(" ").length >= 2, `the page shows the legal moves: ${shown}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

// What the Online tab's Chromium tests share: the browser, a page of its own per person, the
// register form and the picker.
import { chromium } from "playwright-core";

/** Debian's chromium (or `$CHROMIUM`), headless, with none of its own network traffic. */
export function launch() {
  const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args });
}

/** A browser context of its own (its languages `locale`'s, when given) on `server`'s Online tab,
 * gathering the page's errors and every WebSocket frame it receives. */
export async function openOnline(browser, server, { locale, height = 900 } = {}) {
  const context = await browser.newContext({ ...(locale && { locale }), viewport: { width: 1280, height } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  const frames = [];
  page.on("websocket", (ws) => ws.on("framereceived", ({ payload }) => frames.push(String(payload))));
  await page.goto(`${server.url}/demo/?fast#online`);
  return { context, page, section: page.locator("#online"), errors, frames };
}

/** `p` registers `name` by typing, the form worded `words` (`name`, `password`, `register`);
 * `filled(page)` runs on the filled form. `p` with its name and words, in the lobby. */
export async function register(p, name, password, words, step, filled) {
  await p.section.getByLabel(words.name, { exact: true }).fill(name);
  await p.section.getByLabel(words.password).fill(password);
  if (filled) await filled(p.page);
  await p.section.getByRole("button", { name: words.register }).click();
  await p.page.waitForFunction(() => document.getElementById("online").dataset.state === "lobby", null, step);
  return { ...p, name, words };
}

/** Cards added one by one in `p`'s open picker (buttons worded `p.words.add`) until five are
 * chosen (the picker keeps a pick from an earlier window), then played (`p.words.use`); `full()`
 * runs on the full picker. */
export async function pickFive(p, step, full) {
  const picker = p.section.locator(".online-picker");
  await picker.locator(".online-picker-pool .cards-tile").first().waitFor(step);
  const kept = Number(await picker.locator(".online-picker-chosen").getAttribute("data-count"));
  for (let n = kept + 1; n <= 5; n++) {
    await picker.locator(".online-picker-pool button:not([disabled])", { hasText: p.words.add }).first().click();
    await picker.locator(`.online-picker-chosen[data-count="${n}"]`).waitFor(step);
  }
  if (full) await full();
  await picker.getByRole("button", { name: p.words.use }).click();
}

/** One Triple Triad move on `p`'s match by clicking a legal card and cell: the first ones under
 * `game` 0, others chosen from `game` and the moves made under each other `game`. Tests that play
 * again after a draw pass each attempt's number: their hands stay the same between attempts and
 * only the opening seat is drawn, so the first card and cell every time would replay at most two
 * games, and when both are draws every attempt would be one. */
export async function clickTripleTriadMove(p, step, game = 0) {
  const made = await p.section.locator(".online-moves li").count();
  const cards = p.section.locator(".hand button.ttcard:not([aria-disabled])");
  await cards.first().waitFor(step);
  await cards.nth(game && (game * (made + 1)) % (await cards.count())).click();
  const cells = p.section.locator(".tt-board .cell.legal");
  await cells.first().waitFor(step);
  await cells.nth(game && (game * 3 + made) % (await cells.count())).click();
}

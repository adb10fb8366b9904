// The page's entry: load the engine once, then show the game named in the address (#trax…),
// building each game's view the first time it is shown. The shell's words follow the page's
// language (i18n.js), switched by the « Français / English » buttons.
import init from "arbiter-engine/web";
import { describeError, h } from "./ui.js";
import { LANGUAGES, language, onLanguage, setLanguage, t } from "./i18n.js";

const games = {
  "triple-triad": () => import("./tripletriad.js"),
  trax: () => import("./trax.js"),
  nantong: () => import("./nantong.js"),
  online: () => import("./online.js"),
};
const mounted = new Map();

/** The shell's words: each element marked `data-i18n` (text), `data-i18n-html` (a catalog entry
 * with markup of the page's own), `data-i18n-label` (its aria-label), `data-i18n-title` (its
 * title). */
function wordShell() {
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-html]")) el.innerHTML = t(el.dataset.i18nHtml);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.setAttribute("title", t(el.dataset.i18nTitle));
  const switcher = document.querySelector(".language");
  switcher.setAttribute("aria-label", t("shell.language"));
  switcher.replaceChildren(
    ...Object.entries(LANGUAGES).map(([code, name]) =>
      h("button", { type: "button", lang: code, dataset: { language: code }, "aria-pressed": String(code === language()), onclick: () => setLanguage(code) }, name),
    ),
  );
}

async function show() {
  const name = location.hash.slice(1) in games ? location.hash.slice(1) : "triple-triad";
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.game === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  for (const section of document.querySelectorAll("section.game")) section.hidden = section.id !== name;
  if (!mounted.has(name)) {
    const section = document.getElementById(name);
    mounted.set(name, (await games[name]()).mount(section));
  }
}

wordShell();
onLanguage(wordShell);
try {
  await init();
  document.getElementById("loading").remove();
  addEventListener("hashchange", show);
  await show();
} catch (e) {
  document.getElementById("loading").textContent = t("shell.engine_failed", { error: describeError(e) });
  throw e;
}

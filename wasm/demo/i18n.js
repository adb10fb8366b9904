// The page's words in each of its languages: `t(key, params)` reads the current language's
// catalog (i18n-en.js, i18n-fr.js). The language is the visitor's choice (kept in this browser,
// and in the account once logged in), or else the first of the browser's languages the page has.
// A catalog entry is a string with `{name}` holes, or an object of plural forms (`one`, `other`)
// chosen by `params.count`.
import en from "./i18n-en.js";
import fr from "./i18n-fr.js";

/** The page's languages, each named in itself (the switch shows them so). */
export const LANGUAGES = { fr: "Français", en: "English" };
const CATALOGS = { en, fr };
const KEPT = "arbiter-language";
const listeners = new Set();

/** The first of `preferred` (BCP 47 tags, the browser's order) the page has, or English. */
export function fromBrowser(preferred) {
  for (const tag of preferred ?? []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in CATALOGS) return base;
  }
  return "en";
}

/** This browser's storage, or null where it is refused (storage disabled: reading it throws). */
function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

let current = (() => {
  const kept = storage()?.getItem(KEPT);
  return kept in CATALOGS ? kept : fromBrowser(globalThis.navigator?.languages);
})();
if (globalThis.document) document.documentElement.lang = current;

export const language = () => current;

/** Switches the page to `lang` (a key of LANGUAGES; anything else is ignored), keeps the choice in
 * this browser and tells every listener. */
export function setLanguage(lang) {
  if (!(lang in CATALOGS) || lang === current) return;
  current = lang;
  storage()?.setItem(KEPT, lang);
  document.documentElement.lang = lang;
  for (const listener of listeners) listener(lang);
}

/** Calls `listener(lang)` after every switch. */
export function onLanguage(listener) {
  listeners.add(listener);
}

/** Whether the catalog has `key` (for words chosen by a server's code, which may be new). */
export const has = (key) => key in CATALOGS[current];

/** `key`'s words in the current language, `{name}` filled from `params`. A missing key shows
 * itself, so that a forgotten entry is seen rather than silently blank. */
export function t(key, params = {}) {
  let entry = CATALOGS[current][key] ?? CATALOGS.en[key] ?? key;
  if (typeof entry === "object") entry = entry[new Intl.PluralRules(current).select(params.count ?? 0)] ?? entry.other;
  return entry.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** `items` joined as a list in the current language ("a, b and c" / « a, b et c »). */
export const list = (items) => new Intl.ListFormat(current, { type: "conjunction" }).format(items);

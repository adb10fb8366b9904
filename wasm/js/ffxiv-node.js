// arbiter-engine/ffxiv in Node: the same documents as js/ffxiv.js, read from the package's files.
import { readFile } from "node:fs/promises";

/** @param {string} file */
async function load(file) {
  return JSON.parse(await readFile(new URL(`../dist/data/${file}`, import.meta.url), "utf8"));
}

export const ffxivCards = () => load("ffxiv-cards.json");
export const ffxivNpcs = () => load("ffxiv-npcs.json");

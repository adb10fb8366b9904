// arbiter-engine/ffxiv in browsers and bundlers: Final Fantasy XIV's cards and NPC opponents, the
// core's data files (core/data/) shipped as JSON beside the .wasm, in dist/data/, rather than in
// it. Each call fetches the document afresh (the browser's cache keeps it): the caller owns it.

/** @param {string} file */
async function load(file) {
  const response = await fetch(new URL(`../dist/data/${file}`, import.meta.url));
  if (!response.ok) throw new Error(`arbiter-engine: cannot load ${file}: HTTP ${response.status}`);
  return response.json();
}

export const ffxivCards = () => load("ffxiv-cards.json");
export const ffxivNpcs = () => load("ffxiv-npcs.json");

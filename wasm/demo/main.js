// The page's entry: load the engine once, then show the game named in the address (#trax…),
// building each game's view the first time it is shown.
import init from "arbiter-engine/web";
import { describeError } from "./ui.js";

const games = {
  "triple-triad": () => import("./tripletriad.js"),
  trax: () => import("./trax.js"),
  nantong: () => import("./nantong.js"),
  online: () => import("./online.js"),
};
const mounted = new Map();

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

try {
  await init();
  document.getElementById("loading").remove();
  addEventListener("hashchange", show);
  await show();
} catch (e) {
  document.getElementById("loading").textContent = `The engine could not load: ${describeError(e)}`;
  throw e;
}

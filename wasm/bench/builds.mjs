// Two or more builds of the module with every game, side by side (docs/speed.md, the wasm size
// passes): each round runs every build once, in turn, each in a Node process of its own, and
// prints the CPU seconds of perft and of the strongest levels' moves in each.
//   node wasm/bench/builds.mjs ROUNDS DIR...   (a DIR holds a build's arbiter_wasm.js and
//                                               arbiter_wasm_bg.wasm, e.g. a copy of wasm/dist)
// The glue imports ../js/: give each copy a `js` link beside it (ln -s $PWD/wasm/js COPY/../js).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [rounds, ...dirs] = process.argv.slice(2);
if (process.env.ARBITER_BENCH_DIR) {
  await once(process.env.ARBITER_BENCH_DIR);
} else {
  if (!(Number(rounds) > 0) || dirs.length === 0) {
    console.error("usage: node wasm/bench/builds.mjs ROUNDS DIR...");
    process.exit(2);
  }
  for (let round = 1; round <= Number(rounds); round++) {
    for (const dir of dirs) {
      const env = { ...process.env, ARBITER_BENCH_DIR: resolve(dir) };
      const line = execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { env, encoding: "utf8" });
      console.log(`${round} ${dir}: ${line.trim()}`);
    }
  }
}

/** One build's figures: CPU seconds of each task, and its result, which must agree across builds. */
async function once(dir) {
  const m = await import(pathToFileURL(`${dir}/arbiter_wasm.js`).href);
  m.initSync({ module: readFileSync(`${dir}/arbiter_wasm_bg.wasm`) });
  const out = [];
  const time = (name, task) => {
    const before = process.cpuUsage();
    const result = task();
    const used = process.cpuUsage(before);
    out.push(`${name} ${((used.user + used.system) / 1e6).toFixed(3)} s (${result})`);
  };
  const moves = (game, level, count, options) => () => {
    const played = [];
    for (let i = 0; i < count; i++) {
      const move = game.chooseMove(level, 7 + i, options);
      played.push(move);
      game.play(move);
    }
    return played.join(" ");
  };
  time("Triple Triad perft 6", () => m.TripleTriad.fromPreset("ff8", 1).perft(6));
  time("4 expert moves", moves(m.TripleTriad.fromPreset("ff8", 1), "expert", 4));
  time("Trax 8x8 perft 6", () => new m.Trax("8x8").perft(6));
  time("2 expert moves", moves(new m.Trax("8x8"), "expert", 2, { nodes: 30000 }));
  time("Nantong perft 22", () => new m.Nantong(1).perft(22));
  time("20 strong deals", () => {
    let moves = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const game = new m.Nantong(seed);
      for (; !game.isOver; moves++) game.play(game.chooseMove("strong", moves));
    }
    return moves;
  });
  console.log(out.join(" | "));
}

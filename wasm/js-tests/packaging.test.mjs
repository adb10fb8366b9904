// The package as users get it: `npm pack`, installed from the tarball into a scratch project,
// imported there from ESM, required from CommonJS, loaded through the browser entry, and compiled
// by TypeScript against the installed types.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync, rmSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const tsc = join(pkg, "node_modules", ".bin", "tsc");
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

test("no public signature is typed any", () => {
  const declarations = ["dist/arbiter_wasm.d.ts", "js/ffxiv.d.ts", "js/node.d.ts", "js/web.d.ts", "js/error.d.ts", "js/worker.d.ts", "js/worker-node.d.ts", "js/worker-client.d.ts", "js/client.d.ts"];
  for (const file of declarations) {
    const code = readFileSync(join(pkg, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    assert.doesNotMatch(code, /\bany\b/, file);
  }
});

test("npm pack, install the tarball, import, require, play", (t) => {
  const scratch = mkdtempSync(join(tmpdir(), "arbiter-engine-"));
  t.after(() => rmSync(scratch, { recursive: true, force: true }));

  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", scratch], pkg));
  const files = packed.files.map((f) => f.path).sort();
  for (const needed of ["dist/arbiter_wasm.js", "dist/arbiter_wasm.d.ts", "dist/arbiter_wasm_bg.wasm", "js/node.js", "js/web.js", "js/node.d.ts", "js/web.d.ts", "js/error.js", "package.json", "README.md"]) {
    assert.ok(files.includes(needed), `${needed} is packed: ${files}`);
  }
  assert.ok(!files.some((f) => f.startsWith("src/") || f.startsWith("js-tests/") || f.endsWith(".rs")), `${files}`);
  // The rules for players (cli/src/rules/), which the demo's "How to play" panels read.
  for (const needed of ["js/worker.js", "js/worker-node.js", "js/worker-thread.js", "js/worker-thread-node.js", "js/worker.d.ts", "js/guards.js", "js/client.js", "js/client.d.ts", "dist/rules/triple-triad.txt", "dist/rules/trax.txt", "dist/rules/nantong.txt", "js/ffxiv.js", "js/ffxiv-node.js", "js/ffxiv.d.ts", "dist/data/ffxiv-cards.json", "dist/data/ffxiv-npcs.json"]) {
    assert.ok(files.includes(needed), `${needed} is packed`);
  }

  const project = join(scratch, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", join(scratch, packed.filename)], project);

  const play = `
    const seeds = [...Array(100).keys()];
    const g = TripleTriad.fromPreset("ff8", 7);
    for (const seed of seeds) { if (g.isOver) break; g.play(g.chooseMove("greedy", seed)); }
    console.log(g.outcome, g.isOver, g instanceof TripleTriad);
    try { g.play("0@0"); } catch (e) { console.log(e instanceof ArbiterError, e.code); }
    g.free();`;
  writeFileSync(join(project, "esm.mjs"), `import { TripleTriad, ArbiterError } from "arbiter-engine";\n${play}`);
  writeFileSync(join(project, "cjs.cjs"), `const { TripleTriad, ArbiterError } = require("arbiter-engine");\n${play}`);
  writeFileSync(
    join(project, "web.mjs"),
    `import { readFileSync } from "node:fs";
     import { createRequire } from "node:module";
     import { initSync, TripleTriad, ArbiterError } from "arbiter-engine/web";
     const wasm = new URL("./node_modules/arbiter-engine/dist/arbiter_wasm_bg.wasm", import.meta.url);
     initSync({ module: readFileSync(wasm) });
     ${play}`,
  );
  const outputs = ["esm.mjs", "cjs.cjs", "web.mjs"].map((file) => run("node", [file], project).trim().split("\n"));
  for (const [result, refusal] of outputs) {
    assert.match(result, /^(blue|red|draw) true true$/);
    assert.equal(refusal, "true GAME_OVER");
  }
  assert.equal(new Set(outputs.map((o) => o[0])).size, 1, "the same game through every entry");
  writeFileSync(
    join(project, "worker.mjs"),
    `import { Trax } from "arbiter-engine";
     import { ArbiterWorker } from "arbiter-engine/worker";
     const g = new Trax("8x8");
     console.log(await new ArbiterWorker().chooseMove(g, "easy", 3) === g.chooseMove("easy", 3));`,
  );
  assert.equal(run("node", ["worker.mjs"], project).trim(), "true", "the worker entry, from the tarball");

  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022"], types: [], skipLibCheck: false },
      files: ["consumer.ts"],
    }),
  );
  writeFileSync(
    join(project, "consumer.ts"),
    `import { TripleTriad, type TripleTriadPlayer } from "arbiter-engine";
     import { ArbiterWorker } from "arbiter-engine/worker";
     using g = TripleTriad.fromPreset("ff8", 1);
     const p: TripleTriadPlayer | null = g.toMove;
     export const mover = p;
     export const move: Promise<string | null> = new ArbiterWorker().chooseMove(g, "greedy", 1);`,
  );
  try {
    run(tsc, ["-p", "tsconfig.json"], project);
  } catch (e) {
    assert.fail(`the installed types do not compile:\n${e.stdout}${e.stderr}`);
  }
});

test("the package carries the repository's licence texts, as package.json's license names them", (t) => {
  const root = join(pkg, "..");
  const licences = ["LICENSE-MIT", "LICENSE-APACHE"];
  assert.equal(JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).license, "MIT OR Apache-2.0");
  if (!licences.every((l) => existsSync(join(root, l)))) {
    // The texts come with the repository's own licence files; until they exist there is nothing to carry.
    t.skip(`the repository has no ${licences.filter((l) => !existsSync(join(root, l))).join(" or ")} yet`);
    return;
  }
  const [packed] = JSON.parse(run("npm", ["pack", "--dry-run", "--json"], pkg));
  const files = packed.files.map((f) => f.path);
  for (const licence of licences) {
    assert.ok(files.includes(licence), `${licence} is packed: ${files}`);
    assert.equal(readFileSync(join(pkg, licence), "utf8"), readFileSync(join(root, licence), "utf8"), `${licence} is the repository's (rebuild after it changes)`);
  }
});

// The package as users get it: `npm pack`, installed from the tarball into a scratch project,
// imported there from ESM, required from CommonJS, loaded through the browser entry, and compiled
// by TypeScript against the installed types.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const tsc = join(pkg, "node_modules", ".bin", "tsc");
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

test("no public signature is typed any", () => {
  const declarations = ["dist/arbiter_wasm.d.ts", "js/node.d.ts", "js/web.d.ts", "js/error.d.ts"];
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
  assert.ok(!files.some((f) => f.startsWith("src/") || f.startsWith("test/") || f.endsWith(".rs")), `${files}`);

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
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022"], types: [], skipLibCheck: false },
      files: ["consumer.ts"],
    }),
  );
  writeFileSync(
    join(project, "consumer.ts"),
    `import { TripleTriad, type TripleTriadPlayer } from "arbiter-engine";
     using g = TripleTriad.fromPreset("ff8", 1);
     const p: TripleTriadPlayer | null = g.toMove;
     export const mover = p;`,
  );
  try {
    run(tsc, ["-p", "tsconfig.json"], project);
  } catch (e) {
    assert.fail(`the installed types do not compile:\n${e.stdout}${e.stderr}`);
  }
});

// Every ```js example of the npm guide (wasm/README.md) and of the repository's README runs as
// written: each is saved inside the package (so that `import … from "arbiter-engine"` resolves
// through the package's self-reference), run by node, and compiled by `tsc --strict` against the
// package's types. The ```html example is loaded in Chromium by js-tests/browser/readme.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { blocks } from "./helpers.mjs";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const tsc = join(pkg, "node_modules", ".bin", "tsc");

const examples = [
  ...blocks(join(pkg, "README.md"), "js").map((code, i) => ({ name: `wasm/README.md js example ${i + 1}`, code })),
  ...blocks(join(pkg, "..", "README.md"), "js").map((code, i) => ({ name: `README.md js example ${i + 1}`, code })),
];

test("the READMEs have JavaScript examples", () => {
  assert.ok(examples.length >= 3, `${examples.length} examples`);
});

const scratch = mkdtempSync(join(pkg, ".readme-"));
test.after(() => rmSync(scratch, { recursive: true, force: true }));

for (const [i, { name, code }] of examples.entries()) {
  test(`${name} runs`, () => {
    const file = join(scratch, `example-${i}.mjs`);
    writeFileSync(file, code);
    try {
      execFileSync(process.execPath, [file], { cwd: scratch, encoding: "utf8", stdio: "pipe", timeout: 60_000 });
    } catch (e) {
      assert.fail(`${name} failed:\n${code}\n${e.stderr || e.message}`);
    }
  });
}

for (const readme of ["wasm/README.md", "README.md"]) {
  test(`the examples of ${readme} compile under tsc --strict`, () => {
    const mine = [...examples.entries()].filter(([, e]) => e.name.startsWith(`${readme} `));
    const files = mine.map(([i]) => `example-${i}.mts`);
    mine.forEach(([i, { code }]) => writeFileSync(join(scratch, `example-${i}.mts`), code));
    const config = join(scratch, `tsconfig-${readme.replace(/\W/g, "-")}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          // The examples print with console, which TypeScript declares in the DOM library.
          lib: ["es2022", "dom"],
          types: [],
          skipLibCheck: false,
        },
        files,
      }),
    );
    try {
      execFileSync(tsc, ["-p", config], { encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      const out = `${e.stdout}${e.stderr}`.replace(/\S*example-(\d+)\.mts/g, (_, i) => examples[i].name);
      assert.fail(`the examples do not compile:\n${out}`);
    }
  });
}

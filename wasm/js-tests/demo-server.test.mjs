// `npm run demo` (demo/server.mjs) as a newcomer starts it: the page's address first, and on a
// taken port one line saying which and how to choose another, never a stack trace.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const script = join(dirname(dirname(fileURLToPath(import.meta.url))), "demo", "server.mjs");

function start(port) {
  const child = spawn(process.execPath, [script], { env: { ...process.env, PORT: String(port) } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return { child, out: () => stdout, err: () => stderr };
}

test("a taken port is one line that names it and says how to choose another", async (t) => {
  const taken = createServer();
  await new Promise((resolve) => taken.listen(0, "127.0.0.1", resolve));
  t.after(() => taken.close());
  const port = taken.address().port;
  const demo = start(port);
  const code = await new Promise((resolve) => demo.child.on("exit", resolve));
  assert.equal(code, 1);
  assert.equal(demo.out(), "");
  const lines = demo.err().trimEnd().split("\n");
  assert.equal(lines.length, 1, demo.err());
  assert.match(lines[0], new RegExp(`port ${port} is taken.*PORT=`));
});

test("a free port prints the page's address first", async (t) => {
  const demo = start(0);
  t.after(() => demo.child.kill());
  const until = Date.now() + 10_000;
  while (!demo.out().includes("\n")) {
    assert.ok(Date.now() < until, `no address printed: ${demo.err()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const url = demo.out().split("\n")[0];
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/demo\/$/);
  const page = await fetch(url);
  assert.equal(page.status, 200);
});

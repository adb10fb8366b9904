// Starts boardgame.io's server (server.cjs) with one storage on a free loopback port, runs the load
// client against it, stops it, and prints the load client's JSON line with the storage named.
//
//   node run.mjs --storage memory|flatfile --clients 200 --seconds 20 [--warmup 3] [--think-ms 0]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { runLoad } from "./load.mjs";

const { values } = parseArgs({
  options: {
    storage: { type: "string", default: "memory" },
    clients: { type: "string", default: "200" },
    seconds: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    "think-ms": { type: "string", default: "0" },
    seed: { type: "string", default: "1" },
  },
});

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const dir = values.storage === "flatfile" ? mkdtempSync(join(tmpdir(), "bgio-flatfile-")) : null;
const args = [fileURLToPath(new URL("server.cjs", import.meta.url)), "--port", String(port), "--storage", values.storage];
if (dir) args.push("--dir", dir);
const server = spawn(process.execPath, args, {
  env: { ...process.env, NODE_ENV: "production" },
  stdio: ["ignore", "pipe", "inherit"],
});
try {
  await new Promise((resolve, reject) => {
    server.once("exit", (code) => reject(new Error(`boardgame.io's server exited (${code})`)));
    server.stdout.on("data", (chunk) => String(chunk).includes("listening on") && resolve());
  });
  const report = await runLoad({
    url: `http://127.0.0.1:${port}`,
    clients: Number(values.clients),
    seconds: Number(values.seconds),
    warmup: Number(values.warmup),
    thinkMs: Number(values["think-ms"]),
    seed: Number(values.seed),
    serverPid: server.pid,
  });
  console.log(JSON.stringify({ storage: values.storage, ...report }));
  process.exitCode = report.errors ? 1 : 0;
} finally {
  server.kill("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
}
process.exit();

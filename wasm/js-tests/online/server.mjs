// A real arbiter-server process for the client and Online-tab tests: the binary that cargo builds
// from this repository (or $ARBITER_SERVER), on a loopback port, with an SQLite database in a
// temporary folder, serving this package's folder (the demo) as its static files. A missing
// binary or a build failure fails the tests: nothing is skipped.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const root = dirname(pkg);

/** The arbiter-server executable: $ARBITER_SERVER, or what `cargo build -p arbiter-server`
 * makes (up to date in seconds when already built; CARGO_TARGET_DIR is honoured by cargo). */
export function serverBinary() {
  if (process.env.ARBITER_SERVER) {
    if (!existsSync(process.env.ARBITER_SERVER)) throw new Error(`ARBITER_SERVER=${process.env.ARBITER_SERVER} does not exist`);
    return process.env.ARBITER_SERVER;
  }
  let output;
  try {
    output = execFileSync("cargo", ["build", "-p", "arbiter-server", "--bin", "arbiter-server", "--message-format=json-render-diagnostics"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 64 << 20,
    });
  } catch (e) {
    throw new Error(`cargo could not build arbiter-server (${e.message}): the online tests need it`);
  }
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    const message = JSON.parse(line);
    if (message.reason === "compiler-artifact" && message.target?.name === "arbiter-server" && message.executable) {
      return message.executable;
    }
  }
  throw new Error("cargo built no arbiter-server executable");
}

/**
 * Starts a server; `stop()` ends it (SIGKILL: as a crash would), `restart()` starts it again on
 * the same port and database, `close()` stops it and removes its folder.
 */
export async function startServer({ binary = serverBinary(), env = {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "arbiter-online-"));
  const database = `sqlite://${join(dir, "arbiter.db")}`;
  const server = {
    dir,
    database,
    port: 0,
    process: null,
    log: "",
    get url() {
      return `http://127.0.0.1:${this.port}`;
    },
    get wsUrl() {
      return `ws://127.0.0.1:${this.port}/ws`;
    },
    async start() {
      const child = spawn(binary, ["--listen", `127.0.0.1:${this.port}`, "--database", database, "--static-dir", pkg], {
        // No picking window unless a test opens one: the others start their matches at once.
        env: { ...process.env, ARBITER_LOG: "arbiter_server=info", ARBITER_PICK_SECONDS: "0", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      this.process = child;
      const port = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`arbiter-server did not say where it listens:\n${this.log}`)), 60_000);
        const read = (chunk) => {
          this.log += chunk;
          const found = /(?:127\.0\.0\.1|localhost):(\d+)/.exec(this.log);
          if (found && Number(found[1]) !== 0) {
            clearTimeout(timer);
            resolve(Number(found[1]));
          }
        };
        child.stdout.setEncoding("utf8").on("data", read);
        child.stderr.setEncoding("utf8").on("data", read);
        child.once("exit", (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`arbiter-server exited (${code ?? signal}):\n${this.log}`));
        });
      });
      this.port = port;
      // Ready when /healthz answers.
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(`${this.url}/healthz`)).ok) break;
        } catch {
          // not yet
        }
        if (i > 200) throw new Error(`arbiter-server never answered /healthz:\n${this.log}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return this;
    },
    async stop() {
      const child = this.process;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      this.process = null;
    },
    async restart() {
      await this.stop();
      this.log = "";
      return this.start();
    },
    async close() {
      await this.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server.start();
}

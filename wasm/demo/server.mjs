// A tiny static server for the demo: it serves the package directory (wasm/) so that the page
// loads the package exactly as a site would, `js/web.js` and `dist/arbiter_wasm_bg.wasm`
// included. Only files under that directory are served.
//
//   node demo/server.mjs            port 8080 (or $PORT); 0 picks a free one
//
// The first line printed is the page's address (the browser tests read it).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".txt": "text/plain; charset=utf-8",
  // WebAssembly.instantiateStreaming refuses any other type.
  ".wasm": "application/wasm",
};

export function serve(port = 8080, host = "127.0.0.1") {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/") {
      res.writeHead(302, { location: "/demo/" }).end();
      return;
    }
    const file = normalize(join(root, path.endsWith("/") ? path + "index.html" : path));
    if (!file.startsWith(root) || file.split(sep).includes("node_modules")) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": types[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
      });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const url = `http://${host}:${server.address().port}/demo/`;
      resolve({ server, url });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 8080);
  try {
    const { url } = await serve(port);
    console.log(url);
    console.log("Arbiter demo: open the address above; Ctrl-C stops the server.");
  } catch (e) {
    // A newcomer reads one line that says what to do, not a stack trace.
    const why = e.code === "EADDRINUSE" ? `port ${port} is taken` : e.code === "EACCES" ? `port ${port} is not allowed` : e.message;
    console.error(`arbiter demo: ${why}: choose another with PORT, e.g. PORT=8081 npm run demo (PORT=0 picks a free one)`);
    process.exit(1);
  }
}

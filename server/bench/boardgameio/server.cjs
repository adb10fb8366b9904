// boardgame.io's own server (Koa + socket.io) serving the comparable game, as its documentation
// sets it up: `node server.cjs --port 8000 --storage memory|flatfile [--dir DIR]`. `memory` is its
// default in-memory storage (nothing survives the process); `flatfile` its FlatFile storage
// (node-persist: one JSON file per key, written after the move was broadcast).
const { Server, FlatFile } = require("boardgame.io/server");
const { TripleTriad } = require("./game.cjs");
const { parseArgs } = require("node:util");

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8000" },
    storage: { type: "string", default: "memory" },
    dir: { type: "string" },
  },
});
let db;
if (values.storage === "flatfile") {
  if (!values.dir) throw new Error("--storage flatfile needs --dir");
  db = new FlatFile({ dir: values.dir, logging: false, ttl: false });
} else if (values.storage !== "memory") {
  throw new Error(`unknown --storage ${values.storage} (memory or flatfile)`);
}
const server = Server({ games: [TripleTriad], db });
server.run({ port: Number(values.port) }, () => console.log(`listening on ${values.port} (${values.storage})`));

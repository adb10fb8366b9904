// The client's types as a consumer uses them; checked by `tsc -p test/types` (never run).
import { ArbiterError } from "arbiter-engine";
import {
  ArbiterClient,
  ConnectionError,
  ServerError,
  PROTOCOL,
  type Challenge,
  type Match,
  type MatchResult,
  type MovedMessage,
  type ServerErrorCode,
  type TraxView,
  type TripleTriadView,
  type WebSocketLike,
} from "arbiter-engine/client";

declare function log(...values: unknown[]): void;
declare const Impl: new (url: string) => WebSocketLike;

export async function session(url: string): Promise<MatchResult | null> {
  const client = await ArbiterClient.connect(url, { WebSocket: Impl, reconnectDelays: [100, 1000] });
  const version: 1 = PROTOCOL;
  void version;
  const { user, token } = await client.login("alice", "correct horse");
  const name: string = user.name;
  const kept: string = token;
  void name, kept;
  const stop = client.on("moved", (m: MovedMessage) => log(m.ply, m.move, m.timeout));
  stop();
  client.on("match", (m: Match) => log(m.id, m.ply, m.toMove, m.deadline));
  client.on("disconnected", ({ code, reconnecting }) => log(code, reconnecting));
  const challenge: Challenge = await client.challenge({
    game: "triple-triad",
    options: { preset: "mush", sudden_death: "shuffle", rules: { open: true } },
    seats: [{ kind: "me" }, { kind: "computer", level: "expert" }],
    time: 60,
  });
  await client.challenge({ game: "trax", options: { variant: "loop" }, seats: [{ kind: "me" }, { kind: "player", name: "bob" }] });
  // @ts-expect-error: not a Trax variant
  await client.challenge({ game: "trax", options: { variant: "9x9" } });
  const { match } = await client.once("match_started", (e) => e.match.id > challenge.id);
  const state = client.matches.get(match.id);
  if (state === undefined) return null;
  try {
    const moved = await state.play("0@4");
    if (state.game === "trax") log((moved.view as TraxView).observation.moves);
    else if (state.game === "triple-triad") log((moved.view as TripleTriadView).observation?.hand);
    await client.play(match.id, 17);
  } catch (e) {
    if (e instanceof ServerError) {
      const code: ServerErrorCode = e.serverCode;
      log(code, e.code, e.message, e instanceof ArbiterError);
    } else if (e instanceof ConnectionError) {
      log(e.closeCode, e.reason);
    }
  }
  // @ts-expect-error: a move is notation or an action id
  await client.play(match.id, { cell: 4 });
  const watched = await client.spectate(match.id);
  client.close();
  return watched.result;
}

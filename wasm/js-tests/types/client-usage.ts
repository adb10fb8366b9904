// The client's types as a consumer uses them; checked by `tsc -p js-tests/types` (never run).
import { ArbiterError } from "arbiter-engine";
import {
  ArbiterClient,
  ConnectionError,
  ServerError,
  PROTOCOL,
  type Challenge,
  type Match,
  type MatchResult,
  type HistoryPage,
  type MovedMessage,
  type ServerErrorCode,
  type TraxView,
  type TripleTriadView,
  type WebSocketLike,
  type Deck,
  type Settlement,
  type StashEntry,
  type TradeRuleName,
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
  const { spectators } = await client.setSpectators(match.id, "broadcast");
  // @ts-expect-error: not a spectators option
  await client.setSpectators(match.id, "friends");
  client.on("match_broadcast", (b) => log(b.ply, b.move, b.view, spectators));
  client.on("unspectated", ({ match: id, reason }) => log(id, reason ?? "asked"));
  const sent = await client.chat("good game", { match: match.id });
  if (sent.type === "chat_commands") log(sent.commands.join(" "));
  await client.chat("psst", { to: "bob", pose: false });
  // @ts-expect-error: a chat line is text
  await client.chat(42);
  const { silenced } = await client.silenceSpectators(match.id, true);
  client.on("chat", (line) => log(line.from.name, line.text, line.match ?? "lobby", silenced));
  client.on("chat_history", ({ lines }) => log(lines.length));
  client.on("quiz_question", ({ question }) => log(question.kind === "rank" ? question.side : question.kind));
  client.on("quiz_answered", ({ by, scores }) => log(by.name, scores[0]?.points));
  for (const [id, shown] of client.lobbyState.broadcasts) log(id, shown.ply, shown.to_move);
  const page: HistoryPage = await client.history(match.id, { from: 0, count: 100 });
  log(page.ply, page.from, page.moves.map((m) => m.move));
  // @ts-expect-error: a page starts at an index
  await client.history(match.id, { from: "start" });
  const watched = await client.spectate(match.id);
  const earlier: number = await watched.loadEarlier();
  log(earlier, watched.from, watched.moves.length);
  client.close();
  return watched.result;
}

export async function economy(client: ArbiterClient, rival: string): Promise<Settlement | null> {
  const wallet = await client.wallet();
  if (!wallet.starter_taken) log((await client.starter()).map((c) => c.id));
  const stash: StashEntry[] = await client.stash();
  const deck: Deck = await client.createDeck("Start");
  await client.addToDeck(deck.name, stash.slice(0, 5).map((e) => e.card.id));
  const { check } = await client.checkDeck("Start");
  if (!check.usable) log(check.problem);
  for (const { series, owned } of await client.shop()) log(series.code, series.random_price ?? "--", owned);
  const bought = await client.buyRandom("A", 1);
  log(bought.card.card.ranks, bought.price);
  const [ranks] = await client.suggest(5);
  if (ranks) await client.createCustom({ name: "Ultros", level: 5, ranks, element: "water" });
  // @ts-expect-error: ranks are four numbers
  await client.createCustom({ name: "X", level: 1, ranks: [1, 2] });
  const trades = client.describe("triple-triad")?.options.find((o) => o.name === "trade");
  const trade: TradeRuleName = trades?.kind === "choice" ? (trades.values[2] as TradeRuleName) : "one";
  // @ts-expect-error: not a winner rule
  await client.challenge({ game: "triple-triad", options: { deck: "Start", stake: { trade: "five" } } });
  const challenge = await client.challenge({
    game: "triple-triad",
    options: { preset: "mush", deck: "Start", stake: { trade, gils: 0, customs: "mush" } },
    seats: [{ kind: "me" }, { kind: "player", name: rival }],
  });
  await client.accept(challenge.id, { deck: "Main" });
  const { match } = await client.once("match_started");
  const state = client.matches.get(match.id);
  if (state?.choice && state.choice.chooser === client.user?.id) {
    const list = await client.winList(match.id);
    const { settlement } = await client.choose(match.id, [1, list.cards[0]?.id ?? "2"]);
    return settlement;
  }
  return state?.settlement ?? null;
}

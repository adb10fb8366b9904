// Types of arbiter-engine/client (js/client.js): arbiter-server's WebSocket protocol, version 1
// (server/PROTOCOL.md in the repository lists every message).
import { ArbiterError } from "./error.js";
import type {
  NantongLevel,
  NantongObservation,
  SuddenDeath,
  TraxLevel,
  TraxTurn,
  TraxVariant,
  TripleTriadLevel,
  TripleTriadObservation,
  TripleTriadPreset,
  TripleTriadRules,
  Card,
  Placed,
  Wall,
  Element,
  GameDescription,
} from "../dist/arbiter_wasm.js";

/** The protocol version this client speaks. */
export declare const PROTOCOL: 1;

export type { GameName } from "../dist/arbiter_wasm.js";
import type { GameName } from "../dist/arbiter_wasm.js";

/** Every error code of the server (PROTOCOL.md, "Error codes"). */
export type ServerErrorCode =
  | "bad_json"
  | "bad_message"
  | "unknown_type"
  | "hello_first"
  | "protocol_version"
  | "too_large"
  | "rate_limited"
  | "not_authenticated"
  | "already_authenticated"
  | "bad_name"
  | "bad_password"
  | "name_taken"
  | "login_failed"
  | "bad_language"
  | "bad_token"
  | "busy"
  | "no_such_player"
  | "bad_challenge"
  | "no_such_challenge"
  | "not_invited"
  | "own_challenge"
  | "not_challenger"
  | "no_such_match"
  | "not_seated"
  | "not_your_turn"
  | "bad_move"
  | "illegal_move"
  | "stale_ply"
  | "match_over"
  | "private_match"
  | "internal"
  // the card economy (PROTOCOL.md, "Error codes of the economy")
  | "starter_taken"
  | "no_such_card"
  | "no_such_series"
  | "not_owned"
  | "not_in_deck"
  | "deck_full"
  | "deck_exists"
  | "no_such_deck"
  | "bad_deck_name"
  | "no_current_deck"
  | "no_deck"
  | "deck_unusable"
  | "card_at_stake"
  | "bad_stake"
  | "not_enough_points"
  | "not_for_sale"
  | "copy_limit"
  | "bad_custom_card"
  | "bad_level"
  | "nothing_to_choose"
  | "not_the_winner"
  | "bad_choice"
  | "already_settled"
  | "too_few_cards";

/** A request the server refused. `serverCode` is the server's code; `code` the engine's code that
 * fits it (`illegal_move`, `not_your_turn`, `stale_ply` → `ILLEGAL_MOVE`; `bad_move` →
 * `PARSE_ERROR`; `match_over` → `GAME_OVER`; `rate_limited`, `busy` → `LIMIT_EXCEEDED`;
 * `internal` → `INTERNAL_ERROR`; the rest `BAD_ARGUMENT`); `message` the server's words. */
export declare class ServerError extends ArbiterError {
  readonly serverCode: ServerErrorCode;
  /** The `type` of the request refused, or null for an error the server pushed (`rate_limited`). */
  readonly request: string | null;
}

/** The connection could not be opened, or closed before a request was answered (code
 * `INTERNAL_ERROR`). A move whose request failed so may still have been played: the client takes
 * the server's state after it reconnects. */
export declare class ConnectionError extends ArbiterError {
  /** The WebSocket close code, when the connection closed. */
  readonly closeCode: number | null;
  readonly reason: string;
}

export interface User {
  id: number;
  name: string;
}

export interface Welcome {
  type: "welcome";
  protocol: 1;
  server: string;
  limits: {
    max_frame: number;
    rate_per_s: number;
    burst: number;
    min_time: number;
    max_time: number;
    /** The moves a `match_state` carries (the last ones). */
    recent_moves?: number;
    /** The most moves one `history` answer carries. */
    history_max?: number;
  };
  games: {
    "triple-triad": {
      seats: 2;
      levels: TripleTriadLevel[];
      presets: TripleTriadPreset[];
      sudden_death: SuddenDeath[];
      rules: string[];
      options: GameDescription;
    };
    trax: { seats: 2; levels: TraxLevel[]; variants: TraxVariant[]; options: GameDescription };
    nantong: { seats: 3; levels: NantongLevel[]; max_deals: number; options: GameDescription };
  };
}

/** A seat of a challenge as asked for. */
export type SeatSpec =
  | { kind: "me" }
  | { kind: "player"; name: string }
  | { kind: "open" }
  /** `level`: a level, or for Triple Triad a computer player's name (`Mog-Facile`, `facile`). */
  | { kind: "computer"; level: TripleTriadLevel | TraxLevel | NantongLevel | string };

/** A winner rule of the card economy (`describe("triple-triad")`'s `trade`). */
export type TradeRuleName =
  | "training"
  | "none"
  | "one"
  | "two"
  | "three"
  | "four"
  | "all"
  | "diff"
  | "diff_over_five"
  | "direct"
  | "direct_swap"
  | "random";

/** What a Triple Triad challenge puts at stake. */
export interface Stake {
  /** Default `one`. */
  trade?: TradeRuleName;
  /** Gils each player bets (the winner takes both, a draw returns them). Default 0. */
  gils?: number;
  /** `mush`: no thresholds; `ttonline`: the French server's experience thresholds. Default `mush`. */
  customs?: "mush" | "ttonline";
}

export interface TripleTriadOptions {
  preset?: TripleTriadPreset;
  /** The picked hands at stake: the challenger's `deck` or `cards`, the accepting player's in `accept`. */
  stake?: Stake;
  /** The challenger's deck, in a game that plays picked hands (between people, or with a `stake`). */
  deck?: string;
  rules?: Partial<Omit<TripleTriadRules, "same_min_matches">> & { same_min_matches?: number };
  sudden_death?: SuddenDeath;
  round_limit?: number;
  walls?: Wall[];
  deck_level_limit?: number;
}

export interface ChallengeSpecBase {
  /** One entry per seat, in seat order; exactly one `me`. Default `[me, open]` (`[me, open, open]`). */
  seats?: SeatSpec[];
  /** Seconds per move, 15 to 300 (default 60). */
  time?: number;
  /** No spectators and not listed (default false). */
  private?: boolean;
  /** Every move also shown to the whole lobby (`match_broadcast`; default false; not with `private`). */
  broadcast?: boolean;
}

/** A line of a chat room (no `match`: the lobby's), or a page to the player `to`. */
export interface ChatLine {
  match?: number;
  from: User;
  to?: string;
  text: string;
  /** An action ("waves") rather than words. */
  pose: boolean;
  time: number;
}

/** A quiz question: data, which the client words (the rules' questions by their id). */
export type QuizQuestion =
  | { kind: "rank"; card: string; side: "top" | "right" | "bottom" | "left" }
  | { kind: "level"; card: string }
  | { kind: "element"; card: string }
  | { kind: "rule"; rule: "same_sides" | "board_cells" | "hand_cards" | "elemental_bonus" | "wall_rank" };

export interface QuizScore {
  name: string;
  points: number;
}

/** Who may watch a match: anyone, anyone with every move shown to the lobby, or nobody. */
export type Spectators = "open" | "broadcast" | "private";

export type ChallengeSpec =
  | (ChallengeSpecBase & {
      game: "triple-triad";
      options?: TripleTriadOptions;
      /** The challenger's five cards by id (instead of `options.deck`), never shown to anyone. */
      cards?: string[];
    })
  | (ChallengeSpecBase & { game: "trax"; options?: { variant?: TraxVariant } })
  | (ChallengeSpecBase & { game: "nantong"; options?: { deals?: number } });

/** A seat of a challenge or match as the server lists it. */
export type SeatInfo =
  | { kind: "player"; name: string; user?: number; taken?: boolean }
  | { kind: "open"; taken?: boolean }
  /** `name`: the computer player of that level, where it has one (`Mog-Facile`). */
  | { kind: "computer"; level: string; name?: string; taken?: boolean };

/** A challenge's or a match's whole rules as data (PROTOCOL.md, "Rules"), for the client to word. */
export interface RulesData {
  time: number;
  spectators: Spectators;
  /** Triple Triad: the gameplay rules on, by name. */
  rules?: string[];
  same_min_matches?: number;
  sudden_death?: string;
  round_limit?: number | null;
  deck_level_limit?: number | null;
  walls?: { cell: number; side: string; label: string }[];
  /** What is at stake (none: nothing). */
  stake?: { trade: string; gils: number; customs: string } | null;
}

export interface Challenge {
  id: number;
  game: GameName;
  options: Record<string, unknown>;
  rules: RulesData;
  time: number;
  private: boolean;
  by: User;
  seats: SeatInfo[];
  created: number;
}

export interface MatchSummary {
  id: number;
  game: GameName;
  options: Record<string, unknown>;
  rules: RulesData;
  time: number;
  private: boolean;
  spectators: Spectators;
  seats: SeatInfo[];
  ply: number;
  status: "running" | "over";
  started: number;
}

export interface MatchResult {
  reason: "finished" | "forfeit";
  winners: number[];
  outcome: ("won" | "lost" | "drawn" | "dnf")[];
  scores?: number[];
  left: number | null;
}

/** A move of the match's list. */
export interface MoveRecord {
  ply: number;
  seat: number;
  move: string;
  action: number;
  timeout: boolean;
}

/** What a hand looks like to someone who does not hold it: `null` for each closed card. */
export type SeenHand = (Card | null)[];

export interface TripleTriadPublic {
  board: (Placed | null)[];
  rules: TripleTriadRules;
  elements: Element[];
  walls: Wall[];
  to_move: "blue" | "red" | null;
  hands: [SeenHand, SeenHand];
}

export interface TripleTriadView {
  round: number;
  /** The last finished rounds (eight at most; every round but a match's last is a draw). */
  rounds: { winner: "blue" | "red" | null; scores: [number, number] }[];
  /** The finished rounds before those listed: draws all. */
  rounds_before?: number;
  /** By cell, the ranks the card placed there plays with (Elemental's changes), as the core
   * reckons them; here beside the observation rather than in it. */
  effective: TripleTriadObservation["effective"];
  /** The seat's own observation; null in the public view (then `public` says what all may see). */
  observation: Omit<TripleTriadObservation, "effective"> | null;
  public?: TripleTriadPublic;
}

export interface TraxView {
  observation: { variant: TraxVariant; moves: string[] };
  last_turn: TraxTurn | null;
  winner: "white" | "red" | null;
}

export interface NantongView {
  deal: number;
  deals: number;
  totals: number[];
  deal_results: number[][];
  observation: NantongObservation;
}

export type View = TripleTriadView | TraxView | NantongView;

export interface MatchStateMessage {
  type: "match_state";
  re?: number | string;
  match: MatchSummary;
  seat: number | null;
  view: View;
  /** The moves played in all. */
  ply: number;
  /** The index in the whole list of the first of `moves`. */
  from: number;
  /** The last moves (`welcome.limits.recent_moves`); `history` reads the others. */
  moves: MoveRecord[];
  to_move: number | null;
  deadline: number | null;
  remaining_ms: number | null;
  result: MatchResult | null;
}

/** A page of a match's move list (`ArbiterClient.history`). */
export interface HistoryPage {
  match: number;
  /** The moves played in all. */
  ply: number;
  /** The index in the whole list of the first of `moves`. */
  from: number;
  moves: MoveRecord[];
}

export interface MovedMessage extends MoveRecord {
  type: "moved";
  re?: number | string;
  match: number;
  view: View;
  to_move: number | null;
  deadline: number | null;
  remaining_ms: number | null;
}

/** A computer player one may challenge by name (as a player seat, or a computer seat's level). */
export interface Robot {
  name: string;
  game: string;
  level: string;
}

export interface LobbyMessage {
  type: "lobby";
  online: User[];
  /** The computer players, the same on every page. */
  robots: Robot[];
  challenges: Challenge[];
  matches: MatchSummary[];
  /** The page this one follows (`null`: the first); `lobby()` gathers every page. */
  after?: string | null;
  /** What to send as `after` for the next page (`null`: the last). */
  next?: string | null;
  /** The most entries of each list a page holds. */
  limit?: number;
}

export interface LobbyState {
  online: Map<number, User>;
  robots: Robot[];
  challenges: Map<number, Challenge>;
  matches: Map<number, MatchSummary>;
  /** The last move of each broadcast match, with the spectators' view, by match id. */
  broadcasts: Map<number, Omit<MatchBroadcast, "type" | "match">>;
}

/** A move of a broadcast match, as the whole lobby receives it. */
export interface MatchBroadcast {
  type: "match_broadcast";
  match: number;
  ply: number;
  seat: number;
  move: string;
  game: GameName;
  seats: SeatInfo[];
  view: View;
  to_move: number | null;
}

/** A card of the shop's database. */
export interface ShopCard {
  /** `A001`, `C012`: the series code and a number. */
  id: string;
  card: { name: string; ranks: [number, number, number, number]; element: Element; power: number; level: number };
  /** Flavour text (may be empty). */
  text: string;
}

export interface Wallet {
  points: number;
  experience: number;
  gils: number;
  starter_taken: boolean;
  current_deck: string | null;
  /** Cards owned. */
  cards: number;
}

export interface StashEntry {
  card: ShopCard;
  count: number;
  in_decks: number;
  at_stake: number;
}

export interface Deck {
  name: string;
  /** The physical cards: [card id in the stash, the card]. */
  cards: [number, ShopCard][];
  /** Why cards left it (lost in a match), until it is full again. */
  note: string | null;
  current: boolean;
}

export interface DeckCheck {
  /** Usable under the level limit of 20. */
  usable: boolean;
  usable_limitless: boolean;
  level_total: number;
  /** Why not, in English words. */
  problem: string | null;
  /** Why not, as a code: not five cards, `card` not owned as often, levels over 20. */
  reason: "size" | "not_owned" | "level_total" | null;
  /** The card of `not_owned`. */
  card?: string;
}

export interface SeriesInfo {
  series: {
    code: string;
    name: string;
    /** Points per level for a random card of a level; null: not sold so. */
    random_price: number | null;
    /** Points per level for a named card; null: not sold so. */
    card_price: number | null;
    copies: "by_level" | "one";
  };
  /** Different cards in it. */
  cards: number;
  /** How many of those you own. */
  owned: number;
}

export interface Sale {
  card: ShopCard;
  price: number;
}

export interface CustomCardSpec {
  name: string;
  level: number;
  /** Top, right, bottom, left. */
  ranks: [number, number, number, number];
  element?: Element;
  text?: string;
}

export interface WinList {
  /** The winner's user id. */
  chooser: number;
  count: number;
  deadline: number;
  /** The loser's five, by position 1 to 5. */
  cards: ShopCard[];
  /** Under `direct_swap`: the winner's own five; taking the loser's card at a position gives up
   * the winner's at the same position. */
  facing?: ShopCard[];
}

/** The winner of a match with stakes is choosing (to both players). */
export interface TradeChoice {
  /** The winner's user id. */
  chooser: number;
  count: number;
  /** When the server chooses for the winner (the highest levels), Unix ms. */
  deadline: number;
}

/** What the end of a match with stakes did with the cards. */
export interface Settlement {
  moved: { id: number; card: string; from: string; to: string }[];
  /** Cards the rule gave that the winner already owned as often as allowed: they stayed. */
  kept: string[];
}

export interface Stats {
  type: "stats";
  user: User;
  games: Partial<Record<GameName, { played: number; won: number; lost: number; drawn: number; dnf: number }>>;
}

/** The events of a client, by name, with what the listener receives. */
export interface ClientEvents {
  presence: { type: "presence"; user: User; online: boolean };
  challenge_open: { type: "challenge_open"; challenge: Challenge };
  challenge_closed: { type: "challenge_closed"; challenge: number; reason: "refused" | "withdrawn" | "started" | "picking" | "pick_timeout" };
  /** Every seat taken: `waiting` still name their five, until `until` (ms since the epoch). */
  picking: { type: "picking"; challenge: Challenge; until: number; remaining_ms: number; waiting: string[] };
  match_listed: { type: "match_listed"; match: MatchSummary };
  match_unlisted: { type: "match_unlisted"; match: number };
  match_started: { type: "match_started"; match: MatchSummary; seat: number };
  match_state: MatchStateMessage;
  moved: MovedMessage;
  /** A match ended. Also after `login` or `resume`, once, for a match of this user's that ended
   * while no connection of theirs was open: possibly one this client does not follow (it is not
   * in `matches`, and no `match` event comes with it). */
  match_over: { type: "match_over"; match: number; result: MatchResult };
  match_broadcast: MatchBroadcast;
  /** Who may watch a match this client follows changed (`by`: the seat's player who said so). */
  match_spectators: { type: "match_spectators"; re?: number; match: number; spectators: Spectators; by: User };
  /** No longer watching: the answer to `unspectate`, or (with a `reason`) put out by the server. */
  unspectated: { type: "unspectated"; re?: number; match: number; reason?: "private"; message?: string };
  /** A chat line heard (the sender's own too). */
  chat: { type: "chat" } & ChatLine;
  /** The last lines of a room, on joining it (the lobby: after `lobby()`; a match: after `spectate`). */
  chat_history: { type: "chat_history"; match?: number; lines: ChatLine[] };
  chat_silenced: { type: "chat_silenced"; re?: number; match: number; silenced: boolean; by: User };
  quiz_question: { type: "quiz_question"; re?: number; match?: number; number: number; question: QuizQuestion; deadline: number };
  quiz_answered: { type: "quiz_answered"; match?: number; number: number; by: User; answer: string; scores: QuizScore[] };
  quiz_timeout: { type: "quiz_timeout"; match?: number; number: number; answer: string };
  tt_choose: { type: "tt_choose"; match: number } & TradeChoice;
  /** What the end of a match with stakes did with the cards; like `match_over`, also after
   * `login` or `resume` when it was missed, for a match this client may not follow. */
  tt_settled: { type: "tt_settled"; match: number } & Settlement;
  /** A match this client follows changed (a state, a move, its end). */
  match: Match;
  /** The lobby changed (after `lobby()`). */
  lobby: LobbyState;
  /** An error the server pushed unasked (e.g. `rate_limited`). */
  error: ServerError;
  disconnected: { code: number; reason: string; reconnecting: boolean };
  /** Reconnected, the session resumed and every followed match's state taken again. */
  reconnected: { user: User | null };
  /** The token no longer resumes (logged out elsewhere): connected, logged out. */
  session_lost: { error: ServerError };
  /** Closed for good: no reconnection follows. */
  closed: { code: number; reason: string };
}

/** What the client needs of a WebSocket (the browsers', Node's global one, the ws package's). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface ClientOptions {
  /** The WebSocket class (default: the global one; Node 20 needs `--experimental-websocket` or
   * e.g. the `ws` package's). */
  WebSocket?: new (url: string) => WebSocketLike;
  /** Reconnect after a drop (default true). */
  reconnect?: boolean;
  /** A session token kept from before (a page reload): `resume(client.token!)` uses it. */
  token?: string;
  /** How long a request waits for its answer (default 30 000 ms). */
  requestTimeoutMs?: number;
  /** The waits before each reconnection attempt, the last repeated (default 250 … 5000 ms). */
  reconnectDelays?: number[];
}

/** One match as the server last described it to this connection. */
export declare class Match {
  readonly id: number;
  readonly summary: MatchSummary | null;
  /** This connection's seat, or null when spectating. */
  readonly seat: number | null;
  readonly view: View | null;
  /** The moves known, in order: the last ones of a `match_state`, then each move played. */
  readonly moves: readonly MoveRecord[];
  /** The index in the whole list of `moves[0]`: `loadEarlier` reads the moves before it. */
  readonly from: number;
  readonly toMove: number | null;
  /** When the clock of the seat to move runs out (Unix ms). */
  readonly deadline: number | null;
  readonly remainingMs: number | null;
  readonly result: MatchResult | null;
  readonly spectating: boolean;
  readonly ply: number;
  readonly game: GameName | null;
  readonly isOver: boolean;
  /** A match with stakes whose winner is choosing, until `settlement`. */
  readonly choice: TradeChoice | null;
  readonly settlement: Settlement | null;
  play(move: string | number): Promise<MovedMessage>;
  leave(): Promise<Match>;
  /** Reads up to `count` moves before those known (the server's page at most) and puts them
   * first; resolves with how many came. */
  loadEarlier(count?: number): Promise<number>;
}

export declare class ArbiterClient {
  /** Opens a connection, says hello and checks the protocol version. */
  static connect(url: string | { href: string }, options?: ClientOptions): Promise<ArbiterClient>;
  private constructor(url: string | { href: string }, options?: ClientOptions);
  readonly welcome: Welcome | null;
  readonly user: User | null;
  readonly token: string | null;
  /** The page language the account keeps (`authenticated`'s), null when none or logged out. */
  readonly language: "en" | "fr" | null;
  readonly state: "connecting" | "open" | "reconnecting" | "closed";
  readonly lobbyState: LobbyState;
  readonly matches: Map<number, Match>;

  /** The options of `game` as the server's core declares them (`welcome.games[game].options`):
   * names, allowed values, defaults; null before the welcome. */
  describe(game: GameName): GameDescription | null;
  on<K extends keyof ClientEvents>(type: K, listener: (payload: ClientEvents[K]) => void): () => void;
  off<K extends keyof ClientEvents>(type: K, listener: (payload: ClientEvents[K]) => void): void;
  once<K extends keyof ClientEvents>(type: K, filter?: (payload: ClientEvents[K]) => boolean): Promise<ClientEvents[K]>;
  /** Sends any request of the protocol and resolves with the server's reply to it. */
  request(message: { type: string; [field: string]: unknown }): Promise<{ type: string; [field: string]: unknown }>;
  close(): void;

  register(name: string, password: string, options?: { language?: "en" | "fr" }): Promise<{ user: User; token: string; language: "en" | "fr" | null }>;
  login(name: string, password: string): Promise<{ user: User; token: string; language: "en" | "fr" | null }>;
  resume(token: string): Promise<{ user: User; token: string; language: "en" | "fr" | null }>;
  /** Keeps the page language in the account. */
  setLanguage(language: "en" | "fr"): Promise<"en" | "fr">;
  logout(): void;
  stats(name?: string): Promise<Stats>;
  ping(): Promise<{ type: "pong"; time: number }>;

  lobby(): Promise<LobbyMessage>;
  challenge(spec: ChallengeSpec): Promise<Challenge>;
  /** A challenge with stakes needs `deck`, the deck you play with. */
  /** A game that plays picked hands takes `deck` or five card ids `cards`; neither: your current deck. */
  accept(challenge: number, options?: { deck?: string; cards?: string[] }): Promise<{ challenge: number; seat: number }>;
  /** Names your five in a challenge's picking window: `deck` or five card ids `cards`. */
  pick(challenge: number, options: { deck?: string; cards?: string[] }): Promise<{ challenge: number }>;
  refuse(challenge: number): Promise<ClientEvents["challenge_closed"]>;
  withdraw(challenge: number): Promise<ClientEvents["challenge_closed"]>;

  play(match: number, move: string | number): Promise<MovedMessage>;
  /** Forfeits a running match; resolves with it once its result is known. */
  leave(match: number): Promise<Match>;
  spectate(match: number): Promise<Match>;
  unspectate(match: number): Promise<ClientEvents["unspectated"]>;
  /** Who may watch a running match this connection sits in (its spectators are put out by `"private"`). */
  setSpectators(match: number, spectators: Spectators): Promise<ClientEvents["match_spectators"]>;

  /** Says `text` in the lobby, in a match's room, or to one player (`to`, a page). The line
   * comes back as a `chat` event; a server command answers with its own frame. */
  chat(
    text: string,
    options?: { match?: number; to?: string; pose?: boolean },
  ): Promise<
    | { type: "chat_sent" }
    | { type: "chat_commands"; commands: string[] }
    | { type: "quiz_scores"; match?: number; scores: QuizScore[] }
    | ClientEvents["quiz_question"]
  >;
  /** A seated player silences the spectators of a match's chat (`false`: lets them speak). */
  silenceSpectators(match: number, silenced?: boolean): Promise<ClientEvents["chat_silenced"]>;
  sync(match: number): Promise<Match>;
  /** A page of a match's moves: `count` (at most `welcome.limits.history_max`) from index `from`. */
  history(match: number, page?: { from?: number; count?: number }): Promise<HistoryPage>;

  // the card economy (Triple Triad)
  wallet(): Promise<Wallet>;
  /** The 20 starter cards, once per player. */
  starter(): Promise<ShopCard[]>;
  /** Every card owned, with its details. */
  stash(): Promise<StashEntry[]>;
  decks(): Promise<Deck[]>;
  createDeck(name: string): Promise<Deck>;
  deleteDeck(name: string): Promise<void>;
  /** Cards by id or name, all or none; `deck` null: the current deck. */
  addToDeck(deck: string | null, cards: string[]): Promise<Deck>;
  removeFromDeck(deck: string | null, cards: string[]): Promise<Deck>;
  checkDeck(deck?: string | null): Promise<{ deck: Deck; check: DeckCheck }>;
  shop(): Promise<SeriesInfo[]>;
  shopCards(series: string, level?: number | null): Promise<{ card: ShopCard; owned: number }[]>;
  buyRandom(series: string, level: number): Promise<Sale>;
  buyCard(card: string): Promise<Sale>;
  createCustom(spec: CustomCardSpec): Promise<Sale>;
  /** Five rank sets a custom card of `level` may have. */
  suggest(level: number): Promise<[number, number, number, number][]>;
  winList(match: number): Promise<WinList>;
  /** Positions 1 to 5, ids or names; `[]` takes none. */
  choose(match: number, picks: (string | number)[]): Promise<{ moved: number; settlement: Settlement }>;
}

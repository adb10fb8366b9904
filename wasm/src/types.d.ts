
// ---- Triple Triad --------------------------------------------------------------------------

export type TripleTriadPlayer = "blue" | "red";
export type TripleTriadLevel = "random" | "greedy" | "perfect" | "expert";
/** A move: the index of the card in the mover's hand, `@`, the cell (row-major from the top left). */
export type TripleTriadNotation = `${0 | 1 | 2 | 3 | 4}@${0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}`;
export type TripleTriadPreset = "ff8" | "ttonline" | "mush" | "ffforever" | "ffxiv";
export type Element = "none" | "fire" | "ice" | "thunder" | "earth" | "poison" | "wind" | "water" | "holy";
export type Side = "top" | "right" | "bottom" | "left";
/** The rule that flipped a card, as `lastCaptures()` reports it. */
export type CaptureRule = "same" | "plus" | "basic" | "battle" | "combo";
export type SuddenDeath = "off" | "own_colours" | "shuffle" | "original_hands";
export type TradeRule =
  | "training" | "none" | "one" | "two" | "three" | "four" | "all"
  | "diff" | "diff_over_five" | "direct" | "direct_swap" | "random";

/** A card: ranks top, right, bottom, left (10 is A). */
export interface Card {
  name: string;
  ranks: [number, number, number, number];
  element: Element;
  /** Used by power walls only. */
  power: number;
  /** 1..10 for deck limits; 0 when unknown. */
  level: number;
  /** Final Fantasy XIV's card type, read by Ascension and Descension; absent for none. */
  type?: CardType;
}
/** Final Fantasy XIV's card types. */
export type CardType = "none" | "primal" | "scion" | "beastman" | "garlean";
/** A card as input: `element` defaults to `"none"`, `power` and `level` to 0. */
export type CardInput = Pick<Card, "name" | "ranks"> & Partial<Card>;

/** The placement rules. In input every flag defaults to false except `elemental_clamp` (true)
 * and `same_min_matches` (2); an unknown name is refused. */
export interface TripleTriadRules {
  open: boolean;
  random: boolean;
  same: boolean;
  same_wall: boolean;
  same_min_matches: number;
  plus: boolean;
  plus_wall: boolean;
  combo: boolean;
  combo_from_basic: boolean;
  battle: boolean;
  borderless: boolean;
  elemental: boolean;
  elemental_clamp: boolean;
  /** The French « Mur puissant »: a match draws the border's labels from its seed. */
  power_walls: boolean;
  /** Final Fantasy XIV's rules (rules/triple-triad-ffxiv.md); written only when on. */
  reverse?: boolean;
  fallen_ace?: boolean;
  ascension?: boolean;
  descension?: boolean;
  order?: boolean;
  chaos?: boolean;
  three_open?: boolean;
  all_open?: boolean;
  swap?: boolean;
  roulette?: boolean;
  draft?: boolean;
  sudden_death?: boolean;
}

/** A power-wall label on one side of a cell: `">5"`, `"<15"`, `"=8"`. */
export interface Wall {
  cell: number;
  side: Side;
  label: string;
}

export interface Placed<C = Card> {
  card: C;
  owner: TripleTriadPlayer;
}

/** A round's state: what `TripleTriad.toJSON()` writes (the conformance cases' state). */
export interface TripleTriadState {
  rules: TripleTriadRules;
  /** Cell elements, present only when some cell has one. */
  elements?: (Element | null)[];
  /** Power walls, present only when there are some. */
  walls?: Wall[];
  /** Nine cells, row-major from the top left. */
  board: (Placed | null)[];
  hands: { blue: Card[]; red: Card[] };
  to_move: TripleTriadPlayer;
  /** Under Chaos: the hand index drawn for each coming turn, present only when some are known. */
  chaos_draws?: number[];
}

/** A round's state as `TripleTriad.fromJSON()` reads it (defaults filled in). */
export interface TripleTriadStateInput {
  rules?: Partial<TripleTriadRules>;
  elements?: (Element | null)[];
  walls?: Wall[];
  board: (Placed<CardInput> | null)[];
  hands: { blue?: CardInput[]; red?: CardInput[] };
  to_move: TripleTriadPlayer;
  /** Under Chaos: the hand index drawn for each coming turn; beyond the list any card. */
  chaos_draws?: number[];
  /** Under Swap, at round start: blue's and red's cards that change hands, each into the other's slot. */
  swap?: { blue: number; red: number };
}

/** What one player sees: the opponent's unplayed cards are `null` unless the rules are open. */
export interface TripleTriadObservation {
  player: TripleTriadPlayer;
  rules: TripleTriadRules;
  elements: (Element | null)[];
  walls: Wall[];
  board: (Placed | null)[];
  hand: Card[];
  opponent_hand: (Card | null)[];
  to_move: TripleTriadPlayer;
  /** Under Chaos: the draws known for the coming turns, present only when some are. */
  chaos_draws?: number[];
  /** By cell, the ranks the card placed there plays with (top, right, bottom, left): its printed
   * ranks changed by Elemental (one more on a cell of its own element, one less on another
   * element's, kept within 1..10 under `elemental_clamp`), as the core reckons them; `null` on an
   * empty cell. */
  effective: ([number, number, number, number] | null)[];
}

/** What one placement did. */
export interface Captures {
  /** The cell the card was put on. */
  placed_on: number;
  /** Where it ended (differs when a power wall rotated its line). */
  cell: number;
  rotated: boolean;
  /** Cells whose sides matched for Same. */
  same_matches: number[];
  /** Each card that changed colour, in cell order, with the rule that flipped it. */
  flips: { cell: number; rule: CaptureRule }[];
  /** The placed card was lost in a Battle. */
  placed_lost: boolean;
  /** The evidence, in the order of the resolution. */
  steps: CaptureStep[];
}

/** Two sides a rule compared: the acting card's (on `from`) and what faces it, a card on `to` or
 * an edge (`to: null`, showing A under Same Wall and Plus Wall). Ranks as that rule reads them:
 * effective under Elemental for Basic and Combo, printed for Same, Plus and Battle. */
export interface CapturePair {
  from: number;
  side: Side;
  to: number | null;
  rank: number;
  other: number;
  /** Basic and Combo under FFXIV's rules: the rule that let the card take the other. */
  by?: "reverse" | "fallen_ace";
}
/** One step of a placement's resolution; `captured` lists the cells it turned to the mover. */
export type CaptureStep =
  | { rule: "place"; cell: number; card: string; owner: TripleTriadPlayer }
  | { rule: "wall"; wall: Wall; power: number; pushes: { from: number; to: number }[]; cell: number }
  | { rule: "ascension" | "descension"; types: { type: CardType; count: number; modifier: number }[] }
  | { rule: "same"; pairs: CapturePair[]; captured: number[] }
  | { rule: "plus"; pairs: (CapturePair & { sum: number })[]; captured: number[] }
  | { rule: "basic"; pairs: CapturePair[]; captured: number[] }
  | { rule: "battle"; fights: (CapturePair & { total: number; other_total: number; winner: TripleTriadPlayer | null })[]; captured: number[]; placed_lost: boolean }
  | { rule: "combo"; wave: number; pairs: CapturePair[]; captured: number[] };

/**
 * What `chooseMove` or `solve` may spend besides the level's own budget; both optional. A plain
 * object of numbers, which a worker can forward as it came.
 */
export interface SearchOptions {
  /** Milliseconds from the call's start after which the search stops (asked every few hundred nodes). */
  timeMs?: number;
  /** The most nodes (Trax: turns played; Triple Triad: positions searched); the level's own budget if smaller. */
  nodes?: number;
}

export interface Solution {
  /** The final score of the player to move minus the opponent's, with perfect play by both. */
  value: number;
  /** A move reaching `value`; `null` once the board is full. */
  bestMove: TripleTriadNotation | null;
}

/** Everything that configures a match. */
export interface MatchConfig {
  rules: TripleTriadRules;
  /** `"random"`: drawn from the seed each round (when elemental); or nine given cells. */
  elements: "random" | { given: (Element | null)[] };
  walls: Wall[];
  sudden_death: SuddenDeath;
  /** Rounds in all, round 1 included; `null` for no limit. */
  round_limit: number | null;
  trade: TradeRule;
  /** Who moves first in round 1; `null`: drawn from the seed. */
  first: TripleTriadPlayer | null;
  /** Seconds per move (15..300), for the host's clock. */
  time: number | null;
  deck_level_limit: number | null;
  /** Cards each player owns in all, checked by the `all` trade. */
  owned: { blue: number; red: number } | null;
  /** The cards dealt hands come from: Final Fantasy XIV's decks under the `ffxiv` preset; left
   * out for FF8's. */
  cards?: "ff8" | "ffxiv";
}

/** A move in a match save: the card's index in the mover's hand, and the cell. */
export interface TripleTriadMove {
  card: number;
  cell: number;
}

/** A match save: what `TripleTriadMatch.toJSON()` writes. */
export interface MatchState {
  config: MatchConfig;
  blue: Card[];
  red: Card[];
  /** A decimal string when beyond 2^53. */
  seed: number | string;
  /** The moves of every round started, the current one last. */
  rounds: TripleTriadMove[][];
  /** The trade's picks, once settled. */
  picks: number[] | null;
}

/** A match to start (`{config, blue, red, seed}`) or a save to resume. */
export interface MatchStateInput {
  config: Partial<Omit<MatchConfig, "rules">> & { rules?: Partial<TripleTriadRules> };
  blue: CardInput[];
  red: CardInput[];
  seed: number | string;
  rounds?: TripleTriadMove[][];
  picks?: number[] | null;
}

export interface RoundResult {
  winner: TripleTriadPlayer | null;
  /** Blue's and red's final scores. */
  scores: [number, number];
}

export interface MatchResult extends RoundResult {
  rounds: number;
}

/** What the trade needs from the winner. */
export type TradeChoice =
  | "automatic"
  | { pick: { chooser: TripleTriadPlayer; count: number } }
  | { swap: { chooser: TripleTriadPlayer } };

/** A card changing hands in the trade. */
export interface Transfer {
  card: Card;
  from: TripleTriadPlayer;
  to: TripleTriadPlayer;
  /** Its position among the five that `from` brought. */
  index: number;
}

// ---- Trax ----------------------------------------------------------------------------------

export type TraxPlayer = "white" | "red";
export type TraxVariant = "8x8" | "unbounded" | "loop";
export type TraxLevel = "random" | "easy" | "medium" | "hard" | "expert";

/** A saved game (also its observation: Trax hides nothing): the variant, the moves in official
 * notation, and the tile limit when it is not the default 10,000. Loading replays the moves. */
export interface TraxState {
  variant: TraxVariant;
  moves: string[];
  max_tiles?: number;
}

/** A tile: its notation shape and the colour of each edge. */
export interface TraxTile {
  shape: "+" | "/" | "\\";
  /** North, east, south, west. */
  edges: [TraxPlayer, TraxPlayer, TraxPlayer, TraxPlayer];
}

/** A cell in notation coordinates: column 1 is the leftmost (`A`), row 1 the top. */
export interface TraxCoords {
  col: number;
  row: number;
}

/** The last turn: its move, its tile's cell, and the tiles it forced in the order they fell. */
export interface TraxTurn {
  move: string;
  placed: TraxCoords;
  forced: TraxCoords[];
}

/** Who won and how; one turn can close a loop and a line at once. */
export interface TraxWin {
  winner: TraxPlayer;
  by_loop: boolean;
  by_line: boolean;
  /** The cells of every winning track, each in order along it (a loop, or a line from edge to edge). */
  tracks: TraxCoords[][];
}

// ---- Nantong -------------------------------------------------------------------------------

export type NantongSeat = 0 | 1 | 2;
export type NantongLevel = "random" | "basic" | "strong";
/** A card code: rank and suit (`m`, `s`, `c`), or one of the old generals `T`, `W`, `R`. */
export type NantongCard = `${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9}${"m" | "s" | "c"}` | "T" | "W" | "R";
/** An action in notation. */
export type NantongAction =
  | "win" | "pass" | "pong" | "kong" | "declare_hezi" | "ready" | "finish"
  | `${"discard" | "concealed_kong" | "add_kong" | "declare_four" | "declare_triple"} ${NantongCard}`;
export type MeldType = "pong" | "exposed_kong" | "concealed_kong" | "opening_four" | "opening_triple" | "hezi";

export interface Meld {
  type: MeldType;
  card: NantongCard;
}

/** A smaller deal (`rules/nantong-small.md`): a winning hand of `groups` groups and a pair
 * (0 to 7), a deck of four of each of the first `kinds` kinds (1 to 30); absent, the full game's. */
export interface NantongSize {
  groups?: number;
  kinds?: number;
}

/** A saved deal: the deck as dealt, the dealer, the random generator (for the next deal) and
 * every action; loading replays the actions. */
export interface NantongState {
  deck: NantongCard[];
  /** A smaller deal's groups (the deck's length gives its kinds); absent in the full game. */
  groups?: number;
  dealer: NantongSeat;
  /** A decimal string when beyond 2^53. */
  rng: { state: number | string };
  actions: { seat: NantongSeat; action: NantongAction }[];
}

/** What one seat sees: its own hand, never another's or the stock. */
export interface NantongObservation {
  seat: NantongSeat;
  /** The seat's concealed cards, sorted. */
  hand: NantongCard[];
  melds: [Meld[], Meld[], Meld[]];
  /** Discards on the table, in order, with who discarded them. */
  discards: [NantongSeat, NantongCard][];
  indicators: [NantongCard, NantongCard];
  stock: number;
  ready: [boolean, boolean, boolean];
  hand_sizes: [number, number, number];
  dealer: NantongSeat;
  /** Who acts: after a discard every other seat answers in turn, whatever it holds. */
  to_act: NantongSeat | null;
  /** The card of a claim question put to this seat. */
  claim: NantongCard | null;
  /** This seat's legal actions (empty when another seat acts). */
  actions: NantongAction[];
  /** What the last action did, for animation (`null` before the first). */
  last_event: NantongEvent | null;
}

/** An action and what followed from it, as one seat may see it. */
export interface NantongEvent {
  seat: NantongSeat;
  action: NantongAction;
  /** The card a pong, kong or win took from the table, and whose it was. */
  took: { card: NantongCard; from: NantongSeat } | null;
  /** Cards drawn because of the action, in order; `card` only for the seat that drew it. */
  draws: { seat: NantongSeat; replacement: boolean; card: NantongCard | null }[];
}

export type WinSource = "discard" | "self_draw" | "kong_replacement" | "robbed_kong";

/** How a deal was won. */
export interface NantongWin {
  seat: NantongSeat;
  card: NantongCard;
  source: WinSource;
  heavenly: boolean;
  dealer_first_discard: boolean;
  last_card: boolean;
}

/** A scoring group: what it is (a meld type, `three_in_hand`, `four_in_hand` or
 * `completed_by_discard`), its base hu and the doublings that multiplied it. */
export interface GroupScore {
  source: MeldType | "three_in_hand" | "four_in_hand" | "completed_by_discard";
  card: NantongCard;
  base: number;
  doublings: string[];
  value: number;
}

/** One seat's itemised score. */
export interface PlayerScore {
  groups: GroupScore[];
  base: number;
  bonuses: { name: string; value: number }[];
  multipliers: string[];
  /** (base + bonuses) x multipliers. */
  raw: number;
  /** Rounded up to a multiple of ten. */
  total: number;
}

export interface DealScore {
  players: [PlayerScore, PlayerScore, PlayerScore];
  totals: [number, number, number];
  /** Net results of the pairwise settlement (they sum to 0). */
  settlement: [number, number, number];
}

/** The end of a deal to score (the conformance `score` input). */
export interface FinishedDeal {
  indicators: [NantongCard, NantongCard];
  dealer: NantongSeat;
  /** Each seat's concealed cards (the winner's include the winning card), melds and ready flag. */
  players: [FinishedHand, FinishedHand, FinishedHand];
  /** `null` for an exhausted deal; `card` and `source` may be left out of a heavenly win. */
  win: (Partial<NantongWin> & { seat: NantongSeat }) | null;
}

export interface FinishedHand {
  hand: NantongCard[];
  melds?: Meld[];
  ready?: boolean;
}

/** Whether a hand wins, and what would complete it when it is one card short. */
export interface NantongStanding {
  winning: boolean;
  waits: NantongCard[];
}

/** A position of a perft frontier: the first line of moves reaching it and how many sequences do. */
export interface FrontierPosition {
  line: string;
  count: number;
}

// ---- Options (`describe()`) ------------------------------------------------------------------

export type GameName = "triple-triad" | "trax" | "nantong";
/** What an option takes: one name, a whole number, flags (and numbers) of an object, or a list. */
export type OptionKind =
  | { kind: "choice"; values: string[]; default: string | null }
  | { kind: "number"; min: number; max: number | null; default: number | null }
  | { kind: "flags"; values: string[]; default: string[]; numbers: OptionSpec[] }
  | { kind: "list"; item: string };
/** One option: its key in the options object, and what it takes. */
export type OptionSpec = { name: string } & OptionKind;
/** A game's options as the core declares them. */
export interface GameDescription {
  game: GameName;
  options: OptionSpec[];
  /** `[a, b]`: `a` may be on only with `b` on. */
  requires: [string, string][];
  /** `[a, b]`: `a` and `b` may not both be on (or given). */
  excludes: [string, string][];
}

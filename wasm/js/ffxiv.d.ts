// Types of arbiter-engine/ffxiv (js/ffxiv.js in browsers, js/ffxiv-node.js in Node): Final Fantasy
// XIV's Triple Triad data, the core's data files as they are (FFTriadBuddy's data, `source` names
// the commit). The same documents are exported as JSON: `arbiter-engine/data/ffxiv-cards.json`
// and `arbiter-engine/data/ffxiv-npcs.json`.

/** Where a document's facts come from. */
export interface FfxivSource {
  what: string;
  repository: string;
  commit: string;
  commit_subject: string;
  commit_date: string;
  files: string[];
  extracted: string;
  command: string;
}

/** A name in English and French. */
export interface FfxivName {
  en: string;
  fr: string;
}

/** The type Ascension and Descension read. */
export type FfxivCardType = "none" | "primal" | "scion" | "beastman" | "garlean";

/** One card. */
export interface FfxivCard {
  /** The game's id, which the NPCs' lists name. */
  id: number;
  name: FfxivName;
  /** Top, right, bottom, left; 10 is A. */
  ranks: [number, number, number, number];
  /** Stars, 1 to 5. */
  rarity: 1 | 2 | 3 | 4 | 5;
  type: FfxivCardType;
  /** The game's collection order and group. */
  sort: number;
  group: number;
}

/** One NPC opponent. */
export interface FfxivNpc {
  id: number;
  name: FfxivName;
  location: FfxivName & { x: number; y: number };
  /** Its rules: names of the Triple Triad `rules` option (`describe("triple-triad")`). */
  rules: string[];
  /** Card ids in every hand it brings. */
  fixed: number[];
  /** Card ids the rest of a hand is drawn from: `5 - fixed.length` distinct ones, each choice
   * equally likely. */
  variable: number[];
  /** Card ids it can give when beaten. */
  rewards: number[];
}

/** Every card, by ascending id. */
export function ffxivCards(): Promise<{ source: FfxivSource; cards: FfxivCard[] }>;

/** Every NPC opponent, by ascending id. */
export function ffxivNpcs(): Promise<{ source: FfxivSource; npcs: FfxivNpc[] }>;

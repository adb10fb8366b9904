// A challenge's or a match's whole rules in words, from the data the server sends with each
// (`rules`: codes and numbers, never sentences). Every word the page says of rules is here, so
// that the page can be put into another language in one place.

const RULES = {
  open: "Open",
  random: "Random hands (each drawn from its player's collection)",
  same: "Same",
  same_wall: "Same Wall",
  plus: "Plus",
  plus_wall: "Plus Wall",
  combo: "Combo",
  combo_from_basic: "Combo from Basic",
  battle: "Battle",
  borderless: "Borderless",
  elemental: "Elemental",
  elemental_clamp: "ranks kept within 1 to 10",
};

const TRADES = {
  training: "Training (nothing won)",
  none: "None (gils and experience, no card)",
  one: "One card",
  two: "Two cards",
  three: "Three cards",
  four: "Four cards",
  all: "All five cards",
  diff: "the difference in cards",
  diff_over_five: "the difference in cards (over five)",
  direct: "Direct (the cards each one turned)",
  direct_swap: "Direct swap",
  random: "One card drawn at random",
};

const SUDDEN_DEATH = {
  off: "no sudden death",
  own_colours: "sudden death with the cards of each colour",
  shuffle: "sudden death with the ten cards dealt again",
  original_hands: "sudden death with the original hands",
};

/** Who may watch, as the page says it (the rules and the spectators control). */
export const SPECTATORS = { open: "anyone may watch", broadcast: "broadcast to the lobby", private: "private (nobody)" };

const SIDES = { top: "top", right: "right", bottom: "bottom", left: "left" };

/** The parts of `rules` (a challenge's or match summary's `rules`; `options` its options, which
 * say Trax's and Nantong's rules) as short phrases, in order. */
export function rulesParts(game, rules, options = {}) {
  if (!rules) return [];
  const parts = [];
  if (game === "triple-triad") {
    const on = (rules.rules ?? []).filter((r) => r !== "elemental_clamp" && r in RULES);
    parts.push(on.length ? `Rules: ${on.map((r) => RULES[r]).join(", ")}` : "Rules: basic only");
    if ((rules.rules ?? []).includes("same") && rules.same_min_matches === 1) parts.push("Same fires on one side");
    if ((rules.rules ?? []).includes("elemental_clamp")) parts.push(RULES.elemental_clamp);
    const stake = rules.stake;
    parts.push(stake ? `winner rule: ${TRADES[stake.trade] ?? stake.trade}` : "nothing at stake");
    if (stake?.gils) parts.push(`${stake.gils} gils bet each`);
    if (stake && !["training", "none"].includes(stake.trade)) parts.push("leaving before the end loses the cards at stake");
    parts.push(SUDDEN_DEATH[rules.sudden_death] ?? `sudden death: ${rules.sudden_death}`);
    if (rules.round_limit) parts.push(`at most ${rules.round_limit} rounds`);
    parts.push(rules.deck_level_limit == null ? "no level limit" : `level limit ${rules.deck_level_limit}`);
    if (rules.walls?.length) parts.push(`walls: ${rules.walls.map((w) => `cell ${w.cell} ${SIDES[w.side] ?? w.side} ${w.label}`).join(", ")}`);
  } else {
    if (game === "trax") parts.push(`variant ${options.variant ?? "8x8"}`);
    if (game === "nantong") parts.push(`${options.deals ?? 4} deals`);
  }
  parts.push(`${rules.time} s a move`);
  parts.push(SPECTATORS[rules.spectators] ?? rules.spectators);
  return parts;
}

/** `rules` in one line of words. */
export const rulesText = (game, rules, options) => rulesParts(game, rules, options).join("; ");

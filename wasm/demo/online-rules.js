// A challenge's or a match's whole rules in words, from the data the server sends with each
// (`rules`: codes and numbers, never sentences), in the page's language. The names of the rules
// (`rule.*`, the French server's own words in French) are the catalogs', shared with the Triple
// Triad tab's rules panel.
import { t } from "./i18n.js";

/** Who may watch, by the server's codes (the rules and the spectators control word them). */
export const SPECTATORS = ["open", "broadcast", "private"];

/** The parts of `rules` (a challenge's or match summary's `rules`; `options` its options, which
 * say Trax's and Nantong's rules) as short phrases, in order. */
export function rulesParts(game, rules, options = {}) {
  if (!rules) return [];
  const parts = [];
  if (game === "triple-triad") {
    const all = rules.rules ?? [];
    const on = all.filter((r) => r !== "elemental_clamp" && r !== "same_min_matches");
    parts.push(on.length ? t("rules.on", { rules: on.map((r) => t(`rule.${r}`)).join(", ") }) : t("rules.basic_only"));
    if (all.includes("same") && rules.same_min_matches === 1) parts.push(t("rules.same_one_side"));
    if (all.includes("elemental_clamp")) parts.push(t("rules.clamped"));
    const stake = rules.stake;
    parts.push(stake ? t("rules.winner_rule", { trade: t(`trade.${stake.trade}`) }) : t("rules.no_stake"));
    if (stake?.gils) parts.push(t("rules.gils", { count: stake.gils }));
    if (stake && !["training", "none"].includes(stake.trade)) parts.push(t("rules.leaving_loses"));
    parts.push(t(`sudden_death.${rules.sudden_death}`));
    if (rules.round_limit) parts.push(t("rules.round_limit", { count: rules.round_limit }));
    parts.push(rules.deck_level_limit == null ? t("rules.no_level_limit") : t("rules.level_limit", { limit: rules.deck_level_limit }));
    if (rules.walls?.length) {
      const walls = rules.walls.map((w) => t("rules.wall", { cell: w.cell, side: t(`side.${w.side}`), label: w.label }));
      parts.push(t("rules.walls", { walls: walls.join(", ") }));
    }
  } else {
    if (game === "trax") parts.push(t("rules.variant", { variant: options.variant ?? "8x8" }));
    if (game === "nantong") parts.push(t("rules.deals", { count: options.deals ?? 4 }));
  }
  parts.push(t("rules.time", { seconds: rules.time }));
  parts.push(t(`spectators.${rules.spectators}`));
  return parts;
}

/** `rules` in one line of words. */
export const rulesText = (game, rules, options) => rulesParts(game, rules, options).join(t("rules.separator"));

//! A challenge's or a match's whole rules, resolved from its options (a preset applied, the
//! stake's winner rule): as data for the page, which words them in its own language, and in the
//! text game's rule words. Both come from here, so that what a player is shown before accepting
//! is what the match plays.

use arbiter_core::tripletriad::Rule;
use arbiter_economy::{rule_words, Spectators};
use serde_json::{json, Value};

use crate::table::{resolved, GameKind};

/// The rules as data: for Triple Triad the gameplay rules on, Same's threshold, sudden death,
/// the round and level limits, the walls and the stake (none: nothing at stake); for all, the
/// seconds a move and who may watch (the other games' options say the rest as they are, and are
/// not repeated: every lobby entry carries both).
pub(crate) fn data(game: GameKind, options: &Value, time: u32, spectators: Spectators) -> Value {
    let mut out = json!({"time": time, "spectators": spectators});
    if let Some((c, stake)) = resolved(options).filter(|_| game == GameKind::TripleTriad) {
        // The clamp is a sub-option of Elemental: said only with it.
        let on: Vec<&str> = Rule::ALL
            .into_iter()
            .filter(|r| r.is_on(c.rules) && (*r != Rule::ElementalClamp || c.rules.elemental))
            .map(Rule::name)
            .collect();
        out["rules"] = json!(on);
        out["same_min_matches"] = json!(c.rules.same_min_matches);
        out["sudden_death"] = json!(c.sudden_death.name());
        out["round_limit"] = json!(c.round_limit);
        out["deck_level_limit"] = json!(c.deck_level_limit);
        out["walls"] = serde_json::to_value(&c.walls).unwrap_or_default();
        out["stake"] = serde_json::to_value(stake).unwrap_or_default();
    }
    out
}

/// A Triple Triad challenge's or match's rules in the text game's words (never its JSON).
pub(crate) fn words(options: &Value, time: u32, spectators: Spectators) -> String {
    match resolved(options) {
        Some((mut c, stake)) => {
            c.time = Some(time);
            rule_words(&c, stake.as_ref(), spectators)
        }
        None => format!("rules this server cannot read, Time={time}"),
    }
}

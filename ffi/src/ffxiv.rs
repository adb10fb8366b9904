//! Final Fantasy XIV's cards and NPC opponents as data: the core's data files, as they are.

use std::ffi::c_char;

use arbiter_core::tripletriad::ffxiv::{DeckRule, CARDS_JSON, NPCS_JSON};

use crate::boundary::{guard, TextOut};
use crate::ArbiterStatus;

/// Every Final Fantasy XIV card as JSON: `{"source": {...}, "cards": [{"id", "name": {"en",
/// "fr"}, "ranks": [top, right, bottom, left] (10 is A), "rarity" (stars, 1..5), "type" ("none",
/// "primal", "scion", "beastman", "garlean"), "sort", "group"}]}`, by ascending id; `source`
/// names where the facts come from (FFTriadBuddy's data, at a commit).
#[no_mangle]
pub unsafe extern "C" fn arbiter_ffxiv_cards(buf: *mut c_char, cap: usize, size: *mut usize) -> ArbiterStatus {
    guard(|| TextOut::new(buf, cap, size, "buf")?.text(CARDS_JSON))
}

/// Every Final Fantasy XIV NPC opponent as JSON: `{"source": {...}, "npcs": [{"id", "name":
/// {"en", "fr"}, "location": {"en", "fr", "x", "y"}, "rules": [rule names of the options],
/// "fixed": [card ids in every hand], "variable": [card ids the rest is drawn from], "rewards":
/// [card ids]}]}`, by ascending id. A hand holds every fixed card and `5 - fixed` distinct
/// variable ones, each choice equally likely.
#[no_mangle]
pub unsafe extern "C" fn arbiter_ffxiv_npcs(buf: *mut c_char, cap: usize, size: *mut usize) -> ArbiterStatus {
    guard(|| TextOut::new(buf, cap, size, "buf")?.text(NPCS_JSON))
}

/// What a player's deck may hold, as JSON: `{"cards": 5, "max_four_or_five_stars",
/// "max_five_stars"}` (five distinct cards; NPCs do not follow the rule).
#[no_mangle]
pub unsafe extern "C" fn arbiter_ffxiv_deck_rule(buf: *mut c_char, cap: usize, size: *mut usize) -> ArbiterStatus {
    let rule = DeckRule::CURRENT;
    guard(|| {
        TextOut::new(buf, cap, size, "buf")?.json(&serde_json::json!({
            "cards": 5,
            "max_four_or_five_stars": rule.max_four_or_five_stars,
            "max_five_stars": rule.max_five_stars,
        }))
    })
}

//! `arbiter.ffxiv`: Final Fantasy XIV's cards and NPC opponents (the core's data files as they
//! are; the package parses them), the hands an NPC can bring, and the deck rule.

use arbiter_core::tripletriad::ffxiv::{self, DeckRule, CARDS_JSON, NPCS_JSON};
use pyo3::prelude::*;

use crate::convert::bad_argument;

/// The JSON document `"cards"` or `"npcs"`.
#[pyfunction(name = "_ffxiv_json")]
pub fn ffxiv_json(which: &str) -> PyResult<&'static str> {
    match which {
        "cards" => Ok(CARDS_JSON),
        "npcs" => Ok(NPCS_JSON),
        _ => Err(bad_argument(format!("no FFXIV document {which:?} (cards or npcs)"))),
    }
}

/// The card ids of every hand the NPC named `name` (English or French) can bring, all equally
/// likely (`Npc::hands`).
#[pyfunction(name = "_ffxiv_hands")]
pub fn ffxiv_hands(name: &str) -> PyResult<Vec<[u16; 5]>> {
    let npc = ffxiv::npc(name).ok_or_else(|| bad_argument(format!("no FFXIV NPC is named {name:?}")))?;
    Ok(npc.hands().iter().map(|h| h.cards.map(|c| c.id)).collect())
}

/// The deck rule's caps: cards of 4 or 5 stars, cards of 5 stars.
#[pyfunction(name = "_ffxiv_deck_rule")]
pub fn ffxiv_deck_rule() -> (usize, usize) {
    let rule = DeckRule::CURRENT;
    (rule.max_four_or_five_stars, rule.max_five_stars)
}

//! Final Fantasy XIV's Triple Triad data: every card, every NPC opponent with the hands it can
//! bring, and the deck rule (`rules/triple-triad-ffxiv.md`, sections 1 and 3).
//!
//! The data is FFTriadBuddy's (github.com/MgAl2O4/FFTriadBuddy, `assets/data/cards.xml`,
//! `npcs.xml`, `loc.xml`), extracted into `core/data/ffxiv-cards.json` and `ffxiv-npcs.json`
//! (each names its commit) and compiled in by the build: see `core/data/README.md`.
//!
//! ```
//! use arbiter_core::tripletriad::ffxiv;
//! let npc = ffxiv::npc("Baderon").unwrap();
//! let hand = &npc.hands()[0];
//! assert_eq!(hand.cards.len(), 5);
//! let ids: Vec<u16> = hand.cards.iter().map(|c| c.id).collect();
//! assert!(ffxiv::DeckRule::CURRENT.check(&ids).is_ok());
//! ```

mod bound;
mod builder;
mod cards;
mod deck;
mod npcs;
mod odds;

pub use builder::{best_deck, BuildError, BuiltDeck};
pub use cards::{card, card_by_id, FfxivCard, CARDS, CARDS_JSON};
pub use deck::{DeckError, DeckRule};
pub use npcs::{npc, Hand, Npc, NPCS, NPCS_JSON};
#[cfg(feature = "std")]
pub use odds::odds_threads;
pub use odds::{odds, HandOdds, NpcOdds, Odds, OddsError, Opponent, Start};

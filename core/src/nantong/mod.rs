//! Nantong long cards: three players, 120 cards of 30 kinds, hidden hands, declarations, claims,
//! kongs and full hu scoring (see `rules/nantong.md`).
//!
//! ```
//! use arbiter_core::nantong::{counts_of, is_winning};
//! let hand = counts_of("1c 2c 3c 1c 2c 3c 5m 5m 5m T T T 7s 8s 9s 4m 5m 6m 2s 3s 4s W W".split(' ')).unwrap();
//! assert!(is_winning(&hand, 0));
//! ```

mod action;
pub mod ai;
mod card;
mod engine;
mod hand;
mod observation;
mod options;
mod score;
mod seat;
mod size;
mod state;
pub mod tensor;
mod validate;

pub use action::{Action, BadAction};
pub use card::{Counts, Kind, UnknownCard, KINDS};
pub use hand::{counts_of, is_winning, partitions, standing, waits, Group, Partition, Standing};
pub use observation::Observation;
pub use options::{describe, Options, DEFAULT_DEALS, MAX_DEALS};
pub use score::{
    Bonus, DealScore, GroupScore, Meld, MeldType, PlayerHand, PlayerScore, ScoreError, Source, Win, WinSource,
};
pub use seat::{NoSuchSeat, Seat};
pub use size::{Size, FULL_GROUPS};
pub use state::{full_deck, Drawn, Event, Nantong, NantongError, Phase, Taken};
pub use validate::{score_deal, winner_total, FinishedDeal, HandCheck};

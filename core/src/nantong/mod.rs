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
mod check;
mod hand;
mod input;
mod score;
mod state;
pub mod tensor;

pub use action::{Action, BadAction};
pub use card::{Counts, Kind, UnknownCard, KINDS};
pub use check::HandCheck;
pub use hand::{counts_of, is_winning, partitions, standing, waits, Group, Partition, Standing};
pub use input::FinishedDeal;
pub use score::{
    score_deal, winner_total, Bonus, DealScore, GroupScore, Meld, MeldType, PlayerHand, PlayerScore, ScoreError,
    Source, Win, WinSource,
};
pub use state::{full_deck, Drawn, Event, Nantong, NantongError, NoSuchSeat, Observation, Phase, Seat, Taken};

//! # arbiter-economy
//!
//! The Triple Triad card economy that an online server keeps around [`arbiter_core`]'s rounds and
//! matches: collections and decks ([`Collection`]), the card shop ([`Catalog`]), what a match
//! earns and what a challenge may stake ([`reward`], [`Stake`]), and the MUSH's rule words
//! ([`MushRules`], [`Spectators`]). The core plays the cards; this crate prices and keeps them.
//!
//! `#![no_std]` with `alloc`, like the core; features `std` and `serde` pass through to it.
//!
//! ```
//! use arbiter_economy::{reward, Standing};
//! use arbiter_core::tripletriad::TradeRule;
//! assert_eq!(reward(TradeRule::One, Standing::Won).points, 10);
//! ```
#![no_std]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

extern crate alloc;

mod collection;
mod mush;
mod series_a;
mod shop;
mod stakes;

pub use collection::{copies_allowed, rank_sum_range, validate_custom_card, Collection, CollectionError};
pub use mush::{rule_words, MushRules, MushRulesError, Spectators};
pub use series_a::REPLACED as SERIES_A_REPLACED;
pub use shop::{suggest_ranks, Catalog, Copies, Sale, Series, ShopCard, ShopError, NAME_LIMIT, TEXT_LIMIT};
pub use stakes::{
    bet_transfer, reward, ttonline_winner_rule, Customs, Party, Reward, Stake, StakeError, Standing, POINTS_PER_GAME,
    POINTS_PER_WIN,
};

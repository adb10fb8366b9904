//! Triple Triad: every rule variant of the three sources (see `rules/triple-triad.md`).
//!
//! A [`Setup`] (plain data) is validated into a [`TripleTriad`] round; [`Match`] adds sudden death
//! and trades; [`solve`] plays perfectly with open hands; [`ai`] holds the built-in opponents.
//!
//! ```
//! use arbiter_core::Game;
//! use arbiter_core::tripletriad::{TripleTriad, Setup, Rules, Player, solve};
//! let rules = Rules { same: true, plus: true, combo: true, open: true, ..Rules::default() };
//! let mut g = TripleTriad::new(&Setup::random_ff8(1).with_rules(rules)).unwrap();
//! for _ in 0..4 {
//!     let mv = g.legal_moves()[0];
//!     g.play(mv).unwrap();
//! }
//! let best = solve(&g);
//! g.play(best.best_move.unwrap()).unwrap();
//! assert_eq!(g.score(Player::Blue) + g.score(Player::Red), 10);
//! ```

pub mod ai;
mod expert;
pub use expert::{Expert, Pool, Thought};
mod board;
mod card;
mod cards;
mod collection;
mod dealer;
mod economy;
mod engine;
mod matchplay;
mod mush;
mod options;
mod perft;
mod position;
mod preset;
mod resolve;
mod rules;
mod setup;
mod shop;
mod solve;
mod state;
mod steps;
pub mod tensor;
#[cfg(test)]
pub(crate) mod testing;
#[cfg(feature = "std")]
mod threads;
mod trade;

pub use card::{Card, Element, Side, UnknownElement};
pub use cards::{ff8_card, ff8_cards, Ff8Card, FF8_CARDS};
pub use collection::{copies_allowed, rank_sum_range, validate_custom_card, Collection, CollectionError};
pub use dealer::Dealer;
pub use economy::{
    bet_transfer, reward, ttonline_winner_rule, Customs, Party, Reward, Stake, StakeError, Standing, POINTS_PER_GAME,
    POINTS_PER_WIN,
};
pub use matchplay::{
    ElementLayout, Match, MatchConfig, MatchError, MatchResult, Owned, RoundResult, SuddenDeath, TradeChoice, Transfer,
    UnknownSuddenDeath,
};
pub use mush::{MushRules, MushRulesError, Spectators};
pub use options::{describe, ff8_hands, Options};
pub use position::{Player, UnknownPlayer};
pub use preset::{preset, FF8_TRADES, PRESETS};
pub use resolve::Captures;
pub use rules::{BadLabel, Comparison, Rule, Rules, RulesError, UnknownRule, Wall, WallLabel};
pub use setup::{Hands, Placed, Setup, SetupError};
pub use shop::{suggest_ranks, Catalog, Copies, Sale, Series, ShopCard, ShopError, NAME_LIMIT, TEXT_LIMIT};
pub use solve::{solve, Interrupted, Solution, Solver};
pub use state::{BadMove, Move, MoveError, MoveList, Observation, TripleTriad};
pub use steps::{Fight, LastMove, Pair, Push, Step, Summed};
#[cfg(feature = "std")]
pub use threads::solve_threads;
pub use trade::{DiffMode, TradeNotAllowed, TradeRule, UnknownTradeRule};

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

// Three rooms: one round on the board, a match of rounds with its trade, and the players that
// search. Their files are private; the paths `tripletriad::X` below are the public ones.

/// One round: cards and rules, setups and their validation, placement, the state, its tensors.
mod round {
    pub(super) mod board;
    pub(super) mod card;
    pub(super) mod cards;
    pub(super) mod perft;
    pub(super) mod position;
    pub(super) mod resolve;
    pub(super) mod rules;
    pub(super) mod setup;
    pub(super) mod state;
    pub(super) mod steps;
    pub mod tensor;
}

/// A match: rounds under sudden death, then the trade; the named presets and their deals.
mod matches {
    pub(super) mod dealer;
    pub(super) mod matchplay;
    pub(super) mod preset;
    pub(super) mod trade;
}

/// The players that search: the solver (also on threads), the built-in opponents, the expert.
mod search {
    pub mod ai;
    pub(super) mod expert;
    pub(super) mod greedy;
    pub(super) mod solve;
    #[cfg(feature = "std")]
    pub(super) mod threads;
}

#[cfg(feature = "std")]
mod arena;
mod engine;
pub mod ffxiv;
mod options;
#[cfg(test)]
pub(crate) mod testing;

#[cfg(feature = "std")]
pub use arena::{rules_from_names, ArenaDeal, ARENA_RULES};
pub use matches::dealer::{dealt_hands, CardSet, Dealer};
pub use matches::matchplay::{
    ElementLayout, Match, MatchConfig, MatchError, MatchResult, Owned, RoundResult, SuddenDeath, TradeChoice, Transfer,
    UnknownSuddenDeath,
};
pub use matches::preset::{preset, DEFAULT_PRESET, FF8_TRADES, PRESETS};
pub use matches::trade::{DiffMode, TradeNotAllowed, TradeRule, UnknownTradeRule};
pub use options::{describe, Options};
pub use round::card::{Card, CardType, Element, Side, UnknownCardType, UnknownElement};
pub use round::cards::{ff8_card, ff8_cards, Ff8Card, FF8_CARDS};
pub use round::position::{Player, UnknownPlayer};
pub use round::resolve::Captures;
pub use round::rules::{BadLabel, Comparison, Rule, Rules, RulesError, UnknownRule, Wall, WallLabel};
pub use round::setup::{Hands, Placed, Setup, SetupError, Swap};
pub use round::state::{BadMove, Move, MoveError, MoveList, Observation, TripleTriad};
pub use round::steps::{Fight, LastMove, Pair, Push, Step, Summed};
pub use round::tensor;
pub use search::ai;
pub use search::expert::{Expert, Pool, Thought};
pub use search::solve::{solve, Interrupted, Solution, Solver};
#[cfg(feature = "std")]
pub use search::threads::solve_threads;

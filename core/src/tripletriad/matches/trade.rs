//! Trade rules: what the winner takes after the final round.

use core::fmt;
use core::str::FromStr;

/// How `diff` counts the cards to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiffMode {
    /// The score difference: 6–4 gives 2.
    Difference,
    /// The winner's score minus 5: 6–4 gives 1 (English source).
    OverFive,
}

/// A trade rule (see the rules file's trade table).
///
/// ```
/// use arbiter_core::tripletriad::{TradeRule, DiffMode};
/// assert_eq!("diff".parse::<TradeRule>().unwrap(), TradeRule::Diff(DiffMode::Difference));
/// assert_eq!(TradeRule::Two.experience_required(), Some(2000));
/// assert!(TradeRule::All.allowed(11, 12).is_ok());
/// assert!(TradeRule::All.allowed(10, 12).is_err());
/// ```
///
/// In JSON a trade rule is its name, the same text that `FromStr` reads (`"diff_over_five"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TradeRule {
    /// A practice game: no cards, currency or experience.
    Training,
    /// No cards change hands.
    None,
    /// The winner chooses one of the loser's five cards (the default).
    #[default]
    One,
    /// The winner chooses two.
    Two,
    /// The winner chooses three.
    Three,
    /// The winner chooses four.
    Four,
    /// The winner takes all five (only when each player owns more than ten cards).
    All,
    /// As many as the score difference (or the winner's score over five); the winner chooses.
    Diff(DiffMode),
    /// Each player keeps the opponent's cards in their colour at the end (also on a draw).
    Direct,
    /// The winner takes any opponent card and gives up their own card in the facing position.
    DirectSwap,
    /// One of the loser's five, drawn with the seeded generator.
    Random,
}

/// A trade rule that cannot apply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the trade rule all needs each player to own more than ten cards (they own {blue} and {red})")]
pub struct TradeNotAllowed {
    /// Cards blue owns.
    pub blue: usize,
    /// Cards red owns.
    pub red: usize,
}

impl TradeRule {
    /// The French server's experience threshold for challenging with this rule.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn experience_required(self) -> Option<u32> {
        match self {
            TradeRule::Training | TradeRule::None => Some(0),
            TradeRule::One | TradeRule::Direct | TradeRule::Diff(_) | TradeRule::Random => Some(1000),
            TradeRule::Two => Some(2000),
            TradeRule::Three => Some(3000),
            TradeRule::Four => Some(4000),
            TradeRule::All => Some(5000),
            TradeRule::DirectSwap => None,
        }
    }

    /// Whether the rule may be used when the players own `blue` and `red` cards in all.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn allowed(self, blue: usize, red: usize) -> Result<(), TradeNotAllowed> {
        if self == TradeRule::All && (blue <= 10 || red <= 10) {
            return Err(TradeNotAllowed { blue, red });
        }
        Ok(())
    }

    /// The rule's name as written in configurations.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn name(self) -> &'static str {
        match self {
            TradeRule::Training => "training",
            TradeRule::None => "none",
            TradeRule::One => "one",
            TradeRule::Two => "two",
            TradeRule::Three => "three",
            TradeRule::Four => "four",
            TradeRule::All => "all",
            TradeRule::Diff(DiffMode::Difference) => "diff",
            TradeRule::Diff(DiffMode::OverFive) => "diff_over_five",
            TradeRule::Direct => "direct",
            TradeRule::DirectSwap => "direct_swap",
            TradeRule::Random => "random",
        }
    }
}

impl fmt::Display for TradeRule {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown trade rule name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown trade rule {0:?} (expected training, none, one, two, three, four, all, diff, diff_over_five, direct, direct_swap or random)")]
pub struct UnknownTradeRule(pub alloc::string::String);

impl TradeRule {
    /// Every rule, in the order of the rules file's table.
    pub const ALL: [TradeRule; 12] = [
        TradeRule::Training,
        TradeRule::None,
        TradeRule::One,
        TradeRule::Two,
        TradeRule::Three,
        TradeRule::Four,
        TradeRule::All,
        TradeRule::Diff(DiffMode::Difference),
        TradeRule::Diff(DiffMode::OverFive),
        TradeRule::Direct,
        TradeRule::DirectSwap,
        TradeRule::Random,
    ];
}

#[cfg(feature = "serde")]
impl serde::Serialize for TradeRule {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TradeRule {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = alloc::string::String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl FromStr for TradeRule {
    type Err = UnknownTradeRule;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TradeRule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownTradeRule(crate::error::quote(s)))
    }
}

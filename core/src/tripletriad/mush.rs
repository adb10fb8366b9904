//! The English text game's rule words (`+TT/Game Cloud=Start/Open Same Combo One`) as a match
//! configuration: gameplay rules Open, Same, Wall, Plus, Combo, Elemental, Limitless; trading
//! rules None, One, All, Diff (One when none is given); options Broadcast and Private.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use super::matchplay::{MatchConfig, SuddenDeath};
use super::rules::{Rules, RulesError};
use super::trade::{DiffMode, TradeRule};

/// Who may watch a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Spectators {
    /// Anyone may join as a spectator (the default).
    #[default]
    Open,
    /// As open, and the grid goes to the whole room after every card.
    Broadcast,
    /// Nobody may spectate.
    Private,
}

impl Spectators {
    /// The word, as `+TT/Option` takes it (`None` for open).
    pub fn word(self) -> &'static str {
        match self {
            Spectators::Open => "None",
            Spectators::Broadcast => "Broadcast",
            Spectators::Private => "Private",
        }
    }
}

impl FromStr for Spectators {
    type Err = MushRulesError;
    /// `+TT/Option`'s words: Private, Broadcast or None (ASCII case ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Spectators::Open, Spectators::Broadcast, Spectators::Private]
            .into_iter()
            .find(|o| o.word().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| MushRulesError::UnknownOption(crate::error::quote(s)))
    }
}

/// A rule list that does not make a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MushRulesError {
    /// No gameplay or trading rule.
    #[error("a game needs at least one rule: name a trading rule (None, One, All, Diff) if you want no gameplay rule")]
    Empty,
    /// A word that is no rule.
    #[error("unknown rule {0:?}: the rules are Open, Same, Wall, Plus, Combo, Elemental, Limitless, the trading rules None, One, All, Diff and the options Broadcast, Private")]
    Unknown(String),
    /// A word given twice.
    #[error("the rule {0} is given twice")]
    Repeated(&'static str),
    /// Two trading rules, or two options.
    #[error("{0} and {1} cannot both apply: choose one")]
    Conflict(&'static str, &'static str),
    /// Wall without Same.
    #[error("Wall extends Same: it cannot be played without Same")]
    WallWithoutSame,
    /// An option word `+TT/Option` does not know.
    #[error("unknown option {0:?}: valid options are Private, Broadcast or None")]
    UnknownOption(String),
}

/// A game's rules as the text game writes them.
///
/// ```
/// use arbiter_core::tripletriad::{MushRules, Spectators, TradeRule, DiffMode};
/// let r: MushRules = "Open Same Combo One".parse().unwrap();
/// assert!(r.config.rules.open && r.config.rules.same && r.config.rules.combo);
/// assert_eq!(r.config.trade, TradeRule::One);
/// assert_eq!(r.config.deck_level_limit, Some(20));
/// assert_eq!(r.spectators, Spectators::Open);
/// let d: MushRules = "diff limitless private".parse().unwrap();
/// assert_eq!(d.config.trade, TradeRule::Diff(DiffMode::OverFive));
/// assert_eq!((d.config.deck_level_limit, d.spectators), (None, Spectators::Private));
/// assert_eq!(d.to_string(), "Limitless Diff Private");
/// assert!("Wall One".parse::<MushRules>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MushRules {
    /// The match: the rules named, clamped elemental, the original hands back on a draw, the
    /// deck level limit of 20 unless Limitless.
    pub config: MatchConfig,
    /// Who may watch.
    pub spectators: Spectators,
}

/// The words in the order [`MushRules`] writes them.
const GAMEPLAY: [&str; 7] = ["Open", "Same", "Wall", "Plus", "Combo", "Elemental", "Limitless"];
const TRADES: [(&str, TradeRule); 4] = [
    ("None", TradeRule::None),
    ("One", TradeRule::One),
    ("All", TradeRule::All),
    ("Diff", TradeRule::Diff(DiffMode::OverFive)),
];

impl FromStr for MushRules {
    type Err = MushRulesError;
    /// Rule words separated by spaces (or commas), in any order, ASCII case ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut seen: Vec<&'static str> = Vec::new();
        let mut rules = Rules::default();
        let mut limitless = false;
        let mut trade: Option<(&'static str, TradeRule)> = None;
        let mut option: Option<(&'static str, Spectators)> = None;
        for word in s.split([' ', ',', '\t']).filter(|w| !w.is_empty()) {
            let known = GAMEPLAY
                .iter()
                .chain(TRADES.iter().map(|(w, _)| w))
                .chain(["Broadcast", "Private"].iter())
                .find(|k| k.eq_ignore_ascii_case(word))
                .copied()
                .ok_or_else(|| MushRulesError::Unknown(crate::error::quote(word)))?;
            if seen.contains(&known) {
                return Err(MushRulesError::Repeated(known));
            }
            seen.push(known);
            match known {
                "Open" => rules.open = true,
                "Same" => rules.same = true,
                "Wall" => rules.same_wall = true,
                "Plus" => rules.plus = true,
                "Combo" => rules.combo = true,
                "Elemental" => rules.elemental = true,
                "Limitless" => limitless = true,
                "Broadcast" | "Private" => {
                    let o = if known == "Private" {
                        Spectators::Private
                    } else {
                        Spectators::Broadcast
                    };
                    if let Some((other, _)) = option {
                        return Err(MushRulesError::Conflict(other, known));
                    }
                    option = Some((known, o));
                }
                _ => {
                    let rule = TRADES.iter().find(|(w, _)| *w == known).expect("a trading word").1;
                    if let Some((other, _)) = trade {
                        return Err(MushRulesError::Conflict(other, known));
                    }
                    trade = Some((known, rule));
                }
            }
        }
        if !seen
            .iter()
            .any(|w| GAMEPLAY.contains(w) || TRADES.iter().any(|(t, _)| t == w))
        {
            return Err(MushRulesError::Empty);
        }
        rules.elemental_clamp = true;
        if let Err(RulesError::SameWallWithoutSame) = rules.validate(false) {
            return Err(MushRulesError::WallWithoutSame);
        }
        Ok(MushRules {
            config: MatchConfig {
                rules,
                sudden_death: SuddenDeath::OriginalHands,
                trade: trade.map_or(TradeRule::One, |(_, r)| r),
                deck_level_limit: (!limitless).then_some(20),
                ..MatchConfig::default()
            },
            spectators: option.map_or(Spectators::Open, |(_, o)| o),
        })
    }
}

impl fmt::Display for MushRules {
    /// The canonical words: gameplay rules, the trading rule (always), the option.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.config.rules;
        let on = [
            r.open,
            r.same,
            r.same_wall,
            r.plus,
            r.combo,
            r.elemental,
            self.config.deck_level_limit.is_none(),
        ];
        let mut words: Vec<&str> = GAMEPLAY.iter().zip(on).filter(|(_, on)| *on).map(|(w, _)| *w).collect();
        let trade = TRADES
            .iter()
            .find(|(_, t)| *t == self.config.trade)
            .map_or("One", |(w, _)| *w);
        words.push(trade);
        if self.spectators != Spectators::Open {
            words.push(self.spectators.word());
        }
        f.write_str(&words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn the_seed_rules() {
        let r: MushRules = "Same Wall Plus Combo Elemental Broadcast All".parse().unwrap();
        assert!(r.config.rules.same_wall && r.config.rules.plus && r.config.rules.elemental_clamp);
        assert_eq!(r.config.sudden_death, SuddenDeath::OriginalHands);
        assert_eq!(r.config.trade, TradeRule::All);
        assert_eq!(r.spectators, Spectators::Broadcast);
        r.config.validate().unwrap();
        assert_eq!(r.to_string(), "Same Wall Plus Combo Elemental All Broadcast");
        assert_eq!(r.to_string().parse::<MushRules>().unwrap(), r);
        let trade_only: MushRules = "none".parse().unwrap();
        assert_eq!(trade_only.config.trade, TradeRule::None);
        let play_only: MushRules = "Elemental".parse().unwrap();
        assert_eq!(play_only.config.trade, TradeRule::One);
    }

    #[test]
    fn bad_rule_lists_say_why() {
        assert_eq!("".parse::<MushRules>(), Err(MushRulesError::Empty));
        assert_eq!("Private".parse::<MushRules>(), Err(MushRulesError::Empty));
        assert_eq!(
            "One All".parse::<MushRules>(),
            Err(MushRulesError::Conflict("One", "All"))
        );
        assert_eq!(
            "Private Broadcast One".parse::<MushRules>(),
            Err(MushRulesError::Conflict("Private", "Broadcast"))
        );
        assert_eq!("Same same".parse::<MushRules>(), Err(MushRulesError::Repeated("Same")));
        assert_eq!("Wall".parse::<MushRules>(), Err(MushRulesError::WallWithoutSame));
        assert!(matches!("Same Battle".parse::<MushRules>(), Err(MushRulesError::Unknown(w)) if w == "Battle"));
        assert_eq!("private".parse::<Spectators>().unwrap(), Spectators::Private);
        assert_eq!("None".parse::<Spectators>().unwrap(), Spectators::Open);
        assert!("Open".parse::<Spectators>().is_err());
    }
}

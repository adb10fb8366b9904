//! Named presets reproducing each source: plain [`MatchConfig`]s a host can start from and change.

use super::dealer::CardSet;
use super::matchplay::{MatchConfig, SuddenDeath};
use super::trade::{DiffMode, TradeRule};
use crate::error::quote;
use crate::tripletriad::round::rules::Rules;
use crate::{Error, ErrorKind};

/// The preset names, in the order [`preset`] knows them.
pub const PRESETS: [&str; 5] = ["ff8", "ttonline", "mush", "ffforever", "ffxiv"];

/// The preset of options that name none: the game as Final Fantasy VIII plays it, which every
/// front end offers first (the basic game of the rules is still a choice of fields away).
pub const DEFAULT_PRESET: &str = PRESETS[0];

/// The named preset: `ff8`, `ttonline`, `mush`, `ffforever` or `ffxiv` (ASCII case ignored).
///
/// ```
/// use arbiter_core::tripletriad::{preset, SuddenDeath};
/// let ff8 = preset("ff8").unwrap();
/// assert!(!ff8.rules.elemental_clamp && !ff8.rules.battle && !ff8.rules.plus_wall);
/// assert_eq!(preset("ffforever").unwrap().sudden_death, SuddenDeath::Shuffle);
/// assert_eq!(preset("ffxiv").unwrap().rules, arbiter_core::tripletriad::Rules::default());
/// assert!(preset("nope").is_none());
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn preset(name: &str) -> Option<MatchConfig> {
    let base = Rules {
        same: true,
        plus: true,
        combo: true,
        ..Rules::default()
    };
    let config = match name.to_ascii_lowercase().as_str() {
        // Final Fantasy VIII: open, Same Wall, unclamped elemental, own-colours sudden death.
        "ff8" => MatchConfig {
            rules: Rules {
                open: true,
                same_wall: true,
                elemental: true,
                elemental_clamp: false,
                ..base
            },
            sudden_death: SuddenDeath::OwnColours,
            trade: TradeRule::One,
            ..MatchConfig::default()
        },
        // The French server: every placement option it offers (Plus Wall, Battle) and a clock;
        // its page has no sudden death, so a draw ends the match and trades nothing.
        "ttonline" => MatchConfig {
            rules: Rules {
                open: true,
                same_wall: true,
                plus_wall: true,
                battle: true,
                elemental: true,
                elemental_clamp: false,
                ..base
            },
            sudden_death: SuddenDeath::Off,
            trade: TradeRule::One,
            time: Some(60),
            ..MatchConfig::default()
        },
        // The English text game: closed hands, clamped elemental, original-hands sudden death, diff over five.
        "mush" => MatchConfig {
            rules: Rules {
                same_wall: true,
                elemental: true,
                elemental_clamp: true,
                ..base
            },
            sudden_death: SuddenDeath::OriginalHands,
            trade: TradeRule::Diff(DiffMode::OverFive),
            deck_level_limit: Some(20),
            ..MatchConfig::default()
        },
        // The Russian summary read literally.
        "ffforever" => MatchConfig {
            rules: Rules {
                open: true,
                same_min_matches: 1,
                combo_from_basic: true,
                elemental: true,
                elemental_clamp: false,
                ..base
            },
            sudden_death: SuddenDeath::Shuffle,
            trade: TradeRule::DirectSwap,
            ..MatchConfig::default()
        },
        // Final Fantasy XIV's base game (`rules/triple-triad-ffxiv.md`): every one of its fifteen
        // rules is an option an NPC or a host turns on, so none is on here: hands closed (All
        // Open and Three Open off), no Same, Plus or Combo, no sudden death (FFXIV's own is the
        // `sudden_death` rule, not a mode), no board edge rule, no elements. Trade `none`: a
        // FFXIV match never takes a card from the loser (cards are won from an NPC's reward
        // list, which the economy does not model), and no source names a trade between players.
        // Dealt hands are FFXIV decks (`CardSet::Ffxiv` says how they are drawn).
        "ffxiv" => MatchConfig {
            rules: Rules::default(),
            sudden_death: SuddenDeath::Off,
            trade: TradeRule::None,
            cards: CardSet::Ffxiv,
            ..MatchConfig::default()
        },
        _ => return None,
    };
    Some(config)
}

/// The trade rules Final Fantasy VIII offers (the `ff8` preset uses the first).
pub const FF8_TRADES: [TradeRule; 4] = [
    TradeRule::One,
    TradeRule::Diff(DiffMode::Difference),
    TradeRule::Direct,
    TradeRule::All,
];

/// The named preset's configuration, or the error that names the presets.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn preset_config(name: &str) -> Result<MatchConfig, Error> {
    preset(name).ok_or_else(|| {
        Error::new(
            ErrorKind::BadArgument,
            alloc::format!("unknown preset {:?} (expected {})", quote(name), PRESETS.join(", ")),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_a_valid_configuration() {
        for name in PRESETS {
            preset(name).unwrap().validate().unwrap();
        }
    }

    #[test]
    fn the_rules_file_fixes_what_presets_carry() {
        assert_eq!(preset("ttonline").unwrap().sudden_death, SuddenDeath::Off);
        assert_eq!(preset("mush").unwrap().deck_level_limit, Some(20));
        assert_eq!(preset("ff8").unwrap().deck_level_limit, None);
        let ffxiv = preset("ffxiv").unwrap();
        assert!(!ffxiv.rules.open && !ffxiv.rules.all_open && !ffxiv.rules.three_open);
        assert_eq!((ffxiv.sudden_death, ffxiv.trade), (SuddenDeath::Off, TradeRule::None));
        assert_eq!(ffxiv.cards, CardSet::Ffxiv);
        for name in PRESETS.into_iter().filter(|&n| n != "ffxiv") {
            assert_eq!(preset(name).unwrap().cards, CardSet::Ff8, "{name}");
        }
    }
}

//! A Triple Triad match's options as hosts take them: a preset, then any field over it.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::matches::preset::preset_config;
use super::{MatchConfig, Rule, Rules, SuddenDeath, TradeRule, TripleTriad, Wall, DEFAULT_PRESET, PRESETS};
use crate::options::{Description, Kind, OptionSpec};
use crate::{Engine, Error};

/// A match's options: the preset (none: [`DEFAULT_PRESET`]), then the fields given over it. Every
/// field is optional; in JSON an unknown field is refused. The basic game of the rules
/// ([`MatchConfig::default`]: no rule, no sudden death) is the default preset with `rules` and
/// `sudden_death` given as such.
///
/// ```
/// use arbiter_core::tripletriad::{Options, SuddenDeath};
/// let o = Options { preset: Some("mush".into()), round_limit: Some(3), ..Options::default() };
/// let c = o.config().unwrap();
/// assert_eq!((c.sudden_death, c.round_limit, c.deck_level_limit), (SuddenDeath::OriginalHands, Some(3), Some(20)));
/// assert_eq!(Options::default().config().unwrap(), arbiter_core::tripletriad::preset("ff8").unwrap());
/// assert!(Options { preset: Some("chess".into()), ..Options::default() }.config().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Options {
    /// A preset's name ([`PRESETS`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub preset: Option<String>,
    /// The placement rules, in place of the preset's.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub rules: Option<Rules>,
    /// What a drawn round leads to.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub sudden_death: Option<SuddenDeath>,
    /// At most this many rounds (none: unlimited).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub round_limit: Option<u32>,
    /// Power walls.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub walls: Option<Vec<Wall>>,
    /// The most the levels of a hand's five cards may total (none: no limit).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub deck_level_limit: Option<u32>,
    /// What the winner takes.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub trade: Option<TradeRule>,
}

impl Options {
    /// The match configuration: the preset's, with every field given over it (checked when a
    /// match is made of it).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn config(&self) -> Result<MatchConfig, Error> {
        let mut c = preset_config(self.preset.as_deref().unwrap_or(DEFAULT_PRESET))?;
        c.rules = self.rules.unwrap_or(c.rules);
        c.sudden_death = self.sudden_death.unwrap_or(c.sudden_death);
        c.round_limit = self.round_limit.or(c.round_limit);
        if let Some(walls) = &self.walls {
            c.walls.clone_from(walls);
        }
        c.deck_level_limit = self.deck_level_limit.or(c.deck_level_limit);
        c.trade = self.trade.unwrap_or(c.trade);
        Ok(c)
    }
}

/// The options' names, allowed values and defaults, and the rules that need or exclude others,
/// read off the types (and the combinations off [`Rules::validate`]).
///
/// ```
/// use arbiter_core::options::Kind;
/// let d = arbiter_core::tripletriad::describe();
/// assert_eq!(d.option("preset").unwrap().kind.values(), ["ff8", "ttonline", "mush", "ffforever", "ffxiv"]);
/// assert!(d.requires.contains(&["same_wall", "same"]));
/// assert!(d.excludes.contains(&["borderless", "walls"]));
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn describe() -> Description {
    let defaults = preset_config(DEFAULT_PRESET).expect("the default preset exists");
    let flags: Vec<Rule> = Rule::ALL
        .into_iter()
        .filter(|r| r.flag(&mut Rules::default()).is_some())
        .collect();
    let alone = |rule: Rule| {
        let mut r = Rules::default();
        if let Some(on) = rule.flag(&mut r) {
            *on = true;
        }
        r
    };
    // Each flag that is refused alone needs the one flag that makes it valid.
    let mut requires = Vec::new();
    for &a in &flags {
        if alone(a).validate(false).is_ok() {
            continue;
        }
        for &b in &flags {
            let mut r = alone(a);
            if let Some(on) = b.flag(&mut r) {
                *on = true;
            }
            if r.validate(false).is_ok() {
                requires.push([a.name(), b.name()]);
            }
        }
    }
    // A flag together with what it needs: what the pairs that cannot meet are checked with.
    let with_needs = |rule: Rule| {
        let mut r = alone(rule);
        for [_, b] in requires.iter().filter(|[a, _]| *a == rule.name()) {
            if let Some(on) = b.parse::<Rule>().ok().and_then(|b| b.flag(&mut r)) {
                *on = true;
            }
        }
        r
    };
    let mut excludes = Vec::new();
    for (i, &a) in flags.iter().enumerate() {
        for &b in &flags[i + 1..] {
            let (ra, rb) = (with_needs(a), with_needs(b));
            let mut both = ra;
            for r in Rule::ALL {
                if r.is_on(rb) {
                    if let Some(on) = r.flag(&mut both) {
                        *on = true;
                    }
                }
            }
            if ra.validate(false).is_ok() && rb.validate(false).is_ok() && both.validate(false).is_err() {
                excludes.push([a.name(), b.name()]);
            }
        }
        if with_needs(a).validate(false).is_ok() && with_needs(a).validate(true).is_err() {
            excludes.push([a.name(), "walls"]);
        }
    }
    Description {
        game: TripleTriad::NAME,
        options: vec![
            OptionSpec {
                name: "preset",
                kind: Kind::Choice {
                    values: PRESETS.to_vec(),
                    default: Some(DEFAULT_PRESET),
                },
            },
            OptionSpec {
                name: "rules",
                kind: Kind::Flags {
                    values: flags.iter().map(|r| r.name()).collect(),
                    default: flags
                        .iter()
                        .filter(|r| r.is_on(defaults.rules))
                        .map(|r| r.name())
                        .collect(),
                    numbers: vec![OptionSpec {
                        name: Rule::SameMinMatches.name(),
                        kind: Kind::Number {
                            min: 1,
                            max: Some(2),
                            default: Some(defaults.rules.same_min_matches.into()),
                        },
                    }],
                },
            },
            OptionSpec {
                name: "sudden_death",
                kind: Kind::Choice {
                    values: SuddenDeath::ALL.map(SuddenDeath::name).to_vec(),
                    default: Some(defaults.sudden_death.name()),
                },
            },
            OptionSpec {
                name: "round_limit",
                kind: Kind::Number {
                    min: 1,
                    max: None,
                    default: defaults.round_limit,
                },
            },
            OptionSpec {
                name: "walls",
                kind: Kind::List {
                    item: "a power wall: {\"cell\": 0-8, \"side\": \"top\", \"label\": \">5\"}",
                },
            },
            OptionSpec {
                name: "deck_level_limit",
                kind: Kind::Number {
                    min: 5,
                    max: None,
                    default: defaults.deck_level_limit,
                },
            },
            OptionSpec {
                name: "trade",
                kind: Kind::Choice {
                    values: TradeRule::ALL.map(TradeRule::name).to_vec(),
                    default: Some(defaults.trade.name()),
                },
            },
        ],
        requires,
        excludes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_combinations_are_those_validate_refuses() {
        let d = describe();
        assert_eq!(d.requires, [["same_wall", "same"], ["plus_wall", "plus"]]);
        assert_eq!(
            d.excludes,
            [
                ["same_wall", "borderless"],
                ["same_wall", "ascension"],
                ["same_wall", "descension"],
                ["plus_wall", "borderless"],
                ["plus_wall", "ascension"],
                ["plus_wall", "descension"],
                ["battle", "ascension"],
                ["battle", "descension"],
                ["borderless", "power_walls"],
                ["borderless", "walls"],
                ["elemental", "ascension"],
                ["elemental", "descension"],
                ["power_walls", "ascension"],
                ["power_walls", "descension"],
                ["ascension", "descension"],
                ["ascension", "walls"],
                ["descension", "walls"],
                ["order", "chaos"],
                ["three_open", "all_open"]
            ]
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn every_option_is_a_field_and_every_rule_a_field_of_rules() {
        let d = describe();
        let names: Vec<&str> = d.options.iter().map(|o| o.name).collect();
        let json = serde_json::to_value(Options {
            preset: Some("ff8".into()),
            rules: Some(Rules::default()),
            sudden_death: Some(SuddenDeath::Off),
            round_limit: Some(1),
            walls: Some(Vec::new()),
            deck_level_limit: Some(5),
            trade: Some(TradeRule::One),
        })
        .unwrap();
        let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(sorted(names), sorted(keys));
        // Every flag on, since flags that are off may be left out of the JSON.
        let mut all = Rules::default();
        for r in Rule::ALL {
            if let Some(on) = r.flag(&mut all) {
                *on = true;
            }
        }
        let rules = serde_json::to_value(all).unwrap();
        let fields: Vec<&str> = rules.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(sorted(Rule::ALL.map(Rule::name).to_vec()), sorted(fields));
    }

    #[cfg(feature = "serde")]
    fn sorted(mut v: Vec<&str>) -> Vec<&str> {
        v.sort_unstable();
        v
    }

    #[test]
    fn no_preset_is_the_default_preset_and_fields_go_over_a_preset() {
        let ff8 = super::super::preset("ff8").unwrap();
        assert_eq!(Options::default().config().unwrap(), ff8);
        // The basic game, named field by field over the default preset.
        let basic = Options {
            rules: Some(Rules::default()),
            sudden_death: Some(SuddenDeath::Off),
            ..Options::default()
        };
        assert_eq!(basic.config().unwrap(), MatchConfig::default());
        let o = Options {
            preset: Some("ff8".into()),
            trade: Some(TradeRule::All),
            ..Options::default()
        };
        let c = o.config().unwrap();
        assert_eq!(c.trade, TradeRule::All);
        assert_eq!(c.rules, ff8.rules);
    }
}

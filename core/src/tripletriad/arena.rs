//! Triple Triad in an arena (`crate::arena`): the deals its games are played from, and the rules
//! of its random deals by name.

use std::string::{String, ToString};
use std::vec::Vec;

use super::{Rule, Rules, Setup, TripleTriad, UnknownRule};
use crate::arena::stream;
use crate::error::{Error, ErrorKind};
use crate::Rng;

/// The Triple Triad deal of an arena: two random FF8 hands under `rules` (elements drawn from
/// the deal's seed under Elemental), or a preset's first round with its hands open or closed as
/// `open` says (the preset's own by default).
#[derive(Clone, Debug, PartialEq)]
pub enum ArenaDeal {
    /// Random FF8 hands.
    Random(Rules),
    /// A preset's first round.
    Preset {
        /// The preset's name.
        name: String,
        /// Open or closed hands; `None` for the preset's own.
        open: Option<bool>,
    },
}

impl ArenaDeal {
    /// The deals in words, for a report.
    pub fn describe(&self) -> String {
        let hands = |open: Option<bool>| match open {
            Some(true) => "open hands",
            Some(false) => "closed hands",
            None => "hands as the preset has them",
        };
        match self {
            ArenaDeal::Random(r) => {
                // The flags turned on (the hands are told apart).
                let names: Vec<&str> = Rule::ALL
                    .into_iter()
                    .filter(|&rule| rule != Rule::Open && rule.is_on(*r) && !rule.is_on(Rules::default()))
                    .map(Rule::name)
                    .collect();
                let names = if names.is_empty() {
                    "none".into()
                } else {
                    names.join(",")
                };
                std::format!("two random FF8 hands, rules {names}, {}", hands(Some(r.open)))
            }
            ArenaDeal::Preset { name, open } => std::format!("preset {name}'s first round, {}", hands(*open)),
        }
    }

    /// The round dealt from `seed`.
    pub fn deal(&self, seed: u64) -> Result<TripleTriad, Error> {
        match self {
            ArenaDeal::Random(rules) => {
                let mut s = Setup::random_ff8(seed).with_rules(*rules);
                if rules.elemental {
                    s.draw_elements(&mut Rng::new(stream(seed, &[0xE1E])));
                }
                TripleTriad::new(&s).map_err(|e| Error::new(ErrorKind::BadArgument, e.to_string()))
            }
            ArenaDeal::Preset { name, open } => {
                let g = TripleTriad::from_preset(name, seed)?;
                let mut s = g.setup();
                s.rules.open = open.unwrap_or(s.rules.open);
                TripleTriad::new(&s).map_err(|e| Error::new(ErrorKind::BadArgument, e.to_string()))
            }
        }
    }
}

/// The rules of an arena's random deals unless it names others.
pub const ARENA_RULES: [Rule; 3] = [Rule::Same, Rule::Plus, Rule::Combo];

/// The rules named ([`Rule`]'s names, or `none`), validated; hands closed. A rule not named is
/// off, `elemental_clamp` too (on in [`Rules::default`]), as the core's `describe()` lists them:
/// `elemental` alone is FF8's unclamped Elemental.
pub fn rules_from_names<S: AsRef<str>>(names: &[S]) -> Result<Rules, Error> {
    let mut r = Rules {
        elemental_clamp: false,
        ..Rules::default()
    };
    for name in names.iter().map(AsRef::as_ref).filter(|&n| n != "none") {
        let rule: Rule = name
            .parse()
            .map_err(|e: UnknownRule| Error::new(ErrorKind::BadArgument, e.to_string()))?;
        let flag = rule.flag(&mut r).ok_or_else(|| {
            Error::new(
                ErrorKind::BadArgument,
                std::format!("{rule} is a number, not a rule to turn on"),
            )
        })?;
        *flag = true;
    }
    r.validate(false)
        .map_err(|e| Error::new(ErrorKind::BadArgument, e.to_string()))?;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_named_as_the_core_names_them() {
        assert!(rules_from_names(&["same", "teleport"]).is_err());
        assert!(rules_from_names(&["same", "plus", "combo"]).unwrap().combo);
        let none = rules_from_names(&["none"]).unwrap();
        assert_eq!(
            none,
            Rules {
                elemental_clamp: false,
                ..Rules::default()
            }
        );
        assert!(!rules_from_names(&["elemental"]).unwrap().elemental_clamp);
        assert!(
            rules_from_names(&["elemental", "elemental_clamp"])
                .unwrap()
                .elemental_clamp
        );
        assert!(rules_from_names(&["same_wall"]).is_err(), "Same Wall needs Same");
    }
}

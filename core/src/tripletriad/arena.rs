//! Triple Triad in an arena (`crate::arena`): the deals its games are played from, and the rules
//! of its random deals by name.

use std::string::{String, ToString};
use std::vec::Vec;

use super::ffxiv::{card_by_id, DeckRule};
use super::{Hands, Player, Rule, Rules, Setup, Swap, TripleTriad, UnknownRule};
use crate::arena::stream;
use crate::error::{Error, ErrorKind};
use crate::Rng;

/// The Triple Triad deal of an arena: two random FF8 or FFXIV hands under `rules` (elements,
/// Chaos's draws and Swap's exchange drawn from the deal's seed), or a preset's first round with
/// its hands open or closed as `open` says (the preset's own by default).
#[derive(Clone, Debug, PartialEq)]
pub enum ArenaDeal {
    /// Random FF8 hands.
    Random(Rules),
    /// Random Final Fantasy XIV hands, each a deck [`DeckRule::CURRENT`] allows: cards with
    /// types, for Ascension and Descension to count.
    RandomFfxiv(Rules),
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
            ArenaDeal::Random(r) | ArenaDeal::RandomFfxiv(r) => {
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
                let set = if matches!(self, ArenaDeal::RandomFfxiv(_)) {
                    "FFXIV hands (decks the deck rule allows)"
                } else {
                    "FF8 hands"
                };
                std::format!("two random {set}, rules {names}, {}", hands(Some(r.open)))
            }
            ArenaDeal::Preset { name, open } => std::format!("preset {name}'s first round, {}", hands(*open)),
        }
    }

    /// The round dealt from `seed`.
    pub fn deal(&self, seed: u64) -> Result<TripleTriad, Error> {
        match self {
            ArenaDeal::Random(rules) | ArenaDeal::RandomFfxiv(rules) => {
                let s = match self {
                    ArenaDeal::RandomFfxiv(_) => random_ffxiv(seed),
                    _ => Setup::random_ff8(seed),
                };
                let mut s = s.with_rules(*rules);
                if rules.elemental {
                    s.draw_elements(&mut Rng::new(stream(seed, &[0xE1E])));
                }
                draw_chance(&mut s, seed);
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

/// An empty board, two random FFXIV decks and a random first player, drawn from `seed`.
fn random_ffxiv(seed: u64) -> Setup {
    let mut rng = Rng::new(seed);
    let mut hand = || {
        DeckRule::CURRENT
            .random_deck(&mut rng)
            .iter()
            .map(|&id| card_by_id(id).expect("a deck holds cards that exist").card())
            .collect()
    };
    let (blue, red) = (hand(), hand());
    let to_move = if rng.below(2) == 0 { Player::Blue } else { Player::Red };
    Setup {
        hands: Hands { blue, red },
        to_move,
        ..Setup::default()
    }
}

/// Chaos's draw for every turn and Swap's exchange, from the deal's seed: a round on its own has
/// no match to draw them as it goes, and without them Chaos would let every card be played.
fn draw_chance(s: &mut Setup, seed: u64) {
    let mut rng = Rng::new(stream(seed, &[0xC4A05]));
    if s.rules.chaos {
        // The mover of turn t (from 0) has played t / 2 of its five cards.
        s.chaos_draws = (0..9u64).map(|turn| rng.below(5 - turn / 2) as u8).collect();
    }
    if s.rules.swap {
        s.swap = Some(Swap {
            blue: rng.below(5) as u8,
            red: rng.below(5) as u8,
        });
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
    use crate::Game;

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

    #[test]
    fn random_deals_draw_chaos_swap_and_ffxiv_decks_from_the_seed() {
        let chaos = rules_from_names(&["chaos", "swap"]).unwrap();
        let g = ArenaDeal::Random(chaos).deal(3).unwrap();
        assert!(!g.draws_missing(), "every turn's draw is known");
        assert_eq!(g.legal_moves().len(), 9, "one card, nine cells");
        assert_eq!(g, ArenaDeal::Random(chaos).deal(3).unwrap());
        assert_ne!(g.setup().hands, Setup::random_ff8(3).hands, "the swap was made");
        let typed = rules_from_names(&["ascension"]).unwrap();
        let deal = ArenaDeal::RandomFfxiv(typed);
        assert!(deal.describe().starts_with("two random FFXIV hands"));
        for seed in 0..20 {
            let setup = deal.deal(seed).unwrap().setup();
            for hand in [&setup.hands.blue, &setup.hands.red] {
                let ids: Vec<u16> = hand
                    .iter()
                    .map(|c| crate::tripletriad::ffxiv::card(&c.name).unwrap().id)
                    .collect();
                assert_eq!(DeckRule::CURRENT.check(&ids), Ok(()));
            }
        }
    }
}

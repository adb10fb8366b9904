//! The Final Fantasy XIV NPC opponents, compiled in from `data/ffxiv-npcs.json`, and the hands
//! each can bring.

use alloc::vec::Vec;

use super::cards::{card_by_id, same_name, FfxivCard};
use crate::tripletriad::{Rule, Rules};

/// One NPC opponent: where it sits, its rules, its deck, its reward cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Npc {
    /// FFTriadBuddy's NPC id.
    pub id: u16,
    /// The English name.
    pub name: &'static str,
    /// The French name.
    pub name_fr: &'static str,
    /// The area, in English.
    pub location: &'static str,
    /// The area, in French.
    pub location_fr: &'static str,
    /// Map coordinates in the area (as the game's map shows them, whole numbers).
    pub x: u8,
    /// See [`Npc::x`].
    pub y: u8,
    /// The NPC's own rules (flags of [`Rules`]); a match may add the day's regional rules.
    pub rules: &'static [Rule],
    /// Card ids in every hand it brings.
    pub fixed: &'static [u16],
    /// Card ids from which the rest of its hand is drawn.
    pub variable: &'static [u16],
    /// Card ids it can give when beaten.
    pub rewards: &'static [u16],
}

/// One hand an NPC can bring and its probability, `1 / out_of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    /// The fixed cards in the data's order, then the variable ones drawn, in the data's order
    /// (the order the game deals them in is not in the data).
    pub cards: [&'static FfxivCard; 5],
    /// How many hands the NPC has, all equally likely.
    pub out_of: u32,
}

impl Hand {
    /// The hand's probability.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn probability(&self) -> f64 {
        1.0 / f64::from(self.out_of)
    }
}

/// Every NPC opponent, by ascending id.
///
/// ```
/// use arbiter_core::tripletriad::ffxiv::NPCS;
/// assert_eq!(NPCS.len(), 128);
/// ```
pub static NPCS: &[Npc] = include!(concat!(env!("OUT_DIR"), "/ffxiv_npcs.rs"));

/// `data/ffxiv-npcs.json` as it is, its source named (see [`CARDS_JSON`](super::CARDS_JSON)).
pub const NPCS_JSON: &str = include_str!("../../../data/ffxiv-npcs.json");

/// The NPC named `name` in English or French, case ignored.
///
/// ```
/// use arbiter_core::tripletriad::ffxiv;
/// let npc = ffxiv::npc("triple triad master").unwrap();
/// assert_eq!(npc.location, "The Gold Saucer");
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn npc(name: &str) -> Option<&'static Npc> {
    NPCS.iter()
        .find(|n| same_name(n.name, name) || same_name(n.name_fr, name))
}

impl Npc {
    /// The NPC's rules as [`Rules`], with `combo` on beside Same or Plus (FFXIV always chains
    /// them: `rules/triple-triad-ffxiv.md`, Combo).
    ///
    /// ```
    /// use arbiter_core::tripletriad::ffxiv;
    /// let rules = ffxiv::npc("Botan").unwrap().round_rules();
    /// assert!(rules.plus && rules.combo && rules.roulette && !rules.same);
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn round_rules(&self) -> Rules {
        let mut rules = Rules::default();
        for rule in self.rules {
            if let Some(flag) = rule.flag(&mut rules) {
                *flag = true;
            }
        }
        rules.combo = rules.same || rules.plus;
        rules
    }

    /// Every distinct five-card hand the NPC can bring, each with its probability.
    ///
    /// The model is FFTriadBuddy's (`TriadNpc`, `TriadDeck`, `TriadDeckInstanceManual`), read
    /// from the game's NPC table: an NPC's hand holds all its fixed cards and `5 - fixed` distinct
    /// cards of its variable ones (FFTriadBuddy removes the rest of the variable pool once that
    /// many are played). Which ones: the data gives no weights, so every choice is taken as
    /// equally likely, `1 / C(variable, 5 - fixed)` each. The data lists no card twice (the
    /// build checks it), so the hands are distinct. From 1 to 10 hands an NPC.
    ///
    /// ```
    /// use arbiter_core::tripletriad::ffxiv;
    /// let hands = ffxiv::npc("Baderon").unwrap().hands(); // 3 fixed, 5 variable
    /// assert_eq!(hands.len(), 10);
    /// assert_eq!(hands[0].out_of, 10);
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn hands(&self) -> Vec<Hand> {
        let drawn = 5 - self.fixed.len();
        let pool = self.variable.len();
        let picks: Vec<u32> = (0u32..1 << pool)
            .filter(|mask| mask.count_ones() as usize == drawn)
            .collect();
        let out_of = picks.len() as u32;
        picks
            .into_iter()
            .map(|mask| {
                let chosen = self
                    .variable
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| mask & (1 << i) != 0)
                    .map(|(_, id)| id);
                let mut ids = self.fixed.iter().chain(chosen).map(|&id| card(id));
                Hand {
                    cards: core::array::from_fn(|_| ids.next().expect("five cards (checked by the build)")),
                    out_of,
                }
            })
            .collect()
    }
}

/// A card an NPC names; the build checked that every one exists.
#[cfg_attr(arbiter_size, optimize(size))]
fn card(id: u16) -> &'static FfxivCard {
    card_by_id(id).expect("NPC card ids exist (checked by the build)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeSet;

    /// C(n, k), computed apart from the masks `hands` walks.
    fn choose(n: u32, k: u32) -> u32 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn every_npc_card_exists_and_every_hand_set_sums_to_one() {
        assert_eq!(NPCS.len(), 128);
        for n in NPCS {
            for &id in n.fixed.iter().chain(n.variable).chain(n.rewards) {
                assert!(card_by_id(id).is_some(), "{}: card {id}", n.name);
            }
            let hands = n.hands();
            let expected = choose(n.variable.len() as u32, 5 - n.fixed.len() as u32);
            assert_eq!(hands.len() as u32, expected, "{}", n.name);
            let distinct: BTreeSet<BTreeSet<u16>> =
                hands.iter().map(|h| h.cards.iter().map(|c| c.id).collect()).collect();
            assert_eq!(distinct.len(), hands.len(), "{}: hands repeat", n.name);
            for h in &hands {
                let ids: BTreeSet<u16> = h.cards.iter().map(|c| c.id).collect();
                assert_eq!(ids.len(), 5, "{}: a card twice in a hand", n.name);
                assert!(
                    n.fixed.iter().all(|id| ids.contains(id)),
                    "{}: a fixed card missing",
                    n.name
                );
                assert!(ids.iter().all(|id| n.fixed.contains(id) || n.variable.contains(id)));
                assert_eq!(h.out_of, expected);
            }
            let total: f64 = hands.iter().map(Hand::probability).sum();
            assert!((total - 1.0).abs() < 1e-12, "{}: {total}", n.name);
        }
    }

    /// How many NPCs have each number of hands, from the data's (fixed, variable) sizes.
    #[test]
    fn hands_per_npc_spread_from_one_to_ten() {
        let mut spread = [0; 11];
        for n in NPCS {
            spread[n.hands().len()] += 1;
        }
        assert_eq!(spread, [0, 3, 1, 25, 12, 5, 32, 0, 0, 0, 50]);
    }

    #[test]
    fn an_npc_with_five_fixed_cards_has_one_hand() {
        let n = NPCS.iter().find(|n| n.fixed.len() == 5).unwrap();
        let hands = n.hands();
        assert_eq!(hands.len(), 1);
        assert_eq!(hands[0].probability(), 1.0);
        assert!(hands[0].cards.iter().map(|c| c.id).eq(n.fixed.iter().copied()));
    }

    #[test]
    fn rules_and_lookups() {
        let aurifort = npc("AURIFORT OF THE THREE CLUBS").unwrap();
        assert_eq!(aurifort.rules, &[Rule::ThreeOpen, Rule::Order]);
        assert_eq!(
            (aurifort.fixed, aurifort.variable),
            (&[51, 24, 37][..], &[27, 20, 16, 12][..])
        );
        assert_eq!((aurifort.location, aurifort.x, aurifort.y), ("The Gold Saucer", 4, 8));
        assert_eq!(npc("aurifort l'as de trèfle"), Some(aurifort));
        assert_eq!(npc("Nobody"), None);
        for n in NPCS {
            assert_eq!(npc(n.name), Some(n));
            let rules = n.round_rules();
            assert_eq!(rules.validate(false), Ok(()), "{}", n.name);
            assert!(n.rules.iter().all(|r| r.is_on(rules)));
            assert_eq!(rules.combo, rules.same || rules.plus);
        }
        assert!(NPCS.windows(2).all(|w| w[0].id < w[1].id));
    }
}

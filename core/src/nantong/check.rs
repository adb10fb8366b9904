//! A hand to check for a win: the input of the conformance `winning` cases, read the same way by
//! the command-line runner, the C library and the npm package.

use alloc::vec::Vec;

use super::card::{Counts, Kind, KINDS};
use super::hand::{is_winning, waits};
use super::score::{Meld, MeldType};

/// Concealed cards and the melds declared beside them.
///
/// As JSON (feature `serde`): `{"hand": [codes], "melds": [{"type", "card"}]}`, `melds` optional;
/// other fields are ignored, so a whole conformance case reads as one.
///
/// ```
/// use arbiter_core::nantong::{HandCheck, Kind, Meld, MeldType};
/// let hand = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s T";
/// let check = HandCheck {
///     hand: hand.split(' ').map(|c| c.parse().unwrap()).collect(),
///     melds: vec![Meld { kind: MeldType::Pong, card: "W".parse().unwrap() }],
/// };
/// assert!(!check.is_winning());
/// assert_eq!(check.waits(), vec!["T".parse::<Kind>().unwrap()]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HandCheck {
    /// The concealed cards.
    pub hand: Vec<Kind>,
    /// The melds declared.
    #[cfg_attr(feature = "serde", serde(default))]
    pub melds: Vec<Meld>,
}

impl HandCheck {
    /// The concealed cards as counts.
    pub fn counts(&self) -> Counts {
        let mut c = [0u8; KINDS];
        for k in &self.hand {
            c[k.index()] = c[k.index()].saturating_add(1);
        }
        c
    }

    /// Melds that stand for a group of the seven (a Tiandi Hezi does not).
    fn groups(&self) -> usize {
        self.melds.iter().filter(|m| m.kind != MeldType::Hezi).count()
    }

    /// Whether the concealed cards and the melds make seven groups and a pair.
    pub fn is_winning(&self) -> bool {
        is_winning(&self.counts(), self.groups())
    }

    /// The kinds that would complete the hand, one card short, leaving out kinds whose four
    /// copies are all in sight (hand and melds).
    pub fn waits(&self) -> Vec<Kind> {
        let counts = self.counts();
        let mut held = counts;
        for m in &self.melds {
            held[m.card.index()] = held[m.card.index()].saturating_add(m.kind.cards());
        }
        waits(&counts, self.groups(), &held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(codes: &str) -> Vec<Kind> {
        codes.split(' ').map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn a_hezi_is_no_group_and_copies_in_sight_are_not_waited_for() {
        let mut check = HandCheck {
            hand: kinds("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s 1c 2c 3c T"),
            melds: alloc::vec![Meld {
                kind: MeldType::Hezi,
                card: "W".parse().unwrap()
            }],
        };
        assert_eq!(check.waits(), kinds("T"), "a hezi leaves seven groups to make");
        check.hand.push("T".parse().unwrap());
        assert!(check.is_winning());
        // One T in hand and three in a pong: all four are in sight, so T completes nothing.
        let pong = HandCheck {
            hand: kinds("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s T"),
            melds: alloc::vec![Meld {
                kind: MeldType::Pong,
                card: "T".parse().unwrap()
            }],
        };
        assert!(pong.waits().is_empty());
    }
}

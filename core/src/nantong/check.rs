//! A hand to check for a win: the input of the conformance `winning` cases, read the same way by
//! the command-line runner, the C library and the npm package.

use alloc::vec::Vec;

use super::card::{Counts, Kind, KINDS};
use super::hand::{standing, Standing};
use super::score::Meld;

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
/// let s = check.standing();
/// assert!(!s.winning);
/// assert_eq!(s.waits, vec!["T".parse::<Kind>().unwrap()]);
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

    /// Whether the hand wins and what it waits for ([`standing`]).
    pub fn standing(&self) -> Standing {
        standing(&self.counts(), &self.melds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nantong::MeldType;

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
        assert_eq!(check.standing().waits, kinds("T"), "a hezi leaves seven groups to make");
        check.hand.push("T".parse().unwrap());
        assert!(check.standing().winning);
        // One T in hand and three in a pong: all four are in sight, so T completes nothing.
        let pong = HandCheck {
            hand: kinds("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s T"),
            melds: alloc::vec![Meld {
                kind: MeldType::Pong,
                card: "T".parse().unwrap()
            }],
        };
        assert!(pong.standing().waits.is_empty());
    }
}

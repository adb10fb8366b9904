//! The thirty kinds of long card and their codes.

use core::fmt;
use core::str::FromStr;

/// A kind of card: `1m`..`9m` (0..9), `1s`..`9s` (9..18), `1c`..`9c` (18..27), `T`, `W`, `R`.
///
/// ```
/// use arbiter_core::nantong::Kind;
/// let k: Kind = "9s".parse().unwrap();
/// assert!(k.is_old_general() && !k.is_ordinary());
/// assert_eq!(k.to_string(), "9s");
/// assert_eq!("R".parse::<Kind>().unwrap().index(), 29);
/// assert!("0m".parse::<Kind>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(u8);

/// The number of kinds.
pub const KINDS: usize = 30;

impl Kind {
    /// Thousand.
    pub const T: Kind = Kind(27);
    /// White Flower.
    pub const W: Kind = Kind(28);
    /// Red Flower.
    pub const R: Kind = Kind(29);

    /// The kind with index `i` (0..30).
    pub const fn from_index(i: usize) -> Option<Kind> {
        if i < KINDS {
            Some(Kind(i as u8))
        } else {
            None
        }
    }

    /// Every kind in code order.
    pub fn all() -> impl Iterator<Item = Kind> {
        (0..KINDS as u8).map(Kind)
    }

    /// The index 0..30.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The suit (0 myriads, 1 strings, 2 coins) of a suited card.
    pub const fn suit(self) -> Option<u8> {
        if self.0 < 27 {
            Some(self.0 / 9)
        } else {
            None
        }
    }

    /// The rank 1..=9 of a suited card.
    pub const fn rank(self) -> Option<u8> {
        if self.0 < 27 {
            Some(self.0 % 9 + 1)
        } else {
            None
        }
    }

    /// An old general: `T`, `W`, `R` or `9s`.
    pub const fn is_old_general(self) -> bool {
        self.0 >= 27 || self.0 == 17
    }

    /// An ordinary card: suited and not `9s`.
    pub const fn is_ordinary(self) -> bool {
        self.0 < 27 && self.0 != 17
    }

    /// What an indicator of this kind doubles: the groups of kinds of the same class, which is
    /// the rank for ordinary cards and one class for the four old generals.
    pub(crate) const fn indicator_class(self) -> u8 {
        if self.is_ordinary() {
            self.0 % 9
        } else {
            9
        }
    }

    /// Whether a sequence can start here (suited, rank 1..=7).
    pub(crate) const fn starts_sequence(self) -> bool {
        self.0 < 27 && self.0 % 9 <= 6
    }
}

impl fmt::Display for Kind {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            27 => f.write_str("T"),
            28 => f.write_str("W"),
            29 => f.write_str("R"),
            i => write!(f, "{}{}", i % 9 + 1, ['m', 's', 'c'][(i / 9) as usize]),
        }
    }
}

/// An unknown card code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown card code {0:?} (expected 1m to 9m, 1s to 9s, 1c to 9c, T, W or R)")]
pub struct UnknownCard(pub alloc::string::String);

impl FromStr for Kind {
    type Err = UnknownCard;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || UnknownCard(crate::error::quote(s));
        match s.as_bytes() {
            b"T" => Ok(Kind::T),
            b"W" => Ok(Kind::W),
            b"R" => Ok(Kind::R),
            [r @ b'1'..=b'9', suit] => {
                let base = match suit {
                    b'm' => 0,
                    b's' => 9,
                    b'c' => 18,
                    _ => return Err(bad()),
                };
                Ok(Kind(base + (r - b'1')))
            }
            _ => Err(bad()),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Kind {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Kind {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <alloc::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The 120 cards in code order, four of each kind.
pub(crate) fn deck_in_order() -> [Kind; 120] {
    core::array::from_fn(|i| Kind((i / 4) as u8))
}

/// Per-kind counts of a set of cards.
pub type Counts = [u8; KINDS];

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn codes_round_trip() {
        for k in Kind::all() {
            assert_eq!(k.to_string().parse::<Kind>().unwrap(), k);
        }
        assert_eq!(Kind::all().filter(|k| k.is_old_general()).count(), 4);
        assert_eq!(Kind::all().filter(|k| k.is_ordinary()).count(), 26);
    }
}

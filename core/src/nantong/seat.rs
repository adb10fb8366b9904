//! The three seats.

use core::fmt;

/// A seat: 0, 1 or 2; seats play in increasing order.
///
/// Only the three seats exist as values: build one with [`Seat::new`], `Seat::try_from(n)` or
/// [`Seat::ALL`] (and with serde, which refuses any other number), so that every method taking a
/// seat can index by it.
///
/// ```
/// use arbiter_core::nantong::Seat;
/// let s = Seat::new(2).unwrap();
/// assert_eq!(s.next(), Seat::ALL[0]);
/// assert_eq!((s.index(), u8::from(s)), (2, 2));
/// assert!(Seat::new(3).is_none());
/// assert!(Seat::try_from(255).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct Seat(u8);

impl Seat {
    /// The three seats in play order.
    pub const ALL: [Seat; 3] = [Seat(0), Seat(1), Seat(2)];

    /// Seat `n`, if `n` is 0, 1 or 2.
    pub const fn new(n: u8) -> Option<Seat> {
        if n < 3 {
            Some(Seat(n))
        } else {
            None
        }
    }

    /// The seat number as an index (0..3).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat that plays after this one.
    pub const fn next(self) -> Seat {
        Seat((self.0 + 1) % 3)
    }
}

/// A seat number other than 0, 1 or 2.
///
/// ```
/// use arbiter_core::nantong::{NoSuchSeat, Seat};
/// assert_eq!(Seat::try_from(3), Err(NoSuchSeat(3)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no seat {0}: the seats are 0, 1 and 2")]
pub struct NoSuchSeat(pub u8);

impl TryFrom<u8> for Seat {
    type Error = NoSuchSeat;
    fn try_from(n: u8) -> Result<Seat, NoSuchSeat> {
        Seat::new(n).ok_or(NoSuchSeat(n))
    }
}

impl From<Seat> for u8 {
    fn from(s: Seat) -> u8 {
        s.0
    }
}

impl fmt::Display for Seat {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

//! How big a deal is: the groups of a winning hand and the kinds in the deck. The full game is
//! seven groups and thirty kinds; a smaller deal (ours, not the source's: `rules/nantong-small.md`)
//! keeps every rule and shrinks the hands and the deck, small enough for a solver.

use crate::{Error, ErrorKind};

/// Groups in a winning hand of the full game.
pub const FULL_GROUPS: u32 = 7;

/// The groups of a winning hand (0 to 7: a hand of `3 × groups + 1` cards, the dealer's one
/// more) and the kinds in the deck (the first `kinds` in code order, four copies each).
///
/// ```
/// use arbiter_core::nantong::Size;
/// let s = Size::new(1, 5).unwrap();
/// assert_eq!((s.groups(), s.kinds(), s.cards()), (1, 5, 20));
/// assert_eq!(Size::FULL, Size::new(7, 30).unwrap());
/// // Three hands (5 + 4 + 4) and two indicators need 15 cards, and the stock at least one.
/// assert!(Size::new(1, 3).is_err());
/// assert!(Size::new(8, 30).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    groups: u8,
    kinds: u8,
}

impl Size {
    /// The full game: seven groups, the 120 cards of 30 kinds.
    pub const FULL: Size = Size { groups: 7, kinds: 30 };

    /// A deal of `groups` groups and a pair from the first `kinds` kinds, or why not: the deck
    /// must deal the three hands and the two indicators and leave a card in the stock.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn new(groups: u32, kinds: u32) -> Result<Size, Error> {
        let bad = |message: alloc::string::String| Err(Error::new(ErrorKind::BadArgument, message));
        if groups > FULL_GROUPS {
            return bad(alloc::format!(
                "groups is {groups}: a winning hand has 0 to {FULL_GROUPS} groups"
            ));
        }
        if !(1..=super::KINDS as u32).contains(&kinds) {
            return bad(alloc::format!(
                "kinds is {kinds}: a deck has 1 to {} kinds",
                super::KINDS
            ));
        }
        let size = Size {
            groups: groups as u8,
            kinds: kinds as u8,
        };
        if size.cards() <= size.stock_start() {
            return bad(alloc::format!(
                "kinds is {kinds}: {groups} groups deal {} cards and two indicators, and the stock needs one more: \
                 at least {} kinds",
                size.stock_start() - 2,
                size.stock_start() / 4 + 1
            ));
        }
        Ok(size)
    }

    /// Groups in a winning hand.
    pub const fn groups(self) -> usize {
        self.groups as usize
    }

    /// Kinds in the deck: the first ones in code order (`1m` first, `R` last).
    pub const fn kinds(self) -> usize {
        self.kinds as usize
    }

    /// Cards in the deck, four of each kind.
    pub const fn cards(self) -> usize {
        4 * self.kinds as usize
    }

    /// A non-dealer's dealt hand; the dealer gets one more.
    pub(crate) const fn hand(self) -> usize {
        3 * self.groups as usize + 1
    }

    /// Where the stock starts in the deck: after the three hands and the two indicators.
    pub(crate) const fn stock_start(self) -> usize {
        3 * self.hand() + 1 + 2
    }

    /// The groups of the full game's hand that this deal does not ask for: counted as already
    /// made, so that the full game's hand checks (which count declared groups) serve it as they are.
    pub(crate) const fn spare_groups(self) -> usize {
        FULL_GROUPS as usize - self.groups as usize
    }
}

impl Default for Size {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn default() -> Size {
        Size::FULL
    }
}

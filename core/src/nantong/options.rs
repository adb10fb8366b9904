//! A Nantong match's options as hosts take them: how many deals, the next seat dealing each, and
//! how big a deal is (the full game unless `groups` or `kinds` say a smaller one).

use alloc::vec;
use alloc::vec::Vec;

use super::{Nantong, Size, FULL_GROUPS, KINDS};
use crate::options::{Description, Kind, OptionSpec};
use crate::{Engine, Error, ErrorKind};

/// The most deals a match may have.
pub const MAX_DEALS: u32 = 16;

/// The deals of a match unless its options say otherwise.
pub const DEFAULT_DEALS: u32 = 4;

/// A match's options; in JSON every field is optional and an unknown one is refused.
///
/// ```
/// use arbiter_core::nantong::Options;
/// assert_eq!(Options::default().deals(), Ok(4));
/// assert!(Options { deals: Some(17), ..Options::default() }.deals().is_err());
/// let small = Options { groups: Some(1), kinds: Some(5), ..Options::default() };
/// assert_eq!(small.size().unwrap().cards(), 20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Options {
    /// Deals in the match, 1 to [`MAX_DEALS`] ([`DEFAULT_DEALS`] when absent): each next one
    /// is [`Nantong::next_deal`].
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub deals: Option<u32>,
    /// Groups in a winning hand, 0 to 7 (7, the full game's, when absent): a smaller deal.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub groups: Option<u32>,
    /// Kinds in the deck, the first ones in code order, 1 to 30 (30 when absent): a smaller deal.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub kinds: Option<u32>,
}

impl Options {
    /// The deals of the match, checked.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn deals(&self) -> Result<u32, Error> {
        let deals = self.deals.unwrap_or(DEFAULT_DEALS);
        if !(1..=MAX_DEALS).contains(&deals) {
            return Err(Error::new(
                ErrorKind::BadArgument,
                alloc::format!("deals is {deals}: a match has 1 to {MAX_DEALS}"),
            ));
        }
        Ok(deals)
    }

    /// How big each deal is, checked.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn size(&self) -> Result<Size, Error> {
        Size::new(self.groups.unwrap_or(FULL_GROUPS), self.kinds.unwrap_or(KINDS as u32))
    }
}

/// The options' names, allowed values and defaults.
///
/// ```
/// use arbiter_core::options::Kind;
/// let d = arbiter_core::nantong::describe();
/// assert_eq!(d.option("deals").unwrap().kind, Kind::Number { min: 1, max: Some(16), default: Some(4) });
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn describe() -> Description {
    Description {
        game: Nantong::NAME,
        options: vec![
            OptionSpec {
                name: "deals",
                kind: Kind::Number {
                    min: 1,
                    max: Some(MAX_DEALS),
                    default: Some(DEFAULT_DEALS),
                },
            },
            OptionSpec {
                name: "groups",
                kind: Kind::Number {
                    min: 0,
                    max: Some(FULL_GROUPS),
                    default: Some(FULL_GROUPS),
                },
            },
            OptionSpec {
                name: "kinds",
                kind: Kind::Number {
                    min: 1,
                    max: Some(KINDS as u32),
                    default: Some(KINDS as u32),
                },
            },
        ],
        requires: Vec::new(),
        excludes: Vec::new(),
    }
}

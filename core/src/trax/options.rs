//! A Trax game's options as hosts take them: the variant and the tile limit.

use alloc::vec;
use alloc::vec::Vec;

use super::{TileLimitError, Trax, Variant, DEFAULT_MAX_TILES, MAX_TILES_CEILING};
use crate::options::{Description, Kind, OptionSpec};
use crate::Engine;

/// A game's options; in JSON every field is optional and an unknown one is refused.
///
/// ```
/// use arbiter_core::trax::{Options, Variant};
/// assert_eq!(Options::default().game().unwrap().variant(), Variant::EightByEight);
/// assert!(Options { max_tiles: Some(0), ..Options::default() }.game().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Options {
    /// The variant ([`Variant::default`] when absent).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub variant: Option<Variant>,
    /// The most tiles a game may hold ([`DEFAULT_MAX_TILES`] when absent).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub max_tiles: Option<u32>,
}

impl Options {
    /// The empty board these options make.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn game(&self) -> Result<Trax, TileLimitError> {
        Trax::with_max_tiles(
            self.variant.unwrap_or_default(),
            self.max_tiles.unwrap_or(DEFAULT_MAX_TILES),
        )
    }
}

/// The options' names, allowed values and defaults, read off [`Variant`] and the tile limits.
///
/// ```
/// let d = arbiter_core::trax::describe();
/// assert_eq!(d.option("variant").unwrap().kind.values(), ["8x8", "unbounded", "loop"]);
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn describe() -> Description {
    Description {
        game: Trax::NAME,
        options: vec![
            OptionSpec {
                name: "variant",
                kind: Kind::Choice {
                    values: Variant::ALL.map(Variant::name).to_vec(),
                    default: Some(Variant::default().name()),
                },
            },
            OptionSpec {
                name: "max_tiles",
                kind: Kind::Number {
                    min: 1,
                    max: Some(MAX_TILES_CEILING),
                    default: Some(DEFAULT_MAX_TILES),
                },
            },
        ],
        requires: Vec::new(),
        excludes: Vec::new(),
    }
}

//! The three variants of the rules and their names, and the limits a host sets on a game beside
//! them (tiles and span).

use core::fmt;
use core::str::FromStr;

/// The three variants of the rules file.
///
/// ```
/// use arbiter_core::trax::Variant;
/// assert_eq!("8x8".parse::<Variant>().unwrap(), Variant::EightByEight);
/// assert_eq!(Variant::Loop.to_string(), "loop");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Variant {
    /// The area never exceeds 8x8; full board or no legal move is a draw. The default: the
    /// rules file's main game, the one that always ends, and the one whose action masks are
    /// small enough to hand out whole.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "8x8"))]
    EightByEight,
    /// Supertrax, the tournament game: no limit; lines span at least 8.
    #[cfg_attr(feature = "serde", serde(rename = "unbounded"))]
    Unbounded,
    /// Unbounded, and only loops win.
    #[cfg_attr(feature = "serde", serde(rename = "loop"))]
    Loop,
}

impl Variant {
    /// Every variant, in the order of the rules file.
    pub const ALL: [Variant; 3] = [Variant::EightByEight, Variant::Unbounded, Variant::Loop];

    /// `8x8`, `unbounded` or `loop`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::EightByEight => "8x8",
            Variant::Unbounded => "unbounded",
            Variant::Loop => "loop",
        }
    }
}

impl fmt::Display for Variant {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown Trax variant {0:?} (expected 8x8, unbounded or loop)")]
pub struct UnknownVariant(pub alloc::string::String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownVariant(crate::error::quote(s)))
    }
}

/// How many tiles a game holds unless its host chooses otherwise
/// ([`Trax::with_max_tiles`](super::Trax::with_max_tiles)).
pub const DEFAULT_MAX_TILES: u32 = 10_000;

/// The largest tile limit a host may choose: every tile gets a 16-bit slot, and the grid's cell
/// indices stay far below `u32::MAX` (the bounding box of 32,768 tiles spans at most 32,769
/// columns and rows together).
pub const MAX_TILES_CEILING: u32 = 32_768;

/// The most columns (and the most rows) the tiles may span in the unbounded variants (8x8 spans
/// 8 at most). With the empty line on each side, every move's notation then names a column and a
/// row below 1024, the side of the action ids (so every legal move has its own id); and since the
/// grid is a rectangle around the tiles with some slack, a game's memory stays under about 15 MB
/// whatever the shape of its tiles. A turn that would pass it is refused
/// ([`MoveError::TooWide`](super::MoveError::TooWide)), like the tile limit: a limit of the host,
/// not a rule. Real games span a few dozen columns.
pub const MAX_SPAN: u32 = 1022;

/// A tile limit outside `1..=`[`MAX_TILES_CEILING`].
///
/// ```
/// use arbiter_core::trax::{Trax, Variant, MAX_TILES_CEILING};
/// assert!(Trax::with_max_tiles(Variant::Loop, 0).is_err());
/// assert!(Trax::with_max_tiles(Variant::Loop, MAX_TILES_CEILING + 1).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a tile limit of {0} is outside 1 to {max}", max = MAX_TILES_CEILING)]
pub struct TileLimitError(pub u32);

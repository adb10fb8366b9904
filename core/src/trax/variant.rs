//! The three variants of the rules and their names.

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
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownVariant(crate::error::quote(s)))
    }
}

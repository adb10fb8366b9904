//! The built-in opponents' levels. Each game names its own in its `ai::Level` with
//! [`level_names!`], which gives it `ALL`, `NAMES`, `name`, `Display` and `FromStr` from one
//! list, so that [`Engine::LEVELS`](crate::Engine::LEVELS) is derived from the type.

use alloc::string::String;

/// A level name that the game does not have.
///
/// ```
/// use arbiter_core::trax::ai::Level;
/// let e = "grandmaster".parse::<Level>().unwrap_err();
/// assert_eq!(e.to_string(), r#"unknown level "grandmaster" for trax (expected random, easy, medium, hard, expert)"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {level:?} for {game} (expected {})", .expected.join(", "))]
pub struct UnknownLevel {
    /// The game's name ([`Engine::NAME`](crate::Engine::NAME)).
    pub game: &'static str,
    /// The name given, shortened if long.
    pub level: String,
    /// The game's levels, weakest first.
    pub expected: &'static [&'static str],
}

/// Names the variants of a game's `Level` enum: `level_names!("trax", Level { Random => "random", … })`
/// gives `Level::ALL` and `Level::NAMES` (weakest first, in the order listed), `Level::name`,
/// `Display` and `FromStr` (ASCII case and surrounding spaces ignored; [`UnknownLevel`] otherwise).
macro_rules! level_names {
    ($game:literal, $ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every level, weakest first.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];
            /// The levels' names, weakest first.
            pub const NAMES: [&'static str; [$($name),+].len()] = [$($name),+];

            /// The level's name, as hosts write it.
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl core::fmt::Display for $ty {
            #[cfg_attr(arbiter_size, optimize(size))]
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl core::str::FromStr for $ty {
            type Err = $crate::UnknownLevel;
            #[cfg_attr(arbiter_size, optimize(size))]
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::ALL
                    .into_iter()
                    .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
                    .ok_or_else(|| $crate::UnknownLevel {
                        game: $game,
                        level: $crate::error::quote(s),
                        expected: &Self::NAMES,
                    })
            }
        }
    };
}
pub(crate) use level_names;

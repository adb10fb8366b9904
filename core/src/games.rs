//! The core's one list of games: each game's name, options, description and first state behind
//! one enum, so that a host builds any game by name (as OpenSpiel's `LoadGame` or shakmaty's
//! `VariantPosition`), and a new game is added here and nowhere else that is shared.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::options::Description;
use crate::tripletriad::{Match, TripleTriad};
use crate::{nantong, trax, tripletriad, Engine, Error, ErrorKind};

/// The games' names ([`Engine::NAME`]), in the order hosts list them.
pub const GAMES: [&str; 3] = [TripleTriad::NAME, trax::Trax::NAME, nantong::Nantong::NAME];

/// One game's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Options {
    /// Triple Triad's.
    TripleTriad(tripletriad::Options),
    /// Trax's.
    Trax(trax::Options),
    /// Nantong's.
    Nantong(nantong::Options),
}

impl Options {
    /// The defaults of the game named `name`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn defaults(name: &str) -> Result<Options, Error> {
        Ok(match game(name)? {
            0 => Options::TripleTriad(tripletriad::Options::default()),
            1 => Options::Trax(trax::Options::default()),
            _ => Options::Nantong(nantong::Options::default()),
        })
    }

    /// The options of the game named `name`, read from `d` (an unknown field is refused).
    #[cfg(feature = "serde")]
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn read<'de, D: serde::Deserializer<'de>>(name: &str, d: D) -> Result<Options, ReadError<D::Error>> {
        use serde::Deserialize;
        Ok(match game(name).map_err(ReadError::Game)? {
            0 => Options::TripleTriad(tripletriad::Options::deserialize(d).map_err(ReadError::Options)?),
            1 => Options::Trax(trax::Options::deserialize(d).map_err(ReadError::Options)?),
            _ => Options::Nantong(nantong::Options::deserialize(d).map_err(ReadError::Options)?),
        })
    }

    /// The name of the game these options are for.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn game(&self) -> &'static str {
        match self {
            Options::TripleTriad(_) => TripleTriad::NAME,
            Options::Trax(_) => trax::Trax::NAME,
            Options::Nantong(_) => nantong::Nantong::NAME,
        }
    }
}

/// Why [`Options::read`] failed: no such game, or options it does not take.
#[cfg(feature = "serde")]
#[derive(Debug, thiserror::Error)]
pub enum ReadError<E: core::fmt::Display + core::fmt::Debug> {
    /// No game has the name.
    #[error(transparent)]
    Game(Error),
    /// The options do not read.
    #[error("{0}")]
    Options(E),
}

/// Where `name` is in [`GAMES`], or the error that lists them.
#[cfg_attr(arbiter_size, optimize(size))]
fn game(name: &str) -> Result<usize, Error> {
    GAMES.iter().position(|g| *g == name).ok_or_else(|| {
        Error::new(
            ErrorKind::BadArgument,
            alloc::format!(
                "unknown game {:?} (expected {})",
                crate::error::quote(name),
                GAMES.join(", ")
            ),
        )
    })
}

/// The description of the options of the game named `name`.
///
/// ```
/// use arbiter_core::games::{describe, GAMES};
/// assert!(GAMES.iter().all(|g| describe(g).unwrap().game == *g));
/// assert!(describe("chess").is_err());
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn describe(name: &str) -> Result<Description, Error> {
    Ok(match game(name)? {
        0 => tripletriad::describe(),
        1 => trax::describe(),
        _ => nantong::describe(),
    })
}

/// Every game's description, in the order of [`GAMES`].
#[cfg_attr(arbiter_size, optimize(size))]
pub fn describe_all() -> Vec<Description> {
    GAMES.iter().filter_map(|g| describe(g).ok()).collect()
}

/// Any game, at its start.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// A Triple Triad match (its first round in play).
    TripleTriad(Box<Match>),
    /// A Trax game on the empty board.
    Trax(Box<trax::Trax>),
    /// A Nantong match's first deal (a host plays the options' `deals`, each the last one's
    /// [`next_deal`](nantong::Nantong::next_deal)).
    Nantong(Box<nantong::Nantong>),
}

impl AnyGame {
    /// The game named `name` under `options` (which must be that game's), from `seed`: Triple
    /// Triad deals two FF8 hands within the deck level limit.
    ///
    /// ```
    /// use arbiter_core::games::{AnyGame, Options};
    /// let g = AnyGame::new("trax", &Options::defaults("trax").unwrap(), 1).unwrap();
    /// assert!(matches!(g, AnyGame::Trax(t) if t.variant().name() == "8x8"));
    /// assert!(AnyGame::new("nantong", &Options::defaults("trax").unwrap(), 1).is_err());
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn new(name: &str, options: &Options, seed: u64) -> Result<AnyGame, Error> {
        game(name)?;
        let bad = |message: alloc::string::String| Error::new(ErrorKind::BadArgument, message);
        Ok(match options {
            _ if options.game() != name => {
                return Err(bad(alloc::format!("{name} takes no options of {}", options.game())))
            }
            Options::TripleTriad(o) => {
                let config = o.config()?;
                let hands = tripletriad::dealt_hands(&config, seed)?;
                AnyGame::TripleTriad(Box::new(Match::new(config, hands.blue, hands.red, seed)?))
            }
            Options::Trax(o) => AnyGame::Trax(Box::new(o.game().map_err(|e| bad(alloc::format!("max_tiles: {e}")))?)),
            Options::Nantong(o) => {
                o.deals()?;
                AnyGame::Nantong(Box::new(nantong::Nantong::sized(seed, o.size()?)))
            }
        })
    }
}

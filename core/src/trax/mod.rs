//! Trax: the 8x8 game, the unbounded game (Supertrax) and Loop Trax, with the official notation,
//! forced plays, loops and lines (see `rules/trax.md`).
//!
//! ```
//! use arbiter_core::Game;
//! use arbiter_core::trax::{Trax, Variant};
//! let mut g = Trax::new(Variant::EightByEight);
//! g.play("@0+".parse().unwrap()).unwrap();
//! assert_eq!(g.legal_moves().len(), 12);
//! assert!(g.play("@0\\".parse().unwrap()).is_err()); // only touches a corner
//! ```

pub mod ai;
mod bits;
mod board;
mod book;
mod engine;
mod movegen;
mod notation;
mod options;
mod perft;
#[cfg(feature = "serde")]
mod saved;
mod search;
mod state;
mod table;
pub mod tensor;
mod tile;
mod turn;
mod variant;
mod win;

pub use notation::{column_name, read_record, BadNotation, Move, RecordError};
pub use options::{describe, Options};
pub use state::Trax;
pub use tile::{Colour, Shape, Tile};
pub use turn::{MoveError, TurnReport};
pub use variant::{TileLimitError, UnknownVariant, Variant, DEFAULT_MAX_TILES, MAX_SPAN, MAX_TILES_CEILING};
pub use win::{Coords, LastTurn, Win};

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
mod board;
mod engine;
mod movegen;
mod notation;
mod options;
mod perft;
mod search;
mod state;
pub mod tensor;
mod tile;
mod variant;

pub use notation::{column_name, read_record, BadNotation, Move, RecordError};
pub use options::{describe, Options};
pub use state::{
    Coords, LastTurn, MoveError, TileLimitError, Trax, TurnReport, Win, DEFAULT_MAX_TILES, MAX_SPAN, MAX_TILES_CEILING,
};
pub use tile::{Colour, Shape, Tile};
pub use variant::{UnknownVariant, Variant};

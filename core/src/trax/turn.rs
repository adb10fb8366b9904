//! What a turn gives back to its host: why it was refused, or where its tiles went.

use alloc::vec::Vec;

use super::notation::Move;

/// Why a move was refused; the state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The first move must be `@0+` or `@0/`.
    #[error("the first move must be @0+ or @0/, not {0}")]
    FirstMove(Move),
    /// The cell holds a tile.
    #[error("{0}: the cell is occupied")]
    Occupied(Move),
    /// The cell touches no tile edge to edge.
    #[error("{0}: the cell is not next to a tile")]
    NotAdjacent(Move),
    /// No colouring of the shape matches the neighbours.
    #[error("{0}: no colouring of {shape} matches the neighbouring edges", shape = .0.shape.symbol())]
    NoColouring(Move),
    /// 8x8: the move would widen the area past eight columns or rows.
    #[error("{0}: the tiles would span more than 8 columns or rows")]
    OutsideArea(Move),
    /// A forced play leaves a cell with three entries of one colour.
    #[error("{0}: the forced plays leave an empty cell entered three times by one colour")]
    IllegalTurn(Move),
    /// The tiles would span more than [`MAX_SPAN`](super::MAX_SPAN) columns or rows: a limit of the host (on
    /// action ids and memory), not a rule.
    #[error("{mv}: the tiles would span more than {limit} columns or rows (the game's span limit)")]
    TooWide {
        /// The move.
        mv: Move,
        /// The limit, [`MAX_SPAN`](super::MAX_SPAN).
        limit: u32,
    },
    /// The turn's tiles, forced ones included, would pass the game's tile limit
    /// ([`Trax::max_tiles`](super::Trax::max_tiles)): a limit of the host, not a rule.
    #[error("{mv}: the turn would put more than {limit} tiles on the board (the game's tile limit)")]
    TooManyTiles {
        /// The move.
        mv: Move,
        /// The limit.
        limit: u32,
    },
}

/// Where a turn's tiles went and what they did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnReport {
    /// Absolute (x, y) of the chosen tile.
    pub placed: (i32, i32),
    /// Absolute (x, y) of each forced tile, in the order they fell.
    pub forced: Vec<(i32, i32)>,
}

//! The Trax game state: tiles on the board, incremental path ends, turns with their forced plays,
//! wins, undo.

use alloc::vec::Vec;
use core::fmt;
use core::ops::ControlFlow;

use super::board::{fit_axis, tile_hash, BBox, Board, Remap, EMPTY_BOX};
use super::movegen::{cascade, generate, Candidate, Cells, Facts};
use super::notation::Move;
use super::perft::PERFT_HEADROOM;
use super::tile::{opposite, Colour, Shape, Tile, E, N, W};
use super::variant::Variant;
use crate::game::{Game, Outcome};

/// How many tiles a game holds unless its host chooses otherwise ([`Trax::with_max_tiles`]).
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
/// ([`MoveError::TooWide`]), like the tile limit: a limit of the host, not a rule. Real games span
/// a few dozen columns.
pub const MAX_SPAN: u32 = 1022;

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
    /// The tiles would span more than [`MAX_SPAN`] columns or rows: a limit of the host (on
    /// action ids and memory), not a rule.
    #[error("{mv}: the tiles would span more than {limit} columns or rows (the game's span limit)")]
    TooWide {
        /// The move.
        mv: Move,
        /// The limit, [`MAX_SPAN`].
        limit: u32,
    },
    /// The turn's tiles, forced ones included, would pass the game's tile limit
    /// ([`Trax::max_tiles`]): a limit of the host, not a rule.
    #[error("{mv}: the turn would put more than {limit} tiles on the board (the game's tile limit)")]
    TooManyTiles {
        /// The move.
        mv: Move,
        /// The limit.
        limit: u32,
    },
}

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

/// How a game was won ([`Trax::win`]); JSON `{"winner": "red", "by_loop": true, "by_line": false,
/// "tracks": [[{"col": 2, "row": 2}, …]]}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Win {
    /// The winner.
    pub winner: Colour,
    /// A loop of the winner's colour.
    pub by_loop: bool,
    /// A line of the winner's colour joining opposite edges eight rows or columns apart.
    pub by_line: bool,
    /// The cells of every winning track of the winner's colour, each in order along the track
    /// (a loop from a tile of the last turn; a line from one edge to the other), in notation
    /// coordinates of the area now.
    pub tracks: Vec<Vec<Coords>>,
}

/// A cell in notation coordinates: column 1 is the area's leftmost (`A`), row 1 its top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Coords {
    /// The column, from 1.
    pub col: u32,
    /// The row, from 1.
    pub row: u32,
}

/// A turn as a host shows it ([`Trax::last_turn`]); JSON
/// `{"move": "B2/", "placed": {"col": 2, "row": 2}, "forced": [{"col": 1, "row": 2}]}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LastTurn {
    /// The move, written in notation.
    #[cfg_attr(feature = "serde", serde(rename = "move", serialize_with = "notation"))]
    pub mv: Move,
    /// Where its tile went.
    pub placed: Coords,
    /// The tiles it forced, in the order they fell.
    pub forced: Vec<Coords>,
}

#[cfg(feature = "serde")]
fn notation<S: serde::Serializer>(mv: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(mv)
}

/// Where a turn's tiles went and what they did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnReport {
    /// Absolute (x, y) of the chosen tile.
    pub placed: (i32, i32),
    /// Absolute (x, y) of each forced tile, in the order they fell.
    pub forced: Vec<(i32, i32)>,
}

/// The state before a turn: the tiles put since are the slots past `tiles`, the path ends changed
/// since are the log entries past `log`, and the rest is kept as it was.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checkpoint {
    pub(super) log: usize,
    pub(super) tiles: u32,
    pub(super) bbox: BBox,
    pub(super) to_move: Colour,
    pub(super) result: Option<Outcome<Colour>>,
}

/// Why [`Trax::turn`] refused a turn.
#[derive(Clone, Copy)]
pub(super) enum Refusal {
    Area,
    Span,
    Illegal,
    Limit,
}

/// A Trax game in any variant.
///
/// The board is a rectangle of cells around the tiles, with a margin, grown a quarter at a time
/// on the side that runs out of room: its size follows the bounding box of the tiles, not its
/// longest side squared. Path ends are numbered by tile, so they never depend on the grid.
///
/// With the feature `serde` a game saves as its variant and moves, and loads by replaying them.
///
/// ```
/// use arbiter_core::{Game, Outcome};
/// use arbiter_core::trax::{Trax, Variant, Colour};
/// let mut g = Trax::new(Variant::Unbounded);
/// for m in ["@0/", "B1\\", "B2/"] {
///     g.play(m.parse().unwrap()).unwrap();
/// }
/// // B2/ forced a fourth tile that closed a red loop: white's move made red win.
/// assert_eq!(g.tiles(), 4);
/// assert_eq!(g.outcome(), Some(Outcome::Winner(Colour::Red)));
/// ```
#[derive(Clone)]
pub struct Trax {
    pub(super) variant: Variant,
    pub(super) max_tiles: u32,
    pub(super) board: Board,
    /// For an open path end `slot * 4 + edge`: the path's other open end.
    pub(super) partner: Vec<u32>,
    /// The cell of each slot; its length is the number of tiles.
    pub(super) slot_cell: Vec<u32>,
    pub(super) tiles: u32,
    pub(super) bbox: BBox,
    pub(super) to_move: Colour,
    pub(super) result: Option<Outcome<Colour>>,
    /// Moves played, in notation (for records and replays).
    pub(super) history: Vec<Move>,
    /// The state before each move of `history`, for [`Trax::undo`].
    pub(super) turns: Vec<Checkpoint>,
    /// Path-end changes of every turn played (for trials and undo): (end, old partner).
    pub(super) log: Vec<(u32, u32)>,
    /// Scratch: path ends joined in the current turn, and the forced queue.
    pub(super) joined: Vec<(u32, u32)>,
    pub(super) queue: Vec<u32>,
}

/// Empty cells kept around the tiles between turns: a turn's tiles and the cells they touch lie
/// within two cells of the bounding box (forced tiles never leave the box of the tiles and the
/// chosen one).
pub(super) const MARGIN: i32 = 2;
/// The side of a new game's grid: an 8x8 game never regrows it.
const START_SIDE: usize = 24;

/// An open end of a track: the absolute cell of its tile and the edge the track leaves by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct End {
    pub(crate) x: i32,
    pub(crate) y: i32,
    pub(crate) edge: u8,
}

impl End {
    /// The empty cell that the track enters next.
    pub(crate) fn target(self) -> (i32, i32) {
        match self.edge {
            N => (self.x, self.y - 1),
            E => (self.x + 1, self.y),
            W => (self.x - 1, self.y),
            _ => (self.x, self.y + 1),
        }
    }
}

/// A real turn's cascade: forced tiles are put with their paths.
pub(super) struct TurnCells<'a> {
    g: &'a mut Trax,
    loops: u8,
    forced: Option<&'a mut Vec<u32>>,
}

impl Cells for TurnCells<'_> {
    #[inline(always)]
    fn step(&self, idx: usize, e: u8) -> usize {
        self.g.board.step(idx, e)
    }
    #[inline(always)]
    fn empty_entries(&self, idx: usize) -> Option<u8> {
        let c = self.g.board.grid[idx];
        (c.tile == 0).then_some(c.entries)
    }
    #[inline(always)]
    fn place(&mut self, idx: usize, tile: Tile) {
        self.g.put(idx, tile, &mut self.loops);
        if let Some(f) = self.forced.as_deref_mut() {
            f.push(idx as u32);
        }
    }
    #[inline(always)]
    fn queue(&mut self) -> &mut Vec<u32> {
        &mut self.g.queue
    }
    #[inline(always)]
    fn full(&self) -> bool {
        self.g.tiles > self.g.max_tiles
    }
}

impl Trax {
    /// An empty board with the default tile limit ([`DEFAULT_MAX_TILES`]); white to move.
    pub fn new(variant: Variant) -> Trax {
        let side = START_SIDE;
        Trax {
            variant,
            max_tiles: DEFAULT_MAX_TILES,
            board: Board::new(side, side, (side / 2) as i32, (side / 2) as i32),
            partner: Vec::new(),
            slot_cell: Vec::new(),
            tiles: 0,
            bbox: EMPTY_BOX,
            to_move: Colour::White,
            result: None,
            history: Vec::new(),
            turns: Vec::new(),
            log: Vec::new(),
            joined: Vec::new(),
            queue: Vec::new(),
        }
    }

    /// An empty board that refuses any turn that would put more than `max_tiles` tiles on it
    /// (with [`MoveError::TooManyTiles`]); `max_tiles` is `1..=`[`MAX_TILES_CEILING`]. Once the
    /// player to move has no turn that fits, the game is over and drawn: a convention of this
    /// engine, not of the rules (whose unbounded games have no end but a win). Memory and
    /// the time of every call grow with the tiles, so a host that takes games from untrusted
    /// input keeps this as low as its games allow.
    ///
    /// ```
    /// use arbiter_core::{Game, Outcome};
    /// use arbiter_core::trax::{MoveError, Trax, Variant};
    /// let mut g = Trax::with_max_tiles(Variant::Loop, 2).unwrap();
    /// g.play("@0+".parse().unwrap()).unwrap();
    /// g.play("A2+".parse().unwrap()).unwrap();
    /// let e = g.play("A3+".parse().unwrap()).unwrap_err();
    /// assert!(matches!(e, MoveError::GameOver));
    /// // No move fits: the game is over, drawn (the engine's convention, not a rule).
    /// assert_eq!((g.is_over(), g.outcome(), g.win()), (true, Some(Outcome::Draw), None));
    /// assert!(g.legal_moves().is_empty());
    /// ```
    pub fn with_max_tiles(variant: Variant, max_tiles: u32) -> Result<Trax, TileLimitError> {
        if !(1..=MAX_TILES_CEILING).contains(&max_tiles) {
            return Err(TileLimitError(max_tiles));
        }
        let mut g = Trax::new(variant);
        g.max_tiles = max_tiles;
        Ok(g)
    }

    /// Replays `moves` (notation) from the empty board.
    pub fn replay(variant: Variant, moves: &[Move]) -> Result<Trax, (usize, MoveError)> {
        let mut g = Trax::new(variant);
        for (i, &m) in moves.iter().enumerate() {
            g.play(m).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The most tiles this game may hold ([`Trax::with_max_tiles`]).
    ///
    /// ```
    /// use arbiter_core::trax::{Trax, Variant, DEFAULT_MAX_TILES};
    /// assert_eq!(Trax::new(Variant::Loop).max_tiles(), DEFAULT_MAX_TILES);
    /// ```
    pub fn max_tiles(&self) -> u32 {
        self.max_tiles
    }

    /// Tiles on the board, forced ones included.
    pub fn tiles(&self) -> u32 {
        self.tiles
    }

    /// The player who moves next (after the end: who would have).
    pub fn next_player(&self) -> Colour {
        self.to_move
    }

    /// The moves played so far.
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// Columns and rows spanned by the tiles, (0, 0) on an empty board.
    pub fn size(&self) -> (u32, u32) {
        if self.tiles == 0 {
            (0, 0)
        } else {
            (
                (self.bbox.maxx - self.bbox.minx + 1) as u32,
                (self.bbox.maxy - self.bbox.miny + 1) as u32,
            )
        }
    }

    /// The notation name (`B3`) of absolute cell (`x`, `y`) relative to the current area, as
    /// in [`TurnReport`] coordinates; a cell left of (above) the empty column (row) next to the
    /// area is named as that column (row).
    ///
    /// ```
    /// use arbiter_core::trax::{Trax, Variant};
    /// let mut g = Trax::new(Variant::Unbounded);
    /// let r = g.play_explained("@0/".parse().unwrap()).unwrap();
    /// assert_eq!(g.cell_name(r.placed.0, r.placed.1), "A1");
    /// assert_eq!(g.cell_name(i32::MIN, i32::MAX), "@2147483648");
    /// ```
    pub fn cell_name(&self, x: i32, y: i32) -> alloc::string::String {
        let col = (i64::from(x) - i64::from(self.bbox.minx) + 1).max(0) as u64;
        alloc::format!(
            "{}{}",
            super::notation::column_name(col),
            (i64::from(y) - i64::from(self.bbox.miny) + 1).max(0)
        )
    }

    /// The tile at notation coordinates (`col` 1 = leftmost column, `row` 1 = top row), if any.
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::trax::{Trax, Variant};
    /// let mut g = Trax::new(Variant::Unbounded);
    /// g.play("@0+".parse().unwrap()).unwrap();
    /// assert!(g.tile_at(1, 1).is_some());
    /// assert_eq!(g.tile_at(0, 1), None);
    /// assert_eq!(g.tile_at(u32::MAX, u32::MAX), None);
    /// ```
    pub fn tile_at(&self, col: u32, row: u32) -> Option<Tile> {
        if self.tiles == 0 {
            return None;
        }
        let x = i64::from(self.bbox.minx) - 1 + i64::from(col);
        let y = i64::from(self.bbox.miny) - 1 + i64::from(row);
        self.board
            .index(x, y)
            .map(|i| self.board.grid[i].tile)
            .filter(|&t| t != 0)
            .map(Tile)
    }

    /// Cells allocated for the board (for tests of its size).
    #[cfg(test)]
    pub(crate) fn grid_cells(&self) -> usize {
        self.board.grid.capacity()
    }

    /// Cells a move generation scans: the bounding box and the empty ring around it.
    pub(crate) fn scan_cells(&self) -> u64 {
        let (w, h) = self.size();
        (u64::from(w) + 2) * (u64::from(h) + 2)
    }

    /// Whether `margin` empty cells surround the tiles inside the grid.
    #[inline]
    pub(super) fn has_margin(&self, margin: i32) -> bool {
        let b = self.bbox;
        b.minx + self.board.offx >= margin
            && b.miny + self.board.offy >= margin
            && ((b.maxx + self.board.offx + margin) as usize) < self.board.w
            && ((b.maxy + self.board.offy + margin) as usize) < self.board.h
    }

    /// Keeps `margin` cells around the tiles (see [`fit_axis`]), rebuilding the grid if needed;
    /// the remap tells where cells went. Slots and path ends do not move.
    pub(super) fn refit(&mut self, margin: i32, compact: bool) -> Option<Remap> {
        let b = self.nonempty_box();
        let (w, offx) = fit_axis(self.board.w, self.board.offx, b.minx, b.maxx, margin, compact);
        let (h, offy) = fit_axis(self.board.h, self.board.offy, b.miny, b.maxy, margin, compact);
        if (w, offx, h, offy) == (self.board.w, self.board.offx, self.board.h, self.board.offy) {
            return None;
        }
        Some(self.rebuild(w, offx, h, offy))
    }

    /// The bounding box, or the origin's cell on an empty board.
    pub(super) fn nonempty_box(&self) -> BBox {
        if self.tiles == 0 {
            BBox {
                minx: 0,
                maxx: 0,
                miny: 0,
                maxy: 0,
            }
        } else {
            self.bbox
        }
    }

    /// Moves the board to a grid of `w` x `h` cells where absolute (0, 0) is at (`offx`, `offy`),
    /// which must hold the tiles and their neighbours.
    pub(super) fn rebuild(&mut self, w: usize, offx: i32, h: usize, offy: i32) -> Remap {
        let remap = Remap {
            old_w: self.board.w,
            dx: i64::from(offx) - i64::from(self.board.offx),
            dy: i64::from(offy) - i64::from(self.board.offy),
            w,
            h,
        };
        let mut board = Board::new(w, h, offx, offy);
        // Only tiles and their neighbours hold anything, all inside the new margin.
        for (i, c) in self.board.grid.iter().enumerate() {
            if c.tile | c.entries != 0 {
                if let Some(j) = remap.cell(i as u32) {
                    board.grid[j as usize] = *c;
                }
            }
        }
        for c in &mut self.slot_cell {
            *c = remap.cell(*c).unwrap_or(0);
        }
        self.board = board;
        remap
    }

    #[inline(always)]
    pub(super) fn set_partner(&mut self, end: u32, to: u32) {
        self.log.push((end, self.partner[end as usize]));
        self.partner[end as usize] = to;
    }

    /// Joins the two tracks of the tile just put on `idx` (slot `slot`) to the paths they meet;
    /// sets bit `colour` of `loops` for a track that closes its path.
    #[inline]
    pub(super) fn link(&mut self, idx: usize, slot: u32, tile: Tile, loops: &mut u8) {
        for colour in [Colour::White, Colour::Red] {
            let edges = tile.edges(colour);
            let e1 = edges.trailing_zeros() as u8;
            let e2 = 3 - (edges.leading_zeros() - 4) as u8;
            let mut far = [0u32; 2];
            let mut met = [u32::MAX; 2];
            for (k, e) in [e1, e2].into_iter().enumerate() {
                let n = self.board.grid[self.board.step(idx, e)];
                if n.tile != 0 {
                    let end = u32::from(n.slot) * 4 + u32::from(opposite(e));
                    met[k] = end;
                    far[k] = self.partner[end as usize];
                } else {
                    far[k] = slot * 4 + u32::from(e);
                }
            }
            if met[0] != u32::MAX && far[0] == met[1] {
                *loops |= 1 << colour as u8;
            } else {
                self.set_partner(far[0], far[1]);
                self.set_partner(far[1], far[0]);
                self.joined.push((far[0], far[1]));
            }
        }
    }

    /// The tile of `shape` that matches the neighbours of empty cell `idx`, if any.
    pub(super) fn colouring(&self, idx: usize, shape: Shape) -> Option<Tile> {
        let e = self.board.grid[idx].entries;
        let (red, white) = (e & 0xF, e >> 4);
        shape.tiles().into_iter().find(|t| t.0 & red == red && t.0 & white == 0)
    }

    /// Puts a tile of the turn in progress: next slot, entries, bounding box, paths.
    pub(super) fn put(&mut self, idx: usize, tile: Tile, loops: &mut u8) {
        let slot = self.tiles;
        self.board.set_tile(idx, tile);
        // Slots fit 16 bits: a turn that passes the limit (at most the ceiling) is undone.
        self.board.grid[idx].slot = slot as u16;
        self.slot_cell.push(idx as u32);
        self.partner.extend_from_slice(&[0; 4]);
        self.tiles += 1;
        let (x, y) = self.board.xy(idx);
        let b = &mut self.bbox;
        if self.tiles == 1 {
            *b = BBox {
                minx: x,
                maxx: x,
                miny: y,
                maxy: y,
            };
        } else {
            b.minx = b.minx.min(x);
            b.maxx = b.maxx.max(x);
            b.miny = b.miny.min(y);
            b.maxy = b.maxy.max(y);
        }
        self.link(idx, slot, tile, loops);
    }

    pub(super) fn save(&mut self) -> Checkpoint {
        self.joined.clear();
        Checkpoint {
            log: self.log.len(),
            tiles: self.tiles,
            bbox: self.bbox,
            to_move: self.to_move,
            result: self.result,
        }
    }

    pub(super) fn restore(&mut self, s: Checkpoint) {
        while self.log.len() > s.log {
            let Some((end, old)) = self.log.pop() else { break };
            self.partner[end as usize] = old;
        }
        while self.slot_cell.len() > s.tiles as usize {
            let Some(c) = self.slot_cell.pop() else { break };
            self.board.clear_tile(c as usize);
        }
        self.partner.truncate(s.tiles as usize * 4);
        self.tiles = s.tiles;
        self.bbox = s.bbox;
        self.to_move = s.to_move;
        self.result = s.result;
    }

    /// Plays the chosen tile and its forced plays, decides wins and returns the colours (bit per
    /// colour) that closed a loop; a refused turn leaves the board as the turn left it (the caller
    /// restores). `forced` collects forced cells.
    pub(super) fn turn(&mut self, idx: usize, tile: Tile, forced: Option<&mut Vec<u32>>) -> Result<u8, Refusal> {
        let mut loops = 0u8;
        self.put(idx, tile, &mut loops);
        let b = self.bbox;
        if self.variant == Variant::EightByEight {
            if b.maxx - b.minx >= 8 || b.maxy - b.miny >= 8 {
                return Err(Refusal::Area);
            }
        } else if b.maxx - b.minx >= MAX_SPAN as i32 || b.maxy - b.miny >= MAX_SPAN as i32 {
            return Err(Refusal::Span);
        }
        let mut cells = TurnCells { g: self, loops, forced };
        let legal = cascade(&mut cells, idx);
        let loops = cells.loops;
        if !legal {
            return Err(Refusal::Illegal);
        }
        if self.tiles > self.max_tiles {
            return Err(Refusal::Limit);
        }
        let mover = self.to_move;
        let mut wins = loops;
        if self.variant != Variant::Loop {
            wins |= self.lines();
        }
        self.to_move = mover.other();
        self.result = match wins {
            0 if self.variant == Variant::EightByEight && self.tiles == 64 => Some(Outcome::Draw),
            0 => None,
            1 => Some(Outcome::Winner(Colour::White)),
            2 => Some(Outcome::Winner(Colour::Red)),
            _ => Some(Outcome::Winner(mover)),
        };
        Ok(loops)
    }

    /// Colours (bit per colour) with a line among the paths the turn joined.
    pub(super) fn lines(&self) -> u8 {
        let mut wins = 0u8;
        self.winning_lines(|colour, _, _| wins |= 1 << colour as u8);
        wins
    }

    /// Calls `f` with the colour and the two open ends of each line among the paths the turn
    /// joined.
    #[inline(always)]
    pub(super) fn winning_lines(&self, mut f: impl FnMut(Colour, u32, u32)) {
        let b = self.bbox;
        let wide = b.maxx - b.minx >= 7;
        let tall = b.maxy - b.miny >= 7;
        if !wide && !tall {
            return;
        }
        let cell = |end: u32| self.slot_cell[(end / 4) as usize] as usize;
        for &(a, z) in &self.joined {
            if self.partner[a as usize] != z || self.partner[z as usize] != a {
                continue;
            }
            let open = |end: u32| self.board.grid[self.board.step(cell(end), (end % 4) as u8)].tile == 0;
            if !open(a) || !open(z) {
                continue;
            }
            let at = |end: u32| {
                let (x, y) = self.board.xy(cell(end));
                match (end % 4) as u8 {
                    W => wide && x == b.minx,
                    E => wide && x == b.maxx,
                    N => tall && y == b.miny,
                    _ => tall && y == b.maxy,
                }
            };
            let (ea, ez) = ((a % 4) as u8, (z % 4) as u8);
            if ea == opposite(ez) && at(a) && at(z) {
                let tile = Tile(self.board.grid[cell(a)].tile);
                f(tile.colour(ea), a, z);
            }
        }
    }

    /// Resolves notation against the current area: the cell index and the tile, or why not.
    pub(super) fn locate(&self, mv: Move) -> Result<(usize, Tile), MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        if self.tiles == 0 {
            let first = match mv.shape {
                Shape::Straight => Tile(0b1010),
                Shape::Slash => Tile(0b0110),
                Shape::Backslash => return Err(MoveError::FirstMove(mv)),
            };
            if mv.col != 0 || mv.row != 0 {
                return Err(MoveError::FirstMove(mv));
            }
            return self
                .board
                .index(0, 0)
                .map(|i| (i, first))
                .ok_or(MoveError::FirstMove(mv));
        }
        let b = self.bbox;
        // Anything beyond one cell outside the area is not adjacent (and never wraps).
        let far = |v: u64, span: i32| v > span as u64 + 1;
        if far(mv.col, b.maxx - b.minx + 1) || far(mv.row, b.maxy - b.miny + 1) {
            return Err(MoveError::NotAdjacent(mv));
        }
        let (x, y) = (
            i64::from(b.minx) - 1 + mv.col as i64,
            i64::from(b.miny) - 1 + mv.row as i64,
        );
        let idx = self.board.index(x, y).ok_or(MoveError::NotAdjacent(mv))?;
        if self.board.grid[idx].tile != 0 {
            return Err(MoveError::Occupied(mv));
        }
        if (0..4).all(|e| self.board.grid[self.board.step(idx, e)].tile == 0) {
            return Err(MoveError::NotAdjacent(mv));
        }
        let tile = self.colouring(idx, mv.shape).ok_or(MoveError::NoColouring(mv))?;
        Ok((idx, tile))
    }

    /// Plays `mv` and reports where the chosen and forced tiles went (absolute coordinates).
    pub fn play_explained(&mut self, mv: Move) -> Result<TurnReport, MoveError> {
        let mut forced = Vec::new();
        let idx = self.place_turn(mv, Some(&mut forced))?;
        // Read before `end_turn` refits the grid.
        let report = TurnReport {
            placed: self.board.xy(idx),
            forced: forced.into_iter().map(|i| self.board.xy(i as usize)).collect(),
        };
        self.end_turn();
        Ok(report)
    }

    /// The first part of a turn: plays `mv` and its forced tiles (their cells into `forced`, when
    /// given) and records it; the cell index of its tile. [`Trax::end_turn`] follows.
    fn place_turn(&mut self, mv: Move, forced: Option<&mut Vec<u32>>) -> Result<usize, MoveError> {
        let (idx, tile) = self.locate(mv)?;
        let too_many = MoveError::TooManyTiles {
            mv,
            limit: self.max_tiles,
        };
        if self.tiles >= self.max_tiles {
            return Err(too_many);
        }
        let saved = self.save();
        if let Err(why) = self.turn(idx, tile, forced) {
            self.restore(saved);
            return Err(match why {
                Refusal::Area => MoveError::OutsideArea(mv),
                Refusal::Span => MoveError::TooWide { mv, limit: MAX_SPAN },
                Refusal::Illegal => MoveError::IllegalTurn(mv),
                Refusal::Limit => too_many,
            });
        }
        self.history.push(mv);
        self.turns.push(saved);
        Ok(idx)
    }

    /// The end of a turn: the margin around the tiles restored, and the game drawn if the player
    /// to move has no move (in 8x8 by the rules, elsewhere, at the tile limit, by the engine's
    /// convention), so that a position is over exactly when it has no legal move.
    fn end_turn(&mut self) {
        self.refit(MARGIN, false);
        if self.result.is_none() && !self.has_legal_move() {
            self.result = Some(Outcome::Draw);
        }
    }

    /// The last turn played again on a copy of the state before it: that copy after the turn,
    /// the move, the cell of its tile and the cells of the tiles it forced, and the colours (bit
    /// per colour) whose loops it closed. Replaying keeps `play` free of bookkeeping that only a
    /// UI asks for.
    pub(super) fn replay_last_turn(&self) -> Option<(Trax, Move, usize, Vec<u32>, u8)> {
        let mut g = self.clone();
        let mv = g.undo()?;
        let (idx, tile) = g.locate(mv).ok()?;
        g.save();
        let mut forced = Vec::new();
        let loops = g.turn(idx, tile, Some(&mut forced)).ok()?;
        Some((g, mv, idx, forced, loops))
    }

    /// How the game was won: the winner, whether by a loop, a line or both, and the cells of
    /// every winning track (replayed from the last turn, so it costs nothing while playing);
    /// `None` unless someone won.
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::trax::{Colour, Coords, Trax, Variant};
    /// let mut g = Trax::new(Variant::Unbounded);
    /// for m in ["@0/", "B1\\", "B2/"] {
    ///     g.play(m.parse().unwrap()).unwrap();
    /// }
    /// let win = g.win().unwrap();
    /// assert_eq!((win.winner, win.by_loop, win.by_line), (Colour::Red, true, false));
    /// // The red loop through the four tiles, from the last one placed.
    /// let at = |col, row| Coords { col, row };
    /// assert_eq!(win.tracks, [vec![at(2, 2), at(1, 2), at(1, 1), at(2, 1)]]);
    /// ```
    pub fn win(&self) -> Option<Win> {
        let winner = self.result?.winner()?;
        let (g, _, idx, forced, loops) = self.replay_last_turn()?;
        let bit = 1u8 << winner as u8;
        let mut tracks = Vec::new();
        if loops & bit != 0 {
            for start in core::iter::once(idx).chain(forced.iter().map(|&c| c as usize)) {
                let edge = Tile(g.board.grid[start].tile).edges(winner).trailing_zeros() as u8;
                let (cells, closed) = g.trace(start, edge);
                // A loop is met from each of its tiles the turn put: keep it once.
                if closed && !tracks.iter().any(|t: &Vec<usize>| t.contains(&start)) {
                    tracks.push(cells);
                }
            }
        }
        let by_line = g.variant != Variant::Loop && g.lines() & bit != 0;
        if by_line {
            let ends: Vec<u32> = {
                let mut ends = Vec::new();
                g.winning_lines(|colour, a, _| {
                    if colour == winner {
                        ends.push(a)
                    }
                });
                ends
            };
            for a in ends {
                let start = g.slot_cell[(a / 4) as usize] as usize;
                if !tracks.iter().any(|t| t.contains(&start)) {
                    tracks.push(g.trace(start, (a % 4) as u8).0);
                }
            }
        }
        Some(Win {
            winner,
            by_loop: loops & bit != 0,
            by_line,
            tracks: tracks
                .iter()
                .map(|t| t.iter().map(|&c| g.coords(c)).collect())
                .collect(),
        })
    }

    /// The notation coordinates of grid cell `idx` in the area now.
    fn coords(&self, idx: usize) -> Coords {
        let (x, y) = self.board.xy(idx);
        Coords {
            col: (x - self.bbox.minx + 1) as u32,
            row: (y - self.bbox.miny + 1) as u32,
        }
    }

    /// The cells of the track that enters the tile on `start` by edge `enter`, in order from
    /// `start`, and whether it closes (a loop) rather than ending at an empty cell.
    fn trace(&self, start: usize, enter: u8) -> (Vec<usize>, bool) {
        let colour = Tile(self.board.grid[start].tile).colour(enter);
        let (mut cell, mut enter) = (start, enter);
        let mut cells = Vec::new();
        loop {
            cells.push(cell);
            let tile = Tile(self.board.grid[cell].tile);
            let exit = (tile.edges(colour) & !(1 << enter)).trailing_zeros() as u8;
            let next = self.board.step(cell, exit);
            if self.board.grid[next].tile == 0 {
                return (cells, false);
            }
            (cell, enter) = (next, opposite(exit));
            if cell == start {
                return (cells, true);
            }
        }
    }

    /// The last turn of the game: its move and the cells of its tile and of the tiles it forced,
    /// in notation coordinates of the area now (replayed, like [`Trax::win`]); `None` on an empty
    /// board.
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::trax::{Coords, Trax, Variant};
    /// let mut g = Trax::new(Variant::Unbounded);
    /// for m in ["@0/", "B1\\", "B2/"] {
    ///     g.play(m.parse().unwrap()).unwrap();
    /// }
    /// let turn = g.last_turn().unwrap();
    /// assert_eq!((turn.mv.to_string(), turn.placed), ("B2/".into(), Coords { col: 2, row: 2 }));
    /// assert_eq!(turn.forced, [Coords { col: 1, row: 2 }]);
    /// ```
    pub fn last_turn(&self) -> Option<LastTurn> {
        let (g, mv, idx, forced, _) = self.replay_last_turn()?;
        Some(LastTurn {
            mv,
            placed: g.coords(idx),
            forced: forced.iter().map(|&c| g.coords(c as usize)).collect(),
        })
    }

    /// Takes back the last turn, forced tiles included, and returns its move; `None` on an empty
    /// board. The state is exactly the one before that turn (a finished game resumes).
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::trax::{Trax, Variant};
    /// let mut g = Trax::new(Variant::Unbounded);
    /// for m in ["@0/", "B1\\", "B2/"] {
    ///     g.play(m.parse().unwrap()).unwrap();
    /// }
    /// assert!(g.is_over());
    /// assert_eq!(g.undo().unwrap().to_string(), "B2/");
    /// assert_eq!((g.tiles(), g.is_over(), g.history().len()), (2, false, 2));
    /// assert_eq!(g, Trax::replay(Variant::Unbounded, g.history()).unwrap());
    /// ```
    pub fn undo(&mut self) -> Option<Move> {
        let saved = self.turns.pop()?;
        let mv = self.history.pop();
        self.restore(saved);
        // A board that shrank a lot gives its memory back.
        self.refit(MARGIN, true);
        mv
    }

    /// Tiles that turns may still put before the limit.
    #[inline(always)]
    pub(super) fn room(&self) -> u32 {
        self.max_tiles.saturating_sub(self.tiles)
    }

    /// What move generation needs besides the cells.
    pub(super) fn facts(&self) -> Facts {
        Facts {
            bbox: self.bbox,
            tiles: self.tiles,
            eight: self.variant == Variant::EightByEight,
            over: self.result.is_some(),
        }
    }

    /// Can the player to move play at all, within the tile limit? The scan stops at the first
    /// legal placement (a full one cost as much as the move generation of the turn).
    pub(super) fn has_legal_move(&mut self) -> bool {
        let (facts, room) = (self.facts(), self.room());
        generate(
            &mut self.board,
            &mut self.queue,
            facts,
            room,
            |_| ControlFlow::Break(()),
        )
        .is_break()
    }

    /// The legal placements within the tile limit, appended to `out`. Needs [`MARGIN`].
    pub(crate) fn candidates(&mut self, out: &mut Vec<Candidate>) {
        let (facts, room) = (self.facts(), self.room());
        let _ = generate(&mut self.board, &mut self.queue, facts, room, |c| {
            out.push(c);
            ControlFlow::Continue(())
        });
    }

    /// Calls `f` with every legal placement within the tile limit in the generator's order
    /// (ascending action ids). The state is read, not copied: trial turns of forced plays go to
    /// a copy of the cells of the area and two around it, the cells the generation reads anyway.
    pub(super) fn each_legal(&self, f: impl FnMut(Candidate) -> ControlFlow<()>) {
        let facts = self.facts();
        if facts.over {
            return;
        }
        if let Some(mut cells) = self.board.window(self.nonempty_box(), MARGIN) {
            let _ = generate(&mut cells, &mut Vec::with_capacity(16), facts, self.room(), f);
        }
    }

    /// Room around the tiles for `turns` turns of [`Trax::make`] before [`Trax::candidates`]:
    /// each turn widens the area by a cell at most. Only while no candidates are held (the grid may
    /// move).
    pub(crate) fn reserve_turns(&mut self, turns: u32) {
        self.refit(MARGIN + turns.min(PERFT_HEADROOM) as i32, false);
    }

    /// Plays a candidate of this state; `None` (state unchanged) if refused.
    pub(crate) fn make(&mut self, c: &Candidate) -> Option<Checkpoint> {
        let saved = self.save();
        match self.turn(c.cell as usize, c.tile, None) {
            Ok(_) => Some(saved),
            Err(_) => {
                self.restore(saved);
                None
            }
        }
    }

    /// The hash of the tiles put since `saved` (see [`tile_hash`]): exclusive or of it moves a
    /// position's hash across a [`Trax::make`] and back.
    pub(crate) fn hash_since(&self, saved: &Checkpoint) -> u64 {
        self.slot_cell[saved.tiles as usize..].iter().fold(0, |h, &c| {
            let (x, y) = self.board.xy(c as usize);
            h ^ tile_hash(x, y, Tile(self.board.grid[c as usize].tile))
        })
    }

    /// Calls `f` once for each track with two open ends, with its colour and its ends.
    pub(crate) fn open_paths(&self, mut f: impl FnMut(Colour, End, End)) {
        let end = |i: u32| {
            let c = self.slot_cell[(i / 4) as usize] as usize;
            let (x, y) = self.board.xy(c);
            End {
                x,
                y,
                edge: (i % 4) as u8,
            }
        };
        for (slot, &cell) in self.slot_cell.iter().enumerate() {
            let tile = Tile(self.board.grid[cell as usize].tile);
            for e in 0..4u8 {
                let i = slot as u32 * 4 + u32::from(e);
                let other = self.partner[i as usize];
                if other > i && self.board.grid[self.board.step(cell as usize, e)].tile == 0 {
                    f(tile.colour(e), end(i), end(other));
                }
            }
        }
    }

    /// Takes back what [`Trax::make`] played.
    pub(crate) fn unmake(&mut self, saved: Checkpoint) {
        self.restore(saved);
    }

    /// The most turns the game can still last: each puts a tile, and the tiles are bounded by the
    /// limit (and, in 8x8, by the 64 cells).
    pub fn turns_left(&self) -> u32 {
        if self.result.is_some() {
            return 0;
        }
        let cap = match self.variant {
            Variant::EightByEight => self.max_tiles.min(64),
            _ => self.max_tiles,
        };
        cap.saturating_sub(self.tiles)
    }
}

/// The saved form of a game (feature `serde`): see the `Serialize` impl of [`Trax`].
#[cfg(feature = "serde")]
mod saved_form {
    use super::{Move, Trax, Variant, DEFAULT_MAX_TILES};
    use crate::Game;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;
    use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Record {
        variant: Variant,
        moves: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_tiles: Option<u32>,
    }

    /// A game saves as its variant, its moves in notation and its tile limit when not the default:
    /// `{"variant": "8x8", "moves": ["@0+", "B1/"]}`. Loading replays the moves, so a loaded game is
    /// valid by construction: a move the rules (or the limit) refuse is a deserialisation error.
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::trax::{Trax, Variant};
    /// let g = Trax::replay(Variant::EightByEight, &["@0+".parse().unwrap()]).unwrap();
    /// let json = serde_json::to_string(&g).unwrap();
    /// assert_eq!(json, r#"{"variant":"8x8","moves":["@0+"]}"#);
    /// assert_eq!(serde_json::from_str::<Trax>(&json).unwrap(), g);
    /// assert!(serde_json::from_str::<Trax>(r#"{"variant":"8x8","moves":["@0\\"]}"#).is_err());
    /// ```
    impl Serialize for Trax {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            Record {
                variant: self.variant,
                moves: self.history.iter().map(|m| m.to_string()).collect(),
                max_tiles: (self.max_tiles != DEFAULT_MAX_TILES).then_some(self.max_tiles),
            }
            .serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for Trax {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Trax, D::Error> {
            let r = Record::deserialize(d)?;
            let limit = r.max_tiles.unwrap_or(DEFAULT_MAX_TILES);
            let mut g = Trax::with_max_tiles(r.variant, limit).map_err(de::Error::custom)?;
            for (i, text) in r.moves.iter().enumerate() {
                let mv: Move = text
                    .parse()
                    .map_err(|e| de::Error::custom(format_args!("move {}: {e}", i + 1)))?;
                g.play(mv)
                    .map_err(|e| de::Error::custom(format_args!("move {}: {e}", i + 1)))?;
            }
            Ok(g)
        }
    }
}

impl PartialEq for Trax {
    /// Same variant and tile limit, same tiles at the same places relative to the area, same
    /// player to move and result.
    fn eq(&self, other: &Trax) -> bool {
        let same_tiles = self.tiles == other.tiles
            && self.size() == other.size()
            && (0..self.size().1)
                .all(|r| (0..self.size().0).all(|c| self.tile_at(c + 1, r + 1) == other.tile_at(c + 1, r + 1)));
        self.variant == other.variant
            && self.max_tiles == other.max_tiles
            && same_tiles
            && self.to_move == other.to_move
            && self.result == other.result
    }
}

impl Eq for Trax {}

impl fmt::Debug for Trax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Trax({}, [", self.variant)?;
        for (i, m) in self.history.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{m}")?;
        }
        f.write_str("])")
    }
}

impl Trax {
    /// How many relative columns (and rows) action ids cover: 0..=9 for 8x8, else 0..1024.
    pub(super) fn action_side(&self) -> usize {
        if self.variant == Variant::EightByEight {
            10
        } else {
            1024
        }
    }

    /// The action id of `mv`: row-major over [`Trax::action_side`] squares, three shapes a cell
    /// in [`Shape::ALL`] order; `None` outside the ids.
    #[inline]
    pub(super) fn id_of(&self, mv: Move) -> Option<usize> {
        let side = self.action_side();
        let (col, row) = (mv.col as usize, mv.row as usize);
        // Shapes are declared in `Shape::ALL` order.
        (mv.col < side as u64 && mv.row < side as u64).then(|| (row * side + col) * 3 + mv.shape as usize)
    }
}

impl Game for Trax {
    type Player = Colour;
    type Move = Move;
    type MoveList = Vec<Move>;
    type MoveError = MoveError;
    type Observation = Trax;

    /// Ids cover relative coordinates up to 1023 (8x8: 0..=9) in both directions, three shapes each.
    fn num_distinct_actions(&self) -> usize {
        let side = self.action_side();
        side * side * 3
    }

    fn to_move(&self) -> Option<Colour> {
        self.result.is_none().then_some(self.to_move)
    }

    /// The legal moves within the tile limit. The state is read, not copied: trial turns of forced
    /// plays go to a copy of the cells of the area and two around it.
    fn legal_moves(&self) -> Vec<Move> {
        // Sized for most positions at once: growing by doubling was a tenth of a research step.
        let mut out = Vec::with_capacity(64);
        self.each_legal(|c| {
            out.push(c.mv);
            ControlFlow::Continue(())
        });
        out
    }

    /// [`Trax::play_explained`] without the report (no cells to collect).
    fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        self.place_turn(mv, None)?;
        self.end_turn();
        Ok(())
    }

    fn play_unchecked(&mut self, mv: Move) {
        let _ = self.play(mv);
    }

    fn is_over(&self) -> bool {
        self.result.is_some()
    }

    fn outcome(&self) -> Option<Outcome<Colour>> {
        self.result
    }

    /// Trax hides nothing: the observation is the state.
    fn observation(&self, _player: Colour) -> Trax {
        self.clone()
    }

    /// ```
    /// use arbiter_core::{ErrorKind, Game};
    /// use arbiter_core::trax::{Move, Trax, Variant};
    /// let g = Trax::new(Variant::EightByEight);
    /// let id = |m: &str| g.action_id(m.parse::<Move>().unwrap());
    /// assert_eq!(id("I1+").unwrap(), (1 * 10 + 9) * 3); // row 1, column 9 of a 10x10 square, shape 0
    /// let err = id("K1+").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::BadArgument);
    /// assert_eq!(err.to_string(), "K1+ has no action id: 8x8 Trax numbers the columns @ to I and the rows 0 to 9");
    /// ```
    fn action_id(&self, mv: Move) -> Result<usize, crate::Error> {
        self.id_of(mv).ok_or_else(|| {
            let last = self.action_side() as u64 - 1;
            crate::Error::new(
                crate::ErrorKind::BadArgument,
                alloc::format!(
                    "{mv} has no action id: {} Trax numbers the columns @ to {} and the rows 0 to {last}",
                    self.variant,
                    super::notation::column_name(last)
                ),
            )
        })
    }

    fn action_move(&self, id: usize) -> Option<Move> {
        let side = self.action_side();
        (id < side * side * 3).then(|| Move {
            col: ((id / 3) % side) as u64,
            row: ((id / 3) / side) as u64,
            shape: Shape::ALL[id % 3],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(variant: Variant, moves: &str) -> Trax {
        let moves: Vec<Move> = moves.split_whitespace().map(|m| m.parse().unwrap()).collect();
        Trax::replay(variant, &moves).unwrap()
    }

    #[test]
    fn perft_table_of_the_rules() {
        let g = Trax::new(Variant::Unbounded);
        assert_eq!([1, 2, 3, 4].map(|d| g.perft(d)), [2, 24, 432, 9568]);
    }

    #[test]
    fn an_illegal_turn_leaves_the_state_unchanged() {
        let mut g = play(Variant::Unbounded, "@0/ B1+ C1/ C2\\ @1+ A2/ A3/ D3\\");
        let before = g.clone();
        let legal = g.legal_moves();
        let err = g.play("B3\\".parse().unwrap()).unwrap_err();
        assert!(matches!(err, MoveError::IllegalTurn(_)), "{err}");
        assert_eq!(g, before);
        assert_eq!(g.legal_moves(), legal);
    }

    #[test]
    fn perft_deeper_than_the_game_can_go_is_zero_at_once() {
        // Sized buffers from the depth: overflowed at 1 << 30, aborted on allocation at 20000.
        for v in [Variant::EightByEight, Variant::Unbounded, Variant::Loop] {
            let g = Trax::new(v);
            for depth in [1 << 30, u32::MAX, 20_000, DEFAULT_MAX_TILES + 1] {
                assert_eq!(g.perft(depth), 0, "{v} {depth}");
            }
        }
        // 8x8: 64 - tiles more turns at most.
        let g = play(Variant::EightByEight, "@0+ B1+");
        assert_eq!(g.tiles(), 2);
        assert_eq!(g.perft(63), 0);
        // A small limit bounds the other variants, forced tiles included.
        let g = Trax::with_max_tiles(Variant::Unbounded, 3).unwrap();
        assert_eq!(g.perft(4), 0);
        assert!(g.perft(3) < 432);
        assert_eq!(g.perft(3), crate::perft(&g, 3));
    }

    #[test]
    fn perft_regrows_the_grid_in_the_middle_of_a_count() {
        // Only the two cells of margin that moves need: every level of the search widens the area
        // and the grid is rebuilt under the candidates of the levels above.
        let g = play(Variant::Unbounded, "@0/ A2+ A3/ @2/");
        let mut tight = g.clone();
        let (b, m) = (g.bbox, MARGIN);
        let (w, h) = (
            (b.maxx - b.minx + 1 + 2 * m) as usize,
            (b.maxy - b.miny + 1 + 2 * m) as usize,
        );
        tight.rebuild(w, m - b.minx, h, m - b.miny);
        assert_eq!(tight.legal_moves(), g.legal_moves());
        assert_eq!(tight.perft_from(4), g.perft(4));
        assert!(tight.board.w > w && tight.board.h > h);
    }

    /// `@0+` and straight tiles down column A to row `rows`.
    fn column(variant: Variant, max_tiles: u32, rows: u64) -> Trax {
        let mut g = Trax::with_max_tiles(variant, max_tiles).unwrap();
        g.play("@0+".parse().unwrap()).unwrap();
        for row in 2..=rows {
            g.play(Move {
                col: 1,
                row,
                shape: Shape::Straight,
            })
            .unwrap();
        }
        g
    }

    #[test]
    fn a_long_column_costs_memory_linear_in_the_tiles_and_stops_at_the_tile_limit() {
        // Loop Trax (a straight column is no line there). The grid used to be a square as wide as
        // the column is tall.
        let mut g = column(Variant::Loop, 1_002, 1_000);
        assert_eq!((g.tiles(), g.size(), g.is_over()), (1_000, (1, 1_000), false));
        assert!(g.grid_cells() <= 32 * 1_000, "{} cells", g.grid_cells());
        assert_eq!(g.legal_moves().len(), 1_000 * 2 * 3 + 2 * 3);
        // The limit: two more tiles, so only the moves that force none, then one more, then none.
        g.play("A1001+".parse().unwrap()).unwrap();
        assert_eq!(g.legal_moves().len() as u64, g.perft(1));
        g.play("A1002+".parse().unwrap()).unwrap();
        // No turn fits: the game is over, drawn (it used to be neither over nor playable).
        assert_eq!(
            (g.is_over(), g.outcome(), g.to_move()),
            (true, Some(Outcome::Draw), None)
        );
        let e = g.play("A1003+".parse().unwrap()).unwrap_err();
        assert_eq!(e, MoveError::GameOver);
        assert!(g.legal_moves().is_empty());
        assert_eq!(g.perft(1), 0);
        // Taking the last turn back resumes the game.
        g.undo();
        assert_eq!((g.is_over(), g.to_move().is_some()), (false, true));
    }

    #[test]
    fn notation_outside_the_ids_is_refused_not_clamped_onto_another_move() {
        // Each id names one move: a move past the last numbered column or row has none (it was
        // clamped onto the id of the move at the edge).
        for (variant, inside, outside) in [
            (
                Variant::EightByEight,
                ["I1+", "@9/", "I9\\"],
                ["K1+", "J1+", "A10/", "A5000+"],
            ),
            (
                Variant::Unbounded,
                ["AMI1+", "A1023+", "@0/"],
                ["AMJ1+", "A1024+", "A5000+", "ZZZZ1/"],
            ),
            (
                Variant::Loop,
                ["A1023+", "AMI1023/", "B2\\"],
                ["A5000+", "AMJ1+", "A1024\\", "B99999/"],
            ),
        ] {
            let g = Trax::new(variant);
            for m in inside {
                let mv: Move = m.parse().unwrap();
                let id = g.action_id(mv).unwrap();
                assert_eq!(g.action_move(id), Some(mv), "{variant} {m}");
            }
            for m in outside {
                let e = g.action_id(m.parse().unwrap()).unwrap_err();
                assert_eq!(e.kind(), crate::ErrorKind::BadArgument, "{variant} {m}");
                assert!(e.message().starts_with(&alloc::format!("{m} has no action id")), "{e}");
            }
        }
        let e = Trax::new(Variant::Unbounded)
            .action_id("A5000+".parse().unwrap())
            .unwrap_err();
        assert_eq!(
            e.message(),
            "A5000+ has no action id: unbounded Trax numbers the columns @ to AMI and the rows 0 to 1023"
        );
    }

    #[test]
    fn a_column_stops_at_the_span_limit_and_every_legal_move_keeps_its_own_id() {
        // The record of the audit (a column of 16,000 tiles) is refused at its 1,023rd tile.
        let straight = |col, row| Move {
            col,
            row,
            shape: Shape::Straight,
        };
        let mut g = column(Variant::Loop, MAX_TILES_CEILING, u64::from(MAX_SPAN));
        assert_eq!(g.size(), (1, MAX_SPAN));
        let past = straight(1, u64::from(MAX_SPAN) + 1);
        let e = g.play(past).unwrap_err();
        assert_eq!(
            e,
            MoveError::TooWide {
                mv: past,
                limit: MAX_SPAN
            }
        );
        assert_eq!(crate::Error::from(e).kind(), crate::ErrorKind::LimitExceeded);
        assert!(g.play(straight(1, 0)).is_err());
        let legal = g.legal_moves();
        assert!(!legal.is_empty() && legal.iter().all(|m| (1..=u64::from(MAX_SPAN)).contains(&m.row)));
        assert_eq!(g.perft(1), legal.len() as u64);
        // Distinct moves, distinct ids, each naming its move.
        let ids: Vec<usize> = legal.iter().map(|&mv| g.action_id(mv).unwrap()).collect();
        let distinct: alloc::collections::BTreeSet<_> = ids.iter().collect();
        assert_eq!(distinct.len(), legal.len());
        for (&id, &mv) in ids.iter().zip(&legal) {
            assert_eq!(g.action_move(id), Some(mv));
        }
        // Sideways there is room: the width is one column.
        g.play(straight(2, 1)).unwrap();
    }

    #[test]
    fn an_l_of_tiles_stops_at_the_span_limit() {
        // A row of MAX_SPAN straight tiles, then a column down from its east end: a box of
        // MAX_SPAN x MAX_SPAN cells, no further row, and no move past it offered.
        let n = u64::from(MAX_SPAN);
        let mut g = Trax::new(Variant::Loop);
        g.play("@0+".parse().unwrap()).unwrap();
        let straight = |col, row| Move {
            col,
            row,
            shape: Shape::Straight,
        };
        for col in 2..=n {
            g.play(straight(col, 1)).unwrap();
        }
        for row in 2..=n {
            g.play(straight(n, row)).unwrap();
        }
        assert_eq!(g.size(), (MAX_SPAN, MAX_SPAN));
        assert!(
            g.grid_cells() <= 2 * (n as usize + 64).pow(2),
            "{} cells",
            g.grid_cells()
        );
        let e = g.play(straight(n, n + 1)).unwrap_err();
        assert_eq!(
            e,
            MoveError::TooWide {
                mv: straight(n, n + 1),
                limit: MAX_SPAN
            }
        );
        let legal = g.legal_moves();
        assert!(
            !legal.is_empty()
                && legal
                    .iter()
                    .all(|m| (1..=n).contains(&m.col) && (1..=n).contains(&m.row))
        );
        assert_eq!(g.perft(1), legal.len() as u64);
        assert!(g.play(straight(n + 1, 1)).is_err() && g.play(straight(0, 1)).is_err());
    }

    #[test]
    fn forced_tiles_count_towards_the_tile_limit() {
        let moves: Vec<Move> = ["@0/", "B1\\"].iter().map(|m| m.parse().unwrap()).collect();
        let closing: Move = "B2/".parse().unwrap(); // forces a fourth tile
        let mut g = Trax::with_max_tiles(Variant::Unbounded, 3).unwrap();
        for &m in &moves {
            g.play(m).unwrap();
        }
        let before = g.clone();
        let legal = g.legal_moves();
        assert!(!legal.contains(&closing) && legal.contains(&"B2+".parse().unwrap()));
        assert_eq!(g.perft(1), legal.len() as u64);
        let e = g.play(closing).unwrap_err();
        assert_eq!(e, MoveError::TooManyTiles { mv: closing, limit: 3 });
        assert_eq!(crate::Error::from(e).kind(), crate::ErrorKind::LimitExceeded);
        assert_eq!(g, before);
        assert_eq!(g.history(), before.history());
        assert_eq!(g.legal_moves(), legal);
        let mut roomy = Trax::with_max_tiles(Variant::Unbounded, 4).unwrap();
        for m in moves.into_iter().chain([closing]) {
            roomy.play(m).unwrap();
        }
        assert_eq!(roomy.tiles(), 4);
        assert_eq!(
            Trax::with_max_tiles(Variant::Loop, MAX_TILES_CEILING + 1)
                .unwrap_err()
                .0,
            MAX_TILES_CEILING + 1
        );
        assert!(Trax::with_max_tiles(Variant::Loop, 0).is_err());
    }

    #[test]
    fn undo_gives_back_the_memory_of_a_long_line() {
        let mut text = alloc::string::String::from("@0+");
        for i in 2..=400 {
            text.push_str(&alloc::format!(" A{i}+"));
        }
        let mut g = play(Variant::Loop, &text);
        let big = g.grid_cells();
        for _ in 0..395 {
            g.undo().unwrap();
        }
        assert!(g.grid_cells() * 10 < big, "{} of {big} cells", g.grid_cells());
        assert_eq!(g, Trax::replay(Variant::Loop, g.history()).unwrap());
        assert_eq!(
            g.legal_moves(),
            Trax::replay(Variant::Loop, g.history()).unwrap().legal_moves()
        );
        assert_eq!(g.perft(3), Trax::replay(Variant::Loop, g.history()).unwrap().perft(3));
    }

    #[test]
    fn the_grid_grows_without_limit() {
        let mut text = alloc::string::String::from("@0+");
        for i in 0..40 {
            text.push_str(&alloc::format!(" A{}+", i + 2));
        }
        let g = play(Variant::Loop, &text);
        assert_eq!(g.size(), (1, 41));
        assert!(!g.is_over());
        assert_eq!(g.legal_moves().len(), 41 * 2 * 3 + 2 * 3);
    }

    /// Every won game says how: random 8x8 and loop games give loops and lines, never neither,
    /// and Loop Trax never a line.
    #[test]
    fn a_win_is_a_loop_or_a_line() {
        let (mut loops, mut lines) = (0, 0);
        for (seed, variant) in (0..200u64).map(|s| (s, [Variant::EightByEight, Variant::Loop][s as usize % 2])) {
            let mut g = Trax::new(variant);
            let mut rng = crate::Rng::new(seed);
            while !g.is_over() && g.tiles() < 200 {
                let moves = g.legal_moves();
                g.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
            }
            match (g.outcome(), g.win()) {
                (Some(Outcome::Winner(w)), Some(win)) => {
                    assert_eq!(win.winner, w);
                    assert!(win.by_loop || win.by_line, "seed {seed}");
                    assert!(!(variant == Variant::Loop && win.by_line));
                    // Every track runs from tile to neighbouring tile; a loop closes, a line
                    // joins opposite sides of the area.
                    assert!(!win.tracks.is_empty(), "seed {seed}");
                    let (w, h) = g.size();
                    for t in &win.tracks {
                        let next = |a: &Coords, b: &Coords| a.col.abs_diff(b.col) + a.row.abs_diff(b.row) == 1;
                        assert!(t.windows(2).all(|p| next(&p[0], &p[1])), "seed {seed}: {t:?}");
                        assert!(t.iter().all(|c| g.tile_at(c.col, c.row).is_some()));
                        let (first, last) = (t[0], t[t.len() - 1]);
                        let spans = (first.col.min(last.col) == 1 && first.col.max(last.col) == w)
                            || (first.row.min(last.row) == 1 && first.row.max(last.row) == h);
                        assert!(next(&first, &last) || spans, "seed {seed}: {t:?}");
                    }
                    loops += win.by_loop as u32;
                    lines += win.by_line as u32;
                }
                (_, win) => assert_eq!(win, None),
            }
        }
        assert!(loops > 0 && lines > 0, "{loops} loops, {lines} lines");
    }

    #[test]
    fn the_last_turn_and_the_win_are_those_of_the_state_now() {
        let column = "@0+ A2+ A3+ A4+ A5+ A6+ A7+ A8+";
        let mut g = play(Variant::Unbounded, column);
        let win = g.win().unwrap();
        assert_eq!((win.winner, win.by_loop, win.by_line), (Colour::White, false, true));
        let mut track = win.tracks.concat();
        track.sort_by_key(|c| c.row);
        assert_eq!(win.tracks.len(), 1);
        assert_eq!(track, (1..=8).map(|row| Coords { col: 1, row }).collect::<Vec<_>>());
        assert_eq!(play(Variant::Loop, column).win(), None, "Loop Trax has no lines");
        let turn = g.last_turn().unwrap();
        assert_eq!(
            (turn.mv, turn.placed, turn.forced.len()),
            ("A8+".parse().unwrap(), Coords { col: 1, row: 8 }, 0)
        );
        g.undo();
        assert_eq!(g.win(), None);
        assert_eq!(g.last_turn().unwrap().mv, "A7+".parse().unwrap());
        assert_eq!(Trax::new(Variant::Unbounded).last_turn(), None);
    }
}

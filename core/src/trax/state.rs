//! The Trax game: a growable grid of tiles, incremental path ends, forced plays, wins.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use super::notation::Move;
use super::tile::{opposite, Colour, Shape, Tile, E, N, W};
use crate::game::{Game, Outcome};

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
    /// The area never exceeds 8x8; full board or no legal move is a draw.
    #[cfg_attr(feature = "serde", serde(rename = "8x8"))]
    EightByEight,
    /// Supertrax, the tournament game: no limit; lines span at least 8.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "unbounded"))]
    Unbounded,
    /// Unbounded, and only loops win.
    #[cfg_attr(feature = "serde", serde(rename = "loop"))]
    Loop,
}

impl Variant {
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
        [Variant::EightByEight, Variant::Unbounded, Variant::Loop]
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownVariant(crate::error::quote(s)))
    }
}

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

/// How a game was won ([`Trax::win`]); JSON `{"winner": "red", "by_loop": true, "by_line": false}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Win {
    /// The winner.
    pub winner: Colour,
    /// A loop of the winner's colour.
    pub by_loop: bool,
    /// A line of the winner's colour joining opposite edges eight rows or columns apart.
    pub by_line: bool,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BBox {
    minx: i32,
    maxx: i32,
    miny: i32,
    maxy: i32,
}

/// The state before a turn: the tiles put since are the slots past `tiles`, the path ends changed
/// since are the log entries past `log`, and the rest is kept as it was.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Saved {
    log: usize,
    tiles: u32,
    bbox: BBox,
    to_move: Colour,
    result: Option<Outcome<Colour>>,
}

/// Why [`Trax::turn`] refused a turn.
#[derive(Clone, Copy)]
enum Refusal {
    Area,
    Span,
    Illegal,
    Limit,
}

/// One grid cell. `tile` is its red-edge mask, 0 when empty; `entries` are the colours entering it
/// from its neighbours, red edges in the low nibble and white in the high one (kept for every
/// cell, read for empty ones); `slot` numbers the tile in the order tiles were put, which names
/// its path ends (`slot * 4 + edge`) independently of where the grid keeps it. Four bytes: one
/// load gives all a neighbour's facts.
#[derive(Clone, Copy, Default)]
struct Cell {
    tile: u8,
    entries: u8,
    slot: u16,
}

/// The cells: a `w` x `h` rectangle, row by row, where absolute (0, 0) is at (`offx`, `offy`).
#[derive(Clone)]
struct Board {
    w: usize,
    h: usize,
    offx: i32,
    offy: i32,
    /// Index steps to the neighbour across each edge (north and west wrap: negated offsets).
    delta: [usize; 4],
    grid: Vec<Cell>,
}

impl Board {
    fn new(w: usize, h: usize, offx: i32, offy: i32) -> Board {
        Board {
            w,
            h,
            offx,
            offy,
            delta: steps(w),
            grid: vec![Cell::default(); w * h],
        }
    }

    fn index(&self, x: i64, y: i64) -> Option<usize> {
        let (gx, gy) = (x + i64::from(self.offx), y + i64::from(self.offy));
        ((0..self.w as i64).contains(&gx) && (0..self.h as i64).contains(&gy))
            .then(|| gy as usize * self.w + gx as usize)
    }

    #[inline(always)]
    fn xy(&self, idx: usize) -> (i32, i32) {
        ((idx % self.w) as i32 - self.offx, (idx / self.w) as i32 - self.offy)
    }

    #[inline(always)]
    fn step(&self, idx: usize, e: u8) -> usize {
        idx.wrapping_add(self.delta[e as usize & 3])
    }

    /// Puts `tile` on `idx` and tells the four neighbours which colour now enters them.
    #[inline(always)]
    fn set_tile(&mut self, idx: usize, tile: Tile) {
        self.grid[idx].tile = tile.0;
        for e in 0..4u8 {
            let m = self.step(idx, e);
            self.grid[m].entries |= entry_bit(tile, e);
        }
    }

    /// Empties `idx` and withdraws its entries from the neighbours.
    #[inline(always)]
    fn clear_tile(&mut self, idx: usize) {
        self.grid[idx].tile = 0;
        for e in 0..4u8 {
            let m = self.step(idx, e);
            self.grid[m].entries &= !(0x11 << opposite(e));
        }
    }

    /// A copy of the cells of `b` and `margin` around it, if the board holds them.
    fn window(&self, b: BBox, margin: i32) -> Option<Board> {
        let (x0, y0) = (b.minx - margin, b.miny - margin);
        let (w, h) = (
            (b.maxx - b.minx + 1 + 2 * margin) as usize,
            (b.maxy - b.miny + 1 + 2 * margin) as usize,
        );
        self.index(i64::from(b.maxx + margin), i64::from(b.maxy + margin))?;
        let first = self.index(i64::from(x0), i64::from(y0))?;
        let mut grid = Vec::with_capacity(w * h);
        for r in 0..h {
            let start = first + r * self.w;
            grid.extend_from_slice(&self.grid[start..start + w]);
        }
        Some(Board {
            w,
            h,
            offx: -x0,
            offy: -y0,
            delta: steps(w),
            grid,
        })
    }
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
    variant: Variant,
    max_tiles: u32,
    board: Board,
    /// For an open path end `slot * 4 + edge`: the path's other open end.
    partner: Vec<u32>,
    /// The cell of each slot; its length is the number of tiles.
    slot_cell: Vec<u32>,
    tiles: u32,
    bbox: BBox,
    to_move: Colour,
    result: Option<Outcome<Colour>>,
    /// Moves played, in notation (for records and replays).
    history: Vec<Move>,
    /// The state before each move of `history`, for [`Trax::undo`].
    turns: Vec<Saved>,
    /// Path-end changes of every turn played (for trials and undo): (end, old partner).
    log: Vec<(u32, u32)>,
    /// Scratch: path ends joined in the current turn, and the forced queue.
    joined: Vec<(u32, u32)>,
    queue: Vec<u32>,
}

/// What an empty cell's entry mask (red edges low, white edges high) forces: 0 nothing, the red
/// edges of the forced tile, or [`ILLEGAL`] for three entries of one colour.
static FORCED: [u8; 256] = forced_table();
const ILLEGAL: u8 = 0xFF;

const fn forced_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut e = 0;
    while e < 256 {
        let (red, white) = ((e & 0xF) as u8, (e >> 4) as u8);
        t[e] = if red.count_ones() >= 3 || white.count_ones() >= 3 {
            ILLEGAL
        } else if red.count_ones() == 2 {
            Tile::joining(Colour::Red, red).0
        } else if white.count_ones() == 2 {
            Tile::joining(Colour::White, white).0
        } else {
            0
        };
        e += 1;
    }
    t
}

/// The tile of each shape (in [`Shape::ALL`] order) that an empty cell with this entry mask
/// admits, 0 for none: the colour of each entering track fixes the colouring.
static FITS: [[u8; 3]; 256] = fits_table();

const fn fits_table() -> [[u8; 3]; 256] {
    let mut t = [[0u8; 3]; 256];
    let mut e = 0;
    while e < 256 {
        let (red, white) = ((e & 0xF) as u8, (e >> 4) as u8);
        let mut s = 0;
        while s < 3 {
            let tiles = Shape::ALL[s].tiles();
            let mut k = 0;
            while k < 2 {
                let tile = tiles[k].0;
                if tile & red == red && tile & white == 0 {
                    t[e][s] = tile;
                }
                k += 1;
            }
            s += 1;
        }
        e += 1;
    }
    t
}

/// The entry bit that `tile`'s edge `e` gives the neighbour across it: red sets the low nibble's
/// bit, white the high one's, without a branch.
#[inline(always)]
const fn entry_bit(tile: Tile, e: u8) -> u8 {
    let red = tile.0 >> e & 1;
    (red | (red ^ 1) << 4) << opposite(e)
}

/// Index steps north, east, south, west on a grid of width `w`.
const fn steps(w: usize) -> [usize; 4] {
    [w.wrapping_neg(), 1, w, usize::MAX]
}
const EMPTY_BOX: BBox = BBox {
    minx: 0,
    maxx: -1,
    miny: 0,
    maxy: -1,
};

/// Empty cells kept around the tiles between turns: a turn's tiles and the cells they touch lie
/// within two cells of the bounding box (forced tiles never leave the box of the tiles and the
/// chosen one).
const MARGIN: i32 = 2;
/// Extra margin that [`Trax::perft`] reserves for the turns it plays, at most: deeper searches
/// regrow the grid on the way.
const PERFT_HEADROOM: u32 = 32;
/// The side of a new game's grid: an 8x8 game never regrows it.
const START_SIDE: usize = 24;

/// A legal placement found by the generator: cell index, tile, and its notation.
#[derive(Clone, Copy)]
pub(crate) struct Candidate {
    cell: u32,
    tile: Tile,
    pub(crate) mv: Move,
}

impl Candidate {
    /// A number for this placement, the same in every position of one search (the grid does not
    /// move while candidates are held): for killer moves and the transposition table.
    #[inline]
    pub(crate) fn key(&self) -> u32 {
        self.cell << 4 | u32::from(self.tile.0)
    }
}

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

/// A Zobrist-style number for `tile` on absolute cell (`x`, `y`): a hash of a position is the
/// exclusive or of its tiles' numbers (splitmix64 of the packed cell and tile).
fn tile_hash(x: i32, y: i32, tile: Tile) -> u64 {
    let mut z = (u64::from(x as u32) << 32 | u64::from(y as u32)) ^ u64::from(tile.0) << 60;
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ z >> 30).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ z >> 27).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ z >> 31
}

/// Where the cells of a grid went when it was rebuilt.
#[derive(Clone, Copy)]
struct Remap {
    old_w: usize,
    dx: i64,
    dy: i64,
    w: usize,
    h: usize,
}

impl Remap {
    fn cell(&self, old: u32) -> Option<u32> {
        let gx = (old as usize % self.old_w) as i64 + self.dx;
        let gy = (old as usize / self.old_w) as i64 + self.dy;
        ((0..self.w as i64).contains(&gx) && (0..self.h as i64).contains(&gy))
            .then(|| (gy as usize * self.w + gx as usize) as u32)
    }
}

/// One axis of a refit: the grid's extent and offset that keep `margin` cells on both sides of
/// `lo..=hi`. Unchanged while they do (and, with `compact`, while the grid is at most about twice
/// what it needs); else the need plus a quarter, on the side that ran short, so that a board
/// growing one way regrows a logarithmic number of times.
fn fit_axis(dim: usize, off: i32, lo: i32, hi: i32, margin: i32, compact: bool) -> (usize, i32) {
    let (lo, hi, off, m) = (i64::from(lo), i64::from(hi), i64::from(off), i64::from(margin));
    let short_lo = lo + off - m < 0;
    let short_hi = hi + off + m >= dim as i64;
    let need = hi - lo + 1 + 2 * m;
    let oversized = compact && dim as i64 > 2 * need + 64;
    if !short_lo && !short_hi && !oversized {
        return (dim, off as i32);
    }
    let slack = need / 4 + 8;
    let below = match (short_lo, short_hi) {
        (true, false) => slack,
        (false, true) => 0,
        _ => slack / 2,
    };
    ((need + slack) as usize, (m + below - lo) as i32)
}

/// The cells a forced-play cascade reads and fills: a real turn's (tiles with their paths) or a
/// trial's (tiles alone, on the board or on a copy).
trait Cells {
    fn step(&self, idx: usize, e: u8) -> usize;
    /// The entries of `idx` if it is empty.
    fn empty_entries(&self, idx: usize) -> Option<u8>;
    fn place(&mut self, idx: usize, tile: Tile);
    /// The cascade's queue of placed cells.
    fn queue(&mut self) -> &mut Vec<u32>;
    /// Whether the cascade is to stop here, legal so far: a real turn stops once past the tile
    /// limit (it is refused then), so that slots never pass 16 bits.
    #[inline(always)]
    fn full(&self) -> bool {
        false
    }
}

/// The forced-play cascade after a tile was put on `start`. False as soon as an empty cell is
/// entered three times by one colour; the queue then holds `start` and every cell placed.
#[inline(always)]
fn cascade<C: Cells>(c: &mut C, start: usize) -> bool {
    c.queue().clear();
    c.queue().push(start as u32);
    let mut qi = 0;
    while qi < c.queue().len() && !c.full() {
        let placed = c.queue()[qi] as usize;
        qi += 1;
        for e in 0..4u8 {
            let m = c.step(placed, e);
            let Some(entries) = c.empty_entries(m) else { continue };
            let t = match FORCED[entries as usize] {
                0 => continue,
                ILLEGAL => return false,
                red => Tile(red),
            };
            c.place(m, t);
            c.queue().push(m as u32);
        }
    }
    true
}

/// A real turn's cascade: forced tiles are put with their paths.
struct TurnCells<'a> {
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

/// A trial cascade on a board: tiles only, no paths, undone from the queue afterwards.
struct BareCells<'a> {
    b: &'a mut Board,
    queue: &'a mut Vec<u32>,
}

impl Cells for BareCells<'_> {
    #[inline(always)]
    fn step(&self, idx: usize, e: u8) -> usize {
        self.b.step(idx, e)
    }
    #[inline(always)]
    fn empty_entries(&self, idx: usize) -> Option<u8> {
        let c = self.b.grid[idx];
        (c.tile == 0).then_some(c.entries)
    }
    #[inline(always)]
    fn place(&mut self, idx: usize, tile: Tile) {
        self.b.set_tile(idx, tile);
    }
    #[inline(always)]
    fn queue(&mut self) -> &mut Vec<u32> {
        self.queue
    }
}

/// What move generation needs to know of a position besides its cells.
#[derive(Clone, Copy)]
struct Facts {
    bbox: BBox,
    tiles: u32,
    eight: bool,
    over: bool,
}

/// Whether the forced plays after putting `tile` on `idx` stay legal and put at most `room` tiles
/// with it; `forcing` are the edges of `tile` towards the cells it forces. Not inlined: the scan
/// around it keeps its registers (perft 7 about 6 % faster).
#[inline(never)]
fn forced_plays_legal(b: &mut Board, queue: &mut Vec<u32>, idx: usize, tile: Tile, forcing: u8, room: u32) -> bool {
    if forcing.count_ones() < room && forced_tiles_end(b, idx, tile, forcing, room) {
        return true;
    }
    b.set_tile(idx, tile);
    let legal = cascade(&mut BareCells { b, queue }, idx);
    for &c in queue.iter() {
        b.clear_tile(c as usize);
    }
    legal && queue.len() as u64 <= u64::from(room)
}

/// The cell across edge `e` of `tile` on `idx`, which that colour already enters, and the tile
/// forced there (the cell had one entry of each colour at most, so none enters it three times).
#[inline(always)]
fn forced_across(b: &Board, idx: usize, tile: Tile, e: u8) -> (usize, Tile) {
    let m = b.step(idx, e);
    (m, Tile(FORCED[(b.grid[m].entries | entry_bit(tile, e)) as usize]))
}

/// The entries among `entries` of the colour of `tile`'s edge `e`: not 0 if `tile` would enter
/// that neighbour a second time with one colour (a forced play).
#[inline(always)]
fn same_colour(entries: u8, tile: Tile, e: u8) -> u8 {
    if tile.0 >> e & 1 != 0 {
        entries & 0xF
    } else {
        entries >> 4
    }
}

/// The tile that `tile` on `idx` forces across edge `e`, if it forces nothing more on its own
/// (read without writing). The cells next to the forced one are two steps from `idx`, so `tile`
/// enters none of them.
#[inline(always)]
fn lone_forced_tile(b: &Board, idx: usize, tile: Tile, e: u8) -> Option<Tile> {
    let (m, forced) = forced_across(b, idx, tile, e);
    (0..4u8)
        .filter(|&f| f != opposite(e))
        .all(|f| {
            let n = b.grid[b.step(m, f)];
            n.tile != 0 || same_colour(n.entries, forced, f) == 0
        })
        .then_some(forced)
}

/// Whether the tile that `tile` on `idx` forces across edge `e` forces one more tile, which
/// forces nothing: then the turn is legal. The cells next to that second tile are one or three
/// steps from `idx`: the one next to `idx` (on the side the chain turned to) also has the entry of
/// `tile`.
#[inline(always)]
fn chain_of_two_ends(b: &Board, idx: usize, tile: Tile, e: u8) -> bool {
    let (m, first) = forced_across(b, idx, tile, e);
    let mut next = None;
    for f in (0..4u8).filter(|&f| f != opposite(e)) {
        let n = b.grid[b.step(m, f)];
        if n.tile == 0 && same_colour(n.entries, first, f) != 0 {
            if next.is_some() {
                return false;
            }
            next = Some(f);
        }
    }
    let Some(f) = next else { return true };
    let (n, second) = forced_across(b, m, first, f);
    (0..4u8).filter(|&g| g != opposite(f)).all(|g| {
        let p = b.grid[b.step(n, g)];
        let entries = p.entries | if g == opposite(e) { entry_bit(tile, f) } else { 0 };
        p.tile != 0 || same_colour(entries, second, g) == 0
    })
}

/// Whether the tiles that `tile` on `idx` forces across the edges `forcing` force nothing more,
/// or a lone one forces one more that does, within `room` tiles: then the turn is legal. Most
/// forcing moves are such; the others take the trial cascade. Two forced cells at a right angle
/// share a neighbour (the diagonal of `idx`), which must not get two entries of one colour from
/// them.
#[inline(always)]
fn forced_tiles_end(b: &Board, idx: usize, tile: Tile, forcing: u8, room: u32) -> bool {
    let e1 = forcing.trailing_zeros() as u8;
    let rest = forcing & (forcing - 1);
    let Some(t1) = lone_forced_tile(b, idx, tile, e1) else {
        return rest == 0 && room > 2 && chain_of_two_ends(b, idx, tile, e1);
    };
    if rest == 0 {
        return true;
    }
    let e2 = rest.trailing_zeros() as u8;
    if rest & (rest - 1) != 0 {
        return false;
    }
    let Some(t2) = lone_forced_tile(b, idx, tile, e2) else {
        return false;
    };
    e2 == opposite(e1) || b.grid[b.step(b.step(idx, e1), e2)].tile != 0 || (t1.0 >> e2 & 1) != (t2.0 >> e1 & 1)
}

/// Calls `f` with every legal placement that puts at most `room` tiles; trial turns run only
/// where a forced play may follow, on `b` and undone. Needs [`MARGIN`] around the tiles.
#[inline(always)]
fn generate(b: &mut Board, queue: &mut Vec<u32>, facts: Facts, room: u32, mut f: impl FnMut(Candidate)) {
    if facts.over || room == 0 {
        return;
    }
    if facts.tiles == 0 {
        let Some(origin) = b.index(0, 0) else { return };
        for (shape, tile) in [(Shape::Straight, Tile(0b1010)), (Shape::Slash, Tile(0b0110))] {
            f(Candidate {
                cell: origin as u32,
                tile,
                mv: Move { col: 0, row: 0, shape },
            });
        }
        return;
    }
    // The ring of empty cells around the tiles; only the part that keeps the area 8 wide in 8x8,
    // and within MAX_SPAN elsewhere.
    let bb = facts.bbox;
    let (mut x0, mut x1, mut y0, mut y1) = (bb.minx - 1, bb.maxx + 1, bb.miny - 1, bb.maxy + 1);
    if facts.eight {
        (x0, x1) = (x0.max(bb.maxx - 7), x1.min(bb.minx + 7));
        (y0, y1) = (y0.max(bb.maxy - 7), y1.min(bb.miny + 7));
    } else {
        let (w, h) = (bb.maxx - bb.minx + 1, bb.maxy - bb.miny + 1);
        if w >= MAX_SPAN as i32 {
            (x0, x1) = (bb.minx, bb.maxx);
        }
        if h >= MAX_SPAN as i32 {
            (y0, y1) = (bb.miny, bb.maxy);
        }
    }
    let Some(first) = b.index(i64::from(x0), i64::from(y0)) else {
        return;
    };
    let (cols, rows, stride) = ((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize, b.w);
    for r in 0..rows {
        let row = first + r * stride;
        for dx in 0..cols {
            let idx = row + dx;
            let cell = b.grid[idx];
            if cell.tile != 0 || cell.entries == 0 {
                continue;
            }
            // Edges towards empty neighbours already entered by red (white): a tile whose red
            // (white) edge points there gives that neighbour a second entry, a forced play.
            let (mut red_near, mut white_near) = (0u8, 0u8);
            for e in 0..4u8 {
                let n = b.grid[b.step(idx, e)];
                if n.tile == 0 {
                    red_near |= ((n.entries & 0xF != 0) as u8) << e;
                    white_near |= ((n.entries >> 4 != 0) as u8) << e;
                }
            }
            let fits = FITS[cell.entries as usize];
            for (k, shape) in Shape::ALL.into_iter().enumerate() {
                if fits[k] == 0 {
                    continue;
                }
                let tile = Tile(fits[k]);
                let mv = Move {
                    col: (x0 - bb.minx + 1) as u64 + dx as u64,
                    row: (y0 - bb.miny + 1) as u64 + r as u64,
                    shape,
                };
                let forcing = (tile.0 & red_near) | (!tile.0 & white_near);
                if forcing != 0 && !forced_plays_legal(b, queue, idx, tile, forcing, room) {
                    continue;
                }
                f(Candidate {
                    cell: idx as u32,
                    tile,
                    mv,
                });
            }
        }
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
    fn has_margin(&self, margin: i32) -> bool {
        let b = self.bbox;
        b.minx + self.board.offx >= margin
            && b.miny + self.board.offy >= margin
            && ((b.maxx + self.board.offx + margin) as usize) < self.board.w
            && ((b.maxy + self.board.offy + margin) as usize) < self.board.h
    }

    /// Keeps `margin` cells around the tiles (see [`fit_axis`]), rebuilding the grid if needed;
    /// the remap tells where cells went. Slots and path ends do not move.
    fn refit(&mut self, margin: i32, compact: bool) -> Option<Remap> {
        let b = self.nonempty_box();
        let (w, offx) = fit_axis(self.board.w, self.board.offx, b.minx, b.maxx, margin, compact);
        let (h, offy) = fit_axis(self.board.h, self.board.offy, b.miny, b.maxy, margin, compact);
        if (w, offx, h, offy) == (self.board.w, self.board.offx, self.board.h, self.board.offy) {
            return None;
        }
        Some(self.rebuild(w, offx, h, offy))
    }

    /// The bounding box, or the origin's cell on an empty board.
    fn nonempty_box(&self) -> BBox {
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
    fn rebuild(&mut self, w: usize, offx: i32, h: usize, offy: i32) -> Remap {
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
    fn set_partner(&mut self, end: u32, to: u32) {
        self.log.push((end, self.partner[end as usize]));
        self.partner[end as usize] = to;
    }

    /// Joins the two tracks of the tile just put on `idx` (slot `slot`) to the paths they meet;
    /// sets bit `colour` of `loops` for a track that closes its path.
    #[inline]
    fn link(&mut self, idx: usize, slot: u32, tile: Tile, loops: &mut u8) {
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
    fn colouring(&self, idx: usize, shape: Shape) -> Option<Tile> {
        let e = self.board.grid[idx].entries;
        let (red, white) = (e & 0xF, e >> 4);
        shape.tiles().into_iter().find(|t| t.0 & red == red && t.0 & white == 0)
    }

    /// Puts a tile of the turn in progress: next slot, entries, bounding box, paths.
    fn put(&mut self, idx: usize, tile: Tile, loops: &mut u8) {
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

    fn save(&mut self) -> Saved {
        self.joined.clear();
        Saved {
            log: self.log.len(),
            tiles: self.tiles,
            bbox: self.bbox,
            to_move: self.to_move,
            result: self.result,
        }
    }

    fn restore(&mut self, s: Saved) {
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
    fn turn(&mut self, idx: usize, tile: Tile, forced: Option<&mut Vec<u32>>) -> Result<u8, Refusal> {
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
    fn lines(&self) -> u8 {
        let b = self.bbox;
        let wide = b.maxx - b.minx >= 7;
        let tall = b.maxy - b.miny >= 7;
        if !wide && !tall {
            return 0;
        }
        let mut wins = 0u8;
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
                wins |= 1 << tile.colour(ea) as u8;
            }
        }
        wins
    }

    /// Resolves notation against the current area: the cell index and the tile, or why not.
    fn resolve(&self, mv: Move) -> Result<(usize, Tile), MoveError> {
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
        let (idx, tile) = self.resolve(mv)?;
        let too_many = MoveError::TooManyTiles {
            mv,
            limit: self.max_tiles,
        };
        if self.tiles >= self.max_tiles {
            return Err(too_many);
        }
        let saved = self.save();
        let mut forced = Vec::new();
        if let Err(why) = self.turn(idx, tile, Some(&mut forced)) {
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
        let report = TurnReport {
            placed: self.board.xy(idx),
            forced: forced.into_iter().map(|i| self.board.xy(i as usize)).collect(),
        };
        self.refit(MARGIN, false);
        // A player without a move ends the game drawn: in 8x8 by the rules, elsewhere (at the
        // tile limit) by the engine's convention, so that a position is over exactly when it has
        // no legal move.
        if self.result.is_none() && !self.has_legal_move() {
            self.result = Some(Outcome::Draw);
        }
        Ok(report)
    }

    /// The last turn played again on a copy of the state before it: its move, the absolute cells
    /// of its tile and of the tiles it forced, and the colours (bit per colour) whose loops and
    /// whose lines it closed. Replaying keeps `play` free of bookkeeping that only a UI asks for.
    fn replay_last_turn(&self) -> Option<(Move, TurnReport, u8, u8)> {
        let mut g = self.clone();
        let mv = g.undo()?;
        let (idx, tile) = g.resolve(mv).ok()?;
        g.save();
        let mut forced = Vec::new();
        let loops = g.turn(idx, tile, Some(&mut forced)).ok()?;
        let lines = if g.variant == Variant::Loop { 0 } else { g.lines() };
        let report = TurnReport {
            placed: g.board.xy(idx),
            forced: forced.into_iter().map(|i| g.board.xy(i as usize)).collect(),
        };
        Some((mv, report, loops, lines))
    }

    /// How the game was won: the winner, and whether by a loop, a line or both (replayed from the
    /// last turn, so it costs nothing while playing); `None` unless someone won.
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::trax::{Colour, Trax, Variant, Win};
    /// let mut g = Trax::new(Variant::Unbounded);
    /// for m in ["@0/", "B1\\", "B2/"] {
    ///     g.play(m.parse().unwrap()).unwrap();
    /// }
    /// assert_eq!(g.win(), Some(Win { winner: Colour::Red, by_loop: true, by_line: false }));
    /// ```
    pub fn win(&self) -> Option<Win> {
        let winner = self.result?.winner()?;
        let (_, _, loops, lines) = self.replay_last_turn()?;
        let bit = 1u8 << winner as u8;
        Some(Win {
            winner,
            by_loop: loops & bit != 0,
            by_line: lines & bit != 0,
        })
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
        let (mv, report, _, _) = self.replay_last_turn()?;
        let cell = |(x, y): (i32, i32)| Coords {
            col: (x - self.bbox.minx + 1) as u32,
            row: (y - self.bbox.miny + 1) as u32,
        };
        Some(LastTurn {
            mv,
            placed: cell(report.placed),
            forced: report.forced.iter().copied().map(cell).collect(),
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
    fn room(&self) -> u32 {
        self.max_tiles.saturating_sub(self.tiles)
    }

    /// What move generation needs besides the cells.
    fn facts(&self) -> Facts {
        Facts {
            bbox: self.bbox,
            tiles: self.tiles,
            eight: self.variant == Variant::EightByEight,
            over: self.result.is_some(),
        }
    }

    /// Can the player to move play at all, within the tile limit?
    fn has_legal_move(&mut self) -> bool {
        let mut any = false;
        let (facts, room) = (self.facts(), self.room());
        generate(&mut self.board, &mut self.queue, facts, room, |_| any = true);
        any
    }

    /// The legal placements within the tile limit, appended to `out`. Needs [`MARGIN`].
    pub(crate) fn candidates(&mut self, out: &mut Vec<Candidate>) {
        let (facts, room) = (self.facts(), self.room());
        generate(&mut self.board, &mut self.queue, facts, room, |c| out.push(c));
    }

    /// Room around the tiles for `turns` turns of [`Trax::make`] before [`Trax::candidates`]:
    /// each turn widens the area by a cell at most. Only while no candidates are held (the grid may
    /// move).
    pub(crate) fn reserve_turns(&mut self, turns: u32) {
        self.refit(MARGIN + turns.min(PERFT_HEADROOM) as i32, false);
    }

    /// Plays a candidate of this state; `None` (state unchanged) if refused.
    pub(crate) fn make(&mut self, c: &Candidate) -> Option<Saved> {
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
    pub(crate) fn hash_since(&self, saved: &Saved) -> u64 {
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
    pub(crate) fn unmake(&mut self, saved: Saved) {
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

    /// Counts the move sequences of `depth` turns (forced tiles are part of a turn; a turn that
    /// ends the game has no continuation; a turn past the tile limit is not played).
    ///
    /// A depth beyond [`Trax::max_tiles`] minus the tiles (in 8x8, 64 minus the tiles) has no
    /// sequence and counts 0 at once. Otherwise memory follows the depth actually reached, and
    /// time grows exponentially with the depth: hosts bound it.
    ///
    /// ```
    /// use arbiter_core::trax::{Trax, Variant};
    /// assert_eq!(Trax::new(Variant::Unbounded).perft(3), 432);
    /// assert_eq!(Trax::new(Variant::EightByEight).perft(65), 0);
    /// assert_eq!(Trax::new(Variant::Loop).perft(u32::MAX), 0);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth > self.turns_left() {
            return 0;
        }
        let mut g = self.clone();
        g.refit(MARGIN + (depth - 1).min(PERFT_HEADROOM) as i32, false);
        g.perft_from(depth)
    }

    /// Depth-first with an explicit stack, so that a deep count cannot exhaust the call stack:
    /// each frame is a node's candidates in `cands` and what restores its parent.
    fn perft_from(&mut self, depth: u32) -> u64 {
        struct Frame {
            start: usize,
            next: usize,
            depth: u32,
            saved: Option<Saved>,
        }
        let mut cands = Vec::new();
        if depth == 1 {
            let mut n = 0;
            self.count_candidates(&mut n);
            return n;
        }
        self.candidates(&mut cands);
        let mut frames = vec![Frame {
            start: 0,
            next: 0,
            depth,
            saved: None,
        }];
        let mut nodes = 0;
        while let Some(top) = frames.last_mut() {
            // Deeper frames are gone, so this one's candidates end the list.
            if top.next == cands.len() {
                cands.truncate(top.start);
                if let Some(s) = top.saved {
                    self.restore(s);
                }
                frames.pop();
                continue;
            }
            let c = cands[top.next];
            top.next += 1;
            let d = top.depth - 1;
            let saved = self.save();
            if self.turn(c.cell as usize, c.tile, None).is_err() || self.result.is_some() {
                self.restore(saved);
                continue;
            }
            if !self.has_margin(MARGIN) {
                if let Some(r) = self.refit(MARGIN + (d - 1).min(PERFT_HEADROOM) as i32, false) {
                    for c in &mut cands {
                        c.cell = r.cell(c.cell).unwrap_or(0);
                    }
                }
            }
            if d == 1 {
                self.count_candidates(&mut nodes);
                self.restore(saved);
                continue;
            }
            let start = cands.len();
            self.candidates(&mut cands);
            frames.push(Frame {
                start,
                next: start,
                depth: d,
                saved: Some(saved),
            });
        }
        nodes
    }

    /// The number of candidates (perft's leaves are counted, not stored).
    fn count_candidates(&mut self, n: &mut u64) {
        let (facts, room) = (self.facts(), self.room());
        generate(&mut self.board, &mut self.queue, facts, room, |_| *n += 1);
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
    fn action_side(&self) -> usize {
        if self.variant == Variant::EightByEight {
            10
        } else {
            1024
        }
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
    /// plays go to a copy of the cells of the area and two around it, the cells the generation
    /// reads anyway.
    fn legal_moves(&self) -> Vec<Move> {
        // Sized for most positions at once: growing by doubling was a tenth of a research step.
        let mut out = Vec::with_capacity(64);
        let facts = self.facts();
        if facts.over {
            return out;
        }
        let Some(mut cells) = self.board.window(self.nonempty_box(), MARGIN) else {
            return out;
        };
        generate(&mut cells, &mut Vec::with_capacity(16), facts, self.room(), |c| {
            out.push(c.mv)
        });
        out
    }

    fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        self.play_explained(mv).map(|_| ())
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
        let side = self.action_side();
        let last = side as u64 - 1;
        if mv.col > last || mv.row > last {
            return Err(crate::Error::new(
                crate::ErrorKind::BadArgument,
                alloc::format!(
                    "{mv} has no action id: {} Trax numbers the columns @ to {} and the rows 0 to {last}",
                    self.variant,
                    super::notation::column_name(last)
                ),
            ));
        }
        let shape = Shape::ALL.iter().position(|&s| s == mv.shape).unwrap_or(0);
        Ok((mv.row as usize * side + mv.col as usize) * 3 + shape)
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
        let line = Win {
            winner: Colour::White,
            by_loop: false,
            by_line: true,
        };
        assert_eq!(g.win(), Some(line));
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

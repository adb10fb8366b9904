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
            .ok_or_else(|| UnknownVariant(s.into()))
    }
}

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

/// What to restore after a trial turn.
#[derive(Clone, Copy)]
struct Saved {
    log: usize,
    tiles: u32,
    bbox: BBox,
    to_move: Colour,
    result: Option<Outcome<Colour>>,
}

/// A Trax game in any variant.
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
    /// Grid side (a power of two) and the grid coordinates of absolute (0, 0).
    n: usize,
    /// Index steps to the neighbour across each edge (north and west wrap: negated offsets).
    delta: [usize; 4],
    offx: i32,
    offy: i32,
    /// Per cell: `[tile, entries]`. The tile is its red-edge mask, 0 when empty; the entries are
    /// the colours entering the cell from its neighbours, red edges in the low nibble and white in
    /// the high one (kept for every cell, read for empty ones). One array: one bounds check.
    grid: Vec<[u8; 2]>,
    /// For an open path end `cell * 4 + edge`: the path's other open end.
    partner: Vec<u32>,
    tiles: u32,
    bbox: BBox,
    to_move: Colour,
    result: Option<Outcome<Colour>>,
    /// Moves played, in notation (for records and replays).
    history: Vec<Move>,
    /// Undo log of a turn in progress: (cells index | CELL_TAG, or partner index; old value).
    log: Vec<(u32, u32)>,
    /// Scratch: path ends joined in the current turn, and the forced queue.
    joined: Vec<(u32, u32)>,
    queue: Vec<u32>,
}

const CELL_TAG: u32 = 1 << 31;

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

/// Index steps north, east, south, west on a grid of side `n`.
const fn steps(n: usize) -> [usize; 4] {
    [n.wrapping_neg(), 1, n, usize::MAX]
}
const EMPTY_BOX: BBox = BBox {
    minx: 0,
    maxx: -1,
    miny: 0,
    maxy: -1,
};

/// A legal placement found by the generator: cell index, tile, and its notation.
#[derive(Clone, Copy)]
struct Candidate {
    cell: u32,
    tile: Tile,
    mv: Move,
}

impl Trax {
    /// An empty board; white to move.
    pub fn new(variant: Variant) -> Trax {
        let n = 16;
        Trax {
            variant,
            n,
            delta: steps(n),
            offx: (n / 2) as i32,
            offy: (n / 2) as i32,
            grid: vec![[0; 2]; n * n],
            partner: vec![0; n * n * 4],
            tiles: 0,
            bbox: EMPTY_BOX,
            to_move: Colour::White,
            result: None,
            history: Vec::new(),
            log: Vec::new(),
            joined: Vec::new(),
            queue: Vec::new(),
        }
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
    /// in [`TurnReport`] coordinates.
    ///
    /// ```
    /// use arbiter_core::trax::{Trax, Variant};
    /// let mut g = Trax::new(Variant::Unbounded);
    /// let r = g.play_explained("@0/".parse().unwrap()).unwrap();
    /// assert_eq!(g.cell_name(r.placed.0, r.placed.1), "A1");
    /// ```
    pub fn cell_name(&self, x: i32, y: i32) -> alloc::string::String {
        let col = (x - self.bbox.minx + 1).max(0) as u64;
        alloc::format!(
            "{}{}",
            super::notation::column_name(col),
            (y - self.bbox.miny + 1).max(0)
        )
    }

    /// The tile at notation coordinates (`col` 1 = leftmost column, `row` 1 = top row), if any.
    pub fn tile_at(&self, col: u32, row: u32) -> Option<Tile> {
        let x = self.bbox.minx - 1 + col as i32;
        let y = self.bbox.miny - 1 + row as i32;
        self.index(x, y).map(|i| self.grid[i][0]).filter(|&t| t != 0).map(Tile)
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        let (gx, gy) = (x + self.offx, y + self.offy);
        (gx >= 0 && gy >= 0 && (gx as usize) < self.n && (gy as usize) < self.n)
            .then(|| gy as usize * self.n + gx as usize)
    }

    #[inline(always)]
    fn xy(&self, idx: usize) -> (i32, i32) {
        ((idx % self.n) as i32 - self.offx, (idx / self.n) as i32 - self.offy)
    }

    #[inline(always)]
    fn step(&self, idx: usize, e: u8) -> usize {
        idx.wrapping_add(self.delta[e as usize & 3])
    }

    /// Makes room for `margin` cells around the tiles, regrowing the grid if needed.
    fn ensure_margin(&mut self, margin: i32) {
        let b = if self.tiles == 0 {
            BBox {
                minx: 0,
                maxx: 0,
                miny: 0,
                maxy: 0,
            }
        } else {
            self.bbox
        };
        let fits = |n: usize, offx: i32, offy: i32| {
            b.minx - margin + offx >= 0
                && b.miny - margin + offy >= 0
                && ((b.maxx + margin + offx) as usize) < n
                && ((b.maxy + margin + offy) as usize) < n
        };
        if fits(self.n, self.offx, self.offy) {
            return;
        }
        let mut n = self.n;
        let need = ((b.maxx - b.minx).max(b.maxy - b.miny) + 2 * margin + 4) as usize;
        while n < need {
            n *= 2;
        }
        let offx = n as i32 / 2 - (b.minx + b.maxx) / 2;
        let offy = n as i32 / 2 - (b.miny + b.maxy) / 2;
        let old: Vec<(i32, i32, u8)> = (0..self.grid.len())
            .filter(|&i| self.grid[i][0] != 0)
            .map(|i| {
                let (x, y) = self.xy(i);
                (x, y, self.grid[i][0])
            })
            .collect();
        self.n = n;
        self.delta = steps(n);
        self.offx = offx;
        self.offy = offy;
        self.grid = vec![[0; 2]; n * n];
        self.partner = vec![0; n * n * 4];
        // Relinking every tile rebuilds the same paths whatever the order.
        for (x, y, t) in old {
            let i = self.index(x, y).expect("fits");
            self.set_tile(i, Tile(t));
            self.link(i, Tile(t), &mut 0);
        }
        self.log.clear();
        self.joined.clear();
    }

    #[inline(always)]
    fn set_partner(&mut self, end: u32, to: u32) {
        self.log.push((end, self.partner[end as usize]));
        self.partner[end as usize] = to;
    }

    /// Joins the two tracks of the tile just put on `idx` to the paths they meet; sets bit
    /// `colour` of `loops` for a track that closes its path.
    #[inline]
    fn link(&mut self, idx: usize, tile: Tile, loops: &mut u8) {
        for colour in [Colour::White, Colour::Red] {
            let edges = tile.edges(colour);
            let e1 = edges.trailing_zeros() as u8;
            let e2 = 3 - (edges.leading_zeros() - 4) as u8;
            let mut far = [0u32; 2];
            let mut met = [u32::MAX; 2];
            for (k, e) in [e1, e2].into_iter().enumerate() {
                let m = self.step(idx, e);
                if self.grid[m][0] != 0 {
                    let end = (m * 4 + opposite(e) as usize) as u32;
                    met[k] = end;
                    far[k] = self.partner[end as usize];
                } else {
                    far[k] = (idx * 4 + e as usize) as u32;
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

    /// Colours entering empty cell `idx` from its neighbours: (red edges, white edges) masks.
    #[inline(always)]
    fn entries(&self, idx: usize) -> (u8, u8) {
        let e = self.grid[idx][1];
        (e & 0xF, e >> 4)
    }

    /// Puts `tile` on `idx` and tells the four neighbours which colour now enters them.
    #[inline(always)]
    fn set_tile(&mut self, idx: usize, tile: Tile) {
        self.grid[idx][0] = tile.0;
        for e in 0..4u8 {
            let m = self.step(idx, e);
            // Red sets the low nibble's bit, white the high one's, without a branch.
            let red = tile.0 >> e & 1;
            self.grid[m][1] |= (red | (red ^ 1) << 4) << opposite(e);
        }
    }

    /// Empties `idx` and withdraws its entries from the neighbours.
    #[inline(always)]
    fn clear_tile(&mut self, idx: usize) {
        self.grid[idx][0] = 0;
        for e in 0..4u8 {
            let m = self.step(idx, e);
            self.grid[m][1] &= !(0x11 << opposite(e));
        }
    }

    /// The tile of `shape` that matches the neighbours of empty cell `idx`, if any.
    fn colouring(&self, idx: usize, shape: Shape) -> Option<Tile> {
        let (red, white) = self.entries(idx);
        shape.tiles().into_iter().find(|t| t.0 & red == red && t.0 & white == 0)
    }

    fn put(&mut self, idx: usize, tile: Tile, loops: &mut u8) {
        self.log.push((idx as u32 | CELL_TAG, 0));
        self.set_tile(idx, tile);
        self.tiles += 1;
        let (x, y) = self.xy(idx);
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
        self.link(idx, tile, loops);
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
            let (i, old) = self.log.pop().expect("logged");
            if i & CELL_TAG != 0 {
                self.clear_tile((i & !CELL_TAG) as usize);
            } else {
                self.partner[i as usize] = old;
            }
        }
        self.tiles = s.tiles;
        self.bbox = s.bbox;
        self.to_move = s.to_move;
        self.result = s.result;
    }

    /// Plays the chosen tile and its forced plays, decides wins; on an illegal turn returns false
    /// with the board as the turn left it (the caller restores). `forced` collects forced cells.
    fn turn(&mut self, idx: usize, tile: Tile, mut forced: Option<&mut Vec<u32>>) -> bool {
        let mut loops = 0u8;
        self.put(idx, tile, &mut loops);
        if self.variant == Variant::EightByEight {
            let b = self.bbox;
            if b.maxx - b.minx >= 8 || b.maxy - b.miny >= 8 {
                return false;
            }
        }
        let legal = self.cascade(idx, |g, m, t| {
            g.put(m, t, &mut loops);
            if let Some(f) = forced.as_deref_mut() {
                f.push(m as u32);
            }
        });
        if !legal {
            return false;
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
        true
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
        for &(a, z) in &self.joined {
            if self.partner[a as usize] != z || self.partner[z as usize] != a {
                continue;
            }
            let open = |end: u32| {
                let (i, e) = ((end / 4) as usize, (end % 4) as u8);
                self.grid[self.step(i, e)][0] == 0
            };
            if !open(a) || !open(z) {
                continue;
            }
            let at = |end: u32| {
                let (x, y) = self.xy((end / 4) as usize);
                let e = (end % 4) as u8;
                match e {
                    W => wide && x == b.minx,
                    E => wide && x == b.maxx,
                    N => tall && y == b.miny,
                    _ => tall && y == b.maxy,
                }
            };
            let (ea, ez) = ((a % 4) as u8, (z % 4) as u8);
            if ea == opposite(ez) && at(a) && at(z) {
                let tile = Tile(self.grid[(a / 4) as usize][0]);
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
            return Ok((self.index(0, 0).expect("origin"), first));
        }
        let b = self.bbox;
        // Anything beyond one cell outside the area is not adjacent (and never wraps).
        let far = |v: u64, span: i32| v > span as u64 + 1;
        if far(mv.col, b.maxx - b.minx + 1) || far(mv.row, b.maxy - b.miny + 1) {
            return Err(MoveError::NotAdjacent(mv));
        }
        let (x, y) = (b.minx - 1 + mv.col as i32, b.miny - 1 + mv.row as i32);
        let idx = self.index(x, y).ok_or(MoveError::NotAdjacent(mv))?;
        if self.grid[idx][0] != 0 {
            return Err(MoveError::Occupied(mv));
        }
        if (0..4).all(|e| self.grid[self.step(idx, e)][0] == 0) {
            return Err(MoveError::NotAdjacent(mv));
        }
        let tile = self.colouring(idx, mv.shape).ok_or(MoveError::NoColouring(mv))?;
        Ok((idx, tile))
    }

    /// Plays `mv` and reports where the chosen and forced tiles went (absolute coordinates).
    pub fn play_explained(&mut self, mv: Move) -> Result<TurnReport, MoveError> {
        self.ensure_margin(5);
        let (idx, tile) = self.resolve(mv)?;
        let saved = self.save();
        let mut forced = Vec::new();
        if !self.turn(idx, tile, Some(&mut forced)) {
            self.restore(saved);
            let b = self.bbox;
            let widened = self.variant == Variant::EightByEight && {
                let (x, y) = self.xy(idx);
                b.maxx.max(x) - b.minx.min(x) >= 8 || b.maxy.max(y) - b.miny.min(y) >= 8
            };
            return Err(if widened {
                MoveError::OutsideArea(mv)
            } else {
                MoveError::IllegalTurn(mv)
            });
        }
        self.log.clear();
        self.history.push(mv);
        if self.result.is_none() && self.variant == Variant::EightByEight && !self.has_legal_move() {
            self.result = Some(Outcome::Draw);
        }
        Ok(TurnReport {
            placed: self.xy(idx),
            forced: forced.into_iter().map(|i| self.xy(i as usize)).collect(),
        })
    }

    /// Calls `f` with every legal placement; trial turns run only where a forced play may follow.
    fn for_each_legal(&mut self, mut f: impl FnMut(Candidate)) {
        if self.result.is_some() {
            return;
        }
        if self.tiles == 0 {
            let origin = self.index(0, 0).expect("origin") as u32;
            for (shape, tile) in [(Shape::Straight, Tile(0b1010)), (Shape::Slash, Tile(0b0110))] {
                f(Candidate {
                    cell: origin,
                    tile,
                    mv: Move { col: 0, row: 0, shape },
                });
            }
            return;
        }
        let b = self.bbox;
        let limit = self.variant == Variant::EightByEight;
        for y in b.miny - 1..=b.maxy + 1 {
            let row = self.index(b.minx - 1, y).expect("margin");
            for (dx, x) in (b.minx - 1..=b.maxx + 1).enumerate() {
                let idx = row + dx;
                if self.grid[idx][0] != 0 {
                    continue;
                }
                let (red, white) = self.entries(idx);
                if red | white == 0 {
                    continue;
                }
                if limit && (b.maxx.max(x) - b.minx.min(x) >= 8 || b.maxy.max(y) - b.miny.min(y) >= 8) {
                    continue;
                }
                // Edges towards empty neighbours already entered by red (white): a tile whose red
                // (white) edge points there gives that neighbour a second entry, a forced play.
                let (mut red_near, mut white_near) = (0u8, 0u8);
                for e in 0..4u8 {
                    let m = self.step(idx, e);
                    if self.grid[m][0] == 0 {
                        let (r, w) = self.entries(m);
                        red_near |= ((r != 0) as u8) << e;
                        white_near |= ((w != 0) as u8) << e;
                    }
                }
                for shape in Shape::ALL {
                    let Some(tile) = shape.tiles().into_iter().find(|t| t.0 & red == red && t.0 & white == 0) else {
                        continue;
                    };
                    let mv = Move {
                        col: (x - b.minx + 1) as u64,
                        row: (y - b.miny + 1) as u64,
                        shape,
                    };
                    let forces = tile.0 & red_near != 0 || !tile.0 & white_near != 0;
                    if forces && !self.forced_plays_legal(idx, tile) {
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

    /// The forced-play cascade after a tile was put on `start`: `place` puts each forced tile.
    /// False as soon as an empty cell is entered three times by one colour; `queue` then holds
    /// `start` and every cell placed.
    fn cascade(&mut self, start: usize, mut place: impl FnMut(&mut Self, usize, Tile)) -> bool {
        self.queue.clear();
        self.queue.push(start as u32);
        let mut qi = 0;
        while qi < self.queue.len() {
            let placed = self.queue[qi] as usize;
            qi += 1;
            for e in 0..4u8 {
                let m = self.step(placed, e);
                if self.grid[m][0] != 0 {
                    continue;
                }
                let t = match FORCED[self.grid[m][1] as usize] {
                    0 => continue,
                    ILLEGAL => return false,
                    red => Tile(red),
                };
                place(self, m, t);
                self.queue.push(m as u32);
            }
        }
        true
    }

    /// Whether the forced plays after putting `tile` on `idx` stay legal: the cascade on the cells
    /// alone, without paths, logs or wins, then undone.
    fn forced_plays_legal(&mut self, idx: usize, tile: Tile) -> bool {
        self.set_tile(idx, tile);
        let legal = self.cascade(idx, |g, m, t| g.set_tile(m, t));
        for i in 0..self.queue.len() {
            let c = self.queue[i] as usize;
            self.clear_tile(c);
        }
        legal
    }

    fn has_legal_move(&mut self) -> bool {
        let mut any = false;
        self.for_each_legal(|_| any = true);
        any
    }

    /// Counts the move sequences of `depth` turns (forced tiles are part of a turn; a turn that
    /// ends the game has no continuation).
    ///
    /// ```
    /// use arbiter_core::trax::{Trax, Variant};
    /// assert_eq!(Trax::new(Variant::Unbounded).perft(3), 432);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        let mut g = self.clone();
        g.ensure_margin(depth as i32 + 5);
        g.log.clear();
        let mut buffers: Vec<Vec<Candidate>> = (0..=depth).map(|_| Vec::new()).collect();
        g.perft_rec(depth, &mut buffers)
    }

    fn perft_rec(&mut self, depth: u32, buffers: &mut [Vec<Candidate>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            // Bulk counting: the leaves are counted, not stored.
            let mut n = 0;
            self.for_each_legal(|_| n += 1);
            return n;
        }
        let (mine, rest) = buffers.split_last_mut().expect("a buffer per depth");
        mine.clear();
        self.for_each_legal(|c| mine.push(c));
        let mut nodes = 0;
        for c in mine.iter() {
            let saved = self.save();
            self.turn(c.cell as usize, c.tile, None);
            if self.result.is_none() {
                nodes += self.perft_rec(depth - 1, rest);
            }
            self.restore(saved);
        }
        nodes
    }
}

impl PartialEq for Trax {
    /// Same variant, same tiles at the same places relative to the area, same player to move.
    fn eq(&self, other: &Trax) -> bool {
        let same_tiles = self.tiles == other.tiles
            && self.size() == other.size()
            && (0..self.size().1)
                .all(|r| (0..self.size().0).all(|c| self.tile_at(c + 1, r + 1) == other.tile_at(c + 1, r + 1)));
        self.variant == other.variant && same_tiles && self.to_move == other.to_move && self.result == other.result
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

    fn legal_moves(&self) -> Vec<Move> {
        let mut g = self.clone();
        g.ensure_margin(5);
        let mut out = Vec::new();
        g.for_each_legal(|c| out.push(c.mv));
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

    fn action_id(&self, mv: Move) -> usize {
        let side = self.action_side();
        let shape = Shape::ALL.iter().position(|&s| s == mv.shape).unwrap_or(0);
        ((mv.row.min(side as u64 - 1) as usize * side) + mv.col.min(side as u64 - 1) as usize) * 3 + shape
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
}

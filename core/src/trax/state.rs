//! The Trax game state: tiles on the board, incremental path ends, turns with their forced plays
//! and the results they decide, undo.

use alloc::vec::Vec;
use core::fmt;
use core::ops::ControlFlow;

use super::bits::Bits;
use super::board::{fit_axis, tile_hash, BBox, Board, Cell, Remap, EMPTY_BOX};
use super::movegen::{cascade, generate, Candidate, Cells, Facts};
use super::notation::Move;
use super::tile::{opposite, Colour, Shape, Tile, E, N, W};
use super::turn::{MoveError, TurnReport};
use super::variant::{TileLimitError, Variant, DEFAULT_MAX_TILES, MAX_SPAN, MAX_TILES_CEILING};
use crate::game::{Game, Outcome};

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
    /// 8x8: the tiles as bit-boards too, where moves are generated (unused in the other variants).
    pub(super) bits: Bits,
    /// 8x8: the legal placements by shape ([`Trax::offer`]) while no tile came or went since.
    pub(super) offered: Option<[u128; 3]>,
}

/// Empty cells kept around the tiles between turns: a turn's tiles and the cells they touch lie
/// within two cells of the bounding box (forced tiles never leave the box of the tiles and the
/// chosen one).
pub(super) const MARGIN: i32 = 2;
/// Extra margin reserved for the turns a count ([`Trax::perft`]) or a search
/// ([`Trax::reserve_turns`]) plays ahead, at most: deeper ones regrow the grid on the way.
pub(super) const PERFT_HEADROOM: u32 = 32;
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
        // An 8x8 game holds at most 64 tiles: its lists are sized for a whole game at once
        // (growing them by doubling was a tenth of a research step); the others grow.
        let tiles = if variant == Variant::EightByEight { 64 } else { 0 };
        Trax {
            variant,
            max_tiles: DEFAULT_MAX_TILES,
            board: Board::new(side, side, (side / 2) as i32, (side / 2) as i32),
            partner: Vec::with_capacity(4 * tiles),
            slot_cell: Vec::with_capacity(tiles),
            tiles: 0,
            bbox: EMPTY_BOX,
            to_move: Colour::White,
            result: None,
            history: Vec::with_capacity(tiles),
            turns: Vec::with_capacity(tiles),
            log: Vec::with_capacity(4 * tiles),
            // Used every turn: allocated now, beside the rest, rather than wherever the
            // allocator has room at their first turn (a large batch's games touch fewer pages).
            joined: Vec::with_capacity(tiles / 4),
            queue: Vec::with_capacity(tiles / 4),
            bits: Bits::default(),
            offered: None,
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
        // The common case, every turn of an 8x8 game: the margin is there.
        if !compact && self.tiles > 0 && self.has_margin(margin) {
            return None;
        }
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
        self.offered = None;
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
        if self.variant == Variant::EightByEight {
            self.bits.anchor(b.minx - 1, b.miny - 1);
            self.bits.put(x, y, tile);
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
        self.offered = None;
        while self.log.len() > s.log {
            let Some((end, old)) = self.log.pop() else { break };
            self.partner[end as usize] = old;
        }
        while self.slot_cell.len() > s.tiles as usize {
            let Some(c) = self.slot_cell.pop() else { break };
            self.board.clear_tile(c as usize);
            if self.variant == Variant::EightByEight {
                let (x, y) = self.board.xy(c as usize);
                self.bits.clear(x, y);
            }
        }
        self.partner.truncate(s.tiles as usize * 4);
        self.tiles = s.tiles;
        self.bbox = s.bbox;
        if self.variant == Variant::EightByEight {
            self.bits.anchor(s.bbox.minx - 1, s.bbox.miny - 1);
        }
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
    pub(super) fn place_turn(&mut self, mv: Move, forced: Option<&mut Vec<u32>>) -> Result<usize, MoveError> {
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
    pub(super) fn end_turn(&mut self) {
        self.refit(MARGIN, false);
        if self.result.is_some() {
            return;
        }
        let any = if self.variant == Variant::EightByEight && self.tiles > 0 && self.room() > 0 {
            self.offer()
        } else {
            self.has_legal_move()
        };
        if !any {
            self.result = Some(Outcome::Draw);
        }
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

    /// Empties the board for a new game of the same variant and tile limit, keeping the game's
    /// memory. A batch starts a new game every few dozen steps: a game built anew takes its
    /// blocks from wherever the allocator has room, so the games of a large batch end up
    /// spread over many more pages and cache lines than they touch, while a restarted one
    /// keeps the blocks it has (and only the cells around the tiles are cleared, not the grid).
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::trax::{Trax, Variant};
    /// let mut g = Trax::with_max_tiles(Variant::EightByEight, 50).unwrap();
    /// for m in ["@0/", "B1\\", "B2/"] {
    ///     g.play(m.parse().unwrap()).unwrap();
    /// }
    /// g.restart();
    /// assert_eq!(g, Trax::with_max_tiles(Variant::EightByEight, 50).unwrap());
    /// assert!(g.history().is_empty());
    /// ```
    pub fn restart(&mut self) {
        // What the tiles wrote lies within a cell of them (their entries in their neighbours):
        // those rows are zeroed, where undoing the game tile by tile and path end by path end
        // (the ends all go) was a thirtieth of a research step.
        if self.tiles > 0 {
            let b = self.bbox;
            let w = self.board.w;
            let (cols, rows) = ((b.maxx - b.minx + 3) as usize, (b.maxy - b.miny + 3) as usize);
            if let Some(first) = self.board.index(i64::from(b.minx) - 1, i64::from(b.miny) - 1) {
                for row in self.board.grid[first..].chunks_mut(w).take(rows) {
                    let n = cols.min(row.len());
                    row[..n].fill(Cell::default());
                }
            }
        }
        self.partner.clear();
        self.slot_cell.clear();
        self.log.clear();
        self.tiles = 0;
        self.bbox = EMPTY_BOX;
        self.to_move = Colour::White;
        self.result = None;
        self.bits = Bits::default();
        self.offered = None;
        self.history.clear();
        self.turns.clear();
        // A grid grown by a long game gives its memory back, as after an undo.
        self.refit(MARGIN, true);
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

    /// Calls `f` with every legal placement within the tile limit in ascending action ids, until
    /// it breaks: 8x8 on its bit-boards, the other variants on the grid (trial turns of forced
    /// plays on the board, undone). Needs [`MARGIN`].
    pub(super) fn placements(&mut self, f: impl FnMut(Candidate) -> ControlFlow<()>) -> ControlFlow<()> {
        let (facts, room) = (self.facts(), self.room());
        if facts.eight && facts.tiles > 0 {
            return self.placements_on_bits(f);
        }
        generate(&mut self.board, &mut self.queue, facts, room, f)
    }

    /// The 8x8 placements once a tile is down (none when over or out of room).
    #[inline(always)]
    fn placements_on_bits(&mut self, f: impl FnMut(Candidate) -> ControlFlow<()>) -> ControlFlow<()> {
        match self.room() {
            _ if self.result.is_some() => ControlFlow::Continue(()),
            0 => ControlFlow::Continue(()),
            room => self.generate_bits(room, f),
        }
    }

    /// Can the player to move play at all, within the tile limit? The scan stops at the first
    /// legal placement (a full one cost as much as the move generation of the turn).
    pub(super) fn has_legal_move(&mut self) -> bool {
        self.placements(|_| ControlFlow::Break(())).is_break()
    }

    /// The legal placements within the tile limit, appended to `out`. Needs [`MARGIN`].
    pub(crate) fn candidates(&mut self, out: &mut Vec<Candidate>) {
        let _ = self.placements(|c| {
            out.push(c);
            ControlFlow::Continue(())
        });
    }

    /// Calls `f` with every legal placement within the tile limit in the generator's order
    /// (ascending action ids). The state is read, not copied: 8x8 reads its bit-boards, the
    /// other variants' trial turns of forced plays go to a copy of the cells of the area and two
    /// around it, the cells the generation reads anyway.
    pub(super) fn each_legal(&self, f: impl FnMut(Candidate) -> ControlFlow<()>) {
        let facts = self.facts();
        if facts.over {
            return;
        }
        if facts.eight && facts.tiles > 0 {
            if self.room() > 0 {
                let _ = self.generate_bits_reading(self.room(), f);
            }
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

/// The game after `moves` in notation, for the tests of the game's files.
#[cfg(test)]
pub(crate) fn replayed(variant: Variant, moves: &str) -> Trax {
    let moves: Vec<Move> = moves.split_whitespace().map(|m| m.parse().unwrap()).collect();
    Trax::replay(variant, &moves).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::replayed as play;

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

    /// A restarted game plays as a new one: after a finished 8x8 game and after a long line
    /// that grew the grid, the same random moves see the same legal ids and tensors.
    #[test]
    fn a_restarted_game_plays_as_a_new_one() {
        use crate::{Engine, Rng};
        let mut long = alloc::string::String::from("@0+");
        for i in 2..=200 {
            long.push_str(&alloc::format!(" A{i}+"));
        }
        let mut rng = Rng::new(7);
        let mut played = Trax::new(Variant::EightByEight);
        for (variant, record) in [(Variant::EightByEight, None), (Variant::Loop, Some(&long))] {
            if let Some(r) = record {
                played = play(variant, r);
            }
            for _ in 0..20 {
                while !played.is_over() {
                    let moves = played.legal_moves();
                    played.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
                }
                played.restart();
                // Nothing of the old game is left on the grid: no tile, no entry.
                assert!(played.board.grid.iter().all(|c| c.tile | c.entries == 0));
                let mut fresh = Trax::new(variant);
                assert_eq!(played, fresh);
                for _ in 0..if variant == Variant::Loop { 30 } else { 64 } {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    played.legal_actions_into(&mut a);
                    fresh.legal_actions_into(&mut b);
                    assert_eq!(a, b);
                    if a.is_empty() {
                        break;
                    }
                    let p = played.to_move().unwrap();
                    let (mut ta, mut tb) = (
                        alloc::vec![0.0; played.tensor_len()],
                        alloc::vec![1.0; fresh.tensor_len()],
                    );
                    played.observation_tensor_into(p, &mut ta);
                    fresh.observation_tensor_into(p, &mut tb);
                    assert_eq!(ta, tb);
                    let mv = played.action_move(a[rng.below(a.len() as u64) as usize]).unwrap();
                    played.play(mv).unwrap();
                    fresh.play(mv).unwrap();
                    assert_eq!(played, fresh);
                }
            }
        }
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
}

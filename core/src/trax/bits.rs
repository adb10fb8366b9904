//! The 8x8 game's bit-boards: its tiles as masks of 100 bits over the area and the empty ring
//! around it, and move generation on them. Every cell's fitting tiles, the plays each forces and
//! whether those force anything more are found for all cells at once with shifts; a placement
//! whose forced tiles force nothing more is legal at once, any other is played out a wave of
//! forced tiles at a time. The unbounded variants keep the grid's generator (`movegen.rs`),
//! which the tests hold this one to.

use core::ops::ControlFlow;

use alloc::vec::Vec;

use super::movegen::{forced_plays_legal, plays_out, Candidate, FITS};
use super::notation::Move;
use super::state::{Trax, MARGIN};
use super::tile::{opposite, Shape, Tile, E, N, S, W};

/// Cells a row (and rows) of the frame: the 8 columns of the widest area and an empty one on
/// each side. Bit `row * SIDE + col` is then the cell of notation column `col` and row `row`,
/// whose action id is that number times three plus the shape's.
pub(super) const SIDE: u32 = 10;
const VALID: u128 = (1 << (SIDE * SIDE)) - 1;

const fn column(c: u32) -> u128 {
    let mut m = 0;
    let mut r = 0;
    while r < SIDE {
        m |= 1 << (r * SIDE + c);
        r += 1;
    }
    m
}

const fn row(r: u32) -> u128 {
    ((1 << SIDE) - 1) << (r * SIDE)
}

const FIRST_COLUMN: u128 = column(0);
const LAST_COLUMN: u128 = column(SIDE - 1);
/// The ring's lines when the area spans 8: a tile there would widen it to 9.
const OUTER_COLUMNS: u128 = FIRST_COLUMN | LAST_COLUMN;
const OUTER_ROWS: u128 = row(0) | row(SIDE - 1);

/// Every cell of `m` moved to its neighbour across edge `e` (what leaves the frame is lost).
#[inline(always)]
const fn shift(m: u128, e: u8) -> u128 {
    match e {
        N => m >> SIDE,
        E => (m & !LAST_COLUMN) << 1,
        S => (m << SIDE) & VALID,
        _ => (m & !FIRST_COLUMN) >> 1,
    }
}

/// The tiles of an 8x8 game as masks, in a frame whose bit 0 is one column left of and one row
/// above the area (kept there as the area grows and shrinks).
#[derive(Clone, Copy)]
pub(super) struct Bits {
    occupied: u128,
    /// The cells whose tile's edge `e` is red.
    red: [u128; 4],
    /// The tile of each cell (0 empty), for the observation: gathering a tile's edges from the
    /// masks was most of the tensor's instructions, and the grid's rows would cost a cache line
    /// each.
    tiles: [u8; (SIDE * SIDE) as usize],
    /// The absolute cell of bit 0.
    x0: i32,
    y0: i32,
}

impl Default for Bits {
    fn default() -> Bits {
        Bits {
            occupied: 0,
            red: [0; 4],
            tiles: [0; (SIDE * SIDE) as usize],
            x0: 0,
            y0: 0,
        }
    }
}

impl Bits {
    #[inline(always)]
    fn at(&self, x: i32, y: i32) -> u32 {
        let at = (y - self.y0) * SIDE as i32 + (x - self.x0);
        debug_assert!((0..(SIDE * SIDE) as i32).contains(&at), "({x}, {y}) outside the frame");
        at as u32
    }

    #[inline(always)]
    fn bit(&self, x: i32, y: i32) -> u128 {
        1 << self.at(x, y)
    }

    /// Moves bit 0 to absolute cell (`x0`, `y0`); the tiles stay where they are.
    #[inline(always)]
    pub(super) fn anchor(&mut self, x0: i32, y0: i32) {
        let by = (self.x0 - x0) + SIDE as i32 * (self.y0 - y0);
        (self.x0, self.y0) = (x0, y0);
        if by == 0 || self.occupied == 0 {
            return;
        }
        // The tiles lie in the area, which the frame holds before and after.
        let moved = |m: u128| if by > 0 { m << by } else { m >> -by };
        self.red = self.red.map(moved);
        self.occupied = self.red[0] | self.red[1] | self.red[2] | self.red[3];
        let (len, n) = (self.tiles.len(), by.unsigned_abs() as usize);
        if by > 0 {
            self.tiles.copy_within(0..len - n, n);
            self.tiles[..n].fill(0);
        } else {
            self.tiles.copy_within(n.., 0);
            self.tiles[len - n..].fill(0);
        }
    }

    /// Puts `tile` on absolute cell (`x`, `y`), inside the frame.
    #[inline(always)]
    pub(super) fn put(&mut self, x: i32, y: i32, tile: Tile) {
        self.tiles[self.at(x, y) as usize] = tile.0;
        let b = self.bit(x, y);
        self.occupied |= b;
        for (e, red) in self.red.iter_mut().enumerate() {
            *red |= b & u128::from(tile.0 >> e & 1).wrapping_neg();
        }
    }

    /// Empties absolute cell (`x`, `y`).
    #[inline(always)]
    pub(super) fn clear(&mut self, x: i32, y: i32) {
        self.tiles[self.at(x, y) as usize] = 0;
        let keep = !self.bit(x, y);
        self.occupied &= keep;
        for red in &mut self.red {
            *red &= keep;
        }
    }

    /// Calls `f` with the bit and the tile of every tile, in ascending order of bit: the bits
    /// are the cells of the observation's window.
    #[inline(always)]
    pub(super) fn each_tile(&self, mut f: impl FnMut(u32, Tile)) {
        // A 64-bit half at a time: the scan of a 128-bit number takes twice the instructions.
        for (half, mut cells) in [(0, self.occupied as u64), (64, (self.occupied >> 64) as u64)] {
            while cells != 0 {
                let at = half + cells.trailing_zeros();
                cells &= cells - 1;
                f(at, Tile(self.tiles.get(at as usize).copied().unwrap_or(0)));
            }
        }
    }

    /// The placements in `window` that fit, sorted by whether they put at most `room` tiles for
    /// sure or need playing out (those whose forced tiles force more: a few a position).
    #[inline(always)]
    fn classify(&self, window: u128, room: u32) -> Classes {
        let empty = VALID & !self.occupied;
        // The empty cells that red (white) enters across each edge.
        let (mut red, mut white) = ([0u128; 4], [0u128; 4]);
        for e in [N, E, S, W] {
            let o = opposite(e);
            let next = shift(self.occupied, o) & empty;
            red[e as usize] = shift(self.red[o as usize], o) & empty;
            white[e as usize] = next & !red[e as usize];
        }
        let any = |m: &[u128; 4]| m[0] | m[1] | m[2] | m[3];
        let (entered_red, entered_white) = (any(&red), any(&white));
        // The cells whose neighbour across each edge is empty and entered by red (white): a
        // tile's red (white) edge there forces a play.
        let near_red = [N, E, S, W].map(|e| shift(entered_red, opposite(e)));
        let near_white = [N, E, S, W].map(|e| shift(entered_white, opposite(e)));
        // The cells whose forced neighbour across each edge forces more: the tile forced by two
        // entries of one colour has the other colour on its two remaining edges, which force a
        // play where they meet an empty cell that colour enters (the edges of a forced cell
        // towards tiles meet no empty cell).
        let onward = |near: &[u128; 4], other: &[u128; 4]| {
            [N, E, S, W].map(|e| {
                let o = opposite(e);
                let beyond = other[(o as usize + 1) % 4] | other[(o as usize + 2) % 4] | other[(o as usize + 3) % 4];
                near[e as usize] & shift(beyond, o)
            })
        };
        let (onward_red, onward_white) = (onward(&near_red, &near_white), onward(&near_white, &near_red));
        // Two forced cells at a right angle, by two edges of one colour, both enter the cell
        // between them with the other colour: a further play when that cell is empty.
        let corner = [N, E, S, W].map(|e| shift(shift(empty, opposite(e)), opposite((e + 1) % 4)));
        let corner_red: [u128; 4] = core::array::from_fn(|k| near_red[k] & near_red[(k + 1) % 4] & corner[k]);
        let corner_white: [u128; 4] = core::array::from_fn(|k| near_white[k] & near_white[(k + 1) % 4] & corner[k]);
        let around = Around {
            candidates: (entered_red | entered_white) & window,
            red,
            white,
            onward_red,
            onward_white,
            near_red,
            near_white,
            corner_red,
            corner_white,
            short: room <= 3,
        };
        // Per shape, the cells where it is legal at once, where it needs playing out, and where
        // its first tile (rather than its second) is the one that fits. The tiles are constants:
        // looped over, they were not unrolled and each tile's edges were tested at run time
        // (about 7 % of a research step).
        let (mut legal, mut doubtful, mut first) = ([0u128; 3], [0u128; 3], [0u128; 3]);
        for (s, [(fits0, plain0), (fits1, plain1)]) in [
            [around.tile::<0b0101>(), around.tile::<0b1010>()],
            [around.tile::<0b1001>(), around.tile::<0b0110>()],
            [around.tile::<0b0011>(), around.tile::<0b1100>()],
        ]
        .into_iter()
        .enumerate()
        {
            legal[s] = fits0 & plain0 | fits1 & plain1;
            doubtful[s] = fits0 & !plain0 | fits1 & !plain1;
            first[s] = fits0;
        }
        Classes {
            legal,
            doubtful,
            first,
            near: [around.near_red, around.near_white],
        }
    }
}

// The tiles of [`Bits::classify`], in [`Shape::ALL`] order.
const _: () = {
    let tiles = [0b0101, 0b1010, 0b1001, 0b0110, 0b0011, 0b1100];
    let mut k = 0;
    while k < 6 {
        assert!(Shape::ALL[k / 2].tiles()[k % 2].0 == tiles[k]);
        k += 1;
    }
};

/// The masks a position's placements are sorted by ([`Bits::classify`]).
struct Around {
    /// The cells in the window that a track enters.
    candidates: u128,
    /// The empty cells that red (white) enters across each edge.
    red: [u128; 4],
    white: [u128; 4],
    /// The cells whose forced neighbour across each edge, forced by red (white), forces more.
    onward_red: [u128; 4],
    onward_white: [u128; 4],
    /// The cells whose neighbour across each edge is empty and entered by red (white).
    near_red: [u128; 4],
    near_white: [u128; 4],
    /// The cells where red (white) edges `k` and `k + 1` force two tiles that force the cell
    /// between them.
    corner_red: [u128; 4],
    corner_white: [u128; 4],
    /// Whether the room is too short for a forced tile not to count: every forcing placement
    /// is played out.
    short: bool,
}

impl Around {
    /// The masks of `red_edge` across the red edges of tile `T`, `white_edge` across its white
    /// ones.
    #[inline(always)]
    fn pick<const T: u8>(red_edge: &[u128; 4], white_edge: &[u128; 4]) -> u128 {
        let across = |e: usize| if T >> e & 1 != 0 { red_edge[e] } else { white_edge[e] };
        across(0) | across(1) | across(2) | across(3)
    }

    /// The cells where tile `T` fits, and those where it forces nothing that forces more (legal
    /// at once where it fits).
    #[inline(always)]
    fn tile<const T: u8>(&self) -> (u128, u128) {
        let fits = self.candidates & !Self::pick::<T>(&self.white, &self.red);
        if self.short {
            return (fits, !Self::pick::<T>(&self.near_red, &self.near_white));
        }
        let corner = |k: usize| match (T >> k & 1, T >> ((k + 1) % 4) & 1) {
            (1, 1) => self.corner_red[k],
            (0, 0) => self.corner_white[k],
            _ => 0,
        };
        let corners = corner(0) | corner(1) | corner(2) | corner(3);
        (fits, !(Self::pick::<T>(&self.onward_red, &self.onward_white) | corners))
    }
}

/// A position's placements by shape, a bit per cell of the frame: legal, to be played out, and
/// where the shape's first tile (rather than its second) is the one that fits.
struct Classes {
    legal: [u128; 3],
    doubtful: [u128; 3],
    first: [u128; 3],
    /// [`Around`]'s `near_red` and `near_white`: a doubtful placement's forcing edges.
    near: [[u128; 4]; 2],
}

impl Classes {
    /// Calls `f` with every legal placement (bit, tile, shape) in ascending order of bit and
    /// shape ([`Shape::ALL`]), until `f` breaks; `plays_out` decides the doubtful ones.
    #[inline(always)]
    fn each(
        &self,
        mut plays_out: impl FnMut(u32, Tile) -> bool,
        mut f: impl FnMut(u32, Tile, Shape) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (legal, doubtful) = (self.legal, self.doubtful);
        let mut cells = legal[0] | legal[1] | legal[2] | doubtful[0] | doubtful[1] | doubtful[2];
        while cells != 0 {
            let at = cells.trailing_zeros();
            cells &= cells - 1;
            for (s, shape) in Shape::ALL.into_iter().enumerate() {
                let tile = shape.tiles()[usize::from(self.first[s] >> at & 1 == 0)];
                if legal[s] >> at & 1 != 0 || doubtful[s] >> at & 1 != 0 && plays_out(at, tile) {
                    f(at, tile, shape)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The legal placements by shape, the doubtful ones played out.
    #[inline(always)]
    fn settle(&self, mut plays_out: impl FnMut(u32, Tile, u8) -> bool) -> [u128; 3] {
        let mut legal = self.legal;
        for (s, shape) in Shape::ALL.into_iter().enumerate() {
            let mut doubtful = self.doubtful[s];
            while doubtful != 0 {
                let at = doubtful.trailing_zeros();
                doubtful &= doubtful - 1;
                let tile = shape.tiles()[usize::from(self.first[s] >> at & 1 == 0)];
                let mut forcing = 0;
                for e in 0..4 {
                    let near = self.near[usize::from(tile.0 >> e & 1 == 0)][e];
                    forcing |= ((near >> at) as u8 & 1) << e;
                }
                legal[s] |= u128::from(plays_out(at, tile, forcing)) << at;
            }
        }
        legal
    }
}

impl Trax {
    /// The window of the frame where tiles may go (the ring, but not past 8 columns or rows),
    /// and the grid cell of bit 0 (the margin keeps the ring inside the grid).
    #[inline(always)]
    fn frame(&self) -> Option<(u128, usize)> {
        let b = self.bbox;
        let mut window = VALID;
        if b.maxx - b.minx == 7 {
            window &= !OUTER_COLUMNS;
        }
        if b.maxy - b.miny == 7 {
            window &= !OUTER_ROWS;
        }
        let origin = self.board.index(i64::from(b.minx) - 1, i64::from(b.miny) - 1)?;
        Some((window, origin))
    }

    /// Every legal placement of this 8x8 game (with tiles, not over) within `room` tiles, as
    /// the grid's candidates in the order of `movegen::generate`, until `f` breaks. The
    /// placements whose forced tiles force more are played out on the board, and undone.
    #[inline(always)]
    pub(super) fn generate_bits(
        &mut self,
        room: u32,
        mut f: impl FnMut(Candidate) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some((window, origin)) = self.frame() else {
            return ControlFlow::Continue(());
        };
        let w = self.board.w;
        let (board, queue) = (&mut self.board, &mut self.queue);
        self.bits.classify(window, room).each(
            |at, tile| plays_out(board, queue, cell(origin, w, at), tile, room),
            |at, tile, shape| f(candidate(origin, w, at, tile, shape)),
        )
    }

    /// The end of an 8x8 turn (with tiles, not over): the legal placements kept for the
    /// observations that follow (a step asks for them at once), and whether there is any.
    pub(super) fn offer(&mut self) -> bool {
        let Some((window, origin)) = self.frame() else {
            return self.has_legal_move();
        };
        let (w, room) = (self.board.w, self.room());
        let (board, queue) = (&mut self.board, &mut self.queue);
        let offered = self.bits.classify(window, room).settle(|at, tile, forcing| {
            forcing == 0 || forced_plays_legal::<true>(board, queue, cell(origin, w, at), tile, forcing, room)
        });
        self.offered = Some(offered);
        offered != [0; 3]
    }

    /// The action ids of the placements kept by [`Trax::offer`], ascending, into `out`; false
    /// (nothing written) if the state changed since.
    #[inline]
    pub(super) fn offered_ids(&self, out: &mut Vec<usize>) -> bool {
        let Some(legal) = self.offered.filter(|_| self.result.is_none()) else {
            return false;
        };
        // Written without a branch a shape (an id is kept by counting it), a 64-bit half of the
        // frame at a time: the test of every shape's bit was a tenth of a research step.
        let count = legal.iter().map(|m| m.count_ones() as usize).sum::<usize>();
        // One spare place for the write past the last id.
        let start = out.len();
        out.resize(start + count + 1, 0);
        let ids = &mut out[start..];
        let mut n = 0;
        for half in 0..2 {
            let part = |m: u128| (m >> (64 * half)) as u64;
            let shapes = legal.map(part);
            let mut cells = shapes[0] | shapes[1] | shapes[2];
            while cells != 0 {
                let at = cells.trailing_zeros();
                cells &= cells - 1;
                let id = (64 * half + at as usize) * 3;
                for (s, shape) in shapes.iter().enumerate() {
                    ids[n] = id + s;
                    n += (shape >> at & 1) as usize;
                }
            }
        }
        out.truncate(start + n);
        true
    }

    /// Every legal placement of this 8x8 game (with tiles, not over), reading the state: those
    /// kept by [`Trax::offer`] if they still hold, else the bits' own, the few placements played
    /// out on a copy of the cells of the area and two around it, made for the first.
    #[inline(always)]
    pub(super) fn generate_bits_reading(
        &self,
        room: u32,
        mut f: impl FnMut(Candidate) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some((window, origin)) = self.frame() else {
            return ControlFlow::Continue(());
        };
        let w = self.board.w;
        if let Some(legal) = self.offered {
            let none = [0; 3];
            // The tile of each shape that fits is the grid's to say.
            let first: [u128; 3] = core::array::from_fn(|s| {
                let mut first = 0;
                let mut cells = legal[s];
                while cells != 0 {
                    let at = cells.trailing_zeros();
                    cells &= cells - 1;
                    let fits = FITS[usize::from(self.board.grid[cell(origin, w, at)].entries)][s];
                    first |= u128::from(fits == Shape::ALL[s].tiles()[0].0) << at;
                }
                first
            });
            return Classes {
                legal,
                doubtful: none,
                first,
                near: [[0; 4]; 2],
            }
            .each(|_, _| false, |at, tile, shape| f(candidate(origin, w, at, tile, shape)));
        }
        let mut copy = None;
        self.bits.classify(window, room).each(
            |at, tile| {
                let Some((cells, queue)) = copy.get_or_insert_with(|| {
                    let cells = self.board.window(self.bbox, MARGIN)?;
                    Some((cells, Vec::new()))
                }) else {
                    return false;
                };
                // The copy's first cell is bit 0's diagonal neighbour to the north-west.
                let corner = cells.w + 1;
                let at = cell(corner, cells.w, at);
                plays_out(cells, queue, at, tile, room)
            },
            |at, tile, shape| f(candidate(origin, w, at, tile, shape)),
        )
    }
}

/// The grid cell of bit `at`, on a grid `w` wide whose cell `origin` is bit 0.
#[inline(always)]
fn cell(origin: usize, w: usize, at: u32) -> usize {
    origin + (at / SIDE) as usize * w + (at % SIDE) as usize
}

#[inline(always)]
fn candidate(origin: usize, w: usize, at: u32, tile: Tile, shape: Shape) -> Candidate {
    Candidate {
        cell: cell(origin, w, at) as u32,
        tile,
        mv: Move {
            col: u64::from(at % SIDE),
            row: u64::from(at / SIDE),
            shape,
        },
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;
    use crate::trax::movegen::generate;
    use crate::trax::{Variant, DEFAULT_MAX_TILES};
    use crate::{Game, Rng};
    use proptest::prelude::*;

    /// The grid generator's placements of `g` (8x8, with tiles) within `room`: cell, tile, move.
    fn on_the_grid(g: &Trax, room: u32) -> Vec<(u32, u8, Move)> {
        let mut cells = g.board.window(g.bbox, MARGIN).unwrap();
        let facts = g.facts();
        // The window's cells have their own indices: moves and tiles compare, and cells through
        // the notation.
        let mut out = Vec::new();
        let _ = generate(&mut cells, &mut Vec::new(), facts, room, |c| {
            out.push((0, c.tile.0, c.mv));
            ControlFlow::Continue(())
        });
        for p in &mut out {
            p.0 = g.cell_of(p.2);
        }
        out
    }

    /// The bits' placements of `g` within `room`, each way: on the board, reading the state
    /// with the placements kept by the last turn, and reading it without them.
    fn on_the_bits(g: &Trax, room: u32) -> [Vec<(u32, u8, Move)>; 3] {
        fn push(way: &mut Vec<(u32, u8, Move)>) -> impl FnMut(Candidate) -> ControlFlow<()> + '_ {
            |c| {
                way.push((c.cell, c.tile.0, c.mv));
                ControlFlow::Continue(())
            }
        }
        let mut ways = [Vec::new(), Vec::new(), Vec::new()];
        let _ = g.clone().generate_bits(room, push(&mut ways[0]));
        let _ = g.generate_bits_reading(room, push(&mut ways[1]));
        let mut forgot = g.clone();
        forgot.offered = None;
        let _ = forgot.generate_bits_reading(room, push(&mut ways[2]));
        ways
    }

    impl Trax {
        /// The grid cell of a move's target (tests only).
        fn cell_of(&self, mv: Move) -> u32 {
            let b = self.bbox;
            let (x, y) = (
                i64::from(b.minx) - 1 + mv.col as i64,
                i64::from(b.miny) - 1 + mv.row as i64,
            );
            self.board.index(x, y).unwrap() as u32
        }
    }

    /// Random 8x8 games (a step picks among the grid generator's moves), each position's
    /// placements from both generators: the same list in the same order, at every room.
    fn agree(seed: u64, rooms: &[u32]) -> Result<u32, TestCaseError> {
        agree_within(seed, rooms, DEFAULT_MAX_TILES)
    }

    /// [`agree`] in games of at most `max_tiles` tiles: the kept placements are then settled
    /// within the few tiles left at the end.
    fn agree_within(seed: u64, rooms: &[u32], max_tiles: u32) -> Result<u32, TestCaseError> {
        let mut g = Trax::with_max_tiles(Variant::EightByEight, max_tiles).unwrap();
        let mut rng = Rng::new(seed);
        g.play("@0/".parse().unwrap()).unwrap();
        let mut positions = 0;
        while !g.is_over() {
            prop_assert!(g.offered.is_some());
            for &room in rooms {
                let grid = on_the_grid(&g, room);
                // The kept placements are those of the game's own room.
                let ways = if room == g.room() { 0..3 } else { 0..1 };
                for (way, bits) in on_the_bits(&g, room)
                    .into_iter()
                    .enumerate()
                    .filter(|(w, _)| ways.contains(w))
                {
                    prop_assert_eq!(&bits, &grid, "way {} room {} after {:?}", way, room, g);
                }
            }
            let mut ids = Vec::new();
            prop_assert!(g.offered_ids(&mut ids));
            let grid: Vec<usize> = on_the_grid(&g, g.room())
                .iter()
                .map(|p| g.id_of(p.2).unwrap())
                .collect();
            prop_assert_eq!(ids, grid);
            positions += 1;
            let moves = on_the_grid(&g, g.room());
            let (_, _, mv) = moves[rng.below(moves.len() as u64) as usize];
            g.play(mv).unwrap();
        }
        Ok(positions)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn the_bits_generate_what_the_grid_generates(seed in any::<u64>()) {
            agree(seed, &[DEFAULT_MAX_TILES, 1, 2, 3, 4, 5])?;
        }

        #[test]
        fn the_kept_placements_hold_near_the_tile_limit(seed in any::<u64>(), max_tiles in 8u32..40) {
            agree_within(seed, &[], max_tiles)?;
        }
    }

    /// The right-angle check, which random games do not reach: red enters the empty cells
    /// north (from A) and east (from B) of the empty cell `c`, and `c`'s backslash (red north
    /// and east) forces both; their white edges meet nothing entered, so neither forces more
    /// on its own, but both enter the cell between them, `d`, with white: a fourth tile, whose
    /// red east edge forces a fifth beside J, which forces a sixth. Within room for four or five
    /// tiles the placement is illegal, which only the right angle tells before a trial (without
    /// it the bits list the placement at room 4). Put tile by tile: the position has no forced
    /// cell, and its groups need not touch.
    ///
    /// ```text
    ///        x -1  0  1  2
    ///   y -2     .  .  .  J
    ///   y -1     A  n  d  .
    ///   y  0     .  c  e  .
    ///   y  1     .  K  B  .
    /// ```
    #[test]
    fn two_forced_tiles_at_a_right_angle_force_the_cell_between() {
        let mut g = Trax::new(Variant::EightByEight);
        let mut loops = 0;
        for (x, y, red) in [(-1, -1, 0b0110), (1, 1, 0b0101), (0, 1, 0b1100), (2, -2, 0b0101)] {
            let idx = g.board.index(x, y).unwrap();
            g.put(idx, Tile(red), &mut loops);
        }
        assert_eq!(loops, 0);
        let c = g.board.index(0, 0).unwrap() as u32;
        let backslash_at_c =
            |moves: &[(u32, u8, Move)]| moves.iter().any(|&(cell, tile, _)| (cell, tile) == (c, 0b0011));
        for room in [DEFAULT_MAX_TILES, 4, 5, 6] {
            let grid = on_the_grid(&g, room);
            for (way, bits) in on_the_bits(&g, room).iter().enumerate() {
                assert_eq!(bits, &grid, "way {way} room {room}");
            }
            assert_eq!(backslash_at_c(&grid), room >= 6, "room {room}");
        }
    }

    #[test]
    fn many_random_games_agree_and_the_frame_follows_the_area() {
        let positions: u32 = (0..3000).map(|seed| agree(seed, &[DEFAULT_MAX_TILES]).unwrap()).sum();
        assert!(positions > 30_000, "{positions}");
    }
}

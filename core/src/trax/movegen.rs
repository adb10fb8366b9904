//! Move generation: the forced-play cascade, and the scan of the empty ring around the tiles
//! that finds every legal placement.

use alloc::vec::Vec;
use core::ops::ControlFlow;

use super::board::{entry_bit, BBox, Board, Cell};
use super::notation::Move;
use super::tile::{opposite, Colour, Shape, Tile};
use super::variant::MAX_SPAN;

/// What an empty cell's entry mask (red edges low, white edges high) forces: 0 nothing, the red
/// edges of the forced tile, or [`ILLEGAL`] for three entries of one colour.
pub(super) static FORCED: [u8; 256] = forced_table();
pub(super) const ILLEGAL: u8 = 0xFF;

pub(super) const fn forced_table() -> [u8; 256] {
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
pub(super) static FITS: [[u8; 3]; 256] = fits_table();

pub(super) const fn fits_table() -> [[u8; 3]; 256] {
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

/// A legal placement found by the generator: cell index, tile, and its notation.
#[derive(Clone, Copy)]
pub(crate) struct Candidate {
    pub(super) cell: u32,
    pub(super) tile: Tile,
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

/// The cells a forced-play cascade reads and fills: a real turn's (tiles with their paths) or a
/// trial's (tiles alone, on the board or on a copy).
pub(super) trait Cells {
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
pub(super) fn cascade<C: Cells>(c: &mut C, start: usize) -> bool {
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

/// A trial cascade on a board: tiles only, no paths, undone from the queue afterwards. `FLAT`:
/// a cell with a tile reads as one without entries, which nothing forces (one branch a
/// neighbour where there were two).
pub(super) struct BareCells<'a, const FLAT: bool> {
    pub(super) b: &'a mut Board,
    pub(super) queue: &'a mut Vec<u32>,
}

impl<const FLAT: bool> Cells for BareCells<'_, FLAT> {
    #[inline(always)]
    fn step(&self, idx: usize, e: u8) -> usize {
        self.b.step(idx, e)
    }
    #[inline(always)]
    fn empty_entries(&self, idx: usize) -> Option<u8> {
        let c = self.b.grid[idx];
        if FLAT {
            return Some(c.entries & u8::from(c.tile == 0).wrapping_neg());
        }
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
pub(super) struct Facts {
    pub(super) bbox: BBox,
    pub(super) tiles: u32,
    pub(super) eight: bool,
    pub(super) over: bool,
}

/// Whether the forced plays after putting `tile` on `idx` stay legal and put at most `room` tiles
/// with it; `forcing` are the edges of `tile` towards the cells it forces. Not inlined: the scan
/// around it keeps its registers (perft 7 about 6 % faster). `FLAT`: the quick check of a chain
/// of two forced tiles reads its cells without a branch, and the cascade tests a neighbour with
/// one branch where it took two, which pays where a position's placements are played out all at
/// once (an offer: a research step takes about 2 % less CPU time, 44 mispredicted branches where
/// 60, 4 % more instructions) but not in a count (the chain's check alone made perft 1 % slower
/// in the thirteenth round); the offer's quick checks go further (a chain of three).
#[inline(never)]
pub(super) fn forced_plays_legal<const FLAT: bool>(
    b: &mut Board,
    queue: &mut Vec<u32>,
    idx: usize,
    tile: Tile,
    forcing: u8,
    room: u32,
) -> bool {
    if forcing.count_ones() < room && forced_tiles_end::<FLAT>(b, idx, tile, forcing, room) {
        return true;
    }
    b.set_tile(idx, tile);
    let legal = cascade(&mut BareCells::<FLAT> { b, queue }, idx);
    for &c in queue.iter() {
        b.clear_tile(c as usize);
    }
    legal && queue.len() as u64 <= u64::from(room)
}

/// The cell across edge `e` of `tile` on `idx`, which that colour already enters, and the tile
/// forced there (the cell had one entry of each colour at most, so none enters it three times).
#[inline(always)]
pub(super) fn forced_across(b: &Board, idx: usize, tile: Tile, e: u8) -> (usize, Tile) {
    let m = b.step(idx, e);
    (m, Tile(FORCED[(b.grid[m].entries | entry_bit(tile, e)) as usize]))
}

/// The entries among `entries` of the colour of `tile`'s edge `e`: not 0 if `tile` would enter
/// that neighbour a second time with one colour (a forced play).
#[inline(always)]
pub(super) fn same_colour(entries: u8, tile: Tile, e: u8) -> u8 {
    if tile.0 >> e & 1 != 0 {
        entries & 0xF
    } else {
        entries >> 4
    }
}

/// The cell across edge `e` of `tile` on `idx`, the tile forced there, and that tile's edges
/// towards the empty cells it forces in turn (read without writing; 0: it forces nothing more).
/// The cells next to the forced one are two steps from `idx`, so `tile` enters none of them. Read
/// once, without a branch, for both quick checks (a lone forced tile, a chain of two), each of
/// which read them on its own (the trials 9 % fewer instructions).
/// `FLAT` reads the three cells beside `idx` only; the count keeps its four reads and the mask
/// (with three, perft 7 took 0.4 % more time for 0.6 % fewer instructions).
#[inline(always)]
fn forced_onward<const FLAT: bool>(b: &Board, idx: usize, tile: Tile, e: u8) -> (usize, Tile, u8) {
    let (m, forced) = forced_across(b, idx, tile, e);
    let mut onward = 0;
    if FLAT {
        for f in others(e) {
            onward |= forces(b.grid[b.step(m, f)], forced, f) << f;
        }
        return (m, forced, onward);
    }
    for f in 0..4u8 {
        onward |= forces(b.grid[b.step(m, f)], forced, f) << f;
    }
    // Across the opposite edge lies `idx` itself, where the tile goes.
    (m, forced, onward & !(1 << opposite(e)))
}

/// The edges of a cell but the one opposite `e` (the way back along a chain of forced tiles).
#[inline(always)]
fn others(e: u8) -> [u8; 3] {
    [e, (e + 1) & 3, (e + 3) & 3]
}

/// 1 if `n`, the cell across edge `e` of `tile`, is empty and entered by that edge's colour
/// already (`tile` forces a play there), else 0. Without a branch: which way it goes is a coin
/// toss, and the mispredicted branches of these reads were about a tenth of a research step's
/// (cachegrind's branch simulation).
#[inline(always)]
fn forces(n: Cell, tile: Tile, e: u8) -> u8 {
    u8::from(n.tile == 0) & u8::from(same_colour(n.entries, tile, e) != 0)
}

/// Whether `first`, forced on `m` across edge `e` of `tile` on `idx`, forces one more tile across
/// its edge `f`, which forces nothing: then the turn is legal. The cells next to that second
/// tile are one or three steps from `idx`: the one next to `idx` (on the side the chain turned
/// to) also has the entry of `tile`. `FLAT`: its three neighbours read without a branch (see
/// [`plays_out`]), and a chain of three (the second forces a lone third that forces nothing,
/// within `room`) is decided too (`chain_of_three_ends`).
#[inline(always)]
fn chain_of_two_ends<const FLAT: bool>(
    b: &Board,
    tile: Tile,
    e: u8,
    (m, first): (usize, Tile),
    f: u8,
    room: u32,
) -> bool {
    let (n, second) = forced_across(b, m, first, f);
    if FLAT {
        let by_tile = |g: u8| entry_bit(tile, f) & u8::from(g == opposite(e)).wrapping_neg();
        let mut onward = 0;
        // Across the opposite edge lies `m`, the first forced tile.
        for g in others(f) {
            let p = b.grid[b.step(n, g)];
            let p = Cell {
                entries: p.entries | by_tile(g),
                ..p
            };
            onward |= forces(p, second, g) << g;
        }
        if onward == 0 {
            return true;
        }
        if onward & (onward - 1) != 0 || room <= 3 {
            return false;
        }
        let g = onward.trailing_zeros() as u8;
        let p = b.step(n, g);
        let entries = b.grid[p].entries | entry_bit(second, g) | by_tile(g);
        return chain_of_three_ends(b, (e, f, g), first, p, FORCED[usize::from(entries)]);
    }
    (0..4u8).filter(|&g| g != opposite(f)).all(|g| {
        let p = b.grid[b.step(n, g)];
        let entries = p.entries | if g == opposite(e) { entry_bit(tile, f) } else { 0 };
        p.tile != 0 || same_colour(entries, second, g) == 0
    })
}

/// Whether `third` (a [`FORCED`] entry), forced on `p` at the end of the chain from `idx`
/// across edges `e`, `f` and `g` (`first` on the chain's first cell), forces nothing more: then
/// the turn is legal. The cells next to `p` are two or four steps from `idx`, so of the chain's
/// tiles only `first` may also enter one: the cell across `p`'s edge opposite `f`, which is
/// `first`'s neighbour across `g` where the chain turned (`idx` itself, where the tile goes,
/// when it turned back beside it: `g` opposite `e`). A third that is illegal is the cascade's to
/// find.
#[inline(always)]
fn chain_of_three_ends(b: &Board, (e, f, g): (u8, u8, u8), first: Tile, p: usize, third: u8) -> bool {
    if third == ILLEGAL {
        return false;
    }
    let mut onward = 0;
    // Across the opposite edge lies the second forced tile.
    for h in others(g) {
        let q = b.grid[b.step(p, h)];
        let by_first = entry_bit(first, g) & u8::from(h == opposite(f)).wrapping_neg();
        let q = Cell {
            entries: q.entries | by_first,
            ..q
        };
        onward |= forces(q, Tile(third), h) << h;
    }
    // Beside `idx`, `idx` is one of them.
    onward & !(u8::from(g == opposite(e)) << opposite(f)) == 0
}

/// Whether the tiles that `tile` on `idx` forces across the edges `forcing` force nothing more,
/// or a lone one forces one more that does, within `room` tiles: then the turn is legal. Most
/// forcing moves are such; the others take the trial cascade. Two forced cells at a right angle
/// share a neighbour (the diagonal of `idx`), which must not get two entries of one colour from
/// them.
#[inline(always)]
pub(super) fn forced_tiles_end<const FLAT: bool>(b: &Board, idx: usize, tile: Tile, forcing: u8, room: u32) -> bool {
    let e1 = forcing.trailing_zeros() as u8;
    let rest = forcing & (forcing - 1);
    // An offer's placements whose forced tiles force nothing, two at a right angle included, are
    // legal by the bit-boards' classification already (`Bits::classify`): what two forced tiles
    // do then is the cascade's to find (with a short room too, where it is exact anyway).
    if FLAT && rest != 0 {
        return false;
    }
    let (m1, t1, onward) = forced_onward::<FLAT>(b, idx, tile, e1);
    if onward != 0 {
        let chain = rest == 0 && room > 2 && onward & (onward - 1) == 0;
        return chain && chain_of_two_ends::<FLAT>(b, tile, e1, (m1, t1), onward.trailing_zeros() as u8, room);
    }
    if rest == 0 {
        return true;
    }
    let e2 = rest.trailing_zeros() as u8;
    if rest & (rest - 1) != 0 {
        return false;
    }
    let (_, t2, onward) = forced_onward::<FLAT>(b, idx, tile, e2);
    if onward != 0 {
        return false;
    }
    e2 == opposite(e1) || b.grid[b.step(b.step(idx, e1), e2)].tile != 0 || (t1.0 >> e2 & 1) != (t2.0 >> e1 & 1)
}

/// The edges of empty cell `idx` towards empty neighbours already entered by red, and by white: a
/// tile whose red (white) edge points there gives that neighbour a second entry, a forced play.
#[inline(always)]
fn near(b: &Board, idx: usize) -> (u8, u8) {
    let (mut red_near, mut white_near) = (0u8, 0u8);
    for e in 0..4u8 {
        let n = b.grid[b.step(idx, e)];
        let empty = u8::from(n.tile == 0);
        red_near |= (empty & u8::from(n.entries & 0xF != 0)) << e;
        white_near |= (empty & u8::from(n.entries >> 4 != 0)) << e;
    }
    (red_near, white_near)
}

/// Whether `tile` on empty cell `idx`, which forces a play, is legal within `room` tiles: a
/// trial turn on `b`, undone. An offer calls [`forced_plays_legal`] itself, with its `FLAT`
/// variant and the forcing edges from the bit-boards.
pub(super) fn plays_out(b: &mut Board, queue: &mut Vec<u32>, idx: usize, tile: Tile, room: u32) -> bool {
    let (red_near, white_near) = near(b, idx);
    let forcing = (tile.0 & red_near) | (!tile.0 & white_near);
    forcing == 0 || forced_plays_legal::<false>(b, queue, idx, tile, forcing, room)
}

/// Calls `f` with every legal placement that puts at most `room` tiles, in ascending order of
/// row, column and shape ([`Shape::ALL`]), until `f` breaks (whether it did is returned); trial
/// turns run only where a forced play may follow, on `b` and undone. Needs [`MARGIN`] around the
/// tiles.
#[inline(always)]
pub(super) fn generate(
    b: &mut Board,
    queue: &mut Vec<u32>,
    facts: Facts,
    room: u32,
    mut f: impl FnMut(Candidate) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if facts.over || room == 0 {
        return ControlFlow::Continue(());
    }
    if facts.tiles == 0 {
        let Some(origin) = b.index(0, 0) else {
            return ControlFlow::Continue(());
        };
        for (shape, tile) in [(Shape::Straight, Tile(0b1010)), (Shape::Slash, Tile(0b0110))] {
            f(Candidate {
                cell: origin as u32,
                tile,
                mv: Move { col: 0, row: 0, shape },
            })?;
        }
        return ControlFlow::Continue(());
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
        return ControlFlow::Continue(());
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
            let (red_near, white_near) = near(b, idx);
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
                if forcing != 0 && !forced_plays_legal::<false>(b, queue, idx, tile, forcing, room) {
                    continue;
                }
                f(Candidate {
                    cell: idx as u32,
                    tile,
                    mv,
                })?;
            }
        }
    }
    ControlFlow::Continue(())
}

//! The grid of cells under a game: a rectangle around the tiles that grows as they do, each
//! cell with its tile and the colours entering it.

use alloc::vec;
use alloc::vec::Vec;

use super::tile::{opposite, Tile};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BBox {
    pub(super) minx: i32,
    pub(super) maxx: i32,
    pub(super) miny: i32,
    pub(super) maxy: i32,
}

/// One grid cell. `tile` is its red-edge mask, 0 when empty; `entries` are the colours entering it
/// from its neighbours, red edges in the low nibble and white in the high one (kept for every
/// cell, read for empty ones); `slot` numbers the tile in the order tiles were put, which names
/// its path ends (`slot * 4 + edge`) independently of where the grid keeps it. Four bytes: one
/// load gives all a neighbour's facts.
#[derive(Clone, Copy, Default)]
pub(super) struct Cell {
    pub(super) tile: u8,
    pub(super) entries: u8,
    pub(super) slot: u16,
}

/// The cells: a `w` x `h` rectangle, row by row, where absolute (0, 0) is at (`offx`, `offy`).
#[derive(Clone)]
pub(super) struct Board {
    pub(super) w: usize,
    pub(super) h: usize,
    pub(super) offx: i32,
    pub(super) offy: i32,
    /// Index steps to the neighbour across each edge (north and west wrap: negated offsets).
    pub(super) delta: [usize; 4],
    pub(super) grid: Vec<Cell>,
}

impl Board {
    pub(super) fn new(w: usize, h: usize, offx: i32, offy: i32) -> Board {
        Board {
            w,
            h,
            offx,
            offy,
            delta: steps(w),
            grid: vec![Cell::default(); w * h],
        }
    }

    pub(super) fn index(&self, x: i64, y: i64) -> Option<usize> {
        let (gx, gy) = (x + i64::from(self.offx), y + i64::from(self.offy));
        ((0..self.w as i64).contains(&gx) && (0..self.h as i64).contains(&gy))
            .then(|| gy as usize * self.w + gx as usize)
    }

    #[inline(always)]
    pub(super) fn xy(&self, idx: usize) -> (i32, i32) {
        ((idx % self.w) as i32 - self.offx, (idx / self.w) as i32 - self.offy)
    }

    #[inline(always)]
    pub(super) fn step(&self, idx: usize, e: u8) -> usize {
        idx.wrapping_add(self.delta[e as usize & 3])
    }

    /// Puts `tile` on `idx` and tells the four neighbours which colour now enters them.
    #[inline(always)]
    pub(super) fn set_tile(&mut self, idx: usize, tile: Tile) {
        self.grid[idx].tile = tile.0;
        for e in 0..4u8 {
            let m = self.step(idx, e);
            self.grid[m].entries |= entry_bit(tile, e);
        }
    }

    /// Empties `idx` and withdraws its entries from the neighbours.
    #[inline(always)]
    pub(super) fn clear_tile(&mut self, idx: usize) {
        self.grid[idx].tile = 0;
        for e in 0..4u8 {
            let m = self.step(idx, e);
            self.grid[m].entries &= !(0x11 << opposite(e));
        }
    }

    /// A copy of the cells of `b` and `margin` around it, if the board holds them.
    pub(super) fn window(&self, b: BBox, margin: i32) -> Option<Board> {
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

/// The entry bit that `tile`'s edge `e` gives the neighbour across it: red sets the low nibble's
/// bit, white the high one's. From a table, one load an edge: working it out took a few shifts
/// in every `set_tile` of turns and trials (about 2 % of a research step).
#[inline(always)]
pub(super) fn entry_bit(tile: Tile, e: u8) -> u8 {
    ENTRY_BITS[usize::from(tile.0 & 0xF)][usize::from(e & 3)]
}

static ENTRY_BITS: [[u8; 4]; 16] = {
    let mut t = [[0u8; 4]; 16];
    let mut k = 0;
    while k < 16 {
        let mut e = 0;
        while e < 4 {
            let red = (k >> e & 1) as u8;
            t[k][e] = (red | (red ^ 1) << 4) << opposite(e as u8);
            e += 1;
        }
        k += 1;
    }
    t
};

/// Index steps north, east, south, west on a grid of width `w`.
pub(super) const fn steps(w: usize) -> [usize; 4] {
    [w.wrapping_neg(), 1, w, usize::MAX]
}
pub(super) const EMPTY_BOX: BBox = BBox {
    minx: 0,
    maxx: -1,
    miny: 0,
    maxy: -1,
};

/// A Zobrist-style number for `tile` on absolute cell (`x`, `y`): a hash of a position is the
/// exclusive or of its tiles' numbers (splitmix64 of the packed cell and tile).
pub(super) fn tile_hash(x: i32, y: i32, tile: Tile) -> u64 {
    let mut z = (u64::from(x as u32) << 32 | u64::from(y as u32)) ^ u64::from(tile.0) << 60;
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ z >> 30).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ z >> 27).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ z >> 31
}

/// Where the cells of a grid went when it was rebuilt.
#[derive(Clone, Copy)]
pub(super) struct Remap {
    pub(super) old_w: usize,
    pub(super) dx: i64,
    pub(super) dy: i64,
    pub(super) w: usize,
    pub(super) h: usize,
}

impl Remap {
    pub(super) fn cell(&self, old: u32) -> Option<u32> {
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
pub(super) fn fit_axis(dim: usize, off: i32, lo: i32, hi: i32, margin: i32, compact: bool) -> (usize, i32) {
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

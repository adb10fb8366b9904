//! The legal placements of an 8x8 game kept from one turn to the next: a turn changes the cells
//! near its tiles, and a placement's checks read a bounded neighbourhood, so after a turn only
//! the placements whose checks read near its tiles are worked out again (a research step listed
//! every placement afresh, which was most of its time).

use alloc::vec::Vec;
use core::ops::ControlFlow;

use super::board::Board;
use super::movegen::{each_in_ring, legal_shapes, ring, Candidate, Facts, Verdict};

/// How far (Manhattan steps) the checks of a cell read tiles around it: its neighbours'
/// entries.
const CELL_READ: i32 = 2;
/// How far (Manhattan steps) the quick checks of a forcing tile read tiles around a cell it
/// forces ([`Verdict::Quick`]): a second forced cell next to it, and its neighbours' entries.
const FORCED_READ: i32 = 3;
/// How far from the cells it placed a trial cascade reads tiles: it reads their neighbours,
/// whose entries come from the next ones.
const TRIAL_READ: u8 = 2;
/// The grid's largest side for which placements are kept (a row of cells is one word); an 8x8
/// game's grid never grows past its first.
const MAX_SIDE: usize = 32;

/// What is known of one cell of the grid: its legal shapes, and where their checks read.
#[derive(Clone, Copy)]
struct Entry {
    /// Bit `k` for [`Shape::ALL`](super::tile::Shape::ALL)`[k]`.
    shapes: u8,
    /// The edges towards the cells that its tiles judged [`Verdict::Quick`] force;
    /// [`UNKNOWN_EDGES`] for a cell never worked out.
    quick: u8,
    /// The box (grid columns x0, x1, rows y0, y1, inclusive) where the cell's trial cascades
    /// read tiles; empty (x0 > x1) when it needed none.
    trial: [u8; 4],
}

const NO_TRIAL: [u8; 4] = [1, 0, 1, 0];

/// A cell never worked out: stale whatever the turn. (A cell becomes a candidate when a tile
/// is put next to it, so no other cell is read before it is worked out.)
const UNKNOWN_EDGES: u8 = 0xFF;
const UNKNOWN: Entry = Entry {
    shapes: 0,
    quick: UNKNOWN_EDGES,
    trial: NO_TRIAL,
};

/// The legal placements of the ring of one position: each cell's shapes by grid index, and the
/// action ids in ascending order.
#[derive(Clone, Default)]
pub(super) struct Known {
    /// The [`Trax::stamp`](super::Trax) of that position; `None` before the first.
    stamp: Option<u32>,
    cells: Vec<Entry>,
    ids: Vec<u16>,
    /// Scratch: the grid cells (column, row) of a turn's tiles.
    near: Vec<(u8, u8)>,
}

impl Known {
    /// Whether these are the placements of the position with this stamp.
    #[inline]
    pub(super) fn is_of(&self, stamp: u32) -> bool {
        self.stamp == Some(stamp)
    }

    /// The action ids of the legal placements, ascending.
    #[inline]
    pub(super) fn ids(&self) -> &[u16] {
        &self.ids
    }

    /// Works out the legal placements of the ring on `b`, the position with stamp `stamp` after
    /// the tiles on `since` (grid indices) were put on the position these are of, or all of them
    /// (`None`); whether there is any (`None` if the grid is too large or the ring off it).
    /// The cells whose checks read no cell that a tile of `since` changed keep theirs. `id`
    /// numbers the placement of shape `k` at notation column and row. For an 8x8 game whose tile
    /// limit never binds (its turns put no more tiles than there are free cells), so that `room`
    /// changes no answer.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn refresh(
        &mut self,
        b: &mut Board,
        queue: &mut Vec<u32>,
        facts: Facts,
        room: u32,
        since: Option<&[u32]>,
        stamp: u32,
        id: impl Fn(u64, u64, usize) -> usize,
    ) -> Option<bool> {
        self.stamp = None;
        if b.w > MAX_SIDE || b.h > MAX_SIDE {
            return None;
        }
        let (x0, x1, y0, y1) = ring(facts);
        let first = b.index(i64::from(x0), i64::from(y0))?;
        b.index(i64::from(x1), i64::from(y1))?;
        self.cells.resize(b.grid.len(), UNKNOWN);
        let w = b.w;
        self.near.clear();
        self.near.extend(
            since
                .unwrap_or(&[])
                .iter()
                .map(|&c| ((c as usize % w) as u8, (c as usize / w) as u8)),
        );
        // The cells within each reach of a tile of the turn, a row of the grid a word.
        let (mut cell_near, mut forced_near) = ([0u32; MAX_SIDE], [0u32; MAX_SIDE]);
        for &(tx, ty) in &self.near {
            for (rows, reach) in [(&mut cell_near, CELL_READ), (&mut forced_near, FORCED_READ)] {
                for dy in -reach..=reach {
                    let half = reach - dy.abs();
                    let (lo, hi) = ((i32::from(tx) - half).max(0), (i32::from(tx) + half).min(31));
                    if let Some(row) = rows.get_mut((i32::from(ty) + dy) as usize) {
                        *row |= (u32::MAX >> (31 - (hi - lo))) << lo;
                    }
                }
            }
        }
        let all = since.is_none();
        let (gx0, gy0) = (first % w, first / w);
        self.ids.clear();
        for r in 0..=(y1 - y0) as usize {
            let row = first + r * w;
            let gy = gy0 + r;
            for dx in 0..=(x1 - x0) as usize {
                let idx = row + dx;
                let cell = b.grid[idx];
                if cell.tile != 0 || cell.entries == 0 {
                    continue;
                }
                let gx = gx0 + dx;
                let entry = &mut self.cells[idx];
                // The grid cell across edge `e` (north, east, south, west), near a tile of the turn.
                let forced_reached = |e: u8| {
                    let (x, y) = [(gx, gy - 1), (gx + 1, gy), (gx, gy + 1), (gx - 1, gy)][usize::from(e)];
                    forced_near[y] >> x & 1 != 0
                };
                let reached = entry.quick == UNKNOWN_EDGES
                    || cell_near[gy] >> gx & 1 != 0
                    || (0..4).any(|e| entry.quick >> e & 1 != 0 && forced_reached(e));
                let [tx0, tx1, ty0, ty1] = entry.trial;
                let in_trial = tx0 <= tx1
                    && self
                        .near
                        .iter()
                        .any(|&(nx, ny)| (tx0..=tx1).contains(&nx) && (ty0..=ty1).contains(&ny));
                if all || reached || in_trial {
                    let (mut trial, mut quick) = (NO_TRIAL, 0);
                    entry.shapes = legal_shapes(b, queue, idx, room, |edges, verdict, queue| match verdict {
                        Verdict::Quick => quick |= edges,
                        // A trial's answer is the cascade's own, whatever the quick checks read.
                        Verdict::Trial(_) => {
                            for &c in queue {
                                widen(&mut trial, c as usize % w, c as usize / w);
                            }
                        }
                    });
                    *entry = Entry { trial, quick, ..*entry };
                }
                for k in 0..3 {
                    if entry.shapes >> k & 1 != 0 {
                        let (col, row) = (x0 - facts.bbox.minx + 1, y0 - facts.bbox.miny + 1);
                        self.ids
                            .push(id((col as usize + dx) as u64, (row as usize + r) as u64, k) as u16);
                    }
                }
            }
        }
        self.stamp = Some(stamp);
        Some(!self.ids.is_empty())
    }

    /// Calls `f` with every legal placement of the position these are of, on its board `b`, in
    /// the generator's order.
    pub(super) fn each(&self, b: &Board, facts: Facts, f: impl FnMut(Candidate) -> ControlFlow<()>) {
        let _ = each_in_ring(b, facts, |_, idx| self.cells[idx].shapes, f);
    }
}

/// Widens `trial` to the cells a trial cascade read around its grid cell (`x`, `y`).
fn widen(trial: &mut [u8; 4], x: usize, y: usize) {
    let r = usize::from(TRIAL_READ);
    let (lo_x, hi_x) = (x.saturating_sub(r) as u8, (x + r).min(MAX_SIDE - 1) as u8);
    let (lo_y, hi_y) = (y.saturating_sub(r) as u8, (y + r).min(MAX_SIDE - 1) as u8);
    *trial = if trial[0] > trial[1] {
        [lo_x, hi_x, lo_y, hi_y]
    } else {
        [
            trial[0].min(lo_x),
            trial[1].max(hi_x),
            trial[2].min(lo_y),
            trial[3].max(hi_y),
        ]
    };
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use crate::trax::{Trax, Variant};
    use crate::{Engine, Game, Rng};

    /// Along random 8x8 games, with turns taken back now and then, the ids read from the kept
    /// placements are those the generator lists afresh, and they were kept after every turn.
    #[test]
    fn kept_placements_are_those_listed_afresh() {
        let (mut ids, mut fresh) = (Vec::new(), Vec::new());
        for seed in 0..1000u64 {
            let mut g = Trax::new(Variant::EightByEight);
            let (mut rng, mut undone) = (Rng::new(seed), false);
            while !g.is_over() {
                g.legal_actions_into(&mut ids);
                // Taking a turn back forgets them (the next turn works them out afresh).
                assert_eq!(g.known.is_of(g.stamp), g.tiles() > 0 && !undone, "seed {seed}");
                fresh.clear();
                g.candidates(&mut fresh);
                let want: Vec<usize> = fresh.iter().map(|c| g.id_of(c.mv).unwrap()).collect();
                assert_eq!(ids, want, "seed {seed}: {g:?}");
                undone = g.tiles() > 4 && rng.below(8) == 0;
                if undone {
                    g.undo();
                    continue;
                }
                let id = ids[rng.below(ids.len() as u64) as usize];
                g.play(g.action_move(id).unwrap()).unwrap();
            }
        }
    }
}

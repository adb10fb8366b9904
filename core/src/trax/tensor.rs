//! The observation tensor: the board as one player sees it (Trax hides nothing), as a
//! fixed-size vector of numbers for learning agents, in the player's own colours so that one
//! network plays both sides.
//!
//! Layout ([`len`] numbers, all in 0..=1; W = [`window`]: 10 for 8x8, 34 for unbounded and loop):
//!
//! | offset | size | what |
//! |---|---|---|
//! | 0 | W × W × 5 | cells by notation row, then column (row 0 and column 0 are the empty line before the area, `@`): occupied; the observer's colour on the north, east, south, west edge (the other edges of a tile are the opponent's) |
//! | 5W² | 3 | the variant (one-hot: 8x8, unbounded, loop) |
//! | 5W² + 3 | 1 | the observer is to move |
//! | 5W² + 4 | 1 | tiles / the tile limit |
//! | 5W² + 5 | 2 | the area's columns and rows / W (at most 1) |
//!
//! An area wider or taller than W - 2 shows its first W - 2 columns and rows (8x8 areas always
//! fit; unbounded games of tournament play stay far below 32).

use alloc::vec::Vec;

use super::state::Trax;
use super::tile::Colour;
use super::variant::Variant;
use crate::Game;

/// The side of the window of cells: the area's largest span plus an empty line on each side.
pub const fn window(variant: Variant) -> usize {
    match variant {
        Variant::EightByEight => 10,
        Variant::Unbounded | Variant::Loop => 34,
    }
}

// The 8x8 window is the bit-boards' frame: a bit is a cell of the tensor.
const _: () = assert!(window(Variant::EightByEight) == super::bits::SIDE as usize);

/// The tensor's length for `variant`.
pub const fn len(variant: Variant) -> usize {
    let w = window(variant);
    w * w * 5 + 7
}

/// The numbers of a cell by its tile's red edges, as white sees it (`[0]`) and as red does
/// (`[1]`): a table, as a step writes a few dozen tiles (the loop over the edges was a sixth of
/// the tensor's instructions, and choosing the observer's edges a tile at a time another part).
static TILE_CELLS: [[[f32; 5]; 16]; 2] = {
    let mut t = [[[0.0; 5]; 16]; 2];
    let mut k = 0;
    while k < 16 {
        let mut red = 0;
        while red < 2 {
            let mine = if red == 1 { k } else { !k & 0xF };
            t[red][k][0] = 1.0;
            let mut e = 0;
            while e < 4 {
                t[red][k][1 + e] = (mine >> e & 1) as f32;
                e += 1;
            }
            red += 1;
        }
        k += 1;
    }
    t
};

/// The board as `player` sees it (layout in the module docs).
///
/// ```
/// use arbiter_core::Game;
/// use arbiter_core::trax::{tensor, Colour, Trax, Variant};
/// let mut g = Trax::new(Variant::EightByEight);
/// g.play("@0/".parse().unwrap()).unwrap();
/// let t = tensor::observation_tensor(&g, Colour::Red);
/// assert_eq!(t.len(), tensor::len(Variant::EightByEight));
/// // The tile at A1 (row 1, column 1): occupied.
/// assert_eq!(t[(10 + 1) * 5], 1.0);
/// ```
pub fn observation_tensor(g: &Trax, player: Colour) -> Vec<f32> {
    let mut out = alloc::vec![0.0; len(g.variant())];
    write(g, player, &mut out);
    out
}

/// [`observation_tensor`] over `out` ([`len`] numbers): zeros, then the tiles and the rest.
pub(crate) fn write(g: &Trax, player: Colour, out: &mut [f32]) {
    let v = g.variant();
    let w = window(v);
    assert_eq!(out.len(), len(v), "a {v} Trax tensor has {} numbers", len(v));
    out.fill(0.0);
    // Row 0 and column 0 stay empty (the line before the area); tiles past the window do not show.
    let (cols, rows) = g.size();
    let (cols, rows) = ((cols as usize).min(w - 1), (rows as usize).min(w - 1));
    // A tile holds its red edges: the observer's are those, or the others.
    let table = &TILE_CELLS[usize::from(player == Colour::Red)];
    let cells = |tile: u8| &table[usize::from(tile & 0xF)];
    if v == Variant::EightByEight {
        // The bit-boards' frame is the window, cell for cell: only the tiles are visited.
        let window: &mut [f32; len(Variant::EightByEight)] = (&mut *out).try_into().expect("the length is checked");
        g.bits.each_tile(|at, tile| {
            if let Some(cell) = window.get_mut(at as usize * 5..at as usize * 5 + 5) {
                cell.copy_from_slice(cells(tile.0));
            }
        });
    }
    // Else the area's rows straight from the grid (the margin keeps them inside it), a row at a
    // time.
    let first = g.board.index(i64::from(g.bbox.minx), i64::from(g.bbox.miny));
    let first = first.filter(|_| v != Variant::EightByEight);
    for (row, grid) in first
        .into_iter()
        .flat_map(|at| g.board.grid[at..].chunks(g.board.w))
        .take(rows)
        .enumerate()
    {
        let line = &mut out[((row + 1) * w + 1) * 5..][..cols * 5];
        for (cell, c) in line.chunks_exact_mut(5).zip(grid) {
            if c.tile != 0 {
                cell.copy_from_slice(cells(c.tile));
            }
        }
    }
    let at = w * w * 5;
    out[at
        + match v {
            Variant::EightByEight => 0,
            Variant::Unbounded => 1,
            Variant::Loop => 2,
        }] = 1.0;
    out[at + 3] = if g.to_move() == Some(player) { 1.0 } else { 0.0 };
    out[at + 4] = g.tiles() as f32 / g.max_tiles() as f32;
    out[at + 5] = (cols as f32 / w as f32).min(1.0);
    out[at + 6] = (rows as f32 / w as f32).min(1.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_players_see_the_same_tiles_in_their_own_colours() {
        let moves: Vec<_> = ["@0/", "B1+", "A2/"].iter().map(|m| m.parse().unwrap()).collect();
        let g = Trax::replay(Variant::Unbounded, &moves).unwrap();
        let (white, red) = (
            observation_tensor(&g, Colour::White),
            observation_tensor(&g, Colour::Red),
        );
        let cells = window(Variant::Unbounded).pow(2);
        for c in 0..cells {
            let (w, r) = (&white[c * 5..c * 5 + 5], &red[c * 5..c * 5 + 5]);
            assert_eq!(w[0], r[0]);
            if w[0] == 1.0 {
                // Each edge is one colour or the other; two of each on every tile.
                assert!((1..5).all(|e| w[e] + r[e] == 1.0));
                assert_eq!(w[1..].iter().sum::<f32>(), 2.0);
            }
        }
        assert_eq!(white.iter().step_by(5).take(cells).sum::<f32>(), g.tiles() as f32);
    }
}

//! Cells, bit masks and the precomputed neighbour tables.

use super::card::Side;

/// Marks a side that faces the edge of a bordered board.
pub(crate) const EDGE: u8 = 9;

/// All nine cells as a mask.
pub(crate) const FULL: u16 = 0x1FF;

const fn wrap(borderless: bool, n: usize) -> u8 {
    if borderless {
        n as u8
    } else {
        EDGE
    }
}

const fn neighbour_table(borderless: bool) -> [[u8; 4]; 9] {
    let mut t = [[EDGE; 4]; 9];
    let mut cell = 0;
    while cell < 9 {
        let (r, c) = (cell / 3, cell % 3);
        t[cell][Side::Top as usize] = if r > 0 {
            (cell - 3) as u8
        } else {
            wrap(borderless, cell + 6)
        };
        t[cell][Side::Right as usize] = if c < 2 {
            (cell + 1) as u8
        } else {
            wrap(borderless, cell - 2)
        };
        t[cell][Side::Bottom as usize] = if r < 2 {
            (cell + 3) as u8
        } else {
            wrap(borderless, cell - 6)
        };
        t[cell][Side::Left as usize] = if c > 0 {
            (cell - 1) as u8
        } else {
            wrap(borderless, cell + 2)
        };
        cell += 1;
    }
    t
}

/// `NEIGHBOURS[borderless][cell][side]`: the neighbouring cell, or [`EDGE`].
pub(crate) static NEIGHBOURS: [[[u8; 4]; 9]; 2] = [neighbour_table(false), neighbour_table(true)];

const fn sides_of_table(borderless: bool) -> [[u8; 512]; 9] {
    let nb = neighbour_table(borderless);
    let mut t = [[0u8; 512]; 9];
    let mut cell = 0;
    while cell < 9 {
        let mut cells = 0;
        while cells < 512 {
            let mut side = 0;
            while side < 4 {
                let n = nb[cell][side];
                if n != EDGE && cells >> n & 1 != 0 {
                    t[cell][cells] |= 1 << side;
                }
                side += 1;
            }
            cells += 1;
        }
        cell += 1;
    }
    t
}

const fn side_cells_table(borderless: bool) -> [[u16; 16]; 9] {
    let nb = neighbour_table(borderless);
    let mut t = [[0u16; 16]; 9];
    let mut cell = 0;
    while cell < 9 {
        let mut sides = 0;
        while sides < 16 {
            let mut side = 0;
            while side < 4 {
                let n = nb[cell][side];
                if n != EDGE && sides >> side & 1 != 0 {
                    t[cell][sides] |= 1 << n;
                }
                side += 1;
            }
            sides += 1;
        }
        cell += 1;
    }
    t
}

/// `SIDES_OF[borderless][c][cells]`: the sides of cell `c` that face a cell of the mask `cells`.
/// Built at compile time, as the next table: they depend on the board alone, and building them
/// with every deal was a large part of what a deal cost.
pub(crate) static SIDES_OF: [[[u8; 512]; 9]; 2] = [sides_of_table(false), sides_of_table(true)];

/// `SIDE_CELLS[borderless][c][sides]`: the cells that the sides in a 4-bit mask of cell `c` face.
pub(crate) static SIDE_CELLS: [[[u16; 16]; 9]; 2] = [side_cells_table(false), side_cells_table(true)];

/// Iterates the set bits of a mask, lowest first.
#[inline]
pub(crate) fn bits(mut mask: u16) -> impl Iterator<Item = u8> {
    core::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let b = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(b)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bordered_corners_touch_two_edges() {
        let t = &NEIGHBOURS[0];
        assert_eq!(t[0], [EDGE, 1, 3, EDGE]);
        assert_eq!(t[4], [1, 5, 7, 3]);
        assert_eq!(t[8], [5, EDGE, EDGE, 7]);
    }

    #[test]
    fn borderless_wraps_rows_and_columns() {
        let t = &NEIGHBOURS[1];
        assert_eq!(t[0], [6, 1, 3, 2]);
        assert_eq!(t[5], [2, 3, 8, 4]);
        // Neighbourhood is symmetric on both boards.
        for table in &NEIGHBOURS {
            for (cell, sides) in table.iter().enumerate() {
                for (side, &n) in sides.iter().enumerate() {
                    if n != EDGE {
                        assert_eq!(table[n as usize][(side + 2) & 3], cell as u8);
                    }
                }
            }
        }
    }
}

//! How a game was won and what its last turn did, in notation coordinates for hosts: both
//! replayed from the state before the last turn, so that playing keeps no bookkeeping for them.

use alloc::vec::Vec;

use super::notation::Move;
use super::state::Trax;
use super::tile::{opposite, Colour, Tile};
use super::variant::Variant;

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

impl Trax {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Outcome};

    use crate::trax::state::replayed as play;

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

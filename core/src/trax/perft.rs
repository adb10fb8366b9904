//! Perft: counting the move sequences of a given length, on one growing grid.

use alloc::vec;
use alloc::vec::Vec;
use core::ops::ControlFlow;

use super::state::{Checkpoint, Trax, MARGIN, PERFT_HEADROOM};

impl Trax {
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
    pub(super) fn perft_from(&mut self, depth: u32) -> u64 {
        struct Frame {
            start: usize,
            next: usize,
            depth: u32,
            saved: Option<Checkpoint>,
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
        let _ = self.placements(|_| {
            *n += 1;
            ControlFlow::Continue(())
        });
    }
}

//! Perft: the move sequences of a round counted on bit masks, with the rules' fast path chosen
//! once outside the loops.

use super::board::{bits, FULL};
use super::position::{Position, RoundTable};
use super::resolve::{child, place_on_victims, victims};
use super::state::TripleTriad;

impl TripleTriad {
    /// Counts the move sequences of length `depth`, playing every move but the last.
    ///
    /// ```
    /// use arbiter_core::tripletriad::{TripleTriad, Setup};
    /// let g = TripleTriad::new(&Setup::random_ff8(5)).unwrap();
    /// assert_eq!(g.perft(3), 45 * 40 * 28);
    /// ```
    ///
    /// A round lasts one placement per empty cell, so a deeper `depth` counts 0 at once.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth > (!self.pos.occupied & FULL).count_ones() {
            return 0;
        }
        perft_pos(&self.table, &self.pos, depth)
    }
}

fn perft_pos(t: &RoundTable, pos: &Position, depth: u32) -> u64 {
    let mut seen = 0;
    let nodes = if t.basic_only {
        perft_generic::<true>(t, *pos, depth, &mut seen)
    } else {
        perft_generic::<false>(t, *pos, depth, &mut seen)
    };
    // The positions of the last ply played are folded into `seen`, kept here, so that their
    // resolution is done and not optimised away: perft measures it.
    core::hint::black_box(seen);
    nodes
}

/// Perft with the rules' fast path chosen once, outside the loops.
fn perft_generic<const BASIC: bool>(t: &RoundTable, pos: Position, depth: u32, seen: &mut u16) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    let empty = !pos.occupied & FULL;
    if depth == 1 {
        return (t.playable(&pos).count_ones() * empty.count_ones()) as u64;
    }
    if depth == 2 {
        return last_two::<BASIC>(t, pos, seen);
    }
    let mut nodes = 0;
    for_children::<BASIC>(t, pos, |next| {
        nodes += if depth == 3 {
            last_two::<BASIC>(t, next, seen)
        } else {
            perft_generic::<BASIC>(t, next, depth - 1, seen)
        }
    });
    nodes
}

/// Perft 2 of a position whose board is not full after any move: the moves are played, the
/// replies counted (captures never change their number, nor which cards may be played).
#[inline(always)]
fn last_two<const BASIC: bool>(t: &RoundTable, pos: Position, seen: &mut u16) -> u64 {
    let empty = !pos.occupied & FULL;
    // The replies' cards do not depend on the move: the same hand, as many empty cells.
    let cards = if t.forced {
        let after = Position {
            occupied: pos.occupied | (empty & empty.wrapping_neg()),
            to_move: pos.to_move.other(),
            ..pos
        };
        t.playable(&after)
    } else {
        pos.hand(pos.to_move.other())
    };
    let replies = (cards.count_ones() * (empty.count_ones() - 1)) as u64;
    let mut nodes = 0;
    for_children::<BASIC>(t, pos, |next| {
        *seen ^= next.blue;
        nodes += replies;
    });
    nodes
}

/// Every child of `pos`, cell by cell.
#[inline(always)]
fn for_children<const BASIC: bool>(t: &RoundTable, pos: Position, mut f: impl FnMut(Position)) {
    let hand = t.playable(&pos);
    for cell in bits(!pos.occupied & FULL) {
        // What the basic rule reads around the cell is the same for every card of the hand.
        let victims = if BASIC { victims(t, &pos, cell) } else { 0 };
        for card in bits(hand) {
            f(if BASIC {
                place_on_victims(t, pos, card, cell, victims)
            } else {
                child(t, pos, card, cell)
            });
        }
    }
}

//! The greedy player: the move that leaves it the most cards, the `greedy` level of
//! [`ai`](crate::tripletriad::ai) and the fallback of the searching levels when their budget runs out first.

use alloc::vec::Vec;

use crate::tripletriad::round::board::FULL;
use crate::tripletriad::round::position::Player;
use crate::tripletriad::round::state::{Move, TripleTriad};
use crate::{Game, Rng};

/// The move that leaves `me` the most cards, keeping strong cards and closing exposed sides on
/// ties; a tie that remains is broken by `rng`.
pub(super) fn greedy(state: &TripleTriad, me: Player, moves: &[Move], rng: &mut Rng) -> Move {
    let mut best: Vec<Move> = Vec::new();
    let mut best_key = (i64::MIN, i64::MIN);
    for &mv in moves {
        let mut next = state.clone();
        next.play_unchecked(mv);
        let score = next.score(me) as i64;
        let card = state.hand(me).nth(mv.card as usize).map_or(0, |c| c.rank_sum() as i64);
        // Fewer empty neighbours leave fewer ways to take the card back; weaker cards are spent first.
        let safety = -(open_sides(&next, mv.cell) as i64) * 4 - card;
        let key = (score, safety);
        if key > best_key {
            best_key = key;
            best.clear();
        }
        if key == best_key {
            best.push(mv);
        }
    }
    best[rng.below(best.len() as u64) as usize]
}

/// Empty cells next to `cell` (after the move).
fn open_sides(state: &TripleTriad, cell: u8) -> u32 {
    let empty = !state.pos.occupied & FULL;
    state.table.sides_of[cell as usize][empty as usize].count_ones()
}

//! A simple Trax opponent: it never misses a win in one turn and avoids handing one over.

use alloc::vec::Vec;

use super::notation::Move;
use super::state::Trax;
use crate::{Game, Outcome, Rng};

/// Chooses a move for the player to move: a winning move if there is one; otherwise a random move
/// after which the opponent has no winning reply, if any; otherwise any move.
///
/// ```
/// use arbiter_core::{Game, Rng};
/// use arbiter_core::trax::{ai, Trax, Variant};
/// let mut g = Trax::new(Variant::Unbounded);
/// for m in ["@0/", "B1\\"] { g.play(m.parse().unwrap()).unwrap(); }
/// // White to move can only lose by closing red's loop; the AI does not.
/// let mv = ai::choose(&g, &mut Rng::new(1)).unwrap();
/// g.play(mv).unwrap();
/// assert!(!g.is_over());
/// ```
pub fn choose(game: &Trax, rng: &mut Rng) -> Option<Move> {
    let me = game.to_move()?;
    let moves = game.legal_moves();
    let after = |mv: Move| {
        let mut g = game.clone();
        g.play(mv).ok().map(|_| g)
    };
    let wins_for = |g: &Trax, p| g.outcome() == Some(Outcome::Winner(p));
    let mut safe = Vec::new();
    for &mv in &moves {
        let Some(g) = after(mv) else { continue };
        if wins_for(&g, me) {
            return Some(mv);
        }
        if g.is_over() {
            continue; // a loss or a draw
        }
        let replies = g.legal_moves();
        let loses = replies.iter().any(|&r| {
            let mut h = g.clone();
            h.play(r).is_ok() && wins_for(&h, me.other())
        });
        if !loses {
            safe.push(mv);
        }
    }
    let pool = if safe.is_empty() { &moves } else { &safe };
    (!pool.is_empty()).then(|| pool[rng.below(pool.len() as u64) as usize])
}

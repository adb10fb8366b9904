//! The exact solver on several threads (with the `std` feature): the moves at the root are shared
//! out, each thread taking the next one not yet taken.

use std::sync::Mutex;
use std::vec::Vec;

use super::board::{bits, FULL};
use super::resolve::child;
use super::solve::{mtd, solution, Solution, Solver};
use super::state::{Position, Table, TripleTriad};
use crate::parallel::share;

/// The children of `pos`, one per move, in move order.
fn children(t: &Table, pos: &Position) -> Vec<(u8, u8, Position)> {
    let mut out = Vec::new();
    for card in bits(pos.hand(pos.to_move)) {
        for cell in bits(!pos.occupied & FULL) {
            out.push((card, cell, child(t, *pos, card, cell)));
        }
    }
    out
}

/// [`Solver::solve`] on `threads` threads, each with a solver of `table_bits` (see
/// [`Solver::new`]): every zero-window search of the root shares out the moves at the root, and
/// the best value found so far narrows the windows of the moves taken after it.
/// `progress(done, total)` counts the moves at the root searched in the current search.
///
/// The value is exact as with one thread; among equally good moves, which one is returned may
/// depend on the threads' timing.
///
/// ```
/// use arbiter_core::tripletriad::{solve, solve_threads, Rules, Setup, TripleTriad};
/// let rules = Rules { same: true, plus: true, combo: true, ..Rules::default() };
/// let mut g = TripleTriad::new(&Setup::random_ff8(3).with_rules(rules)).unwrap();
/// use arbiter_core::Game;
/// for mv in ["0@4", "0@0", "0@8"] {
///     g.play(mv.parse().unwrap()).unwrap();
/// }
/// let s = solve_threads(&g, 2, 15, &|_, _| {});
/// assert_eq!(s.value, solve(&g).value);
/// ```
pub fn solve_threads(
    game: &TripleTriad,
    threads: usize,
    table_bits: u32,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Solution {
    let (t, pos) = (&*game.table, game.pos);
    let mut solvers: Vec<Solver> = (0..threads.max(1)).map(|_| Solver::new(table_bits)).collect();
    solvers.iter_mut().for_each(Solver::start);
    // Identical cards in one hand play alike: the first of them stands for all. The greatest
    // immediate score first, as in the search.
    let hand = pos.hand(pos.to_move);
    let mut kids = children(t, &pos);
    kids.retain(|k| hand & t.twins[k.0 as usize] == 0);
    kids.sort_by_key(|k| (core::cmp::Reverse(k.2.score(pos.to_move)), k.0, k.1));
    let (value, best) = mtd(&pos, |alpha, beta| {
        let best = Mutex::new((-128i8, None));
        share(kids.len(), &mut solvers, progress, |solver, i| {
            let floor = best.lock().expect("no thread panics").0;
            if floor >= beta {
                return; // the root already fails high
            }
            let (card, cell, next) = &kids[i];
            let v = -solver.search(t, next, -beta, -alpha.max(floor)).0;
            let mut b = best.lock().expect("no thread panics");
            if v > b.0 {
                *b = (v, Some((*card, *cell)));
            }
        });
        best.into_inner().expect("no thread panics")
    });
    solution(&pos, value, best, solvers.iter().map(Solver::nodes).sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::testing::random_position;
    use crate::{Game, Rng};

    /// Shared out among one to three threads, solver values are those of one thread, and the
    /// best move reaches the value.
    #[test]
    fn threads_agree_with_one_thread() {
        let mut rng = Rng::new(3);
        for round in 0..60 {
            let empty = 3 + rng.below(4) as u32;
            let g = random_position(&mut rng, empty as usize);
            let threads = 1 + round % 3;
            let want = Solver::new(10).solve(&g).value;
            let got = solve_threads(&g, threads, 10, &|_, _| {});
            assert_eq!(got.value, want, "round {round}");
            let mut after = g.clone();
            after.play(got.best_move.unwrap()).unwrap();
            assert_eq!(-Solver::new(10).solve(&after).value, want, "round {round}");
        }
    }
}

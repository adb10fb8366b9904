//! Work shared out over several threads (with the `std` feature): perft for any game, and the
//! loop that the Triple Triad solver's threads run too.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::vec::Vec;

use crate::engine::Engine;

/// Runs `work(state, i)` for every `i` in `0..n` on one thread per `states` entry, each thread
/// taking the next `i` not yet taken with its own state; `progress(done, n)` after each.
pub(crate) fn share<S: Send>(
    n: usize,
    states: &mut [S],
    progress: &(dyn Fn(usize, usize) + Sync),
    work: impl Fn(&mut S, usize) + Sync,
) {
    let (next, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let run = |state: &mut S| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            break;
        }
        work(state, i);
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, n);
    };
    // The calling thread works too: one thread fewer to start and wait for.
    let Some((own, others)) = states.split_first_mut() else {
        return;
    };
    std::thread::scope(|scope| {
        for state in others {
            scope.spawn(|| run(state));
        }
        run(own);
    });
}

/// Subtrees per thread to aim for: the first moves of a game are few (Trax has two) and their
/// subtrees differ in size, so the threads share many smaller ones to finish together.
const TASKS_PER_THREAD: usize = 32;

/// [`Engine::perft`] on `threads` threads (at least one), with the same count: the tree is split
/// into the subtrees after the first few moves, which the threads take one at a time, each
/// counted by the game's own fast perft. `progress(done, total)` counts the subtrees done.
///
/// ```
/// use arbiter_core::{perft_threads, Engine};
/// use arbiter_core::trax::{Trax, Variant};
/// let g = Trax::new(Variant::Unbounded);
/// assert_eq!(perft_threads(&g, 4, 2, &|_, _| {}), Engine::perft(&g, 4));
/// ```
pub fn perft_threads<G: Engine + Send + Sync>(
    game: &G,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> u64 {
    let threads = threads.max(1);
    let (tasks, plies) = split(game, depth, threads * TASKS_PER_THREAD);
    if plies == depth {
        return tasks.len() as u64;
    }
    let nodes = AtomicU64::new(0);
    let mut workers = std::vec![(); threads.min(tasks.len())];
    share(tasks.len(), &mut workers, progress, |_, i| {
        nodes.fetch_add(tasks[i].perft(depth - plies), Ordering::Relaxed);
    });
    nodes.into_inner()
}

/// The states after every sequence of the first few moves (as few as give at least `want`
/// states, and fewer than `depth`) and how many moves that is. A game that ends on the way is
/// dropped: its sequence has no continuation.
fn split<G: Engine>(game: &G, depth: u32, want: usize) -> (Vec<G>, u32) {
    let mut level = std::vec![game.clone()];
    let mut plies = 0;
    while plies + 1 < depth && level.len() < want {
        level = level
            .iter()
            .flat_map(|g| {
                g.legal_moves()
                    .iter()
                    .map(|&mv| {
                        let mut next = g.clone();
                        next.play_unchecked(mv);
                        next
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|g| !g.is_over())
            .collect();
        plies += 1;
    }
    (level, plies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trax::{Trax, Variant};
    use crate::tripletriad::testing::random_position;
    use crate::Rng;

    #[test]
    fn threads_count_as_one_thread_does() {
        let g = Trax::new(Variant::Unbounded);
        for depth in 0..=5 {
            for threads in [1, 2, 3] {
                assert_eq!(
                    perft_threads(&g, depth, threads, &|_, _| {}),
                    g.perft(depth),
                    "{depth} {threads}"
                );
            }
        }
        let moves: std::vec::Vec<_> = ["@0/", "B1\\"].iter().map(|m| m.parse().unwrap()).collect();
        let g = Trax::replay(Variant::EightByEight, &moves).unwrap();
        assert_eq!(perft_threads(&g, 3, 2, &|_, _| {}), g.perft(3));
        let mut rng = Rng::new(3);
        for round in 0..40 {
            let empty = 3 + rng.below(4) as u32;
            let tt = random_position(&mut rng, empty as usize);
            for depth in 0..=empty + 1 {
                let threads = 1 + round % 3;
                assert_eq!(
                    perft_threads(&tt, depth, threads, &|_, _| {}),
                    tt.perft(depth),
                    "round {round}"
                );
            }
        }
    }
}

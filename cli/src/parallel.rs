//! Perft over several threads for any game: the tree is split into subtrees a few moves deep,
//! which the threads take one at a time from a shared counter, each with the game's own perft.

use arbiter_core::Engine;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Subtrees per thread to aim for: the first moves of a game are few (Trax has two) and their
/// subtrees differ in size, so the threads share many smaller ones to finish together.
const TASKS_PER_THREAD: usize = 32;

/// Counts the move sequences of `depth` moves from `game` on `threads` threads (at least one),
/// with the same count as `game.perft(depth)`. With `progress`, and on a terminal, the subtrees
/// done show on standard error once the count takes longer than a second.
pub fn perft_threads<G: Engine + Send + Sync>(game: &G, depth: u32, threads: usize, progress: bool) -> u64 {
    let threads = threads.max(1);
    let (tasks, plies) = split(game, depth, threads * TASKS_PER_THREAD);
    if plies == depth {
        return tasks.len() as u64;
    }
    let next = AtomicUsize::new(0);
    let nodes = AtomicU64::new(0);
    let done = AtomicUsize::new(0);
    let shown = Mutex::new(false);
    let start = Instant::now();
    let show = progress && std::io::stderr().is_terminal();
    std::thread::scope(|s| {
        for _ in 0..threads.min(tasks.len()) {
            s.spawn(|| {
                while let Some(t) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) {
                    nodes.fetch_add(t.perft(depth - plies), Ordering::Relaxed);
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if show && start.elapsed() > Duration::from_secs(1) {
                        let mut any = shown.lock().unwrap_or_else(|e| e.into_inner());
                        *any = true;
                        eprint!("\rperft {depth}: {finished}/{} subtrees", tasks.len());
                        let _ = std::io::stderr().flush();
                    }
                }
            });
        }
    });
    if *shown.lock().unwrap_or_else(|e| e.into_inner()) {
        eprintln!();
    }
    nodes.into_inner()
}

/// `arbiter perft`: counts on `threads` threads (default: every core) and prints nodes, time and
/// speed; with `speedup`, counts again on one thread and prints how much faster the threads were.
pub fn run_perft<G: Engine + Send + Sync>(game: &G, depth: u32, threads: Option<usize>, speedup: bool) {
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let t = Instant::now();
    let nodes = perft_threads(game, depth, threads, true);
    let secs = t.elapsed().as_secs_f64();
    crate::report_perft(depth, nodes, secs);
    println!("threads: {threads}");
    if speedup {
        let t = Instant::now();
        let one = perft_threads(game, depth, 1, true);
        let one_secs = t.elapsed().as_secs_f64();
        assert_eq!(one, nodes, "perft counts differ between thread counts");
        println!("one thread: {one_secs:.3} s; speed-up {:.2}x", one_secs / secs);
    }
}

/// The states after every sequence of the first few moves (as few as give at least `want`
/// states, and fewer than `depth`) and how many moves that is. A game that ends on the way is
/// dropped: its sequence has no continuation.
fn split<G: Engine>(game: &G, depth: u32, want: usize) -> (Vec<G>, u32) {
    let mut level = vec![game.clone()];
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
    use arbiter_core::trax::{Trax, Variant};
    use arbiter_core::tripletriad::{Setup, TripleTriad};

    #[test]
    fn counts_as_one_thread_does() {
        let g = Trax::new(Variant::Unbounded);
        for depth in 0..=5 {
            for threads in [1, 2, 3] {
                assert_eq!(
                    perft_threads(&g, depth, threads, false),
                    g.perft(depth),
                    "{depth} {threads}"
                );
            }
        }
        let moves: Vec<_> = ["@0/", "B1\\"].iter().map(|m| m.parse().unwrap()).collect();
        let g = Trax::replay(Variant::EightByEight, &moves).unwrap();
        assert_eq!(perft_threads(&g, 3, 2, false), g.perft(3));
        let tt = TripleTriad::new(&Setup::random_ff8(3)).unwrap();
        assert_eq!(perft_threads(&tt, 3, 2, false), tt.perft(3));
    }
}

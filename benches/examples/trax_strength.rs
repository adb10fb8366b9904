//! Two Trax levels play each other, seats swapped every game:
//! `cargo run --release -p arbiter-benches --example trax_strength -- GAMES VARIANT A B [THREADS]`
//! (e.g. `200 8x8 expert easy`). Prints A's wins, draws and losses with a 95 % confidence
//! interval of A's winning rate (Wilson), and each level's average time, nodes and search depth
//! per move (wall time: on a loaded machine, divide the process's CPU time by the moves instead).
//! Game `i` is seeded with `i`, so the same arguments play the same games.

use arbiter_core::trax::ai::{self, Level};
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::{Game, Outcome, Rng};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A game longer than this many turns counts as a draw (unbounded games need not end).
const MAX_TURNS: usize = 400;

#[derive(Default, Clone, Copy)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    /// Per level (A, B): moves, seconds, nodes and depth (completed iterations) spent on them.
    moves: [u64; 2],
    secs: [f64; 2],
    nodes: [u64; 2],
    depth: [u64; 2],
}

/// Plays game `i`: A is white in even games. Returns A's result and what each side spent.
fn play(i: usize, variant: Variant, levels: [Level; 2], t: &mut Tally) {
    let mut g = Trax::new(variant);
    let mut rng = Rng::new(i as u64);
    let a_colour = if i.is_multiple_of(2) {
        g.next_player()
    } else {
        g.next_player().other()
    };
    let mut turns = 0;
    while let Some(p) = g.to_move() {
        if turns == MAX_TURNS {
            break;
        }
        let side = usize::from(p != a_colour);
        let start = Instant::now();
        let mv = match levels[side].limits() {
            Some(limits) => ai::search(&g, limits, &mut rng, &mut || false).map(|r| {
                t.nodes[side] += r.nodes;
                t.depth[side] += u64::from(r.depth);
                r.mv
            }),
            None => ai::choose_at(&g, levels[side], &mut rng, arbiter_core::Budget::default()),
        };
        t.secs[side] += start.elapsed().as_secs_f64();
        t.moves[side] += 1;
        let Some(mv) = mv else { break };
        g.play(mv).expect("the players choose legal moves");
        turns += 1;
    }
    match g.outcome() {
        Some(Outcome::Winner(w)) if w == a_colour => t.wins += 1,
        Some(Outcome::Winner(_)) => t.losses += 1,
        _ => t.draws += 1,
    }
}

/// The Wilson score interval (95 %) of `k` successes in `n` trials.
fn wilson(k: u32, n: u32) -> (f64, f64) {
    let (k, n, z) = (f64::from(k), f64::from(n), 1.96f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    let games: usize = arg(0, "20").parse().expect("GAMES is a number");
    let variant: Variant = arg(1, "8x8").parse().expect("VARIANT");
    let levels: [Level; 2] = [
        arg(2, "expert").parse().expect("level A"),
        arg(3, "easy").parse().expect("level B"),
    ];
    let threads: usize = arg(4, "1").parse().expect("THREADS is a number");
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Tally::default());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut t = Tally::default();
                while let Some(i) = Some(next.fetch_add(1, Ordering::Relaxed)).filter(|&i| i < games) {
                    play(i, variant, levels, &mut t);
                }
                let mut all = total.lock().expect("no thread panics holding it");
                all.wins += t.wins;
                all.draws += t.draws;
                all.losses += t.losses;
                for k in 0..2 {
                    all.moves[k] += t.moves[k];
                    all.secs[k] += t.secs[k];
                    all.nodes[k] += t.nodes[k];
                    all.depth[k] += t.depth[k];
                }
            });
        }
    });
    let t = total.into_inner().expect("no thread panics holding it");
    let n = t.wins + t.draws + t.losses;
    let (lo, hi) = wilson(t.wins, n);
    println!(
        "trax {variant}: {} vs {} over {n} games (seats swapped): {} wins, {} draws, {} losses; win rate {:.1} % (95 % CI {:.1}-{:.1} %)",
        levels[0],
        levels[1],
        t.wins,
        t.draws,
        t.losses,
        100.0 * f64::from(t.wins) / f64::from(n),
        100.0 * lo,
        100.0 * hi
    );
    for (k, level) in levels.iter().enumerate() {
        let moves = t.moves[k].max(1) as f64;
        println!(
            "  {level}: {} moves, {:.2} ms/move, {:.0} nodes/move, depth {:.1}",
            t.moves[k],
            1000.0 * t.secs[k] / moves,
            t.nodes[k] as f64 / moves,
            t.depth[k] as f64 / moves
        );
    }
}

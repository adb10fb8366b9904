//! Side-by-side speed figures for Triple Triad, in one process:
//! `cargo run --release -p arbiter-benches --example tt_speed -- perft 9` (full opening tree, basic
//! rules), `... -- perft-captures 9` (the same under Same+Plus+Combo+Elemental, elements on some
//! cells), `... -- solve 20` (median exact solve of 20 seeded FF8 hand pairs, Same+Plus+Combo) and
//! `... -- game 20` (every position of those 20 games played perfectly, one solver per round
//! against a new one per position), `... -- deal 100000` (a random FF8 deal, `Setup::random_ff8`,
//! and a preset's first round, `TripleTriad::from_preset`: what a reset costs, in µs).

use arbiter_benches::{report_perft, tt_capture_position, tt_solve_position};
use arbiter_core::tripletriad::{solve_threads, Setup, Solver, TripleTriad};
use arbiter_core::Game;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    match args.get(1).map(String::as_str) {
        Some("perft") => {
            let depth = if n == 0 { 9 } else { n as u32 };
            let g = TripleTriad::new(&Setup::random_ff8(1)).unwrap();
            report_perft(&format!("perft {depth}"), || g.perft(depth));
        }
        Some("perft-captures") => {
            let depth = if n == 0 { 9 } else { n as u32 };
            let g = tt_capture_position();
            report_perft(&format!("perft {depth} with captures"), || g.perft(depth));
        }
        Some("solve") => {
            let pairs = if n == 0 { 20 } else { n };
            // `solve PAIRS THREADS`: through `solve_threads` instead of one reused solver.
            let threads: Option<usize> = args.get(3).map(|s| s.parse().expect("a thread count"));
            let mut solver = Solver::default();
            let mut times = Vec::new();
            for seed in 0..pairs {
                let g = tt_solve_position(seed);
                let t = Instant::now();
                let s = match threads {
                    Some(n) => solve_threads(&g, n, Solver::DEFAULT_TABLE_BITS, &|_, _| {}),
                    None => solver.solve(&g),
                };
                let ms = t.elapsed().as_secs_f64() * 1e3;
                println!(
                    "seed {seed}: value {:+} best {} nodes {} in {ms:.2} ms",
                    s.value,
                    s.best_move.unwrap(),
                    s.nodes
                );
                times.push(ms);
            }
            times.sort_by(f64::total_cmp);
            let mid = times.len() / 2;
            let median = if times.len() % 2 == 0 {
                (times[mid - 1] + times[mid]) / 2.0
            } else {
                times[mid]
            };
            println!("median {median:.2} ms over {pairs} hand pairs");
        }
        Some("game") => {
            // What a perfect player solves in a round: every position of the perfectly played
            // game, with one solver kept through the round or a new one for each position.
            let pairs = if n == 0 { 20 } else { n };
            for keep in [true, false] {
                let t = Instant::now();
                let mut kept = Solver::default();
                for seed in 0..pairs {
                    let mut g = tt_solve_position(seed);
                    while !g.is_over() {
                        let s = if keep {
                            kept.solve(&g)
                        } else {
                            Solver::default().solve(&g)
                        };
                        g.play(s.best_move.unwrap()).unwrap();
                    }
                }
                let label = if keep {
                    "one solver per round"
                } else {
                    "a new solver per position"
                };
                println!("{label}: {:.1} ms for {pairs} games", t.elapsed().as_secs_f64() * 1e3);
            }
        }
        Some("deal") => {
            let deals = if n == 0 { 100_000 } else { n };
            let t = Instant::now();
            for seed in 0..deals {
                std::hint::black_box(Setup::random_ff8(seed));
            }
            let setup = t.elapsed().as_secs_f64() * 1e6 / deals as f64;
            let t = Instant::now();
            for seed in 0..deals {
                std::hint::black_box(TripleTriad::from_preset("ff8", seed).unwrap());
            }
            let preset = t.elapsed().as_secs_f64() * 1e6 / deals as f64;
            println!("Setup::random_ff8 {setup:.2} µs, TripleTriad::from_preset(\"ff8\") {preset:.2} µs a deal");
        }
        _ => {
            eprintln!(
                "usage: tt_speed perft [DEPTH] | perft-captures [DEPTH] | solve [PAIRS [THREADS]] | game [PAIRS] | deal [DEALS]"
            )
        }
    }
}

//! Random playouts in Rust, the yardstick of the C library's benchmark (`ffi/c/examples/bench.c`):
//! `cargo run --release -p arbiter-benches --example playouts -- triple-triad|trax|nantong N`.
//!
//! Playout `i` starts from seed `i` (Triple Triad: the ff8 preset's first round; Trax: an empty
//! 8x8 board; Nantong: the deal of seed `i`) and plays uniformly random legal moves drawn from
//! `Rng::new(i)`: the same games as the C benchmark, which prints the same action count.

use arbiter_core::nantong::Nantong;
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::TripleTriad;
use arbiter_core::{Engine, Rng};
use std::time::Instant;

// Picks among the ids in ascending order, as the C library lists them, so that both run the same games.
fn playout<G: Engine>(mut g: G, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut actions = 0;
    loop {
        let ids = g.legal_actions();
        if ids.is_empty() {
            return actions;
        }
        let mv = g
            .action_move(ids[rng.below(ids.len() as u64) as usize])
            .expect("a legal id");
        g.play(mv).expect("a legal move");
        actions += 1;
    }
}

fn main() {
    let game = std::env::args().nth(1).unwrap_or_default();
    let n: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let start = Instant::now();
    let actions: u64 = (0..n)
        .map(|i| match game.as_str() {
            "triple-triad" => playout(TripleTriad::from_preset("ff8", i).expect("a preset"), i),
            "trax" => playout(Trax::new(Variant::EightByEight), i),
            "nantong" => playout(Nantong::new(i), i),
            _ => {
                eprintln!("usage: playouts triple-triad|trax|nantong N");
                std::process::exit(2)
            }
        })
        .sum();
    let s = start.elapsed().as_secs_f64();
    println!(
        "{game}: {n} playouts, {actions} actions in {s:.3} s ({:.0} ns per action)",
        s * 1e9 / actions.max(1) as f64
    );
}

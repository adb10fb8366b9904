//! Trax perft speed from the empty board: `cargo run --release -p arbiter-benches --example trax_speed -- 7`.

use arbiter_core::trax::{Trax, Variant};
use std::time::Instant;

fn main() {
    let depth: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(6);
    let variant: Variant = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or_default();
    let g = Trax::new(variant);
    let t = Instant::now();
    let nodes = g.perft(depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "trax {variant} perft {depth}: {nodes} in {s:.3} s = {:.1}M moves/s",
        nodes as f64 / s / 1e6
    );
}

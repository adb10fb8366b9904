//! Trax perft speed from the empty board: `cargo run --release -p arbiter-benches --example trax_speed -- 7`.

use arbiter_benches::report_perft;
use arbiter_core::trax::{Trax, Variant};

fn main() {
    let depth: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(6);
    let variant: Variant = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or_default();
    let g = Trax::new(variant);
    report_perft(&format!("trax {variant} perft {depth}"), || g.perft(depth));
}

//! Nantong speed in one process: win checks and best-partition scorings on the benchmark's
//! 23-card hands. `cargo run --release -p arbiter-benches --example nantong_speed`.

use arbiter_benches::{nantong_hands, nantong_indicators, nantong_wins};
use arbiter_core::nantong::{is_winning, score_deal, winner_total};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let n = 200_000;
    let hands = nantong_hands(n);
    let t = Instant::now();
    let wins = hands.iter().filter(|h| is_winning(black_box(h), 0)).count();
    let s = t.elapsed().as_secs_f64();
    println!(
        "win checks: {n} in {s:.3} s = {:.2}M/s ({wins} winning)",
        n as f64 / s / 1e6
    );

    // The wording: random 23-card hands, i.e. only the dealt half (they rarely win).
    let dealt: Vec<_> = hands.iter().step_by(2).collect();
    let t = Instant::now();
    let wins = dealt.iter().filter(|h| is_winning(black_box(h), 0)).count();
    let s = t.elapsed().as_secs_f64();
    println!(
        "win checks, dealt hands only: {} in {s:.3} s = {:.2}M/s ({wins} winning)",
        dealt.len(),
        dealt.len() as f64 / s / 1e6
    );

    let ind = nantong_indicators();
    let deals = nantong_wins(&hands);
    let t = Instant::now();
    let total: u64 = deals
        .iter()
        .map(|(p, w)| winner_total(ind, black_box(&p[0]), w).unwrap() as u64)
        .sum();
    let s = t.elapsed().as_secs_f64();
    println!(
        "winner totals (best partition, no breakdown): {} in {s:.3} s = {:.2}M/s",
        deals.len(),
        deals.len() as f64 / s / 1e6
    );
    let t = Instant::now();
    let check: u64 = deals
        .iter()
        .map(|(p, w)| score_deal(ind, black_box(p), Some(w)).unwrap().totals[0] as u64)
        .sum();
    let s = t.elapsed().as_secs_f64();
    assert_eq!(check, total);
    println!(
        "deal scores with breakdowns: {} in {s:.3} s = {:.2}M/s",
        deals.len(),
        deals.len() as f64 / s / 1e6
    );
}

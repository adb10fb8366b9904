//! Nantong speed in one process: win checks and best-partition scorings on the benchmark's
//! 23-card hands. `cargo run --release -p arbiter-benches --example nantong_speed -- [ROUNDS] [PART]`:
//! each part runs ROUNDS times (default 1), so that with a large ROUNDS the whole process's time is
//! the measured work's; PART (`win`, `dealt`, `total` or `deal`) runs that part alone.

use arbiter_benches::{nantong_hands, nantong_indicators, nantong_wins};
use arbiter_core::nantong::{is_winning, score_deal, winner_total, Seat};
use std::hint::black_box;
use std::time::Instant;

/// Runs `work` `rounds` times and prints the rate of `items` per round.
fn timed(label: &str, rounds: usize, items: usize, mut work: impl FnMut() -> u64) -> u64 {
    let t = Instant::now();
    let mut out = 0;
    for _ in 0..rounds {
        out = black_box(work());
    }
    let s = t.elapsed().as_secs_f64();
    let n = items * rounds;
    println!("{label}: {n} in {s:.3} s = {:.2}M/s ({out})", n as f64 / s / 1e6);
    out
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let part = std::env::args().nth(2);
    let runs = |p: &str| part.as_deref().is_none_or(|x| x == p);
    let n = 200_000;
    let hands = nantong_hands(n);
    if runs("win") {
        timed("win checks (winning)", rounds, n, || {
            hands.iter().filter(|h| is_winning(black_box(h), 0)).count() as u64
        });
    }
    // The wording: random 23-card hands, i.e. only the dealt half (they rarely win).
    let dealt: Vec<_> = hands.iter().step_by(2).collect();
    if runs("dealt") {
        timed("win checks, dealt hands only (winning)", rounds, dealt.len(), || {
            dealt.iter().filter(|h| is_winning(black_box(h), 0)).count() as u64
        });
    }
    let ind = nantong_indicators();
    let deals = nantong_wins(&hands);
    let mut total = None;
    if runs("total") {
        total = Some(timed(
            "winner totals (best partition, no breakdown; sum)",
            rounds,
            deals.len(),
            || {
                deals
                    .iter()
                    .map(|(p, w)| winner_total(ind, black_box(&p[0]), w).unwrap() as u64)
                    .sum()
            },
        ));
    }
    if runs("deal") {
        let check = timed("deal scores with breakdowns (sum)", rounds, deals.len(), || {
            deals
                .iter()
                .map(|(p, w)| score_deal(ind, Seat::ALL[0], black_box(p), Some(w)).unwrap().totals[0] as u64)
                .sum()
        });
        assert!(total.is_none_or(|t| t == check));
    }
}

//! How a Nantong player does against two copies of another, in points of settlement per deal.
//!
//! `cargo run --release -p arbiter-benches --example nantong_strength -- [DEALS] [PLAYER] [OPPONENT] [SEED]`
//! (defaults 3000, `strong`, `basic`, 1): each deal's deck and dealer, drawn from SEED and the
//! deal's number, is played three times, PLAYER in each seat in turn and OPPONENT in the other
//! two. The mean is over all those games; its 95 % interval is over deals (a deal's three games
//! averaged, as they share cards), by the normal approximation. Two threads share the deals.

use arbiter_core::nantong::Nantong;
use arbiter_core::{Engine, Game, Rng};
use std::time::Instant;

/// One deal's three games: PLAYER's settlement in each, and who won each (`None`: exhausted).
struct Deal {
    points: [i64; 3],
    winners: [Option<bool>; 3],
}

fn play(deal: &Nantong, seat: usize, player: &str, opponent: &str, seed: u64) -> (i64, Option<bool>) {
    let mut g = deal.clone();
    let mut rngs = [0, 1, 2].map(|s| Rng::new(seed ^ (s as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
    while let Some(to_move) = g.to_move() {
        let level = if to_move.index() == seat { player } else { opponent };
        let action = g
            .choose(level, &mut rngs[to_move.index()])
            .expect("a level")
            .expect("an action");
        g.play(action).expect("a listed action");
    }
    let score = g.score().expect("a finished deal");
    (score.settlement[seat], g.win().map(|w| w.seat.index() == seat))
}

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let deals: u64 = arg(1).and_then(|s| s.parse().ok()).unwrap_or(3000);
    let player = arg(2).unwrap_or_else(|| "strong".into());
    let opponent = arg(3).unwrap_or_else(|| "basic".into());
    let seed: u64 = arg(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    for level in [&player, &opponent] {
        assert!(
            Nantong::LEVELS.contains(&level.as_str()),
            "unknown level {level}: {:?}",
            Nantong::LEVELS
        );
    }
    let start = Instant::now();
    let run = |first: u64| -> Vec<(u64, Deal)> {
        (first..deals)
            .step_by(2)
            .map(|d| {
                let deal = Nantong::new(seed.wrapping_mul(1_000_003).wrapping_add(d));
                let games = [0, 1, 2].map(|s| play(&deal, s, &player, &opponent, seed ^ d << 2 ^ s as u64));
                let deal = Deal {
                    points: games.map(|g| g.0),
                    winners: games.map(|g| g.1),
                };
                (d, deal)
            })
            .collect()
    };
    let mut results = std::thread::scope(|s| {
        let other = s.spawn(|| run(1));
        let mut mine = run(0);
        mine.extend(other.join().expect("a thread"));
        mine
    });
    results.sort_by_key(|r| r.0);
    let per_deal: Vec<f64> = results
        .iter()
        .map(|(_, d)| d.points.iter().sum::<i64>() as f64 / 3.0)
        .collect();
    let n = per_deal.len() as f64;
    let mean = per_deal.iter().sum::<f64>() / n;
    let var = per_deal.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    let games = 3.0 * n;
    let count = |f: fn(Option<bool>) -> bool| {
        results.iter().flat_map(|(_, d)| d.winners).filter(|&w| f(w)).count() as f64 / games * 100.0
    };
    println!(
        "{player} against two {opponent}: {deals} deals x 3 seats = {games} games in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    println!(
        "mean settlement per game {mean:+.2} points, 95% interval [{:+.2}, {:+.2}] (over {deals} deals)",
        mean - half,
        mean + half
    );
    println!(
        "{player} won {:.1}% of games, the two {opponent} {:.1}%, exhausted {:.1}%",
        count(|w| w == Some(true)),
        count(|w| w == Some(false)),
        count(|w| w.is_none())
    );
}

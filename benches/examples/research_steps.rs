//! The research loop in pure Rust, the baseline of the Python package's figures
//! (`python/bench/steps.py`): a step is a random legal action, play, then the observation
//! tensor of the player to move and the legal action mask; a finished game starts again. It is
//! the loop `arbiter.*Batch.step` runs per game, measured on one thread and on two.
//!
//! `cargo run --release -p arbiter-benches --example research_steps [GAMES_PER_THREAD] [SECONDS]`

use std::time::{Duration, Instant};

use arbiter_core::nantong::Nantong;
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::TripleTriad;
use arbiter_core::{Engine, Rng};

/// Steps `games` games round-robin for `time`, each restarted by `fresh` when over; the steps
/// made and a checksum that keeps the tensors and masks from being optimised away.
fn run<G: Engine>(fresh: &(impl Fn(u64) -> G + Sync), games: usize, seed: u64, time: Duration) -> (u64, f64) {
    let mut rng = Rng::new(seed);
    let mut episodes = 0;
    let mut pool: Vec<G> = (0..games)
        .map(|_| {
            episodes += 1;
            fresh(seed ^ episodes)
        })
        .collect();
    let (mut steps, mut sum) = (0u64, 0.0f64);
    let start = Instant::now();
    while start.elapsed() < time {
        for g in &mut pool {
            let legal = g.legal_actions();
            let id = legal[rng.below(legal.len() as u64) as usize];
            let mv = g.action_move(id).expect("a legal id names a move");
            g.play(mv).map_err(Into::into).expect("legal");
            if g.is_over() {
                episodes += 1;
                *g = fresh(seed ^ episodes);
            }
            let p = g.to_move().expect("a fresh or unfinished game has a player to move");
            let tensor = g.observation_tensor(p);
            let mask = g.legal_action_mask();
            sum += f64::from(tensor[0]) + mask.iter().filter(|&&m| m).count() as f64;
            steps += 1;
        }
    }
    (steps, sum)
}

/// CPU seconds used so far by this process (user + system), from `/proc/self/stat`: on a
/// machine that others load, steps per CPU second compare the bindings where wall time cannot.
/// Zero where there is no procfs.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which may hold spaces) in parentheses; utime and stime are
    // the 14th and 15th fields, in clock ticks of 1/100 s.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

fn measure<G: Engine>(name: &str, fresh: impl Fn(u64) -> G + Sync, games: usize, time: Duration) {
    let cpu = cpu_seconds();
    let (steps, sum) = run(&fresh, games, 1, time);
    let per_cpu = steps as f64 / (cpu_seconds() - cpu).max(f64::MIN_POSITIVE);
    let one = steps as f64 / time.as_secs_f64();
    let two: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|t| {
                s.spawn({
                    let fresh = &fresh;
                    move || run(fresh, games, 2 + t, time)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread").0).sum()
    });
    let two = two as f64 / time.as_secs_f64();
    println!(
        "{name:<14} 1 thread {one:>9.0} steps/s ({per_cpu:>9.0} per CPU s)   2 threads {two:>9.0} steps/s   (checksum {sum:.0})"
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let secs: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2.0);
    let time = Duration::from_secs_f64(secs);
    println!("pure Rust, {games} games per thread, {secs} s each");
    measure(
        "triple-triad",
        |s| TripleTriad::from_preset("ff8", s).expect("preset"),
        games,
        time,
    );
    measure("trax 8x8", |_| Trax::new(Variant::EightByEight), games, time);
    measure("nantong", Nantong::new, games, time);
}

//! The research loop in pure Rust, the baseline of the Python package's figures
//! (`python/bench/steps.py`): a step is a random legal action, play, then the observation
//! tensor of the player to move and the legal action mask; a finished game starts again. It is
//! the loop `arbiter.*Batch.step` runs per game, measured on one thread and on two.
//!
//! `cargo run --release -p arbiter-benches --example research_steps [GAMES_PER_THREAD] [SECONDS]`;
//! `... -- count GAME STEPS [GAMES]` makes exactly STEPS steps on one thread (for callgrind);
//! `... -- resets GAME RESETS [GAMES]` restarts games RESETS times as a batch's `reset` does (a
//! new deal over the old game, then its tensor and mask), the other side of a reset against a step;
//! `... -- rate GAME THREADS [GAMES [SECONDS]]` prints one game's steps per second and per CPU
//! second on THREADS threads (what `python/bench/steps.py --rust` runs beside its own loops);
//! `... -- lockstep GAME THREADS [GAMES [SECONDS]]` steps per second in the rhythm of a batch
//! stepped from Python, with no Python: one thread draws all the actions, then all step;
//! `... -- digest GAME STEPS [GAMES]` prints a hash of every tensor, mask and return of STEPS
//! steps: two builds that print the same digest observed the same games byte for byte (the
//! check that a speed-up changed no observation).

use std::time::{Duration, Instant};

use arbiter_core::nantong::Nantong;
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::{Dealer, TripleTriad};
use arbiter_core::{Engine, Rng};

/// One game of the loop with the buffers it writes, as a batch keeps them per game.
struct Slot<G> {
    game: G,
    legal: Vec<usize>,
    tensor: Vec<f32>,
    mask: Vec<bool>,
}

impl<G: Engine> Slot<G> {
    fn new(game: G) -> Slot<G> {
        let mut slot = Slot {
            tensor: vec![0.0; game.tensor_len()],
            mask: vec![false; game.num_distinct_actions()],
            legal: Vec::new(),
            game,
        };
        slot.observe();
        slot
    }

    /// The legal ids, the mask and the tensor of the player to move: what `step` writes.
    fn observe(&mut self) {
        self.game.legal_actions_into(&mut self.legal);
        self.mask.fill(false);
        for &id in &self.legal {
            self.mask[id] = true;
        }
        let p = self
            .game
            .to_move()
            .expect("a fresh or unfinished game has a player to move");
        self.game.observation_tensor_into(p, &mut self.tensor);
    }
}

/// How the loop starts games: a new one from a seed, and one over a finished game (Triple
/// Triad's dealer refills the round's table and Trax empties its board in place, as the
/// batches do).
trait Fresh<G>: Sync {
    fn fresh(&self, seed: u64) -> G;
    fn redeal(&self, seed: u64, game: &mut G) {
        *game = self.fresh(seed);
    }
}

struct New<F>(F);

impl<G, F: Fn(u64) -> G + Sync> Fresh<G> for New<F> {
    fn fresh(&self, seed: u64) -> G {
        (self.0)(seed)
    }
}

impl Fresh<TripleTriad> for Dealer {
    fn fresh(&self, seed: u64) -> TripleTriad {
        self.deal(seed)
    }
    fn redeal(&self, seed: u64, game: &mut TripleTriad) {
        self.deal_into(seed, game);
    }
}

impl Fresh<Trax> for Variant {
    fn fresh(&self, _seed: u64) -> Trax {
        Trax::new(*self)
    }
    fn redeal(&self, _seed: u64, game: &mut Trax) {
        game.restart();
    }
}

/// Steps `games` games round-robin until `more(steps)` says stop, each restarted by `fresh`
/// when over; the steps made and a checksum that keeps the tensors and masks from being
/// optimised away.
fn run<G: Engine>(fresh: &impl Fresh<G>, games: usize, seed: u64, mut more: impl FnMut(u64) -> bool) -> (u64, f64) {
    let mut rng = Rng::new(seed);
    let mut episodes = 0;
    let mut pool: Vec<Slot<G>> = (0..games)
        .map(|_| {
            episodes += 1;
            Slot::new(fresh.fresh(seed ^ episodes))
        })
        .collect();
    let (mut steps, mut sum) = (0u64, 0.0f64);
    while more(steps) {
        for s in &mut pool {
            let id = s.legal[rng.below(s.legal.len() as u64) as usize];
            let mv = s.game.action_move(id).expect("a legal id names a move");
            s.game.play(mv).map_err(Into::into).expect("legal");
            if s.game.is_over() {
                episodes += 1;
                fresh.redeal(seed ^ episodes, &mut s.game);
            }
            s.observe();
            sum += f64::from(s.tensor[0]) + s.mask[s.legal[0]] as u8 as f64;
            steps += 1;
        }
    }
    (steps, sum)
}

/// The loop of [`run`] for `steps` steps, hashing every step's tensor, mask and (at the end of an
/// episode) returns, FNV-1a over their bytes.
fn digest<G: Engine>(fresh: &impl Fresh<G>, games: usize, steps: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    };
    let mut rng = Rng::new(1);
    let mut pool: Vec<Slot<G>> = (0..games).map(|i| Slot::new(fresh.fresh(i as u64))).collect();
    let mut episodes = games as u64;
    for _ in 0..steps.div_ceil(games as u64) {
        for s in &mut pool {
            let id = s.legal[rng.below(s.legal.len() as u64) as usize];
            let mv = s.game.action_move(id).expect("a legal id names a move");
            s.game.play(mv).map_err(Into::into).expect("legal");
            if s.game.is_over() {
                for r in s.game.returns() {
                    eat(&r.to_le_bytes());
                }
                episodes += 1;
                fresh.redeal(episodes, &mut s.game);
            }
            s.observe();
            for x in &s.tensor {
                eat(&x.to_le_bytes());
            }
            for &m in &s.mask {
                eat(&[u8::from(m)]);
            }
        }
    }
    h
}

/// Until `time` has passed (the clock read once every call).
fn for_time(time: Duration) -> impl FnMut(u64) -> bool {
    let start = Instant::now();
    move |_| start.elapsed() < time
}

/// CPU seconds this thread has run so far, from `/proc/thread-self/schedstat` (nanoseconds, so
/// exact over short runs): on a machine that others load, steps per CPU second compare the
/// bindings where wall time cannot. Zero where there is no procfs.
fn thread_cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()))
        .map_or(0.0, |ns| ns / 1e9)
}

/// Steps on `threads` threads of `games` games each for `time`: steps per wall second and per
/// CPU second of the threads.
fn rate<G: Engine>(fresh: &impl Fresh<G>, threads: usize, games: usize, time: Duration) -> (f64, f64) {
    let (steps, cpu) = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let cpu = thread_cpu_seconds();
                    let (steps, sum) = run(fresh, games, 1 + t as u64, for_time(time));
                    std::hint::black_box(sum);
                    (steps, thread_cpu_seconds() - cpu)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .fold((0, 0.0), |(n, c), (steps, cpu)| (n + steps, c + cpu))
    });
    (
        steps as f64 / time.as_secs_f64(),
        steps as f64 / cpu.max(f64::MIN_POSITIVE),
    )
}

/// The batches' rhythm in pure Rust, on `threads` threads of `games` games each for `time`:
/// each round, the first thread draws every game's action from its legal ids (as the caller of
/// `step` draws from the masks), then every thread steps its own games, checking their actions
/// first, and the threads wait for one another. Steps per wall second, and per wall second of
/// stepping alone (the draws left out, as `steps.py` times `step` alone): what a batch could
/// reach with no Python at all, against [`rate`]'s threads that never meet.
fn lockstep<G: Engine + Send>(fresh: &impl Fresh<G>, threads: usize, games: usize, time: Duration) -> (f64, f64) {
    use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
    use std::sync::Mutex;
    // A thread's games, each with the action drawn for it.
    type Chunk<G> = Mutex<Vec<(Slot<G>, usize)>>;
    let chunks: Vec<Chunk<G>> = (0..threads)
        .map(|t| {
            Mutex::new(
                (0..games)
                    .map(|i| (Slot::new(fresh.fresh((t * games + i) as u64)), 0))
                    .collect(),
            )
        })
        .collect();
    let (round, finished, stop) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let step = |t: usize, episodes: &mut u64| {
        let mut chunk = chunks[t].lock().expect("no panics");
        assert!(
            chunk.iter().all(|(s, a)| s.legal.binary_search(a).is_ok()),
            "legal actions"
        );
        for (s, a) in chunk.iter_mut() {
            let mv = s.game.action_move(*a).expect("a legal id names a move");
            s.game.play(mv).map_err(Into::into).expect("legal");
            if s.game.is_over() {
                *episodes += 1;
                fresh.redeal((t as u64) << 32 ^ *episodes, &mut s.game);
            }
            s.observe();
        }
    };
    let rounds = std::thread::scope(|scope| {
        for t in 1..threads {
            let (round, finished, stop, step) = (&round, &finished, &stop, &step);
            scope.spawn(move || {
                let (mut seen, mut episodes) = (0, 0);
                while stop.load(SeqCst) == 0 {
                    let now = round.load(SeqCst);
                    if now == seen {
                        std::hint::spin_loop();
                        continue;
                    }
                    seen = now;
                    step(t, &mut episodes);
                    finished.fetch_add(1, SeqCst);
                }
            });
        }
        let (mut rng, mut episodes, start) = (Rng::new(1), 0, Instant::now());
        let (mut rounds, mut stepping) = (0u64, Duration::ZERO);
        while start.elapsed() < time {
            for chunk in &chunks {
                for (s, a) in chunk.lock().expect("no panics").iter_mut() {
                    *a = s.legal[rng.below(s.legal.len() as u64) as usize];
                }
            }
            let begun = Instant::now();
            round.fetch_add(1, SeqCst);
            step(0, &mut episodes);
            rounds += 1;
            while finished.load(SeqCst) != rounds * (threads as u64 - 1) {
                std::hint::spin_loop();
            }
            stepping += begun.elapsed();
        }
        stop.store(1, SeqCst);
        (rounds, stepping)
    });
    let steps = (rounds.0 * (threads * games) as u64) as f64;
    (steps / time.as_secs_f64(), steps / rounds.1.as_secs_f64())
}

/// Something to do with one game's loop, whatever the game's type.
trait Visit {
    fn visit<G: Engine + Send>(self, fresh: impl Fresh<G>);
}

/// Calls `v` with the fresh games of `name`: an FF8 deal, an empty 8x8 Trax board, a Nantong deal.
fn with_game(name: &str, v: impl Visit) {
    match name {
        "triple-triad" => v.visit(Dealer::new("ff8").expect("preset")),
        "trax" => v.visit(Variant::EightByEight),
        "nantong" => v.visit(New(Nantong::new)),
        _ => panic!("unknown game {name:?}: triple-triad, trax or nantong"),
    }
}

const GAMES: [&str; 3] = ["triple-triad", "trax", "nantong"];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    let number = |i: usize, default: f64| arg(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match arg(0) {
        // `count GAME STEPS [GAMES]`: exactly STEPS steps on one thread, for instruction counts
        // (callgrind) that the machine's load does not change.
        Some("count") => {
            struct Count(u64, usize);
            impl Visit for Count {
                fn visit<G: Engine + Send>(self, fresh: impl Fresh<G>) {
                    let (n, sum) = run(&fresh, self.1, 1, move |n| n < self.0);
                    println!("{n} steps (checksum {sum:.0})");
                }
            }
            with_game(
                arg(1).unwrap_or(""),
                Count(number(2, 1e5) as u64, number(3, 64.0) as usize),
            );
        }
        // `digest GAME STEPS [GAMES]`: the hash of every observation of STEPS steps.
        Some("digest") => {
            struct Digest(u64, usize);
            impl Visit for Digest {
                fn visit<G: Engine + Send>(self, fresh: impl Fresh<G>) {
                    println!("{:016x}", digest(&fresh, self.1, self.0));
                }
            }
            with_game(
                arg(1).unwrap_or(""),
                Digest(number(2, 1e5) as u64, number(3, 64.0) as usize),
            );
        }
        // `resets GAME RESETS [GAMES]`: what a batch's `reset` does per game, RESETS times round
        // the games (for callgrind: its instructions against `count`'s a step).
        Some("resets") => {
            struct Resets(u64, usize);
            impl Visit for Resets {
                fn visit<G: Engine + Send>(self, fresh: impl Fresh<G>) {
                    let mut pool: Vec<Slot<G>> = (0..self.1).map(|i| Slot::new(fresh.fresh(i as u64))).collect();
                    let mut sum = 0.0;
                    for seed in 0..self.0 {
                        let s = &mut pool[seed as usize % self.1];
                        fresh.redeal(seed, &mut s.game);
                        s.observe();
                        sum += f64::from(s.tensor[0]) + s.mask[s.legal[0]] as u8 as f64;
                    }
                    println!("{} resets (checksum {sum:.0})", self.0);
                }
            }
            with_game(
                arg(1).unwrap_or(""),
                Resets(number(2, 1e5) as u64, number(3, 64.0) as usize),
            );
        }
        // `rate GAME THREADS [GAMES [SECONDS]]`: one line, steps per wall second and per CPU
        // second, for `python/bench/steps.py` to interleave with its own figures; `lockstep`, the
        // same in the batches' rhythm: steps per wall second, then per second of stepping alone.
        Some(mode @ ("rate" | "lockstep")) => {
            struct Rate(bool, usize, usize, Duration);
            impl Visit for Rate {
                fn visit<G: Engine + Send>(self, fresh: impl Fresh<G>) {
                    let run = if self.0 { lockstep } else { rate };
                    let (wall, other) = run(&fresh, self.1, self.2, self.3);
                    println!("{wall:.0} {other:.0}");
                }
            }
            let time = Duration::from_secs_f64(number(4, 2.0));
            with_game(
                arg(1).unwrap_or(""),
                Rate(
                    mode == "lockstep",
                    number(2, 1.0) as usize,
                    number(3, 64.0) as usize,
                    time,
                ),
            );
        }
        _ => {
            let games = number(0, 64.0) as usize;
            let secs = number(1, 2.0);
            println!("pure Rust, {games} games per thread, {secs} s each");
            struct Both(&'static str, usize, Duration);
            impl Visit for Both {
                fn visit<G: Engine + Send>(self, fresh: impl Fresh<G>) {
                    let (one, one_cpu) = rate(&fresh, 1, self.1, self.2);
                    let (two, two_cpu) = rate(&fresh, 2, self.1, self.2);
                    println!(
                        "{:<14} 1 thread {one:>9.0} steps/s ({one_cpu:>9.0} per CPU s)   2 threads {two:>9.0} steps/s ({two_cpu:>9.0} per CPU s)",
                        self.0
                    );
                }
            }
            for name in GAMES {
                with_game(name, Both(name, games, Duration::from_secs_f64(secs)));
            }
        }
    }
}

//! `arbiter perft GAME`: count move sequences, for speed and for checking move generation.

use crate::play;
use crate::term::Outcome;
use arbiter_core::trax::{read_record, Trax, Variant};
use arbiter_core::tripletriad::{Setup, TripleTriad};
use arbiter_core::{perft_threads, Engine};
use clap::builder::PossibleValuesParser;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How many threads count.
#[derive(clap::Args)]
pub struct Threads {
    /// Threads sharing the subtrees after the first moves (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Count again on one thread and print how much faster the threads were.
    #[arg(long)]
    speedup: bool,
}

#[derive(clap::Subcommand)]
pub enum Game {
    /// Triple Triad: from a state file, or an empty board with two random FF8 hands.
    TripleTriad {
        /// Depth: the number of moves.
        depth: u32,
        /// A state in the JSON form of the conformance cases, or a game saved by `arbiter play
        /// triple-triad` (its round in play).
        #[arg(long, value_name = "FILE")]
        state: Option<PathBuf>,
        /// Seed of the two random hands (without --state).
        #[arg(long, default_value_t = 1, conflicts_with = "state")]
        seed: u64,
        #[command(flatten)]
        threads: Threads,
    },
    /// Trax: from the position after some moves.
    Trax {
        /// Depth: the number of turns (a turn's forced tiles are part of it).
        depth: u32,
        /// The board: 8x8, unbounded or loop.
        #[arg(long, default_value = "unbounded", value_parser = PossibleValuesParser::new(["8x8", "unbounded", "loop"]))]
        variant: String,
        /// The moves leading to the position (official notation, space separated).
        #[arg(long, default_value = "")]
        moves: String,
        /// A game saved by `arbiter play trax` (instead of --variant and --moves).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "variant"])]
        state: Option<PathBuf>,
        #[command(flatten)]
        threads: Threads,
    },
}

/// Reads a Triple Triad position: a state in the JSON form of the conformance cases, or a game
/// saved by `arbiter play triple-triad` (its round in play).
pub fn load_state(path: &Path) -> Result<TripleTriad, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: malformed state: {e}", path.display()))?;
    if play::is_save(&json) {
        return play::triple_triad::saved_round(json, path);
    }
    let setup: Setup = serde_json::from_value(json).map_err(|e| format!("{}: malformed state: {e}", path.display()))?;
    TripleTriad::new(&setup).map_err(|e| format!("{}: invalid state: {e}", path.display()))
}

/// Millions of nodes per second, or `-` for too short a run.
pub fn rate(nodes: u64, secs: f64) -> String {
    if secs > 0.0 {
        format!("{:.1}M nodes/s", nodes as f64 / secs / 1e6)
    } else {
        "-".into()
    }
}

/// `--threads`, or every core.
pub fn threads(arg: Option<usize>) -> Result<usize, String> {
    match arg {
        Some(0) => Err("--threads: at least 1".into()),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// A bar of the work done (moves at the root, games) on standard error, once a run has lasted a
/// second, and only when standard error is a terminal (a log or a pipe gets no carriage returns).
pub struct Progress {
    start: Instant,
    terminal: bool,
    shown: AtomicBool,
    /// What is counted, e.g. `moves at the root`.
    unit: &'static str,
}

impl Progress {
    pub fn new(unit: &'static str) -> Progress {
        Progress {
            start: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
            unit,
        }
    }

    pub fn update(&self, done: usize, total: usize) {
        self.update_with(done, total, "");
    }

    /// [`Progress::update`] with `note` after the count.
    pub fn update_with(&self, done: usize, total: usize, note: &str) {
        if !self.terminal || self.start.elapsed().as_secs_f64() < 1.0 {
            return;
        }
        self.shown.store(true, Ordering::Relaxed);
        const WIDTH: usize = 30;
        let filled = WIDTH * done / total.max(1);
        eprint!(
            "\r[{}{}] {done}/{total} {} {note}\x1b[K",
            "#".repeat(filled),
            ".".repeat(WIDTH - filled),
            self.unit
        );
    }

    /// Clears the bar, if one was drawn, before the result is printed.
    pub fn finish(&self) {
        if self.shown.load(Ordering::Relaxed) {
            eprint!("\r\x1b[K");
        }
    }
}

/// Counts on the threads asked for and reports; a depth past the end of every game is said at
/// once, in words.
fn count<G: Engine + Send + Sync>(
    g: &G,
    depth: u32,
    moves_left: u32,
    what: &str,
    opts: &Threads,
    out: &mut impl Write,
) -> Outcome {
    if depth > moves_left {
        writeln!(
            out,
            "perft {depth}: 0 nodes: no game goes that far (at most {moves_left} more {what} from this position)"
        )?;
        return Ok(());
    }
    let n = threads(opts.threads)?;
    let timed = |n: usize| {
        let progress = Progress::new("moves at the root");
        let nodes = perft_threads(g, depth, n, &|done, total| progress.update(done, total));
        progress.finish();
        (nodes, progress.start.elapsed().as_secs_f64())
    };
    let (nodes, secs) = timed(n);
    writeln!(
        out,
        "perft {depth}: {nodes} nodes in {secs:.3} s ({}), {n} thread{}",
        rate(nodes, secs),
        if n == 1 { "" } else { "s" }
    )?;
    if opts.speedup {
        let (one, one_secs) = timed(1);
        if one != nodes {
            return Err(format!("perft counts differ: {nodes} on {n} threads, {one} on one").into());
        }
        writeln!(out, "one thread: {one_secs:.3} s; speed-up {:.2}x", one_secs / secs)?;
    }
    Ok(())
}

pub fn run(game: Game, out: &mut impl Write) -> Outcome {
    match game {
        Game::TripleTriad {
            depth,
            state,
            seed,
            threads,
        } => {
            let g = match state {
                Some(p) => load_state(&p)?,
                None => TripleTriad::new(&Setup::random_ff8(seed)).map_err(|e| e.to_string())?,
            };
            let empty = (0..9).filter(|&c| g.cell(c).is_none()).count() as u32;
            count(&g, depth, empty, "moves", &threads, out)
        }
        Game::Trax {
            depth,
            state: Some(path),
            threads,
            ..
        } => {
            let g = play::trax::saved_game(&path)?;
            count(&g, depth, g.turns_left(), "turns", &threads, out)
        }
        Game::Trax {
            depth,
            variant,
            moves,
            threads,
            state: None,
        } => {
            let variant: Variant = variant.parse().map_err(|e| format!("--variant: {e}"))?;
            let moves = read_record(&moves).map_err(|e| format!("--moves: {e}"))?;
            let g = Trax::replay(variant, &moves)
                .map_err(|(i, e)| format!("--moves: move {} ({}) is refused: {e}", i + 1, moves[i]))?;
            count(&g, depth, g.turns_left(), "turns", &threads, out)
        }
    }
}

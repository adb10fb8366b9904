//! `arbiter solve GAME`: the exact value of a position and a best line.

use crate::play::triple_triad::load_state;
use crate::progress::{plural, rate, threads, Progress};
use crate::term::Outcome;
use arbiter_core::tripletriad::{solve_threads, Move, Solver, TripleTriad};
use arbiter_core::Game as _;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Subcommand)]
pub enum Game {
    /// Triple Triad, both hands read (as if open).
    TripleTriad {
        /// A state in the JSON form of the conformance cases, or a game saved by `arbiter play
        /// triple-triad` (its round in play).
        #[arg(long, value_name = "FILE")]
        state: PathBuf,
        /// Threads sharing the search (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Solve again on one thread and print how much faster the threads were.
        #[arg(long)]
        speedup: bool,
    },
}

/// A move in words: the card by name (hand indices shift as cards are played) and its cell.
fn placing(g: &TripleTriad, mv: Move) -> String {
    let name = g
        .hand(g.next_player())
        .nth(mv.card as usize)
        .map_or("?", |c| c.name.as_str());
    format!("{name} on cell {}", mv.cell)
}

pub fn run(game: Game, out: &mut impl Write) -> Outcome {
    let Game::TripleTriad {
        state,
        threads: n,
        speedup,
    } = game;
    let g = load_state(&state)?;
    g.solvable().map_err(|e| format!("{}: {e}", state.display()))?;
    let n = threads(n)?;
    let mover = g.next_player();
    let timed = |n: usize| {
        let progress = Progress::new("moves at the root");
        let t = Instant::now();
        let s = solve_threads(&g, n, Solver::DEFAULT_TABLE_BITS, &|done, total| {
            progress.update(done, total)
        });
        progress.finish();
        (s, t.elapsed().as_secs_f64())
    };
    let (s, secs) = timed(n);
    let verdict = match s.value {
        0 => "a draw".to_string(),
        v if v > 0 => format!("{mover} wins by {v}"),
        v => format!("{mover} loses by {}", -v),
    };
    writeln!(
        out,
        "value {:+}: the final score difference for {mover} (to move) under best play on both sides ({verdict})",
        s.value
    )?;
    // The best line: the best move, then the best reply to it, and so on to the end.
    let mut line = Vec::new();
    let mut pos = g.clone();
    let mut next = s.best_move;
    while let Some(mv) = next {
        line.push(format!("{} {}", pos.next_player(), placing(&pos, mv)));
        pos.play(mv).map_err(|e| e.to_string())?;
        next = solve_threads(&pos, n, Solver::DEFAULT_TABLE_BITS, &|_, _| {}).best_move;
    }
    let best = s.best_move.map_or("-".into(), |m| format!("{m}: {}", placing(&g, m)));
    writeln!(out, "best move {best} (hand card index @ board cell)")?;
    writeln!(
        out,
        "best line: {}",
        if line.is_empty() { "-".into() } else { line.join("; ") }
    )?;
    writeln!(
        out,
        "{} in {secs:.3} s ({}), {}",
        plural(s.nodes, "node"),
        rate(s.nodes, secs),
        plural(n as u64, "thread")
    )?;
    if speedup {
        // A solve takes milliseconds: the fastest of three runs each way, taken in turns, so
        // that neither side is measured alone with cold caches.
        let (mut one_best, mut n_best) = (f64::MAX, secs);
        for _ in 0..3 {
            let (one, one_secs) = timed(1);
            if one.value != s.value {
                return Err(format!("values differ: {:+} on {n} threads, {:+} on one", s.value, one.value).into());
            }
            one_best = one_best.min(one_secs);
            n_best = n_best.min(timed(n).1);
        }
        writeln!(
            out,
            "fastest of 3: one thread {one_best:.3} s, {n} threads {n_best:.3} s; speed-up {:.2}x",
            one_best / n_best
        )?;
    }
    Ok(())
}

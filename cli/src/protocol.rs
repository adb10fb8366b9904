//! `arbiter engine trax`: the Trax contest line protocol on standard input and output.
//!
//! Input is whitespace-separated tokens: `-T` asks for the engine's id (answered on its own line),
//! `-W` says that the engine plays white and moves now, `-B` (or `-R`) that it plays red and the
//! opponent moves first; any other token is the opponent's move in official notation, answered
//! with the engine's move on its own line (a move before any `-W` or `-B` makes the engine the
//! other player). The engine stops when the game is over (saying on standard error who won and
//! how, [`verdict`]) or the input ends; an illegal or
//! malformed opponent move, a second `-W` or `-B` and a line longer than [`MAX_LINE`] are reported
//! on standard error with a failing exit.

use crate::options;
use arbiter_core::trax::ai::{self, Level};
use arbiter_core::trax::{Colour, Move, Trax, Variant};
use arbiter_core::{Game, Rng};
use clap::{Args, ValueEnum};
use std::io::{BufRead, Read, Write};
use std::time::{Duration, Instant};

/// The id the engine answers to `-T`.
pub const ID: &str = "arbiter";

/// The games the protocol is for.
#[derive(Clone, Copy, ValueEnum)]
pub enum EngineGame {
    /// Trax.
    Trax,
}

/// The options of `arbiter engine`.
#[derive(Args)]
pub struct Options {
    /// The game.
    game: EngineGame,
    /// The variant.
    #[arg(long, default_value = options::default("trax", "variant"), value_parser = options::values("trax", "variant"))]
    variant: String,
    /// How well the engine plays: random, easy, medium, hard or expert.
    #[arg(long, default_value = "expert")]
    level: Level,
    /// The time a move takes, in milliseconds: the searching levels think until it is spent
    /// (deepening with no node budget). Without it a level searches its node budget, on one
    /// thread, and a seed plays the same game on every machine.
    #[arg(long)]
    time_ms: Option<u64>,
    /// Threads searching each move when --time-ms is given (default: all cores).
    #[arg(long, requires = "time_ms", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Seed of the choice between equal moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The longest line read, in bytes: far more than the protocol ever sends on one line (a move is
/// a few characters), so that endless input is refused instead of held whole.
pub const MAX_LINE: usize = 64 * 1024;

/// Runs the protocol until the game ends or `input` does. An illegal opponent move, a second
/// `-W` or `-B`, and a line longer than [`MAX_LINE`] are errors.
pub fn run(opts: &Options, input: &mut impl BufRead, out: &mut impl Write) -> Result<(), String> {
    let EngineGame::Trax = opts.game;
    let variant: Variant = opts.variant.parse().map_err(|e| format!("--variant: {e}"))?;
    let mut g = Trax::new(variant);
    let mut rng = Rng::new(opts.seed);
    // The engine's colour: said once by -W or -B, or, when a move comes first, the other
    // player's.
    let mut engine: Option<Colour> = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = Read::take(&mut *input, MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("reading standard input: {e}"))?;
        if read == 0 {
            return Ok(());
        }
        if line.len() > MAX_LINE && line.last() != Some(&b'\n') {
            return Err(format!("a line of standard input is longer than {MAX_LINE} bytes"));
        }
        let line = std::str::from_utf8(&line).map_err(|_| "a line of standard input is not UTF-8")?;
        for token in line.split_whitespace() {
            let reply = match token {
                "-T" | "-t" => Some(ID.to_string()),
                "-W" | "-w" | "-B" | "-b" | "-R" | "-r" => {
                    let colour = if token.eq_ignore_ascii_case("-W") {
                        Colour::White
                    } else {
                        Colour::Red
                    };
                    if let Some(c) = engine {
                        return Err(format!(
                            "{token}: the engine already plays {c}; its colour is said once"
                        ));
                    }
                    engine = Some(colour);
                    // White opens.
                    (colour == Colour::White)
                        .then(|| engine_move(&mut g, opts, &mut rng))
                        .transpose()?
                }
                text => {
                    let mv: Move = text.parse().map_err(|e| format!("opponent's move: {e}"))?;
                    engine.get_or_insert(g.next_player().other());
                    g.play(mv).map_err(|e| format!("opponent's move is illegal: {e}"))?;
                    (!g.is_over())
                        .then(|| engine_move(&mut g, opts, &mut rng))
                        .transpose()?
                }
            };
            if let Some(text) = reply {
                writeln!(out, "{text}")
                    .and_then(|()| out.flush())
                    .map_err(|e| format!("writing standard output: {e}"))?;
            }
            if g.is_over() {
                eprintln!("{}", verdict(&g));
                return Ok(());
            }
        }
    }
}

/// Chooses, plays and writes down the engine's move.
fn engine_move(g: &mut Trax, opts: &Options, rng: &mut Rng) -> Result<String, String> {
    let mv = match opts.time_ms {
        Some(ms) => {
            let deadline = Instant::now() + Duration::from_millis(ms);
            let threads = opts.threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                usize::from,
            );
            ai::choose_timed(g, opts.level, rng, threads, &|| Instant::now() >= deadline)
        }
        None => ai::choose_at(g, opts.level, rng, arbiter_core::Budget::default()),
    }
    .ok_or("the engine has no move to play")?;
    g.play(mv)
        .map_err(|e| format!("the engine chose an illegal move: {e}"))?;
    Ok(mv.to_string())
}

/// The line written on standard error when the game is over, for a referee: `game over: white
/// wins by a loop`, `... by a line`, `... by a loop and a line`, or `game over: a draw`.
fn verdict(g: &Trax) -> String {
    match g.win() {
        Some(w) => {
            let how = match (w.by_loop, w.by_line) {
                (true, true) => "a loop and a line",
                (true, false) => "a loop",
                _ => "a line",
            };
            format!("game over: {} wins by {how}", w.winner)
        }
        None => "game over: a draw".to_string(),
    }
}

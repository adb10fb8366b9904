//! `arbiter`: play, perft, solve and conformance for the Arbiter rules engines.

mod conformance;
mod play;
mod view;

use arbiter_core::tripletriad::{ai, Player, Setup, Solver, TripleTriad};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Rules engines for Triple Triad, Trax and Nantong long cards"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum GameName {
    TripleTriad,
}

#[derive(Clone, Copy, ValueEnum)]
enum LevelArg {
    Random,
    Greedy,
    Perfect,
}

#[derive(Clone, Copy, ValueEnum)]
enum Colour {
    Blue,
    Red,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal against the built-in opponent.
    Play {
        /// The game.
        game: GameName,
        /// Rule preset: ff8, ttonline, mush or ffforever.
        #[arg(long, default_value = "ff8")]
        preset: String,
        /// Seed for the hands, elements and every random choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How well the computer plays.
        #[arg(long, value_enum, default_value = "greedy")]
        level: LevelArg,
        /// Your colour.
        #[arg(long, value_enum, default_value = "blue")]
        you: Colour,
    },
    /// Count the move sequences of length DEPTH and print nodes, time and nodes/s.
    Perft {
        /// The game.
        game: GameName,
        /// Depth (number of moves).
        depth: u32,
        /// A state in the JSON form of the conformance cases (default: empty board, two random FF8 hands).
        #[arg(long)]
        state: Option<PathBuf>,
        /// Seed of the default hands.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solve a state exactly (both hands read) and print the value, a best move, nodes and time.
    Solve {
        /// The game.
        game: GameName,
        /// A state in the JSON form of the conformance cases.
        #[arg(long)]
        state: PathBuf,
    },
    /// Run conformance case files (JSON Lines): one line per failing case, then `N passed, M failed`.
    Conformance {
        /// Case files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn load_state(path: &PathBuf) -> Result<TripleTriad, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let setup: Setup = serde_json::from_str(&text)
        .map_err(|e| format!("{}: malformed state: {e}", path.display()))?;
    TripleTriad::new(&setup).map_err(|e| format!("{}: invalid state: {e}", path.display()))
}

fn rate(nodes: u64, secs: f64) -> String {
    if secs > 0.0 {
        format!("{:.1}M nodes/s", nodes as f64 / secs / 1e6)
    } else {
        "-".into()
    }
}

fn run(cli: Cli) -> Result<bool, String> {
    match cli.command {
        Command::Play {
            game: GameName::TripleTriad,
            preset,
            seed,
            level,
            you,
        } => {
            let level = match level {
                LevelArg::Random => ai::Level::Random,
                LevelArg::Greedy => ai::Level::Greedy,
                LevelArg::Perfect => ai::Level::Perfect,
            };
            let you = match you {
                Colour::Blue => Player::Blue,
                Colour::Red => Player::Red,
            };
            let opts = play::Options {
                preset,
                seed,
                level,
                you,
            };
            play::run(
                opts,
                &mut std::io::stdin().lock(),
                &mut std::io::stdout().lock(),
            )?;
            Ok(true)
        }
        Command::Perft {
            game: GameName::TripleTriad,
            depth,
            state,
            seed,
        } => {
            let g = match state {
                Some(p) => load_state(&p)?,
                None => TripleTriad::new(&Setup::random_ff8(seed)).map_err(|e| e.to_string())?,
            };
            let t = Instant::now();
            let nodes = g.perft(depth);
            let secs = t.elapsed().as_secs_f64();
            println!(
                "perft {depth}: {nodes} nodes in {secs:.3} s ({})",
                rate(nodes, secs)
            );
            Ok(true)
        }
        Command::Solve {
            game: GameName::TripleTriad,
            state,
        } => {
            let g = load_state(&state)?;
            let t = Instant::now();
            let s = Solver::new(22).solve(&g);
            let secs = t.elapsed().as_secs_f64();
            let best = s.best_move.map_or("-".into(), |m| m.to_string());
            println!(
                "value {} (for {}), best move {best}",
                s.value,
                g.next_player()
            );
            println!(
                "{} nodes in {:.3} s ({})",
                s.nodes,
                secs,
                rate(s.nodes, secs)
            );
            Ok(true)
        }
        Command::Conformance { files } => {
            let tally = conformance::run_files(&files, &mut std::io::stdout().lock())
                .map_err(|e| e.to_string())?;
            Ok(tally.failed == 0)
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("arbiter: {e}");
            ExitCode::FAILURE
        }
    }
}

//! `arbiter`: play, perft, solve and conformance for the Arbiter rules engines.

mod conformance;
mod engine;
mod nantong_play;
mod parallel;
mod play;
mod trax_play;
mod view;

use arbiter_core::trax::{read_record, Colour as TraxColour, Trax, Variant as TraxVariant};
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
    Trax,
    Nantong,
}

#[derive(Clone, Copy, ValueEnum)]
enum LevelArg {
    Random,
    Greedy,
    Perfect,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal against the built-in opponent.
    Play {
        /// The game.
        game: GameName,
        /// Triple Triad rule preset: ff8, ttonline, mush or ffforever.
        #[arg(long, default_value = "ff8")]
        preset: String,
        /// Seed for the hands, elements and every random choice of the computer.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How well the computer plays Triple Triad.
        #[arg(long, value_enum, default_value = "greedy")]
        level: LevelArg,
        /// Your colour (Triple Triad: blue or red; Trax: white or red); default: the first player.
        #[arg(long, default_value = "first")]
        you: String,
        /// Trax variant: 8x8, unbounded or loop.
        #[arg(long, default_value = "unbounded")]
        variant: String,
    },
    /// Count the move sequences of length DEPTH and print nodes, time and nodes/s.
    Perft {
        /// The game.
        game: GameName,
        /// Depth (number of moves, or Trax turns).
        depth: u32,
        /// Triple Triad: a state in the JSON form of the conformance cases (default: empty board,
        /// two random FF8 hands from the seed).
        #[arg(long)]
        state: Option<PathBuf>,
        /// Triple Triad: seed of the default hands.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Trax variant: 8x8, unbounded or loop.
        #[arg(long, default_value = "unbounded")]
        variant: String,
        /// Trax: the moves (official notation, space separated) leading to the position.
        #[arg(long, default_value = "")]
        moves: String,
        /// Trax: threads to count on (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Trax: count again on one thread and print the speed-up.
        #[arg(long)]
        speedup: bool,
    },
    /// Solve a Triple Triad state exactly (both hands read): value, a best move, nodes and time.
    Solve {
        /// The game.
        game: GameName,
        /// A state in the JSON form of the conformance cases.
        #[arg(long)]
        state: PathBuf,
    },
    /// Play Trax through the contest line protocol on standard input and output.
    Engine(engine::Options),
    /// Run conformance case files (JSON Lines): one line per failing case, then `N passed, M failed`.
    Conformance {
        /// Case files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn load_state(path: &PathBuf) -> Result<TripleTriad, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let setup: Setup = serde_json::from_str(&text).map_err(|e| format!("{}: malformed state: {e}", path.display()))?;
    TripleTriad::new(&setup).map_err(|e| format!("{}: invalid state: {e}", path.display()))
}

fn rate(nodes: u64, secs: f64) -> String {
    if secs > 0.0 {
        format!("{:.1}M nodes/s", nodes as f64 / secs / 1e6)
    } else {
        "-".into()
    }
}

fn report_perft(depth: u32, nodes: u64, secs: f64) {
    println!("perft {depth}: {nodes} nodes in {secs:.3} s ({})", rate(nodes, secs));
}

fn trax_variant(v: &str) -> Result<TraxVariant, String> {
    v.parse().map_err(|e| format!("--variant: {e}"))
}

fn run(cli: Cli) -> Result<bool, String> {
    match cli.command {
        Command::Play {
            game: GameName::TripleTriad,
            preset,
            seed,
            level,
            you,
            ..
        } => {
            let level = match level {
                LevelArg::Random => ai::Level::Random,
                LevelArg::Greedy => ai::Level::Greedy,
                LevelArg::Perfect => ai::Level::Perfect,
            };
            let you = match you.as_str() {
                "first" => Player::Blue,
                other => other.parse().map_err(|e| format!("--you: {e}"))?,
            };
            let opts = play::Options {
                preset,
                seed,
                level,
                you,
            };
            play::run(opts, &mut std::io::stdin().lock(), &mut std::io::stdout().lock())?;
            Ok(true)
        }
        Command::Play {
            game: GameName::Trax,
            seed,
            you,
            variant,
            ..
        } => {
            let variant = trax_variant(&variant)?;
            let you = match you.to_ascii_lowercase().as_str() {
                "first" | "white" => TraxColour::White,
                "red" => TraxColour::Red,
                other => return Err(format!("--you: {other:?} is not white or red")),
            };
            trax_play::run(
                variant,
                seed,
                you,
                &mut std::io::stdin().lock(),
                &mut std::io::stdout().lock(),
            )?;
            Ok(true)
        }
        Command::Play {
            game: GameName::Nantong,
            seed,
            ..
        } => {
            nantong_play::run(seed, &mut std::io::stdin().lock(), &mut std::io::stdout().lock())?;
            Ok(true)
        }
        Command::Perft {
            game: GameName::Nantong,
            ..
        } => Err("perft is for triple-triad and trax".into()),
        Command::Perft {
            game: GameName::TripleTriad,
            depth,
            state,
            seed,
            ..
        } => {
            let g = match state {
                Some(p) => load_state(&p)?,
                None => TripleTriad::new(&Setup::random_ff8(seed)).map_err(|e| e.to_string())?,
            };
            let t = Instant::now();
            let nodes = g.perft(depth);
            report_perft(depth, nodes, t.elapsed().as_secs_f64());
            Ok(true)
        }
        Command::Perft {
            game: GameName::Trax,
            depth,
            variant,
            moves,
            threads,
            speedup,
            ..
        } => {
            let variant = trax_variant(&variant)?;
            let moves = read_record(&moves).map_err(|e| format!("--moves: {e}"))?;
            let g = Trax::replay(variant, &moves)
                .map_err(|(i, e)| format!("--moves: move {} ({}) is refused: {e}", i + 1, moves[i]))?;
            parallel::run_perft(&g, depth, threads, speedup);
            Ok(true)
        }
        Command::Solve {
            game: GameName::Trax | GameName::Nantong,
            ..
        } => Err("solve is for triple-triad".into()),
        Command::Solve {
            game: GameName::TripleTriad,
            state,
        } => {
            let g = load_state(&state)?;
            let t = Instant::now();
            let s = Solver::default().solve(&g);
            let secs = t.elapsed().as_secs_f64();
            let best = s.best_move.map_or("-".into(), |m| m.to_string());
            println!("value {} (for {}), best move {best}", s.value, g.next_player());
            println!("{} nodes in {:.3} s ({})", s.nodes, secs, rate(s.nodes, secs));
            Ok(true)
        }
        Command::Engine(opts) => {
            engine::run(&opts, &mut std::io::stdin().lock(), &mut std::io::stdout().lock()).map(|()| true)
        }
        Command::Conformance { files } => {
            let tally = conformance::run_files(&files, &mut std::io::stdout().lock()).map_err(|e| e.to_string())?;
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

//! `arbiter`: play, perft, solve, rules and conformance for the Arbiter rules engines.

mod arena;
mod catalog;
mod conformance;
mod odds;
mod options;
mod perft;
mod play;
mod progress;
mod protocol;
mod rules;
mod solve;
mod term;

use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use term::{Console, Failure, Frame, Outcome, Style};

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Rules engines for Triple Triad, Trax and Nantong long cards",
    after_help = "Start with `arbiter play triple-triad` (or trax, nantong); `arbiter rules GAME` prints the rules."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal against the built-in opponent.
    #[command(subcommand)]
    Play(PlayGame),
    /// Play many games between built-in players and report each player's results with 95 %
    /// confidence intervals.
    #[command(subcommand)]
    Arena(arena::Game),
    /// Count the move sequences of length DEPTH and print nodes, time and nodes/s.
    #[command(subcommand)]
    Perft(perft::Game),
    /// Solve a position exactly: its value, a best line, nodes and time.
    #[command(subcommand)]
    Solve(solve::Game),
    /// Print the rules of a game, for players (the specification is the repository's rules/).
    Rules {
        /// The game.
        game: RulesOf,
    },
    /// List a game's cards: id, level or stars, ranks (top, right, bottom, left), element or type, name.
    Cards {
        /// Which cards.
        set: catalog::Set,
    },
    /// List Final Fantasy XIV's NPC opponents (rules, number of possible hands), or show one:
    /// its fixed, variable and reward cards and every hand it can bring.
    Npcs {
        /// An NPC's name, English or French (case ignored).
        name: Option<String>,
    },
    /// Exact win, draw and loss odds of your five cards against a FFXIV NPC, per hand it can
    /// bring and in total, with the time taken.
    NpcOdds(odds::OddsArgs),
    /// The deck of your collection with the best exact odds of beating a FFXIV NPC.
    Deck(odds::DeckArgs),
    /// Play Trax through the contest line protocol on standard input and output.
    #[command(name = "engine")]
    Protocol(protocol::Options),
    /// Run conformance case files (JSON Lines): one line per failing case, then `N passed, M failed`.
    Conformance {
        /// Case files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
enum PlayGame {
    /// Triple Triad: a match of rounds on a 3x3 board, then the trade.
    TripleTriad(play::triple_triad::Args),
    /// Trax: lay tiles to make a loop or a line of your colour.
    Trax(play::trax::Args),
    /// Nantong long cards: you (seat 0) against two computer players, deal after deal.
    Nantong(play::nantong::Args),
}

#[derive(Clone, Copy, ValueEnum)]
enum RulesOf {
    TripleTriad,
    Trax,
    Nantong,
}

impl RulesOf {
    fn name(self) -> &'static str {
        match self {
            RulesOf::TripleTriad => "triple-triad",
            RulesOf::Trax => "trax",
            RulesOf::Nantong => "nantong",
        }
    }
}

fn run(cli: Cli) -> Outcome<bool> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli.command {
        Command::Play(game) => {
            let stdin = std::io::stdin();
            let echo = !stdin.is_terminal();
            let mut con = Console::new(stdin.lock(), out, Style::detect(), Frame::detect(), echo);
            match game {
                PlayGame::TripleTriad(args) => play::triple_triad::run(args, &mut con)?,
                PlayGame::Trax(args) => play::trax::run(args, &mut con)?,
                PlayGame::Nantong(args) => play::nantong::run(args, &mut con)?,
            }
            Ok(true)
        }
        Command::Arena(game) => arena::run(game, &mut out).map(|()| true),
        Command::Perft(game) => perft::run(game, &mut out).map(|()| true),
        Command::Solve(game) => solve::run(game, &mut out).map(|()| true),
        Command::Rules { game } => {
            out.write_all(rules::flow(rules::source(game.name()), Frame::detect().width).as_bytes())?;
            Ok(true)
        }
        Command::Cards { set } => catalog::cards(set, &mut out).map(|()| true),
        Command::Npcs { name } => catalog::npcs(name.as_deref(), &mut out).map(|()| true),
        Command::NpcOdds(args) => odds::npc_odds(args, &mut out).map(|()| true),
        Command::Deck(args) => odds::deck(args, &mut out).map(|()| true),
        Command::Protocol(opts) => {
            protocol::run(&opts, &mut std::io::stdin().lock(), &mut out)?;
            Ok(true)
        }
        Command::Conformance { files } => Ok(conformance::run_files(&files, &mut out)?.failed == 0),
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        // The reader went away (`| head`): nothing more to say, and no one to say it to.
        Err(Failure::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "arbiter: {e}");
            ExitCode::FAILURE
        }
    }
}

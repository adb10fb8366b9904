//! `arbiter`: play, perft, solve and conformance for the Arbiter rules engines.

mod conformance;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

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

#[derive(Subcommand)]
enum Command {
    /// Run conformance case files (JSON Lines): one line per failing case, then `N passed, M failed`.
    Conformance {
        /// Case files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Conformance { files } => {
            let mut out = std::io::stdout().lock();
            match conformance::run_files(&files, &mut out) {
                Ok(t) if t.failed == 0 => ExitCode::SUCCESS,
                Ok(_) => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("arbiter: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

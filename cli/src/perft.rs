//! `arbiter perft GAME`: count move sequences, for speed and for checking move generation.

use crate::options;
use crate::play;
use crate::play::triple_triad::load_state;
use crate::progress::{plural, rate, threads, Progress};
use crate::term::Outcome;
use arbiter_core::nantong::Nantong;
use arbiter_core::trax::{read_record, Trax, Variant};
use arbiter_core::tripletriad::{Setup, TripleTriad};
use arbiter_core::{perft_threads, Frontier, Transpose};
use std::io::Write;
use std::path::PathBuf;

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

/// A perft split into parts: the positions after the first plies, shared out into parts that
/// separate runs count (a shell loop, an array job), their counts summing to the whole count.
#[derive(clap::Args)]
pub struct Split {
    /// Split after K plies (at most the depth).
    #[arg(long, value_name = "K")]
    split: Option<u32>,
    /// Count only part I of N (I from 0 to N-1): every N-th position of the frontier from the I-th.
    #[arg(long, value_name = "I/N", requires = "split", value_parser = part)]
    part: Option<(usize, usize)>,
    /// Print the frontier's size (positions, and the move sequences reaching them) and stop.
    #[arg(long, requires = "split", conflicts_with_all = ["part", "speedup"])]
    list: bool,
}

/// `I/N` with `I` in `0..N`.
fn part(text: &str) -> Result<(usize, usize), String> {
    let (i, n) = text.split_once('/').ok_or("expected I/N, e.g. 0/16")?;
    let parse = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("{s:?} is not a count: expected I/N, e.g. 0/16"))
    };
    let (i, n) = (parse(i)?, parse(n)?);
    if n == 0 || i >= n {
        return Err(format!(
            "part {i} of {n} does not exist (parts are numbered from 0 to N-1)"
        ));
    }
    Ok((i, n))
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
        #[command(flatten)]
        split: Split,
    },
    /// Trax: from the position after some moves.
    Trax {
        /// Depth: the number of turns (a turn's forced tiles are part of it).
        depth: u32,
        /// The board.
        #[arg(long, default_value = options::default("trax", "variant"), value_parser = options::values("trax", "variant"))]
        variant: String,
        /// The moves leading to the position (official notation, space separated).
        #[arg(long, default_value = "")]
        moves: String,
        /// A game saved by `arbiter play trax` (instead of --variant and --moves).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "variant"])]
        state: Option<PathBuf>,
        #[command(flatten)]
        threads: Threads,
        #[command(flatten)]
        split: Split,
    },
    /// Nantong: from a deal drawn from a seed, the full game or a smaller one.
    Nantong {
        /// Depth: the number of actions (every seat's, passes included).
        depth: u32,
        /// Seed of the deck's order and the dealer.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        size: options::NantongSize,
        #[command(flatten)]
        threads: Threads,
        #[command(flatten)]
        split: Split,
    },
}

/// Counts on the threads asked for and reports (the whole count, a part of it, or the frontier's
/// size); a depth past the end of every game is said at once, in words.
fn count<G: Transpose + Send + Sync>(
    g: &G,
    depth: u32,
    moves_left: u32,
    what: &str,
    (opts, split): (&Threads, &Split),
    out: &mut impl Write,
) -> Outcome
where
    G::Move: Send + Sync,
{
    if let Some(plies) = split.split {
        return count_split(g, depth, plies, (opts, split), out);
    }
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
        (nodes, progress.seconds())
    };
    let (nodes, secs) = timed(n);
    writeln!(
        out,
        "perft {depth}: {} in {secs:.3} s ({}), {}",
        plural(nodes, "node"),
        rate(nodes, secs),
        plural(n as u64, "thread")
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

/// `--split K` with `--list` or `--part I/N`.
fn count_split<G: Transpose + Send + Sync>(
    g: &G,
    depth: u32,
    plies: u32,
    (opts, split): (&Threads, &Split),
    out: &mut impl Write,
) -> Outcome
where
    G::Move: Send + Sync,
{
    if plies > depth {
        return Err(format!("--split {plies}: at most the depth ({depth})").into());
    }
    let frontier = Frontier::new(g, plies).map_err(|e| format!("--split {plies}: {e}"))?;
    if split.list {
        writeln!(
            out,
            "{} positions after {plies} plies ({} move sequences)",
            frontier.len(),
            frontier.sequences()
        )?;
        return Ok(());
    }
    let Some((part, parts)) = split.part else {
        return Err("--split needs --part I/N (count one part) or --list (the frontier's size)".into());
    };
    let n = threads(opts.threads)?;
    let progress = Progress::new("positions of the part");
    let nodes = frontier
        .perft_part_threads(
            depth,
            part,
            parts,
            n,
            (&|done, total| progress.update(done, total), &|| false),
        )
        .map_err(|e| format!("--part: {e}"))?
        .ok_or("--part: the count was stopped")?;
    progress.finish();
    let secs = progress.seconds();
    writeln!(
        out,
        "perft {depth} part {part}/{parts}: {} in {secs:.3} s ({}), {}",
        plural(nodes, "node"),
        rate(nodes, secs),
        plural(n as u64, "thread")
    )?;
    Ok(())
}

pub fn run(game: Game, out: &mut impl Write) -> Outcome {
    match game {
        Game::TripleTriad {
            depth,
            state,
            seed,
            threads,
            split,
        } => {
            let g = match state {
                Some(p) => load_state(&p)?,
                None => TripleTriad::new(&Setup::random_ff8(seed)).map_err(|e| e.to_string())?,
            };
            let empty = (0..9).filter(|&c| g.cell(c).is_none()).count() as u32;
            count(&g, depth, empty, "moves", (&threads, &split), out)
        }
        Game::Trax {
            depth,
            state: Some(path),
            threads,
            split,
            ..
        } => {
            let g = play::trax::saved_game(&path)?;
            count(&g, depth, g.turns_left(), "turns", (&threads, &split), out)
        }
        Game::Trax {
            depth,
            variant,
            moves,
            threads,
            split,
            state: None,
        } => {
            let variant: Variant = variant.parse().map_err(|e| format!("--variant: {e}"))?;
            let moves = read_record(&moves).map_err(|e| format!("--moves: {e}"))?;
            let g = Trax::replay(variant, &moves)
                .map_err(|(i, e)| format!("--moves: move {} ({}) is refused: {e}", i + 1, moves[i]))?;
            count(&g, depth, g.turns_left(), "turns", (&threads, &split), out)
        }
        Game::Nantong {
            depth,
            seed,
            size,
            threads,
            split,
        } => {
            // No bound on a deal's actions is stated: a depth past the deal's end counts 0.
            let g = Nantong::sized(seed, size.size()?);
            count(&g, depth, u32::MAX, "actions", (&threads, &split), out)
        }
    }
}

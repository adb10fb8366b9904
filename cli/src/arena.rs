//! `arbiter arena GAME`: many games between built-in players, each deal played from every seat,
//! and each player's results with 95 % confidence intervals.

use crate::options;
use crate::progress::{plural, threads, Progress};
use crate::term::Outcome;
use arbiter_core::arena::{Arena, Contest, Played, Proportion, Report};
use arbiter_core::nantong::{Nantong, Size};
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::{rules_from_names, ArenaDeal, ARENA_RULES};
use arbiter_core::tripletriad::{TripleTriad, PRESETS};
use arbiter_core::Engine;
use clap::builder::PossibleValuesParser;
use std::io::Write;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(clap::Subcommand)]
pub enum Game {
    /// Triple Triad: single rounds, two random FF8 hands per deal (or a preset's first round).
    TripleTriad(TripleTriadArgs),
    /// Trax: games from the empty board.
    Trax(TraxArgs),
    /// Nantong long cards: three players, each deal's deck played with the players rotated
    /// through the three seats.
    Nantong(NantongArgs),
}

/// The options of every game; the players are levels of the game ([`Engine::LEVELS`]).
#[derive(clap::Args)]
pub struct Common<G: Engine + Send + Sync + 'static> {
    /// The players, comma-separated, by level (two; three for Nantong), in seat order for the
    /// first game of each deal.
    #[arg(long, required = true, value_delimiter = ',', value_parser = PossibleValuesParser::new(G::LEVELS))]
    players: Vec<String>,
    /// Games to play, 1 to 1,000,000, rounded up to a whole number of deals (each deal is played
    /// once from every seat).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// Turns (choices) after which a game is stopped unfinished: such games count apart, neither
    /// won nor drawn (an adjudication of the arena, not a rule of the game).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    max_turns: u64,
    /// Seed of the deals and of every player's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads sharing the games (default: all cores); the results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    #[arg(skip)]
    game: PhantomData<G>,
}

/// The most games one arena plays: their results are kept until the report.
const MAX_GAMES: u64 = 1_000_000;

#[derive(clap::Args)]
pub struct TripleTriadArgs {
    /// A preset's first round (its rules, elements and hands, as `arbiter play` deals them)
    /// instead of random FF8 hands under --rules.
    #[arg(long, value_parser = PossibleValuesParser::new(PRESETS), conflicts_with = "rules")]
    preset: Option<String>,
    /// The cards of the random hands: FF8's, or Final Fantasy XIV's (each hand a deck its deck
    /// rule allows; cards with types, for Ascension and Descension).
    #[arg(long, value_enum, default_value = "ff8", conflicts_with = "preset")]
    cards: crate::catalog::Set,
    /// Rules, comma-separated; elemental draws the cells' elements from the seed, chaos each
    /// turn's card, swap the exchanged cards.
    #[arg(long, value_delimiter = ',', value_parser = options::values(TripleTriad::NAME, "rules"),
          default_values = ARENA_RULES.map(|r| r.name()))]
    rules: Vec<String>,
    /// Both hands visible to both players (default: closed, or the preset's own).
    #[arg(long)]
    open: bool,
    /// Hidden hands, also for a preset with open hands.
    #[arg(long, conflicts_with = "open")]
    closed: bool,
    #[command(flatten)]
    common: Common<TripleTriad>,
}

#[derive(clap::Args)]
pub struct TraxArgs {
    /// The board.
    #[arg(long, default_value = options::default("trax", "variant"), value_parser = options::values("trax", "variant"))]
    variant: String,
    #[command(flatten)]
    common: Common<Trax>,
}

#[derive(clap::Args)]
pub struct NantongArgs {
    #[command(flatten)]
    size: options::NantongSize,
    #[command(flatten)]
    common: Common<Nantong>,
}

pub fn run(game: Game, out: &mut impl Write) -> Outcome {
    match game {
        Game::TripleTriad(a) => {
            let open = a.open.then_some(true).or(a.closed.then_some(false));
            let deal = match &a.preset {
                Some(name) => ArenaDeal::Preset {
                    name: name.clone(),
                    open,
                },
                None => {
                    let mut r = rules_from_names(&a.rules).map_err(|e| format!("--rules: {e}"))?;
                    r.open = open.unwrap_or(r.open);
                    match a.cards {
                        crate::catalog::Set::Ff8 => ArenaDeal::Random(r),
                        crate::catalog::Set::Ffxiv => ArenaDeal::RandomFfxiv(r),
                    }
                }
            };
            contest(&a.common, &deal.describe(), out, |seed| Ok(deal.deal(seed)?))
        }
        Game::Trax(a) => {
            let variant: Variant = a.variant.parse().map_err(|e| format!("--variant: {e}"))?;
            contest(&a.common, &format!("variant {variant}"), out, |_| {
                Ok(Trax::new(variant))
            })
        }
        Game::Nantong(a) => {
            let size = a.size.size()?;
            let setup = match size == Size::FULL {
                true => "a shuffled deck per deal".to_owned(),
                false => format!(
                    "a shuffled deck per deal, a smaller deal: {} and a pair, {}",
                    plural(size.groups() as u64, "group"),
                    plural(size.kinds() as u64, "kind")
                ),
            };
            contest(&a.common, &setup, out, |seed| Ok(Nantong::sized(seed, size)))
        }
    }
}

/// Plays every game on the threads asked for, then reports.
fn contest<G: Contest + Send + Sync + 'static>(
    c: &Common<G>,
    setup: &str,
    out: &mut impl Write,
    deal: impl Fn(u64) -> Outcome<G> + Sync,
) -> Outcome {
    let arena = Arena {
        players: c.players.clone(),
        seed: c.seed,
        max_turns: c.max_turns,
    };
    let seats = arena.check::<G>().map_err(|e| format!("--players: {e}"))?;
    let n = threads(c.threads)?;
    // At most a million games (the parser's bound): the counts fit a usize everywhere.
    let deals = c.games.div_ceil(seats as u64) as usize;
    let total = deals * seats;
    // Results as games finish, in any order; sorted by game for the report.
    let results: Mutex<Vec<(usize, Played)>> = Mutex::new(Vec::new());
    let failure = Mutex::new(None);
    let (next, done, stop) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicBool::new(false));
    let turns = AtomicU64::new(0);
    let progress = Progress::new("games");
    let main = std::thread::current();
    std::thread::scope(|scope| {
        for _ in 0..n.min(total) {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    let on_turn = || {
                        turns.fetch_add(1, Ordering::Relaxed);
                    };
                    let game = deal(arena.deal_seed(i, seats)).and_then(|g| Ok(arena.play(g, i, &on_turn)?));
                    match game {
                        Ok(p) => results.lock().expect("no thread panics").push((i, p)),
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            failure.lock().expect("no thread panics").get_or_insert(e);
                        }
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                    main.unpark();
                }
            });
        }
        // Progress while games are played, also within a long game: games done and turns played.
        while done.load(Ordering::Relaxed) < total && !stop.load(Ordering::Relaxed) {
            let turns = turns.load(Ordering::Relaxed);
            progress.update_with(done.load(Ordering::Relaxed), total, &format!("{turns} turns"));
            std::thread::park_timeout(std::time::Duration::from_millis(200));
        }
    });
    progress.finish();
    if let Some(e) = failure.into_inner().expect("no thread panics") {
        return Err(e);
    }
    let mut results = results.into_inner().expect("no thread panics");
    results.sort_unstable_by_key(|&(i, _)| i);
    let played: Vec<Played> = results.into_iter().map(|(_, p)| p).collect();
    let report = Report::new::<G>(&arena, setup, &played);
    if c.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        writeln!(out, "{json}")?;
    } else {
        write_report(&report, out, n)?;
    }
    Ok(())
}

/// A line of a player's results: what, how many, the rate and its interval in percent.
fn line(what: &str, p: &Proportion) -> String {
    let rate = if p.of == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * p.rate)
    };
    format!(
        "  {what:<24}{:>8} {rate:>6}  ({:.1}-{:.1})",
        p.count,
        100.0 * p.low,
        100.0 * p.high
    )
}

/// The report as a table.
fn write_report(report: &Report, out: &mut impl Write, threads: usize) -> Outcome {
    let seats = report.players.len();
    let every = if seats == 2 {
        "both".to_string()
    } else {
        format!("all {seats}")
    };
    writeln!(
        out,
        "{} arena: {}, {} each played from {every} seats",
        report.game,
        plural(report.games as u64, "game"),
        plural(report.deals as u64, "deal"),
    )?;
    writeln!(out, "seed {}, {}", report.seed, plural(threads as u64, "thread"))?;
    writeln!(out, "setup: {}", report.setup)?;
    let unfinished = report.players.first().map_or(0, |s| s.unfinished.count);
    writeln!(
        out,
        "games stopped unfinished at {} turns (neither won nor drawn): {unfinished}",
        report.max_turns
    )?;
    writeln!(out, "{}", report.intervals)?;
    // A block per player rather than a row: with the intervals, a row took 141 columns.
    for s in &report.players {
        writeln!(out)?;
        writeln!(out, "{} {}, {}", s.player, s.level, plural(s.games, "game"))?;
        writeln!(out, "{}", line("wins", &s.wins))?;
        writeln!(out, "{}", line("draws", &s.draws))?;
        writeln!(out, "{}", line("losses", &s.losses))?;
        writeln!(out, "{}", line("wins of decisive games", &s.decisive_win_rate))?;
        if let Some(m) = &s.points_per_deal {
            // One deal gives a mean but no interval.
            let interval = if m.low.is_finite() && m.high.is_finite() {
                format!("({:+.1} to {:+.1})", m.low, m.high)
            } else {
                "(no interval from one deal)".into()
            };
            writeln!(out, "  {:<24}{:>+8.1}         {interval}", "points per deal", m.mean)?;
        }
        writeln!(
            out,
            "  {:<24}{:>8.2} ms a move, the longest {:.1} ms",
            "thinking", s.thinking.mean_ms, s.thinking.max_ms
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::tripletriad::Setup;

    /// `arena GAME --players ... --games games --max-turns max_turns --threads 1 --json`, parsed.
    fn arena<G: Contest + Send + Sync + 'static>(
        players: &[&str],
        games: u64,
        max_turns: u64,
        deal: impl Fn(u64) -> Outcome<G> + Sync,
    ) -> serde_json::Value {
        let c = Common::<G> {
            players: players.iter().map(|p| p.to_string()).collect(),
            games,
            max_turns,
            seed: 5,
            threads: Some(1),
            json: true,
            game: PhantomData,
        };
        let mut out = Vec::new();
        contest(&c, "test", &mut out, deal).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    /// Every combination of levels plays its games to the end or to the turn limit, and every game
    /// is counted once: won, drawn, lost or unfinished.
    fn every_pair_finishes<G: Contest + Send + Sync + 'static>(
        games: u64,
        max_turns: u64,
        deal: impl Fn(u64) -> Outcome<G> + Sync + Copy,
    ) {
        let seats = G::PLAYERS.len();
        let combos = G::LEVELS.len().pow(seats as u32);
        for k in 0..combos {
            let players: Vec<&str> = (0..seats)
                .map(|s| G::LEVELS[k / G::LEVELS.len().pow(s as u32) % G::LEVELS.len()])
                .collect();
            let v = arena(&players, games, max_turns, deal);
            let n = v["games"].as_u64().unwrap();
            assert!(n >= games, "{players:?}");
            for p in v["players"].as_array().unwrap() {
                let count = |k: &str| p[k]["count"].as_u64().unwrap();
                assert_eq!(
                    count("wins") + count("draws") + count("losses") + count("unfinished"),
                    n,
                    "{players:?}"
                );
            }
        }
    }

    #[test]
    fn every_pair_of_levels_of_every_game_finishes_its_games() {
        // hard against hard used to print nothing in 150 s: games that never ended (issue 19.1).
        every_pair_finishes(2, 16, |_| Ok(Trax::new(Variant::Unbounded)));
        every_pair_finishes(2, 40, |seed| {
            Ok(TripleTriad::new(&Setup::random_ff8(seed)).map_err(|e| e.to_string())?)
        });
        every_pair_finishes(3, 400, |seed| Ok(Nantong::new(seed)));
    }

    #[test]
    fn a_game_stopped_at_the_turn_limit_is_unfinished_not_drawn() {
        let v = arena(&["random", "random"], 4, 3, |_| Ok(Trax::new(Variant::Unbounded)));
        assert_eq!(v["max_turns"], 3);
        for p in v["players"].as_array().unwrap() {
            assert_eq!(
                (p["unfinished"]["count"].as_u64(), p["draws"]["count"].as_u64()),
                (Some(4), Some(0))
            );
            assert_eq!(p["thinking"]["moves"].as_u64().unwrap(), 4 * 3 / 2);
        }
    }
}

//! `arbiter arena GAME`: many games between built-in players, each deal played from every seat,
//! and each player's results with 95 % confidence intervals.

use crate::perft::{threads, Progress};
use crate::term::Outcome;
use arbiter_core::nantong::Nantong;
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::{Rules, Setup, TripleTriad, PRESETS};
use arbiter_core::{Engine, Rng};
use clap::builder::PossibleValuesParser;
use serde::Serialize;
use std::io::Write;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

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

/// The placement rules `--rules` knows, as the rules file names them.
const RULES: [&str; 10] = [
    "none",
    "same",
    "same-wall",
    "plus",
    "plus-wall",
    "combo",
    "combo-from-basic",
    "battle",
    "borderless",
    "elemental",
];

#[derive(clap::Args)]
pub struct TripleTriadArgs {
    /// A preset's first round (its rules, elements and hands, as `arbiter play` deals them)
    /// instead of random FF8 hands under --rules.
    #[arg(long, value_parser = PossibleValuesParser::new(PRESETS), conflicts_with = "rules")]
    preset: Option<String>,
    /// Placement rules, comma-separated (default: same,plus,combo); elemental draws the cells'
    /// elements from the seed.
    #[arg(long, value_delimiter = ',', value_parser = PossibleValuesParser::new(RULES))]
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
    /// The board: 8x8, unbounded or loop.
    #[arg(long, default_value = "unbounded", value_parser = PossibleValuesParser::new(["8x8", "unbounded", "loop"]))]
    variant: String,
    #[command(flatten)]
    common: Common<Trax>,
}

#[derive(clap::Args)]
pub struct NantongArgs {
    #[command(flatten)]
    common: Common<Nantong>,
}

/// A game the arena can play on its threads.
trait Contest: Engine + Send + Sync + 'static {}

impl<G: Engine + Send + Sync + 'static> Contest for G {}

/// A number drawn from `seed` for the parts of one game (its deal, a seat), so that a game plays
/// the same whichever thread plays it, and whenever.
fn stream(seed: u64, parts: &[u64]) -> u64 {
    parts.iter().fold(seed, |s, &p| Rng::new(s ^ p).next_u64())
}

/// The rules named by `--rules`.
fn rules(names: &[String]) -> Result<Rules, String> {
    let mut r = Rules::default();
    for name in names {
        match name.as_str() {
            "none" => {}
            "same" => r.same = true,
            "same-wall" => r.same_wall = true,
            "plus" => r.plus = true,
            "plus-wall" => r.plus_wall = true,
            "combo" => r.combo = true,
            "combo-from-basic" => r.combo_from_basic = true,
            "battle" => r.battle = true,
            "borderless" => r.borderless = true,
            "elemental" => r.elemental = true,
            other => return Err(format!("--rules: unknown rule {other:?}")),
        }
    }
    r.validate(false).map_err(|e| format!("--rules: {e}"))?;
    Ok(r)
}

pub fn run(game: Game, out: &mut impl Write) -> Outcome {
    match game {
        Game::TripleTriad(a) => {
            let open = a.open.then_some(true).or(a.closed.then_some(false));
            let hands = match open {
                Some(true) => "open hands",
                Some(false) => "closed hands",
                None => "hands as the preset has them",
            };
            match &a.preset {
                Some(name) => {
                    let setup = format!("preset {name}'s first round, {hands}");
                    contest(&a.common, &setup, out, |seed| {
                        let g = TripleTriad::from_preset(name, seed)?;
                        let mut s = g.setup();
                        s.rules.open = open.unwrap_or(s.rules.open);
                        Ok(TripleTriad::new(&s).map_err(|e| e.to_string())?)
                    })
                }
                None => {
                    let names = if a.rules.is_empty() {
                        vec!["same".into(), "plus".into(), "combo".into()]
                    } else {
                        a.rules
                    };
                    let r = Rules {
                        open: open.unwrap_or(false),
                        ..rules(&names)?
                    };
                    let hands = if r.open { "open hands" } else { "closed hands" };
                    let setup = format!("two random FF8 hands, rules {}, {hands}", names.join(","));
                    contest(&a.common, &setup, out, |seed| {
                        let mut s = Setup::random_ff8(seed).with_rules(r);
                        if r.elemental {
                            s.draw_elements(&mut Rng::new(stream(seed, &[0xE1E])));
                        }
                        Ok(TripleTriad::new(&s).map_err(|e| e.to_string())?)
                    })
                }
            }
        }
        Game::Trax(a) => {
            let variant: Variant = a.variant.parse().map_err(|e| format!("--variant: {e}"))?;
            contest(&a.common, &format!("variant {variant}"), out, |_| {
                Ok(Trax::new(variant))
            })
        }
        Game::Nantong(a) => contest(&a.common, "a shuffled deck per deal", out, |seed| {
            Ok(Nantong::new(seed))
        }),
    }
}

/// One game, from each player's side (players by their place in `--players`, not by seat).
struct Played {
    /// The winner, `None` for a draw or an unfinished game.
    winner: Option<usize>,
    /// Stopped at `--max-turns`.
    unfinished: bool,
    points: Option<Vec<f64>>,
    /// Moves, seconds thinking and the longest think.
    moves: Vec<(u64, f64, f64)>,
}

/// Plays game `index`: deal `index / seats`, with player `p` in seat `(p + index) % seats`.
fn play<G: Contest>(
    deal: &(dyn Fn(u64) -> Outcome<G> + Sync),
    c: &Common<G>,
    index: usize,
    turns: &AtomicU64,
) -> Outcome<Played> {
    let (players, seed) = (&c.players, c.seed);
    let seats = players.len();
    let (d, rotation) = ((index / seats) as u64, index % seats);
    let mut g = deal(stream(seed, &[d]))?;
    // Random choices come from one stream per seat of the deal, whoever sits there: a level
    // playing itself plays each game of the deal alike, seats swapped, and others meet the same
    // luck from either seat.
    let mut rngs: Vec<Rng> = (0..seats).map(|s| Rng::new(stream(seed, &[d, s as u64 + 1]))).collect();
    let player_at = |seat: usize| (seat + seats - rotation) % seats;
    let mut moves = vec![(0u64, 0f64, 0f64); seats];
    let mut turn = 0;
    while let Some(mover) = g.to_move() {
        if turn == c.max_turns {
            return Ok(Played {
                winner: None,
                unfinished: true,
                points: None,
                moves,
            });
        }
        turn += 1;
        turns.fetch_add(1, Ordering::Relaxed);
        let seat = G::player_index(mover);
        let p = player_at(seat);
        let start = Instant::now();
        let mv = g
            .choose(&players[p], &mut rngs[seat])?
            .ok_or_else(|| format!("{} ({}) found no move in game {index}", players[p], mover))?;
        let secs = start.elapsed().as_secs_f64();
        let m = &mut moves[p];
        *m = (m.0 + 1, m.1 + secs, m.2.max(secs));
        g.play(mv).map_err(Into::into)?;
    }
    let winner = match g.outcome() {
        Some(arbiter_core::Outcome::Winner(w)) => Some(player_at(G::player_index(w))),
        _ => None,
    };
    let points = G::RETURNS_POINTS.then(|| {
        let by_seat = g.returns();
        (0..seats).map(|p| by_seat[(p + rotation) % seats]).collect()
    });
    Ok(Played {
        winner,
        unfinished: false,
        points,
        moves,
    })
}

/// Plays every game on the threads asked for, then reports.
fn contest<G: Contest>(
    c: &Common<G>,
    setup: &str,
    out: &mut impl Write,
    deal: impl Fn(u64) -> Outcome<G> + Sync,
) -> Outcome {
    let seats = G::PLAYERS.len();
    if c.players.len() != seats {
        return Err(format!(
            "--players: {} is played by {seats} players, not {} ({})",
            G::NAME,
            c.players.len(),
            c.players.join(",")
        )
        .into());
    }
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
                    match play(&deal, c, i, &turns) {
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
    let report = Report::new::<G>(c, setup, deals, &played);
    if c.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        writeln!(out, "{json}")?;
    } else {
        report.write(out, n)?;
    }
    Ok(())
}

/// The two-sided 95 % quantile of the standard normal distribution.
const Z: f64 = 1.959_963_984_540_054;

/// A proportion with its 95 % Wilson score interval.
#[derive(Serialize)]
struct Proportion {
    count: u64,
    of: u64,
    rate: f64,
    low: f64,
    high: f64,
}

impl Proportion {
    fn new(count: u64, of: u64) -> Proportion {
        if of == 0 {
            return Proportion {
                count,
                of,
                rate: f64::NAN,
                low: 0.0,
                high: 1.0,
            };
        }
        let (n, p) = (of as f64, count as f64 / of as f64);
        let z2 = Z * Z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        Proportion {
            count,
            of,
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }

    fn text(&self) -> String {
        let rate = if self.of == 0 {
            "-".into()
        } else {
            format!("{:.1}%", 100.0 * self.rate)
        };
        format!(
            "{:>5} {rate:>6} ({:.1}-{:.1})",
            self.count,
            100.0 * self.low,
            100.0 * self.high
        )
    }
}

/// A mean with its 95 % Student t interval.
#[derive(Serialize)]
struct Mean {
    mean: f64,
    low: f64,
    high: f64,
}

impl Mean {
    fn new(xs: &[f64]) -> Mean {
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let half = t975(n - 1.0) * (var / n).sqrt();
        Mean {
            mean,
            low: mean - half,
            high: mean + half,
        }
    }
}

/// The 97.5 % quantile of Student's t with `df` degrees of freedom, by the Cornish-Fisher
/// expansion around the normal one (Abramowitz and Stegun 26.7.5): within 0.001 from 5 degrees
/// of freedom on; infinite below one.
fn t975(df: f64) -> f64 {
    if df < 1.0 {
        return f64::INFINITY;
    }
    let z = Z;
    let g = [
        (z.powi(3) + z) / 4.0,
        (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / 96.0,
        (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / 384.0,
        (79.0 * z.powi(9) + 776.0 * z.powi(7) + 1482.0 * z.powi(5) - 1920.0 * z.powi(3) - 945.0 * z) / 92160.0,
    ];
    z + g.iter().zip(1..).map(|(g, k)| g / df.powi(k)).sum::<f64>()
}

/// Thinking time per move.
#[derive(Serialize)]
struct Thinking {
    moves: u64,
    mean_ms: f64,
    max_ms: f64,
}

/// One player's results.
#[derive(Serialize)]
struct Standing {
    player: usize,
    level: String,
    games: u64,
    wins: Proportion,
    draws: Proportion,
    losses: Proportion,
    /// Games stopped at `--max-turns`: neither won, drawn nor lost.
    unfinished: Proportion,
    /// Wins among the games someone won.
    decisive_win_rate: Proportion,
    /// Mean points per deal (the player's mean over the deal's games), for games that score.
    points_per_deal: Option<Mean>,
    thinking: Thinking,
}

#[derive(Serialize)]
struct Report {
    game: &'static str,
    setup: String,
    seed: u64,
    games: usize,
    deals: usize,
    max_turns: u64,
    intervals: &'static str,
    players: Vec<Standing>,
}

impl Report {
    fn new<G: Contest>(c: &Common<G>, setup: &str, deals: usize, played: &[Played]) -> Report {
        let seats = c.players.len();
        let games = played.len() as u64;
        let scores = played.iter().any(|g| g.points.is_some());
        let players = (0..seats)
            .map(|p| {
                let wins = played.iter().filter(|g| g.winner == Some(p)).count() as u64;
                let unfinished = played.iter().filter(|g| g.unfinished).count() as u64;
                let draws = played.iter().filter(|g| g.winner.is_none()).count() as u64 - unfinished;
                let losses = games - wins - draws - unfinished;
                let per_deal: Option<Vec<f64>> = played
                    .chunks(seats)
                    .map(|deal| {
                        let sum: Option<f64> = deal.iter().map(|g| g.points.as_ref().map(|x| x[p])).sum();
                        sum.map(|s| s / seats as f64)
                    })
                    .collect();
                let (moves, secs, max) = played.iter().fold((0, 0.0, 0f64), |(n, s, m), g| {
                    let (gn, gs, gm) = g.moves[p];
                    (n + gn, s + gs, m.max(gm))
                });
                Standing {
                    player: p + 1,
                    level: c.players[p].clone(),
                    games,
                    wins: Proportion::new(wins, games),
                    draws: Proportion::new(draws, games),
                    losses: Proportion::new(losses, games),
                    unfinished: Proportion::new(unfinished, games),
                    decisive_win_rate: Proportion::new(wins, wins + losses),
                    points_per_deal: per_deal.filter(|xs| !xs.is_empty()).map(|xs| Mean::new(&xs)),
                    thinking: Thinking {
                        moves,
                        mean_ms: if moves > 0 { 1e3 * secs / moves as f64 } else { 0.0 },
                        max_ms: 1e3 * max,
                    },
                }
            })
            .collect();
        Report {
            game: G::NAME,
            setup: setup.into(),
            seed: c.seed,
            games: played.len(),
            deals,
            max_turns: c.max_turns,
            intervals: if scores {
                "95 % intervals: Wilson for the proportions (games taken as independent), Student t \
                 over deals for the points"
            } else {
                "95 % intervals: Wilson (games taken as independent)"
            },
            players,
        }
    }

    fn write(&self, out: &mut impl Write, threads: usize) -> Outcome {
        let seats = self.players.len();
        let every = if seats == 2 {
            "both".to_string()
        } else {
            format!("all {seats}")
        };
        writeln!(
            out,
            "{} arena: {} games, {} deals each played from {every} seats; seed {}, {threads} thread{}",
            self.game,
            self.games,
            self.deals,
            self.seed,
            if threads == 1 { "" } else { "s" }
        )?;
        writeln!(out, "setup: {}", self.setup)?;
        let unfinished = self.players.first().map_or(0, |s| s.unfinished.count);
        writeln!(
            out,
            "games stopped unfinished at {} turns (neither won nor drawn): {unfinished}",
            self.max_turns
        )?;
        writeln!(out, "{}", self.intervals)?;
        writeln!(out)?;
        let points = self.players.iter().any(|s| s.points_per_deal.is_some());
        let mut head = format!(
            "{:<14} {:>6}  {:<24} {:<24} {:<24} {:<24}",
            "player", "games", "wins", "draws", "losses", "wins of decisive games"
        );
        if points {
            head.push_str(&format!("  {:<26}", "points per deal"));
        }
        head.push_str(&format!("  {:>8} {:>8}", "ms/move", "max ms"));
        writeln!(out, "{head}")?;
        for s in &self.players {
            let mut row = format!(
                "{:<14} {:>6}  {:<24} {:<24} {:<24} {:<24}",
                format!("{} {}", s.player, s.level),
                s.games,
                s.wins.text(),
                s.draws.text(),
                s.losses.text(),
                s.decisive_win_rate.text()
            );
            if let Some(m) = &s.points_per_deal {
                row.push_str(&format!("  {:+8.1} ({:+.1} to {:+.1})", m.mean, m.low, m.high));
            } else if points {
                row.push_str(&format!("  {:<26}", "-"));
            }
            row.push_str(&format!("  {:8.2} {:8.1}", s.thinking.mean_ms, s.thinking.max_ms));
            writeln!(out, "{}", row.trim_end())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `arena GAME --players ... --games games --max-turns max_turns --threads 1 --json`, parsed.
    fn arena<G: Contest>(
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
    fn every_pair_finishes<G: Contest>(games: u64, max_turns: u64, deal: impl Fn(u64) -> Outcome<G> + Sync + Copy) {
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

    #[test]
    fn wilson_and_t_match_tables() {
        // Wilson (1927) for 8 of 10: 0.490 to 0.943.
        let p = Proportion::new(8, 10);
        assert!((p.low - 0.4902).abs() < 1e-3 && (p.high - 0.9433).abs() < 1e-3);
        // Student t quantiles: 2.571 (5), 2.228 (10), 2.042 (30).
        for (df, want) in [(5.0, 2.5706), (10.0, 2.2281), (30.0, 2.0423)] {
            assert!((t975(df) - want).abs() < 2e-3, "{df}: {}", t975(df));
        }
        let m = Mean::new(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert!((m.mean - 3.5).abs() < 1e-12 && (m.high - 5.4624).abs() < 5e-3);
    }
}

//! Arenas: many games between built-in levels, each deal played again from every seat so that
//! the luck of the deal cancels, and each player's results with 95 % confidence intervals. Game
//! `i` depends on the seed and `i` alone, so that any split of the games over threads, processes
//! or machines (`arbiter arena`, Python's `arbiter.distributed.arena`) gives the same report.

use std::string::String;
use std::time::Instant;
use std::vec::Vec;

use crate::engine::Engine;
use crate::error::{Error, ErrorKind};
use crate::Rng;

/// What an arena needs of a game beyond [`Engine`].
pub trait Contest: Engine {
    /// Each seat's points at the end, for a game that scores in points (Nantong's settlement).
    fn points(&self) -> Option<Vec<f64>> {
        None
    }
}

/// A number drawn from `seed` for the parts of one game (its deal, a seat), so that a game plays
/// the same whichever thread plays it, and whenever.
pub fn stream(seed: u64, parts: &[u64]) -> u64 {
    parts.iter().fold(seed, |s, &p| Rng::new(s ^ p).next_u64())
}

/// The players (levels, in seat order for the first game of each deal), the seed of the deals
/// and of every random choice, and the turns after which a game is stopped unfinished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arena {
    /// One level per seat.
    pub players: Vec<String>,
    /// Seed of the deals and of the players' random choices.
    pub seed: u64,
    /// Turns (choices) after which a game is stopped, counted neither won nor drawn.
    pub max_turns: u64,
}

/// One game, from each player's side (players by their place in [`Arena::players`], not by seat).
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The winner, `None` for a draw or an unfinished game.
    pub winner: Option<usize>,
    /// Stopped at [`Arena::max_turns`].
    pub unfinished: bool,
    /// Each player's points, for a game that scores in points.
    pub points: Option<Vec<f64>>,
    /// Per player: moves, seconds thinking and the longest think.
    pub moves: Vec<(u64, f64, f64)>,
}

impl Arena {
    /// The seats of game `G`, checked against the players: an error unless there is one level of
    /// the game per seat.
    pub fn check<G: Engine>(&self) -> Result<usize, Error> {
        let seats = G::PLAYERS.len();
        if self.players.len() != seats {
            return Err(Error::new(
                ErrorKind::BadArgument,
                std::format!(
                    "{} is played by {seats} players, not {} ({})",
                    G::NAME,
                    self.players.len(),
                    self.players.join(",")
                ),
            ));
        }
        for p in &self.players {
            if !G::LEVELS.contains(&p.as_str()) {
                return Err(Error::new(
                    ErrorKind::BadArgument,
                    std::format!(
                        "unknown level {p:?} for {} (expected {})",
                        G::NAME,
                        G::LEVELS.join(", ")
                    ),
                ));
            }
        }
        Ok(seats)
    }

    /// The seed game `index` is dealt from: that of its deal, `index / seats`.
    pub fn deal_seed(&self, index: usize, seats: usize) -> u64 {
        stream(self.seed, &[(index / seats) as u64])
    }

    /// Plays game `index` from `g` (dealt from [`Arena::deal_seed`]): deal `index / seats`, with
    /// player `p` in seat `(p + index) % seats`; `on_turn` after each turn.
    pub fn play<G: Contest>(&self, mut g: G, index: usize, on_turn: &dyn Fn()) -> Result<Played, Error> {
        let players = &self.players;
        let seats = players.len();
        let (d, rotation) = ((index / seats) as u64, index % seats);
        // Random choices come from one stream per seat of the deal, whoever sits there: a level
        // playing itself plays each game of the deal alike, seats swapped, and others meet the
        // same luck from either seat.
        let mut rngs: Vec<Rng> = (0..seats)
            .map(|s| Rng::new(stream(self.seed, &[d, s as u64 + 1])))
            .collect();
        let player_at = |seat: usize| (seat + seats - rotation) % seats;
        let mut moves = std::vec![(0u64, 0f64, 0f64); seats];
        let mut turn = 0;
        while let Some(mover) = g.to_move() {
            if turn == self.max_turns {
                return Ok(Played {
                    winner: None,
                    unfinished: true,
                    points: None,
                    moves,
                });
            }
            turn += 1;
            on_turn();
            let seat = G::player_index(mover);
            let p = player_at(seat);
            let start = Instant::now();
            let mv = g.choose(&players[p], &mut rngs[seat])?.ok_or_else(|| {
                Error::new(
                    ErrorKind::GameOver,
                    std::format!("{} ({}) found no move in game {index}", players[p], mover),
                )
            })?;
            let secs = start.elapsed().as_secs_f64();
            let m = &mut moves[p];
            *m = (m.0 + 1, m.1 + secs, m.2.max(secs));
            g.play(mv).map_err(Into::into)?;
        }
        let winner = match g.outcome() {
            Some(crate::Outcome::Winner(w)) => Some(player_at(G::player_index(w))),
            _ => None,
        };
        let points = g
            .points()
            .map(|by_seat| (0..seats).map(|p| by_seat[(p + rotation) % seats]).collect());
        Ok(Played {
            winner,
            unfinished: false,
            points,
            moves,
        })
    }
}

/// The two-sided 95 % quantile of the standard normal distribution.
const Z: f64 = 1.959_963_984_540_054;

/// A proportion with its 95 % Wilson score interval.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Proportion {
    /// How many.
    pub count: u64,
    /// Of how many.
    pub of: u64,
    /// `count / of` (NaN when `of` is 0).
    pub rate: f64,
    /// The interval's low end.
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
}

impl Proportion {
    /// `count` of `of`, with its interval (0 to 1 when `of` is 0).
    pub fn new(count: u64, of: u64) -> Proportion {
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
}

/// A mean with its 95 % Student t interval.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Mean {
    /// The mean.
    pub mean: f64,
    /// The interval's low end.
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
}

impl Mean {
    /// The mean of `xs` (two or more) with its interval.
    pub fn new(xs: &[f64]) -> Mean {
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
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Thinking {
    /// Moves chosen.
    pub moves: u64,
    /// Mean milliseconds a move.
    pub mean_ms: f64,
    /// The longest think, in milliseconds.
    pub max_ms: f64,
}

/// One player's results.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Standing {
    /// The player's place in the players, from 1.
    pub player: usize,
    /// Its level.
    pub level: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: Proportion,
    /// Games drawn.
    pub draws: Proportion,
    /// Games lost.
    pub losses: Proportion,
    /// Games stopped at `--max-turns`: neither won, drawn nor lost.
    pub unfinished: Proportion,
    /// Wins among the games someone won.
    pub decisive_win_rate: Proportion,
    /// Mean points per deal (the player's mean over the deal's games), for games that score.
    pub points_per_deal: Option<Mean>,
    /// Thinking time.
    pub thinking: Thinking,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
/// An arena's results: `arbiter arena --json` prints it.
pub struct Report {
    /// The game's name.
    pub game: &'static str,
    /// The deals, in words.
    pub setup: String,
    /// The arena's seed.
    pub seed: u64,
    /// Games played.
    pub games: usize,
    /// Deals, each played from every seat.
    pub deals: usize,
    /// The turn limit.
    pub max_turns: u64,
    /// What the intervals are.
    pub intervals: &'static str,
    /// Each player's results, in the players' order.
    pub players: Vec<Standing>,
}

impl Report {
    /// The report of the games `played`, in game order (deal after deal, each from every seat).
    pub fn new<G: Engine>(arena: &Arena, setup: &str, played: &[Played]) -> Report {
        let seats = arena.players.len();
        let deals = played.len().div_ceil(seats.max(1));
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
                    level: arena.players[p].clone(),
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
            seed: arena.seed,
            games: played.len(),
            deals,
            max_turns: arena.max_turns,
            intervals: if scores {
                "95 % intervals: Wilson (games taken as independent), Student t over deals (points)"
            } else {
                "95 % intervals: Wilson (games taken as independent)"
            },
            players,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trax::Trax;
    use std::string::ToString;

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

    #[test]
    fn bad_players_are_refused() {
        let a = Arena {
            players: std::vec!["random".into()],
            seed: 1,
            max_turns: 10,
        };
        assert_eq!(a.check::<Trax>().unwrap_err().kind(), ErrorKind::BadArgument);
        let a = Arena {
            players: std::vec!["random".into(), "grandmaster".into()],
            ..a
        };
        assert!(a.check::<Trax>().unwrap_err().to_string().contains("unknown level"));
    }
}

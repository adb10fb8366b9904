//! Arenas for Python: games of an arena played by index, and the report of their results, both
//! the core's (`arbiter_core::arena`), so that games played anywhere (Ray tasks, processes) and
//! reported together give exactly what `arbiter arena --json` prints.

use arbiter_core::arena::{Arena, Contest, Played, Report};
use arbiter_core::nantong::Nantong;
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::TripleTriad;
use arbiter_core::tripletriad::{rules_from_names, ArenaDeal, ARENA_RULES};
use arbiter_core::Error;
use pyo3::prelude::*;

use crate::convert::{bad_argument, to_py, OrRaise};
use crate::interrupt::Interrupt;

/// One game's result as Python holds it: winner (place in the players, or None), whether it was
/// stopped unfinished, each player's points (Nantong) and each player's (moves, seconds, longest).
type Result1 = (Option<usize>, bool, Option<Vec<f64>>, Vec<(u64, f64, f64)>);

/// The deals of an arena, by game.
enum Deals {
    TripleTriad(ArenaDeal),
    Trax(Variant),
    Nantong,
}

/// The deals `arbiter arena GAME` makes with the same options (`cards`: its `--cards`, `ff8` or
/// `ffxiv`); an option the game does not take is refused.
fn deals(
    game: &str,
    variant: Option<String>,
    preset: Option<String>,
    rules: Option<Vec<String>>,
    open: Option<bool>,
    cards: Option<String>,
) -> PyResult<Deals> {
    let refuse = |what: &str| Err(bad_argument(format!("{game} takes no {what} option")));
    match game {
        "triple-triad" => {
            if variant.is_some() {
                return refuse("variant");
            }
            let ffxiv = match cards.as_deref() {
                None | Some("ff8") => false,
                Some("ffxiv") => true,
                Some(other) => return Err(bad_argument(format!("cards {other:?}: ff8 or ffxiv"))),
            };
            Ok(Deals::TripleTriad(match (preset, rules) {
                (Some(_), Some(_)) => return Err(bad_argument("preset and rules exclude each other")),
                (Some(_), None) if cards.is_some() => {
                    return Err(bad_argument(
                        "preset and cards exclude each other: a preset deals its own cards",
                    ))
                }
                (Some(name), None) => ArenaDeal::Preset { name, open },
                (None, rules) => {
                    let names = rules.unwrap_or_else(|| ARENA_RULES.map(|r| r.name().to_owned()).to_vec());
                    let mut r = rules_from_names(&names).py()?;
                    r.open = open.unwrap_or(false);
                    if ffxiv {
                        ArenaDeal::RandomFfxiv(r)
                    } else {
                        ArenaDeal::Random(r)
                    }
                }
            }))
        }
        "trax" | "nantong" if preset.is_some() => refuse("preset"),
        "trax" | "nantong" if cards.is_some() => refuse("cards"),
        "trax" | "nantong" if rules.is_some() => refuse("rules"),
        "trax" | "nantong" if open.is_some() => refuse("open"),
        "trax" => Ok(Deals::Trax(match variant {
            Some(v) => v.parse::<Variant>().py()?,
            None => Variant::default(),
        })),
        "nantong" if variant.is_some() => refuse("variant"),
        "nantong" => Ok(Deals::Nantong),
        _ => {
            arbiter_core::games::describe(game).py()?;
            Err(bad_argument(format!("{game} has no arena")))
        }
    }
}

fn play<G: Contest>(
    arena: &Arena,
    deal: impl Fn(u64) -> Result<G, Error>,
    (start, stop): (usize, usize),
    interrupt: &Interrupt,
) -> Option<Result<Vec<Result1>, Error>> {
    let seats = match arena.check::<G>() {
        Ok(seats) => seats,
        Err(e) => return Some(Err(e)),
    };
    let mut played = Vec::with_capacity(stop.saturating_sub(start));
    // Ctrl-C is heard between games (a game is a fraction of a second).
    for i in start..stop {
        if interrupt.stop() {
            return None;
        }
        let p = deal(arena.deal_seed(i, seats)).and_then(|g| arena.play(g, i, &|| {}));
        match p {
            Ok(p) => played.push((p.winner, p.unfinished, p.points, p.moves)),
            Err(e) => return Some(Err(e)),
        }
    }
    Some(Ok(played))
}

/// Games `start` to `stop - 1` of an arena (as `arbiter arena`: deal `i / seats`, players
/// rotated through the seats), each game's result, played with the GIL released.
#[pyfunction]
#[pyo3(signature = (game, players, seed, max_turns, start, stop, *, variant=None, preset=None, rules=None, open=None, cards=None))]
#[allow(clippy::too_many_arguments)]
pub fn arena_games(
    py: Python<'_>,
    game: &str,
    players: Vec<String>,
    seed: u64,
    max_turns: u64,
    start: usize,
    stop: usize,
    variant: Option<String>,
    preset: Option<String>,
    rules: Option<Vec<String>>,
    open: Option<bool>,
    cards: Option<String>,
) -> PyResult<Vec<Result1>> {
    let which = deals(game, variant, preset, rules, open, cards)?;
    let arena = Arena {
        players,
        seed,
        max_turns,
    };
    let interrupt = Interrupt::new();
    let played = py.detach(|| match which {
        Deals::TripleTriad(d) => play(&arena, |s| d.deal(s), (start, stop), &interrupt),
        Deals::Trax(v) => play(&arena, |_| Ok(Trax::new(v)), (start, stop), &interrupt),
        Deals::Nantong => play(&arena, |s| Ok(Nantong::new(s)), (start, stop), &interrupt),
    });
    interrupt.result(played)?.py()
}

/// The report of an arena's games (all of them, in game order) as a dict: what
/// `arbiter arena GAME --json` prints for the same arguments.
#[pyfunction]
#[pyo3(signature = (game, players, seed, max_turns, played, *, variant=None, preset=None, rules=None, open=None, cards=None))]
#[allow(clippy::too_many_arguments)]
pub fn arena_report<'py>(
    py: Python<'py>,
    game: &str,
    players: Vec<String>,
    seed: u64,
    max_turns: u64,
    played: Vec<Result1>,
    variant: Option<String>,
    preset: Option<String>,
    rules: Option<Vec<String>>,
    open: Option<bool>,
    cards: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let which = deals(game, variant, preset, rules, open, cards)?;
    let arena = Arena {
        players,
        seed,
        max_turns,
    };
    let played: Vec<Played> = played
        .into_iter()
        .map(|(winner, unfinished, points, moves)| Played {
            winner,
            unfinished,
            points,
            moves,
        })
        .collect();
    let report = match which {
        Deals::TripleTriad(d) => {
            arena.check::<TripleTriad>().py()?;
            Report::new::<TripleTriad>(&arena, &d.describe(), &played)
        }
        Deals::Trax(v) => {
            arena.check::<Trax>().py()?;
            Report::new::<Trax>(&arena, &format!("variant {v}"), &played)
        }
        Deals::Nantong => {
            arena.check::<Nantong>().py()?;
            Report::new::<Nantong>(&arena, "a shuffled deck per deal", &played)
        }
    };
    to_py(py, &report)
}

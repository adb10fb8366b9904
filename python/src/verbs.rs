//! The verbs every game shares, written once over [`PyGame`]; `game_class!` in `lib.rs` stamps
//! them onto each Python class as one-line methods (a `#[pyclass]` cannot be generic).

use arbiter_core::{Budget, Engine, Error, Outcome, Rng};
use core::str::FromStr;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::convert::{bad_argument, from_py, integer, is_integer, parse_error, to_py, wrong_type, OrRaise};
use crate::interrupt::Interrupt;

/// A game as the package hands it to Python: saved and observed as dicts, moves read from
/// notation or action ids, and players as names (`"blue"`, `"white"`) or seat numbers.
pub trait PyGame:
    Engine<Move: FromStr<Err: Into<Error>> + Send, Observation: Serialize> + Serialize + DeserializeOwned + Send + Sync
{
    /// Whether Python names players by their index in [`Engine::PLAYERS`] (Nantong's seats).
    const NUMBERED: bool = false;
}

/// A player as Python sees it: its name, or its seat number.
pub fn player_to_py<G: PyGame>(py: Python<'_>, p: G::Player) -> PyResult<Bound<'_, PyAny>> {
    if G::NUMBERED {
        Ok(G::player_index(p).into_pyobject(py)?.into_any())
    } else {
        Ok(PyString::new(py, &p.to_string()).into_any())
    }
}

/// A player from Python: its name (`"blue"`, `"0"`) or its index in the game's `players`. An
/// unknown name is a `ParseError`, an index out of range a `BadArgumentError`.
pub fn player_from_py<G: PyGame>(v: &Bound<'_, PyAny>) -> PyResult<G::Player> {
    if let Ok(s) = v.cast::<PyString>() {
        return G::player(&s.to_cow()?).py();
    }
    if !is_integer(v) {
        return Err(wrong_type("a player", "a str or an int", v));
    }
    let i = integer(v, "a player index", G::PLAYERS.len() as u64 - 1)?;
    Ok(G::PLAYERS[i as usize])
}

/// The players in seat order, as Python names them.
pub fn players<G: PyGame>(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyAny>>> {
    G::PLAYERS.iter().map(|&p| player_to_py::<G>(py, p)).collect()
}

pub fn legal_moves<G: PyGame>(g: &G) -> Vec<String> {
    g.legal_moves().iter().map(ToString::to_string).collect()
}

/// An action id argument: an int in `0..num_distinct_actions()` naming a move.
pub fn action_move<G: PyGame>(g: &G, id: &Bound<'_, PyAny>) -> PyResult<G::Move> {
    let id = integer(id, "an action id", g.num_distinct_actions() as u64 - 1)?;
    g.action_move(id as usize)
        .ok_or_else(|| bad_argument(format!("action id {id} names no move")))
}

/// The move named by notation text or by an action id (legal now or not: `play` decides).
pub fn read_move<G: PyGame>(g: &G, mv: &Bound<'_, PyAny>) -> PyResult<G::Move> {
    if let Ok(s) = mv.cast::<PyString>() {
        return s
            .to_cow()?
            .parse::<G::Move>()
            .map_err(|e| crate::convert::raise(e.into()));
    }
    if !is_integer(mv) {
        return Err(wrong_type("a move", "a str (notation) or an int (action id)", mv));
    }
    action_move(g, mv)
}

pub fn play<G: PyGame>(g: &mut G, mv: &Bound<'_, PyAny>) -> PyResult<()> {
    let mv = read_move(g, mv)?;
    g.play(mv).py()
}

pub fn to_move<'py, G: PyGame>(py: Python<'py>, g: &G) -> PyResult<Bound<'py, PyAny>> {
    match g.to_move() {
        Some(p) => player_to_py::<G>(py, p),
        None => Ok(py.None().into_bound(py)),
    }
}

pub fn outcome<'py, G: PyGame>(py: Python<'py>, g: &G) -> PyResult<Bound<'py, PyAny>> {
    match g.outcome() {
        Some(Outcome::Winner(p)) => player_to_py::<G>(py, p),
        Some(Outcome::Draw) => Ok(PyString::new(py, "draw").into_any()),
        None => Ok(py.None().into_bound(py)),
    }
}

pub fn observation<'py, G: PyGame>(py: Python<'py>, g: &G, player: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &g.observation(player_from_py::<G>(player)?))
}

pub fn observation_tensor<'py, G: PyGame>(
    py: Python<'py>,
    g: &G,
    player: &Bound<'_, PyAny>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    Ok(PyArray1::from_vec(
        py,
        g.observation_tensor(player_from_py::<G>(player)?),
    ))
}

/// The mask as a NumPy array of `dtype` (anything `numpy.dtype` accepts; bool when `None`).
pub fn legal_action_mask<'py, G: PyGame>(
    py: Python<'py>,
    g: &G,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mask = PyArray1::from_vec(py, g.legal_action_mask());
    match dtype {
        None => Ok(mask.into_any()),
        Some(dtype) => mask.call_method1("astype", (dtype,)),
    }
}

/// The legal action ids, ascending, as a NumPy int64 array (the research interface's way for
/// games whose masks are large: unbounded Trax has 3,145,728 ids).
pub fn legal_actions<'py, G: PyGame>(py: Python<'py>, g: &G) -> Bound<'py, PyArray1<i64>> {
    let ids: Vec<i64> = g.legal_actions().into_iter().map(|id| id as i64).collect();
    PyArray1::from_vec(py, ids)
}

pub fn perft<G: PyGame>(py: Python<'_>, g: &G, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
    let depth = integer(depth, "depth", u32::MAX as u64)? as u32;
    let interrupt = Interrupt::new();
    let nodes = py.detach(|| arbiter_core::perft_until(g, depth, &|| interrupt.stop()));
    interrupt.result(nodes)
}

pub fn choose_move<G: PyGame>(
    py: Python<'_>,
    g: &G,
    level: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    limits: Limits,
) -> PyResult<Option<String>> {
    let level = crate::convert::text(level, "level")?;
    let mut rng = Rng::new(crate::convert::seed(seed)?);
    let interrupt = Interrupt::new();
    let chosen = py.detach(|| limits.run(&interrupt, |budget| g.choose_within(&level, &mut rng, budget)));
    Ok(interrupt.result(Some(chosen))?.py()?.map(|m| m.to_string()))
}

/// What a choice or a solve may spend: `time_ms` milliseconds and `nodes` positions, each `None`
/// for the level's own budget (as `{ timeMs, nodes }` in JavaScript and `ArbiterBudget` in C).
pub struct Limits {
    time_ms: Option<u64>,
    nodes: Option<u64>,
}

impl Limits {
    pub fn from_py(time_ms: Option<&Bound<'_, PyAny>>, nodes: Option<&Bound<'_, PyAny>>) -> PyResult<Limits> {
        let positive = |v: Option<&Bound<'_, PyAny>>, what: &str| -> PyResult<Option<u64>> {
            match v.filter(|v| !v.is_none()) {
                None => Ok(None),
                Some(v) => match integer(v, what, u64::MAX)? {
                    0 => Err(bad_argument(format!("{what} must be a positive integer, got 0"))),
                    n => Ok(Some(n)),
                },
            }
        };
        Ok(Limits {
            time_ms: positive(time_ms, "time_ms")?,
            nodes: positive(nodes, "nodes")?,
        })
    }

    /// Runs `f` within these limits, the clock starting now, and until `interrupt` stops it.
    pub fn run<T>(&self, interrupt: &Interrupt, f: impl FnOnce(Budget<'_>) -> T) -> T {
        let mut deadline = self.time_ms.map(arbiter_core::deadline);
        let mut stop = || deadline.as_mut().is_some_and(|d| d()) || interrupt.stop();
        f(Budget {
            nodes: self.nodes,
            stop: Some(&mut stop),
            timed: self.time_ms.is_some(),
        })
    }
}

pub fn levels<G: PyGame>() -> Vec<&'static str> {
    G::LEVELS.to_vec()
}

pub fn action_text<G: PyGame>(g: &G, id: &Bound<'_, PyAny>) -> PyResult<String> {
    action_move(g, id).map(|m| m.to_string())
}

pub fn action_id<G: PyGame>(g: &G, mv: &Bound<'_, PyAny>) -> PyResult<usize> {
    let mv = crate::convert::text(mv, "move")?
        .parse::<G::Move>()
        .map_err(|e| crate::convert::raise(e.into()))?;
    g.action_id(mv).map_err(crate::convert::raise)
}

/// The save as Python data.
pub fn to_json<'py, T: Serialize>(py: Python<'py>, g: &T) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, g)
}

/// A game from its save: a dict or JSON text.
pub fn from_json<T: DeserializeOwned>(json: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    from_py(json, what)
}

/// What pickle calls to rebuild an object: `cls.from_json(save text)`, so that games travel to
/// worker processes as their saves.
pub fn reduce<'py, T: Serialize>(class: Bound<'py, PyType>, g: &T) -> PyResult<(Bound<'py, PyAny>, (String,))> {
    let text = serde_json::to_string(g).map_err(|e| parse_error(format!("cannot save: {e}")))?;
    Ok((class.getattr("from_json")?, (text,)))
}

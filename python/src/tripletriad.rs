//! Triple Triad: a round (`TripleTriad`) and a match (`TripleTriadMatch`), with what they add to
//! the shared verbs: captures, scores, the exact solver, rounds and the trade.

use arbiter_core::tripletriad as tt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};

use crate::convert::{integer, seed, text, to_py, to_py_or_none, wrong_type, OrRaise};
use crate::verbs::{self, player_from_py, PyGame};

impl PyGame for tt::TripleTriad {}

crate::game_class! {
    /// A Triple Triad round: board, hands, rules and the player to move (`"blue"` or `"red"`).
    TripleTriad(tt::TripleTriad, "TripleTriad") {
        /// The first round of a match under a preset (`"ff8"`, `"ttonline"`, `"mush"`,
        /// `"ffforever"`) between two hands of Final Fantasy VIII cards drawn from `seed`.
        #[staticmethod]
        fn from_preset(name: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
            let (name, seed) = preset(name, seed)?;
            tt::TripleTriad::from_preset(&name, seed).py().map(TripleTriad)
        }

        /// The presets `from_preset` knows.
        #[classattr]
        fn presets() -> Vec<&'static str> {
            tt::PRESETS.to_vec()
        }

        /// The Final Fantasy VIII cards in the core's order (each as in a hand's JSON, with its
        /// level): what a preset's deal draws from, for hosts that draw a deal themselves
        /// (`arbiter.openspiel`'s chance nodes) and start it with `from_json`.
        #[staticmethod]
        fn ff8_cards<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_py(py, &tt::ff8_cards())
        }

        /// What the last move played on this object captured, each flip with its rule; `None`
        /// before any move and on a state just loaded.
        fn last_captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_py_or_none(py, self.0.last_move())
        }

        /// Cards of `player`'s colour on the board plus the cards in their hand (the two total 10).
        fn score(&self, player: &Bound<'_, PyAny>) -> PyResult<u32> {
            Ok(self.0.score(player_from_py::<tt::TripleTriad>(player)?))
        }

        /// The player who moves next, also once the board is full (who would have moved).
        #[getter]
        fn next_player<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            verbs::player_to_py::<tt::TripleTriad>(py, self.0.next_player())
        }

        /// The exact value for the player to move (their final score minus the opponent's, with
        /// perfect play by both, both hands read whatever `open` says) and a best move (`None`
        /// once the board is full), as `{"value": int, "best_move": str | None}`. Within
        /// `time_ms` and `nodes` (positions) when given: a `LimitExceededError` when it runs out.
        #[pyo3(signature = (*, time_ms=None, nodes=None))]
        fn solve<'py>(
            &self,
            py: Python<'py>,
            time_ms: Option<&Bound<'py, PyAny>>,
            nodes: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyDict>> {
            let limits = verbs::Limits::from_py(time_ms, nodes)?;
            self.0.solvable().map_err(crate::convert::raise)?;
            let interrupt = crate::interrupt::Interrupt::new();
            let solved = py.detach(|| limits.run(&interrupt, |budget| tt::Solver::default().solve_within(&self.0, budget)));
            let s = interrupt.result(Some(solved))?.map_err(|cut| {
                    crate::convert::raise(arbiter_core::Error::new(
                        arbiter_core::ErrorKind::LimitExceeded,
                        format!("the solve ran out of its budget after {} positions", cut.nodes),
                    ))
                })?;
            let out = PyDict::new(py);
            out.set_item("value", s.value)?;
            out.set_item("best_move", s.best_move.map(|m| m.to_string()))?;
            Ok(out)
        }
    }
}

/// A preset's name and a seed.
fn preset(name: &Bound<'_, PyAny>, seed_value: &Bound<'_, PyAny>) -> PyResult<(String, u64)> {
    Ok((text(name, "preset")?, seed(seed_value)?))
}

/// A Triple Triad match: rounds (sudden death replays draws), then the trade.
#[pyclass(module = "arbiter", name = "TripleTriadMatch")]
#[derive(Clone)]
pub struct TripleTriadMatch(tt::Match);

#[pymethods]
impl TripleTriadMatch {
    /// A match from a dict or JSON text: `{config, blue, red, seed}` starts one; a save adds
    /// `rounds` and `picks` and replays them. Raises `ParseError` when invalid.
    #[staticmethod]
    fn from_json(json: &Bound<'_, PyAny>) -> PyResult<Self> {
        verbs::from_json(json, "match").map(TripleTriadMatch)
    }

    /// A match under a preset between two hands of Final Fantasy VIII cards drawn from `seed`,
    /// which also drives the match (first player, elements, shuffles, random trade).
    #[staticmethod]
    fn from_preset(name: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let (name, seed) = preset(name, seed)?;
        tt::Match::from_preset(&name, seed).py().map(TripleTriadMatch)
    }

    /// The save: configuration, cards brought, seed, the moves of every round, the picks.
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        verbs::to_json(py, &self.0)
    }

    /// An independent copy.
    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Self {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        Clone::clone(self)
    }

    /// Pickles through the save.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let class: Bound<'py, PyType> = slf.get_type();
        verbs::reduce(class, &slf.borrow().0)
    }

    /// A copy of the round in play (or of the last one, once the match is over).
    fn game(&self) -> TripleTriad {
        TripleTriad(self.0.game().clone())
    }

    /// What `player` sees of the round in play, as `game().observation(player)`, with what the
    /// match hides besides: under Three Open the three of the other hand drawn as visible (the
    /// others `None`), and the other player's Chaos draw left out.
    fn observation<'py>(&self, py: Python<'py>, player: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.observation(player_from_py::<tt::TripleTriad>(player)?))
    }

    /// Plays a move of the round in play (notation or action id); a drawn round under sudden
    /// death starts the next one.
    #[pyo3(signature = (r#move))]
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = verbs::read_move(self.0.game(), r#move)?;
        self.0.play(mv).py().map(drop)
    }

    /// Whether the match is over (the trade may still be pending).
    #[getter]
    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// The number of the round in play, from 1 (once over: the number of rounds played).
    #[getter]
    fn round_number(&self) -> u32 {
        self.0.round_number()
    }

    /// How each finished round ended.
    #[getter]
    fn rounds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.rounds())
    }

    /// The result once the match is over, else `None`.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py_or_none(py, self.0.result())
    }

    /// What the trade needs from the winner; raises `IllegalMoveError` before the end.
    fn trade_choice<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.trade_choice().py()?)
    }

    /// The picks a computer that won would make (indices among the loser's five cards; `[]`
    /// when nobody chooses): the strongest by rank sum, or the swap that gains the most.
    fn computer_picks(&self) -> PyResult<Vec<u8>> {
        self.0.computer_picks().py()
    }

    /// Settles the trade with the winner's picks (indices among the loser's five cards; `[]`
    /// when nobody chooses) and returns the cards that change hands.
    fn settle_trade<'py>(&mut self, py: Python<'py>, picks: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let picks: Vec<u8> = match picks.try_iter() {
            Ok(items) if !picks.is_instance_of::<pyo3::types::PyString>() => items
                .map(|p| integer(&p?, "a pick", u8::MAX as u64).map(|n| n as u8))
                .collect::<PyResult<_>>()?,
            _ => return Err(wrong_type("picks", "a list of ints", picks)),
        };
        to_py(py, &self.0.settle_trade(&picks).py()?)
    }

    /// The cards that changed hands, once the trade is settled; else `None`.
    fn transfers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py_or_none(py, self.0.transfers())
    }

    /// A legal move for a player whose clock ran out (a function of the state: it draws
    /// nothing from the match's random stream); `None` once the match is over.
    fn timeout_move(&self) -> Option<String> {
        self.0.timeout_move().map(|m| m.to_string())
    }
}

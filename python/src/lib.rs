//! # arbiter-python
//!
//! The Python package `arbiter-engine` (import name `arbiter`): [`arbiter_core`] for Python and
//! NumPy. A thin layer: it translates values and errors, and the rules stay in the core. The
//! verbs that every game shares are written once (`verbs.rs`) and stamped onto each class by
//! `game_class!`; only each game's extras are written per game. `batch.rs` steps many games at
//! once into NumPy arrays, with the GIL released.
//!
//! Build it with maturin (`pip install ./python`, or `maturin build --release` in `python/`), not
//! with `cargo build` alone: the module links against the Python that imports it.

mod arena;
mod batch;
mod convert;
mod crew;
mod ffxiv;
mod interrupt;
mod memory;
mod nantong;
mod options;
mod pages;
mod split;
mod trax;
mod tripletriad;
mod verbs;

use pyo3::prelude::*;

/// Declares a Python class over a core game, with the verbs of every game followed by the game's
/// own `extras` (pyo3 takes one `#[pymethods]` block per class, so both go into one).
macro_rules! game_class {
    (
        $(#[$doc:meta])*
        $class:ident($core:ty, $name:literal) { $($extras:tt)* }
    ) => {
        $(#[$doc])*
        #[pyclass(module = "arbiter", name = $name)]
        #[derive(Clone)]
        pub struct $class(pub $core);

        #[pymethods]
        impl $class {
            /// Every legal move now, in notation (empty once the game is over).
            fn legal_moves(&self) -> Vec<String> {
                crate::verbs::legal_moves(&self.0)
            }

            /// The action ids of the legal moves, ascending, as a NumPy int64 array.
            fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i64>> {
                crate::verbs::legal_actions(py, &self.0)
            }

            /// Plays a move given in notation (str) or as an action id (int); raises
            /// `IllegalMoveError` (or `GameOverError`, `ParseError`, `BadArgumentError`,
            /// `TypeError`) and changes nothing when it is refused.
            #[pyo3(signature = (r#move))]
            fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
                crate::verbs::play(&mut self.0, r#move)
            }

            /// The player to move; `None` once the game is over.
            #[getter]
            fn to_move<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                crate::verbs::to_move(py, &self.0)
            }

            /// Whether the game is over.
            #[getter]
            fn is_over(&self) -> bool {
                arbiter_core::Game::is_over(&self.0)
            }

            /// The winner, `"draw"`, or `None` while the game goes on.
            #[getter]
            fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                crate::verbs::outcome(py, &self.0)
            }

            /// What each player scores, in `players` order: 1 for the winner, -1 for a loser,
            /// 0 for a draw and while the game goes on (Nantong: each seat's settlement points).
            fn returns(&self) -> Vec<f64> {
                arbiter_core::Engine::returns(&self.0)
            }

            /// What `player` sees as a float32 NumPy vector of numbers in 0..=1 (the layout is
            /// in the core's `tensor` module of the game), built from what that player may see.
            fn observation_tensor<'py>(
                &self,
                py: Python<'py>,
                player: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, numpy::PyArray1<f32>>> {
                crate::verbs::observation_tensor(py, &self.0, player)
            }

            /// The length of `observation_tensor`.
            #[getter]
            fn tensor_len(&self) -> usize {
                arbiter_core::Engine::tensor_len(&self.0)
            }

            /// The legal moves as a NumPy mask over the action ids (`mask[id]` true for a legal
            /// move), of `dtype` (bool by default; `numpy.int8` for Gymnasium).
            #[pyo3(signature = (dtype = None))]
            fn legal_action_mask<'py>(
                &self,
                py: Python<'py>,
                dtype: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                crate::verbs::legal_action_mask(py, &self.0, dtype)
            }

            /// What `player` may see, as a dict: hidden cards are not in it.
            fn observation<'py>(&self, py: Python<'py>, player: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
                crate::verbs::observation(py, &self.0, player)
            }

            /// The number of legal move sequences of `depth` moves, by the core's fast perft.
            fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
                crate::verbs::perft(py, &self.0, depth)
            }

            /// The positions after `plies` plies, in a stable order, as `(line, multiplicity)`:
            /// the first line of moves reaching each (notation, space separated; the position is
            /// this game after it) and the number of move sequences reaching it (transposed move
            /// orders merge). A game that ends sooner has no position there.
            fn frontier(&self, py: Python<'_>, plies: &Bound<'_, PyAny>) -> PyResult<Vec<(String, u64)>> {
                crate::split::frontier(py, &self.0, plies)
            }

            /// `perft(depth)` counted over part `part` of `parts` (from 0) of the frontier after
            /// `split` plies only: every `parts`-th position from the `part`-th. The parts sum to
            /// `perft(depth)`; a part out of range or a split deeper than `depth` raises
            /// `BadArgumentError`.
            #[pyo3(signature = (depth, split, part, parts, *, threads=None))]
            fn perft_part(
                &self,
                py: Python<'_>,
                depth: &Bound<'_, PyAny>,
                split: &Bound<'_, PyAny>,
                part: &Bound<'_, PyAny>,
                parts: &Bound<'_, PyAny>,
                threads: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<u64> {
                crate::split::perft_part(py, &self.0, (depth, split, part, parts), threads)
            }

            /// The move that the built-in opponent of `level` chooses for the player to move,
            /// from that player's observation only; `None` once the game is over. The same seed
            /// gives the same move in Rust, C, JavaScript and Python. `time_ms` and `nodes` bound
            /// the searching levels (a search that runs out plays the best move it found; with a
            /// time limit the move may depend on the machine's speed).
            #[pyo3(signature = (level, seed, *, time_ms=None, nodes=None))]
            fn choose_move(
                &self,
                py: Python<'_>,
                level: &Bound<'_, PyAny>,
                seed: &Bound<'_, PyAny>,
                time_ms: Option<&Bound<'_, PyAny>>,
                nodes: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Option<String>> {
                let limits = crate::verbs::Limits::from_py(time_ms, nodes)?;
                crate::verbs::choose_move(py, &self.0, level, seed, limits)
            }

            /// The levels of the built-in opponents, weakest first.
            #[classattr]
            fn levels() -> Vec<&'static str> {
                crate::verbs::levels::<$core>()
            }

            /// The players in seat order, as this class names them.
            #[classattr]
            fn players(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyAny>>> {
                crate::verbs::players::<$core>(py)
            }

            /// The notation of action id `id` (legal now or not).
            fn action_text(&self, id: &Bound<'_, PyAny>) -> PyResult<String> {
                crate::verbs::action_text(&self.0, id)
            }

            /// The action id of a move in notation.
            #[pyo3(signature = (r#move))]
            fn action_id(&self, r#move: &Bound<'_, PyAny>) -> PyResult<usize> {
                crate::verbs::action_id(&self.0, r#move)
            }

            /// How many action ids there are: ids are `0 .. num_actions - 1`.
            #[getter]
            fn num_actions(&self) -> usize {
                arbiter_core::Game::num_distinct_actions(&self.0)
            }

            /// The whole state as a dict (`json.dumps` writes it, `from_json` reads it back).
            fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                crate::verbs::to_json(py, &self.0)
            }

            /// A game from its save: a dict or JSON text. Raises `ParseError` for anything
            /// unreadable or invalid, `TypeError` for another type.
            #[staticmethod]
            fn from_json(json: &Bound<'_, PyAny>) -> PyResult<Self> {
                crate::verbs::from_json(json, <$core as arbiter_core::Engine>::NAME).map($class)
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
            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<(Bound<'py, PyAny>, (String,))> {
                crate::verbs::reduce(slf.get_type(), &slf.borrow().0)
            }

            $($extras)*
        }
    };
}

pub(crate) use game_class;

/// The native module `arbiter._core`; the package `arbiter` re-exports it.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    convert::register(m)?;
    m.add_class::<tripletriad::TripleTriad>()?;
    m.add_class::<tripletriad::TripleTriadMatch>()?;
    m.add_class::<trax::Trax>()?;
    m.add_class::<nantong::Nantong>()?;
    m.add_class::<batch::TripleTriadBatch>()?;
    m.add_class::<batch::TraxBatch>()?;
    m.add_class::<batch::NantongBatch>()?;
    m.add_function(wrap_pyfunction!(ffxiv::ffxiv_json, m)?)?;
    m.add_function(wrap_pyfunction!(ffxiv::ffxiv_hands, m)?)?;
    m.add_function(wrap_pyfunction!(ffxiv::ffxiv_deck_rule, m)?)?;
    m.add_function(wrap_pyfunction!(batch::seed_of_episode, m)?)?;
    m.add_function(wrap_pyfunction!(batch::seed_of_opponent, m)?)?;
    // A batch's worker threads do not survive `os.fork()` (multiprocessing's default on Linux):
    // the child's batches start theirs again rather than wait for them.
    // (No fork, no hook, on Windows.)
    let os = m.py().import("os")?;
    if os.hasattr("register_at_fork")? {
        let kwargs = pyo3::types::PyDict::new(m.py());
        kwargs.set_item("after_in_child", wrap_pyfunction!(batch::after_fork, m)?)?;
        os.call_method("register_at_fork", (), Some(&kwargs))?;
    }
    m.add_function(wrap_pyfunction!(arena::arena_games, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_report, m)?)?;
    m.add_function(wrap_pyfunction!(options::describe, m)?)?;
    Ok(())
}

//! Trax: a game of any variant, with what it adds to the shared verbs: record reading, tiles,
//! the last turn's forced tiles, how the game was won, undo.

use arbiter_core::trax::{self, Variant};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{integer, text, to_py_or_none, OrRaise};
use crate::verbs::{self, PyGame};

impl PyGame for trax::Trax {}

crate::game_class! {
    /// A Trax game: `"8x8"`, `"unbounded"` (Supertrax) or `"loop"`, in official notation;
    /// players `"white"` (first) and `"red"`.
    Trax(trax::Trax, "Trax") {
        /// An empty board of `variant`; white moves first. `max_tiles` (1 to 32,768; default
        /// 10,000) bounds the tiles a game may hold: a turn past it raises `LimitExceededError`.
        #[new]
        #[pyo3(signature = (variant = None, max_tiles = None))]
        fn new(variant: Option<&Bound<'_, PyAny>>, max_tiles: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
            let variant = variant.map_or(Ok(Variant::default()), read_variant)?;
            match max_tiles {
                None => Ok(Trax(trax::Trax::new(variant))),
                Some(n) => {
                    let limit = integer(n, "max_tiles", u32::MAX as u64)? as u32;
                    trax::Trax::with_max_tiles(variant, limit).py().map(Trax)
                }
            }
        }

        /// A game from a game record (move numbers, comments, `Resign` and headers are
        /// skipped). Raises `ParseError` for a token that is not a move, and the refusal of the
        /// first illegal move, numbered from 1.
        #[staticmethod]
        #[pyo3(signature = (record, variant = None))]
        fn from_record(record: &Bound<'_, PyAny>, variant: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
            let variant = variant.map_or(Ok(Variant::default()), read_variant)?;
            trax::Trax::from_record(variant, &text(record, "record")?).map(Trax).py()
        }

        /// The variant's name.
        #[getter]
        fn variant(&self) -> &'static str {
            self.0.variant().name()
        }

        /// Tiles on the board, forced ones included.
        #[getter]
        fn tiles(&self) -> u32 {
            self.0.tiles()
        }

        /// The game's tile limit.
        #[getter]
        fn max_tiles(&self) -> u32 {
            self.0.max_tiles()
        }

        /// The player who moves next, also once the game is over (who would have moved).
        #[getter]
        fn next_player<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            verbs::player_to_py::<trax::Trax>(py, self.0.next_player())
        }

        /// Columns and rows spanned by the tiles (`(0, 0)` on an empty board).
        #[getter]
        fn size(&self) -> (u32, u32) {
            self.0.size()
        }

        /// The tile at notation coordinates (column 1 = `A`, the leftmost; row 1 the top) as
        /// `{"shape": "+" | "/" | "\\", "edges": [north, east, south, west colours]}`, or `None`.
        fn tile_at<'py>(&self, py: Python<'py>, col: &Bound<'py, PyAny>, row: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
            let col = integer(col, "col", u32::MAX as u64)? as u32;
            let row = integer(row, "row", u32::MAX as u64)? as u32;
            let Some(tile) = self.0.tile_at(col, row) else {
                return Ok(py.None().into_bound(py));
            };
            let out = PyDict::new(py);
            out.set_item("shape", tile.shape().symbol().to_string())?;
            let edges: Vec<&str> = (0..4).map(|e| tile.colour(e).name()).collect();
            out.set_item("edges", edges)?;
            Ok(out.into_any())
        }

        /// Takes back the last turn, forced tiles included, and returns its move; `None` on an
        /// empty board. A finished game resumes.
        fn undo(&mut self) -> Option<String> {
            self.0.undo().map(|m| m.to_string())
        }

        /// The last turn: its move, where its tile went and the tiles it forced (in the order
        /// they fell), in notation coordinates of the area now; `None` on an empty board and
        /// after `undo()`.
        fn last_turn<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_py_or_none(py, self.0.last_turn())
        }

        /// Who won and how (`{winner, by_loop, by_line}`); `None` unless a player has won.
        fn win<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_py_or_none(py, self.0.win())
        }
    }
}

/// A variant by name: `"8x8"`, `"unbounded"` or `"loop"`.
pub fn read_variant(v: &Bound<'_, PyAny>) -> PyResult<Variant> {
    text(v, "variant")?.parse::<Variant>().py()
}

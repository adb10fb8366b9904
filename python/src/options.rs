//! `arbiter.describe()`: the core's description of each game's options, as dicts.

use arbiter_core::games;
use pyo3::prelude::*;

use crate::convert::{to_py, OrRaise};

/// The options of `game` (its name, the options with their kinds, allowed values and defaults,
/// the rules that need or exclude others); without a game, a dict of every game's.
#[pyfunction]
#[pyo3(signature = (game=None))]
pub fn describe<'py>(py: Python<'py>, game: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    match game {
        Some(name) => to_py(py, &games::describe(name).py()?),
        None => {
            let all: std::collections::BTreeMap<_, _> =
                games::describe_all().into_iter().map(|d| (d.game, d)).collect();
            to_py(py, &all)
        }
    }
}

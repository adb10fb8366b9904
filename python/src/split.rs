//! The perft split for Python: a game's frontier after a few plies (lines in notation with their
//! multiplicities) and the count of one part of it, so that a scheduler (Ray, Slurm, a loop)
//! counts the parts apart and their sum is the whole count.

use arbiter_core::{Frontier, Transpose};
use pyo3::prelude::*;

use crate::convert::{integer, OrRaise};
use crate::interrupt::Interrupt;
use crate::verbs::PyGame;

fn plies(v: &Bound<'_, PyAny>, what: &str) -> PyResult<u32> {
    Ok(integer(v, what, u32::MAX as u64)? as u32)
}

/// The positions after `plies` plies, in the core's stable order: for each, the first line of
/// moves reaching it (notation, separated by `", "`) and the number of sequences reaching it.
pub fn frontier<G: PyGame + Transpose>(
    py: Python<'_>,
    g: &G,
    plies_arg: &Bound<'_, PyAny>,
) -> PyResult<Vec<(String, u64)>>
where
    G::Move: Sync,
{
    let k = plies(plies_arg, "plies")?;
    let f = py.detach(|| Frontier::new(g, k)).py()?;
    Ok((0..f.len()).map(|i| (f.line_text(i), f.multiplicity(i))).collect())
}

/// The perft at `depth` counted over part `part` of `parts` of the frontier after `split` plies,
/// on `threads` threads, the GIL released.
pub fn perft_part<G: PyGame + Transpose>(
    py: Python<'_>,
    g: &G,
    (depth, split, part, parts): (
        &Bound<'_, PyAny>,
        &Bound<'_, PyAny>,
        &Bound<'_, PyAny>,
        &Bound<'_, PyAny>,
    ),
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64>
where
    G::Move: Sync,
{
    let depth = plies(depth, "depth")?;
    let split = plies(split, "split")?;
    let part = integer(part, "part", u64::MAX)? as usize;
    let parts = integer(parts, "parts", u64::MAX)? as usize;
    let threads = match threads {
        Some(t) => integer(t, "threads", 1024)?.max(1) as usize,
        None => 1,
    };
    let interrupt = Interrupt::new();
    let nodes = py.detach(|| {
        let f = Frontier::new(g, split)?;
        f.perft_part_threads(depth, part, parts, threads, (&|_, _| {}, &|| interrupt.stop()))
    });
    interrupt.result(nodes.py()?)
}

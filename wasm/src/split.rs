//! The perft split for JavaScript: a game's frontier after a few plies and the count of one part
//! of it, so that workers or machines count the parts apart and their counts sum to the whole.

use arbiter_core::{Frontier, Transpose};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::convert::{integer, to_js, Js, OrThrow};
use crate::verbs::JsGame;

/// One position of the frontier: the first line of moves reaching it and how many sequences do.
#[derive(Serialize)]
struct Position {
    line: String,
    count: u64,
}

pub fn frontier<G: JsGame + Transpose>(g: &G, plies: &JsValue) -> Js<JsValue> {
    let f = Frontier::new(g, integer(plies, "plies", u32::MAX as u64)? as u32).js()?;
    let positions: Vec<Position> = (0..f.len())
        .map(|i| Position {
            line: f.line_text(i),
            count: f.multiplicity(i),
        })
        .collect();
    to_js(&positions)
}

/// Counts beyond 2^53 would take centuries to reach, as for `perft`.
pub fn perft_part<G: JsGame + Transpose>(
    g: &G,
    depth: &JsValue,
    split: &JsValue,
    part: &JsValue,
    parts: &JsValue,
) -> Js<f64> {
    let depth = integer(depth, "depth", u32::MAX as u64)? as u32;
    let split = integer(split, "split", u32::MAX as u64)? as u32;
    let part = integer(part, "part", u32::MAX as u64)? as usize;
    let parts = integer(parts, "parts", u32::MAX as u64)? as usize;
    let f = Frontier::new(g, split).js()?;
    Ok(f.perft_part(depth, part, parts).js()? as f64)
}

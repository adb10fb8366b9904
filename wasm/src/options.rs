//! `describe()` and `describeAll()`: the core's description of each game's options, which the
//! demo builds its controls from and the package's literal types are checked against.

use arbiter_core::games;
use wasm_bindgen::prelude::*;

use crate::convert::{text, to_js, Js, OrThrow};

/// The options of the game named `game`: each option's name, kind, allowed values and default,
/// and the rules that need or exclude others.
#[wasm_bindgen(unchecked_return_type = "GameDescription")]
pub fn describe(#[wasm_bindgen(unchecked_param_type = "GameName")] game: JsValue) -> Js<JsValue> {
    to_js(&games::describe(&text(&game, "game")?).js()?)
}

/// Every game's description, in the order the games are listed.
#[wasm_bindgen(js_name = describeAll, unchecked_return_type = "GameDescription[]")]
pub fn describe_all() -> Js<JsValue> {
    to_js(&games::describe_all())
}

//! `describe()` and `describeAll()`: the core's description of each game's options, which the
//! demo builds its controls from and the package's literal types are checked against. A module
//! built with one game describes that game alone, so that it links no other game's declaration.

use arbiter_core::games::GAMES;
use arbiter_core::options::Description;
use arbiter_core::{quote, Error, ErrorKind};
use wasm_bindgen::prelude::*;

use crate::convert::{text, to_js, Js, OrThrow};

/// The description of `game` when this module was built with it.
fn built(game: &str) -> Option<Description> {
    match game {
        #[cfg(feature = "tripletriad")]
        "triple-triad" => Some(arbiter_core::tripletriad::describe()),
        #[cfg(feature = "trax")]
        "trax" => Some(arbiter_core::trax::describe()),
        #[cfg(feature = "nantong")]
        "nantong" => Some(arbiter_core::nantong::describe()),
        _ => None,
    }
}

/// The options of the game named `game`: each option's name, kind, allowed values and default,
/// and the rules that need or exclude others.
#[wasm_bindgen(unchecked_return_type = "GameDescription")]
pub fn describe(#[wasm_bindgen(unchecked_param_type = "GameName")] game: JsValue) -> Js<JsValue> {
    let name = text(&game, "game")?;
    let known: Vec<&str> = GAMES.iter().copied().filter(|g| built(g).is_some()).collect();
    let d = built(&name).ok_or_else(|| {
        let message = format!("unknown game {:?} (expected {})", quote(&name), known.join(", "));
        Error::new(ErrorKind::BadArgument, message)
    });
    to_js(&d.js()?)
}

/// Every game's description this module has, in the order the games are listed.
#[wasm_bindgen(js_name = describeAll, unchecked_return_type = "GameDescription[]")]
pub fn describe_all() -> Js<JsValue> {
    to_js(&GAMES.iter().filter_map(|g| built(g)).collect::<Vec<_>>())
}

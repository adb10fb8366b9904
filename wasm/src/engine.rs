//! The verbs every game shares, written once over [`Host`]; `game_class!` in `lib.rs` stamps
//! them onto each exported class as one-line methods (wasm-bindgen cannot export generics).

use arbiter_core::{Engine, Error, Outcome, Rng};
use core::str::FromStr;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::convert::{bad_argument, describe, from_js, integer, or_null, seed, text, to_js, Js, OrThrow};

/// A game as the package hands it to JavaScript: saved and observed as JSON, moves read from
/// notation, and players as names (`"blue"`, `"white"`) or as seat numbers.
pub trait Host: Engine<Move: FromStr<Err: Into<Error>>, Observation: Serialize> + Serialize + DeserializeOwned {
    /// Whether JavaScript names players by their index in [`Engine::PLAYERS`] (Nantong's seats).
    const NUMBERED: bool = false;
}

/// A player as JavaScript sees it.
pub fn player_to_js<G: Host>(p: G::Player) -> JsValue {
    if G::NUMBERED {
        JsValue::from(G::player_index(p) as u32)
    } else {
        JsValue::from(p.to_string())
    }
}

/// A player from JavaScript; the wrong type is a `BAD_ARGUMENT`, an unknown name a `PARSE_ERROR`.
pub fn player_from_js<G: Host>(v: &JsValue) -> Js<G::Player> {
    if G::NUMBERED {
        let i = integer(v, "seat", G::PLAYERS.len() as u64 - 1)?;
        Ok(G::PLAYERS[i as usize])
    } else {
        G::player(&text(v, "player")?).js()
    }
}

pub fn legal_moves<G: Host>(g: &G) -> Vec<String> {
    g.legal_moves().iter().map(ToString::to_string).collect()
}

pub fn legal_actions<G: Host>(g: &G) -> Vec<JsValue> {
    g.legal_moves()
        .iter()
        .map(|&m| JsValue::from(g.action_id(m).expect("every move a game offers has an id") as u32))
        .collect()
}

/// The move named by notation text or by an action id (legal now or not: `play` decides).
pub fn read_move<G: Host>(g: &G, mv: &JsValue) -> Js<G::Move> {
    if let Some(s) = mv.as_string() {
        return s.parse::<G::Move>().js();
    }
    if mv.as_f64().is_none() {
        return Err(bad_argument(format!(
            "a move must be a string (notation) or a number (action id), got {}",
            describe(mv)
        )));
    }
    let id = integer(mv, "an action id", g.num_distinct_actions() as u64 - 1)?;
    g.action_move(id as usize)
        .ok_or_else(|| bad_argument(format!("action id {id} names no move")))
}

pub fn play<G: Host>(g: &mut G, mv: &JsValue) -> Js<()> {
    let mv = read_move(g, mv)?;
    g.play(mv).js()
}

pub fn to_move<G: Host>(g: &G) -> JsValue {
    or_null(g.to_move().map(player_to_js::<G>))
}

pub fn outcome<G: Host>(g: &G) -> JsValue {
    or_null(g.outcome().map(|o| match o {
        Outcome::Winner(p) => player_to_js::<G>(p),
        Outcome::Draw => JsValue::from("draw"),
    }))
}

pub fn observation<G: Host>(g: &G, player: &JsValue) -> Js<JsValue> {
    to_js(&g.observation(player_from_js::<G>(player)?))
}

pub fn observation_tensor<G: Host>(g: &G, player: &JsValue) -> Js<Vec<f32>> {
    Ok(g.observation_tensor(player_from_js::<G>(player)?))
}

/// Perft depths are `u32` in the core; counts beyond 2^53 would take centuries to reach.
pub fn perft<G: Host>(g: &G, depth: &JsValue) -> Js<f64> {
    let depth = integer(depth, "depth", u32::MAX as u64)?;
    Ok(Engine::perft(g, depth as u32) as f64)
}

pub fn choose_move<G: Host>(g: &G, level: &JsValue, seed_value: &JsValue) -> Js<JsValue> {
    let level = text(level, "level")?;
    let mut rng = Rng::new(seed(seed_value)?);
    Ok(notation(g.choose(&level, &mut rng).js()?))
}

/// A move's notation, or `null`.
pub fn notation<M: ToString>(mv: Option<M>) -> JsValue {
    or_null(mv.map(|m| JsValue::from(m.to_string())))
}

pub fn levels<G: Host>() -> Vec<String> {
    G::LEVELS.iter().map(|l| l.to_string()).collect()
}

pub fn action_text<G: Host>(g: &G, id: &JsValue) -> Js<String> {
    if id.as_f64().is_none() {
        return Err(bad_argument("an action id must be a number"));
    }
    read_move(g, id).map(|m| m.to_string())
}

pub fn action_id<G: Host>(g: &G, mv: &JsValue) -> Js<u32> {
    let mv = text(mv, "move")?.parse::<G::Move>().js()?;
    g.action_id(mv).js().map(|id| id as u32)
}

pub fn to_json<G: Host>(g: &G) -> Js<JsValue> {
    to_js(g)
}

pub fn from_json<G: Host>(json: &JsValue) -> Js<G> {
    from_js(json, G::NAME)
}

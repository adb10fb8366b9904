//! The verbs every game shares, written once over [`JsGame`]; `game_class!` in `lib.rs` stamps
//! them onto each exported class as one-line methods (wasm-bindgen cannot export generics).

use arbiter_core::{Budget, Engine, Error, Outcome, Rng};
use core::str::FromStr;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::convert::{
    bad_argument, describe, from_js, integer, is_array, json_copy, object_keys, or_null, property, seed, string, text,
    to_js, Js, OrThrow, MAX_SAFE_INTEGER,
};

/// A game as the package hands it to JavaScript: saved and observed as JSON, moves read from
/// notation, and players as names (`"blue"`, `"white"`) or as seat numbers.
pub trait JsGame:
    Engine<Move: FromStr<Err: Into<Error>>, Observation: Serialize> + Serialize + DeserializeOwned
{
    /// Whether JavaScript names players by their index in [`Engine::PLAYERS`] (Nantong's seats).
    const NUMBERED: bool = false;

    /// What `observation(player)` hands JavaScript: the core's observation, with what the core
    /// works out for front ends from the rest of the state where a game has such (Triple Triad's
    /// effective ranks).
    fn seen_by(&self, player: Self::Player) -> Js<JsValue> {
        to_js(&self.observation(player))
    }
}

/// A player as JavaScript sees it.
pub fn player_to_js<G: JsGame>(p: G::Player) -> JsValue {
    if G::NUMBERED {
        JsValue::from(G::player_index(p) as u32)
    } else {
        JsValue::from(p.to_string())
    }
}

/// A player from JavaScript; the wrong type is a `BAD_ARGUMENT`, an unknown name a `PARSE_ERROR`.
pub fn player_from_js<G: JsGame>(v: &JsValue) -> Js<G::Player> {
    if G::NUMBERED {
        let i = integer(v, "seat", G::PLAYERS.len() as u64 - 1)?;
        Ok(G::PLAYERS[i as usize])
    } else {
        G::player(&text(v, "player")?).js()
    }
}

pub fn legal_moves<G: JsGame>(g: &G) -> Vec<String> {
    g.legal_moves().iter().map(ToString::to_string).collect()
}

/// Ascending, as the core guarantees (`Engine::legal_actions`).
pub fn legal_actions<G: JsGame>(g: &G) -> Vec<JsValue> {
    g.legal_actions()
        .into_iter()
        .map(|id| JsValue::from(id as u32))
        .collect()
}

/// The move named by notation text or by an action id (legal now or not: `play` decides).
pub fn read_move<G: JsGame>(g: &G, mv: &JsValue) -> Js<G::Move> {
    if let Some(s) = string(mv)? {
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

pub fn play<G: JsGame>(g: &mut G, mv: &JsValue) -> Js<()> {
    let mv = read_move(g, mv)?;
    g.play(mv).js()
}

pub fn to_move<G: JsGame>(g: &G) -> JsValue {
    or_null(g.to_move().map(player_to_js::<G>))
}

pub fn outcome<G: JsGame>(g: &G) -> JsValue {
    or_null(g.outcome().map(|o| match o {
        Outcome::Winner(p) => player_to_js::<G>(p),
        Outcome::Draw => JsValue::from("draw"),
    }))
}

pub fn observation<G: JsGame>(g: &G, player: &JsValue) -> Js<JsValue> {
    g.seen_by(player_from_js::<G>(player)?)
}

pub fn observation_tensor<G: JsGame>(g: &G, player: &JsValue) -> Js<Vec<f32>> {
    Ok(g.observation_tensor(player_from_js::<G>(player)?))
}

/// Perft depths are `u32` in the core; counts beyond 2^53 would take centuries to reach.
pub fn perft<G: JsGame>(g: &G, depth: &JsValue) -> Js<f64> {
    let depth = integer(depth, "depth", u32::MAX as u64)?;
    Ok(Engine::perft(g, depth as u32) as f64)
}

pub fn choose_move<G: JsGame>(g: &G, level: &JsValue, seed_value: &JsValue, options: Option<&JsValue>) -> Js<JsValue> {
    let level = text(level, "level")?;
    let mut rng = Rng::new(seed(seed_value)?);
    let limits = Limits::from_js(options, "chooseMove options")?;
    Ok(notation(
        limits.run(|budget| g.choose_within(&level, &mut rng, budget)).js()?,
    ))
}

#[wasm_bindgen]
extern "C" {
    /// Milliseconds on the page's (or the worker's, or Node's) monotonic clock: the core has none.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// What a choice or a solve may spend, from JavaScript: `{ timeMs, nodes }` (each optional), or
/// `undefined`/`null` for the level's own budget. A plain object of numbers, so that a worker can
/// forward it as it came.
pub struct Limits {
    time_ms: Option<f64>,
    nodes: Option<u64>,
}

impl Limits {
    pub fn from_js(v: Option<&JsValue>, what: &str) -> Js<Limits> {
        let mut limits = Limits {
            time_ms: None,
            nodes: None,
        };
        let Some(v) = v.filter(|v| !v.is_undefined() && !v.is_null()) else {
            return Ok(limits);
        };
        let wrong = |why: &str| bad_argument(format!("{what}: {why}, got {}", describe(v)));
        // Read as JSON carries it (the copy a worker forwards), field by field on the JavaScript
        // side: a map of JSON values would bring its own reader and tree into the module.
        let fields = if v.is_object() {
            json_copy(v, what)?
        } else {
            JsValue::NULL
        };
        if !fields.is_object() || is_array(&fields) {
            return Err(wrong("expected an object { timeMs, nodes }"));
        }
        // Of several faults, the first field in byte order is reported, whatever the object's order.
        let mut fault: Option<(String, String)> = None;
        for key in object_keys(&fields) {
            let value = property(&fields, &key);
            let why = match key.as_str() {
                "timeMs" => match value.as_f64().filter(|ms| ms.is_finite() && *ms > 0.0) {
                    Some(ms) => {
                        limits.time_ms = Some(ms);
                        continue;
                    }
                    None => "timeMs must be a positive number of milliseconds".to_string(),
                },
                "nodes" => match value
                    .as_f64()
                    .filter(|&n| n.fract() == 0.0 && n > 0.0 && n <= MAX_SAFE_INTEGER as f64)
                {
                    Some(n) => {
                        limits.nodes = Some(n as u64);
                        continue;
                    }
                    None => "nodes must be a positive integer".to_string(),
                },
                other => format!("unknown option {other:?} (expected timeMs or nodes)"),
            };
            if fault.as_ref().is_none_or(|(first, _)| key < *first) {
                fault = Some((key, why));
            }
        }
        match fault {
            Some((_, why)) => Err(wrong(&why)),
            None => Ok(limits),
        }
    }

    /// Runs `f` within these limits; the clock starts now.
    pub fn run<T>(&self, f: impl FnOnce(Budget<'_>) -> T) -> T {
        let deadline = self.time_ms.map(|ms| performance_now() + ms);
        let mut stop = || deadline.is_some_and(|d| performance_now() >= d);
        f(Budget {
            nodes: self.nodes,
            stop: deadline.is_some().then_some(&mut stop as &mut dyn FnMut() -> bool),
            timed: deadline.is_some(),
        })
    }
}

/// A move's notation, or `null`.
pub fn notation<M: ToString>(mv: Option<M>) -> JsValue {
    or_null(mv.map(|m| JsValue::from(m.to_string())))
}

pub fn levels<G: JsGame>() -> Vec<String> {
    G::LEVELS.iter().map(|l| l.to_string()).collect()
}

pub fn action_text<G: JsGame>(g: &G, id: &JsValue) -> Js<String> {
    if id.as_f64().is_none() {
        return Err(bad_argument("an action id must be a number"));
    }
    read_move(g, id).map(|m| m.to_string())
}

pub fn action_id<G: JsGame>(g: &G, mv: &JsValue) -> Js<u32> {
    let mv = text(mv, "move")?.parse::<G::Move>().js()?;
    g.action_id(mv).js().map(|id| id as u32)
}

pub fn to_json<G: JsGame>(g: &G) -> Js<JsValue> {
    to_js(g)
}

pub fn from_json<G: JsGame>(json: &JsValue) -> Js<G> {
    from_js(json, G::NAME)
}

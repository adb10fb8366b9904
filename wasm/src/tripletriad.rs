//! Triple Triad: a round (`TripleTriad`), with what it adds to the shared verbs: captures, scores,
//! the exact solver. Matches are apart (`tripletriad_match.rs`).

use arbiter_core::tripletriad::{self as tt, Solution};
use arbiter_core::Game;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::convert::{seed, text, to_js, to_js_or_null, Js, OrThrow};
use crate::verbs::{self, player_from_js, JsGame};

impl JsGame for tt::TripleTriad {
    fn seen_by(&self, player: tt::Player) -> Js<JsValue> {
        seen(self, self.observation(player))
    }
}

/// `observation` of `round`, with the ranks its placed cards play with.
pub(crate) fn seen(round: &tt::TripleTriad, observation: tt::Observation) -> Js<JsValue> {
    to_js(&Seen {
        observation,
        effective: core::array::from_fn(|cell| round.effective_ranks(cell as u8)),
    })
}

/// A round's observation with the ranks each placed card plays with, as the core reckons them
/// (Elemental's +1 and -1): pages show them rather than work the rule out again.
#[derive(Serialize)]
struct Seen {
    #[serde(flatten)]
    observation: tt::Observation,
    effective: [Option<[u8; 4]>; 9],
}

crate::game_class! {
    /// A Triple Triad round: board, hands, rules and the player to move.
    TripleTriad(tt::TripleTriad) {
        player: "TripleTriadPlayer",
        to_move: "TripleTriadPlayer | null",
        outcome: "TripleTriadPlayer | \"draw\" | null",
        state: "TripleTriadState",
        state_in: "TripleTriadStateInput | string",
        observation: "TripleTriadObservation",
        levels: "TripleTriadLevel[]",
        level: "TripleTriadLevel",
        notation: "TripleTriadNotation",
        notations: "TripleTriadNotation[]",
        notation_or_null: "TripleTriadNotation | null",
    }
}

/// [`Solution`] as JavaScript sees it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Solved {
    value: i32,
    best_move: Option<String>,
}

impl From<Solution> for Solved {
    fn from(s: Solution) -> Solved {
        Solved {
            value: s.value,
            best_move: s.best_move.map(|m| m.to_string()),
        }
    }
}

/// A preset's name and a seed.
pub(crate) fn preset(name: &JsValue, seed_value: &JsValue) -> Js<(String, u64)> {
    Ok((text(name, "preset")?, seed(seed_value)?))
}

impl TripleTriad {
    /// The class over `round` (the field is the macro's, private to this module).
    #[cfg(feature = "tripletriad-match")]
    pub(crate) fn of(round: tt::TripleTriad) -> TripleTriad {
        TripleTriad(round)
    }
}

#[wasm_bindgen]
impl TripleTriad {
    /// The first round of a match under a preset (`"ff8"`, `"ttonline"`, `"mush"`,
    /// `"ffforever"`) between two hands of Final Fantasy VIII cards drawn from `seed`.
    #[wasm_bindgen(js_name = fromPreset)]
    pub fn from_preset(
        #[wasm_bindgen(unchecked_param_type = "TripleTriadPreset")] name: JsValue,
        #[wasm_bindgen(js_name = "seed", unchecked_param_type = "number | bigint")] seed_value: JsValue,
    ) -> Js<TripleTriad> {
        let (name, seed) = preset(&name, &seed_value)?;
        tt::TripleTriad::from_preset(&name, seed).js().map(TripleTriad)
    }

    /// What the last move played on this object captured, each flip with its rule, and the
    /// steps that explain it; `null` before any move and on a state just loaded.
    #[wasm_bindgen(js_name = lastCaptures, unchecked_return_type = "Captures | null")]
    pub fn last_captures(&self) -> Js<JsValue> {
        to_js_or_null(self.0.last_move())
    }

    /// Cards of `player`'s colour on the board plus the cards in their hand (the two total 10).
    pub fn score(&self, #[wasm_bindgen(unchecked_param_type = "TripleTriadPlayer")] player: JsValue) -> Js<u32> {
        Ok(self.0.score(player_from_js::<tt::TripleTriad>(&player)?))
    }

    /// The player who moves next, also once the board is full (who would have moved).
    #[wasm_bindgen(getter = nextPlayer, unchecked_return_type = "TripleTriadPlayer")]
    pub fn next_player(&self) -> JsValue {
        verbs::player_to_js::<tt::TripleTriad>(self.0.next_player())
    }

    /// The exact value for the player to move (their final score minus the opponent's, with
    /// perfect play by both, both hands read whatever `open` says) and a best move (`null` once
    /// the board is full). `options` bounds it (`{ timeMs, nodes }`, nodes being positions
    /// searched): one that runs out throws a `LIMIT_EXCEEDED` `ArbiterError`.
    #[wasm_bindgen(unchecked_return_type = "Solution")]
    pub fn solve(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "SearchOptions | null")] options: Option<JsValue>,
    ) -> Js<JsValue> {
        let limits = verbs::Limits::from_js(options.as_ref(), "solve options")?;
        self.0.solvable().js()?;
        let solution = limits.run(|budget| tt::Solver::default().solve_within(&self.0, budget));
        match solution {
            Ok(s) => to_js(&Solved::from(s)),
            Err(cut) => Err(crate::convert::throw(
                arbiter_core::ErrorKind::LimitExceeded.name(),
                format!("the solve ran out of its budget after {} positions", cut.nodes),
            )),
        }
    }
}

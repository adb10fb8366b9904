//! Triple Triad: a round (`TripleTriad`) and a match (`TripleTriadMatch`), with what they add to
//! the shared verbs: captures, scores, the exact solver, rounds and the trade.

use arbiter_core::tripletriad::{self as tt, Solution};
use arbiter_core::Game;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::convert::{bad_argument, json_text, seed, text, to_js, to_js_or_null, Js, OrThrow};
use crate::verbs::{self, player_from_js, JsGame};

impl JsGame for tt::TripleTriad {
    fn seen_by(&self, player: tt::Player) -> Js<JsValue> {
        seen(self, self.observation(player))
    }
}

/// `observation` of `round`, with the ranks its placed cards play with.
fn seen(round: &tt::TripleTriad, observation: tt::Observation) -> Js<JsValue> {
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

/// The trade's picks: indices given as an array (only this game reads a list of numbers).
fn read_picks(v: &JsValue) -> Js<Vec<u8>> {
    let wrong = || bad_argument(format!("picks must be an array of integers from 0 to {}", u8::MAX));
    if !v.is_object() {
        return Err(wrong());
    }
    crate::json::from_str(&json_text(v, "picks")?).map_err(|_| wrong())
}

/// A preset's name and a seed.
fn preset(name: &JsValue, seed_value: &JsValue) -> Js<(String, u64)> {
    Ok((text(name, "preset")?, seed(seed_value)?))
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

/// A Triple Triad match: rounds (sudden death replays draws), then the trade.
#[wasm_bindgen]
pub struct TripleTriadMatch(tt::Match);

#[wasm_bindgen]
impl TripleTriadMatch {
    /// A match from JSON: `{config, blue, red, seed}` starts one; a save adds `rounds` and
    /// `picks` and replays them. A plain object or JSON text; throws `PARSE_ERROR` when invalid.
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "MatchStateInput | string")] json: JsValue,
    ) -> Js<TripleTriadMatch> {
        crate::convert::from_js(&json, "match").map(TripleTriadMatch)
    }

    /// A match under a preset between two hands of Final Fantasy VIII cards drawn from `seed`,
    /// which also drives the match (first player, elements, shuffles, random trade).
    #[wasm_bindgen(js_name = fromPreset)]
    pub fn from_preset(
        #[wasm_bindgen(unchecked_param_type = "TripleTriadPreset")] name: JsValue,
        #[wasm_bindgen(js_name = "seed", unchecked_param_type = "number | bigint")] seed_value: JsValue,
    ) -> Js<TripleTriadMatch> {
        let (name, seed) = preset(&name, &seed_value)?;
        tt::Match::from_preset(&name, seed).js().map(TripleTriadMatch)
    }

    /// The save: configuration, cards brought, seed, the moves of every round, the picks.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "MatchState")]
    pub fn to_json(&self) -> Js<JsValue> {
        to_js(&self.0)
    }

    /// An independent copy.
    #[wasm_bindgen(js_name = clone)]
    pub fn copy(&self) -> TripleTriadMatch {
        TripleTriadMatch(self.0.clone())
    }

    /// A copy of the round in play (or of the last one, once the match is over).
    pub fn game(&self) -> TripleTriad {
        TripleTriad(self.0.game().clone())
    }

    /// What `player` sees of the round in play, as `game().observation(player)`, with what the
    /// match hides besides: under Three Open the three of the other hand drawn as visible (the
    /// others `null`), and the other player's Chaos draw left out.
    #[wasm_bindgen(unchecked_return_type = "TripleTriadObservation")]
    pub fn observation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "TripleTriadPlayer")] player: JsValue,
    ) -> Js<JsValue> {
        seen(
            self.0.game(),
            self.0.observation(player_from_js::<tt::TripleTriad>(&player)?),
        )
    }

    /// Plays a move of the round in play (notation or action id); a drawn round under sudden
    /// death starts the next one.
    pub fn play(
        &mut self,
        #[wasm_bindgen(js_name = "move", unchecked_param_type = "string | number")] mv: JsValue,
    ) -> Js<()> {
        let mv = verbs::read_move(self.0.game(), &mv)?;
        self.0.play(mv).js().map(drop)
    }

    /// Whether the match is over (the trade may still be pending).
    #[wasm_bindgen(getter = isOver)]
    pub fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// The number of the round in play, from 1 (once over: the number of rounds played).
    #[wasm_bindgen(getter = roundNumber)]
    pub fn round_number(&self) -> u32 {
        self.0.round_number()
    }

    /// How each finished round ended.
    #[wasm_bindgen(getter, unchecked_return_type = "RoundResult[]")]
    pub fn rounds(&self) -> Js<JsValue> {
        to_js(&self.0.rounds())
    }

    /// The result once the match is over, else `null`.
    #[wasm_bindgen(getter, unchecked_return_type = "MatchResult | null")]
    pub fn result(&self) -> Js<JsValue> {
        to_js(&self.0.result())
    }

    /// What the trade needs from the winner; throws `ILLEGAL_MOVE` before the end.
    #[wasm_bindgen(js_name = tradeChoice, unchecked_return_type = "TradeChoice")]
    pub fn trade_choice(&self) -> Js<JsValue> {
        to_js(&self.0.trade_choice().js()?)
    }

    /// The picks a computer that won would make (indices among the loser's five cards; `[]`
    /// when nobody chooses): the strongest by rank sum, or the swap that gains the most.
    #[wasm_bindgen(js_name = computerPicks, unchecked_return_type = "number[]")]
    pub fn computer_picks(&self) -> Js<JsValue> {
        to_js(&self.0.computer_picks().js()?)
    }

    /// Settles the trade with the winner's picks (indices among the loser's five cards; `[]`
    /// when nobody chooses) and returns the cards that change hands.
    #[wasm_bindgen(js_name = settleTrade, unchecked_return_type = "Transfer[]")]
    pub fn settle_trade(&mut self, #[wasm_bindgen(unchecked_param_type = "number[]")] picks: JsValue) -> Js<JsValue> {
        to_js(&self.0.settle_trade(&read_picks(&picks)?).js()?)
    }

    /// The cards that changed hands, once the trade is settled; else `null`.
    #[wasm_bindgen(unchecked_return_type = "Transfer[] | null")]
    pub fn transfers(&self) -> Js<JsValue> {
        to_js(&self.0.transfers())
    }

    /// A legal move for a player whose clock ran out (a function of the state: it draws
    /// nothing from the match's random stream); `null` once the match is over.
    #[wasm_bindgen(js_name = timeoutMove, unchecked_return_type = "TripleTriadNotation | null")]
    pub fn timeout_move(&self) -> JsValue {
        verbs::notation(self.0.timeout_move())
    }
}

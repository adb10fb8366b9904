//! Triple Triad's matches (`TripleTriadMatch`): rounds, sudden death, their save and the trade.
//! Their own feature (`tripletriad-match`), so that the module of rounds alone
//! (`arbiter-engine/tripletriad`) carries neither them nor the reading of their JSON.

use arbiter_core::tripletriad as tt;
use wasm_bindgen::prelude::*;

use crate::convert::{bad_argument, json_text, to_js, Js, OrThrow};
use crate::tripletriad::{preset, seen, TripleTriad};
use crate::verbs::{self, player_from_js};

/// The trade's picks: indices given as an array (only this game reads a list of numbers).
fn read_picks(v: &JsValue) -> Js<Vec<u8>> {
    let wrong = || bad_argument(format!("picks must be an array of integers from 0 to {}", u8::MAX));
    if !v.is_object() {
        return Err(wrong());
    }
    crate::json::from_str(&json_text(v, "picks")?).map_err(|_| wrong())
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
        TripleTriad::of(self.0.game().clone())
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

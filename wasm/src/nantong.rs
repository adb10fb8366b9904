//! Nantong long cards: a deal, with what it adds to the shared verbs: the seat to act, actions by
//! seat, the score breakdown, the next deal, and the two checks that need no deal (a hand's
//! standing and the score of a finished deal).

use arbiter_core::nantong::{self as nt, counts_of, standing, FinishedDeal, Kind, Meld};
use wasm_bindgen::prelude::*;

use crate::convert::{bad_argument, from_js, integer, seed, to_js, to_js_or_null, Js, OrThrow};
use crate::verbs::{self, player_from_js, JsGame};

impl JsGame for nt::Nantong {
    const NUMBERED: bool = true;
}

crate::game_class! {
    /// A deal of Nantong long cards: three seats, hidden hands, claims, kongs and hu scoring.
    Nantong(nt::Nantong) {
        player: "NantongSeat",
        to_move: "NantongSeat | null",
        outcome: "NantongSeat | \"draw\" | null",
        state: "NantongState",
        state_in: "NantongState | string",
        observation: "NantongObservation",
        levels: "NantongLevel[]",
        level: "NantongLevel",
        notation: "NantongAction",
        notations: "NantongAction[]",
        notation_or_null: "NantongAction | null",
    }
}

/// The size of a smaller deal as JavaScript gives it (`rules/nantong-small.md`): either field
/// absent is the full game's.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SizeIn {
    groups: Option<u32>,
    kinds: Option<u32>,
}

/// The core's size of `groups` and `kinds`, checked there (its message names the least kinds).
fn size(groups: Option<u32>, kinds: Option<u32>) -> Js<nt::Size> {
    nt::Options {
        groups,
        kinds,
        ..nt::Options::default()
    }
    .size()
    .js()
}

/// A list given as a JavaScript array (not as JSON text), read by the core's serde.
fn list<T: serde::de::DeserializeOwned>(v: &JsValue, what: &str) -> Js<T> {
    if !v.is_object() {
        return Err(bad_argument(format!("{what} must be an array")));
    }
    from_js(v, what)
}

#[wasm_bindgen]
impl Nantong {
    /// A deal whose deck order and dealer are drawn from `seed`; `size` (`{ groups, kinds }`,
    /// 0 to 7 and 1 to 30) makes a smaller deal (`rules/nantong-small.md`): winning hands of
    /// `groups` groups and a pair, a deck of the first `kinds` kinds.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = "seed", unchecked_param_type = "number | bigint")] seed_value: JsValue,
        #[wasm_bindgen(js_name = "size", unchecked_optional_param_type = "NantongSize")] size_in: JsValue,
    ) -> Js<Nantong> {
        let seed = seed(&seed_value)?;
        if size_in.is_undefined() {
            return Ok(Nantong(nt::Nantong::new(seed)));
        }
        if !size_in.is_object() {
            return Err(bad_argument("size must be an object { groups, kinds }"));
        }
        let SizeIn { groups, kinds } = from_js(&size_in, "size")?;
        Ok(Nantong(nt::Nantong::sized(seed, size(groups, kinds)?)))
    }

    /// The canonical deal of a deck order (120 card codes, four of each kind): the dealer takes
    /// the first 23 cards, the next seats 22 each, two indicators are turned up, 51 make the stock.
    /// With `groups` below 7, a smaller deal: the deck holds four of each of the first
    /// `deck.length / 4` kinds, the dealer takes `3 * groups + 2` cards, the others
    /// `3 * groups + 1`.
    pub fn deal(
        #[wasm_bindgen(unchecked_param_type = "NantongCard[]")] deck: JsValue,
        #[wasm_bindgen(unchecked_param_type = "NantongSeat")] dealer: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] groups: JsValue,
    ) -> Js<Nantong> {
        let deck: Vec<Kind> = list(&deck, "deck")?;
        let dealer = player_from_js::<nt::Nantong>(&dealer)?;
        let size = if groups.is_undefined() {
            nt::Size::FULL
        } else {
            let groups = integer(&groups, "groups", u32::MAX as u64)? as u32;
            size(Some(groups), Some((deck.len() / 4).max(1) as u32))?
        };
        nt::Nantong::deal_sized(&deck, dealer, size).js().map(Nantong)
    }

    /// Groups in a winning hand (7; fewer in a smaller deal).
    #[wasm_bindgen(getter)]
    pub fn groups(&self) -> usize {
        self.0.size().groups()
    }

    /// Kinds in the deck (30; fewer in a smaller deal).
    #[wasm_bindgen(getter)]
    pub fn kinds(&self) -> usize {
        self.0.size().kinds()
    }

    /// The next deal: the next seat deals a deck shuffled by this deal's generator.
    #[wasm_bindgen(js_name = nextDeal)]
    pub fn next_deal(&self) -> Nantong {
        Nantong(self.0.next_deal())
    }

    /// The seat to act (the same as `toMove`); `null` once the deal is over.
    #[wasm_bindgen(getter, unchecked_return_type = "NantongSeat | null")]
    pub fn actor(&self) -> JsValue {
        verbs::to_move(&self.0)
    }

    /// The dealer.
    #[wasm_bindgen(getter, unchecked_return_type = "NantongSeat")]
    pub fn dealer(&self) -> JsValue {
        verbs::player_to_js::<nt::Nantong>(self.0.dealer())
    }

    /// `seat` acts (notation or action id): `ILLEGAL_MOVE` when another seat is to act or the
    /// action is not legal now; nothing changes then.
    pub fn act(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "NantongSeat")] seat: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | number")] action: JsValue,
    ) -> Js<()> {
        let seat = player_from_js::<nt::Nantong>(&seat)?;
        let action = verbs::read_move(&self.0, &action)?;
        self.0.act(seat, action).js()
    }

    /// Answers `pass` to every pending claim question whose only answer is `pass`, and returns how
    /// many. For replaying records that list only the questions a seat could act on (the
    /// conformance `replay` cases), or a table whose seats share one screen: seats that cannot see
    /// each other must each answer, or the time taken would tell which could claim.
    #[wasm_bindgen(js_name = passForced)]
    pub fn pass_forced(&mut self) -> usize {
        self.0.pass_forced()
    }

    /// The itemised score of every seat once the deal is over, else `null`.
    #[wasm_bindgen(unchecked_return_type = "DealScore | null")]
    pub fn score(&self) -> Js<JsValue> {
        to_js_or_null(self.0.score())
    }

    /// How the deal was won; `null` while it goes on and once it is exhausted.
    #[wasm_bindgen(unchecked_return_type = "NantongWin | null")]
    pub fn win(&self) -> Js<JsValue> {
        to_js_or_null(self.0.win())
    }

    /// Whether a hand wins (seven groups and a pair, the melds counted as groups) and the cards
    /// that would complete it when it is one short.
    #[wasm_bindgen(unchecked_return_type = "NantongStanding")]
    pub fn winning(
        #[wasm_bindgen(unchecked_param_type = "NantongCard[]")] hand: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Meld[]")] melds: JsValue,
    ) -> Js<JsValue> {
        let hand: Vec<String> = list(&hand, "hand")?;
        let counts = counts_of(hand.iter().map(String::as_str)).js()?;
        let melds: Vec<Meld> = if melds.is_undefined() {
            Vec::new()
        } else {
            list(&melds, "melds")?
        };
        to_js(&standing(&counts, &melds))
    }

    /// The score of a finished deal given as its cards (the conformance `score` input: indicators,
    /// dealer, each seat's hand, melds and ready flag, and the win or `null`). Throws
    /// `PARSE_ERROR` for cards that no deal can end with.
    #[wasm_bindgen(js_name = scoreHand, unchecked_return_type = "DealScore")]
    pub fn score_hand(#[wasm_bindgen(unchecked_param_type = "FinishedDeal | string")] input: JsValue) -> Js<JsValue> {
        to_js(&from_js::<FinishedDeal>(&input, "finished deal")?.score())
    }
}

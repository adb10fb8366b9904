//! # arbiter-wasm
//!
//! The npm package `arbiter-engine`: [`arbiter_core`] for JavaScript and TypeScript. A thin layer:
//! it translates values and errors, and the rules stay in the core. The verbs that every game
//! shares are written once (`verbs.rs`) and stamped onto each class by `game_class!`; only
//! each game's extras are written per game.
//!
//! Build it with `npm run build` (see `scripts/build.mjs`), not with `cargo build` alone: the
//! JavaScript glue and the shrinking come from wasm-bindgen and wasm-opt.

mod convert;
mod json;
#[cfg(feature = "nantong")]
mod nantong;
mod options;
mod split;
#[cfg(feature = "trax")]
mod trax;
#[cfg(feature = "tripletriad")]
mod tripletriad;
#[cfg(feature = "tripletriad-match")]
mod tripletriad_match;
mod verbs;
mod write;

use wasm_bindgen::prelude::*;

/// talc instead of Rust's default on wasm (dlmalloc): about 2 KiB less of each module, gzipped,
/// and as fast where the engines allocate (docs/speed.md, "the allocator and the writer"). Its
/// realloc-in-place is left out (`disable-realloc-in-place`, Cargo.toml): 0.1 KiB, no loss measured.
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

/// Declares a class over a core game, with the verbs of every game. The string literals are the
/// TypeScript types of its players, states, observations, levels and move notation (declared in
/// `types.d.ts`; wasm-bindgen takes each as one literal, so `T[]` and `T | null` are spelt out).
macro_rules! game_class {
    (
        $(#[$doc:meta])*
        $class:ident($core:ty) {
            player: $player:literal,
            to_move: $to_move:literal,
            outcome: $outcome:literal,
            state: $state:literal,
            state_in: $state_in:literal,
            observation: $observation:literal,
            levels: $levels:literal,
            level: $level:literal,
            notation: $notation:literal,
            notations: $notations:literal,
            notation_or_null: $notation_or_null:literal $(,)?
        }
    ) => {
        $(#[$doc])*
        #[wasm_bindgen]
        pub struct $class($core);

        #[wasm_bindgen]
        impl $class {
            /// Every legal move now, in notation (empty once the game is over).
            #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = $notations)]
            pub fn legal_moves(&self) -> Vec<String> {
                crate::verbs::legal_moves(&self.0)
            }

            /// The action ids of the legal moves, in the order of `legalMoves()`.
            #[wasm_bindgen(js_name = legalActions, unchecked_return_type = "number[]")]
            pub fn legal_actions(&self) -> Vec<JsValue> {
                crate::verbs::legal_actions(&self.0)
            }

            /// Plays a move given in notation or as an action id; throws `ILLEGAL_MOVE` (or
            /// `GAME_OVER`, `PARSE_ERROR`, `BAD_ARGUMENT`) and changes nothing when it is refused.
            pub fn play(
                &mut self,
                #[wasm_bindgen(js_name = "move", unchecked_param_type = "string | number")] mv: JsValue,
            ) -> Result<(), JsValue> {
                crate::verbs::play(&mut self.0, &mv)
            }

            /// The player to move; `null` once the game is over.
            #[wasm_bindgen(getter = toMove, unchecked_return_type = $to_move)]
            pub fn to_move(&self) -> JsValue {
                crate::verbs::to_move(&self.0)
            }

            /// Whether the game is over.
            #[wasm_bindgen(getter = isOver)]
            pub fn is_over(&self) -> bool {
                arbiter_core::Game::is_over(&self.0)
            }

            /// The winner, `"draw"`, or `null` while the game goes on.
            #[wasm_bindgen(getter, unchecked_return_type = $outcome)]
            pub fn outcome(&self) -> JsValue {
                crate::verbs::outcome(&self.0)
            }

            /// What `player` sees as a fixed-size vector of numbers in 0..=1 for learning agents
            /// (its layout is in the README's research section); built from what that player may
            /// see alone.
            #[wasm_bindgen(js_name = observationTensor)]
            pub fn observation_tensor(
                &self,
                #[wasm_bindgen(unchecked_param_type = $player)] player: JsValue,
            ) -> Result<Vec<f32>, JsValue> {
                crate::verbs::observation_tensor(&self.0, &player)
            }

            /// The legal moves as a mask over the action ids: `mask[id]` is 1 for a legal move.
            #[wasm_bindgen(js_name = legalActionMask)]
            pub fn legal_action_mask(&self) -> Vec<u8> {
                arbiter_core::Engine::legal_action_mask(&self.0).into_iter().map(u8::from).collect()
            }

            /// What `player` may see, as a plain object: hidden cards are not in it.
            #[wasm_bindgen(unchecked_return_type = $observation)]
            pub fn observation(
                &self,
                #[wasm_bindgen(unchecked_param_type = $player)] player: JsValue,
            ) -> Result<JsValue, JsValue> {
                crate::verbs::observation(&self.0, &player)
            }

            /// The number of legal move sequences of `depth` moves, by the core's fast perft.
            pub fn perft(
                &self,
                #[wasm_bindgen(unchecked_param_type = "number")] depth: JsValue,
            ) -> Result<f64, JsValue> {
                crate::verbs::perft(&self.0, &depth)
            }

            /// The positions after `plies` plies, in a stable order: for each the first line of
            /// moves reaching it (notation, separated by `", "`; the position is this game after it)
            /// and the number of move sequences reaching it (transposed orders merge).
            #[wasm_bindgen(unchecked_return_type = "FrontierPosition[]")]
            pub fn frontier(
                &self,
                #[wasm_bindgen(unchecked_param_type = "number")] plies: JsValue,
            ) -> Result<JsValue, JsValue> {
                crate::split::frontier(&self.0, &plies)
            }

            /// `perft(depth)` counted over part `part` of `parts` (from 0) of the frontier after
            /// `split` plies: every `parts`-th position from the `part`-th. The parts sum to
            /// `perft(depth)`; a part out of range or a split past `depth` throws `BAD_ARGUMENT`.
            #[wasm_bindgen(js_name = perftPart)]
            pub fn perft_part(
                &self,
                #[wasm_bindgen(unchecked_param_type = "number")] depth: JsValue,
                #[wasm_bindgen(unchecked_param_type = "number")] split: JsValue,
                #[wasm_bindgen(unchecked_param_type = "number")] part: JsValue,
                #[wasm_bindgen(unchecked_param_type = "number")] parts: JsValue,
            ) -> Result<f64, JsValue> {
                crate::split::perft_part(&self.0, &depth, &split, &part, &parts)
            }

            /// The move that the built-in opponent of `level` chooses for the player to move,
            /// from that player's observation only; `null` once the game is over. The same seed
            /// gives the same move in Rust, C and JavaScript. `options` bounds the search
            /// besides the level's own budget: `{ timeMs, nodes }` (each optional); one that runs
            /// out plays the best move found so far. With `timeMs` the move may depend on the
            /// machine's speed.
            #[wasm_bindgen(js_name = chooseMove, unchecked_return_type = $notation_or_null)]
            pub fn choose_move(
                &self,
                #[wasm_bindgen(unchecked_param_type = $level)] level: JsValue,
                #[wasm_bindgen(unchecked_param_type = "number | bigint")] seed: JsValue,
                #[wasm_bindgen(unchecked_optional_param_type = "SearchOptions | null")] options: Option<JsValue>,
            ) -> Result<JsValue, JsValue> {
                crate::verbs::choose_move(&self.0, &level, &seed, options.as_ref())
            }

            /// The levels of the built-in opponents, weakest first.
            #[wasm_bindgen(getter, unchecked_return_type = $levels)]
            pub fn levels() -> Vec<String> {
                crate::verbs::levels::<$core>()
            }

            /// The notation of action id `id` (legal now or not).
            #[wasm_bindgen(js_name = actionText, unchecked_return_type = $notation)]
            pub fn action_text(
                &self,
                #[wasm_bindgen(unchecked_param_type = "number")] id: JsValue,
            ) -> Result<String, JsValue> {
                crate::verbs::action_text(&self.0, &id)
            }

            /// The action id of a move in notation.
            #[wasm_bindgen(js_name = actionId)]
            pub fn action_id(
                &self,
                #[wasm_bindgen(js_name = "move", unchecked_param_type = "string")] mv: JsValue,
            ) -> Result<u32, JsValue> {
                crate::verbs::action_id(&self.0, &mv)
            }

            /// How many action ids there are: ids are `0 .. numActions - 1`.
            #[wasm_bindgen(getter = numActions)]
            pub fn num_actions(&self) -> u32 {
                arbiter_core::Game::num_distinct_actions(&self.0) as u32
            }

            /// The whole state as a plain object (what `JSON.stringify` writes and `fromJSON`
            /// reads back exactly). Integers beyond 2^53 appear as decimal strings.
            #[wasm_bindgen(js_name = toJSON, unchecked_return_type = $state)]
            pub fn to_json(&self) -> Result<JsValue, JsValue> {
                crate::verbs::to_json(&self.0)
            }

            /// A game from its saved state: a plain object or JSON text (text keeps every digit of
            /// 64-bit numbers). Throws `PARSE_ERROR` for anything unreadable or invalid.
            #[wasm_bindgen(js_name = fromJSON)]
            pub fn from_json(
                #[wasm_bindgen(unchecked_param_type = $state_in)] json: JsValue,
            ) -> Result<$class, JsValue> {
                crate::verbs::from_json(&json).map($class)
            }

            /// An independent copy.
            #[wasm_bindgen(js_name = clone)]
            pub fn copy(&self) -> $class {
                $class(self.0.clone())
            }
        }
    };
}

pub(crate) use game_class;

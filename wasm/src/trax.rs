//! Trax: a game of any variant, with what it adds to the shared verbs: record reading, tiles,
//! the last turn's forced tiles, how the game was won, undo.

use arbiter_core::trax::{self, Tile, Variant};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::convert::{integer, text, to_js, to_js_or_null, Js, OrThrow};
use crate::verbs::{self, JsGame};

impl JsGame for trax::Trax {}

crate::game_class! {
    /// A Trax game: `8x8`, `unbounded` (Supertrax) or `loop`, in official notation.
    Trax(trax::Trax) {
        player: "TraxPlayer",
        to_move: "TraxPlayer | null",
        outcome: "TraxPlayer | \"draw\" | null",
        state: "TraxState",
        state_in: "TraxState | string",
        observation: "TraxState",
        levels: "TraxLevel[]",
        level: "TraxLevel",
        notation: "string",
        notations: "string[]",
        notation_or_null: "string | null",
    }
}

/// A tile as JavaScript sees it: its notation shape and the colour of each edge.
#[derive(Serialize)]
struct TileView {
    shape: char,
    /// North, east, south, west.
    edges: [trax::Colour; 4],
}

impl From<Tile> for TileView {
    fn from(t: Tile) -> TileView {
        TileView {
            shape: t.shape().symbol(),
            edges: [0, 1, 2, 3].map(|e| t.colour(e)),
        }
    }
}

/// The span of the tiles, as `size` returns it.
#[derive(Serialize)]
struct Size {
    cols: u32,
    rows: u32,
}

fn variant(v: &JsValue) -> Js<Variant> {
    text(v, "variant")?.parse::<Variant>().js()
}

#[wasm_bindgen]
impl Trax {
    /// An empty board of `variant`; white moves first. `maxTiles` (1 to 32,768; default 10,000)
    /// bounds the tiles a game may hold: a turn past it throws `LIMIT_EXCEEDED`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = "variant", unchecked_param_type = "TraxVariant")] variant_name: JsValue,
        #[wasm_bindgen(js_name = "maxTiles", unchecked_optional_param_type = "number")] max_tiles: JsValue,
    ) -> Js<Trax> {
        let variant = variant(&variant_name)?;
        if max_tiles.is_undefined() {
            return Ok(Trax(trax::Trax::new(variant)));
        }
        let limit = integer(&max_tiles, "maxTiles", u32::MAX as u64)? as u32;
        trax::Trax::with_max_tiles(variant, limit).js().map(Trax)
    }

    /// A game from a game record (move numbers, comments, `Resign` and headers are skipped).
    /// Throws `PARSE_ERROR` for a token that is not a move, and the refusal of the first illegal
    /// move, numbered from 1.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(
        #[wasm_bindgen(unchecked_param_type = "string")] record: JsValue,
        #[wasm_bindgen(js_name = "variant", unchecked_param_type = "TraxVariant")] variant_name: JsValue,
    ) -> Js<Trax> {
        let record = text(&record, "record")?;
        trax::Trax::from_record(variant(&variant_name)?, &record).js().map(Trax)
    }

    /// The variant.
    #[wasm_bindgen(getter, unchecked_return_type = "TraxVariant")]
    pub fn variant(&self) -> String {
        self.0.variant().name().into()
    }

    /// Tiles on the board, forced ones included.
    #[wasm_bindgen(getter)]
    pub fn tiles(&self) -> u32 {
        self.0.tiles()
    }

    /// The game's tile limit.
    #[wasm_bindgen(getter = maxTiles)]
    pub fn max_tiles(&self) -> u32 {
        self.0.max_tiles()
    }

    /// The player who moves next, also once the game is over (who would have moved).
    #[wasm_bindgen(getter = nextPlayer, unchecked_return_type = "TraxPlayer")]
    pub fn next_player(&self) -> JsValue {
        verbs::player_to_js::<trax::Trax>(self.0.next_player())
    }

    /// Columns and rows spanned by the tiles (`{cols: 0, rows: 0}` on an empty board).
    #[wasm_bindgen(getter, unchecked_return_type = "{ cols: number; rows: number }")]
    pub fn size(&self) -> Js<JsValue> {
        let (cols, rows) = self.0.size();
        to_js(&Size { cols, rows })
    }

    /// The tile at notation coordinates (column 1 = `A`, the leftmost; row 1 the top), or `null`.
    #[wasm_bindgen(js_name = tileAt, unchecked_return_type = "TraxTile | null")]
    pub fn tile_at(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] col: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] row: JsValue,
    ) -> Js<JsValue> {
        let col = integer(&col, "col", u32::MAX as u64)? as u32;
        let row = integer(&row, "row", u32::MAX as u64)? as u32;
        to_js_or_null(self.0.tile_at(col, row).map(TileView::from))
    }

    /// Takes back the last turn, forced tiles included, and returns its move; `null` on an empty
    /// board. A finished game resumes.
    #[wasm_bindgen(unchecked_return_type = "string | null")]
    pub fn undo(&mut self) -> JsValue {
        verbs::notation(self.0.undo())
    }

    /// The last turn: its move, where its tile went and the tiles it forced (in the order they
    /// fell), in notation coordinates of the area now; `null` on an empty board and after `undo()`.
    #[wasm_bindgen(js_name = lastTurn, unchecked_return_type = "TraxTurn | null")]
    pub fn last_turn(&self) -> Js<JsValue> {
        to_js_or_null(self.0.last_turn())
    }

    /// Who won and how (`"loop"` or `"line"`); `null` unless a player has won.
    #[wasm_bindgen(unchecked_return_type = "TraxWin | null")]
    pub fn win(&self) -> Js<JsValue> {
        to_js_or_null(self.0.win())
    }
}

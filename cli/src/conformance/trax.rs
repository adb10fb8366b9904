//! Trax cases: `play`, `perft`.

use super::{check_field, input, input_u64, Verdict};
use arbiter_core::trax::{Move, Trax, Variant};
use arbiter_core::Game;
use serde_json::{json, Value};

fn variant(case: &Value) -> Result<Variant, String> {
    let v = input(case, "variant")?
        .as_str()
        .ok_or("malformed case: \"variant\" is not a string")?;
    v.parse().map_err(|e| format!("malformed case: {e}"))
}

fn moves(case: &Value) -> Result<Vec<&str>, String> {
    let list = input(case, "moves")?
        .as_array()
        .ok_or("malformed case: \"moves\" is not a list")?;
    list.iter()
        .map(|m| {
            m.as_str()
                .ok_or_else(|| "malformed case: a move is not a string".to_string())
        })
        .collect()
}

/// Plays the moves; the index of the first refused one (malformed notation included).
fn replay(variant: Variant, moves: &[&str]) -> Result<Trax, usize> {
    let mut g = Trax::new(variant);
    for (i, text) in moves.iter().enumerate() {
        let mv: Move = text.parse().map_err(|_| i)?;
        g.play(mv).map_err(|_| i)?;
    }
    Ok(g)
}

pub(super) fn run(kind: &str, case: &Value, expect: &Value) -> Verdict {
    let input = || Ok::<_, String>((variant(case)?, moves(case)?));
    match kind {
        "play" => {
            let (variant, moves) = input()?;
            let g = match replay(variant, &moves) {
                Err(i) => {
                    check_field(expect, "legal", &json!(false))?;
                    return check_field(expect, "illegal_at", &json!(i));
                }
                Ok(g) => g,
            };
            check_field(expect, "legal", &json!(true))?;
            check_field(expect, "over", &json!(g.is_over()))?;
            let winner = match g.outcome() {
                Some(o) => json!(o.winner().map_or("draw", |c| c.name())),
                None => Value::Null,
            };
            check_field(expect, "winner", &winner)?;
            check_field(expect, "tiles", &json!(g.tiles()))?;
            check_field(expect, "to_move", &json!(g.next_player().name()))?;
            if expect.get("legal_moves").is_some() {
                check_field(expect, "legal_moves", &json!(g.legal_moves().len()))?;
            }
            Ok(())
        }
        "perft" => {
            let (variant, moves) = input()?;
            let depth =
                u32::try_from(input_u64(case, "depth")?).map_err(|_| "malformed case: depth too large".to_string())?;
            let g = replay(variant, &moves).map_err(|i| format!("move {i} of the case is refused"))?;
            check_field(expect, "nodes", &json!(g.perft(depth)))
        }
        other => Err(format!("unknown kind {other:?} for trax")),
    }
}

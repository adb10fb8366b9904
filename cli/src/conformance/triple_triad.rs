//! Triple Triad cases: `play`, `perft`, `solve`.

use super::{check_field, input, input_u64, Verdict};
use arbiter_core::tripletriad::{Move, Player, Setup, TripleTriad};
use arbiter_core::Game;
use serde_json::{json, Value};

/// Why a case could not be set up or played: what `"error": true` expects.
fn setup(case: &Value) -> Result<TripleTriad, String> {
    let state = input(case, "state")?;
    let setup: Setup = serde_json::from_value(state.clone()).map_err(|e| format!("bad state: {e}"))?;
    TripleTriad::new(&setup).map_err(|e| format!("bad state: {e}"))
}

pub(super) fn run(kind: &str, case: &Value, expect: &Value) -> Verdict {
    match kind {
        "play" => play(case, expect),
        "perft" => {
            let depth = input_u64(case, "depth")?;
            let depth = u32::try_from(depth).map_err(|_| "malformed case: depth too large".to_string())?;
            let nodes = expecting(expect, setup(case).map(|g| g.perft(depth)))?;
            nodes.map_or(Ok(()), |n| check_field(expect, "nodes", &json!(n)))
        }
        "solve" => {
            let solved = setup(case).and_then(|g| {
                g.solvable().map_err(|e| format!("bad state: {e}"))?;
                Ok(arbiter_core::tripletriad::solve(&g).value)
            });
            expecting(expect, solved)?.map_or(Ok(()), |v| check_field(expect, "value", &json!(v)))
        }
        "match" => super::triple_triad_match::run(case, expect),
        other => Err(format!("unknown kind {other:?} for triple-triad")),
    }
}

/// An outcome against `"error": true`: `Ok(None)` when an expected error came, the value to
/// check when none was expected, and a failure otherwise.
fn expecting<T>(expect: &Value, result: Result<T, String>) -> Result<Option<T>, String> {
    match (result, expect.get("error").and_then(Value::as_bool).unwrap_or(false)) {
        (Err(_), true) => Ok(None),
        (Ok(_), true) => Err("expected an error, but the state and every move were accepted".into()),
        (Err(why), false) => Err(why),
        (Ok(v), false) => Ok(Some(v)),
    }
}

fn play(case: &Value, expect: &Value) -> Verdict {
    let moves = input(case, "moves")?
        .as_array()
        .ok_or("malformed case: \"moves\" is not a list")?;
    let result = setup(case).and_then(|mut g| {
        for (i, mv) in moves.iter().enumerate() {
            let mv: Move = serde_json::from_value(mv.clone()).map_err(|e| format!("move {i}: {e}"))?;
            g.play(mv).map_err(|e| format!("move {i} ({mv}) refused: {e}"))?;
        }
        Ok(g)
    });
    let Some(g) = expecting(expect, result)? else {
        return Ok(());
    };
    let board: Vec<Value> = (0..9)
        .map(|c| match g.cell(c) {
            Some((card, owner)) => json!({"name": card.name, "owner": owner.name()}),
            None => Value::Null,
        })
        .collect();
    check_field(expect, "board", &Value::Array(board))?;
    let score = json!({"blue": g.score(Player::Blue), "red": g.score(Player::Red)});
    check_field(expect, "score", &score)?;
    check_field(expect, "over", &json!(g.is_over()))?;
    let winner = match g.outcome() {
        Some(o) => json!(o.winner().map_or("draw", Player::name)),
        None => Value::Null,
    };
    check_field(expect, "winner", &winner)?;
    let steps = g.last_move().map(|m| m.steps);
    check_field(
        expect,
        "steps",
        &serde_json::to_value(steps).map_err(|e| e.to_string())?,
    )
}

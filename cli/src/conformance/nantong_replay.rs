//! Nantong `replay` cases.

use super::{check_field, input, input_u64, Verdict};
use arbiter_core::nantong::{Action, Kind, Nantong, Seat};
use arbiter_core::Game;
use serde_json::{json, Value};

pub(super) fn run(case: &Value, expect: &Value) -> Verdict {
    let deck: Vec<Kind> =
        serde_json::from_value(input(case, "deck")?.clone()).map_err(|e| format!("malformed case: deck: {e}"))?;
    let dealer = u8::try_from(input_u64(case, "dealer")?)
        .ok()
        .and_then(Seat::new)
        .ok_or("malformed case: dealer is not a seat")?;
    let list = input(case, "actions")?
        .as_array()
        .ok_or("malformed case: actions is not a list")?;
    let mut g = Nantong::deal(&deck, dealer).map_err(|e| format!("bad deal: {e}"))?;
    // The cases list only the claim questions a seat could act on: the others are passed.
    for (n, a) in list.iter().enumerate() {
        g.pass_forced();
        let seat = a
            .get("seat")
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("malformed case: action {n} has no seat"))?;
        let text = a
            .get("action")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("malformed case: action {n} has no action"))?;
        let refused = match (u8::try_from(seat).ok().and_then(Seat::new), text.parse::<Action>()) {
            (Some(seat), Ok(action)) => g.act(seat, action).err().map(|e| e.to_string()),
            (_, Err(e)) => Some(e.to_string()),
            (None, _) => Some(format!("no seat {seat}")),
        };
        if let Some(why) = refused {
            if expect.get("legal") == Some(&json!(false)) {
                return check_field(expect, "illegal_at", &json!(n));
            }
            return Err(format!("action {n} ({seat}: {text}) refused: {why}"));
        }
    }
    g.pass_forced();
    check_field(expect, "legal", &json!(true))?;
    check_field(expect, "over", &json!(g.is_over()))?;
    if let Some(want) = expect.get("scores") {
        let Some(s) = g.score() else {
            return Err(format!("scores: expected {want}, but the deal is not over"));
        };
        check_field(want, "totals", &json!(s.totals))?;
        check_field(want, "settlement", &json!(s.settlement))?;
    }
    Ok(())
}

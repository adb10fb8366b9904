//! Nantong cases: `winning`, `score`, `replay`.

use super::{check_field, input, Verdict};
use arbiter_core::nantong::{counts_of, score_deal, Counts, HandCheck, Kind, Meld, PlayerHand, Win};
use serde_json::{json, Value};

fn codes(v: &Value, what: &str) -> Result<Counts, String> {
    let list = v
        .as_array()
        .ok_or_else(|| format!("malformed case: {what} is not a list"))?;
    let strs: Vec<&str> = list
        .iter()
        .map(|c| {
            c.as_str()
                .ok_or_else(|| format!("malformed case: {what} holds a non-string"))
        })
        .collect::<Result<_, _>>()?;
    counts_of(strs).map_err(|e| format!("malformed case: {e}"))
}

fn melds(v: Option<&Value>) -> Result<Vec<Meld>, String> {
    match v {
        None => Ok(Vec::new()),
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| format!("malformed case: melds: {e}")),
    }
}

pub(super) fn run(kind: &str, case: &Value, expect: &Value) -> Verdict {
    match kind {
        "winning" => {
            let hand: HandCheck = serde_json::from_value(case.clone()).map_err(|e| format!("malformed case: {e}"))?;
            check_field(expect, "winning", &json!(hand.is_winning()))?;
            if let Some(want) = expect.get("waits") {
                let got: Vec<String> = hand.waits().iter().map(|k| k.to_string()).collect();
                let mut want: Vec<String> =
                    serde_json::from_value(want.clone()).map_err(|e| format!("malformed case: waits: {e}"))?;
                want.sort();
                let mut sorted = got.clone();
                sorted.sort();
                if sorted != want {
                    return Err(format!("waits: expected {want:?}, got {got:?}"));
                }
            }
            Ok(())
        }
        "score" => {
            let indicators = indicators(case)?;
            let players = input(case, "players")?
                .as_array()
                .ok_or("malformed case: players is not a list")?;
            if players.len() != 3 {
                return Err("malformed case: three players".into());
            }
            let mut hands: [PlayerHand; 3] = Default::default();
            for (p, v) in hands.iter_mut().zip(players) {
                p.hand = codes(input(v, "hand")?, "hand")?;
                p.melds = melds(v.get("melds"))?;
                p.ready = v.get("ready").and_then(Value::as_bool).unwrap_or(false);
            }
            let win: Option<Win> = match input(case, "win")? {
                Value::Null => None,
                w => Some(parse_win(w)?),
            };
            let s = score_deal(indicators, &hands, win.as_ref()).map_err(|e| e.to_string())?;
            check_field(expect, "totals", &json!(s.totals))?;
            check_field(expect, "settlement", &json!(s.settlement))
        }
        "replay" => super::nantong_replay::run(case, expect),
        other => Err(format!("unknown kind {other:?} for nantong")),
    }
}

fn parse_win(w: &Value) -> Result<Win, String> {
    // With `heavenly`, `card` and `source` are ignored: fill them in if absent.
    let mut w = w.clone();
    if w.get("heavenly").and_then(Value::as_bool) == Some(true) {
        let obj = w.as_object_mut().ok_or("malformed case: win is not an object")?;
        if !matches!(obj.get("card"), Some(Value::String(_))) {
            obj.insert("card".into(), json!("1m"));
        }
        if !matches!(obj.get("source"), Some(Value::String(_))) {
            obj.insert("source".into(), json!("self_draw"));
        }
    }
    serde_json::from_value(w).map_err(|e| format!("malformed case: win: {e}"))
}

pub(super) fn indicators(case: &Value) -> Result<[Kind; 2], String> {
    serde_json::from_value(input(case, "indicators")?.clone()).map_err(|e| format!("malformed case: indicators: {e}"))
}

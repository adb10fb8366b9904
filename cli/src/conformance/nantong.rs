//! Nantong cases: `winning`, `score`, `replay`.

use super::{check_field, Verdict};
use arbiter_core::nantong::{FinishedDeal, HandCheck};
use serde::Deserialize;
use serde_json::{json, Value};

pub(super) fn run(kind: &str, case: &Value, expect: &Value) -> Verdict {
    match kind {
        "winning" => {
            let hand: HandCheck = serde_json::from_value(case.clone()).map_err(|e| format!("malformed case: {e}"))?;
            let s = hand.standing();
            check_field(expect, "winning", &json!(s.winning))?;
            if let Some(want) = expect.get("waits") {
                let got: Vec<String> = s.waits.iter().map(|k| k.to_string()).collect();
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
            // The core reads and checks the case's input fields itself (the others are ignored).
            let deal = FinishedDeal::deserialize(case).map_err(|e| format!("bad deal: {e}"))?;
            let s = deal.score();
            check_field(expect, "totals", &json!(s.totals))?;
            check_field(expect, "settlement", &json!(s.settlement))
        }
        "replay" => super::nantong_replay::run(case, expect),
        other => Err(format!("unknown kind {other:?} for nantong")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::run_line;
    use serde_json::json;

    fn score_case(players: serde_json::Value) -> String {
        json!({"game": "nantong", "kind": "score", "name": "crafted", "indicators": ["2s", "3m"], "dealer": 0,
               "players": players, "win": null, "expect": {"totals": [0, 0, 0]}})
        .to_string()
    }

    #[test]
    fn impossible_hands_fail_their_case_and_nothing_else() {
        // One such line used to panic and end the whole run.
        let pongs = json!(vec![json!({"type": "pong", "card": "5m"}); 17]);
        let empty = json!({"hand": [], "melds": []});
        let line = score_case(json!([{"hand": ["1m"], "melds": pongs}, empty, empty]));
        let (name, verdict) = run_line(&line);
        assert_eq!(name.as_deref(), Some("crafted"));
        let why = verdict.unwrap_err();
        assert!(why.contains("at most eight melds"), "{why}");
        let triples: Vec<String> = ["1m", "4m", "7m", "1s", "4s", "7s", "1c", "4c", "7c", "T", "W", "R"]
            .iter()
            .chain(&["2m", "5m", "8m", "5s", "8s"])
            .flat_map(|c| vec![c.to_string(); 3])
            .collect();
        let line = score_case(json!([{"hand": triples}, empty, empty]));
        let why = run_line(&line).1.unwrap_err();
        assert!(why.contains("seat 0 holds 51 cards"), "{why}");
    }
}

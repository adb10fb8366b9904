//! The conformance runner: JSON Lines cases (`conformance/FORMAT.md`) checked against the engine.

mod nantong;
mod nantong_replay;
mod trax;
mod triple_triad;
mod triple_triad_match;

use serde_json::Value;
use std::path::Path;

/// The verdict on one case: `Ok` or a description of the failure.
pub type Verdict = Result<(), String>;

/// Totals of a run.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
}

/// Runs every case of every file, printing one line per failing case; returns the totals. A file
/// that cannot be read and a line that is not UTF-8 count as failures; the run goes on.
pub fn run_files(files: &[impl AsRef<Path>], out: &mut impl std::io::Write) -> std::io::Result<Tally> {
    let mut tally = Tally::default();
    for file in files {
        let file = file.as_ref();
        let text = match std::fs::read(file) {
            Ok(bytes) => bytes,
            Err(e) => {
                writeln!(out, "FAIL {}: cannot read: {e}", file.display())?;
                tally.failed += 1;
                continue;
            }
        };
        for (n, line) in text.split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let (name, verdict) = match std::str::from_utf8(line) {
                Ok(line) => run_line(line),
                Err(e) => (None, Err(format!("malformed line: not UTF-8 ({e})"))),
            };
            match verdict {
                Ok(()) => tally.passed += 1,
                Err(why) => {
                    tally.failed += 1;
                    let name = name.unwrap_or_else(|| format!("{}:{}", file.display(), n + 1));
                    writeln!(out, "FAIL {name}: {why}")?;
                }
            }
        }
    }
    if tally.passed + tally.failed == 0 {
        // A run that checked nothing must not look like a success.
        writeln!(out, "FAIL no conformance case in the files given")?;
        tally.failed += 1;
    }
    writeln!(out, "{} passed, {} failed", tally.passed, tally.failed)?;
    Ok(tally)
}

/// Runs one line: the case's name (if it has one) and its verdict.
pub fn run_line(line: &str) -> (Option<String>, Verdict) {
    let case: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return (None, Err(format!("malformed line: {e}"))),
    };
    let name = case.get("name").and_then(Value::as_str).map(str::to_owned);
    (name, run_case(&case))
}

fn run_case(case: &Value) -> Verdict {
    let field = |k: &str| {
        case.get(k)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("malformed case: no string field {k:?}"))
    };
    let game = field("game")?;
    let kind = field("kind")?;
    field("name")?;
    let expect = case
        .get("expect")
        .filter(|e| e.is_object())
        .ok_or("malformed case: no object field \"expect\"")?;
    match game {
        "triple-triad" => triple_triad::run(kind, case, expect),
        "trax" => trax::run(kind, case, expect),
        "nantong" => nantong::run(kind, case, expect),
        other => Err(format!("unknown game {other:?}")),
    }
}

/// Compares an expected field with what came out, when the case names it.
pub(crate) fn check_field(expect: &Value, key: &str, got: &Value) -> Verdict {
    match expect.get(key) {
        Some(want) if want != got => Err(format!("{key}: expected {want}, got {got}")),
        _ => Ok(()),
    }
}

/// Reads a required field of a case.
pub(crate) fn input<'a>(case: &'a Value, key: &str) -> Result<&'a Value, String> {
    case.get(key).ok_or_else(|| format!("malformed case: no field {key:?}"))
}

/// Reads a required non-negative integer field of a case.
pub(crate) fn input_u64(case: &Value, key: &str) -> Result<u64, String> {
    input(case, key)?
        .as_u64()
        .ok_or_else(|| format!("malformed case: {key:?} is not a non-negative integer"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every way of breaking a value that a hand-written or generated case might contain.
    fn mutations(v: &Value) -> Vec<Value> {
        let mut out = vec![
            json!(null),
            json!(-1),
            json!(1e300),
            json!(u64::MAX),
            json!("x"),
            json!([]),
            json!({}),
        ];
        match v {
            Value::Array(a) if !a.is_empty() => {
                out.push(Value::Array(a[1..].to_vec()));
                let mut longer = a.clone();
                longer.extend(a.iter().cloned());
                out.push(Value::Array(longer));
            }
            Value::Number(n) => out.push(json!(n.as_u64().unwrap_or(0).saturating_mul(1000))),
            _ => {}
        }
        out
    }

    /// The paths (object keys, array indices; the first four items of an array) of every place in `v`.
    fn places(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    path.push(k.clone());
                    places(x, path, out);
                    path.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate().take(4) {
                    path.push(i.to_string());
                    places(x, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    fn at<'a>(v: &'a mut Value, path: &[String]) -> &'a mut Value {
        path.iter().fold(v, |v, k| match v {
            Value::Object(m) => m.get_mut(k).expect("path"),
            Value::Array(a) => &mut a[k.parse::<usize>().expect("index")],
            _ => unreachable!("paths follow the value"),
        })
    }

    #[test]
    fn broken_cases_are_failures_never_panics() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance");
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            // A few cases of each file, every place of each broken in every way.
            for line in text.lines().step_by(17).take(4) {
                let case: Value = serde_json::from_str(line).unwrap();
                let mut paths = Vec::new();
                places(&case, &mut Vec::new(), &mut paths);
                for p in paths.iter().filter(|p| p.first().is_none_or(|k| k != "expect")) {
                    for m in mutations(at(&mut case.clone(), p)) {
                        let mut broken = case.clone();
                        *at(&mut broken, p) = m;
                        let text = broken.to_string();
                        let outcome = std::panic::catch_unwind(|| run_line(&text));
                        assert!(outcome.is_ok(), "panic on {text}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}

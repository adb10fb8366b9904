//! The `arbiter` binary end to end: conformance files, bad input, perft, solve and a whole game.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run arbiter")
}

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn temp_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("arbiter-test-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Runs every conformance file of one game and checks that at least `at_least` cases ran, all passing.
fn assert_conformance(prefix: &str, at_least: usize) {
    let files = conformance_files(prefix);
    assert!(files.len() >= 2, "the conformance copies are missing");
    let args: Vec<&str> = std::iter::once("conformance")
        .chain(files.iter().map(String::as_str))
        .collect();
    let out = arbiter(&args);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let last = text.lines().last().unwrap_or_default();
    let passed: usize = last.split_whitespace().next().unwrap().parse().unwrap();
    assert!(passed >= at_least && last.ends_with(" passed, 0 failed"), "{last}");
}

#[test]
fn every_triple_triad_conformance_case_passes() {
    // 234 round cases and 53 match cases.
    assert_conformance("triple-triad-", 287);
}

#[test]
fn every_trax_conformance_case_passes() {
    assert_conformance("trax-", 376);
}

#[test]
fn every_nantong_conformance_case_passes() {
    assert_conformance("nantong-", 193);
}

fn conformance_files(prefix: &str) -> Vec<String> {
    std::fs::read_dir(repo("conformance"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

#[test]
fn malformed_lines_unknown_kinds_and_wrong_expectations_fail() {
    let good = r#"{"game":"triple-triad","kind":"perft","name":"ok","state":{"rules":{},"board":[null,null,null,{"card":{"name":"x","ranks":[1,1,1,1]},"owner":"red"},{"card":{"name":"y","ranks":[1,1,1,1]},"owner":"red"},{"card":{"name":"z","ranks":[1,1,1,1]},"owner":"blue"},{"card":{"name":"w","ranks":[1,1,1,1]},"owner":"blue"},{"card":{"name":"a","ranks":[1,1,1,1]},"owner":"red"},{"card":{"name":"v","ranks":[1,1,1,1]},"owner":"blue"}],"hands":{"blue":[{"name":"b","ranks":[2,2,2,2]},{"name":"c","ranks":[3,3,3,3]}],"red":[{"name":"d","ranks":[4,4,4,4]},{"name":"e","ranks":[5,5,5,5]}]},"to_move":"blue"},"depth":0,"expect":{"nodes":1}}"#;
    let wrong = good
        .replace("\"nodes\":1", "\"nodes\":2")
        .replace("\"ok\"", "\"wrong\"");
    let unknown = good
        .replace("\"perft\"", "\"teleport\"")
        .replace("\"ok\"", "\"unknown\"");
    let bad_rule = good
        .replace("\"rules\":{}", "\"rules\":{\"sparkle\":true}")
        .replace("\"ok\"", "\"rule\"");
    let text = format!("{good}\n{{not json\n{wrong}\n{unknown}\n{bad_rule}\n");
    let out = arbiter(&["conformance", &temp_file("cases.jsonl", &text)]);
    let s = stdout(&out);
    assert!(!out.status.success());
    assert!(s.contains("FAIL wrong: nodes: expected 2, got 1"), "{s}");
    assert!(s.contains("malformed line"), "{s}");
    assert!(s.contains("unknown kind"), "{s}");
    assert!(s.contains("FAIL rule: bad state: unknown field `sparkle`"), "{s}");
    assert_eq!(s.lines().last(), Some("1 passed, 4 failed"));
}

#[test]
fn conformance_runs_go_on_past_bad_lines_and_files_and_never_pass_empty() {
    // A line that is not UTF-8 is one malformed case; the good case after it still runs.
    let good =
        r#"{"game":"trax","kind":"perft","name":"ok","variant":"8x8","moves":[],"depth":1,"expect":{"nodes":2}}"#;
    let path = std::env::temp_dir().join(format!("arbiter-test-{}-latin1.jsonl", std::process::id()));
    std::fs::write(
        &path,
        [b"{\"name\": \"caf\xe9\"}\n".as_slice(), good.as_bytes()].concat(),
    )
    .unwrap();
    let out = arbiter(&["conformance", path.to_str().unwrap(), "/"]);
    let s = stdout(&out);
    assert!(!out.status.success());
    assert!(s.contains("not UTF-8"), "{s}");
    assert!(s.contains("FAIL /: cannot read"), "{s}");
    assert_eq!(s.lines().last(), Some("1 passed, 2 failed"));
    // No case at all is not a pass.
    let out = arbiter(&["conformance", &temp_file("empty.jsonl", "\n")]);
    assert!(!out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("0 passed, 1 failed"));
    // An unknown kind is named as such, whatever fields the case lacks.
    for game in ["trax", "nantong", "triple-triad"] {
        let case = format!(r#"{{"game":"{game}","kind":"foo","name":"k","expect":{{}}}}"#);
        let out = arbiter(&["conformance", &temp_file("kind.jsonl", &case)]);
        assert!(
            stdout(&out).contains(&format!("unknown kind \"foo\" for {game}")),
            "{}",
            stdout(&out)
        );
    }
}

#[test]
fn a_missing_file_and_bad_arguments_fail_cleanly() {
    let out = arbiter(&["conformance", "/nonexistent/cases.jsonl"]);
    assert!(!out.status.success());
    let out = arbiter(&["perft", "triple-triad", "minus-one"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value"));
    let bad = temp_file("bad-state.json", "{\"rules\": {\"same_wall\": true}}");
    let out = arbiter(&["solve", "triple-triad", "--state", &bad]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("malformed state"));
    let out = arbiter(&["play", "triple-triad", "--preset", "nope"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown preset"));
}

#[test]
fn perft_and_solve_print_nodes_and_speed() {
    let out = arbiter(&["perft", "triple-triad", "3", "--seed", "4"]);
    let s = stdout(&out);
    assert!(out.status.success());
    assert!(s.starts_with(&format!("perft 3: {} nodes", 45 * 40 * 28)), "{s}");
    assert!(s.contains("nodes/s") || s.contains("-"), "{s}");
    let state = r#"{"rules":{"open":true},"board":[{"card":{"name":"C0","ranks":[1,1,1,1]},"owner":"red"},null,null,{"card":{"name":"C3","ranks":[1,1,1,1]},"owner":"red"},{"card":{"name":"C4","ranks":[6,1,1,1]},"owner":"red"},null,{"card":{"name":"C6","ranks":[1,1,1,1]},"owner":"blue"},{"card":{"name":"C7","ranks":[1,1,1,1]},"owner":"blue"},{"card":{"name":"C8","ranks":[3,1,1,1]},"owner":"blue"}],"hands":{"blue":[{"name":"B1","ranks":[2,1,7,6]},{"name":"B2","ranks":[8,1,2,9]}],"red":[{"name":"R1","ranks":[5,1,8,1]},{"name":"R2","ranks":[5,5,5,5]}]},"to_move":"blue"}"#;
    let out = arbiter(&["solve", "triple-triad", "--state", &temp_file("solve.json", state)]);
    let s = stdout(&out);
    assert!(out.status.success(), "{s}");
    assert!(s.starts_with("value "), "{s}");
}

#[test]
fn a_person_can_play_a_whole_game() {
    // Answer every prompt with each move in turn until one is accepted; the board has 9 cells.
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "play",
            "triple-triad",
            "--preset",
            "mush",
            "--seed",
            "5",
            "--level",
            "random",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for _ in 0..12 {
        for card in 0..5 {
            for cell in 0..9 {
                input.push_str(&format!("{card} {cell}\n"));
            }
        }
    }
    // Then the trade: whichever pick count the result asks for.
    input.push_str("0\n0 1\n0 1 2\n0 1 2 3\n0 1 2 3 4\n");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let s = stdout(&out);
    assert!(out.status.success());
    assert!(s.contains("Final score: blue "), "{s}");
    assert!(s.contains("Trade (diff_over_five)"), "{s}");
}

#[test]
fn trax_perft_and_bad_moves() {
    let out = arbiter(&["perft", "trax", "3", "--variant", "8x8"]);
    assert!(out.status.success());
    assert!(stdout(&out).starts_with("perft 3: 432 nodes"), "{}", stdout(&out));
    let err = |o: &Output| String::from_utf8_lossy(&o.stderr).into_owned();
    let out = arbiter(&["perft", "trax", "1", "--moves", "@0/ B1x"]);
    assert!(!out.status.success());
    assert!(err(&out).contains("\"B1x\""), "{}", err(&out));
    let out = arbiter(&["perft", "trax", "1", "--moves", "@0/ C1+"]);
    assert!(!out.status.success());
    assert!(err(&out).contains("not next to a tile"), "{}", err(&out));
    let out = arbiter(&["perft", "trax", "1", "--variant", "9x9"]);
    assert!(!out.status.success());
}

#[test]
fn a_person_can_play_trax() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["play", "trax", "--variant", "8x8", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Every turn: try cells and shapes in turn until one is legal.
    let mut input = String::from("@0+\n");
    for _ in 0..40 {
        for col in ["@", "A", "B", "C", "D", "E", "F", "G", "H", "I"] {
            for row in 0..10 {
                for shape in ["+", "/", "\\"] {
                    input.push_str(&format!("{col}{row}{shape}\n"));
                }
            }
        }
    }
    child.stdin.take().unwrap().write_all(input.as_bytes()).ok();
    let out = child.wait_with_output().unwrap();
    let s = stdout(&out);
    assert!(out.status.success());
    assert!(s.matches("white plays").count() >= 3 && s.contains("red plays"), "{s}");
    assert!(s.contains("Game over after") || s.contains("End of input"), "{s}");
}

#[test]
fn a_person_can_play_whole_nantong_deals() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["play", "nantong", "--seed", "11"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Always the first option; "1" also declines another deal, so the game ends after one.
    let input = "1\n".repeat(400);
    child.stdin.take().unwrap().write_all(input.as_bytes()).ok();
    let out = child.wait_with_output().unwrap();
    let s = stdout(&out);
    assert!(out.status.success());
    assert!(s.contains("Settlement: you"), "{s}");
    assert!(s.contains("Running totals"), "{s}");
}

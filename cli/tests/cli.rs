//! The `arbiter` binary end to end: conformance files, bad input, perft, solve and a whole game.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The binary under test; `ARBITER_BIN` points the tests at another build (an older one, to see
/// a bug's test fail).
fn bin() -> String {
    std::env::var("ARBITER_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_arbiter").to_string())
}

/// The terminal size a test's shell may have exported; the tests say theirs (80x24 by default).
const SIZE: [&str; 2] = ["COLUMNS", "LINES"];

fn arbiter(args: &[&str]) -> Output {
    let mut cmd = Command::new(bin());
    for v in SIZE {
        cmd.env_remove(v);
    }
    cmd.args(args).output().expect("run arbiter")
}

/// Runs arbiter with `input` on standard input and `env` set; NO_COLOR unless `env` sets colour.
fn arbiter_with(args: &[&str], input: &[u8], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(bin());
    for v in SIZE {
        cmd.env_remove(v);
    }
    cmd.args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("run arbiter");
    // The game may stop reading before the end of the input: a refused write is no failure.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
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
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value"));
}

#[test]
fn perft_and_solve_print_nodes_and_speed() {
    let out = arbiter(&["perft", "triple-triad", "3", "--seed", "4"]);
    let s = stdout(&out);
    assert!(out.status.success());
    assert!(s.starts_with(&format!("perft 3: {} nodes", 45 * 40 * 28)), "{s}");
    assert!(s.contains("nodes/s") || s.contains("-"), "{s}");
    let state = r#"{"rules":{"open":true},"board":[{"card":{"name":"C0","ranks":[1,1,1,1]},"owner":"red"},null,null,{"card":{"name":"C3","ranks":[1,1,1,1]},"owner":"red"},{"card":{"name":"C4","ranks":[6,1,1,1]},"owner":"red"},null,{"card":{"name":"C6","ranks":[1,1,1,1]},"owner":"blue"},{"card":{"name":"C7","ranks":[1,1,1,1]},"owner":"blue"},{"card":{"name":"C8","ranks":[3,1,1,1]},"owner":"blue"}],"hands":{"blue":[{"name":"B1","ranks":[2,1,7,6]},{"name":"B2","ranks":[8,1,2,9]}],"red":[{"name":"R1","ranks":[5,1,8,1]},{"name":"R2","ranks":[5,5,5,5]}]},"to_move":"blue"}"#;
    let file = temp_file("solve.json", state);
    let out = arbiter(&["solve", "triple-triad", "--state", &file]);
    let s = stdout(&out);
    assert!(out.status.success(), "{s}");
    assert!(s.starts_with("value "), "{s}");
    // The same value on two threads, and the comparison with one.
    let out = arbiter(&["solve", "triple-triad", "--state", &file, "--threads", "2", "--speedup"]);
    let two = stdout(&out);
    assert!(out.status.success(), "{two}");
    assert_eq!(two.lines().next(), s.lines().next(), "{two}");
    assert!(two.contains("2 threads") && two.contains("speed-up"), "{two}");
}

#[test]
fn a_person_can_play_a_whole_game() {
    // Answer every prompt with each move in turn until one is accepted; the board has 9 cells.
    let mut child = Command::new(bin())
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
    assert!(s.contains("Final score"), "{s}");
    assert!(
        s.contains("Trade: the winner takes as many cards as their score over five"),
        "{s}"
    );
    assert!(!s.contains("diff_over_five"), "{s}");
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

/// Trax input that tries every cell and shape in turn until one is legal, turn after turn.
fn trax_flood() -> String {
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
    input
}

#[test]
fn a_person_can_play_trax() {
    let mut child = Command::new(bin())
        .args(["play", "trax", "--variant", "8x8", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = trax_flood();
    child.stdin.take().unwrap().write_all(input.as_bytes()).ok();
    let out = child.wait_with_output().unwrap();
    let s = stdout(&out);
    assert!(out.status.success());
    assert!(
        s.matches("(white) played").count() >= 3 && s.contains("(red) played"),
        "{s}"
    );
    assert!(s.contains("Game over after") || s.contains("End of input"), "{s}");
}

#[test]
fn a_person_can_play_whole_nantong_deals() {
    let mut child = Command::new(bin())
        .args(["play", "nantong", "--seed", "11"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Always the first option, then no other deal.
    let input = "1\n".repeat(400) + "n\n";
    child.stdin.take().unwrap().write_all(input.as_bytes()).ok();
    let out = child.wait_with_output().unwrap();
    let s = stdout(&out);
    assert!(out.status.success());
    assert!(s.contains("Settlement: you"), "{s}");
    assert!(s.contains("Running totals"), "{s}");
}

#[test]
fn smaller_nantong_deals_in_play_perft_and_arena() {
    let small = ["--groups", "1", "--kinds", "5"];
    let out = arbiter_with(
        &[&["play", "nantong", "--seed", "11"][..], &small].concat(),
        ("1\n".repeat(200) + "n\n").as_bytes(),
        &[],
    );
    let (s, e) = text(&out);
    assert!(out.status.success(), "{e}");
    assert!(
        s.contains("A smaller deal: a winning hand is 1 group and a pair, from a deck of 1m to 5m."),
        "{s}"
    );
    assert!(s.contains("Settlement: you"), "{s}");
    // The count is the core's for the same deal, on the threads as on one.
    let deal = arbiter_core::nantong::Nantong::sized(3, arbiter_core::nantong::Size::new(1, 5).unwrap());
    let nodes = arbiter_core::perft(&deal, 10);
    assert!(nodes > 20, "{nodes}");
    let out = arbiter(&[&["perft", "nantong", "10", "--seed", "3", "--threads", "2"][..], &small].concat());
    assert!(
        stdout(&out).starts_with(&format!("perft 10: {nodes} nodes")),
        "{}",
        stdout(&out)
    );
    let full = arbiter_core::perft(&arbiter_core::nantong::Nantong::new(3), 5);
    let out = arbiter(&["perft", "nantong", "5", "--seed", "3"]);
    assert!(
        stdout(&out).starts_with(&format!("perft 5: {} node", full)),
        "{}",
        stdout(&out)
    );
    let out = arbiter(
        &[
            &["arena", "nantong", "--players", "basic,random,random", "--games", "6"][..],
            &small,
        ]
        .concat(),
    );
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("a smaller deal: 1 group and a pair, 5 kinds"),
        "{}",
        stdout(&out)
    );
    // Sizes that cannot deal, out of range, or over a saved deal are refused in words.
    for (args, words) in [
        (
            &["perft", "nantong", "1", "--groups", "7", "--kinds", "17"][..],
            "at least 18 kinds",
        ),
        (
            &["arena", "nantong", "--players", "basic,basic,basic", "--groups", "8"],
            "8 is not in 0..=7",
        ),
        (
            &["play", "nantong", "--load", "x.json", "--groups", "1"],
            "leave out --groups and --kinds",
        ),
    ] {
        let (s, e) = text(&arbiter(args));
        assert!(e.contains(words), "{args:?}: {s}{e}");
    }
}

fn text(o: &Output) -> (String, String) {
    (stdout(o), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn by_default_you_are_the_player_who_moves_first() {
    // With these seeds red moves first: you are red and no move is made before yours.
    for seed in ["1", "2", "6", "8"] {
        let out = arbiter_with(&["play", "triple-triad", "--seed", seed], b"quit\n", &[]);
        let (s, _) = text(&out);
        let before = s.split("your move").next().unwrap();
        assert!(
            !before.contains(" plays ") && !before.contains(" played "),
            "seed {seed}:\n{s}"
        );
        assert!(s.contains("red moves first"), "seed {seed}:\n{s}");
    }
}

#[test]
fn the_trax_computer_does_not_hand_over_a_win() {
    // The issue's reproduction: with no safe move, the computer used to play one that lost at once.
    let input = b"A0/\n@2\\\nA0+\n@4/\nB7/\nA3+\nA8/\nB5+\n";
    let args = ["play", "trax", "--variant", "8x8", "--you", "red", "--seed", "10"];
    let (s, _) = text(&arbiter_with(&args, input, &[]));
    assert!(!s.contains("Game over") && s.contains("End of input"), "{s}");
}

#[test]
fn a_line_that_is_not_utf8_is_a_bad_line_not_the_end() {
    for (args, good) in [
        (&["play", "triple-triad", "--seed", "3"][..], "0 4"),
        (&["play", "trax", "--seed", "3"][..], "@0+"),
        (&["play", "nantong", "--seed", "3"][..], "1"),
    ] {
        let input = [b"caf\xe9\n".as_slice(), good.as_bytes(), b"\nquit\n"].concat();
        let out = arbiter_with(args, &input, &[]);
        let (s, e) = text(&out);
        assert!(out.status.success(), "{args:?}: {e}");
        assert!(s.contains("not valid UTF-8"), "{args:?}: {s}");
        assert!(
            s.contains("played") || s.contains("You: "),
            "{args:?}: the game went on\n{s}"
        );
    }
}

/// Runs `command` in bash with its output on a pipe that nobody reads any more (a FIFO whose only
/// reader closed before the command starts, so that every write fails): arbiter's exit status
/// and what reached standard error.
fn into_closed_pipe(command: &str) -> (String, String) {
    let script = format!(
        "d=$(mktemp -d) && mkfifo \"$d/f\" && exec 3<>\"$d/f\" 4>\"$d/f\" 3<&- && rm -r \"$d\"; \
         {command} >&4; echo $?"
    );
    let out = Command::new("bash")
        .args(["-c", &script])
        .env("ARBITER", bin())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    text(&out)
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let cases = format!("\"$ARBITER\" conformance {}", conformance_files("trax-").join(" "));
    for command in [
        "\"$ARBITER\" play triple-triad --seed 1 </dev/null 2>&4",
        "\"$ARBITER\" play nantong --seed 1 </dev/null",
        cases.as_str(),
        "\"$ARBITER\" rules nantong",
        "\"$ARBITER\" perft trax 2",
    ] {
        let (status, errors) = into_closed_pipe(command);
        assert_eq!(status.trim(), "0", "{command}: {errors}");
        assert!(errors.is_empty(), "{command}: {errors}");
    }
}

#[test]
fn options_that_do_not_apply_are_refused() {
    let state = temp_file(
        "applies.json",
        r#"{"rules":{},"board":[null,null,null,null,null,null,null,null,null],"hands":{"blue":[{"name":"a","ranks":[1,1,1,1]}],"red":[]},"to_move":"blue"}"#,
    );
    for args in [
        &["play", "trax", "--preset", "mush"][..],
        &["play", "nantong", "--variant", "8x8"],
        &["play", "nantong", "--level", "perfect"],
        &["play", "triple-triad", "--level", "easy"],
        &["perft", "trax", "1", "--seed", "2"],
        &["perft", "trax", "1", "--state", &state, "--moves", "@0+"],
        &["perft", "triple-triad", "1", "--moves", "@0+"],
        &["perft", "triple-triad", "1", "--state", &state, "--seed", "2"],
        &["play", "trax", "--seed", "2", "--load", &state],
    ] {
        let out = arbiter_with(args, b"quit\n", &[]);
        let (_, e) = text(&out);
        assert!(
            !out.status.success() && e.contains("error:"),
            "{args:?} was accepted: {e}"
        );
    }
}

#[test]
fn a_huge_trax_move_is_out_of_range_as_typed() {
    let typed = format!("{}{}+", "A".repeat(60), "9".repeat(24));
    let input = format!("@0+\n{typed}\nquit\n");
    let (s, _) = text(&arbiter_with(&["play", "trax", "--seed", "1"], input.as_bytes(), &[]));
    assert!(s.contains("out of range") && s.contains(&format!("{typed:?}")), "{s}");
    assert!(!s.contains("18446744073709551615"), "{s}");
}

fn has_escapes(o: &Output) -> bool {
    o.stdout.contains(&0x1b)
}

#[test]
fn no_colour_for_dumb_terminals_or_no_color() {
    let args = ["play", "trax", "--seed", "1"];
    let forced = arbiter_with(&args, b"@0+\nquit\n", &[("CLICOLOR_FORCE", "1"), ("TERM", "xterm")]);
    assert!(has_escapes(&forced), "colour can be forced onto a pipe");
    for env in [
        &[("CLICOLOR_FORCE", "1"), ("TERM", "dumb")][..],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1"), ("TERM", "xterm")],
    ] {
        assert!(!has_escapes(&arbiter_with(&args, b"@0+\nquit\n", env)), "{env:?}");
    }
    // At a real terminal (when `script` can make one).
    let at_terminal = |term: &str| {
        let cmd = format!("'{}' play trax --seed 1 </dev/null", bin());
        Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .env("TERM", term)
            .env_remove("NO_COLOR")
            .output()
    };
    if let (Ok(xterm), Ok(dumb)) = (at_terminal("xterm"), at_terminal("dumb")) {
        if xterm.status.success() {
            assert!(has_escapes(&xterm), "{}", stdout(&xterm));
            assert!(!has_escapes(&dumb), "{}", stdout(&dumb));
        }
    }
}

#[test]
fn perft_past_the_end_of_the_game_says_so() {
    for args in [
        &["perft", "triple-triad", "10"][..],
        &["perft", "trax", "65", "--variant", "8x8"],
    ] {
        let out = arbiter(args);
        assert!(out.status.success());
        assert!(
            stdout(&out).contains("no game goes that far"),
            "{args:?}: {}",
            stdout(&out)
        );
    }
}

/// Every line of the output fits 80 columns.
fn assert_fits_80(s: &str) {
    for line in s.lines() {
        assert!(line.chars().count() <= 80, "{} columns: {line:?}", line.chars().count());
    }
}

#[test]
fn screens_fit_80_columns() {
    let mut tt = String::new();
    for card in 0..5 {
        for cell in 0..9 {
            tt.push_str(&format!("{card} {cell}\n"));
        }
    }
    let tt = tt.repeat(5) + "help\nrules\nlegend\n";
    for preset in ["ff8", "ttonline", "mush", "ffforever"] {
        let args = [
            "play",
            "triple-triad",
            "--preset",
            preset,
            "--seed",
            "2",
            "--level",
            "random",
        ];
        let (s, _) = text(&arbiter_with(&args, tt.as_bytes(), &[]));
        assert!(s.contains("Final score"), "{s}");
        assert_fits_80(&s);
    }
    let trax = ["play", "trax", "--variant", "8x8", "--seed", "2", "--level", "random"];
    let (s, _) = text(&arbiter_with(&trax, trax_flood().as_bytes(), &[]));
    assert!(s.contains("Game over"), "{s}");
    assert_fits_80(&s);
    let nantong = "help\nlegend\n".to_string() + &"1\n".repeat(400) + "n\n";
    let (s, _) = text(&arbiter_with(
        &["play", "nantong", "--seed", "4"],
        nantong.as_bytes(),
        &[],
    ));
    assert!(s.contains("Settlement"), "{s}");
    assert_fits_80(&s);
}

#[test]
fn a_turn_of_triple_triad_fits_24_lines() {
    // From one prompt to the next: the moves' explanations, the board, the hands, the legend.
    let (s, _) = text(&arbiter_with(
        &["play", "triple-triad", "--seed", "2"],
        b"0 4\n1 0\nquit\n",
        &[],
    ));
    let turns: Vec<&str> = s.split("your move").collect();
    for turn in &turns[1..turns.len() - 1] {
        assert!(turn.lines().count() <= 24, "{} lines:\n{turn}", turn.lines().count());
    }
}

#[test]
fn a_fresh_seed_is_printed_and_replays() {
    let (s, _) = text(&arbiter_with(&["play", "nantong"], b"quit\n", &[]));
    let seed = s
        .split("--seed ")
        .nth(1)
        .and_then(|r| r.split('.').next())
        .expect("a seed is printed");
    let (again, _) = text(&arbiter_with(&["play", "nantong", "--seed", seed], b"quit\n", &[]));
    let hand = |s: &str| s.lines().find(|l| l.starts_with("Your hand")).map(str::to_string);
    assert_eq!(hand(&s), hand(&again));
}

#[test]
fn save_and_load_resume_exactly() {
    for (game, moves, more) in [
        ("triple-triad", "0 4\n", "1 0\n"),
        ("trax", "@0+\n", "hint\n"),
        ("nantong", "1\n1\n", "1\n"),
    ] {
        let file = std::env::temp_dir().join(format!("arbiter-test-{}-{game}.json", std::process::id()));
        let file = file.to_string_lossy();
        // One run straight through, one saved and loaded half-way: the same game.
        let straight = format!("{moves}{more}quit\n");
        let (a, _) = text(&arbiter_with(&["play", game, "--seed", "5"], straight.as_bytes(), &[]));
        let saving = format!("{moves}save {file}\nquit\n");
        let (_, e) = text(&arbiter_with(&["play", game, "--seed", "5"], saving.as_bytes(), &[]));
        assert!(e.is_empty(), "{e}");
        let (b, e) = text(&arbiter_with(
            &["play", game, "--load", &file],
            format!("{more}quit\n").as_bytes(),
            &[],
        ));
        assert!(e.is_empty(), "{game}: {e}");
        let tail = |s: &str| s.rsplit("your ").nth(1).map(str::to_string);
        assert_eq!(tail(&a), tail(&b), "{game}");
    }
}

#[test]
fn undo_hint_help_and_rules_in_every_game() {
    for (game, first) in [("triple-triad", "0 4"), ("trax", "@0+"), ("nantong", "1")] {
        let input = format!("undo\nhelp\n?\nrules\nhint\n{first}\nundo\nq\n");
        let (s, e) = text(&arbiter_with(&["play", game, "--seed", "7"], input.as_bytes(), &[]));
        assert!(e.is_empty(), "{game}: {e}");
        for said in [
            "Nothing to take back",
            "Taken back",
            "Hint: ",
            "quit, q",
            "arbiter rules",
            "You stop here",
        ] {
            assert!(s.contains(said), "{game}: no {said:?} in\n{s}");
        }
    }
}

#[test]
fn the_rules_are_written_for_players_and_fit_the_terminal() {
    for (game, title, words) in [
        (
            "triple-triad",
            "TRIPLE TRIAD",
            &["Same Wall", "Combo", "sudden death", "ffforever", "direct swap"][..],
        ),
        (
            "trax",
            "TRAX",
            &["Forced tiles", "8x8", "loop: like unbounded", "@0/ B1\\ B2/"],
        ),
        (
            "nantong",
            "NANTONG LONG CARDS",
            &["Tiandi Hezi", "Piao Hu", "three elders", "+140, -40 and -100"],
        ),
    ] {
        for width in [80, 40] {
            let columns = width.to_string();
            let out = arbiter_with(&["rules", game], b"", &[("COLUMNS", &columns)]);
            let s = stdout(&out);
            assert!(out.status.success() && s.starts_with(title), "{game}: {s}");
            for line in s.lines() {
                assert!(line.chars().count() <= width, "{game} at {width}: {line:?}");
            }
            // Plain words, not the specification: no Markdown, no notes to developers.
            for banned in [
                "#",
                "**",
                "`",
                "|--",
                "../",
                "seed",
                "closing note",
                "perft",
                "conformance",
                "engine",
                "mask",
                "JSON",
                "API",
                "host",
                "decision",
                "Decision",
            ] {
                assert!(!s.contains(banned), "{game}: {banned:?} in\n{s}");
            }
            let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
            for w in words {
                assert!(flat.contains(w), "{game}: no {w:?} in\n{s}");
            }
        }
    }
}

#[test]
fn a_trax_game_record_is_written_and_replayed() {
    let file = std::env::temp_dir().join(format!("arbiter-test-{}-record.txt", std::process::id()));
    let file = file.to_string_lossy();
    let input = format!("@0/\nrecord {file}\nquit\n");
    arbiter_with(
        &["play", "trax", "--seed", "4", "--level", "random"],
        input.as_bytes(),
        &[],
    );
    let record = std::fs::read_to_string(file.as_ref()).unwrap();
    assert!(
        record.starts_with("; Trax (8x8)") && record.contains("1. @0/ "),
        "{record}"
    );
    let (s, _) = text(&arbiter_with(
        &["play", "trax", "--record", &file, "--seed", "4"],
        b"\n\n\n\nquit\n",
        &[],
    ));
    assert!(s.contains("move 1 of 2: @0/") && s.contains("move 2 of 2"), "{s}");
    assert!(
        s.contains("You play white"),
        "after the record, the player to move takes over: {s}"
    );
}

#[test]
fn solve_explains_its_value_and_prints_a_line() {
    let state = r#"{"rules":{"open":true},"board":[{"card":{"name":"C0","ranks":[1,1,1,1]},"owner":"red"},null,null,{"card":{"name":"C3","ranks":[1,1,1,1]},"owner":"red"},{"card":{"name":"C4","ranks":[6,1,1,1]},"owner":"red"},null,{"card":{"name":"C6","ranks":[1,1,1,1]},"owner":"blue"},{"card":{"name":"C7","ranks":[1,1,1,1]},"owner":"blue"},{"card":{"name":"C8","ranks":[3,1,1,1]},"owner":"blue"}],"hands":{"blue":[{"name":"B1","ranks":[2,1,7,6]},{"name":"B2","ranks":[8,1,2,9]}],"red":[{"name":"R1","ranks":[5,1,8,1]},{"name":"R2","ranks":[5,5,5,5]}]},"to_move":"blue"}"#;
    let out = arbiter(&["solve", "triple-triad", "--state", &temp_file("line.json", state)]);
    let s = stdout(&out);
    assert!(s.contains("final score difference for blue"), "{s}");
    // The cards by name: hand indices shift as cards are played.
    assert_eq!(
        s.lines()
            .find(|l| l.starts_with("best line"))
            .map(|l| l.matches("; ").count()),
        Some(2),
        "{s}"
    );
    assert!(s.contains("best move 0@5: B1 on cell 5"), "{s}");
    let line = s.lines().find(|l| l.starts_with("best line")).unwrap();
    for step in line["best line: ".len()..].split("; ") {
        let words: Vec<&str> = step.split(' ').collect();
        assert!(
            matches!(words.as_slice(), [_, card, "on", "cell", _] if ["B1", "B2", "R1", "R2"].contains(card)),
            "{step}"
        );
    }
}

#[test]
fn solve_and_perft_read_the_games_that_play_saves() {
    let tt = std::env::temp_dir().join(format!("arbiter-test-{}-solve-save.json", std::process::id()));
    let trax = std::env::temp_dir().join(format!("arbiter-test-{}-perft-save.json", std::process::id()));
    let (tt, trax) = (tt.to_str().unwrap(), trax.to_str().unwrap());
    let input = format!("0 4\n1 0\n2 8\nsave {tt}\nquit\n");
    arbiter_with(
        &["play", "triple-triad", "--preset", "ff8", "--seed", "5"],
        input.as_bytes(),
        &[],
    );
    let out = arbiter(&["solve", "triple-triad", "--state", tt, "--threads", "1"]);
    assert!(
        out.status.success() && stdout(&out).starts_with("value "),
        "{:?}",
        text(&out)
    );
    let out = arbiter(&["perft", "triple-triad", "1", "--state", tt, "--threads", "1"]);
    assert!(
        out.status.success() && stdout(&out).starts_with("perft 1: "),
        "{:?}",
        text(&out)
    );
    arbiter_with(
        &["play", "trax", "--variant", "8x8", "--seed", "5", "--level", "random"],
        format!("@0+\nsave {trax}\nquit\n").as_bytes(),
        &[],
    );
    // After @0+ and the computer's reply: 8x8 perft 1 from there is the count after two moves.
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(trax).unwrap()).unwrap();
    let moves: Vec<String> = saved["state"]["game"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let from_save = arbiter(&["perft", "trax", "2", "--state", trax, "--threads", "1"]);
    let from_moves = arbiter(&[
        "perft",
        "trax",
        "2",
        "--variant",
        "8x8",
        "--moves",
        &moves.join(" "),
        "--threads",
        "1",
    ]);
    let nodes = |o: &Output| stdout(o).split(" nodes").next().map(str::to_string);
    assert!(from_save.status.success(), "{:?}", text(&from_save));
    assert_eq!(nodes(&from_save), nodes(&from_moves));
    // A save of another game is named as such.
    let out = arbiter(&["perft", "trax", "1", "--state", tt]);
    assert!(
        !out.status.success() && text(&out).1.contains("a saved triple-triad game, not trax"),
        "{:?}",
        text(&out)
    );
}

/// `arbiter arena ... --json`, parsed.
fn arena_json(args: &[&str]) -> serde_json::Value {
    let args: Vec<&str> = ["arena"].iter().chain(args).chain(&["--json"]).copied().collect();
    let out = arbiter(&args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn an_arena_prints_a_block_per_player_with_intervals_in_80_columns() {
    let out = arbiter(&["arena", "triple-triad", "--players", "greedy,random", "--games", "21"]);
    let s = stdout(&out);
    assert!(out.status.success(), "{s}");
    // Rounded up to whole deals: each hand pair is played from both seats.
    assert!(
        s.starts_with("triple-triad arena: 22 games, 11 deals each played from both seats"),
        "{s}"
    );
    assert!(s.contains("Wilson"), "{s}");
    let rows: Vec<&str> = s.lines().filter(|l| l.starts_with(['1', '2'])).collect();
    assert_eq!(rows.len(), 2, "{s}");
    assert!(
        rows[0].starts_with("1 greedy") && rows[1].starts_with("2 random"),
        "{s}"
    );
    assert!(s.contains("  wins of decisive games") && s.contains('%'), "{s}");
    // A terminal of 80 columns shows every line whole.
    assert!(s.lines().all(|l| l.chars().count() <= 80), "{s}");
}

#[test]
fn arena_json_has_every_figure_and_a_level_against_itself_is_symmetric() {
    let v = arena_json(&[
        "triple-triad",
        "--players",
        "greedy,greedy",
        "--games",
        "40",
        "--seed",
        "5",
    ]);
    assert_eq!(v["game"], "triple-triad");
    assert_eq!(
        (v["games"].as_u64(), v["deals"].as_u64(), v["seed"].as_u64()),
        (Some(40), Some(20), Some(5))
    );
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    for p in players {
        assert_eq!(p["level"], "greedy");
        for key in ["wins", "draws", "losses", "decisive_win_rate"] {
            let x = &p[key];
            let (low, rate, high) = (
                x["low"].as_f64().unwrap(),
                x["rate"].as_f64().unwrap(),
                x["high"].as_f64().unwrap(),
            );
            assert!(low <= rate && rate <= high, "{key}: {x}");
        }
        assert!(p["points_per_deal"].is_null());
        assert!(p["thinking"]["moves"].as_u64().unwrap() >= 80, "{p}");
        assert!(p["thinking"]["mean_ms"].as_f64().unwrap() <= p["thinking"]["max_ms"].as_f64().unwrap());
    }
    // Each deal is played twice, seats swapped, with each seat's random stream: the same games.
    assert_eq!(players[0]["wins"], players[1]["wins"]);
    assert_eq!(players[0]["losses"], players[1]["losses"]);
    let n = arena_json(&["nantong", "--players", "basic,random,basic", "--games", "12"]);
    let points: f64 = n["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["points_per_deal"]["mean"].as_f64().unwrap())
        .sum();
    assert!(points.abs() < 1e-9, "the settlement sums to zero: {n}");
}

#[test]
fn arena_results_do_not_depend_on_the_threads() {
    let without_time = |mut v: serde_json::Value| {
        for p in v["players"].as_array_mut().unwrap() {
            p.as_object_mut().unwrap().remove("thinking");
        }
        v
    };
    for game in [
        &[
            "triple-triad",
            "--players",
            "expert,greedy",
            "--games",
            "6",
            "--rules",
            "same,plus,combo,elemental",
        ][..],
        &["trax", "--players", "easy,random", "--games", "4", "--variant", "8x8"],
        &["nantong", "--players", "basic,random,basic", "--games", "9"],
    ] {
        let one: Vec<&str> = game.iter().chain(&["--threads", "1"]).copied().collect();
        let two: Vec<&str> = game.iter().chain(&["--threads", "2"]).copied().collect();
        assert_eq!(
            without_time(arena_json(&one)),
            without_time(arena_json(&two)),
            "{game:?}"
        );
    }
}

#[test]
fn arena_players_must_be_levels_of_the_game_and_fill_its_seats() {
    for (args, says) in [
        (
            &["arena", "triple-triad", "--players", "greedy,grandmaster"][..],
            "possible values",
        ),
        (&["arena", "trax", "--players", "easy,greedy"], "possible values"),
        (&["arena", "triple-triad", "--players", "greedy"], "2 players"),
        (&["arena", "nantong", "--players", "basic,basic"], "3 players"),
        (
            &[
                "arena",
                "triple-triad",
                "--players",
                "greedy,random",
                "--rules",
                "same_wall",
            ],
            "same_wall requires same",
        ),
        (
            &["arena", "triple-triad", "--players", "greedy,random", "--threads", "0"],
            "at least 1",
        ),
        // --games used to play 0 games for u64::MAX, panic from 2^63 on, and ask for 64 GB at 10^9.
        (
            &[
                "arena",
                "trax",
                "--players",
                "easy,easy",
                "--games",
                "18446744073709551615",
            ],
            "1..=1000000",
        ),
        (
            &[
                "arena",
                "trax",
                "--players",
                "easy,easy",
                "--games",
                "9223372036854775808",
            ],
            "1..=1000000",
        ),
        (
            &["arena", "trax", "--players", "easy,easy", "--games", "1000000000"],
            "1..=1000000",
        ),
        (
            &["arena", "trax", "--players", "easy,easy", "--games", "0"],
            "1..=1000000",
        ),
        (&["arena", "trax", "--players", "easy,easy", "--max-turns", "0"], "1.."),
        (
            &[
                "arena",
                "triple-triad",
                "--players",
                "greedy,random",
                "--preset",
                "ff8",
                "--rules",
                "same",
            ],
            "cannot be used",
        ),
    ] {
        let out = arbiter(args);
        let (_, e) = text(&out);
        assert!(!out.status.success() && e.contains(says), "{args:?}: {e}");
    }
}

/// The record of issue 19: a long diagonal band, 21 columns wide after 36 moves.
const WIDE_RECORD: &str = "@0+ A0+ B1/ A0/ @1+ B0+ A0+ @2+ @1+ B0+ A0+ @2+ A0+ @2+ @1+ B0+ @1+ B0+ A0+ @2+ @1+ B0+ A0+ @2+ @1+ B0+ A0+ @2+ @1+ B0+ A0+ @2+ A0+ @2+ A0+ @2+";

/// Whether `line` is a Trax board's line of column letters (`@`, `A` … `Z`, `AA` …).
fn column_letters(line: &str) -> bool {
    line.starts_with(' ')
        && line.split_whitespace().count() >= 2
        && line
            .split_whitespace()
            .all(|t| t.chars().all(|c| c == '@' || c.is_ascii_uppercase()))
}

/// Every game's first screen, its help, legend and rules at 80 and 40 columns: no line is over
/// the width, and no sentence is broken where it did not have to be (a line break written into a
/// text for one width leaves a word alone on a line at another: a lone word after a comma, or a
/// line that starts in the middle of a sentence).
#[test]
fn every_screen_reads_at_80_and_40_columns() {
    for width in [80, 40] {
        for game in ["triple-triad", "trax", "nantong"] {
            let columns = width.to_string();
            let (s, _) = text(&arbiter_with(
                &["play", game, "--seed", "1"],
                b"help\nlegend\nrules\nquit\n",
                &[("COLUMNS", &columns), ("LINES", "24")],
            ));
            let lines: Vec<&str> = s.lines().collect();
            for line in &lines {
                assert!(line.chars().count() <= width, "{game} at {width}: {line:?}\n{s}");
            }
            // The help's commands, the game's own and the shared ones, in one column.
            let help = lines.iter().position(|l| l.ends_with("> help")).expect("the help");
            let column: std::collections::BTreeSet<usize> = lines[help + 1..]
                .iter()
                .take_while(|l| !l.contains(" > "))
                .filter_map(|l| {
                    l.strip_prefix("  ")
                        .filter(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))
                })
                .filter_map(|l| {
                    l.find("  ")
                        .map(|gap| gap + l[gap..].len() - l[gap..].trim_start().len())
                })
                .collect();
            assert_eq!(column.len(), 1, "{game} at {width}: the help's columns {column:?}\n{s}");
            for pair in lines.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                // A new line of text (not a hanging continuation, not a prompt and its answer).
                if b.is_empty() || b.starts_with(' ') || a.trim().is_empty() || a.contains(" > ") || b.contains(" > ") {
                    continue;
                }
                assert!(
                    !b.starts_with(|c: char| c.is_lowercase()) && !a.ends_with(','),
                    "{game} at {width}: a sentence broken between {a:?} and {b:?}\n{s}"
                );
            }
        }
    }
}

#[test]
fn trax_boards_fit_the_terminal_and_keep_their_coordinates() {
    let record = temp_file("wide-record.txt", WIDE_RECORD);
    for width in [80, 40] {
        // Every move of the record, a look at another part of the board, then stop.
        let input = "\n".repeat(36) + "view P12\nquit\n";
        let columns = width.to_string();
        let (s, _) = text(&arbiter_with(
            &[
                "play",
                "trax",
                "--variant",
                "unbounded",
                "--record",
                &record,
                "--seed",
                "1",
            ],
            input.as_bytes(),
            &[("COLUMNS", &columns), ("LINES", "24")],
        ));
        for line in s.lines() {
            assert!(line.chars().count() <= width, "{width}: {line:?}\n{s}");
        }
        // A board after each of the 36 moves, the turn's, and the view: each under its letters,
        // each row numbered, at most 18 lines of 24.
        let mut seen = 0;
        for part in s.split('>') {
            let lines: Vec<&str> = part.lines().collect();
            let Some(top) = lines.iter().position(|l| column_letters(l)) else {
                continue;
            };
            seen += 1;
            let rows: Vec<&&str> = lines[top + 1..]
                .iter()
                .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
                .collect();
            // The letters' line and the rows.
            assert!(!rows.is_empty() && rows.len() < 18, "{width}:\n{part}");
        }
        assert!(seen >= 38, "{width}: {seen} boards in\n{s}");
        // The last board is too large for the screen: it says which part it shows.
        assert!(s.contains("Shown: columns") && s.contains("of @-S"), "{width}:\n{s}");
    }
}

#[test]
fn a_trax_move_that_renames_the_tiles_says_so() {
    let args = ["play", "trax", "--seed", "3", "--level", "random"];
    let (s, _) = text(&arbiter_with(&args, b"@0/\n@1+\nquit\n", &[]));
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    // The computer's A0/ starts a new top row; the person's @1+ a new first column.
    assert!(
        s.contains(
            "The computer (red) played A0/. The board grew: the rows' numbers moved on by 1 (row 1 is now row 2)."
        ),
        "{s}"
    );
    assert!(
        s.contains("The board grew: the columns' letters moved on by 1 (A is now B)."),
        "{s}"
    );
    assert_eq!(s.matches("The board grew").count(), 2, "{s}");
}

#[test]
fn nantong_undo_goes_back_to_a_choice_never_to_a_forced_pass() {
    // Seed 1: you finish your declarations, seat 1 discards 3m and your only answer is to pass,
    // which play makes for you; undo went back to that pass and asked it.
    let (s, _) = text(&arbiter_with(
        &["play", "nantong", "--seed", "1"],
        b"1\nundo\nquit\n",
        &[],
    ));
    let after = s.split("Taken back").nth(1).expect("the undo is taken");
    let options = after
        .lines()
        .skip_while(|l| *l != "Your options:")
        .nth(1)
        .expect("a question");
    assert_eq!(options.trim(), "1) finish", "{s}");
}

#[test]
fn play_on_from_a_record_says_who_moves_next_and_how_to_play_it_again() {
    let record = temp_file("two-moves.txt", "@0/ B1\\");
    let (s, _) = text(&arbiter_with(
        &["play", "trax", "--record", &record, "--seed", "4"],
        b"e\nquit\n",
        &[],
    ));
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        s.contains("Seed 4 (the computer's choices): play on from this record again with --seed 4."),
        "{s}"
    );
    assert!(
        s.contains("You play white against the computer (level expert); white moves next."),
        "{s}"
    );
    assert!(!s.contains("moves first"), "{s}");
}

#[test]
fn a_replayed_record_is_nobodys_win_and_can_jump_to_its_end() {
    // The third move closes a red loop for red (the rules' example).
    let record = temp_file("won-record.txt", "@0/ B1\\ B2/");
    for input in ["\n\n\n", "e\n"] {
        let (s, _) = text(&arbiter_with(
            &["play", "trax", "--record", &record, "--seed", "1"],
            input.as_bytes(),
            &[],
        ));
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            s.contains(
                "The record ends after 3 moves, 4 tiles. Red wins (red): a red loop. White's move closed it for red."
            ),
            "{s}"
        );
        assert!(!s.contains("computer wins") && !s.contains("You play"), "{s}");
        let prompts = s.matches("(Enter: play it").count();
        assert_eq!(prompts, if input == "e\n" { 1 } else { 3 }, "{s}");
    }
}

/// Runs arbiter in bash after `setup` (shell commands), with `input` on standard input.
fn arbiter_in_bash(setup: &str, args: &str, input: &str) -> Output {
    let mut child = Command::new("bash")
        .args(["-c", &format!("{setup}; exec \"$ARBITER\" {args}")])
        .env("ARBITER", bin())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

#[test]
fn a_save_that_fails_leaves_the_last_save_whole() {
    let dir = std::env::temp_dir().join(format!("arbiter-test-{}-full-disk", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.json");
    let record = dir.join("game.txt");
    let (save, record) = (save.to_str().unwrap(), record.to_str().unwrap());
    let (s, e) = text(&arbiter_with(
        &["play", "triple-triad", "--seed", "5"],
        format!("0 4\nsave {save}\nquit\n").as_bytes(),
        &[],
    ));
    assert!(s.contains("Saved to"), "{s}{e}");
    let (s, e) = text(&arbiter_with(
        &["play", "trax", "--seed", "5", "--level", "random"],
        format!("@0+\nrecord {record}\nquit\n").as_bytes(),
        &[],
    ));
    assert!(s.contains("Game record written"), "{s}{e}");
    let kept = (std::fs::read(save).unwrap(), std::fs::read(record).unwrap());
    // A disk with no room left: a file-size limit of 0, with SIGXFSZ ignored so that a write
    // fails (EFBIG) instead of killing the program.
    let full = "trap '' XFSZ; ulimit -f 0";
    let (s, _) = text(&arbiter_in_bash(
        full,
        &format!("play triple-triad --load '{save}'"),
        &format!("1 0\nsave {save}\nquit\n"),
    ));
    assert!(s.contains("Cannot save"), "{s}");
    let (s, _) = text(&arbiter_in_bash(
        full,
        "play trax --seed 5 --level random",
        &format!("@0/\nrecord {record}\nquit\n"),
    ));
    assert!(s.contains("Cannot write"), "{s}");
    let now = (std::fs::read(save).unwrap(), std::fs::read(record).unwrap());
    assert!(
        now == kept,
        "the old files were changed: {} and {} bytes, were {} and {}",
        now.0.len(),
        now.1.len(),
        kept.0.len(),
        kept.1.len()
    );
    // Nothing is left beside them, and the old save still loads.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["game.json", "game.txt"]);
    let out = arbiter_with(&["play", "triple-triad", "--load", save], b"quit\n", &[]);
    assert!(
        out.status.success() && stdout(&out).contains("Resumed a saved game"),
        "{:?}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_save_is_checked_whole_when_it_is_loaded() {
    for (game, moves) in [("triple-triad", "0 4\n"), ("trax", "@0+\n"), ("nantong", "1\n")] {
        let file = std::env::temp_dir().join(format!("arbiter-test-{}-check-{game}.json", std::process::id()));
        let file = file.to_str().unwrap();
        let input = format!("{moves}save {file}\nquit\n");
        arbiter_with(&["play", game, "--seed", "5"], input.as_bytes(), &[]);
        let good: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let mut bad = vec![];
        let mut level = good.clone();
        level["opponent"]["level"] = "grandmaster".into();
        bad.push((level, "level \"grandmaster\""));
        let mut extra = good.clone();
        extra["state"]["cheat"] = true.into();
        bad.push((extra, "unknown field `cheat`"));
        if game == "triple-triad" {
            let mut preset = good.clone();
            preset["state"]["preset"] = "poker".into();
            bad.push((preset, "unknown preset \"poker\""));
        }
        if game == "nantong" {
            let mut totals = good.clone();
            totals["state"]["totals"] = serde_json::json!([10, 0, 0]);
            bad.push((totals, "running totals"));
        }
        for (save, says) in bad {
            std::fs::write(file, save.to_string()).unwrap();
            let out = arbiter_with(&["play", game, "--load", file], moves.as_bytes(), &[]);
            let (s, e) = text(&out);
            assert!(!out.status.success() && e.contains(says), "{game}: {says}: {e}\n{s}");
            assert!(
                !s.contains("played") && !s.contains("You: "),
                "{game}: no move is made\n{s}"
            );
        }
    }
}

#[test]
fn hints_come_from_the_strongest_level_whatever_the_opponent() {
    for (game, strongest) in [("triple-triad", "expert"), ("trax", "expert"), ("nantong", "strong")] {
        let hint = |level: &str| {
            let args = ["play", game, "--seed", "3", "--level", level];
            let (s, _) = text(&arbiter_with(&args, b"hint\nhelp\nquit\n", &[]));
            let line = s.lines().find(|l| l.contains("Hint: ")).map(str::to_string);
            (line, s)
        };
        let (weak, s) = hint("random");
        assert!(
            weak.as_deref()
                .is_some_and(|l| l.contains(&format!("(level {strongest})"))),
            "{game}: {s}"
        );
        assert!(
            s.contains(&format!("strongest computer player (level {strongest})")),
            "{game}: {s}"
        );
        assert_eq!(weak, hint(strongest).0, "{game}");
    }
}

#[test]
fn ranges_are_said_in_words() {
    let (s, _) = text(&arbiter_with(
        &["play", "triple-triad", "--seed", "3"],
        b"nonsense\n0 9\nhelp\nquit\n",
        &[],
    ));
    assert!(s.contains("card 0, 1, 2, 3 or 4 of your hand, cell 0 to 8"), "{s}");
    assert!(s.contains("there is no cell 9 (cells are 0 to 8)"), "{s}");
    assert!(!s.contains(".."), "{s}");
}

#[test]
fn help_names_a_level_for_a_first_game() {
    for (game, strongest, first) in [
        ("triple-triad", "expert", "greedy"),
        ("trax", "expert", "easy"),
        ("nantong", "strong", "basic"),
    ] {
        let help = stdout(&arbiter(&["play", game, "--help"]));
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            help.contains(&format!(
                "(default: {strongest}, the strongest; for a first game: {first})"
            )),
            "{help}"
        );
    }
}

#[test]
fn the_legends_are_said_once_not_every_turn() {
    for (game, input, legend) in [
        ("triple-triad", "0 4\n1 0\nquit\n", "B/R: blue/red card"),
        ("trax", "@0+\nB1+\nquit\n", "Each tile shows its west edge"),
    ] {
        let (s, _) = text(&arbiter_with(&["play", game, "--seed", "2"], input.as_bytes(), &[]));
        assert!(s.matches("your move").count() >= 3, "{game}: {s}");
        assert_eq!(s.matches(legend).count(), 1, "{game}: {s}");
    }
}

#[test]
fn a_narrow_screen_puts_the_hands_under_the_triple_triad_board() {
    let input = b"0 4\n1 0\nhelp\nrules\nlegend\nquit\n";
    let (s, _) = text(&arbiter_with(
        &["play", "triple-triad", "--seed", "2"],
        input,
        &[("COLUMNS", "50")],
    ));
    for line in s.lines() {
        assert!(line.chars().count() <= 50, "{line:?}\n{s}");
    }
    assert!(
        s.contains("\n B blue: computer, open") && s.contains("\n R red: you"),
        "{s}"
    );
    // At 80 columns, beside it.
    let (s, _) = text(&arbiter_with(&["play", "triple-triad", "--seed", "2"], input, &[]));
    assert!(
        s.lines()
            .any(|l| l.starts_with("   +--") && l.ends_with("B blue: computer, open")),
        "{s}"
    );
}

/// The count printed by `perft … --split K --part I/N` or by a whole perft.
fn nodes_of(out: &Output) -> u64 {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = stdout(out);
    let after = s.split_once(": ").map(|(_, rest)| rest).unwrap_or_default();
    after
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{s}"))
}

#[test]
fn perft_parts_sum_to_the_whole_count() {
    let state = std::env::temp_dir().join(format!("arbiter-test-{}-split-state.json", std::process::id()));
    let card = |n: &str, r: u8| {
        format!(
            r#"{{"name":"{n}","ranks":[{r},{},{},{r}]}}"#,
            r % 9 + 1,
            (r + 3) % 9 + 1
        )
    };
    let placed = |n: &str, r: u8, owner: &str| format!(r#"{{"card":{},"owner":"{owner}"}}"#, card(n, r));
    std::fs::write(
        &state,
        format!(
            r#"{{"rules":{{"same":true,"plus":true,"combo":true}},"board":[{},null,null,{},null,{},null,{},null],"hands":{{"blue":[{},{},{}],"red":[{},{},{}]}},"to_move":"blue"}}"#,
            placed("a", 3, "blue"),
            placed("b", 5, "red"),
            placed("c", 7, "blue"),
            placed("d", 2, "red"),
            card("e", 4),
            card("f", 8),
            card("g", 1),
            card("h", 6),
            card("i", 9),
            card("j", 2)
        ),
    )
    .unwrap();
    let state = state.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["trax", "5"], "2"),
        (&["trax", "4", "--variant", "8x8", "--moves", "@0/ B1+"], "3"),
        (&["triple-triad", "3", "--seed", "4"], "1"),
        (&["triple-triad", "5", "--state", state], "2"),
    ];
    for (args, split) in cases {
        let whole = nodes_of(&arbiter(&[&["perft"], args].concat()));
        for parts in [1usize, 3, 5] {
            let sum: u64 = (0..parts)
                .map(|i| {
                    let part = format!("{i}/{parts}");
                    let out =
                        arbiter(&[&["perft"], args, &["--split", split, "--part", &part, "--threads", "1"]].concat());
                    assert!(stdout(&out).contains(&format!("part {part}:")), "{}", stdout(&out));
                    nodes_of(&out)
                })
                .sum();
            assert_eq!(sum, whole, "{args:?} split {split} in {parts} parts");
        }
        let out = arbiter(&[&["perft"], args, &["--split", split, "--list"]].concat());
        assert!(out.status.success());
        assert!(
            stdout(&out).contains(&format!(" positions after {split} plies (")),
            "{}",
            stdout(&out)
        );
    }
    for (extra, says) in [
        (&["--split", "2", "--part", "5/5"][..], "part 5 of 5 does not exist"),
        (&["--split", "2", "--part", "0/0"], "part 0 of 0 does not exist"),
        (&["--split", "2", "--part", "one/5"], "is not a count"),
        (&["--split", "6", "--part", "0/5"], "at most the depth"),
        (&["--part", "0/5"], "--split"),
        (&["--split", "2"], "--part I/N"),
    ] {
        let out = arbiter(&[&["perft", "trax", "5"], extra].concat());
        assert!(!out.status.success(), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{extra:?}: {err}");
        assert!(stdout(&out).is_empty());
    }
}

#[test]
fn play_switches_any_rule_over_the_preset() {
    let out = arbiter_with(
        &[
            "play",
            "triple-triad",
            "--seed",
            "3",
            "--rules",
            "same,borderless,elemental",
            "--closed",
            "--sudden-death",
            "off",
            "--trade",
            "all",
        ],
        b"quit\n",
        &[],
    );
    let s = stdout(&out);
    assert!(out.status.success(), "{s}");
    assert!(
        s.contains("Rules: closed hands, Same, borderless board, Elemental (unclamped)"),
        "{s}"
    );
    assert!(
        s.contains("a draw ends the match") && s.contains("all five of the loser's cards"),
        "{s}"
    );
    let bad = arbiter_with(&["play", "triple-triad", "--rules", "same_wall"], b"quit\n", &[]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("same_wall requires same"));
}

/// The preset's clock is said in the rules and at every prompt; `--time` changes it or turns it
/// off; a line typed after the clock ran out finds a card played for the person (the French
/// server's rule), not the move it names.
#[test]
fn the_clock_is_said_and_kept() {
    let ask = [
        "play",
        "triple-triad",
        "--seed",
        "4",
        "--level",
        "random",
        "--you",
        "blue",
    ];
    let (s, _) = text(&arbiter_with(
        &[&ask[..], &["--preset", "ttonline"]].concat(),
        b"quit\n",
        &[],
    ));
    assert!(s.contains("Clock: 60 s a move"), "{s}");
    assert!(s.contains(" s left)"), "{s}");
    let (s, _) = text(&arbiter_with(
        &[&ask[..], &["--preset", "ttonline", "--time", "off"]].concat(),
        b"quit\n",
        &[],
    ));
    assert!(!s.contains("Clock:") && !s.contains(" s left)"), "{s}");
    let (_, e) = text(&arbiter_with(&[&ask[..], &["--time", "14"]].concat(), b"quit\n", &[]));
    assert!(e.contains("seconds from 15 to 300"), "{e}");

    let mut child = Command::new(bin())
        .args([&ask[..], &["--time", "15"]].concat())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"rules\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(15_500));
    stdin.write_all(b"4 8\nquit\n").unwrap();
    drop(stdin);
    let (s, _) = text(&child.wait_with_output().unwrap());
    assert!(s.contains("(15 s left) > rules"), "{s}");
    let after = &s[s
        .find("Your 15 s ran out before that line: a card is played for you, ")
        .expect(&s)..];
    let mut lines = after.lines().skip(1);
    assert!(lines.next().unwrap().starts_with("You (blue) played "), "{s}");
    assert!(lines.next().unwrap().starts_with("The computer (red) played "), "{s}");
    assert!(
        !s.contains("Mesmerize on cell 8"),
        "the line typed late is not played: {s}"
    );
}

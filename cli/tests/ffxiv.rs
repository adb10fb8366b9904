//! `arbiter play`, `solve` and `arena` under Final Fantasy XIV's rule words
//! (`rules/triple-triad-ffxiv.md`), read from the core's declaration.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn arbiter(args: &[&str], input: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .env_remove("COLUMNS")
        .env_remove("LINES")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    // The game may stop reading before the end of the input: a refused write is no failure.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out: Output = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

fn temp_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("arbiter-ffxiv-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// FFTriadBuddy's #79 rebuilt (the conformance case `ffxiv-engine-79-reverse-fallen-ace-value`):
/// Ultima's right A meets the Chocobo's left 1 under Reverse; `rules` and `extra` vary it.
fn case_79(rules: &str, extra: &str) -> String {
    let five = |name: &str, owner: &str| {
        format!(r#"{{"card": {{"name": "{name}", "ranks": [5, 5, 5, 5]}}, "owner": "{owner}"}}"#)
    };
    let board = [
        five("Blue A", "blue"),
        five("Red A", "red"),
        five("Red B", "red"),
        "null".into(),
        r#"{"card": {"name": "Chocobo", "ranks": [3, 7, 2, 1], "type": "beastman"}, "owner": "red"}"#.into(),
        five("Blue B", "blue"),
        five("Blue C", "blue"),
        five("Red C", "red"),
        five("Blue D", "blue"),
    ];
    format!(
        r#"{{"rules": {rules}, "board": [{}], "hands": {{"blue": [{{"name": "Ultima, the High Seraph", "ranks": [9, 10, 9, 7], "type": "primal"}}], "red": [{{"name": "Red hand", "ranks": [5, 5, 5, 5]}}]}}, "to_move": "blue"{extra}}}"#,
        board.join(", ")
    )
}

#[test]
fn solve_reads_ffxiv_rules_and_card_types() {
    let with = temp_file("79.json", &case_79(r#"{"reverse": true, "fallen_ace": true}"#, ""));
    let (s, e, ok) = arbiter(&["solve", "triple-triad", "--state", &with, "--threads", "1"], "");
    assert!(ok, "{e}");
    assert!(s.starts_with("value +2:"), "{s}");
    // Without Fallen Ace the A is not beaten by the 1 under Reverse: a draw.
    let without = temp_file("79-reverse.json", &case_79(r#"{"reverse": true}"#, ""));
    let (s, e, ok) = arbiter(&["solve", "triple-triad", "--state", &without, "--threads", "1"], "");
    assert!(ok, "{e}");
    assert!(s.starts_with("value +0:"), "{s}");
}

#[test]
fn solve_under_chaos_needs_every_draw() {
    // Two turns left: blue draws from Blue A and Ultima, then red plays its last card.
    let rules = r#"{"chaos": true, "reverse": true, "fallen_ace": true}"#;
    let unknown = case_79(rules, "").replace(
        r#"{"card": {"name": "Blue A", "ranks": [5, 5, 5, 5]}, "owner": "blue"}, "#,
        "null, ",
    );
    let unknown = unknown.replace(
        r#""hands": {"blue": ["#,
        r#""hands": {"blue": [{"name": "Blue A", "ranks": [5, 5, 5, 5]}, "#,
    );
    let missing = temp_file("chaos.json", &unknown);
    let (_, e, ok) = arbiter(&["solve", "triple-triad", "--state", &missing, "--threads", "1"], "");
    assert!(!ok);
    assert!(
        e.contains("solve under chaos needs a draw for every remaining turn"),
        "{e}"
    );
    let drawn = temp_file(
        "chaos-drawn.json",
        &unknown.replace(r#""to_move": "blue""#, r#""to_move": "blue", "chaos_draws": [1, 0]"#),
    );
    let (s, e, ok) = arbiter(&["solve", "triple-triad", "--state", &drawn, "--threads", "1"], "");
    assert!(ok, "{e}");
    assert!(
        s.contains("best move 1@"),
        "the draw names Ultima, the hand's second card: {s}"
    );
}

#[test]
fn play_names_the_ffxiv_rules_and_enforces_order() {
    let args = [
        "play",
        "triple-triad",
        "--rules",
        "reverse,fallen_ace,order,all_open",
        "--seed",
        "3",
        "--you",
        "blue",
        "--level",
        "random",
    ];
    // Under Order every move plays the hand's first card; any cell, the first free one accepted.
    let mut input = String::from("1 0\n");
    for _ in 0..12 {
        for cell in 0..9 {
            input.push_str(&format!("0 {cell}\n"));
        }
    }
    input.push_str("0\n0 1\n0 1 2\n0 1 2 3\n0 1 2 3 4\n");
    let (s, e, ok) = arbiter(&args, &input);
    assert!(ok, "{e}");
    let rules: String = s
        .split("Rules: ")
        .nth(1)
        .and_then(|r| r.split("\nAfter").next())
        .unwrap()
        .replace("\n  ", " ");
    assert_eq!(
        rules,
        "All Open, Reverse (the lower rank captures), Fallen Ace (a 1 takes an A), Order (cards played in hand order)."
    );
    assert!(s.contains("Illegal move: blue must play card 0 of its hand"), "{s}");
    assert!(s.contains("Final score"), "{s}");
}

/// `play --preset ffxiv` deals what the core's preset deals: Final Fantasy XIV decks.
#[test]
fn play_under_the_ffxiv_preset_deals_ffxiv_decks() {
    use arbiter_core::tripletriad::{ffxiv, Match};
    let (s, e, ok) = arbiter(
        &[
            "play",
            "triple-triad",
            "--preset",
            "ffxiv",
            "--seed",
            "5",
            "--you",
            "blue",
        ],
        "quit\n",
    );
    assert!(ok, "{e}");
    let m = Match::from_preset("ffxiv", 5).unwrap();
    for (i, card) in m.game().setup().hands.blue.iter().enumerate() {
        assert!(ffxiv::card(&card.name).is_some(), "{}", card.name);
        // The hand shows a name's first 13 characters.
        let shown = format!("[{i}] {}", card.name.chars().take(13).collect::<String>());
        assert!(s.contains(&shown), "your hand shows {shown}: {s}");
    }
}

#[test]
fn play_shows_three_open_over_the_preset_open_hands() {
    let (s, e, ok) = arbiter(
        &[
            "play",
            "triple-triad",
            "--preset",
            "ff8",
            "--rules",
            "three_open,ascension",
            "--seed",
            "2",
        ],
        "quit\n",
    );
    assert!(ok, "{e}");
    assert!(
        s.contains("Rules: Three Open (three of each hand shown), Ascension"),
        "{s}"
    );
    assert!(
        !s.contains("open hands"),
        "Three Open is not the preset's open hands: {s}"
    );
}

#[test]
fn arena_plays_under_ffxiv_rule_words() {
    let (s, e, ok) = arbiter(
        &[
            "arena",
            "triple-triad",
            "--rules",
            "reverse,fallen_ace,descension,same,combo",
            "--players",
            "greedy,random",
            "--games",
            "4",
            "--threads",
            "1",
            "--json",
        ],
        "",
    );
    assert!(ok, "{e}");
    let report: serde_json::Value = serde_json::from_str(&s).unwrap();
    let text = report.to_string();
    assert!(
        text.contains("rules same,combo,reverse,fallen_ace,descension"),
        "{text}"
    );
    // FFXIV hands, typed for Ascension; Chaos draws each turn's card from the seed.
    let (s, e, ok) = arbiter(
        &[
            "arena",
            "triple-triad",
            "--cards",
            "ffxiv",
            "--rules",
            "ascension,chaos,plus,combo",
            "--players",
            "random,greedy",
            "--games",
            "2",
            "--threads",
            "1",
            "--json",
        ],
        "",
    );
    assert!(ok, "{e}");
    let text = serde_json::from_str::<serde_json::Value>(&s).unwrap().to_string();
    assert!(
        text.contains("two random FFXIV hands (decks the deck rule allows), rules plus,combo,ascension,chaos"),
        "{text}"
    );
    let (_, e, ok) = arbiter(
        &[
            "arena",
            "triple-triad",
            "--cards",
            "ffxiv",
            "--preset",
            "ff8",
            "--players",
            "greedy,random",
        ],
        "",
    );
    assert!(!ok, "--cards is for random hands, not a preset's");
    assert!(e.contains("--cards") && e.contains("--preset"), "{e}");
    let (_, e, ok) = arbiter(
        &[
            "arena",
            "triple-triad",
            "--rules",
            "order,chaos",
            "--players",
            "greedy,random",
        ],
        "",
    );
    assert!(!ok);
    assert!(e.contains("order") && e.contains("chaos"), "{e}");
}

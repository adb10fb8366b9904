//! Every option of a game that the CLI offers, asked of `--help`, has the core's values and
//! default (`describe()`): the CLI writes none of them out.

use arbiter_core::games::describe;
use arbiter_core::options::Kind;
use std::process::Command;

fn help(args: &[&str]) -> String {
    let bin = std::env::var("ARBITER_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_arbiter").to_string());
    let out = Command::new(bin).args(args).arg("-h").output().unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// What `--help` puts in `[what: …]` on the line of `--flag`.
fn bracket(help: &str, flag: &str, what: &str) -> Option<String> {
    let line = help.lines().find(|l| l.trim_start().starts_with(&format!("{flag} ")))?;
    let from = line.find(&format!("[{what}: "))? + what.len() + 3;
    Some(line[from..].split(']').next()?.to_owned())
}

fn choice(game: &str, name: &str) -> (Vec<&'static str>, Option<&'static str>) {
    match describe(game).unwrap().option(name).unwrap().kind.clone() {
        Kind::Choice { values, default } => (values, default),
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn every_trax_command_offers_the_cores_variants_and_default() {
    let (values, default) = choice("trax", "variant");
    for args in [
        &["arena", "trax"][..],
        &["perft", "trax"],
        &["play", "trax"],
        &["engine", "trax"],
    ] {
        let h = help(args);
        assert_eq!(
            bracket(&h, "--variant", "possible values"),
            Some(values.join(", ")),
            "{args:?}"
        );
        assert_eq!(bracket(&h, "--variant", "default").as_deref(), default, "{args:?}");
    }
}

#[test]
fn triple_triad_commands_offer_the_cores_presets_and_rules() {
    let (presets, default) = choice("triple-triad", "preset");
    let d = describe("triple-triad").unwrap();
    let Kind::Flags { values: rules, .. } = &d.option("rules").unwrap().kind else {
        panic!("rules are flags")
    };
    let h = help(&["arena", "triple-triad"]);
    assert_eq!(bracket(&h, "--preset", "possible values"), Some(presets.join(", ")));
    let mut offered = rules.clone();
    offered.push("none");
    assert_eq!(bracket(&h, "--rules", "possible values"), Some(offered.join(", ")));
    let play = help(&["play", "triple-triad"]);
    assert_eq!(bracket(&play, "--preset", "possible values"), Some(presets.join(", ")));
    assert_eq!(bracket(&play, "--preset", "default").as_deref(), default);
}

#[test]
fn every_nantong_command_offers_the_cores_sizes() {
    let d = describe("nantong").unwrap();
    for name in ["groups", "kinds"] {
        let Kind::Number {
            min,
            max: Some(max),
            default: Some(default),
        } = d.option(name).unwrap().kind
        else {
            panic!("{name} is a bounded number")
        };
        for args in [&["arena", "nantong"][..], &["perft", "nantong"], &["play", "nantong"]] {
            let h = help(args);
            let line = h
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("--{name} ")))
                .unwrap();
            assert!(
                line.contains(&format!(", {min} to {max} (default {default})")),
                "{args:?}: {line}"
            );
        }
    }
}

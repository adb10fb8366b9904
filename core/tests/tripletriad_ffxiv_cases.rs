//! What issue 39 asks of the FFXIV conformance files (`conformance/triple-triad-ffxiv*.jsonl`),
//! counted from the files so that no regeneration can silently drop below it: at least 50 cases
//! for each of the fifteen rules and 5 for each of their 105 pairs, named after the rule or pair
//! and played with it on; the three contradictory pairs are configuration errors, as the spec's
//! section 5 decides; FFTriadBuddy's #79, #86 and #101 are pinned with their answer.

use std::collections::BTreeMap;

use arbiter_core::tripletriad::{Rule, Rules};
use serde_json::Value;

/// The spec's fifteen rules, by the names the case format gives their flags.
const RULES: [&str; 15] = [
    "roulette",
    "all_open",
    "three_open",
    "same",
    "sudden_death",
    "plus",
    "random",
    "order",
    "chaos",
    "reverse",
    "fallen_ace",
    "ascension",
    "descension",
    "swap",
    "draft",
];

/// The pairs no configuration may hold (`rules/triple-triad-ffxiv.md`, section 5).
const CONTRADICTORY: [[&str; 2]; 3] = [
    ["all_open", "three_open"],
    ["order", "chaos"],
    ["ascension", "descension"],
];

fn cases() -> Vec<Value> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("triple-triad-ffxiv") && name.ends_with(".jsonl")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 2, "the FFXIV conformance files are missing from {dir:?}");
    files
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).unwrap())
                .collect::<Vec<Value>>()
        })
        .collect()
}

/// The flags a case turns on: its state's rules, or a match case's.
fn flags(case: &Value) -> Vec<&str> {
    let rules = case["state"]["rules"].as_object().or(case["rules"].as_object());
    rules
        .into_iter()
        .flatten()
        .filter(|(_, on)| on.as_bool() == Some(true))
        .map(|(name, _)| name.as_str())
        .collect()
}

/// The rule or pair a case is named after (`ffxiv/<rule>/…`, `ffxiv/<a>+<b>/…`), its parts sorted
/// in the order of [`RULES`].
fn subject(case: &Value) -> Option<Vec<&'static str>> {
    let name = case["name"].as_str()?;
    let mut parts = name.strip_prefix("ffxiv/")?.split('/');
    let (subject, _rest) = (parts.next()?, parts.next()?);
    let mut rules: Vec<&'static str> = subject
        .split('+')
        .map(|r| RULES.iter().copied().find(|&x| x == r))
        .collect::<Option<_>>()?;
    rules.sort_by_key(|r| RULES.iter().position(|x| x == r));
    Some(rules)
}

fn contradictory(a: &str, b: &str) -> bool {
    CONTRADICTORY.iter().any(|&[x, y]| (x, y) == (a, b) || (y, x) == (a, b))
}

#[test]
fn every_rule_and_pair_has_its_cases() {
    for name in RULES {
        let rule: Rule = name.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(rule.flag(&mut Rules::default()).is_some(), "{name} is a flag");
    }
    let cases = cases();
    let (mut named, mut on) = (BTreeMap::<Vec<&str>, usize>::new(), BTreeMap::<Vec<&str>, usize>::new());
    for case in &cases {
        let flags = flags(case);
        for (i, &a) in RULES.iter().enumerate() {
            if flags.contains(&a) {
                *on.entry(vec![a]).or_default() += 1;
                for &b in RULES[i + 1..].iter().filter(|b| flags.contains(b)) {
                    *on.entry(vec![a, b]).or_default() += 1;
                }
            }
        }
        let Some(subject) = subject(case) else { continue };
        let name = case["name"].as_str().unwrap();
        let error = case["expect"]["error"].as_bool() == Some(true);
        if !subject.iter().all(|r| flags.contains(r)) {
            // A rule's own errors include its fields without it (`chaos_draws` without Chaos):
            // they are its cases, not cases played under it.
            assert!(
                subject.len() == 1 && error,
                "{name} plays without {subject:?}: {flags:?}"
            );
            continue;
        }
        if let [a, b] = subject[..] {
            assert_eq!(
                error,
                contradictory(a, b),
                "{name}: only the contradictory pairs are errors"
            );
        }
        *named.entry(subject).or_default() += 1;
    }
    let mut short = Vec::new();
    for (i, &a) in RULES.iter().enumerate() {
        let n = named.get(&vec![a]).copied().unwrap_or(0);
        eprintln!(
            "{a}: {n} named, {} with the flag on",
            on.get(&vec![a]).copied().unwrap_or(0)
        );
        if n < 50 {
            short.push(format!("{a}: {n} of 50"));
        }
        for &b in &RULES[i + 1..] {
            let n = named.get(&vec![a, b]).copied().unwrap_or(0);
            if n < 5 {
                short.push(format!("{a}+{b}: {n} of 5"));
            }
        }
    }
    let pairs = named.keys().filter(|k| k.len() == 2).count();
    eprintln!("{} cases, {pairs} pairs named", cases.len());
    assert!(short.is_empty(), "short: {short:?}");
    assert_eq!(pairs, 105);
}

/// The contradictory pairs are refused by the core too: the cases' errors are the engine's.
#[test]
fn the_contradictory_pairs_are_configuration_errors() {
    for [a, b] in CONTRADICTORY {
        let mut rules = Rules::default();
        for name in [a, b] {
            *name.parse::<Rule>().unwrap().flag(&mut rules).unwrap() = true;
        }
        assert!(rules.validate(false).is_err(), "{a} + {b}");
    }
}

/// FFTriadBuddy's reports become pinned cases whose note works the answer out.
#[test]
fn fftriadbuddys_reports_are_pinned() {
    let cases = cases();
    for issue in ["79", "86", "101"] {
        let pinned: Vec<&Value> = cases
            .iter()
            .filter(|c| c["name"].as_str().unwrap().contains(&format!("ftb{issue}")))
            .collect();
        assert!(!pinned.is_empty(), "#{issue} has no case");
        for c in pinned {
            let note = c["note"].as_str().unwrap_or("");
            assert!(
                note.contains(&format!("#{issue}")) && note.len() > 100,
                "{}: the note works out #{issue}'s answer",
                c["name"]
            );
            assert!(c["expect"].is_object(), "{}", c["name"]);
        }
    }
}

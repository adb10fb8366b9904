//! Every recorded game of `data/trax-games/` replays with the result its `checked_result` column
//! gives (an independent rules model's replay), through the record reader.

use arbiter_core::trax::{read_record, Colour, Trax, Variant};
use arbiter_core::{Game, Outcome};

fn check_file(name: &str, variant_col: usize, result_col: usize, moves_col: usize) -> usize {
    let path = format!("{}/data/trax-games/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (id, result) = (cols[0], cols[result_col]);
        let variant = match cols[variant_col] {
            "Trax" => Variant::Unbounded,
            "8x8 Trax" => Variant::EightByEight,
            "Loop Trax" => Variant::Loop,
            other => panic!("{id}: unknown variant {other}"),
        };
        let moves = read_record(cols[moves_col]).unwrap_or_else(|e| panic!("{id}: {e}"));
        let replay = Trax::replay(variant, &moves);
        if let Some(n) = result.strip_prefix("illegal@") {
            let n: usize = n.parse().unwrap();
            assert_eq!(replay.err().map(|(i, _)| i + 1), Some(n), "{id}");
        } else if result == "open" {
            let g = replay.unwrap_or_else(|(i, e)| panic!("{id}: move {} refused: {e}", i + 1));
            assert!(!g.is_over(), "{id}: over after {} moves", moves.len());
        } else {
            let (who, at) = result.split_once(':').unwrap();
            let n: usize = at.split_once('@').unwrap().1.parse().unwrap();
            let winner = if who == "W" { Colour::White } else { Colour::Red };
            let g =
                Trax::replay(variant, &moves[..n]).unwrap_or_else(|(i, e)| panic!("{id}: move {} refused: {e}", i + 1));
            assert_eq!(g.outcome(), Some(Outcome::Winner(winner)), "{id}");
            let before = Trax::replay(variant, &moves[..n - 1]).unwrap();
            assert!(!before.is_over(), "{id}: over before move {n}");
        }
        checked += 1;
    }
    checked
}

#[test]
fn commented_games_replay_as_checked() {
    assert_eq!(check_file("commented-games.tsv", 2, 4, 5), 299);
}

#[test]
fn archive_games_replay_as_checked() {
    assert_eq!(check_file("archive-games.tsv", 2, 6, 7), 16);
}

//! Trax move generation and the built-in opponent, one-shot:
//! `cargo run --release -p arbiter-benches --example trax_moves -- legal 20` generates the legal
//! moves of every position of the recorded games 20 times; `-- ai 200` lets the opponent choose
//! on a Loop Trax column of 200 tiles; `-- column 10000` builds a column of 10,000 tiles and
//! generates its moves once.

use arbiter_core::trax::{ai, read_record, Move, Shape, Trax, Variant};
use arbiter_core::{Game, Rng};
use std::time::Instant;

/// Every position of the commented games before a move, up to the end or the first refused move.
fn recorded_positions() -> Vec<Trax> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/data/trax-games/commented-games.tsv"
    );
    let text = std::fs::read_to_string(path).expect("the game records");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let variant = match cols[2] {
            "8x8 Trax" => Variant::EightByEight,
            "Loop Trax" => Variant::Loop,
            _ => Variant::Unbounded,
        };
        let mut g = Trax::new(variant);
        for mv in read_record(cols[5]).expect("a record") {
            if g.is_over() {
                break;
            }
            out.push(g.clone());
            if g.play(mv).is_err() {
                break;
            }
        }
    }
    out
}

/// A Loop Trax column of `n` straight tiles (`@0+ A2+ A3+ …`).
fn column(n: u64) -> Trax {
    let mut g = Trax::new(Variant::Loop);
    g.play("@0+".parse().expect("a move")).expect("legal");
    for row in 2..=n {
        g.play(Move {
            col: 1,
            row,
            shape: Shape::Straight,
        })
        .expect("legal");
    }
    g
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "legal".into());
    let n: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    match mode.as_str() {
        "legal" => {
            let positions = recorded_positions();
            let t = Instant::now();
            let mut moves = 0;
            for _ in 0..n {
                for g in &positions {
                    moves += g.legal_moves().len();
                }
            }
            let s = t.elapsed().as_secs_f64();
            println!(
                "trax legal_moves: {} positions x {n}: {moves} moves in {s:.3} s = {:.2} us per position",
                positions.len(),
                s * 1e6 / (positions.len() as f64 * n as f64)
            );
        }
        "ai" => {
            let g = column(n);
            let t = Instant::now();
            let mv = ai::choose(&g, &mut Rng::new(1)).expect("a move");
            println!(
                "trax ai on a {n}-tile column: {mv} in {:.3} s",
                t.elapsed().as_secs_f64()
            );
        }
        "column" => {
            let t = Instant::now();
            let g = column(n);
            let built = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let moves = g.legal_moves().len();
            println!(
                "trax {n}-tile column: built in {built:.3} s, {moves} legal moves in {:.3} s",
                t.elapsed().as_secs_f64()
            );
        }
        other => eprintln!("unknown mode {other:?}: legal, ai or column"),
    }
}

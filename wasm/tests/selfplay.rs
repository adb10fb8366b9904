//! Self-play games computed natively: `js-tests/fixtures/selfplay.json` holds them, and
//! `js-tests/determinism.test.mjs` replays them through the npm package, so that the same seeds and
//! moves give the same games in Rust and in JavaScript. Run with `UPDATE_FIXTURES=1` to rewrite
//! the file after a change of the core that changes games on purpose.

use arbiter_core::nantong::Nantong;
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::{Match, TradeChoice, TripleTriad};
use arbiter_core::{Engine, Rng};
use serde_json::{json, Value};

/// Plays `g` to the end: move `i` by the built-in opponent of level `LEVELS[i % len]` with seed
/// `seed + i`. The moves and the final state as JSON text (text keeps 64-bit numbers exact).
fn selfplay<G: Engine + serde::Serialize>(mut g: G, seed: u64) -> Value {
    let mut moves = Vec::new();
    for i in 0.. {
        let level = G::LEVELS[i % G::LEVELS.len()];
        let Some(mv) = g.choose(level, &mut Rng::new(seed + i as u64)).unwrap() else {
            break;
        };
        g.play(mv).map_err(Into::into).unwrap();
        moves.push(mv.to_string());
    }
    json!({"moves": moves, "final": serde_json::to_string(&g).unwrap()})
}

/// A whole match the same way, then the trade: the first `count` cards, or the first swap.
fn match_selfplay(mut m: Match, seed: u64) -> Value {
    let mut moves = Vec::new();
    for i in 0.. {
        let level = TripleTriad::LEVELS[i % TripleTriad::LEVELS.len()];
        let Some(mv) = m.game().choose(level, &mut Rng::new(seed + i as u64)).unwrap() else {
            break;
        };
        m.play(mv).unwrap();
        moves.push(mv.to_string());
    }
    let picks: Vec<u8> = match m.trade_choice().unwrap() {
        TradeChoice::Pick { count, .. } => (0..count).collect(),
        TradeChoice::Swap { .. } => vec![0],
        TradeChoice::Automatic => Vec::new(),
    };
    m.settle_trade(&picks).unwrap();
    json!({"moves": moves, "picks": picks, "final": serde_json::to_string(&m).unwrap()})
}

#[test]
fn the_fixture_holds_the_games_rust_plays() {
    let games = json!({
        "triple-triad": {
            "start": {"preset": "ff8", "seed": 11}, "seed": 100,
            "game": selfplay(TripleTriad::from_preset("ff8", 11).unwrap(), 100),
        },
        "triple-triad-match": {
            "start": {"preset": "ffforever", "seed": 3}, "seed": 200,
            "game": match_selfplay(Match::from_preset("ffforever", 3).unwrap(), 200),
        },
        "trax": {
            "start": {"variant": "8x8"}, "seed": 300,
            "game": selfplay(Trax::new(Variant::EightByEight), 300),
        },
        "nantong": {
            "start": {"seed": 2024}, "seed": 400,
            "game": selfplay(Nantong::new(2024), 400),
        },
    });
    let text = serde_json::to_string_pretty(&games).unwrap() + "\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/js-tests/fixtures/selfplay.json");
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    let saved = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        saved == text,
        "{path} differs from the games played now: rerun with UPDATE_FIXTURES=1 if the change is meant"
    );
}

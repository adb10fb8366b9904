//! Invariants of Trax over random playouts in every variant.

use arbiter_core::trax::{ai, Move, Shape, Trax, Variant};
use arbiter_core::{Game, Rng};
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::EightByEight),
        Just(Variant::Unbounded),
        Just(Variant::Loop)
    ]
}

fn any_move() -> impl Strategy<Value = Move> {
    (0u64..12, 0u64..12, 0usize..3).prop_map(|(col, row, s)| Move {
        col,
        row,
        shape: Shape::ALL[s],
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn offered_moves_are_accepted_and_others_refused(v in variant(), seed in any::<u64>(), probes in prop::collection::vec(any_move(), 30)) {
        let mut g = Trax::new(v);
        let mut rng = Rng::new(seed);
        for probe in probes {
            let legal = g.legal_moves();
            prop_assert_eq!(legal.is_empty(), g.is_over());
            let before = g.clone();
            match g.clone().play(probe) {
                Ok(()) => prop_assert!(legal.contains(&probe), "{} accepted, not offered", probe),
                Err(_) => {
                    prop_assert!(!legal.contains(&probe), "{} offered, refused", probe);
                }
            }
            prop_assert_eq!(&g, &before);
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len() as u64) as usize];
            let mover = g.next_player();
            g.play(mv).unwrap();
            prop_assert_eq!(g.next_player(), mover.other());
            let (w, h) = g.size();
            if v == Variant::EightByEight {
                prop_assert!(w <= 8 && h <= 8);
            }
            // The notation round-trips and a replay of the history reaches the same state.
            prop_assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
            let again = Trax::replay(v, g.history()).unwrap();
            prop_assert_eq!(&again, &g);
        }
    }

    #[test]
    fn generic_and_fast_perft_agree(v in variant(), seed in any::<u64>(), plies in 0usize..12) {
        let mut g = Trax::new(v);
        let mut rng = Rng::new(seed);
        for _ in 0..plies {
            let legal = g.legal_moves();
            if legal.is_empty() { break; }
            g.play(legal[rng.below(legal.len() as u64) as usize]).unwrap();
        }
        prop_assert_eq!(g.perft(2), arbiter_core::perft(&g, 2));
    }

    #[test]
    fn the_ai_takes_a_win_in_one(v in variant(), seed in any::<u64>()) {
        let mut g = Trax::new(v);
        let mut rng = Rng::new(seed);
        while let Some(me) = g.to_move() {
            let legal = g.legal_moves();
            let winning = legal.iter().any(|&m| {
                let mut h = g.clone();
                h.play(m).is_ok() && h.outcome().and_then(|o| o.winner()) == Some(me)
            });
            let mv = ai::choose(&g, &mut rng).unwrap();
            g.play(mv).unwrap();
            if winning {
                prop_assert_eq!(g.outcome().and_then(|o| o.winner()), Some(me));
                break;
            }
            if g.history().len() > 40 { break; }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn coordinates_never_overflow(v in variant(), plies in 0usize..6, col in any::<u32>(), row in any::<u32>(), x in any::<i32>(), y in any::<i32>()) {
        // Used to overflow i32 (a panic in debug builds, a wrapped cell in release).
        let mut g = Trax::new(v);
        for _ in 0..plies {
            let legal = g.legal_moves();
            if legal.is_empty() { break; }
            g.play(legal[legal.len() / 2]).unwrap();
        }
        let (w, h) = g.size();
        let inside = (1..=w).contains(&col) && (1..=h).contains(&row);
        prop_assert!(g.tile_at(col, row).is_none() || inside);
        for (c, r) in [(col, row), (u32::MAX, row), (col, u32::MAX), (0, 0)] {
            let _ = g.tile_at(c, r);
        }
        for (a, b) in [(x, y), (i32::MIN, i32::MIN), (i32::MAX, i32::MAX), (i32::MIN, i32::MAX)] {
            prop_assert!(!g.cell_name(a, b).is_empty());
        }
    }
}

#[test]
fn perft_depths_one_to_six_from_the_empty_board() {
    // 1-5 from the rules file; 6 computed here and the same in every variant (no area reaches 8).
    for v in [Variant::Unbounded, Variant::EightByEight, Variant::Loop] {
        let g = Trax::new(v);
        assert_eq!(
            (1..=5).map(|d| g.perft(d)).collect::<Vec<_>>(),
            [2, 24, 432, 9568, 246_888]
        );
    }
    assert_eq!(Trax::new(Variant::Unbounded).perft(6), 7_209_480);
}

#[test]
fn perft_depth_seven_by_first_move() {
    // 233,696,112 in all (computed here; lines and the 8x8 limit need 8 columns, so every variant
    // agrees): split by the two first moves so that a failure says which half is wrong.
    let after = |m: &str| Trax::replay(Variant::Unbounded, &[m.parse().unwrap()]).unwrap();
    let (straight, slash) = (after("@0+").perft(6), after("@0/").perft(6));
    assert_eq!(straight + slash, 233_696_112);
}

#[test]
#[ignore = "about a minute on two cores: cargo test --release -- --ignored"]
fn perft_depth_eight() {
    assert_eq!(Trax::new(Variant::Unbounded).perft(8), 8_290_141_664);
}

#[test]
fn legal_moves_are_exactly_the_moves_play_accepts_deep_into_random_games() {
    // The generator proves many forcing moves legal without playing them: every cell next to
    // the area and every shape, tried by play on a copy, must agree with it.
    // Some games see it with a tile limit a few tiles away, which a cascade may pass.
    for v in [Variant::EightByEight, Variant::Unbounded, Variant::Loop] {
        for seed in 0..12 {
            for g in random_game(v, 10_000, seed, 120) {
                let g = match seed % 3 {
                    0 => g,
                    room => {
                        let mut tight = Trax::with_max_tiles(v, g.tiles() + room as u32).unwrap();
                        g.history().iter().for_each(|&m| tight.play(m).unwrap());
                        tight
                    }
                };
                let legal: std::collections::HashSet<Move> = g.legal_moves().into_iter().collect();
                let (w, h) = g.size();
                for col in 0..=u64::from(w) + 1 {
                    for row in 0..=u64::from(h) + 1 {
                        for shape in Shape::ALL {
                            let mv = Move { col, row, shape };
                            let accepted = g.clone().play(mv).is_ok();
                            assert_eq!(accepted, legal.contains(&mv), "{v} seed {seed} {:?}: {mv}", g);
                        }
                    }
                }
            }
        }
    }
}

/// A random game of up to `plies` turns, and every state on the way (the first is the empty board).
fn random_game(v: Variant, max_tiles: u32, seed: u64, plies: usize) -> Vec<Trax> {
    let mut g = Trax::with_max_tiles(v, max_tiles).unwrap();
    let mut rng = Rng::new(seed);
    let mut states = vec![g.clone()];
    for _ in 0..plies {
        let legal = g.legal_moves();
        if legal.is_empty() {
            break;
        }
        g.play(legal[rng.below(legal.len() as u64) as usize]).unwrap();
        states.push(g.clone());
    }
    states
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn undo_restores_every_earlier_state(v in variant(), seed in any::<u64>(), plies in 0usize..40, max_tiles in 4u32..80) {
        let states = random_game(v, max_tiles, seed, plies);
        let mut g = states.last().unwrap().clone();
        for earlier in states.iter().rev().skip(1) {
            let last = *g.history().last().unwrap();
            prop_assert_eq!(g.undo(), Some(last));
            prop_assert_eq!(&g, earlier);
            prop_assert_eq!(g.history(), earlier.history());
            prop_assert_eq!(g.legal_moves(), earlier.legal_moves());
            prop_assert_eq!(g.perft(2), earlier.perft(2));
            prop_assert_eq!((g.tiles(), g.size(), g.next_player()), (earlier.tiles(), earlier.size(), earlier.next_player()));
        }
        prop_assert_eq!(g.undo(), None);
        prop_assert_eq!(&g, &states[0]);
        // The undone game plays on as a new one would.
        if let Some(last) = states.last() {
            for &m in last.history() {
                g.play(m).unwrap();
            }
            prop_assert_eq!(&g, last);
        }
    }
}

#[cfg(feature = "serde")]
proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_saved_game_loads_back_exactly(v in variant(), seed in any::<u64>(), plies in 0usize..40, limited in any::<bool>()) {
        let max_tiles = if limited { 30 } else { arbiter_core::trax::DEFAULT_MAX_TILES };
        let g = random_game(v, max_tiles, seed, plies).pop().unwrap();
        let json = serde_json::to_value(&g).unwrap();
        prop_assert_eq!(&json["variant"], v.name());
        prop_assert_eq!(json["moves"].as_array().unwrap().len(), g.history().len());
        prop_assert_eq!(json.get("max_tiles").is_some(), limited);
        let back: Trax = serde_json::from_value(json).unwrap();
        prop_assert_eq!(&back, &g);
        prop_assert_eq!(back.history(), g.history());
        prop_assert_eq!(back.max_tiles(), g.max_tiles());
        prop_assert_eq!(back.legal_moves(), g.legal_moves());
        prop_assert_eq!(back.outcome(), g.outcome());
    }
}

#[cfg(feature = "serde")]
#[test]
fn a_saved_game_that_the_rules_refuse_does_not_load() {
    for (json, why) in [
        (r#"{"variant":"loop","moves":["@0+","C5+"]}"#, "move 2"),
        (r#"{"variant":"loop","moves":["@0+","x"]}"#, "move 2"),
        (r#"{"variant":"9x9","moves":[]}"#, "9x9"),
        (r#"{"variant":"loop","moves":[],"max_tiles":0}"#, "tile limit"),
        (r#"{"variant":"loop","moves":["@0+","A2+"],"max_tiles":1}"#, "move 2"),
        (r#"{"variant":"loop","moves":[],"extra":1}"#, "extra"),
        (r#"{"variant":"loop"}"#, "moves"),
    ] {
        let err = serde_json::from_str::<Trax>(json).unwrap_err().to_string();
        assert!(err.contains(why), "{json}: {err}");
    }
    let over = r#"{"variant":"unbounded","moves":["@0/","B1\\","B2/","C1+"]}"#;
    assert!(serde_json::from_str::<Trax>(over)
        .unwrap_err()
        .to_string()
        .contains("game is over"));
}

//! In every game, at every position of random games: the player to move, whether the game is
//! over, its outcome, the legal moves and the built-in opponents' choice agree. A position with no
//! legal move is over, with an outcome (Trax at a small tile limit used to be neither over nor
//! playable: issue 19.2).

use arbiter_core::nantong::Nantong;
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::{Setup, TripleTriad};
use arbiter_core::{Engine, Rng};
use proptest::prelude::*;

/// Plays `g` out with moves drawn from `seed`, checking the agreement at every position.
fn agrees_all_game_long<G: Engine>(mut g: G, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    for _ in 0..20_000 {
        let legal = g.legal_moves();
        let over = g.is_over();
        prop_assert_eq!(g.to_move().is_none(), over, "{}: to_move against is_over", G::NAME);
        prop_assert_eq!(g.outcome().is_some(), over, "{}: outcome against is_over", G::NAME);
        prop_assert_eq!(legal.is_empty(), over, "{}: legal moves against is_over", G::NAME);
        prop_assert_eq!(g.legal_action_mask().iter().filter(|&&m| m).count(), legal.len());
        for level in ["random", G::LEVELS[1]] {
            let choice = g.choose(level, &mut rng.clone()).unwrap();
            prop_assert_eq!(choice.is_none(), over, "{} {}: choose against is_over", G::NAME, level);
            if let Some(mv) = choice {
                prop_assert!(legal.contains(&mv), "{} {}: chose a move not listed", G::NAME, level);
            }
        }
        if over {
            return Ok(());
        }
        let mv = legal[rng.below(legal.len() as u64) as usize];
        g.play(mv)
            .map_err(|e| TestCaseError::fail(format!("{}: {}", G::NAME, e.into())))?;
    }
    Err(TestCaseError::fail(format!("{}: no end in 20,000 moves", G::NAME)))
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::EightByEight),
        Just(Variant::Unbounded),
        Just(Variant::Loop)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn triple_triad_agrees(seed in any::<u64>()) {
        agrees_all_game_long(TripleTriad::new(&Setup::random_ff8(seed)).unwrap(), seed)?;
    }

    #[test]
    fn trax_agrees_with_a_small_tile_limit(v in variant(), limit in 1u32..40, seed in any::<u64>()) {
        agrees_all_game_long(Trax::with_max_tiles(v, limit).unwrap(), seed)?;
    }

    #[test]
    fn nantong_agrees(seed in any::<u64>()) {
        agrees_all_game_long(Nantong::new(seed), seed)?;
    }
}

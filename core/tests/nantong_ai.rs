//! The Nantong computer players over random deals: listed actions only, never a win passed up,
//! the same game from the same seeds.

use arbiter_core::nantong::{ai, Action, Nantong};
use arbiter_core::{Game, Rng};
use proptest::prelude::*;

type Policy = fn(&arbiter_core::nantong::Observation, &mut Rng) -> Option<Action>;

/// Plays a deal out with `policies[seat]` for each seat, checking every choice.
fn play(seed: u64, policies: [Policy; 3]) -> Result<Nantong, TestCaseError> {
    let mut g = Nantong::new(seed);
    let mut rngs = [0, 1, 2].map(|s| Rng::new(seed ^ s));
    while let Some(seat) = g.to_move() {
        let obs = g.observation(seat);
        let legal = g.legal_moves();
        let a = policies[seat.index()](&obs, &mut rngs[seat.index()]);
        let a = a.ok_or_else(|| TestCaseError::fail("no action"))?;
        prop_assert!(legal.contains(&a), "{} not legal: {:?}", a, legal);
        prop_assert!(obs.actions.contains(&a.to_string()));
        if legal.contains(&Action::Win) {
            prop_assert_eq!(a, Action::Win, "a win passed up");
        }
        g.play(a).unwrap();
        prop_assert!(g.history().len() < 2000);
    }
    Ok(g)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_strong_player_plays_any_deal_legally(seed in any::<u64>(), strong_seats in 1u8..8) {
        let policy = |s: u8| -> Policy { if strong_seats >> s & 1 != 0 { ai::strong } else { ai::choose } };
        let g = play(seed, [policy(0), policy(1), policy(2)])?;
        prop_assert!(g.score().is_some());
    }

    #[test]
    fn the_strong_player_is_deterministic(seed in any::<u64>()) {
        let a = play(seed, [ai::strong, ai::choose, ai::strong])?;
        let b = play(seed, [ai::strong, ai::choose, ai::strong])?;
        prop_assert_eq!(a.history(), b.history());
    }
}

//! Random setups for the tests of the resolution and of the solver.

use super::{Card, Comparison, Element, Rules, Setup, Side, TripleTriad, Wall, WallLabel};
use crate::{Game, Rng};
use alloc::vec::Vec;

/// A random valid setup exercising every option: ranks from a narrow range so that Same and
/// Plus fire often, elements, power walls on bordered boards.
pub(crate) fn random_setup(rng: &mut Rng) -> Setup {
    let mut flag = |n: u64| rng.below(n) == 0;
    let borderless = flag(3);
    let (same, plus) = (!flag(4), !flag(4));
    let rules = Rules {
        same,
        same_wall: same && !borderless && flag(2),
        same_min_matches: 1 + !flag(4) as u8,
        plus,
        plus_wall: plus && !borderless && flag(2),
        combo: !flag(4),
        combo_from_basic: flag(3),
        battle: flag(3),
        borderless,
        elemental: flag(2),
        elemental_clamp: flag(2),
        ..Rules::default()
    };
    let high = [4, 6, 10][rng.below(3) as usize];
    let mut card = |i: usize| {
        Card::new(
            &alloc::format!("c{i}"),
            core::array::from_fn(|_| 1 + rng.below(high) as u8),
        )
        .with_element(Element::ALL[rng.below(9) as usize])
        .with_power(rng.below(6) as u32)
    };
    let mut cards: Vec<Card> = (0..10).map(&mut card).collect();
    if rng.below(4) == 0 {
        // Twins: two identical cards in one hand.
        cards[1] = cards[0].clone();
    }
    let mut setup = Setup::random_ff8(rng.next_u64()).with_rules(rules);
    setup.hands.blue = cards[..5].to_vec();
    setup.hands.red = cards[5..].to_vec();
    setup.elements = core::array::from_fn(|_| (rng.below(3) == 0).then(|| Element::ALL[rng.below(9) as usize]));
    if !borderless && rng.below(2) == 0 {
        for (cell, side) in [(0, Side::Left), (4, Side::Top), (5, Side::Right), (7, Side::Bottom)] {
            let comparison = [Comparison::Greater, Comparison::Less, Comparison::Equal][rng.below(3) as usize];
            if rng.below(2) == 0 && cell != 4 {
                let label = WallLabel {
                    comparison,
                    value: rng.below(6) as u32,
                };
                setup.walls.push(Wall { cell, side, label });
            }
        }
    }
    setup
}

/// A random position of a [`random_setup`] with `empty` empty cells, reached by random moves.
pub(crate) fn random_position(rng: &mut Rng, empty: usize) -> TripleTriad {
    let mut g = TripleTriad::new(&random_setup(rng)).unwrap();
    while (0..9).filter(|&c| g.cell(c).is_none()).count() > empty {
        let moves = g.legal_moves();
        g.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
    }
    g
}

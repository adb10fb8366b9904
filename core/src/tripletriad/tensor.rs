//! The observation tensor: what one player sees, as a fixed-size vector of numbers for learning
//! agents. It is built from an [`Observation`] alone, so hidden cards cannot leak into it.
//!
//! Layout ([`LEN`] = 463 numbers, all in 0..=1; "mine" is the observer's):
//!
//! | offset | size | what |
//! |---|---|---|
//! | 0 | 9 × 26 | cells 0..=8: empty, mine, theirs (one-hot 3); the card ([`CARD`] numbers, zeros when empty); the cell's element (one-hot 9, none first) |
//! | 234 | 5 × 15 | the observer's hand, slots 0..=4: present; the card |
//! | 309 | 5 × 16 | the opponent's hand, slots 0..=4: present; face known (the `open` rule); the card (zeros when unknown) |
//! | 389 | 13 | rules: open, random, same, same_wall, same_min_matches is 1, plus, plus_wall, combo, combo_from_basic, battle, borderless, elemental, elemental_clamp |
//! | 402 | 12 × 5 | wall segments (top of cells 0, 1, 2; right of 2, 5, 8; bottom of 6, 7, 8; left of 0, 3, 6): labelled; `>`, `<`, `=` (one-hot 3); its number / 20 (at most 1) |
//! | 462 | 1 | the observer is to move |
//!
//! A card is [`CARD`] = 14 numbers: its four printed ranks / 10 (top, right, bottom, left), its
//! element (one-hot 9, none first), its power / 20 (at most 1).

use alloc::vec::Vec;

use super::card::{Card, Element, Side};
use super::rules::Comparison;
use super::state::Observation;

/// Numbers per card.
pub const CARD: usize = 14;
/// The tensor's length.
pub const LEN: usize = 9 * (3 + CARD + 9) + 5 * (1 + CARD) + 5 * (2 + CARD) + 13 + 12 * 5 + 1;

/// The wall segments in tensor order.
const SEGMENTS: [(u8, Side); 12] = [
    (0, Side::Top),
    (1, Side::Top),
    (2, Side::Top),
    (2, Side::Right),
    (5, Side::Right),
    (8, Side::Right),
    (6, Side::Bottom),
    (7, Side::Bottom),
    (8, Side::Bottom),
    (0, Side::Left),
    (3, Side::Left),
    (6, Side::Left),
];

fn one_hot(out: &mut Vec<f32>, n: usize, i: Option<usize>) {
    out.extend((0..n).map(|k| if Some(k) == i { 1.0 } else { 0.0 }));
}

fn element(out: &mut Vec<f32>, e: Option<Element>) {
    one_hot(
        out,
        9,
        Some(Element::ALL.iter().position(|&x| Some(x) == e).unwrap_or(0)),
    );
}

fn card(out: &mut Vec<f32>, c: Option<&Card>) {
    match c {
        Some(c) => {
            out.extend(c.ranks.iter().map(|&r| r as f32 / 10.0));
            element(out, Some(c.element));
            out.push(c.power.min(20) as f32 / 20.0);
        }
        None => out.extend([0.0; CARD]),
    }
}

fn flag(b: bool) -> f32 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// The observation as numbers (layout in the module docs).
///
/// ```
/// use arbiter_core::Game;
/// use arbiter_core::tripletriad::{tensor, Player, Setup, TripleTriad};
/// let g = TripleTriad::new(&Setup::random_ff8(1)).unwrap();
/// let t = tensor::observation_tensor(&g.observation(Player::Blue));
/// assert_eq!(t.len(), tensor::LEN);
/// assert!(t.iter().all(|&x| (0.0..=1.0).contains(&x)));
/// ```
pub fn observation_tensor(obs: &Observation) -> Vec<f32> {
    let mut out = Vec::with_capacity(LEN);
    for (cell, placed) in obs.board.iter().enumerate() {
        let owner = placed.as_ref().map(|p| if p.owner == obs.player { 1 } else { 2 });
        one_hot(&mut out, 3, Some(owner.unwrap_or(0)));
        card(&mut out, placed.as_ref().map(|p| &p.card));
        element(&mut out, obs.elements[cell]);
    }
    for slot in 0..5 {
        let c = obs.hand.get(slot);
        out.push(flag(c.is_some()));
        card(&mut out, c);
    }
    for slot in 0..5 {
        let c = obs.opponent_hand.get(slot);
        out.push(flag(c.is_some()));
        let face = c.and_then(Option::as_ref);
        out.push(flag(face.is_some()));
        card(&mut out, face);
    }
    let r = &obs.rules;
    out.extend(
        [
            r.open,
            r.random,
            r.same,
            r.same_wall,
            r.same_min_matches == 1,
            r.plus,
            r.plus_wall,
            r.combo,
            r.combo_from_basic,
            r.battle,
            r.borderless,
            r.elemental,
            r.elemental_clamp,
        ]
        .map(flag),
    );
    for (cell, side) in SEGMENTS {
        let wall = obs.walls.iter().find(|w| w.cell == cell && w.side == side);
        out.push(flag(wall.is_some()));
        let comparison = wall.map(|w| match w.label.comparison {
            Comparison::Greater => 0,
            Comparison::Less => 1,
            Comparison::Equal => 2,
        });
        match comparison {
            Some(_) => one_hot(&mut out, 3, comparison),
            None => out.extend([0.0; 3]),
        }
        out.push(wall.map_or(0.0, |w| w.label.value.min(20) as f32 / 20.0));
    }
    out.push(flag(obs.to_move == obs.player));
    debug_assert_eq!(out.len(), LEN);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::{Player, Setup, TripleTriad};
    use crate::Game;

    #[test]
    fn hidden_cards_do_not_change_the_tensor() {
        let mut s = Setup::random_ff8(8);
        let seen = |s: &Setup| {
            let g = TripleTriad::new(s).unwrap();
            observation_tensor(&g.observation(Player::Blue))
        };
        let before = seen(&s);
        // Red's hidden hand changes completely: blue sees nothing of it.
        for c in s.hands.red.iter_mut() {
            c.ranks = [1, 2, 3, 4];
            c.name = "other".into();
        }
        assert_eq!(seen(&s), before);
        // Under the open rule it does show.
        s.rules.open = true;
        let open = seen(&s);
        s.hands.red[0].ranks = [9, 9, 9, 9];
        assert_ne!(seen(&s), open);
    }

    #[test]
    fn the_tensor_is_the_observers_view() {
        let g = TripleTriad::new(&Setup::random_ff8(3)).unwrap();
        let mut g = g;
        g.play(g.legal_moves()[0]).unwrap();
        let (b, r) = (
            observation_tensor(&g.observation(Player::Blue)),
            observation_tensor(&g.observation(Player::Red)),
        );
        assert_eq!((b.len(), r.len()), (LEN, LEN));
        assert_ne!(b, r, "mine and theirs swap between the two views");
        assert_eq!(b[LEN - 1] + r[LEN - 1], 1.0, "exactly one of them is to move");
    }
}

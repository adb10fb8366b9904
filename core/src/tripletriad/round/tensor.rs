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
//! | 389 | 13 | rules: open, random, same, same_wall, same_min_matches is 1, plus, plus_wall, combo, combo_from_basic, battle, borderless, elemental, elemental_clamp (not `power_walls`: what it draws is the walls below) |
//! | 402 | 12 × 5 | wall segments (top of cells 0, 1, 2; right of 2, 5, 8; bottom of 6, 7, 8; left of 0, 3, 6): labelled; `>`, `<`, `=` (one-hot 3); its number / 20 (at most 1) |
//! | 462 | 1 | the observer is to move |
//!
//! A card is [`CARD`] = 14 numbers: its four printed ranks / 10 (top, right, bottom, left), its
//! element (one-hot 9, none first), its power / 20 (at most 1).

use alloc::vec::Vec;

use super::board::{bits, FULL};
use super::card::{Card, Element, Side};
use super::position::Player;
use super::rules::{Comparison, Rules, Wall, BORDER};
use super::state::{Observation, TripleTriad};

/// Numbers per card.
pub const CARD: usize = 14;
/// The tensor's length.
pub const LEN: usize = 9 * (3 + CARD + 9) + 5 * (1 + CARD) + 5 * (2 + CARD) + 13 + 12 * 5 + 1;

/// Where each part of the layout starts.
const CELL: usize = 3 + CARD + 9;
const HAND: usize = 9 * CELL;
const OPPONENT: usize = HAND + 5 * (1 + CARD);
const RULES: usize = OPPONENT + 5 * (2 + CARD);
const WALLS: usize = RULES + 13;

/// What the tensor reads of a round as one player may see it: an [`Observation`], or the state
/// itself through [`Seen`], which shows the opponent's faces only under the open rule. One
/// writer over both keeps them the same numbers (a test compares them all game long).
trait View {
    fn observer(&self) -> Player;
    fn rules(&self) -> &Rules;
    fn element(&self, cell: usize) -> Option<Element>;
    /// The card on `cell` and its owner.
    fn placed(&self, cell: usize) -> Option<(&Card, Player)>;
    /// Calls `f` with each card of the observer's hand in order.
    fn hand(&self, f: impl FnMut(usize, &Card));
    /// Calls `f` with each card of the opponent's hand in order, its face if it shows.
    fn opponent(&self, f: impl FnMut(usize, Option<&Card>));
    /// The wall on the `side` of `cell`.
    fn wall(&self, cell: u8, side: Side) -> Option<&Wall>;
    fn to_move(&self) -> Player;
}

impl View for Observation {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn observer(&self) -> Player {
        self.player
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn rules(&self) -> &Rules {
        &self.rules
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn element(&self, cell: usize) -> Option<Element> {
        self.elements[cell]
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn placed(&self, cell: usize) -> Option<(&Card, Player)> {
        self.board[cell].as_ref().map(|p| (&p.card, p.owner))
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn hand(&self, mut f: impl FnMut(usize, &Card)) {
        self.hand.iter().take(5).enumerate().for_each(|(i, c)| f(i, c));
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn opponent(&self, mut f: impl FnMut(usize, Option<&Card>)) {
        self.opponent_hand
            .iter()
            .take(5)
            .enumerate()
            .for_each(|(i, c)| f(i, c.as_ref()));
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn wall(&self, cell: u8, side: Side) -> Option<&Wall> {
        self.walls.iter().find(|w| w.cell == cell && w.side == side)
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn to_move(&self) -> Player {
        self.to_move
    }
}

/// A round as `.1` sees it, read from the state without building an [`Observation`].
struct Seen<'a>(&'a TripleTriad, Player);

impl View for Seen<'_> {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn observer(&self) -> Player {
        self.1
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn rules(&self) -> &Rules {
        &self.0.table.rules
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn element(&self, cell: usize) -> Option<Element> {
        self.0.table.elements[cell]
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn placed(&self, cell: usize) -> Option<(&Card, Player)> {
        self.0.cell(cell as u8)
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn hand(&self, mut f: impl FnMut(usize, &Card)) {
        self.0.hand(self.1).enumerate().for_each(|(i, c)| f(i, c));
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn opponent(&self, mut f: impl FnMut(usize, Option<&Card>)) {
        let open = self.0.table.rules.hands_open();
        self.0
            .hand(self.1.other())
            .enumerate()
            .for_each(|(i, c)| f(i, open.then_some(c)));
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn wall(&self, cell: u8, side: Side) -> Option<&Wall> {
        self.0.table.wall_at[cell as usize].as_ref().filter(|w| w.side == side)
    }
    #[cfg_attr(arbiter_size, optimize(size))]
    fn to_move(&self) -> Player {
        self.0.next_player()
    }
}

/// The index of `e` in [`Element::ALL`] (none first).
#[cfg_attr(arbiter_size, optimize(size))]
fn element_index(e: Option<Element>) -> usize {
    Element::ALL.iter().position(|&x| Some(x) == e).unwrap_or(0)
}

/// A card's numbers over `out` (zeros already there).
#[cfg_attr(arbiter_size, optimize(size))]
fn card(out: &mut [f32], c: &Card) {
    for (o, &r) in out.iter_mut().zip(&c.ranks) {
        *o = r as f32 / 10.0;
    }
    out[4 + element_index(Some(c.element))] = 1.0;
    out[CARD - 1] = c.power.min(20) as f32 / 20.0;
}

#[cfg_attr(arbiter_size, optimize(size))]
fn flag(b: bool) -> f32 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// The tensor of `v` over `out`: zeros, then the numbers that are not.
#[cfg_attr(arbiter_size, optimize(size))]
fn write(v: &impl View, out: &mut [f32]) {
    assert_eq!(out.len(), LEN, "a Triple Triad tensor has {LEN} numbers");
    out.fill(0.0);
    let me = v.observer();
    for (cell, row) in out[..HAND].chunks_exact_mut(CELL).enumerate() {
        match v.placed(cell) {
            Some((c, owner)) => {
                row[if owner == me { 1 } else { 2 }] = 1.0;
                card(&mut row[3..3 + CARD], c);
            }
            None => row[0] = 1.0,
        }
        row[3 + CARD + element_index(v.element(cell))] = 1.0;
    }
    v.hand(|slot, c| {
        let row = &mut out[HAND + slot * (1 + CARD)..][..1 + CARD];
        row[0] = 1.0;
        card(&mut row[1..], c);
    });
    v.opponent(|slot, face| {
        let row = &mut out[OPPONENT + slot * (2 + CARD)..][..2 + CARD];
        row[0] = 1.0;
        if let Some(c) = face {
            row[1] = 1.0;
            card(&mut row[2..], c);
        }
    });
    let r = v.rules();
    let rules = [
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
    ];
    for (o, b) in out[RULES..WALLS].iter_mut().zip(rules) {
        *o = flag(b);
    }
    for (row, (cell, side)) in out[WALLS..LEN - 1].chunks_exact_mut(5).zip(BORDER) {
        if let Some(w) = v.wall(cell, side) {
            row[0] = 1.0;
            row[1 + match w.label.comparison {
                Comparison::Greater => 0,
                Comparison::Less => 1,
                Comparison::Equal => 2,
            }] = 1.0;
            row[4] = w.label.value.min(20) as f32 / 20.0;
        }
    }
    out[LEN - 1] = flag(v.to_move() == me);
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
#[cfg_attr(arbiter_size, optimize(size))]
pub fn observation_tensor(obs: &Observation) -> Vec<f32> {
    let mut out = alloc::vec![0.0; LEN];
    write(obs, &mut out);
    out
}

/// [`observation_tensor`] of `player`'s observation of `g`, read from the state over `out`
/// (what [`Engine::observation_tensor_into`](crate::Engine::observation_tensor_into) calls).
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn write_state(g: &TripleTriad, player: Player, out: &mut [f32]) {
    write(&Seen(g, player), out);
}

/// The legal action ids, ascending without a sort: ids are card-major (`card * 9 + cell`).
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn legal_actions_into(g: &TripleTriad, out: &mut Vec<usize>) {
    out.clear();
    let p = &g.pos;
    if p.is_over() {
        return;
    }
    let empty = !p.occupied & FULL;
    let hand = p.hand(p.to_move);
    for id in bits(g.table.playable(p)) {
        let card = super::state::hand_index(hand, id) as usize;
        out.extend(bits(empty).map(|cell| card * 9 + cell as usize));
    }
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

    /// The state's own tensor (what the bindings write) is the tensor of the observation, for
    /// both players all game long, open and closed hands, walls, elements and twins included;
    /// so the state's path shows nothing that the observation hides.
    #[test]
    fn the_state_writes_the_tensor_of_the_observation() {
        use crate::{Engine, Rng};
        let mut rng = Rng::new(23);
        for round in 0..200 {
            let mut setup = crate::tripletriad::testing::random_setup(&mut rng);
            setup.rules.open = round % 2 == 0;
            let mut g = TripleTriad::new(&setup).unwrap();
            let mut row = alloc::vec![2.0; LEN];
            loop {
                for p in Player::BOTH {
                    g.observation_tensor_into(p, &mut row);
                    assert_eq!(row, observation_tensor(&g.observation(p)), "round {round}");
                }
                let mut ids = alloc::vec![99];
                g.legal_actions_into(&mut ids);
                let listed: Vec<usize> = g.legal_moves().iter().map(|&m| g.action_id(m).unwrap()).collect();
                assert_eq!(ids, listed, "card-major moves list their ids ascending");
                let Some(&mv) = g.legal_moves().get(rng.below(ids.len().max(1) as u64) as usize) else {
                    break;
                };
                g.play(mv).unwrap();
            }
        }
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

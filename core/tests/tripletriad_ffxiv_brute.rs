//! The FFXIV placement rules against a brute force written from `rules/triple-triad-ffxiv.md`
//! alone (section 4, the resolution order): a naive board of cards and owners, a naive
//! resolution and a naive minimax, on small positions with random cards and types, for every
//! mix of the rules that change placement (Same, Plus, Reverse, Fallen Ace, Ascension or
//! Descension, Order or Chaos with draws). The engine's moves, boards, perft and solver must agree.

use arbiter_core::tripletriad::{solve, Card, CardType, Move, MoveError, Placed, Player, Rules, Setup, TripleTriad};
use arbiter_core::{Game, Rng};

/// The rules of one mix, as the brute force reads them.
#[derive(Clone, Copy, Debug)]
struct Mix {
    same: bool,
    plus: bool,
    reverse: bool,
    fallen_ace: bool,
    /// +1 Ascension, -1 Descension, 0 neither.
    typed: i8,
    order: bool,
    chaos: bool,
}

impl Mix {
    fn all() -> Vec<Mix> {
        let mut out = Vec::new();
        for bits in 0..16 {
            for typed in [0, 1, -1] {
                for forced in 0..3 {
                    out.push(Mix {
                        same: bits & 1 != 0,
                        plus: bits & 2 != 0,
                        reverse: bits & 4 != 0,
                        fallen_ace: bits & 8 != 0,
                        typed,
                        order: forced == 1,
                        chaos: forced == 2,
                    });
                }
            }
        }
        out
    }

    fn rules(&self) -> Rules {
        Rules {
            same: self.same,
            plus: self.plus,
            // FFXIV chains whenever Same or Plus capture.
            combo: self.same || self.plus,
            reverse: self.reverse,
            fallen_ace: self.fallen_ace,
            ascension: self.typed > 0,
            descension: self.typed < 0,
            order: self.order,
            chaos: self.chaos,
            open: true,
            ..Rules::default()
        }
    }

    /// Section 4 step 4: higher takes lower (lower under Reverse); under Fallen Ace a 1 and an A
    /// facing each other go to the attacker.
    fn beats(&self, a: u8, b: u8) -> bool {
        if self.fallen_ace && ((a == 1 && b == 10) || (a == 10 && b == 1)) {
            return true;
        }
        if self.reverse {
            a < b
        } else {
            a > b
        }
    }
}

/// A naive position: each cell's card (an index in `cards`) and whether blue owns it.
#[derive(Clone, Debug)]
struct Naive {
    cards: Vec<Card>,
    board: [Option<(usize, bool)>; 9],
    /// Blue's hand, red's hand (indices in `cards`), in order.
    hands: [Vec<usize>; 2],
    blue_to_move: bool,
    /// The Chaos draws of the coming turns.
    draws: Vec<u8>,
}

fn neighbour(cell: usize, side: usize) -> Option<usize> {
    let (r, c) = (cell / 3, cell % 3);
    match side {
        0 => (r > 0).then(|| cell - 3),
        1 => (c < 2).then(|| cell + 1),
        2 => (r < 2).then(|| cell + 3),
        _ => (c > 0).then(|| cell - 1),
    }
}

impl Naive {
    fn mover(&self) -> usize {
        if self.blue_to_move {
            0
        } else {
            1
        }
    }

    fn over(&self) -> bool {
        self.board.iter().all(Option::is_some)
    }

    /// The moves the rules allow, as (hand index, cell), card-major.
    fn moves(&self, mix: &Mix) -> Vec<(usize, usize)> {
        if self.over() {
            return Vec::new();
        }
        let hand = self.hands[self.mover()].len();
        let cards: Vec<usize> = if mix.order {
            vec![0]
        } else if mix.chaos && !self.draws.is_empty() {
            vec![self.draws[0] as usize]
        } else {
            (0..hand).collect()
        };
        let mut out = Vec::new();
        for i in cards {
            for cell in 0..9 {
                if self.board[cell].is_none() {
                    out.push((i, cell));
                }
            }
        }
        out
    }

    fn play(&self, mix: &Mix, (index, cell): (usize, usize)) -> Naive {
        let mut n = self.clone();
        let m = n.mover();
        let blue = n.blue_to_move;
        let card = n.hands[m].remove(index);
        if !n.draws.is_empty() {
            n.draws.remove(0);
        }
        // Step 2: every typed card shows printed +/- its type's count before this placement.
        let count = |t: CardType| {
            self.board
                .iter()
                .flatten()
                .filter(|(k, _)| t != CardType::None && self.cards[*k].card_type == t)
                .count() as i8
        };
        let value = |k: usize, side: usize| {
            let c = &n.cards[k];
            let v = c.ranks[side] as i8 + mix.typed * count(c.card_type);
            v.clamp(1, 10) as u8
        };
        n.board[cell] = Some((card, blue));
        let facing = |s: usize| neighbour(cell, s).and_then(|nb| n.board[nb].map(|(k, owner)| (nb, k, owner)));
        let mut special = Vec::new();
        // Step 3: Same (two or more equal sides, own cards count) and Plus (a sum on two sides).
        if mix.same {
            let equal: Vec<(usize, bool)> = (0..4)
                .filter_map(|s| facing(s).filter(|&(_, k, _)| value(card, s) == value(k, (s + 2) % 4)))
                .map(|(nb, _, owner)| (nb, owner))
                .collect();
            if equal.len() >= 2 {
                special.extend(equal.iter().filter(|(_, o)| *o != blue).map(|(nb, _)| *nb));
            }
        }
        if mix.plus {
            let sums: Vec<Option<u8>> = (0..4)
                .map(|s| facing(s).map(|(_, k, _)| value(card, s) + value(k, (s + 2) % 4)))
                .collect();
            for s in 0..4 {
                if let (Some(sum), Some((nb, _, owner))) = (sums[s], facing(s)) {
                    if owner != blue && (0..4).any(|o| o != s && sums[o] == Some(sum)) {
                        special.push(nb);
                    }
                }
            }
        }
        // Step 4: the basic rule for the other opponent neighbours.
        let mut taken = special.clone();
        for s in 0..4 {
            if let Some((nb, k, owner)) = facing(s) {
                if owner != blue && !special.contains(&nb) && mix.beats(value(card, s), value(k, (s + 2) % 4)) {
                    taken.push(nb);
                }
            }
        }
        for &c in &taken {
            n.board[c].as_mut().unwrap().1 = blue;
        }
        // Step 5: Combo from the cards of step 3, by the basic condition, until nothing changes.
        let mut frontier = special;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &c in &frontier {
                let (k, _) = n.board[c].unwrap();
                for s in 0..4 {
                    let Some(nb) = neighbour(c, s) else { continue };
                    if let Some((o, owner)) = n.board[nb] {
                        if owner != blue && mix.beats(value(k, s), value(o, (s + 2) % 4)) && !next.contains(&nb) {
                            next.push(nb);
                        }
                    }
                }
            }
            for &c in &next {
                n.board[c].as_mut().unwrap().1 = blue;
            }
            frontier = next;
        }
        n.blue_to_move = !blue;
        n
    }

    /// The score of the player to move minus the opponent's.
    fn value(&self) -> i32 {
        let blue = self.board.iter().flatten().filter(|(_, b)| *b).count() + self.hands[0].len();
        let diff = 2 * blue as i32 - 10;
        if self.blue_to_move {
            diff
        } else {
            -diff
        }
    }

    fn minimax(&self, mix: &Mix) -> i32 {
        if self.over() {
            return self.value();
        }
        self.moves(mix)
            .into_iter()
            .map(|mv| -self.play(mix, mv).minimax(mix))
            .max()
            .unwrap()
    }

    fn perft(&self, mix: &Mix, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves(mix)
            .into_iter()
            .map(|mv| self.play(mix, mv).perft(mix, depth - 1))
            .sum()
    }

    fn owners(&self) -> Vec<Option<(String, bool)>> {
        self.board
            .iter()
            .map(|c| c.map(|(k, b)| (self.cards[k].name.clone(), b)))
            .collect()
    }
}

fn owners(g: &TripleTriad) -> Vec<Option<(String, bool)>> {
    (0..9)
        .map(|c| g.cell(c).map(|(card, p)| (card.name.clone(), p == Player::Blue)))
        .collect()
}

/// A random position with `empty` empty cells: ranks that meet often (equal sides, 1 and A),
/// two of the four types, Chaos draws for `drawn` of the coming turns.
fn position(rng: &mut Rng, mix: &Mix, empty: usize, drawn: usize) -> (Setup, Naive) {
    let rank = |rng: &mut Rng| [1, 1, 2, 5, 5, 9, 10, 10][rng.below(8) as usize];
    let cards: Vec<Card> = (0..10)
        .map(|i| {
            let mut c = Card::new(&format!("c{i}"), [rank(rng), rank(rng), rank(rng), rank(rng)]);
            c.card_type = [CardType::None, CardType::Primal, CardType::Primal, CardType::Scion][rng.below(4) as usize];
            c
        })
        .collect();
    let mut cells: Vec<usize> = (0..9).collect();
    rng.shuffle(&mut cells);
    let mut board = [None; 9];
    for (k, &cell) in cells[..9 - empty].iter().enumerate() {
        board[cell] = Some((k, rng.below(2) == 0));
    }
    let in_hand = empty + 1;
    let mover = in_hand.div_ceil(2);
    let blue_to_move = rng.below(2) == 0;
    let ids: Vec<usize> = (9 - empty..10).collect();
    let (first, second) = ids.split_at(mover);
    let hands = if blue_to_move {
        [first.to_vec(), second.to_vec()]
    } else {
        [second.to_vec(), first.to_vec()]
    };
    let mut draws = Vec::new();
    if mix.chaos {
        let mut held = [hands[0].len(), hands[1].len()];
        let mut who = if blue_to_move { 0 } else { 1 };
        for _ in 0..drawn.min(empty) {
            draws.push(rng.below(held[who] as u64) as u8);
            held[who] -= 1;
            who = 1 - who;
        }
    }
    let naive = Naive {
        cards: cards.clone(),
        board,
        hands,
        blue_to_move,
        draws: draws.clone(),
    };
    let mut setup = Setup::default().with_rules(mix.rules());
    setup.board = core::array::from_fn(|c| {
        board[c].map(|(k, blue)| Placed {
            card: cards[k].clone(),
            owner: if blue { Player::Blue } else { Player::Red },
        })
    });
    setup.hands.blue = naive.hands[0].iter().map(|&k| cards[k].clone()).collect();
    setup.hands.red = naive.hands[1].iter().map(|&k| cards[k].clone()).collect();
    setup.to_move = if blue_to_move { Player::Blue } else { Player::Red };
    setup.chaos_draws = draws;
    (setup, naive)
}

#[test]
fn every_placement_mix_agrees_with_a_brute_force() {
    let mut rng = Rng::new(39);
    for mix in Mix::all() {
        for round in 0..6 {
            let empty = 3 + round % 3;
            let full = mix.chaos && round % 2 == 0;
            let (setup, naive) = position(&mut rng, &mix, empty, if full { empty } else { round % 3 });
            let what = format!("{mix:?} round {round}: {setup:?}");
            let g = TripleTriad::new(&setup).unwrap_or_else(|e| panic!("{what}: {e}"));
            for depth in 1..=empty as u32 {
                assert_eq!(g.perft(depth), naive.perft(&mix, depth), "perft {depth}, {what}");
            }
            if !g.draws_missing() {
                let s = solve(&g);
                assert_eq!(s.value, naive.minimax(&mix), "solve, {what}");
                let best = s.best_move.unwrap();
                let after = naive.play(&mix, (best.card as usize, best.cell as usize));
                assert_eq!(-after.minimax(&mix), s.value, "best move {best}, {what}");
            }
            // A random line, move by move: the same moves, the same boards.
            let (mut g, mut n) = (g, naive);
            while !n.over() {
                let want = n.moves(&mix);
                let got: Vec<(usize, usize)> = g
                    .legal_moves()
                    .iter()
                    .map(|m| (m.card as usize, m.cell as usize))
                    .collect();
                assert_eq!(got, want, "legal moves, {what}");
                let mv = want[rng.below(want.len() as u64) as usize];
                g.play(Move {
                    card: mv.0 as u8,
                    cell: mv.1 as u8,
                })
                .unwrap();
                n = n.play(&mix, mv);
                assert_eq!(owners(&g), n.owners(), "after {mv:?}, {what}");
                // The ranks a card shows the next placement: its type's count is the board's.
                for (cell, slot) in n.board.iter().enumerate() {
                    let want = slot.map(|(k, _)| {
                        let c = &n.cards[k];
                        let count = n
                            .board
                            .iter()
                            .flatten()
                            .filter(|(o, _)| n.cards[*o].card_type == c.card_type)
                            .count();
                        let m = if c.card_type == CardType::None {
                            0
                        } else {
                            mix.typed * count as i8
                        };
                        c.ranks.map(|r| (r as i8 + m).clamp(1, 10) as u8)
                    });
                    assert_eq!(g.effective_ranks(cell as u8), want, "cell {cell} after {mv:?}, {what}");
                }
            }
        }
    }
}

/// Under Order and Chaos a move playing another card is refused with a clear error.
#[test]
fn order_and_chaos_refuse_other_cards() {
    let mut rng = Rng::new(7);
    for (order, chaos) in [(true, false), (false, true)] {
        let mix = Mix {
            same: false,
            plus: false,
            reverse: false,
            fallen_ace: false,
            typed: 0,
            order,
            chaos,
        };
        let (setup, naive) = position(&mut rng, &mix, 5, 5);
        let mut g = TripleTriad::new(&setup).unwrap();
        let (allowed, cell) = naive.moves(&mix)[0];
        let other = if allowed == 0 { 1 } else { 0 };
        let err = g
            .play(Move {
                card: other,
                cell: cell as u8,
            })
            .unwrap_err();
        assert_eq!(
            err,
            MoveError::NotPlayable {
                player: setup.to_move,
                index: other,
                must: allowed as u8
            }
        );
        assert!(g
            .play(Move {
                card: allowed as u8,
                cell: cell as u8
            })
            .is_ok());
    }
}

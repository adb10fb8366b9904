//! The expert: closed hands played by sampling the opponent's hidden cards and solving each sample.

use alloc::vec::Vec;

use super::board::{bits, FULL};
use super::card::Card;
use super::cards::ff8_cards;
use super::resolve::child;
use super::setup::{Hands, Setup};
use super::solve::{final_value, Solver};
use super::state::{Move, Observation, Position, Table, TripleTriad};
use crate::Rng;

/// Where the opponent's hidden cards may come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    cards: Vec<Card>,
}

impl Pool {
    /// The 110 Final Fantasy VIII cards, each once.
    pub fn ff8() -> Pool {
        Pool { cards: ff8_cards() }
    }

    /// A pool of `cards` (a card given twice may be drawn twice); `None` when empty.
    pub fn new(cards: Vec<Card>) -> Option<Pool> {
        (!cards.is_empty()).then_some(Pool { cards })
    }

    /// The cards of the pool.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// The pool less one copy of each card in sight.
    fn unseen(&self, obs: &Observation) -> Vec<Card> {
        let mut left = self.cards.clone();
        let board = obs.board.iter().flatten().map(|p| &p.card);
        for card in obs.hand.iter().chain(board).chain(obs.opponent_hand.iter().flatten()) {
            if let Some(i) = left.iter().position(|c| c == card) {
                left.swap_remove(i);
            }
        }
        left
    }
}

/// The expert's settings.
#[derive(Clone, Debug)]
pub struct Expert {
    pool: Pool,
    pub samples: u32,
    pub nodes: u64,
    pub shallow_samples: u32,
    pub clip: i8,
    pub exact_from: u32,
    pub horizon: u32,
}

/// What the expert decided and what it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move, `None` if it is not the observer's turn or the game is over.
    pub best: Option<Move>,
    /// Hands sampled for the opponent.
    pub samples: u32,
    /// Positions searched.
    pub nodes: u64,
}

impl Default for Expert {
    fn default() -> Expert {
        Expert {
            pool: Pool::ff8(),
            samples: 64,
            nodes: 40_000,
            shallow_samples: 32,
            clip: 2,
            exact_from: 7,
            horizon: 3,
        }
    }
}

impl Expert {
    /// The expert drawing hidden cards from `pool`.
    pub fn with_pool(self, pool: Pool) -> Expert {
        Expert { pool, ..self }
    }

    /// Thinks about the observer's move.
    pub fn think(&self, obs: &Observation, rng: &mut Rng) -> Thought {
        let mut thought = Thought {
            best: None,
            samples: 0,
            nodes: 0,
        };
        if obs.to_move != obs.player {
            return thought;
        }
        let me = obs.player;
        let mut setup = Setup {
            rules: obs.rules,
            elements: obs.elements,
            walls: obs.walls.clone(),
            board: obs.board.clone(),
            hands: Hands::default(),
            to_move: obs.to_move,
        };
        *setup.hands.get_mut(me) = obs.hand.clone();
        let hidden: Vec<usize> = (0..obs.opponent_hand.len())
            .filter(|&i| obs.opponent_hand[i].is_none())
            .collect();
        let placeholder = Card::new("?", [1, 1, 1, 1]);
        *setup.hands.get_mut(me.other()) = obs
            .opponent_hand
            .iter()
            .map(|c| c.clone().unwrap_or_else(|| placeholder.clone()))
            .collect();
        let Ok(world) = TripleTriad::new(&setup) else {
            return thought;
        };
        if world.pos.is_over() {
            return thought;
        }
        if hidden.is_empty() {
            let s = Solver::default().solve(&world);
            thought.best = s.best_move;
            thought.nodes = s.nodes;
            return thought;
        }
        let empty = !world.pos.occupied & FULL;
        // Identical cards in my hand play alike: the first stands for all.
        let distinct: Vec<u8> = (0..obs.hand.len())
            .filter(|&i| !obs.hand[..i].contains(&obs.hand[i]))
            .map(|i| i as u8)
            .collect();
        if distinct.len() == 1 && empty.count_ones() == 1 {
            thought.best = Some(Move {
                card: 0,
                cell: empty.trailing_zeros() as u8,
            });
            return thought;
        }
        let unseen = self.pool.unseen(obs);
        let exact = empty.count_ones() <= self.exact_from;
        let mut solver = exact.then(Solver::default);
        let mut totals = [0i32; 45];
        let max = if exact { self.samples } else { self.shallow_samples };
        while thought.samples < max.max(1) && (!exact || thought.nodes < self.nodes) {
            let cards = draw(&unseen, self.pool.cards(), hidden.len(), rng);
            let theirs = setup.hands.get_mut(me.other());
            for (&slot, card) in hidden.iter().zip(cards) {
                theirs[slot] = card;
            }
            let Ok(world) = TripleTriad::new(&setup) else {
                return thought;
            };
            let (t, pos) = (&*world.table, world.pos);
            if let Some(solver) = solver.as_mut() {
                solver.enter(&world);
            }
            let ids: Vec<u8> = bits(pos.hand(me)).collect();
            for &i in &distinct {
                for cell in bits(empty) {
                    let next = child(t, pos, ids[i as usize], cell);
                    let v = match solver.as_mut() {
                        _ if next.is_over() => -final_value(&next),
                        Some(s) => -s.search(t, &next, 1 - self.clip, self.clip - 1).0,
                        None => -shallow(t, &next, self.horizon - 1, -127, 127, &mut thought.nodes),
                    };
                    let v = if exact { v.clamp(-self.clip, self.clip) } else { v };
                    totals[i as usize * 9 + cell as usize] += v as i32;
                }
            }
            if let Some(s) = solver.as_ref() {
                thought.nodes += s.nodes();
            }
            thought.samples += 1;
        }
        let mut best: Vec<Move> = Vec::new();
        let mut top = i32::MIN;
        for &card in &distinct {
            for cell in bits(empty) {
                let v = totals[card as usize * 9 + cell as usize];
                if v > top {
                    top = v;
                    best.clear();
                }
                if v == top {
                    best.push(Move { card, cell });
                }
            }
        }
        thought.best = Some(best[rng.below(best.len() as u64) as usize]);
        thought
    }
}

/// `k` cards drawn without replacement from `unseen`, or with replacement from `pool` when too few
/// cards are left unseen (a pool that does not hold the cards in play).
fn draw(unseen: &[Card], pool: &[Card], k: usize, rng: &mut Rng) -> Vec<Card> {
    if unseen.len() < k {
        return (0..k)
            .map(|_| pool[rng.below(pool.len() as u64) as usize].clone())
            .collect();
    }
    let mut idx: Vec<usize> = (0..unseen.len()).collect();
    (0..k)
        .map(|i| {
            let j = i + rng.below((idx.len() - i) as u64) as usize;
            idx.swap(i, j);
            unseen[idx[i]].clone()
        })
        .collect()
}

/// Alpha-beta to `depth` plies, then the score difference for the player to move.
fn shallow(t: &Table, pos: &Position, depth: u32, alpha: i8, beta: i8, nodes: &mut u64) -> i8 {
    *nodes += 1;
    if depth == 0 || pos.is_over() {
        return final_value(pos);
    }
    let hand = pos.hand(pos.to_move);
    let mut best = -128i8;
    for card in bits(hand) {
        if hand & t.twins[card as usize] != 0 {
            continue;
        }
        for cell in bits(!pos.occupied & FULL) {
            let next = child(t, *pos, card, cell);
            let v = -shallow(t, &next, depth - 1, -beta, -alpha.max(best), nodes);
            if v > best {
                best = v;
                if best >= beta {
                    return best;
                }
            }
        }
    }
    best
}

//! The expert: closed hands played by sampling the opponent's hidden cards and solving each sample.

use alloc::vec::Vec;

use super::greedy::greedy;
use super::solve::{final_value, Solver};
use crate::tripletriad::round::board::{bits, FULL};
use crate::tripletriad::round::card::Card;
use crate::tripletriad::round::cards::ff8_cards;
use crate::tripletriad::round::position::{Position, RoundTable};
use crate::tripletriad::round::resolve::child;
use crate::tripletriad::round::state::{Move, Observation, TripleTriad};
use crate::{Budget, Game, Rng};

/// Where the opponent's hidden cards may come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    cards: Vec<Card>,
}

impl Pool {
    /// The 110 Final Fantasy VIII cards, each once.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn ff8() -> Pool {
        Pool { cards: ff8_cards() }
    }

    /// A pool of `cards` (a card given twice may be drawn twice); `None` when empty.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn new(cards: Vec<Card>) -> Option<Pool> {
        (!cards.is_empty()).then_some(Pool { cards })
    }

    /// The cards of the pool.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// The pool less one copy of each card in sight.
    #[cfg_attr(arbiter_size, optimize(size))]
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

/// The hidden-hand player: the `expert` level of [`ai`](crate::tripletriad::ai).
///
/// With hidden cards in the opponent's hand it fills them with cards drawn from a [`Pool`] (less
/// the cards in sight) and scores every move of its own against each such sample. From
/// [`exact_from`](Expert::exact_from) empty cells on, a sample is solved exactly (whether each move
/// wins, draws or loses against perfect play), and the move winning most often over the samples is
/// chosen; earlier, when exact solving costs too much, a shallow search counts cards a few plies
/// ahead. When it can see every card it solves the round exactly, as the `perfect` level does.
/// Sampling is the cost: [`samples`](Expert::samples) and [`nodes`](Expert::nodes) bound it.
///
/// ```
/// use arbiter_core::{Game, Rng};
/// use arbiter_core::tripletriad::{Expert, Setup, TripleTriad};
/// let mut g = TripleTriad::new(&Setup::random_ff8(3)).unwrap();
/// let expert = Expert { samples: 16, ..Expert::default() };
/// let mut rng = Rng::new(1);
/// while let Some(p) = g.to_move() {
///     let thought = expert.think(&g.observation(p), &mut rng);
///     g.play(thought.best.unwrap()).unwrap();
/// }
/// assert!(g.is_over());
/// ```
#[derive(Clone, Debug)]
pub struct Expert {
    /// Where the opponent's hidden cards are drawn from: the 110 FF8 cards by default, or for
    /// instance a deck's cards.
    pub pool: Pool,
    /// Most hands sampled for one move in the exact phase.
    pub samples: u32,
    /// Positions the exact phase may search for one move: once past it, no further sample is
    /// started (bounds the time: about 40 ms for the default on these machines).
    pub nodes: u64,
    /// Empty cells at and below which samples are solved exactly.
    pub exact_from: u32,
    /// Hands sampled for one move before the exact phase.
    pub shallow_samples: u32,
    /// Plies the shallow search looks ahead before the exact phase.
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
            nodes: 30_000,
            exact_from: 7,
            shallow_samples: 32,
            horizon: 3,
        }
    }
}

impl Expert {
    /// Chooses the observer's move from their observation, drawing samples from `rng`.
    pub fn think(&self, obs: &Observation, rng: &mut Rng) -> Thought {
        self.think_within(obs, rng, &mut Budget::default())
    }

    /// [`Expert::think`] within `budget` too: no sample is started once its node count is reached
    /// or its stop callback (asked before each sample) says so. The first sample always finishes
    /// (a few thousand positions at most), so the move is decided on one sample at least. With
    /// every card in sight it solves within the budget, as the `perfect` level does.
    pub fn think_within(&self, obs: &Observation, rng: &mut Rng, budget: &mut Budget<'_>) -> Thought {
        let mut thought = Thought {
            best: None,
            samples: 0,
            nodes: 0,
        };
        if obs.to_move != obs.player {
            return thought;
        }
        let me = obs.player;
        let mut setup = obs.believed_setup();
        let hidden: Vec<usize> = (0..obs.opponent_hand.len())
            .filter(|&i| obs.opponent_hand[i].is_none())
            .collect();
        let Ok(world) = TripleTriad::new(&setup) else {
            return thought;
        };
        if world.pos.is_over() {
            return thought;
        }
        if hidden.is_empty() {
            let (nodes, timed) = (budget.nodes, budget.timed);
            let mut stop = || budget.stopped();
            let budget = Budget {
                nodes,
                stop: Some(&mut stop),
                timed,
            };
            (thought.best, thought.nodes) = match Solver::default().solve_within(&world, budget) {
                Ok(s) => (s.best_move, s.nodes),
                Err(cut) => {
                    let moves = world.legal_moves();
                    (
                        cut.best_move.or_else(|| Some(greedy(&world, me, &moves, rng))),
                        cut.nodes,
                    )
                }
            };
            return thought;
        }
        let empty = !world.pos.occupied & FULL;
        // Identical cards in my hand play alike: the first stands for all. Order and Chaos leave
        // one card, whatever the hidden cards are.
        let playable = world.table.playable(&world.pos);
        let allowed: Vec<usize> = bits(world.pos.hand(me))
            .enumerate()
            .filter(|&(_, id)| playable >> id & 1 != 0)
            .map(|(i, _)| i)
            .collect();
        let distinct: Vec<u8> = allowed
            .iter()
            .enumerate()
            .filter(|&(k, &i)| !allowed[..k].iter().any(|&j| obs.hand[j] == obs.hand[i]))
            .map(|(_, &i)| i as u8)
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
        let nodes = budget.cap(if exact { self.nodes } else { u64::MAX });
        while thought.samples == 0 || (thought.samples < max && thought.nodes < nodes && !budget.stopped()) {
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
                    // Exactly: the sign only (a null window about a draw), which costs far less than
                    // the margin and measured no weaker.
                    let v = match solver.as_mut() {
                        _ if next.is_over() => -final_value(&next),
                        Some(s) => -s.search(t, &next, -1, 1).0,
                        None => -shallow(t, &next, self.horizon.max(1) - 1, -127, 127, &mut thought.nodes),
                    };
                    let v = if exact { v.signum() } else { v };
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
#[cfg_attr(arbiter_size, optimize(size))]
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
fn shallow(t: &RoundTable, pos: &Position, depth: u32, alpha: i8, beta: i8, nodes: &mut u64) -> i8 {
    *nodes += 1;
    if depth == 0 || pos.is_over() {
        return final_value(pos);
    }
    let playable = t.playable(pos);
    let mut best = -128i8;
    for card in bits(playable) {
        if playable & t.twins[card as usize] != 0 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::{ai, Player, Rules, Setup};
    use crate::Game;

    fn closed(seed: u64) -> TripleTriad {
        let rules = Rules {
            same: true,
            plus: true,
            combo: true,
            ..Rules::default()
        };
        TripleTriad::new(&Setup::random_ff8(seed).with_rules(rules)).unwrap()
    }

    #[test]
    fn the_choice_depends_on_the_observation_only() {
        // Two rounds that differ only in Red's hidden hand look the same to Blue.
        for seed in 0..6 {
            let a = closed(seed);
            let mut setup = a.setup();
            setup.to_move = Player::Blue;
            let a = TripleTriad::new(&setup).unwrap();
            setup.hands.red = Setup::random_ff8(seed + 100).hands.red;
            let b = TripleTriad::new(&setup).unwrap();
            let (oa, ob) = (a.observation(Player::Blue), b.observation(Player::Blue));
            assert_eq!(oa, ob);
            let expert = Expert::default();
            assert_eq!(
                expert.think(&oa, &mut Rng::new(seed)),
                expert.think(&ob, &mut Rng::new(seed))
            );
        }
    }

    #[test]
    fn it_plays_legal_moves_within_its_budget_and_beats_greedy() {
        let expert = Expert::default();
        let (mut wins, mut losses) = (0, 0);
        for seed in 0..20 {
            for expert_plays in Player::BOTH {
                let mut g = closed(seed);
                let mut rng = Rng::new(seed);
                while let Some(p) = g.to_move() {
                    let obs = g.observation(p);
                    let mv = if p == expert_plays {
                        let t = expert.think(&obs, &mut rng);
                        assert!(t.samples <= expert.samples.max(expert.shallow_samples));
                        t.best.unwrap()
                    } else {
                        ai::choose(&obs, ai::Level::Greedy, &mut rng).unwrap()
                    };
                    g.play(mv).unwrap();
                }
                match g.outcome().unwrap().winner() {
                    Some(w) if w == expert_plays => wins += 1,
                    Some(_) => losses += 1,
                    None => {}
                }
            }
        }
        // Seeded: 40 fixed games, in which the expert (about 80 % of decisive games over
        // thousands) must win clearly more than it loses.
        assert!(wins > 2 * losses, "{wins} wins, {losses} losses");
    }

    /// Under Order and Chaos (draws known, a twin of the drawn card earlier in the hand) the
    /// expert and every level play only the card the rule allows, closed hands or open.
    #[test]
    fn every_level_plays_the_allowed_card_under_order_and_chaos() {
        for seed in 0..4 {
            for (order, chaos) in [(true, false), (false, true)] {
                let mut setup = closed(seed).setup();
                setup.rules.order = order;
                setup.rules.chaos = chaos;
                setup.rules.open = seed % 2 == 0;
                setup.hands.blue[2] = setup.hands.blue[0].clone();
                setup.hands.red[3] = setup.hands.red[1].clone();
                if chaos {
                    setup.chaos_draws = alloc::vec![2, 3, 1, 0, 0, 2, 1, 0, 0];
                }
                let mut g = TripleTriad::new(&setup).unwrap();
                let mut rng = Rng::new(seed);
                while let Some(p) = g.to_move() {
                    let obs = g.observation(p);
                    let legal = g.legal_moves();
                    let expert = Expert::default().think(&obs, &mut rng).best.unwrap();
                    assert!(legal.contains(&expert), "expert {expert}, order {order}");
                    for level in ai::Level::ALL {
                        let mv = ai::choose(&obs, level, &mut rng).unwrap();
                        assert!(legal.contains(&mv), "{level:?} {mv}, order {order}");
                    }
                    g.play(legal[rng.below(legal.len() as u64) as usize]).unwrap();
                }
            }
        }
    }

    #[test]
    fn nothing_to_think_about_off_turn_or_at_the_end() {
        let mut g = closed(4);
        let waiting = g.to_move().unwrap().other();
        assert_eq!(
            Expert::default().think(&g.observation(waiting), &mut Rng::new(1)).best,
            None
        );
        while let Some(mv) = g.legal_moves().first().copied() {
            g.play(mv).unwrap();
        }
        assert_eq!(
            Expert::default()
                .think(&g.observation(Player::Blue), &mut Rng::new(1))
                .best,
            None
        );
    }

    #[test]
    fn a_pool_is_never_empty() {
        assert!(Pool::new(Vec::new()).is_none());
        assert_eq!(Pool::ff8().cards().len(), 110);
    }
}

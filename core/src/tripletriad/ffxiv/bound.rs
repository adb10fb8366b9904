//! The deck builder's bound on the decks it has not examined (issue #39 item 5).
//!
//! **The relaxed round.** The player holds every card left to try at once and places any five of
//! them (any four when the NPC starts), one at a time, choosing each as it goes; the NPC's hand,
//! its moves and the rules are the round's. Every deck made of those cards plays a subset of the
//! relaxed player's moves from every position, the NPC's moves being the same (its hand, the
//! empty cells, the first card under Order), and the end is scored alike (the board, plus the
//! card left in hand when the NPC started). So by induction on the moves left, the relaxed value
//! is at least every such deck's, against a perfect NPC (minimax) as against a random one (the
//! mean over the same moves). The placement reads only the board and the card placed, so this
//! holds under Same, Plus, Combo, Reverse, Fallen Ace, Ascension and Descension alike. It does
//! not hold under Chaos (the draw's odds depend on the hand's size) nor Swap (which of the
//! player's cards is given depends on the deck): there the bound is the trivial one, 1.
//!
//! **What is computed.** Against a perfect NPC, whether the relaxed player wins (an AND-OR
//! search: the player needs one winning move, every NPC move must leave a win), memoised by
//! position within the round. A round counts for the bound only if that is a win. Against a
//! random NPC the relaxed expectimax would cost more than the decks it bounds (one deck against
//! Master Mogzin already takes minutes): the bound stays 1 there.

use alloc::vec;
use alloc::vec::Vec;
use arrayvec::ArrayVec;

use super::cards::FfxivCard;
use super::odds::mix;
use crate::tripletriad::round::board::{bits, FULL};
use crate::tripletriad::round::position::{Player, Position, RoundTable, HAND_IDS};
use crate::tripletriad::round::resolve::child;
use crate::tripletriad::{Rules, TripleTriad};

/// The most cards the relaxed player may hold: the table's sixteen ids less the NPC's five.
pub(crate) const MOST_CARDS: usize = 11;

/// Bits of the memo: 2^21 slots of 16 bytes (32 MiB).
const MEMO_BITS: u32 = 21;

/// Positions with at least this many empty cells are memoised; below, recomputing is cheaper
/// than a probe.
const MEMO_MIN_EMPTY: u32 = 3;

/// Where the round's number sits in a memo key (below it the position's 54 bits), and how many
/// rounds fit before a clear.
const EPOCH_SHIFT: u32 = 54;

/// A memoised position: its key (0 = empty), whether the player wins, and the move that showed
/// it (the player's winning move, the NPC's refutation) as `card << 4 | cell`.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    won: bool,
    proof: u8,
}

/// Whether the bound applies to rounds under `rules` (see the module's comment).
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn applies(rules: Rules) -> bool {
    !rules.chaos && !rules.swap
}

/// Solves relaxed rounds, keeping its memo between them.
pub(crate) struct Relaxation {
    memo: Vec<Slot>,
    epoch: u64,
    /// `history[card][cell]`: how often (weighted to the top of the tree) a move settled a
    /// position; tried first next time.
    history: [[u32; 9]; 16],
    /// The caller asked to stop: what the search returns from then on means nothing.
    halted: bool,
    pub nodes: u64,
}

/// How many positions pass between two questions to the stop callback.
const POLL: u64 = 1 << 16;

impl Relaxation {
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn new() -> Relaxation {
        Relaxation {
            memo: Vec::new(),
            epoch: 0,
            history: [[0; 9]; 16],
            halted: false,
            nodes: 0,
        }
    }

    /// Whether the player, holding all of `cards` (distinct, five to [`MOST_CARDS`]) in place of
    /// its hand in `round` (a round at its start, the NPC's hand and the rules kept), wins
    /// against a perfect NPC: if not, no deck of `cards` wins `round`'s game. `None` if `stop`,
    /// asked now and then, said to stop.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn wins(
        &mut self,
        round: &TripleTriad,
        cards: &[&FfxivCard],
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<bool> {
        let t = &*round.table;
        debug_assert!(applies(t.rules) && (5..=MOST_CARDS).contains(&cards.len()));
        debug_assert_eq!(round.pos.occupied, 0, "a round at its start");
        // Ids 0-4 and 10 on are the player's, 5-9 the NPC's as in the round (its order kept).
        let mut all: Vec<_> = cards[..5].iter().map(|c| c.card()).collect();
        all.extend(t.cards[5..10].iter().cloned());
        all.extend(cards[5..].iter().map(|c| c.card()));
        let held = (1u16 << all.len()).wrapping_sub(1);
        let table = RoundTable::new(t.rules, all, t.elements, t.walls.clone());
        if self.memo.is_empty() {
            self.memo = vec![Slot::default(); 1 << MEMO_BITS];
        }
        self.epoch += 1;
        if self.epoch == 1 << (64 - EPOCH_SHIFT) {
            self.memo.fill(Slot::default());
            self.epoch = 1;
        }
        let start = Position {
            cells: 0,
            occupied: 0,
            blue: 0,
            hands: held,
            to_move: round.pos.to_move,
        };
        // The NPC starting, the player ends with a card in hand: it counts for the player.
        let kept = u32::from(round.pos.to_move == Player::Red);
        self.halted = false;
        let won = self.win(&table, start, kept, stop);
        (!self.halted).then_some(won)
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn win(&mut self, t: &RoundTable, pos: Position, kept: u32, stop: &mut dyn FnMut() -> bool) -> bool {
        let empty = (!pos.occupied & FULL).count_ones();
        if empty == 0 {
            return (pos.blue & FULL).count_ones() + kept > 5;
        }
        self.nodes += 1;
        if self.nodes % POLL == 0 {
            self.halted |= stop();
        }
        if self.halted {
            return false;
        }
        let mover = pos.to_move;
        let cards = match mover {
            Player::Blue => pos.hands & !HAND_IDS[Player::Red as usize],
            Player::Red => t.playable(&pos),
        };
        if empty == 1 {
            let cell = (!pos.occupied & FULL).trailing_zeros() as u8;
            let mut won = bits(cards).map(|card| (child(t, pos, card, cell).blue & FULL).count_ones() + kept > 5);
            return match mover {
                Player::Blue => won.any(|w| w),
                Player::Red => won.all(|w| w),
            };
        }
        let memo = if empty >= MEMO_MIN_EMPTY {
            // The cards on the board name the position (the hands are the cards not there, the
            // mover follows from their number).
            let nibbles = bits(pos.occupied).fold(0u64, |m, c| m | 0xF << (4 * c));
            let key = (pos.cells & nibbles) | u64::from(pos.occupied) << 36 | u64::from(pos.blue & FULL) << 45;
            let key = key | self.epoch << EPOCH_SHIFT;
            let slot = (mix(key) & ((1 << MEMO_BITS) - 1)) as usize;
            Some((key, slot))
        } else {
            None
        };
        let hint = match memo.map(|(key, slot)| (key, self.memo[slot])) {
            Some((key, found)) if found.key == key => return found.won,
            Some((_, found)) => found.proof,
            None => 0xFF,
        };
        // The player wins by one winning move; the NPC refutes by one move that is not.
        let wanted = mover == Player::Blue;
        // The move that settled the slot's last position often settles this one: tried before
        // the others are even placed.
        let (card, cell) = (hint >> 4, hint & 0xF);
        let hinted = hint != 0xFF && cards & 1 << card != 0 && !pos.occupied & FULL & 1 << cell != 0;
        if hinted && self.win(t, child(t, pos, card, cell), kept, stop) == wanted {
            self.settle(memo, wanted, hint, empty);
            return wanted;
        }
        let mut kids: ArrayVec<(u32, u8, Position), { MOST_CARDS * 9 }> = ArrayVec::new();
        for card in bits(cards) {
            for cell in bits(!pos.occupied & FULL) {
                let kid = child(t, pos, card, cell);
                let mine = if mover == Player::Blue { kid.blue } else { !kid.blue };
                let mv = card << 4 | cell;
                if hinted && mv == hint {
                    continue; // tried above
                }
                // The moves taking the most first, then the history.
                let order = (mine & kid.occupied).count_ones() << 24
                    | self.history[card as usize][cell as usize].min(0xFF_FFFF);
                kids.push((order, mv, kid));
            }
        }
        kids.sort_unstable_by_key(|&(order, mv, _)| (core::cmp::Reverse(order), mv));
        let proof = kids
            .iter()
            .find(|&&(_, _, kid)| self.win(t, kid, kept, stop) == wanted)
            .map(|k| k.1);
        let won = proof.is_some() == wanted;
        self.settle(memo, won, proof.unwrap_or(0xFF), empty);
        won
    }

    /// Keeps what a search of a position with `empty` empty cells found: whether the player
    /// wins, in the memo (if the position has a slot) with the move that showed it, if any
    /// (`0xFF` if none), and credits that move.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn settle(&mut self, memo: Option<(u64, usize)>, won: bool, proof: u8, empty: u32) {
        if self.halted {
            return;
        }
        if proof != 0xFF {
            self.history[(proof >> 4) as usize][(proof & 0xF) as usize] += empty * empty;
        }
        if let Some((key, slot)) = memo {
            self.memo[slot] = Slot { key, won, proof };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::ffxiv::odds::{rounds, Judge, Opponent};
    use crate::tripletriad::ffxiv::{card_by_id, npc};

    /// Brute force over small collections: in every round of NPCs under the basic rule, Same +
    /// Plus, Reverse + Plus, Ascension + Fallen Ace and Order, the relaxed player wins whenever
    /// some deck of the collection wins (each deck solved apart), and holding exactly a deck's
    /// five cards it wins exactly when that deck does.
    #[test]
    fn the_relaxed_round_is_won_whenever_a_deck_of_its_cards_is() {
        let collection: Vec<&FfxivCard> = [1, 2, 3, 21, 22, 23].map(|id| card_by_id(id).unwrap()).to_vec();
        let decks: Vec<[&FfxivCard; 5]> = (0..6)
            .map(|skip| {
                let deck: Vec<_> = (0..6).filter(|&i| i != skip).map(|i| collection[i]).collect();
                deck.try_into().unwrap()
            })
            .collect();
        let (mut judge, mut relaxation) = (Judge::new(Opponent::Perfect), Relaxation::new());
        let (mut lost, mut won) = (0, 0);
        for name in ["Triple Triad Master", "Klynthota", "Gyoei", "Hachinan", "Marielle"] {
            let npc = npc(name).unwrap();
            assert!(applies(npc.round_rules()), "{name}");
            for hand in npc.hands() {
                for first in [Player::Blue, Player::Red] {
                    let per_deck: Vec<_> = decks
                        .iter()
                        .map(|deck| rounds(deck, &hand, npc.round_rules(), first).unwrap())
                        .collect();
                    // Under Order the NPC's orders thinned out: every fifteenth of the 120.
                    for r in (0..per_deck[0].len()).step_by(if per_deck[0].len() > 1 { 15 } else { 1 }) {
                        let mut any = false;
                        for (deck, all) in decks.iter().zip(&per_deck) {
                            let game = &all[r].game;
                            let wins = judge.win_units(game, 1) == 1;
                            assert_eq!(
                                relaxation.wins(game, deck, &mut || false),
                                Some(wins),
                                "{name} {first:?} {r}"
                            );
                            any |= wins;
                        }
                        let relaxed = relaxation
                            .wins(&per_deck[0][r].game, &collection, &mut || false)
                            .unwrap();
                        assert!(relaxed || !any, "{name} {first:?} round {r}: a deck wins");
                        lost += usize::from(!relaxed);
                        won += usize::from(any);
                    }
                }
            }
        }
        assert!(
            lost > 0 && won > 0,
            "a test that sees both outcomes: {lost} lost, {won} won"
        );
    }
}

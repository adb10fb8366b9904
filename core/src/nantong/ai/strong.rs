//! The strong player: discards by distance to a winning hand and by how many unseen cards would
//! shorten it, weighs the score (concealed triplets, Piao Hu), claims what shortens the hand,
//! and defends against a ready opponent, all from one [`Observation`].

use alloc::vec::Vec;

use super::distance::{piao_shanten, Distance};
use crate::nantong::action::Action;
use crate::nantong::card::{Counts, Kind, KINDS};
use crate::nantong::observation::Observation;
use crate::nantong::score::concealed_base;
use crate::Rng;

/// What the observer knows of the table, counted.
struct Knowledge {
    hand: Counts,
    /// Groups the observer counts as made: in the full game those it declared (a Tiandi Hezi is
    /// not one); a smaller deal's hand asks for fewer.
    melds: usize,
    /// Copies of each kind the observer cannot see.
    unseen: Counts,
    /// How likely discarding each kind hands a ready opponent the deal, in hundredths of a win.
    danger: [i32; KINDS],
    indicators: [Kind; 2],
    distance: Distance,
}

fn less(c: &Counts, k: Kind, n: u8) -> Counts {
    let mut c = *c;
    c[k.index()] = c[k.index()].saturating_sub(n);
    c
}

impl Knowledge {
    fn new(obs: &Observation) -> Knowledge {
        let me = obs.seat.index();
        let mut hand = [0u8; KINDS];
        for k in &obs.hand {
            hand[k.index()] = hand[k.index()].saturating_add(1);
        }
        let mut seen = hand;
        for m in obs.melds.iter().flatten() {
            seen[m.card.index()] = seen[m.card.index()].saturating_add(m.kind.cards());
        }
        let mut discarded = [false; KINDS];
        for &(_, k) in &obs.discards {
            seen[k.index()] = seen[k.index()].saturating_add(1);
            discarded[k.index()] = true;
        }
        for k in obs.indicators {
            seen[k.index()] = seen[k.index()].saturating_add(1);
        }
        let unseen = seen.map(|n| 4u8.saturating_sub(n));
        // Only ready opponents are defended against. Who discards a winning card pays nothing
        // more than the others, so folding against a hand that may be far from winning gives
        // up the player's own wins: against `basic`, defending as the stock runs low cost 4.5
        // points a deal (+35.5 against +39.9 over the same 3,000 deals). A ready hand is
        // locked and waits on the same kinds all deal (ready is declared at opening), so a kind
        // discarded since without it winning is no wait of it.
        let ready = (0..3).filter(|&j| j != me && obs.ready[j]).count() as i32;
        let danger = core::array::from_fn(|i| {
            let risk = if discarded[i] {
                0
            } else if unseen[i] == 0 {
                // No copy out: no pair or triplet wait on it, so only a sequence's.
                if i >= 27 {
                    0
                } else {
                    40
                }
            } else {
                100
            };
            ready * risk
        });
        Knowledge {
            hand,
            // The hand of a seat asked to act holds 3 cards a group still to make and one (two
            // when it must discard) for the pair, in a deal of any size: in the full game this
            // is 7 less the groups declared.
            melds: 7usize.saturating_sub(obs.hand.len().saturating_sub(1) / 3),
            unseen,
            danger,
            indicators: obs.indicators,
            distance: Distance::default(),
        }
    }

    /// How good keeping `hand` (one card short) is: closeness, unseen cards that help, the
    /// concealed triplets' base hu, a short way to Piao Hu; less the danger of the card let go.
    fn worth(&mut self, hand: &Counts, melds: usize, let_go: Kind) -> i32 {
        let (shanten, accepted) = self.distance.acceptance(hand, melds, &self.unseen);
        // A card that helps weighs 1, a step closer 200: closeness decides first. Weighing the
        // cards more lets breadth win over closeness (at 8 a card the player fell from +40 to
        // +7 points a deal against `basic`; at 4, +39.9; at 2, +41.6; at 1, +41.8).
        let mut worth = -200 * shanten + accepted as i32 + concealed_base(hand, self.indicators) as i32;
        // Piao Hu doubles a total at least, four times without a pong.
        if piao_shanten(hand, melds) <= shanten {
            worth += 60;
        }
        // The further from winning, the more a discard should be safe rather than useful.
        let care = match shanten {
            i32::MIN..=0 => 1,
            1 => 3,
            _ => 6,
        };
        worth -= care * self.danger[let_go.index()];
        worth
    }

    /// The least distance after letting one card go from `hand`.
    fn best_after_discard(&mut self, hand: &Counts, melds: usize) -> i32 {
        (0..KINDS)
            .filter(|&k| hand[k] > 0)
            .map(|k| {
                let mut h = *hand;
                h[k] -= 1;
                self.distance.shanten(&h, melds)
            })
            .min()
            .unwrap_or(i32::MAX)
    }
}

/// The strong player's action for the observer, who must be the seat to act: one of the actions
/// the observation lists (`None` only when it lists none that parse), deterministic for `rng`'s
/// state, which only breaks exact ties.
///
/// ```
/// use arbiter_core::{Game, Rng};
/// use arbiter_core::nantong::{ai, Nantong};
/// let mut g = Nantong::new(3);
/// let mut rng = Rng::new(3);
/// while let Some(seat) = g.to_move() {
///     let a = ai::strong(&g.observation(seat), &mut rng).unwrap();
///     g.play(a).unwrap();
/// }
/// assert!(g.score().is_some());
/// ```
pub fn strong(obs: &Observation, rng: &mut Rng) -> Option<Action> {
    let actions = super::listed(obs)?;
    let has = |a: Action| actions.contains(&a);
    if let Some(a) = super::obvious(&actions) {
        return Some(a);
    }
    let mut t = Knowledge::new(obs);
    // A hand no deal gives (more than 23 cards, five of a kind) gets the simple answer: the
    // searches below are sized for real hands.
    if obs.hand.len() > 23 || t.hand.iter().any(|&n| n > 4) {
        return super::choose(obs, rng);
    }
    let (hand, melds) = (t.hand, t.melds);
    if has(Action::Ready) || has(Action::Finish) {
        // Ready doubles the total but locks the hand: worth it with two live cards to wait on.
        let (_, waits) = t.distance.acceptance(&hand, melds, &t.unseen);
        return Some(if has(Action::Ready) && waits >= 2 || !has(Action::Finish) {
            Action::Ready
        } else {
            Action::Finish
        });
    }
    if has(Action::Pong) || has(Action::Kong) {
        return Some(claim(&mut t, obs.claim, &actions));
    }
    if has(Action::Pass) {
        return Some(Action::Pass);
    }
    let now = t.best_after_discard(&hand, melds);
    for &a in &actions {
        let after = match a {
            Action::ConcealedKong(k) => t.distance.shanten(&less(&hand, k, 4), melds + 1),
            Action::AddKong(k) => t.distance.shanten(&less(&hand, k, 1), melds),
            _ => continue,
        };
        // A kong draws a replacement: take it when the hand is no further from winning.
        if after <= now {
            return Some(a);
        }
    }
    let mut best: Vec<(i32, Action)> = Vec::new();
    for &a in &actions {
        let Action::Discard(k) = a else { continue };
        let worth = t.worth(&less(&hand, k, 1), melds, k);
        match best.first() {
            Some(&(w, _)) if w > worth => {}
            Some(&(w, _)) if w == worth => best.push((worth, a)),
            _ => best = alloc::vec![(worth, a)],
        }
    }
    match best.len() {
        0 => actions.first().copied(),
        n => Some(best[rng.below(n as u64) as usize].1),
    }
}

/// Pong, kong or pass on `card`: a kong when the hand is no further from winning without the
/// three, a pong when it gets closer (or as close, for an old general, whose groups double).
fn claim(t: &mut Knowledge, card: Option<Kind>, actions: &[Action]) -> Action {
    let has = |a: Action| actions.contains(&a);
    let pass = if has(Action::Pass) { Action::Pass } else { actions[0] };
    let Some(card) = card else { return pass };
    let (hand, melds) = (t.hand, t.melds);
    let now = t.distance.shanten(&hand, melds);
    if has(Action::Kong) && t.distance.shanten(&less(&hand, card, 3), melds + 1) <= now {
        return Action::Kong;
    }
    if has(Action::Pong) {
        let after = t.best_after_discard(&less(&hand, card, 2), melds + 1);
        if after < now || (after == now && card.is_old_general()) {
            return Action::Pong;
        }
    }
    pass
}

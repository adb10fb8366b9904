//! The observation tensor: what one seat sees, as a fixed-size vector of numbers for learning
//! agents. It is built from an [`Observation`] alone, so other hands and the stock order cannot
//! leak into it. Seats are counted from the observer: 0 is the observer, 1 the next seat to play,
//! 2 the one after.
//!
//! Layout ([`LEN`] = 733 numbers, all in 0..=1; kinds in code order `1m`..`9m`, `1s`..`9s`,
//! `1c`..`9c`, `T`, `W`, `R`):
//!
//! | offset | size | what |
//! |---|---|---|
//! | 0 | 30 | the observer's concealed cards: copies of each kind / 4 |
//! | 30 | 3 × 6 × 30 | each seat's melds, by type (pong, exposed kong, concealed kong, opening four, opening triple, hezi) and kind: how many / 4 |
//! | 570 | 3 × 30 | each seat's discards still on the table: copies of each kind / 4 |
//! | 660 | 30 | the indicators: copies of each kind / 2 |
//! | 690 | 1 | cards in the stock / 120 |
//! | 691 | 3 | each seat is ready |
//! | 694 | 3 | each seat's concealed cards / 23 |
//! | 697 | 3 | the dealer (one-hot by seat) |
//! | 700 | 30 | the card of a claim question put to the observer (one-hot; zeros otherwise) |
//! | 730 | 3 | who acts (a claim window's answers included): the observer, another seat, nobody (one-hot) |

use alloc::vec::Vec;

use super::card::KINDS;
use super::observation::{Observation, Sight};
use super::score::MeldType;
use super::seat::Seat;

/// The tensor's length.
pub const LEN: usize = KINDS + 3 * 6 * KINDS + 3 * KINDS + KINDS + 1 + 3 + 3 + 3 + KINDS + 3;

/// The observation as numbers (layout in the module docs).
///
/// ```
/// use arbiter_core::Game;
/// use arbiter_core::nantong::{tensor, Nantong};
/// let g = Nantong::new(1);
/// let t = tensor::observation_tensor(&g.observation(g.dealer().next()));
/// assert_eq!(t.len(), tensor::LEN);
/// assert_eq!(t[..30].iter().sum::<f32>() * 4.0, 22.0); // a non-dealer holds 22 cards
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn observation_tensor(obs: &Observation) -> Vec<f32> {
    let mut out = alloc::vec![0.0f32; LEN];
    write(&Sight::of(obs), &mut out);
    out
}

/// [`observation_tensor`] over `out` ([`LEN`] numbers), from what the observer sees (read from
/// an observation, or borrowed from the state by the engine's tensor without copying it).
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn write(obs: &Sight<'_>, out: &mut [f32]) {
    assert_eq!(out.len(), LEN, "a Nantong tensor has {LEN} numbers");
    out.fill(0.0);
    let me = obs.seat.index();
    let rel = |s: Seat| (s.index() + 3 - me) % 3;
    let bump = |out: &mut [f32], at: usize, by: f32| out[at] = (out[at] + by).min(1.0);
    for (x, &n) in out.iter_mut().zip(&obs.hand) {
        *x = (f32::from(n) * 0.25).min(1.0);
    }
    for (seat, melds) in Seat::ALL.iter().zip(obs.melds) {
        for m in melds {
            let kind = obs.meld_kind(*seat, m);
            let t = MeldType::ALL.iter().position(|&t| t == kind).unwrap_or(0);
            bump(out, KINDS + (rel(*seat) * 6 + t) * KINDS + m.card.index(), 0.25);
        }
    }
    let discards = KINDS + 3 * 6 * KINDS;
    for &(seat, k) in obs.discards {
        bump(out, discards + rel(seat) * KINDS + k.index(), 0.25);
    }
    let indicators = discards + 3 * KINDS;
    for k in obs.indicators {
        bump(out, indicators + k.index(), 0.5);
    }
    let mut at = indicators + KINDS;
    out[at] = (obs.stock as f32 / 120.0).min(1.0);
    at += 1;
    for seat in Seat::ALL {
        out[at + rel(seat)] = if obs.ready[seat.index()] { 1.0 } else { 0.0 };
        out[at + 3 + rel(seat)] = (obs.hand_sizes[seat.index()] as f32 / 23.0).min(1.0);
    }
    at += 6;
    out[at + rel(obs.dealer)] = 1.0;
    at += 3;
    if let Some(card) = obs.claim.filter(|_| obs.to_act == Some(obs.seat)) {
        out[at + card.index()] = 1.0;
    }
    at += KINDS;
    out[at + obs.to_act.map_or(2, |s| if s == obs.seat { 0 } else { 1 })] = 1.0;
    debug_assert_eq!(at + 3, LEN);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nantong::Nantong;
    use crate::Game;

    #[test]
    fn other_hands_and_the_stock_order_do_not_change_the_tensor() {
        let g = Nantong::new(11);
        let dealer = g.dealer();
        let seen = |g: &Nantong| observation_tensor(&g.observation(dealer));
        // The deck as dealt: the dealer's 23 cards, the other seats' 22 each, the indicators, the
        // stock. Reversing what the dealer cannot see gives another deal that looks the same.
        let mut deck = g.deck().to_vec();
        deck[23..67].reverse();
        deck[69..].reverse();
        let other = Nantong::deal(&deck, dealer).unwrap();
        assert_ne!(other.observation(dealer.next()), g.observation(dealer.next()));
        assert_eq!(seen(&other), seen(&g));
        // The dealer's own cards do show.
        deck.swap(0, 30);
        let mine = Nantong::deal(&deck, dealer).unwrap();
        assert_ne!(seen(&mine), seen(&g));
    }

    /// The engine's tensor, read from the state without an observation, is the tensor of each
    /// seat's observation all deal long, a kong being robbed included.
    #[test]
    fn the_engines_tensor_is_the_observations() {
        use crate::nantong::Phase;
        use crate::Engine;
        let (mut row, mut robbing) = (alloc::vec![0.5; LEN], 0);
        for seed in 0..300 {
            let mut g = Nantong::new(seed);
            let mut rng = crate::Rng::new(seed);
            loop {
                robbing += usize::from(matches!(g.phase(), Phase::RobKong { .. }));
                for s in Seat::ALL {
                    g.observation_tensor_into(s, &mut row);
                    assert_eq!(row, observation_tensor(&g.observation(s)), "seed {seed}");
                }
                let legal = g.legal_moves();
                if legal.is_empty() {
                    break;
                }
                g.play(legal[rng.below(legal.len() as u64) as usize]).unwrap();
            }
        }
        assert!(robbing > 0, "no kong was robbed");
    }

    #[test]
    fn a_whole_deal_stays_in_range() {
        let mut g = Nantong::new(5);
        let mut rng = crate::Rng::new(5);
        while let Some(seat) = g.to_move() {
            for s in Seat::ALL {
                let t = observation_tensor(&g.observation(s));
                assert_eq!(t.len(), LEN);
                assert!(t.iter().all(|&x| (0.0..=1.0).contains(&x)));
            }
            let a = crate::nantong::ai::choose(&g.observation(seat), &mut rng).unwrap();
            g.play(a).unwrap();
        }
    }
}

//! What one seat may see of a deal, and how it is taken from the state.

use alloc::vec::Vec;

use super::card::{Counts, Kind, KINDS};
use super::score::{Meld, MeldType};
use super::seat::Seat;
use super::state::{Event, Nantong, Phase};

/// What one seat may see: its own hand, every meld, the discards, the indicators, the stock size,
/// ready flags and hand sizes — never another hand, the stock order, or anything that depends on
/// them.
///
/// That includes who acts: after a discard (or an added kong) every other seat is asked in turn,
/// whatever it holds, so the turns of the claim window are the same for every deal. Only the
/// seat asked sees the question's card (`claim`) and its answers (`actions`); the other seats
/// see whose answer is awaited. What the last action did shows in `last_event`, a drawn card
/// only to its drawer.
///
/// ```
/// use arbiter_core::Game;
/// use arbiter_core::nantong::{Nantong, Seat};
/// let g = Nantong::new(1);
/// let o = g.observation(Seat::ALL[1]);
/// assert_eq!(o.hand_sizes.iter().sum::<usize>(), 67);
/// assert_eq!(o.stock, 51);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Observation {
    /// The observer.
    pub seat: Seat,
    /// The observer's concealed cards, sorted.
    pub hand: Vec<Kind>,
    /// Every seat's melds.
    pub melds: [Vec<Meld>; 3],
    /// Discards on the table, in order.
    pub discards: Vec<(Seat, Kind)>,
    /// The two indicators.
    pub indicators: [Kind; 2],
    /// Cards left in the stock.
    pub stock: usize,
    /// Ready flags.
    pub ready: [bool; 3],
    /// Concealed cards per seat (the card of a kong being added counts as on the table).
    pub hand_sizes: [usize; 3],
    /// The dealer.
    pub dealer: Seat,
    /// Who acts now (a claim window's answers included); `None` once the deal is over.
    pub to_act: Option<Seat>,
    /// The card of a claim question put to the observer.
    pub claim: Option<Kind>,
    /// The observer's legal actions (empty if another seat acts).
    pub actions: Vec<alloc::string::String>,
    /// What the last action did (`None` before the first): another seat's drawn cards show as
    /// drawn, without the card.
    pub last_event: Option<Event>,
}

impl Nantong {
    /// The observation of `seat` ([`Game::observation`](crate::Game::observation)).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(super) fn observe(&self, seat: Seat) -> Observation {
        let mut obs = self.seen(seat);
        if obs.to_act == Some(seat) {
            obs.actions = self.actions().iter().map(|a| alloc::format!("{a}")).collect();
        }
        obs.last_event = self.last_event_for(Some(seat));
        obs
    }

    /// What no seat hides, for a spectator: an observation with no hand, no claim question, no
    /// actions, and every drawn card in `last_event` hidden; everything else is what every seat
    /// sees alike. It has no observer of its own: `seat` is seat 0, whose private parts are the
    /// ones left out.
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::nantong::{Nantong, Seat};
    /// let mut g = Nantong::new(1);
    /// g.play(g.legal_moves()[0]).unwrap();
    /// let p = g.public_observation();
    /// assert!(p.hand.is_empty() && p.claim.is_none() && p.actions.is_empty());
    /// assert_eq!(p.hand_sizes, g.observation(Seat::ALL[2]).hand_sizes);
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn public_observation(&self) -> Observation {
        let mut obs = self.seen(Seat::ALL[0]);
        obs.hand.clear();
        obs.claim = None;
        obs.last_event = self.last_event_for(None);
        obs
    }

    /// The last event as `seat` may see it (`None`: a spectator): only a seat's own draws show
    /// their card.
    fn last_event_for(&self, seat: Option<Seat>) -> Option<Event> {
        let mut event = self.last.clone();
        for d in event.iter_mut().flat_map(|e| &mut e.draws) {
            if Some(d.seat) != seat {
                d.card = None;
            }
        }
        event
    }

    /// `seat`'s observation without its two costly parts, the legal actions in notation and the
    /// last event ([`Nantong::observe`] adds them).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn seen(&self, seat: Seat) -> Observation {
        let sight = self.sight(seat);
        let mut melds = self.melds.clone();
        for (s, melds) in Seat::ALL.into_iter().zip(&mut melds) {
            for m in melds {
                m.kind = sight.meld_kind(s, m);
            }
        }
        Observation {
            seat,
            hand: Kind::all()
                .flat_map(|k| core::iter::repeat_n(k, sight.hand[k.index()] as usize))
                .collect(),
            melds,
            discards: self.discards.clone(),
            indicators: sight.indicators,
            stock: sight.stock,
            ready: sight.ready,
            hand_sizes: sight.hand_sizes,
            dealer: sight.dealer,
            to_act: sight.to_act,
            claim: sight.claim,
            actions: Vec::new(),
            last_event: None,
        }
    }

    /// What `seat` sees, borrowed from the state: what the tensor reads, without the copies of
    /// an [`Observation`]. Only `seat`'s own hand is read.
    pub(crate) fn sight(&self, seat: Seat) -> Sight<'_> {
        let mut hand = self.hands[seat.index()];
        let mut hand_sizes = Seat::ALL.map(|s| self.hand_size(s));
        let claim = match self.phase {
            Phase::ClaimWin { card, seat: asked, .. }
            | Phase::ClaimMeld { card, seat: asked, .. }
            | Phase::RobKong { card, seat: asked, .. } => (asked == seat).then_some(card),
            _ => None,
        };
        let mut added = None;
        if let Phase::RobKong { card, adder, .. } = self.phase {
            // Everyone sees the kong as added: the adder's card is on the table.
            hand_sizes[adder.index()] -= 1;
            if seat == adder {
                hand[card.index()] -= 1;
            }
            added = Some((adder, card));
        }
        Sight {
            seat,
            hand,
            melds: &self.melds,
            added,
            discards: &self.discards,
            indicators: self.indicators,
            stock: self.stock_size(),
            ready: self.ready,
            hand_sizes,
            dealer: self.dealer,
            to_act: self.actor(),
            claim,
        }
    }
}

/// What one seat sees, as [`Observation`] says, borrowed from a state or an observation: what the
/// tensor is written from.
pub(crate) struct Sight<'a> {
    pub(crate) seat: Seat,
    /// The observer's concealed cards, by kind.
    pub(crate) hand: Counts,
    pub(crate) melds: &'a [Vec<Meld>; 3],
    /// The pong of a kong being added (its seat and card), which everyone sees as the kong.
    pub(crate) added: Option<(Seat, Kind)>,
    pub(crate) discards: &'a [(Seat, Kind)],
    pub(crate) indicators: [Kind; 2],
    pub(crate) stock: usize,
    pub(crate) ready: [bool; 3],
    pub(crate) hand_sizes: [usize; 3],
    pub(crate) dealer: Seat,
    pub(crate) to_act: Option<Seat>,
    pub(crate) claim: Option<Kind>,
}

impl<'a> Sight<'a> {
    /// The sight an observation describes.
    pub(crate) fn of(obs: &'a Observation) -> Sight<'a> {
        let mut hand = [0; KINDS];
        for k in &obs.hand {
            hand[k.index()] += 1;
        }
        Sight {
            seat: obs.seat,
            hand,
            melds: &obs.melds,
            added: None,
            discards: &obs.discards,
            indicators: obs.indicators,
            stock: obs.stock,
            ready: obs.ready,
            hand_sizes: obs.hand_sizes,
            dealer: obs.dealer,
            to_act: obs.to_act,
            claim: obs.claim,
        }
    }

    /// The type of `seat`'s meld `m` as everyone sees it.
    pub(crate) fn meld_kind(&self, seat: Seat, m: &Meld) -> MeldType {
        if m.kind == MeldType::Pong && self.added == Some((seat, m.card)) {
            MeldType::ExposedKong
        } else {
            m.kind
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::nantong::{Nantong, Observation, Seat};
    use crate::{Game, Rng};

    /// A seat's observation without what is that seat's alone, as the public one should be.
    fn shared(mut o: Observation) -> Observation {
        o.seat = Seat::ALL[0];
        o.hand.clear();
        o.claim = None;
        o.actions.clear();
        for d in o.last_event.iter_mut().flat_map(|e| &mut e.draws) {
            d.card = None;
        }
        o
    }

    /// Whole deals of random legal moves: at every step the public observation is exactly what
    /// all three seats see alike. Each seat's observation never depends on a card it does not see
    /// (tests/hidden_information.rs), and every card a spectator must not see (a hand's, the
    /// stock's) is unseen by some seat, so no hidden card reaches the public one.
    #[test]
    fn the_public_observation_is_what_every_seat_sees_alike() {
        let (mut steps, mut draws, mut claims) = (0, 0, 0);
        for seed in 0..40 {
            let mut g = Nantong::new(seed);
            let mut rng = Rng::new(seed);
            loop {
                let p = g.public_observation();
                assert!(p.hand.is_empty() && p.claim.is_none() && p.actions.is_empty());
                assert!(p.last_event.iter().flat_map(|e| &e.draws).all(|d| d.card.is_none()));
                for s in Seat::ALL {
                    let o = g.observation(s);
                    draws += o
                        .last_event
                        .iter()
                        .flat_map(|e| &e.draws)
                        .filter(|d| d.card.is_some())
                        .count();
                    claims += usize::from(o.claim.is_some());
                    assert_eq!(p, shared(o), "seed {seed}, step {steps}, seat {}", s.index());
                }
                steps += 1;
                let legal = g.legal_moves();
                if legal.is_empty() {
                    break;
                }
                g.play(legal[rng.below(legal.len() as u64) as usize]).unwrap();
            }
        }
        // The sweep met what the public view must hide: drawn cards and claim questions.
        assert!(
            steps > 2_000 && draws > 500 && claims > 500,
            "{steps} steps, {draws} draws, {claims} claims"
        );
    }
}

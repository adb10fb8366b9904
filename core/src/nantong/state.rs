//! A deal of Nantong long cards: dealing, preparation, turns, claim windows, the end.

use alloc::vec::Vec;

use super::action::Action;
use super::card::{deck_in_order, Counts, Kind, KINDS};
use super::hand::{is_winning, waits};
use super::score::{score_played, DealScore, Meld, MeldType, PlayerHand, Win, WinSource};
use super::seat::Seat;
use super::size::Size;
use crate::Rng;

/// Why a deck or an action was refused; the state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NantongError {
    /// The deck is not four of each of the deal's kinds (120 cards of 30 kinds in the full game).
    #[error("a deck holds four of each of the deal's kinds: 120 cards of the 30 kinds in the full game")]
    BadDeck,
    /// The deal has ended.
    #[error("the deal is over")]
    Over,
    /// Another seat is to act.
    #[error("{actor} cannot act now: {expected} is to act")]
    OutOfTurn {
        /// Who tried.
        actor: Seat,
        /// Who is to act.
        expected: Seat,
    },
    /// The action is not legal now.
    #[error("{seat} cannot {action} now: {why}")]
    Illegal {
        /// Who tried.
        seat: Seat,
        /// The action.
        action: Action,
        /// Why not.
        why: &'static str,
    },
}

/// Where the deal stands: who must act, and on what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `seat` makes opening declarations, then `ready` or `finish`.
    Preparation(Seat),
    /// The dealer's first action: a heavenly win or the first discard.
    DealerFirst,
    /// `seat` has drawn `drawn` (from the front, or a replacement from the back).
    AfterDraw {
        /// Who drew.
        seat: Seat,
        /// The drawn card.
        drawn: Kind,
        /// A replacement draw.
        replacement: bool,
    },
    /// `seat` ponged and must discard.
    AfterPong(Seat),
    /// `seat` answers `win` or `pass` on `card`, discarded by `from`. Every other seat is asked in
    /// turn from the discarder's next seat, whether or not it can win, so that who is asked
    /// tells nothing about any hand.
    ClaimWin {
        /// The discard.
        card: Kind,
        /// Who discarded it.
        from: Seat,
        /// Who is asked now.
        seat: Seat,
    },
    /// `seat` answers `pong`, `kong` or `pass` on `card`, discarded by `from`, once nobody won on
    /// it. Every other seat that is not ready is asked in turn from the discarder's next seat,
    /// unless three copies of the card are in sight of everyone (then nobody can hold two).
    ClaimMeld {
        /// The discard.
        card: Kind,
        /// Who discarded it.
        from: Seat,
        /// Who is asked.
        seat: Seat,
    },
    /// `seat` answers `win` (robbing) or `pass` on the kong `adder` is adding with `card`; every
    /// other seat is asked in turn from the adder's next seat.
    RobKong {
        /// The added card.
        card: Kind,
        /// Who adds it.
        adder: Seat,
        /// Who is asked now.
        seat: Seat,
    },
    /// The deal has ended.
    Over,
}

/// A Nantong deal.
///
/// ```
/// use arbiter_core::Game;
/// use arbiter_core::nantong::{Nantong, Action, Seat};
/// let mut g = Nantong::new(5);
/// // Preparation: every seat ends it, dealer first.
/// while matches!(g.phase(), arbiter_core::nantong::Phase::Preparation(_)) {
///     g.play(Action::Finish).unwrap();
/// }
/// assert_eq!(g.to_move(), Some(g.dealer()));
/// assert_eq!(g.hand_size(g.dealer()), 23);
/// ```
///
/// With the `serde` feature a deal saves as its dealt deck order, dealer, generator state and
/// actions, and loads by replaying them, so that a loaded deal is one the rules allow:
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use arbiter_core::Game;
/// use arbiter_core::nantong::Nantong;
/// let mut g = Nantong::new(8);
/// for _ in 0..5 {
///     let a = g.legal_moves()[0];
///     g.play(a).unwrap();
/// }
/// let saved = serde_json::to_string(&g).unwrap();
/// let loaded: Nantong = serde_json::from_str(&saved).unwrap();
/// assert_eq!(loaded, g);
/// assert_eq!(loaded.next_deal(), g.next_deal());
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nantong {
    pub(super) size: Size,
    pub(super) rng: Rng,
    pub(super) dealer: Seat,
    pub(super) indicators: [Kind; 2],
    /// The deck as dealt, its first `size.cards()` cards (a smaller deal leaves the rest unused);
    /// the stock is `deck[front..back]`, drawn from the front, replacements from the back.
    pub(super) deck: [Kind; DECK],
    pub(super) front: usize,
    pub(super) back: usize,
    pub(super) hands: [Counts; 3],
    pub(super) dealt: [Counts; 3],
    pub(super) melds: [Vec<Meld>; 3],
    pub(super) ready: [bool; 3],
    /// Discards still on the table, in order.
    pub(super) discards: Vec<(Seat, Kind)>,
    pub(super) phase: Phase,
    /// Whether the discard being claimed is the dealer's first.
    pub(super) claiming_first_discard: bool,
    pub(super) history: Vec<(Seat, Action)>,
    /// What the last action did, with every card shown
    /// ([`Observation::last_event`](super::Observation::last_event) hides what the observer may
    /// not see).
    pub(super) last: Option<Event>,
    pub(super) result: Option<(Option<Win>, DealScore)>,
}

/// What the last action did, for a host to animate: who did what, the card taken from the table,
/// and the cards drawn because of it, as one seat may see them
/// ([`Observation::last_event`](super::Observation::last_event)).
///
/// ```
/// use arbiter_core::Game;
/// use arbiter_core::nantong::{Action, Nantong, Phase};
/// let mut g = Nantong::new(5);
/// while matches!(g.phase(), Phase::Preparation(_)) {
///     g.play(Action::Finish).unwrap();
/// }
/// let dealer = g.dealer();
/// let card = g.observation(dealer).hand[0];
/// g.play(Action::Discard(card)).unwrap();
/// // The other seats answer the discard in turn; the last pass closes the window and the next
/// // seat draws.
/// while matches!(g.phase(), Phase::ClaimWin { .. } | Phase::ClaimMeld { .. }) {
///     g.play(Action::Pass).unwrap();
/// }
/// let drawer = dealer.next();
/// let mine = g.observation(drawer).last_event.unwrap();
/// assert_eq!((mine.action, mine.draws.len()), (Action::Pass, 1));
/// assert_eq!(mine.draws[0].seat, drawer);
/// assert_eq!(Some(g.observation(drawer).hand.len()), Some(23));
/// assert!(mine.draws[0].card.is_some());
/// // The others see that a card was drawn, not which.
/// assert_eq!(g.observation(dealer).last_event.unwrap().draws[0].card, None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Event {
    /// Who acted.
    pub seat: Seat,
    /// What it did.
    pub action: Action,
    /// The card it took from the table by a pong, a kong or a win on a discard (or by robbing a
    /// kong), and whose card it was.
    pub took: Option<Taken>,
    /// The cards drawn because of the action, in order: an opening declaration's or a kong's
    /// replacements, or the next seat's draw once a claim window closes.
    pub draws: Vec<Drawn>,
}

/// A card taken from the table by a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Taken {
    /// The card.
    pub card: Kind,
    /// Who discarded it (or was adding it to a kong).
    pub from: Seat,
}

/// A card drawn from the stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Drawn {
    /// Who drew it.
    pub seat: Seat,
    /// A replacement, from the back of the stock (otherwise a turn's draw, from the front).
    pub replacement: bool,
    /// The card: shown only to the seat that drew it.
    pub card: Option<Kind>,
}

/// Cards in the full game's deck.
const DECK: usize = 120;

/// The 120 cards in code order (four of each kind).
///
/// ```
/// use arbiter_core::nantong::full_deck;
/// assert_eq!(full_deck().len(), 120);
/// ```
pub fn full_deck() -> Vec<Kind> {
    deck_in_order().to_vec()
}

fn add(c: &Counts, k: Kind) -> Counts {
    let mut c = *c;
    c[k.index()] += 1;
    c
}

impl Nantong {
    /// A deal from a shuffled deck and a dealer both drawn from `seed`.
    ///
    /// ```
    /// use arbiter_core::nantong::Nantong;
    /// assert_eq!(Nantong::new(4), Nantong::new(4));
    /// ```
    pub fn new(seed: u64) -> Nantong {
        Self::sized(seed, Size::FULL)
    }

    /// A deal of `size` from a shuffled deck and a dealer both drawn from `seed` (the full game's
    /// is [`Nantong::new`]'s, draw for draw).
    ///
    /// ```
    /// use arbiter_core::nantong::{Nantong, Size};
    /// let g = Nantong::sized(4, Size::new(1, 5).unwrap());
    /// assert_eq!((g.hand_size(g.dealer()), g.hand_size(g.dealer().next()), g.stock_size()), (5, 4, 5));
    /// assert_eq!(g.next_deal().size(), g.size());
    /// assert_eq!(Nantong::sized(4, Size::FULL), Nantong::new(4));
    /// ```
    pub fn sized(seed: u64, size: Size) -> Nantong {
        let mut rng = Rng::new(seed);
        let dealer = Seat::ALL[rng.below(3) as usize];
        Self::shuffled(rng, dealer, size)
    }

    fn shuffled(mut rng: Rng, dealer: Seat, size: Size) -> Nantong {
        let mut deck = deck_in_order();
        rng.shuffle(&mut deck[..size.cards()]);
        let mut g = Nantong::from_deck(deck, dealer, size);
        g.rng = rng;
        g
    }

    /// The next deal: the next seat deals a deck shuffled by this deal's generator.
    ///
    /// ```
    /// use arbiter_core::nantong::Nantong;
    /// let g = Nantong::new(4);
    /// assert_eq!(g.next_deal().dealer(), g.dealer().next());
    /// ```
    pub fn next_deal(&self) -> Nantong {
        Self::shuffled(self.rng, self.dealer.next(), self.size)
    }

    /// A restart: a new shuffle and a dealer drawn again.
    ///
    /// ```
    /// use arbiter_core::nantong::Nantong;
    /// let g = Nantong::new(4);
    /// assert_eq!(g.restart(), g.restart());
    /// assert_ne!(g.restart().deck(), g.deck());
    /// ```
    pub fn restart(&self) -> Nantong {
        let mut rng = self.rng;
        let dealer = Seat::ALL[rng.below(3) as usize];
        Self::shuffled(rng, dealer, self.size)
    }

    /// The canonical deal of a deck order: the dealer takes the first 23 cards, the next seats 22
    /// each, two indicators are turned up, the last 51 are the stock.
    ///
    /// ```
    /// use arbiter_core::nantong::{full_deck, Nantong, Seat};
    /// let g = Nantong::deal(&full_deck(), Seat::ALL[1]).unwrap();
    /// assert_eq!((g.hand_size(Seat::ALL[1]), g.stock_size()), (23, 51));
    /// assert!(Nantong::deal(&full_deck()[1..], Seat::ALL[1]).is_err());
    /// ```
    pub fn deal(deck: &[Kind], dealer: Seat) -> Result<Nantong, NantongError> {
        Self::deal_sized(deck, dealer, Size::FULL)
    }

    /// The canonical deal of a deck order for a deal of `size`: the dealer takes the first
    /// `3 × groups + 2` cards, the next seats `3 × groups + 1` each, two indicators are turned
    /// up, the rest is the stock. The deck holds four of each of the first `size.kinds()` kinds.
    ///
    /// ```
    /// use arbiter_core::nantong::{Kind, Nantong, Seat, Size};
    /// let size = Size::new(0, 2).unwrap();
    /// let deck: Vec<Kind> = "1m 2m 1m 2m 1m 2m 1m 2m".split(' ').map(|k| k.parse().unwrap()).collect();
    /// let g = Nantong::deal_sized(&deck, Seat::ALL[0], size).unwrap();
    /// assert_eq!((g.hand_size(Seat::ALL[0]), g.stock_size(), g.deck().len()), (2, 2, 8));
    /// assert!(Nantong::deal_sized(&deck[1..], Seat::ALL[0], size).is_err());
    /// ```
    pub fn deal_sized(deck: &[Kind], dealer: Seat, size: Size) -> Result<Nantong, NantongError> {
        if deck.len() != size.cards() {
            return Err(NantongError::BadDeck);
        }
        let mut seen = [0u8; KINDS];
        for k in deck {
            seen[k.index()] += 1;
        }
        if seen
            .iter()
            .enumerate()
            .any(|(i, &n)| n != if i < size.kinds() { 4 } else { 0 })
        {
            return Err(NantongError::BadDeck);
        }
        let mut full = deck_in_order();
        full[..deck.len()].copy_from_slice(deck);
        Ok(Nantong::from_deck(full, dealer, size))
    }

    fn from_deck(deck: [Kind; DECK], dealer: Seat, size: Size) -> Nantong {
        let mut hands = [[0u8; KINDS]; 3];
        let (hand, stock) = (size.hand(), size.stock_start());
        for (n, seat) in [dealer, dealer.next(), dealer.next().next()].into_iter().enumerate() {
            // The dealer's hand is the first, one card longer.
            let from = if n == 0 { 0 } else { 1 + n * hand };
            for k in &deck[from..1 + (n + 1) * hand] {
                hands[seat.index()][k.index()] += 1;
            }
        }
        Nantong {
            size,
            rng: Rng::new(0),
            dealer,
            indicators: [deck[stock - 2], deck[stock - 1]],
            deck,
            front: stock,
            back: size.cards(),
            dealt: hands,
            hands,
            melds: Default::default(),
            ready: [false; 3],
            discards: Vec::new(),
            phase: Phase::Preparation(dealer),
            claiming_first_discard: false,
            history: Vec::new(),
            last: None,
            result: None,
        }
    }

    /// How big the deal is ([`Size::FULL`] unless made [`Nantong::sized`]).
    pub fn size(&self) -> Size {
        self.size
    }

    /// The dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The two indicators.
    pub fn indicators(&self) -> [Kind; 2] {
        self.indicators
    }

    /// The deck as dealt (hands, indicators, then the stock from its front).
    ///
    /// ```
    /// use arbiter_core::nantong::{Nantong, Seat};
    /// let g = Nantong::new(2);
    /// let again = Nantong::deal(g.deck(), g.dealer()).unwrap();
    /// assert_eq!(again.indicators(), g.indicators());
    /// ```
    pub fn deck(&self) -> &[Kind] {
        &self.deck[..self.size.cards()]
    }

    /// The generator that shuffles the next deal.
    pub fn rng(&self) -> Rng {
        self.rng
    }

    /// Where the deal stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Cards left in the stock.
    pub fn stock_size(&self) -> usize {
        self.back - self.front
    }

    /// Concealed cards of `seat`.
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.hands[seat.index()].iter().map(|&c| c as usize).sum()
    }

    /// The melds of `seat`.
    pub fn melds(&self, seat: Seat) -> &[Meld] {
        &self.melds[seat.index()]
    }

    /// The actions played so far.
    pub fn history(&self) -> &[(Seat, Action)] {
        &self.history
    }

    /// Takes back the last action and returns it (with its seat); `None` before the first. The
    /// deal is replayed from its deck up to the action before, so the state is exactly the one
    /// it was (the seed for the next deal included).
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::nantong::{Action, Nantong};
    /// let mut g = Nantong::new(5);
    /// let start = g.clone();
    /// g.play(Action::Finish).unwrap();
    /// assert_eq!(g.undo().map(|(_, a)| a), Some(Action::Finish));
    /// assert_eq!((g, start.clone().undo()), (start, None));
    /// ```
    pub fn undo(&mut self) -> Option<(Seat, Action)> {
        let (&last, before) = self.history.split_last()?;
        let mut g = self.redealt();
        for &(seat, action) in before {
            g.act(seat, action).ok()?;
        }
        g.rng = self.rng;
        *self = g;
        Some(last)
    }

    /// The score, once the deal is over.
    pub fn score(&self) -> Option<&DealScore> {
        self.result.as_ref().map(|r| &r.1)
    }

    /// How the deal was won (`None` while it goes on or once exhausted).
    pub fn win(&self) -> Option<&Win> {
        self.result.as_ref().and_then(|r| r.0.as_ref())
    }

    /// This deal again, before its first action.
    pub(super) fn redealt(&self) -> Nantong {
        Nantong::from_deck(self.deck, self.dealer, self.size)
    }

    /// The groups `s` counts as made: its declared ones (a Tiandi Hezi is not one), and in a
    /// smaller deal the full game's groups it does not ask for.
    fn groups(&self, s: Seat) -> usize {
        self.size.spare_groups()
            + self.melds[s.index()]
                .iter()
                .filter(|m| m.kind != MeldType::Hezi)
                .count()
    }

    fn wins_with(&self, s: Seat, card: Kind) -> bool {
        let h = &self.hands[s.index()];
        h[card.index()] < 4 && is_winning(&add(h, card), self.groups(s))
    }

    /// Copies of each kind that `s` can see: own hand and melds, every meld, the indicators, the discards.
    fn visible(&self, s: Seat) -> Counts {
        let mut v = self.public();
        for (n, h) in v.iter_mut().zip(&self.hands[s.index()]) {
            *n += h;
        }
        v
    }

    /// Copies of each kind in everyone's sight: every meld, the indicators, the discards.
    fn public(&self) -> Counts {
        let mut v = [0; KINDS];
        for melds in &self.melds {
            for m in melds {
                v[m.card.index()] += m.kind.cards();
            }
        }
        for k in self.indicators {
            v[k.index()] += 1;
        }
        for &(_, k) in &self.discards {
            v[k.index()] += 1;
        }
        v
    }

    /// The kinds that would complete `seat`'s hand, if it is one card short.
    pub fn waits(&self, seat: Seat) -> Vec<Kind> {
        let i = seat.index();
        let mut held = self.hands[i];
        for m in &self.melds[i] {
            held[m.card.index()] += m.kind.cards();
        }
        waits(&self.hands[i], self.groups(seat), &held)
    }

    /// `s` draws from the front of the stock, or a replacement from the back; the draw is part of
    /// the last action's event.
    fn draw(&mut self, s: Seat, replacement: bool) -> Option<Kind> {
        if self.front == self.back {
            return None;
        }
        let k = if replacement {
            self.back -= 1;
            self.deck[self.back]
        } else {
            self.front += 1;
            self.deck[self.front - 1]
        };
        self.hands[s.index()][k.index()] += 1;
        if let Some(e) = &mut self.last {
            e.draws.push(Drawn {
                seat: s,
                replacement,
                card: Some(k),
            });
        }
        Some(k)
    }

    /// Who acts now.
    pub fn actor(&self) -> Option<Seat> {
        match self.phase {
            Phase::Preparation(s) | Phase::AfterPong(s) => Some(s),
            Phase::DealerFirst => Some(self.dealer),
            Phase::AfterDraw { seat, .. }
            | Phase::ClaimWin { seat, .. }
            | Phase::ClaimMeld { seat, .. }
            | Phase::RobKong { seat, .. } => Some(seat),
            Phase::Over => None,
        }
    }

    /// Every legal action of the seat to act.
    pub fn actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.each_action(|a| out.push(a));
        out
    }

    /// Whether the seat to act may play `action`.
    fn offers(&self, action: Action) -> bool {
        let mut found = false;
        self.each_action(|a| found |= a == action);
        found
    }

    /// Calls `out` with every legal action of the seat to act, in [`Nantong::actions`]' order:
    /// the research loops list them without a list of their own.
    pub(super) fn each_action(&self, mut out: impl FnMut(Action)) {
        let Some(s) = self.actor() else { return };
        let i = s.index();
        let hand = &self.hands[i];
        let in_hand = || Kind::all().filter(move |k| hand[k.index()] > 0);
        let stock = self.stock_size() > 0;
        match self.phase {
            Phase::Preparation(_) => {
                for k in Kind::all() {
                    if self.dealt[i][k.index()] == 4 && hand[k.index()] == 4 && stock {
                        out(Action::DeclareFour(k));
                    }
                    if self.indicators.contains(&k) && self.dealt[i][k.index()] >= 3 && hand[k.index()] >= 3 {
                        out(Action::DeclareTriple(k));
                    }
                }
                if self.hezi_allowed(s) {
                    out(Action::DeclareHezi);
                }
                if self.ready_allowed(s) {
                    out(Action::Ready);
                }
                out(Action::Finish);
            }
            Phase::DealerFirst => {
                if is_winning(hand, self.groups(s)) {
                    out(Action::Win);
                }
                in_hand().map(Action::Discard).for_each(&mut out);
            }
            Phase::AfterDraw { drawn, .. } => {
                if is_winning(hand, self.groups(s)) {
                    out(Action::Win);
                }
                if self.ready[i] {
                    out(Action::Discard(drawn));
                } else {
                    if stock {
                        in_hand()
                            .filter(|k| hand[k.index()] == 4)
                            .map(Action::ConcealedKong)
                            .for_each(&mut out);
                        let pongs = self.melds[i].iter().filter(|m| m.kind == MeldType::Pong);
                        pongs
                            .filter(|m| hand[m.card.index()] > 0)
                            .map(|m| Action::AddKong(m.card))
                            .for_each(&mut out);
                    }
                    in_hand().map(Action::Discard).for_each(&mut out);
                }
            }
            Phase::AfterPong(_) => in_hand().map(Action::Discard).for_each(&mut out),
            Phase::ClaimWin { card, .. } | Phase::RobKong { card, .. } => {
                if self.wins_with(s, card) {
                    out(Action::Win);
                }
                out(Action::Pass);
            }
            Phase::ClaimMeld { card, .. } => {
                if hand[card.index()] >= 2 {
                    out(Action::Pong);
                }
                if hand[card.index()] >= 3 && stock {
                    out(Action::Kong);
                }
                out(Action::Pass);
            }
            Phase::Over => {}
        }
    }

    fn hezi_allowed(&self, s: Seat) -> bool {
        let [a, b] = self.indicators;
        let i = s.index();
        a == b
            && self.dealt[i][a.index()] == 2
            && self.hands[i][a.index()] >= 2
            && !self.melds[i].iter().any(|m| m.kind == MeldType::Hezi)
            && self.stock_size() >= 2
    }

    fn ready_allowed(&self, s: Seat) -> bool {
        if s == self.dealer {
            return false;
        }
        let visible = self.visible(s);
        self.waits(s).iter().any(|k| visible[k.index()] < 4)
    }

    /// Plays `action` for `seat`, or says why not and leaves the state unchanged.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), NantongError> {
        let expected = self.actor().ok_or(NantongError::Over)?;
        if seat != expected {
            return Err(NantongError::OutOfTurn { actor: seat, expected });
        }
        if !self.offers(action) {
            return Err(NantongError::Illegal {
                seat,
                action,
                why: self.why_not(seat, action),
            });
        }
        self.history.push((seat, action));
        self.last = Some(Event {
            seat,
            action,
            took: None,
            draws: Vec::new(),
        });
        self.apply(seat, action);
        Ok(())
    }

    /// Answers `pass` to every pending claim question whose only legal answer is `pass`, and
    /// says how many it answered.
    ///
    /// This replays records that list only the questions a seat could act on (the conformance
    /// `replay` cases, made before every seat was asked): the record never holds an answer to
    /// such a question, so passing them leaves exactly its own actions to replay. It is also
    /// for a table whose seats all sit at one screen. A table whose seats cannot see each other
    /// must let each seat answer itself, or the time the answers take would tell the others
    /// which seats could claim.
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::nantong::{Action, Nantong, Phase};
    /// let mut g = Nantong::new(5);
    /// while matches!(g.phase(), Phase::Preparation(_)) {
    ///     g.play(Action::Finish).unwrap();
    /// }
    /// let card = g.observation(g.dealer()).hand[0];
    /// g.play(Action::Discard(card)).unwrap();
    /// g.pass_forced();
    /// assert!(g.legal_moves() != vec![Action::Pass]);
    /// ```
    pub fn pass_forced(&mut self) -> usize {
        let mut passed = 0;
        while let Some(seat) = self.actor() {
            if self.actions() != [Action::Pass] {
                break;
            }
            self.act(seat, Action::Pass).expect("offered");
            passed += 1;
        }
        passed
    }

    fn why_not(&self, seat: Seat, action: Action) -> &'static str {
        match (self.phase, action) {
            (Phase::Preparation(_), Action::Ready) if seat == self.dealer => "the dealer cannot declare ready",
            (Phase::Preparation(_), Action::Ready) => "the hand is not one card from winning with a live wait",
            (Phase::Preparation(_), Action::DeclareHezi) => {
                "a Tiandi Hezi needs two identical indicators and the other two copies dealt"
            }
            (Phase::Preparation(_), Action::DeclareFour(_)) => "four identical dealt cards are needed",
            (Phase::Preparation(_), Action::DeclareTriple(_)) => "three dealt cards matching an indicator are needed",
            (Phase::Preparation(_), _) => "preparation: declare, then ready or finish",
            (_, Action::Win) => "the hand does not win",
            (Phase::ClaimMeld { .. }, Action::Pong | Action::Kong) => {
                "a pong needs two of the card in hand, a kong three and a card left in the stock"
            }
            (_, Action::Pong | Action::Kong) => "there is no claim to make",
            (_, Action::AddKong(_)) => "adding a kong needs a pong of that card, the card in hand and stock left",
            (_, Action::ConcealedKong(_)) => "a concealed kong needs four in hand and stock left",
            (_, Action::Discard(_))
                if matches!(
                    self.phase,
                    Phase::ClaimWin { .. } | Phase::ClaimMeld { .. } | Phase::RobKong { .. }
                ) =>
            {
                "a claim is pending: answer it"
            }
            (Phase::AfterDraw { .. }, Action::Discard(_)) if self.ready[seat.index()] => {
                "a ready player discards the card drawn"
            }
            (_, Action::Discard(_)) => "the card is not in hand",
            _ => "not legal now",
        }
    }

    fn end(&mut self, win: Option<Win>) {
        let players: [PlayerHand; 3] = core::array::from_fn(|i| PlayerHand {
            hand: self.hands[i],
            melds: self.melds[i].clone(),
            ready: self.ready[i],
        });
        let score = score_played(self.indicators, &players, win.as_ref(), self.size.groups());
        self.result = Some((win, score));
        self.phase = Phase::Over;
    }

    /// The seat asked after `asked` about `owner`'s card: the next one in play order, until the
    /// turn comes back to `owner`. Who is asked depends on the seats alone, never on a hand.
    fn next_asked(asked: Seat, owner: Seat) -> Option<Seat> {
        Some(asked.next()).filter(|&s| s != owner)
    }

    /// After a discard of `card` by `from`: every other seat is asked about winning on it.
    fn after_discard(&mut self, from: Seat, card: Kind) {
        self.next_win_claim(from, card, from);
    }

    /// Win claims on `card` are settled up to `asked`: ask the next seat, else open the meld claims.
    fn next_win_claim(&mut self, from: Seat, card: Kind, asked: Seat) {
        match Self::next_asked(asked, from) {
            Some(seat) => self.phase = Phase::ClaimWin { card, from, seat },
            None => self.meld_claims(from, card, from),
        }
    }

    /// Meld claims on `card` are settled up to `asked`: ask the next seat that may hold two of
    /// it as far as everyone can tell (not ready, and fewer than three copies in sight), else
    /// the next seat draws.
    fn meld_claims(&mut self, from: Seat, card: Kind, asked: Seat) {
        let mut s = asked;
        while let Some(next) = Self::next_asked(s, from) {
            if !self.ready[next.index()] && self.public()[card.index()] < 3 {
                self.phase = Phase::ClaimMeld { card, from, seat: next };
                return;
            }
            s = next;
        }
        self.next_turn(from.next());
    }

    fn next_turn(&mut self, s: Seat) {
        self.claiming_first_discard = false;
        match self.draw(s, false) {
            Some(k) => {
                self.phase = Phase::AfterDraw {
                    seat: s,
                    drawn: k,
                    replacement: false,
                };
            }
            None => self.end(None),
        }
    }

    fn replacement(&mut self, s: Seat) {
        let k = self.draw(s, true).expect("checked: stock left");
        self.phase = Phase::AfterDraw {
            seat: s,
            drawn: k,
            replacement: true,
        };
    }

    fn apply(&mut self, s: Seat, action: Action) {
        let i = s.index();
        match (self.phase, action) {
            (Phase::Preparation(_), Action::DeclareFour(k)) => {
                self.hands[i][k.index()] -= 4;
                self.melds[i].push(Meld {
                    kind: MeldType::OpeningFour,
                    card: k,
                });
                self.draw(s, true).expect("checked");
            }
            (Phase::Preparation(_), Action::DeclareTriple(k)) => {
                self.hands[i][k.index()] -= 3;
                self.melds[i].push(Meld {
                    kind: MeldType::OpeningTriple,
                    card: k,
                });
            }
            (Phase::Preparation(_), Action::DeclareHezi) => {
                let k = self.indicators[0];
                self.hands[i][k.index()] -= 2;
                self.melds[i].push(Meld {
                    kind: MeldType::Hezi,
                    card: k,
                });
                for _ in 0..2 {
                    self.draw(s, true).expect("checked");
                }
            }
            (Phase::Preparation(_), Action::Ready | Action::Finish) => {
                self.ready[i] = action == Action::Ready;
                let next = s.next();
                self.phase = if next == self.dealer {
                    Phase::DealerFirst
                } else {
                    Phase::Preparation(next)
                };
            }
            (Phase::DealerFirst, Action::Win) => {
                let win = Win {
                    seat: s,
                    card: Kind::T,
                    source: WinSource::SelfDraw,
                    heavenly: true,
                    dealer_first_discard: false,
                    last_card: false,
                };
                self.end(Some(win));
            }
            (Phase::AfterDraw { drawn, replacement, .. }, Action::Win) => {
                let source = if replacement {
                    WinSource::KongReplacement
                } else {
                    WinSource::SelfDraw
                };
                let last_card = self.stock_size() == 0;
                let win = Win {
                    seat: s,
                    card: drawn,
                    source,
                    heavenly: false,
                    dealer_first_discard: false,
                    last_card,
                };
                self.end(Some(win));
            }
            (_, Action::Discard(k)) => {
                self.hands[i][k.index()] -= 1;
                self.discards.push((s, k));
                self.claiming_first_discard = self.phase == Phase::DealerFirst;
                self.after_discard(s, k);
            }
            (Phase::AfterDraw { .. }, Action::ConcealedKong(k)) => {
                self.hands[i][k.index()] -= 4;
                self.melds[i].push(Meld {
                    kind: MeldType::ConcealedKong,
                    card: k,
                });
                self.replacement(s);
            }
            (Phase::AfterDraw { .. }, Action::AddKong(k)) => {
                self.phase = Phase::RobKong {
                    card: k,
                    adder: s,
                    seat: s,
                };
                self.next_robber(s, k, s);
            }
            (Phase::RobKong { card, adder, .. }, Action::Win) => {
                self.took(card, adder);
                // The adder keeps the pong and loses the card.
                self.hands[adder.index()][card.index()] -= 1;
                self.hands[i][card.index()] += 1;
                let win = Win {
                    seat: s,
                    card,
                    source: WinSource::RobbedKong,
                    heavenly: false,
                    dealer_first_discard: false,
                    last_card: false,
                };
                self.end(Some(win));
            }
            (Phase::RobKong { card, adder, .. }, Action::Pass) => self.next_robber(adder, card, s),
            (Phase::ClaimWin { card, from, .. }, Action::Win) => {
                self.take_discard(card, from);
                self.hands[i][card.index()] += 1;
                let first = self.claiming_first_discard && from == self.dealer;
                let last_card = self.stock_size() == 0;
                let win = Win {
                    seat: s,
                    card,
                    source: WinSource::Discard,
                    heavenly: false,
                    dealer_first_discard: first,
                    last_card,
                };
                self.end(Some(win));
            }
            (Phase::ClaimWin { card, from, .. }, Action::Pass) => self.next_win_claim(from, card, s),
            (Phase::ClaimMeld { card, from, .. }, Action::Pong) => {
                self.take_discard(card, from);
                self.hands[i][card.index()] -= 2;
                self.melds[i].push(Meld {
                    kind: MeldType::Pong,
                    card,
                });
                self.claiming_first_discard = false;
                self.phase = Phase::AfterPong(s);
            }
            (Phase::ClaimMeld { card, from, .. }, Action::Kong) => {
                self.take_discard(card, from);
                self.hands[i][card.index()] -= 3;
                self.melds[i].push(Meld {
                    kind: MeldType::ExposedKong,
                    card,
                });
                self.claiming_first_discard = false;
                self.replacement(s);
            }
            (Phase::ClaimMeld { card, from, .. }, Action::Pass) => self.meld_claims(from, card, s),
            _ => unreachable!("checked against the legal actions"),
        }
    }

    fn take_discard(&mut self, card: Kind, from: Seat) {
        self.discards.pop();
        self.took(card, from);
    }

    fn took(&mut self, card: Kind, from: Seat) {
        if let Some(e) = &mut self.last {
            e.took = Some(Taken { card, from });
        }
    }

    /// Asks the seat after `asked` about robbing the kong `adder` adds with `card`; once every
    /// other seat has passed, the kong is made and a replacement drawn.
    fn next_robber(&mut self, adder: Seat, card: Kind, asked: Seat) {
        if let Some(seat) = Self::next_asked(asked, adder) {
            self.phase = Phase::RobKong { card, adder, seat };
            return;
        }
        let i = adder.index();
        self.hands[i][card.index()] -= 1;
        let m = self.melds[i]
            .iter_mut()
            .find(|m| m.kind == MeldType::Pong && m.card == card)
            .expect("checked: a pong");
        m.kind = MeldType::ExposedKong;
        self.replacement(adder);
    }

    /// The actions played, less the passes that no seat could have answered otherwise (those
    /// [`Nantong::pass_forced`] answers): the form of the conformance `replay` cases, whose
    /// runners answer those passes themselves, where a save ([`Nantong::history`]) lists them.
    ///
    /// ```
    /// use arbiter_core::nantong::Nantong;
    /// use arbiter_core::Game;
    /// let mut g = Nantong::new(3);
    /// for _ in 0..30 {
    ///     let mv = g.legal_moves()[0];
    ///     g.play(mv).unwrap();
    /// }
    /// let kept = g.unforced_history();
    /// assert!(kept.len() < g.history().len());
    /// let mut again = Nantong::deal(g.deck(), g.dealer()).unwrap();
    /// for &(seat, action) in &kept {
    ///     again.pass_forced();
    ///     again.act(seat, action).unwrap();
    /// }
    /// again.pass_forced();
    /// assert_eq!(again.history(), g.history());
    /// ```
    pub fn unforced_history(&self) -> Vec<(Seat, Action)> {
        // Every action of the history was legal when played: the replay cannot refuse one.
        let mut g = self.redealt();
        let mut kept = Vec::new();
        for &(seat, action) in self.history() {
            let forced = action == Action::Pass && g.actions() == [Action::Pass];
            g.act(seat, action).expect("played in this deal");
            if !forced {
                kept.push((seat, action));
            }
        }
        kept
    }

    /// Replays `actions` on the canonical deal of `deck`: the state, or the index of the first
    /// refused action and why.
    ///
    /// ```
    /// use arbiter_core::nantong::{full_deck, Action, Nantong, Seat};
    /// let [s0, s1, _] = Seat::ALL;
    /// let g = Nantong::replay(&full_deck(), s0, &[(s0, Action::Finish)]).unwrap();
    /// assert_eq!(g.actor(), Some(s1));
    /// assert_eq!(Nantong::replay(&full_deck(), s0, &[(s1, Action::Finish)]).unwrap_err().0, 0);
    /// ```
    pub fn replay(deck: &[Kind], dealer: Seat, actions: &[(Seat, Action)]) -> Result<Nantong, (usize, NantongError)> {
        let mut g = Nantong::deal(deck, dealer).map_err(|e| (0, e))?;
        for (n, &(seat, action)) in actions.iter().enumerate() {
            g.act(seat, action).map_err(|e| (n, e))?;
        }
        Ok(g)
    }
}

/// One action of a saved deal, as in the conformance `replay` cases.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
struct Played {
    seat: Seat,
    action: Action,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Played, deny_unknown = false;
    seat: Seat => serde::Deserialize::deserialize;
    action: Action => serde::Deserialize::deserialize;
);

/// A saved deal: what it was dealt from and what was played, so that loading replays it.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
struct DealRecord {
    deck: Vec<Kind>,
    /// A smaller deal's groups (the deck's length gives its kinds); absent in the full game.
    #[serde(skip_serializing_if = "Option::is_none")]
    groups: Option<u32>,
    dealer: Seat,
    rng: Rng,
    actions: Vec<Played>,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(DealRecord, deny_unknown = false;
    deck: Vec<Kind> => serde::Deserialize::deserialize;
    groups: Option<u32> => serde::Deserialize::deserialize, default;
    dealer: Seat => serde::Deserialize::deserialize;
    rng: Rng => serde::Deserialize::deserialize;
    actions: Vec<Played> => serde::Deserialize::deserialize;
);

#[cfg(feature = "serde")]
impl serde::Serialize for Nantong {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        DealRecord {
            deck: self.deck().to_vec(),
            groups: (self.size != Size::FULL).then_some(self.size.groups() as u32),
            dealer: self.dealer,
            rng: self.rng,
            actions: self
                .history
                .iter()
                .map(|&(seat, action)| Played { seat, action })
                .collect(),
        }
        .serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Nantong {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let saved = DealRecord::deserialize(d)?;
        let groups = saved.groups.unwrap_or(super::FULL_GROUPS);
        let size = Size::new(groups, (saved.deck.len() / 4) as u32).map_err(|e| D::Error::custom(e.message()))?;
        let mut g = Nantong::deal_sized(&saved.deck, saved.dealer, size).map_err(D::Error::custom)?;
        for (n, p) in saved.actions.iter().enumerate() {
            g.act(p.seat, p.action).map_err(|e| {
                D::Error::custom(alloc::format!(
                    "saved action {n} ({}: {}) refused: {e}",
                    p.seat,
                    p.action
                ))
            })?;
        }
        g.rng = saved.rng;
        Ok(g)
    }
}

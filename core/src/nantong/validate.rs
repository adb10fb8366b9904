//! What hosts give the core to check and score outside a deal: a hand to check for a win
//! ([`HandCheck`], the conformance `winning` input) and the end of a deal ([`FinishedDeal`], the
//! `score` input; [`score_deal`] and [`winner_total`] on plain values), with every check that
//! makes them ones the rules allow, before `score.rs` counts them. The command-line runner, the C
//! library and the npm package read them the same way.

use alloc::vec::Vec;

use super::card::{Counts, Kind, KINDS};
use super::hand::{standing, Standing};
use super::score::{
    best_win, round_up, score_checked, Best, DealScore, Meld, MeldType, PlayerHand, ScoreError, Win, WinSource,
};
use super::seat::Seat;
use super::size::FULL_GROUPS;

/// Concealed cards and the melds declared beside them.
///
/// As JSON (feature `serde`): `{"hand": [codes], "melds": [{"type", "card"}]}`, `melds` optional;
/// other fields are ignored, so a whole conformance case reads as one.
///
/// ```
/// use arbiter_core::nantong::{HandCheck, Kind, Meld, MeldType};
/// let hand = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s T";
/// let check = HandCheck {
///     hand: hand.split(' ').map(|c| c.parse().unwrap()).collect(),
///     melds: vec![Meld { kind: MeldType::Pong, card: "W".parse().unwrap() }],
/// };
/// let s = check.standing();
/// assert!(!s.winning);
/// assert_eq!(s.waits, vec!["T".parse::<Kind>().unwrap()]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HandCheck {
    /// The concealed cards.
    pub hand: Vec<Kind>,
    /// The melds declared.
    #[cfg_attr(feature = "serde", serde(default))]
    pub melds: Vec<Meld>,
}

impl HandCheck {
    /// The concealed cards as counts.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn counts(&self) -> Counts {
        let mut c = [0u8; KINDS];
        for k in &self.hand {
            c[k.index()] = c[k.index()].saturating_add(1);
        }
        c
    }

    /// Whether the hand wins and what it waits for ([`standing`]).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn standing(&self) -> Standing {
        standing(&self.counts(), &self.melds)
    }
}

/// Concealed cards plus three per group declared that the deal leaves a seat: the dealer's 23
/// less a discard, or 22 dealt; every kong's fourth card came with a replacement and a Tiandi
/// Hezi's two cards with two, so melds never change it. The winner holds one more card.
const HAND: usize = 22;

/// Why no seat (`ready` or not) can hold `meld` at the end of a deal, whatever else it holds.
#[cfg_attr(arbiter_size, optimize(size))]
fn check_meld(indicators: [Kind; 2], meld: Meld, ready: bool) -> Result<(), &'static str> {
    match meld.kind {
        MeldType::OpeningTriple if !indicators.contains(&meld.card) => {
            Err("an opening triple is three dealt cards of an indicator's kind")
        }
        MeldType::Hezi if indicators != [meld.card; 2] => {
            Err("a Tiandi Hezi is the other two copies of two identical indicators")
        }
        _ if ready && !meld.is_opening() => Err("a ready hand is locked: it cannot pong or kong"),
        _ => Ok(()),
    }
}

/// The checks one hand allows alone: copies with the indicators, melds, ready.
#[cfg_attr(arbiter_size, optimize(size))]
fn check_player(
    indicators: [Kind; 2],
    seat: Seat,
    p: &PlayerHand,
    copies: &mut [u32; KINDS],
) -> Result<(), ScoreError> {
    for (c, &n) in copies.iter_mut().zip(&p.hand) {
        *c += u32::from(n);
    }
    for &meld in &p.melds {
        let c = &mut copies[meld.card.index()];
        *c = c.saturating_add(u32::from(meld.kind.cards()));
        check_meld(indicators, meld, p.ready).map_err(|why| ScoreError::BadMeld { seat, meld, why })?;
    }
    Ok(())
}

#[cfg_attr(arbiter_size, optimize(size))]
fn check_copies(copies: &[u32; KINDS]) -> Result<(), ScoreError> {
    match Kind::all().find(|k| copies[k.index()] > 4) {
        Some(k) => Err(ScoreError::TooManyCopies(k)),
        None => Ok(()),
    }
}

#[cfg_attr(arbiter_size, optimize(size))]
fn indicator_copies(indicators: [Kind; 2]) -> [u32; KINDS] {
    let mut copies = [0u32; KINDS];
    for k in indicators {
        copies[k.index()] += 1;
    }
    copies
}

/// Concealed cards plus three per group declared.
#[cfg_attr(arbiter_size, optimize(size))]
fn hand_size(p: &PlayerHand) -> usize {
    let concealed: usize = p.hand.iter().map(|&n| n as usize).sum();
    let groups = p.melds.iter().filter(|m| m.kind != MeldType::Hezi).count();
    concealed.saturating_add(groups.saturating_mul(3))
}

/// What a win needs of the rest of the deal, apart from the winning hand itself.
#[cfg_attr(arbiter_size, optimize(size))]
fn check_win(dealer: Seat, players: &[PlayerHand; 3], win: &Win) -> Result<(), &'static str> {
    let all_opening = || players.iter().all(|p| p.melds.iter().all(|m| m.is_opening()));
    let winner = &players[win.seat.index()];
    if win.heavenly {
        if win.seat != dealer {
            return Err("only the dealer's dealt hand wins a heavenly hand");
        }
        if !all_opening() {
            return Err("a heavenly win comes before any pong or kong");
        }
        return Ok(());
    }
    if win.dealer_first_discard && (win.source != WinSource::Discard || win.seat == dealer || !all_opening()) {
        return Err("a win on the dealer's first discard is another seat's, on that discard, before any pong or kong");
    }
    match win.source {
        WinSource::RobbedKong => {
            let pong = |p: &PlayerHand| p.melds.iter().any(|m| m.kind == MeldType::Pong && m.card == win.card);
            let adder = players
                .iter()
                .enumerate()
                .any(|(i, p)| i != win.seat.index() && pong(p));
            if !adder {
                return Err("a robbed kong is added to another seat's pong of the card, which it keeps");
            }
            if win.last_card {
                return Err("a kong needs a card left in the stock, so a robbed kong is never the last card");
            }
        }
        WinSource::KongReplacement => {
            let kong = winner
                .melds
                .iter()
                .any(|m| matches!(m.kind, MeldType::ConcealedKong | MeldType::ExposedKong));
            if !kong {
                return Err("a kong replacement is drawn for a kong of the winner's");
            }
        }
        WinSource::Discard | WinSource::SelfDraw => {}
    }
    Ok(())
}

/// Checks that the cards are the end of a deal the rules allow; the winner's best partition.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn check_deal(
    indicators: [Kind; 2],
    dealer: Seat,
    players: &[PlayerHand; 3],
    win: Option<&Win>,
) -> Result<Option<Best>, ScoreError> {
    let mut copies = indicator_copies(indicators);
    for (seat, p) in Seat::ALL.into_iter().zip(players) {
        check_player(indicators, seat, p, &mut copies)?;
    }
    check_copies(&copies)?;
    for (seat, p) in Seat::ALL.into_iter().zip(players) {
        if p.ready && seat == dealer {
            return Err(ScoreError::ReadyDealer(seat));
        }
        let expected = HAND + usize::from(win.is_some_and(|w| w.seat == seat));
        let cards = hand_size(p);
        if cards != expected {
            return Err(ScoreError::HandSize { seat, cards, expected });
        }
    }
    let Some(win) = win else { return Ok(None) };
    check_win(dealer, players, win).map_err(|why| ScoreError::BadWin { seat: win.seat, why })?;
    let p = &players[win.seat.index()];
    if !win.heavenly && p.hand[win.card.index()] == 0 {
        return Err(ScoreError::NotWinning(win.seat));
    }
    match best_win(p, win, indicators, FULL_GROUPS as usize) {
        Some((_, best)) => Ok(Some(best)),
        None => Err(ScoreError::NotWinning(win.seat)),
    }
}

/// The checks of [`check_deal`] that the winner's hand allows alone. The fast path of
/// [`winner_total`]: one pass over the kinds that the compiler vectorises,
/// and the itemised checks only when something is wrong.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn check_hand(indicators: [Kind; 2], p: &PlayerHand, win: &Win) -> Result<(), ScoreError> {
    let mut left = [4u8; KINDS];
    for k in indicators {
        left[k.index()] -= 1;
    }
    let mut bad = false;
    for &meld in &p.melds {
        let l = &mut left[meld.card.index()];
        bad |= meld.kind.cards() > *l || check_meld(indicators, meld, p.ready).is_err();
        *l = l.saturating_sub(meld.kind.cards());
    }
    bad |= p.hand.iter().zip(&left).fold(false, |b, (&h, &l)| b | (h > l));
    if bad {
        let mut copies = indicator_copies(indicators);
        check_player(indicators, win.seat, p, &mut copies)?;
        check_copies(&copies)?;
    }
    if !win.heavenly && p.hand[win.card.index()] == 0 {
        return Err(ScoreError::NotWinning(win.seat));
    }
    Ok(())
}

/// The winner's rounded total alone: the fast path of [`score_deal`] for searches and AIs.
/// `None` when `p` cannot be a winner's hand: not winning, without the winning card, more than
/// four of a kind with the indicators, or a meld that no play gives (see [`ScoreError`]).
///
/// ```
/// use arbiter_core::nantong::{counts_of, winner_total, Kind, PlayerHand, Seat, Win, WinSource};
/// let hand = counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s 1c 2c 3c T T".split(' ')).unwrap();
/// let p = PlayerHand { hand, ..PlayerHand::default() };
/// let ind: [Kind; 2] = ["5c".parse().unwrap(), "6c".parse().unwrap()];
/// let win = Win { seat: Seat::ALL[0], card: Kind::T, source: WinSource::SelfDraw, heavenly: false, dealer_first_discard: false, last_card: false };
/// // Qing Hu 100, Wenqian 20, self-draw 10, the pair 10: 140.
/// assert_eq!(winner_total(ind, &p, &win), Some(140));
/// // A hand without the winning card did not win on it.
/// assert_eq!(winner_total(ind, &p, &Win { card: Kind::R, ..win }), None);
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn winner_total(indicators: [Kind; 2], p: &PlayerHand, win: &Win) -> Option<u32> {
    check_hand(indicators, p, win).ok()?;
    best_win(p, win, indicators, FULL_GROUPS as usize).map(|b| round_up(b.0))
}

/// Scores a deal that `dealer` dealt: `win` is `None` for an exhausted deal.
///
/// The cards must be the end of a deal the rules allow, or a [`ScoreError`] says why not: at
/// most four of each kind among the indicators, hands and melds; 22 concealed cards per seat
/// counting three for each group declared (23 for the winner); opening triples and Tiandi Hezi
/// that match the indicators; ready only for a non-dealer with opening declarations alone; and
/// a win that fits them (see [`FinishedDeal`], which checks the same).
///
/// ```
/// use arbiter_core::nantong::{counts_of, score_deal, Kind, PlayerHand, ScoreError, Seat};
/// let ind: [Kind; 2] = ["2s".parse().unwrap(), "3m".parse().unwrap()];
/// let hand = |s: &str| PlayerHand { hand: counts_of(s.split(' ')).unwrap(), ..PlayerHand::default() };
/// let mut players = [
///     hand("2m 2m 2m 6s 6s 6s 1m 4m 7m 1s 4s 7s 1c 4c 7c 2c 5c 8c 9c 9c T W"),
///     hand("2s 2s 2s 2m 5m 8m 3s 5s 8s 2c 5c 8c 3c 6c 9c 1m 4m 7m 1s 4s 7s R"),
///     hand("5m 5m 6m 6m 8m 8m 9m 9m 1s 1s 4s 4s 7s 7s 1c 1c 4c 4c 7c 7c 3c 3c"),
/// ];
/// let s = score_deal(ind, Seat::ALL[0], &players, None).unwrap();
/// assert_eq!(s.totals, [20, 30, 0]); // 8 + 4 = 12 -> 20; 12 x 2 = 24 -> 30
/// assert_eq!(s.settlement.iter().sum::<i64>(), 0);
/// players[2].hand[9] += 1; // a fifth 1s
/// assert_eq!(score_deal(ind, Seat::ALL[0], &players, None), Err(ScoreError::TooManyCopies("1s".parse().unwrap())));
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn score_deal(
    indicators: [Kind; 2],
    dealer: Seat,
    players: &[PlayerHand; 3],
    win: Option<&Win>,
) -> Result<DealScore, ScoreError> {
    let best = check_deal(indicators, dealer, players, win)?;
    Ok(score_checked(indicators, players, win, best.as_ref()))
}

/// The end of a deal, checked to be one the rules allow, ready to score: the input of the
/// conformance `score` cases, which the command-line runner, the C library and the npm package
/// all read through this type.
///
/// As JSON (feature `serde`): `indicators` (two codes), `dealer` (a seat), `players` (three
/// objects with `hand`, a list of codes, and optional `melds` and `ready`), `win` (`null` for an
/// exhausted deal, else `{"seat", "card", "source", "heavenly", "dealer_first_discard",
/// "last_card"}`, where `card` and `source` may be left out of a heavenly win and the flags
/// default to false). Other fields are ignored, so a whole conformance case reads as one.
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use arbiter_core::nantong::FinishedDeal;
/// let case = r#"{"indicators": ["2s", "3m"], "dealer": 0, "win": null, "players": [
///   {"hand": ["2m","2m","2m","6s","6s","6s","1m","4m","7m","1s","4s","7s","1c","4c","7c","2c","5c","8c","9c","9c","T","W"]},
///   {"hand": ["2s","2s","2s","2m","5m","8m","3s","5s","8s","2c","5c","8c","3c","6c","9c","1m","4m","7m","1s","4s","7s","R"]},
///   {"hand": ["5m","5m","6m","6m","8m","8m","9m","9m","1s","1s","4s","4s","7s","7s","1c","1c","4c","4c","7c","7c","3c","3c"]}]}"#;
/// let deal: FinishedDeal = serde_json::from_str(case).unwrap();
/// assert_eq!(deal.score().totals, [20, 30, 0]);
/// // Seventeen pongs of 5m are not a deal: refused, not scored.
/// let pongs = vec![r#"{"type": "pong", "card": "5m"}"#; 17].join(",");
/// let bad = case.replacen(r#"{"hand": ["5m""#, &format!(r#"{{"melds": [{pongs}], "hand": ["5m""#), 1);
/// let err = serde_json::from_str::<FinishedDeal>(&bad).unwrap_err();
/// assert!(err.to_string().contains("at most eight melds"), "{err}");
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RawDeal"))]
pub struct FinishedDeal {
    indicators: [Kind; 2],
    dealer: Seat,
    players: [PlayerHand; 3],
    win: Option<Win>,
    /// Found while checking the win, so that scoring cannot fail.
    #[cfg_attr(feature = "serde", serde(skip_serializing))]
    best: Option<Best>,
}

impl FinishedDeal {
    /// The deal, if the cards are the end of one the rules allow (see [`score_deal`]
    /// for what that takes).
    ///
    /// ```
    /// use arbiter_core::nantong::{FinishedDeal, Kind, PlayerHand, ScoreError, Seat};
    /// let empty: [PlayerHand; 3] = Default::default();
    /// let err = FinishedDeal::new([Kind::T, Kind::W], Seat::ALL[0], empty, None).unwrap_err();
    /// assert!(matches!(err, ScoreError::HandSize { cards: 0, expected: 22, .. }));
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn new(
        indicators: [Kind; 2],
        dealer: Seat,
        players: [PlayerHand; 3],
        win: Option<Win>,
    ) -> Result<FinishedDeal, ScoreError> {
        let best = check_deal(indicators, dealer, &players, win.as_ref())?;
        Ok(FinishedDeal {
            indicators,
            dealer,
            players,
            win,
            best,
        })
    }

    /// The two indicators.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn indicators(&self) -> [Kind; 2] {
        self.indicators
    }

    /// The dealer.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Each seat's cards.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn players(&self) -> &[PlayerHand; 3] {
        &self.players
    }

    /// How the deal was won (`None` if exhausted).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn win(&self) -> Option<&Win> {
        self.win.as_ref()
    }

    /// The itemised score.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn score(&self) -> DealScore {
        score_checked(self.indicators, &self.players, self.win.as_ref(), self.best.as_ref())
    }
}

/// A [`FinishedDeal`] as read, before its checks.
#[cfg(feature = "serde")]
struct RawDeal {
    indicators: [Kind; 2],
    dealer: Seat,
    players: [PlayerHand; 3],
    /// Required (`null` for an exhausted deal), so that a case that forgets it is not read as
    /// exhausted.
    win: Option<Win>,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(RawDeal, deny_unknown = false;
    indicators: [Kind; 2] => serde::Deserialize::deserialize;
    dealer: Seat => serde::Deserialize::deserialize;
    players: [PlayerHand; 3] => serde::Deserialize::deserialize;
    win: Option<Win> => serde::Deserialize::deserialize;
);

#[cfg(feature = "serde")]
impl TryFrom<RawDeal> for FinishedDeal {
    type Error = ScoreError;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn try_from(r: RawDeal) -> Result<FinishedDeal, ScoreError> {
        FinishedDeal::new(r.indicators, r.dealer, r.players, r.win)
    }
}

/// A [`Win`] as read: `card` and `source` may be absent from a heavenly win, which has no
/// winning card.
#[cfg(feature = "serde")]
pub(crate) struct RawWin {
    seat: Seat,
    card: Option<Kind>,
    source: Option<WinSource>,
    heavenly: bool,
    dealer_first_discard: bool,
    last_card: bool,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(RawWin, deny_unknown = false;
    seat: Seat => serde::Deserialize::deserialize;
    card: Option<Kind> => serde::Deserialize::deserialize, default;
    source: Option<WinSource> => serde::Deserialize::deserialize, default;
    heavenly: bool => serde::Deserialize::deserialize, default;
    dealer_first_discard: bool => serde::Deserialize::deserialize, default;
    last_card: bool => serde::Deserialize::deserialize, default;
);

#[cfg(feature = "serde")]
impl TryFrom<RawWin> for Win {
    type Error = &'static str;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn try_from(r: RawWin) -> Result<Win, &'static str> {
        let (card, source) = match (r.card, r.source) {
            (Some(card), Some(source)) => (card, source),
            // What the engine records for a heavenly win; scoring ignores both.
            _ if r.heavenly => (r.card.unwrap_or(Kind::T), r.source.unwrap_or(WinSource::SelfDraw)),
            _ => return Err("a win needs `card` and `source` unless it is heavenly"),
        };
        Ok(Win {
            seat: r.seat,
            card,
            source,
            heavenly: r.heavenly,
            dealer_first_discard: r.dealer_first_discard,
            last_card: r.last_card,
        })
    }
}

/// Most melds a seat can hold: seven groups and a Tiandi Hezi.
#[cfg(feature = "serde")]
const MAX_MELDS: usize = 8;

/// `{"hand": [codes, sorted], "melds": [...], "ready": bool}`. Reading counts the codes as they
/// come and stops at the ninth meld, so that no input makes it hold more than a hand's worth.
#[cfg(feature = "serde")]
impl serde::Serialize for PlayerHand {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let hand: alloc::vec::Vec<Kind> = Kind::all()
            .flat_map(|k| core::iter::repeat_n(k, self.hand[k.index()] as usize))
            .collect();
        let mut st = s.serialize_struct("PlayerHand", 3)?;
        st.serialize_field("hand", &hand)?;
        st.serialize_field("melds", &self.melds)?;
        st.serialize_field("ready", &self.ready)?;
        st.end()
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for PlayerHand {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Raw {
            hand: Counts,
            melds: alloc::vec::Vec<Meld>,
            ready: bool,
        }
        crate::fields::read_fields!(Raw, deny_unknown = false;
            hand: Counts => counted;
            melds: alloc::vec::Vec<Meld> => few_melds, default;
            ready: bool => serde::Deserialize::deserialize, default;
        );
        let r = Raw::deserialize(d)?;
        Ok(PlayerHand {
            hand: r.hand,
            melds: r.melds,
            ready: r.ready,
        })
    }
}

/// Counts a list of codes; counts stop at 255, far past the four that checks allow.
#[cfg(feature = "serde")]
#[cfg_attr(arbiter_size, optimize(size))]
fn counted<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Counts, D::Error> {
    struct Codes;
    impl<'de> serde::de::Visitor<'de> for Codes {
        type Value = Counts;
        #[cfg_attr(arbiter_size, optimize(size))]
        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("a list of card codes")
        }
        #[cfg_attr(arbiter_size, optimize(size))]
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Counts, A::Error> {
            let mut c = [0u8; KINDS];
            while let Some(k) = seq.next_element::<Kind>()? {
                c[k.index()] = c[k.index()].saturating_add(1);
            }
            Ok(c)
        }
    }
    d.deserialize_seq(Codes)
}

#[cfg(feature = "serde")]
#[cfg_attr(arbiter_size, optimize(size))]
fn few_melds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<alloc::vec::Vec<Meld>, D::Error> {
    struct Melds;
    impl<'de> serde::de::Visitor<'de> for Melds {
        type Value = alloc::vec::Vec<Meld>;
        #[cfg_attr(arbiter_size, optimize(size))]
        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            write!(f, "a list of at most {MAX_MELDS} melds")
        }
        #[cfg_attr(arbiter_size, optimize(size))]
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = alloc::vec::Vec::new();
            while let Some(m) = seq.next_element::<Meld>()? {
                if out.len() == MAX_MELDS {
                    return Err(serde::de::Error::custom(
                        "a seat holds at most eight melds: seven groups and a Tiandi Hezi",
                    ));
                }
                out.push(m);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Melds)
}

#[cfg(test)]
mod hand_check_tests {
    use super::*;
    use crate::nantong::MeldType;

    fn kinds(codes: &str) -> Vec<Kind> {
        codes.split(' ').map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn a_hezi_is_no_group_and_copies_in_sight_are_not_waited_for() {
        let mut check = HandCheck {
            hand: kinds("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s 1c 2c 3c T"),
            melds: alloc::vec![Meld {
                kind: MeldType::Hezi,
                card: "W".parse().unwrap()
            }],
        };
        assert_eq!(check.standing().waits, kinds("T"), "a hezi leaves seven groups to make");
        check.hand.push("T".parse().unwrap());
        assert!(check.standing().winning);
        // One T in hand and three in a pong: all four are in sight, so T completes nothing.
        let pong = HandCheck {
            hand: kinds("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s T"),
            melds: alloc::vec![Meld {
                kind: MeldType::Pong,
                card: "T".parse().unwrap()
            }],
        };
        assert!(pong.standing().waits.is_empty());
    }
}

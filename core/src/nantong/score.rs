//! Scoring: base hu of every player, the winner's bonuses and multipliers, rounding, settlement,
//! and an itemised breakdown a UI can show.

use alloc::vec::Vec;
use arrayvec::ArrayVec;
use core::fmt;

use super::card::{Counts, Kind};
use super::hand::{for_each_partition, Group};
use super::input::{check_deal, check_hand};
use super::state::Seat;

/// A declared meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum MeldType {
    /// Three identical, one of them a claimed discard.
    Pong,
    /// Four identical, exposed (claimed discard or added to a pong).
    ExposedKong,
    /// Four identical declared from the hand.
    ConcealedKong,
    /// Four identical dealt, declared in preparation.
    OpeningFour,
    /// Three identical matching an indicator, declared in preparation.
    OpeningTriple,
    /// Tiandi Hezi: the other two copies of a doubled indicator (not one of the seven groups).
    Hezi,
}

impl MeldType {
    /// Every meld type, in the order of the rules file.
    pub const ALL: [MeldType; 6] = [
        MeldType::Pong,
        MeldType::ExposedKong,
        MeldType::ConcealedKong,
        MeldType::OpeningFour,
        MeldType::OpeningTriple,
        MeldType::Hezi,
    ];

    /// Cards of the kind the meld holds.
    pub const fn cards(self) -> u8 {
        match self {
            MeldType::Pong | MeldType::OpeningTriple => 3,
            MeldType::Hezi => 2,
            _ => 4,
        }
    }

    /// The JSON name.
    pub const fn name(self) -> &'static str {
        match self {
            MeldType::Pong => "pong",
            MeldType::ExposedKong => "exposed_kong",
            MeldType::ConcealedKong => "concealed_kong",
            MeldType::OpeningFour => "opening_four",
            MeldType::OpeningTriple => "opening_triple",
            MeldType::Hezi => "hezi",
        }
    }

    fn base(self) -> u32 {
        match self {
            MeldType::Pong => 2,
            MeldType::ExposedKong => 8,
            MeldType::ConcealedKong => 12,
            MeldType::OpeningFour | MeldType::OpeningTriple | MeldType::Hezi => 16,
        }
    }
}

/// A meld: its type and kind.
///
/// ```
/// use arbiter_core::nantong::{Meld, MeldType, Kind};
/// let m = Meld { kind: MeldType::Pong, card: Kind::T };
/// assert_eq!(m.to_string(), "pong T");
/// assert!(!m.is_opening() && Meld { kind: MeldType::Hezi, ..m }.is_opening());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Meld {
    /// The type.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: MeldType,
    /// The card.
    pub card: Kind,
}

impl Meld {
    /// Whether it was declared in preparation (opening four, opening triple, Tiandi Hezi).
    pub const fn is_opening(self) -> bool {
        matches!(
            self.kind,
            MeldType::OpeningFour | MeldType::OpeningTriple | MeldType::Hezi
        )
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.name(), self.card)
    }
}

/// Where the winning card came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum WinSource {
    /// Another player's discard.
    Discard,
    /// Drawn from the front of the stock.
    SelfDraw,
    /// A replacement draw after a kong or declaration.
    KongReplacement,
    /// The card another player added to a pong.
    RobbedKong,
}

/// How a deal was won.
///
/// In JSON (feature `serde`), `card` and `source` may be left out of a heavenly win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "super::input::RawWin"))]
pub struct Win {
    /// The winner's seat.
    pub seat: Seat,
    /// The winning card (ignored for a heavenly win).
    pub card: Kind,
    /// Where it came from (ignored for a heavenly win).
    pub source: WinSource,
    /// The dealer's dealt hand won before the first discard.
    #[cfg_attr(feature = "serde", serde(default))]
    pub heavenly: bool,
    /// The winning card was the dealer's first discard.
    #[cfg_attr(feature = "serde", serde(default))]
    pub dealer_first_discard: bool,
    /// The winning card was the last card of the stock.
    #[cfg_attr(feature = "serde", serde(default))]
    pub last_card: bool,
}

/// One player's cards at the end of a deal.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PlayerHand {
    /// Concealed cards (the winner's include the winning card).
    pub hand: Counts,
    /// Declared melds.
    pub melds: Vec<Meld>,
    /// Declared ready at opening.
    pub ready: bool,
}

/// Why the cards given to score are not the end of a deal the rules allow.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// The winner's cards are not seven groups and a pair (or lack the winning card).
    #[error("{0}'s hand is not a winning hand")]
    NotWinning(Seat),
    /// More than the four copies of a kind in the indicators, hands and melds.
    #[error("more than four {0} among the indicators, hands and melds")]
    TooManyCopies(Kind),
    /// Concealed cards plus three for each group declared are not 22 (23 for the winner).
    #[error("{seat} holds {cards} cards, counting three for each group declared; a deal leaves {expected}")]
    HandSize {
        /// Whose hand.
        seat: Seat,
        /// Concealed cards plus three per group declared.
        cards: usize,
        /// What the deal leaves: 23 for the winner, else 22.
        expected: usize,
    },
    /// A meld that no play can give this seat.
    #[error("{seat} cannot hold {meld}: {why}")]
    BadMeld {
        /// Whose meld.
        seat: Seat,
        /// The meld.
        meld: Meld,
        /// Why not.
        why: &'static str,
    },
    /// The dealer is marked ready.
    #[error("{0} deals and so cannot have declared ready")]
    ReadyDealer(Seat),
    /// The win contradicts the rest of the deal.
    #[error("{seat}'s win cannot be: {why}")]
    BadWin {
        /// The winner.
        seat: Seat,
        /// Why not.
        why: &'static str,
    },
}

/// What a scoring group is. In JSON, one name: a meld's type (`"pong"`, …, `"hezi"`),
/// `"three_in_hand"`, `"four_in_hand"` or `"completed_by_discard"`.
///
/// ```
/// use arbiter_core::nantong::{MeldType, Source};
/// assert_eq!(Source::Meld(MeldType::ExposedKong).name(), "exposed_kong");
/// assert_eq!(Source::ThreeInHand.name(), "three_in_hand");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A declared meld.
    Meld(MeldType),
    /// Three identical concealed in hand.
    ThreeInHand,
    /// Four identical concealed in hand.
    FourInHand,
    /// A triplet completed by a winning discard: scores as a pong.
    CompletedByDiscard,
}

impl Source {
    /// The JSON name.
    pub const fn name(self) -> &'static str {
        match self {
            Source::Meld(t) => t.name(),
            Source::ThreeInHand => "three_in_hand",
            Source::FourInHand => "four_in_hand",
            Source::CompletedByDiscard => "completed_by_discard",
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Source {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Source {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <alloc::borrow::Cow<'de, str>>::deserialize(d)?;
        let melds = MeldType::ALL;
        let in_hand = [Source::ThreeInHand, Source::FourInHand, Source::CompletedByDiscard];
        melds
            .map(Source::Meld)
            .into_iter()
            .chain(in_hand)
            .find(|x| x.name() == s)
            .ok_or_else(|| serde::de::Error::custom(alloc::format!("unknown group source {s:?}")))
    }
}

/// A bonus of the winner: its name and value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Bonus {
    /// What it is for (`"qing hu"`, `"self-draw"`, …).
    pub name: &'static str,
    /// Hu added.
    pub value: u32,
}

/// A group's base hu and what doubled it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GroupScore {
    /// What the group is.
    pub source: Source,
    /// Its kind.
    pub card: Kind,
    /// Base before doublings.
    pub base: u32,
    /// Each doubling, by reason.
    pub doublings: ArrayVec<&'static str, 5>,
    /// Base times doublings.
    pub value: u32,
}

/// One player's itemised score.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlayerScore {
    /// Scoring groups (base hu). A deal the rules allow has at most nine: seven groups declared
    /// or held three or four times, a Tiandi Hezi, and a triplet completed by the winning discard.
    pub groups: ArrayVec<GroupScore, 16>,
    /// Sum of the groups.
    pub base: u32,
    /// The winner's bonuses, by name.
    pub bonuses: ArrayVec<Bonus, 6>,
    /// The winner's doublings, by name.
    pub multipliers: ArrayVec<&'static str, 8>,
    /// (base + bonuses) x multipliers.
    pub raw: u32,
    /// Rounded up to a multiple of ten.
    pub total: u32,
}

/// A whole deal's score, itemised for a UI. As JSON (feature `serde`):
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use arbiter_core::nantong::{counts_of, score_deal, Kind, PlayerHand, Seat};
/// let ind: [Kind; 2] = ["2s".parse().unwrap(), "3m".parse().unwrap()];
/// let hand = |s: &str| PlayerHand { hand: counts_of(s.split(' ')).unwrap(), ..PlayerHand::default() };
/// let players = [
///     hand("2m 2m 2m 6s 6s 6s 1m 4m 7m 1s 4s 7s 1c 4c 7c 2c 5c 8c 9c 9c T W"),
///     hand("2s 2s 2s 2m 5m 8m 3s 5s 8s 2c 5c 8c 3c 6c 9c 1m 4m 7m 1s 4s 7s R"),
///     hand("5m 5m 6m 6m 8m 8m 9m 9m 1s 1s 4s 4s 7s 7s 1c 1c 4c 4c 7c 7c 3c 3c"),
/// ];
/// let s = score_deal(ind, Seat::ALL[0], &players, None).unwrap();
/// let json = serde_json::to_value(&s).unwrap();
/// assert_eq!(json["totals"], serde_json::json!([20, 30, 0]));
/// assert_eq!(json["settlement"], serde_json::json!([10, 40, -50]));
/// let group = &json["players"][1]["groups"][0];
/// assert_eq!(group["source"], "three_in_hand");
/// assert_eq!(group["card"], "2s");
/// assert_eq!(group["doublings"], serde_json::json!(["indicator rank"]));
/// assert_eq!(group["value"], 24);
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DealScore {
    /// Each seat's breakdown.
    pub players: [PlayerScore; 3],
    /// Each seat's rounded total.
    pub totals: [u32; 3],
    /// Net results of the pairwise settlement (sum 0).
    pub settlement: [i64; 3],
}

/// The doublings of a group of `kind` from its nature and the indicators.
fn doublings(source: Source, kind: Kind, indicators: [Kind; 2]) -> ArrayVec<&'static str, 5> {
    let mut d = ArrayVec::new();
    if kind.is_old_general() {
        d.push("old general");
    }
    for ind in indicators {
        if ind.is_ordinary() && kind.is_ordinary() && ind.rank() == kind.rank() {
            d.push("indicator rank");
        }
        if ind.is_old_general() && kind.is_old_general() {
            d.push("indicator old general");
        }
        if ind == kind && matches!(source, Source::Meld(MeldType::Pong) | Source::CompletedByDiscard) {
            d.push("exact match");
        }
    }
    d
}

/// Base hu of a group; every group's value (base times at most five doublings) is at most 512.
fn base_of(source: Source, card: Kind, indicators: [Kind; 2]) -> u32 {
    match source {
        Source::Meld(t) => t.base(),
        Source::ThreeInHand if indicators.contains(&card) => 12,
        Source::ThreeInHand => 4,
        Source::FourInHand => 12,
        Source::CompletedByDiscard => 2,
    }
}

/// Receives the items of a score: [`PlayerScore`] records them for a breakdown, [`Sum`] only adds
/// them up (the search for the best partition), so one piece of logic serves both.
trait Sink {
    fn group(&mut self, source: Source, card: Kind, indicators: [Kind; 2]);
    fn bonus(&mut self, name: &'static str, value: u32);
    fn multiplier(&mut self, name: &'static str);
}

impl Sink for PlayerScore {
    fn group(&mut self, source: Source, card: Kind, indicators: [Kind; 2]) {
        let base = base_of(source, card, indicators);
        let doublings = doublings(source, card, indicators);
        let value = base << doublings.len();
        self.base = self.base.saturating_add(value);
        self.groups.push(GroupScore {
            source,
            card,
            base,
            doublings,
            value,
        });
    }
    fn bonus(&mut self, name: &'static str, value: u32) {
        self.bonuses.push(Bonus { name, value });
    }
    fn multiplier(&mut self, name: &'static str) {
        self.multipliers.push(name);
    }
}

/// Base, bonuses and the number of doublings, without names.
#[derive(Default, Clone, Copy)]
struct Sum {
    base: u32,
    bonus: u32,
    doublings: u32,
}

impl Sink for Sum {
    fn group(&mut self, source: Source, card: Kind, indicators: [Kind; 2]) {
        let value = base_of(source, card, indicators) << doublings(source, card, indicators).len();
        self.base = self.base.saturating_add(value);
    }
    fn bonus(&mut self, _: &'static str, value: u32) {
        self.bonus = self.bonus.saturating_add(value);
    }
    fn multiplier(&mut self, _: &'static str) {
        self.doublings += 1;
    }
}

/// `(base + bonus)` doubled `doublings` times, saturating: validated deals stay far below the
/// limit, but the arithmetic must not be what breaks on a hand nobody validated. In 64 bits, so
/// that the search for the best partition pays no overflow branch.
fn doubled(base: u32, bonus: u32, doublings: u32) -> u32 {
    let v = (u64::from(base) + u64::from(bonus)) << doublings.min(31);
    v.min(u64::from(u32::MAX)) as u32
}

impl Sum {
    fn raw(&self) -> u32 {
        doubled(self.base, self.bonus, self.doublings)
    }
}

/// Base hu groups: melds, three or four identical in `in_hand`, and a triplet completed by a
/// winning discard.
fn base_groups(sink: &mut impl Sink, in_hand: &Counts, melds: &[Meld], completed: Option<Kind>, indicators: [Kind; 2]) {
    for m in melds {
        sink.group(Source::Meld(m.kind), m.card, indicators);
    }
    for k in Kind::all() {
        match in_hand[k.index()] {
            3 => sink.group(Source::ThreeInHand, k, indicators),
            4 => sink.group(Source::FourInHand, k, indicators),
            _ => {}
        }
    }
    if let Some(k) = completed {
        sink.group(Source::CompletedByDiscard, k, indicators);
    }
}

fn round_up(v: u32) -> u32 {
    v.div_ceil(10).saturating_mul(10)
}

fn finish(mut s: PlayerScore) -> PlayerScore {
    let bonus = s.bonuses.iter().fold(0u32, |t, b| t.saturating_add(b.value));
    s.raw = doubled(s.base, bonus, s.multipliers.len() as u32);
    s.total = round_up(s.raw);
    s
}

fn plain(p: &PlayerHand, indicators: [Kind; 2]) -> PlayerScore {
    let mut s = PlayerScore::default();
    base_groups(&mut s, &p.hand, &p.melds, None, indicators);
    finish(s)
}

/// Where the winning card sits in a partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    None,
    Pair,
    Triplet,
    /// In the sequence starting at this kind, at this position (0..3).
    Sequence(Kind, u8),
}

fn roles(groups: &[Group], pair: Kind, w: Kind) -> ArrayVec<Role, 8> {
    let mut out = ArrayVec::new();
    if pair == w {
        out.push(Role::Pair);
    }
    for g in groups {
        match *g {
            Group::Triplet(k) if k == w => out.push(Role::Triplet),
            Group::Sequence(s) if (s.index()..s.index() + 3).contains(&w.index()) => {
                out.push(Role::Sequence(s, (w.index() - s.index()) as u8))
            }
            _ => {}
        }
    }
    out
}

/// The winner's cards held before the winning card arrived from another player, if it did.
fn held(p: &PlayerHand, win: &Win) -> (Counts, bool) {
    let from_other = !win.heavenly && matches!(win.source, WinSource::Discard | WinSource::RobbedKong);
    let mut in_hand = p.hand;
    if from_other {
        in_hand[win.card.index()] = in_hand[win.card.index()].saturating_sub(1);
    }
    (in_hand, from_other)
}

/// The winner's items that no partition changes: base hu of melds and of three or four in hand,
/// self-draw bonuses, and the doublings of three elders, heavenly, first discard, ready, last card.
fn fixed_items(sink: &mut impl Sink, p: &PlayerHand, win: &Win, indicators: [Kind; 2]) {
    let (in_hand, _) = held(p, win);
    base_groups(sink, &in_hand, &p.melds, None, indicators);
    let drawn = !win.heavenly && matches!(win.source, WinSource::SelfDraw | WinSource::KongReplacement);
    if drawn {
        sink.bonus("self-draw", 10);
        if win.source == WinSource::KongReplacement {
            sink.bonus("kong replacement", 10);
        }
    }
    let elders = [Kind::R, Kind::W, Kind::T].iter().all(|k| {
        let melded: u32 = p
            .melds
            .iter()
            .filter(|m| m.card == *k && m.kind != MeldType::Hezi)
            .map(|m| m.kind.cards() as u32)
            .sum();
        p.hand[k.index()] as u32 + melded >= 3
    });
    if elders {
        sink.multiplier("three elders");
    }
    if win.heavenly {
        sink.multiplier("heavenly win");
    }
    if win.dealer_first_discard && !win.heavenly {
        sink.multiplier("dealer's first discard");
    }
    if p.ready {
        sink.multiplier("ready");
    }
    if win.last_card && drawn {
        sink.multiplier("self-draw of the last card");
    }
}

/// The winner's items that depend on the partition and the place of the winning card: a triplet
/// completed by a discard, the form, Wenqian, the wait bonus, Piao Hu and closed floating.
fn partition_items(sink: &mut impl Sink, p: &PlayerHand, win: &Win, indicators: [Kind; 2], part: &[Group], role: Role) {
    let w = win.card;
    let (in_hand, from_other) = held(p, win);
    let completed = (from_other && role == Role::Triplet && in_hand[w.index()] == 2).then_some(w);
    if let Some(k) = completed {
        sink.group(Source::CompletedByDiscard, k, indicators);
    }
    let wenqian_start = Kind::from_index(18).expect("1c");
    let melded_groups = p.melds.iter().filter(|m| m.kind != MeldType::Hezi).count();
    let sequences = part.iter().filter(|g| matches!(g, Group::Sequence(_))).count();
    let wenqian = part.iter().filter(|g| **g == Group::Sequence(wenqian_start)).count();
    let qing = melded_groups == 0 && sequences == 7;
    let piao = sequences == wenqian;
    if qing {
        sink.bonus("qing hu", 100);
    } else if piao {
        sink.bonus("piao hu", 50);
    } else {
        sink.bonus("tazi hu", 20);
    }
    if wenqian > 0 {
        sink.bonus("wenqian", [0, 20, 50, 100, 200][wenqian.min(4)]);
    }
    let wait = match role {
        Role::Pair => true,
        Role::Sequence(s, pos) => pos == 1 || (s.rank() == Some(1) && pos == 2) || (s.rank() == Some(7) && pos == 0),
        Role::None | Role::Triplet => false,
    };
    if wait && !win.heavenly {
        sink.bonus("winning card completes pair, middle, 3 of 1-2-3 or 7 of 7-8-9", 10);
    }
    if piao {
        sink.multiplier("piao hu");
        let pong = completed.is_some() || p.melds.iter().any(|m| m.kind == MeldType::Pong);
        if !pong {
            sink.multiplier("closed floating");
        }
    }
}

/// The winner's best partition and the place of the winning card in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Best {
    groups: ArrayVec<Group, 7>,
    role: Role,
}

/// The best (partition, role) of a winning hand and its raw total, without building a breakdown.
pub(crate) fn best_win(p: &PlayerHand, win: &Win, indicators: [Kind; 2]) -> Option<(u32, Best)> {
    let melds = p.melds.iter().filter(|m| m.kind != MeldType::Hezi).count();
    let mut fixed = Sum::default();
    fixed_items(&mut fixed, p, win, indicators);
    let mut best: Option<(u32, Best)> = None;
    for_each_partition(&p.hand, melds, |groups, pair| {
        let roles = if win.heavenly {
            core::iter::once(Role::None).collect()
        } else {
            roles(groups, pair, win.card)
        };
        for role in roles {
            let mut sum = fixed;
            partition_items(&mut sum, p, win, indicators, groups, role);
            let raw = sum.raw();
            if best.as_ref().is_none_or(|b| raw > b.0) {
                let groups = groups.iter().copied().collect();
                best = Some((raw, Best { groups, role }));
            }
        }
    });
    best
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
pub fn winner_total(indicators: [Kind; 2], p: &PlayerHand, win: &Win) -> Option<u32> {
    check_hand(indicators, p, win).ok()?;
    best_win(p, win, indicators).map(|b| round_up(b.0))
}

/// Every seat's breakdown: base hu for all, and for the winner (with its best partition) the
/// bonuses and multipliers too.
fn breakdown(indicators: [Kind; 2], players: &[PlayerHand; 3], win: Option<(&Win, &Best)>) -> DealScore {
    let scores: [PlayerScore; 3] = core::array::from_fn(|i| match win {
        Some((w, best)) if w.seat.index() == i => {
            let p = &players[i];
            let mut s = PlayerScore::default();
            fixed_items(&mut s, p, w, indicators);
            partition_items(&mut s, p, w, indicators, &best.groups, best.role);
            finish(s)
        }
        _ => plain(&players[i], indicators),
    });
    let totals = [scores[0].total, scores[1].total, scores[2].total];
    let sum: i64 = totals.iter().map(|&t| t as i64).sum();
    let settlement = totals.map(|t| 3 * t as i64 - sum);
    DealScore {
        players: scores,
        totals,
        settlement,
    }
}

/// Scores a deal that `dealer` dealt: `win` is `None` for an exhausted deal.
///
/// The cards must be the end of a deal the rules allow, or a [`ScoreError`] says why not: at
/// most four of each kind among the indicators, hands and melds; 22 concealed cards per seat
/// counting three for each group declared (23 for the winner); opening triples and Tiandi Hezi
/// that match the indicators; ready only for a non-dealer with opening declarations alone; and
/// a win that fits them (see [`FinishedDeal`](super::FinishedDeal), which checks the same).
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
pub fn score_deal(
    indicators: [Kind; 2],
    dealer: Seat,
    players: &[PlayerHand; 3],
    win: Option<&Win>,
) -> Result<DealScore, ScoreError> {
    let best = check_deal(indicators, dealer, players, win)?;
    Ok(breakdown(indicators, players, win.zip(best.as_ref())))
}

/// Scores a deal a [`FinishedDeal`](super::FinishedDeal) has checked, with its best partition.
pub(crate) fn score_checked(
    indicators: [Kind; 2],
    players: &[PlayerHand; 3],
    win: Option<&Win>,
    best: Option<&Best>,
) -> DealScore {
    breakdown(indicators, players, win.zip(best))
}

/// Scores the end of a deal the engine played: its states are deals the rules allow.
pub(crate) fn score_played(indicators: [Kind; 2], players: &[PlayerHand; 3], win: Option<&Win>) -> DealScore {
    let best = win.map(|w| {
        // The engine offers a win only on a hand that `is_winning` accepts, and that check is
        // the one `for_each_partition` starts from, so there is a partition.
        best_win(&players[w.seat.index()], w, indicators)
            .expect("the engine offers a win only on a winning hand")
            .1
    });
    breakdown(indicators, players, win.zip(best.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_saturate_instead_of_wrapping() {
        assert_eq!(doubled(u32::MAX - 5, 10, 7), u32::MAX);
        assert_eq!(doubled(100, 20, 40), u32::MAX);
        assert_eq!(round_up(u32::MAX), u32::MAX);
        let mut s = Sum::default();
        // 128 hu each (16, doubled as an old general and by both indicators).
        for _ in 0..34_000_000 {
            s.group(Source::Meld(MeldType::Hezi), Kind::T, [Kind::T; 2]);
        }
        assert_eq!(s.base, u32::MAX);
        s.bonus("x", 10);
        s.multiplier("y");
        assert_eq!(s.raw(), u32::MAX);
    }
}

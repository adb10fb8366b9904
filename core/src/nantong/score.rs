//! Scoring: base hu of every player, the winner's bonuses and multipliers, rounding, settlement,
//! and an itemised breakdown a UI can show.

use alloc::vec::Vec;
use arrayvec::ArrayVec;
use core::fmt;

use super::card::{Counts, Kind, KINDS};
use super::hand::{shapes, Bits, Place};
use super::seat::Seat;

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
    /// Every meld type.
    ///
    /// ```
    /// use arbiter_core::nantong::MeldType;
    /// assert_eq!(MeldType::ALL.iter().map(|t| t.cards() as u32).sum::<u32>(), 20);
    /// ```
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
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Meld {
    /// The type.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: MeldType,
    /// The card.
    pub card: Kind,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Meld, deny_unknown = false;
    kind("type"): MeldType => serde::Deserialize::deserialize;
    card: Kind => serde::Deserialize::deserialize;
);

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
#[cfg_attr(feature = "serde", serde(try_from = "super::validate::RawWin"))]
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
        let in_hand = [Source::ThreeInHand, Source::FourInHand, Source::CompletedByDiscard];
        MeldType::ALL
            .map(Source::Meld)
            .into_iter()
            .chain(in_hand)
            .find(|x| x.name() == s)
            .ok_or_else(|| {
                serde::de::Error::custom(alloc::format!("unknown group source {:?}", crate::error::quote(&s)))
            })
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

/// The doublings of a group of `kind`, from its nature and the indicators, as a set of reasons:
/// bit 0 old general, then for each indicator its class (bit 1, 3) and an exact match (bit 2, 4).
/// A set, not a list of names, so that summing pays no branch.
fn doublings(source: Source, kind: Kind, indicators: Indicators) -> u8 {
    let class = kind.indicator_class();
    let pong = matches!(source, Source::Meld(MeldType::Pong) | Source::CompletedByDiscard);
    let mut bits = u8::from(kind.is_old_general());
    for (i, (ind, ind_class)) in indicators.kinds.into_iter().zip(indicators.classes).enumerate() {
        bits |= (u8::from(ind_class == class) | u8::from(pong && ind == kind) << 1) << (1 + 2 * i);
    }
    bits
}

/// The name of each reason in a set of [`doublings`] of a group of `kind`.
fn doubling_names(bits: u8, kind: Kind) -> ArrayVec<&'static str, 5> {
    let class = if kind.is_old_general() {
        "indicator old general"
    } else {
        "indicator rank"
    };
    let names = ["old general", class, "exact match", class, "exact match"];
    (0..5).filter(|i| bits >> i & 1 != 0).map(|i| names[i]).collect()
}

/// The two indicators, with the class of kinds each doubles (see [`Kind::indicator_class`]), found
/// once for all the groups of a deal.
#[derive(Clone, Copy)]
struct Indicators {
    kinds: [Kind; 2],
    classes: [u8; 2],
}

impl Indicators {
    fn new(kinds: [Kind; 2]) -> Indicators {
        Indicators {
            kinds,
            classes: kinds.map(Kind::indicator_class),
        }
    }
}

/// Base hu of a group; every group's value (base times at most five doublings) is at most 512.
fn base_of(source: Source, card: Kind, indicators: Indicators) -> u32 {
    match source {
        Source::Meld(t) => t.base(),
        Source::ThreeInHand if indicators.kinds.contains(&card) => 12,
        Source::ThreeInHand => 4,
        Source::FourInHand => 12,
        Source::CompletedByDiscard => 2,
    }
}

/// Receives the items of a score: [`PlayerScore`] records them for a breakdown, [`Sum`] only adds
/// them up (the search for the best partition), so one piece of logic serves both.
trait Sink {
    fn group(&mut self, source: Source, card: Kind, indicators: Indicators);
    fn bonus(&mut self, name: &'static str, value: u32);
    fn multiplier(&mut self, name: &'static str);
}

impl Sink for PlayerScore {
    fn group(&mut self, source: Source, card: Kind, indicators: Indicators) {
        let base = base_of(source, card, indicators);
        let names = doubling_names(doublings(source, card, indicators), card);
        let value = base << names.len();
        self.base = self.base.saturating_add(value);
        self.groups.push(GroupScore {
            source,
            card,
            base,
            doublings: names,
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
    fn group(&mut self, source: Source, card: Kind, indicators: Indicators) {
        let value = base_of(source, card, indicators) << doublings(source, card, indicators).count_ones();
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

/// Base hu groups: melds, and three or four identical in `in_hand`.
fn base_groups(sink: &mut impl Sink, in_hand: &Counts, melds: &[Meld], indicators: Indicators) {
    for m in melds {
        sink.group(Source::Meld(m.kind), m.card, indicators);
    }
    // Eight counts at a time: bit 3 of a count plus five is set for three and four (counts
    // above four, which no deal holds, may be seen or not, but never break the loop).
    let mut padded = [0u8; 32];
    padded[..KINDS].copy_from_slice(in_hand);
    for chunk in (0..KINDS).step_by(8) {
        let word = u64::from_le_bytes(padded[chunk..chunk + 8].try_into().expect("eight counts"));
        let threes = word.wrapping_add(0x0505_0505_0505_0505) & 0x0808_0808_0808_0808;
        for bit in Bits(threes) {
            let i = chunk + bit as usize / 8;
            let Some(k) = Kind::from_index(i) else { break };
            let source = match in_hand[i] {
                3 => Source::ThreeInHand,
                4 => Source::FourInHand,
                _ => continue,
            };
            sink.group(source, k, indicators);
        }
    }
}

/// The base hu that concealed `counts` score as three or four in hand, before any win.
pub(crate) fn concealed_base(counts: &Counts, indicators: [Kind; 2]) -> u32 {
    let mut sum = Sum::default();
    base_groups(&mut sum, counts, &[], Indicators::new(indicators));
    sum.base
}

/// Totals are paid in tens, rounded up.
pub(crate) fn round_up(v: u32) -> u32 {
    v.div_ceil(10).saturating_mul(10)
}

fn finish(s: &mut PlayerScore) {
    let bonus = s.bonuses.iter().fold(0u32, |t, b| t.saturating_add(b.value));
    s.raw = doubled(s.base, bonus, s.multipliers.len() as u32);
    s.total = round_up(s.raw);
}

/// Whether the winning card came from another seat (a discard or a robbed kong).
fn from_other(win: &Win) -> bool {
    !win.heavenly && matches!(win.source, WinSource::Discard | WinSource::RobbedKong)
}

/// The winner's cards held before the winning card arrived from another seat, if it did.
fn held(p: &PlayerHand, win: &Win) -> Counts {
    let mut in_hand = p.hand;
    if from_other(win) {
        in_hand[win.card.index()] = in_hand[win.card.index()].saturating_sub(1);
    }
    in_hand
}

/// The winner's items that no partition changes: base hu of melds and of three or four in hand,
/// self-draw bonuses, and the doublings of three elders, heavenly, first discard, ready, last card.
fn fixed_items(sink: &mut impl Sink, p: &PlayerHand, win: &Win, indicators: Indicators) {
    let in_hand = held(p, win);
    base_groups(sink, &in_hand, &p.melds, indicators);
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

/// What the winner's partition and the place of the winning card in it change in the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Best {
    sequences: u8,
    wenqian: u8,
    place: Place,
}

/// What the winner's partition-dependent items need to know of the hand, found once.
#[derive(Clone, Copy)]
struct Winner {
    card: Kind,
    heavenly: bool,
    /// The winning card came from another seat and the hand held two of it.
    completes: bool,
    /// Groups declared (a Tiandi Hezi is not one).
    melded: bool,
    pong: bool,
    /// Groups in a winning hand: 7, or fewer in a smaller deal.
    groups: u8,
}

impl Winner {
    fn new(p: &PlayerHand, win: &Win, groups: usize) -> Winner {
        Winner {
            groups: groups as u8,
            card: win.card,
            heavenly: win.heavenly,
            completes: from_other(win) && p.hand[win.card.index()] == 3,
            melded: p.melds.iter().any(|m| m.kind != MeldType::Hezi),
            pong: p.melds.iter().any(|m| m.kind == MeldType::Pong),
        }
    }
}

/// The winner's items that depend on the partition and the place of the winning card: a triplet
/// completed by a discard, the form, Wenqian, the wait bonus, Piao Hu and closed floating.
fn partition_items(sink: &mut impl Sink, w: Winner, indicators: Indicators, best: Best) {
    let completed = w.completes && best.place == Place::Triplet;
    if completed {
        sink.group(Source::CompletedByDiscard, w.card, indicators);
    }
    // Both forms describe the groups: a hand with none to make (a smaller deal's) has neither.
    let formed = w.groups > 0;
    let qing = formed && !w.melded && best.sequences == w.groups;
    let piao = formed && best.sequences == best.wenqian;
    if qing {
        sink.bonus("qing hu", 100);
    } else if piao {
        sink.bonus("piao hu", 50);
    } else {
        sink.bonus("tazi hu", 20);
    }
    if best.wenqian > 0 {
        sink.bonus("wenqian", [0, 20, 50, 100, 200][usize::from(best.wenqian).min(4)]);
    }
    if best.place == Place::Wait && !w.heavenly {
        sink.bonus("winning card completes pair, middle, 3 of 1-2-3 or 7 of 7-8-9", 10);
    }
    if piao {
        sink.multiplier("piao hu");
        if !completed && !w.pong {
            sink.multiplier("closed floating");
        }
    }
}

/// The best shape of a winning hand and its raw total, without building a breakdown: the items
/// that no partition changes once, then each shape the partitions allow.
///
/// `groups` is the groups of a winning hand (7; fewer in a smaller deal).
pub(crate) fn best_win(p: &PlayerHand, win: &Win, indicators: [Kind; 2], groups: usize) -> Option<(u32, Best)> {
    let indicators = Indicators::new(indicators);
    // The full game's groups that a smaller deal does not ask for count as made.
    let melds = super::FULL_GROUPS as usize - groups + p.melds.iter().filter(|m| m.kind != MeldType::Hezi).count();
    let shapes = shapes(&p.hand, melds, (!win.heavenly).then_some(win.card));
    if shapes == [0; 3] {
        return None;
    }
    let mut fixed = Sum::default();
    fixed_items(&mut fixed, p, win, indicators);
    let winner = Winner::new(p, win, groups);
    let mut best: Option<(u32, Best)> = None;
    for place in Place::ALL {
        for shape in Bits(shapes[place as usize]) {
            let candidate = Best {
                sequences: (shape / 8) as u8,
                wenqian: (shape % 8) as u8,
                place,
            };
            let mut sum = fixed;
            partition_items(&mut sum, winner, indicators, candidate);
            let raw = sum.raw();
            if best.is_none_or(|b| raw > b.0) {
                best = Some((raw, candidate));
            }
        }
    }
    best
}

/// Every seat's breakdown: base hu for all, and for the winner (with its best partition) the
/// bonuses and multipliers too.
#[cfg_attr(arbiter_size, optimize(size))]
fn breakdown(indicators: [Kind; 2], players: &[PlayerHand; 3], win: Option<(&Win, &Best)>, groups: usize) -> DealScore {
    let indicators = Indicators::new(indicators);
    // Built in place: a breakdown is kilobytes, and moving it is what scoring it used to cost.
    let mut score = DealScore {
        players: Default::default(),
        totals: [0; 3],
        settlement: [0; 3],
    };
    for ((s, p), seat) in score.players.iter_mut().zip(players).zip(Seat::ALL) {
        match win.filter(|(w, _)| w.seat == seat) {
            Some((w, best)) => {
                fixed_items(s, p, w, indicators);
                partition_items(s, Winner::new(p, w, groups), indicators, *best);
            }
            None => base_groups(s, &p.hand, &p.melds, indicators),
        }
        finish(s);
    }
    score.totals = score.players.each_ref().map(|s| s.total);
    let sum: i64 = score.totals.iter().map(|&t| t as i64).sum();
    score.settlement = score.totals.map(|t| 3 * t as i64 - sum);
    score
}

/// Scores a deal a [`FinishedDeal`](super::FinishedDeal) has checked, with its best partition.
pub(crate) fn score_checked(
    indicators: [Kind; 2],
    players: &[PlayerHand; 3],
    win: Option<&Win>,
    best: Option<&Best>,
) -> DealScore {
    breakdown(indicators, players, win.zip(best), super::FULL_GROUPS as usize)
}

/// Scores the end of a deal the engine played, whose winning hands have `groups` groups: its
/// states are deals the rules allow.
pub(crate) fn score_played(
    indicators: [Kind; 2],
    players: &[PlayerHand; 3],
    win: Option<&Win>,
    groups: usize,
) -> DealScore {
    let best = win.map(|w| {
        // The engine offers a win only on a hand that `is_winning` accepts, which has a shape.
        best_win(&players[w.seat.index()], w, indicators, groups)
            .expect("the engine offers a win only on a winning hand")
            .1
    });
    breakdown(indicators, players, win.zip(best.as_ref()), groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nantong::hand::{for_each_partition, Group};
    use crate::Rng;

    /// The search this module did before shapes: every partition, every group holding the
    /// winning card; what it finds must score the same.
    fn best_by_enumeration(p: &PlayerHand, win: &Win, indicators: [Kind; 2]) -> Option<u32> {
        let indicators = Indicators::new(indicators);
        let melds = p.melds.iter().filter(|m| m.kind != MeldType::Hezi).count();
        let mut fixed = Sum::default();
        fixed_items(&mut fixed, p, win, indicators);
        let w = win.card;
        let mut best = None;
        for_each_partition(&p.hand, melds, |groups, pair| {
            let mut places = Vec::new();
            if win.heavenly {
                places.push(Place::Other);
            } else if pair == w {
                places.push(Place::Wait);
            }
            for g in groups.iter().filter(|_| !win.heavenly) {
                match *g {
                    Group::Triplet(k) if k == w => places.push(Place::Triplet),
                    Group::Sequence(s) if (s.index()..s.index() + 3).contains(&w.index()) => {
                        let pos = w.index() - s.index();
                        let wait = pos == 1 || (s.rank() == Some(1) && pos == 2) || (s.rank() == Some(7) && pos == 0);
                        places.push(if wait { Place::Wait } else { Place::Other });
                    }
                    _ => {}
                }
            }
            let sequences = groups.iter().filter(|g| matches!(g, Group::Sequence(_))).count() as u8;
            let wenqian = groups
                .iter()
                .filter(|g| **g == Group::Sequence(Kind::from_index(18).unwrap()))
                .count() as u8;
            for place in places {
                let mut sum = fixed;
                partition_items(
                    &mut sum,
                    Winner::new(p, win, 7),
                    indicators,
                    Best {
                        sequences,
                        wenqian,
                        place,
                    },
                );
                best = best.max(Some(sum.raw()));
            }
        });
        best
    }

    /// A random winning hand of `7 - melds` groups and a pair, its groups often crowded into a
    /// few ranks so that it splits many ways.
    fn random_win(rng: &mut Rng) -> Option<(PlayerHand, Win, [Kind; 2])> {
        let kind = |rng: &mut Rng| Kind::from_index(rng.below(30) as usize).unwrap();
        let mut p = PlayerHand::default();
        for _ in 0..rng.below(4) {
            let card = kind(rng);
            p.melds.push(Meld {
                kind: MeldType::ALL[rng.below(6) as usize],
                card,
            });
        }
        let groups = 7 - p.melds.iter().filter(|m| m.kind != MeldType::Hezi).count();
        let (low, span) = if rng.below(2) == 0 {
            (rng.below(27), 3 + rng.below(4))
        } else {
            (0, 30)
        };
        for _ in 0..groups {
            let k = (low + rng.below(span)).min(29) as usize;
            if Kind::from_index(k).unwrap().starts_sequence() && rng.below(3) != 0 {
                (0..3).for_each(|x| p.hand[k + x] += 1);
            } else {
                p.hand[k] += 3;
            }
        }
        p.hand[(low + rng.below(span)).min(29) as usize] += 2;
        if p.hand.iter().any(|&n| n > 4) {
            return None;
        }
        let in_hand: Vec<Kind> = Kind::all().filter(|k| p.hand[k.index()] > 0).collect();
        let sources = [
            WinSource::Discard,
            WinSource::SelfDraw,
            WinSource::KongReplacement,
            WinSource::RobbedKong,
        ];
        let win = Win {
            seat: Seat::ALL[0],
            card: in_hand[rng.below(in_hand.len() as u64) as usize],
            source: sources[rng.below(4) as usize],
            heavenly: rng.below(10) == 0,
            dealer_first_discard: rng.below(10) == 0,
            last_card: rng.below(10) == 0,
        };
        p.ready = rng.below(5) == 0;
        Some((p, win, [kind(rng), kind(rng)]))
    }

    #[test]
    fn shapes_score_as_the_enumeration_of_partitions() {
        let mut rng = Rng::new(13);
        let mut checked = 0;
        while checked < 100_000 {
            let Some((p, win, ind)) = random_win(&mut rng) else {
                continue;
            };
            let fast = best_win(&p, &win, ind, 7).map(|b| b.0);
            assert_eq!(fast, best_by_enumeration(&p, &win, ind), "{p:?} {win:?} {ind:?}");
            assert!(fast.is_some());
            checked += 1;
        }
        // Dealt hands rarely win: the shapes and the win check agree on them too.
        let deck = super::super::full_deck();
        for _ in 0..20_000 {
            let mut d = deck.clone();
            rng.shuffle(&mut d);
            let mut hand = [0u8; 30];
            d[..23].iter().for_each(|k| hand[k.index()] += 1);
            let found = shapes(&hand, 0, Some(d[0])).iter().any(|&s| s != 0);
            assert_eq!(found, crate::nantong::is_winning(&hand, 0));
        }
    }

    #[test]
    fn totals_saturate_instead_of_wrapping() {
        assert_eq!(doubled(u32::MAX - 5, 10, 7), u32::MAX);
        assert_eq!(doubled(100, 20, 40), u32::MAX);
        assert_eq!(round_up(u32::MAX), u32::MAX);
        let mut s = Sum::default();
        // 128 hu each (16, doubled as an old general and by both indicators).
        for _ in 0..34_000_000 {
            s.group(Source::Meld(MeldType::Hezi), Kind::T, Indicators::new([Kind::T; 2]));
        }
        assert_eq!(s.base, u32::MAX);
        s.bonus("x", 10);
        s.multiplier("y");
        assert_eq!(s.raw(), u32::MAX);
    }
}

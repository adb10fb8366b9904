//! Scoring: base hu of every player, the winner's bonuses and multipliers, rounding, settlement,
//! and an itemised breakdown a UI can show.

use alloc::vec::Vec;

use super::card::{Counts, Kind};
use super::hand::{partitions, Group, Partition};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Meld {
    /// The type.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: MeldType,
    /// The card.
    pub card: Kind,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Win {
    /// The winner's seat.
    pub seat: u8,
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

/// Why a hand cannot be scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// The winner's cards are not seven groups and a pair.
    #[error("seat {0}'s hand is not a winning hand")]
    NotWinning(u8),
    /// A seat outside 0..3.
    #[error("no seat {0}")]
    NoSeat(u8),
}

/// What a scoring group is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
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
    pub doublings: Vec<&'static str>,
    /// Base times doublings.
    pub value: u32,
}

/// One player's itemised score.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlayerScore {
    /// Scoring groups (base hu).
    pub groups: Vec<GroupScore>,
    /// Sum of the groups.
    pub base: u32,
    /// The winner's bonuses, by name.
    pub bonuses: Vec<(&'static str, u32)>,
    /// The winner's doublings, by name.
    pub multipliers: Vec<&'static str>,
    /// (base + bonuses) x multipliers.
    pub raw: u32,
    /// Rounded up to a multiple of ten.
    pub total: u32,
}

/// A whole deal's score.
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
fn doublings(kind: Kind, indicators: [Kind; 2]) -> Vec<&'static str> {
    let mut d = Vec::new();
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
    }
    d
}

fn group(source: Source, card: Kind, indicators: [Kind; 2]) -> GroupScore {
    let exact = indicators.iter().filter(|&&i| i == card).count();
    let mut doublings = doublings(card, indicators);
    let base = match source {
        Source::Meld(t) => t.base(),
        Source::ThreeInHand if exact > 0 => 12,
        Source::ThreeInHand => 4,
        Source::FourInHand => 12,
        Source::CompletedByDiscard => 2,
    };
    if matches!(source, Source::Meld(MeldType::Pong) | Source::CompletedByDiscard) {
        doublings.extend(core::iter::repeat_n("exact match", exact));
    }
    let value = base << doublings.len();
    GroupScore {
        source,
        card,
        base,
        doublings,
        value,
    }
}

/// Base hu groups: melds, three or four identical in `in_hand`, and a triplet completed by a
/// winning discard.
fn base_groups(in_hand: &Counts, melds: &[Meld], completed: Option<Kind>, indicators: [Kind; 2]) -> Vec<GroupScore> {
    let mut out: Vec<GroupScore> = melds
        .iter()
        .map(|m| group(Source::Meld(m.kind), m.card, indicators))
        .collect();
    for k in Kind::all() {
        match in_hand[k.index()] {
            3 => out.push(group(Source::ThreeInHand, k, indicators)),
            4 => out.push(group(Source::FourInHand, k, indicators)),
            _ => {}
        }
    }
    if let Some(k) = completed {
        out.push(group(Source::CompletedByDiscard, k, indicators));
    }
    out
}

fn round_up(v: u32) -> u32 {
    v.div_ceil(10) * 10
}

fn plain(p: &PlayerHand, indicators: [Kind; 2]) -> PlayerScore {
    let groups = base_groups(&p.hand, &p.melds, None, indicators);
    let base = groups.iter().map(|g| g.value).sum();
    PlayerScore {
        groups,
        base,
        raw: base,
        total: round_up(base),
        ..PlayerScore::default()
    }
}

/// Where the winning card sits in a partition.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    None,
    Pair,
    Triplet,
    /// In the sequence starting at this kind, at this position (0..3).
    Sequence(Kind, u8),
}

fn roles(p: &Partition, w: Kind) -> Vec<Role> {
    let mut out = Vec::new();
    if p.pair == w {
        out.push(Role::Pair);
    }
    for g in &p.groups {
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

fn winner_score(p: &PlayerHand, win: &Win, indicators: [Kind; 2], part: &Partition, role: Role) -> PlayerScore {
    let w = win.card;
    let from_other = !win.heavenly && matches!(win.source, WinSource::Discard | WinSource::RobbedKong);
    let mut in_hand = p.hand;
    if from_other {
        in_hand[w.index()] -= 1;
    }
    let completed = (from_other && role == Role::Triplet && in_hand[w.index()] == 2).then_some(w);
    let groups = base_groups(&in_hand, &p.melds, completed, indicators);
    let base: u32 = groups.iter().map(|g| g.value).sum();

    let mut bonuses: Vec<(&'static str, u32)> = Vec::new();
    let mut multipliers: Vec<&'static str> = Vec::new();
    let wenqian_start: Kind = "1c".parse().expect("code");
    let melded_groups = p.melds.iter().filter(|m| m.kind != MeldType::Hezi).count();
    let sequences = part.groups.iter().filter(|g| matches!(g, Group::Sequence(_))).count();
    let wenqian = part
        .groups
        .iter()
        .filter(|g| **g == Group::Sequence(wenqian_start))
        .count();
    let qing = melded_groups == 0 && sequences == 7;
    let piao = sequences == wenqian;
    if qing {
        bonuses.push(("qing hu", 100));
    } else if piao {
        bonuses.push(("piao hu", 50));
    } else {
        bonuses.push(("tazi hu", 20));
    }
    if wenqian > 0 {
        bonuses.push(("wenqian", [0, 20, 50, 100, 200][wenqian.min(4)]));
    }
    let drawn = !win.heavenly && matches!(win.source, WinSource::SelfDraw | WinSource::KongReplacement);
    if drawn {
        bonuses.push(("self-draw", 10));
        if win.source == WinSource::KongReplacement {
            bonuses.push(("kong replacement", 10));
        }
    }
    let wait = match role {
        Role::Pair => true,
        Role::Sequence(s, pos) => pos == 1 || (s.rank() == Some(1) && pos == 2) || (s.rank() == Some(7) && pos == 0),
        Role::None | Role::Triplet => false,
    };
    if wait && !win.heavenly {
        bonuses.push(("winning card completes pair, middle, 3 of 1-2-3 or 7 of 7-8-9", 10));
    }
    if piao {
        multipliers.push("piao hu");
        let pong = completed.is_some() || p.melds.iter().any(|m| m.kind == MeldType::Pong);
        if !pong {
            multipliers.push("closed floating");
        }
    }
    let mut whole = p.hand;
    for m in p.melds.iter().filter(|m| m.kind != MeldType::Hezi) {
        whole[m.card.index()] += m.kind.cards();
    }
    if [Kind::R, Kind::W, Kind::T].iter().all(|k| whole[k.index()] >= 3) {
        multipliers.push("three elders");
    }
    if win.heavenly {
        multipliers.push("heavenly win");
    }
    if win.dealer_first_discard && !win.heavenly {
        multipliers.push("dealer's first discard");
    }
    if p.ready {
        multipliers.push("ready");
    }
    if win.last_card && drawn {
        multipliers.push("self-draw of the last card");
    }
    let raw = (base + bonuses.iter().map(|b| b.1).sum::<u32>()) << multipliers.len();
    PlayerScore {
        groups,
        base,
        bonuses,
        multipliers,
        raw,
        total: round_up(raw),
    }
}

/// Scores a deal: `win` is `None` for an exhausted deal.
///
/// ```
/// use arbiter_core::nantong::{counts_of, score_deal, Kind, PlayerHand};
/// let ind: [Kind; 2] = ["2s".parse().unwrap(), "3m".parse().unwrap()];
/// let hand = |s: &str| PlayerHand { hand: counts_of(s.split(' ')).unwrap(), ..PlayerHand::default() };
/// let players = [hand("2m 2m 2m 6s 6s 6s"), hand("2s 2s 2s"), hand("1m")];
/// let s = score_deal(ind, &players, None).unwrap();
/// assert_eq!(s.totals, [20, 30, 0]); // 8 + 4 = 12 -> 20; 12 x 2 = 24 -> 30
/// assert_eq!(s.settlement.iter().sum::<i64>(), 0);
/// ```
pub fn score_deal(
    indicators: [Kind; 2],
    players: &[PlayerHand; 3],
    win: Option<&Win>,
) -> Result<DealScore, ScoreError> {
    let mut scores: [PlayerScore; 3] = core::array::from_fn(|i| plain(&players[i], indicators));
    if let Some(win) = win {
        let seat = win.seat as usize;
        let p = players.get(seat).ok_or(ScoreError::NoSeat(win.seat))?;
        if !win.heavenly && p.hand[win.card.index()] == 0 {
            return Err(ScoreError::NotWinning(win.seat));
        }
        let melds = p.melds.iter().filter(|m| m.kind != MeldType::Hezi).count();
        let parts = partitions(&p.hand, melds);
        let mut best: Option<PlayerScore> = None;
        for part in &parts {
            let roles = if win.heavenly {
                alloc::vec![Role::None]
            } else {
                roles(part, win.card)
            };
            for role in roles {
                let s = winner_score(p, win, indicators, part, role);
                if best.as_ref().is_none_or(|b| s.raw > b.raw) {
                    best = Some(s);
                }
            }
        }
        scores[seat] = best.ok_or(ScoreError::NotWinning(win.seat))?;
    }
    let totals = [scores[0].total, scores[1].total, scores[2].total];
    let sum: i64 = totals.iter().map(|&t| t as i64).sum();
    let settlement = totals.map(|t| 3 * t as i64 - sum);
    Ok(DealScore {
        players: scores,
        totals,
        settlement,
    })
}

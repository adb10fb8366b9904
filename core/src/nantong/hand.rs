//! Winning hands: seven groups and a pair, by exhaustive decomposition of per-kind counts.

use alloc::vec::Vec;
use arrayvec::ArrayVec;

use super::card::{Counts, Kind, KINDS};

/// A group of a concealed partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Three consecutive ranks of one suit, from this kind.
    Sequence(Kind),
    /// Three identical.
    Triplet(Kind),
}

/// One way to split concealed cards into groups and a pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// The groups.
    pub groups: Vec<Group>,
    /// The pair's kind.
    pub pair: Kind,
}

fn first_nonzero(c: &Counts, from: usize) -> Option<usize> {
    (from..KINDS).find(|&i| c[i] != 0)
}

/// Whether `c` splits into exactly `groups` groups and one pair.
#[cfg(test)]
fn decomposes(c: &mut Counts, from: usize, groups: u32, pair: bool) -> bool {
    let Some(i) = first_nonzero(c, from) else {
        return groups == 0 && pair;
    };
    // The first card left must start a triplet, a sequence or the pair.
    if groups > 0 && c[i] >= 3 {
        c[i] -= 3;
        let ok = decomposes(c, i, groups - 1, pair);
        c[i] += 3;
        if ok {
            return true;
        }
    }
    if groups > 0 && Kind::from_index(i).is_some_and(Kind::starts_sequence) && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        let ok = decomposes(c, i, groups - 1, pair);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
        if ok {
            return true;
        }
    }
    if !pair && c[i] >= 2 {
        c[i] -= 2;
        let ok = decomposes(c, i, groups, true);
        c[i] += 2;
        return ok;
    }
    false
}

/// Whether the nine ranks of one suit split into sequences and triplets alone.
///
/// Greedy from the lowest rank: three sequences from one rank equal three triplets, so the number
/// of sequences starting at each rank is its count modulo three once lower ranks are used up.
#[inline]
fn suit_splits(mut c: [u8; 9]) -> bool {
    for i in 0..9 {
        let r = c[i] % 3;
        if r != 0 {
            if i >= 7 || c[i + 1] < r || c[i + 2] < r {
                return false;
            }
            c[i + 1] -= r;
            c[i + 2] -= r;
        }
    }
    true
}

/// Whether the nine ranks of one suit split into groups and exactly one pair.
#[inline]
fn suit_splits_with_pair(c: [u8; 9]) -> bool {
    // The pair's rank r satisfies sum(i * c[i]) - 2r = 0 mod 3 (every group sums to 0 mod 3).
    let weighted: u32 = c.iter().enumerate().map(|(i, &n)| i as u32 * n as u32).sum();
    (0..9).any(|r| {
        if c[r] < 2 || (weighted + 3 * 9 - 2 * r as u32) % 3 != 0 {
            return false;
        }
        let mut d = c;
        d[r] -= 2;
        suit_splits(d)
    })
}

/// Whether concealed `counts`, with `melds` groups already declared (a Tiandi Hezi is not one),
/// make seven groups and a pair.
///
/// ```
/// use arbiter_core::nantong::{counts_of, is_winning};
/// let hand = counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s 1c 2c 3c T T".split(' ')).unwrap();
/// assert!(is_winning(&hand, 0));
/// ```
pub fn is_winning(counts: &Counts, melds: usize) -> bool {
    let Some(groups) = 7usize.checked_sub(melds) else {
        return false;
    };
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    if total != groups * 3 + 2 {
        return false;
    }
    // With the right total, each part splits alone: T, W and R only as triplets or the pair, each
    // suit by its size modulo three (0: groups only, 2: groups and the pair, 1: impossible).
    let mut pairs = 0;
    for &n in &counts[27..30] {
        match n {
            0 | 3 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    for suit in 0..3 {
        let c: [u8; 9] = counts[suit * 9..suit * 9 + 9].try_into().expect("nine ranks");
        let size: u32 = c.iter().map(|&n| n as u32).sum();
        let ok = match size % 3 {
            0 => suit_splits(c),
            2 => {
                pairs += 1;
                pairs == 1 && suit_splits_with_pair(c)
            }
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    pairs == 1
}

/// The reference decomposition, kept for the tests that check the fast one against it.
#[cfg(test)]
fn is_winning_slow(counts: &Counts, melds: usize) -> bool {
    let Some(groups) = 7usize.checked_sub(melds) else {
        return false;
    };
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    if total != groups * 3 + 2 {
        return false;
    }
    let mut c = *counts;
    decomposes(&mut c, 0, groups as u32, false)
}

/// Where a hand stands: whether it wins, and the kinds that would complete it ([`standing`]).
/// JSON: `{"winning": false, "waits": ["T"]}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Standing {
    /// Seven groups and a pair, the melds counted as groups.
    pub winning: bool,
    /// The kinds that would complete the hand if it is one card short (none otherwise).
    pub waits: Vec<Kind>,
}

/// Where a seat's hand stands from its concealed cards and its declared melds: melds other than a
/// Tiandi Hezi count as groups, and their cards as held, so that a kind whose four copies the seat
/// holds is no wait.
///
/// ```
/// use arbiter_core::nantong::{counts_of, standing, Kind, Meld, MeldType};
/// let hand = counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s T".split(' ')).unwrap();
/// let pong = Meld { kind: MeldType::Pong, card: Kind::W };
/// let s = standing(&hand, &[pong]);
/// assert_eq!((s.winning, s.waits), (false, vec![Kind::T]));
/// ```
pub fn standing(hand: &Counts, melds: &[super::Meld]) -> Standing {
    let groups = melds.iter().filter(|m| m.kind != super::MeldType::Hezi).count();
    let mut held = *hand;
    for m in melds {
        held[m.card.index()] = held[m.card.index()].saturating_add(m.kind.cards());
    }
    Standing {
        winning: is_winning(hand, groups),
        waits: waits(hand, groups, &held),
    }
}

/// The kinds that would complete `counts` (one card short of a winning hand with `melds` groups
/// declared), leaving out kinds whose four copies are all in `held` (hand and melds).
///
/// ```
/// use arbiter_core::nantong::{counts_of, waits, Kind};
/// let hand = counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s 1c 2c 3c T".split(' ')).unwrap();
/// assert_eq!(waits(&hand, 0, &hand), vec![Kind::T]);
/// ```
pub fn waits(counts: &Counts, melds: usize, held: &Counts) -> Vec<Kind> {
    let mut out = Vec::new();
    let mut c = *counts;
    for k in Kind::all() {
        if c[k.index()] >= 4 || held[k.index()] >= 4 {
            continue;
        }
        c[k.index()] += 1;
        if is_winning(&c, melds) {
            out.push(k);
        }
        c[k.index()] -= 1;
    }
    out
}

fn each<F: FnMut(&[Group], Kind)>(
    c: &mut Counts,
    from: usize,
    groups: u32,
    pair: Option<Kind>,
    zone: u32,
    acc: &mut ArrayVec<Group, 7>,
    f: &mut F,
) {
    let Some(i) = first_nonzero(c, from) else {
        if let (0, Some(pair)) = (groups, pair) {
            f(acc, pair);
        }
        return;
    };
    let k = Kind::from_index(i).expect("kind");
    if groups > 0 && c[i] >= 3 {
        c[i] -= 3;
        acc.push(Group::Triplet(k));
        each(c, i, groups - 1, pair, zone, acc, f);
        acc.pop();
        c[i] += 3;
    }
    if groups > 0 && k.starts_sequence() && c[i + 1] > 0 && c[i + 2] > 0 {
        for d in 0..3 {
            c[i + d] -= 1;
        }
        acc.push(Group::Sequence(k));
        each(c, i, groups - 1, pair, zone, acc, f);
        acc.pop();
        for d in 0..3 {
            c[i + d] += 1;
        }
    }
    if pair.is_none() && zone >> i & 1 != 0 && c[i] >= 2 {
        c[i] -= 2;
        each(c, i, groups, Some(k), zone, acc, f);
        c[i] += 2;
    }
}

/// Calls `f(groups, pair)` for every partition of a winning concealed hand, without allocating.
pub fn for_each_partition(counts: &Counts, melds: usize, mut f: impl FnMut(&[Group], Kind)) {
    if !is_winning(counts, melds) {
        return;
    }
    // The pair lies where the cards number 2 modulo 3: one suit, or an honour held twice.
    let mut zone = 0u32;
    for suit in 0..3 {
        let size: u32 = counts[suit * 9..suit * 9 + 9].iter().map(|&n| n as u32).sum();
        if size % 3 == 2 {
            zone |= 0x1FF << (suit * 9);
        }
    }
    for (i, &n) in counts.iter().enumerate().skip(27) {
        if n == 2 {
            zone |= 1 << i;
        }
    }
    let mut c = *counts;
    each(&mut c, 0, 7 - melds as u32, None, zone, &mut ArrayVec::new(), &mut f);
}

/// Every partition of a winning concealed hand (empty if it does not win).
pub fn partitions(counts: &Counts, melds: usize) -> Vec<Partition> {
    let mut out = Vec::new();
    for_each_partition(counts, melds, |groups, pair| {
        out.push(Partition {
            groups: groups.to_vec(),
            pair,
        })
    });
    out
}

/// Counts of a list of codes.
///
/// ```
/// use arbiter_core::nantong::counts_of;
/// let c = counts_of(["5m", "5m", "R"]).unwrap();
/// assert_eq!((c[4], c[29]), (2, 1));
/// assert!(counts_of(["5x"]).is_err());
/// ```
pub fn counts_of<'a>(codes: impl IntoIterator<Item = &'a str>) -> Result<Counts, super::card::UnknownCard> {
    let mut c = [0u8; KINDS];
    for code in codes {
        let k: Kind = code.parse()?;
        c[k.index()] = c[k.index()].saturating_add(1);
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn concealed_fours_are_ordinary_cards() {
        // Three T plus one T cannot win: T forms no sequence.
        let c = counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 1c 1c 1c T T T T 9c".split(' ')).unwrap();
        assert!(!is_winning(&c, 0));
    }

    #[test]
    fn the_fast_check_agrees_with_the_reference() {
        let mut rng = crate::Rng::new(9);
        let deck = super::super::full_deck();
        for round in 0..20_000 {
            let mut d = deck.clone();
            rng.shuffle(&mut d);
            let mut c = [0u8; KINDS];
            // Random hands rarely win: half the time, build one from groups.
            if round % 2 == 0 {
                for k in &d[..23] {
                    c[k.index()] += 1;
                }
            } else {
                for _ in 0..7 {
                    let k = rng.below(30) as usize;
                    if Kind::from_index(k).unwrap().starts_sequence() && rng.below(2) == 0 {
                        (0..3).for_each(|x| c[k + x] += 1);
                    } else {
                        c[k] += 3;
                    }
                }
                c[rng.below(30) as usize] += 2;
                if c.iter().any(|&n| n > 4) {
                    continue;
                }
            }
            assert_eq!(is_winning(&c, 0), is_winning_slow(&c, 0), "{c:?}");
            assert_eq!(is_winning(&c, 0), !partitions(&c, 0).is_empty());
        }
    }

    #[test]
    fn partitions_list_every_split() {
        let c = counts_of("2m 2m 2m 3m 3m 3m 4m 4m 4m 5s 5s".split(' ')).unwrap();
        let p = partitions(&c, 4);
        assert_eq!(p.len(), 2); // three triplets, or three 2-3-4 sequences
        assert!(p.iter().all(|p| p.pair.to_string() == "5s"));
    }
}

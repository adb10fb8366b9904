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

/// Where the winning card sits in a partition, as far as the score cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// Anywhere that earns nothing: a sequence's end, or no winning card (a heavenly win).
    Other = 0,
    /// The pair, the middle of a sequence, the `3` of a `1 2 3` or the `7` of a `7 8 9`.
    Wait = 1,
    /// A triplet.
    Triplet = 2,
}

impl Place {
    pub(crate) const ALL: [Place; 3] = [Place::Other, Place::Wait, Place::Triplet];
}

/// The shapes of a hand's partitions: for each [`Place`] of the winning card, the set of
/// (sequences, Wenqian) pairs of the partitions that give it that place, as bits
/// `8 * sequences + wenqian`. Seven groups at most keep both below eight, and adding the bit
/// indices of two suits adds their shapes, so the shapes of a hand are sums of its suits'.
pub(crate) type Shapes = [u64; 3];

/// The indices of a mask's set bits, lowest first.
pub(crate) struct Bits(pub(crate) u64);

impl Iterator for Bits {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let i = self.0.trailing_zeros();
        self.0 &= self.0.wrapping_sub(1);
        (i < 64).then_some(i)
    }
}

/// Every sum of a shape of `a` and one of `b`.
fn add_shapes(a: u64, b: u64) -> u64 {
    Bits(b).fold(0, |out, i| out | a << i)
}

/// One suit's cards (after the pair, if it holds one) and what its partitions' shapes need.
///
/// A partition of a suit is fixed by the number of sequences begun at each rank: walking up from
/// rank 1, the cards of a rank that sequences begun at the two ranks below leave start sequences
/// or make triplets, so the count modulo three starts sequences, and where a rank holds three
/// more, they may start three more sequences instead of a triplet. Counts of four at most make
/// that the only choice, and it needs three ranks in a row holding three or more, so most suits
/// split one way only: the straight walk.
struct Suit {
    c: [u8; 9],
    /// The winning card's rank index, 9 if it is not in this suit.
    w: usize,
    /// Whether the pair is of the winning card.
    pair_w: bool,
    /// Whether `1 2 3` sequences here are Wenqian (the coins).
    coins: bool,
}

/// Sequences begun at each rank of a suit, three bits a rank from rank 1 up.
type Starts = u32;

fn starts_at(starts: Starts, i: usize) -> u8 {
    (starts >> (3 * i) & 7) as u8
}

/// The straight walk of three ranks at once: for `s1`, `s2` sequences begun one and two ranks
/// before (two at most in a straight walk) and counts `a`, `b`, `c` (four at most), at index
/// `((s1 * 3 + s2) * 5 + a) * 25 + b * 5 + c`, the sequences begun at the three ranks as
/// [`Starts`] and their sum from bit 9, or [`STUCK`].
const STRAIGHT: [u16; 1125] = {
    let mut table = [0u16; 1125];
    let mut i = 0;
    while i < 1125 {
        let (s1, s2) = ((i / 375) as i32, (i / 125 % 3) as i32);
        let counts = [(i / 25 % 5) as i32, (i / 5 % 5) as i32, (i % 5) as i32];
        let (mut before1, mut before2, mut entry, mut sum, mut r) = (s1, s2, 0, 0, 0);
        while r < 3 {
            let left = counts[r] - before1 - before2;
            if left < 0 {
                entry = STUCK as i32;
                break;
            }
            entry |= (left % 3) << (3 * r);
            sum += left % 3;
            (before1, before2) = (left % 3, before1);
            r += 1;
        }
        table[i] = if entry == STUCK as i32 {
            STUCK
        } else {
            (entry | sum << 9) as u16
        };
        i += 1;
    }
    table
};

/// A straight walk that finds no partition.
const STUCK: u16 = 1 << 15;

impl Suit {
    /// Records the shape of the partition with these sequence starts (`seqs` of them) and the
    /// places of the winning card in it.
    fn record(&self, starts: Starts, seqs: u32, out: &mut Shapes) {
        let wenqian = if self.coins { u32::from(starts_at(starts, 0)) } else { 0 };
        let shape = 8 * seqs + wenqian;
        let places = if self.w == 9 {
            1 << Place::Other as u8
        } else {
            let i = self.w;
            let before = |d: usize| if i >= d { starts_at(starts, i - d) } else { 0 };
            let (seqs2, seqs1, t) = (before(2), before(1), starts_at(starts, i));
            let triplet = self.c[i] >= seqs2 + seqs1 + t + 3;
            let wait = self.pair_w || seqs1 > 0 || (seqs2 > 0 && i == 2) || (t > 0 && i == 6);
            let other = (seqs2 > 0 && i != 2) || (t > 0 && i != 6);
            u8::from(other) << Place::Other as u8
                | u8::from(wait) << Place::Wait as u8
                | u8::from(triplet) << Place::Triplet as u8
        };
        for p in Place::ALL {
            if places >> p as u8 & 1 != 0 {
                out[p as usize] |= 1 << shape;
            }
        }
    }

    /// The only partition of a suit that splits one way, three ranks at a time.
    fn walk_straight(&self, out: &mut Shapes) {
        let (mut s1, mut s2, mut starts, mut seqs) = (0, 0, 0, 0);
        for (chunk, r) in self.c.chunks_exact(3).enumerate() {
            let i = ((s1 * 3 + s2) * 5 + usize::from(r[0])) * 25 + usize::from(r[1]) * 5 + usize::from(r[2]);
            let entry = STRAIGHT[i];
            if entry == STUCK {
                return;
            }
            starts |= Starts::from(entry & 0x1FF) << (9 * chunk);
            seqs += u32::from(entry >> 9);
            (s1, s2) = (usize::from(entry >> 6 & 7), usize::from(entry >> 3 & 7));
        }
        // No sequence begins at 8 or 9.
        if s1 == 0 && s2 == 0 {
            self.record(starts, seqs, out);
        }
    }

    /// Every partition from rank `i` on, starting `extra` (0 or 3) more sequences at `i` than
    /// its count modulo three asks for: `starts` so far, `seqs` of them.
    fn walk(&self, from: usize, mut extra: u8, mut starts: Starts, mut seqs: u32, out: &mut Shapes) {
        for i in from..9 {
            let before = |d: usize| if i >= d { starts_at(starts, i - d) } else { 0 };
            let (seqs1, seqs2) = (before(1), before(2));
            let Some(r) = self.c[i].checked_sub(seqs1 + seqs2) else {
                return;
            };
            let t = r % 3 + extra;
            extra = 0;
            // Three more sequences instead of a triplet, if the next two ranks hold them.
            if t + 3 <= r && i < 7 && self.c[i + 1] >= seqs1 + t + 3 && self.c[i + 2] >= t + 3 {
                self.walk(i, 3, starts, seqs, out);
            }
            starts |= Starts::from(t) << (3 * i);
            seqs += u32::from(t);
        }
        if starts_at(starts, 7) == 0 && starts_at(starts, 8) == 0 {
            self.record(starts, seqs, out);
        }
    }
}

/// The shapes of one suit's partitions into groups and, if its size asks for one, the pair
/// (also returned); `w` is the winning card's rank index (9 if elsewhere). `None` if its size
/// is one more than a multiple of three.
fn suit_shapes(c: [u8; 9], w: usize, coins: bool) -> Option<(Shapes, bool)> {
    let mut out = [0; 3];
    // Ranks 1 to 8 as the bytes of a word. With counts of at most four, multiplying adds bytes
    // without a carry from one into the next, and bit 3 of a count plus five marks three or four.
    let word = u64::from_le_bytes(c[..8].try_into().expect("eight ranks"));
    let size = (word.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize + usize::from(c[8]);
    if size == 0 {
        out[Place::Other as usize] = 1;
        return Some((out, false));
    }
    let threes = word.wrapping_add(0x0505_0505_0505_0505) & 0x0808_0808_0808_0808;
    let straight = threes & threes >> 8 & threes >> 16 == 0 && !c[6..].iter().all(|&n| n >= 3);
    let walk = |c, pair_w, out: &mut Shapes| {
        let suit = Suit { c, w, pair_w, coins };
        if straight {
            suit.walk_straight(out)
        } else {
            suit.walk(0, 0, 0, 0, out)
        }
    };
    match size % 3 {
        0 => walk(c, false, &mut out),
        2 => {
            // The pair's rank r satisfies sum(i * c[i]) - 2r = 0 mod 3 (every group sums to 0 mod 3).
            let weighted = (word.wrapping_mul(0x0001_0203_0405_0607) >> 56) as usize + 8 * usize::from(c[8]);
            for r in (2 * weighted % 3..9).step_by(3) {
                if c[r] >= 2 {
                    let mut d = c;
                    d[r] -= 2;
                    walk(d, r == w, &mut out);
                }
            }
        }
        _ => return None,
    }
    Some((out, size % 3 == 2))
}

/// The shapes of the partitions of concealed `counts` into `7 - melds` groups and a pair, with the
/// winning card `w` (`None` when it has no place, as in a heavenly win); all empty if the hand
/// does not win. The counts must be at most four each, as in any deal.
pub(crate) fn shapes(counts: &Counts, melds: usize, w: Option<Kind>) -> Shapes {
    let none = [0; 3];
    let Some(groups) = 7usize.checked_sub(melds) else {
        return none;
    };
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    if total != groups * 3 + 2 {
        return none;
    }
    // The suits without the winning card, summed into one set; the winning card's part apart.
    let mut rest = 1u64;
    let mut with_w: Shapes = [0; 3];
    with_w[Place::Other as usize] = 1;
    let mut pairs = 0;
    for (i, &n) in counts.iter().enumerate().skip(27) {
        let place = match n {
            0 => continue,
            2 => {
                pairs += 1;
                Place::Wait
            }
            3 => Place::Triplet,
            _ => return none,
        };
        if w.is_some_and(|w| w.index() == i) {
            with_w = [0; 3];
            with_w[place as usize] = 1;
        }
    }
    for suit in 0..3 {
        let c: [u8; 9] = counts[suit * 9..suit * 9 + 9].try_into().expect("nine ranks");
        let w_rank = w.filter(|w| w.suit() == Some(suit as u8)).map_or(9, |w| w.index() % 9);
        let Some((s, pair)) = suit_shapes(c, w_rank, suit == 2) else {
            return none;
        };
        pairs += u32::from(pair);
        if w_rank == 9 {
            rest = add_shapes(rest, s[Place::Other as usize]);
        } else {
            with_w = s;
        }
        if rest == 0 || pairs > 1 {
            return none;
        }
    }
    if pairs != 1 {
        return none;
    }
    with_w.map(|s| add_shapes(s, rest))
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

/// A random hand of 23 cards: dealt from a shuffled deck (they rarely win), or built from seven
/// random groups and a pair (`None` when that takes a fifth copy).
#[cfg(test)]
pub(crate) fn random_hand(rng: &mut crate::Rng, dealt: bool) -> Option<Counts> {
    let mut c = [0u8; KINDS];
    if dealt {
        let mut d = super::full_deck();
        rng.shuffle(&mut d);
        d[..23].iter().for_each(|k| c[k.index()] += 1);
        return Some(c);
    }
    for _ in 0..7 {
        let k = rng.below(30) as usize;
        if Kind::from_index(k).is_some_and(Kind::starts_sequence) && rng.below(2) == 0 {
            (0..3).for_each(|x| c[k + x] += 1);
        } else {
            c[k] += 3;
        }
    }
    c[rng.below(30) as usize] += 2;
    c.iter().all(|&n| n <= 4).then_some(c)
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
        for round in 0..20_000 {
            let Some(c) = random_hand(&mut rng, round % 2 == 0) else {
                continue;
            };
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

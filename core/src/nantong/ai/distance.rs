//! How far a hand is from winning: the fewest cards it must exchange (its "shanten", -1 for a
//! winning hand, 0 one card short), counted over groups, partial groups and the pair. A suit's
//! cards only combine among themselves, so each suit is searched alone and remembered by its
//! counts: the many hands a decision weighs differ in one or two suits.

use alloc::collections::BTreeMap;

use crate::nantong::card::{Counts, KINDS};

/// For one part of a hand (a suit, or the three honours), with the pair taken from it (index 1)
/// or not, and for each number of groups made in it, the most partial groups (two cards that a
/// third would complete) its other cards make; -1 where that many groups cannot be made.
type Part = [[i8; 8]; 2];

const NONE: Part = [[-1; 8]; 2];

/// The best of two parts together.
fn combine(a: &Part, b: &Part) -> Part {
    let mut out = NONE;
    for (pa, ra) in a.iter().enumerate() {
        for (pb, rb) in b.iter().enumerate().take(2 - pa) {
            for (ga, &ta) in ra.iter().enumerate().filter(|(_, &t)| t >= 0) {
                for (gb, &tb) in rb.iter().enumerate().filter(|(_, &t)| t >= 0) {
                    let slot = &mut out[pa + pb][(ga + gb).min(7)];
                    *slot = (*slot).max((ta + tb).min(7));
                }
            }
        }
    }
    out
}

/// The distance of a whole hand that needs `groups` more groups and the pair.
fn shanten_of(part: &Part, groups: usize) -> i32 {
    let mut best = i32::MAX;
    for (pair, row) in part.iter().enumerate() {
        for (g, &t) in row.iter().enumerate().filter(|(_, &t)| t >= 0) {
            let need = groups.saturating_sub(g) as i32;
            best = best.min(2 * need - need.min(i32::from(t)) - pair as i32);
        }
    }
    best
}

/// Distances of hands, with the parts already searched.
#[derive(Default)]
pub(crate) struct Distance {
    parts: BTreeMap<u32, Part>,
}

/// The part of a hand that card index `k` belongs to: 0..3 the suits, 3 the honours.
fn part_of(k: usize) -> usize {
    k / 9
}

impl Distance {
    /// Part `p` of `hand`: a suit's ranks, or the honours three ranks apart so that they make
    /// neither sequences nor partial sequences (and so share the suits' searches).
    fn part(&mut self, hand: &Counts, p: usize) -> Part {
        let mut c = [0u8; 9];
        if p < 3 {
            c.copy_from_slice(&hand[p * 9..p * 9 + 9]);
        } else {
            for (h, &n) in hand[27..].iter().enumerate() {
                c[3 * h] = n;
            }
        }
        self.suit(c.map(|n| n.min(4)))
    }

    /// The best of every way to place the lowest card of `c` (in a triplet, a sequence, the
    /// pair, a partial group or alone) with the best of what is left, each remembered.
    fn suit(&mut self, c: [u8; 9]) -> Part {
        let key = c.iter().fold(0u32, |key, &n| key * 5 + u32::from(n));
        if let Some(part) = self.parts.get(&key) {
            return *part;
        }
        let mut best = NONE;
        match c.iter().position(|&n| n > 0) {
            None => best[0][0] = 0,
            Some(i) => {
                let (next, gap) = (i < 8 && c[i + 1] > 0, i < 7 && c[i + 2] > 0);
                // (cards taken, groups, partial groups, pair)
                let options: [(&[usize], usize, i8, usize, bool); 7] = [
                    (&[i, i, i], 1, 0, 0, c[i] >= 3),
                    (&[i, i + 1, i + 2], 1, 0, 0, next && gap),
                    (&[i, i], 0, 0, 1, c[i] >= 2),
                    (&[i, i], 0, 1, 0, c[i] >= 2),
                    (&[i, i + 1], 0, 1, 0, next),
                    (&[i, i + 2], 0, 1, 0, gap),
                    (&[i], 0, 0, 0, true),
                ];
                for (cards, groups, partials, pair, allowed) in options {
                    if !allowed {
                        continue;
                    }
                    let mut rest = c;
                    cards.iter().for_each(|&r| rest[r] -= 1);
                    let rest = self.suit(rest);
                    for (p, row) in rest.iter().enumerate().take(2 - pair) {
                        for (g, &t) in row.iter().enumerate().filter(|(_, &t)| t >= 0) {
                            let slot = &mut best[p + pair][(g + groups).min(7)];
                            *slot = (*slot).max((t + partials).min(7));
                        }
                    }
                }
            }
        }
        self.parts.insert(key, best);
        best
    }

    fn parts(&mut self, hand: &Counts) -> [Part; 4] {
        core::array::from_fn(|p| self.part(hand, p))
    }

    /// The distance of `hand` from seven groups and a pair when `melds` groups are declared.
    pub(crate) fn shanten(&mut self, hand: &Counts, melds: usize) -> i32 {
        let [a, b, c, d] = self.parts(hand);
        shanten_of(
            &combine(&combine(&a, &b), &combine(&c, &d)),
            7usize.saturating_sub(melds),
        )
    }

    /// The distance of `hand` (one card short of a full hand) and how many of the `unseen` cards
    /// would bring it closer.
    pub(crate) fn acceptance(&mut self, hand: &Counts, melds: usize, unseen: &Counts) -> (i32, u32) {
        let groups = 7usize.saturating_sub(melds);
        let parts = self.parts(hand);
        // Each part's complement, so that a card changes one part and costs one combination.
        let others: [Part; 4] = core::array::from_fn(|p| {
            let mut rest = [[-1; 8]; 2];
            rest[0][0] = 0;
            for (_, part) in parts.iter().enumerate().filter(|&(q, _)| q != p) {
                rest = combine(&rest, part);
            }
            rest
        });
        let now = shanten_of(&combine(&others[0], &parts[0]), groups);
        let mut count = 0;
        let mut more = *hand;
        for k in 0..KINDS {
            if unseen[k] == 0 || hand[k] >= 4 {
                continue;
            }
            more[k] += 1;
            let p = part_of(k);
            if shanten_of(&combine(&others[p], &self.part(&more, p)), groups) < now {
                count += u32::from(unseen[k]);
            }
            more[k] -= 1;
        }
        (now, count)
    }
}

/// The distance of a hand to Piao Hu (triplets only, with the pair): how many cards it must
/// exchange when only its kinds held three or more and its pairs count.
pub(crate) fn piao_shanten(hand: &Counts, melds: usize) -> i32 {
    let groups = 7usize.saturating_sub(melds) as i32;
    let triplets = hand.iter().filter(|&&n| n >= 3).count() as i32;
    let pairs = hand.iter().filter(|&&n| n == 2).count() as i32;
    let need = (groups - triplets).max(0);
    let head = i32::from(pairs > 0);
    2 * need - (pairs - head).min(need) - head
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nantong::card::Kind;

    fn counts(codes: &str) -> Counts {
        crate::nantong::counts_of(codes.split(' ')).unwrap()
    }

    #[test]
    fn distances_of_known_hands() {
        let mut d = Distance::default();
        let win = counts("1c 2c 3c 1c 2c 3c 5m 5m 5m T T T 7s 8s 9s 4m 5m 6m 2s 3s 4s W W");
        assert_eq!(d.shanten(&win, 0), -1);
        assert!(crate::nantong::is_winning(&win, 0));
        // One card short, waiting on W or on the 1c-4c ends.
        let ready = counts("1c 2c 3c 1c 2c 3c 5m 5m 5m T T T 7s 8s 9s 4m 5m 6m 2s 3s 4s W");
        assert_eq!(d.shanten(&ready, 0), 0);
        let unseen = [4u8; KINDS];
        let waits = crate::nantong::waits(&ready, 0, &ready);
        assert!(waits.contains(&Kind::W));
        assert_eq!(d.acceptance(&ready, 0, &unseen), (0, 4 * waits.len() as u32));
        // Melds count among the seven groups.
        assert_eq!(d.shanten(&counts("2s 3s 4s W W"), 6), -1);
        assert_eq!(d.shanten(&counts("2s 3s 4s W R"), 6), 0);
        assert_eq!(piao_shanten(&counts("5m 5m 5m T T T W W R R 9s 9s 1m"), 3), 1);
    }

    #[test]
    fn a_winning_hand_is_exactly_distance_minus_one() {
        let mut rng = crate::Rng::new(5);
        let mut d = Distance::default();
        for round in 0..3000 {
            let Some(hand) = crate::nantong::hand::random_hand(&mut rng, round % 2 == 0) else {
                continue;
            };
            let s = d.shanten(&hand, 0);
            assert_eq!(s == -1, crate::nantong::is_winning(&hand, 0), "{hand:?}");
            // A card away from any hand: exchanging one card changes the distance by one at most.
            let k = (0..KINDS).find(|&k| hand[k] > 0).unwrap();
            let mut less = hand;
            less[k] -= 1;
            assert!((d.shanten(&less, 0) - s).abs() <= 1);
        }
    }
}

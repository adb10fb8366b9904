//! Perft split into parts that any scheduler can count apart: the [`Frontier`] of a position (the
//! positions after its first few plies, each with the number of move sequences that reach it) and
//! the count of one part of it, so that the parts' counts sum to the whole count exactly.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;
use core::hash::{Hash, Hasher};

use crate::engine::Engine;
use crate::error::{Error, ErrorKind};

/// The most positions of one ply a frontier holds while it is built (their states are kept for
/// the ply, a Trax state takes about 5 KB): past it, [`Frontier::new`] refuses rather than filling
/// memory; split at fewer plies instead.
pub const FRONTIER_LIMIT: usize = 500_000;

/// What separates the moves of a [`Frontier::line_text`]: a comma, which no game's notation
/// holds, where a space would not do (a Nantong action is two words, `discard 5m`).
pub const LINE_SEPARATOR: &str = ", ";

/// A game whose transpositions a [`Frontier`] merges: `position_hash` is equal for equal states
/// (by `Eq`), so that the frontier compares only the states whose hashes agree.
pub trait Transpose: Engine + Eq {
    /// A hash of what the state's `Eq` compares.
    fn position_hash(&self) -> u64;
}

/// FNV-1a, 64 bits: a hash that the core can compute without `std` and that gives the same value
/// on every platform. It is only a first filter: a frontier merges states that are `Eq`.
pub(crate) struct Fnv(u64);

impl Fnv {
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The [`Fnv`] hash of `value` (through `Hash`, not a `Debug` text: formatting would link
/// `core::fmt`'s builders and every `Debug` of a state into the npm package's module).
pub(crate) fn hash_of(value: &impl Hash) -> u64 {
    let mut h = Fnv::new();
    value.hash(&mut h);
    h.finish()
}

/// The positions after the first `plies` plies from a root, in a stable order (the order in which
/// a walk ply by ply over [`Game::legal_moves`](crate::Game::legal_moves) first reaches them),
/// each with its multiplicity: the number of move sequences of `plies` plies that reach it (move
/// orders that transpose into one position are merged). A game that ends before `plies` plies has
/// no position there; one that ends at the last ply has.
///
/// Each position is kept as the first line of moves that reaches it, which serialises as the
/// moves' notation ([`Frontier::line_text`], moves separated by [`LINE_SEPARATOR`]); the position
/// is the root after that line. Part `i`
/// of `n` is every `n`-th position from the `i`-th (numbered from 0), so that neighbouring
/// subtrees, often alike in size, go to different parts.
///
/// ```
/// use arbiter_core::{Engine, Frontier};
/// use arbiter_core::trax::{Trax, Variant};
/// let g = Trax::new(Variant::Unbounded);
/// let f = Frontier::new(&g, 2).unwrap();
/// let parts: u64 = (0..3).map(|i| f.perft_part(5, i, 3).unwrap()).sum();
/// assert_eq!(parts, g.perft(5));
/// assert_eq!(f.sequences(), g.perft(2));
/// assert!(f.perft_part(5, 3, 3).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Frontier<G: Engine> {
    root: G,
    plies: u32,
    /// The lines, `plies` moves each, one after the other.
    lines: Vec<G::Move>,
    counts: Vec<u64>,
}

impl<G: Transpose> Frontier<G> {
    /// The frontier of `root` after `plies` plies; an error (`BAD_ARGUMENT`) when it would hold
    /// more than [`FRONTIER_LIMIT`] positions.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn new(root: &G, plies: u32) -> Result<Frontier<G>, Error> {
        // Level by level, merging each level's transpositions before expanding it: a position
        // reached by many move orders is expanded once, and each level's states are at hand to
        // compare (a walk in depth would have to replay them).
        let mut level: Vec<(G, Vec<G::Move>, u64)> = alloc::vec![(root.clone(), Vec::new(), 1)];
        for ply in 0..plies {
            let mut next: Vec<(G, Vec<G::Move>, u64)> = Vec::new();
            let mut seen: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
            for (g, line, count) in &level {
                for &mv in g.legal_moves().iter() {
                    let mut child = g.clone();
                    child.play_unchecked(mv);
                    let same = seen.entry(child.position_hash()).or_default();
                    if let Some(&j) = same.iter().find(|&&j| next[j].0 == child) {
                        next[j].2 += count;
                        continue;
                    }
                    if next.len() == FRONTIER_LIMIT {
                        return Err(Error::new(
                            ErrorKind::BadArgument,
                            alloc::format!(
                                "the frontier after {plies} plies holds more than {FRONTIER_LIMIT} positions (at ply {}): split at fewer plies",
                                ply + 1
                            ),
                        ));
                    }
                    same.push(next.len());
                    let mut longer = Vec::with_capacity(plies as usize);
                    longer.extend_from_slice(line);
                    longer.push(mv);
                    next.push((child, longer, *count));
                }
            }
            level = next;
        }
        let mut f = Frontier {
            root: root.clone(),
            plies,
            lines: Vec::with_capacity(level.len() * plies as usize),
            counts: Vec::with_capacity(level.len()),
        };
        for (_, line, count) in level {
            f.lines.extend_from_slice(&line);
            f.counts.push(count);
        }
        Ok(f)
    }
}

impl<G: Engine> Frontier<G> {
    /// The position the frontier starts from.
    pub fn root(&self) -> &G {
        &self.root
    }

    /// The plies from the root to each position.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether no sequence of `plies` plies exists (every game ends sooner).
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The number of move sequences of `plies` plies: the multiplicities' sum, the root's perft
    /// at that depth.
    pub fn sequences(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The first line of moves that reaches position `i` (`i < len()`).
    pub fn line(&self, i: usize) -> &[G::Move] {
        let k = self.plies as usize;
        &self.lines[i * k..(i + 1) * k]
    }

    /// [`Frontier::line`] in notation, the moves separated by [`LINE_SEPARATOR`].
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn line_text(&self, i: usize) -> String {
        let mut text = String::new();
        for (j, mv) in self.line(i).iter().enumerate() {
            if j > 0 {
                text.push_str(LINE_SEPARATOR);
            }
            // Writing into a string cannot fail.
            let _ = write!(text, "{mv}");
        }
        text
    }

    /// How many move sequences reach position `i` (`i < len()`).
    pub fn multiplicity(&self, i: usize) -> u64 {
        self.counts[i]
    }

    /// Position `i` (`i < len()`): the root after its line.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn state(&self, i: usize) -> G {
        let mut g = self.root.clone();
        for &mv in self.line(i) {
            g.play_unchecked(mv);
        }
        g
    }

    /// The indices of the positions in part `part` of `parts`, after checking both: every
    /// `parts`-th position from the `part`-th.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn part(&self, part: usize, parts: usize) -> Result<impl Iterator<Item = usize>, Error> {
        if parts == 0 || part >= parts {
            return Err(Error::new(
                ErrorKind::BadArgument,
                alloc::format!(
                    "part {part} of {parts} does not exist (parts are numbered from 0 to {})",
                    parts.saturating_sub(1)
                ),
            ));
        }
        Ok((part..self.len()).step_by(parts))
    }

    /// The depth left below the frontier for a count at `depth`, or why there is none.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn below(&self, depth: u32) -> Result<u32, Error> {
        depth.checked_sub(self.plies).ok_or_else(|| {
            Error::new(
                ErrorKind::BadArgument,
                alloc::format!(
                    "a perft at depth {depth} cannot split after {} plies: split at most at the depth",
                    self.plies
                ),
            )
        })
    }

    /// The root's perft at `depth` counted over part `part` of `parts` only (with the game's own
    /// fast perft): the parts' counts sum to the root's perft. An error (`BAD_ARGUMENT`) for a
    /// part that does not exist or a depth shallower than the frontier.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn perft_part(&self, depth: u32, part: usize, parts: usize) -> Result<u64, Error> {
        let below = self.below(depth)?;
        Ok(self
            .part(part, parts)?
            .map(|i| self.multiplicity(i) * self.state(i).perft(below))
            .sum())
    }
}

#[cfg(feature = "std")]
impl<G: Engine + Send + Sync> Frontier<G>
where
    G::Move: Send + Sync,
{
    /// [`Frontier::perft_part`] on `threads` threads (at least one), which take the part's
    /// positions one at a time; `progress(done, total)` counts the positions done. `None` when
    /// `stop`, asked every few milliseconds by each thread, says to stop (see
    /// [`perft_until`](crate::perft_until)).
    pub fn perft_part_threads(
        &self,
        depth: u32,
        part: usize,
        parts: usize,
        threads: usize,
        (progress, stop): (&(dyn Fn(usize, usize) + Sync), &(dyn Fn() -> bool + Sync)),
    ) -> Result<Option<u64>, Error> {
        use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
        let below = self.below(depth)?;
        let mine: Vec<usize> = self.part(part, parts)?.collect();
        let nodes = AtomicU64::new(0);
        let stopped = AtomicBool::new(false);
        let mut workers = std::vec![(); threads.max(1).min(mine.len()).max(1)];
        crate::parallel::share(mine.len(), &mut workers, progress, |_, j| {
            let i = mine[j];
            if stopped.load(Ordering::Relaxed) {
                return;
            }
            match crate::perft_until(&self.state(i), below, stop) {
                Some(n) => {
                    nodes.fetch_add(self.multiplicity(i) * n, Ordering::Relaxed);
                }
                None => stopped.store(true, Ordering::Relaxed),
            }
        });
        Ok((!stopped.into_inner()).then(|| nodes.into_inner()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nantong::Nantong;
    use crate::trax::{Trax, Variant};
    use crate::tripletriad::testing::random_position;
    use crate::tripletriad::{Setup, TripleTriad};
    use crate::{Game, Rng};
    use alloc::string::ToString;

    /// For every split up to the depth and several part counts, the parts sum to the whole
    /// count, every position is listed once, and the multiplicities sum to the sequences.
    fn parts_sum_to_the_whole<G: Transpose>(g: &G, depth: u32) {
        let whole = g.perft(depth);
        for plies in 0..=depth {
            let f = Frontier::new(g, plies).unwrap();
            assert_eq!(f.sequences(), g.perft(plies), "{} split {plies}", G::NAME);
            for parts in [1, 2, 3, 7] {
                let sum: u64 = (0..parts).map(|p| f.perft_part(depth, p, parts).unwrap()).sum();
                assert_eq!(sum, whole, "{} depth {depth} split {plies} parts {parts}", G::NAME);
                let listed: usize = (0..parts).map(|p| f.part(p, parts).unwrap().count()).sum();
                assert_eq!(listed, f.len());
            }
            for i in 0..f.len() {
                for j in 0..i.min(50) {
                    assert!(
                        f.state(i) != f.state(j),
                        "{} split {plies}: {i} and {j} are one position",
                        G::NAME
                    );
                }
            }
        }
    }

    #[test]
    fn every_game_splits_exactly() {
        parts_sum_to_the_whole(&Trax::new(Variant::Unbounded), 4);
        parts_sum_to_the_whole(&Trax::new(Variant::EightByEight), 4);
        parts_sum_to_the_whole(&Trax::new(Variant::Loop), 3);
        let mut rng = Rng::new(11);
        let mut t = Trax::new(Variant::Unbounded);
        for _ in 0..8 {
            let moves = t.legal_moves();
            t.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
        }
        parts_sum_to_the_whole(&t, 3);
        parts_sum_to_the_whole(&TripleTriad::new(&Setup::random_ff8(1)).unwrap(), 3);
        for empty in [2, 4, 5] {
            parts_sum_to_the_whole(&random_position(&mut rng, empty), empty as u32);
        }
        let mut n = Nantong::new(5);
        parts_sum_to_the_whole(&n, 3);
        for _ in 0..20 {
            let mv = n.legal_moves()[0];
            n.play(mv).unwrap();
        }
        parts_sum_to_the_whole(&n, 3);
    }

    #[test]
    fn transpositions_merge_into_one_position() {
        let g = Trax::new(Variant::Unbounded);
        let f = Frontier::new(&g, 3).unwrap();
        assert!(
            f.len() < f.sequences() as usize,
            "{} positions, {} sequences",
            f.len(),
            f.sequences()
        );
        let merged = (0..f.len()).find(|&i| f.multiplicity(i) > 1).unwrap();
        assert_eq!(
            Trax::replay(Variant::Unbounded, f.line(merged)).unwrap(),
            f.state(merged)
        );
        assert_eq!(f.line_text(0).split(LINE_SEPARATOR).count(), 3);
    }

    /// A Nantong action is two words (`discard 5m`): its lines still split into their moves.
    #[test]
    fn a_line_of_two_word_moves_splits_into_its_moves() {
        let g = Nantong::new(5);
        let f = Frontier::new(&g, 5).unwrap();
        let mut two_words = 0;
        for i in 0..f.len() {
            let text = f.line_text(i);
            let moves: Vec<&str> = text.split(LINE_SEPARATOR).collect();
            assert_eq!(moves.len(), 5, "{text}");
            two_words += moves.iter().filter(|m| m.contains(' ')).count();
            let mut replayed = g.clone();
            for mv in moves {
                replayed.play(mv.parse().unwrap()).unwrap();
            }
            assert_eq!(replayed, f.state(i), "{text}");
        }
        assert!(two_words > 0, "no line of the frontier holds a discard");
    }

    #[test]
    fn a_part_out_of_range_or_a_split_past_the_depth_is_refused() {
        let f = Frontier::new(&Trax::new(Variant::Unbounded), 2).unwrap();
        for (part, parts) in [(4, 4), (0, 0), (usize::MAX, 3)] {
            let e = f.perft_part(4, part, parts).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::BadArgument);
            assert!(e.to_string().contains("does not exist"), "{e}");
        }
        let e = f.perft_part(1, 0, 1).unwrap_err();
        assert!(e.to_string().contains("split at most at the depth"), "{e}");
    }

    #[test]
    fn a_game_that_ends_before_the_split_has_no_frontier() {
        let mut rng = Rng::new(4);
        let g = random_position(&mut rng, 2);
        let f = Frontier::new(&g, 3).unwrap();
        assert!(f.is_empty());
        assert_eq!(f.perft_part(3, 0, 2).unwrap(), 0);
    }

    #[test]
    fn threads_count_a_part_as_one_thread_does() {
        let g = Trax::new(Variant::Unbounded);
        let f = Frontier::new(&g, 2).unwrap();
        for threads in [1, 2, 3] {
            for part in 0..3 {
                assert_eq!(
                    f.perft_part_threads(5, part, 3, threads, (&|_, _| {}, &|| false))
                        .unwrap(),
                    Some(f.perft_part(5, part, 3).unwrap())
                );
            }
        }
        assert!(f.perft_part_threads(5, 3, 3, 2, (&|_, _| {}, &|| false)).is_err());
        assert_eq!(f.perft_part_threads(8, 0, 3, 2, (&|_, _| {}, &|| true)).unwrap(), None);
    }
}

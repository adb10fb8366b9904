//! The exact solver on several threads (with the `std` feature), sharing one transposition table.
//!
//! Young brothers wait: along the first moves from the root (the eldest brothers) the search
//! goes down one line first, since its result narrows or settles everything else; once the
//! eldest child of such a node is searched and has not refuted it, its younger brothers are
//! shared out, each thread taking the next one not yet taken. A brother that refutes the node
//! calls off the searches still running for it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::vec::Vec;

use super::solve::{mix, mtd, solution, table_size, untie, Entry, Memory, Recall, Search, Solution};
use crate::parallel::share;
use crate::tripletriad::round::board::FULL;
use crate::tripletriad::round::position::{Position, RoundTable};
use crate::tripletriad::round::state::TripleTriad;

/// A transposition table that threads read and write without locks. A slot is two words, the
/// entry's data and its key mixed with that data: a slot torn by two threads writing at once
/// reads back as another key, a miss.
struct SharedTable {
    slots: Vec<[AtomicU64; 2]>,
}

impl SharedTable {
    fn new(bits: u32) -> SharedTable {
        let mut slots = Vec::new();
        let size = table_size(bits, &mut slots);
        slots.extend((0..size).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        SharedTable { slots }
    }
}

/// A thread's view of the shared table, with the flag that calls its search off.
struct View<'a> {
    table: &'a SharedTable,
    stop: &'a AtomicBool,
}

impl Memory for View<'_> {
    #[inline(always)]
    fn load(&self, slot: usize) -> Entry {
        let [key, data] = &self.table.slots[slot];
        let data = data.load(Ordering::Relaxed);
        Entry::from_data(key.load(Ordering::Relaxed) ^ mix(data), data)
    }

    #[inline(always)]
    fn store(&mut self, slot: usize, entry: Entry) {
        let [key, data] = &self.table.slots[slot];
        let d = entry.data();
        key.store(entry.key() ^ mix(d), Ordering::Relaxed);
        data.store(d, Ordering::Relaxed);
    }

    #[inline(always)]
    fn stopped(&self, _nodes: u64) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Nodes with at least this many empty cells share out their younger children; below, a
/// subtree is too small to be worth handing to another thread.
const SPLIT_MIN: u32 = 8;

/// [`Solver::solve`](crate::tripletriad::Solver::solve) on `threads` threads sharing one table of
/// `2^table_bits` entries (see [`Solver::new`](crate::tripletriad::Solver::new)). `progress(done, total)`
/// counts the moves at the root searched in the current zero-window search.
///
/// The value is exact as with one thread; among equally good moves, which one is returned may
/// depend on the threads' timing.
///
/// ```
/// use arbiter_core::tripletriad::{solve, solve_threads, Rules, Setup, TripleTriad};
/// let rules = Rules { same: true, plus: true, combo: true, ..Rules::default() };
/// let mut g = TripleTriad::new(&Setup::random_ff8(3).with_rules(rules)).unwrap();
/// use arbiter_core::Game;
/// for mv in ["0@4", "0@0", "0@8"] {
///     g.play(mv.parse().unwrap()).unwrap();
/// }
/// let s = solve_threads(&g, 2, 15, &|_, _| {});
/// assert_eq!(s.value, solve(&g).value);
/// ```
pub fn solve_threads(
    game: &TripleTriad,
    threads: usize,
    table_bits: u32,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Solution {
    let (t, pos) = (&*game.table, game.pos);
    let table = SharedTable::new(table_bits);
    let stop = AtomicBool::new(false);
    let mut searches: Vec<Search<View>> = (0..threads.max(1))
        .map(|_| {
            let mut s = Search::new(
                View {
                    table: &table,
                    stop: &stop,
                },
                table.slots.len(),
            );
            s.start(); // every search at the same generation: their keys agree
            s
        })
        .collect();
    let (value, best, _) = mtd(&pos, |alpha, beta| {
        Some(split(&mut searches, &stop, t, &pos, alpha, beta, progress))
    });
    solution(&pos, value, best, searches.iter().map(|s| s.nodes).sum())
}

/// The fail-soft value of `pos` within `(alpha, beta)` and a best move: the eldest child by
/// `split` again, its younger brothers shared out among `searches`.
fn split(
    searches: &mut [Search<View>],
    stop: &AtomicBool,
    t: &RoundTable,
    pos: &Position,
    alpha: i8,
    beta: i8,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> (i8, Option<(u8, u8)>) {
    let empty = (!pos.occupied & FULL).count_ones();
    let alone = searches.len() == 1;
    let main = &mut searches[0];
    if empty < SPLIT_MIN || alone {
        return main.search(t, pos, alpha, beta);
    }
    main.nodes += 1;
    let (key, slot) = main.slot(pos);
    let (alpha, beta, hint) = match main.recall(key, slot, alpha, beta) {
        Recall::Known(v, mv) => return (v, mv),
        Recall::Narrowed(alpha, beta, hint) => (alpha, beta, hint),
    };
    let (kids, mut keys) = main.children(t, pos, hint);
    keys.sort_unstable_by(|a, b| b.cmp(a));
    let order = |i: usize| (untie(keys[i] >> 8), &kids[keys[i] as u8 as usize]);

    let (mv, eldest) = order(0);
    let v = -split(searches, stop, t, eldest, -beta, -alpha, &|_, _| {}).0;
    progress(1, keys.len());
    let best = Mutex::new((v, Some(mv)));
    if v < beta {
        stop.store(false, Ordering::Relaxed);
        // What the eldest brother's search learnt of good moves orders the others' too.
        let (main, helpers) = searches.split_first_mut().expect("one search at least");
        helpers.iter_mut().for_each(|h| h.learn_from(main));
        share(
            keys.len() - 1,
            searches,
            &|done, n| progress(done + 1, n + 1),
            |search, i| {
                let floor = best.lock().expect("no thread panics").0;
                if floor >= beta {
                    return; // a brother refuted the node
                }
                let (mv, next) = order(i + 1);
                let v = -search.search(t, next, -beta, -alpha.max(floor)).0;
                if search.memory.stopped(search.nodes) {
                    return;
                }
                let mut b = best.lock().expect("no thread panics");
                if v > b.0 {
                    *b = (v, Some(mv));
                    if v >= beta {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            },
        );
        stop.store(false, Ordering::Relaxed);
    }
    let best = best.into_inner().expect("no thread panics");
    if best.0 >= beta {
        searches[0].credit(best.1.expect("a move refuted the node"), empty);
    }
    searches[0].remember(key, slot, (alpha, beta), best);
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::testing::random_position;
    use crate::tripletriad::Solver;
    use crate::{Game, Rng};

    /// A slot reads back what was stored; a slot whose two words come from two different
    /// stores (two threads writing it at once) reads as neither key: a miss, never an entry
    /// with another position's bounds. Keys as the solver makes them: 45 bits and a generation.
    #[test]
    fn a_torn_slot_is_a_miss() {
        let table = SharedTable::new(4);
        let stop = AtomicBool::new(false);
        let mut view = View {
            table: &table,
            stop: &stop,
        };
        let mut rng = Rng::new(5);
        let mut entry = || {
            let key = 1 << 56 | rng.below(1 << 45);
            let [lower, upper] = [rng.below(21) as i8 - 10, rng.below(21) as i8 - 10];
            let (card, cell) = (rng.below(10) as u8, rng.below(9) as u8);
            Entry::from_data(key, u32::from_le_bytes([lower as u8, upper as u8, card, cell]) as u64)
        };
        for _ in 0..100_000 {
            let (a, b) = (entry(), entry());
            view.store(3, a);
            let got = view.load(3);
            assert_eq!((got.key(), got.data()), (a.key(), a.data()));
            // `b` half written over `a`: its data word only.
            table.slots[3][1].store(b.data(), Ordering::Relaxed);
            let torn = view.load(3);
            assert!(a.data() == b.data() || (torn.key() != a.key() && torn.key() != b.key()));
        }
    }

    /// Shared out among one to three threads, solver values are those of one thread, and the
    /// best move reaches the value; from the empty board too, where the brothers are split and
    /// searches are called off.
    #[test]
    fn threads_agree_with_one_thread() {
        let mut rng = Rng::new(3);
        for round in 0..60 {
            let empty = if round % 5 == 0 { 9 } else { 3 + rng.below(5) as u32 };
            let g = random_position(&mut rng, empty as usize);
            let threads = 1 + round % 3;
            let want = Solver::new(10).solve(&g).value;
            let got = solve_threads(&g, threads, 10, &|_, _| {});
            assert_eq!(got.value, want, "round {round}");
            let mut after = g.clone();
            after.play(got.best_move.unwrap()).unwrap();
            assert_eq!(-Solver::new(10).solve(&after).value, want, "round {round}");
        }
    }
}

//! Exact solver for open hands: negamax with alpha-beta, a transposition table and move ordering.

use crate::{Budget, Shared};
use alloc::vec::Vec;
use arrayvec::ArrayVec;
use core::cell::{Cell, RefCell};

use crate::tripletriad::round::board::{bits, FULL};
use crate::tripletriad::round::position::{Position, RoundTable};
use crate::tripletriad::round::resolve::child;
use crate::tripletriad::round::state::{Move, TripleTriad};

/// The result of [`solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final score of the player to move minus the opponent's, with perfect play by both.
    pub value: i32,
    /// A move reaching `value`; `None` when the game is over.
    pub best_move: Option<Move>,
    /// Positions searched.
    pub nodes: u64,
}

#[derive(Clone, Copy, Default)]
pub(crate) struct Entry {
    /// Position key with the search generation in the top byte; 0 = empty.
    key: u64,
    lower: i8,
    upper: i8,
    /// Card id and cell of the best move found, 0xFF if none.
    card: u8,
    cell: u8,
}

/// An entry as two words, for the table the threads share.
#[cfg(feature = "std")]
impl Entry {
    /// Everything but the key, in the low 32 bits.
    pub(crate) fn data(self) -> u64 {
        u32::from_le_bytes([self.lower as u8, self.upper as u8, self.card, self.cell]) as u64
    }

    pub(crate) fn from_data(key: u64, data: u64) -> Entry {
        let [lower, upper, card, cell] = (data as u32).to_le_bytes();
        Entry {
            key,
            lower: lower as i8,
            upper: upper as i8,
            card,
            cell,
        }
    }

    pub(crate) fn key(self) -> u64 {
        self.key
    }
}

/// Where a search keeps its entries: the solver's own table, or one that threads share.
pub(crate) trait Memory {
    fn load(&self, slot: usize) -> Entry;
    fn store(&mut self, slot: usize, entry: Entry);
    /// Whether another thread has settled the question this search is part of, or the budget
    /// ran out (`nodes` searched so far): the search then returns at once, with a value that
    /// means nothing, storing nothing on the way.
    fn stopped(&self, nodes: u64) -> bool;
}

impl Memory for Vec<Entry> {
    #[inline(always)]
    fn load(&self, slot: usize) -> Entry {
        self[slot]
    }

    #[inline(always)]
    fn store(&mut self, slot: usize, entry: Entry) {
        self[slot] = entry;
    }

    #[inline(always)]
    fn stopped(&self, _nodes: u64) -> bool {
        false
    }
}

/// How many nodes pass between two questions to a [`Budget`]'s stop callback.
const POLL: u64 = 1 << 12;

/// A solver's table lent to one search under a [`Budget`]: called off once the nodes reach the
/// budget's or its stop callback says so, and from then on.
struct Bounded<'t, 'b, 'c> {
    table: &'t mut Vec<Entry>,
    limit: u64,
    polled: Cell<u64>,
    out: Cell<bool>,
    budget: RefCell<&'b mut Budget<'c>>,
}

impl Memory for Bounded<'_, '_, '_> {
    #[inline(always)]
    fn load(&self, slot: usize) -> Entry {
        self.table[slot]
    }

    #[inline(always)]
    fn store(&mut self, slot: usize, entry: Entry) {
        self.table[slot] = entry;
    }

    fn stopped(&self, nodes: u64) -> bool {
        if !self.out.get() && (nodes >= self.limit || nodes - self.polled.get() >= POLL) {
            self.polled.set(nodes);
            self.out.set(nodes >= self.limit || self.budget.borrow_mut().stopped());
        }
        self.out.get()
    }
}

/// A solve that its [`Budget`] called off ([`Solver::solve_within`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// The best move the finished zero-window searches found (a move that reaches their bound),
    /// `None` if the first did not finish.
    pub best_move: Option<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// Room for `2^bits` entries (clamped to 4..=[`Solver::MAX_TABLE_BITS`]), halved while the
/// memory cannot be had: the slot count reserved.
pub(crate) fn table_size<T>(bits: u32, table: &mut Vec<T>) -> usize {
    let mut size = 1usize << bits.clamp(4, Solver::MAX_TABLE_BITS);
    while table.try_reserve_exact(size).is_err() && size > 16 {
        size /= 2;
    }
    size
}

/// A reusable solver: its transposition table survives between calls. Positions of the round it
/// solved last (states that came from one another by playing, sharing their cards and rules)
/// reuse the entries of earlier calls, which hold bounds of exact values; for any other round the
/// entries are told apart by a generation tag, so starting afresh costs no clearing, except
/// once every 255 rounds, when the tags run out and the table is emptied.
///
/// ```
/// use arbiter_core::tripletriad::{Solver, TripleTriad, Setup, Rules};
/// let rules = Rules { open: true, same: true, plus: true, combo: true, ..Rules::default() };
/// let g = TripleTriad::new(&Setup::random_ff8(9).with_rules(rules)).unwrap();
/// let mut solver = Solver::new(18);
/// let s = solver.solve(&g);
/// assert!((-10..=10).contains(&s.value) && s.value % 2 == 0);
/// ```
pub struct Solver {
    search: Search<Vec<Entry>>,
    /// The cards and rules of the round whose entries the table holds.
    round: Option<Shared<RoundTable>>,
}

/// The last generation a key can carry: the byte above its 45 bits of position (0 marks an
/// empty slot).
const LAST_GENERATION: u64 = 255;

/// The alpha-beta search over a [`Memory`], with its counters and move-ordering history.
pub(crate) struct Search<M> {
    pub(crate) memory: M,
    mask: u64,
    generation: u64,
    pub(crate) nodes: u64,
    /// History heuristic: how often (card, cell) refuted a position, weighted by its depth.
    history: [[u32; 9]; 10],
}

/// What the table knows of a position: its value within the window, or a narrower window and
/// the move that was best before.
pub(crate) enum Recall {
    Known(i8, Option<(u8, u8)>),
    Narrowed(i8, i8, Option<(u8, u8)>),
}

/// Children of a position, each with an ordering key (greatest first) that carries the child's
/// index in its low byte: see [`Search::children`].
pub(crate) type Children = (ArrayVec<Position, 45>, ArrayVec<u64, 45>);

impl Default for Solver {
    fn default() -> Solver {
        Solver::new(Solver::DEFAULT_TABLE_BITS)
    }
}

impl Solver {
    /// A solver with a table of `2^bits` entries (16 bytes each). `bits` is clamped to
    /// 4..=[`Solver::MAX_TABLE_BITS`], and where memory for the table cannot be had the solver
    /// halves it until it can (a smaller table costs time, never correctness).
    ///
    /// ```
    /// use arbiter_core::tripletriad::Solver;
    /// let s = Solver::new(64); // clamped: 2^24 entries at most
    /// assert_eq!(s.table_len(), 1 << Solver::MAX_TABLE_BITS);
    /// ```
    pub fn new(bits: u32) -> Solver {
        let mut table = Vec::new();
        let size = table_size(bits, &mut table);
        table.resize(size, Entry::default());
        Solver {
            search: Search::new(table, size),
            round: None,
        }
    }

    /// The table size of [`Solver::default`], 2^15 entries (512 KiB): only positions with five
    /// or more empty cells are stored (a few thousand per solve from the empty board), so they
    /// stay in cache.
    pub const DEFAULT_TABLE_BITS: u32 = 15;

    /// The largest table, 2^24 entries (256 MiB): more never pays for one round, whose whole tree
    /// has fewer positions worth storing.
    pub const MAX_TABLE_BITS: u32 = 24;

    /// Entries in the transposition table.
    pub fn table_len(&self) -> usize {
        self.search.memory.len()
    }

    /// Solves `game` exactly, reading both hands whatever the `open` rule says.
    pub fn solve(&mut self, game: &TripleTriad) -> Solution {
        self.enter(game);
        let (t, pos) = (&*game.table, game.pos);
        let (value, best, _) = mtd(&pos, |alpha, beta| Some(self.search.search(t, &pos, alpha, beta)));
        solution(&pos, value, best, self.search.nodes)
    }

    /// [`Solver::solve`] within `budget`: its node count (positions searched) and its stop
    /// callback, asked every few thousand positions. What the search learnt before it was called
    /// off stays in the table for the next call.
    ///
    /// ```
    /// use arbiter_core::Budget;
    /// use arbiter_core::tripletriad::{Solver, TripleTriad, Setup};
    /// let g = TripleTriad::new(&Setup::random_ff8(9)).unwrap();
    /// let mut solver = Solver::default();
    /// let cut = solver.solve_within(&g, Budget::nodes(100)).unwrap_err();
    /// assert!(cut.nodes <= 200);
    /// // What it learnt stays: the next call goes on from there, to the exact value.
    /// let s = solver.solve_within(&g, Budget::default()).unwrap();
    /// assert_eq!(s.value, Solver::default().solve(&g).value);
    /// ```
    pub fn solve_within(&mut self, game: &TripleTriad, mut budget: Budget<'_>) -> Result<Solution, Interrupted> {
        self.enter(game);
        let (t, pos) = (&*game.table, game.pos);
        let limit = budget.nodes.unwrap_or(u64::MAX);
        let mut search = Search {
            memory: Bounded {
                table: &mut self.search.memory,
                limit,
                polled: Cell::new(0),
                out: Cell::new(false),
                budget: RefCell::new(&mut budget),
            },
            mask: self.search.mask,
            generation: self.search.generation,
            nodes: self.search.nodes,
            history: self.search.history,
        };
        let (value, best, exact) = mtd(&pos, |alpha, beta| {
            let found = search.search(t, &pos, alpha, beta);
            (!search.memory.stopped(search.nodes)).then_some(found)
        });
        (self.search.nodes, self.search.history) = (search.nodes, search.history);
        let found = solution(&pos, value, best, search.nodes);
        if exact {
            Ok(found)
        } else {
            Err(Interrupted {
                best_move: found.best_move,
                nodes: found.nodes,
            })
        }
    }

    /// Readies the solver for positions of `game`'s round (keeping the table's entries if it is
    /// the round solved last); the node count restarts.
    pub(crate) fn enter(&mut self, game: &TripleTriad) {
        if self.round.as_ref().is_some_and(|r| Shared::ptr_eq(r, &game.table)) {
            self.search.nodes = 0;
        } else {
            if self.search.generation == LAST_GENERATION {
                // Every tag is taken: the next one would make the entries of the round that had
                // it pass for this round's (keys name card ids and cells, not the cards).
                self.search.memory.fill(Entry::default());
                self.search.generation = 0;
            }
            self.search.start();
            self.round = Some(game.table.clone());
        }
    }

    /// Positions searched since the solver entered the round.
    pub(crate) fn nodes(&self) -> u64 {
        self.search.nodes
    }

    /// The fail-soft value of `pos` within `(alpha, beta)` and a best move.
    pub(crate) fn search(&mut self, t: &RoundTable, pos: &Position, alpha: i8, beta: i8) -> (i8, Option<(u8, u8)>) {
        self.search.search(t, pos, alpha, beta)
    }
}

impl<M: Memory> Search<M> {
    pub(crate) fn new(memory: M, size: usize) -> Search<M> {
        Search {
            memory,
            mask: size as u64 - 1,
            generation: 0,
            nodes: 0,
            history: [[0; 9]; 10],
        }
    }

    /// Readies the search for a new round: earlier entries become stale, counts restart. The
    /// owner of the memory empties it before a generation past [`LAST_GENERATION`].
    pub(crate) fn start(&mut self) {
        debug_assert!(self.generation < LAST_GENERATION, "the table must be emptied first");
        self.generation += 1;
        self.nodes = 0;
        self.history = [[0; 9]; 10];
    }

    /// The key of `pos` in this round and its slot in the table.
    #[inline(always)]
    pub(crate) fn slot(&self, pos: &Position) -> (u64, usize) {
        let key = position_key(pos) | (self.generation << 56);
        (key, (mix(key) & self.mask) as usize)
    }

    /// What the table holds for `key` at `slot`, against the window `(alpha, beta)`.
    #[inline(always)]
    pub(crate) fn recall(&self, key: u64, slot: usize, alpha: i8, beta: i8) -> Recall {
        let entry = self.memory.load(slot);
        if entry.key != key {
            return Recall::Narrowed(alpha, beta, None);
        }
        if entry.lower >= beta || entry.lower == entry.upper {
            return Recall::Known(entry.lower, decode(entry));
        }
        if entry.upper <= alpha {
            return Recall::Known(entry.upper, decode(entry));
        }
        Recall::Narrowed(alpha.max(entry.lower), beta.min(entry.upper), decode(entry))
    }

    /// Stores `best`, searched within `(alpha, beta)`, as bounds of the position's value.
    #[inline(always)]
    pub(crate) fn remember(&mut self, key: u64, slot: usize, window: (i8, i8), best: (i8, Option<(u8, u8)>)) {
        let (lower, upper) = if best.0 <= window.0 {
            (-10, best.0)
        } else if best.0 >= window.1 {
            (best.0, 10)
        } else {
            (best.0, best.0)
        };
        let (card, cell) = best.1.unwrap_or((0xFF, 0xFF));
        self.memory.store(
            slot,
            Entry {
                key,
                lower,
                upper,
                card,
                cell,
            },
        );
    }

    /// The children of `pos` and their ordering keys: the table's move first, then the greatest
    /// immediate score, then the history.
    #[inline(always)]
    pub(crate) fn children(&self, t: &RoundTable, pos: &Position, hint: Option<(u8, u8)>) -> Children {
        let mut kids: ArrayVec<Position, 45> = ArrayVec::new();
        let mut keys: ArrayVec<u64, 45> = ArrayVec::new();
        let (mover, playable) = (pos.to_move, t.playable(pos));
        for card in bits(playable) {
            // Identical cards in one hand give identical subtrees: try the first only.
            if playable & t.twins[card as usize] != 0 {
                continue;
            }
            for cell in bits(!pos.occupied & FULL) {
                let next = child(t, *pos, card, cell);
                let order = if hint == Some((card, cell)) {
                    u32::MAX
                } else {
                    (next.score(mover) << 24) + self.history[card as usize][cell as usize].min(0xFF_FFFF)
                };
                keys.push(tie_break(order, card, cell) << 8 | kids.len() as u64);
                kids.push(next);
            }
        }
        (kids, keys)
    }

    /// Takes `other`'s move-ordering history.
    #[cfg(feature = "std")]
    pub(crate) fn learn_from<N>(&mut self, other: &Search<N>) {
        self.history = other.history;
    }

    /// Credits a move that refuted a position with `empty` empty cells.
    #[inline(always)]
    pub(crate) fn credit(&mut self, (card, cell): (u8, u8), empty: u32) {
        self.history[card as usize][cell as usize] += empty * empty;
    }

    pub(crate) fn search(&mut self, t: &RoundTable, pos: &Position, alpha: i8, beta: i8) -> (i8, Option<(u8, u8)>) {
        self.nodes += 1;
        let empty = (!pos.occupied & FULL).count_ones();
        if empty == 4 {
            return four_empty(t, pos, alpha, beta, &mut self.history);
        }
        if empty == 3 {
            return three_empty(t, pos, alpha, beta, &mut self.history);
        }
        if empty <= 2 {
            return last_plies(t, pos, alpha, beta);
        }
        let (key, slot) = self.slot(pos);
        let (alpha, beta, hint) = match self.recall(key, slot, alpha, beta) {
            Recall::Known(v, mv) => return (v, mv),
            Recall::Narrowed(alpha, beta, hint) => (alpha, beta, hint),
        };
        let (kids, mut keys) = self.children(t, pos, hint);
        let mut best = (-128i8, None);
        // Greatest key first, picked one at a time (a cutoff usually comes early). Ties go to
        // the lower (card, cell), so the order does not depend on how the keys are scanned.
        while let Some((i, &order)) = keys.iter().enumerate().max_by_key(|k| *k.1) {
            keys.swap_remove(i);
            let mv = untie(order >> 8);
            let v = -self.search(t, &kids[order as u8 as usize], -beta, -alpha.max(best.0)).0;
            if self.memory.stopped(self.nodes) {
                return (0, None); // called off: the caller throws the value away
            }
            if v > best.0 {
                best = (v, Some(mv));
                if v >= beta {
                    self.credit(mv, empty);
                    break;
                }
            }
        }
        self.remember(key, slot, (alpha, beta), best);
        best
    }
}

/// The exact value of `pos` for the player to move and a best move, by MTD(f) over `search`, a
/// fail-soft alpha-beta search of `pos` (`None` once called off). The first guess is 0 (most deals
/// are drawn with perfect play): a series of zero-window searches, each far cheaper than one
/// full-window search. Whether the value is exact: a search called off leaves the bounds of the
/// searches before it, and the best move they found.
pub(crate) fn mtd(
    pos: &Position,
    mut search: impl FnMut(i8, i8) -> Option<(i8, Option<(u8, u8)>)>,
) -> (i8, Option<(u8, u8)>, bool) {
    if pos.is_over() {
        return (final_value(pos), None, true);
    }
    let (mut lower, mut upper) = (-10i8, 10i8);
    let (mut beta, mut best) = (0, None);
    while lower < upper {
        let Some((v, mv)) = search(beta - 1, beta) else {
            return (lower, best, false);
        };
        if v < beta {
            upper = v;
            best = best.or(mv);
        } else {
            lower = v;
            best = mv;
        }
        beta = if v == lower { v + 1 } else { v };
    }
    (lower, best, true)
}

/// The [`Solution`] of `pos`: the best move's card named by its place in the hand.
pub(crate) fn solution(pos: &Position, value: i8, best: Option<(u8, u8)>, nodes: u64) -> Solution {
    let best_move = best.map(|(card, cell)| {
        let index = bits(pos.hand(pos.to_move)).position(|c| c == card).unwrap();
        Move {
            card: index as u8,
            cell,
        }
    });
    Solution {
        value: value as i32,
        best_move,
        nodes,
    }
}

/// The best child of `pos` by `value(child, best so far)`, fail-soft: stops at `beta`.
#[inline(always)]
fn best_child(
    t: &RoundTable,
    pos: &Position,
    beta: i8,
    mut value: impl FnMut(&Position, i8) -> i8,
) -> (i8, Option<(u8, u8)>) {
    let empty = !pos.occupied & FULL;
    let mut best = (-128i8, None);
    for card in bits(t.playable(pos)) {
        for cell in bits(empty) {
            let next = child(t, *pos, card, cell);
            let v = value(&next, best.0);
            if v > best.0 {
                best = (v, Some((card, cell)));
                if v >= beta {
                    return best;
                }
            }
        }
    }
    best
}

/// Value of a position with one or two empty cells, fail-soft.
fn last_plies(t: &RoundTable, pos: &Position, alpha: i8, beta: i8) -> (i8, Option<(u8, u8)>) {
    // The forced reply only takes cards from the mover (without Battle, which can lose the
    // placed card), so the value after the move bounds the line: at `alpha` or below, no need to
    // play the reply.
    let reply_only_takes = !t.rules.battle;
    best_child(t, pos, beta, |next, _| {
        let now = -final_value(next);
        if next.is_over() || (reply_only_takes && now <= alpha) {
            return now;
        }
        // One cell and one card left: the reply is forced.
        let reply = next.hand(next.to_move).trailing_zeros() as u8;
        let last = (!next.occupied & FULL).trailing_zeros() as u8;
        final_value(&child(t, *next, reply, last))
    })
}

/// The children of `pos` in history order (no placement is spent on ordering), by
/// `value(child, best so far)`, fail-soft at `beta`; a cutoff credits its move with `bonus`.
fn by_history(
    t: &RoundTable,
    pos: &Position,
    beta: i8,
    history: &mut [[u32; 9]; 10],
    bonus: u32,
    mut value: impl FnMut(&Position, i8, &mut [[u32; 9]; 10]) -> i8,
) -> (i8, Option<(u8, u8)>) {
    let mut moves: ArrayVec<u64, 12> = ArrayVec::new();
    for card in bits(t.playable(pos)) {
        for cell in bits(!pos.occupied & FULL) {
            moves.push(tie_break(history[card as usize][cell as usize], card, cell));
        }
    }
    let mut best = (-128i8, None);
    // Picked one at a time, greatest first: a cutoff usually comes within the first few, so a
    // full sort would mostly order moves never tried.
    while let Some((i, &key)) = moves.iter().enumerate().max_by_key(|m| *m.1) {
        moves.swap_remove(i);
        let (card, cell) = untie(key);
        let next = child(t, *pos, card, cell);
        let v = value(&next, best.0, history);
        if v > best.0 {
            best = (v, Some((card, cell)));
            if v >= beta {
                history[card as usize][cell as usize] += bonus;
                return best;
            }
        }
    }
    best
}

/// Four empty cells: plain alpha-beta in history order (measured: a table probe here costs more
/// than the transpositions it finds).
fn four_empty(
    t: &RoundTable,
    pos: &Position,
    alpha: i8,
    beta: i8,
    history: &mut [[u32; 9]; 10],
) -> (i8, Option<(u8, u8)>) {
    by_history(t, pos, beta, history, 4, |next, best, h| {
        -three_empty(t, next, -beta, -alpha.max(best), h).0
    })
}

/// Three empty cells: the same, over the last two plies.
fn three_empty(
    t: &RoundTable,
    pos: &Position,
    alpha: i8,
    beta: i8,
    history: &mut [[u32; 9]; 10],
) -> (i8, Option<(u8, u8)>) {
    by_history(t, pos, beta, history, 9, |next, best, _| {
        -last_plies(t, next, -beta, -alpha.max(best)).0
    })
}

/// An ordering key with ties broken towards the lower (card, cell): unique, so any sort is stable.
#[inline(always)]
fn tie_break(order: u32, card: u8, cell: u8) -> u64 {
    ((order as u64) << 16) | ((0xFF - card as u64) << 8) | (0xFF - cell as u64)
}

/// The (card, cell) of a [`tie_break`] key.
#[inline(always)]
pub(crate) fn untie(key: u64) -> (u8, u8) {
    (0xFF - (key >> 8) as u8, 0xFF - key as u8)
}

fn decode(e: Entry) -> Option<(u8, u8)> {
    (e.card != 0xFF).then_some((e.card, e.cell))
}

/// The final score of the player to move minus the opponent's.
pub(crate) fn final_value(pos: &Position) -> i8 {
    2 * pos.score(pos.to_move) as i8 - 10
}

/// A key that identifies a position within one round: which card is on each cell (4 bits each)
/// and who owns it (hands and the player to move follow from the cells).
fn position_key(pos: &Position) -> u64 {
    let mut k = pos.blue as u64 & pos.occupied as u64;
    for cell in bits(pos.occupied) {
        k |= (pos.card(cell) as u64 + 1) << (9 + 4 * cell as u64);
    }
    k
}

pub(crate) fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^ (x >> 33)
}

/// Solves an open-hand position exactly (both hands are read whatever `open` says).
///
/// ```
/// use arbiter_core::tripletriad::{solve, TripleTriad, Setup};
/// let g = TripleTriad::new(&Setup::random_ff8(4)).unwrap();
/// let s = solve(&g);
/// assert!(s.best_move.is_some());
/// ```
pub fn solve(game: &TripleTriad) -> Solution {
    Solver::default().solve(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::round::resolve::place;
    use crate::tripletriad::testing::random_position;
    use crate::{Game, Rng};

    /// Plain minimax through the explained placement: the reference of the solver.
    fn minimax(t: &RoundTable, pos: &Position) -> i8 {
        if pos.is_over() {
            return final_value(pos);
        }
        let mut best = -128;
        for card in bits(t.playable(pos)) {
            for cell in bits(!pos.occupied & FULL) {
                let mut next = *pos;
                place(t, &mut next, card, cell);
                best = best.max(-minimax(t, &next));
            }
        }
        best
    }

    /// The solver's value and best move equal plain minimax on random positions with two to six
    /// empty cells under every rule option, one solver reused (a small table, so that entries of
    /// earlier positions and collisions are met).
    #[test]
    fn solver_equals_minimax() {
        let mut rng = Rng::new(9);
        let mut solver = Solver::new(8);
        for round in 0..600 {
            let empty = 2 + rng.below(5) as usize;
            let g = random_position(&mut rng, empty);
            let t = &*g.table;
            let want = minimax(t, &g.pos);
            let got = solver.solve(&g);
            assert_eq!(got.value, want as i32, "round {round}: {:?}", g.setup());
            let mut after = g.clone();
            after.play(got.best_move.unwrap()).unwrap();
            assert_eq!(
                -minimax(t, &after.pos),
                want,
                "round {round}: best move {:?}",
                got.best_move
            );
            // The next position of the same round: the solver keeps its entries.
            if !after.is_over() {
                assert_eq!(
                    solver.solve(&after).value,
                    -want as i32,
                    "round {round}: after the best move"
                );
            }
        }
    }

    /// One solver through many more rounds than a key's generation tag can tell apart, with a
    /// table large enough to keep every round's entries: each round must be solved exactly,
    /// never from the entries of a round solved long before. Keys name card ids and cells, and
    /// every round here opens with the same three moves (the first offered), so rounds far
    /// apart share keys.
    #[test]
    fn a_reused_solver_stays_exact_past_its_generations() {
        let mut rng = Rng::new(25);
        let mut reused = Solver::new(18);
        for round in 0..700u64 {
            let rules = crate::tripletriad::Rules {
                open: true,
                same: rng.below(2) == 0,
                plus: rng.below(2) == 0,
                ..Default::default()
            };
            let mut g = TripleTriad::new(&crate::tripletriad::Setup::random_ff8(round).with_rules(rules)).unwrap();
            for _ in 0..3 {
                g.play(g.legal_moves()[0]).unwrap();
            }
            let want = minimax(&g.table, &g.pos);
            let got = reused.solve(&g);
            assert_eq!(got.value, want as i32, "round {round}");
            let mut after = g.clone();
            after.play(got.best_move.unwrap()).unwrap();
            assert_eq!(-minimax(&g.table, &after.pos), want, "round {round}: the best move");
        }
    }
}

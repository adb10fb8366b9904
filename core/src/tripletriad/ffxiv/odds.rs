//! Exact win/draw/loss odds of a deck against an NPC, over the hands the NPC can bring
//! (issue #39 item 4): where FFTriadBuddy samples playouts, every hand is solved.
//!
//! **What is computed.** For each hand of [`Npc::hands`] (its probability from there) and each
//! starting player (FFXIV draws it at random: both are given, and their mean), one round under the
//! NPC's [`Npc::round_rules`], with the player blue:
//! - [`Opponent::Perfect`]: the round solved exactly ([`Solver`]); its value's sign is a win, a
//!   draw or a loss with perfect play on both sides (under Chaos, an expectimax: see below).
//! - [`Opponent::Random`]: the NPC plays each of its legal moves (card, cell) with equal
//!   probability; the player plays to **maximise its probability of winning, then, among moves
//!   winning equally often, its probability of drawing** (lexicographic, which is what a player
//!   farming an NPC's cards wants: a draw earns nothing, so a safe draw is not preferred to a
//!   likelier win). Computed by expectimax over every NPC move, memoised, in exact integers (a
//!   probability is a count over the product of the chance nodes' branchings), never sampled.
//!
//! **Speed of the expectimax** (all exact): an alpha-beta search over values, each value
//! being the (wins, draws) pair as one integer, so that bounds apply at chance nodes too
//! (Ballard's Star1: a random NPC's move or a Chaos draw stops once the branches valued so far
//! decide on which side of the window the sum falls); each side tries first the moves that
//! take the most cards; a perfect NPC's round is decided by two zero-window searches of the
//! solver at most (only its sign matters). Positions are memoised, with whether the value is
//! exact or a bound, by the cards on the board,
//! their owners and the hands, in two-slot buckets that keep the larger subtree, under a round
//! number so that a new round needs no clearing; under the basic capture alone (no Same, Plus,
//! Combo, Ascension or Descension) a card with no empty cell around it can never be taken nor
//! read again, so only the count of such blue cards is keyed, which merges the many positions
//! that differ there; identical cards in a hand are searched once and counted; the player's
//! search stops at a sure win, a perfect NPC's at a sure loss. In the last two cells, where
//! nine positions in ten lie, neither the memo nor the sort pays: the moves are tried in plain
//! order, each placed only if the window still needs it, and the last placement's outcome is read
//! from the score without resolving it whenever no capture can change it ([`Walk::last`]). `odds_threads`
//! shares the hands and starts out over threads, each with its own judge: no position is shared
//! between two hands anyway (every position of a round holds its ten cards, on the board or in
//! hand, and two hands differ by a card), nor between the two starts (the same cards placed, the
//! other player to move).
//!
//! **Information.** The player is taken to know the NPC's hand once the round starts (All Open);
//! the odds are then exact. Under Three Open, or with hidden cards, they are an upper bound for a
//! player who does not see the whole hand (knowing more never hurts the player): the honest
//! figure there needs imperfect-information solving, which this does not do.
//!
//! **Match-level and chance rules** (`rules/triple-triad-ffxiv.md`, section 2):
//! - Swap: the mean over the 25 exchanges (the player's i-th card for the hand's j-th, each
//!   taking the other's slot), uniform, since the game draws them at random.
//! - Sudden Death: a drawn round counts as a draw (the restart is not modelled).
//! - Roulette: its rule is drawn per match and unknown in advance: counted as no extra rule.
//! - Random, Draft: setup only: the odds are those of the five cards given.
//! - All Open, Three Open: observation only (see above).
//! - Chaos: each turn the game draws the mover's card uniformly from its hand (the spec's
//!   natural reading; no source gives the probabilities), then the mover chooses the cell: a
//!   chance node before every move, in the expectimax for both opponents (a perfect NPC then
//!   minimises the player's chances, lexicographically as above). Against a random NPC the draw
//!   and its uniform card choice are the same thing.
//! - Order: each player must play its hand's first card. The player's order is the deck's, as
//!   given (in the game the player arranges the deck: choosing the order is choosing the deck,
//!   and the deck builder tries every order); the NPC's order is not in the data, so each of its
//!   120 orders is taken as equally likely, and the player is taken to see it once the round
//!   starts (the hand is shown in order). Each order is a round of its own.
//!
//! The placement itself (Same, Plus, Reverse, Fallen Ace, Ascension...) is the round's: these
//! odds follow whatever the core's placement does under the NPC's [`Rules`].

use alloc::vec;
use alloc::vec::Vec;
use arrayvec::ArrayVec;
use core::cmp::Ordering;

use super::cards::FfxivCard;
use super::npcs::{Hand, Npc};
use crate::tripletriad::round::board::{bits, EDGE, FULL};
use crate::tripletriad::round::position::{Player, Position, RoundTable};
use crate::tripletriad::round::resolve::child;
use crate::tripletriad::{Rules, Setup, SetupError, Solver, TripleTriad};

/// Who the NPC is taken to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Plays perfectly, knowing both hands.
    Perfect,
    /// Plays each legal move with equal probability.
    Random,
}

/// Who places the first card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// The player.
    Player,
    /// The NPC.
    Npc,
    /// Either, with equal probability (as the game draws it).
    Either,
}

/// Probabilities of the player's win, draw and loss (summing to 1).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Odds {
    /// The player wins.
    pub win: f64,
    /// A draw.
    pub draw: f64,
    /// The NPC wins.
    pub loss: f64,
}

impl Odds {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn add(&mut self, other: Odds, weight: f64) {
        self.win += weight * other.win;
        self.draw += weight * other.draw;
        self.loss += weight * other.loss;
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn mean(a: Odds, b: Odds) -> Odds {
        let mut m = Odds::default();
        m.add(a, 0.5);
        m.add(b, 0.5);
        m
    }
}

/// The odds against one hand of the NPC.
#[derive(Clone, Copy, Debug)]
pub struct HandOdds {
    /// The NPC's hand and its probability.
    pub hand: Hand,
    /// When the player starts.
    pub player_first: Odds,
    /// When the NPC starts.
    pub npc_first: Odds,
}

impl HandOdds {
    /// The odds for `start`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn get(&self, start: Start) -> Odds {
        match start {
            Start::Player => self.player_first,
            Start::Npc => self.npc_first,
            Start::Either => Odds::mean(self.player_first, self.npc_first),
        }
    }
}

/// The odds of a deck against an NPC, per hand and over all its hands.
#[derive(Clone, Debug)]
pub struct NpcOdds {
    /// One entry per hand of [`Npc::hands`], in that order.
    pub hands: Vec<HandOdds>,
    /// Positions searched.
    pub nodes: u64,
}

impl NpcOdds {
    /// The odds over all hands, each weighted by its probability.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn total(&self, start: Start) -> Odds {
        let mut total = Odds::default();
        for h in &self.hands {
            total.add(h.get(start), h.hand.probability());
        }
        total
    }
}

/// Why the odds cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// The round's setup is refused by the core.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// One round to play: the two hands (after any swap, in their order), who starts, and its
/// weight among the rounds of its hand and start.
pub(crate) struct Round {
    pub game: TripleTriad,
    pub weight: f64,
}

/// How many rounds [`rounds`] gives for one hand and start: the 25 exchanges of Swap times the
/// 120 orders of the NPC's hand under Order.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn rounds_per_start(rules: Rules) -> usize {
    (if rules.swap { 25 } else { 1 }) * if rules.order { ORDERS.len() } else { 1 }
}

/// The 120 orders of five cards, lexicographic.
pub(crate) const ORDERS: [[usize; 5]; 120] = {
    let mut all = [[0; 5]; 120];
    let mut n = 0;
    let mut code = 0;
    while code < 3125 {
        let d = [code / 625, code / 125 % 5, code / 25 % 5, code / 5 % 5, code % 5];
        let mut seen = 0u32;
        let mut i = 0;
        while i < 5 {
            seen |= 1 << d[i];
            i += 1;
        }
        if seen == 0x1F {
            all[n] = d;
            n += 1;
        }
        code += 1;
    }
    all
};

/// The rounds of `deck` against `hand` when `first` starts, equally likely: one, or the 25
/// exchanges of Swap, times the 120 orders the NPC's hand may have under Order (the player's
/// order is the deck's).
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn rounds(
    deck: &[&FfxivCard; 5],
    hand: &Hand,
    rules: Rules,
    first: Player,
) -> Result<Vec<Round>, OddsError> {
    let pairs: &[Option<(usize, usize)>] = if rules.swap { &SWAPS } else { &[None] };
    let orders: &[[usize; 5]] = if rules.order { &ORDERS } else { &ORDERS[..1] };
    let weight = 1.0 / (pairs.len() * orders.len()) as f64;
    let mut all = Vec::with_capacity(pairs.len() * orders.len());
    for pair in pairs {
        for order in orders {
            let mut blue: Vec<_> = deck.iter().map(|c| c.card()).collect();
            let mut red: Vec<_> = hand.cards.iter().map(|c| c.card()).collect();
            if let Some((i, j)) = *pair {
                core::mem::swap(&mut blue[i], &mut red[j]);
            }
            let mut setup = Setup::default().with_rules(rules);
            setup.hands.blue = blue;
            setup.hands.red = order.iter().map(|&i| red[i].clone()).collect();
            setup.to_move = first;
            all.push(Round {
                game: TripleTriad::new(&setup)?,
                weight,
            });
        }
    }
    Ok(all)
}

/// Swap's 25 exchanges: the player's i-th card for the hand's j-th.
const SWAPS: [Option<(usize, usize)>; 25] = {
    let mut all = [None; 25];
    let mut k = 0;
    while k < 25 {
        all[k] = Some((k / 5, k % 5));
        k += 1;
    }
    all
};

/// Exact odds of `deck` (the player's five cards, blue) against `npc`, for every hand it can
/// bring and both starting players. The deck rule is not checked here (see
/// [`DeckRule`](super::DeckRule)); the five cards need not be distinct.
///
/// ```
/// use arbiter_core::tripletriad::ffxiv::{self, odds, Opponent, Start};
/// let npc = ffxiv::npc("Triple Triad Master").unwrap();
/// let deck = ["Ifrit", "Titan", "Garuda", "Ramuh", "Shiva"].map(|n| ffxiv::card(n).unwrap());
/// let result = odds(&deck, npc, Opponent::Perfect).unwrap();
/// let total = result.total(Start::Either);
/// assert!((total.win + total.draw + total.loss - 1.0).abs() < 1e-9);
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn odds(deck: &[&FfxivCard; 5], npc: &Npc, opponent: Opponent) -> Result<NpcOdds, OddsError> {
    let mut judge = Judge::new(opponent);
    let hands = npc.hands();
    let per_job = (0..2 * hands.len())
        .map(|j| judge.start_odds(deck, &hands[j / 2], npc.round_rules(), j))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(NpcOdds::gather(hands, &per_job, judge.nodes))
}

/// [`odds`] on `threads` threads (at least one), with the same result: each takes the next
/// hand and start not yet taken, with a judge (and a memo) of its own.
#[cfg(feature = "std")]
#[cfg_attr(arbiter_size, optimize(size))]
pub fn odds_threads(
    deck: &[&FfxivCard; 5],
    npc: &Npc,
    opponent: Opponent,
    threads: usize,
) -> Result<NpcOdds, OddsError> {
    let (hands, rules) = (npc.hands(), npc.round_rules());
    let jobs = 2 * hands.len();
    /// A thread's judge and the odds it found, by job.
    type Worker = (Judge, Vec<(usize, Result<Odds, OddsError>)>);
    let mut workers: Vec<Worker> = (0..threads.max(1))
        .map(|_| (Judge::new(opponent), Vec::new()))
        .collect();
    crate::parallel::share(jobs, &mut workers, &|_, _| {}, |(judge, done), j| {
        done.push((j, judge.start_odds(deck, &hands[j / 2], rules, j)));
    });
    let mut per_job = vec![Odds::default(); jobs];
    let mut nodes = 0;
    for (judge, done) in workers {
        nodes += judge.nodes;
        for (j, odds) in done {
            per_job[j] = odds?;
        }
    }
    Ok(NpcOdds::gather(hands, &per_job, nodes))
}

impl NpcOdds {
    /// The odds per hand from those per hand and start (`per_job[2 * hand + start]`, the
    /// player's start first).
    #[cfg_attr(arbiter_size, optimize(size))]
    fn gather(hands: Vec<Hand>, per_job: &[Odds], nodes: u64) -> NpcOdds {
        let hands = hands
            .into_iter()
            .zip(per_job.chunks(2))
            .map(|(hand, starts)| HandOdds {
                hand,
                player_first: starts[0],
                npc_first: starts[1],
            })
            .collect();
        NpcOdds { hands, nodes }
    }
}

/// Solves rounds for one kind of opponent, keeping its tables between rounds.
pub(crate) struct Judge {
    opponent: Opponent,
    solver: Solver,
    memo: Vec<Slot>,
    /// The round's number in the memo's keys (see [`Walk::key`]): a new round needs no clearing.
    epoch: u64,
    pub nodes: u64,
}

/// Bits of the expectimax memo: 2^23 slots of 16 bytes (128 MiB).
const MEMO_BITS: u32 = 23;

/// Positions with at least this many empty cells are memoised; below, recomputing is cheaper
/// than a probe.
const MEMO_MIN_EMPTY: u32 = 3;

/// Positions with at most this many empty cells try their moves unsorted (see [`Judge::decide`]).
const TAIL_EMPTY: u32 = 2;

/// Where the round's number sits in a memo key, and how many rounds fit before a clear.
const EPOCH_SHIFT: u32 = 59;
const EPOCHS: u64 = 1 << (64 - EPOCH_SHIFT);

/// A memoised position: its key (0 = empty) and its value (see [`Walk::value`]).
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    value: u64,
}

/// A value of the expectimax: blue's winning sequences in the high half, its drawing ones in
/// the low half. Sums of values are sums of both counts (no count reaches 2^31: each divides
/// [`UNITS`](super::builder::UNITS)), and comparing values compares wins first, then draws: the
/// player's order of preference.
type Value = u64;

const WIN: Value = 1 << 32;

/// The value of a finished round where blue holds `blue` cards.
#[cfg_attr(arbiter_size, optimize(size))]
fn outcome(blue: u32) -> Value {
    if blue > 5 {
        WIN
    } else {
        Value::from(blue == 5)
    }
}

/// A side of a search window over values: signed and wider, so that the windows derived at
/// chance nodes may fall below 0 or above a position's greatest value.
type Bound = i128;

/// The window asking for an exact value.
const FULL_WINDOW: (Bound, Bound) = (-1, Bound::MAX >> 2);

/// What a memoised value is, in its two top bits (a value never reaches 2^62): exact, a lower
/// bound, an upper bound.
const KIND: Value = 3 << 62;
const EXACT: Value = 0;
const LOWER: Value = 1 << 62;
const UPPER: Value = 2 << 62;

/// Whether a round is an expectimax (a chance node somewhere) and who red is there.
#[derive(Clone, Copy)]
struct Walk<'a> {
    t: &'a RoundTable,
    /// Red plays uniformly at random (else it minimises blue's value).
    random: bool,
    /// Each turn's card is drawn uniformly from the mover's hand.
    chaos: bool,
    /// `around[c]`: the cells next to `c`.
    around: [u16; 9],
    /// A placement turns no card away from its mover (no Battle) and moves none (no walls).
    monotone: bool,
    epoch: u64,
}

impl Judge {
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn new(opponent: Opponent) -> Judge {
        Judge {
            opponent,
            solver: Solver::default(),
            memo: Vec::new(),
            epoch: 0,
            nodes: 0,
        }
    }

    /// The walk of `game`, or `None` when the round has no chance node (the solver's case).
    #[cfg_attr(arbiter_size, optimize(size))]
    fn walk<'a>(&mut self, game: &'a TripleTriad) -> Option<Walk<'a>> {
        let t = &*game.table;
        let random = self.opponent == Opponent::Random;
        if !random && !t.rules.chaos {
            return None;
        }
        if self.memo.is_empty() {
            self.memo = vec![Slot::default(); 1 << MEMO_BITS];
        }
        self.epoch += 1;
        if self.epoch == EPOCHS {
            self.memo.fill(Slot::default());
            self.epoch = 1;
        }
        Some(Walk {
            t,
            random,
            chaos: t.rules.chaos,
            around: core::array::from_fn(|c| t.nb[c].iter().filter(|&&n| n != EDGE).fold(0, |m, &n| m | 1 << n)),
            monotone: !t.rules.battle && t.walls.is_empty(),
            epoch: self.epoch,
        })
    }

    /// The player's odds against `hand` when the player starts (`job` even) or the NPC does
    /// (odd): the mean over the rounds of [`rounds`].
    #[cfg_attr(arbiter_size, optimize(size))]
    fn start_odds(&mut self, deck: &[&FfxivCard; 5], hand: &Hand, rules: Rules, job: usize) -> Result<Odds, OddsError> {
        let first = [Player::Blue, Player::Red][job % 2];
        let mut total = Odds::default();
        for round in rounds(deck, hand, rules, first)? {
            total.add(self.odds(&round.game), round.weight);
        }
        Ok(total)
    }

    /// The player's (blue's) odds in `game`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn odds(&mut self, game: &TripleTriad) -> Odds {
        let Some(w) = self.walk(game) else {
            let mut odds = Odds::default();
            *match self.blue_outcome(game) {
                Ordering::Less => &mut odds.loss,
                Ordering::Equal => &mut odds.draw,
                Ordering::Greater => &mut odds.win,
            } = 1.0;
            return odds;
        };
        let v = self.value(&w, &game.pos, FULL_WINDOW.0, FULL_WINDOW.1);
        let all = f64::from(w.chances(&game.pos));
        let (win, draw) = ((v >> 32) as f64 / all, (v as u32) as f64 / all);
        Odds {
            win,
            draw,
            loss: (1.0 - win - draw).max(0.0),
        }
    }

    /// Blue's probability of winning `game` times `units`, exactly: `units` must be a multiple
    /// of the number of equally likely chance sequences of any round ([`UNITS`] is).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn win_units(&mut self, game: &TripleTriad, units: u64) -> u64 {
        match self.walk(game) {
            None => units * u64::from(self.blue_wins(game)),
            Some(w) => {
                let sequences = u64::from(w.chances(&game.pos));
                debug_assert_eq!(units % sequences, 0);
                (self.value(&w, &game.pos, FULL_WINDOW.0, FULL_WINDOW.1) >> 32) * (units / sequences)
            }
        }
    }

    /// Whether blue (the player) wins `game` against a perfect opponent: one zero-window search.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn blue_wins(&mut self, game: &TripleTriad) -> bool {
        self.solver.enter(game);
        let wins = self.blue_probe(game, 1) >= 1;
        self.nodes += self.solver.nodes();
        wins
    }

    /// Blue's result against a perfect opponent: only the sign of the final margin, which two
    /// zero-window searches at most decide, where the exact margin (the solver's MTD(f)) takes
    /// a search per step from 0 to the value.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn blue_outcome(&mut self, game: &TripleTriad) -> Ordering {
        self.solver.enter(game);
        let at_least_draw = self.blue_probe(game, 0);
        // Past 0 either way the first test decides; at 0 it proved a draw at least.
        let outcome = if at_least_draw != 0 {
            at_least_draw.cmp(&0)
        } else if self.blue_probe(game, 1) >= 1 {
            Ordering::Greater
        } else {
            Ordering::Equal
        };
        self.nodes += self.solver.nodes();
        outcome
    }

    /// A zero-window test of blue's final margin against `margin`, in the round the solver
    /// entered: a value at least `margin` is a lower bound of the margin with perfect play on
    /// both sides, a lower one an upper bound (fail-soft).
    #[cfg_attr(arbiter_size, optimize(size))]
    fn blue_probe(&mut self, game: &TripleTriad, margin: i8) -> i8 {
        let (t, pos) = (&*game.table, game.pos);
        if pos.is_over() {
            return pos.score(Player::Blue) as i8 * 2 - 10;
        }
        // The solver's value is the mover's margin, the opposite of blue's when red moves.
        match pos.to_move {
            Player::Blue => self.solver.search(t, &pos, margin - 1, margin).0,
            Player::Red => -self.solver.search(t, &pos, -margin, 1 - margin).0,
        }
    }

    /// Blue's chances in `pos`, as counts out of [`Walk::chances`]`(pos)` equally likely chance
    /// sequences (exact integers, so that equal chances compare equal): a Chaos draw, then the
    /// mover's move (blue maximises, red averages when random and minimises when perfect).
    ///
    /// Fail-soft within the window `(alpha, beta)`: a value at most `alpha` is an upper bound of
    /// the exact one, at least `beta` a lower bound, and exact between. [`FULL_WINDOW`] asks
    /// for the exact value; narrower windows come from the maximiser's best so far and from
    /// the chance nodes (see [`Judge::chance`]), and let a subtree stop once its value cannot
    /// matter. The memo keeps each result with which of the three it is.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn value(&mut self, w: &Walk, pos: &Position, alpha: Bound, beta: Bound) -> Value {
        let empty = (!pos.occupied & FULL).count_ones();
        self.nodes += 1;
        let playable = w.t.playable(pos);
        if empty <= 1 {
            if empty == 0 {
                return outcome(pos.score(Player::Blue));
            }
            if playable.count_ones() == 1 {
                // The last placement, forced (the starter's last card; no choice nor draw left).
                self.nodes += 1;
                let cell = (!pos.occupied & FULL).trailing_zeros() as u8;
                return w.last(pos, playable.trailing_zeros() as u8, cell);
            }
        }
        let slot = if empty >= MEMO_MIN_EMPTY {
            let key = w.key(pos);
            let bucket = (mix(key) & ((1 << MEMO_BITS) - 2)) as usize;
            if let Some(s) = self.memo[bucket..bucket + 2].iter().find(|s| s.key == key) {
                let v = s.value & !KIND;
                let useful = match s.value & KIND {
                    EXACT => true,
                    LOWER => Bound::from(v) >= beta,
                    _ => Bound::from(v) <= alpha,
                };
                if useful {
                    return v;
                }
            }
            Some((bucket, key))
        } else {
            None
        };
        let value = if w.chaos {
            let top = WIN * Value::from(w.chances(pos));
            let draws = distinct(w.t, playable);
            self.chance(draws, playable.count_ones(), top, alpha, beta, |judge, card, a, b| {
                judge.decide(w, pos, 1 << card, a, b)
            })
        } else {
            self.decide(w, pos, playable, alpha, beta)
        };
        if let Some((bucket, key)) = slot {
            // Of the bucket's two slots, replace the position's own, else one of an older round,
            // else the one with the smaller subtree (fewer cards left in hand).
            let worth = |k: u64| {
                if k >> EPOCH_SHIFT != w.epoch {
                    0
                } else {
                    (k >> 9 & 0x3FF).count_ones() + 1
                }
            };
            let kind = if Bound::from(value) <= alpha {
                UPPER
            } else if Bound::from(value) >= beta {
                LOWER
            } else {
                EXACT
            };
            let i = if self.memo[bucket + 1].key == key {
                bucket + 1 // a bound of it already there: this result is as good or better
            } else if self.memo[bucket].key == key {
                bucket
            } else {
                bucket + usize::from(worth(self.memo[bucket + 1].key) < worth(self.memo[bucket].key))
            };
            self.memo[i] = Slot {
                key,
                value: value | kind,
            };
        }
        value
    }

    /// The mover's choice in `pos` among `cards` (its whole move under Chaos, after the draw),
    /// fail-soft within `(alpha, beta)` as [`Judge::value`]. Each side tries the moves that take
    /// the most cards at once first: the likeliest to reach a bound early. Within
    /// [`TAIL_EMPTY`] cells of the end the moves are tried as they come instead, each placed
    /// only when it is reached: there the sort costs more than it saves, and a cut skips the
    /// placements left.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn decide(&mut self, w: &Walk, pos: &Position, cards: u16, alpha: Bound, beta: Bound) -> Value {
        let empty = !pos.occupied & FULL;
        if empty.count_ones() <= TAIL_EMPTY {
            let t = w.t;
            let kids = distinct(t, cards).flat_map(|(card, n)| bits(empty).map(move |cell| ((card, cell), n)));
            return self.choose(w, pos, cards, kids, (alpha, beta), |(card, cell)| {
                child(t, *pos, card, cell)
            });
        }
        let mover = pos.to_move;
        let mut kids: ArrayVec<(u8, u8, Value), 45> = ArrayVec::new();
        let mut next: ArrayVec<Position, 45> = ArrayVec::new();
        for (card, n) in distinct(w.t, cards) {
            for cell in bits(empty) {
                let kid = child(w.t, *pos, card, cell);
                // Ties keep the (card, cell) order: the search never depends on the sort.
                kids.push((kid.score(mover) as u8, next.len() as u8, n));
                next.push(kid);
            }
        }
        kids.sort_unstable_by_key(|&(score, i, _)| (core::cmp::Reverse(score), i));
        let kids = kids.into_iter().map(|(_, i, n)| (i, n));
        self.choose(w, pos, cards, kids, (alpha, beta), |i| next[i as usize])
    }

    /// The choice of `pos`'s mover among `kids`, the moves of `cards`, each `(k, n)`: the move
    /// to `play(k)`, counted `n` times. In the order given, blue maximises, a random red
    /// averages (a chance node), a perfect red minimises; fail-soft within `(alpha, beta)`.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn choose<K>(
        &mut self,
        w: &Walk,
        pos: &Position,
        cards: u16,
        kids: impl Iterator<Item = (K, Value)>,
        (alpha, beta): (Bound, Bound),
        play: impl Fn(K) -> Position,
    ) -> Value {
        match pos.to_move {
            Player::Red if w.random => {
                let top = WIN * Value::from(w.chances(pos));
                let weights = cards.count_ones() * (!pos.occupied & FULL).count_ones();
                self.chance(kids, weights, top, alpha, beta, |judge, k, a, b| {
                    judge.value(w, &play(k), a, b)
                })
            }
            Player::Red => {
                let mut best = Value::MAX;
                for (k, _) in kids {
                    best = best.min(self.value(w, &play(k), alpha, beta.min(Bound::from(best))));
                    if best == 0 || Bound::from(best) <= alpha {
                        break; // nothing lower can matter
                    }
                }
                best
            }
            Player::Blue => {
                let top = WIN * Value::from(w.chances_after(pos));
                let mut best = 0;
                for (k, _) in kids {
                    best = best.max(self.value(w, &play(k), alpha.max(Bound::from(best)), beta));
                    if best == top || Bound::from(best) >= beta {
                        break; // nothing higher can matter
                    }
                }
                best
            }
        }
    }

    /// A chance node (a random red's move, a Chaos draw): the sum of `branches`, each
    /// `(branch, weight)` valued by `each` within a window, the weights summing to `weights`,
    /// out of `top` (its value if every
    /// sequence wins), fail-soft within `(alpha, beta)`: Ballard's Star1. A branch is at most
    /// `top / weights` a unit of weight and at least 0, so once the branches valued so far
    /// (exactly, `done`) and the bounds of those left put the sum past a side of the window,
    /// the rest is not searched: each branch is searched within the window that keeps its
    /// value able to decide that, a bound it returns outside is folded into a bound of the sum
    /// that is itself outside the node's window. Whatever the windows, a sum inside `(alpha,
    /// beta)` is exact.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn chance<B>(
        &mut self,
        branches: impl Iterator<Item = (B, Value)>,
        weights: u32,
        top: Value,
        alpha: Bound,
        beta: Bound,
        mut each: impl FnMut(&mut Judge, B, Bound, Bound) -> Value,
    ) -> Value {
        let weights = Value::from(weights);
        let most = top / weights;
        debug_assert_eq!(most * weights, top, "every branch has the same number of sequences");
        let (mut done, mut left) = (0, weights);
        for (branch, n) in branches {
            left -= n;
            // The branch's window, rounded so that reaching a side decides the sum's side;
            // out of the branch's range [0, most] any side is as good as -1 or most + 1, and
            // within it the division fits in 64 bits (the wide one costs a tenth of the time).
            let below = alpha - Bound::from(done + left * most);
            let above = beta - Bound::from(done);
            let low = if below < 0 {
                -1
            } else {
                Bound::from(u64::try_from(below).map_or(most + 1, |x| (x / n).min(most + 1)))
            };
            let high = if above > Bound::from(n * most) {
                Bound::from(most + 1)
            } else if above <= 0 {
                0
            } else {
                Bound::from((above as u64).div_ceil(n))
            };
            let v = each(self, branch, low, high);
            if Bound::from(v) <= low {
                return done + n * v + left * most;
            }
            done += n * v;
            if Bound::from(v) >= high {
                return done;
            }
        }
        done
    }
}

/// The cards of `cards` that play differently, each with how many of `cards` are identical to
/// it (they give identical subtrees, so one is searched and counted that many times).
#[cfg_attr(arbiter_size, optimize(size))]
fn distinct(t: &RoundTable, cards: u16) -> impl Iterator<Item = (u8, Value)> + '_ {
    bits(cards)
        .filter(move |&c| cards & t.twins[c as usize] == 0)
        .map(move |c| {
            (
                c,
                bits(cards)
                    .filter(|&d| d == c || t.twins[d as usize] & 1 << c != 0)
                    .count() as Value,
            )
        })
}

impl Walk<'_> {
    /// The value of the position left when the mover of `pos` fills its last empty cell,
    /// `cell`, with `card`. A placement only turns cards to its mover (no Battle nor walls,
    /// [`Walk::monotone`]): when the score already decides the outcome whatever it takes, or
    /// when no card of the other side touches the cell, the placement is not resolved.
    #[inline(always)]
    fn last(&self, pos: &Position, card: u8, cell: u8) -> Value {
        let blue = pos.score(Player::Blue);
        if self.monotone {
            let (decided, theirs) = match pos.to_move {
                Player::Blue => (blue > 5, !pos.blue & pos.occupied),
                Player::Red => (blue < 5, pos.blue & pos.occupied),
            };
            if decided || self.around[cell as usize] & theirs == 0 {
                return outcome(blue);
            }
        }
        outcome(child(self.t, *pos, card, cell).score(Player::Blue))
    }

    /// The number of equally likely chance sequences from `pos` to the end: the product, over
    /// the turns left, of the Chaos draw (the mover's hand size) and of a random red's move
    /// (cards it may play times empty cells).
    #[cfg_attr(arbiter_size, optimize(size))]
    fn chances(&self, pos: &Position) -> u32 {
        self.turns(pos).product()
    }

    /// [`Walk::chances`] of every position after the move of `pos`.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn chances_after(&self, pos: &Position) -> u32 {
        self.turns(pos).skip(1).product()
    }

    /// The equally likely chance sequences of each turn left from `pos`, in turn.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn turns(&self, pos: &Position) -> impl Iterator<Item = u32> + '_ {
        let empty = (!pos.occupied & FULL).count_ones();
        let mut held = [pos.hand(Player::Blue).count_ones(), pos.hand(Player::Red).count_ones()];
        let mut mover = pos.to_move;
        (1..=empty).rev().map(move |empty| {
            let hand = held[mover as usize];
            let mut n = 1;
            if self.chaos {
                n *= hand;
            }
            if mover == Player::Red && self.random {
                n *= empty * if self.chaos || self.t.rules.order { 1 } else { hand };
            }
            held[mover as usize] -= 1;
            mover = mover.other();
            n
        })
    }

    /// A key naming `pos` within this round, never 0: the owner of each cell (bits 0-8), the
    /// cards in hand (9-18), the card on each cell (4 bits from 23, id + 1), the round
    /// ([`EPOCH_SHIFT`]). The mover follows from them. Under the basic capture alone a card
    /// with no empty cell around can never be taken nor read again: such cards are keyed as
    /// 0xF and only the number of blue ones (bits 19-22) is kept, so that positions differing
    /// only there share their value.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn key(&self, pos: &Position) -> u64 {
        let mut owners = pos.blue & pos.occupied;
        let mut k = (pos.hands as u64) << 9 | self.epoch << EPOCH_SHIFT;
        for cell in bits(pos.occupied) {
            let id = if self.t.basic_only && self.around[cell as usize] & !pos.occupied == 0 {
                if owners & 1 << cell != 0 {
                    owners &= !(1 << cell);
                    k += 1 << 19;
                }
                0xF
            } else {
                pos.card(cell) as u64 + 1
            };
            k |= id << (23 + 4 * cell as u64);
        }
        k | owners as u64
    }
}

/// Spreads a key over the memo's slots (a 64-bit finaliser).
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^ (x >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::ffxiv::builder::UNITS;
    use crate::tripletriad::ffxiv::{card, npc, NPCS};
    use crate::tripletriad::Rule;
    use crate::Game;

    /// Plain expectimax over the public game: every red move equally likely, blue maximising
    /// (win, draw) lexicographically, as f64: the reference.
    fn naive_random(g: &mut TripleTriad) -> (f64, f64) {
        if g.is_over() {
            let blue = g.score(Player::Blue);
            return (f64::from(u8::from(blue > 5)), f64::from(u8::from(blue == 5)));
        }
        let moves = g.legal_moves();
        let mut values = Vec::new();
        for &mv in &moves {
            g.play(mv).unwrap();
            values.push(naive_random(g));
            g.undo();
        }
        if g.next_player() == Player::Red {
            let n = values.len() as f64;
            values.iter().fold((0.0, 0.0), |a, v| (a.0 + v.0 / n, a.1 + v.1 / n))
        } else {
            values.into_iter().fold((-1.0, -1.0), |a, v| {
                if v.0 > a.0 + 1e-12 || ((v.0 - a.0).abs() <= 1e-12 && v.1 > a.1) {
                    v
                } else {
                    a
                }
            })
        }
    }

    /// Plain minimax over the public game: blue's final margin with perfect play.
    fn naive_perfect(g: &mut TripleTriad) -> i32 {
        if g.is_over() {
            return g.score(Player::Blue) as i32 - g.score(Player::Red) as i32;
        }
        let blue = g.next_player() == Player::Blue;
        let mut best = if blue { i32::MIN } else { i32::MAX };
        for mv in g.legal_moves() {
            g.play(mv).unwrap();
            let v = naive_perfect(g);
            g.undo();
            best = if blue { best.max(v) } else { best.min(v) };
        }
        best
    }

    fn deck(names: [&str; 5]) -> [&'static FfxivCard; 5] {
        names.map(|n| card(n).unwrap())
    }

    /// A round a few moves in, small enough for the naive references.
    fn late(deck: &[&FfxivCard; 5], hand: &Hand, rules: Rules, first: Player, moves: &[&str]) -> TripleTriad {
        let mut g = rounds(deck, hand, rules, first).unwrap().remove(0).game;
        for mv in moves {
            g.play(mv.parse().unwrap()).unwrap();
        }
        g
    }

    /// Brute force on a tiny case: an NPC-like setting with two hands, each solved by naive
    /// enumeration, both opponents, both starting players, against the module's counts.
    #[test]
    fn equals_naive_enumeration_over_two_hands() {
        let baderon = npc("Baderon").unwrap();
        let hands = &baderon.hands()[..2];
        let player = deck(["Chocobo", "Moogle", "Tonberry", "Gaelicat", "Ifrit"]);
        for rules in [
            Rules::default(),
            baderon.round_rules(),
            Rules {
                same: true,
                plus: true,
                combo: true,
                ..Rules::default()
            },
        ] {
            for (first, moves) in [
                (Player::Blue, ["0@4", "0@0", "1@8", "2@2"]),
                (Player::Red, ["0@4", "0@0", "1@8", "2@2"]),
            ] {
                let mut random = Judge::new(Opponent::Random);
                let mut perfect = Judge::new(Opponent::Perfect);
                let (mut want, mut got) = ((0.0, 0.0), Odds::default());
                for hand in hands {
                    let g = late(&player, hand, rules, first, &moves);
                    let w = naive_random(&mut g.clone());
                    want = (want.0 + w.0 / 2.0, want.1 + w.1 / 2.0);
                    got.add(random.odds(&g), 0.5);
                    let margin = naive_perfect(&mut g.clone());
                    let p = perfect.odds(&g);
                    assert_eq!(
                        (p.win, p.draw, p.loss),
                        (
                            f64::from(u8::from(margin > 0)),
                            f64::from(u8::from(margin == 0)),
                            f64::from(u8::from(margin < 0))
                        )
                    );
                    assert_eq!(perfect.blue_wins(&g), margin > 0);
                }
                assert!(
                    (got.win - want.0).abs() < 1e-12 && (got.draw - want.1).abs() < 1e-12,
                    "{rules:?} {first:?}: {got:?} vs {want:?}"
                );
                assert!((got.win + got.draw + got.loss - 1.0).abs() < 1e-12);
            }
        }
    }

    /// The full odds sum to one per hand and in total, for every start, both opponents.
    #[test]
    fn odds_sum_to_one_and_a_random_npc_is_never_harder() {
        let master = npc("Triple Triad Master").unwrap();
        let player = deck(["Ifrit", "Titan", "Garuda", "Ramuh", "Shiva"]);
        let perfect = odds(&player, master, Opponent::Perfect).unwrap();
        assert_eq!(perfect.hands.len(), master.hands().len());
        for start in [Start::Player, Start::Npc, Start::Either] {
            let t = perfect.total(start);
            assert!((t.win + t.draw + t.loss - 1.0).abs() < 1e-9, "{start:?}: {t:?}");
        }
    }

    /// Two threads give the one thread's odds, hand by hand and start by start.
    #[cfg(feature = "std")]
    #[test]
    fn threads_give_the_same_odds() {
        let player = deck(["Chocobo", "Moogle", "Tonberry", "Gaelicat", "Ifrit"]);
        let botan = npc("Botan").unwrap(); // Plus, 3 hands
        let one = odds(&player, botan, Opponent::Perfect).unwrap();
        let two = odds_threads(&player, botan, Opponent::Perfect, 2).unwrap();
        assert_eq!(one.hands.len(), 3);
        for (a, b) in one.hands.iter().zip(&two.hands) {
            assert_eq!(a.hand, b.hand);
            assert_eq!((a.player_first, a.npc_first), (b.player_first, b.npc_first));
        }
        assert!(one.hands.iter().any(|h| h.player_first != h.npc_first));
    }

    /// Plain expectimax under Chaos over the public game: each hand index drawn with equal
    /// probability, then blue maximises (win, draw) over the cells, red averages (`random`) or
    /// minimises.
    fn naive_chaos(g: &mut TripleTriad, random: bool) -> (f64, f64) {
        if g.is_over() {
            let blue = g.score(Player::Blue);
            return (f64::from(u8::from(blue > 5)), f64::from(u8::from(blue == 5)));
        }
        let blue = g.next_player() == Player::Blue;
        let moves = g.legal_moves();
        let held = moves.iter().map(|m| m.card).max().unwrap() + 1;
        let mut sum = (0.0, 0.0);
        for drawn in 0..held {
            let mut values = Vec::new();
            for &mv in moves.iter().filter(|m| m.card == drawn) {
                g.play(mv).unwrap();
                values.push(naive_chaos(g, random));
                g.undo();
            }
            // Wins equal up to rounding compare by draws (the module's counts are exact).
            let lex = |a: &(f64, f64), b: &(f64, f64)| {
                if (a.0 - b.0).abs() <= 1e-12 {
                    a.1.total_cmp(&b.1)
                } else {
                    a.0.total_cmp(&b.0)
                }
            };
            let v = if blue {
                values.into_iter().max_by(lex).unwrap()
            } else if random {
                let n = values.len() as f64;
                values.iter().fold((0.0, 0.0), |a, v| (a.0 + v.0 / n, a.1 + v.1 / n))
            } else {
                values.into_iter().min_by(lex).unwrap()
            };
            sum = (sum.0 + v.0 / f64::from(held), sum.1 + v.1 / f64::from(held));
        }
        sum
    }

    fn close(a: Odds, b: (f64, f64)) -> bool {
        (a.win - b.0).abs() < 1e-12 && (a.draw - b.1).abs() < 1e-12
    }

    /// Chaos against both opponents and Order against both, on late positions of every rule mix
    /// the data has with them, against brute force.
    #[test]
    fn chaos_and_order_equal_brute_force() {
        let player = deck(["Chocobo", "Moogle", "Tonberry", "Gaelicat", "Ifrit"]);
        for rule in [Rule::Chaos, Rule::Order] {
            for n in NPCS.iter().filter(|n| n.rules.contains(&rule)).take(3) {
                let hand = n.hands()[0];
                for first in [Player::Blue, Player::Red] {
                    let mut all = rounds(&player, &hand, n.round_rules(), first).unwrap();
                    let mut g = all.swap_remove(all.len() / 3).game;
                    for _ in 0..3 {
                        let mv = g.legal_moves()[1];
                        g.play(mv).unwrap();
                    }
                    let mut random = Judge::new(Opponent::Random);
                    let mut perfect = Judge::new(Opponent::Perfect);
                    let (r, p) = (random.odds(&g), perfect.odds(&g));
                    if rule == Rule::Chaos {
                        let want = naive_chaos(&mut g.clone(), true);
                        assert!(close(r, want), "{} {first:?}: {r:?} {want:?}", n.name);
                        assert!(
                            close(p, naive_chaos(&mut g.clone(), false)),
                            "{} {first:?}: {p:?}",
                            n.name
                        );
                    } else {
                        assert!(close(r, naive_random(&mut g.clone())), "{} {first:?}: {r:?}", n.name);
                        let margin = naive_perfect(&mut g.clone());
                        assert_eq!(p.win, f64::from(u8::from(margin > 0)), "{}", n.name);
                    }
                    assert_eq!(
                        random.win_units(&g, UNITS),
                        (r.win * UNITS as f64).round() as u64,
                        "{}",
                        n.name
                    );
                }
            }
        }
    }

    /// The windowed search (Star1 at chance nodes, bounds in the memo, greedy move order)
    /// against the plain references, on positions five cells from the end, under every rule
    /// mix of the NPCs' data, every pair of the placement and chance rules, both starts and
    /// both opponents, one judge for all so that its memo carries bounds from round to round.
    #[test]
    fn windowed_search_equals_plain_expectimax_under_every_rule_mix() {
        let player = deck(["Chocobo", "Moogle", "Tonberry", "Gaelicat", "Ifrit"]);
        let hand = npc("Baderon").unwrap().hands()[3];
        let flags: [fn(&mut Rules) -> &mut bool; 8] = [
            |r| &mut r.same,
            |r| &mut r.plus,
            |r| &mut r.reverse,
            |r| &mut r.fallen_ace,
            |r| &mut r.ascension,
            |r| &mut r.descension,
            |r| &mut r.order,
            |r| &mut r.chaos,
        ];
        let mut mixes: Vec<Rules> = NPCS.iter().map(|n| n.round_rules()).collect();
        for i in 0..flags.len() {
            for j in i..flags.len() {
                let mut r = Rules::default();
                *flags[i](&mut r) = true;
                *flags[j](&mut r) = true;
                r.combo = r.same || r.plus;
                mixes.push(r);
            }
        }
        mixes.dedup();
        // The pairs the specification forbids (Ascension with Descension...) are refused.
        mixes.retain(|&rules| rounds(&player, &hand, rules, Player::Blue).is_ok());
        assert!(mixes.len() > 40, "{}", mixes.len());
        let mut random = Judge::new(Opponent::Random);
        let mut perfect = Judge::new(Opponent::Perfect);
        for (k, rules) in mixes.into_iter().enumerate() {
            for first in [Player::Blue, Player::Red] {
                let mut g = late(&player, &hand, rules, first, &[]);
                for step in 0..4 {
                    let moves = g.legal_moves();
                    g.play(moves[(k * 7 + step * 5) % moves.len()]).unwrap();
                }
                let (r, p) = (random.odds(&g), perfect.odds(&g));
                if rules.chaos {
                    assert!(
                        close(r, naive_chaos(&mut g.clone(), true)),
                        "{rules:?} {first:?}: {r:?}"
                    );
                    assert!(
                        close(p, naive_chaos(&mut g.clone(), false)),
                        "{rules:?} {first:?}: {p:?}"
                    );
                } else {
                    let want = naive_random(&mut g.clone());
                    assert!(close(r, want), "{rules:?} {first:?}: {r:?} {want:?}");
                    let margin = naive_perfect(&mut g.clone());
                    assert_eq!(p.win - p.loss, f64::from(margin.signum()), "{rules:?} {first:?}");
                }
            }
        }
    }

    /// Master Mogzin (Same + Plus, ten hands) from positions six cells from the end, where the
    /// Combo chains and the last placements valued without their board matter most, against
    /// the plain references: both opponents, both starts, one judge for all.
    #[test]
    fn same_plus_npc_equals_plain_expectimax_late() {
        let mogzin = npc("Master Mogzin").unwrap();
        assert!(mogzin.round_rules().same && mogzin.round_rules().plus);
        let player = [1, 2, 3, 4, 5].map(|id| crate::tripletriad::ffxiv::card_by_id(id).unwrap());
        let (mut random, mut perfect) = (Judge::new(Opponent::Random), Judge::new(Opponent::Perfect));
        let mut outcomes = [false; 3];
        for (k, hand) in mogzin.hands().iter().enumerate() {
            for first in [Player::Blue, Player::Red] {
                let mut g = late(&player, hand, mogzin.round_rules(), first, &[]);
                for step in 0..3 {
                    let moves = g.legal_moves();
                    g.play(moves[(k * 11 + step * 7) % moves.len()]).unwrap();
                }
                let (r, p) = (random.odds(&g), perfect.odds(&g));
                let want = naive_random(&mut g.clone());
                assert!(close(r, want), "hand {k} {first:?}: {r:?} {want:?}");
                let margin = naive_perfect(&mut g.clone());
                assert_eq!(p.win - p.loss, f64::from(margin.signum()), "hand {k} {first:?}");
                outcomes[(margin.signum() + 1) as usize] = true;
            }
        }
        // Wins, draws and losses all occur: the positions are not all alike.
        assert_eq!(outcomes, [true; 3]);
    }

    /// Under Order the NPC's hand comes in each of its 120 orders, equally likely, the player's
    /// in the deck's order; nothing is refused.
    #[test]
    fn order_rounds_cover_every_npc_order() {
        let n = NPCS.iter().find(|n| n.rules.contains(&Rule::Order)).unwrap();
        let player = deck(["Chocobo", "Moogle", "Tonberry", "Gaelicat", "Ifrit"]);
        let hand = n.hands()[0];
        let all = rounds(&player, &hand, n.round_rules(), Player::Red).unwrap();
        assert_eq!(all.len(), rounds_per_start(n.round_rules()));
        let mut seen = alloc::collections::BTreeSet::new();
        for r in &all {
            let setup = r.game.setup();
            assert!(setup
                .hands
                .blue
                .iter()
                .map(|c| &c.name)
                .eq(player.iter().map(|c| &c.name)));
            seen.insert(setup.hands.red.iter().map(|c| c.name.clone()).collect::<Vec<_>>());
            assert_eq!(r.weight, 1.0 / 120.0);
        }
        assert_eq!(seen.len(), 120);
        for n in NPCS {
            assert!(
                rounds(&player, &n.hands()[0], n.round_rules(), Player::Blue).is_ok(),
                "{}",
                n.name
            );
        }
    }

    /// [`UNITS`] is a multiple of every round's number of chance sequences, for both starts and
    /// every rule that changes it.
    #[test]
    fn units_divide_every_count_of_chance_sequences() {
        let player = deck(["Chocobo", "Moogle", "Tonberry", "Gaelicat", "Ifrit"]);
        let hand = npc("Baderon").unwrap().hands()[0];
        for (chaos, order) in [(false, false), (true, false), (false, true)] {
            let rules = Rules {
                chaos,
                order,
                ..Rules::default()
            };
            for first in [Player::Blue, Player::Red] {
                let g = rounds(&player, &hand, rules, first).unwrap().remove(0).game;
                for random in [false, true] {
                    let w = Walk {
                        t: &g.table,
                        random,
                        chaos,
                        around: [0; 9],
                        monotone: true,
                        epoch: 1,
                    };
                    assert_eq!(
                        UNITS % u64::from(w.chances(&g.pos)),
                        0,
                        "{chaos} {order} {first:?} {random}"
                    );
                }
            }
        }
    }
}

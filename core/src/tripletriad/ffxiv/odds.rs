//! Exact win/draw/loss odds of a deck against an NPC, over the hands the NPC can bring
//! (issue #39 item 4): where FFTriadBuddy samples playouts, every hand is solved.
//!
//! **What is computed.** For each hand of [`Npc::hands`] (its probability from there) and each
//! starting player (FFXIV draws it at random: both are given, and their mean), one round under the
//! NPC's [`Npc::round_rules`], with the player blue:
//! - [`Opponent::Perfect`]: the round solved exactly ([`Solver`]); its value's sign is a win, a
//!   draw or a loss with perfect play on both sides.
//! - [`Opponent::Random`]: the NPC plays each of its legal moves (card, cell) with equal
//!   probability; the player plays to **maximise its probability of winning, then, among moves
//!   winning equally often, its probability of drawing** (lexicographic, which is what a player
//!   farming an NPC's cards wants: a draw earns nothing, so a safe draw is not preferred to a
//!   likelier win). Computed by expectimax over every NPC move, memoised, in exact integers (a
//!   probability is a count over the product of the NPC's move counts), never sampled.
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
//! - Chaos and Order are refused ([`OddsError::Refused`]): both fix which card a player must play,
//!   and the NPC's hand order is not in the data (Order), or the draws would need an expectation
//!   inside the search for both players (Chaos) that this module does not compute.
//!
//! The placement itself (Same, Plus, Reverse, Fallen Ace, Ascension...) is the round's: these
//! odds follow whatever the core's placement does under the NPC's [`Rules`].

use alloc::vec;
use alloc::vec::Vec;

use super::cards::FfxivCard;
use super::npcs::{Hand, Npc};
use crate::tripletriad::round::board::{bits, FULL};
use crate::tripletriad::round::position::{Player, Position, RoundTable};
use crate::tripletriad::round::resolve::child;
use crate::tripletriad::{Rule, Rules, Setup, SetupError, Solver, TripleTriad};

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
    fn add(&mut self, other: Odds, weight: f64) {
        self.win += weight * other.win;
        self.draw += weight * other.draw;
        self.loss += weight * other.loss;
    }

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
    /// A rule this module does not model (see the module's documentation).
    #[error("the NPC plays {0:?}, whose odds are not computed here: it fixes which card must be played, from a hand order or a draw the odds do not model")]
    Refused(Rule),
    /// The round's setup is refused by the core.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// The rules the odds play under, or the rule that refuses them.
pub(crate) fn playable_rules(npc: &Npc) -> Result<Rules, OddsError> {
    if let Some(&rule) = npc.rules.iter().find(|r| matches!(r, Rule::Chaos | Rule::Order)) {
        return Err(OddsError::Refused(rule));
    }
    Ok(npc.round_rules())
}

/// One round to play: the two hands (after any swap), who starts, and its weight among the
/// rounds of its hand and start (1 / 25 under Swap).
pub(crate) struct Round {
    pub game: TripleTriad,
    pub weight: f64,
}

/// The rounds of `deck` against `hand` when `first` starts: one, or the 25 exchanges of Swap.
pub(crate) fn rounds(
    deck: &[&FfxivCard; 5],
    hand: &Hand,
    rules: Rules,
    first: Player,
) -> Result<Vec<Round>, OddsError> {
    let pairs: Vec<Option<(usize, usize)>> = if rules.swap {
        (0..5).flat_map(|i| (0..5).map(move |j| Some((i, j)))).collect()
    } else {
        vec![None]
    };
    let weight = 1.0 / pairs.len() as f64;
    pairs
        .into_iter()
        .map(|pair| {
            let mut blue: Vec<_> = deck.iter().map(|c| c.card()).collect();
            let mut red: Vec<_> = hand.cards.iter().map(|c| c.card()).collect();
            if let Some((i, j)) = pair {
                core::mem::swap(&mut blue[i], &mut red[j]);
            }
            let mut setup = Setup::default().with_rules(rules);
            setup.hands.blue = blue;
            setup.hands.red = red;
            setup.to_move = first;
            Ok(Round {
                game: TripleTriad::new(&setup)?,
                weight,
            })
        })
        .collect()
}

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
pub fn odds(deck: &[&FfxivCard; 5], npc: &Npc, opponent: Opponent) -> Result<NpcOdds, OddsError> {
    let rules = playable_rules(npc)?;
    let mut judge = Judge::new(opponent);
    let mut hands = Vec::new();
    for hand in npc.hands() {
        let mut per_start = [Odds::default(); 2];
        for (slot, first) in [Player::Blue, Player::Red].into_iter().enumerate() {
            for round in rounds(deck, &hand, rules, first)? {
                per_start[slot].add(judge.odds(&round.game), round.weight);
            }
        }
        hands.push(HandOdds {
            hand,
            player_first: per_start[0],
            npc_first: per_start[1],
        });
    }
    Ok(NpcOdds {
        hands,
        nodes: judge.nodes,
    })
}

/// Solves rounds for one kind of opponent, keeping its tables between rounds.
pub(crate) struct Judge {
    opponent: Opponent,
    solver: Solver,
    memo: Vec<Slot>,
    pub nodes: u64,
}

/// Bits of the expectimax memo: 2^23 slots of 16 bytes (128 MiB).
const MEMO_BITS: u32 = 23;

/// Positions with at least this many empty cells are memoised; below, recomputing is cheaper
/// than a probe.
const MEMO_MIN_EMPTY: u32 = 3;

/// A memoised position: its key (0 = empty) and its value, as counts (see [`Judge::expect`]).
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    win: u32,
    draw: u32,
}

impl Judge {
    pub(crate) fn new(opponent: Opponent) -> Judge {
        let memo = match opponent {
            Opponent::Perfect => Vec::new(),
            Opponent::Random => vec![Slot::default(); 1 << MEMO_BITS],
        };
        Judge {
            opponent,
            solver: Solver::default(),
            memo,
            nodes: 0,
        }
    }

    /// The player's (blue's) odds in `game`.
    pub(crate) fn odds(&mut self, game: &TripleTriad) -> Odds {
        match self.opponent {
            Opponent::Perfect => {
                let s = self.solver.solve(game);
                self.nodes += s.nodes;
                let blue = if game.pos.to_move == Player::Blue {
                    s.value
                } else {
                    -s.value
                };
                match blue.signum() {
                    1 => Odds {
                        win: 1.0,
                        ..Odds::default()
                    },
                    0 => Odds {
                        draw: 1.0,
                        ..Odds::default()
                    },
                    _ => Odds {
                        loss: 1.0,
                        ..Odds::default()
                    },
                }
            }
            Opponent::Random => {
                self.memo.fill(Slot::default());
                let (t, pos) = (&*game.table, game.pos);
                let (win, draw) = self.expect(t, &pos);
                let all = f64::from(npc_moves_below(&pos));
                let (win, draw) = (f64::from(win) / all, f64::from(draw) / all);
                Odds {
                    win,
                    draw,
                    loss: (1.0 - win - draw).max(0.0),
                }
            }
        }
    }

    /// Blue's probability of winning `game` times `units`, exactly: `units` must be a multiple
    /// of the number of red's move sequences from `game` (see [`npc_moves_below`]).
    pub(crate) fn win_units(&mut self, game: &TripleTriad, units: u64) -> u64 {
        match self.opponent {
            Opponent::Perfect => units * u64::from(self.blue_wins(game)),
            Opponent::Random => {
                self.memo.fill(Slot::default());
                let sequences = u64::from(npc_moves_below(&game.pos));
                debug_assert_eq!(units % sequences, 0);
                u64::from(self.expect(&game.table, &game.pos).0) * (units / sequences)
            }
        }
    }

    /// Whether blue (the player) wins `game` against a perfect opponent: one zero-window search.
    fn blue_wins(&mut self, game: &TripleTriad) -> bool {
        self.solver.enter(game);
        let (t, pos) = (&*game.table, game.pos);
        let blue = pos.to_move == Player::Blue;
        // Values are even: blue wins when its value is at least 1, that is when the mover's is
        // at least 1 (blue to move) or at most -1 (red to move).
        let (alpha, beta) = if blue { (0, 1) } else { (-1, 0) };
        let (v, _) = self.solver.search(t, &pos, alpha, beta);
        self.nodes += self.solver.nodes();
        if blue {
            v >= 1
        } else {
            v <= -1
        }
    }

    /// Blue's chances in `pos` against the random red, as counts `(win, draw)` out of
    /// [`npc_moves_below`]`(pos)` equally likely red move sequences: exact integers, so that
    /// equal chances compare equal.
    fn expect(&mut self, t: &RoundTable, pos: &Position) -> (u32, u32) {
        self.nodes += 1;
        if pos.is_over() {
            let blue = pos.score(Player::Blue);
            return (u32::from(blue > 5), u32::from(blue == 5));
        }
        let empty = !pos.occupied & FULL;
        let slot = if empty.count_ones() >= MEMO_MIN_EMPTY {
            let key = memo_key(pos);
            let slot = (mix(key) & ((1 << MEMO_BITS) - 1)) as usize;
            let s = self.memo[slot];
            if s.key == key {
                return (s.win, s.draw);
            }
            Some((slot, key))
        } else {
            None
        };
        let hand = pos.hand(pos.to_move);
        let value = if pos.to_move == Player::Red {
            let mut sum = (0, 0);
            for card in bits(hand) {
                for cell in bits(empty) {
                    let (w, d) = self.expect(t, &child(t, *pos, card, cell));
                    sum = (sum.0 + w, sum.1 + d);
                }
            }
            sum
        } else {
            // Red's move counts below are the same for every blue move, so counts compare.
            let most = npc_moves_below(pos);
            let mut best = None;
            'moves: for card in bits(hand) {
                for cell in bits(empty) {
                    let v = self.expect(t, &child(t, *pos, card, cell));
                    if best.is_none_or(|b| v > b) {
                        best = Some(v);
                        if v.0 == most {
                            break 'moves; // a sure win: nothing is better
                        }
                    }
                }
            }
            best.unwrap_or((0, 0))
        };
        if let Some((slot, key)) = slot {
            self.memo[slot] = Slot {
                key,
                win: value.0,
                draw: value.1,
            };
        }
        value
    }
}

/// The number of equally likely move sequences red plays from `pos` to the end: the product of
/// red's move counts (cards in hand x empty cells) at its turns.
fn npc_moves_below(pos: &Position) -> u32 {
    let mut empty = (!pos.occupied & FULL).count_ones();
    let mut red = pos.hand(Player::Red).count_ones();
    let mut mover = pos.to_move;
    let mut product = 1;
    while empty > 0 {
        if mover == Player::Red {
            product *= red * empty;
            red -= 1;
        }
        empty -= 1;
        mover = mover.other();
    }
    product
}

/// Spreads a key over the memo's slots (a 64-bit finaliser).
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^ (x >> 33)
}

/// A key naming a position within one round, never 0: the card on each cell (4 bits, id + 1)
/// and its owner (the hands and the mover follow from them).
fn memo_key(pos: &Position) -> u64 {
    let mut k = (pos.blue & pos.occupied) as u64 | 1 << 63;
    for cell in bits(pos.occupied) {
        k |= (pos.card(cell) as u64 + 1) << (9 + 4 * cell as u64);
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::ffxiv::{card, npc, NPCS};
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

    #[test]
    fn chaos_and_order_are_refused_with_the_rule() {
        let player = deck(["Ifrit", "Titan", "Garuda", "Ramuh", "Shiva"]);
        for rule in [Rule::Chaos, Rule::Order] {
            let n = NPCS.iter().find(|n| n.rules.contains(&rule)).unwrap();
            assert!(
                matches!(odds(&player, n, Opponent::Perfect), Err(OddsError::Refused(_))),
                "{}",
                n.name
            );
        }
    }
}

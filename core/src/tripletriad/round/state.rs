//! A Triple Triad round as hosts hold it: moves, the checks on them, the state over a
//! [`Position`] and its shared [`RoundTable`], and its observation.

use crate::Shared;
use alloc::vec::Vec;
use arrayvec::ArrayVec;
use core::fmt;
use core::str::FromStr;

use super::board::{bits, EDGE, FULL};
use super::card::{Card, Element};
use super::position::{Player, Position, RoundTable, NO_DRAW};
use super::resolve::{modifiers, place, typed_ranks, Captures};
use super::rules::{Rules, Wall};
use super::setup::{Hands, Placed, Setup, SetupError};
use super::steps::{steps, LastMove};
use crate::game::{Game, Outcome};

/// A move: the `card`-th card (0-based) of the mover's hand onto cell `cell` (0..=8, row-major).
///
/// Notation: `card@cell`, e.g. `2@4`.
///
/// ```
/// use arbiter_core::tripletriad::Move;
/// let m: Move = "2@4".parse().unwrap();
/// assert_eq!(m, Move { card: 2, cell: 4 });
/// assert_eq!(m.to_string(), "2@4");
/// assert!("2@9".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Move {
    /// Index in the mover's current hand.
    pub card: u8,
    /// Target cell.
    pub cell: u8,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Move, deny_unknown = false;
    card: u8 => serde::Deserialize::deserialize;
    cell: u8 => serde::Deserialize::deserialize;
);

impl fmt::Display for Move {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.card, self.cell)
    }
}

/// Malformed move notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad move {0:?}: expected CARD@CELL with CARD from 0 to 4 (index in hand) and CELL from 0 to 8")]
pub struct BadMove(pub alloc::string::String);

impl FromStr for Move {
    type Err = BadMove;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadMove(crate::error::quote(s));
        let (card, cell) = s.trim().split_once('@').ok_or_else(bad)?;
        let card: u8 = card.trim().parse().map_err(|_| bad())?;
        let cell: u8 = cell.trim().parse().map_err(|_| bad())?;
        if card > 4 || cell > 8 {
            return Err(bad());
        }
        Ok(Move { card, cell })
    }
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The board is full.
    #[error("game over: the board is full")]
    GameOver,
    /// The hand has no such card.
    #[error("{player} has no card {index} (hand of {hand})")]
    NoSuchCard {
        /// The mover.
        player: Player,
        /// The index asked for.
        index: u8,
        /// How many cards the mover holds.
        hand: u8,
    },
    /// The cell number is not 0..=8.
    #[error("there is no cell {0} (cells are 0 to 8)")]
    NoSuchCell(u8),
    /// The cell already holds a card.
    #[error("cell {0} is occupied")]
    Occupied(u8),
    /// Order or a known Chaos draw names another card of the hand.
    #[error("{player} must play card {must} of its hand (order or chaos), not card {index}")]
    NotPlayable {
        /// The mover.
        player: Player,
        /// The index asked for.
        index: u8,
        /// The index the rule allows.
        must: u8,
    },
}

/// A Triple Triad round: board, hands, rules and the player to move.
///
/// Built from a [`Setup`] (plain data, the JSON form of the conformance cases) by a fallible
/// constructor, so an invalid state cannot exist. Cloning is cheap: the cards and rules are shared.
///
/// ```
/// use arbiter_core::Game;
/// use arbiter_core::tripletriad::{TripleTriad, Setup, Move, Player};
/// let mut g = TripleTriad::new(&Setup::random_ff8(11)).unwrap();
/// assert_eq!(g.legal_moves().len(), 45);
/// let first = g.to_move().unwrap();
/// g.play(Move { card: 0, cell: 4 }).unwrap();
/// assert!(g.play(Move { card: 0, cell: 4 }).is_err()); // occupied
/// assert_eq!(g.to_move(), Some(first.other()));
/// assert_eq!(g.score(Player::Blue) + g.score(Player::Red), 10);
/// ```
#[derive(Clone)]
pub struct TripleTriad {
    pub(crate) table: Shared<RoundTable>,
    pub(crate) pos: Position,
    /// The moves played through `play` on this state, each with what it did and the position
    /// before it, from which [`TripleTriad::last_move`] takes the steps and
    /// [`TripleTriad::undo`] goes back (not saved: a loaded state has none).
    pub(crate) played: ArrayVec<Played, 9>,
}

/// A move played on a state: what it did and what it was played on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played {
    mv: Move,
    captures: Captures,
    before: Position,
    /// The card's table id.
    card: u8,
}

/// The legal moves of a Triple Triad state (at most 5 cards x 9 cells).
pub type MoveList = ArrayVec<Move, 45>;

impl TripleTriad {
    /// Validates `setup` into a state, or says what is wrong with it.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn new(setup: &Setup) -> Result<TripleTriad, SetupError> {
        let (table, pos) = setup.lay_out()?;
        Ok(TripleTriad {
            table: Shared::new(table),
            pos,
            played: ArrayVec::new(),
        })
    }

    /// The state as plain data (what `new` takes back).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn setup(&self) -> Setup {
        let t = &*self.table;
        let p = &self.pos;
        let hand = |pl: Player| bits(p.hand(pl)).map(|id| t.cards[id as usize].clone()).collect();
        Setup {
            rules: t.rules,
            elements: t.elements,
            walls: t.walls.clone(),
            board: core::array::from_fn(|c| {
                self.cell(c as u8).map(|(card, owner)| Placed {
                    card: card.clone(),
                    owner,
                })
            }),
            hands: super::setup::Hands {
                blue: hand(Player::Blue),
                red: hand(Player::Red),
            },
            to_move: p.to_move,
            chaos_draws: (1..=(!p.occupied & FULL).count_ones() as usize)
                .rev()
                .map(|e| t.draws[e])
                .take_while(|&d| d != NO_DRAW)
                .collect(),
            swap: None,
        }
    }

    /// The rules of the round.
    pub fn rules(&self) -> &Rules {
        &self.table.rules
    }

    /// The elements of the cells as given (they only act when `elemental` is on).
    pub fn elements(&self) -> &[Option<Element>; 9] {
        &self.table.elements
    }

    /// The labelled wall segments.
    pub fn walls(&self) -> &[Wall] {
        &self.table.walls
    }

    /// The card on `cell` and its owner.
    pub fn cell(&self, cell: u8) -> Option<(&Card, Player)> {
        let p = &self.pos;
        (cell < 9 && p.occupied & (1 << cell) != 0).then(|| {
            let owner = if p.blue & (1 << cell) != 0 {
                Player::Blue
            } else {
                Player::Red
            };
            (&self.table.cards[p.card(cell) as usize], owner)
        })
    }

    /// `player`'s hand, in order.
    pub fn hand(&self, player: Player) -> impl Iterator<Item = &Card> + '_ {
        bits(self.pos.hand(player)).map(|id| &self.table.cards[id as usize])
    }

    /// The position in `player`'s hand of the first card named `name` (moves name cards by
    /// position).
    ///
    /// ```
    /// use arbiter_core::tripletriad::{TripleTriad, Setup, Player};
    /// let g = TripleTriad::new(&Setup::random_ff8(11)).unwrap();
    /// let third = g.hand(Player::Red).nth(2).unwrap().name.clone();
    /// assert_eq!(g.hand_index(Player::Red, &third), Some(2));
    /// assert_eq!(g.hand_index(Player::Red, "no such card"), None);
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn hand_index(&self, player: Player, name: &str) -> Option<u8> {
        self.hand(player).position(|c| c.name == name).map(|i| i as u8)
    }

    /// How many cards `player` holds.
    pub fn hand_len(&self, player: Player) -> usize {
        self.pos.hand(player).count_ones() as usize
    }

    /// The player to move next (also once the board is full: who would have moved).
    pub fn next_player(&self) -> Player {
        self.pos.to_move
    }

    /// Cards of `player`'s colour on the board plus cards still in hand: the two always total 10.
    pub fn score(&self, player: Player) -> u32 {
        self.pos.score(player)
    }

    /// The effective ranks of the card on `cell` for the next placement: printed ranks adjusted
    /// by the elemental rule, or under Ascension/Descension by the count of its type on the board.
    pub fn effective_ranks(&self, cell: u8) -> Option<[u8; 4]> {
        let (t, id) = (&*self.table, self.pos.card(cell));
        self.cell(cell).map(|_| {
            if t.typed {
                typed_ranks(t, &modifiers(t, &self.pos, EDGE), id)
            } else {
                t.effective(id, cell)
            }
        })
    }

    /// Whether Chaos is on and the draw of some remaining turn is unknown: the exact value then
    /// depends on draws nobody knows, and the solver searches those turns as the mover's free
    /// choice (what the state allows), so hosts that need the rules' value refuse to solve.
    pub fn draws_missing(&self) -> bool {
        self.table.draws_missing(&self.pos)
    }

    /// `Ok` when the exact value is defined; under Chaos with a draw unknown, the error every
    /// binding's `solve` raises (the case format's rule: a solve needs every remaining draw).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn solvable(&self) -> Result<(), crate::Error> {
        if self.draws_missing() {
            return Err(crate::Error::new(
                crate::ErrorKind::BadArgument,
                "solve under chaos needs a draw for every remaining turn (chaos_draws)",
            ));
        }
        Ok(())
    }

    /// Under Chaos, makes `index` the draw of the coming turn: a match draws each turn's card
    /// as the turn comes, so that no player sees a later draw before its turn. The round's copies
    /// keep the draws they had.
    pub(crate) fn set_chaos_draw(&mut self, index: u8) {
        let empty = (!self.pos.occupied & FULL).count_ones() as usize;
        let table = Shared::make_mut(&mut self.table);
        let mut draws = table.draws;
        draws[empty] = index;
        table.set_draws(draws);
    }

    /// Checks `mv` without playing it.
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        let p = &self.pos;
        if p.is_over() {
            return Err(MoveError::GameOver);
        }
        if mv.cell > 8 {
            return Err(MoveError::NoSuchCell(mv.cell));
        }
        let hand = p.hand(p.to_move).count_ones() as u8;
        if mv.card >= hand {
            return Err(MoveError::NoSuchCard {
                player: p.to_move,
                index: mv.card,
                hand,
            });
        }
        if p.occupied & (1 << mv.cell) != 0 {
            return Err(MoveError::Occupied(mv.cell));
        }
        let playable = self.table.playable(p);
        let id = p.hand_card(p.to_move, mv.card).expect("checked");
        if playable & (1 << id) == 0 {
            return Err(MoveError::NotPlayable {
                player: p.to_move,
                index: mv.card,
                must: hand_index(p.hand(p.to_move), playable.trailing_zeros() as u8),
            });
        }
        Ok(())
    }

    /// Plays `mv` and reports what it captured, step by step.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn play_explained(&mut self, mv: Move) -> Result<Captures, MoveError> {
        self.check(mv)?;
        let id = self.pos.hand_card(self.pos.to_move, mv.card).expect("checked");
        let before = self.pos;
        let captures = place(&self.table, &mut self.pos, id, mv.cell);
        self.played.push(Played {
            mv,
            captures,
            before,
            card: id,
        });
        Ok(captures)
    }

    /// What the last move played on this state captured, by which rule; `None` before any move
    /// (and on a state just loaded).
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::tripletriad::{TripleTriad, Setup, Move};
    /// let mut g = TripleTriad::new(&Setup::random_ff8(3)).unwrap();
    /// assert!(g.last_captures().is_none());
    /// g.play(Move { card: 0, cell: 4 }).unwrap();
    /// assert_eq!(g.last_captures().unwrap().cell, 4);
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn last_captures(&self) -> Option<&Captures> {
        self.played.last().map(|p| &p.captures)
    }

    /// The last move played on this state with its evidence: the captures by rule and the steps
    /// of the resolution (each rule that fired with the pairs it compared, ranks as that rule
    /// reads them, and each Combo wave); `None` before any move (and on a state just loaded).
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::tripletriad::{Card, Move, Player, Rules, Setup, Step, TripleTriad};
    /// let mut setup = Setup::random_ff8(3).with_rules(Rules { open: true, ..Rules::default() });
    /// setup.hands.blue[0] = Card::new("Ifrit", [9, 6, 2, 8]);
    /// setup.hands.red[0] = Card::new("Tomberry", [3, 4, 4, 3]);
    /// setup.to_move = Player::Red;
    /// let mut g = TripleTriad::new(&setup).unwrap();
    /// g.play(Move { card: 0, cell: 5 }).unwrap(); // Tomberry, right of the centre
    /// g.play(Move { card: 0, cell: 4 }).unwrap(); // Ifrit's right 6 beats Tomberry's left 3
    /// let last = g.last_move().unwrap();
    /// let Step::Basic { pairs, captured } = &last.steps[1] else { panic!() };
    /// assert_eq!((pairs[0].rank, pairs[0].other, captured.as_slice()), (6, 3, &[5][..]));
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn last_move(&self) -> Option<LastMove> {
        let p = self.played.last()?;
        Some(LastMove {
            captures: p.captures,
            steps: steps(&self.table, &p.before, p.card, p.captures.placed_on),
        })
    }

    /// The moves played on this state through `play`, in order (a loaded state starts with none).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn history(&self) -> impl Iterator<Item = Move> + '_ {
        self.played.iter().map(|p| p.mv)
    }

    /// Takes back the last move played on this state and returns it; `None` when there is none
    /// (before the first, or on a state just loaded).
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::tripletriad::{Move, Setup, TripleTriad};
    /// let mut g = TripleTriad::new(&Setup::random_ff8(3)).unwrap();
    /// let start = g.clone();
    /// g.play(Move { card: 0, cell: 4 }).unwrap();
    /// assert_eq!(g.undo(), Some(Move { card: 0, cell: 4 }));
    /// assert_eq!((g.undo(), g), (None, start));
    /// ```
    pub fn undo(&mut self) -> Option<Move> {
        let p = self.played.pop()?;
        self.pos = p.before;
        Some(p.mv)
    }
}

/// The place in `hand` (a mask of card ids) of card `id`.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn hand_index(hand: u16, id: u8) -> u8 {
    (hand & ((1 << id) - 1)).count_ones() as u8
}

impl PartialEq for TripleTriad {
    /// Two states are equal when they hold the same data (cards are compared by value).
    #[cfg_attr(arbiter_size, optimize(size))]
    fn eq(&self, other: &TripleTriad) -> bool {
        self.setup() == other.setup()
    }
}

impl Eq for TripleTriad {}

impl fmt::Debug for TripleTriad {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TripleTriad").field(&self.setup()).finish()
    }
}

/// What one player may see: the board, their own hand, and the opponent's hand only if the rules
/// are open (`open` or `all_open`; otherwise `None` for each unplayed card: its count is known,
/// not its face). A round alone shows no card under `three_open`: which three are shown is a
/// match's draw ([`Match::observation`](crate::tripletriad::Match::observation)).
///
/// ```
/// use arbiter_core::Game;
/// use arbiter_core::tripletriad::{TripleTriad, Setup, Player};
/// let g = TripleTriad::new(&Setup::random_ff8(2)).unwrap(); // closed hands
/// let o = g.observation(Player::Blue);
/// assert_eq!(o.hand.len(), 5);
/// assert!(o.opponent_hand.iter().all(|c| c.is_none()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Observation {
    /// Whose observation this is.
    pub player: Player,
    /// The rules of the round.
    pub rules: Rules,
    /// Cell elements as given.
    pub elements: [Option<Element>; 9],
    /// Wall labels.
    pub walls: Vec<Wall>,
    /// The board (always public).
    pub board: [Option<Placed>; 9],
    /// The observer's hand.
    pub hand: Vec<Card>,
    /// The opponent's hand: faces only under the open rule.
    pub opponent_hand: Vec<Option<Card>>,
    /// The player to move.
    pub to_move: Player,
    /// Under Chaos, the draws known for the coming turns (as in [`Setup::chaos_draws`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub chaos_draws: Vec<u8>,
}

impl Observation {
    /// The round as the observer knows it: the opponent's hidden cards become placeholders, which no
    /// immediate capture can depend on (they are still in hand). The expert puts sampled cards in
    /// their place.
    pub(crate) fn believed_setup(&self) -> Setup {
        let placeholder = Card::new("?", [5, 5, 5, 5]);
        let theirs: Vec<Card> = self
            .opponent_hand
            .iter()
            .map(|c| c.clone().unwrap_or_else(|| placeholder.clone()))
            .collect();
        let mut hands = Hands::default();
        *hands.get_mut(self.player) = self.hand.clone();
        *hands.get_mut(self.player.other()) = theirs;
        Setup {
            rules: self.rules,
            elements: self.elements,
            walls: self.walls.clone(),
            board: self.board.clone(),
            hands,
            to_move: self.to_move,
            chaos_draws: self.chaos_draws.clone(),
            swap: None,
        }
    }
}

impl Game for TripleTriad {
    type Player = Player;
    type Move = Move;
    type MoveList = MoveList;
    type MoveError = MoveError;
    type Observation = Observation;

    fn num_distinct_actions(&self) -> usize {
        45
    }

    fn to_move(&self) -> Option<Player> {
        (!self.pos.is_over()).then_some(self.pos.to_move)
    }

    fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.pos.is_over() {
            return list;
        }
        let hand = self.pos.hand(self.pos.to_move);
        for id in bits(self.table.playable(&self.pos)) {
            let card = hand_index(hand, id);
            for cell in bits(!self.pos.occupied & FULL) {
                list.push(Move { card, cell });
            }
        }
        list
    }

    fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        self.play_explained(mv).map(|_| ())
    }

    /// A move that `play` would refuse is ignored, so that the state stays valid whatever the
    /// caller passes. The check costs a few bit tests; the searches that need speed work on
    /// positions, not on this method.
    fn play_unchecked(&mut self, mv: Move) {
        let _ = self.play_explained(mv);
    }

    fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    fn outcome(&self) -> Option<Outcome<Player>> {
        if !self.pos.is_over() {
            return None;
        }
        let (b, r) = (self.score(Player::Blue), self.score(Player::Red));
        Some(match b.cmp(&r) {
            core::cmp::Ordering::Greater => Outcome::Winner(Player::Blue),
            core::cmp::Ordering::Less => Outcome::Winner(Player::Red),
            core::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn observation(&self, player: Player) -> Observation {
        let s = self.setup();
        let open = self.table.rules.hands_open();
        let theirs = s
            .hands
            .get(player.other())
            .iter()
            .map(|c| open.then(|| c.clone()))
            .collect();
        Observation {
            player,
            rules: s.rules,
            elements: s.elements,
            walls: s.walls,
            board: s.board,
            hand: s.hands.get(player).to_vec(),
            opponent_hand: theirs,
            to_move: s.to_move,
            chaos_draws: s.chaos_draws,
        }
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn action_id(&self, mv: Move) -> Result<usize, crate::Error> {
        if mv.card > 4 || mv.cell > 8 {
            return Err(crate::Error::new(
                crate::ErrorKind::BadArgument,
                alloc::format!("{mv} has no action id: cards are 0 to 4 and cells 0 to 8"),
            ));
        }
        Ok(mv.card as usize * 9 + mv.cell as usize)
    }

    fn action_move(&self, id: usize) -> Option<Move> {
        (id < 45).then_some(Move {
            card: (id / 9) as u8,
            cell: (id % 9) as u8,
        })
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for TripleTriad {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.setup().serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TripleTriad {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let setup = Setup::deserialize(d)?;
        TripleTriad::new(&setup).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_unchecked_ignores_what_play_refuses() {
        let mut g = TripleTriad::new(&Setup::random_ff8(3)).unwrap();
        g.play(Move { card: 0, cell: 4 }).unwrap();
        let before = g.clone();
        for mv in [
            Move { card: 0, cell: 9 },
            Move { card: 0, cell: 255 },
            Move { card: 7, cell: 0 },
            Move { card: 0, cell: 4 },
        ] {
            g.play_unchecked(mv);
            assert_eq!(g, before, "{mv}");
            assert_eq!(g.score(Player::Blue) + g.score(Player::Red), 10);
        }
    }

    #[test]
    fn perft_deeper_than_the_round_counts_nothing_at_once() {
        let g = TripleTriad::new(&Setup::random_ff8(3)).unwrap();
        for depth in [10, 1 << 20, u32::MAX] {
            assert_eq!(g.perft(depth), 0);
        }
    }
}

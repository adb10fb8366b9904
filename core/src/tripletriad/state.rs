//! The game state: a shared immutable [`Table`] (cards, rules, precomputed values) and a small
//! copyable [`Position`] of bit masks.

use crate::Shared;
use alloc::vec::Vec;
use arrayvec::ArrayVec;
use core::fmt;
use core::str::FromStr;

use super::board::{bits, EDGE, FULL, NEIGHBOURS, SIDES_OF, SIDE_CELLS};
use super::card::{Card, Element};
use super::resolve::{child, place, place_on_victims, victims, Captures};
use super::rules::{Rules, Wall};
use super::setup::{Placed, Setup, SetupError};
use crate::game::{Game, Outcome};

/// The two players.
///
/// ```
/// use arbiter_core::tripletriad::Player;
/// assert_eq!(Player::Blue.other(), Player::Red);
/// assert_eq!("red".parse::<Player>().unwrap(), Player::Red);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Player {
    /// Blue.
    Blue = 0,
    /// Red.
    Red = 1,
}

impl Player {
    /// Both players, blue first.
    pub const BOTH: [Player; 2] = [Player::Blue, Player::Red];

    /// The opponent.
    pub const fn other(self) -> Player {
        match self {
            Player::Blue => Player::Red,
            Player::Red => Player::Blue,
        }
    }

    /// `"blue"` or `"red"`.
    pub const fn name(self) -> &'static str {
        match self {
            Player::Blue => "blue",
            Player::Red => "red",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A player name other than `blue` or `red`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player {0:?} (expected blue or red)")]
pub struct UnknownPlayer(pub alloc::string::String);

impl FromStr for Player {
    type Err = UnknownPlayer;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "blue" => Ok(Player::Blue),
            "red" => Ok(Player::Red),
            _ => Err(UnknownPlayer(crate::error::quote(s))),
        }
    }
}

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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Move {
    /// Index in the mover's current hand.
    pub card: u8,
    /// Target cell.
    pub cell: u8,
}

impl fmt::Display for Move {
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
}

/// Card ids 0..5 are blue's hand slots, 5..10 red's; board cards take the ids no hand uses.
pub(crate) const HAND_IDS: [u16; 2] = [0x01F, 0x3E0];

/// The mutable part of a state, 16 bytes so that it is copied and passed in registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Position {
    /// Card id on each cell, 4 bits a cell (meaningless where the cell is empty).
    pub cells: u64,
    pub occupied: u16,
    /// Cells holding a blue card.
    pub blue: u16,
    /// Card ids still in a hand (see [`HAND_IDS`]); a hand's order is the order of ids.
    pub hands: u16,
    pub to_move: Player,
}

impl Position {
    /// The id of the card on `cell`.
    #[inline(always)]
    pub fn card(&self, cell: u8) -> u8 {
        ((self.cells >> (4 * cell)) & 0xF) as u8
    }

    #[inline(always)]
    pub fn set_card(&mut self, cell: u8, id: u8) {
        let shift = 4 * cell as u32;
        self.cells = (self.cells & !(0xF << shift)) | ((id as u64) << shift);
    }

    /// The ids in `p`'s hand.
    #[inline(always)]
    pub fn hand(&self, p: Player) -> u16 {
        self.hands & HAND_IDS[p as usize]
    }

    #[inline]
    pub fn score(&self, p: Player) -> u32 {
        let board = match p {
            Player::Blue => self.blue & self.occupied,
            Player::Red => !self.blue & self.occupied,
        };
        board.count_ones() + self.hand(p).count_ones()
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.occupied == FULL
    }

    /// The id of the `index`-th card of `p`'s hand.
    pub fn hand_card(&self, p: Player, index: u8) -> Option<u8> {
        bits(self.hand(p)).nth(index as usize)
    }
}

/// Everything that does not change during a round: cards, rules, elements, walls and the values
/// derived from them, shared between copies of a state.
#[derive(Debug)]
pub(crate) struct Table {
    pub rules: Rules,
    /// The ten cards of the round, by id.
    pub cards: Vec<Card>,
    pub elements: [Option<Element>; 9],
    pub walls: Vec<Wall>,
    pub wall_at: [Option<Wall>; 9],
    /// Effective ranks of card `id` on cell `c`: `eff[id][c]`.
    pub eff: [[[u8; 4]; 9]; 10],
    /// `beats[id][c][side]`: the ids of the cards that card `id` on cell `c` takes by the basic
    /// rule from its `side` neighbour, as a mask; a lookup that does not wait for the neighbour's id.
    pub beats: [[[u16; 4]; 9]; 16],
    /// `beats` with the four sides in the 16-bit lanes of one word.
    pub beats64: [[u64; 9]; 16],
    pub sum: [u16; 16],
    /// Card `id`'s printed ranks, a byte per side (byte `s` = side `s`).
    pub packed: [u32; 16],
    /// `against[id][c][side][other]`: for card `id` on cell `c` facing card `other` on its
    /// `side`, the printed rank `other` shows it (low four bits) and whether `id` takes `other`
    /// by the basic rule (0x80).
    pub against: [[[[u8; 16]; 4]; 9]; 16],
    /// `no_sum[id][c]`: the Plus sums of card `id` on cell `c` on sides without a card: printed
    /// + 10 at an edge under Plus Wall, else `0x40 + side`, which no sum equals.
    pub no_sum: [[u32; 9]; 16],
    /// `wall_same[id][c]`: edges that count as Same matches for card `id` on cell `c`.
    pub wall_same: [[u8; 9]; 16],
    /// `side_cells[c][sides]`: the cells that the sides in a 4-bit mask of cell `c` face.
    pub side_cells: &'static [[u16; 16]; 9],
    /// `twins[id]`: the lower ids holding an identical card in the same hand (they play alike).
    pub twins: [u16; 10],
    pub nb: [[u8; 4]; 9],
    /// `4 * nb`: where the neighbour's card id sits in `Position::cells`.
    pub nb_shift: [[u8; 4]; 9],
    /// `sides_of[c][cells]`: the sides of cell `c` that face a cell of the mask `cells`.
    pub sides_of: &'static [[u8; 512]; 9],
    /// `(side, neighbour)` for each side of a cell that faces a cell.
    pub adjacent: [ArrayVec<(u8, u8), 4>; 9],
    /// No walls, Same, Plus, Battle or Combo: the fast path applies.
    pub basic_only: bool,
}

impl Table {
    pub fn new(rules: Rules, cards: Vec<Card>, elements: [Option<Element>; 9], walls: Vec<Wall>) -> Table {
        // `"none"` and `null` are the same plain cell: keep one spelling.
        let elements = elements.map(|e| e.filter(|&e| e != Element::None));
        let nb = NEIGHBOURS[rules.borderless as usize];
        // Tables by card id have 16 rows (the ids a 4-bit field can hold) so that a lookup needs
        // no bounds check; rows 10-15 are never read for a card.
        let mut printed = [[0u8; 4]; 16];
        let mut eff = [[[0u8; 4]; 9]; 10];
        let mut sum = [0u16; 16];
        for (id, card) in cards.iter().enumerate() {
            printed[id] = card.ranks;
            sum[id] = card.ranks.iter().map(|&r| r as u16).sum();
            for cell in 0..9 {
                eff[id][cell] = card.ranks.map(|r| effective(&rules, r, card.element, elements[cell]));
            }
        }
        // `below[n][side][v]`: the cards (as a mask of ids) that show a rank under `v` to an
        // attacker on the `side` of cell `n`, i.e. on their opposite side. Effective ranks are
        // 0..=11, so "card `id` on `c` beats its `side` neighbour `d`" is one lookup.
        let mut below = [[[0u16; 16]; 4]; 9];
        for (n, below) in below.iter_mut().enumerate() {
            for (side, below) in below.iter_mut().enumerate() {
                let mut shows = [0u16; 16];
                for (d, eff) in eff.iter().enumerate().take(cards.len()) {
                    shows[eff[n][(side + 2) & 3] as usize & 15] |= 1 << d;
                }
                for v in 1..16 {
                    below[v] = below[v - 1] | shows[v - 1];
                }
            }
        }
        let mut beats = [[[0u16; 4]; 9]; 16];
        for (id, beats) in beats.iter_mut().enumerate().take(cards.len()) {
            for (c, beats) in beats.iter_mut().enumerate() {
                for (side, beat) in beats.iter_mut().enumerate() {
                    let n = nb[c][side] as usize;
                    if n < 9 {
                        *beat = below[n][side][eff[id][c][side] as usize & 15];
                    }
                }
            }
        }
        let mut wall_at = [None; 9];
        for w in &walls {
            wall_at[w.cell as usize] = Some(*w);
        }
        let adjacent = core::array::from_fn(|cell| {
            (0..4u8)
                .filter(|&s| nb[cell][s as usize] != EDGE)
                .map(|s| (s, nb[cell][s as usize]))
                .collect()
        });
        let twins = core::array::from_fn(|id| {
            (0..id)
                // Ranks first: most pairs differ there, and comparing names is the slow part.
                .filter(|&o| printed[o] == printed[id] && (o < 5) == (id < 5) && cards[o] == cards[id])
                .fold(0u16, |m, o| m | 1 << o)
        });
        let pack = |r: [u8; 4]| u32::from_le_bytes(r);
        let packed = printed.map(pack);
        // A row of `against` is 16 bytes: the printed rank each card shows an attacker on that
        // side, with 0x80 on the cards beaten, written as one 128-bit word.
        let shown: [u128; 4] =
            core::array::from_fn(|s| u128::from_le_bytes(core::array::from_fn(|other| printed[other][(s + 2) & 3])));
        let mut against = [[[[0u8; 16]; 4]; 9]; 16];
        for (id, against) in against.iter_mut().enumerate() {
            for (c, against) in against.iter_mut().enumerate() {
                for (s, row) in against.iter_mut().enumerate() {
                    let beat = beats[id][c][s] as usize;
                    let high = (BEATEN_BYTES[beat & 0xFF] as u128) | (BEATEN_BYTES[beat >> 8] as u128) << 64;
                    *row = (shown[s] | high).to_le_bytes();
                }
            }
        }
        // Without Plus Wall no side sums: every entry is the same word; with it, the edges do.
        let mut no_sum = [[u32::from_le_bytes([0x40, 0x41, 0x42, 0x43]); 9]; 16];
        let mut wall_same = [[0u8; 9]; 16];
        for (c, sides) in nb.iter().enumerate() {
            for s in (0..4).filter(|&s| sides[s] == EDGE) {
                for ((no_sum, wall_same), printed) in no_sum.iter_mut().zip(&mut wall_same).zip(&printed) {
                    if rules.plus_wall {
                        no_sum[c] = (no_sum[c] & !(0xFF << (8 * s))) | ((printed[s] + 10) as u32) << (8 * s);
                    }
                    if rules.same_wall && printed[s] == 10 {
                        wall_same[c] += 1;
                    }
                }
            }
        }
        let basic_only = walls.is_empty() && !rules.same && !rules.plus && !rules.battle && !rules.combo;
        Table {
            rules,
            cards,
            elements,
            walls,
            wall_at,
            eff,
            beats,
            sum,
            packed,
            against,
            beats64: beats.map(|cells| cells.map(|sides| (0..4).fold(0, |m, s| m | (sides[s] as u64) << (16 * s)))),
            no_sum,
            wall_same,
            side_cells: &SIDE_CELLS[rules.borderless as usize],
            twins,
            nb,
            nb_shift: nb.map(|sides| sides.map(|n| 4 * n)),
            sides_of: &SIDES_OF[rules.borderless as usize],
            adjacent,
            basic_only,
        }
    }
}

/// `BEATEN_BYTES[bits]`: 0x80 in byte `i` for each bit `i` of `bits`.
static BEATEN_BYTES: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut i = 0;
        while i < 8 {
            if bits >> i & 1 != 0 {
                t[bits] |= 0x80 << (8 * i);
            }
            i += 1;
        }
        bits += 1;
    }
    t
};

/// A rank adjusted by the elemental rule for a card of `element` on a cell of `cell`.
fn effective(rules: &Rules, rank: u8, element: Element, cell: Option<Element>) -> u8 {
    let cell = match cell {
        Some(e) if rules.elemental && e != Element::None => e,
        _ => return rank,
    };
    let v = if element == cell {
        rank + 1
    } else {
        rank.saturating_sub(1)
    };
    if rules.elemental_clamp {
        v.clamp(1, 10)
    } else {
        v
    }
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
    pub(crate) table: Shared<Table>,
    pub(crate) pos: Position,
    /// What the last move played through `play` did (not saved: a loaded state has none).
    pub(crate) last: Option<Captures>,
}

/// The legal moves of a Triple Triad state (at most 5 cards x 9 cells).
pub type MoveList = ArrayVec<Move, 45>;

impl TripleTriad {
    /// Validates `setup` into a state, or says what is wrong with it.
    pub fn new(setup: &Setup) -> Result<TripleTriad, SetupError> {
        setup.build()
    }

    /// The first round of a match under the named preset between two hands of FF8 cards drawn
    /// from `seed` (see [`Match::from_preset`](super::Match::from_preset)).
    ///
    /// ```
    /// use arbiter_core::tripletriad::TripleTriad;
    /// let g = TripleTriad::from_preset("mush", 1).unwrap();
    /// assert!(g.rules().elemental_clamp);
    /// ```
    pub fn from_preset(name: &str, seed: u64) -> Result<TripleTriad, crate::Error> {
        super::Match::preset_round(name, seed)
    }

    /// The state as plain data (what `new` takes back).
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

    /// The effective ranks of the card on `cell` (printed ranks adjusted by the elemental rule).
    pub fn effective_ranks(&self, cell: u8) -> Option<[u8; 4]> {
        self.cell(cell)
            .map(|_| self.table.eff[self.pos.card(cell) as usize][cell as usize])
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
        Ok(())
    }

    /// Plays `mv` and reports what it captured, step by step.
    pub fn play_explained(&mut self, mv: Move) -> Result<Captures, MoveError> {
        self.check(mv)?;
        let id = self.pos.hand_card(self.pos.to_move, mv.card).expect("checked");
        let captures = place(&self.table, &mut self.pos, id, mv.cell);
        self.last = Some(captures);
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
    pub fn last_captures(&self) -> Option<&Captures> {
        self.last.as_ref()
    }

    /// Counts the move sequences of length `depth`, playing every move but the last.
    ///
    /// ```
    /// use arbiter_core::tripletriad::{TripleTriad, Setup};
    /// let g = TripleTriad::new(&Setup::random_ff8(5)).unwrap();
    /// assert_eq!(g.perft(3), 45 * 40 * 28);
    /// ```
    ///
    /// A round lasts one placement per empty cell, so a deeper `depth` counts 0 at once.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth > (!self.pos.occupied & FULL).count_ones() {
            return 0;
        }
        perft_pos(&self.table, &self.pos, depth)
    }
}

fn perft_pos(t: &Table, pos: &Position, depth: u32) -> u64 {
    let mut seen = 0;
    let nodes = if t.basic_only {
        perft_generic::<true>(t, *pos, depth, &mut seen)
    } else {
        perft_generic::<false>(t, *pos, depth, &mut seen)
    };
    // The positions of the last ply played are folded into `seen`, kept here, so that their
    // resolution is done and not optimised away: perft measures it.
    core::hint::black_box(seen);
    nodes
}

/// Perft with the rules' fast path chosen once, outside the loops.
fn perft_generic<const BASIC: bool>(t: &Table, pos: Position, depth: u32, seen: &mut u16) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    let hand = pos.hand(pos.to_move);
    let empty = !pos.occupied & FULL;
    if depth == 1 {
        return (hand.count_ones() * empty.count_ones()) as u64;
    }
    if depth == 2 {
        return last_two::<BASIC>(t, pos, seen);
    }
    let mut nodes = 0;
    for_children::<BASIC>(t, pos, |next| {
        nodes += if depth == 3 {
            last_two::<BASIC>(t, next, seen)
        } else {
            perft_generic::<BASIC>(t, next, depth - 1, seen)
        }
    });
    nodes
}

/// Perft 2 of a position whose board is not full after any move: the moves are played, the
/// replies counted (captures never change their number).
#[inline(always)]
fn last_two<const BASIC: bool>(t: &Table, pos: Position, seen: &mut u16) -> u64 {
    let empty = !pos.occupied & FULL;
    let replies = (pos.hand(pos.to_move.other()).count_ones() * (empty.count_ones() - 1)) as u64;
    let mut nodes = 0;
    for_children::<BASIC>(t, pos, |next| {
        *seen ^= next.blue;
        nodes += replies;
    });
    nodes
}

/// Every child of `pos`, cell by cell.
#[inline(always)]
fn for_children<const BASIC: bool>(t: &Table, pos: Position, mut f: impl FnMut(Position)) {
    let hand = pos.hand(pos.to_move);
    for cell in bits(!pos.occupied & FULL) {
        // What the basic rule reads around the cell is the same for every card of the hand.
        let victims = if BASIC { victims(t, &pos, cell) } else { 0 };
        for card in bits(hand) {
            f(if BASIC {
                place_on_victims(t, pos, card, cell, victims)
            } else {
                child(t, pos, card, cell)
            });
        }
    }
}

impl PartialEq for TripleTriad {
    /// Two states are equal when they hold the same data (cards are compared by value).
    fn eq(&self, other: &TripleTriad) -> bool {
        self.setup() == other.setup()
    }
}

impl Eq for TripleTriad {}

impl fmt::Debug for TripleTriad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TripleTriad").field(&self.setup()).finish()
    }
}

/// What one player may see: the board, their own hand, and the opponent's hand only if the rules
/// are open (otherwise `None` for each unplayed card: its count is known, not its face).
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
        let n = self.pos.hand(self.pos.to_move).count_ones() as u8;
        for card in 0..n {
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
        if self.check(mv).is_ok() {
            let id = self.pos.hand_card(self.pos.to_move, mv.card).expect("checked");
            self.last = Some(place(&self.table, &mut self.pos, id, mv.cell));
        }
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

    fn observation(&self, player: Player) -> Observation {
        let s = self.setup();
        let open = self.table.rules.open;
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
        }
    }

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
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.setup().serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TripleTriad {
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

//! The plain data under a round: the two players, the small copyable [`Position`] of bit masks
//! that search copies, and the shared immutable [`Table`] of the round's cards, rules and the
//! values derived from them.

use alloc::vec::Vec;
use arrayvec::ArrayVec;
use core::fmt;
use core::str::FromStr;

use super::board::{bits, EDGE, FULL, NEIGHBOURS, SIDES_OF, SIDE_CELLS};
use super::card::{Card, Element};
use super::rules::{Rules, Wall};

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
        let mut t = Table {
            rules,
            cards,
            elements,
            walls,
            wall_at: [None; 9],
            eff: [[[0; 4]; 9]; 10],
            beats: [[[0; 4]; 9]; 16],
            beats64: [[0; 9]; 16],
            sum: [0; 16],
            packed: [0; 16],
            against: [[[[0; 16]; 4]; 9]; 16],
            no_sum: [[0; 9]; 16],
            wall_same: [[0; 9]; 16],
            side_cells: &SIDE_CELLS[0],
            twins: [0; 10],
            nb: NEIGHBOURS[0],
            nb_shift: [[0; 4]; 9],
            sides_of: &SIDES_OF[0],
            adjacent: Default::default(),
            basic_only: false,
        };
        t.derive();
        t
    }

    /// Works out every value derived from the rules, cards, elements and walls, in place: a
    /// deal refills the table of the round before it ([`Dealer::deal_into`](super::Dealer::deal_into))
    /// rather than building and copying one of 14 KB. Rows of card ids from `cards.len()` stay
    /// as they are (zeros: they are never written, and never read for a card).
    pub fn derive(&mut self) {
        let (rules, count) = (self.rules, self.cards.len());
        // `"none"` and `null` are the same plain cell: keep one spelling.
        self.elements = self.elements.map(|e| e.filter(|&e| e != Element::None));
        let nb = NEIGHBOURS[rules.borderless as usize];
        // Tables by card id have 16 rows (the ids a 4-bit field can hold) so that a lookup needs
        // no bounds check; rows 10-15 are never read for a card.
        let mut printed = [[0u8; 4]; 16];
        for (id, card) in self.cards.iter().enumerate() {
            printed[id] = card.ranks;
            self.sum[id] = card.ranks.iter().map(|&r| r as u16).sum();
            for cell in 0..9 {
                self.eff[id][cell] = card
                    .ranks
                    .map(|r| effective(&rules, r, card.element, self.elements[cell]));
            }
        }
        let eff = &self.eff;
        // `below[n][side][v]`: the cards (as a mask of ids) that show a rank under `v` to an
        // attacker on the `side` of cell `n`, i.e. on their opposite side. Effective ranks are
        // 0..=11, so "card `id` on `c` beats its `side` neighbour `d`" is one lookup.
        let mut below = [[[0u16; 16]; 4]; 9];
        for (n, below) in below.iter_mut().enumerate() {
            for (side, below) in below.iter_mut().enumerate() {
                let mut shows = [0u16; 16];
                for (d, eff) in eff.iter().enumerate().take(count) {
                    shows[eff[n][(side + 2) & 3] as usize & 15] |= 1 << d;
                }
                for v in 1..16 {
                    below[v] = below[v - 1] | shows[v - 1];
                }
            }
        }
        for (id, beats) in self.beats.iter_mut().enumerate().take(count) {
            for (c, beats) in beats.iter_mut().enumerate() {
                for (side, beat) in beats.iter_mut().enumerate() {
                    let m = nb[c][side] as usize;
                    *beat = if m < 9 {
                        below[m][side][eff[id][c][side] as usize & 15]
                    } else {
                        0
                    };
                }
            }
        }
        self.wall_at = [None; 9];
        for w in &self.walls {
            self.wall_at[w.cell as usize] = Some(*w);
        }
        self.adjacent = core::array::from_fn(|cell| {
            (0..4u8)
                .filter(|&s| nb[cell][s as usize] != EDGE)
                .map(|s| (s, nb[cell][s as usize]))
                .collect()
        });
        let cards = &self.cards;
        self.twins = core::array::from_fn(|id| {
            // Only ids of cards (a table is made empty before a deal fills it).
            (0..id.min(count))
                // Ranks first: most pairs differ there, and comparing names is the slow part.
                .filter(|&o| printed[o] == printed[id] && (o < 5) == (id < 5) && cards[o] == cards[id])
                .fold(0u16, |m, o| m | 1 << o)
        });
        let pack = |r: [u8; 4]| u32::from_le_bytes(r);
        self.packed = printed.map(pack);
        // A row of `against` is 16 bytes: the printed rank each card shows an attacker on that
        // side, with 0x80 on the cards beaten, written as one 128-bit word.
        let shown: [u128; 4] =
            core::array::from_fn(|s| u128::from_le_bytes(core::array::from_fn(|other| printed[other][(s + 2) & 3])));
        for (against, beats) in self.against.iter_mut().zip(&self.beats).take(count) {
            for (against, beats) in against.iter_mut().zip(beats) {
                for (s, row) in against.iter_mut().enumerate() {
                    let beat = beats[s] as usize;
                    let high = (BEATEN_BYTES[beat & 0xFF] as u128) | (BEATEN_BYTES[beat >> 8] as u128) << 64;
                    *row = (shown[s] | high).to_le_bytes();
                }
            }
        }
        // Without Plus Wall no side sums: every entry is the same word; with it, the edges do.
        self.no_sum = [[u32::from_le_bytes([0x40, 0x41, 0x42, 0x43]); 9]; 16];
        self.wall_same = [[0u8; 9]; 16];
        for (c, sides) in nb.iter().enumerate() {
            for s in (0..4).filter(|&s| sides[s] == EDGE) {
                for ((no_sum, wall_same), printed) in self.no_sum.iter_mut().zip(&mut self.wall_same).zip(&printed) {
                    if rules.plus_wall {
                        no_sum[c] = (no_sum[c] & !(0xFF << (8 * s))) | ((printed[s] + 10) as u32) << (8 * s);
                    }
                    if rules.same_wall && printed[s] == 10 {
                        wall_same[c] += 1;
                    }
                }
            }
        }
        self.basic_only = self.walls.is_empty() && !rules.same && !rules.plus && !rules.battle && !rules.combo;
        self.beats64 = self
            .beats
            .map(|cells| cells.map(|sides| (0..4).fold(0, |m, s| m | (sides[s] as u64) << (16 * s))));
        self.side_cells = &SIDE_CELLS[rules.borderless as usize];
        self.nb = nb;
        self.nb_shift = nb.map(|sides| sides.map(|n| 4 * n));
        self.sides_of = &SIDES_OF[rules.borderless as usize];
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

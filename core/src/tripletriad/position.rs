//! The plain data under a round: the two players, the small copyable [`Position`] of bit masks
//! that search copies, and the shared immutable [`Table`] of the round's cards, rules and the
//! values derived from them.

use alloc::vec::Vec;
use arrayvec::ArrayVec;
use core::fmt;
use core::str::FromStr;

use super::board::{bits, EDGE, FULL, NEIGHBOURS};
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
    pub side_cells: [[u16; 16]; 9],
    /// `twins[id]`: the lower ids holding an identical card in the same hand (they play alike).
    pub twins: [u16; 10],
    pub nb: [[u8; 4]; 9],
    /// `4 * nb`: where the neighbour's card id sits in `Position::cells`.
    pub nb_shift: [[u8; 4]; 9],
    /// `sides_of[c][cells]`: the sides of cell `c` that face a cell of the mask `cells`.
    pub sides_of: [[u8; 512]; 9],
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
        // What card `id` on cell `c` shows to an attacker on its `side` (the opposite rank);
        // row 9 stands for the edge.
        let guard: [[[u8; 4]; 10]; 10] =
            eff.map(|cells| core::array::from_fn(|c| cells.get(c).map_or([0; 4], |r| [r[2], r[3], r[0], r[1]])));
        let beats = core::array::from_fn(|id: usize| {
            core::array::from_fn(|c: usize| {
                core::array::from_fn(|side: usize| {
                    let n = nb[c][side] as usize;
                    (0..10)
                        .filter(|&d| n < 9 && id < 10 && eff[id][c][side] > guard[d][n][side])
                        .fold(0u16, |m, d| m | 1 << d)
                })
            })
        });
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
                .filter(|&o| cards[o] == cards[id] && (o < 5) == (id < 5))
                .fold(0u16, |m, o| m | 1 << o)
        });
        let pack = |r: [u8; 4]| u32::from_le_bytes(r);
        let packed = printed.map(pack);
        let against = core::array::from_fn(|id: usize| {
            core::array::from_fn(|c: usize| {
                core::array::from_fn(|s: usize| {
                    core::array::from_fn(|other: usize| {
                        printed[other][(s + 2) & 3] | if beats[id][c][s] >> other & 1 != 0 { 0x80 } else { 0 }
                    })
                })
            })
        });
        let edge = |c: usize, s: usize| nb[c][s] == EDGE;
        let no_sum = core::array::from_fn(|id: usize| {
            core::array::from_fn(|c| {
                pack(core::array::from_fn(|s| {
                    if edge(c, s) && rules.plus_wall {
                        printed[id][s] + 10
                    } else {
                        0x40 + s as u8
                    }
                }))
            })
        });
        let wall_same = core::array::from_fn(|id: usize| {
            core::array::from_fn(|c| {
                (0..4)
                    .filter(|&s| edge(c, s) && rules.same_wall && printed[id][s] == 10)
                    .count() as u8
            })
        });
        let side_cells = core::array::from_fn(|c| {
            core::array::from_fn(|sides: usize| {
                (0..4)
                    .filter(|&s| sides >> s & 1 != 0 && !edge(c, s))
                    .fold(0u16, |m, s| m | 1 << nb[c][s])
            })
        });
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
            side_cells,
            twins,
            nb,
            nb_shift: nb.map(|sides| sides.map(|n| 4 * n)),
            sides_of: core::array::from_fn(|c| {
                core::array::from_fn(|cells| {
                    (0..4)
                        .filter(|&s| cells >> nb[c][s] & 1 != 0)
                        .fold(0, |m, s| m | 1 << s)
                })
            }),
            adjacent,
            basic_only,
        }
    }
}

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

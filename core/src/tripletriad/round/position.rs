//! The plain data under a round: the two players, the small copyable [`Position`] of bit masks
//! that search copies, and the shared immutable [`RoundTable`] of the round's cards, rules and the
//! values derived from them.

use alloc::vec::Vec;
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
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Player {
    /// Blue.
    Blue = 0,
    /// Red.
    Red = 1,
}

// Read by name (`crate::unit_enum`), written as derived.
#[cfg(feature = "serde")]
crate::unit_enum::read_by_name!(Player, Player::BOTH);

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
    #[cfg_attr(arbiter_size, optimize(size))]
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
    #[cfg_attr(arbiter_size, optimize(size))]
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
#[derive(Clone, Debug)]
pub(crate) struct RoundTable {
    pub rules: Rules,
    /// The ten cards of the round, by id (up to 16 in the deck builder's relaxed rounds).
    pub cards: Vec<Card>,
    pub elements: [Option<Element>; 9],
    pub walls: Vec<Wall>,
    pub wall_at: [Option<Wall>; 9],
    /// `shows[c][side][id]`: the effective rank card `id` shows on its `side` on cell `c` (its
    /// printed rank adjusted by the elemental rule). By cell and side first, so that the ten
    /// cards a side is compared with are one 16-byte row.
    pub shows: [[[u8; 16]; 4]; 9],
    /// `beats64[id][c]`: the ids of the cards that card `id` on cell `c` takes by the basic rule
    /// from each side's neighbour, as a mask in the side's 16-bit lane; a lookup that does not
    /// wait for the neighbour's id. Filled only when the basic rule is all there is
    /// (`basic_only`): nothing else reads it.
    pub beats64: [[u64; 9]; 16],
    pub sum: [u16; 16],
    /// Card `id`'s printed ranks, a byte per side (byte `s` = side `s`).
    pub packed: [u32; 16],
    /// `against[id][c][side][other]`: for card `id` on cell `c` facing card `other` on its
    /// `side`, the printed rank `other` shows it (low four bits) and whether `id` takes `other`
    /// by the basic rule (0x80). Filled only when other rules than the basic one apply, and only
    /// for sides that face a cell: a side facing an edge is never read for a meaning.
    pub against: [[[[u8; 16]; 4]; 9]; 16],
    /// `no_sum[id][c]`: the Plus sums of card `id` on cell `c` on sides without a card: printed
    /// + 10 at an edge under Plus Wall, else `0x40 + side`, which no sum equals. Filled under Plus.
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
    /// No walls, Same, Plus, Battle, Combo or typed values: the fast path applies.
    pub basic_only: bool,
    /// `types[id]`: card `id`'s type as a number (0 for none), what Ascension and Descension read.
    pub types: [u8; 16],
    /// Ascension or Descension with a typed card in the round: values depend on the board, and
    /// the placement takes the path that reads them ([`super::resolve`]).
    pub typed: bool,
    /// `draws[e]`: under Chaos, the hand index the game drew for the turn played with `e` empty
    /// cells; [`NO_DRAW`] where the draw is unknown (any card may be played).
    pub draws: [u8; 10],
    /// Order, or a Chaos draw known: [`RoundTable::playable`] has work to do.
    pub forced: bool,
}

/// An unknown Chaos draw in [`RoundTable::draws`].
pub(crate) const NO_DRAW: u8 = 0xFF;

impl RoundTable {
    /// The table of the ten `cards` (by id) under `rules` on cells of `elements` with `walls`.
    pub fn new(rules: Rules, cards: Vec<Card>, elements: [Option<Element>; 9], walls: Vec<Wall>) -> RoundTable {
        let mut t = RoundTable::blank(rules, walls);
        t.cards = cards;
        t.elements = elements;
        t.derive();
        t
    }

    /// A table without cards, to be dealt and derived.
    pub fn blank(rules: Rules, walls: Vec<Wall>) -> RoundTable {
        RoundTable {
            rules,
            cards: Vec::new(),
            elements: [None; 9],
            walls,
            wall_at: [None; 9],
            shows: [[[0; 16]; 4]; 9],
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
            basic_only: false,
            types: [0; 16],
            typed: false,
            draws: [NO_DRAW; 10],
            forced: false,
        }
    }

    /// Sets the Chaos draws (see [`RoundTable::draws`]).
    pub fn set_draws(&mut self, draws: [u8; 10]) {
        self.draws = draws;
        self.forced = self.rules.order || draws.iter().any(|&d| d != NO_DRAW);
    }

    /// The card ids of `pos`'s mover that may be played: under Order the first of its hand, under
    /// Chaos the drawn one when the draw is known, else its whole hand. Every move generator reads
    /// this, so that play, perft and the searches count the same moves.
    #[inline(always)]
    pub fn playable(&self, pos: &Position) -> u16 {
        let hand = pos.hand(pos.to_move);
        // One flag on the searches' path: FF8 rounds pay a predicted branch.
        if !self.forced {
            return hand;
        }
        self.forced_cards(pos, hand)
    }

    #[inline(never)]
    fn forced_cards(&self, pos: &Position, hand: u16) -> u16 {
        if self.rules.order {
            return hand & hand.wrapping_neg();
        }
        match self.draws[(!pos.occupied & FULL).count_ones() as usize] {
            NO_DRAW => hand,
            index => bits(hand).nth(index as usize).map_or(0, |id| 1 << id),
        }
    }

    /// Whether a Chaos draw is missing for some turn left from `pos` (the exact value then depends
    /// on draws nobody knows).
    pub fn draws_missing(&self, pos: &Position) -> bool {
        self.rules.chaos && (1..=(!pos.occupied & FULL).count_ones() as usize).any(|e| self.draws[e] == NO_DRAW)
    }

    /// The effective ranks of card `id` on cell `cell`, by side.
    pub fn effective(&self, id: u8, cell: u8) -> [u8; 4] {
        let shows = &self.shows[cell as usize];
        core::array::from_fn(|side| shows[side][id as usize])
    }

    /// Works out the values derived from the rules, cards, elements and walls that the round's
    /// rules read, in place: a deal refills the table of the round before it
    /// ([`Dealer::deal_into`](crate::tripletriad::Dealer::deal_into)) rather than building and copying one
    /// of 14 KB, and a batch deals every nine moves, so this is written to be cheap (16-byte rows
    /// compared at once, loops of fixed length). Rows of ids past the cards stay as they are (never
    /// read for a card).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn derive(&mut self) {
        let rules = self.rules;
        // A round has ten cards; the deck builder's relaxed rounds (the player holding every card
        // left to try) up to the sixteen ids a 4-bit field holds.
        let count = self.cards.len();
        debug_assert!((CARDS..=16).contains(&count), "{count} cards");
        // `"none"` and `null` are the same plain cell: keep one spelling.
        self.elements = self.elements.map(|e| e.filter(|&e| e != Element::None));
        let nb = NEIGHBOURS[rules.borderless as usize];
        // Tables by card id have 16 rows (the ids a 4-bit field can hold) so that a lookup needs
        // no bounds check; rows 10-15 are never read for a card.
        let mut printed = [[0u8; 4]; 16];
        // `by_side[side][id]`: printed ranks; `element[id]`: the cards' elements.
        let (mut by_side, mut element) = ([[0u8; 16]; 4], [0u8; 16]);
        for (id, card) in self.cards.iter().enumerate().take(count) {
            printed[id] = card.ranks;
            for (row, &rank) in by_side.iter_mut().zip(&card.ranks) {
                row[id] = rank;
            }
            element[id] = card.element as u8;
            self.sum[id] = card.ranks.iter().map(|&r| r as u16).sum();
            self.types[id] = card.card_type as u8;
        }
        self.typed = (rules.ascension || rules.descension) && self.types.iter().any(|&t| t != 0);
        self.set_draws(self.draws);
        for (cell, shows) in self.shows.iter_mut().enumerate() {
            *shows = match self.elements[cell].filter(|_| rules.elemental) {
                Some(e) => by_side.map(|row| elemental_row(&rules, row, &element, e as u8)),
                None => by_side,
            };
        }
        self.wall_at = [None; 9];
        for w in &self.walls {
            self.wall_at[w.cell as usize] = Some(*w);
        }
        let cards = &self.cards;
        self.twins = core::array::from_fn(|id| {
            // Only ids of cards of the same hand.
            let hand = if id < 5 { 0 } else { 5 };
            (hand..id)
                // Ranks first: most pairs differ there, and comparing names is the slow part.
                .filter(|&o| printed[o] == printed[id] && cards[o] == cards[id])
                .fold(0u16, |m, o| m | 1 << o)
        });
        self.basic_only =
            self.walls.is_empty() && !rules.same && !rules.plus && !rules.battle && !rules.combo && !self.typed;
        let shows = &self.shows;
        if self.basic_only {
            for (id, beats) in self.beats64.iter_mut().enumerate().take(count) {
                for (c, beats) in beats.iter_mut().enumerate() {
                    *beats = (0..4).filter(|&s| nb[c][s] != EDGE).fold(0, |m, s| {
                        let facing = &shows[nb[c][s] as usize][(s + 2) & 3];
                        m | (taken_mask(&rules, shows[c][s][id], facing) as u64) << (16 * s)
                    });
                }
            }
        } else {
            self.packed = printed.map(u32::from_le_bytes);
            for (c, sides) in nb.iter().enumerate() {
                for (s, &n) in sides.iter().enumerate().filter(|&(_, &n)| n != EDGE) {
                    // What the card on the neighbour shows this side, and the printed rank it
                    // shows (what Same and Plus compare).
                    let (facing, printed) = (&shows[n as usize][(s + 2) & 3], &by_side[(s + 2) & 3]);
                    for (id, against) in self.against.iter_mut().enumerate().take(count) {
                        let v = shows[c][s][id];
                        against[c][s] =
                            core::array::from_fn(|k| printed[k] | if rules.beats(v, facing[k]) { 0x80 } else { 0 });
                    }
                }
            }
            // Without Plus Wall no side sums: every entry is the same word; with it, the edges do.
            if rules.plus {
                self.no_sum = [[u32::from_le_bytes([0x40, 0x41, 0x42, 0x43]); 9]; 16];
            }
            self.wall_same = [[0u8; 9]; 16];
            for (c, sides) in nb.iter().enumerate() {
                for s in (0..4).filter(|&s| sides[s] == EDGE) {
                    for (id, ranks) in printed.iter().enumerate().take(count) {
                        let rank = ranks[s];
                        if rules.plus && rules.plus_wall {
                            let no_sum = &mut self.no_sum[id][c];
                            *no_sum = (*no_sum & !(0xFF << (8 * s))) | ((rank + 10) as u32) << (8 * s);
                        }
                        if rules.same_wall && rank == 10 {
                            self.wall_same[id][c] += 1;
                        }
                    }
                }
            }
        }
        self.side_cells = &SIDE_CELLS[rules.borderless as usize];
        self.nb = nb;
        self.nb_shift = nb.map(|sides| sides.map(|n| 4 * n));
        self.sides_of = &SIDES_OF[rules.borderless as usize];
    }
}

/// The cards of a round.
const CARDS: usize = 10;

/// The ids (bit `k`) whose rank in `facing` a side showing `v` beats: the cards it takes.
#[inline(always)]
fn taken_mask(rules: &Rules, v: u8, facing: &[u8; 16]) -> u16 {
    (0..16).fold(0, |m, k| m | (rules.beats(v, facing[k]) as u16) << k)
}

/// The printed ranks `row` of the cards of `element` (by id) on a cell of element `cell`, under
/// the elemental rule: one more for a card of the cell's element, one less for any other.
fn elemental_row(rules: &Rules, row: [u8; 16], element: &[u8; 16], cell: u8) -> [u8; 16] {
    core::array::from_fn(|k| {
        let v = if element[k] == cell {
            row[k] + 1
        } else {
            row[k].saturating_sub(1)
        };
        if rules.elemental_clamp {
            v.clamp(1, 10)
        } else {
            v
        }
    })
}

//! Placement resolution: the seven steps of the rules file, on bit masks.

use super::board::{bits, FULL};
use super::position::{Player, Position, RoundTable};

/// What one placement did, step by step, as cell masks (bit `c` = cell `c`) on the board after the
/// power-wall rotation. Lets a UI explain a move.
///
/// ```
/// use arbiter_core::tripletriad::{TripleTriad, Setup, Move};
/// let mut g = TripleTriad::new(&Setup::random_ff8(3)).unwrap();
/// let c = g.play_explained(Move { card: 0, cell: 4 }).unwrap();
/// assert_eq!(c.cell, 4);
/// assert_eq!(c.captured(), 0); // nothing to take on an empty board
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Captures {
    /// The cell the card was put on.
    pub placed_on: u8,
    /// The cell where it ended (differs when a power wall rotated its line).
    pub cell: u8,
    /// Whether a power wall rotated a line.
    pub rotated: bool,
    /// Cells whose sides matched for Same (own cards included; edges are not cells).
    pub same_matches: u16,
    /// Opponent cards captured by Same.
    pub same: u16,
    /// Opponent cards captured by Plus.
    pub plus: u16,
    /// Opponent cards captured by Basic.
    pub basic: u16,
    /// Opponent cards captured by winning a Battle.
    pub battle: u16,
    /// Whether the placed card was lost in a Battle.
    pub placed_lost: bool,
    /// Cards captured by Combo (the placed card included if Combo took it back).
    pub combo: u16,
}

impl Captures {
    /// Every card that changed hands to the mover in this placement.
    pub fn captured(&self) -> u16 {
        self.same | self.plus | self.basic | self.battle | self.combo
    }

    /// Each card that changed colour, with the rule that flipped it, in cell order: what a UI
    /// shows. The placed card appears only when it was lost in a Battle (rule `battle`) or taken
    /// back by Combo after that (rule `combo`).
    ///
    /// ```
    /// use arbiter_core::tripletriad::Captures;
    /// let c = Captures { cell: 4, plus: 0b10, combo: 0b1, ..Captures::default() };
    /// let flips: Vec<_> = c.flips().map(|(cell, rule)| (cell, rule)).collect();
    /// assert_eq!(flips, [(0, "combo"), (1, "plus")]);
    /// ```
    pub fn flips(&self) -> impl Iterator<Item = (u8, &'static str)> + '_ {
        let lost = if self.placed_lost { 1u16 << self.cell } else { 0 };
        (0..9u8).filter_map(move |c| {
            let bit = 1u16 << c;
            // Combo comes last in the resolution, so it names the final owner of a cell it took.
            let rule = [
                (self.combo, "combo"),
                (self.same, "same"),
                (self.plus, "plus"),
                (self.basic, "basic"),
                (self.battle | lost, "battle"),
            ]
            .into_iter()
            .find(|(mask, _)| mask & bit != 0)?
            .1;
            Some((c, rule))
        })
    }
}

/// As JSON: the cells as numbers and the flips with their rule, e.g.
/// `{"placed_on": 4, "cell": 4, "rotated": false, "same_matches": [1, 3], "flips": [{"cell": 1, "rule": "same"}], "placed_lost": false}`.
#[cfg(feature = "serde")]
impl serde::Serialize for Captures {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        #[derive(serde::Serialize)]
        struct Flip {
            cell: u8,
            rule: &'static str,
        }
        let cells = |mask: u16| bits(mask).collect::<alloc::vec::Vec<u8>>();
        let flips: alloc::vec::Vec<Flip> = self.flips().map(|(cell, rule)| Flip { cell, rule }).collect();
        let mut st = s.serialize_struct("Captures", 6)?;
        st.serialize_field("placed_on", &self.placed_on)?;
        st.serialize_field("cell", &self.cell)?;
        st.serialize_field("rotated", &self.rotated)?;
        st.serialize_field("same_matches", &cells(self.same_matches))?;
        st.serialize_field("flips", &flips)?;
        st.serialize_field("placed_lost", &self.placed_lost)?;
        st.end()
    }
}

#[inline(always)]
fn set_owner(pos: &mut Position, mask: u16, owner: Player) {
    match owner {
        Player::Blue => pos.blue |= mask,
        Player::Red => pos.blue &= !mask,
    }
}

/// Places card `card` (an id of the table) for the player to move on empty cell `cell`, resolves
/// every capture, removes the card from the hand and passes the turn.
pub(crate) fn place(t: &RoundTable, pos: &mut Position, card: u8, cell: u8) -> Captures {
    if t.basic_only {
        let before = *pos;
        *pos = place_basic(t, before, card, cell);
        return Captures {
            placed_on: cell,
            cell,
            basic: (pos.blue ^ before.blue) & !(1 << cell),
            ..Captures::default()
        };
    }
    let mover = put(pos, card, cell);
    resolve_full(t, pos, card, cell, mover)
}

/// [`place`] without the explanation, by value: the searches' path. Without walls no card
/// moves, and steps 3-7 are resolved inline.
#[inline(always)]
pub(crate) fn child(t: &RoundTable, mut pos: Position, card: u8, cell: u8) -> Position {
    if t.basic_only {
        return place_basic(t, pos, card, cell);
    }
    if !t.walls.is_empty() || t.typed {
        place(t, &mut pos, card, cell);
        return pos;
    }
    let mover = put(&mut pos, card, cell);
    let d = decide(t, &pos, card, cell as usize, mover);
    let to_cells = &t.side_cells[cell as usize];
    apply(t, &mut pos, &d, to_cells, cell, mover, |id, c, side, other| {
        t.against[id as usize][c as usize][side][other as usize] >> 7 != 0
    });
    pos
}

/// Step 1: the card leaves the hand for the cell, in the mover's colour; the turn passes.
#[inline(always)]
fn put(pos: &mut Position, card: u8, cell: u8) -> Player {
    let mover = pos.to_move;
    pos.hands &= !(1 << card);
    pos.to_move = mover.other();
    pos.set_card(cell, card);
    pos.occupied |= 1 << cell;
    set_owner(pos, 1 << cell, mover);
    mover
}

/// [`place`] under plain rules (no walls, Same, Plus, Battle or Combo), by value so that the
/// 16-byte position stays in registers.
#[inline(always)]
pub(crate) fn place_basic(t: &RoundTable, pos: Position, card: u8, cell: u8) -> Position {
    place_on_victims(t, pos, card, cell, victims(t, &pos, cell))
}

/// [`place_basic`] with the [`victims`] of `cell` already read: perft reads them once per cell
/// for all the cards of the hand.
#[inline(always)]
pub(crate) fn place_on_victims(t: &RoundTable, mut pos: Position, card: u8, cell: u8, victims: u64) -> Position {
    // Branch-free: whether a neighbour is taken is a coin toss the predictor cannot learn.
    let taken = t.beats64[(card & 0xF) as usize][cell as usize] & victims;
    // Bit 15 of each lane that is not 0 (a lane holds one bit, below bit 10, so no carry leaves
    // it), then those four bits gathered to bits 60-63 by one multiply (no two products meet).
    let lanes = taken.wrapping_add(0x7FFF_7FFF_7FFF_7FFF) & 0x8000_8000_8000_8000;
    let sides = lanes.wrapping_mul((1 << 45) | (1 << 30) | (1 << 15) | 1) >> 60;
    let cap = t.side_cells[cell as usize][sides as usize];
    let mover = put(&mut pos, card, cell);
    set_owner(&mut pos, cap, mover);
    pos
}

/// The opponent cards around `cell`, for the player to move, as seen by the basic rule: lane `s`
/// (16 bits) holds `1 << id` of the opponent card on side `s`, 0 where there is none.
#[inline(always)]
pub(crate) fn victims(t: &RoundTable, pos: &Position, cell: u8) -> u64 {
    let theirs = pos.occupied & (pos.blue ^ if pos.to_move == Player::Blue { FULL } else { 0 });
    let sides = t.sides_of[cell as usize][(theirs & FULL) as usize] as u64;
    let ids = neighbour_ids(t, pos, cell as usize);
    (0..4).fold(0, |m, s| m | ((sides >> s) & 1) << (ids[s] as u64 + 16 * s as u64))
}

/// The card ids on the four sides of `cell`; where no card is (an edge, an empty cell) the id
/// means nothing, and callers look only at sides facing a card.
#[inline(always)]
fn neighbour_ids(t: &RoundTable, pos: &Position, cell: usize) -> [usize; 4] {
    if t.rules.borderless {
        let shift = &t.nb_shift[cell];
        core::array::from_fn(|s| ((pos.cells >> (shift[s] & 63)) & 0xF) as usize)
    } else {
        // Turned so that the cell above is at bits 0-3: the cells right, below and left are then
        // at fixed places, so one shift by a variable instead of four.
        let turned = pos.cells.rotate_right(4 * cell as u32 + 52);
        [0, 16, 24, 8].map(|at| ((turned >> at) & 0xF) as usize)
    }
}

/// Steps 3-6 for card `card` on `cell`, decided on one board, as masks of the card's sides
/// (bit `s` = side `s`).
#[derive(Clone, Copy)]
struct Sides {
    /// Sides whose neighbour matched for Same (own cards included).
    matches: u8,
    same: u8,
    plus: u8,
    basic: u8,
    battle: u8,
    placed_lost: bool,
}

/// Steps 3-6 work on the four sides at once: a byte per side in a u32 (byte `s` = side `s`), a
/// bit per side in a 4-bit mask. An edge reads as cell 9: never occupied, card id 0.
#[inline(always)]
fn decide(t: &RoundTable, pos: &Position, card: u8, cell: usize, mover: Player) -> Sides {
    let (mine, against, ids) = faces(t, pos, card, cell);
    decide_on(t, pos, (card & 0xF) as usize, cell, mover, mine, against, ids)
}

/// What [`decide_on`] reads, from the tables: the placed card's printed ranks, and a byte per
/// side with the neighbour's facing printed rank and in the top bit whether the card beats it.
#[inline(always)]
fn faces(t: &RoundTable, pos: &Position, card: u8, cell: usize) -> (u32, u32, [usize; 4]) {
    let card = (card & 0xF) as usize;
    let ids = neighbour_ids(t, pos, cell);
    let row = &t.against[card][cell];
    let against = (0..4).fold(0, |f, s| f | (row[s][ids[s]] as u32) << (8 * s));
    (t.packed[card], against, ids)
}

/// [`faces`] under Ascension or Descension, where the ranks depend on the board: `mods` are the
/// types' modifiers of this placement ([`modifiers`]).
fn typed_faces(t: &RoundTable, pos: &Position, card: u8, cell: usize, mods: &[i8; 5]) -> (u32, u32, [usize; 4]) {
    let ids = neighbour_ids(t, pos, cell);
    let mine = typed_ranks(t, mods, card);
    let against = (0..4).fold(0, |f, s| {
        let other = typed_ranks(t, mods, ids[s] as u8)[(s + 2) & 3];
        let beats = if t.rules.beats(mine[s], other) { 0x80 } else { 0 };
        f | ((other | beats) as u32) << (8 * s)
    });
    (u32::from_le_bytes(mine), against, ids)
}

/// Ascension/Descension: each type's modifier for a placement on `cell` (index 0, no type, stays
/// 0): plus or minus the cards of that type on the board before it, the placed one not counted.
pub(crate) fn modifiers(t: &RoundTable, pos: &Position, cell: u8) -> [i8; 5] {
    let mut mods = [0i8; 5];
    let sign = if t.rules.ascension { 1 } else { -1 };
    for c in bits(pos.occupied & !(1 << cell)) {
        let ty = t.types[pos.card(c) as usize] as usize;
        if ty != 0 {
            mods[ty] += sign;
        }
    }
    mods
}

/// Card `id`'s ranks under the modifiers `mods`: printed plus its type's modifier, within 1..=10.
pub(crate) fn typed_ranks(t: &RoundTable, mods: &[i8; 5], id: u8) -> [u8; 4] {
    let m = mods[t.types[(id & 0xF) as usize] as usize];
    t.cards
        .get(id as usize)
        .map_or([0; 4], |c| c.ranks.map(|r| (r as i8 + m).clamp(1, 10) as u8))
}

/// Steps 3-6 on the ranks as read: `mine`, the placed card's (a byte per side), and `against`,
/// a byte per side with the neighbour's facing rank and in its top bit whether the card beats it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn decide_on(
    t: &RoundTable,
    pos: &Position,
    card: usize,
    cell: usize,
    mover: Player,
    mine: u32,
    against: u32,
    ids: [usize; 4],
) -> Sides {
    let r = &t.rules;
    let theirs = pos.occupied & (pos.blue ^ if mover == Player::Blue { FULL } else { 0 });
    let sides_of = &t.sides_of[cell];
    let present = SPREAD[sides_of[(pos.occupied & FULL) as usize] as usize & 0xF];
    let their_sides = sides_of[(theirs & FULL) as usize];
    let face = against & 0x0F0F_0F0F;
    let mut d = Sides {
        matches: 0,
        same: 0,
        plus: 0,
        basic: 0,
        battle: 0,
        placed_lost: false,
    };

    // Step 3: Same.
    if r.same {
        d.matches = byte_flags(zero_bytes(mine ^ face) & present);
        if d.matches.count_ones() as u8 + t.wall_same[card][cell] >= r.same_min_matches {
            d.same = d.matches & their_sides;
        }
    }

    // Step 4: Plus. A side without a sum shows a value of its own that no sum can equal.
    if r.plus {
        let sums = (mine.wrapping_add(face) & present) | (t.no_sum[card][cell] & !present);
        let next = zero_bytes(sums ^ sums.rotate_left(8));
        let twice = next | next.rotate_right(8) | zero_bytes(sums ^ sums.rotate_left(16));
        d.plus = byte_flags(twice) & their_sides;
    }

    // Step 5: Basic, on effective values.
    let special = d.same | d.plus;
    let basic = byte_flags(against);
    d.basic = basic & their_sides & !special;

    // Step 6: Battle, on printed values and rank sums.
    if r.battle {
        let equal = byte_flags(zero_bytes(mine ^ face)) & their_sides & !(special | d.basic);
        for s in (0..4).filter(|s| equal >> s & 1 != 0) {
            let (mine, its) = (t.sum[card], t.sum[ids[s]]);
            if mine > its {
                d.battle |= 1 << s;
            } else if its > mine {
                d.placed_lost = true;
            }
        }
    }
    d
}

/// Applies steps 3-6 together, then step 7; returns the cells Combo took.
/// `wins(id, c, side, other)`: whether card `id` on cell `c` takes card `other` facing its
/// `side` by the basic condition (what a Combo wave reads).
#[inline(always)]
fn apply(
    t: &RoundTable,
    pos: &mut Position,
    d: &Sides,
    to_cells: &[u16; 16],
    cell: u8,
    mover: Player,
    wins: impl Fn(u8, u8, usize, u8) -> bool,
) -> u16 {
    let special = to_cells[(d.same | d.plus) as usize & 0xF];
    set_owner(
        pos,
        to_cells[(d.same | d.plus | d.basic | d.battle) as usize & 0xF],
        mover,
    );
    if d.placed_lost {
        set_owner(pos, 1 << cell, mover.other());
    }
    let r = &t.rules;
    let mut frontier = 0;
    if r.combo {
        frontier = special;
        if r.combo_from_basic {
            frontier |= to_cells[d.basic as usize & 0xF];
        }
    }
    let mut taken = 0;
    while frontier != 0 {
        let theirs = pos.occupied & (pos.blue ^ if mover == Player::Blue { FULL } else { 0 });
        let mut next = 0u16;
        for c in bits(frontier) {
            let id = pos.card(c);
            for (side, &n) in t.nb[c as usize].iter().enumerate() {
                next |= (wins(id, c, side, pos.card(n)) as u16 & theirs >> n & 1) << n;
            }
        }
        set_owner(pos, next, mover);
        taken |= next;
        frontier = next;
    }
    taken
}

#[inline(never)]
fn resolve_full(t: &RoundTable, pos: &mut Position, card: u8, placed_on: u8, mover: Player) -> Captures {
    let mut out = Captures {
        placed_on,
        cell: placed_on,
        ..Captures::default()
    };
    // Step 2: power walls.
    if let Some(wall) = t.wall_at[placed_on as usize] {
        if wall.label.activated_by(t.cards[card as usize].power) {
            rotate(pos, wall.line());
            out.rotated = true;
            out.cell = wall.line()[1];
        }
    }
    let cell = out.cell as usize;
    let to_cells = &t.side_cells[cell];
    // Ascension/Descension: the values are fixed for the whole placement (steps 2-5), the
    // counters move after it.
    let mods = if t.typed { modifiers(t, pos, out.cell) } else { [0; 5] };
    let (mine, against, ids) = if t.typed {
        typed_faces(t, pos, card, cell, &mods)
    } else {
        faces(t, pos, card, cell)
    };
    let d = decide_on(t, pos, (card & 0xF) as usize, cell, mover, mine, against, ids);
    if t.rules.same {
        out.same_matches = to_cells[d.matches as usize];
    }
    out.same = to_cells[d.same as usize];
    out.plus = to_cells[d.plus as usize];
    out.basic = to_cells[d.basic as usize];
    out.battle = to_cells[d.battle as usize];
    out.placed_lost = d.placed_lost;
    out.combo = apply(t, pos, &d, to_cells, out.cell, mover, |id, c, side, other| {
        if t.typed {
            t.rules.beats(
                typed_ranks(t, &mods, id)[side],
                typed_ranks(t, &mods, other)[(side + 2) & 3],
            )
        } else {
            t.against[id as usize][c as usize][side][other as usize] >> 7 != 0
        }
    });
    out
}

/// `SPREAD[sides]`: 0xFF in the byte of each side in a 4-bit mask.
const SPREAD: [u32; 16] = {
    let mut t = [0u32; 16];
    let mut m = 0;
    while m < 16 {
        let mut s = 0;
        while s < 4 {
            if m >> s & 1 != 0 {
                t[m] |= 0xFF << (8 * s);
            }
            s += 1;
        }
        m += 1;
    }
    t
};

/// 0x80 in each byte of `v` that is zero. Each byte loses its top bit before the add, so no carry
/// crosses into the next byte.
#[inline(always)]
fn zero_bytes(v: u32) -> u32 {
    !(((v & 0x7F7F_7F7F) + 0x7F7F_7F7F) | v) & 0x8080_8080
}

/// The top bits of the four bytes of `v` as a 4-bit mask (bit `s` from byte `s`): the multiply
/// moves bit `8s` to bit `24 + s`, and no two partial products meet.
#[inline(always)]
fn byte_flags(v: u32) -> u8 {
    (((v >> 7) & 0x0101_0101).wrapping_mul(0x0102_0408) >> 24) as u8
}

/// Rotates a line of three cells one step away from the wall: `line[0]` moves to `line[1]`,
/// `line[1]` to `line[2]`, and `line[2]` re-enters on `line[0]`. Empty cells move too.
pub(super) fn rotate(pos: &mut Position, line: [u8; 3]) {
    let [a, b, c] = line;
    let cards = [pos.card(a), pos.card(b), pos.card(c)];
    let bit = |m: u16, i: u8| (m >> i) & 1;
    let occ = [bit(pos.occupied, a), bit(pos.occupied, b), bit(pos.occupied, c)];
    let blue = [bit(pos.blue, a), bit(pos.blue, b), bit(pos.blue, c)];
    let line_mask = (1u16 << a) | (1 << b) | (1 << c);
    pos.occupied &= !line_mask;
    pos.blue &= !line_mask;
    for (from, to) in [(0, b), (1, c), (2, a)] {
        pos.set_card(to, cards[from]);
        pos.occupied |= occ[from] << to;
        pos.blue |= blue[from] << to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::round::board::EDGE;
    use crate::tripletriad::testing::random_setup;
    use crate::tripletriad::{Element, Rules, Setup, TripleTriad};
    use crate::{Game, Rng};

    /// The rules file's seven steps read literally, one side and one card at a time: the
    /// reference that the bit-parallel resolution is checked against.
    fn reference(t: &RoundTable, before: &Position, card: u8, placed_on: u8) -> (Position, Captures) {
        let mut pos = *before;
        let mover = pos.to_move;
        pos.hands &= !(1 << card);
        pos.to_move = mover.other();
        pos.set_card(placed_on, card);
        pos.occupied |= 1 << placed_on;
        set_owner(&mut pos, 1 << placed_on, mover);
        let mut out = Captures {
            placed_on,
            cell: placed_on,
            ..Captures::default()
        };
        if let Some(w) = t.wall_at[placed_on as usize] {
            if w.label.activated_by(t.cards[card as usize].power) {
                rotate(&mut pos, w.line());
                out.rotated = true;
                out.cell = w.line()[1];
            }
        }
        let cell = out.cell as usize;
        let r = &t.rules;
        let ranks = |id: u8| t.cards[id as usize].ranks;
        let theirs = |p: &Position, n: u8| {
            n != EDGE && p.occupied >> n & 1 == 1 && (p.blue >> n & 1 == 1) != (mover == Player::Blue)
        };
        let occupied = |n: u8| n != EDGE && pos.occupied >> n & 1 == 1;
        let mine = ranks(card);
        let facing = |s: usize| ranks(pos.card(t.nb[cell][s]))[(s + 2) & 3];
        if r.same {
            let mut count = 0;
            for (s, &rank) in mine.iter().enumerate() {
                let n = t.nb[cell][s];
                if occupied(n) && facing(s) == rank {
                    count += 1;
                    out.same_matches |= 1 << n;
                } else if n == EDGE && r.same_wall && rank == 10 {
                    count += 1;
                }
            }
            if count >= r.same_min_matches {
                for n in bits(out.same_matches).filter(|&n| theirs(&pos, n)) {
                    out.same |= 1 << n;
                }
            }
        }
        if r.plus {
            let sum = |s: usize| {
                let n = t.nb[cell][s];
                if occupied(n) {
                    Some(mine[s] + facing(s))
                } else if n == EDGE && r.plus_wall {
                    Some(mine[s] + 10)
                } else {
                    None
                }
            };
            for s in 0..4 {
                let n = t.nb[cell][s];
                if theirs(&pos, n) && (0..4).any(|o| o != s && sum(o) == sum(s)) {
                    out.plus |= 1 << n;
                }
            }
        }
        let special = out.same | out.plus;
        for s in 0..4 {
            let n = t.nb[cell][s];
            if theirs(&pos, n) && special >> n & 1 == 0 {
                let other = pos.card(n);
                if t.effective(card, cell as u8)[s] > t.effective(other, n)[(s + 2) & 3] {
                    out.basic |= 1 << n;
                } else if r.battle && mine[s] == facing(s) {
                    let (a, b) = (mine.iter().sum::<u8>(), ranks(other).iter().sum::<u8>());
                    if a > b {
                        out.battle |= 1 << n;
                    } else if b > a {
                        out.placed_lost = true;
                    }
                }
            }
        }
        set_owner(&mut pos, special | out.basic | out.battle, mover);
        if out.placed_lost {
            set_owner(&mut pos, 1 << cell, mover.other());
        }
        let mut frontier = if r.combo {
            special | if r.combo_from_basic { out.basic } else { 0 }
        } else {
            0
        };
        while frontier != 0 {
            let mut next = 0;
            for c in bits(frontier) {
                for s in 0..4 {
                    let n = t.nb[c as usize][s];
                    let attack = t.effective(pos.card(c), c)[s];
                    if theirs(&pos, n) && attack > t.effective(pos.card(n), n)[(s + 2) & 3] {
                        next |= 1 << n;
                    }
                }
            }
            set_owner(&mut pos, next, mover);
            out.combo |= next;
            frontier = next;
        }
        (pos, out)
    }

    /// The resolution equals the literal reading of the rules on every move of many random games.
    #[test]
    fn resolution_equals_the_literal_rules() {
        let mut rng = Rng::new(5);
        for round in 0..3000 {
            let mut g = TripleTriad::new(&random_setup(&mut rng)).unwrap();
            while !g.is_over() {
                let moves = g.legal_moves();
                for mv in moves.iter() {
                    let id = g.pos.hand_card(g.pos.to_move, mv.card).unwrap();
                    let mut got = g.pos;
                    let captures = place(&g.table, &mut got, id, mv.cell);
                    let want = reference(&g.table, &g.pos, id, mv.cell);
                    assert_eq!((got, captures), want, "round {round}, {:?}, move {mv}", g.setup());
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                g.play(mv).unwrap();
            }
        }
    }

    /// The basic fast path and the full resolution agree on every move of many random games
    /// (bordered and borderless, with and without elements).
    #[test]
    fn the_fast_basic_path_equals_the_full_resolution() {
        let mut rng = Rng::new(12);
        for seed in 0..200 {
            let rules = Rules {
                borderless: seed % 2 == 0,
                elemental: seed % 3 == 0,
                elemental_clamp: seed % 5 != 0,
                ..Rules::default()
            };
            let mut setup = Setup::random_ff8(seed).with_rules(rules);
            setup.elements = core::array::from_fn(|_| (rng.below(3) == 0).then(|| Element::ALL[rng.below(9) as usize]));
            let mut g = TripleTriad::new(&setup).unwrap();
            assert!(g.table.basic_only);
            // Combo alone (without Same or Plus, from which it spreads) takes what the basic rule
            // takes, on a table derived for the full resolution.
            let combo = Rules { combo: true, ..rules };
            let full_table = TripleTriad::new(&setup.clone().with_rules(combo)).unwrap().table;
            assert!(!full_table.basic_only);
            while !g.is_over() {
                let moves = g.legal_moves();
                for mv in moves.iter() {
                    let id = g.pos.hand_card(g.pos.to_move, mv.card).unwrap();
                    let fast = place_basic(&g.table, g.pos, id, mv.cell);
                    let mut full = g.pos;
                    let mover = full.to_move;
                    full.hands &= !(1 << id);
                    full.to_move = mover.other();
                    full.set_card(mv.cell, id);
                    full.occupied |= 1 << mv.cell;
                    set_owner(&mut full, 1 << mv.cell, mover);
                    resolve_full(&full_table, &mut full, id, mv.cell, mover);
                    assert_eq!(fast, full, "seed {seed}, move {mv}");
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                g.play(mv).unwrap();
            }
        }
    }
}

//! Plain-data setups (the JSON form of the conformance cases) and their validation.

use alloc::string::String;
use alloc::vec::Vec;

use super::board::{bits, FULL};
use super::card::{Card, Element};
use super::cards::FF8_CARDS;
use super::position::{Player, Position, RoundTable, NO_DRAW};
use super::rules::{Rules, RulesError, Wall};
use crate::Rng;

/// A card on the board with its owner.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Placed {
    /// The card.
    pub card: Card,
    /// Whose colour it shows.
    pub owner: Player,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Placed, deny_unknown = false;
    card: Card => serde::Deserialize::deserialize;
    owner: Player => serde::Deserialize::deserialize;
);

/// Both hands, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Hands {
    /// Blue's hand.
    pub blue: Vec<Card>,
    /// Red's hand.
    pub red: Vec<Card>,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Hands, deny_unknown = false;
    blue: Vec<Card> => serde::Deserialize::deserialize, default;
    red: Vec<Card> => serde::Deserialize::deserialize, default;
);

impl Hands {
    /// `player`'s hand.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn get(&self, player: Player) -> &Vec<Card> {
        match player {
            Player::Blue => &self.blue,
            Player::Red => &self.red,
        }
    }

    /// Two hands of five distinct FF8 cards drawn from `seed`, each with levels totalling at most
    /// `level_limit` when one is given (a deck limit such as the `mush` preset's 20); `None` when
    /// no hand can meet the limit (below 5).
    ///
    /// ```
    /// use arbiter_core::tripletriad::Hands;
    /// let h = Hands::random_ff8(7, Some(20)).unwrap();
    /// assert!(h.blue.iter().map(|c| c.level as u32).sum::<u32>() <= 20);
    /// assert_eq!(h.red.len(), 5);
    /// assert!(Hands::random_ff8(7, Some(4)).is_none());
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn random_ff8(seed: u64, level_limit: Option<u32>) -> Option<Hands> {
        let [blue, red] = ff8_deal(seed, level_limit)?;
        Some(Hands {
            blue: ff8_hand(blue),
            red: ff8_hand(red),
        })
    }

    /// `player`'s hand, mutably.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn get_mut(&mut self, player: Player) -> &mut Vec<Card> {
        match player {
            Player::Blue => &mut self.blue,
            Player::Red => &mut self.red,
        }
    }
}

/// The indices in [`FF8_CARDS`] of the hands [`Hands::random_ff8`] deals (blue's, red's).
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn ff8_deal(seed: u64, level_limit: Option<u32>) -> Option<[[u8; 5]; 2]> {
    let mut rng = Rng::new(seed);
    // Levels are 1..=10 (eleven cards each), so every limit of 5 or more has hands; rejection
    // keeps the draw uniform among them and needs about eight tries for the limit of 20.
    let limit = level_limit.unwrap_or(u32::MAX);
    if limit < 5 {
        return None;
    }
    let mut deal = || loop {
        let hand = draw_ff8(&mut rng);
        if hand.iter().map(|&i| FF8_CARDS[i as usize].level as u32).sum::<u32>() <= limit {
            return hand;
        }
    };
    let blue = deal();
    Some([blue, deal()])
}

/// The indices in [`FF8_CARDS`] of five distinct cards drawn from `rng`: the first five of a
/// whole shuffle of the list, so that every seed deals the cards it always dealt; on the stack,
/// as bytes.
#[cfg_attr(arbiter_size, optimize(size))]
fn draw_ff8(rng: &mut Rng) -> [u8; 5] {
    let mut ids: [u8; 256] = core::array::from_fn(|i| i as u8);
    rng.shuffle(&mut ids[..FF8_CARDS.len()]);
    [ids[0], ids[1], ids[2], ids[3], ids[4]]
}

/// The drawn cards as a hand. Only these five become `Card`s (each owns its name): building all
/// 110 was most of what a deal once cost.
#[cfg_attr(arbiter_size, optimize(size))]
fn ff8_hand(ids: [u8; 5]) -> Vec<Card> {
    ids.iter().map(|&i| FF8_CARDS[i as usize].card()).collect()
}

#[cfg(feature = "serde")]
#[cfg_attr(arbiter_size, optimize(size))]
fn no_elements(e: &[Option<Element>; 9]) -> bool {
    e.iter().all(Option::is_none)
}

/// Everything needed to start or resume a round, as plain data.
///
/// ```
/// use arbiter_core::tripletriad::{Setup, TripleTriad, Card, Player};
/// let mut s = Setup::default();
/// s.hands.blue = (0..5).map(|i| Card::new("b", [1 + i, 2, 3, 4])).collect();
/// s.hands.red = (0..5).map(|i| Card::new("r", [4, 3, 2, 1 + i])).collect();
/// let g = TripleTriad::new(&s).unwrap();
/// assert_eq!(g.next_player(), Player::Blue);
/// s.hands.red.pop();
/// assert!(TripleTriad::new(&s).is_err()); // nine cards for nine empty cells
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Setup {
    /// The placement rules.
    pub rules: Rules,
    /// Cell elements (`null` or `"none"` for a plain cell).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "no_elements"))]
    pub elements: [Option<Element>; 9],
    /// Power-wall labels (power walls are on when this is non-empty).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub walls: Vec<Wall>,
    /// The nine cells.
    pub board: [Option<Placed>; 9],
    /// Both hands.
    pub hands: Hands,
    /// The player to move.
    pub to_move: Player,
    /// Under Chaos: the hand index the game drew for each coming turn, in turn order; turns
    /// beyond the list may play any card.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub chaos_draws: Vec<u8>,
    /// Under Swap, at round start: the two cards that change hands before play (without it the
    /// hands are taken as already swapped).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub swap: Option<Swap>,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Setup, deny_unknown = false;
    rules: Rules => serde::Deserialize::deserialize, default;
    elements: [Option<Element>; 9] => crate::fixed_array::read, default;
    walls: Vec<Wall> => serde::Deserialize::deserialize, default;
    board: [Option<Placed>; 9] => crate::fixed_array::read;
    hands: Hands => serde::Deserialize::deserialize;
    to_move: Player => serde::Deserialize::deserialize;
    chaos_draws: Vec<u8> => serde::Deserialize::deserialize, default;
    swap: Option<Swap> => serde::Deserialize::deserialize, default;
);

/// FFXIV's Swap: blue's `blue`-th card and red's `red`-th card change hands, each taking the
/// other's slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Swap {
    /// The index in blue's hand.
    pub blue: u8,
    /// The index in red's hand.
    pub red: u8,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Swap, deny_unknown = true;
    blue: u8 => serde::Deserialize::deserialize;
    red: u8 => serde::Deserialize::deserialize;
);

impl Default for Setup {
    /// An empty board, no cards, default rules, blue to move (not valid until hands are dealt).
    #[cfg_attr(arbiter_size, optimize(size))]
    fn default() -> Setup {
        Setup {
            rules: Rules::default(),
            elements: [None; 9],
            walls: Vec::new(),
            board: Default::default(),
            hands: Hands::default(),
            to_move: Player::Blue,
            chaos_draws: Vec::new(),
            swap: None,
        }
    }
}

/// Why a setup cannot be a state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rule options conflict.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A rank outside 1..=10.
    #[error("card {card:?} has rank {rank}: ranks are 1 to 10")]
    Rank {
        /// The card's name.
        card: String,
        /// The bad rank.
        rank: u8,
    },
    /// The hands do not hold one card more than there are empty cells.
    #[error("the hands hold {cards} cards for {empty} empty cells (there must be one card more than empty cells)")]
    CardCount {
        /// Cards in both hands.
        cards: usize,
        /// Empty cells.
        empty: usize,
    },
    /// The player to move holds too few or too many cards.
    #[error("{player} is to move with {mine} cards against {theirs}: the mover holds as many cards as the opponent or one more")]
    TurnOrder {
        /// The player to move.
        player: Player,
        /// Cards the mover holds.
        mine: usize,
        /// Cards the opponent holds.
        theirs: usize,
    },
    /// A wall segment is not on the border.
    #[error("the {side} side of cell {cell} is not on the border of the board")]
    WallNotOnBorder {
        /// The cell.
        cell: u8,
        /// The side.
        side: super::card::Side,
    },
    /// A segment carries two labels.
    #[error("the {side} side of cell {cell} carries more than one label")]
    DuplicateWall {
        /// The cell.
        cell: u8,
        /// The side.
        side: super::card::Side,
    },
    /// A corner cell carries labels on both its edges.
    #[error("corner cell {0} carries more than one wall label")]
    CornerTwoLabels(u8),
    /// `power_walls` on a round given no labels (only a match draws them).
    #[error("power_walls: a match draws the labels from its seed; a round on its own needs them given")]
    PowerWallsUnlabelled,
    /// `chaos_draws` without the Chaos rule.
    #[error("chaos_draws needs the chaos rule")]
    DrawsWithoutChaos,
    /// A Chaos draw names a card the mover of that turn does not hold, or a turn the round does
    /// not have.
    #[error("chaos draw {turn} names card {index}, but that turn's mover holds {hand} cards")]
    BadDraw {
        /// The turn, from 0 (the coming one).
        turn: usize,
        /// The hand index drawn.
        index: u8,
        /// The cards the mover holds then (0 past the last turn).
        hand: usize,
    },
    /// `swap` without the Swap rule.
    #[error("swap needs the swap rule")]
    SwapWithoutRule,
    /// `swap` on a round already begun (Swap happens before play).
    #[error("swap happens at round start: an empty board and five cards each")]
    SwapNotAtStart,
    /// `swap` names a card a hand does not have.
    #[error("swap names blue's card {blue} and red's card {red}: hands hold five cards (0 to 4)")]
    SwapIndex {
        /// Blue's index.
        blue: u8,
        /// Red's index.
        red: u8,
    },
}

/// The elements of [`Setup::draw_elements`].
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn random_elements(rng: &mut Rng) -> [Option<Element>; 9] {
    core::array::from_fn(|_| (rng.below(4) == 0).then(|| Element::ALL[1 + rng.below(8) as usize]))
}

impl Setup {
    /// An empty board with two random hands of five distinct FF8 cards and a random first player,
    /// all drawn from `seed`; default (closed) rules.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn random_ff8(seed: u64) -> Setup {
        let mut rng = Rng::new(seed);
        let blue = ff8_hand(draw_ff8(&mut rng));
        let red = ff8_hand(draw_ff8(&mut rng));
        let to_move = if rng.below(2) == 0 { Player::Blue } else { Player::Red };
        Setup {
            hands: Hands { blue, red },
            to_move,
            ..Setup::default()
        }
    }

    /// The same setup with `rules`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn with_rules(mut self, rules: Rules) -> Setup {
        self.rules = rules;
        self
    }

    /// Draws an element for each cell from `rng`, as the Final Fantasy VIII game does: each cell
    /// independently is elemental with probability 1/4, its element uniform among the eight.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn draw_elements(&mut self, rng: &mut Rng) {
        self.elements = random_elements(rng);
    }

    /// Validates the setup into the round's table and its starting position.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn lay_out(&self) -> Result<(RoundTable, Position), SetupError> {
        self.rules.validate(!self.walls.is_empty())?;
        if self.rules.power_walls && self.walls.is_empty() {
            return Err(SetupError::PowerWallsUnlabelled);
        }
        let mut seen = [None; 9];
        for w in &self.walls {
            if !w.is_on_border() {
                return Err(SetupError::WallNotOnBorder {
                    cell: w.cell,
                    side: w.side,
                });
            }
            match seen[w.cell as usize] {
                Some(side) if side == w.side => return Err(SetupError::DuplicateWall { cell: w.cell, side }),
                Some(_) => return Err(SetupError::CornerTwoLabels(w.cell)),
                None => seen[w.cell as usize] = Some(w.side),
            }
        }
        let placed = self.board.iter().flatten();
        let all = self
            .hands
            .blue
            .iter()
            .chain(&self.hands.red)
            .chain(placed.map(|p| &p.card));
        for card in all {
            if let Some(&rank) = card.ranks.iter().find(|r| !(1..=10).contains(*r)) {
                return Err(SetupError::Rank {
                    card: card.name.clone(),
                    rank,
                });
            }
        }
        let empty = self.board.iter().filter(|c| c.is_none()).count();
        let (nb, nr) = (self.hands.blue.len(), self.hands.red.len());
        if nb + nr != empty + 1 {
            return Err(SetupError::CardCount { cards: nb + nr, empty });
        }
        let (mine, theirs) = match self.to_move {
            Player::Blue => (nb, nr),
            Player::Red => (nr, nb),
        };
        if empty > 0 && !(mine == theirs || mine == theirs + 1) {
            return Err(SetupError::TurnOrder {
                player: self.to_move,
                mine,
                theirs,
            });
        }

        let draws = self.draws(empty)?;
        let mut hands = self.hands.clone();
        if let Some(swap) = self.swap {
            if !self.rules.swap {
                return Err(SetupError::SwapWithoutRule);
            }
            if empty != 9 || nb != 5 || nr != 5 {
                return Err(SetupError::SwapNotAtStart);
            }
            let (i, j) = (swap.blue as usize, swap.red as usize);
            if i >= 5 || j >= 5 {
                return Err(SetupError::SwapIndex {
                    blue: swap.blue,
                    red: swap.red,
                });
            }
            core::mem::swap(&mut hands.blue[i], &mut hands.red[j]);
        }

        // Ids: blue's hand from 0, red's from 5 (a hand's order is its id order), the board's
        // cards in the ids left over.
        let mut slots: [Option<Card>; 10] = Default::default();
        for (i, c) in hands.blue.iter().enumerate() {
            slots[i] = Some(c.clone());
        }
        for (i, c) in hands.red.iter().enumerate() {
            slots[5 + i] = Some(c.clone());
        }
        let mut pos = Position {
            cells: 0,
            occupied: 0,
            blue: 0,
            hands: ((1 << nb) - 1) | (((1 << nr) - 1) << 5),
            to_move: self.to_move,
        };
        let in_hand = pos.hands;
        let mut free = (0..10u8).filter(|&i| in_hand & (1 << i) == 0);
        for (cell, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                let id = free.next().expect("ten cards in all");
                slots[id as usize] = Some(p.card.clone());
                pos.set_card(cell as u8, id);
                pos.occupied |= 1 << cell;
                if p.owner == Player::Blue {
                    pos.blue |= 1 << cell;
                }
            }
        }
        let cards: Vec<Card> = slots.into_iter().map(|c| c.expect("ten cards in all")).collect();
        debug_assert_eq!(cards.len(), 10);
        debug_assert_eq!(bits(pos.occupied).count() + empty, 9);
        debug_assert!(pos.occupied <= FULL);
        let mut table = RoundTable::new(self.rules, cards, self.elements, self.walls.clone());
        table.set_draws(draws);
        Ok((table, pos))
    }

    /// The Chaos draws by the number of empty cells of their turn (see [`RoundTable::draws`]),
    /// each checked against the hand its turn's mover will hold.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn draws(&self, empty: usize) -> Result<[u8; 10], SetupError> {
        let mut draws = [NO_DRAW; 10];
        if self.chaos_draws.is_empty() {
            return Ok(draws);
        }
        if !self.rules.chaos {
            return Err(SetupError::DrawsWithoutChaos);
        }
        let mut held = [self.hands.blue.len(), self.hands.red.len()];
        let mut mover = self.to_move;
        for (turn, &index) in self.chaos_draws.iter().enumerate() {
            let hand = if turn < empty { held[mover as usize] } else { 0 };
            if index as usize >= hand {
                return Err(SetupError::BadDraw { turn, index, hand });
            }
            draws[empty - turn] = index;
            held[mover as usize] -= 1;
            mover = mover.other();
        }
        Ok(draws)
    }
}

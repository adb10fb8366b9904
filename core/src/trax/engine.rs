//! Trax behind the shared verbs ([`Game`]) and as hosts drive it ([`Engine`]), with its action
//! ids, and its errors as hosts see them ([`Error`]).

use alloc::string::ToString;
use alloc::vec::Vec;
use core::ops::ControlFlow;

use super::{
    ai, tensor, BadNotation, Colour, Move, MoveError, RecordError, Shape, TileLimitError, Trax, UnknownVariant, Variant,
};
use crate::error::{classify, Error, ErrorKind};
use crate::{Budget, Engine, Game, Outcome, Rng};

impl Engine for Trax {
    const NAME: &'static str = "trax";
    const PLAYERS: &'static [Colour] = &[Colour::White, Colour::Red];
    type Level = ai::Level;
    const LEVELS: &'static [&'static str] = &ai::Level::NAMES;

    fn history(&self) -> Vec<Move> {
        Trax::history(self).to_vec()
    }

    fn undo(&mut self) -> Option<Move> {
        Trax::undo(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        Trax::perft(self, depth)
    }

    fn tensor_len(&self) -> usize {
        tensor::len(self.variant())
    }

    fn heap_blocks(&self, mut f: impl FnMut(*const u8, usize)) {
        fn block<T>(v: &Vec<T>) -> (*const u8, usize) {
            (v.as_ptr().cast(), v.capacity() * size_of::<T>())
        }
        let blocks = [
            block(&self.board.grid),
            block(&self.partner),
            block(&self.slot_cell),
            block(&self.history),
            block(&self.turns),
            block(&self.log),
            block(&self.joined),
            block(&self.queue),
        ];
        for (start, bytes) in blocks {
            f(start, bytes);
        }
    }

    /// Read from the state itself: Trax hides nothing (its observation is a copy of the state).
    fn observation_tensor_into(&self, player: Colour, out: &mut [f32]) {
        tensor::write(self, player, out);
    }

    /// Ascending without a sort or a list of moves: the generator scans rows, columns and
    /// shapes in id order.
    fn legal_actions_into(&self, out: &mut Vec<usize>) {
        out.clear();
        // Room for any position's ids at the first call: a batch's lists, grown by doubling
        // as games found more moves, ended up anywhere in memory; reserved at its reset they
        // lie side by side, in the order the games step.
        out.reserve(if self.variant == Variant::EightByEight { 128 } else { 64 });
        if self.offered_ids(out) {
            return;
        }
        self.each_legal(|c| {
            // The span limit keeps every move inside the ids; the check costs nothing.
            out.extend(self.id_of(c.mv));
            ControlFlow::Continue(())
        });
    }

    /// Trax hides nothing: the observation is the state. Without a stop callback the searching
    /// levels spend their node budget in full, so a seed plays the same move everywhere.
    fn choose_level(&self, level: ai::Level, rng: &mut Rng, budget: Budget<'_>) -> Option<Move> {
        ai::choose_at(self, level, rng, budget)
    }
}

classify! {
    Parse: BadNotation, RecordError, UnknownVariant;
    BadArgument: TileLimitError;
}

impl From<MoveError> for Error {
    fn from(e: MoveError) -> Error {
        let kind = match e {
            MoveError::GameOver => ErrorKind::GameOver,
            MoveError::TooManyTiles { .. } | MoveError::TooWide { .. } => ErrorKind::LimitExceeded,
            _ => ErrorKind::IllegalMove,
        };
        Error::new(kind, e.to_string())
    }
}

impl Trax {
    /// How many relative columns (and rows) action ids cover: 0..=9 for 8x8, else 0..1024.
    pub(super) fn action_side(&self) -> usize {
        if self.variant == Variant::EightByEight {
            10
        } else {
            1024
        }
    }

    /// The action id of `mv`: row-major over [`Trax::action_side`] squares, three shapes a cell
    /// in [`Shape::ALL`] order; `None` outside the ids.
    #[inline]
    pub(super) fn id_of(&self, mv: Move) -> Option<usize> {
        let side = self.action_side();
        let (col, row) = (mv.col as usize, mv.row as usize);
        // Shapes are declared in `Shape::ALL` order.
        (mv.col < side as u64 && mv.row < side as u64).then(|| (row * side + col) * 3 + mv.shape as usize)
    }
}

impl Game for Trax {
    type Player = Colour;
    type Move = Move;
    type MoveList = Vec<Move>;
    type MoveError = MoveError;
    type Observation = Trax;

    /// Ids cover relative coordinates up to 1023 (8x8: 0..=9) in both directions, three shapes each.
    fn num_distinct_actions(&self) -> usize {
        let side = self.action_side();
        side * side * 3
    }

    fn to_move(&self) -> Option<Colour> {
        self.result.is_none().then_some(self.to_move)
    }

    /// The legal moves within the tile limit. The state is read, not copied: trial turns of forced
    /// plays go to a copy of the cells of the area and two around it.
    fn legal_moves(&self) -> Vec<Move> {
        // Sized for most positions at once: growing by doubling was a tenth of a research step.
        let mut out = Vec::with_capacity(64);
        self.each_legal(|c| {
            out.push(c.mv);
            ControlFlow::Continue(())
        });
        out
    }

    /// [`Trax::play_explained`] without the report (no cells to collect).
    fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        self.place_turn(mv, None)?;
        self.end_turn();
        Ok(())
    }

    fn play_unchecked(&mut self, mv: Move) {
        let _ = self.play(mv);
    }

    fn is_over(&self) -> bool {
        self.result.is_some()
    }

    fn outcome(&self) -> Option<Outcome<Colour>> {
        self.result
    }

    /// Trax hides nothing: the observation is the state.
    fn observation(&self, _player: Colour) -> Trax {
        self.clone()
    }

    /// ```
    /// use arbiter_core::{ErrorKind, Game};
    /// use arbiter_core::trax::{Move, Trax, Variant};
    /// let g = Trax::new(Variant::EightByEight);
    /// let id = |m: &str| g.action_id(m.parse::<Move>().unwrap());
    /// assert_eq!(id("I1+").unwrap(), (1 * 10 + 9) * 3); // row 1, column 9 of a 10x10 square, shape 0
    /// let err = id("K1+").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::BadArgument);
    /// assert_eq!(err.to_string(), "K1+ has no action id: 8x8 Trax numbers the columns @ to I and the rows 0 to 9");
    /// ```
    fn action_id(&self, mv: Move) -> Result<usize, crate::Error> {
        self.id_of(mv).ok_or_else(|| {
            let last = self.action_side() as u64 - 1;
            crate::Error::new(
                crate::ErrorKind::BadArgument,
                alloc::format!(
                    "{mv} has no action id: {} Trax numbers the columns @ to {} and the rows 0 to {last}",
                    self.variant,
                    super::notation::column_name(last)
                ),
            )
        })
    }

    fn action_move(&self, id: usize) -> Option<Move> {
        let side = self.action_side();
        (id < side * side * 3).then(|| Move {
            col: ((id / 3) % side) as u64,
            row: ((id / 3) / side) as u64,
            shape: Shape::ALL[id % 3],
        })
    }
}

/// `Eq` compares the tiles relative to the area, not the moves that put them (whose order
/// `Debug` shows), so that transposed move orders meet.
impl crate::Transpose for Trax {
    fn position_hash(&self) -> u64 {
        use core::hash::{Hash, Hasher};
        let mut h = crate::frontier::Fnv::new();
        let (cols, rows) = self.size();
        (self.variant(), self.max_tiles(), self.tiles(), cols, rows).hash(&mut h);
        (self.to_move(), self.outcome()).hash(&mut h);
        for r in 1..=rows {
            for c in 1..=cols {
                self.tile_at(c, r).hash(&mut h);
            }
        }
        h.finish()
    }
}

/// A game ends won, lost or drawn: no points.
#[cfg(feature = "std")]
impl crate::arena::Contest for Trax {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trax::Variant;
    use crate::Game;

    /// The research paths against their definitions, along random games of every variant: the
    /// ids listed without a sort are the sorted ids of `legal_moves`, and the tensor read from
    /// the grid a row at a time is the one of `tile_at` for each cell, in both players' colours.
    #[test]
    fn ids_and_tensor_read_as_defined() {
        for seed in 0..60u64 {
            let variant = [Variant::EightByEight, Variant::Unbounded, Variant::Loop][seed as usize % 3];
            let mut g = Trax::new(variant);
            let mut rng = Rng::new(seed);
            let (mut ids, mut row) = (alloc::vec![7], alloc::vec![0.5; g.tensor_len()]);
            while g.tiles() < 60 {
                let mut want: Vec<usize> = g.legal_moves().iter().map(|&m| g.action_id(m).unwrap()).collect();
                want.sort_unstable();
                g.legal_actions_into(&mut ids);
                assert_eq!(ids, want, "seed {seed}: {}", g.tiles());
                let w = tensor::window(variant);
                for p in Trax::PLAYERS.iter().copied() {
                    g.observation_tensor_into(p, &mut row);
                    let (cols, rows) = g.size();
                    for r in 0..w {
                        for c in 0..w {
                            let cell = &row[(r * w + c) * 5..][..5];
                            let shown =
                                (1..w).contains(&r) && (1..w).contains(&c) && c as u32 <= cols && r as u32 <= rows;
                            match g.tile_at(c as u32, r as u32).filter(|_| shown) {
                                Some(t) => {
                                    let edges: Vec<f32> = (0..4).map(|e| f32::from(t.colour(e) == p)).collect();
                                    assert_eq!((cell[0], &cell[1..]), (1.0, &edges[..]), "seed {seed}");
                                }
                                None => assert_eq!(cell, [0.0; 5], "seed {seed}"),
                            }
                        }
                    }
                }
                let Some(&id) = ids.get(rng.below(ids.len() as u64) as usize) else {
                    break;
                };
                g.play(g.action_move(id).unwrap()).unwrap();
            }
        }
    }
}

//! Trax as hosts drive it ([`Engine`]), and its errors as hosts see them ([`Error`]).

use alloc::string::ToString;
use alloc::vec::Vec;
use core::ops::ControlFlow;

use super::{ai, tensor, BadNotation, Colour, Move, MoveError, RecordError, TileLimitError, Trax, UnknownVariant};
use crate::error::{classify, Error, ErrorKind};
use crate::{Budget, Engine, Rng};

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

    /// Read from the state itself: Trax hides nothing (its observation is a copy of the state).
    fn observation_tensor_into(&self, player: Colour, out: &mut [f32]) {
        tensor::write(self, player, out);
    }

    /// Ascending without a sort or a list of moves: the generator scans rows, columns and
    /// shapes in id order.
    fn legal_actions_into(&self, out: &mut Vec<usize>) {
        out.clear();
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

//! Trax as hosts drive it ([`Engine`]), and its errors as hosts see them ([`Error`]).

use alloc::string::ToString;
use alloc::vec::Vec;

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

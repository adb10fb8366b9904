//! Triple Triad as hosts drive it ([`Engine`]), and its errors as hosts see them ([`Error`]).

use alloc::string::ToString;
use alloc::vec::Vec;

use super::{ai, tensor, BadLabel, BadMove, MatchError, Move, MoveError, Player, RulesError, SetupError};
use super::{TradeNotAllowed, TripleTriad, UnknownElement, UnknownPlayer, UnknownTradeRule};
use crate::error::{classify, Error, ErrorKind};
use crate::{Budget, Engine, Game, Rng};

impl Engine for TripleTriad {
    const NAME: &'static str = "triple-triad";
    const PLAYERS: &'static [Player] = &Player::BOTH;
    type Level = ai::Level;
    const LEVELS: &'static [&'static str] = &ai::Level::NAMES;

    #[cfg_attr(arbiter_size, optimize(size))]
    fn history(&self) -> Vec<Move> {
        TripleTriad::history(self).collect()
    }

    fn undo(&mut self) -> Option<Move> {
        TripleTriad::undo(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        TripleTriad::perft(self, depth)
    }

    fn tensor_len(&self) -> usize {
        tensor::LEN
    }

    fn observation_tensor_into(&self, player: Player, out: &mut [f32]) {
        tensor::write_state(self, player, out);
    }

    /// Ascending without a sort: card-major ids (`card * 9 + cell`), cells in order.
    fn legal_actions_into(&self, out: &mut Vec<usize>) {
        tensor::legal_actions_into(self, out);
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn choose_level(&self, level: ai::Level, rng: &mut Rng, budget: Budget<'_>) -> Option<Move> {
        self.to_move()
            .and_then(|p| ai::choose_within(&self.observation(p), level, rng, budget))
    }
}

classify! {
    Parse: BadMove, UnknownPlayer, UnknownElement, UnknownTradeRule, BadLabel;
    BadArgument: RulesError, SetupError, TradeNotAllowed;
}

impl From<MoveError> for Error {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from(e: MoveError) -> Error {
        let kind = match e {
            MoveError::GameOver => ErrorKind::GameOver,
            _ => ErrorKind::IllegalMove,
        };
        Error::new(kind, e.to_string())
    }
}

impl From<MatchError> for Error {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from(e: MatchError) -> Error {
        use MatchError::*;
        match e {
            Move(m) => m.into(),
            Setup(s) => s.into(),
            Trade(t) => t.into(),
            HandSize { .. } | SuddenDeathRule(_) | RoundLimit | Time(_) | DeckLevel { .. } | Saved(_) => {
                Error::new(ErrorKind::BadArgument, e.to_string())
            }
            NotOver | AlreadySettled | BadPicks(_) => Error::new(ErrorKind::IllegalMove, e.to_string()),
        }
    }
}

/// `Eq` compares the setups: the hash is the setup's.
impl crate::Transpose for TripleTriad {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn position_hash(&self) -> u64 {
        crate::frontier::hash_of(&self.setup())
    }
}

/// A round ends with no points to share.
#[cfg(feature = "std")]
impl crate::arena::Contest for TripleTriad {}

//! Nantong as hosts drive it ([`Engine`]), and its errors as hosts see them ([`Error`]).

use alloc::string::ToString;
use alloc::vec::Vec;

use super::{ai, tensor, Action, BadAction, Nantong, NantongError, NoSuchSeat, ScoreError, Seat, UnknownCard};
use crate::error::{classify, Error, ErrorKind};
use crate::{Budget, Engine, Game, Rng};

impl Engine for Nantong {
    const NAME: &'static str = "nantong";
    const PLAYERS: &'static [Seat] = &Seat::ALL;
    type Level = ai::Level;
    const LEVELS: &'static [&'static str] = &ai::Level::NAMES;
    const RETURNS_POINTS: bool = true;

    /// `0`, `1` or `2` (or `seat 1`, as seats display).
    fn player(name: &str) -> Result<Seat, Error> {
        let n = name.trim();
        let n = n.strip_prefix("seat").map_or(n, str::trim_start);
        match n {
            "0" | "1" | "2" => Ok(Self::PLAYERS[(n.as_bytes()[0] - b'0') as usize]),
            _ => Err(Error::new(
                ErrorKind::Parse,
                alloc::format!("unknown seat {name:?} (expected 0, 1 or 2)"),
            )),
        }
    }

    fn history(&self) -> Vec<Action> {
        Nantong::history(self).iter().map(|&(_, a)| a).collect()
    }

    fn undo(&mut self) -> Option<Action> {
        Nantong::undo(self).map(|(_, a)| a)
    }

    fn perft(&self, depth: u32) -> u64 {
        crate::game::perft(self, depth)
    }

    fn tensor_len(&self) -> usize {
        tensor::LEN
    }

    fn observation_tensor_into(&self, seat: Seat, out: &mut [f32]) {
        tensor::write(&self.seen(seat), out);
    }

    /// Each seat's net settlement in points (0 for all while the deal goes on).
    fn returns(&self) -> Vec<f64> {
        match self.score() {
            Some(s) => s.settlement.iter().map(|&p| p as f64).collect(),
            None => alloc::vec![0.0; 3],
        }
    }

    /// `pass` in a claim window and `finish` in the preparation (a seat that lets its clock run
    /// out claims nothing and declares nothing), after a draw the drawn card, else the first
    /// discard offered.
    fn timeout_move(&self) -> Option<Action> {
        use super::Phase;
        let actions = self.actions();
        let drawn = match self.phase() {
            Phase::AfterDraw { drawn, .. } => Some(Action::Discard(drawn)),
            _ => None,
        };
        [Some(Action::Pass), Some(Action::Finish), drawn]
            .into_iter()
            .flatten()
            .find(|a| actions.contains(a))
            .or_else(|| actions.iter().copied().find(|a| matches!(a, Action::Discard(_))))
            .or_else(|| actions.first().copied())
    }

    /// The levels do no search (a few microseconds a choice): the budget changes nothing.
    fn choose_level(&self, level: ai::Level, rng: &mut Rng, _budget: Budget<'_>) -> Option<Action> {
        let seat = self.to_move()?;
        ai::choose_at(&self.observation(seat), level, rng)
    }
}

classify! {
    Parse: BadAction, UnknownCard;
    BadArgument: ScoreError, NoSuchSeat;
}

impl From<NantongError> for Error {
    fn from(e: NantongError) -> Error {
        let kind = match e {
            NantongError::Over => ErrorKind::GameOver,
            NantongError::BadDeck => ErrorKind::BadArgument,
            NantongError::OutOfTurn { .. } | NantongError::Illegal { .. } => ErrorKind::IllegalMove,
        };
        Error::new(kind, e.to_string())
    }
}

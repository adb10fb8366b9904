//! How a match ended: the reason, the winners and each seat's outcome, as the table decides it,
//! the database stores it and `match_over` tells it.

use serde::{Deserialize, Serialize};

/// How a seat ended a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatOutcome {
    Won,
    Lost,
    Drawn,
    Dnf,
}

impl SeatOutcome {
    pub fn name(self) -> &'static str {
        match self {
            SeatOutcome::Won => "won",
            SeatOutcome::Lost => "lost",
            SeatOutcome::Drawn => "drawn",
            SeatOutcome::Dnf => "dnf",
        }
    }
}

/// Why a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Finished,
    Forfeit,
}

/// The end of a match (stored as its JSON, and read back at a restart).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub reason: EndReason,
    pub winners: Vec<usize>,
    pub outcome: Vec<SeatOutcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i64>>,
    pub left: Option<usize>,
}

impl Ending {
    /// A finished game whose winners are `winners` (none: a draw for all; several: a shared
    /// first place, won by each of them).
    pub(crate) fn finished(seats: usize, winners: Vec<usize>, scores: Option<Vec<i64>>) -> Ending {
        let outcome = (0..seats)
            .map(|s| match () {
                _ if winners.is_empty() => SeatOutcome::Drawn,
                _ if winners.contains(&s) => SeatOutcome::Won,
                _ => SeatOutcome::Lost,
            })
            .collect();
        Ending {
            reason: EndReason::Finished,
            winners,
            outcome,
            scores,
            left: None,
        }
    }

    /// `left` left a running match: it did not finish, every other seat wins.
    pub fn forfeit(seats: usize, left: usize, dnf: bool) -> Ending {
        let winners: Vec<usize> = (0..seats).filter(|&s| s != left).collect();
        let gave_up = if dnf { SeatOutcome::Dnf } else { SeatOutcome::Lost };
        let outcome = (0..seats)
            .map(|s| if s == left { gave_up } else { SeatOutcome::Won })
            .collect();
        Ending {
            reason: EndReason::Forfeit,
            winners,
            outcome,
            scores: None,
            left: Some(left),
        }
    }
}

//! A match's game as the server holds it: the core's state behind one interface for the three
//! games — play a move given in notation or as an action id, the timeout move, a computer
//! player's choice, each seat's view and the public view, and the ending. Nothing here decides
//! a rule: every verdict is the core's; the server only says whose turn it is to ask.

mod nantong;
mod trax;
mod tripletriad;

use std::fmt::Display;
use std::str::FromStr;

use arbiter_core::{Budget, Engine, Rng};
use serde::Serialize;
use serde_json::Value;

use crate::error::Code;

/// The three games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    TripleTriad,
    Trax,
    Nantong,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [GameKind::TripleTriad, GameKind::Trax, GameKind::Nantong];

    pub fn name(self) -> &'static str {
        match self {
            GameKind::TripleTriad => arbiter_core::tripletriad::TripleTriad::NAME,
            GameKind::Trax => arbiter_core::trax::Trax::NAME,
            GameKind::Nantong => arbiter_core::nantong::Nantong::NAME,
        }
    }

    pub fn parse(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|g| g.name() == name)
    }

    pub fn seats(self) -> usize {
        match self {
            GameKind::TripleTriad => arbiter_core::tripletriad::TripleTriad::PLAYERS.len(),
            GameKind::Trax => arbiter_core::trax::Trax::PLAYERS.len(),
            GameKind::Nantong => arbiter_core::nantong::Nantong::PLAYERS.len(),
        }
    }

    pub fn levels(self) -> &'static [&'static str] {
        match self {
            GameKind::TripleTriad => arbiter_core::tripletriad::TripleTriad::LEVELS,
            GameKind::Trax => arbiter_core::trax::Trax::LEVELS,
            GameKind::Nantong => arbiter_core::nantong::Nantong::LEVELS,
        }
    }

    /// What `welcome` says of the game.
    pub fn describe(self) -> Value {
        let mut v = serde_json::json!({"seats": self.seats(), "levels": self.levels()});
        let extra = match self {
            GameKind::TripleTriad => tripletriad::describe(),
            GameKind::Trax => trax::describe(),
            GameKind::Nantong => nantong::describe(),
        };
        if let (Some(v), Value::Object(extra)) = (v.as_object_mut(), extra) {
            v.extend(extra);
        }
        v
    }

    /// Checks a challenge's options, and returns them as stored.
    pub fn check_options(self, options: &Value, time: u32) -> Result<Value, String> {
        // Building the table is the check: the core refuses what it cannot play.
        match self {
            GameKind::TripleTriad => tripletriad::check_challenge(options, time)?,
            _ => {
                Table::new(self, options, 0, time)?;
            }
        }
        Ok(options.clone())
    }
}

/// A move as a client sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Notation(String),
    Action(u64),
}

/// Why a move was refused: an error code of the protocol and the core's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: Code,
    pub message: String,
}

impl Refusal {
    fn bad_move(message: impl Display) -> Refusal {
        Refusal {
            code: Code::BadMove,
            message: message.to_string(),
        }
    }

    fn over() -> Refusal {
        Refusal {
            code: Code::MatchOver,
            message: "the match is over".into(),
        }
    }

    fn illegal(message: impl Display) -> Refusal {
        Refusal {
            code: Code::IllegalMove,
            message: message.to_string(),
        }
    }
}

/// A move played, as stored and told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub notation: String,
    pub action: u64,
}

pub use crate::ending::Ending;

/// The game of a live match.
#[derive(Clone)]
pub enum Table {
    TripleTriad(Box<tripletriad::TtTable>),
    Trax(Box<trax::TraxTable>),
    Nantong(Box<nantong::NtTable>),
}

impl Table {
    /// A new match of `game` under `options` from `seed`; `time` is the seconds a move.
    pub fn new(game: GameKind, options: &Value, seed: u64, time: u32) -> Result<Table, String> {
        Ok(match game {
            GameKind::TripleTriad => Table::TripleTriad(Box::new(tripletriad::TtTable::new(options, seed, time)?)),
            GameKind::Trax => Table::Trax(Box::new(trax::TraxTable::new(options)?)),
            GameKind::Nantong => Table::Nantong(Box::new(nantong::NtTable::new(options, seed)?)),
        })
    }

    /// The seat to act; `None` once over.
    pub fn to_move(&self) -> Option<usize> {
        match self {
            Table::TripleTriad(t) => t.to_move(),
            Table::Trax(t) => t.to_move(),
            Table::Nantong(t) => t.to_move(),
        }
    }

    /// Plays for the seat to act, or says why not (and changes nothing).
    pub fn play(&mut self, input: &Input) -> Result<Played, Refusal> {
        match self {
            Table::TripleTriad(t) => t.play(input),
            Table::Trax(t) => t.play(input),
            Table::Nantong(t) => t.play(input),
        }
    }

    /// The core's move for a seat whose clock ran out.
    pub fn timeout_move(&self) -> Option<Input> {
        match self {
            Table::TripleTriad(t) => t.timeout_move(),
            Table::Trax(t) => t.timeout_move(),
            Table::Nantong(t) => t.timeout_move(),
        }
        .map(Input::Notation)
    }

    /// A computer player's move at `level`, from its own observation, within `budget`.
    pub fn choose(&self, level: &str, rng: &mut Rng, budget: Budget<'_>) -> Option<Input> {
        match self {
            Table::TripleTriad(t) => t.choose(level, rng, budget),
            Table::Trax(t) => t.choose(level, rng, budget),
            Table::Nantong(t) => t.choose(level, rng, budget),
        }
        .map(Input::Notation)
    }

    /// What `seat` sees.
    pub fn seat_view(&self, seat: usize) -> Value {
        match self {
            Table::TripleTriad(t) => t.seat_view(seat),
            Table::Trax(t) => t.view(),
            Table::Nantong(t) => t.seat_view(seat),
        }
    }

    /// What no seat hides: the spectators' view.
    pub fn public_view(&self) -> Value {
        match self {
            Table::TripleTriad(t) => t.public_view(),
            Table::Trax(t) => t.view(),
            Table::Nantong(t) => t.public_view(),
        }
    }

    /// The core's Triple Triad match, for the stakes.
    pub fn tt_match(&self) -> Option<&arbiter_core::tripletriad::Match> {
        match self {
            Table::TripleTriad(t) => Some(t.core()),
            _ => None,
        }
    }

    /// The ending, once the game is over.
    pub fn ending(&self) -> Option<Ending> {
        match self {
            Table::TripleTriad(t) => t.ending(),
            Table::Trax(t) => t.ending(),
            Table::Nantong(t) => t.ending(),
        }
    }
}

/// The move `input` names in `game`: notation through the core's parser, an id through its
/// action numbering.
fn parse<G: Engine>(game: &G, input: &Input) -> Result<G::Move, Refusal>
where
    <G::Move as FromStr>::Err: Display,
{
    match input {
        Input::Notation(text) => text.parse().map_err(Refusal::bad_move),
        Input::Action(id) => usize::try_from(*id)
            .ok()
            .and_then(|id| game.action_move(id))
            .ok_or_else(|| Refusal::bad_move(format!("no action has id {id} in this position"))),
    }
}

/// Plays `input` in `game` by the core's rules: parsed, numbered, then played.
fn play_game<G: Engine>(game: &mut G, input: &Input) -> Result<Played, Refusal>
where
    <G::Move as FromStr>::Err: Display,
{
    let mv = parse(game, input)?;
    let p = played(game, mv);
    game.play(mv).map_err(Refusal::illegal)?;
    Ok(p)
}

/// `mv` as stored and told: its notation and its id.
fn played<G: Engine>(game_before: &G, mv: G::Move) -> Played {
    Played {
        notation: mv.to_string(),
        action: game_before.action_id(mv).map_or(0, |id| id as u64),
    }
}

/// A computer player's choice in `game` at `level`.
fn choose<G: Engine>(game: &G, level: &str, rng: &mut Rng, budget: Budget<'_>) -> Option<String> {
    game.choose_within(level, rng, budget)
        .ok()
        .flatten()
        .map(|m| m.to_string())
}

/// `value` serialised; the core's observations always serialise.
fn to_value(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

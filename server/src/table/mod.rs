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
use serde::de::DeserializeOwned;
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

    /// What `welcome` says of the game: the core's description of its options (`options`),
    /// and the lists read from it that `welcome` gave before.
    pub fn describe(self) -> Value {
        let d = arbiter_core::games::describe(self.name()).expect("every game the server hosts is the core's");
        let mut v = serde_json::json!({"seats": self.seats(), "levels": self.levels(), "options": to_value(&d)});
        let summary = match self {
            GameKind::TripleTriad => tripletriad::summary(&d),
            GameKind::Trax => trax::summary(&d),
            GameKind::Nantong => nantong::summary(&d),
        };
        if let (Some(v), Value::Object(summary)) = (v.as_object_mut(), summary) {
            v.extend(summary);
        }
        v
    }

    /// Checks a challenge's options, and returns them as stored.
    pub fn check_options(self, options: &Value, time: u32) -> Result<Value, String> {
        // Building the table is the check: the core refuses what it cannot play.
        match self {
            GameKind::TripleTriad => tripletriad::check_challenge(options, time)?,
            _ => {
                Hosted::new(self, options, 0, time)?;
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
pub use tripletriad::{ffxiv_dealt, random_hands, resolved};

/// The game of a live match, as the server hosts it.
#[derive(Clone)]
pub enum Hosted {
    TripleTriad(Box<tripletriad::HostedTt>),
    Trax(Box<trax::HostedTrax>),
    Nantong(Box<nantong::HostedNantong>),
}

impl Hosted {
    /// A new match of `game` under `options` from `seed`; `time` is the seconds a move.
    pub fn new(game: GameKind, options: &Value, seed: u64, time: u32) -> Result<Hosted, String> {
        Ok(match game {
            GameKind::TripleTriad => Hosted::TripleTriad(Box::new(tripletriad::HostedTt::new(options, seed, time)?)),
            GameKind::Trax => Hosted::Trax(Box::new(trax::HostedTrax::new(options)?)),
            GameKind::Nantong => Hosted::Nantong(Box::new(nantong::HostedNantong::new(options, seed)?)),
        })
    }

    /// The seat to act; `None` once over.
    pub fn to_move(&self) -> Option<usize> {
        match self {
            Hosted::TripleTriad(t) => t.to_move(),
            Hosted::Trax(t) => t.to_move(),
            Hosted::Nantong(t) => t.to_move(),
        }
    }

    /// Plays for the seat to act, or says why not (and changes nothing).
    pub fn play(&mut self, input: &Input) -> Result<Played, Refusal> {
        match self {
            Hosted::TripleTriad(t) => t.play(input),
            Hosted::Trax(t) => t.play(input),
            Hosted::Nantong(t) => t.play(input),
        }
    }

    /// The core's move for a seat whose clock ran out.
    pub fn timeout_move(&self) -> Option<Input> {
        match self {
            Hosted::TripleTriad(t) => t.timeout_move(),
            Hosted::Trax(t) => t.timeout_move(),
            Hosted::Nantong(t) => t.timeout_move(),
        }
        .map(Input::Notation)
    }

    /// The move the server plays at once for the seat to act, whoever sits there: a Nantong
    /// `pass` that is the only answer to a claim question.
    pub fn forced_move(&self) -> Option<Input> {
        match self {
            Hosted::Nantong(t) => t.forced_pass().map(Input::Notation),
            _ => None,
        }
    }

    /// Whether `input` answers a Nantong claim question with `pass`: told no sooner than the
    /// claim pause after the question, like the server's own forced pass.
    pub fn is_claim_pass(&self, input: &Input) -> bool {
        match self {
            Hosted::Nantong(t) => t.is_pass(input),
            _ => false,
        }
    }

    /// A computer player's move at `level`, from its own observation, within `budget`.
    pub fn choose(&self, level: &str, rng: &mut Rng, budget: Budget<'_>) -> Option<Input> {
        match self {
            Hosted::TripleTriad(t) => t.choose(level, rng, budget),
            Hosted::Trax(t) => t.choose(level, rng, budget),
            Hosted::Nantong(t) => t.choose(level, rng, budget),
        }
        .map(Input::Notation)
    }

    /// What `seat` sees.
    pub fn seat_view(&self, seat: usize) -> Value {
        match self {
            Hosted::TripleTriad(t) => t.seat_view(seat),
            Hosted::Trax(t) => t.view(),
            Hosted::Nantong(t) => t.seat_view(seat),
        }
    }

    /// What no seat hides: the spectators' view.
    pub fn public_view(&self) -> Value {
        match self {
            Hosted::TripleTriad(t) => t.public_view(),
            Hosted::Trax(t) => t.view(),
            Hosted::Nantong(t) => t.public_view(),
        }
    }

    /// The core's Triple Triad match, for the stakes.
    pub fn tt_match(&self) -> Option<&arbiter_core::tripletriad::Match> {
        match self {
            Hosted::TripleTriad(t) => Some(t.core()),
            _ => None,
        }
    }

    /// The ending, once the game is over.
    pub fn ending(&self) -> Option<Ending> {
        match self {
            Hosted::TripleTriad(t) => t.ending(),
            Hosted::Trax(t) => t.ending(),
            Hosted::Nantong(t) => t.ending(),
        }
    }
}

/// A challenge's options read as the core's `C` (an unknown field refused), apart from the
/// fields named `server`, the server's own, returned as they were.
fn read_options<C: DeserializeOwned>(options: &Value, server: &[&str]) -> Result<(C, Value), String> {
    let mut core = options.clone();
    let mut own = serde_json::Map::new();
    if let Some(fields) = core.as_object_mut() {
        for name in server {
            if let Some(v) = fields.remove(*name) {
                own.insert((*name).to_owned(), v);
            }
        }
    }
    let core = serde_json::from_value(core).map_err(|e| format!("options: {e}"))?;
    Ok((core, Value::Object(own)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn welcome_offers_the_cores_options_and_their_defaults() {
        for game in GameKind::ALL {
            let d = arbiter_core::games::describe(game.name()).unwrap();
            let said = game.describe();
            assert_eq!(said["options"], to_value(&d), "{}", game.name());
            for o in &d.options {
                let values = o.kind.values();
                let listed = match o.name {
                    "preset" => &said["presets"],
                    "variant" => &said["variants"],
                    "sudden_death" | "rules" => &said[o.name],
                    _ => continue,
                };
                let listed: Vec<&str> = listed.as_array().unwrap().iter().filter_map(Value::as_str).collect();
                assert!(values.iter().all(|v| listed.contains(v)), "{}: {listed:?}", o.name);
            }
        }
        // What an empty options object makes is what the core declares by default.
        let Hosted::Trax(t) = Hosted::new(GameKind::Trax, &json!({}), 1, 60).unwrap() else {
            unreachable!()
        };
        let declared = arbiter_core::trax::describe();
        let default = match &declared.option("variant").unwrap().kind {
            arbiter_core::options::Kind::Choice { default, .. } => *default,
            _ => None,
        };
        assert_eq!(t.view()["observation"]["variant"].as_str(), default);
    }

    #[test]
    fn the_servers_fields_stay_apart_from_the_cores() {
        assert!(Hosted::new(GameKind::Trax, &json!({"colour": 1}), 1, 60).is_err());
        assert!(Hosted::new(GameKind::Trax, &json!({"max_tiles": 0}), 1, 60).is_err());
        assert!(Hosted::new(GameKind::Nantong, &json!({"deals": 17}), 1, 60).is_err());
        assert!(Hosted::new(GameKind::TripleTriad, &json!({"preset": "mush", "words": "x"}), 1, 60).is_ok());
        let e = GameKind::TripleTriad
            .check_options(&json!({"trade": "one", "stake": {"trade": "one"}}), 60)
            .unwrap_err();
        assert!(e.contains("the stake names the trade"), "{e}");
    }

    /// FFXIV's presets and flags come from the core's declaration: every flag is accepted, the
    /// core's refusals are the server's, and a seat's view under Three Open shows three of the
    /// opponent's five (the other two are `null`).
    #[test]
    fn ffxiv_challenges_take_the_cores_flags_and_refusals() {
        let tt = GameKind::TripleTriad;
        let rules = json!({"three_open": true, "chaos": true, "swap": true, "sudden_death": true,
            "reverse": true, "fallen_ace": true, "ascension": true, "same": true, "plus": true,
            "combo": true, "random": true, "roulette": true, "draft": true});
        tt.check_options(&json!({"preset": "ffxiv", "rules": rules}), 60)
            .unwrap();
        for bad in [
            json!({"preset": "ffxiv", "rules": {"three_open": true, "all_open": true}}),
            json!({"preset": "ffxiv", "rules": {"order": true, "chaos": true}}),
            json!({"preset": "ffxiv", "rules": {"ascension": true, "descension": true}}),
            json!({"preset": "ffxiv", "rules": {"sudden_death": true}, "sudden_death": "shuffle"}),
        ] {
            assert!(tt.check_options(&bad, 60).is_err(), "{bad}");
        }
        let three = json!({"preset": "ffxiv", "rules": {"three_open": true}});
        for seed in 0..8 {
            let Hosted::TripleTriad(t) = Hosted::new(tt, &three, seed, 60).unwrap() else {
                unreachable!()
            };
            for seat in 0..2 {
                let view = t.seat_view(seat);
                let theirs = view["observation"]["opponent_hand"].as_array().unwrap();
                assert_eq!(theirs.iter().filter(|c| !c.is_null()).count(), 3, "{view}");
            }
        }
    }

    /// The hands the server deals (a computer's, any seat nobody brings cards to) are the core's
    /// for the preset: FFXIV decks under `ffxiv`, FF8 hands under the others.
    #[test]
    fn the_ffxiv_preset_deals_ffxiv_cards() {
        use arbiter_core::tripletriad::{dealt_hands, ffxiv, preset};
        for (name, ffxiv_cards) in [("ffxiv", true), ("ff8", false)] {
            for seed in 0..8 {
                let Hosted::TripleTriad(t) =
                    Hosted::new(GameKind::TripleTriad, &json!({"preset": name}), seed, 60).unwrap()
                else {
                    unreachable!()
                };
                let setup = t.core().game().setup();
                let dealt = dealt_hands(&preset(name).unwrap(), seed).unwrap();
                assert_eq!(setup.hands, dealt, "{name} {seed}");
                let from_ffxiv = setup
                    .hands
                    .blue
                    .iter()
                    .chain(&setup.hands.red)
                    .all(|c| ffxiv::card(&c.name).is_some());
                assert_eq!(from_ffxiv, ffxiv_cards, "{name} {seed}");
            }
        }
    }
}

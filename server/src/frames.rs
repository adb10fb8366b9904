//! The frames the server writes whose shape is fixed (PROTOCOL.md's "Server → client"), typed:
//! those who tell build them, and the text interface reads back the ones it renders. What is
//! free JSON stays so: a game's view, a challenge's options, a game's description.

use arbiter_economy::Spectators;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::accounts::User;
use crate::ending::Ending;
use crate::error::Code;

/// A frame the server writes: an answer (with the request's `re` added) or an event.
#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Frame {
    /// The answer to `hello`: what this server is and the limits it keeps.
    Welcome {
        protocol: u32,
        server: String,
        limits: Limits,
        /// Each game's options, as the core describes them, by name.
        games: serde_json::Map<String, Value>,
    },
    Authenticated {
        user: User,
        token: String,
        /// The page's language the account keeps; absent until one is chosen.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        language: Option<String>,
    },
    /// The answer to `language`: the language now kept.
    Language {
        language: String,
    },
    Pong {
        time: i64,
    },
    /// A page of the lobby (each list's entries within the page's bytes), and where the next
    /// starts.
    Lobby {
        online: Vec<User>,
        /// The computer players one may challenge by name (the same on every page).
        robots: Vec<Value>,
        challenges: Vec<Value>,
        matches: Vec<Value>,
        after: Option<String>,
        next: Option<String>,
        limit: usize,
    },
    Presence {
        user: User,
        online: bool,
    },
    Stats {
        user: User,
        games: serde_json::Map<String, Value>,
    },
    ChallengeCreated {
        challenge: ChallengeView,
    },
    Accepted {
        challenge: i64,
        seat: usize,
    },
    ChallengeClosed {
        challenge: i64,
        reason: Closing,
    },
    /// Every seat of `challenge` is taken: the people in `waiting` name their five by `until`
    /// (ms since the epoch, `remaining_ms` from when it was sent); nobody is told what anyone
    /// picked.
    Picking {
        challenge: ChallengeView,
        until: i64,
        remaining_ms: i64,
        waiting: Vec<String>,
    },
    /// The asker's five for `challenge` are named (`pick`).
    Picked {
        challenge: i64,
    },
    ChallengeOpen {
        challenge: ChallengeView,
    },
    MatchStarted {
        #[serde(rename = "match")]
        summary: MatchSummary,
        seat: Option<usize>,
    },
    MatchState(Box<MatchState>),
    Moved {
        #[serde(rename = "match")]
        match_id: i64,
        #[serde(flatten)]
        record: MoveRecord,
        view: Value,
        to_move: Option<usize>,
        deadline: Option<i64>,
        remaining_ms: Option<i64>,
    },
    MatchOver {
        #[serde(rename = "match")]
        match_id: i64,
        result: Ending,
    },
    MatchListed {
        #[serde(rename = "match")]
        summary: MatchSummary,
    },
    MatchUnlisted {
        #[serde(rename = "match")]
        match_id: i64,
    },
    /// A page of a match's moves.
    History {
        #[serde(rename = "match")]
        match_id: i64,
        ply: usize,
        from: usize,
        moves: Vec<MoveRecord>,
    },
    /// A seat left a running match: as "did not finish", or as a plain loss.
    Left {
        #[serde(rename = "match")]
        match_id: i64,
        dnf: bool,
    },
    /// A move of a broadcast match, shown to the whole lobby.
    MatchBroadcast {
        #[serde(rename = "match")]
        match_id: i64,
        game: String,
        seats: Vec<SeatView>,
        ply: u64,
        seat: usize,
        #[serde(rename = "move")]
        notation: String,
        view: Value,
        to_move: Option<usize>,
    },
    MatchSpectators {
        #[serde(rename = "match")]
        match_id: i64,
        spectators: Spectators,
        by: User,
    },
    /// The end of watching: asked for, or (with a reason) imposed by the server.
    Unspectated {
        #[serde(rename = "match")]
        match_id: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// Who did what `reason` says (the page words it from the two).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<User>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// The winner of a match with stakes chooses `count` cards by `deadline`.
    TtChoose {
        #[serde(rename = "match")]
        match_id: i64,
        chooser: i64,
        count: u8,
        deadline: i64,
    },
    TtSettled {
        #[serde(rename = "match")]
        match_id: i64,
        moved: Vec<CardMoved>,
        kept: Vec<String>,
    },
    Error {
        code: Code,
        message: String,
    },
    /// A line of a chat room, or a page (`to`).
    Chat(ChatLine),
    /// The last lines of a room, told on joining it.
    ChatHistory {
        #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
        match_id: Option<i64>,
        lines: Vec<ChatLine>,
    },
    /// A chat line was sent: everyone in the room (its sender too) hears it as a `chat`.
    ChatSent {},
    ChatSilenced {
        #[serde(rename = "match")]
        match_id: i64,
        silenced: bool,
        by: User,
    },
    /// The server's own commands typed in a chat (the answer to `!aide`).
    ChatCommands {
        commands: Vec<String>,
    },
    QuizQuestion {
        #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
        match_id: Option<i64>,
        number: u64,
        question: crate::quiz::Question,
        deadline: i64,
    },
    QuizAnswered {
        #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
        match_id: Option<i64>,
        number: u64,
        by: User,
        answer: String,
        scores: Vec<Score>,
    },
    QuizTimeout {
        #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
        match_id: Option<i64>,
        number: u64,
        answer: String,
    },
    QuizScores {
        #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
        match_id: Option<i64>,
        scores: Vec<Score>,
    },
}

impl Frame {
    pub fn json(&self) -> Value {
        serde_json::to_value(self).expect("a frame is JSON")
    }
}

/// A match as a seat (or a spectator, `seat` null) sees it, with its last moves.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct MatchState {
    #[serde(rename = "match")]
    pub summary: MatchSummary,
    pub seat: Option<usize>,
    pub view: Value,
    pub ply: usize,
    pub from: usize,
    pub moves: Vec<MoveRecord>,
    pub to_move: Option<usize>,
    pub deadline: Option<i64>,
    pub remaining_ms: Option<i64>,
    pub result: Option<Ending>,
}

/// A move as the lists of a match give it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub ply: u64,
    pub seat: usize,
    #[serde(rename = "move")]
    pub notation: String,
    pub action: u64,
    pub timeout: bool,
}

/// A match as the lobby lists it.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct MatchSummary {
    pub id: i64,
    pub game: String,
    pub options: Value,
    /// The whole rules as data, for clients to word (`crate::rules::data`).
    #[serde(default)]
    pub rules: Value,
    pub time: u32,
    pub private: bool,
    pub spectators: Spectators,
    pub seats: Vec<SeatView>,
    pub ply: usize,
    pub status: MatchStatus,
    pub started: i64,
    pub challenge: Option<i64>,
}

/// The limits `welcome` announces: the operator's and the protocol's fixed ones.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_frame: usize,
    pub rate_per_s: u32,
    pub burst: u32,
    pub min_time: u32,
    pub max_time: u32,
    pub recent_moves: usize,
    pub history_max: usize,
    pub max_challenges: u32,
    pub max_matches: u32,
    pub lobby_page: usize,
    pub max_options: usize,
    pub max_words: usize,
}

/// Why a challenge left the lobby: also the status its row keeps.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Closing {
    Refused,
    Withdrawn,
    Started,
    /// Every seat taken, someone still to name their five: the picking window runs.
    Picking,
    /// The picking window ran out and someone had no hand to play: nothing was staked.
    PickTimeout,
}

impl Closing {
    /// The status column's word (the frame's `reason`).
    pub fn status(self) -> &'static str {
        match self {
            Closing::Refused => "refused",
            Closing::Withdrawn => "withdrawn",
            Closing::Started => "started",
            Closing::Picking => "picking",
            Closing::PickTimeout => "pick_timeout",
        }
    }
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum MatchStatus {
    Running,
    Over,
}

/// Who sits in a seat of a match.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatView {
    Player {
        name: String,
        user: i64,
    },
    /// `name`: the robot of that level, where it has one.
    Computer {
        level: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
}

impl SeatView {
    /// The seat as the text game names it.
    pub fn sitter(&self) -> String {
        match self {
            SeatView::Player { name, .. } => name.clone(),
            SeatView::Computer { level, name: None } => format!("the computer ({level})"),
            SeatView::Computer {
                level,
                name: Some(name),
            } => format!("{name} (the computer, {level})"),
        }
    }
}

/// A challenge as the lobby lists it.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct ChallengeView {
    pub id: i64,
    pub game: String,
    pub options: Value,
    /// The whole rules as data, for clients to word (`crate::rules::data`).
    #[serde(default)]
    pub rules: Value,
    pub time: u32,
    pub private: bool,
    pub spectators: Spectators,
    pub by: User,
    pub seats: Vec<ChallengeSeat>,
    pub created: i64,
}

/// A seat of a challenge: `taken` once someone sits in it.
#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChallengeSeat {
    /// A named player's (invited).
    Player { name: String, taken: bool },
    /// Anyone's, with who took it.
    Open { taken: bool, name: Option<String> },
    /// `name`: the robot of that level, where it has one.
    Computer {
        level: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
}

/// A line of a chat room (`match` absent: the lobby's), or a page to the player `to`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<i64>,
    pub from: User,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    pub text: String,
    pub pose: bool,
    pub time: i64,
}

/// A player's points in a room's quiz.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Score {
    pub name: String,
    pub points: u32,
}

/// A card that changed hands at a settlement.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct CardMoved {
    pub id: i64,
    /// Its id and name.
    pub card: String,
    pub from: String,
    pub to: String,
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::Frame;

    /// PROTOCOL.md's examples of these frames (those written as whole JSON) are read as frames
    /// and written back the same: the document and the types say one thing.
    #[test]
    fn protocol_md_examples_are_frames() {
        let e = serde_json::from_str::<Frame>(r#"{"type": "?"}"#)
            .unwrap_err()
            .to_string();
        let types = e.split("expected one of ").nth(1).expect("serde lists the variants");
        let mut read = 0;
        for line in include_str!("../PROTOCOL.md").lines() {
            let Ok(Value::Object(mut example)) = serde_json::from_str(line.trim()) else {
                continue;
            };
            let Some(Value::String(ty)) = example.get("type") else {
                continue;
            };
            // A request of the same type (`history`, `stats`) carries an `id`.
            if !types.contains(&format!("`{ty}`")) || example.contains_key("id") {
                continue;
            }
            example.remove("re");
            let example = Value::Object(example);
            let frame: Frame = serde_json::from_value(example.clone()).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(frame.json(), example, "{line}");
            read += 1;
        }
        assert!(read >= 12, "{read} examples");
    }
}

//! The messages clients send (PROTOCOL.md), and the checks every frame passes before it is one.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Code, Failure};

/// The protocol version this server speaks.
pub const VERSION: u32 = 1;

/// The most bytes a connection's write buffer holds (its `max_write_buffer_size`): a frame that
/// does not fit is never written, and the socket would drop without a close or a reason.
pub(crate) const WRITE_MAX: usize = 256 * 1024;

/// The largest frame written: the buffer's room less what may wait in it unflushed (its 4 KiB
/// `write_buffer_size`) and a frame header, with room to spare.
pub(crate) const FRAME_OUT_MAX: usize = WRITE_MAX - 8 * 1024;

/// A seat as a challenge asks for it.
#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SeatRequest {
    Me,
    Player { name: String },
    Open,
    Computer { level: String },
}

/// A client's request.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    Hello {
        protocol: u32,
        #[serde(default)]
        client: Option<String>,
    },
    Register {
        name: String,
        password: String,
        /// The page's language to keep in the new account.
        #[serde(default)]
        language: Option<String>,
    },
    Login {
        name: String,
        password: String,
    },
    Resume {
        token: String,
    },
    Logout {},
    /// Keeps the page's language in the account (restored by `authenticated`).
    Language {
        language: String,
    },
    /// A page of the lobby: the first, or the one after an earlier page's `next`.
    Lobby {
        #[serde(default)]
        after: Option<String>,
        /// Entries of each list at most (the server's maximum when larger).
        #[serde(default)]
        limit: Option<u32>,
    },
    Challenge {
        game: String,
        #[serde(default)]
        options: Option<Value>,
        #[serde(default)]
        seats: Option<Vec<SeatRequest>>,
        #[serde(default)]
        time: Option<u32>,
        #[serde(default)]
        private: bool,
        /// Every card played is shown to the whole lobby (not with `private`).
        #[serde(default)]
        broadcast: bool,
        /// The five cards the challenger plays in a Triple Triad game that plays picked hands,
        /// by id (kept from the challenge's view, unlike `options.deck`).
        #[serde(default)]
        cards: Option<Vec<String>>,
    },
    Accept {
        challenge: i64,
        /// The deck a Triple Triad challenge that plays picked hands is accepted with.
        #[serde(default)]
        deck: Option<String>,
        /// Or the five cards, by id.
        #[serde(default)]
        cards: Option<Vec<String>>,
    },
    /// The five cards played, named in a challenge's picking window: a deck or five card ids.
    Pick {
        challenge: i64,
        #[serde(default)]
        deck: Option<String>,
        #[serde(default)]
        cards: Option<Vec<String>>,
    },
    Refuse {
        challenge: i64,
    },
    Withdraw {
        challenge: i64,
    },
    Move {
        #[serde(rename = "match")]
        match_id: i64,
        #[serde(default, rename = "move")]
        notation: Option<String>,
        #[serde(default)]
        action: Option<u64>,
        #[serde(default)]
        ply: Option<u64>,
    },
    Leave {
        #[serde(rename = "match")]
        match_id: i64,
    },
    Spectate {
        #[serde(rename = "match")]
        match_id: i64,
    },
    Unspectate {
        #[serde(rename = "match")]
        match_id: i64,
    },
    Sync {
        #[serde(rename = "match")]
        match_id: i64,
    },
    /// A page of a match's move list: `count` moves (at most the server's maximum) from index
    /// `from`.
    History {
        #[serde(rename = "match")]
        match_id: i64,
        #[serde(default)]
        from: u64,
        #[serde(default)]
        count: Option<u64>,
    },
    /// A seated player changes who may watch the running match.
    Spectators {
        #[serde(rename = "match")]
        match_id: i64,
        spectators: arbiter_economy::Spectators,
    },
    Stats {
        #[serde(default)]
        name: Option<String>,
    },
    Ping {},
    /// A chat line: to a match's room, to the player `to` (a page), or else to the lobby's.
    Chat {
        #[serde(default, rename = "match")]
        match_id: Option<i64>,
        #[serde(default)]
        to: Option<String>,
        text: String,
        /// An action (`Cloud waves`) rather than words.
        #[serde(default)]
        pose: bool,
    },
    /// A seated player silences the spectators of the match's chat, or lets them speak again.
    ChatSilence {
        #[serde(rename = "match")]
        match_id: i64,
        silenced: bool,
    },
    /// The card economy's requests (`tt_*`), read by [`parse`] through their own enum.
    #[serde(skip_deserializing)]
    Cards(CardRequest),
}

/// A request of the card economy (PROTOCOL.md's "Card economy").
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", deny_unknown_fields)]
pub enum CardRequest {
    #[serde(rename = "tt_wallet")]
    Wallet {},
    #[serde(rename = "tt_starter")]
    Starter {},
    #[serde(rename = "tt_stash")]
    Stash {},
    #[serde(rename = "tt_decks")]
    Decks {},
    #[serde(rename = "tt_deck")]
    Deck {
        op: DeckOp,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        cards: Vec<String>,
    },
    #[serde(rename = "tt_shop")]
    Shop {
        #[serde(default)]
        series: Option<char>,
        #[serde(default)]
        level: Option<u8>,
    },
    #[serde(rename = "tt_buy")]
    Buy {
        #[serde(default)]
        series: Option<char>,
        #[serde(default)]
        level: Option<u8>,
        #[serde(default)]
        card: Option<String>,
    },
    #[serde(rename = "tt_custom")]
    Custom {
        name: String,
        level: u8,
        ranks: [u8; 4],
        #[serde(default = "no_element")]
        element: String,
        #[serde(default)]
        text: String,
    },
    #[serde(rename = "tt_suggest")]
    Suggest { level: u8 },
    #[serde(rename = "tt_win_list")]
    WinList {
        #[serde(rename = "match")]
        match_id: i64,
    },
    #[serde(rename = "tt_choose")]
    Choose {
        #[serde(rename = "match")]
        match_id: i64,
        picks: Vec<String>,
    },
}

fn no_element() -> String {
    "none".into()
}

/// What a `tt_deck` does.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DeckOp {
    Create,
    Delete,
    Add,
    Remove,
    Check,
}

/// Every request type but the card economy's, for telling an unknown type from a malformed
/// known one.
const TYPES: [&str; 23] = [
    "hello",
    "register",
    "login",
    "resume",
    "logout",
    "language",
    "lobby",
    "challenge",
    "accept",
    "pick",
    "refuse",
    "withdraw",
    "move",
    "leave",
    "spectate",
    "unspectate",
    "sync",
    "history",
    "spectators",
    "stats",
    "ping",
    "chat",
    "chat_silence",
];

/// The card economy's request types.
const CARD_TYPES: [&str; 11] = [
    "tt_wallet",
    "tt_starter",
    "tt_stash",
    "tt_decks",
    "tt_deck",
    "tt_shop",
    "tt_buy",
    "tt_custom",
    "tt_suggest",
    "tt_win_list",
    "tt_choose",
];

/// A frame read: its `id` to echo (if any), and the request or why it is not one.
pub fn parse(text: &str) -> (Option<Value>, Result<Request, Failure>) {
    let mut value: Value = match serde_json::from_str(text) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => return (None, Err(Failure::new(Code::BadJson, "a message is a JSON object"))),
        Err(e) => return (None, Err(Failure::new(Code::BadJson, format!("not JSON: {e}")))),
    };
    let obj = value.as_object_mut().expect("an object");
    let id = match checked_id(obj.remove("id")) {
        Ok(id) => id,
        Err(f) => return (None, Err(f)),
    };
    let ty = match obj.get("type") {
        Some(Value::String(t)) => t.clone(),
        _ => {
            return (
                id,
                Err(Failure::new(Code::BadMessage, "a message has a string \"type\"")),
            )
        }
    };
    let request = if CARD_TYPES.contains(&ty.as_str()) {
        serde_json::from_value(value).map(Request::Cards)
    } else if TYPES.contains(&ty.as_str()) {
        serde_json::from_value(value)
    } else {
        let shown: String = ty.chars().take(40).collect();
        return (
            id,
            Err(Failure::new(
                Code::UnknownType,
                format!("unknown message type {shown:?}"),
            )),
        );
    };
    let request = request.map_err(|e| Failure::new(Code::BadMessage, format!("{ty}: {e}")));
    (id, request)
}

/// The `id` of a frame, if it is a JSON object with a valid one: what a refusal of the whole
/// frame (the rate limit's) echoes as `re`.
pub fn id_of(text: &str) -> Option<Value> {
    // Through a Value, not a struct: serde would read the struct from a sequence too (`[1]`).
    match serde_json::from_str::<Value>(text).ok()? {
        Value::Object(mut frame) => checked_id(frame.remove("id")).ok().flatten(),
        _ => None,
    }
}

/// A request id as given, if it is one: a number, or a string of at most 64 characters.
fn checked_id(id: Option<Value>) -> Result<Option<Value>, Failure> {
    match id {
        None => Ok(None),
        Some(id @ Value::Number(_)) => Ok(Some(id)),
        Some(Value::String(s)) if s.chars().count() <= 64 => Ok(Some(Value::String(s))),
        Some(_) => Err(Failure::new(
            Code::BadMessage,
            "id is a number or a string of at most 64 characters",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_become_requests_or_say_why_not() {
        let (id, r) = parse(r#"{"type":"move","id":7,"match":3,"move":"0@4","ply":2}"#);
        assert_eq!(id, Some(Value::from(7)));
        assert_eq!(
            r.unwrap(),
            Request::Move {
                match_id: 3,
                notation: Some("0@4".into()),
                action: None,
                ply: Some(2)
            }
        );
        assert_eq!(parse("{").1.unwrap_err().code, Code::BadJson);
        assert_eq!(parse("[1]").1.unwrap_err().code, Code::BadJson);
        assert_eq!(parse(r#"{"type":"dance"}"#).1.unwrap_err().code, Code::UnknownType);
        assert_eq!(
            parse(r#"{"type":"move","match":"x"}"#).1.unwrap_err().code,
            Code::BadMessage
        );
        assert_eq!(
            parse(r#"{"type":"ping","extra":1}"#).1.unwrap_err().code,
            Code::BadMessage
        );
        assert_eq!(
            parse(r#"{"type":"ping","id":[1]}"#).1.unwrap_err().code,
            Code::BadMessage
        );
        assert_eq!(parse(r#"{"type":"ping","id":"a"}"#).0, Some(Value::from("a")));
        // The card economy's requests are requests like any other: before this reader, which
        // was the economy's alone, `tt_dance` was a `bad_message` and a `tt_*` echoed any id.
        let (id, r) = parse(r#"{"type":"tt_choose","id":"c","match":3,"picks":["1"]}"#);
        assert_eq!(id, Some(Value::from("c")));
        assert_eq!(
            r.unwrap(),
            Request::Cards(CardRequest::Choose {
                match_id: 3,
                picks: vec!["1".into()]
            })
        );
        assert_eq!(parse(r#"{"type":"tt_dance"}"#).1.unwrap_err().code, Code::UnknownType);
        assert_eq!(parse(r#"{"type":"tt_deck"}"#).1.unwrap_err().code, Code::BadMessage);
        assert_eq!(
            parse(r#"{"type":"tt_wallet","x":1}"#).1.unwrap_err().code,
            Code::BadMessage
        );
        assert_eq!(
            parse(r#"{"type":"tt_wallet","id":[1]}"#).1.unwrap_err().code,
            Code::BadMessage
        );
        assert_eq!(id_of(r#"{"type":"move","id":9,"match":3}"#), Some(Value::from(9)));
        assert_eq!(id_of(r#"{"type":"dance","id":"x"}"#), Some(Value::from("x")));
        assert_eq!(id_of(r#"{"type":"ping","id":[1]}"#), None);
        assert_eq!(id_of(r#"{"type":"ping"}"#), None);
        assert_eq!(id_of("[1]"), None);
        assert_eq!(id_of("{"), None);
        let (_, r) =
            parse(r#"{"type":"challenge","game":"trax","seats":[{"kind":"me"},{"kind":"computer","level":"hard"}]}"#);
        assert!(
            matches!(r.unwrap(), Request::Challenge { seats: Some(s), .. } if s[1] == SeatRequest::Computer { level: "hard".into() })
        );
    }
}

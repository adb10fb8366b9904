//! A refused request: a protocol error code and a message for the client.

use serde::{Deserialize, Serialize};

/// Every code an `error` frame may carry (PROTOCOL.md's tables of error codes, which a test
/// holds to this list). The text interface's refusals take the same codes and show only the
/// message.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    BadJson,
    BadMessage,
    UnknownType,
    HelloFirst,
    ProtocolVersion,
    RateLimited,
    NotAuthenticated,
    AlreadyAuthenticated,
    BadName,
    BadPassword,
    NameTaken,
    LoginFailed,
    BadToken,
    Busy,
    TooManyLogins,
    LoginThrottled,
    BadLanguage,
    NoSuchPlayer,
    BadChallenge,
    NoSuchChallenge,
    NotInvited,
    OwnChallenge,
    NotChallenger,
    NoSuchMatch,
    NotSeated,
    NotYourTurn,
    BadMove,
    IllegalMove,
    StalePly,
    MatchOver,
    TooManyChallenges,
    TooManyMatches,
    ReplyTooLarge,
    PrivateMatch,
    NotInMatch,
    ChatTooLong,
    ChatRateLimited,
    ChatSilenced,
    Internal,
    // The card economy's.
    StarterTaken,
    NoSuchCard,
    NoSuchSeries,
    NotOwned,
    NotInDeck,
    DeckFull,
    DeckExists,
    NoSuchDeck,
    BadDeckName,
    NoCurrentDeck,
    NoDeck,
    DeckUnusable,
    CardAtStake,
    BadStake,
    NotEnoughPoints,
    NotForSale,
    CopyLimit,
    BadCustomCard,
    BadLevel,
    NothingToChoose,
    NotTheWinner,
    BadChoice,
    AlreadySettled,
    TooFewCards,
}

/// What the client is told when its request is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: Code,
    pub message: String,
}

impl Failure {
    pub fn new(code: Code, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }

    /// A failure of the server itself; `what` is logged, the client hears only that nothing changed.
    pub fn internal(what: impl std::fmt::Display) -> Failure {
        tracing::error!("internal: {what}");
        Failure::new(Code::Internal, "the server failed; nothing was changed")
    }
}

impl From<sqlx::Error> for Failure {
    fn from(e: sqlx::Error) -> Failure {
        Failure::internal(format!("database: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::Code;

    /// Every code of the enum, as serde itself lists them when refusing an unknown one.
    fn codes() -> BTreeSet<String> {
        let e = serde_json::from_str::<Code>("\"?\"").unwrap_err().to_string();
        let listed = e.split("expected one of ").nth(1).expect("serde lists the variants");
        listed.split('`').skip(1).step_by(2).map(str::to_owned).collect()
    }

    /// The codes of PROTOCOL.md's tables of error codes: the first cell of each row, every
    /// code quoted in it, but for the reasons of a close, which are no `error` frame.
    fn documented() -> BTreeSet<String> {
        let doc = include_str!("../PROTOCOL.md");
        let mut out = BTreeSet::new();
        let mut in_table = false;
        for line in doc.lines() {
            if line.starts_with("## ") || line.starts_with("### ") {
                in_table = line.contains("Error codes");
                continue;
            }
            let Some(row) = line.strip_prefix("| `").filter(|_| in_table) else {
                continue;
            };
            let (first, when) = row.split_once(" |").expect("a row of two cells");
            if when.contains("not an error frame") {
                continue;
            }
            out.extend(first.split('`').step_by(2).filter(|c| !c.is_empty()).map(str::to_owned));
        }
        out
    }

    #[test]
    fn protocol_md_lists_exactly_the_codes() {
        let codes = codes();
        assert_eq!(codes.len(), 63);
        assert_eq!(documented(), codes);
    }
}

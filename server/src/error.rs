//! A refused request: a protocol error code and a message for the client.

/// What the client is told when its request is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: &'static str,
    pub message: String,
}

impl Failure {
    pub fn new(code: &'static str, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }

    /// A failure of the server itself; `what` is logged, the client hears only that nothing changed.
    pub fn internal(what: impl std::fmt::Display) -> Failure {
        tracing::error!("internal: {what}");
        Failure::new("internal", "the server failed; nothing was changed")
    }
}

impl From<sqlx::Error> for Failure {
    fn from(e: sqlx::Error) -> Failure {
        Failure::internal(format!("database: {e}"))
    }
}

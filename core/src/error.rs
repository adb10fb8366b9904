//! One error type for hosts: a [`ErrorKind`] that the C status codes and the JavaScript error codes
//! share, and the message of the game's own error, word for word.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use core::fmt;

/// How many bytes of a caller's text an error message quotes: a 200 MB bad input must not become
/// a 200 MB message that a host keeps (or a JavaScript heap that never shrinks).
pub const QUOTE_LIMIT: usize = 200;

/// The longest message a binding keeps or throws, in bytes ([`shorten`] to it): the core quotes
/// little of a bad text, but a JSON reader's message may quote a whole string value. The C library
/// and the npm package cut at the same length, so that they say the same words.
pub const MESSAGE_LIMIT: usize = 1024;

/// `text` cut to at most about `max` bytes for a message: whole when it fits, else its start and
/// its end around `…`, cut at character boundaries.
///
/// ```
/// use arbiter_core::shorten;
/// assert_eq!(shorten("B2+", 10), "B2+");
/// assert_eq!(shorten(&"é".repeat(100), 10), "ééé…é");
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn shorten(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let mut head = max * 3 / 4;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - max / 4;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    Cow::Owned([&text[..head], "…", &text[tail..]].concat())
}

/// A caller's text as an error quotes it: [`shorten`] to [`QUOTE_LIMIT`].
#[cfg_attr(arbiter_size, optimize(size))]
pub fn quote(text: &str) -> String {
    shorten(text, QUOTE_LIMIT).into_owned()
}

/// What kind of failure an [`Error`] is. The C library returns it as `ArbiterStatus` and the npm
/// package as `ArbiterError.code`, under the names of [`ErrorKind::name`].
///
/// ```
/// use arbiter_core::ErrorKind;
/// assert_eq!(ErrorKind::IllegalMove.name(), "ILLEGAL_MOVE");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An argument is invalid for this call: a configuration, a seat, a level, a depth.
    BadArgument,
    /// Text or JSON that cannot be read: malformed notation, an unknown name, bad JSON.
    Parse,
    /// A well-formed move that the rules refuse now.
    IllegalMove,
    /// The game (or the match) is over: no move is accepted.
    GameOver,
    /// A documented resource limit (tiles, perft depth, table size) would be exceeded.
    LimitExceeded,
}

impl ErrorKind {
    /// The upper-case name shared by the C and JavaScript APIs.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::BadArgument => "BAD_ARGUMENT",
            ErrorKind::Parse => "PARSE_ERROR",
            ErrorKind::IllegalMove => "ILLEGAL_MOVE",
            ErrorKind::GameOver => "GAME_OVER",
            ErrorKind::LimitExceeded => "LIMIT_EXCEEDED",
        }
    }
}

impl fmt::Display for ErrorKind {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Any error of the engine, classified: its kind and the message of the error it came from.
///
/// Every error type of the games converts into it (`?` works), keeping the message unchanged, so
/// that Rust, C and JavaScript report the same words.
///
/// ```
/// use arbiter_core::{Error, ErrorKind, Game};
/// use arbiter_core::trax::{Trax, Variant};
/// let mut g = Trax::new(Variant::EightByEight);
/// let e: Error = g.play("B2+".parse().unwrap()).unwrap_err().into();
/// assert_eq!(e.kind(), ErrorKind::IllegalMove);
/// assert_eq!(e.to_string(), "the first move must be @0+ or @0/, not B2+");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    /// An error of `kind` with `message`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// Its kind.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Its message.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl core::error::Error for Error {}

/// Classifies error types that are of one kind throughout.
macro_rules! classify {
    ($($kind:ident: $($ty:ty),+;)+) => {$($(
        impl From<$ty> for Error {
            #[cfg_attr(arbiter_size, optimize(size))]
            fn from(e: $ty) -> Error {
                Error::new(ErrorKind::$kind, e.to_string())
            }
        }
    )+)+};
}

pub(crate) use classify;

impl From<crate::level::UnknownLevel> for Error {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from(e: crate::level::UnknownLevel) -> Error {
        Error::new(ErrorKind::BadArgument, e.to_string())
    }
}

/// The indices `0` to `n - 1` as an error message says them: `0, 1 or 2` (bindings and hosts
/// number players, cards and actions from 0; Rust's `0..3` reads wrongly to everyone else).
///
/// ```
/// assert_eq!(arbiter_core::spoken_indices(3), "0, 1 or 2");
/// assert_eq!(arbiter_core::spoken_indices(2), "0 or 1");
/// assert_eq!(arbiter_core::spoken_indices(1), "0");
/// assert_eq!(arbiter_core::spoken_indices(0), "none");
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn spoken_indices(n: usize) -> alloc::string::String {
    use alloc::string::ToString;
    match n {
        0 => "none".into(),
        1 => "0".into(),
        _ => {
            let first: alloc::vec::Vec<_> = (0..n - 1).map(|i| i.to_string()).collect();
            alloc::format!("{} or {}", first.join(", "), n - 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_bad_text_makes_a_short_message() {
        let huge = "Z".repeat(1 << 20);
        let messages = [
            Error::from(huge.parse::<crate::trax::Move>().unwrap_err()),
            Error::from(huge.parse::<crate::tripletriad::Move>().unwrap_err()),
            Error::from(huge.parse::<crate::nantong::Action>().unwrap_err()),
        ];
        for e in messages {
            assert!(e.message().len() < QUOTE_LIMIT + 200, "{} bytes", e.message().len());
            assert!(e.message().contains("ZZZ…ZZZ"), "{}", e.message());
        }
    }

    #[test]
    fn a_short_text_is_quoted_whole() {
        let e = Error::from("B2?".parse::<crate::trax::Move>().unwrap_err());
        assert!(e.message().starts_with("malformed move \"B2?\""), "{}", e.message());
    }
}

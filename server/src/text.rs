//! Text a user typed that other users read (a challenge's words, a custom card's name and text):
//! refused when it is stored if it could act on a screen rather than be read on it, and cleaned
//! again where a text interface shows it, whatever the database holds.

use std::borrow::Cow;

/// A character that may not reach another user's screen: the C0 and C1 controls and DEL
/// (terminal escapes, line breaks, a bell), the line and paragraph separators, and the
/// bidirectional controls that reorder the text after them (a forged line could read as the
/// server's).
pub(crate) fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` as one line of a screen: each unsafe character replaced by a space (a line break
/// would start a line that seems to come from the server).
pub(crate) fn one_line(text: &str) -> Cow<'_, str> {
    if text.chars().any(unsafe_char) {
        Cow::Owned(text.chars().map(|c| if unsafe_char(c) { ' ' } else { c }).collect())
    } else {
        Cow::Borrowed(text)
    }
}

/// Refuses free text with more than `max` characters or an unsafe character (`'\n'` too
/// unless `lines`); `what` names it in the reason.
pub(crate) fn check(what: &str, text: &str, max: usize, lines: bool) -> Result<(), String> {
    let n = text.chars().count();
    if n > max {
        return Err(format!("{what} is {n} characters long: {max} at most"));
    }
    if let Some(c) = text.chars().find(|&c| unsafe_char(c) && !(lines && c == '\n')) {
        return Err(format!(
            "{what} holds the control character U+{:04X}: only printable text is shown to others",
            u32::from(c)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_refused_or_blanked() {
        let forged = "Open\r\nSYSTEM: your password expired\u{1b}]0;pwned\u{7}\u{202E}";
        assert!(check("words", forged, 200, false).unwrap_err().contains("U+000D"));
        assert!(check("words", "Open Same", 200, false).is_ok());
        assert!(check("words", &"x".repeat(201), 200, false)
            .unwrap_err()
            .contains("201"));
        assert!(check("text", "two\nlines", 200, true).is_ok());
        assert!(check("text", "two\r\nlines", 200, true).is_err());
        assert!(check("name", "\u{2067}abc", 30, false).is_err());
        assert!(check("name", "\u{85}abc", 30, false).is_err());
        let shown = one_line(forged);
        assert!(!shown.chars().any(unsafe_char), "{shown:?}");
        assert_eq!(one_line("Open Same"), Cow::Borrowed("Open Same"));
        assert_eq!(one_line("a\u{9b}b"), "a b");
    }
}

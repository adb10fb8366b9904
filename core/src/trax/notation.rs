//! The official Trax notation: moves relative to the bounding box, and a game-record reader.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use super::tile::Shape;

/// A move in official notation: a column (`0` = `@`, 1 = `A`, …), a row (`0` = the empty row above
/// the area, 1 = the top row) and a shape, all relative to the tiles in play before the move.
///
/// ```
/// use arbiter_core::trax::{Move, Shape};
/// let m: Move = "ab12\\".parse().unwrap();
/// assert_eq!(m, Move { col: 28, row: 12, shape: Shape::Backslash });
/// assert_eq!(m.to_string(), "AB12\\");
/// assert_eq!("@0+".parse::<Move>().unwrap().to_string(), "@0+");
/// assert!("A01+".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Move {
    /// 0 for `@`, then bijective base 26 (`A` = 1, `Z` = 26, `AA` = 27); saturates when absurdly large.
    pub col: u64,
    /// 0 for the row above the area, then 1 for the top row; saturates when absurdly large.
    pub row: u64,
    /// The tile's shape.
    pub shape: Shape,
}

/// Malformed move notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed move {text:?}: {why} (expected e.g. @0+, B2/ or AA10\\)")]
pub struct BadNotation {
    /// The text.
    pub text: String,
    /// What is wrong.
    pub why: &'static str,
}

impl FromStr for Move {
    type Err = BadNotation;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |why| BadNotation {
            text: crate::error::quote(s),
            why,
        };
        let b = s.as_bytes();
        let mut i = 0;
        let col = if b.first() == Some(&b'@') {
            i = 1;
            0
        } else {
            let mut v: u64 = 0;
            while i < b.len() && b[i].is_ascii_alphabetic() {
                let d = (b[i].to_ascii_uppercase() - b'A' + 1) as u64;
                v = v.saturating_mul(26).saturating_add(d);
                i += 1;
            }
            if i == 0 {
                return Err(bad("no column"));
            }
            v
        };
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &s[start..i];
        if digits.is_empty() {
            return Err(bad("no row"));
        }
        if digits.len() > 1 && digits.starts_with('0') {
            return Err(bad("a row has no leading zeros"));
        }
        let row = digits
            .bytes()
            .fold(0u64, |v, d| v.saturating_mul(10).saturating_add((d - b'0') as u64));
        let shape = match &b[i..] {
            b"+" => Shape::Straight,
            b"/" => Shape::Slash,
            b"\\" => Shape::Backslash,
            [] => return Err(bad("no tile symbol")),
            _ => return Err(bad("the tile symbol is +, / or \\ and ends the move")),
        };
        Ok(Move { col, row, shape })
    }
}

/// Writes a column: `@` for 0, else bijective base 26.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn write_col(f: &mut impl fmt::Write, col: u64) -> fmt::Result {
    if col == 0 {
        return f.write_char('@');
    }
    let mut letters = [0u8; 16];
    let mut n = col;
    let mut len = 0;
    while n > 0 {
        n -= 1;
        letters[len] = b'A' + (n % 26) as u8;
        n /= 26;
        len += 1;
    }
    for &l in letters[..len].iter().rev() {
        f.write_char(l as char)?;
    }
    Ok(())
}

/// The notation name of column `col`: `@` for 0, `A` for 1, … `Z`, `AA`, ….
///
/// ```
/// use arbiter_core::trax::column_name;
/// assert_eq!(column_name(0), "@");
/// assert_eq!(column_name(28), "AB");
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn column_name(col: u64) -> String {
    let mut s = String::new();
    let _ = write_col(&mut s, col);
    s
}

impl fmt::Display for Move {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_col(f, self.col)?;
        write!(f, "{}{}", self.row, self.shape.symbol())
    }
}

/// A token of a game record that is neither a move nor something the reader skips.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {token:?} is not a move, a move number, a comment, Resign or Time")]
pub struct RecordError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// The token.
    pub token: String,
}

/// Reads the moves of a game record: skips move numbers (`12`, `12.`), comments from `;` to the
/// end of the line, `Resign` and `Time` tokens and header lines (starting with `[` or `#`).
///
/// ```
/// use arbiter_core::trax::read_record;
/// let moves = read_record("[Event \"Club\"]\n1. @0/ B1\\ ; a comment\n2. b2/ Resign").unwrap();
/// assert_eq!(moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["@0/", "B1\\", "B2/"]);
/// let err = read_record("1. @0/ X9?").unwrap_err();
/// assert_eq!((err.line, err.column, err.token.as_str()), (1, 8, "X9?"));
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn read_record(text: &str) -> Result<Vec<Move>, RecordError> {
    let mut moves = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("");
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') || trimmed.starts_with('#') {
            continue;
        }
        let mut offset = 0;
        for token in line.split_whitespace() {
            let at = offset + line[offset..].find(token).unwrap_or(0);
            offset = at + token.len();
            let number = token.trim_end_matches('.');
            if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if token.eq_ignore_ascii_case("resign") || token.eq_ignore_ascii_case("time") {
                continue;
            }
            match token.parse::<Move>() {
                Ok(m) => moves.push(m),
                Err(_) => {
                    return Err(RecordError {
                        line: n + 1,
                        column: line[..at].chars().count() + 1,
                        token: token.into(),
                    })
                }
            }
        }
    }
    Ok(moves)
}

impl super::Trax {
    /// The game of a game record ([`read_record`]) replayed from the empty board of `variant`.
    /// A token that is not a move is a [`RecordError`]; the first move the rules refuse keeps its
    /// own kind (illegal, over the tile limit) and is numbered from 1, as a save's moves are. The
    /// C library and the npm package both read records through here, so they say the same.
    ///
    /// ```
    /// use arbiter_core::ErrorKind;
    /// use arbiter_core::trax::{Trax, Variant};
    /// assert_eq!(Trax::from_record(Variant::Loop, "1. @0/ B1\\").unwrap().tiles(), 2);
    /// let e = Trax::from_record(Variant::EightByEight, "@0+ @0+").unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::IllegalMove);
    /// assert!(e.message().starts_with("move 2: "), "{e}");
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn from_record(variant: super::Variant, text: &str) -> Result<super::Trax, crate::Error> {
        let moves = read_record(text)?;
        super::Trax::replay(variant, &moves).map_err(|(i, e)| {
            let e = crate::Error::from(e);
            crate::Error::new(e.kind(), alloc::format!("move {}: {}", i + 1, e.message()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_bijective_base_26() {
        for (col, text) in [
            (1, "A"),
            (26, "Z"),
            (27, "AA"),
            (28, "AB"),
            (52, "AZ"),
            (53, "BA"),
            (702, "ZZ"),
            (703, "AAA"),
        ] {
            let mut s = String::new();
            write_col(&mut s, col).unwrap();
            assert_eq!(s, text);
            let m: Move = alloc::format!("{text}1+").parse().unwrap();
            assert_eq!(m.col, col);
        }
    }

    #[test]
    fn malformed_moves_are_refused() {
        for bad in [
            "", "+", "A+", "@+", "A1", "A1x", "A1++", "A 1+", "A-1+", "1A+", "@@0+", "A00+",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?}");
        }
        let huge: Move = "A18446744073709551618+".parse().unwrap();
        assert_eq!(huge.row, u64::MAX);
    }
}

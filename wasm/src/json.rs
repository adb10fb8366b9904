//! The package's JSON reader: a serde `Deserializer` over JSON text that refuses what
//! `serde_json::from_str` refuses, with its error texts word for word, line and column included
//! (`conformance/bad-input/` and the JS tests pin them). It reads as `serde_json` does, front to
//! back, so that of two faults the first in the text is the one reported. Why not `serde_json`
//! itself: its parser is generic over the visitor, so each derived reader of the core got its own
//! inlined copy (about 68 KB of Triple Triad alone's module, issue #38); here the parsing is in
//! non-generic functions, and the generic methods only hand their token to the visitor.

use core::fmt;
use serde::de::{self, DeserializeOwned, DeserializeSeed, Expected, Unexpected, Visitor};

/// An error as `serde_json` words it: the message, then its place once known. Boxed, as
/// serde_json's, so that every derived reader moves one word, not five, for each `?`.
pub(crate) struct Error(Box<Fault>);

struct Fault {
    message: String,
    /// Line and column (serde_json's: the column counts the bytes before the place on its line).
    at: Option<(usize, usize)>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)?;
        match self.0.at {
            Some((line, column)) => write!(f, " at line {line} column {column}"),
            None => Ok(()),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl de::StdError for Error {}

impl Error {
    /// An error without a place: apart from `custom`, so that its one copy per message type (the
    /// core's errors, texts, arguments) only hands its message over.
    #[inline(never)]
    fn new(message: fmt::Arguments) -> Error {
        Error(Box::new(Fault {
            message: std::fmt::format(message),
            at: None,
        }))
    }
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Error {
        Error::new(format_args!("{message}"))
    }

    fn invalid_type(unexpected: Unexpected, expected: &dyn Expected) -> Error {
        Error::custom(format_args!("invalid type: {}, expected {expected}", Shown(unexpected)))
    }

    fn invalid_value(unexpected: Unexpected, expected: &dyn Expected) -> Error {
        Error::custom(format_args!(
            "invalid value: {}, expected {expected}",
            Shown(unexpected)
        ))
    }
}

/// An unexpected value as `serde_json` shows it: `null` for the unit, and a float without
/// `core::fmt`'s float formatting, which weighs about 14 KB and which nothing else needs (so serde's
/// own `Display` of `Unexpected`, which would reach it, is not called: the same words, here).
struct Shown<'a>(Unexpected<'a>);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Unexpected::Bool(b) => write!(f, "boolean `{b}`"),
            Unexpected::Unsigned(n) => write!(f, "integer `{n}`"),
            Unexpected::Signed(n) => write!(f, "integer `{n}`"),
            Unexpected::Float(v) => write!(f, "floating point `{}`", float_text(v)),
            Unexpected::Char(c) => write!(f, "character `{c}`"),
            Unexpected::Str(s) => write!(f, "string {s:?}"),
            Unexpected::Bytes(_) => f.write_str("byte array"),
            Unexpected::Unit => f.write_str("null"),
            Unexpected::Option => f.write_str("Option value"),
            Unexpected::NewtypeStruct => f.write_str("newtype struct"),
            Unexpected::Seq => f.write_str("sequence"),
            Unexpected::Map => f.write_str("map"),
            Unexpected::Enum => f.write_str("enum"),
            Unexpected::UnitVariant => f.write_str("unit variant"),
            Unexpected::NewtypeVariant => f.write_str("newtype variant"),
            Unexpected::TupleVariant => f.write_str("tuple variant"),
            Unexpected::StructVariant => f.write_str("struct variant"),
            Unexpected::Other(other) => f.write_str(other),
        }
    }
}

/// `v` as `serde_json` prints it (zmij's shortest form: plain from 1e-5 to below 1e16, with a
/// `.0` when whole, else `1.5e+20`), exactly for whole numbers below 1e16 and every number of at
/// most 15 significant digits; longer ones are rounded to 15 digits.
fn float_text(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    let v = v.abs();
    if v.is_infinite() {
        return format!("{sign}inf");
    }
    if v == 0.0 {
        return format!("{sign}0.0");
    }
    // `digits` with the first digit at 10^exponent.
    let (mut digits, exponent) = if v.fract() == 0.0 && v < 1e16 {
        let digits = (v as u64).to_string();
        let exponent = digits.len() as i32 - 1;
        (digits, exponent)
    } else {
        let mut exponent = 0i32;
        let mut scaled = v;
        while scaled >= 10.0 {
            scaled /= 10.0;
            exponent += 1;
        }
        while scaled < 1.0 {
            scaled *= 10.0;
            exponent -= 1;
        }
        let mut digits = (scaled * 1e14 + 0.5) as u64;
        if digits >= 1_000_000_000_000_000 {
            digits /= 10;
            exponent += 1;
        }
        (digits.to_string(), exponent)
    };
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
    }
    let body = if !(-5..=15).contains(&exponent) {
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        format!("{first}{point}{rest}e{exponent_sign}{}", exponent.unsigned_abs())
    } else if exponent < 0 {
        format!("0.{}{digits}", "0".repeat(exponent.unsigned_abs() as usize - 1))
    } else if exponent as usize + 1 >= digits.len() {
        format!("{digits}{}.0", "0".repeat(exponent as usize + 1 - digits.len()))
    } else {
        let (whole, part) = digits.split_at(exponent as usize + 1);
        format!("{whole}.{part}")
    };
    format!("{sign}{body}")
}

/// `serde_json::from_str`: a `T` from the whole of `text`, nothing but whitespace after it.
pub(crate) fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    let mut reader = Reader {
        text: text.as_bytes(),
        index: 0,
        depth: DEPTH_LIMIT,
    };
    let value = T::deserialize(&mut reader)?;
    reader.end()?;
    Ok(value)
}

/// Arrays and objects nested deeper than this are refused, as `serde_json` does (its limit), so
/// that deep input cannot overflow the stack.
const DEPTH_LIMIT: u8 = 128;

/// A number as read: what the visitor gets.
enum Number {
    Unsigned(u64),
    Signed(i64),
    Float(f64),
}

/// The next value's kind, its scalar already read (the opening bracket of an array or object is
/// not yet eaten, so that an error about its type points before it, as serde_json's does).
enum Token {
    Null,
    Bool(bool),
    Number(Number),
    Text(String),
    Array,
    Object,
}

impl Token {
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Token::Null => Unexpected::Unit,
            Token::Bool(b) => Unexpected::Bool(*b),
            Token::Number(Number::Unsigned(n)) => Unexpected::Unsigned(*n),
            Token::Number(Number::Signed(n)) => Unexpected::Signed(*n),
            Token::Number(Number::Float(n)) => Unexpected::Float(*n),
            Token::Text(s) => Unexpected::Str(s),
            Token::Array => Unexpected::Seq,
            Token::Object => Unexpected::Map,
        }
    }
}

/// The reading position in the text.
pub(crate) struct Reader<'t> {
    text: &'t [u8],
    index: usize,
    /// How many more arrays or objects may open.
    depth: u8,
}

type Result<T, E = Error> = core::result::Result<T, E>;

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.index).copied()
    }

    fn peek_or_null(&self) -> u8 {
        self.peek().unwrap_or(0)
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek();
        self.index += usize::from(c.is_some());
        c
    }

    fn place(&self, index: usize) -> (usize, usize) {
        let before = &self.text[..index];
        let line_start = before.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        let line = 1 + before[..line_start].iter().filter(|&&c| c == b'\n').count();
        (line, index - line_start)
    }

    /// An error at the last byte read.
    #[cold]
    #[inline(never)]
    fn error(&self, message: &str) -> Error {
        self.fix(de::Error::custom(message))
    }

    /// An error at the next byte (the end of the text, past it).
    #[cold]
    #[inline(never)]
    fn peek_error(&self, message: &str) -> Error {
        let mut e: Error = de::Error::custom(message);
        e.0.at = Some(self.place((self.index + 1).min(self.text.len())));
        e
    }

    /// An error of the visitor's, placed where reading stands if it has no place yet.
    #[cold]
    #[inline(never)]
    fn fix(&self, mut e: Error) -> Error {
        if e.0.at.is_none() {
            e.0.at = Some(self.place(self.index));
        }
        e
    }

    fn whitespace(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.index += 1;
        }
        self.peek()
    }

    fn end(&mut self) -> Result<()> {
        match self.whitespace() {
            Some(_) => Err(self.peek_error("trailing characters")),
            None => Ok(()),
        }
    }

    /// The next value's token: a scalar is read whole, an array or object only announced.
    #[inline(never)]
    fn token(&mut self) -> Result<Token> {
        let Some(c) = self.whitespace() else {
            return Err(self.peek_error("EOF while parsing a value"));
        };
        Ok(match c {
            b'n' => {
                self.word(b"null")?;
                Token::Null
            }
            b't' => {
                self.word(b"true")?;
                Token::Bool(true)
            }
            b'f' => {
                self.word(b"false")?;
                Token::Bool(false)
            }
            b'-' => {
                self.index += 1;
                Token::Number(self.integer(false)?)
            }
            b'0'..=b'9' => Token::Number(self.integer(true)?),
            b'"' => {
                self.index += 1;
                Token::Text(self.string()?)
            }
            b'[' => Token::Array,
            b'{' => Token::Object,
            _ => return Err(self.peek_error("expected value")),
        })
    }

    /// The type error of a visitor that wanted something else than the next value, which is read
    /// first (its own syntax errors come first), as serde_json's `peek_invalid_type`.
    #[cold]
    #[inline(never)]
    fn invalid_type(&mut self, token: Token, expected: &dyn Expected) -> Error {
        let e = de::Error::invalid_type(token.unexpected(), expected);
        self.fix(e)
    }

    /// `word` (null, true or false), its first letter seen.
    fn word(&mut self, word: &[u8]) -> Result<()> {
        self.index += 1;
        for &expected in &word[1..] {
            match self.next() {
                None => return Err(self.error("EOF while parsing a value")),
                Some(c) if c != expected => return Err(self.error("expected ident")),
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// A number, its sign read.
    fn integer(&mut self, positive: bool) -> Result<Number> {
        let mut significand = match self.next() {
            None => return Err(self.error("EOF while parsing a value")),
            Some(b'0') => {
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error("invalid number"));
                }
                0
            }
            Some(c @ b'1'..=b'9') => u64::from(c - b'0'),
            Some(_) => return Err(self.error("invalid number")),
        };
        let mut exponent = 0i32;
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            self.index += 1;
            match significand
                .checked_mul(10)
                .and_then(|s| s.checked_add(u64::from(c - b'0')))
            {
                // Past u64: the digits beyond count as powers of ten, as serde_json's.
                Some(s) if exponent == 0 => significand = s,
                _ => exponent += 1,
            }
        }
        if exponent == 0 && !matches!(self.peek_or_null(), b'.' | b'e' | b'E') {
            if positive {
                return Ok(Number::Unsigned(significand));
            }
            let negative = (significand as i64).wrapping_neg();
            // -0 and numbers below i64::MIN are floats, as serde_json's.
            return Ok(if negative >= 0 {
                Number::Float(-(significand as f64))
            } else {
                Number::Signed(negative)
            });
        }
        self.fraction(positive, significand, exponent).map(Number::Float)
    }

    /// The decimals and exponent of a number whose integer digits are read.
    fn fraction(&mut self, positive: bool, mut significand: u64, mut exponent: i32) -> Result<f64> {
        if self.peek_or_null() == b'.' {
            self.index += 1;
            let mut any = false;
            let mut full = false;
            while let c @ b'0'..=b'9' = self.peek_or_null() {
                self.index += 1;
                any = true;
                match significand
                    .checked_mul(10)
                    .and_then(|s| s.checked_add(u64::from(c - b'0')))
                {
                    Some(s) if !full => {
                        significand = s;
                        exponent -= 1;
                    }
                    _ => full = true,
                }
            }
            if !any {
                return Err(match self.peek() {
                    Some(_) => self.peek_error("invalid number"),
                    None => self.peek_error("EOF while parsing a value"),
                });
            }
        }
        if let b'e' | b'E' = self.peek_or_null() {
            self.index += 1;
            let positive_exponent = match self.peek_or_null() {
                b'+' => {
                    self.index += 1;
                    true
                }
                b'-' => {
                    self.index += 1;
                    false
                }
                _ => true,
            };
            let mut e = match self.next() {
                None => return Err(self.error("EOF while parsing a value")),
                Some(c @ b'0'..=b'9') => i32::from(c - b'0'),
                Some(_) => return Err(self.error("invalid number")),
            };
            let mut overflow = false;
            while let c @ b'0'..=b'9' = self.peek_or_null() {
                self.index += 1;
                match e.checked_mul(10).and_then(|x| x.checked_add(i32::from(c - b'0'))) {
                    Some(x) if !overflow => e = x,
                    // serde_json refuses at the digit past i32 (for a number that is not zero).
                    _ if significand != 0 && positive_exponent => return Err(self.error("number out of range")),
                    _ => overflow = true,
                }
            }
            if overflow {
                return Ok(if positive { 0.0 } else { -0.0 });
            }
            exponent = if positive_exponent {
                exponent.saturating_add(e)
            } else {
                exponent.saturating_sub(e)
            };
        }
        let mut f = significand as f64;
        if f != 0.0 {
            let mut power = 1.0;
            for _ in 0..exponent.unsigned_abs().min(400) {
                power *= 10.0;
            }
            if exponent >= 0 {
                f *= power;
                if f.is_infinite() {
                    return Err(self.error("number out of range"));
                }
            } else if power.is_infinite() {
                // Below 1e-308 in two steps, so that the power itself stays finite.
                f /= 1e308;
                for _ in 308..exponent.unsigned_abs().min(700) {
                    f /= 10.0;
                }
            } else {
                f /= power;
            }
        }
        Ok(if positive { f } else { -f })
    }

    /// A string's text, its opening quote read.
    fn string(&mut self) -> Result<String> {
        let mut out = Vec::new();
        self.scan_string(Some(&mut out))?;
        // The text is a `&str` and escapes only add whole characters.
        Ok(String::from_utf8(out).unwrap_or_default())
    }

    /// Reads a string, its opening quote read, into `out`; `None` skips it, which checks less
    /// (no surrogate pairing), as serde_json's skipping does.
    fn scan_string(&mut self, mut out: Option<&mut Vec<u8>>) -> Result<()> {
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error("EOF while parsing a string"));
            };
            match c {
                b'"' => {
                    self.index += 1;
                    return Ok(());
                }
                b'\\' => {
                    self.index += 1;
                    self.escape(out.as_deref_mut())?;
                }
                0..=0x1f => {
                    // serde_json places this error past the character when it reads the string,
                    // on it when it skips the string.
                    self.index += usize::from(out.is_some());
                    return Err(self.error("control character (\\u0000-\\u001F) found while parsing a string"));
                }
                _ => {
                    self.index += 1;
                    if let Some(out) = out.as_deref_mut() {
                        out.push(c);
                    }
                }
            }
        }
    }

    fn escape(&mut self, out: Option<&mut Vec<u8>>) -> Result<()> {
        let c = match self.next() {
            Some(c) => c,
            None => return Err(self.error("EOF while parsing a string")),
        };
        let plain = match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(out),
            _ => return Err(self.error("invalid escape")),
        };
        if let Some(out) = out {
            out.push(plain as u8);
        }
        Ok(())
    }

    fn hex(&mut self) -> Result<u16> {
        let mut n = 0u16;
        let mut valid = true;
        for _ in 0..4 {
            let c = self.next().ok_or_else(|| self.error("EOF while parsing a string"))?;
            match (c as char).to_digit(16) {
                Some(d) => n = n << 4 | d as u16,
                None => valid = false,
            }
        }
        if valid {
            Ok(n)
        } else {
            Err(self.error("invalid escape"))
        }
    }

    fn unicode_escape(&mut self, out: Option<&mut Vec<u8>>) -> Result<()> {
        let n = self.hex()?;
        let Some(out) = out else {
            return Ok(());
        };
        let code = match n {
            0xDC00..=0xDFFF => return Err(self.error("lone leading surrogate in hex escape")),
            0xD800..=0xDBFF => {
                for expected in [b'\\', b'u'] {
                    match self.peek() {
                        None => return Err(self.error("EOF while parsing a string")),
                        Some(c) => {
                            self.index += 1;
                            if c != expected {
                                return Err(self.error("unexpected end of hex escape"));
                            }
                        }
                    }
                }
                let low = self.hex()?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(self.error("lone leading surrogate in hex escape"));
                }
                0x1_0000 + ((u32::from(n) - 0xD800) << 10 | (u32::from(low) - 0xDC00))
            }
            _ => u32::from(n),
        };
        let c = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(())
    }

    /// Skips a value, checking its syntax as serde_json's `ignore_value` does (no depth limit:
    /// it keeps its own stack of open brackets rather than recursing).
    #[inline(never)]
    fn skip(&mut self) -> Result<()> {
        let mut open = Vec::new();
        loop {
            // A value.
            let Some(c) = self.whitespace() else {
                return Err(self.peek_error("EOF while parsing a value"));
            };
            match c {
                b'n' => self.word(b"null")?,
                b't' => self.word(b"true")?,
                b'f' => self.word(b"false")?,
                b'-' | b'0'..=b'9' => {
                    self.index += usize::from(c == b'-');
                    self.skip_number()?;
                }
                b'"' => {
                    self.index += 1;
                    self.scan_string(None)?;
                }
                b'[' | b'{' => {
                    self.index += 1;
                    match (self.whitespace(), c) {
                        (Some(b']'), b'[') | (Some(b'}'), b'{') => self.index += 1,
                        (None, _) => return Err(self.peek_error(eof_in(c))),
                        _ => {
                            open.push(c);
                            if c == b'{' {
                                self.skip_key()?;
                            }
                            continue;
                        }
                    }
                }
                _ => return Err(self.peek_error("expected value")),
            }
            // After a value: a comma and the next, or the closing of what holds it.
            loop {
                let Some(&frame) = open.last() else {
                    return Ok(());
                };
                match self.whitespace() {
                    Some(b',') => {
                        self.index += 1;
                        if frame == b'{' {
                            self.skip_key()?;
                        }
                        break;
                    }
                    Some(b']') if frame == b'[' => {}
                    Some(b'}') if frame == b'{' => {}
                    Some(_) => {
                        return Err(self.peek_error(if frame == b'[' {
                            "expected `,` or `]`"
                        } else {
                            "expected `,` or `}`"
                        }))
                    }
                    None => return Err(self.peek_error(eof_in(frame))),
                }
                self.index += 1;
                open.pop();
            }
        }
    }

    /// An object's key and colon, skipped.
    fn skip_key(&mut self) -> Result<()> {
        match self.whitespace() {
            Some(b'"') => self.index += 1,
            Some(_) => return Err(self.peek_error("key must be a string")),
            None => return Err(self.peek_error("EOF while parsing an object")),
        }
        self.scan_string(None)?;
        self.colon()
    }

    fn skip_number(&mut self) -> Result<()> {
        match self.next() {
            Some(b'0') => {
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error("invalid number"));
                }
            }
            Some(b'1'..=b'9') => {
                while self.peek_or_null().is_ascii_digit() {
                    self.index += 1;
                }
            }
            _ => return Err(self.error("invalid number")),
        }
        if self.peek_or_null() == b'.' {
            self.index += 1;
            if !self.peek_or_null().is_ascii_digit() {
                return Err(self.peek_error("invalid number"));
            }
            while self.peek_or_null().is_ascii_digit() {
                self.index += 1;
            }
        }
        if let b'e' | b'E' = self.peek_or_null() {
            self.index += 1;
            if let b'+' | b'-' = self.peek_or_null() {
                self.index += 1;
            }
            if !self.next().is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.error("invalid number"));
            }
            while self.peek_or_null().is_ascii_digit() {
                self.index += 1;
            }
        }
        Ok(())
    }

    fn colon(&mut self) -> Result<()> {
        match self.whitespace() {
            Some(b':') => {
                self.index += 1;
                Ok(())
            }
            Some(_) => Err(self.peek_error("expected `:`")),
            None => Err(self.peek_error("EOF while parsing an object")),
        }
    }

    /// Opens an array or object (its bracket next), counting the depth.
    fn open(&mut self) -> Result<()> {
        self.depth -= 1;
        if self.depth == 0 {
            return Err(self.peek_error("recursion limit exceeded"));
        }
        self.index += 1;
        Ok(())
    }

    /// Closes an array after its visitor (even one that failed, as serde_json does: the place of
    /// the visitor's error is then past the bracket).
    #[inline(never)]
    fn close_array(&mut self) -> Result<()> {
        self.depth += 1;
        match self.whitespace() {
            Some(b']') => {
                self.index += 1;
                Ok(())
            }
            Some(b',') => {
                self.index += 1;
                match self.whitespace() {
                    Some(b']') => Err(self.peek_error("trailing comma")),
                    _ => Err(self.peek_error("trailing characters")),
                }
            }
            Some(_) => Err(self.peek_error("trailing characters")),
            None => Err(self.peek_error("EOF while parsing a list")),
        }
    }

    /// Closes an object after its visitor, as [`Reader::close_array`].
    #[inline(never)]
    fn close_object(&mut self) -> Result<()> {
        self.depth += 1;
        match self.whitespace() {
            Some(b'}') => {
                self.index += 1;
                Ok(())
            }
            Some(b',') => Err(self.peek_error("trailing comma")),
            Some(_) => Err(self.peek_error("trailing characters")),
            None => Err(self.peek_error("EOF while parsing an object")),
        }
    }

    /// Whether an array has another element, reading the comma before it.
    #[inline(never)]
    fn next_element(&mut self, first: &mut bool) -> Result<bool> {
        let Some(c) = self.whitespace() else {
            return Err(self.peek_error("EOF while parsing a list"));
        };
        if c == b']' {
            return Ok(false);
        }
        if core::mem::take(first) {
            return Ok(true);
        }
        if c != b',' {
            return Err(self.peek_error("expected `,` or `]`"));
        }
        self.index += 1;
        match self.whitespace() {
            Some(b']') => Err(self.peek_error("trailing comma")),
            Some(_) => Ok(true),
            None => Err(self.peek_error("EOF while parsing a value")),
        }
    }

    /// Whether an object has another key (its quote next), reading the comma before it.
    #[inline(never)]
    fn next_key(&mut self, first: &mut bool) -> Result<bool> {
        let Some(c) = self.whitespace() else {
            return Err(self.peek_error("EOF while parsing an object"));
        };
        if c == b'}' {
            return Ok(false);
        }
        let c = if core::mem::take(first) {
            c
        } else if c == b',' {
            self.index += 1;
            match self.whitespace() {
                Some(b'}') => return Err(self.peek_error("trailing comma")),
                Some(c) => c,
                None => return Err(self.peek_error("EOF while parsing a value")),
            }
        } else {
            return Err(self.peek_error("expected `,` or `}`"));
        };
        if c == b'"' {
            Ok(true)
        } else {
            Err(self.peek_error("key must be a string"))
        }
    }

    /// A key's text, its quote next.
    fn key(&mut self) -> Result<String> {
        self.index += 1;
        self.string()
    }
}

fn eof_in(frame: u8) -> &'static str {
    if frame == b'[' {
        "EOF while parsing a list"
    } else {
        "EOF while parsing an object"
    }
}

impl Number {
    fn visit<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Number::Unsigned(n) => visitor.visit_u64(n),
            Number::Signed(n) => visitor.visit_i64(n),
            Number::Float(n) => visitor.visit_f64(n),
        }
    }
}

impl<'de> Reader<'_> {
    fn array<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.compound(visitor, true)
    }

    fn object<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.compound(visitor, false)
    }

    /// An array or object (its bracket next) read by the visitor: one copy per visitor for both
    /// forms of a struct, the closing and the choice of error in non-generic code.
    fn compound<V: Visitor<'de>>(&mut self, visitor: V, array: bool) -> Result<V::Value> {
        self.open()?;
        let visited = if array {
            visitor.visit_seq(Elements {
                reader: self,
                first: true,
            })
        } else {
            visitor.visit_map(Entries {
                reader: self,
                first: true,
            })
        };
        match visited {
            Ok(value) => self.closed(array).map(|()| value),
            Err(e) => Err(self.failed(array, e)),
        }
    }

    /// Closes an array or object after its visitor: the closing's error placed.
    #[inline(never)]
    fn closed(&mut self, array: bool) -> Result<()> {
        let closed = if array { self.close_array() } else { self.close_object() };
        closed.map_err(|e| self.fix(e))
    }

    /// Closes an array or object after its visitor failed, as serde_json does (the place of the
    /// visitor's error is then past the bracket): the visitor's error, placed.
    #[cold]
    #[inline(never)]
    fn failed(&mut self, array: bool, e: Error) -> Error {
        let _ = if array { self.close_array() } else { self.close_object() };
        self.fix(e)
    }

    /// What `take` finds in the next value's token, else the type error for that token. Generic
    /// over what is found only (a text, a number...), not over the visitor: each derived reader's
    /// field or value calls this and hands the result on.
    #[inline(never)]
    fn wanted<T>(&mut self, expected: &dyn Expected, take: fn(Token) -> Result<T, Token>) -> Result<T> {
        let token = self.token()?;
        take(token).map_err(|other| self.invalid_type(other, expected))
    }
}

/// Methods of `Deserializer` that read a number whatever the width asked.
macro_rules! to_i64 {
    ($($name:ident)*) => {$(
        fn $name<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.deserialize_i64(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Reader<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let token = self.token()?;
        let result = match token {
            Token::Null => visitor.visit_unit(),
            Token::Bool(b) => visitor.visit_bool(b),
            Token::Number(n) => n.visit(visitor),
            Token::Text(s) => visitor.visit_string(s),
            Token::Array => self.array(visitor),
            Token::Object => self.object(visitor),
        };
        result.map_err(|e| self.fix(e))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let b = self.wanted(&visitor, |t| match t {
            Token::Bool(b) => Ok(b),
            other => Err(other),
        })?;
        visitor.visit_bool(b).map_err(|e| self.fix(e))
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let n = self.wanted(&visitor, |t| match t {
            Token::Number(n) => Ok(n),
            other => Err(other),
        })?;
        n.visit(visitor).map_err(|e| self.fix(e))
    }

    // A number goes to the visitor as it was read (`Number::visit`), whatever the width asked:
    // the visitor takes it or says why not, as with serde_json.
    to_i64!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_u8 deserialize_u16
        deserialize_u32 deserialize_u64 deserialize_f32 deserialize_f64);

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let s = self.wanted(&visitor, |t| match t {
            Token::Text(s) => Ok(s),
            other => Err(other),
        })?;
        visitor.visit_string(s).map_err(|e| self.fix(e))
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.token()? {
            Token::Text(s) => visitor.visit_byte_buf(s.into_bytes()).map_err(|e| self.fix(e)),
            Token::Array => self.array(visitor),
            other => Err(self.invalid_type(other, &visitor)),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.whitespace() == Some(b'n') {
            self.word(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.wanted(&visitor, |t| match t {
            Token::Null => Ok(()),
            other => Err(other),
        })?;
        visitor.visit_unit().map_err(|e| self.fix(e))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.wanted(&visitor, |t| match t {
            Token::Array => Ok(()),
            other => Err(other),
        })?;
        self.array(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.wanted(&visitor, |t| match t {
            Token::Object => Ok(()),
            other => Err(other),
        })?;
        self.object(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let array = self.wanted(&visitor, |t| match t {
            Token::Array => Ok(true),
            Token::Object => Ok(false),
            other => Err(other),
        })?;
        if array {
            self.array(visitor)
        } else {
            self.object(visitor)
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.whitespace() {
            Some(b'{') => {
                self.open()?;
                let value = visitor.visit_enum(Variant { reader: &mut *self })?;
                self.depth += 1;
                match self.whitespace() {
                    Some(b'}') => {
                        self.index += 1;
                        Ok(value)
                    }
                    Some(_) => Err(self.error("expected value")),
                    None => Err(self.error("EOF while parsing an object")),
                }
            }
            Some(b'"') => visitor.visit_enum(UnitVariant { reader: self }),
            Some(_) => Err(self.peek_error("expected value")),
            None => Err(self.peek_error("EOF while parsing a value")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip()?;
        visitor.visit_unit()
    }
}

/// An array's elements.
struct Elements<'r, 't> {
    reader: &'r mut Reader<'t>,
    first: bool,
}

impl<'de> de::SeqAccess<'de> for Elements<'_, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.reader.next_element(&mut self.first)? {
            seed.deserialize(&mut *self.reader).map(Some)
        } else {
            Ok(None)
        }
    }
}

/// An object's entries.
struct Entries<'r, 't> {
    reader: &'r mut Reader<'t>,
    first: bool,
}

impl<'de> de::MapAccess<'de> for Entries<'_, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.reader.next_key(&mut self.first)? {
            seed.deserialize(Key {
                reader: &mut *self.reader,
            })
            .map(Some)
        } else {
            Ok(None)
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.reader.colon()?;
        seed.deserialize(&mut *self.reader)
    }
}

/// An object's key (its quote next): always a string, whatever type reads it, as serde_json's
/// keys for the core's types (no numeric keys there).
struct Key<'r, 't> {
    reader: &'r mut Reader<'t>,
}

impl<'de> de::Deserializer<'de> for Key<'_, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_string(self.reader.key()?)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(UnitVariant { reader: self.reader })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// An enum written `{"Variant": value}`.
struct Variant<'r, 't> {
    reader: &'r mut Reader<'t>,
}

impl<'de> de::EnumAccess<'de> for Variant<'_, '_> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        match self.reader.whitespace() {
            Some(b'"') => {}
            Some(b'}') => return Err(self.reader.peek_error("expected value")),
            Some(_) => return Err(self.reader.peek_error("key must be a string")),
            None => return Err(self.reader.peek_error("EOF while parsing an object")),
        }
        let value = seed
            .deserialize(Key {
                reader: &mut *self.reader,
            })
            .map_err(|e| self.reader.fix(e))?;
        self.reader.colon()?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(self.reader)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self.reader)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self.reader, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(self.reader, "", fields, visitor)
    }
}

/// An enum written as its variant's name alone.
struct UnitVariant<'r, 't> {
    reader: &'r mut Reader<'t>,
}

impl<'de> de::EnumAccess<'de> for UnitVariant<'_, '_> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let variant = seed.deserialize(&mut *self.reader)?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariant<'_, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        Err(de::Error::invalid_type(Unexpected::UnitVariant, &"newtype variant"))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(de::Error::invalid_type(Unexpected::UnitVariant, &"tuple variant"))
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], _visitor: V) -> Result<V::Value> {
        Err(de::Error::invalid_type(Unexpected::UnitVariant, &"struct variant"))
    }
}

#[cfg(test)]
mod tests {
    use arbiter_core::nantong::{FinishedDeal, Nantong};
    use arbiter_core::trax::{Trax, Variant};
    use arbiter_core::tripletriad::{Match, TripleTriad};
    use serde::de::DeserializeOwned;
    use serde::Serialize;
    use std::fmt::Debug;

    /// This reader and `serde_json` agree on `text`: the same value, or the same error text.
    fn agree<T: DeserializeOwned + Debug>(text: &str) -> Result<(), String> {
        let show = |r: Result<T, String>| r.map(|v| format!("{v:?}"));
        let ours = show(super::from_str::<T>(text).map_err(|e| e.to_string()));
        let theirs = show(serde_json::from_str::<T>(text).map_err(|e| e.to_string()));
        if ours == theirs || same_but_float_digits(&ours, &theirs) {
            Ok(())
        } else {
            Err(format!("{text:?}\n  serde_json: {theirs:?}\n  ours:       {ours:?}"))
        }
    }

    /// Two errors that differ only in a float's digits past the 15th, which this reader does not
    /// print as `serde_json` does (`float_text`).
    fn same_but_float_digits(ours: &Result<String, String>, theirs: &Result<String, String>) -> bool {
        let split = |e: &str| -> Option<(String, f64, String)> {
            let (before, rest) = e.split_once("floating point `")?;
            let (number, after) = rest.split_once('`')?;
            Some((before.into(), number.parse().ok()?, after.into()))
        };
        match (ours, theirs) {
            (Err(a), Err(b)) => match (split(a), split(b)) {
                (Some((a0, x, a1)), Some((b0, y, b1))) => a0 == b0 && a1 == b1 && (x - y).abs() <= 1e-14 * y.abs(),
                _ => false,
            },
            _ => false,
        }
    }

    /// `text` and its damaged copies: every prefix, and every byte replaced by or followed by
    /// one of a few that JSON gives meaning to, or deleted.
    fn damaged(text: &str) -> Vec<String> {
        let mut out = vec![text.to_string()];
        let cuts = (0..text.len()).filter(|&i| text.is_char_boundary(i));
        for i in cuts {
            out.push(text[..i].to_string());
            let next = text[i..].chars().next().map_or(0, char::len_utf8);
            out.push(format!("{}{}", &text[..i], &text[i + next..]));
            for c in [
                "\"", ",", "]", "}", "[", "{", ":", "1", "-", "0", ".", "e", "n", "t", " ", "\n", "\\", "\u{1}", "é",
            ] {
                out.push(format!("{}{c}{}", &text[..i], &text[i + next..]));
                out.push(format!("{}{c}{}", &text[..i], &text[i..]));
            }
        }
        out
    }

    fn check<T: DeserializeOwned + Debug>(samples: &[String]) {
        let mut wrong = Vec::new();
        let mut cases = 0;
        for sample in samples {
            for text in damaged(sample) {
                cases += 1;
                if let Err(e) = agree::<T>(&text) {
                    wrong.push(e);
                }
            }
        }
        assert!(cases > 1000, "{cases} cases");
        assert!(
            wrong.is_empty(),
            "{} of {cases} differ, first:\n{}",
            wrong.len(),
            wrong[..wrong.len().min(5)].join("\n")
        );
    }

    /// Both forms of a value: compact, and pretty (many lines, for the line numbers).
    fn forms<T: Serialize>(value: &T) -> [String; 2] {
        [
            serde_json::to_string(value).unwrap(),
            serde_json::to_string_pretty(value).unwrap(),
        ]
    }

    fn bad_inputs(load: &str) -> Vec<String> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/bad-input");
        let mut out = Vec::new();
        for file in std::fs::read_dir(dir).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                for line in std::fs::read_to_string(path)
                    .unwrap()
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                {
                    let case: serde_json::Value = serde_json::from_str(line).unwrap();
                    if case["load"] == load {
                        out.push(case["input"].as_str().unwrap().to_string());
                    }
                }
            }
        }
        assert!(!out.is_empty(), "no bad input for {load}");
        out
    }

    #[test]
    fn triple_triad_states_read_as_serde_json_reads_them() {
        let mut samples = bad_inputs("triple-triad");
        samples.extend(forms(&TripleTriad::from_preset("ff8", 1).unwrap()));
        check::<TripleTriad>(&samples);
    }

    #[test]
    fn matches_read_as_serde_json_reads_them() {
        let mut samples = bad_inputs("triple-triad-match");
        samples.extend(forms(&Match::from_preset("ff8", 7).unwrap()));
        check::<Match>(&samples);
    }

    #[test]
    fn trax_games_read_as_serde_json_reads_them() {
        let mut samples = bad_inputs("trax");
        let game = Trax::from_record(Variant::Unbounded, "@0+ A2+ A3+ B1/").unwrap();
        samples.extend(forms(&game));
        check::<Trax>(&samples);
    }

    #[test]
    fn nantong_deals_read_as_serde_json_reads_them() {
        let mut samples = bad_inputs("nantong");
        samples.extend(bad_inputs("nantong-finished-deal"));
        samples.extend(forms(&Nantong::new(3)));
        check::<Nantong>(&samples);
        check::<FinishedDeal>(&bad_inputs("nantong-finished-deal"));
    }

    #[test]
    fn scalars_read_as_serde_json_reads_them() {
        let samples: Vec<String> = [
            "[1, 2, 255]",
            "[256]",
            "[-1]",
            "[1.5]",
            "[1e2]",
            "[-0]",
            "[0.000001]",
            "[123456789.125]",
            "[1e400]",
            "[18446744073709551616]",
            "[\"\\ud83d\\ude00\", 2]",
            "[\"a\\u0041\"]",
            "[null]",
            "[true]",
            "{\"a\": 1}",
            "  [ 1 , 2 ]  ",
        ]
        .map(String::from)
        .into();
        check::<Vec<u8>>(&samples);
        check::<Vec<i64>>(&samples);
        check::<Vec<String>>(&samples);
        check::<Vec<Option<bool>>>(&samples);
        check::<(u8, String)>(&samples);
        check::<std::collections::BTreeMap<String, u32>>(&samples);
    }
}

//! The terminal: colours, reading lines a person (or a script) types, and how a command fails.

use std::fmt;
use std::io::{self, BufRead, IsTerminal, Write};

/// ANSI styling: on for a terminal, off for pipes, `NO_COLOR` and `TERM=dumb`; `CLICOLOR_FORCE`
/// turns it on for a pipe (as for other command-line programs).
#[derive(Clone, Copy)]
pub struct Style {
    pub color: bool,
}

impl Style {
    pub fn detect() -> Style {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        let wanted = io::stdout().is_terminal() || set("CLICOLOR_FORCE");
        Style {
            color: wanted && !dumb && !set("NO_COLOR"),
        }
    }

    pub fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }
}

/// Why a command stopped: a message for the person, or an output error (a closed pipe ends the
/// program quietly, as `head` expects).
#[derive(Debug)]
pub enum Failure {
    Io(io::Error),
    Message(String),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

impl From<String> for Failure {
    fn from(s: String) -> Failure {
        Failure::Message(s)
    }
}

impl From<&str> for Failure {
    fn from(s: &str) -> Failure {
        Failure::Message(s.into())
    }
}

impl From<arbiter_core::Error> for Failure {
    fn from(e: arbiter_core::Error) -> Failure {
        Failure::Message(e.to_string())
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Io(e) => e.fmt(f),
            Failure::Message(m) => f.write_str(m),
        }
    }
}

pub type Outcome<T = ()> = Result<T, Failure>;

/// Lines in, text out.
pub struct Console<R, W> {
    input: R,
    pub out: W,
    pub st: Style,
    /// Echo what is read: a transcript of piped input then reads like a session at a terminal.
    echo: bool,
}

impl<R: BufRead, W: Write> Console<R, W> {
    pub fn new(input: R, out: W, st: Style, echo: bool) -> Self {
        Console { input, out, st, echo }
    }

    /// Writes `text`, each line wrapped at word boundaries to 80 columns.
    pub fn say(&mut self, text: &str) -> io::Result<()> {
        for line in text.split('\n') {
            writeln!(self.out, "{}", fill(line, 80))?;
        }
        Ok(())
    }

    /// Prints `prompt`, reads one trimmed line; `None` at the end of input. A line that is not
    /// UTF-8 is refused as a bad line and asked again, never the end of the game.
    pub fn ask(&mut self, prompt: &str) -> io::Result<Option<String>> {
        loop {
            write!(self.out, "{prompt} > ")?;
            self.out.flush()?;
            let mut bytes = Vec::new();
            if self.input.read_until(b'\n', &mut bytes)? == 0 {
                writeln!(self.out)?;
                return Ok(None);
            }
            match String::from_utf8(bytes) {
                Ok(line) => {
                    let line = line.trim().to_string();
                    if self.echo {
                        writeln!(self.out, "{line}")?;
                    }
                    return Ok(Some(line));
                }
                Err(_) => {
                    if self.echo {
                        writeln!(self.out)?;
                    }
                    writeln!(
                        self.out,
                        "That line is not valid UTF-8; type it again (`help` lists what you can type)."
                    )?
                }
            }
        }
    }

    /// Asks a yes/no question until it gets an answer; the end of input is no.
    pub fn confirm(&mut self, question: &str) -> io::Result<bool> {
        loop {
            let Some(answer) = self.ask(&format!("{question} [y/n]"))? else {
                return Ok(false);
            };
            match answer.to_ascii_lowercase().as_str() {
                "y" | "yes" => return Ok(true),
                "n" | "no" | "q" | "quit" => return Ok(false),
                _ => self.say("Please answer y (yes) or n (no).")?,
            }
        }
    }
}

/// Joins `items` with two spaces into lines of at most `width` columns, breaking only between
/// items; `indent` starts every line.
pub fn wrap(items: &[String], width: usize, indent: &str) -> String {
    let mut out = String::from(indent);
    let mut line_len = indent.len();
    for item in items {
        let len = item.chars().count();
        if line_len > indent.len() && line_len + 2 + len > width {
            out.push('\n');
            out.push_str(indent);
            line_len = indent.len();
        } else if line_len > indent.len() {
            out.push_str("  ");
            line_len += 2;
        }
        out.push_str(item);
        line_len += len;
    }
    out
}

/// Columns a string takes on screen: its characters less ANSI escape sequences.
pub fn visible_width(s: &str) -> usize {
    let mut width = 0;
    let mut escape = false;
    for c in s.chars() {
        match (escape, c) {
            (false, '\x1b') => escape = true,
            (true, 'm') => escape = false,
            (true, _) => {}
            (false, _) => width += 1,
        }
    }
    width
}

/// One line broken at spaces into lines of at most `width` columns; the continuation lines are
/// indented two more than the first.
fn fill(line: &str, width: usize) -> String {
    if visible_width(line) <= width {
        return line.to_string();
    }
    let indent = " ".repeat(line.len() - line.trim_start().len() + 2);
    let words: Vec<String> = line.split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect();
    let mut out = String::from(&line[..line.len() - line.trim_start().len()]);
    let mut len = out.len();
    for (i, word) in words.iter().enumerate() {
        let w = visible_width(word);
        if i > 0 && len + 1 + w > width {
            out.push('\n');
            out.push_str(&indent);
            len = indent.len();
        } else if i > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(word);
        len += w;
    }
    out
}

/// A seed for a game that was given none: different every run, short enough to type back.
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish() % 1_000_000
}

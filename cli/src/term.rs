//! The terminal: colours, reading lines a person (or a script) types, and how a command fails.

use std::fmt;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::Path;

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

/// The size of the screen text is laid out for, in columns and lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub width: usize,
    pub height: usize,
}

impl Frame {
    /// What a terminal of unknown size is taken to be.
    pub const FALLBACK: Frame = Frame { width: 80, height: 24 };

    /// The terminal on standard output, else `COLUMNS` and `LINES` (how a script or a pipe says
    /// it), else 80x24; never below 20x10, under which no board reads anyway.
    pub fn detect() -> Frame {
        let tty = terminal_size::terminal_size_of(io::stdout()).map(|(w, h)| (w.0 as usize, h.0 as usize));
        let env = |name: &str| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.trim().parse::<usize>().ok())
                .filter(|&n| n > 0)
        };
        Frame {
            width: tty
                .map(|t| t.0)
                .or_else(|| env("COLUMNS"))
                .unwrap_or(Frame::FALLBACK.width)
                .max(20),
            height: tty
                .map(|t| t.1)
                .or_else(|| env("LINES"))
                .unwrap_or(Frame::FALLBACK.height)
                .max(10),
        }
    }
}

/// Lines in, text out.
pub struct Console<R, W> {
    input: R,
    pub out: W,
    pub st: Style,
    pub frame: Frame,
    /// Echo what is read: a transcript of piped input then reads like a session at a terminal.
    echo: bool,
}

impl<R: BufRead, W: Write> Console<R, W> {
    pub fn new(input: R, out: W, st: Style, frame: Frame, echo: bool) -> Self {
        Console {
            input,
            out,
            st,
            frame,
            echo,
        }
    }

    /// Writes the prose `text`, each line too wide for the screen broken at spaces.
    pub fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{}", fill_text(text, self.frame.width))
    }

    /// Writes `text` as it is: a board or a table, laid out for the screen by its maker and never
    /// broken again (breaking one garbles it).
    pub fn show(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{}", text.trim_end_matches('\n'))
    }

    /// Prints `prompt`, reads one trimmed line; `None` at the end of input. A line that is not
    /// UTF-8 is refused as a bad line and asked again, never the end of the game.
    pub fn ask(&mut self, prompt: &str) -> io::Result<Option<String>> {
        loop {
            write!(self.out, "{} > ", fill(prompt, self.frame.width.saturating_sub(3)))?;
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

/// Every line of `text` filled to `width` columns ([`fill`]).
pub fn fill_text(text: &str, width: usize) -> String {
    text.split('\n')
        .map(|line| fill(line, width))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line broken at spaces into lines of at most `width` columns (a word longer than that
/// stays whole); the continuation lines are indented two more than the first. The spaces between
/// words stay as they were, except at a break.
pub fn fill(line: &str, width: usize) -> String {
    let lead = line.len() - line.trim_start_matches(' ').len();
    fill_hanging(line, width, lead + 2)
}

/// [`fill`] with the continuation lines indented by `hang` columns.
pub fn fill_hanging(line: &str, width: usize, hang: usize) -> String {
    if visible_width(line) <= width {
        return line.to_string();
    }
    let lead = line.len() - line.trim_start_matches(' ').len();
    let indent = " ".repeat(hang.min(width / 2));
    let mut out = String::from(&line[..lead]);
    let mut len = lead;
    let mut rest = &line[lead..];
    while !rest.is_empty() {
        let gap = rest.len() - rest.trim_start_matches(' ').len();
        let word_end = rest[gap..].find(' ').map_or(rest.len(), |i| gap + i);
        let word = &rest[gap..word_end];
        if word.is_empty() {
            break;
        }
        let w = visible_width(word);
        if len > lead && len + gap + w > width {
            out.push('\n');
            out.push_str(&indent);
            len = indent.len();
        } else {
            out.push_str(&rest[..gap]);
            len += gap;
        }
        out.push_str(word);
        len += w;
        rest = &rest[word_end..];
    }
    out
}

/// Writes `bytes` to `path` so that the file holds either its old content or all of the new:
/// into a temporary file beside it, synced, then renamed over it (a full disk or a crash while
/// writing leaves the old file as it was). The temporary file is removed on failure.
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // A link is followed, as a plain write would: the file it names is replaced, not the link.
    let target = std::fs::canonicalize(path);
    let path = target.as_deref().unwrap_or(path);
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp = dir.join(temp_name);
    let written = (|| {
        let mut f = std::fs::File::create(&temp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written?;
    // The rename itself lasts once the folder is synced; a folder that cannot be opened for that
    // (some systems) still has the file renamed.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_breaks_at_spaces_and_keeps_the_others() {
        // Fits: unchanged, runs of spaces and all (a board's line used to lose them).
        assert_eq!(fill(" @   A   B", 10), " @   A   B");
        assert_eq!(fill("1m 2m  3s 4s  T", 10), "1m 2m  3s\n  4s  T");
        assert_eq!(fill("  - one two three", 10), "  - one\n    two\n    three");
        // A word longer than the width stays whole.
        assert_eq!(fill("abcdefghijkl x", 5), "abcdefghijkl\n  x");
    }

    #[test]
    fn a_whole_write_replaces_the_file_and_leaves_nothing_beside_it() {
        let dir = std::env::temp_dir().join(format!("arbiter-unit-{}-whole", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("save.json");
        write_whole(&file, b"old").unwrap();
        write_whole(&file, b"new").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
        // Into a folder that does not exist: an error, and nothing written.
        assert!(write_whole(&dir.join("no/such/save.json"), b"x").is_err());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

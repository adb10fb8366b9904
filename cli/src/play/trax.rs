//! `arbiter play trax`: a game against the built-in opponent, with the board in notation coordinates.

use super::{drive, seed_line, Common, Console, Ending, Session};
use crate::options;
use crate::term::{write_whole, Frame, Outcome, Style};
use arbiter_core::trax::{column_name, read_record, Colour, Move, Trax, Variant};
use arbiter_core::{Engine, Game, Rng};
use clap::builder::PossibleValuesParser;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The board: 8x8 (tiles within eight columns and rows), unbounded (Supertrax) or loop (only
    /// loops win).
    #[arg(long, default_value = options::default("trax", "variant"), value_parser = options::values("trax", "variant"))]
    variant: String,
    /// Your colour (default: white, who moves first; after --record, the player to move).
    #[arg(long, value_parser = PossibleValuesParser::new(["white", "red"]), conflicts_with = "load")]
    you: Option<String>,
    /// Replay a game record (official notation) move by move, then play on from where it stops.
    #[arg(long, value_name = "FILE", conflicts_with = "load")]
    record: Option<PathBuf>,
    #[command(flatten)]
    common: Common<Trax>,
}

/// The save file's own part.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    you: Colour,
    game: Trax,
}

/// The game in a save file (read by `perft`).
pub fn saved_game(path: &Path) -> Result<Trax, String> {
    Ok(super::load::<Saved>(path, Trax::NAME)?.state.game)
}

struct TraxSession {
    g: Trax,
    you: Colour,
    /// The cell `view CELL` asked to see, in the notation of the position it was asked in; the
    /// next move forgets it.
    view: Option<(u32, u32)>,
}

/// A tile edge: its colour's letter, so that the board reads without colour; with colour, red
/// in red and white in the terminal's own text colour (readable on light and dark backgrounds).
fn edge(c: Colour, st: Style) -> String {
    match c {
        Colour::Red => st.paint("1;31", "r"),
        Colour::White => st.bold("w"),
    }
}

/// Columns a cell takes: its three characters and a space.
const CELL: usize = 4;

/// What the board legend says, once per game and on `legend`.
pub const LEGEND: &str = "Each tile shows its west edge's colour, its shape and its east edge's colour \
    (r red, w white): r+r is a straight tile with red running west-east (white north-south); \
    w/r a curve with white joining north and west, red east and south; r\\w a curve with red \
    joining west and south, white north and east. Columns are letters and rows numbers, as in the \
    notation: @ and 0 are the empty column and row before the tiles.";

/// The part of the board shown: the columns `cols` and rows `rows` (notation coordinates) of the
/// `all_cols` and `all_rows` there are to show.
struct Window {
    cols: Range<u32>,
    rows: Range<u32>,
    all_cols: Range<u32>,
    all_rows: Range<u32>,
}

impl Window {
    /// As much of the board as `width` columns and `lines` lines hold (the column letters and
    /// the lines of `notes` included), around `centre` (default: the last move's tile, else the
    /// middle); `label` is the width of the row numbers.
    fn new(
        g: &Trax,
        width: usize,
        lines: usize,
        label: usize,
        centre: Option<(u32, u32)>,
        notes: impl Fn(&Window) -> usize,
    ) -> Window {
        let (w, h) = g.size();
        // On 8x8, the empty column (row) on each side of tiles eight wide (high) is outside the
        // area, where no tile can go: not shown.
        let full = |n: u32| {
            if g.variant() == Variant::EightByEight && n >= 8 {
                1..n + 1
            } else {
                0..n + 2
            }
        };
        let (all_cols, all_rows) = (full(w), full(h));
        let centre = centre
            .or_else(|| g.last_turn().map(|t| (t.placed.col, t.placed.row)))
            .unwrap_or((w.div_ceil(2), h.div_ceil(2)));
        let span = |fit: usize, all: &Range<u32>, at: u32| {
            let n = (fit.max(1) as u32).min(all.end - all.start);
            let start = at.saturating_sub(n / 2).clamp(all.start, all.end - n);
            start..start + n
        };
        // The last cell needs no space after it.
        let cols = span((width.saturating_sub(label) + 1) / CELL, &all_cols, centre.0);
        let mut win = Window {
            cols,
            rows: span(lines.saturating_sub(1), &all_rows, centre.1),
            all_cols,
            all_rows,
        };
        let noted = notes(&win);
        if noted > 0 {
            win.rows = span(lines.saturating_sub(1 + noted), &win.all_rows, centre.1);
        }
        win
    }

    fn partial(&self) -> bool {
        self.cols != self.all_cols || self.rows != self.all_rows
    }

    /// Which part is shown, in notation coordinates.
    fn note(&self) -> String {
        let name = |c: u32| column_name(u64::from(c));
        format!(
            "Shown: columns {}-{} of {}-{}, rows {}-{} of {}-{}; `view CELL` moves the view.",
            name(self.cols.start),
            name(self.cols.end - 1),
            name(self.all_cols.start),
            name(self.all_cols.end - 1),
            self.rows.start,
            self.rows.end - 1,
            self.all_rows.start,
            self.all_rows.end - 1
        )
    }
}

/// The board as it fits `width` columns and `lines` lines: one line per row, each tile as its
/// west edge, shape and east edge (which tell its four edges), column letters above and row
/// numbers on the left, as in the notation (including the empty border where moves go). A board
/// too large is shown in part, around `centre` or the last move, with a line saying which part.
/// On 8x8, the cells outside the area are left out.
pub fn board(g: &Trax, st: Style, width: usize, lines: usize, centre: Option<(u32, u32)>) -> String {
    let (w, h) = g.size();
    let eight = g.variant() == Variant::EightByEight;
    let label = (h + 1).to_string().len() + 1;
    let area = (eight && g.tiles() > 0).then(|| format!("8x8: the tiles span {w} of 8 columns and {h} of 8 rows."));
    // The winning tracks' cells, each marked by a `*` in the space before it: a mark that reads
    // without colour, as the demo lights the same cells.
    let won = g.win();
    let track: Vec<(u32, u32)> = won
        .iter()
        .flat_map(|w| w.tracks.iter().flatten().map(|c| (c.col, c.row)))
        .collect();
    let marked = won.as_ref().map(|w| {
        let what = match (w.by_loop, w.by_line) {
            (true, true) => "loop and line",
            (true, false) => "loop",
            _ => "line",
        };
        format!("* marks {}'s winning {what}.", w.winner)
    });
    let notes = |win: &Window| {
        let mut text: Vec<String> = area.iter().cloned().chain(marked.clone()).collect();
        if win.partial() {
            text.push(win.note());
        }
        text.iter().map(|t| crate::term::fill(t, width)).collect::<Vec<_>>()
    };
    let win = Window::new(g, width, lines, label, centre, |win| {
        notes(win).iter().map(|t| t.lines().count()).sum()
    });
    let mut out = " ".repeat(label);
    for col in win.cols.clone() {
        out.push_str(&format!("{:^3} ", column_name(u64::from(col))));
    }
    let mut rows = vec![out.trim_end().to_string()];
    for row in win.rows.clone() {
        let mut line = format!("{row:>width$}", width = label - 1);
        for col in win.cols.clone() {
            line.push_str(&if track.contains(&(col, row)) {
                st.paint("1;33", "*")
            } else {
                " ".into()
            });
            line.push_str(&match g.tile_at(col, row) {
                None => st.dim(" · "),
                Some(t) => format!(
                    "{}{}{}",
                    edge(t.colour(3), st),
                    t.shape().symbol(),
                    edge(t.colour(1), st)
                ),
            });
        }
        rows.push(line.trim_end().to_string());
    }
    rows.extend(notes(&win));
    rows.join("\n")
}

/// Lines a turn's screen keeps for other text at most: the moves just played, a blank line, the
/// prompt.
const AROUND_THE_BOARD: usize = 6;

/// The board for a turn's screen in `frame`.
fn turn_board(g: &Trax, st: Style, frame: Frame, centre: Option<(u32, u32)>) -> String {
    board(
        g,
        st,
        frame.width,
        frame.height.saturating_sub(AROUND_THE_BOARD),
        centre,
    )
}

fn rules_text(variant: Variant) -> String {
    let win = match variant {
        Variant::Loop => "Only a loop wins: close a loop of your colour (lines do not count).",
        _ => {
            "You win with a loop of your colour, or a line of your colour joining opposite edges \
              eight columns or rows apart."
        }
    };
    let area = match variant {
        Variant::EightByEight => {
            " The tiles must stay within eight columns and eight rows (the board leaves out the \
             columns and rows outside them)."
        }
        _ => " The board has no edge.",
    };
    format!(
        "Trax ({variant}): players take turns laying a tile next to the tiles in play so that edge \
         colours match; a move can force more tiles, which fall at once.\n{win}{area} If a move \
         makes loops or lines for both colours, the mover wins.\nThe full rules: arbiter rules trax."
    )
}

impl Session for TraxSession {
    const GAME: &'static str = Trax::NAME;
    const LEVELS: &'static [&'static str] = Trax::LEVELS;
    type Move = Move;
    type Saved = Saved;

    fn is_over(&self) -> bool {
        self.g.is_over()
    }

    fn choose(&self, level: &str, rng: &mut Rng) -> Result<Option<Move>, arbiter_core::Error> {
        self.g.choose(level, rng)
    }

    fn yours(&self) -> bool {
        self.g.to_move() == Some(self.you)
    }

    fn rules(&self) -> String {
        rules_text(self.g.variant())
    }

    fn help(&self) -> String {
        "Type a move in official notation: the column letter (@ = the empty column left of the \
         tiles), the row number (0 = the empty row above), then the tile: + / or \\.\n  \
         e.g. @0+ or @0/ to start, then B2/, A0+, …\n  \
         view CELL    show the board around a cell (e.g. view C4), when it is too large to show whole\n  \
         legend       how the board shows the tiles\n  \
         record FILE  write the game record (official notation)"
            .into()
    }

    fn screen(&self, st: Style, frame: Frame) -> String {
        format!("\n{}", turn_board(&self.g, st, frame, self.view))
    }

    fn prompt(&self) -> String {
        format!("your move ({})", self.you)
    }

    fn read(&self, line: &str) -> Result<Move, String> {
        let mv: Move = line.parse().map_err(|e| format!("{e}"))?;
        let (w, h) = self.g.size();
        if mv.col > u64::from(w) + 1 || mv.row > u64::from(h) + 1 {
            return Err(format!(
                "{line:?} is out of range: the columns run from @ to {} and the rows from 0 to {}",
                column_name(u64::from(w) + 1),
                h + 1
            ));
        }
        self.g.clone().play(mv).map_err(|e| format!("Illegal: {e}"))?;
        Ok(mv)
    }

    fn play(&mut self, mv: Move, _st: Style) -> Outcome<String> {
        let mover = self.g.next_player();
        let report = self.g.play_explained(mv).map_err(|e| e.to_string())?;
        self.view = None;
        let forced: Vec<String> = report.forced.iter().map(|&(x, y)| self.g.cell_name(x, y)).collect();
        let who = if mover == self.you { "You" } else { "The computer" };
        let mut text = format!("{who} ({mover}) played {mv}");
        if !forced.is_empty() {
            text.push_str(&format!("; forced tiles fell at {}", forced.join(", ")));
        }
        text.push('.');
        // A tile in column @ or row 0 makes a new first column or row: every tile already down
        // changes its name, which a player reading the coordinates must be told.
        if let Some(placed) = self
            .g
            .last_turn()
            .map(|t| t.placed)
            .filter(|_| self.g.history().len() > 1)
        {
            let moved = |now: u32, typed: u64| u64::from(now).saturating_sub(typed);
            let (cols, rows) = (moved(placed.col, mv.col), moved(placed.row, mv.row));
            let mut grew = Vec::new();
            if cols > 0 {
                grew.push(format!(
                    "the columns' letters moved on by {cols} (A is now {})",
                    column_name(1 + cols)
                ));
            }
            if rows > 0 {
                grew.push(format!(
                    "the rows' numbers moved on by {rows} (row 1 is now row {})",
                    1 + rows
                ));
            }
            if !grew.is_empty() {
                text.push_str(&format!(" The board grew: {}.", grew.join(" and ")));
            }
        }
        Ok(text)
    }

    fn undo(&mut self) -> bool {
        let mover = |n: usize| if n % 2 == 0 { Colour::White } else { Colour::Red };
        let moves = self.g.history().len();
        if !(0..moves).any(|n| mover(n) == self.you) {
            return false;
        }
        while self.g.undo().is_some() && mover(self.g.history().len()) != self.you {}
        true
    }

    fn saved(&self) -> Saved {
        Saved {
            you: self.you,
            game: self.g.clone(),
        }
    }

    fn extra(&mut self, line: &str, st: Style, frame: Frame) -> Option<String> {
        if line == "legend" {
            return Some(LEGEND.into());
        }
        if let Some(cell) = line.strip_prefix("view") {
            return Some(self.view_at(cell.trim(), st, frame));
        }
        self.write_record(line)
    }
}

impl TraxSession {
    /// `view CELL`: the board around that cell, which later screens keep until the next move.
    fn view_at(&mut self, cell: &str, st: Style, frame: Frame) -> String {
        // A cell is a move without its tile: read it as one.
        let Ok(mv) = format!("{cell}+").parse::<Move>() else {
            return format!("Say which cell: view COLUMN ROW, e.g. view C4 (not {cell:?}).");
        };
        let (w, h) = self.g.size();
        if mv.col > u64::from(w) + 1 || mv.row > u64::from(h) + 1 {
            return format!(
                "There is no cell {cell}: the columns run from @ to {} and the rows from 0 to {}.",
                column_name(u64::from(w) + 1),
                h + 1
            );
        }
        self.view = Some((mv.col as u32, mv.row as u32));
        turn_board(&self.g, st, frame, self.view)
    }

    fn write_record(&self, line: &str) -> Option<String> {
        let file = line.strip_prefix("record")?.trim();
        if file.is_empty() {
            return Some("Say where: record FILE.".into());
        }
        Some(match write_whole(Path::new(file), record(&self.g).as_bytes()) {
            Ok(()) => format!("Game record written to {file}; replay it with --record {file}."),
            Err(e) => format!("Cannot write {file}: {e}."),
        })
    }
}

/// The game record in official notation: numbered moves, two to a line.
fn record(g: &Trax) -> String {
    let mut out = format!("; Trax ({}), written by arbiter\n", g.variant());
    for (n, pair) in g.history().chunks(2).enumerate() {
        let moves: Vec<String> = pair.iter().map(Move::to_string).collect();
        out.push_str(&format!("{}. {}\n", n + 1, moves.join(" ")));
    }
    out
}

/// What the person asked for while a record was replayed.
#[derive(PartialEq, Eq)]
enum Replayed {
    /// The record was played through (or the person asked to play on from where it was).
    PlayOn,
    Stopped,
}

/// Replays a record move by move, or at once to its end.
fn replay<R: BufRead, W: Write>(g: &mut Trax, moves: &[Move], con: &mut Console<R, W>) -> Outcome<Replayed> {
    let mut to_the_end = false;
    for (n, &mv) in moves.iter().enumerate() {
        if !to_the_end {
            con.show(&turn_board(g, con.st, con.frame, None))?;
            let Some(answer) = con.ask(&format!(
                "move {} of {}: {mv} (Enter: play it, e: go to the end, p: play on from here, q: stop)",
                n + 1,
                moves.len()
            ))?
            else {
                return Ok(Replayed::Stopped);
            };
            match answer.as_str() {
                "q" | "quit" => return Ok(Replayed::Stopped),
                "p" | "play" => return Ok(Replayed::PlayOn),
                "e" | "end" => to_the_end = true,
                _ => {}
            }
        }
        g.play(mv)
            .map_err(|e| format!("the record's move {} ({mv}) is refused: {e}", n + 1))?;
    }
    Ok(Replayed::PlayOn)
}

/// How a finished game ended, said from the point of view of `you` (`None`: a record replayed
/// to its end, whose moves are nobody's at this table).
fn verdict(g: &Trax, you: Option<Colour>) -> String {
    let Some(w) = g.win() else {
        return if g.tiles() == 64 {
            "A draw: the 8x8 board is full.".into()
        } else {
            "A draw: the player to move has no legal move within the 8x8 area.".into()
        };
    };
    let how = match (w.by_loop, w.by_line) {
        (true, true) => "loop and line",
        (true, false) => "loop",
        _ => "line",
    };
    let who = match you {
        Some(y) if w.winner == y => "You win".to_string(),
        Some(_) => "The computer wins".to_string(),
        None => format!("{} wins", capital(w.winner)),
    };
    // Forced tiles can close the opponent's loop or line: say whose move did it.
    let last = if g.history().len() % 2 == 1 {
        Colour::White
    } else {
        Colour::Red
    };
    let closer = match you {
        _ if last == w.winner => String::new(),
        Some(y) if last == y => " Your move closed it for the computer.".into(),
        Some(_) => " The computer's move closed it for you.".into(),
        None => format!(" {}'s move closed it for {}.", capital(last), w.winner),
    };
    format!("{who} ({}): a {} {how}.{closer}", w.winner, w.winner)
}

fn capital(colour: Colour) -> String {
    let s = colour.to_string();
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

pub fn run(args: Args, con: &mut Console<impl BufRead, impl Write>) -> Outcome {
    let (mut session, seed, mut opp, loaded) = match args.common.loaded::<Saved>(|_| Ok(()))? {
        Some((state, seed, opp)) => (
            TraxSession {
                g: state.game,
                you: state.you,
                view: None,
            },
            seed,
            opp,
            true,
        ),
        None => {
            let seed = args.common.seed();
            let variant: Variant = args.variant.parse().map_err(|e| format!("--variant: {e}"))?;
            let you = args.you.as_deref().map(Trax::player).transpose()?;
            let session = TraxSession {
                g: Trax::new(variant),
                you: you.unwrap_or(Colour::White),
                view: None,
            };
            (session, seed, args.common.opponent(seed), false)
        }
    };
    // Trax deals nothing: the seed only steers the computer, from wherever the game starts.
    let seed_words = match &args.record {
        Some(_) if !loaded => {
            format!("Seed {seed} (the computer's choices): play on from this record again with --seed {seed}.")
        }
        _ => seed_line(seed, loaded),
    };
    con.say(&format!("Trax ({}). {seed_words}", session.g.variant()))?;
    con.say(&session.rules())?;
    con.say(LEGEND)?;
    let mut recorded = 0;
    if let Some(path) = &args.record {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let moves = read_record(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if replay(&mut session.g, &moves, con)? == Replayed::Stopped {
            return Ok(());
        }
        recorded = session.g.history().len();
        if args.you.is_none() {
            session.you = session.g.next_player();
        }
    }
    if !session.g.is_over() {
        let first = if session.g.history().is_empty() {
            "white moves first".to_string()
        } else {
            format!("{} moves next", session.g.next_player())
        };
        con.say(&format!(
            "You play {} against the computer (level {}); {first}. Type `help` for what you can type, `quit` to stop.",
            session.you, opp.level
        ))?;
        if drive(&mut session, seed, &mut opp, con)? != Ending::Over {
            return Ok(());
        }
    }
    let g = &session.g;
    con.show(&format!("\n{}", turn_board(g, con.st, con.frame, None)))?;
    // The moves of a record are nobody's at this table.
    let you = (g.history().len() > recorded).then_some(session.you);
    let end = if you.is_none() { "The record ends" } else { "Game over" };
    con.say(&format!(
        "{end} after {} moves, {} tiles. {}",
        g.history().len(),
        g.tiles(),
        verdict(g, you)
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of `board` for the cells of the tracks: each tile of a winning track has a `*`
    /// before it, no other tile has, and a line says what the mark means.
    #[test]
    fn the_winning_loop_is_marked_on_the_board() {
        let plain = Style { color: false };
        let g = Trax::replay(
            Variant::Unbounded,
            &["@0/".parse().unwrap(), "B1\\".parse().unwrap(), "B2/".parse().unwrap()],
        )
        .unwrap();
        let shown = board(&g, plain, 80, 24, None);
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[0], "   @   A   B   C", "{shown}");
        let tiles = |line: &str| line.matches(['/', '\\', '+']).count();
        for row in [1, 2] {
            let line = lines[row + 1];
            assert_eq!(line.matches('*').count(), 2, "{shown}");
            assert_eq!(tiles(line), 2, "{shown}");
            assert!(line.starts_with(&format!("{row}  · *")), "{shown}");
        }
        assert_eq!(shown.matches('*').count(), 5, "four cells and the note: {shown}");
        assert!(shown.ends_with("* marks red's winning loop."), "{shown}");
        let before = Trax::replay(Variant::Unbounded, &["@0/".parse().unwrap(), "B1\\".parse().unwrap()]).unwrap();
        assert!(!board(&before, plain, 80, 24, None).contains('*'));
    }
}

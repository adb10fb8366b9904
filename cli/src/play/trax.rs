//! `arbiter play trax`: a game against the built-in opponent, with the board in notation coordinates.

use super::{drive, seed_line, Common, Console, Ending, Table};
use crate::term::{Outcome, Style};
use arbiter_core::trax::{column_name, read_record, Colour, Move, Trax, Variant};
use arbiter_core::{Engine, Game, Rng};
use clap::builder::PossibleValuesParser;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The board: 8x8 (tiles within eight columns and rows), unbounded (Supertrax) or loop (only
    /// loops win).
    #[arg(long, default_value = "unbounded", value_parser = PossibleValuesParser::new(["8x8", "unbounded", "loop"]))]
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

const DEFAULT_LEVEL: &str = "expert";

/// The save file's own part.
#[derive(Serialize, Deserialize)]
struct Saved {
    you: Colour,
    game: Trax,
}

struct TraxTable {
    g: Trax,
    you: Colour,
}

/// A tile edge: its colour's letter, so that the board reads without colour; with colour, red
/// in red and white in the terminal's own text colour (readable on light and dark backgrounds).
fn edge(c: Colour, st: Style) -> String {
    match c {
        Colour::Red => st.paint("1;31", "r"),
        Colour::White => st.bold("w"),
    }
}

/// The board: every tile's four edge colours around its shape symbol, with column letters and
/// row numbers of the notation (including the empty border where moves go). On 8x8, a border cell
/// outside the eight columns or rows is an `x`.
pub fn board(g: &Trax, st: Style) -> String {
    let (w, h) = g.size();
    let eight = g.variant() == Variant::EightByEight;
    let mut out = String::from("    ");
    for col in 0..=w + 1 {
        out.push_str(&format!("{:^4}", column_name(col as u64)));
    }
    out.push('\n');
    for row in 0..=h + 1 {
        for line in 0..3 {
            out.push_str(&if line == 1 { format!("{row:>3} ") } else { "    ".into() });
            for col in 0..=w + 1 {
                let outside = eight
                    && g.tiles() > 0
                    && ((w >= 8 && (col == 0 || col == w + 1)) || (h >= 8 && (row == 0 || row == h + 1)));
                let cell = match g.tile_at(col, row) {
                    None if line == 1 && outside => st.dim(" x  "),
                    None if line == 1 => st.dim(" ·  "),
                    None => "    ".into(),
                    Some(t) => match line {
                        0 => format!(" {}  ", edge(t.colour(0), st)),
                        1 => format!(
                            "{}{}{} ",
                            edge(t.colour(3), st),
                            t.shape().symbol(),
                            edge(t.colour(1), st)
                        ),
                        _ => format!(" {}  ", edge(t.colour(2), st)),
                    },
                };
                out.push_str(&cell);
            }
            out.push('\n');
        }
    }
    if eight && g.tiles() > 0 {
        out.push_str(&format!("8x8: the tiles span {w} of 8 columns and {h} of 8 rows.\n"));
    }
    out
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
            " The tiles must stay within eight columns and eight rows (x marks the cells outside)."
        }
        _ => " The board has no edge.",
    };
    format!(
        "Trax ({variant}): players take turns laying a tile next to the tiles in play so that edge \
         colours match; a move can force more tiles, which fall at once.\n{win}{area} If a move \
         makes loops or lines for both colours, the mover wins.\nThe full rules: arbiter rules trax."
    )
}

impl Table for TraxTable {
    const GAME: &'static str = Trax::NAME;
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
         record FILE   write the game record (official notation)"
            .into()
    }

    fn screen(&self, st: Style) -> String {
        format!(
            "\n{}r/w: each tile edge's colour (red, white); + / \\: the tile's shape.",
            board(&self.g, st)
        )
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
        let forced: Vec<String> = report.forced.iter().map(|&(x, y)| self.g.cell_name(x, y)).collect();
        let who = if mover == self.you { "You" } else { "The computer" };
        let mut text = format!("{who} ({mover}) played {mv}");
        if !forced.is_empty() {
            text.push_str(&format!("; forced tiles fell at {}", forced.join(", ")));
        }
        text.push('.');
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

    fn extra(&mut self, line: &str) -> Option<String> {
        self.write_record(line)
    }
}

impl TraxTable {
    fn write_record(&self, line: &str) -> Option<String> {
        let file = line.strip_prefix("record")?.trim();
        if file.is_empty() {
            return Some("Say where: record FILE.".into());
        }
        Some(match std::fs::write(file, record(&self.g)) {
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

/// Replays a record move by move; false if the person stopped.
fn replay<R: BufRead, W: Write>(g: &mut Trax, moves: &[Move], con: &mut Console<R, W>) -> Outcome<bool> {
    for (n, &mv) in moves.iter().enumerate() {
        con.say(&board(g, con.st))?;
        let Some(answer) = con.ask(&format!(
            "move {} of {}: {mv} — Enter to play it, p to play on from here, q to stop",
            n + 1,
            moves.len()
        ))?
        else {
            return Ok(false);
        };
        match answer.as_str() {
            "q" | "quit" => return Ok(false),
            "p" | "play" => return Ok(true),
            _ => {}
        }
        g.play(mv)
            .map_err(|e| format!("the record's move {} ({mv}) is refused: {e}", n + 1))?;
    }
    Ok(true)
}

pub fn run(args: Args, con: &mut Console<impl BufRead, impl Write>) -> Outcome {
    let (mut table, seed, mut opp, loaded) = match args.common.loaded::<Saved>()? {
        Some((state, seed, opp)) => (
            TraxTable {
                g: state.game,
                you: state.you,
            },
            seed,
            opp,
            true,
        ),
        None => {
            let seed = args.common.seed();
            let variant: Variant = args.variant.parse().map_err(|e| format!("--variant: {e}"))?;
            let you = args.you.as_deref().map(Trax::player).transpose()?;
            let table = TraxTable {
                g: Trax::new(variant),
                you: you.unwrap_or(Colour::White),
            };
            (table, seed, args.common.opponent(DEFAULT_LEVEL, seed), false)
        }
    };
    con.say(&format!("Trax ({}). {}", table.g.variant(), seed_line(seed, loaded)))?;
    con.say(&table.rules())?;
    if let Some(path) = &args.record {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let moves = read_record(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if !replay(&mut table.g, &moves, con)? {
            return Ok(());
        }
        if args.you.is_none() {
            table.you = table.g.next_player();
        }
    }
    con.say(&format!(
        "You play {} against the computer (level {}); white moves first. Type `help` for what you can type, `quit` to stop.",
        table.you, opp.level
    ))?;
    let ending = drive(&mut table, seed, &mut opp, con)?;
    if ending != Ending::Over {
        return Ok(());
    }
    let g = &table.g;
    con.say(&format!("\n{}", board(g, con.st)))?;
    let verdict = match g.win() {
        Some(w) => {
            let how = match (w.by_loop, w.by_line) {
                (true, true) => "loop and line",
                (true, false) => "loop",
                _ => "line",
            };
            let who = if w.winner == table.you {
                "You win"
            } else {
                "The computer wins"
            };
            // Forced tiles can close the opponent's loop or line: say whose move did it.
            let last = if g.history().len() % 2 == 1 {
                Colour::White
            } else {
                Colour::Red
            };
            let closer = match (last == w.winner, last == table.you) {
                (true, _) => "",
                (false, true) => " Your move closed it for the computer.",
                (false, false) => " The computer's move closed it for you.",
            };
            format!("{who} ({}): a {} {how}.{closer}", w.winner, w.winner)
        }
        None if g.tiles() == 64 => "A draw: the 8x8 board is full.".into(),
        None => "A draw: the player to move has no legal move within the 8x8 area.".into(),
    };
    con.say(&format!(
        "Game over after {} moves, {} tiles. {verdict}",
        g.history().len(),
        g.tiles()
    ))?;
    Ok(())
}

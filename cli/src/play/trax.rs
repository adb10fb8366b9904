//! `arbiter play trax`: a game against the built-in opponent, with the board in notation coordinates.

use crate::view::{ask, Style};
use arbiter_core::trax::{ai, column_name, Colour, Move, Trax, Variant};
use arbiter_core::{Game, Rng};
use std::io::{BufRead, Write};

/// The board: every tile's four edge colours around its shape symbol, with column letters and
/// row numbers of the notation (including the empty border where moves go).
pub fn board(g: &Trax, st: Style) -> String {
    let (w, h) = g.size();
    let mut out = String::new();
    let edge = |c: Colour| match (c, st.color) {
        (Colour::Red, true) => "\x1b[1;31m●\x1b[0m".to_string(),
        (Colour::White, true) => "\x1b[1;97m●\x1b[0m".to_string(),
        (Colour::Red, false) => "r".to_string(),
        (Colour::White, false) => "w".to_string(),
    };
    let mut header = String::from("    ");
    for col in 0..=w + 1 {
        header.push_str(&format!("{:^4}", column_name(col as u64)));
    }
    out.push_str(&header);
    out.push('\n');
    for row in 0..=h + 1 {
        for line in 0..3 {
            let label = if line == 1 { format!("{row:>3} ") } else { "    ".into() };
            out.push_str(&label);
            for col in 0..=w + 1 {
                let cell = match g.tile_at(col, row) {
                    None if line == 1 => st.dim(" ·  "),
                    None => "    ".into(),
                    Some(t) => match line {
                        0 => format!(" {}  ", edge(t.colour(0))),
                        1 => format!("{}{}{} ", edge(t.colour(3)), t.shape().symbol(), edge(t.colour(1))),
                        _ => format!(" {}  ", edge(t.colour(2))),
                    },
                };
                out.push_str(&cell);
            }
            out.push('\n');
        }
    }
    out
}

pub fn run(
    variant: Variant,
    seed: u64,
    you: Colour,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let st = Style::detect();
    let mut g = Trax::new(variant);
    let mut rng = Rng::new(seed);
    writeln!(out, "Trax ({variant}). You play {you}; white moves first.").map_err(io)?;
    writeln!(out, "Moves in official notation: column letter (@ = left of the tiles), row number (0 = above), then + / or \\. E.g. @0+ to start.").map_err(io)?;
    while let Some(mover) = g.to_move() {
        writeln!(out, "\n{}", board(&g, st)).map_err(io)?;
        let mv = if mover == you {
            loop {
                let Some(line) = ask(input, out, &st.bold(&format!("your move ({mover})"))).map_err(io)? else {
                    writeln!(out, "\nEnd of input: game abandoned.").map_err(io)?;
                    return Ok(());
                };
                let line = line.as_str();
                if matches!(line, "quit" | "q" | "resign") {
                    writeln!(out, "You resign: {} wins.", you.other()).map_err(io)?;
                    return Ok(());
                }
                match line.parse::<Move>() {
                    Err(e) => writeln!(out, "{e}").map_err(io)?,
                    Ok(mv) => match g.clone().play(mv) {
                        Ok(()) => break mv,
                        Err(e) => writeln!(out, "Illegal: {e}.").map_err(io)?,
                    },
                }
            }
        } else {
            ai::choose(&g, &mut rng).ok_or("the computer found no move")?
        };
        let report = g.play_explained(mv).map_err(|e| e.to_string())?;
        let forced: Vec<String> = report.forced.iter().map(|&(x, y)| g.cell_name(x, y)).collect();
        let placed = g.cell_name(report.placed.0, report.placed.1);
        write!(out, "{mover} plays {mv} (now {placed})").map_err(io)?;
        if forced.is_empty() {
            writeln!(out, ".").map_err(io)?;
        } else {
            writeln!(out, "; forced tiles fall at {}.", forced.join(", ")).map_err(io)?;
        }
    }
    writeln!(out, "\n{}", board(&g, st)).map_err(io)?;
    let verdict = match g.outcome().and_then(|o| o.winner()) {
        Some(w) if w == you => "You win!".to_string(),
        Some(w) => format!("{w} wins: the computer."),
        None => "A draw.".to_string(),
    };
    writeln!(
        out,
        "Game over after {} moves, {} tiles. {verdict}",
        g.history().len(),
        g.tiles()
    )
    .map_err(io)?;
    Ok(())
}

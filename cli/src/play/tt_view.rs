//! Terminal rendering of Triple Triad: the board, hands and what a move captured.

use arbiter_core::tripletriad::{Captures, Card, Element, Player, Side, TripleTriad};
use std::fmt::Write;

/// ANSI styling, switched off when the output is not a terminal or NO_COLOR is set.
#[derive(Clone, Copy)]
pub struct Style {
    pub color: bool,
}

impl Style {
    pub fn detect() -> Style {
        use std::io::IsTerminal;
        Style {
            color: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn player(&self, p: Player, text: &str) -> String {
        self.paint(if p == Player::Blue { "1;97;44" } else { "1;97;41" }, text)
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }
}

fn element_mark(e: Element) -> &'static str {
    match e {
        Element::None => " ",
        Element::Fire => "F",
        Element::Ice => "I",
        Element::Thunder => "T",
        Element::Earth => "E",
        Element::Poison => "P",
        Element::Wind => "W",
        Element::Water => "~",
        Element::Holy => "H",
    }
}

fn short(name: &str, width: usize) -> String {
    let s: String = name.chars().take(width).collect();
    format!("{s:^width$}")
}

const W: usize = 11;

/// The three text lines of one cell, without borders.
fn cell_lines(g: &TripleTriad, cell: u8, st: Style) -> [String; 3] {
    let element = g
        .rules()
        .elemental
        .then(|| g.elements()[cell as usize])
        .flatten()
        .unwrap_or(Element::None);
    match g.cell(cell) {
        None => {
            let mark = if element == Element::None {
                String::new()
            } else {
                format!("({})", element)
            };
            [
                " ".repeat(W),
                st.dim(&format!("{:^W$}", cell)),
                st.dim(&format!("{:^W$}", mark)),
            ]
        }
        Some((card, owner)) => {
            let r = g.effective_ranks(cell).unwrap_or(card.ranks).map(Card::rank_symbol);
            let lines = [
                format!(
                    "{}    {}    {}",
                    element_mark(card.element),
                    r[Side::Top as usize],
                    element_mark(element)
                ),
                format!(
                    "{} {} {}",
                    r[Side::Left as usize],
                    short(&card.name, 7),
                    r[Side::Right as usize]
                ),
                format!("     {}     ", r[Side::Bottom as usize]),
            ];
            lines.map(|l| st.player(owner, &format!("{l:W$}")))
        }
    }
}

/// The board with cell numbers, owners as colours (and `b`/`r` marks without colour).
pub fn board(g: &TripleTriad, st: Style) -> String {
    let mut out = String::new();
    let wall_label = |cell: u8, side: Side| {
        g.walls()
            .iter()
            .find(|w| w.cell == cell && w.side == side)
            .map(|w| w.label.to_string())
    };
    let top: Vec<String> = (0..3)
        .map(|c| wall_label(c, Side::Top).map_or("-".repeat(W), |l| format!("{:-^W$}", l)))
        .collect();
    let _ = writeln!(out, "   +{}+", top.join("+"));
    for row in 0..3u8 {
        let cells: Vec<[String; 3]> = (0..3).map(|c| cell_lines(g, row * 3 + c, st)).collect();
        #[allow(clippy::needless_range_loop)] // `line` also picks the wall label and owner marks
        for line in 0..3 {
            let left = if line == 1 {
                wall_label(row * 3, Side::Left).unwrap_or_default()
            } else {
                String::new()
            };
            let right = if line == 1 {
                wall_label(row * 3 + 2, Side::Right).unwrap_or_default()
            } else {
                String::new()
            };
            let owners: String = if !st.color && line == 2 {
                (0..3)
                    .map(|c| match g.cell(row * 3 + c) {
                        Some((_, Player::Blue)) => 'b',
                        Some((_, Player::Red)) => 'r',
                        None => ' ',
                    })
                    .collect()
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "{left:>3}|{}|{}|{}|{right} {owners}",
                cells[0][line], cells[1][line], cells[2][line]
            );
        }
        let sep: Vec<String> = if row == 2 {
            (0..3)
                .map(|c| wall_label(6 + c, Side::Bottom).map_or("-".repeat(W), |l| format!("{:-^W$}", l)))
                .collect()
        } else {
            vec!["-".repeat(W); 3]
        };
        let _ = writeln!(out, "   +{}+", sep.join("+"));
    }
    out
}

/// A hand line per card: index, name, ranks, element; hidden cards as `?`.
pub fn hand(title: &str, owner: Player, cards: &[Option<Card>], st: Style) -> String {
    let mut out = format!("{}\n", st.player(owner, &format!(" {title} ")));
    for (i, c) in cards.iter().enumerate() {
        let _ = match c {
            Some(c) => {
                let r = c.ranks.map(Card::rank_symbol);
                let e = if c.element == Element::None {
                    String::new()
                } else {
                    format!(" {}", c.element)
                };
                writeln!(
                    out,
                    "  [{i}] {:<16} top {} right {} bottom {} left {}{e}",
                    c.name, r[0], r[1], r[2], r[3]
                )
            }
            None => writeln!(out, "  [{i}] ? (hidden)"),
        };
    }
    out
}

/// Says in words what a placement did.
pub fn explain(g: &TripleTriad, mover: Player, card: &Card, c: &Captures) -> String {
    let names = |mask: u16| -> String {
        (0..9u8)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| format!("{} (cell {i})", g.cell(i).map_or("?", |(c, _)| c.name.as_str())))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = format!("{mover} plays {} on cell {}", card.name, c.placed_on);
    if c.rotated {
        let _ = write!(out, "; the power wall slides the line and it lands on cell {}", c.cell);
    }
    out.push('.');
    for (label, mask) in [
        ("Same", c.same),
        ("Plus", c.plus),
        ("Basic", c.basic),
        ("Battle", c.battle),
        ("Combo", c.combo),
    ] {
        if mask != 0 {
            let _ = write!(out, "\n  {label}: takes {}", names(mask));
        }
    }
    if c.placed_lost {
        let _ = write!(
            out,
            "\n  Battle: {} loses a battle and turns {}",
            card.name,
            mover.other()
        );
    }
    if c.captured() == 0 && !c.placed_lost {
        out.push_str(" Nothing captured.");
    }
    out
}

/// Prints `prompt`, reads one trimmed line; `None` at the end of input.
pub fn ask(
    input: &mut impl std::io::BufRead,
    out: &mut impl std::io::Write,
    prompt: &str,
) -> std::io::Result<Option<String>> {
    write!(out, "{prompt} > ")?;
    out.flush()?;
    let mut line = String::new();
    Ok((input.read_line(&mut line)? > 0).then(|| line.trim().to_string()))
}

//! Triple Triad on the terminal: the board beside both hands in 80x24, a legend that needs no
//! colour, the rules in words, and each capture explained step by step.

use crate::term::{visible_width, Style};
use arbiter_core::tripletriad::{
    Card, DiffMode, Element, MatchConfig, Pair, Player, Side, Step, SuddenDeath, TradeRule, TripleTriad,
};

/// Columns of one cell.
const W: usize = 11;
/// Columns of the board with its wall labels; the hands start after it.
const BOARD_WIDTH: usize = 44;

/// The letter of an owner on the board: what shows who owns a card without colour.
pub fn owner_letter(p: Player) -> char {
    match p {
        Player::Blue => 'B',
        Player::Red => 'R',
    }
}

pub fn paint_player(st: Style, p: Player, text: &str) -> String {
    st.paint(if p == Player::Blue { "1;97;44" } else { "1;97;41" }, text)
}

fn element_letter(e: Element) -> char {
    match e {
        Element::None => ' ',
        Element::Fire => 'F',
        Element::Ice => 'I',
        Element::Thunder => 'T',
        Element::Earth => 'E',
        Element::Poison => 'P',
        Element::Wind => 'W',
        Element::Water => '~',
        Element::Holy => 'H',
    }
}

fn short(name: &str, width: usize) -> String {
    let s: String = name.chars().take(width).collect();
    format!("{s:^width$}")
}

/// The elemental change of the card on `cell`: `+1`, `-1` or nothing (shown once, since it is the
/// same on every side the clamp leaves alone).
fn adjustment(g: &TripleTriad, cell: u8, card: &Card) -> &'static str {
    let eff = g.effective_ranks(cell).unwrap_or(card.ranks);
    match eff.iter().zip(card.ranks).find(|(e, p)| **e != *p) {
        Some((e, p)) if *e > p => "+1",
        Some(_) => "-1",
        None => "",
    }
}

/// The three text lines of one cell, without borders.
fn cell_lines(g: &TripleTriad, cell: u8, st: Style) -> [String; 3] {
    let element = g.elements()[cell as usize].filter(|_| g.rules().elemental);
    match g.cell(cell) {
        None => {
            let mark = element.map_or(String::new(), |e| format!("({e})"));
            [
                " ".repeat(W),
                st.dim(&format!("{cell:^W$}")),
                st.dim(&format!("{mark:^W$}")),
            ]
        }
        Some((card, owner)) => {
            let r = card.ranks.map(Card::rank_symbol);
            let lines = [
                format!(
                    "{}{:<4}{}  {:>2} ",
                    owner_letter(owner),
                    format!("p{}", card.power),
                    r[Side::Top as usize],
                    adjustment(g, cell, card)
                ),
                format!(
                    "{} {} {}",
                    r[Side::Left as usize],
                    short(&card.name, 7),
                    r[Side::Right as usize]
                ),
                format!(
                    "{}    {}    {}",
                    element_letter(card.element),
                    r[Side::Bottom as usize],
                    element_letter(element.unwrap_or(Element::None))
                ),
            ];
            lines.map(|l| paint_player(st, owner, &l))
        }
    }
}

/// The board's lines: cell numbers on empty cells, power-wall labels on the edges.
pub fn board(g: &TripleTriad, st: Style) -> Vec<String> {
    let wall_label = |cell: u8, side: Side| {
        g.walls()
            .iter()
            .find(|w| w.cell == cell && w.side == side)
            .map(|w| w.label.to_string())
    };
    let edge = |cells: [u8; 3], side: Side| -> String {
        let parts: Vec<String> = cells
            .iter()
            .map(|&c| wall_label(c, side).map_or("-".repeat(W), |l| format!("{l:-^W$}")))
            .collect();
        format!("   +{}+", parts.join("+"))
    };
    let mut out = vec![edge([0, 1, 2], Side::Top)];
    for row in 0..3u8 {
        let cells: Vec<[String; 3]> = (0..3).map(|c| cell_lines(g, row * 3 + c, st)).collect();
        #[allow(clippy::needless_range_loop)] // `line` also picks the wall labels
        for line in 0..3 {
            let label = |cell, side| {
                (line == 1)
                    .then(|| wall_label(cell, side))
                    .flatten()
                    .unwrap_or_default()
            };
            out.push(format!(
                "{:>3}|{}|{}|{}|{}",
                label(row * 3, Side::Left),
                cells[0][line],
                cells[1][line],
                cells[2][line],
                label(row * 3 + 2, Side::Right)
            ));
        }
        out.push(if row == 2 {
            edge([6, 7, 8], Side::Bottom)
        } else {
            format!("   +{}+", [(); 3].map(|()| "-".repeat(W)).join("+"))
        });
    }
    out
}

/// One line per card of a hand: index, name, printed ranks (top right bottom left), power,
/// element.
pub fn hand_lines(title: &str, owner: Player, cards: &[Option<Card>], st: Style) -> Vec<String> {
    let mut out = vec![paint_player(st, owner, &format!(" {title} "))];
    for (i, c) in cards.iter().enumerate() {
        out.push(match c {
            Some(c) => {
                let r = c.ranks.map(Card::rank_symbol);
                // What the card has of an element and a type (FFXIV's Ascension and Descension read it).
                let element = [
                    (c.element != Element::None).then(|| c.element.to_string()),
                    (!c.card_type.is_none()).then(|| c.card_type.name().to_string()),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" ");
                let name: String = c.name.chars().take(13).collect();
                format!(
                    " [{i}] {name:<13} {} {} {} {} p{:<3}{element}",
                    r[0], r[1], r[2], r[3], c.power
                )
                .trim_end()
                .to_string()
            }
            None => format!(" [{i}] ? (hidden)"),
        });
    }
    out
}

/// Lays `left` and `right` side by side, `left` padded to the board's width.
pub fn beside(left: &[String], right: &[String]) -> String {
    let mut out = String::new();
    for i in 0..left.len().max(right.len()) {
        let l = left.get(i).map_or("", String::as_str);
        let r = right.get(i).map_or("", String::as_str);
        let pad = BOARD_WIDTH.saturating_sub(visible_width(l));
        out.push_str(format!("{l}{}{r}", " ".repeat(pad)).trim_end());
        out.push('\n');
    }
    out
}

/// The short legend under the board.
pub fn legend(g: &TripleTriad) -> String {
    // One line each, filled to the screen where it is printed.
    let mut s = String::from(
        "B/R: blue/red card; p: its power (what a power wall's label compares); ranks as printed \
         (A = 10); +1/-1: elemental change (used by Basic and Combo, not by Same and Plus). Hand \
         ranks: top right bottom left.",
    );
    if g.rules().elemental {
        s.push_str(
            "\nBottom corners: the card's element and the cell's. F fire I ice T thunder \
             E earth P poison W wind ~ water H holy.",
        );
    }
    s
}

/// What the origin of each preset is, for `--help` and the introduction.
pub fn preset_origin(name: &str) -> &'static str {
    match name {
        "ff8" => "Final Fantasy VIII",
        "ttonline" => "the French game server",
        "mush" => "the English text game",
        "ffforever" => "the Russian rules summary",
        "ffxiv" => "Final Fantasy XIV",
        _ => "a preset",
    }
}

/// The placement rules in play, as short items.
pub fn rule_items(c: &MatchConfig) -> Vec<String> {
    let r = &c.rules;
    let hands = match (r.all_open, r.three_open, r.open) {
        (true, _, _) => "All Open",
        (_, true, _) => "Three Open (three of each hand shown)",
        (_, _, true) => "open hands",
        _ => "closed hands",
    };
    let mut items = vec![hands.to_string()];
    let mut add = |on: bool, item: String| {
        if on {
            items.push(item)
        }
    };
    add(
        r.same,
        if r.same_min_matches == 1 {
            "Same (one match is enough)".into()
        } else {
            "Same".into()
        },
    );
    add(r.same_wall, "Same Wall".into());
    add(r.plus, "Plus".into());
    add(r.plus_wall, "Plus Wall".into());
    add(
        r.combo,
        if r.combo_from_basic {
            "Combo (Basic captures chain too)".into()
        } else {
            "Combo".into()
        },
    );
    add(r.battle, "Battle".into());
    add(r.borderless, "borderless board".into());
    add(
        r.elemental,
        format!(
            "Elemental ({})",
            if r.elemental_clamp {
                "ranks kept between 1 and A"
            } else {
                "unclamped"
            }
        ),
    );
    // Final Fantasy XIV's rules, in its own words (`rules/triple-triad-ffxiv.md`).
    for (on, name) in [
        (r.reverse, "Reverse (the lower rank captures)"),
        (r.fallen_ace, "Fallen Ace (a 1 takes an A)"),
        (r.ascension, "Ascension (+1 a card of its type on the board)"),
        (r.descension, "Descension (-1 a card of its type on the board)"),
        (r.order, "Order (cards played in hand order)"),
        (r.chaos, "Chaos (the card to play is drawn)"),
        (r.swap, "Swap (a card of each hand changes sides)"),
        (r.roulette, "Roulette"),
        (r.draft, "Draft"),
        (r.random, "Random hands"),
        (r.sudden_death, "Sudden Death (a draw restarts, five rounds at most)"),
    ] {
        add(on, name.into());
    }
    add(
        r.power_walls || !c.walls.is_empty(),
        if r.power_walls {
            "power walls (labels drawn from the seed)".into()
        } else {
            "power walls".into()
        },
    );
    items
}

/// What a drawn round leads to.
pub fn sudden_death(s: SuddenDeath) -> &'static str {
    match s {
        SuddenDeath::Off => "a draw ends the match",
        SuddenDeath::OwnColours => "sudden death: a draw is replayed, each player taking the cards of their colour",
        SuddenDeath::Shuffle => "sudden death: a draw is replayed with the ten cards dealt again at random",
        SuddenDeath::OriginalHands => "sudden death: a draw is replayed, each player with their own five",
    }
}

/// What the trade costs, in words.
pub fn trade(t: TradeRule) -> String {
    let what = match t {
        TradeRule::Training => "a practice game: no card changes hands".into(),
        TradeRule::None => "no card changes hands".into(),
        TradeRule::One => "the winner takes one of the loser's five cards".into(),
        TradeRule::Two | TradeRule::Three | TradeRule::Four => {
            format!("the winner takes {} of the loser's five cards", t.name())
        }
        TradeRule::All => "the winner takes all five of the loser's cards".into(),
        TradeRule::Diff(DiffMode::Difference) => "the winner takes as many cards as the score difference".into(),
        TradeRule::Diff(DiffMode::OverFive) => "the winner takes as many cards as their score over five".into(),
        TradeRule::Direct => "each player keeps the opponent's cards in their colour at the end".into(),
        TradeRule::DirectSwap => "the winner takes one of the loser's cards and gives up their own card in the same \
             position (the one facing it)"
            .into(),
        TradeRule::Random => "the winner takes one of the loser's five, drawn at random".into(),
    };
    // The rule in words only: its option name (`diff_over_five`) is for command lines.
    format!("trade: {what}")
}

/// The whole rule set, in words.
pub fn rules(c: &MatchConfig) -> String {
    let clock = match c.time {
        Some(t) => format!("\nClock: {t} s a move; when it runs out, a card is played for you (--time)."),
        None => String::new(),
    };
    format!(
        "Rules: {}.\nAfter a round: {}.\nAt the end: {}.{clock}\nThe full rules: arbiter rules triple-triad.",
        rule_items(c).join(", "),
        sudden_death(c.sudden_death),
        trade(c.trade)
    )
}

fn rank(r: u8) -> String {
    if r == 10 {
        "A".into()
    } else {
        r.to_string()
    }
}

/// Says in words what the last placement on `g` did, step by step: the core's account of it
/// ([`TripleTriad::last_move`]), worded on the board after it.
pub fn explain(g: &TripleTriad, mover: Player, who: &str, card: &Card) -> String {
    let name = |cell: Option<u8>| match cell {
        Some(cell) => g
            .cell(cell)
            .map_or("?".to_string(), |(k, _)| format!("{} (cell {cell})", k.name)),
        None => "the wall".to_string(),
    };
    let names = |cells: &[u8]| cells.iter().map(|&c| name(Some(c))).collect::<Vec<_>>().join(", ");
    let takes = |cells: &[u8]| {
        if cells.is_empty() {
            "takes nothing".to_string()
        } else {
            format!("takes {}", names(cells))
        }
    };
    let versus = |p: &Pair| {
        let (beats, note) = match p.by {
            Some("reverse") => ("<", " (Reverse)"),
            Some("fallen_ace") => ("vs", " (Fallen Ace)"),
            _ => (">", ""),
        };
        let (side, mine, other, to) = (p.side, rank(p.rank), rank(p.other), name(p.to));
        format!("{side} {mine} {beats} {other} of {to}{note}")
    };
    let Some(last) = g.last_move() else {
        return format!("{who} ({mover}) played {}.", card.name);
    };
    let mut out = format!(
        "{who} ({mover}) played {} on cell {}",
        card.name, last.captures.placed_on
    );
    for step in &last.steps {
        if let Step::Wall { wall, cell, .. } = step {
            out.push_str(&format!(
                "; the {} power wall slid its line and the card landed on cell {cell}",
                wall.label
            ));
        }
    }
    out.push('.');
    for step in &last.steps {
        match step {
            Step::Place { .. } | Step::Wall { .. } => {}
            Step::Ascension { types } | Step::Descension { types } => {
                let mods: Vec<String> = types
                    .iter()
                    .map(|m| format!("{} {:+}", m.card_type, m.modifier))
                    .collect();
                let rule = if matches!(step, Step::Ascension { .. }) {
                    "Ascension"
                } else {
                    "Descension"
                };
                out.push_str(&format!(
                    "
  {rule}: {}.",
                    mods.join(", ")
                ));
            }
            Step::Same { pairs, captured } => {
                let pairs: Vec<String> = pairs
                    .iter()
                    .map(|p| format!("{} {} = {} of {}", p.side, rank(p.rank), rank(p.other), name(p.to)))
                    .collect();
                out.push_str(&format!("\n  Same: {}; {}.", pairs.join(", "), takes(captured)));
            }
            Step::Plus { pairs, captured } => {
                let sums: Vec<String> = pairs
                    .iter()
                    .map(|s| {
                        format!(
                            "{} {}+{} = {}",
                            s.pair.side,
                            rank(s.pair.rank),
                            rank(s.pair.other),
                            s.sum
                        )
                    })
                    .collect();
                out.push_str(&format!("\n  Plus: {}; {}.", sums.join(", "), takes(captured)));
            }
            Step::Basic { pairs, .. } => {
                let wins: Vec<String> = pairs.iter().map(versus).collect();
                out.push_str(&format!("\n  Basic: {}.", wins.join(", ")));
            }
            Step::Battle { fights, .. } => {
                for f in fights {
                    let verdict = match f.winner {
                        Some(w) if w == mover => format!("takes {}", name(f.pair.to)),
                        Some(_) => format!("{} loses and turns {}", card.name, mover.other()),
                        None => "no change".to_string(),
                    };
                    out.push_str(&format!(
                        "\n  Battle: {} {} = {} of {}, rank sums {} and {}: {verdict}.",
                        f.pair.side,
                        rank(f.pair.rank),
                        rank(f.pair.other),
                        name(f.pair.to),
                        f.total,
                        f.other_total
                    ));
                }
            }
            Step::Combo { wave, pairs, .. } => {
                let wins: Vec<String> = pairs
                    .iter()
                    .map(|p| format!("{} takes {} ({})", name(Some(p.from)), name(p.to), versus(p)))
                    .collect();
                out.push_str(&format!("\n  Combo {wave}: {}", wins.join("; ")));
            }
        }
    }
    if last.captures.captured() == 0 && !last.captures.placed_lost {
        out.push_str(" Nothing captured.");
    }
    out
}

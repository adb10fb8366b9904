//! Triple Triad on the terminal: the board beside both hands in 80x24, a legend that needs no
//! colour, the rules in words, and each capture explained step by step.

use crate::term::{visible_width, Style};
use arbiter_core::tripletriad::{
    Captures, Card, DiffMode, Element, MatchConfig, Player, Side, SuddenDeath, TradeRule, TripleTriad,
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
                    "{}    {}  {:>2} ",
                    owner_letter(owner),
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

/// One line per card of a hand: index, name, printed ranks (top right bottom left), element.
pub fn hand_lines(title: &str, owner: Player, cards: &[Option<Card>], st: Style) -> Vec<String> {
    let mut out = vec![paint_player(st, owner, &format!(" {title} "))];
    for (i, c) in cards.iter().enumerate() {
        out.push(match c {
            Some(c) => {
                let r = c.ranks.map(Card::rank_symbol);
                let element = if c.element == Element::None {
                    String::new()
                } else {
                    c.element.to_string()
                };
                let name: String = c.name.chars().take(13).collect();
                format!(" [{i}] {name:<13} {} {} {} {} {element}", r[0], r[1], r[2], r[3])
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
        "B/R: blue/red card; ranks as printed (A = 10); +1/-1: elemental change (used by \
         Basic and Combo, not by Same and Plus). Hand ranks: top right bottom left.",
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
        _ => "a preset",
    }
}

/// The placement rules in play, as short items.
pub fn rule_items(c: &MatchConfig) -> Vec<String> {
    let r = &c.rules;
    let mut items = vec![if r.open { "open hands" } else { "closed hands" }.to_string()];
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
    add(!c.walls.is_empty(), "power walls".into());
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
    format!("trade {t}: {what}")
}

/// The whole rule set, in words.
pub fn rules(c: &MatchConfig) -> String {
    format!(
        "Rules: {}.\nAfter a round: {}.\nAt the end: {}.\nThe full rules: arbiter rules triple-triad.",
        rule_items(c).join(", "),
        sudden_death(c.sudden_death),
        trade(c.trade)
    )
}

/// The cell beside `cell` on `side` (across the edge on a borderless board).
fn neighbour(g: &TripleTriad, cell: u8, side: Side) -> Option<u8> {
    let (row, col) = (cell / 3, cell % 3);
    let wrap = g.rules().borderless;
    let step = |v: u8, d: i8| -> Option<u8> {
        let n = v as i8 + d;
        match n {
            0..=2 => Some(n as u8),
            _ if wrap => Some(n.rem_euclid(3) as u8),
            _ => None,
        }
    };
    match side {
        Side::Top => step(row, -1).map(|r| r * 3 + col),
        Side::Bottom => step(row, 1).map(|r| r * 3 + col),
        Side::Left => step(col, -1).map(|c| row * 3 + c),
        Side::Right => step(col, 1).map(|c| row * 3 + c),
    }
}

fn mask_has(mask: u16, cell: u8) -> bool {
    mask & (1 << cell) != 0
}

fn rank(r: u8) -> String {
    if r == 10 {
        "A".into()
    } else {
        r.to_string()
    }
}

/// Says in words what a placement did, step by step, on the board after it (`g`).
pub fn explain(g: &TripleTriad, mover: Player, who: &str, card: &Card, c: &Captures) -> String {
    let name = |cell: u8| {
        g.cell(cell)
            .map_or("?".to_string(), |(k, _)| format!("{} (cell {cell})", k.name))
    };
    let names = |mask: u16| {
        (0..9u8)
            .filter(|&i| mask_has(mask, i))
            .map(name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let printed = |cell: u8, side: Side| g.cell(cell).map_or(0, |(k, _)| k.rank(side));
    let effective = |cell: u8, side: Side| g.effective_ranks(cell).map_or(0, |r| r[side as usize]);
    let mut out = format!("{who} ({mover}) played {} on cell {}", card.name, c.placed_on);
    if c.rotated {
        out.push_str(&format!(
            "; the power wall slid its line and the card landed on cell {}",
            c.cell
        ));
    }
    out.push('.');
    let sides = Side::ALL.map(|s| (s, neighbour(g, c.cell, s)));
    let rules = g.rules();
    if c.same != 0 {
        let mut pairs: Vec<String> = sides
            .iter()
            .filter_map(|&(s, n)| {
                let n = n.filter(|&n| mask_has(c.same_matches, n))?;
                let v = rank(card.rank(s));
                Some(format!("{s} {v} = {v} of {}", name(n)))
            })
            .collect();
        if rules.same_wall {
            pairs.extend(
                sides
                    .iter()
                    .filter(|(s, n)| n.is_none() && card.rank(*s) == 10)
                    .map(|(s, _)| format!("{s} A = the wall (Same Wall)")),
            );
        }
        out.push_str(&format!("\n  Same: {}; takes {}.", pairs.join(", "), names(c.same)));
    }
    if c.plus != 0 {
        // Per side: the placed card's rank, the facing rank, and whether the face is a wall.
        let sums: Vec<(Side, u8, u8, bool)> = sides
            .iter()
            .filter_map(|&(s, n)| match n {
                Some(n) if g.cell(n).is_some() => Some((s, card.rank(s), printed(n, s.opposite()), false)),
                None if rules.plus_wall => Some((s, card.rank(s), 10, true)),
                _ => None,
            })
            .collect();
        let total = |&(_, a, b, _): &(Side, u8, u8, bool)| a + b;
        let shown: Vec<String> = sums
            .iter()
            .filter(|x| sums.iter().filter(|y| total(y) == total(x)).count() > 1)
            .map(|&(s, a, b, wall)| {
                let face = if wall { "A (the wall)".into() } else { rank(b) };
                format!("{s} {}+{face} = {}", rank(a), a + b)
            })
            .collect();
        out.push_str(&format!("\n  Plus: {}; takes {}.", shown.join(", "), names(c.plus)));
    }
    if c.basic != 0 {
        let wins: Vec<String> = sides
            .iter()
            .filter_map(|&(s, n)| {
                let n = n.filter(|&n| mask_has(c.basic, n))?;
                Some(format!(
                    "{s} {} > {} of {}",
                    effective(c.cell, s),
                    effective(n, s.opposite()),
                    name(n)
                ))
            })
            .collect();
        out.push_str(&format!("\n  Basic: {}.", wins.join(", ")));
    }
    if c.battle != 0 {
        out.push_str(&format!(
            "\n  Battle: equal sides, higher rank sum; takes {}.",
            names(c.battle)
        ));
    }
    if c.placed_lost {
        out.push_str(&format!(
            "\n  Battle: {} loses on rank sum and turns {}.",
            card.name,
            mover.other()
        ));
    }
    for (i, wave) in combo_waves(g, c).iter().enumerate() {
        out.push_str(&format!("\n  Combo {}: {}", i + 1, wave.join("; ")));
    }
    if c.captured() == 0 && !c.placed_lost {
        out.push_str(" Nothing captured.");
    }
    out
}

/// The Combo captures wave by wave: each card taken, and which card of the wave before (or of
/// Same and Plus) took it on adjusted ranks. The core gives the cards as one mask; the waves
/// follow from the board.
fn combo_waves(g: &TripleTriad, c: &Captures) -> Vec<Vec<String>> {
    let mut left = c.combo;
    let mut frontier = c.same | c.plus | if g.rules().combo_from_basic { c.basic } else { 0 };
    let mut waves = Vec::new();
    let eff = |cell: u8, side: Side| g.effective_ranks(cell).map_or(0, |r| r[side as usize]);
    let label = |cell: u8| {
        g.cell(cell)
            .map_or("?".to_string(), |(k, _)| format!("{} ({cell})", k.name))
    };
    while left != 0 && frontier != 0 {
        let mut wave = Vec::new();
        let mut next = 0u16;
        for from in (0..9u8).filter(|&i| mask_has(frontier, i)) {
            for side in Side::ALL {
                let Some(n) = neighbour(g, from, side).filter(|&n| mask_has(left, n)) else {
                    continue;
                };
                if eff(from, side) > eff(n, side.opposite()) {
                    wave.push(format!("{} takes {}", label(from), label(n)));
                    next |= 1 << n;
                }
            }
        }
        left &= !next;
        frontier = next;
        if !wave.is_empty() {
            waves.push(wave);
        }
    }
    if left != 0 {
        let rest = (0..9u8).filter(|&i| mask_has(left, i)).map(label).collect::<Vec<_>>();
        waves.push(vec![format!("also takes {}", rest.join(", "))]);
    }
    waves
}

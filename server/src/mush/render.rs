//! The text game's views: stash, details, decks, the shop's lists, the grid.

use arbiter_core::tripletriad::{Card, Element};
use arbiter_economy::ShopCard;
use serde_json::Value;

use crate::economy::{DeckCheck, DeckView, StashEntry};

/// `3 5 6 4` as the seed writes ranks: up, left, right, down (A for 10).
pub fn ranks(c: &Card) -> String {
    let s = |r: u8| Card::rank_symbol(r).to_string();
    let [top, right, bottom, left] = c.ranks;
    format!("{} {} {} {}", s(top), s(left), s(right), s(bottom))
}

fn element(e: Element) -> String {
    if e == Element::None {
        "-".into()
    } else {
        let n = e.name();
        n[..1].to_uppercase() + &n[1..]
    }
}

pub fn stash(entries: &[StashEntry]) -> Vec<String> {
    if entries.is_empty() {
        return vec!["Your stash is empty. Type +TT/Starter for your starter set.".into()];
    }
    let total: u32 = entries.iter().map(|e| e.count).sum();
    let mut out = vec![format!("Your stash: {total} cards, {} different.", entries.len())];
    out.extend(
        entries
            .iter()
            .map(|e| format!("{}  {:<20} x{}", e.card.id, e.card.card.name, e.count)),
    );
    out
}

pub fn detail(entries: &[StashEntry]) -> Vec<String> {
    if entries.is_empty() {
        return stash(entries);
    }
    let mut out = vec!["ID    Name                 Lv  U L R D  Element  Owned  In decks".to_string()];
    out.extend(entries.iter().map(|e| {
        format!(
            "{}  {:<20} {:>2}  {}  {:<8} {:>5}  {:>8}",
            e.card.id,
            e.card.card.name,
            e.card.card.level,
            ranks(&e.card.card),
            element(e.card.card.element),
            e.count,
            e.in_decks
        )
    }));
    out
}

pub fn card_line(c: &ShopCard) -> String {
    format!(
        "{} {} (level {}, {} {})",
        c.id,
        c.card.name,
        c.card.level,
        ranks(&c.card),
        element(c.card.element)
    )
}

pub fn deck(d: &DeckView) -> String {
    let cards: Vec<String> = d
        .cards
        .iter()
        .map(|(_, c)| format!("{} {}", c.id, c.card.name))
        .collect();
    let level: u32 = d.cards.iter().map(|(_, c)| u32::from(c.card.level)).sum();
    format!(
        "{}{}: {} card{}, level {level}{}{}",
        d.name,
        if d.current { " (current)" } else { "" },
        d.cards.len(),
        if d.cards.len() == 1 { "" } else { "s" },
        if cards.is_empty() {
            String::new()
        } else {
            format!(" — {}", cards.join(", "))
        },
        d.note.as_ref().map(|n| format!(" [{n}]")).unwrap_or_default()
    )
}

pub fn check(d: &DeckView, c: &DeckCheck) -> String {
    match (&c.problem, c.usable_limitless) {
        (None, _) => format!("Deck {} is ready: 5 cards, level {}.", d.name, c.level_total),
        (Some(_), true) => format!(
            "Deck {} can only be used with the Limitless rule: its levels total {} (the limit is 20).",
            d.name, c.level_total
        ),
        (Some(p), false) => format!("Deck {} cannot be used: {p}.", d.name),
    }
}

/// The grid of a Triple Triad view (`view.observation` for a seat, `view.public` for a
/// spectator), with the hands.
pub fn grid(view: &Value, my_colour: Option<&str>) -> Vec<String> {
    let o = if view["observation"].is_object() {
        &view["observation"]
    } else {
        &view["public"]
    };
    let cell = |i: usize| -> (String, String) {
        match &o["board"][i] {
            Value::Object(p) => {
                let name = p["card"]["name"].as_str().unwrap_or("?");
                let r = ranks_of(&p["card"]["ranks"]);
                let sym = |k: usize| Card::rank_symbol(r[k]);
                let owner = p["owner"].as_str().unwrap_or("?");
                let tag = if owner == "blue" { "B" } else { "R" };
                // The power closes the name's line: the name gives way to it.
                let power = format!(" P{}", p["card"]["power"].as_u64().unwrap_or(0));
                let name: String = name.chars().take(11usize.saturating_sub(power.len())).collect();
                (
                    format!("{tag} {} {} {} {}", sym(0), sym(3), sym(1), sym(2)),
                    name + &power,
                )
            }
            _ => (format!("  ({})    ", i + 1), String::new()),
        }
    };
    let mut out = Vec::new();
    if let Some(round) = view["round"].as_u64() {
        out.push(format!(
            "Round {round}  (ranks: up left right down; B blue, R red; P power)"
        ));
    }
    for row in 0..3 {
        let cells: Vec<(String, String)> = (0..3).map(|c| cell(row * 3 + c)).collect();
        out.push(
            cells
                .iter()
                .map(|(a, _)| format!("{a:<12}"))
                .collect::<Vec<_>>()
                .join("|"),
        );
        out.push(
            cells
                .iter()
                .map(|(_, b)| format!("{b:<12}"))
                .collect::<Vec<_>>()
                .join("|"),
        );
        if row < 2 {
            out.push("------------+------------+------------".into());
        }
    }
    if let Some(walls) = o["walls"].as_array().filter(|w| !w.is_empty()) {
        let words: Vec<String> = walls
            .iter()
            .map(|w| {
                let cell = w["cell"].as_u64().unwrap_or(0) + 1;
                format!(
                    "{} on the {} of {cell}",
                    w["label"].as_str().unwrap_or("?"),
                    w["side"].as_str().unwrap_or("?")
                )
            })
            .collect();
        out.push(format!("Power walls: {}", words.join(", ")));
    }
    if let Some(hand) = o["hand"].as_array() {
        let cards: Vec<String> = hand
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let card = Card::new(c["name"].as_str().unwrap_or("?"), ranks_of(&c["ranks"]));
                format!(
                    "{}) {} [{}] P{}",
                    i + 1,
                    card.name,
                    ranks(&card),
                    c["power"].as_u64().unwrap_or(0)
                )
            })
            .collect();
        out.push(format!(
            "Your hand{}: {}",
            my_colour.map(|c| format!(" ({c})")).unwrap_or_default(),
            cards.join("  ")
        ));
    }
    let opponent = o["opponent_hand"].as_array().map(|h| {
        h.iter()
            .map(|c| match c["name"].as_str() {
                Some(name) => format!("{name} P{}", c["power"].as_u64().unwrap_or(0)),
                None => "(hidden)".to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    });
    if let Some(op) = opponent {
        out.push(format!("Opponent's hand: {op}"));
    }
    if let Some(hands) = o["hands"].as_array() {
        for (colour, h) in ["Blue", "Red"].iter().zip(hands) {
            let n = h.as_array().map_or(0, Vec::len);
            out.push(format!("{colour} holds {n} card{}", if n == 1 { "" } else { "s" }));
        }
    }
    out
}

/// Ranks from a view's JSON (zeros where missing: a view is the server's own, never a client's).
fn ranks_of(v: &Value) -> [u8; 4] {
    let mut out = [0; 4];
    for (o, x) in out.iter_mut().zip(v.as_array().into_iter().flatten()) {
        *o = x.as_u64().unwrap_or(0).min(11) as u8;
    }
    out
}

/// A move as the text game tells it: "blue plays Geezard at position 5" (the card read from
/// the cell it was played on; a power wall may have slid it on, then the notation says where).
pub fn moved(seat: usize, notation: &str, timeout: bool, view: &Value) -> String {
    let who = if seat == 0 { "blue" } else { "red" };
    let cell = notation.split_once('@').and_then(|(_, c)| c.parse::<usize>().ok());
    let o = if view["observation"].is_object() {
        &view["observation"]
    } else {
        &view["public"]
    };
    let timeout = if timeout { " (time ran out)" } else { "" };
    match cell.and_then(|c| o["board"][c]["card"]["name"].as_str().map(|n| (c, n))) {
        Some((c, name)) => format!("{who} plays {name} at position {}{timeout}.", c + 1),
        None => format!("{who} plays {notation}{timeout}."),
    }
}

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

/// The side of a view this interface reads: a seat's observation, or else the public one.
fn seen(view: &Value) -> &Value {
    if view["observation"].is_object() {
        &view["observation"]
    } else {
        &view["public"]
    }
}

/// An element as the view writes it (`"fire"`, `"none"`), in the text game's words.
fn element_word(e: &Value) -> String {
    element(e.as_str().and_then(|n| n.parse().ok()).unwrap_or(Element::None))
}

/// A hand's card: `Ifrit [9 6 2 8] P13`, with its element under Elemental (`(Fire)`).
fn face(c: &Value, elemental: bool) -> String {
    let card = Card::new(c["name"].as_str().unwrap_or("?"), ranks_of(&c["ranks"]));
    let element = element_word(&c["element"]);
    format!(
        "{} [{}] P{}{}",
        card.name,
        ranks(&card),
        c["power"].as_u64().unwrap_or(0),
        if elemental && element != "-" {
            format!(" ({element})")
        } else {
            String::new()
        }
    )
}

/// The grid of a Triple Triad view (`view.observation` for a seat, `view.public` for a
/// spectator), with the hands. Under Elemental each row has a third line: the element of the
/// card on a cell and the cell's own (`Ice [Fire]`), the ranks being those the card plays with,
/// marked +1 or -1 where the element changed them.
pub fn grid(view: &Value, my_colour: Option<&str>) -> Vec<String> {
    let o = seen(view);
    let elemental = o["rules"]["elemental"].as_bool() == Some(true);
    let elements: Vec<Option<String>> = (0..9)
        .map(|i| Some(element_word(&o["elements"][i])).filter(|w| elemental && w != "-"))
        .collect();
    let shown = elements.iter().any(Option::is_some);
    let width = if shown { 18 } else { 12 };
    let cell = |i: usize| -> [String; 3] {
        let under = elements[i].as_ref().map(|e| format!("[{e}]"));
        match &o["board"][i] {
            Value::Object(p) => {
                let printed = ranks_of(&p["card"]["ranks"]);
                let played = match &view["effective"][i] {
                    Value::Array(_) => ranks_of(&view["effective"][i]),
                    _ => printed,
                };
                let mark = if played.iter().zip(printed).any(|(e, p)| *e > p) {
                    " +1"
                } else if played.iter().zip(printed).any(|(e, p)| *e < p) {
                    " -1"
                } else {
                    ""
                };
                let sym = |k: usize| Card::rank_symbol(played[k]);
                let tag = if p["owner"].as_str() == Some("blue") { "B" } else { "R" };
                // The power closes the name's line: the name gives way to it.
                let power = format!(" P{}", p["card"]["power"].as_u64().unwrap_or(0));
                let name: String = p["card"]["name"]
                    .as_str()
                    .unwrap_or("?")
                    .chars()
                    .take((width - 1usize).saturating_sub(power.len()))
                    .collect();
                let elements = if shown {
                    let card = element_word(&p["card"]["element"]);
                    under.map_or(card.clone(), |u| format!("{card} {u}"))
                } else {
                    String::new()
                };
                [
                    format!("{tag} {} {} {} {}{mark}", sym(0), sym(3), sym(1), sym(2)),
                    name + &power,
                    elements,
                ]
            }
            _ => [format!("  ({})    ", i + 1), String::new(), under.unwrap_or_default()],
        }
    };
    let mut out = Vec::new();
    if let Some(round) = view["round"].as_u64() {
        out.push(format!(
            "Round {round}  (ranks: up left right down; B blue, R red; P power{})",
            if shown {
                "; [Fire] a cell's element, +1/-1 what it does to the card on it"
            } else {
                ""
            }
        ));
    }
    let lines = if shown { 3 } else { 2 };
    for row in 0..3 {
        let cells: Vec<[String; 3]> = (0..3).map(|c| cell(row * 3 + c)).collect();
        for k in 0..lines {
            out.push(
                cells
                    .iter()
                    .map(|c| format!("{:<width$}", c[k]))
                    .collect::<Vec<_>>()
                    .join("|"),
            );
        }
        if row < 2 {
            out.push(vec!["-".repeat(width); 3].join("+"));
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
    if let Some(hand) = o["hand"].as_array().filter(|h| !h.is_empty()) {
        let cards: Vec<String> = hand
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}) {}", i + 1, face(c, elemental)))
            .collect();
        out.push(format!(
            "Your hand{}: {}",
            my_colour.map(|c| format!(" ({c})")).unwrap_or_default(),
            cards.join("  ")
        ));
    }
    // A card the rules keep closed is `null`: its face is not known.
    let faces = |h: &Value| -> Vec<Option<String>> {
        h.as_array()
            .into_iter()
            .flatten()
            .map(|c| c["name"].is_string().then(|| face(c, elemental)))
            .collect()
    };
    // An empty hand (the round is over) says nothing, as the player's own does.
    if o["opponent_hand"].as_array().is_some_and(|h| !h.is_empty()) {
        let op: Vec<String> = faces(&o["opponent_hand"])
            .into_iter()
            .map(|f| f.unwrap_or_else(|| "(hidden)".into()))
            .collect();
        out.push(format!("Opponent's hand: {}", op.join(", ")));
    }
    if let Some(hands) = o["hands"].as_array() {
        for (colour, h) in ["Blue", "Red"].iter().zip(hands) {
            let cards = faces(h);
            let n = cards.len();
            out.push(if cards.iter().any(Option::is_some) {
                let shown: Vec<String> = cards
                    .into_iter()
                    .map(|f| f.unwrap_or_else(|| "(hidden)".into()))
                    .collect();
                format!("{colour}'s hand: {}", shown.join(", "))
            } else {
                format!("{colour} holds {n} card{}", if n == 1 { "" } else { "s" })
            });
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
    let o = seen(view);
    let timeout = if timeout { " (time ran out)" } else { "" };
    match (cell, cell.and_then(|c| o["board"][c]["card"]["name"].as_str())) {
        (Some(c), Some(name)) => format!("{who} plays {name} at position {}{timeout}.", c + 1),
        // The move ended a drawn round: the view is the next round's, its board empty.
        (Some(c), None) if o["board"].as_array().is_some_and(|b| b.iter().all(Value::is_null)) => {
            format!("{who} plays their last card at position {}{timeout}.", c + 1)
        }
        _ => format!("{who} plays {notation}{timeout}."),
    }
}

/// The line that ends round `before` of a match whose `view` begins the next one: its result,
/// what the sudden death (`sudden_death`, the rules' word) does with the cards, who moves first.
pub fn round_ended(view: &Value, before: u64, sudden_death: Option<&str>) -> Option<String> {
    let listed = before.checked_sub(1 + view["rounds_before"].as_u64().unwrap_or(0))?;
    let round = &view["rounds"][listed as usize];
    let score = |k: usize| round["scores"][k].as_u64().unwrap_or(0);
    let result = match round["winner"].as_str() {
        None => format!("a {}-{} draw", score(0), score(1)),
        Some(w) => format!("won by {w} {}-{}", score(0), score(1)),
    };
    let cards = match sudden_death {
        Some("original_hands") => "the cards return to their owners' hands",
        Some("own_colours") => "each player takes the cards of their colour",
        Some("shuffle") => "the ten cards are dealt out again, five each",
        _ => "the cards are dealt again",
    };
    let first = match seen(view)["to_move"].as_str() {
        Some(p) => format!(", {}{} moves first", p[..1].to_uppercase(), &p[1..]),
        None => String::new(),
    };
    Some(format!(
        "Round {before} is {result}; {cards}; round {} begins{first}.",
        view["round"]
    ))
}

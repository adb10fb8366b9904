//! Turns the card databases (`data/ff8-cards.json`, a copy of the shared data, and the FFXIV files
//! `data/ffxiv-cards.json` and `data/ffxiv-npcs.json`) into Rust tables, so that the no_std core
//! carries the cards without a JSON parser.

use std::collections::HashSet;
use std::fmt::Write;
use std::path::Path;

#[derive(serde::Deserialize)]
struct Row {
    id: u32,
    name: String,
    level: u8,
    ranks: [u8; 4],
    element: String,
    power: u8,
}

#[derive(serde::Deserialize)]
struct Names {
    en: String,
    fr: String,
}

#[derive(serde::Deserialize)]
struct XivCards {
    cards: Vec<XivCard>,
}

#[derive(serde::Deserialize)]
struct XivCard {
    id: u16,
    name: Names,
    ranks: [u8; 4],
    rarity: u8,
    #[serde(rename = "type")]
    card_type: String,
}

#[derive(serde::Deserialize)]
struct XivNpcs {
    npcs: Vec<XivNpc>,
}

#[derive(serde::Deserialize)]
struct Place {
    en: String,
    fr: String,
    x: u8,
    y: u8,
}

#[derive(serde::Deserialize)]
struct XivNpc {
    id: u16,
    name: Names,
    location: Place,
    rules: Vec<String>,
    fixed: Vec<u16>,
    variable: Vec<u16>,
    rewards: Vec<u16>,
}

fn read(path: &str) -> String {
    println!("cargo:rerun-if-changed={path}");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {path}: {e}"))
}

fn write(name: &str, text: &str) {
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join(name);
    std::fs::write(dest, text).unwrap();
}

fn ff8_cards() {
    let path = "data/ff8-cards.json";
    let rows: Vec<Row> = serde_json::from_str(&read(path)).expect("parse data/ff8-cards.json");
    let mut out = String::from("&[\n");
    for r in &rows {
        let element = match r.element.as_str() {
            "none" => "None",
            "fire" => "Fire",
            "ice" => "Ice",
            "thunder" => "Thunder",
            "earth" => "Earth",
            "poison" => "Poison",
            "wind" => "Wind",
            "water" => "Water",
            "holy" => "Holy",
            other => panic!("unknown element {other} in {path}"),
        };
        assert!(r.ranks.iter().all(|x| (1..=10).contains(x)), "bad ranks for {}", r.name);
        writeln!(
            out,
            "    Ff8Card {{ id: {}, name: {:?}, level: {}, ranks: {:?}, element: Element::{element}, power: {} }},",
            r.id, r.name, r.level, r.ranks, r.power
        )
        .unwrap();
    }
    out.push(']');
    write("ff8_cards.rs", &out);
}

/// `fallen_ace` -> `FallenAce`: the core's rule names as its `Rule` variants.
fn variant(name: &str) -> String {
    name.split('_').map(|w| w[..1].to_ascii_uppercase() + &w[1..]).collect()
}

/// The FFXIV tables; every check the core's lookups rely on is made here, once.
fn ffxiv() {
    let path = "data/ffxiv-cards.json";
    let data: XivCards = serde_json::from_str(&read(path)).expect("parse data/ffxiv-cards.json");
    let mut out = String::from("&[\n");
    // The French names in a table of their own, read only by the lookups by name: what does not
    // read them (the wasm package's deals) does not link them.
    let mut names_fr = String::from("&[\n");
    let mut previous = 0;
    for c in &data.cards {
        assert!(c.id > previous, "{path}: ids must ascend ({})", c.id);
        previous = c.id;
        assert!(
            c.ranks.iter().all(|x| (1..=10).contains(x)),
            "bad ranks for {}",
            c.name.en
        );
        assert!((1..=5).contains(&c.rarity), "bad rarity for {}", c.name.en);
        let card_type = match c.card_type.as_str() {
            "none" | "primal" | "scion" | "beastman" | "garlean" => variant(&c.card_type),
            other => panic!("unknown type {other} in {path}"),
        };
        writeln!(
            out,
            "    FfxivCard {{ id: {}, name: {:?}, ranks: {:?}, rarity: {}, card_type: CardType::{card_type} }},",
            c.id, c.name.en, c.ranks, c.rarity
        )
        .unwrap();
        writeln!(names_fr, "    {:?},", c.name.fr).unwrap();
    }
    out.push(']');
    names_fr.push(']');
    write("ffxiv_cards.rs", &out);
    write("ffxiv_cards_fr.rs", &names_fr);
    let ids: HashSet<u16> = data.cards.iter().map(|c| c.id).collect();

    let path = "data/ffxiv-npcs.json";
    let data: XivNpcs = serde_json::from_str(&read(path)).expect("parse data/ffxiv-npcs.json");
    let known = [
        "roulette",
        "all_open",
        "three_open",
        "sudden_death",
        "reverse",
        "fallen_ace",
        "same",
        "plus",
        "ascension",
        "descension",
        "order",
        "chaos",
        "swap",
        "random",
        "draft",
    ];
    let mut out = String::from("&[\n");
    for n in &data.npcs {
        let who = &n.name.en;
        for id in n.fixed.iter().chain(&n.variable).chain(&n.rewards) {
            assert!(ids.contains(id), "{path}: {who} names card {id}, which {path} lacks");
        }
        let deck: HashSet<u16> = n.fixed.iter().chain(&n.variable).copied().collect();
        assert_eq!(
            deck.len(),
            n.fixed.len() + n.variable.len(),
            "{path}: {who} lists a card twice"
        );
        assert!(
            n.fixed.len() <= 5 && n.fixed.len() + n.variable.len() >= 5,
            "{path}: {who} cannot make a hand of five"
        );
        assert!(
            n.variable.len() <= 16,
            "{path}: {who} has more variable cards than a hand's mask holds"
        );
        let rules: Vec<String> = n
            .rules
            .iter()
            .map(|r| {
                assert!(known.contains(&r.as_str()), "{path}: {who} has an unknown rule {r}");
                format!("Rule::{}", variant(r))
            })
            .collect();
        writeln!(
            out,
            "    Npc {{ id: {}, name: {:?}, name_fr: {:?}, location: {:?}, location_fr: {:?}, x: {}, y: {}, \
             rules: &[{}], fixed: &{:?}, variable: &{:?}, rewards: &{:?} }},",
            n.id,
            n.name.en,
            n.name.fr,
            n.location.en,
            n.location.fr,
            n.location.x,
            n.location.y,
            rules.join(", "),
            n.fixed,
            n.variable,
            n.rewards
        )
        .unwrap();
    }
    out.push(']');
    write("ffxiv_npcs.rs", &out);
}

fn main() {
    // The npm package's build (wasm/scripts/build.mjs) sets `--cfg arbiter_size` on nightly: cold
    // code then asks for `#[optimize(size)]` (lib.rs).
    println!("cargo::rustc-check-cfg=cfg(arbiter_size)");
    ff8_cards();
    ffxiv();
}

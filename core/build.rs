//! Turns the card database (`data/ff8-cards.json`, a copy of the shared data) into a Rust table,
//! so that the no_std core carries the cards without a JSON parser.

use std::fmt::Write;

#[derive(serde::Deserialize)]
struct Row {
    id: u32,
    name: String,
    level: u8,
    ranks: [u8; 4],
    element: String,
    power: u8,
}

fn main() {
    let path = "data/ff8-cards.json";
    println!("cargo:rerun-if-changed={path}");
    let text = std::fs::read_to_string(path).expect("read data/ff8-cards.json");
    let rows: Vec<Row> = serde_json::from_str(&text).expect("parse data/ff8-cards.json");
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
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("ff8_cards.rs");
    std::fs::write(dest, out).unwrap();
}

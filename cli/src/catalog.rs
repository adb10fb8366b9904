//! `arbiter cards` and `arbiter npcs`: the card lists and the FFXIV NPC opponents the core carries.

use crate::term::{Failure, Outcome};
use arbiter_core::tripletriad::ffxiv::{self, FfxivCard, Npc};
use arbiter_core::tripletriad::{Card, FF8_CARDS};
use std::io::Write;

/// Which card list.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Set {
    /// Final Fantasy VIII's 110 cards.
    Ff8,
    /// Final Fantasy XIV's cards (FFTriadBuddy's data).
    Ffxiv,
}

/// Ranks as players write them, top, right, bottom, left.
fn ranks(ranks: [u8; 4]) -> String {
    ranks.map(|r| Card::rank_symbol(r).to_string()).join(" ")
}

/// One line a card.
pub fn cards(set: Set, out: &mut impl Write) -> Outcome {
    match set {
        Set::Ff8 => {
            writeln!(
                out,
                "{:>3}  {:<5}  {:<7}  {:<7}  name",
                "id", "level", "ranks", "element"
            )?;
            for c in FF8_CARDS {
                writeln!(
                    out,
                    "{:>3}  {:<5}  {}  {:<7}  {}",
                    c.id,
                    c.level,
                    ranks(c.ranks),
                    c.element,
                    c.name
                )?;
            }
        }
        Set::Ffxiv => {
            writeln!(out, "{:>3}  {:<5}  {:<7}  {:<8}  name", "id", "stars", "ranks", "type")?;
            for c in ffxiv::CARDS {
                writeln!(
                    out,
                    "{:>3}  {:<5}  {}  {:<8}  {}",
                    c.id,
                    "*".repeat(c.rarity.into()),
                    ranks(c.ranks),
                    c.card_type.name(),
                    c.name
                )?;
            }
        }
    }
    Ok(())
}

fn rule_names(npc: &Npc) -> String {
    if npc.rules.is_empty() {
        return "-".into();
    }
    npc.rules.iter().map(|r| r.name()).collect::<Vec<_>>().join(",")
}

/// Without a name, one line an NPC; with one, that NPC's deck and hands.
pub fn npcs(name: Option<&str>, out: &mut impl Write) -> Outcome {
    let Some(name) = name else {
        writeln!(out, "{:<30}  {:<35}  {:<22}  hands", "name", "location", "rules")?;
        for n in ffxiv::NPCS {
            let place = format!("{} ({}, {})", n.location, n.x, n.y);
            writeln!(
                out,
                "{:<30}  {place:<35}  {:<22}  {}",
                n.name,
                rule_names(n),
                n.hands().len()
            )?;
        }
        return Ok(());
    };
    let npc = ffxiv::npc(name).ok_or_else(|| {
        Failure::Message(format!(
            "no NPC is named {:?} (`arbiter npcs` lists them)",
            name.chars().filter(|c| !c.is_control()).take(64).collect::<String>()
        ))
    })?;
    let card = |id: &u16| ffxiv::card_by_id(*id).expect("the build checked NPC card ids");
    let line = |c: &FfxivCard| {
        format!(
            "{:>3} {:<5} {}  {}",
            c.id,
            "*".repeat(c.rarity.into()),
            ranks(c.ranks),
            c.name
        )
    };
    writeln!(
        out,
        "{} ({}): {} ({}, {})",
        npc.name, npc.name_fr, npc.location, npc.x, npc.y
    )?;
    writeln!(out, "rules: {}", rule_names(npc))?;
    for (label, ids) in [
        ("fixed", npc.fixed),
        ("variable", npc.variable),
        ("rewards", npc.rewards),
    ] {
        writeln!(out, "{label}:")?;
        for id in ids {
            writeln!(out, "  {}", line(card(id)))?;
        }
    }
    let hands = npc.hands();
    writeln!(out, "hands (each of probability 1/{}):", hands.len())?;
    for h in &hands {
        let ids: Vec<String> = h.cards.iter().map(|c| c.id.to_string()).collect();
        writeln!(out, "  {}", ids.join(" "))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(f: impl FnOnce(&mut Vec<u8>) -> Outcome) -> String {
        let mut out = Vec::new();
        f(&mut out).map_err(|e| e.to_string()).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn card_lists_have_a_header_and_a_line_a_card() {
        let xiv = text(|o| cards(Set::Ffxiv, o));
        assert_eq!(xiv.lines().count(), 445);
        assert!(
            xiv.lines().any(|l| l == " 13  *      3 7 2 1  none      Chocobo"),
            "{xiv:.400}"
        );
        let ff8 = text(|o| cards(Set::Ff8, o));
        assert_eq!(ff8.lines().count(), 111);
        assert!(ff8.lines().nth(1).unwrap().ends_with("Geezard"));
    }

    #[test]
    fn npc_list_and_one_npc() {
        let all = text(|o| npcs(None, o));
        assert_eq!(all.lines().count(), 129);
        let baderon = all.lines().find(|l| l.starts_with("Baderon ")).unwrap();
        assert!(baderon.contains("three_open") && baderon.ends_with(" 10"), "{baderon}");
        let one = text(|o| npcs(Some("baderon"), o));
        assert!(one.starts_with("Baderon (Baderon): Limsa Lominsa Upper Decks (12, 11)\nrules: three_open\n"));
        assert!(one.contains("hands (each of probability 1/10):"), "{one}");
        assert_eq!(
            one.lines().filter(|l| l.starts_with("  ") && !l.contains('*')).count(),
            10
        );
        let err = npcs(Some("Nobody\u{1b}[2J"), &mut Vec::new()).unwrap_err().to_string();
        assert_eq!(err, "no NPC is named \"Nobody[2J\" (`arbiter npcs` lists them)");
    }
}

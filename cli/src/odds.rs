//! `arbiter npc-odds` and `arbiter deck`: exact odds of a deck against a FFXIV NPC, and the best
//! deck of a collection against one.

use crate::term::{Failure, Outcome};
use arbiter_core::tripletriad::ffxiv::{self, FfxivCard, Npc, Odds, Opponent, Start};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Who the NPC is taken to be.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Against {
    /// Plays perfectly, knowing both hands.
    Perfect,
    /// Plays each legal move with equal probability.
    Random,
}

impl From<Against> for Opponent {
    fn from(a: Against) -> Opponent {
        match a {
            Against::Perfect => Opponent::Perfect,
            Against::Random => Opponent::Random,
        }
    }
}

/// Who places the first card.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum First {
    /// You.
    Player,
    /// The NPC.
    Npc,
    /// Either, with equal probability (as the game draws it).
    Either,
}

impl From<First> for Start {
    fn from(f: First) -> Start {
        match f {
            First::Player => Start::Player,
            First::Npc => Start::Npc,
            First::Either => Start::Either,
        }
    }
}

#[derive(clap::Args)]
pub struct OddsArgs {
    /// The NPC's name, English or French (case ignored).
    npc: String,
    /// Your five cards: names or ids (`arbiter cards ffxiv` lists them).
    #[arg(num_args = 5, required = true)]
    cards: Vec<String>,
    /// The NPC's play.
    #[arg(long, value_enum, default_value = "perfect")]
    against: Against,
    /// How many threads solve the hands (default: every core).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(clap::Args)]
pub struct DeckArgs {
    /// The NPC's name, English or French (case ignored).
    npc: String,
    /// Your cards: a file with one card a line (name or id; `#` starts a comment), or `all`.
    #[arg(long, default_value = "all")]
    collection: String,
    /// Stop after this many seconds and print the best deck found with an upper bound.
    #[arg(long)]
    budget: Option<f64>,
    /// The NPC's play.
    #[arg(long, value_enum, default_value = "perfect")]
    against: Against,
    /// Who places the first card.
    #[arg(long, value_enum, default_value = "either")]
    first: First,
}

/// Text a user typed, safe to print back.
fn shown(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(64).collect()
}

fn find_npc(name: &str) -> Outcome<&'static Npc> {
    ffxiv::npc(name)
        .ok_or_else(|| Failure::Message(format!("no NPC is named {:?} (`arbiter npcs` lists them)", shown(name))))
}

fn find_card(word: &str) -> Outcome<&'static FfxivCard> {
    let found = match word.trim().parse::<u16>() {
        Ok(id) => ffxiv::card_by_id(id),
        Err(_) => ffxiv::card(word),
    };
    found.ok_or_else(|| {
        Failure::Message(format!(
            "no Final Fantasy XIV card is named or numbered {:?} (`arbiter cards ffxiv` lists them)",
            shown(word)
        ))
    })
}

fn percent(o: Odds) -> String {
    format!(
        "win {:6.2} %  draw {:6.2} %  loss {:6.2} %",
        100.0 * o.win,
        100.0 * o.draw,
        100.0 * o.loss
    )
}

fn failure(e: impl std::fmt::Display) -> Failure {
    Failure::Message(e.to_string())
}

/// The odds per hand and in total, with the time taken.
pub fn npc_odds(args: OddsArgs, out: &mut impl Write) -> Outcome {
    let npc = find_npc(&args.npc)?;
    let deck: Vec<&FfxivCard> = args.cards.iter().map(|w| find_card(w)).collect::<Outcome<_>>()?;
    let deck: [&FfxivCard; 5] = deck.try_into().expect("clap takes five cards");
    let ids = deck.map(|c| c.id);
    if let Err(e) = ffxiv::DeckRule::CURRENT.check(&ids) {
        writeln!(out, "note: the game would refuse this deck: {e}")?;
    }
    let threads = crate::progress::threads(args.threads)?;
    let began = Instant::now();
    let result = ffxiv::odds_threads(&deck, npc, args.against.into(), threads).map_err(failure)?;
    let took = began.elapsed();
    writeln!(out, "{} against {}", deck.map(|c| c.name).join(", "), npc.name)?;
    for h in &result.hands {
        let names: Vec<&str> = h.hand.cards.iter().map(|c| c.name).collect();
        writeln!(out, "hand (1/{}): {}", h.hand.out_of, names.join(", "))?;
        writeln!(out, "  you first  {}", percent(h.player_first))?;
        writeln!(out, "  NPC first  {}", percent(h.npc_first))?;
    }
    writeln!(out, "total, you first  {}", percent(result.total(Start::Player)))?;
    writeln!(out, "total, NPC first  {}", percent(result.total(Start::Npc)))?;
    writeln!(out, "total, either     {}", percent(result.total(Start::Either)))?;
    writeln!(out, "{} positions in {:.3} s", result.nodes, took.as_secs_f64())?;
    Ok(())
}

/// Card ids from a collection file: one card a line, by name or id.
fn read_collection(path: &PathBuf) -> Outcome<Vec<u16>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| Failure::Message(format!("cannot read {}: {e}", path.display())))?;
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| find_card(l).map(|c| c.id))
        .collect()
}

/// The best deck, its probability, the bound and the time taken.
pub fn deck(args: DeckArgs, out: &mut impl Write) -> Outcome {
    let npc = find_npc(&args.npc)?;
    let collection = if args.collection == "all" {
        ffxiv::CARDS.iter().map(|c| c.id).collect()
    } else {
        read_collection(&PathBuf::from(&args.collection))?
    };
    let budget = match args.budget {
        Some(s) if !(s.is_finite() && s >= 0.0) => {
            return Err(Failure::Message(format!("--budget takes seconds, not {s}")))
        }
        Some(s) => Some(Duration::from_secs_f64(s.min(1e9))),
        None => None,
    };
    let began = Instant::now();
    let mut stop = || budget.is_some_and(|b| began.elapsed() >= b);
    let built =
        ffxiv::best_deck(&collection, npc, args.against.into(), args.first.into(), &mut stop).map_err(failure)?;
    let took = began.elapsed();
    match built.deck {
        None if !built.complete => writeln!(out, "no deck yet: stopped before a first deck was scored")?,
        None => writeln!(out, "no deck: the collection holds no five cards the deck rule allows")?,
        Some(ids) => {
            let names: Vec<&str> = ids
                .iter()
                .map(|&id| ffxiv::card_by_id(id).expect("a collection card").name)
                .collect();
            writeln!(out, "deck: {}", names.join(", "))?;
            writeln!(out, "ids: {}", ids.map(|i| i.to_string()).join(" "))?;
            writeln!(out, "win {:.2} %", 100.0 * built.win)?;
        }
    }
    if built.complete {
        writeln!(out, "optimal: every deck of the collection examined")?;
    } else {
        writeln!(
            out,
            "stopped early: the best deck wins at most {:.2} %",
            100.0 * built.upper
        )?;
    }
    writeln!(
        out,
        "{} cards, {} decks, {} rounds, {} positions in {:.3} s",
        collection.len(),
        built.decks,
        built.rounds,
        built.nodes,
        took.as_secs_f64()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(f: impl FnOnce(&mut Vec<u8>) -> Outcome) -> Result<String, String> {
        let mut out = Vec::new();
        f(&mut out).map_err(|e| e.to_string())?;
        Ok(String::from_utf8(out).unwrap())
    }

    fn odds_args(npc: &str, cards: &[&str]) -> OddsArgs {
        OddsArgs {
            npc: npc.into(),
            cards: cards.iter().map(|c| c.to_string()).collect(),
            against: Against::Perfect,
            threads: Some(2),
        }
    }

    #[test]
    fn npc_odds_prints_each_hand_and_the_totals() {
        let text = run(|o| {
            npc_odds(
                odds_args("triple triad master", &["Ifrit", "Titan", "Garuda", "53", "55"]),
                o,
            )
        })
        .unwrap();
        assert!(
            text.contains("hand (1/1): Chocobo, Mandragora, Tonberry, Pudding, Spriggan"),
            "{text}"
        );
        assert!(
            text.contains("total, either     win 100.00 %  draw   0.00 %  loss   0.00 %"),
            "{text}"
        );
        assert!(!text.contains("note:"), "a deck the game allows: {text}");
        let err = run(|o| npc_odds(odds_args("Nobody\u{1b}", &["1", "2", "3", "4", "5"]), o)).unwrap_err();
        assert_eq!(err, "no NPC is named \"Nobody\" (`arbiter npcs` lists them)");
        let err = run(|o| npc_odds(odds_args("triple triad master", &["1", "2", "3", "4", "Geezard"]), o)).unwrap_err();
        assert!(err.contains("\"Geezard\""), "{err}");
    }

    #[test]
    fn deck_reads_a_collection_and_refuses_a_bad_budget() {
        let path = std::env::temp_dir().join(format!("arbiter-deck-test-{}.txt", std::process::id()));
        std::fs::write(&path, "# mine\n27\nMomodi Modi\n29\n30 # a comment\n21\n").unwrap();
        let args = |budget| DeckArgs {
            npc: "Triple Triad Master".into(),
            collection: path.to_string_lossy().into_owned(),
            budget,
            against: Against::Perfect,
            first: First::Either,
        };
        let text = run(|o| deck(args(None), o)).unwrap();
        assert!(text.contains("ids: 27 28 29 30 21\nwin 100.00 %\noptimal"), "{text}");
        let err = run(|o| deck(args(Some(-1.0)), o)).unwrap_err();
        assert_eq!(err, "--budget takes seconds, not -1");
        std::fs::remove_file(&path).unwrap();
    }
}

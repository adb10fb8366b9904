//! `arbiter play nantong`: you (seat 0) against two computer players, deal after deal.

use super::{drive, seed_line, Common, Console, Ending, Session};
use crate::options::NantongSize;
use crate::progress::plural;
use crate::term::{wrap, Frame, Outcome, Style};
use arbiter_core::nantong::{Action, DealScore, Kind, Meld, Nantong, Observation, Seat, Size, Win, WinSource};
use arbiter_core::{Engine, Game, Rng};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    common: Common<Nantong>,
    #[command(flatten)]
    size: NantongSize,
}

const YOU: Seat = Seat::ALL[0];
/// The largest running total kept: far beyond any evening's deals, far within an `i64`.
const MAX_TOTAL: i64 = 1 << 53;

/// The save file's own part: the deal in play and the running totals.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    deal: Nantong,
    totals: [i64; 3],
}

struct NtSession {
    g: Nantong,
    totals: [i64; 3],
}

/// Two paragraphs without line breaks: the screen's width breaks them (breaks written in for 80
/// columns left a word alone on a line at 80 and garbled 40).
const LEGEND: &str = "Cards: 1m to 9m Myriads, 1s to 9s Strings, 1c to 9c Coins; T Thousand, W White Flower, \
    R Red Flower. T, W, R and 9s are old generals (they score double; T, W, R only form triplets). \
    Indicators: the two cards turned up at the deal; groups of their rank or kind score double. A \
    winning hand is seven groups (sequences, triplets, kongs) and a pair.\n\
    `ready` tells the table your hand needs one card to win (your hand is then locked, and a win \
    scores double); `finish` ends your opening declarations without it.";

/// A card in words: `5 of Myriads`, `Red Flower`.
fn card_name(k: Kind) -> String {
    match (k.rank(), k.suit()) {
        (Some(r), Some(s)) => format!("{r} of {}", ["Myriads", "Strings", "Coins"][s as usize]),
        _ if k == Kind::T => "Thousand".into(),
        _ if k == Kind::W => "White Flower".into(),
        _ => "Red Flower".into(),
    }
}

/// A hand grouped by suit for reading: myriads, strings, coins, then T W R.
fn cards(list: &[Kind]) -> String {
    let mut out = String::new();
    let mut last = None;
    for k in list {
        let group = k.suit().unwrap_or(3);
        if last.is_some_and(|l| l != group) {
            out.push_str("  ");
        } else if last.is_some() {
            out.push(' ');
        }
        out.push_str(&k.to_string());
        last = Some(group);
    }
    out
}

fn seat_name(seat: Seat) -> String {
    if seat == YOU {
        "you".into()
    } else {
        format!("seat {}", seat.index())
    }
}

/// An action as an option: what it does, with the card a claim takes.
fn option(a: Action, claim: Option<Kind>) -> String {
    match (a, claim) {
        (Action::Pong | Action::Kong | Action::Win, Some(k)) => format!("{a} (take {k})"),
        (Action::Pass, Some(k)) => format!("pass (leave {k})"),
        _ => a.to_string(),
    }
}

fn table(o: &Observation, st: Style) -> String {
    let mut s = format!(
        "Indicators {} {}   stock {}   dealer: {}\n",
        o.indicators[0],
        o.indicators[1],
        o.stock,
        seat_name(o.dealer)
    );
    for seat in Seat::ALL {
        let i = seat.index();
        let melds = melds(&o.melds[i]);
        let ready = if o.ready[i] { " READY" } else { "" };
        s.push_str(&format!(
            "  {:<7} {:>2} cards{ready}  melds: {}\n",
            seat_name(seat),
            o.hand_sizes[i],
            if melds.is_empty() { "-".into() } else { melds.join(", ") }
        ));
    }
    let recent: Vec<String> = o
        .discards
        .iter()
        .rev()
        .take(12)
        .map(|(s, k)| format!("{k}({})", s.index()))
        .collect();
    s.push_str(&format!(
        "  discards, latest first (seat): {}\n",
        if recent.is_empty() {
            "-".into()
        } else {
            recent.join(" ")
        }
    ));
    s.push_str(&format!("{} {}", st.bold("Your hand:"), cards(&o.hand)));
    s
}

fn melds(list: &[Meld]) -> Vec<String> {
    list.iter()
        .map(|m| format!("{} {}", source_words(m.kind.name()), m.card))
        .collect()
}

fn source_words(name: &str) -> String {
    match name {
        "hezi" => "Tiandi Hezi".into(),
        "completed_by_discard" => "triplet completed by the winning discard".into(),
        other => other.replace('_', " "),
    }
}

fn win_words(w: &Win) -> String {
    let who = if w.seat == YOU {
        "You win".to_string()
    } else {
        format!("Seat {} wins", w.seat.index())
    };
    if w.heavenly {
        return format!("{who}: a heavenly hand (the dealt hand wins at once)!");
    }
    let how = match w.source {
        WinSource::Discard => "on a discard",
        WinSource::SelfDraw => "by self-draw",
        WinSource::KongReplacement => "by a kong replacement draw (kong replacement win)",
        WinSource::RobbedKong => "by robbing a kong",
    };
    format!("{who} {how}, with {} ({}).", w.card, card_name(w.card))
}

/// The score breakdown in words.
fn breakdown(score: &DealScore) -> String {
    let mut s = String::new();
    for (seat, p) in Seat::ALL.into_iter().zip(&score.players) {
        let who = if seat == YOU {
            "You".into()
        } else {
            format!("Seat {}", seat.index())
        };
        s.push_str(&format!("{who}: {} hu (raw {}, rounded up to tens)\n", p.total, p.raw));
        for g in &p.groups {
            let doubled: String = g.doublings.iter().map(|d| format!(" ×2 ({d})")).collect();
            s.push_str(&format!(
                "    {} {} ({}): {} hu{doubled} = {}\n",
                source_words(g.source.name()),
                g.card,
                card_name(g.card),
                g.base,
                g.value
            ));
        }
        for b in &p.bonuses {
            s.push_str(&format!("    bonus, {}: +{}\n", b.name, b.value));
        }
        for m in &p.multipliers {
            s.push_str(&format!("    the whole score ×2: {m}\n"));
        }
    }
    s.push_str(&format!(
        "Settlement: you {:+}, seat 1 {:+}, seat 2 {:+}",
        score.settlement[0], score.settlement[1], score.settlement[2]
    ));
    s
}

impl Session for NtSession {
    const GAME: &'static str = Nantong::NAME;
    const LEVELS: &'static [&'static str] = Nantong::LEVELS;
    type Move = Action;
    type Saved = Saved;

    fn is_over(&self) -> bool {
        self.g.is_over()
    }

    fn choose(&self, level: &str, rng: &mut Rng) -> Result<Option<Action>, arbiter_core::Error> {
        self.g.choose(level, rng)
    }

    fn yours(&self) -> bool {
        self.g.to_move() == Some(YOU)
    }

    fn rules(&self) -> String {
        format!("{LEGEND}\nThe full rules, scoring included: arbiter rules nantong.")
    }

    fn help(&self) -> String {
        "Type the number of an option, or its text (e.g. `discard 5m`, `pong`, `pass`).\n  \
         legend       what the card codes, indicators, ready and finish mean"
            .into()
    }

    fn screen(&self, st: Style, frame: Frame) -> String {
        let obs = self.g.observation(YOU);
        let mut s = format!("\n{}", table(&obs, st));
        if let Some(c) = obs.claim {
            let from = obs.discards.last().map_or("a seat".into(), |(s, _)| seat_name(*s));
            s.push_str(&format!(
                "\n{from} discarded {c} ({}): will you claim it?",
                card_name(c)
            ));
        }
        let listed: Vec<String> = self
            .g
            .legal_moves()
            .iter()
            .enumerate()
            .map(|(i, &a)| format!("{}) {}", i + 1, option(a, obs.claim)))
            .collect();
        s.push_str(&format!(
            "\nYour options:\n{}",
            wrap(&listed, frame.width.saturating_sub(2), "  ")
        ));
        // The table's lines are lists: a long one breaks between cards like prose.
        crate::term::fill_text(&s, frame.width)
    }

    fn prompt(&self) -> String {
        "your choice (number or text)".into()
    }

    fn read(&self, line: &str) -> Result<Action, String> {
        let actions = self.g.legal_moves();
        match line.parse::<usize>() {
            Ok(n) if (1..=actions.len()).contains(&n) => Ok(actions[n - 1]),
            Ok(_) => Err(format!("Choose a number from 1 to {}.", actions.len())),
            Err(_) => {
                let a: Action = line.parse().map_err(|e| format!("{e}"))?;
                if actions.contains(&a) {
                    Ok(a)
                } else {
                    Err(format!("`{a}` is not one of your options now."))
                }
            }
        }
    }

    fn play(&mut self, action: Action, _st: Style) -> Outcome<String> {
        let seat = self.g.to_move().ok_or("the deal is over")?;
        let before = self.g.observation(YOU);
        let taken = before.discards.last().map(|&(s, k)| (s, k));
        self.g.play(action).map_err(|e| e.to_string())?;
        // Every seat answers every discard; at one screen, those with no answer but `pass`
        // (yours included) are passed at once: the computers decide from observations alone, so
        // the haste tells them nothing.
        self.g.pass_forced();
        let after = self.g.observation(YOU);
        let who = if seat == YOU {
            "You".to_string()
        } else {
            format!("Seat {}", seat.index())
        };
        let mut text = match (action, taken) {
            (Action::Pass, _) if seat != YOU => String::new(),
            (Action::Pong | Action::Kong, Some((from, k))) => {
                format!(
                    "{who}: {action}, taking {k} ({}) discarded by {}.",
                    card_name(k),
                    seat_name(from)
                )
            }
            (Action::Discard(k), _) => format!("{who}: discard {k} ({}).", card_name(k)),
            _ => format!("{who}: {action}."),
        };
        // Your own draws (a turn's draw or a replacement) are the cards your hand gained.
        let mut gained = after.hand.clone();
        for k in &before.hand {
            if let Some(i) = gained.iter().position(|g| g == k) {
                gained.remove(i);
            }
        }
        if !gained.is_empty() && !self.g.is_over() {
            let drawn: Vec<String> = gained.iter().map(|&k| format!("{k} ({})", card_name(k))).collect();
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&format!("You draw {}.", drawn.join(" and ")));
        }
        Ok(text)
    }

    fn undo(&mut self) -> bool {
        let Ok(saved) = serde_json::to_value(&self.g) else {
            return false;
        };
        // Back to before your last choice: a pass that was your only option was made for you
        // (`pass_forced`), and stopping before it would ask a question play never asks.
        let mut end = self.g.history().len();
        while let Some(last) = self.g.history()[..end].iter().rposition(|&(s, _)| s == YOU) {
            let mut earlier = saved.clone();
            if let Some(actions) = earlier.get_mut("actions").and_then(|a| a.as_array_mut()) {
                actions.truncate(last);
            }
            let Ok(g) = serde_json::from_value::<Nantong>(earlier) else {
                return false;
            };
            if g.actions() != [Action::Pass] {
                self.g = g;
                return true;
            }
            end = last;
        }
        false
    }

    fn saved(&self) -> Saved {
        Saved {
            deal: self.g.clone(),
            totals: self.totals,
        }
    }

    fn extra(&mut self, line: &str, _st: Style, _frame: Frame) -> Option<String> {
        (line == "legend").then(|| LEGEND.to_string())
    }
}

pub fn run(args: Args, con: &mut Console<impl BufRead, impl Write>) -> Outcome {
    if args.common.load.is_some() && args.size.given() {
        return Err("--load: a saved deal keeps its own size; leave out --groups and --kinds".into());
    }
    let size = args.size.size()?;
    let (mut t, seed, mut opp, loaded) = match args.common.loaded::<Saved>(|s| {
        // Every deal's settlement sums to zero, and so do the totals of real deals.
        if s.totals.iter().map(|&t| i128::from(t)).sum::<i128>() == 0 && s.totals.iter().all(|t| t.abs() <= MAX_TOTAL) {
            Ok(())
        } else {
            Err(format!(
                "the running totals {:?} do not come from deals played (they sum to 0, each within {MAX_TOTAL})",
                s.totals
            ))
        }
    })? {
        Some((state, seed, opp)) => {
            let t = NtSession {
                g: state.deal,
                totals: state.totals,
            };
            (t, seed, opp, true)
        }
        None => {
            let seed = args.common.seed();
            let t = NtSession {
                g: Nantong::sized(seed, size),
                totals: [0; 3],
            };
            (t, seed, args.common.opponent(seed ^ 0xA11CE), false)
        }
    };
    con.say(&format!("Nantong long cards. {}", seed_line(seed, loaded)))?;
    let size = t.g.size();
    if size != Size::FULL {
        let last = Kind::from_index(size.kinds() - 1).ok_or("a deal has at least one kind")?;
        con.say(&format!(
            "A smaller deal: a winning hand is {} and a pair, from a deck of 1m to {last}.",
            plural(size.groups() as u64, "group")
        ))?;
    }
    con.say(&format!(
        "You are seat 0; seats 1 and 2 are the computer (level {}).\n{LEGEND}\n\
         Type an option's number or text, `help` for everything else, `quit` to stop.",
        opp.level
    ))?;
    loop {
        con.say(&format!("\n=== A new deal, dealt by {} ===", seat_name(t.g.dealer())))?;
        if drive(&mut t, seed, &mut opp, con)? != Ending::Over {
            return Ok(());
        }
        let score = t.g.score().ok_or("the deal is over without a score")?.clone();
        con.say(&match t.g.win() {
            Some(w) => format!("\n{}", win_words(w)),
            None => "\nThe stock is exhausted: no winner.".into(),
        })?;
        for seat in Seat::ALL {
            con.say(&format!(
                "  {:<7} {}",
                seat_name(seat),
                cards(&t.g.observation(seat).hand)
            ))?;
            let melds = melds(t.g.melds(seat));
            if !melds.is_empty() {
                con.say(&format!("          melds: {}", melds.join(", ")))?;
            }
        }
        con.say(&breakdown(&score))?;
        for (r, s) in t.totals.iter_mut().zip(score.settlement) {
            *r = r
                .checked_add(s)
                .filter(|r| r.abs() <= MAX_TOTAL)
                .ok_or("the running totals are too large to keep")?;
        }
        con.say(&format!(
            "Running totals: you {:+}, seat 1 {:+}, seat 2 {:+}",
            t.totals[0], t.totals[1], t.totals[2]
        ))?;
        if !con.confirm("Another deal?")? {
            return Ok(());
        }
        t.g = t.g.next_deal();
    }
}

//! `arbiter play nantong`: you (seat 0) against two computer players, deal after deal.

use crate::view::{ask, Style};
use arbiter_core::nantong::{ai, Action, DealScore, Kind, Nantong, Observation, Seat};
use arbiter_core::{Game, Rng};
use std::io::{BufRead, Write};

const YOU: Seat = Seat::ALL[0];

fn cards(list: &[Kind]) -> String {
    // Group by suit for reading: myriads, strings, coins, then T W R.
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

fn table(o: &Observation, st: Style) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "Indicators {} {}   stock {}   dealer seat {}\n",
        o.indicators[0],
        o.indicators[1],
        o.stock,
        o.dealer.index()
    ));
    for seat in 0..3 {
        let melds: Vec<String> = o.melds[seat]
            .iter()
            .map(|m| format!("{} {}", m.kind.name(), m.card))
            .collect();
        let who = if seat == 0 {
            "you   ".to_string()
        } else {
            format!("seat {seat}")
        };
        let ready = if o.ready[seat] { " READY" } else { "" };
        s.push_str(&format!(
            "  {who}: {} cards{ready}  melds: {}\n",
            o.hand_sizes[seat],
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
        "  discards (latest first): {}\n",
        if recent.is_empty() {
            "-".into()
        } else {
            recent.join(" ")
        }
    ));
    s.push_str(&format!("{} {}\n", st.bold("Your hand:"), cards(&o.hand)));
    s
}

fn breakdown(score: &DealScore) -> String {
    let mut s = String::new();
    for (seat, p) in score.players.iter().enumerate() {
        let who = if seat == 0 {
            "You".to_string()
        } else {
            format!("Seat {seat}")
        };
        s.push_str(&format!("{who}: total {} (raw {})\n", p.total, p.raw));
        for g in &p.groups {
            let how = if g.doublings.is_empty() {
                String::new()
            } else {
                format!(" x2 each for: {}", g.doublings.join(", "))
            };
            s.push_str(&format!(
                "    {:?} {}: base {}{how} = {}\n",
                g.source, g.card, g.base, g.value
            ));
        }
        for b in &p.bonuses {
            s.push_str(&format!("    bonus {}: +{}\n", b.name, b.value));
        }
        for m in &p.multipliers {
            s.push_str(&format!("    x2 {m}\n"));
        }
    }
    s.push_str(&format!(
        "Settlement: you {:+}, seat 1 {:+}, seat 2 {:+}\n",
        score.settlement[0], score.settlement[1], score.settlement[2]
    ));
    s
}

pub fn run(seed: u64, input: &mut impl BufRead, out: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let st = Style::detect();
    let mut rng = Rng::new(seed ^ 0xA11CE);
    let mut g = Nantong::new(seed);
    let mut running = [0i64; 3];
    writeln!(
        out,
        "Nantong long cards (seed {seed}). You are seat 0; seats 1 and 2 are the computer."
    )
    .map_err(io)?;
    loop {
        writeln!(out, "\n=== New deal: {} deals ===", g.dealer()).map_err(io)?;
        while let Some(seat) = g.to_move() {
            let obs = g.observation(seat);
            let action = if seat == YOU {
                write!(out, "\n{}", table(&obs, st)).map_err(io)?;
                if let Some(c) = obs.claim {
                    writeln!(out, "Claim on {c}.").map_err(io)?;
                }
                let actions = g.legal_moves();
                let listed: Vec<String> = actions
                    .iter()
                    .enumerate()
                    .map(|(i, a)| format!("{}) {a}", i + 1))
                    .collect();
                writeln!(out, "Your options: {}", listed.join("  ")).map_err(io)?;
                loop {
                    let Some(line) = ask(input, out, &st.bold("choose (number or text)")).map_err(io)? else {
                        writeln!(out, "\nEnd of input: game abandoned.").map_err(io)?;
                        return Ok(());
                    };
                    let line = line.as_str();
                    if line == "quit" {
                        return Ok(());
                    }
                    let chosen = match line.parse::<usize>() {
                        Ok(n) if (1..=actions.len()).contains(&n) => Some(actions[n - 1]),
                        _ => line.parse::<Action>().ok().filter(|a| actions.contains(a)),
                    };
                    match chosen {
                        Some(a) => break a,
                        None => writeln!(out, "Choose one of the listed options.").map_err(io)?,
                    }
                }
            } else {
                ai::choose(&obs, &mut rng).ok_or("the computer found no action")?
            };
            g.play(action).map_err(|e| e.to_string())?;
            if seat != YOU && !matches!(action, Action::Pass) {
                writeln!(out, "{seat}: {action}").map_err(io)?;
            }
        }
        let score = g.score().expect("over");
        match g.win() {
            Some(w) if w.heavenly => writeln!(out, "\nSeat {} wins: a heavenly hand!", w.seat.index()),
            Some(w) => writeln!(out, "\nSeat {} wins on {} ({:?}).", w.seat.index(), w.card, w.source),
            None => writeln!(out, "\nThe stock is exhausted: no winner."),
        }
        .map_err(io)?;
        write!(out, "{}", breakdown(score)).map_err(io)?;
        for (r, s) in running.iter_mut().zip(score.settlement) {
            *r += s;
        }
        writeln!(
            out,
            "Running totals: you {:+}, seat 1 {:+}, seat 2 {:+}",
            running[0], running[1], running[2]
        )
        .map_err(io)?;
        let again = ask(input, out, "Another deal? [y/N]").map_err(io)?;
        if !again.is_some_and(|a| a.eq_ignore_ascii_case("y")) {
            return Ok(());
        }
        g = g.next_deal();
    }
}

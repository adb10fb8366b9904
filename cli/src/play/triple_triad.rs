//! `arbiter play triple-triad`: a match against the built-in opponent in the terminal.

use crate::view::{self, ask, Style};
use arbiter_core::tripletriad::{ai, Match, Move, Player, TradeChoice};
use arbiter_core::{Game, Rng};
use std::io::{BufRead, Write};

pub struct Options {
    pub preset: String,
    pub seed: u64,
    pub level: ai::Level,
    pub you: Player,
}

fn parse_move(s: &str) -> Option<Move> {
    let parts: Vec<&str> = s
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|p| !p.is_empty())
        .collect();
    match parts.as_slice() {
        [card, cell] => Some(Move {
            card: card.parse().ok()?,
            cell: cell.parse().ok()?,
        }),
        [one] => one.parse().ok(),
        _ => None,
    }
}

pub fn run(opts: Options, input: &mut impl BufRead, out: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let st = Style::detect();
    let mut m = Match::from_preset(&opts.preset, opts.seed).map_err(|e| e.to_string())?;
    let mut rng = Rng::new(opts.seed ^ 0x5EED);
    let you = opts.you;
    writeln!(
        out,
        "Triple Triad, preset {} (seed {}). You are {}.",
        opts.preset,
        opts.seed,
        st.player(you, &format!(" {you} "))
    )
    .map_err(io)?;
    writeln!(
        out,
        "Type a move as CARD CELL (e.g. `2 4`: card [2] of your hand onto cell 4), or `quit`."
    )
    .map_err(io)?;
    let mut round = 0;
    while !m.is_over() {
        if m.round_number() != round {
            round = m.round_number();
            if round > 1 {
                writeln!(out, "\n{}", st.bold(&format!("Draw: sudden death, round {round}."))).map_err(io)?;
            }
        }
        let g = m.game().clone();
        let mover = g.next_player();
        let obs = g.observation(you);
        writeln!(out).map_err(io)?;
        write!(out, "{}", view::hand("Opponent", you.other(), &obs.opponent_hand, st)).map_err(io)?;
        write!(out, "{}", view::board(&g, st)).map_err(io)?;
        let mine: Vec<_> = obs.hand.iter().cloned().map(Some).collect();
        write!(out, "{}", view::hand("Your hand", you, &mine, st)).map_err(io)?;
        writeln!(
            out,
            "Score: blue {}, red {}",
            g.score(Player::Blue),
            g.score(Player::Red)
        )
        .map_err(io)?;
        let mv = if mover == you {
            loop {
                let Some(line) = ask(input, out, &st.bold("your move")).map_err(io)? else {
                    writeln!(out, "\nEnd of input: game abandoned.").map_err(io)?;
                    return Ok(());
                };
                if matches!(line.as_str(), "quit" | "q" | "exit") {
                    writeln!(out, "Game abandoned.").map_err(io)?;
                    return Ok(());
                }
                match parse_move(&line) {
                    Some(mv) => match g.check(mv) {
                        Ok(()) => break mv,
                        Err(e) => writeln!(out, "Illegal move: {e}.").map_err(io)?,
                    },
                    None => writeln!(
                        out,
                        "Say CARD CELL, e.g. `0 4` (card index 0..{}, cell 0..8).",
                        obs.hand.len().saturating_sub(1)
                    )
                    .map_err(io)?,
                }
            }
        } else {
            ai::choose(&g.observation(mover), opts.level, &mut rng).ok_or("the opponent found no move")?
        };
        let card = g.hand(mover).nth(mv.card as usize).cloned().ok_or("no such card")?;
        let captures = m.play(mv).map_err(|e| e.to_string())?;
        let after = if m.round_number() == round {
            m.game().clone()
        } else {
            g_after(&g, mv)
        };
        writeln!(out, "\n{}", view::explain(&after, mover, &card, &captures)).map_err(io)?;
    }
    let result = m.result().expect("over");
    let last = m.game().clone();
    writeln!(out).map_err(io)?;
    write!(out, "{}", view::board(&last, st)).map_err(io)?;
    let [b, r] = result.scores;
    let verdict = match result.winner {
        Some(w) if w == you => "You win!".to_string(),
        Some(_) => "The computer wins.".to_string(),
        None => "A draw.".to_string(),
    };
    writeln!(out, "Final score: blue {b}, red {r}. {verdict}").map_err(io)?;
    settle(&mut m, you, input, out, st).map_err(|e| e.to_string())
}

/// The board of a round that ended with `mv` (the match has already moved on to the next round).
fn g_after(g: &arbiter_core::tripletriad::TripleTriad, mv: Move) -> arbiter_core::tripletriad::TripleTriad {
    let mut g = g.clone();
    g.play_unchecked(mv);
    g
}

fn settle(
    m: &mut Match,
    you: Player,
    input: &mut impl BufRead,
    out: &mut impl Write,
    st: Style,
) -> std::io::Result<()> {
    let Ok(choice) = m.trade_choice() else {
        return Ok(());
    };
    let (chooser, count) = match choice {
        TradeChoice::Automatic => (None, 0),
        TradeChoice::Pick { chooser, count } => (Some(chooser), count as usize),
        TradeChoice::Swap { chooser } => (Some(chooser), 1),
    };
    let picks: Vec<u8> = match chooser {
        None => Vec::new(),
        Some(c) if c != you => {
            // The computer takes your strongest cards.
            let yours = m.brought(you);
            let mut idx: Vec<u8> = (0..5).collect();
            idx.sort_by_key(|&i| std::cmp::Reverse(yours[i as usize].rank_sum()));
            idx.truncate(count);
            idx
        }
        Some(_) => {
            let cards: Vec<_> = m.brought(you.other()).iter().cloned().map(Some).collect();
            write!(
                out,
                "{}",
                view::hand("The cards the computer brought", you.other(), &cards, st)
            )?;
            loop {
                let prompt = format!("Choose {count} card(s) to take (indices separated by spaces)");
                let Some(line) = ask(input, out, &prompt)? else {
                    return Ok(());
                };
                let picks: Option<Vec<u8>> = line.split_whitespace().map(|s| s.parse().ok()).collect();
                let distinct = |p: &[u8]| p.iter().enumerate().all(|(i, x)| !p[..i].contains(x));
                match picks {
                    Some(p) if p.len() == count && p.iter().all(|&i| i < 5) && distinct(&p) => break p,
                    _ => writeln!(out, "Give {count} distinct indices 0..4.")?,
                }
            }
        }
    };
    let rule = m.config().trade;
    match m.settle_trade(&picks) {
        Ok(transfers) if transfers.is_empty() => {
            writeln!(out, "Trade ({rule}): no cards change hands.")
        }
        Ok(transfers) => {
            for t in transfers {
                writeln!(
                    out,
                    "Trade ({rule}): {} goes from {} to {}.",
                    t.card.name,
                    t.from,
                    t.from.other()
                )?;
            }
            Ok(())
        }
        Err(e) => writeln!(out, "Trade: {e}"),
    }
}

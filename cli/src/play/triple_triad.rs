//! `arbiter play triple-triad`: a match against the built-in opponent in the terminal.

use super::tt_view::{self as view, beside, board, hand_lines, owner_letter, paint_player};
use super::{drive, seed_line, Common, Console, Ending, Session};
use crate::options;
use crate::term::{visible_width, Frame, Outcome, Style};
use arbiter_core::tripletriad::{
    preset, rules_from_names, Match, Move, Player, Setup, TradeChoice, TripleTriad, DEFAULT_PRESET, PRESETS,
};
use arbiter_core::{spoken_indices, Engine, Game, Rng};
use clap::builder::{PossibleValue, PossibleValuesParser};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};

#[derive(clap::Args)]
pub struct Args {
    /// The rule set (each described below).
    #[arg(long, default_value = DEFAULT_PRESET, value_parser = presets(), conflicts_with = "load")]
    preset: String,
    /// Your colour (default: whoever moves first, drawn from the seed).
    #[arg(long, value_parser = PossibleValuesParser::new(["blue", "red"]), conflicts_with = "load")]
    you: Option<String>,
    /// The French server's « Mur puissant » over the preset: labels on the border drawn from
    /// the seed, fired by the cards' powers.
    #[arg(long, conflicts_with = "load")]
    power_walls: bool,
    /// The gameplay rules instead of the preset's, comma-separated (`none`: no rule at all), e.g.
    /// `same,plus,combo,borderless`.
    #[arg(long, value_delimiter = ',', value_parser = options::values(TripleTriad::NAME, "rules"),
          conflicts_with = "load")]
    rules: Option<Vec<String>>,
    /// Both hands visible to both players, whatever the preset.
    #[arg(long, conflicts_with = "load")]
    open: bool,
    /// Hidden hands, whatever the preset.
    #[arg(long, conflicts_with_all = ["load", "open"])]
    closed: bool,
    /// What a drawn round leads to, instead of the preset's rule.
    #[arg(long, value_parser = options::values(TripleTriad::NAME, "sudden_death"), conflicts_with = "load")]
    sudden_death: Option<String>,
    /// What the winner takes from the loser, instead of the preset's rule.
    #[arg(long, value_parser = options::values(TripleTriad::NAME, "trade"), conflicts_with = "load")]
    trade: Option<String>,
    /// Seconds you have for each move (15 to 300), or `off`, instead of the preset's clock (the
    /// French server's 60 s); when it runs out a card is played for you.
    #[arg(long, value_name = "SECONDS", value_parser = clock, conflicts_with = "load")]
    time: Option<Clock>,
    #[command(flatten)]
    common: Common<TripleTriad>,
}

/// The preset's match with the rules the command line switched, dealt the same hands.
fn with_switches(m: Match, args: &Args, seed: u64) -> Outcome<Match> {
    let mut config = m.config().clone();
    if let Some(names) = &args.rules {
        let open = config.rules.open;
        config.rules = rules_from_names(names).map_err(|e| format!("--rules: {e}"))?;
        // FFXIV's All Open and Three Open say what the hands show, over the preset's.
        config.rules.open = if config.rules.all_open || config.rules.three_open {
            config.rules.all_open
        } else {
            open
        };
    }
    config.rules.power_walls |= args.power_walls;
    if args.open || args.closed {
        config.rules.open = args.open;
    }
    if let Some(s) = &args.sudden_death {
        config.sudden_death = s.parse().map_err(|e| format!("--sudden-death: {e}"))?;
    }
    if let Some(t) = &args.trade {
        config.trade = t.parse().map_err(|e| format!("--trade: {e}"))?;
    }
    if let Some(Clock(time)) = args.time {
        config.time = time;
    }
    if config == *m.config() {
        return Ok(m);
    }
    let (blue, red) = (m.brought(Player::Blue).to_vec(), m.brought(Player::Red).to_vec());
    Ok(Match::new(config, blue, red, seed).map_err(arbiter_core::Error::from)?)
}

/// `--time`: seconds, or `off` for no clock.
#[derive(Clone, Copy)]
struct Clock(Option<u32>);

fn clock(s: &str) -> Result<Clock, String> {
    if s == "off" {
        return Ok(Clock(None));
    }
    match s.parse::<u32>() {
        Ok(t) if (15..=300).contains(&t) => Ok(Clock(Some(t))),
        _ => Err("seconds from 15 to 300, or off".into()),
    }
}

/// The presets with what each plays, for `--help`.
fn presets() -> PossibleValuesParser {
    PossibleValuesParser::new(PRESETS.map(|name| {
        let config = preset(name).expect("every listed preset exists");
        let help = format!(
            "{}: {}; {}; {}",
            view::preset_origin(name),
            view::rule_items(&config).join(", "),
            view::sudden_death(config.sudden_death),
            view::trade(config.trade)
        );
        PossibleValue::new(name).help(help)
    }))
}

/// The save file's own part.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    you: Player,
    preset: String,
    #[serde(rename = "match")]
    m: Match,
}

/// Reads a Triple Triad position: a state in the JSON form of the conformance cases, or a game
/// saved by `arbiter play triple-triad` (its round in play).
pub fn load_state(path: &std::path::Path) -> Result<TripleTriad, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: malformed state: {e}", path.display()))?;
    if super::is_save(&json) {
        let file = super::from_json::<Saved>(json, path, TripleTriad::NAME)?;
        return Ok(file.state.m.game().clone());
    }
    let setup: Setup = serde_json::from_value(json).map_err(|e| format!("{}: malformed state: {e}", path.display()))?;
    TripleTriad::new(&setup).map_err(|e| format!("{}: invalid state: {e}", path.display()))
}

struct TtSession {
    m: Match,
    you: Player,
    preset: String,
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

fn score_line(g: &TripleTriad) -> String {
    format!("Score: blue {}, red {}", g.score(Player::Blue), g.score(Player::Red))
}

impl TtSession {
    fn who(&self, p: Player) -> &'static str {
        if p == self.you {
            "You"
        } else {
            "The computer"
        }
    }

    /// The match replayed from the start through its first `n` moves (over all rounds).
    fn replayed(&self, n: usize) -> Option<Match> {
        let mut m = Match::new(
            self.m.config().clone(),
            self.m.brought(Player::Blue).to_vec(),
            self.m.brought(Player::Red).to_vec(),
            self.m.seed(),
        )
        .ok()?;
        for &mv in self.m.moves().iter().flatten().take(n) {
            m.play(mv).ok()?;
        }
        Some(m)
    }
}

impl Session for TtSession {
    const GAME: &'static str = TripleTriad::NAME;
    const LEVELS: &'static [&'static str] = TripleTriad::LEVELS;
    type Move = Move;
    type Saved = Saved;

    fn is_over(&self) -> bool {
        self.m.game().is_over()
    }

    fn choose(&self, level: &str, rng: &mut Rng) -> Result<Option<Move>, arbiter_core::Error> {
        self.m.game().choose(level, rng)
    }

    fn yours(&self) -> bool {
        self.m.game().to_move() == Some(self.you)
    }

    fn rules(&self) -> String {
        view::rules(self.m.config())
    }

    fn help(&self) -> String {
        "Type a move as CARD CELL: a card's index in your hand, then a board cell (0 to 8)\n  \
         (e.g. `2 4` puts your card [2] on the centre cell; `2@4` works too).\n  \
         legend       what the board's letters and numbers mean"
            .into()
    }

    fn screen(&self, st: Style, frame: Frame) -> String {
        let g = self.m.game();
        let obs = g.observation(self.you);
        let opponent = if g.rules().open { "open" } else { "hidden" };
        let mut right = hand_lines(
            &format!(
                "{} {}: computer, {opponent}",
                owner_letter(self.you.other()),
                self.you.other()
            ),
            self.you.other(),
            &obs.opponent_hand,
            st,
        );
        right.push(String::new());
        let mine: Vec<_> = obs.hand.iter().cloned().map(Some).collect();
        right.extend(hand_lines(
            &format!("{} {}: you", owner_letter(self.you), self.you),
            self.you,
            &mine,
            st,
        ));
        // The hands beside the board where the screen is wide enough, else under it (a line
        // broken by the terminal would garble both).
        let board = board(g, st);
        let side_by_side = beside(&board, &right);
        let layout = if side_by_side.lines().all(|l| visible_width(l) <= frame.width) {
            side_by_side
        } else {
            format!("{}\n\n{}\n", board.join("\n"), right.join("\n"))
        };
        // The legend is said once, at the start and on `legend`, not every turn.
        format!("\n{layout}{}, round {}.", score_line(g), self.m.round_number())
    }

    fn prompt(&self) -> String {
        "your move (CARD CELL)".into()
    }

    fn read(&self, line: &str) -> Result<Move, String> {
        let g = self.m.game();
        let mv = parse_move(line).ok_or_else(|| {
            format!(
                "Say CARD CELL, e.g. `0 4` (card {} of your hand, cell 0 to 8).",
                spoken_indices(g.hand_len(self.you))
            )
        })?;
        g.check(mv).map_err(|e| format!("Illegal move: {e}."))?;
        Ok(mv)
    }

    fn play(&mut self, mv: Move, st: Style) -> Outcome<String> {
        let before = self.m.game().clone();
        let round = self.m.round_number();
        let mover = before.next_player();
        let card = before
            .hand(mover)
            .nth(mv.card as usize)
            .cloned()
            .ok_or("no such card")?;
        self.m.play(mv).map_err(|e| e.to_string())?;
        // A round that ended in a draw has already given way to the next one: explain the move on
        // the board it was played on.
        let after = if self.m.round_number() == round {
            self.m.game().clone()
        } else {
            let mut g = before;
            g.play_unchecked(mv);
            g
        };
        let mut text = view::explain(&after, mover, self.who(mover), &card);
        if self.m.round_number() != round {
            let result = self.m.rounds().last().ok_or("a round ended without a result")?;
            text.push_str(&format!(
                "\n\nRound {round} is a draw, {} to {}. Its final board:\n{}",
                result.scores[0],
                result.scores[1],
                board(&after, st).join("\n")
            ));
            text.push_str(&format!(
                "\n{}: round {} begins; {} moves first.",
                view::sudden_death(self.m.config().sudden_death),
                self.m.round_number(),
                self.m.game().next_player()
            ));
        }
        Ok(text)
    }

    fn undo(&mut self) -> bool {
        // Replay every move, noting who made it: back to just before the person's last move.
        let total: usize = self.m.moves().iter().map(Vec::len).sum();
        let Some(mut m) = self.replayed(0) else { return false };
        let mut last_yours = None;
        for (i, &mv) in self.m.moves().iter().flatten().enumerate().take(total) {
            if m.game().next_player() == self.you {
                last_yours = Some(i);
            }
            if m.play(mv).is_err() {
                return false;
            }
        }
        match last_yours.and_then(|n| self.replayed(n)) {
            Some(m) => {
                self.m = m;
                true
            }
            None => false,
        }
    }

    fn saved(&self) -> Saved {
        Saved {
            you: self.you,
            preset: self.preset.clone(),
            m: self.m.clone(),
        }
    }

    fn clock(&self) -> Option<u32> {
        self.m.config().time
    }

    fn timeout_move(&self) -> Option<Move> {
        self.m.timeout_move()
    }

    fn extra(&mut self, line: &str, _st: Style, _frame: Frame) -> Option<String> {
        (line == "legend").then(|| {
            format!(
                "{}\nEmpty cells show their number (and element, if any). Power walls show their \
                 label on the edge.\nYour hand is listed as [index] name, then the four ranks.",
                view::legend(self.m.game())
            )
        })
    }
}

pub fn run(args: Args, con: &mut Console<impl BufRead, impl Write>) -> Outcome {
    let (mut t, seed, mut opp, loaded) = match args.common.loaded::<Saved>(|s| {
        if PRESETS.contains(&s.preset.as_str()) {
            Ok(())
        } else {
            Err(format!(
                "unknown preset {:?} (expected {})",
                s.preset,
                PRESETS.join(", ")
            ))
        }
    })? {
        Some((state, seed, opp)) => {
            let s = state;
            let t = TtSession {
                m: s.m,
                you: s.you,
                preset: s.preset,
            };
            (t, seed, opp, true)
        }
        None => {
            let seed = args.common.seed();
            let m = with_switches(Match::from_preset(&args.preset, seed)?, &args, seed)?;
            let you = match &args.you {
                Some(name) => TripleTriad::player(name)?,
                None => m.game().next_player(),
            };
            let t = TtSession {
                m,
                you,
                preset: args.preset.clone(),
            };
            // The computer's stream is apart from the match's, so that its choices never change the deal.
            (t, seed, args.common.opponent(seed ^ 0x5EED), false)
        }
    };
    let st = con.st;
    con.say(&format!(
        "Triple Triad, preset {} ({}). {}",
        t.preset,
        view::preset_origin(&t.preset),
        seed_line(seed, loaded)
    ))?;
    con.say(&t.rules())?;
    con.say(&view::legend(t.m.game()))?;
    con.say(&format!(
        "You are {} ({}) against the computer (level {}); {} moves first.\n\
         Type a move as CARD CELL (e.g. `2 4`), `help` for everything else, `quit` to stop.",
        paint_player(st, t.you, &format!(" {} ", t.you)),
        owner_letter(t.you),
        opp.level,
        t.m.game().next_player()
    ))?;
    if drive(&mut t, seed, &mut opp, con)? != Ending::Over {
        return Ok(());
    }
    let result = t.m.result().ok_or("the match is not over")?;
    con.say(&format!("\n{}", board(t.m.game(), st).join("\n")))?;
    let [b, r] = result.scores;
    let verdict = match result.winner {
        Some(w) if w == t.you => "You win!",
        Some(_) => "The computer wins.",
        None => "A draw.",
    };
    let rounds = if result.rounds > 1 {
        format!(" after {} rounds", result.rounds)
    } else {
        String::new()
    };
    con.say(&format!("Final score{rounds}: blue {b}, red {r}. {verdict}"))?;
    settle(&mut t, con)
}

/// The trade: what it will cost is said before the person confirms a choice.
fn settle(t: &mut TtSession, con: &mut Console<impl BufRead, impl Write>) -> Outcome {
    let st = con.st;
    let m = &mut t.m;
    let you = t.you;
    let rule = m.config().trade;
    con.say(&format!("T{}.", &view::trade(rule)[1..]))?;
    let choice = m.trade_choice().map_err(|e| e.to_string())?;
    let yours = m.brought(you).to_vec();
    let theirs = m.brought(you.other()).to_vec();
    let picks: Vec<u8> = match choice {
        TradeChoice::Automatic => Vec::new(),
        TradeChoice::Pick { chooser, .. } | TradeChoice::Swap { chooser } if chooser != you => {
            m.computer_picks().map_err(|e| e.to_string())?
        }
        TradeChoice::Pick { count, .. } => {
            let cards: Vec<_> = theirs.iter().cloned().map(Some).collect();
            con.say(&hand_lines("The computer's five cards", you.other(), &cards, st).join("\n"))?;
            loop {
                let prompt = if count == 1 {
                    "Take 1 card: type its index, from 0 to 4".to_string()
                } else {
                    format!("Take {count} cards: type {count} indices from 0 to 4, separated by spaces")
                };
                let Some(line) = con.ask(&prompt)?.filter(|l| !matches!(l.as_str(), "q" | "quit")) else {
                    return con.say("The trade is left unsettled.").map_err(Into::into);
                };
                let picks: Option<Vec<u8>> = line.split_whitespace().map(|s| s.parse().ok()).collect();
                let distinct = |p: &[u8]| p.iter().enumerate().all(|(i, x)| !p[..i].contains(x));
                match picks {
                    Some(p) if p.len() == count as usize && p.iter().all(|&i| i < 5) && distinct(&p) => {
                        let names: Vec<&str> = p.iter().map(|&i| theirs[i as usize].name.as_str()).collect();
                        if con.confirm(&format!("You take {}. Confirm?", names.join(", ")))? {
                            break p;
                        }
                    }
                    _ => con.say(&format!("Give {count} different indices from 0 to 4."))?,
                }
            }
        }
        TradeChoice::Swap { .. } => {
            let cards: Vec<_> = theirs.iter().cloned().map(Some).collect();
            con.say(&hand_lines("The computer's five cards", you.other(), &cards, st).join("\n"))?;
            let mine: Vec<_> = yours.iter().cloned().map(Some).collect();
            con.say(&hand_lines("Your five cards (each faces the same index)", you, &mine, st).join("\n"))?;
            loop {
                let Some(line) = con.ask("Swap: type one index from 0 to 4")? else {
                    return Ok(());
                };
                match line.parse::<u8>() {
                    Ok(i) if i < 5 => {
                        let q = format!(
                            "You take {} and give up your {} (the facing card). Confirm?",
                            theirs[i as usize].name, yours[i as usize].name
                        );
                        if con.confirm(&q)? {
                            break vec![i];
                        }
                    }
                    _ => con.say("Give one index from 0 to 4.")?,
                }
            }
        }
    };
    let transfers = m.settle_trade(&picks).map_err(|e| e.to_string())?;
    if transfers.is_empty() {
        con.say("No card changes hands.")?;
    }
    for tr in transfers {
        let to = if tr.to == you { "you" } else { "the computer" };
        con.say(&format!("{} ({}'s) goes to {to}.", tr.card.name, tr.from))?;
    }
    Ok(())
}

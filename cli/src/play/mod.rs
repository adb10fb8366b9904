//! `arbiter play GAME`: one game against the built-in opponent, the same way for every game. The
//! loop, the commands every game understands (help, rules, hint, undo, save, quit) and save files
//! are here; each game module says how its moves read and what its screens show.

pub mod nantong;
pub mod trax;
pub mod triple_triad;
mod tt_view;

pub use crate::term::Console;
use crate::term::{fresh_seed, write_whole, Frame, Outcome, Style};
use arbiter_core::{Engine, Rng};
use clap::builder::PossibleValuesParser;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Display;
use std::io::{BufRead, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The options every game has; the levels offered are the game's own ([`Engine::LEVELS`]).
#[derive(clap::Args)]
pub struct Common<G: Engine + Send + Sync + 'static> {
    #[arg(long, conflicts_with = "load", help = seed_help(G::NAME))]
    pub seed: Option<u64>,
    #[arg(long, value_parser = PossibleValuesParser::new(G::LEVELS), help = level_help(G::NAME, G::LEVELS))]
    pub level: Option<String>,
    /// Resume a game saved with `save FILE` during play (its options come from the file).
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    #[arg(skip)]
    game: PhantomData<G>,
}

impl<G: Engine + Send + Sync + 'static> Common<G> {
    /// The seed given, or a fresh one.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(fresh_seed)
    }

    /// The game saved in the `--load` file, its seed and its computer (at the level given, if one
    /// is); `None` without `--load`. Everything the file holds is checked before play: the
    /// computer's level, the game's state (by the core) and what `check` says of the game's own
    /// part, so that a bad save is refused at once, never a game that stops later.
    pub fn loaded<S: DeserializeOwned>(
        &self,
        check: impl Fn(&S) -> Result<(), String>,
    ) -> Result<Option<(S, u64, Opponent)>, String> {
        let Some(path) = &self.load else { return Ok(None) };
        let file = load::<S>(path, G::NAME)?;
        if !G::LEVELS.contains(&file.opponent.level.as_str()) {
            return Err(format!(
                "{}: the saved computer's level {:?} is not one of {}",
                path.display(),
                file.opponent.level,
                G::LEVELS.join(", ")
            ));
        }
        check(&file.state).map_err(|e| format!("{}: {e}", path.display()))?;
        let opp = Opponent {
            level: self.level.clone().unwrap_or(file.opponent.level),
            rng: file.opponent.rng,
        };
        Ok(Some((file.state, file.seed, opp)))
    }

    /// The computer: the level given or the strongest, its choices drawn from `seed`.
    pub fn opponent(&self, seed: u64) -> Opponent {
        Opponent {
            level: self.level.clone().unwrap_or_else(|| strongest(G::LEVELS).into()),
            rng: Rng::new(seed),
        }
    }
}

/// The built-in opponent: its level and its random stream (saved, so a loaded game goes on as the
/// saved one would have).
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opponent {
    pub level: String,
    pub rng: Rng,
}

/// A save file: the game, its seed, the computer, and the game's own state (core's JSON).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile<S> {
    pub game: String,
    pub seed: u64,
    pub opponent: Opponent,
    pub state: S,
}

/// `--seed`'s help: what the seed draws in this game.
fn seed_help(game: &str) -> String {
    let drawn = match game {
        "triple-triad" => "the hands, who moves first, the elements and walls, and ",
        "nantong" => "the deck and ",
        _ => "",
    };
    format!(
        "Seed for {drawn}every random choice of the computer (default: a fresh one, printed so that \
         the game can be played again)"
    )
}

/// The first-game level of each game, which `--help` recommends.
fn first_game_level(game: &str) -> &'static str {
    match game {
        "triple-triad" => "greedy",
        "trax" => "easy",
        _ => "basic",
    }
}

/// `--level`'s help: the default, and a gentler level for a first game.
fn level_help(game: &str, levels: &'static [&'static str]) -> String {
    format!(
        "How well the computer plays, levels weakest first (default: {}, the strongest; for a first game: {})",
        strongest(levels),
        first_game_level(game)
    )
}

/// The strongest of a game's levels (the last): the default opponent and the hints'.
pub fn strongest(levels: &'static [&'static str]) -> &'static str {
    levels.last().copied().unwrap_or_default()
}

/// Reads a save file of `game`.
pub fn load<S: DeserializeOwned>(path: &Path, game: &str) -> Result<SaveFile<S>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file = serde_json::from_str(&text).map_err(|e| format!("{}: not a saved game: {e}", path.display()))?;
    from_json(file, path, game)
}

/// Whether `json` is a save file (of any game) rather than a bare state.
pub fn is_save(json: &serde_json::Value) -> bool {
    json.get("game").is_some() && json.get("opponent").is_some()
}

/// A save file of `game` read from `path` as JSON.
pub fn from_json<S: DeserializeOwned>(json: serde_json::Value, path: &Path, game: &str) -> Result<SaveFile<S>, String> {
    let file: SaveFile<serde_json::Value> =
        serde_json::from_value(json).map_err(|e| format!("{}: not a saved game: {e}", path.display()))?;
    if file.game != game {
        return Err(format!("{}: a saved {} game, not {game}", path.display(), file.game));
    }
    let state = serde_json::from_value(file.state).map_err(|e| format!("{}: bad saved state: {e}", path.display()))?;
    Ok(SaveFile {
        game: file.game,
        seed: file.seed,
        opponent: file.opponent,
        state,
    })
}

/// One game as the loop drives it.
pub trait Session {
    /// The game's name, as in save files.
    const GAME: &'static str;
    /// The game's levels, weakest first ([`Engine::LEVELS`]): hints come from the strongest.
    const LEVELS: &'static [&'static str];
    type Move: Copy + Display;
    /// What a save file holds besides the seed and the computer.
    type Saved: Serialize;

    fn is_over(&self) -> bool;
    /// The computer's move at `level` ([`Engine::choose`]).
    fn choose(&self, level: &str, rng: &mut Rng) -> Result<Option<Self::Move>, arbiter_core::Error>;
    /// Whether the person moves now.
    fn yours(&self) -> bool;
    /// The rules in play, in words.
    fn rules(&self) -> String;
    /// How to type a move: the game's lines of `help`.
    fn help(&self) -> String;
    /// What the person sees before moving, laid out for `frame` (printed as it is).
    fn screen(&self, st: Style, frame: Frame) -> String;
    fn prompt(&self) -> String;
    /// A typed move, or why it cannot be played.
    fn read(&self, line: &str) -> Result<Self::Move, String>;
    /// Plays a move (of either side) and says what it did.
    fn play(&mut self, mv: Self::Move, st: Style) -> Outcome<String>;
    /// Takes back the person's last move and the replies to it; false if there is none.
    fn undo(&mut self) -> bool;
    fn saved(&self) -> Self::Saved;
    /// A command of this game alone, answered for `st` and `frame`; `None` if `line` is not one.
    fn extra(&mut self, _line: &str, _st: Style, _frame: Frame) -> Option<String> {
        None
    }
    /// Seconds the person has for each move, when the rules keep a clock.
    fn clock(&self) -> Option<u32> {
        None
    }
    /// The move played for the person whose clock ran out.
    fn timeout_move(&self) -> Option<Self::Move> {
        None
    }
}

/// How a game loop ended.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Over,
    Quit,
    EndOfInput,
}

/// What a line says, apart from a move.
enum Said<'a> {
    Help,
    Quit,
    Rules,
    Hint,
    Undo,
    Save(Option<&'a str>),
    Move(&'a str),
}

fn said(line: &str) -> Said<'_> {
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    match word.to_ascii_lowercase().as_str() {
        "help" | "?" | "h" => Said::Help,
        "quit" | "q" | "exit" => Said::Quit,
        "rules" => Said::Rules,
        "hint" => Said::Hint,
        "undo" => Said::Undo,
        "save" => Said::Save(Some(rest.trim()).filter(|f| !f.is_empty())),
        _ => Said::Move(line),
    }
}

/// The commands every game understands, for `help`.
pub fn commands(hint_level: &str) -> String {
    format!(
        "  rules        the rules in play\n  \
         hint         a suggestion from the strongest computer player (level {hint_level})\n  \
         undo         take back your last move and the computer's reply\n  \
         save FILE    save the game as JSON; resume with --load FILE\n  \
         help, ?      this list\n  \
         quit, q      stop playing"
    )
}

/// Plays until the game is over, the person quits or the input ends.
pub fn drive<T: Session, R: BufRead, W: Write>(
    t: &mut T,
    seed: u64,
    opp: &mut Opponent,
    con: &mut Console<R, W>,
) -> Outcome<Ending> {
    let st = con.st;
    let hint_level = strongest(T::LEVELS);
    while !t.is_over() {
        if !t.yours() {
            let mv = t
                .choose(&opp.level, &mut opp.rng)?
                .ok_or("the computer found no move")?;
            let text = t.play(mv, st)?;
            con.say(&text)?;
            continue;
        }
        con.show(&t.screen(st, con.frame))?;
        let turn = Instant::now();
        loop {
            // A terminal cannot tick while it waits for a line: every prompt says what is left,
            // and the first line after the clock ran out finds the move played.
            let prompt = match t.clock() {
                Some(limit) => {
                    let left = Duration::from_secs(limit.into()).saturating_sub(turn.elapsed());
                    format!("{} ({} s left)", t.prompt(), left.as_millis().div_ceil(1000))
                }
                None => t.prompt(),
            };
            let Some(line) = con.ask(&st.bold(&prompt))? else {
                con.say("End of input: the game stops here.")?;
                return Ok(Ending::EndOfInput);
            };
            let ran_out = t
                .clock()
                .filter(|&limit| turn.elapsed() > Duration::from_secs(limit.into()));
            if let (Some(limit), Said::Help | Said::Rules | Said::Hint | Said::Undo | Said::Move(_)) =
                (ran_out, said(&line))
            {
                let mv = t.timeout_move().ok_or("the clock ran out with no move to play")?;
                con.say(&format!(
                    "Your {limit} s ran out before that line: a card is played for you, {mv}."
                ))?;
                let text = t.play(mv, st)?;
                con.say(&text)?;
                break;
            }
            match said(&line) {
                Said::Help => con.say(&format!("{}\n{}", t.help(), commands(hint_level)))?,
                Said::Quit => {
                    con.say("You stop here; the game is left unfinished.")?;
                    return Ok(Ending::Quit);
                }
                Said::Rules => con.say(&t.rules())?,
                // The strongest level whatever the opponent's, from a copy of the opponent's stream
                // (asking changes nothing in the game).
                Said::Hint => match t.choose(hint_level, &mut opp.rng.clone())? {
                    Some(mv) => con.say(&format!(
                        "Hint: the strongest computer player (level {hint_level}) would play {mv}."
                    ))?,
                    None => con.say("No hint: there is no move to suggest.")?,
                },
                Said::Undo if t.undo() => {
                    con.say("Taken back: your last move and the replies to it.")?;
                    break;
                }
                Said::Undo => con.say("Nothing to take back: you have not moved yet.")?,
                Said::Save(None) => con.say("Say where: save FILE (e.g. save game.json).")?,
                Said::Save(Some(path)) => {
                    let file = SaveFile {
                        game: T::GAME.to_string(),
                        seed,
                        opponent: opp.clone(),
                        state: t.saved(),
                    };
                    let json = serde_json::to_string_pretty(&file).map_err(|e| e.to_string())?;
                    match write_whole(Path::new(path), (json + "\n").as_bytes()) {
                        Ok(()) => con.say(&format!("Saved to {path}; resume with --load {path}."))?,
                        Err(e) => con.say(&format!("Cannot save to {path}: {e}."))?,
                    }
                }
                Said::Move("") => {}
                Said::Move(text) => {
                    if let Some(reply) = t.extra(text, st, con.frame) {
                        con.say(&reply)?;
                        continue;
                    }
                    match t.read(text) {
                        Ok(mv) => {
                            let text = t.play(mv, st)?;
                            con.say(&text)?;
                            break;
                        }
                        Err(why) => con.say(&format!("{why} (`help` lists what you can type)"))?,
                    }
                }
            }
        }
    }
    Ok(Ending::Over)
}

/// The seed line of every game's introduction.
pub fn seed_line(seed: u64, loaded: bool) -> String {
    if loaded {
        format!("Resumed a saved game (seed {seed}).")
    } else {
        format!("Seed {seed}: play this game again with --seed {seed}.")
    }
}

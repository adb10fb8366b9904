//! The text game's commands as typed (`+TT/Game Cloud=Start/Open Same Combo One`), read into
//! [`Command`]s. Syntax only: names, cards and rules are checked by whoever carries them out.

use std::fmt;

use crate::economy::Pick;

/// A card as a player names it: its id (`A001`), its name (`Geezard`), or, in a game, its place
/// in the hand (`1` to `5`).
pub type CardRef = String;

/// What `+TT/Deck` does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeckCommand {
    /// `+TT/Deck Create=<Name>`.
    Create(String),
    /// `+TT/Deck Delete=<Name>`.
    Delete(String),
    /// `+TT/Deck List`.
    List,
    /// `+TT/Deck Add=<Card1>,<Card2>,...` (to the current deck) or `+TT/Deck Add <Deck>=...`.
    Add(Option<String>, Vec<CardRef>),
    /// `+TT/Deck Rem=<Card1>,...` or `+TT/Deck Rem <Deck>=...`.
    Rem(Option<String>, Vec<CardRef>),
    /// `+TT/Deck Check=<Name>` (the current deck when no name is given).
    Check(Option<String>),
}

/// Whom `+TT/Game` invites: a player by name, or a computer player of a level
/// (`Computer:<Level>`, a name no player can have).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// A player.
    Player(String),
    /// A computer player of this level (checked by whoever starts the game).
    Computer(String),
}

/// A command of the text interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `connect <name> <password>`: log in.
    Connect {
        /// The player.
        name: String,
        /// The password (never echoed or logged).
        password: String,
    },
    /// `create <name> <password>`: register and log in.
    Create {
        /// The player.
        name: String,
        /// The password.
        password: String,
    },
    /// `QUIT`.
    Quit,
    /// `WHO`: who is online.
    Who,
    /// `+TT/Starter`.
    Starter,
    /// `+TT/Stash`.
    Stash,
    /// `+TT/Detail`.
    Detail,
    /// `+TT/Stats [<Name>]`.
    Stats(Option<String>),
    /// `+TT/Deck ...`.
    Deck(DeckCommand),
    /// `+TT/Game <Name>=<Deck>/<Rules...>` (`<Name>` may be `Computer:<Level>`; no deck,
    /// `<Name>=/<Rules...>`, under RandomHands).
    Game {
        /// Who is invited.
        opponent: Opponent,
        /// The inviter's deck (none: the hands are drawn).
        deck: Option<String>,
        /// The rule words, as typed.
        rules: String,
    },
    /// `+TT/Accept <Deck>`, `+TT/Accept <Card> <Card> ...` (five), or `+TT/Accept` alone (the
    /// hands drawn, the current deck, or the picking window).
    Accept(Option<Pick>),
    /// `+TT/Pick <Deck>` or `+TT/Pick <Card> <Card> ...`: the five named in a picking window.
    Pick(Pick),
    /// `+TT/Refuse`.
    Refuse,
    /// `+TT/Spectate Join=<Name>`.
    SpectateJoin(String),
    /// `+TT/Spectate Leave`.
    SpectateLeave,
    /// `+TT/Option <Option>`.
    Option(String),
    /// `+TT/Play <Card>=<Position>` (position 1 to 9).
    Play {
        /// The card.
        card: CardRef,
        /// The cell, 1 (upper left) to 9.
        position: u8,
    },
    /// `+TT/Grid`.
    Grid,
    /// `+TT/Choose <Card>,...` or `+TT/Choose None`.
    Choose(Vec<CardRef>),
    /// `+TT/WinList`.
    WinList,
    /// `+TT/Cancel`.
    Cancel,
    /// `+TT/List`.
    List,
    /// `+TT/List <Series>/<Level or All>`.
    ListSeries {
        /// The series code.
        series: char,
        /// A level, or `None` for All.
        level: Option<u8>,
    },
    /// `+TT/Buy Random=<Series>/<Level>`.
    BuyRandom {
        /// The series code.
        series: char,
        /// The level.
        level: u8,
    },
    /// `+TT/Buy Card=<Name or id>`.
    BuyCard(CardRef),
    /// `+TT/Custom <Name>/<Level>=<Up> <Left> <Right> <Down> <Elemental>=<Text>`.
    Custom {
        /// The new card's name.
        name: String,
        /// Its level.
        level: u8,
        /// Top, right, bottom, left (the engine's order; typed up, left, right, down).
        ranks: [u8; 4],
        /// The element's name (`None` when not given).
        element: String,
        /// Flavour text (`%r` is a line break).
        text: String,
    },
    /// `+TT/Help Random=<Level>`.
    HelpRandom(u8),
    /// `+TT/Help`: every command; `+TT/Help <Command>`: one.
    Help(Option<String>),
    /// `say <text>` (or `"<text>`; a line starting with `!` is a `say` too): to the game's chat
    /// when in a game, else to the lobby's.
    Say(String),
    /// `pose <action>` (or `:<action>`): `Cloud waves.`
    Pose(String),
    /// `page <name>=<text>`: to one player.
    Page {
        /// The player.
        to: String,
        /// What is said.
        text: String,
    },
    /// `+TT/Silence On|Off`: the spectators of one's game may not (or may again) speak.
    Silence(bool),
}

/// A line that is no command, with the reason; the interface answers it with the help line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadCommand(pub String);

impl fmt::Display for BadCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn bad<T>(why: impl Into<String>) -> Result<T, BadCommand> {
    Err(BadCommand(why.into()))
}

/// `Name` or `Name=`-style word: one word of letters, digits, `-` or `_` (a deck's name).
fn word(s: &str, what: &str) -> Result<String, BadCommand> {
    let s = s.trim();
    if s.is_empty() {
        return bad(format!("{what} is missing"));
    }
    if s.len() > 30 || !s.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_') {
        return bad(format!(
            "{what} {s:?} must be one word of at most 30 letters, digits, - or _"
        ));
    }
    Ok(s.to_string())
}

fn cards(s: &str) -> Result<Vec<CardRef>, BadCommand> {
    let list: Vec<CardRef> = s.split(',').map(|c| c.trim().to_string()).collect();
    if list.iter().any(String::is_empty) {
        return bad("a card is missing in the list (write Card1,Card2,...)");
    }
    Ok(list)
}

/// How `+TT/Accept` and `+TT/Pick` take five cards.
const HAND: &str =
    "<Deck> or five cards: +TT/Pick A001 A002 A003 A004 A005, or by name with commas (Bite Bug,Geezard,...)";

/// Five cards as `+TT/Accept` and `+TT/Pick` take them: a deck's name (one word), or five
/// cards by id or name, split by commas (a name may hold spaces) or else by spaces; nothing:
/// none named.
fn hand(s: &str) -> Result<Option<Pick>, BadCommand> {
    let s = s.trim();
    let list: Vec<CardRef> = if s.is_empty() {
        return Ok(None);
    } else if s.contains(',') {
        cards(s)?
    } else if s.contains(char::is_whitespace) {
        s.split_whitespace().map(str::to_owned).collect()
    } else {
        return Ok(Some(Pick::Deck(word(s, "the deck's name")?)));
    };
    if list.len() != 5 {
        return bad(format!("a hand is five cards, not {}: {HAND}", list.len()));
    }
    Ok(Some(Pick::Cards(list)))
}

/// A rank as typed: 1 to 9 or A (or 10).
fn rank(s: &str) -> Result<u8, BadCommand> {
    match s {
        "A" | "a" | "10" => Ok(10),
        _ => match s.parse::<u8>() {
            Ok(r @ 1..=9) => Ok(r),
            _ => bad(format!("rank {s:?} is not 1 to 9 or A")),
        },
    }
}

fn level(s: &str) -> Result<u8, BadCommand> {
    match s.trim().parse::<u8>() {
        Ok(l @ 1..=10) => Ok(l),
        _ => bad(format!("level {:?} is not 1 to 10", s.trim())),
    }
}

fn series(s: &str) -> Result<char, BadCommand> {
    let mut chars = s.trim().chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphanumeric() => Ok(c.to_ascii_uppercase()),
        _ => bad(format!("series {:?} is one letter or digit", s.trim())),
    }
}

impl std::str::FromStr for Command {
    type Err = BadCommand;

    fn from_str(line: &str) -> Result<Command, BadCommand> {
        let line = line.trim();
        if let Some(text) = line.strip_prefix('"') {
            return said(text).map(Command::Say);
        }
        if let Some(text) = line.strip_prefix(':') {
            return said(text).map(Command::Pose);
        }
        if line.starts_with('!') {
            return Ok(Command::Say(line.to_string()));
        }
        let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match head.to_ascii_lowercase().as_str() {
            "connect" | "create" => {
                let mut parts = rest.split_whitespace();
                let (Some(name), Some(password), None) = (parts.next(), parts.next(), parts.next()) else {
                    return bad(format!("write {} <name> <password>", head.to_ascii_lowercase()));
                };
                let (name, password) = (name.to_string(), password.to_string());
                return Ok(if head.eq_ignore_ascii_case("connect") {
                    Command::Connect { name, password }
                } else {
                    Command::Create { name, password }
                });
            }
            "quit" if rest.is_empty() => return Ok(Command::Quit),
            "say" => return said(rest).map(Command::Say),
            "pose" => return said(rest).map(Command::Pose),
            "page" => {
                let Some((to, text)) = rest.split_once('=') else {
                    return bad("write page <name>=<message>");
                };
                return Ok(Command::Page {
                    to: word(to, "the player's name")?,
                    text: said(text)?,
                });
            }
            "who" if rest.is_empty() => return Ok(Command::Who),
            _ => {}
        }
        let Some(tt) = line.get(..4).filter(|p| p.eq_ignore_ascii_case("+tt/")) else {
            return bad("commands start with +TT/");
        };
        let body = &line[tt.len()..];
        // The switch, then an argument before `=` and what follows it.
        let (switch, after) = body
            .find(|c: char| c.is_whitespace() || c == '=')
            .map_or((body, ""), |i| (&body[..i], &body[i..]));
        let (arg, value) = match after.split_once('=') {
            Some((a, v)) => (a.trim(), Some(v)),
            None => (after.trim(), None),
        };
        let none = |c: Command| {
            if arg.is_empty() && value.is_none() {
                Ok(c)
            } else {
                bad(format!("+TT/{switch} takes nothing more"))
            }
        };
        match switch.to_ascii_lowercase().as_str() {
            "starter" => none(Command::Starter),
            "stash" => none(Command::Stash),
            "detail" => none(Command::Detail),
            "grid" => none(Command::Grid),
            "winlist" => none(Command::WinList),
            "cancel" => none(Command::Cancel),
            "refuse" => none(Command::Refuse),
            "stats" if value.is_none() => Ok(Command::Stats((!arg.is_empty()).then(|| arg.to_string()))),
            "stats" => bad("write +TT/Stats or +TT/Stats <Name>"),
            "deck" => deck(arg, value).map(Command::Deck),
            "game" => {
                let Some(value) = value else {
                    return bad("write +TT/Game <Name>=<Deck>/<Rules...>");
                };
                let (deck, rules) = value.split_once('/').unwrap_or((value, ""));
                let opponent = match arg.split_once(':') {
                    Some((c, level)) if c.eq_ignore_ascii_case("computer") => {
                        Opponent::Computer(word(level, "the computer's level")?.to_ascii_lowercase())
                    }
                    _ => Opponent::Player(word(arg, "the player's name")?),
                };
                Ok(Command::Game {
                    opponent,
                    deck: (!deck.trim().is_empty())
                        .then(|| word(deck, "the deck's name"))
                        .transpose()?,
                    rules: rules.trim().to_string(),
                })
            }
            "accept" if value.is_none() => Ok(Command::Accept(hand(arg)?)),
            "accept" => bad(format!("write +TT/Accept, +TT/Accept {HAND}")),
            "pick" if value.is_none() => match hand(arg)? {
                Some(pick) => Ok(Command::Pick(pick)),
                None => bad(format!("write +TT/Pick {HAND}")),
            },
            "pick" => bad(format!("write +TT/Pick {HAND}")),
            "spectate" => match (arg.to_ascii_lowercase().as_str(), value) {
                ("join", Some(name)) => Ok(Command::SpectateJoin(word(name, "the player's name")?)),
                ("leave", None) => Ok(Command::SpectateLeave),
                _ => bad("write +TT/Spectate Join=<Name> or +TT/Spectate Leave"),
            },
            "silence" => match (arg.to_ascii_lowercase().as_str(), value) {
                ("on", None) => Ok(Command::Silence(true)),
                ("off", None) => Ok(Command::Silence(false)),
                _ => bad("write +TT/Silence On or +TT/Silence Off"),
            },
            "option" if value.is_none() && !arg.is_empty() => Ok(Command::Option(arg.to_string())),
            "option" => bad("write +TT/Option Private, +TT/Option Broadcast or +TT/Option None"),
            "play" => {
                let (Some(pos), false) = (value, arg.is_empty()) else {
                    return bad("write +TT/Play <Card>=<Position>");
                };
                match pos.trim().parse::<u8>() {
                    Ok(position @ 1..=9) => Ok(Command::Play {
                        card: arg.to_string(),
                        position,
                    }),
                    _ => bad(format!("position {:?} is not 1 to 9", pos.trim())),
                }
            }
            "choose" if value.is_none() && !arg.is_empty() => {
                if arg.eq_ignore_ascii_case("none") {
                    Ok(Command::Choose(Vec::new()))
                } else {
                    Ok(Command::Choose(cards(arg)?))
                }
            }
            "choose" => bad("write +TT/Choose <Card>,<Card>,... or +TT/Choose None"),
            "list" => match value {
                None if arg.is_empty() => Ok(Command::List),
                None => {
                    let (s, l) = arg.split_once('/').unwrap_or((arg, "All"));
                    let level = if l.trim().eq_ignore_ascii_case("all") {
                        None
                    } else {
                        Some(level(l)?)
                    };
                    Ok(Command::ListSeries {
                        series: series(s)?,
                        level,
                    })
                }
                Some(_) => bad("write +TT/List or +TT/List <Series>/<Level or All>"),
            },
            "buy" => match (arg.to_ascii_lowercase().as_str(), value) {
                ("random", Some(v)) => {
                    let Some((s, l)) = v.split_once('/') else {
                        return bad("write +TT/Buy Random=<Series>/<Level>");
                    };
                    Ok(Command::BuyRandom {
                        series: series(s)?,
                        level: level(l)?,
                    })
                }
                ("card", Some(v)) if !v.trim().is_empty() => Ok(Command::BuyCard(v.trim().to_string())),
                _ => bad("write +TT/Buy Random=<Series>/<Level> or +TT/Buy Card=<Name>"),
            },
            "custom" => custom(arg, value),
            "help" => match (arg.to_ascii_lowercase().as_str(), value) {
                ("", None) => Ok(Command::Help(None)),
                ("random", Some(l)) => Ok(Command::HelpRandom(level(l)?)),
                (_, None) => Ok(Command::Help(Some(word(
                    arg.trim_start_matches("+TT/").trim_start_matches("+tt/"),
                    "the command",
                )?))),
                _ => bad("write +TT/Help, +TT/Help <Command> or +TT/Help Random=<Level>"),
            },
            _ => bad(format!("there is no command +TT/{switch}")),
        }
    }
}

/// What a chat command says: some text (bounded and cleaned by the chat).
fn said(text: &str) -> Result<String, BadCommand> {
    let text = text.trim();
    if text.is_empty() {
        return bad("say what? Write say <message>, pose <action> or page <name>=<message>");
    }
    Ok(text.to_string())
}

fn deck(arg: &str, value: Option<&str>) -> Result<DeckCommand, BadCommand> {
    let (verb, name) = arg.split_once(char::is_whitespace).unwrap_or((arg, ""));
    let name = name.trim();
    let named = || (!name.is_empty()).then(|| word(name, "the deck's name")).transpose();
    match (verb.to_ascii_lowercase().as_str(), value) {
        ("create", Some(n)) => Ok(DeckCommand::Create(word(n, "the deck's name")?)),
        ("delete", Some(n)) => Ok(DeckCommand::Delete(word(n, "the deck's name")?)),
        ("list", None) if name.is_empty() => Ok(DeckCommand::List),
        ("add", Some(c)) => Ok(DeckCommand::Add(named()?, cards(c)?)),
        ("rem" | "remove", Some(c)) => Ok(DeckCommand::Rem(named()?, cards(c)?)),
        ("check", Some(n)) => Ok(DeckCommand::Check(Some(word(n, "the deck's name")?))),
        ("check", None) => Ok(DeckCommand::Check(named()?)),
        _ => bad("write +TT/Deck Create=, Delete=, List, Add=, Rem= or Check="),
    }
}

fn custom(arg: &str, value: Option<&str>) -> Result<Command, BadCommand> {
    let usage = "write +TT/Custom <Name>/<Level>=<Up> <Left> <Right> <Down> <Elemental>=<Text>";
    let (Some((name, lvl)), Some(value)) = (arg.rsplit_once('/'), value) else {
        return bad(usage);
    };
    let (stats, text) = value.split_once('=').unwrap_or((value, ""));
    let stats: Vec<&str> = stats.split_whitespace().collect();
    let (ranks, element) = match stats.as_slice() {
        [u, l, r, d] => ([*u, *l, *r, *d], "None"),
        [u, l, r, d, e] => ([*u, *l, *r, *d], *e),
        _ => return bad(usage),
    };
    let [up, left, right, down] = ranks;
    Ok(Command::Custom {
        name: name.trim().to_string(),
        level: level(lvl)?,
        ranks: [rank(up)?, rank(right)?, rank(down)?, rank(left)?],
        element: element.to_string(),
        text: text.replace("%r", "\n").replace("%R", "\n"),
    })
}

/// The help line every unknown or malformed command gets.
pub const HELP_LINE: &str = "Type +TT/Help for the commands, +TT/Help <Command> for one (+TT/Starter, +TT/Stash, +TT/Detail, +TT/Stats, +TT/Deck, +TT/Game, +TT/Accept, +TT/Pick, +TT/Refuse, +TT/Play, +TT/Grid, +TT/Choose, +TT/WinList, +TT/Cancel, +TT/Spectate, +TT/Option, +TT/List, +TT/Buy, +TT/Custom, +TT/Help Random; say, pose, page, +TT/Silence).";

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Command {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn the_seeds_examples() {
        assert_eq!(p("+TT/Starter"), Command::Starter);
        assert_eq!(p("+tt/stash"), Command::Stash);
        assert_eq!(p("+TT/Detail"), Command::Detail);
        assert_eq!(p("+TT/Stats"), Command::Stats(None));
        assert_eq!(p("+TT/Stats Cloud"), Command::Stats(Some("Cloud".into())));
        assert_eq!(
            p("+TT/Deck Create=Start"),
            Command::Deck(DeckCommand::Create("Start".into()))
        );
        assert_eq!(
            p("+TT/Deck Delete=Start"),
            Command::Deck(DeckCommand::Delete("Start".into()))
        );
        assert_eq!(p("+TT/Deck List"), Command::Deck(DeckCommand::List));
        assert_eq!(
            p("+TT/Deck Add=Geezard, A002,Bite Bug"),
            Command::Deck(DeckCommand::Add(
                None,
                vec!["Geezard".into(), "A002".into(), "Bite Bug".into()]
            ))
        );
        assert_eq!(
            p("+TT/Deck Rem Start=A001"),
            Command::Deck(DeckCommand::Rem(Some("Start".into()), vec!["A001".into()]))
        );
        assert_eq!(
            p("+TT/Deck Check=my_deck-2"),
            Command::Deck(DeckCommand::Check(Some("my_deck-2".into())))
        );
        assert_eq!(
            p("+TT/Game Cloud=Start/Open Same Combo One"),
            Command::Game {
                opponent: Opponent::Player("Cloud".into()),
                deck: Some("Start".into()),
                rules: "Open Same Combo One".into()
            }
        );
        assert_eq!(
            p("+TT/Game Computer:Hard=Start/Bataille Entraînement Temps=30"),
            Command::Game {
                opponent: Opponent::Computer("hard".into()),
                deck: Some("Start".into()),
                rules: "Bataille Entraînement Temps=30".into()
            }
        );
        assert_eq!(
            p("+TT/Game Cloud=/Main-aléatoire Aléatoire"),
            Command::Game {
                opponent: Opponent::Player("Cloud".into()),
                deck: None,
                rules: "Main-aléatoire Aléatoire".into()
            }
        );
        assert_eq!(p("+TT/Accept Start"), Command::Accept(Some(Pick::Deck("Start".into()))));
        assert_eq!(p("+TT/Accept"), Command::Accept(None));
        let ids: Vec<String> = ["A001", "A002", "A003", "A004", "A005"].map(String::from).into();
        assert_eq!(
            p("+TT/Accept A001 A002  A003 A004 A005"),
            Command::Accept(Some(Pick::Cards(ids.clone())))
        );
        assert_eq!(
            p("+TT/Accept Bite Bug, Geezard,Funguar,A004,a005"),
            Command::Accept(Some(Pick::Cards(
                ["Bite Bug", "Geezard", "Funguar", "A004", "a005"]
                    .map(String::from)
                    .into()
            )))
        );
        assert_eq!(p("+TT/Pick A001 A002 A003 A004 A005"), Command::Pick(Pick::Cards(ids)));
        assert_eq!(p("+TT/pick Main"), Command::Pick(Pick::Deck("Main".into())));
        assert_eq!(p("+TT/Refuse"), Command::Refuse);
        assert_eq!(p("+TT/Spectate Join=Cloud"), Command::SpectateJoin("Cloud".into()));
        assert_eq!(p("+TT/Spectate Leave"), Command::SpectateLeave);
        assert_eq!(p("+TT/Option Broadcast"), Command::Option("Broadcast".into()));
        assert_eq!(
            p("+TT/Play 3=5"),
            Command::Play {
                card: "3".into(),
                position: 5
            }
        );
        assert_eq!(
            p("+TT/Play Bite Bug=9"),
            Command::Play {
                card: "Bite Bug".into(),
                position: 9
            }
        );
        assert_eq!(p("+TT/Grid"), Command::Grid);
        assert_eq!(
            p("+TT/Choose Geezard,Funguar"),
            Command::Choose(vec!["Geezard".into(), "Funguar".into()])
        );
        assert_eq!(p("+TT/Choose None"), Command::Choose(vec![]));
        assert_eq!(p("+TT/WinList"), Command::WinList);
        assert_eq!(p("+TT/Cancel"), Command::Cancel);
        assert_eq!(p("+TT/List"), Command::List);
        assert_eq!(
            p("+TT/List A/All"),
            Command::ListSeries {
                series: 'A',
                level: None
            }
        );
        assert_eq!(
            p("+TT/List a/7"),
            Command::ListSeries {
                series: 'A',
                level: Some(7)
            }
        );
        assert_eq!(p("+TT/Buy Random=A/7"), Command::BuyRandom { series: 'A', level: 7 });
        assert_eq!(p("+TT/Buy Card=Omega Weapon"), Command::BuyCard("Omega Weapon".into()));
        assert_eq!(
            p("+TT/Custom Ultros/5=3 4 5 6 Water=Octopus Menace%r\"Silence Knave! You are in the presence of Octopus Royalty!\""),
            Command::Custom {
                name: "Ultros".into(),
                level: 5,
                ranks: [3, 5, 6, 4],
                element: "Water".into(),
                text: "Octopus Menace\n\"Silence Knave! You are in the presence of Octopus Royalty!\"".into()
            }
        );
        assert_eq!(
            p("+TT/Custom Moogle/1=A 1 1 1 ="),
            Command::Custom {
                name: "Moogle".into(),
                level: 1,
                ranks: [10, 1, 1, 1],
                element: "None".into(),
                text: String::new()
            }
        );
        assert_eq!(p("+TT/Help Random=5"), Command::HelpRandom(5));
        assert_eq!(p("+TT/Help"), Command::Help(None));
        assert_eq!(p("+TT/Help Play"), Command::Help(Some("Play".into())));
        assert_eq!(p("+TT/Help +TT/Deck"), Command::Help(Some("Deck".into())));
        assert_eq!(
            p("connect Cloud hunter2"),
            Command::Connect {
                name: "Cloud".into(),
                password: "hunter2".into()
            }
        );
        assert_eq!(p("QUIT"), Command::Quit);
    }

    #[test]
    fn malformed_lines_say_why() {
        let cases = [
            ("", "start with +TT/"),
            ("hello", "start with +TT/"),
            ("+TT/Dance", "no command +TT/Dance"),
            ("+TT/Stash now", "takes nothing more"),
            ("+TT/Play 3=10", "position \"10\""),
            ("+TT/Play 3", "+TT/Play <Card>=<Position>"),
            ("+TT/Buy Random=A", "Random=<Series>/<Level>"),
            ("+TT/Buy Random=AB/3", "series \"AB\""),
            ("+TT/Buy Random=A/11", "level \"11\""),
            ("+TT/Deck Create=two words", "one word"),
            ("+TT/Deck Add=Geezard,,Funguar", "a card is missing"),
            ("+TT/Deck Explode=x", "Deck Create="),
            ("+TT/Game Cloud", "+TT/Game <Name>="),
            ("+TT/Game Computer:=Start/One", "the computer's level is missing"),
            ("+TT/Option", "+TT/Option Private"),
            ("+TT/Choose", "+TT/Choose <Card>"),
            ("+TT/Accept Main=x", "+TT/Accept <Deck>"),
            ("+TT/Accept A001 A002 A003 A004", "five cards, not 4"),
            ("+TT/Accept Geezard,,A003,A004,A005", "a card is missing"),
            ("+TT/Pick", "+TT/Pick <Deck>"),
            ("+TT/Pick A001 A002 A003 A004 A005 A006", "five cards, not 6"),
            ("+TT/Stats=Cloud", "+TT/Stats <Name>"),
            ("+TT/Custom Ultros=3 4 5 6", "+TT/Custom <Name>/<Level>"),
            ("+TT/Custom Ultros/5=3 4 5", "+TT/Custom <Name>/<Level>"),
            ("+TT/Custom Ultros/5=3 4 0 6 Water=", "rank \"0\""),
            ("+TT/Help Random=0", "level \"0\""),
            ("connect Cloud", "connect <name> <password>"),
        ];
        for (line, why) in cases {
            let e = line.parse::<Command>().expect_err(line);
            assert!(e.0.contains(why), "{line:?}: {e}");
        }
    }

    #[test]
    fn chat_commands_and_their_shorthands() {
        assert_eq!(p("say hello there"), Command::Say("hello there".into()));
        assert_eq!(p("\"hello"), Command::Say("hello".into()));
        assert_eq!(p("!aide"), Command::Say("!aide".into()));
        assert_eq!(p("POSE waves"), Command::Pose("waves".into()));
        assert_eq!(p(":waves"), Command::Pose("waves".into()));
        assert_eq!(
            p("page Cloud=are you there?"),
            Command::Page {
                to: "Cloud".into(),
                text: "are you there?".into()
            }
        );
        assert_eq!(p("+TT/Silence On"), Command::Silence(true));
        assert_eq!(p("+tt/silence off"), Command::Silence(false));
        for bad in ["say", "\"  ", "page Cloud", "page Cloud=", "page =hi", "+TT/Silence"] {
            assert!(bad.parse::<Command>().is_err(), "{bad}");
        }
    }
}

//! The text game's rule words (`+TT/Game Cloud=Start/Open Same Combo One`) as a match
//! configuration. The English text game's own: gameplay rules Open, Same, Wall, Plus, Combo,
//! Elemental, Limitless; trading rules None, One, All, Diff (One when none is given); options
//! Broadcast and Private. The French server's rule groups may be named instead, in English or in
//! French: Battle (Bataille), Borderless (Mur cassé), PlusWall (Mur additionnel), PowerWalls (Mur
//! puissant: the match draws the border's labels from its seed), RandomHands (Main aléatoire: each
//! hand drawn from its player's collection) besides Open, Same (Identique), Wall (Même mur), Plus,
//! Combo, Elemental (Élémentaire); its winner rules Training, None, One to Four, Total, Direct,
//! Change, Random; a gil bet `Bet=N` (`Mise=N`). A game follows one server's customs: the French
//! server's as soon as one of its own words is named (its experience thresholds, no level limit, a
//! draw ends the match), and the two servers' own words cannot be mixed. `Time=N` (`Temps=N`) sets
//! the seconds per move on either.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use arbiter_core::quote;
use arbiter_core::tripletriad::{
    preset, DiffMode, MatchConfig, MatchError, Rule, Rules, RulesError, SetupError, SuddenDeath, TradeRule,
};

use crate::stakes::{fold, Customs};

/// Who may watch a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Spectators {
    /// Anyone may join as a spectator (the default).
    #[default]
    Open,
    /// As open, and the grid goes to the whole room after every card.
    Broadcast,
    /// Nobody may spectate.
    Private,
}

impl Spectators {
    /// The word, as `+TT/Option` takes it (`None` for open).
    pub fn word(self) -> &'static str {
        match self {
            Spectators::Open => "None",
            Spectators::Broadcast => "Broadcast",
            Spectators::Private => "Private",
        }
    }
}

impl FromStr for Spectators {
    type Err = MushRulesError;
    /// `+TT/Option`'s words: Private, Broadcast or None (ASCII case ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Spectators::Open, Spectators::Broadcast, Spectators::Private]
            .into_iter()
            .find(|o| o.word().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| MushRulesError::UnknownOption(quote(s)))
    }
}

/// A rule list that does not make a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MushRulesError {
    /// No gameplay or trading rule.
    #[error("a game needs at least one rule: name a trading rule (None, One, All, Diff) if you want no gameplay rule")]
    Empty,
    /// A word that is no rule.
    #[error("unknown rule {0:?}: the rules are Open, Same, Wall, Plus, Combo, Elemental, Limitless, the trading rules None, One, All, Diff and the options Broadcast, Private; or the French server's Battle, Borderless, PlusWall, RandomHands, its winner rules Training, None, One, Two, Three, Four, Total, Direct, Change, Random and Bet=<gils>; Time=<seconds> on both")]
    Unknown(String),
    /// A word given twice.
    #[error("the rule {0} is given twice")]
    Repeated(&'static str),
    /// Two trading rules, or two options.
    #[error("{0} and {1} cannot both apply: choose one")]
    Conflict(&'static str, &'static str),
    /// Wall without Same.
    #[error("Wall extends Same: it cannot be played without Same")]
    WallWithoutSame,
    /// An option word `+TT/Option` does not know.
    #[error("unknown option {0:?}: valid options are Private, Broadcast or None")]
    UnknownOption(String),
    /// A word of the English text game with one of the French server's.
    #[error(
        "{0} is a rule of the English text game and {1} one of the French server: a game follows one server's rules"
    )]
    Mixed(&'static str, &'static str),
    /// `Time=` or `Bet=` without a number.
    #[error("{0:?} needs a whole number: Time=<seconds>, Bet=<gils>")]
    Number(String),
    /// Rules or a clock the match does not admit (Plus Wall without Plus, a borderless board
    /// with walls, a time outside 15 to 300 seconds).
    #[error(transparent)]
    Match(MatchError),
}

/// A game's rules as the text game writes them.
///
/// ```
/// use arbiter_core::tripletriad::{DiffMode, TradeRule};
/// use arbiter_economy::{Customs, MushRules, Spectators};
/// let r: MushRules = "Open Same Combo One".parse().unwrap();
/// assert!(r.config.rules.open && r.config.rules.same && r.config.rules.combo);
/// assert_eq!(r.config.trade, TradeRule::One);
/// assert_eq!(r.config.deck_level_limit, Some(20));
/// assert_eq!((r.spectators, r.customs), (Spectators::Open, Customs::Mush));
/// let d: MushRules = "diff limitless private".parse().unwrap();
/// assert_eq!(d.config.trade, TradeRule::Diff(DiffMode::OverFive));
/// assert_eq!((d.config.deck_level_limit, d.spectators), (None, Spectators::Private));
/// assert_eq!(d.to_string(), "Limitless Diff Private");
/// assert!("Wall One".parse::<MushRules>().is_err());
/// // The French server's rule groups, in French too: its customs follow.
/// let f: MushRules = "Bataille Mur-cassé Change Mise=50 Temps=30".parse().unwrap();
/// assert!(f.config.rules.battle && f.config.rules.borderless);
/// assert_eq!((f.config.trade, f.gils, f.config.time), (TradeRule::Diff(DiffMode::Difference), 50, Some(30)));
/// assert_eq!((f.customs, f.config.deck_level_limit), (Customs::Ttonline, None));
/// assert_eq!(f.to_string(), "Battle Borderless Change Time=30 Bet=50");
/// assert!("Battle Diff".parse::<MushRules>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MushRules {
    /// The match: the rules named; under the English text game's customs clamped elemental, the
    /// original hands back on a draw, the deck level limit of 20 unless Limitless; under the
    /// French server's those of its preset (`ttonline`). The seconds per move when named.
    pub config: MatchConfig,
    /// Who may watch.
    pub spectators: Spectators,
    /// Whose customs: the French server's when one of its own words is named.
    pub customs: Customs,
    /// Gils each player bets (the French server's; 0 when not named).
    pub gils: u32,
}

/// Which server a word belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Server {
    Both,
    Mush,
    Ttonline,
}

/// What a word does.
#[derive(Clone, Copy)]
enum Effect {
    Rule(fn(&mut Rules)),
    Limitless,
    Trade(TradeRule),
    Option(Spectators),
    Time,
    Bet,
}

/// Every word: as written, its other spellings (French), whose it is, what it does. The order
/// is the one [`MushRules`] writes them in.
static WORDS: [(&str, &[&str], Server, Effect); 28] = [
    ("Open", &[], Server::Both, Effect::Rule(|r| r.open = true)),
    (
        "RandomHands",
        &["Main-aléatoire"],
        Server::Ttonline,
        Effect::Rule(|r| r.random = true),
    ),
    ("Same", &["Identique"], Server::Both, Effect::Rule(|r| r.same = true)),
    (
        "Wall",
        &["SameWall", "Même-mur"],
        Server::Both,
        Effect::Rule(|r| r.same_wall = true),
    ),
    ("Plus", &[], Server::Both, Effect::Rule(|r| r.plus = true)),
    (
        "PlusWall",
        &["Mur-additionnel"],
        Server::Ttonline,
        Effect::Rule(|r| r.plus_wall = true),
    ),
    ("Combo", &[], Server::Both, Effect::Rule(|r| r.combo = true)),
    (
        "Elemental",
        &["Élémentaire"],
        Server::Both,
        Effect::Rule(|r| r.elemental = true),
    ),
    (
        "Battle",
        &["Bataille"],
        Server::Ttonline,
        Effect::Rule(|r| r.battle = true),
    ),
    (
        "Borderless",
        &["Mur-cassé"],
        Server::Ttonline,
        Effect::Rule(|r| r.borderless = true),
    ),
    ("Limitless", &[], Server::Mush, Effect::Limitless),
    ("None", &["Aucune"], Server::Both, Effect::Trade(TradeRule::None)),
    ("One", &[], Server::Both, Effect::Trade(TradeRule::One)),
    ("All", &[], Server::Mush, Effect::Trade(TradeRule::All)),
    (
        "Diff",
        &[],
        Server::Mush,
        Effect::Trade(TradeRule::Diff(DiffMode::OverFive)),
    ),
    (
        "Training",
        &["Entraînement"],
        Server::Ttonline,
        Effect::Trade(TradeRule::Training),
    ),
    ("Two", &[], Server::Ttonline, Effect::Trade(TradeRule::Two)),
    ("Three", &[], Server::Ttonline, Effect::Trade(TradeRule::Three)),
    ("Four", &[], Server::Ttonline, Effect::Trade(TradeRule::Four)),
    ("Total", &["Totale"], Server::Ttonline, Effect::Trade(TradeRule::All)),
    (
        "Direct",
        &["Directe"],
        Server::Ttonline,
        Effect::Trade(TradeRule::Direct),
    ),
    (
        "Change",
        &[],
        Server::Ttonline,
        Effect::Trade(TradeRule::Diff(DiffMode::Difference)),
    ),
    (
        "Random",
        &["Aléatoire"],
        Server::Ttonline,
        Effect::Trade(TradeRule::Random),
    ),
    ("Time", &["Temps"], Server::Both, Effect::Time),
    ("Bet", &["Mise"], Server::Ttonline, Effect::Bet),
    ("Broadcast", &[], Server::Both, Effect::Option(Spectators::Broadcast)),
    ("Private", &[], Server::Both, Effect::Option(Spectators::Private)),
    (
        "PowerWalls",
        &["Mur-puissant"],
        Server::Ttonline,
        Effect::Rule(|r| r.power_walls = true),
    ),
];

/// A word as compared: lower case, without accents, `-` or `_` (`Mur-cassé` is `murcasse`).
fn key(word: &str) -> String {
    word.chars().filter(|c| !matches!(c, '-' | '_')).map(fold).collect()
}

fn lookup(word: &str) -> Option<&'static (&'static str, &'static [&'static str], Server, Effect)> {
    let k = key(word);
    WORDS
        .iter()
        .find(|(w, others, _, _)| key(w) == k || others.iter().any(|o| key(o) == k))
}

impl FromStr for MushRules {
    type Err = MushRulesError;
    /// Rule words separated by spaces (or commas), in any order, case and accents ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut seen: Vec<&'static str> = Vec::new();
        let mut rules = Rules::default();
        let mut limitless = false;
        let mut trade: Option<(&'static str, TradeRule)> = None;
        let mut option: Option<(&'static str, Spectators)> = None;
        let (mut time, mut gils) = (None, 0);
        let (mut mush, mut ttonline): (Option<&'static str>, Option<&'static str>) = (None, None);
        for word in s.split([' ', ',', '\t']).filter(|w| !w.is_empty()) {
            let (name, value) = match word.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (word, None),
            };
            let &(known, _, server, effect) = lookup(name).ok_or_else(|| MushRulesError::Unknown(quote(word)))?;
            let number = || {
                value
                    .and_then(|v| v.parse::<u32>().ok())
                    .ok_or_else(|| MushRulesError::Number(quote(word)))
            };
            if value.is_some() && !matches!(effect, Effect::Time | Effect::Bet) {
                return Err(MushRulesError::Unknown(quote(word)));
            }
            if seen.contains(&known) {
                return Err(MushRulesError::Repeated(known));
            }
            seen.push(known);
            match server {
                Server::Mush => mush = mush.or(Some(known)),
                Server::Ttonline => ttonline = ttonline.or(Some(known)),
                Server::Both => {}
            }
            if let (Some(m), Some(t)) = (mush, ttonline) {
                return Err(MushRulesError::Mixed(m, t));
            }
            match effect {
                Effect::Rule(set) => set(&mut rules),
                Effect::Limitless => limitless = true,
                Effect::Time => time = Some(number()?),
                Effect::Bet => gils = number()?,
                Effect::Option(o) => {
                    if let Some((other, _)) = option {
                        return Err(MushRulesError::Conflict(other, known));
                    }
                    option = Some((known, o));
                }
                Effect::Trade(rule) => {
                    if let Some((other, _)) = trade {
                        return Err(MushRulesError::Conflict(other, known));
                    }
                    trade = Some((known, rule));
                }
            }
        }
        let rule_named = seen.iter().any(|w| {
            lookup(w).is_some_and(|(_, _, _, e)| matches!(e, Effect::Rule(_) | Effect::Limitless | Effect::Trade(_)))
        });
        if !rule_named {
            return Err(MushRulesError::Empty);
        }
        let customs = if ttonline.is_some() {
            Customs::Ttonline
        } else {
            Customs::Mush
        };
        let trade = trade.map_or(TradeRule::One, |(_, r)| r);
        let config = match customs {
            Customs::Mush => {
                rules.elemental_clamp = true;
                MatchConfig {
                    rules,
                    sudden_death: SuddenDeath::OriginalHands,
                    trade,
                    time,
                    deck_level_limit: (!limitless).then_some(20),
                    ..MatchConfig::default()
                }
            }
            Customs::Ttonline => {
                let base = preset("ttonline").expect("the French server's preset");
                rules.elemental_clamp = base.rules.elemental_clamp;
                MatchConfig {
                    rules,
                    trade,
                    time,
                    ..base
                }
            }
        };
        match config.validate() {
            Err(MatchError::Setup(SetupError::Rules(RulesError::SameWallWithoutSame))) => {
                return Err(MushRulesError::WallWithoutSame)
            }
            Err(e) => return Err(MushRulesError::Match(e)),
            Ok(()) => {}
        }
        Ok(MushRules {
            config,
            spectators: option.map_or(Spectators::Open, |(_, o)| o),
            customs,
            gils,
        })
    }
}

impl fmt::Display for MushRules {
    /// The canonical words: gameplay rules, the trading rule (always), the clock, the bet (always
    /// under the French server's customs, which it then names), the option.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.config.rules;
        let server = match self.customs {
            Customs::Mush => Server::Mush,
            Customs::Ttonline => Server::Ttonline,
        };
        let ours = |s: Server| s == Server::Both || s == server;
        let on = |w: &str| match w {
            "Open" => r.open,
            "RandomHands" => r.random,
            "Same" => r.same,
            "Wall" => r.same_wall,
            "Plus" => r.plus,
            "PlusWall" => r.plus_wall,
            "Combo" => r.combo,
            "Elemental" => r.elemental,
            "Battle" => r.battle,
            "Borderless" => r.borderless,
            "PowerWalls" => r.power_walls,
            "Limitless" => self.config.deck_level_limit.is_none(),
            _ => false,
        };
        let mut words: Vec<String> = WORDS
            .iter()
            .filter(|(w, _, s, e)| ours(*s) && matches!(e, Effect::Rule(_) | Effect::Limitless) && on(w))
            .map(|(w, ..)| String::from(*w))
            .collect();
        let trade = WORDS
            .iter()
            .find(|(_, _, s, e)| ours(*s) && matches!(e, Effect::Trade(t) if *t == self.config.trade))
            .map_or("One", |(w, ..)| *w);
        words.push(trade.into());
        if let Some(t) = self.config.time {
            words.push(format!("Time={t}"));
        }
        if self.customs == Customs::Ttonline {
            words.push(format!("Bet={}", self.gils));
        }
        if self.spectators != Spectators::Open {
            words.push(self.spectators.word().into());
        }
        f.write_str(&words.join(" "))
    }
}

/// A match's every rule in the text game's words, whichever server's they are: the gameplay
/// rules, the winner rule (`stake`; none: nothing at stake), the bet, the clock (`config.time`),
/// who may watch; then what no rule word names (a challenge made on the page may set it) in a
/// few words: sudden death, the round and level limits, the walls. Never the options' JSON.
///
/// ```
/// use arbiter_core::tripletriad::preset;
/// use arbiter_economy::{rule_words, Customs, Spectators, Stake};
/// let mut c = preset("mush").unwrap();
/// c.rules.random = true;
/// c.time = Some(30);
/// let stake = Stake { trade: c.trade, gils: 5, customs: Customs::Ttonline };
/// assert_eq!(
///     rule_words(&c, Some(&stake), Spectators::Private),
///     "RandomHands Same Wall Plus Combo Elemental, winner rule Diff, Bet=5, Time=30, Private; \
///      sudden death: original hands, level limit 20"
/// );
/// assert_eq!(
///     rule_words(&preset("ffforever").unwrap(), None, Spectators::Open),
///     "Open Same Plus Combo Elemental, no stakes; sudden death: shuffle, no level limit, \
///      Combo from Basic, elemental ranks 0 to 11, Same on 1 side"
/// );
/// ```
pub fn rule_words(config: &MatchConfig, stake: Option<&crate::Stake>, spectators: Spectators) -> String {
    let r = config.rules;
    let base = Rules::default();
    // Each rule word sets one flag: the word is said when that flag is on.
    let mut rules: Vec<&str> = WORDS
        .iter()
        .filter(|(_, _, _, e)| match e {
            Effect::Rule(set) => {
                let mut alone = base;
                set(&mut alone);
                Rule::ALL
                    .into_iter()
                    .any(|f| f.is_on(alone) && !f.is_on(base) && f.is_on(r))
            }
            _ => false,
        })
        .map(|(w, ..)| *w)
        .collect();
    if rules.is_empty() {
        rules.push("no gameplay rule");
    }
    let mut head = vec![rules.join(" ")];
    match stake {
        Some(s) => {
            let server = match s.customs {
                Customs::Mush => Server::Mush,
                Customs::Ttonline => Server::Ttonline,
            };
            let word = WORDS
                .iter()
                .filter(|(_, _, _, e)| matches!(e, Effect::Trade(t) if *t == s.trade))
                .min_by_key(|(_, _, w, _)| *w != server)
                .map_or_else(|| String::from(s.trade.name()), |(w, ..)| String::from(*w));
            head.push(format!("winner rule {word}"));
            if s.gils > 0 {
                head.push(format!("Bet={}", s.gils));
            }
        }
        None => head.push("no stakes".into()),
    }
    if let Some(t) = config.time {
        head.push(format!("Time={t}"));
    }
    if spectators != Spectators::Open {
        head.push(spectators.word().into());
    }
    let mut tail = vec![
        format!("sudden death: {}", config.sudden_death.name().replace('_', " ")),
        match config.deck_level_limit {
            Some(l) => format!("level limit {l}"),
            None => "no level limit".into(),
        },
    ];
    if let Some(n) = config.round_limit {
        tail.push(format!("round limit {n}"));
    }
    if r.combo_from_basic {
        tail.push("Combo from Basic".into());
    }
    if r.elemental && !r.elemental_clamp {
        tail.push("elemental ranks 0 to 11".into());
    }
    if r.same && r.same_min_matches != base.same_min_matches {
        tail.push(format!(
            "Same on {} side{}",
            r.same_min_matches,
            if r.same_min_matches == 1 { "" } else { "s" }
        ));
    }
    if !config.walls.is_empty() {
        let walls: Vec<String> = config
            .walls
            .iter()
            .map(|w| format!("{} {} {}", w.cell, w.side, w.label))
            .collect();
        tail.push(format!("walls: {}", walls.join(", ")));
    }
    format!("{}; {}", head.join(", "), tail.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn the_seed_rules() {
        let r: MushRules = "Same Wall Plus Combo Elemental Broadcast All".parse().unwrap();
        assert!(r.config.rules.same_wall && r.config.rules.plus && r.config.rules.elemental_clamp);
        assert_eq!(r.config.sudden_death, SuddenDeath::OriginalHands);
        assert_eq!(r.config.trade, TradeRule::All);
        assert_eq!(r.spectators, Spectators::Broadcast);
        r.config.validate().unwrap();
        assert_eq!(r.to_string(), "Same Wall Plus Combo Elemental All Broadcast");
        assert_eq!(r.to_string().parse::<MushRules>().unwrap(), r);
        let trade_only: MushRules = "none".parse().unwrap();
        assert_eq!(trade_only.config.trade, TradeRule::None);
        let play_only: MushRules = "Elemental".parse().unwrap();
        assert_eq!(play_only.config.trade, TradeRule::One);
    }

    #[test]
    fn the_french_servers_groups() {
        let r: MushRules =
            "open identique même-mur plus mur-additionnel combo bataille totale temps=300 mise=10 private"
                .parse()
                .unwrap();
        let x = r.config.rules;
        assert!(x.open && x.same && x.same_wall && x.plus && x.plus_wall && x.combo && x.battle);
        assert!(
            !x.borderless && !x.elemental_clamp,
            "the French server's elemental is its preset's"
        );
        assert_eq!((r.config.trade, r.config.time, r.gils), (TradeRule::All, Some(300), 10));
        assert_eq!((r.customs, r.spectators), (Customs::Ttonline, Spectators::Private));
        assert_eq!(r.config.sudden_death, SuddenDeath::Off);
        assert_eq!(r.config.deck_level_limit, None);
        assert_eq!(
            r.to_string(),
            "Open Same Wall Plus PlusWall Combo Battle Total Time=300 Bet=10 Private"
        );
        assert_eq!(r.to_string().parse::<MushRules>().unwrap(), r);
        for (word, trade) in [
            ("Training", TradeRule::Training),
            ("Entraînement", TradeRule::Training),
            ("Aucune", TradeRule::None),
            ("Two", TradeRule::Two),
            ("Three", TradeRule::Three),
            ("Four", TradeRule::Four),
            ("Directe", TradeRule::Direct),
            ("Change", TradeRule::Diff(DiffMode::Difference)),
            ("Aléatoire", TradeRule::Random),
        ] {
            let r: MushRules = word.parse().unwrap();
            assert_eq!(r.config.trade, trade, "{word}");
            assert_eq!(r.to_string().parse::<MushRules>().unwrap(), r, "{word}");
        }
        // One and None alone are the English text game's; a bet makes them the French server's.
        let one: MushRules = "One Bet=0".parse().unwrap();
        assert_eq!(
            (one.customs, one.to_string().as_str()),
            (Customs::Ttonline, "One Bet=0")
        );
        assert_eq!("One".parse::<MushRules>().unwrap().customs, Customs::Mush);
        // A clock alone is either server's.
        let timed: MushRules = "Same Time=15".parse().unwrap();
        assert_eq!((timed.customs, timed.config.time), (Customs::Mush, Some(15)));
        assert_eq!(timed.to_string(), "Same One Time=15");
    }

    #[test]
    fn french_lists_say_why_not() {
        assert_eq!(
            "Battle Limitless".parse::<MushRules>(),
            Err(MushRulesError::Mixed("Limitless", "Battle"))
        );
        assert_eq!(
            "Diff Total".parse::<MushRules>(),
            Err(MushRulesError::Mixed("Diff", "Total"))
        );
        assert_eq!(
            "Bataille Total Change".parse::<MushRules>(),
            Err(MushRulesError::Conflict("Total", "Change"))
        );
        assert!(matches!(
            "Plus Time=5".parse::<MushRules>(),
            Err(MushRulesError::Match(MatchError::Time(5)))
        ));
        assert!(matches!(
            "Plus Time=301".parse::<MushRules>(),
            Err(MushRulesError::Match(MatchError::Time(301)))
        ));
        assert_eq!(
            "Plus Bet=lots".parse::<MushRules>(),
            Err(MushRulesError::Number("Bet=lots".into()))
        );
        assert_eq!("Bet=10".parse::<MushRules>(), Err(MushRulesError::Empty));
        assert!(matches!(
            "PlusWall One".parse::<MushRules>(),
            Err(MushRulesError::Match(MatchError::Setup(SetupError::Rules(
                RulesError::PlusWallWithoutPlus
            ))))
        ));
        assert!(matches!(
            "Same Wall Borderless".parse::<MushRules>(),
            Err(MushRulesError::Match(_))
        ));
        let walls: MushRules = "Mur-puissant One".parse().unwrap();
        assert!(walls.config.rules.power_walls && walls.config.walls.is_empty());
        assert_eq!(walls.to_string(), "PowerWalls One Bet=0");
        assert!(matches!(
            "Borderless PowerWalls".parse::<MushRules>(),
            Err(MushRulesError::Match(_))
        ));
        // « Aléatoire » alone is the winner rule; the hands drawn at random are Main-aléatoire.
        let drawn: MushRules = "Main-aléatoire Aléatoire".parse().unwrap();
        assert!(drawn.config.rules.random);
        assert_eq!(
            (drawn.config.trade, drawn.customs),
            (TradeRule::Random, Customs::Ttonline)
        );
        assert_eq!(drawn.to_string(), "RandomHands Random Bet=0");
        assert_eq!(drawn.to_string().parse::<MushRules>().unwrap(), drawn);
        assert_eq!(
            "RandomHands Limitless".parse::<MushRules>(),
            Err(MushRulesError::Mixed("Limitless", "RandomHands"))
        );
        assert!(matches!("Same=3".parse::<MushRules>(), Err(MushRulesError::Unknown(w)) if w == "Same=3"));
        assert_eq!(
            "Time=30 Temps=40 One".parse::<MushRules>(),
            Err(MushRulesError::Repeated("Time"))
        );
    }

    #[test]
    fn bad_rule_lists_say_why() {
        assert_eq!("".parse::<MushRules>(), Err(MushRulesError::Empty));
        assert_eq!("Private".parse::<MushRules>(), Err(MushRulesError::Empty));
        assert_eq!(
            "One All".parse::<MushRules>(),
            Err(MushRulesError::Conflict("One", "All"))
        );
        assert_eq!(
            "Private Broadcast One".parse::<MushRules>(),
            Err(MushRulesError::Conflict("Private", "Broadcast"))
        );
        assert_eq!("Same same".parse::<MushRules>(), Err(MushRulesError::Repeated("Same")));
        assert_eq!("Wall".parse::<MushRules>(), Err(MushRulesError::WallWithoutSame));
        assert!(matches!("Same Dance".parse::<MushRules>(), Err(MushRulesError::Unknown(w)) if w == "Dance"));
        assert_eq!("private".parse::<Spectators>().unwrap(), Spectators::Private);
        assert_eq!("None".parse::<Spectators>().unwrap(), Spectators::Open);
        assert!("Open".parse::<Spectators>().is_err());
    }
}

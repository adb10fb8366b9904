//! The core's options as clap arguments: the allowed values and defaults of `--variant`,
//! `--preset`, `--rules`, `--groups` and `--kinds` are read from each game's `describe()`, not
//! written out here.

use arbiter_core::games;
use arbiter_core::options::{Kind, OptionSpec};
use clap::builder::PossibleValuesParser;

/// The core's option `name` of `game`; every name asked for here is one the core declares.
fn spec(game: &str, name: &str) -> OptionSpec {
    games::describe(game)
        .ok()
        .and_then(|d| d.option(name).cloned())
        .unwrap_or_else(|| panic!("the core declares no option {name} for {game}"))
}

/// The values the option takes (for `--rules`, also `none`: no rule at all).
pub fn values(game: &str, name: &str) -> PossibleValuesParser {
    let spec = spec(game, name);
    let none = matches!(spec.kind, Kind::Flags { .. }).then_some("none");
    PossibleValuesParser::new(spec.kind.values().iter().copied().chain(none))
}

/// The option's default value.
pub fn default(game: &str, name: &str) -> &'static str {
    match spec(game, name).kind {
        Kind::Choice { default: Some(d), .. } => d,
        _ => panic!("the core's option {name} of {game} has no default name"),
    }
}

/// A number option's least value, greatest value and default.
fn number(game: &str, name: &str) -> (u32, u32, u32) {
    match spec(game, name).kind {
        Kind::Number {
            min,
            max: Some(max),
            default: Some(default),
        } => (min, max, default),
        _ => panic!("the core's option {name} of {game} is no bounded number with a default"),
    }
}

/// The numbers the option takes.
fn range(game: &str, name: &str) -> clap::builder::RangedI64ValueParser<u32> {
    let (min, max, _) = number(game, name);
    clap::value_parser!(u32).range(i64::from(min)..=i64::from(max))
}

/// `what` with the option's bounds and default, for `--help`.
fn number_help(game: &str, name: &str, what: &str) -> String {
    let (min, max, default) = number(game, name);
    format!("{what}, {min} to {max} (default {default}); fewer make a smaller deal (rules/nantong-small.md)")
}

/// The size of a Nantong deal: the full game's unless given.
#[derive(clap::Args)]
pub struct NantongSize {
    #[arg(long, value_parser = range("nantong", "groups"),
          help = number_help("nantong", "groups", "Groups in a winning hand (and a pair)"))]
    groups: Option<u32>,
    #[arg(long, value_parser = range("nantong", "kinds"),
          help = number_help("nantong", "kinds", "Kinds in the deck, the first ones in code order"))]
    kinds: Option<u32>,
}

impl NantongSize {
    /// The size, checked by the core (a deck too small for the hands says the least kinds).
    pub fn size(&self) -> Result<arbiter_core::nantong::Size, String> {
        let options = arbiter_core::nantong::Options {
            groups: self.groups,
            kinds: self.kinds,
            ..Default::default()
        };
        options.size().map_err(|e| format!("--groups, --kinds: {e}"))
    }

    /// Whether either size was given.
    pub fn given(&self) -> bool {
        self.groups.is_some() || self.kinds.is_some()
    }
}

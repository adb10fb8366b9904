//! The core's options as clap arguments: the allowed values and defaults of `--variant`,
//! `--preset` and `--rules` are read from each game's `describe()`, not written out here.

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

//! A game's options as data: each game's `describe()` gives their names, allowed values and
//! defaults, and which may be combined, read off the game's own types, so that every host (the
//! server, the CLI, the bindings, the demo) offers the same options under the same names and
//! defaults without writing them out again.

use alloc::vec::Vec;

/// Everything a host needs to offer a game's options.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Description {
    /// The game's name ([`Engine::NAME`](crate::Engine::NAME)).
    pub game: &'static str,
    /// The options, in the order a host shows them.
    pub options: Vec<OptionSpec>,
    /// `[a, b]`: `a` may be on only with `b` on.
    pub requires: Vec<[&'static str; 2]>,
    /// `[a, b]`: `a` and `b` may not both be on (or given).
    pub excludes: Vec<[&'static str; 2]>,
}

impl Description {
    /// The option named `name`, if the game has it.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn option(&self, name: &str) -> Option<&OptionSpec> {
        self.options.iter().find(|o| o.name == name)
    }
}

/// One option: its name in the options' JSON, and what it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OptionSpec {
    /// The key in the options' JSON.
    pub name: &'static str,
    /// What it takes and its default.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub kind: Kind,
}

/// What an option takes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
pub enum Kind {
    /// One of `values`; `default` `None`: absent unless given.
    Choice {
        /// The names allowed.
        values: Vec<&'static str>,
        /// The name taken when the option is absent.
        default: Option<&'static str>,
    },
    /// A whole number from `min` to `max` (`None`: no bound); `default` `None`: no limit.
    Number {
        /// The least value.
        min: u32,
        /// The greatest value.
        max: Option<u32>,
        /// The value taken when the option is absent.
        default: Option<u32>,
    },
    /// An object of flags, each on or off, and numbers: the names in `values` (`default`: those
    /// on when absent).
    Flags {
        /// The flags' names.
        values: Vec<&'static str>,
        /// The flags on by default.
        default: Vec<&'static str>,
        /// The numbers among the fields.
        numbers: Vec<OptionSpec>,
    },
    /// A list of `item`s, empty by default.
    List {
        /// What each item is, in words.
        item: &'static str,
    },
}

impl Kind {
    /// The names a [`Kind::Choice`] or [`Kind::Flags`] allows (none for the others).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn values(&self) -> &[&'static str] {
        match self {
            Kind::Choice { values, .. } | Kind::Flags { values, .. } => values,
            Kind::Number { .. } | Kind::List { .. } => &[],
        }
    }
}

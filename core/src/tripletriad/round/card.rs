//! Cards: four ranks, an element, a level and a power.

use alloc::string::String;
use core::fmt;
use core::str::FromStr;

/// The elements a card or a cell can carry.
///
/// ```
/// use arbiter_core::tripletriad::Element;
/// assert_eq!("fire".parse::<Element>().unwrap(), Element::Fire);
/// assert_eq!(Element::Holy.to_string(), "holy");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Element {
    /// No element.
    #[default]
    None,
    /// Fire.
    Fire,
    /// Ice.
    Ice,
    /// Thunder.
    Thunder,
    /// Earth.
    Earth,
    /// Poison.
    Poison,
    /// Wind.
    Wind,
    /// Water.
    Water,
    /// Holy.
    Holy,
}

// Read by name (`crate::unit_enum`), written as derived.
#[cfg(feature = "serde")]
crate::unit_enum::read_by_name!(Element, Element::ALL);

impl Element {
    /// Every element, `None` first.
    pub const ALL: [Element; 9] = [
        Element::None,
        Element::Fire,
        Element::Ice,
        Element::Thunder,
        Element::Earth,
        Element::Poison,
        Element::Wind,
        Element::Water,
        Element::Holy,
    ];

    /// The lower-case name used in JSON and notation.
    pub const fn name(self) -> &'static str {
        match self {
            Element::None => "none",
            Element::Fire => "fire",
            Element::Ice => "ice",
            Element::Thunder => "thunder",
            Element::Earth => "earth",
            Element::Poison => "poison",
            Element::Wind => "wind",
            Element::Water => "water",
            Element::Holy => "holy",
        }
    }
}

impl fmt::Display for Element {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An element name that is not one of the nine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown element {0:?} (expected none, fire, ice, thunder, earth, poison, wind, water or holy)")]
pub struct UnknownElement(pub String);

impl FromStr for Element {
    type Err = UnknownElement;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Element::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownElement(crate::error::quote(s)))
    }
}

/// A card's type (its "faction" icon), read by Final Fantasy XIV's Ascension and Descension only
/// (`rules/triple-triad-ffxiv.md`, section 1). The English client calls `Beastman` "Society"; the
/// case format keeps the older name.
///
/// ```
/// use arbiter_core::tripletriad::CardType;
/// assert_eq!("scion".parse::<CardType>().unwrap(), CardType::Scion);
/// assert_eq!(CardType::Beastman.to_string(), "beastman");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum CardType {
    /// No type: never changed by Ascension or Descension.
    #[default]
    None,
    /// Primal.
    Primal,
    /// Scion.
    Scion,
    /// Beastman ("Society" in the current English client).
    Beastman,
    /// Garlean.
    Garlean,
}

// Read by name (`crate::unit_enum`), written as derived.
#[cfg(feature = "serde")]
crate::unit_enum::read_by_name!(CardType, CardType::ALL);

impl CardType {
    /// Every type, `None` first.
    pub const ALL: [CardType; 5] = [
        CardType::None,
        CardType::Primal,
        CardType::Scion,
        CardType::Beastman,
        CardType::Garlean,
    ];

    /// The lower-case name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            CardType::None => "none",
            CardType::Primal => "primal",
            CardType::Scion => "scion",
            CardType::Beastman => "beastman",
            CardType::Garlean => "garlean",
        }
    }

    /// Whether this is `None` (JSON leaves the field out then).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn is_none(&self) -> bool {
        *self == CardType::None
    }
}

impl fmt::Display for CardType {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A type name that is not one of the five.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown card type {0:?} (expected none, primal, scion, beastman or garlean)")]
pub struct UnknownCardType(pub String);

impl FromStr for CardType {
    type Err = UnknownCardType;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CardType::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownCardType(crate::error::quote(s)))
    }
}

/// The four sides of a card or a cell, in the order ranks are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Side {
    /// Top (rank 0).
    Top,
    /// Right (rank 1).
    Right,
    /// Bottom (rank 2).
    Bottom,
    /// Left (rank 3).
    Left,
}

// Read by name (`crate::unit_enum`), written as derived.
#[cfg(feature = "serde")]
crate::unit_enum::read_by_name!(Side, Side::ALL);

impl Side {
    /// The four sides in rank order.
    pub const ALL: [Side; 4] = [Side::Top, Side::Right, Side::Bottom, Side::Left];

    /// The side facing this one on the neighbouring card.
    ///
    /// ```
    /// use arbiter_core::tripletriad::Side;
    /// assert_eq!(Side::Left.opposite(), Side::Right);
    /// ```
    pub const fn opposite(self) -> Side {
        Side::ALL[(self as usize + 2) & 3]
    }

    /// The lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Top => "top",
            Side::Right => "right",
            Side::Bottom => "bottom",
            Side::Left => "left",
        }
    }
}

impl fmt::Display for Side {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A card: ranks (top, right, bottom, left; 10 is A), element, level and power.
///
/// ```
/// use arbiter_core::tripletriad::{Card, Element};
/// let ifrit = Card::new("Ifrit", [9, 6, 2, 8]).with_element(Element::Fire).with_power(13);
/// assert_eq!(ifrit.rank_sum(), 25);
/// assert_eq!(ifrit.to_string(), "Ifrit [9 6 2 8] fire");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Card {
    /// The card's name (not necessarily unique).
    pub name: String,
    /// Top, right, bottom, left; each 1..=10 in a valid state.
    pub ranks: [u8; 4],
    /// The card's element.
    pub element: Element,
    /// Used by power walls only.
    pub power: u32,
    /// 1..=10 for deck limits and collections; 0 when unknown.
    pub level: u8,
    /// Final Fantasy XIV's card type; JSON names it `type` and leaves it out when `None`.
    #[cfg_attr(feature = "serde", serde(rename = "type", skip_serializing_if = "CardType::is_none"))]
    pub card_type: CardType,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Card, deny_unknown = false;
    name: String => serde::Deserialize::deserialize;
    ranks: [u8; 4] => crate::fixed_array::read;
    element: Element => serde::Deserialize::deserialize, default;
    power: u32 => serde::Deserialize::deserialize, default;
    level: u8 => serde::Deserialize::deserialize, default;
    card_type("type"): CardType => serde::Deserialize::deserialize, default;
);

impl Card {
    /// A card with no element, power 0 and level 0.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn new(name: &str, ranks: [u8; 4]) -> Card {
        Card {
            name: name.into(),
            ranks,
            element: Element::None,
            power: 0,
            level: 0,
            card_type: CardType::None,
        }
    }

    /// The same card with element `element`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn with_element(mut self, element: Element) -> Card {
        self.element = element;
        self
    }

    /// The same card with power `power`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn with_power(mut self, power: u32) -> Card {
        self.power = power;
        self
    }

    /// The same card with level `level`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn with_level(mut self, level: u8) -> Card {
        self.level = level;
        self
    }

    /// The same card with type `card_type`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn with_type(mut self, card_type: CardType) -> Card {
        self.card_type = card_type;
        self
    }

    /// The sum of the four printed ranks (Battle compares these).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn rank_sum(&self) -> u32 {
        self.ranks.iter().map(|&r| r as u32).sum()
    }

    /// A rank as players write it: `A` for 10 (and `B` for an unclamped elemental 11).
    ///
    /// ```
    /// use arbiter_core::tripletriad::Card;
    /// assert_eq!(Card::rank_symbol(10), 'A');
    /// assert_eq!(Card::rank_symbol(7), '7');
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn rank_symbol(rank: u8) -> char {
        match rank {
            0..=9 => (b'0' + rank) as char,
            10 => 'A',
            11 => 'B',
            _ => '?',
        }
    }

    /// The rank on `side`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn rank(&self, side: Side) -> u8 {
        self.ranks[side as usize]
    }
}

impl fmt::Display for Card {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [t, r, b, l] = self.ranks;
        write!(f, "{} [{} {} {} {}]", self.name, t, r, b, l)?;
        if self.element != Element::None {
            write!(f, " {}", self.element)?;
        }
        Ok(())
    }
}

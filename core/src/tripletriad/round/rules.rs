//! The placement rules of one round, and power-wall labels.

use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use super::card::Side;

/// The rule options that decide what a placed card captures (see the rules file's option table).
///
/// In JSON every flag defaults to false except `elemental_clamp` (true) and `same_min_matches` (2);
/// unknown names are refused.
///
/// ```
/// use arbiter_core::tripletriad::Rules;
/// let r = Rules { same: true, plus: true, combo: true, ..Rules::default() };
/// assert!(r.validate(false).is_ok());
/// assert!(Rules { same_wall: true, ..Rules::default() }.validate(false).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Rules {
    /// Both hands visible to both players.
    pub open: bool,
    /// Hands are drawn at random from collections (the host's or the match layer's business).
    pub random: bool,
    /// Step 3.
    pub same: bool,
    /// Step 3 counts an edge as A.
    pub same_wall: bool,
    /// How many matching sides make Same fire: 2 (default) or 1.
    pub same_min_matches: u8,
    /// Step 4.
    pub plus: bool,
    /// Step 4 counts an edge as A.
    pub plus_wall: bool,
    /// Step 7.
    pub combo: bool,
    /// Cards taken by Basic also seed Combo.
    pub combo_from_basic: bool,
    /// Step 6.
    pub battle: bool,
    /// The board wraps around.
    pub borderless: bool,
    /// Elemental cells adjust ranks by one.
    pub elemental: bool,
    /// Keep elemental values within 1..=10 (otherwise 0..=11).
    pub elemental_clamp: bool,
    /// The French server's « Mur puissant »: a match draws the border's labels from its seed
    /// when none are given (a round on its own needs them given).
    pub power_walls: bool,
    /// FFXIV: the lower rank captures, in the placement and in Combo chains.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub reverse: bool,
    /// FFXIV: a 1 and an A facing each other: the attacker captures.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub fallen_ace: bool,
    /// FFXIV: a typed card shows +1 per card of its type on the board.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub ascension: bool,
    /// FFXIV: a typed card shows -1 per card of its type on the board.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub descension: bool,
    /// FFXIV: each player must play the first card of its hand.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub order: bool,
    /// FFXIV: the game draws the card to play each turn; the player picks the cell.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub chaos: bool,
    /// FFXIV: three of each hand's five cards are visible.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub three_open: bool,
    /// FFXIV: both hands are visible (as `open`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub all_open: bool,
    /// FFXIV: one card of each hand changes hands before play.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub swap: bool,
    /// FFXIV: the match's rules are drawn at random (the drawn ones are their own flags).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub roulette: bool,
    /// FFXIV: hands are picked from a random offer (setup only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub draft: bool,
    /// FFXIV: a drawn round restarts with each colour's cards, up to five rounds.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub sudden_death: bool,
}

/// [`Rules`] read over [`Rule`]'s table rather than derived: the derived reader wrote out each of
/// the 26 fields twice (an object's entry, an array's element), 2 KiB of the npm package's Triple
/// Triad module gzipped (docs/speed.md, an eighth pass on the wasm size). It reads what the derive
/// with `#[serde(default, deny_unknown_fields)]` read, refusing in its words: absent fields and
/// missing elements take their default, an unknown or repeated name is refused.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Rules {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
        d.deserialize_struct("Rules", &RULE_NAMES, RulesVisitor)
    }
}

/// The JSON keys of [`Rules`], in its order (the derive's field list).
#[cfg(feature = "serde")]
const RULE_NAMES: [&str; 26] = {
    let mut names = [""; 26];
    let mut i = 0;
    while i < names.len() {
        names[i] = Rule::ALL[i].name();
        i += 1;
    }
    names
};

#[cfg(feature = "serde")]
struct RulesVisitor;

#[cfg(feature = "serde")]
impl<'de> serde::de::Visitor<'de> for RulesVisitor {
    type Value = Rules;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("struct Rules")
    }

    /// The fields in order; as the derive, it asks for every one, a missing one keeping its default.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Rules, A::Error> {
        let mut rules = Rules::default();
        crate::fields::elements(&mut seq, "Rules", RULE_NAMES.len(), u32::MAX, &mut |seq, index| {
            Ok(match Rule::ALL[index].flag(&mut rules) {
                Some(flag) => seq.next_element()?.map(|on| *flag = on),
                None => seq.next_element()?.map(|n| rules.same_min_matches = n),
            })
        })?;
        Ok(rules)
    }

    /// The keys in any order, by the loop of the structs read over a table (`crate::fields`):
    /// unknown keys refused, a repeated one refused, an absent one keeping its default.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Rules, A::Error> {
        let mut rules = Rules::default();
        let key = crate::fields::Key {
            keys: &RULE_NAMES,
            deny_unknown: true,
        };
        crate::fields::entries(&mut map, key, u32::MAX, &mut |map, index| {
            match Rule::ALL[index].flag(&mut rules) {
                Some(flag) => *flag = map.next_value()?,
                None => rules.same_min_matches = map.next_value()?,
            }
            Ok(())
        })?;
        Ok(rules)
    }
}

/// New flags stay out of a serialised [`Rules`] while off, so that what hosts stored keeps its form.
#[cfg(feature = "serde")]
#[cfg_attr(arbiter_size, optimize(size))]
fn is_false(on: &bool) -> bool {
    !*on
}

impl Default for Rules {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn default() -> Rules {
        Rules {
            open: false,
            random: false,
            same: false,
            same_wall: false,
            same_min_matches: 2,
            plus: false,
            plus_wall: false,
            combo: false,
            combo_from_basic: false,
            battle: false,
            borderless: false,
            elemental: false,
            elemental_clamp: true,
            power_walls: false,
            reverse: false,
            fallen_ace: false,
            ascension: false,
            descension: false,
            order: false,
            chaos: false,
            three_open: false,
            all_open: false,
            swap: false,
            roulette: false,
            draft: false,
            sudden_death: false,
        }
    }
}

/// One field of [`Rules`] by its name in configurations (the JSON key): the flags, and Same's
/// threshold [`Rule::SameMinMatches`].
///
/// ```
/// use arbiter_core::tripletriad::{Rule, Rules};
/// let mut r = Rules::default();
/// *Rule::SameWall.flag(&mut r).unwrap() = true;
/// assert!(r.same_wall && "same_wall".parse::<Rule>() == Ok(Rule::SameWall));
/// assert!(Rule::SameMinMatches.flag(&mut r).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// [`Rules::open`].
    Open,
    /// [`Rules::random`].
    Random,
    /// [`Rules::same`].
    Same,
    /// [`Rules::same_wall`].
    SameWall,
    /// [`Rules::same_min_matches`] (a number, not a flag).
    SameMinMatches,
    /// [`Rules::plus`].
    Plus,
    /// [`Rules::plus_wall`].
    PlusWall,
    /// [`Rules::combo`].
    Combo,
    /// [`Rules::combo_from_basic`].
    ComboFromBasic,
    /// [`Rules::battle`].
    Battle,
    /// [`Rules::borderless`].
    Borderless,
    /// [`Rules::elemental`].
    Elemental,
    /// [`Rules::elemental_clamp`].
    ElementalClamp,
    /// [`Rules::power_walls`].
    PowerWalls,
    /// [`Rules::reverse`].
    Reverse,
    /// [`Rules::fallen_ace`].
    FallenAce,
    /// [`Rules::ascension`].
    Ascension,
    /// [`Rules::descension`].
    Descension,
    /// [`Rules::order`].
    Order,
    /// [`Rules::chaos`].
    Chaos,
    /// [`Rules::three_open`].
    ThreeOpen,
    /// [`Rules::all_open`].
    AllOpen,
    /// [`Rules::swap`].
    Swap,
    /// [`Rules::roulette`].
    Roulette,
    /// [`Rules::draft`].
    Draft,
    /// [`Rules::sudden_death`].
    SuddenDeath,
}

impl Rule {
    /// Every field, in the order of [`Rules`].
    pub const ALL: [Rule; 26] = [
        Rule::Open,
        Rule::Random,
        Rule::Same,
        Rule::SameWall,
        Rule::SameMinMatches,
        Rule::Plus,
        Rule::PlusWall,
        Rule::Combo,
        Rule::ComboFromBasic,
        Rule::Battle,
        Rule::Borderless,
        Rule::Elemental,
        Rule::ElementalClamp,
        Rule::PowerWalls,
        Rule::Reverse,
        Rule::FallenAce,
        Rule::Ascension,
        Rule::Descension,
        Rule::Order,
        Rule::Chaos,
        Rule::ThreeOpen,
        Rule::AllOpen,
        Rule::Swap,
        Rule::Roulette,
        Rule::Draft,
        Rule::SuddenDeath,
    ];

    /// The field's name, as configurations write it.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Open => "open",
            Rule::Random => "random",
            Rule::Same => "same",
            Rule::SameWall => "same_wall",
            Rule::SameMinMatches => "same_min_matches",
            Rule::Plus => "plus",
            Rule::PlusWall => "plus_wall",
            Rule::Combo => "combo",
            Rule::ComboFromBasic => "combo_from_basic",
            Rule::Battle => "battle",
            Rule::Borderless => "borderless",
            Rule::Elemental => "elemental",
            Rule::ElementalClamp => "elemental_clamp",
            Rule::PowerWalls => "power_walls",
            Rule::Reverse => "reverse",
            Rule::FallenAce => "fallen_ace",
            Rule::Ascension => "ascension",
            Rule::Descension => "descension",
            Rule::Order => "order",
            Rule::Chaos => "chaos",
            Rule::ThreeOpen => "three_open",
            Rule::AllOpen => "all_open",
            Rule::Swap => "swap",
            Rule::Roulette => "roulette",
            Rule::Draft => "draft",
            Rule::SuddenDeath => "sudden_death",
        }
    }

    /// The flag this rule is in `rules`; `None` for [`Rule::SameMinMatches`], a number.
    // Out of line, as `Rules::validate`: read by option parsing and `describe` only, which inlined
    // its 26 arms at each call (2.1 KiB of the npm package's Triple Triad module, gzipped).
    #[inline(never)]
    pub fn flag(self, rules: &mut Rules) -> Option<&mut bool> {
        Some(match self {
            Rule::Open => &mut rules.open,
            Rule::Random => &mut rules.random,
            Rule::Same => &mut rules.same,
            Rule::SameWall => &mut rules.same_wall,
            Rule::SameMinMatches => return None,
            Rule::Plus => &mut rules.plus,
            Rule::PlusWall => &mut rules.plus_wall,
            Rule::Combo => &mut rules.combo,
            Rule::ComboFromBasic => &mut rules.combo_from_basic,
            Rule::Battle => &mut rules.battle,
            Rule::Borderless => &mut rules.borderless,
            Rule::Elemental => &mut rules.elemental,
            Rule::ElementalClamp => &mut rules.elemental_clamp,
            Rule::PowerWalls => &mut rules.power_walls,
            Rule::Reverse => &mut rules.reverse,
            Rule::FallenAce => &mut rules.fallen_ace,
            Rule::Ascension => &mut rules.ascension,
            Rule::Descension => &mut rules.descension,
            Rule::Order => &mut rules.order,
            Rule::Chaos => &mut rules.chaos,
            Rule::ThreeOpen => &mut rules.three_open,
            Rule::AllOpen => &mut rules.all_open,
            Rule::Swap => &mut rules.swap,
            Rule::Roulette => &mut rules.roulette,
            Rule::Draft => &mut rules.draft,
            Rule::SuddenDeath => &mut rules.sudden_death,
        })
    }

    /// Whether this flag is on in `rules` (false for [`Rule::SameMinMatches`]).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn is_on(self, mut rules: Rules) -> bool {
        self.flag(&mut rules).is_some_and(|on| *on)
    }
}

impl fmt::Display for Rule {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that [`Rules`] does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule {0:?} (expected {names})", names = Rule::ALL.map(Rule::name).join(", "))]
pub struct UnknownRule(pub String);

impl FromStr for Rule {
    type Err = UnknownRule;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rule::ALL
            .into_iter()
            .find(|r| r.name() == s.trim())
            .ok_or_else(|| UnknownRule(crate::error::quote(s)))
    }
}

/// Why a rule configuration is impossible.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// `same_wall` without `same`.
    #[error("same_wall requires same")]
    SameWallWithoutSame,
    /// `plus_wall` without `plus`.
    #[error("plus_wall requires plus")]
    PlusWallWithoutPlus,
    /// `same_min_matches` other than 1 or 2.
    #[error("same_min_matches is {0} (only 1 or 2 are allowed)")]
    SameMinMatches(u8),
    /// Two rules that cannot be combined: FFXIV pairs that contradict each other (no source
    /// pairs them), or Ascension/Descension with an FF8 rule that reads printed ranks or edges.
    #[error("{0} and {1} cannot be combined")]
    Contradictory(&'static str, &'static str),
    /// A borderless board has no edges for walls.
    #[error("a borderless board has no edges: it cannot be combined with {0}")]
    BorderlessWithEdges(&'static str),
}

impl Rules {
    /// Whether a side showing `rank` takes a facing `other` by the basic condition: higher (lower
    /// under Reverse, strictly both ways), and under Fallen Ace a 1 and an A facing each other go
    /// to the attacker whatever Reverse says (`rules/triple-triad-ffxiv.md`, Fallen Ace).
    #[inline(always)]
    pub(crate) fn beats(&self, rank: u8, other: u8) -> bool {
        // Without branches, on signed bytes (ranks are under 16): the capture tables apply this
        // to 16 ids at a time, and this form keeps those loops vector compares, as fast as
        // FF8's plain `>` (the tables are rebuilt at every deal a batch makes).
        let (r, o) = (rank as i8, other as i8);
        let plain = (r > o) & !self.reverse | (r < o) & self.reverse;
        let ace = self.fallen_ace & ((r == 1) & (o == 10) | (r == 10) & (o == 1));
        plain | ace
    }

    /// Whether both hands are shown to both players: FF8's Open or FFXIV's All Open (Three Open
    /// shows what a match draws, [`Match::observation`](crate::tripletriad::Match::observation)).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn hands_open(&self) -> bool {
        self.open || self.all_open
    }

    /// Checks that the options can be combined; `walls` says whether wall labels are given.
    // Out of line: a setup's check, off every hot path, and `describe` alone calls it seven times
    // (0.9 KiB of the npm package's Triple Triad module, gzipped).
    #[inline(never)]
    pub fn validate(&self, walls: bool) -> Result<(), RulesError> {
        if self.same_wall && !self.same {
            return Err(RulesError::SameWallWithoutSame);
        }
        if self.plus_wall && !self.plus {
            return Err(RulesError::PlusWallWithoutPlus);
        }
        if !matches!(self.same_min_matches, 1 | 2) {
            return Err(RulesError::SameMinMatches(self.same_min_matches));
        }
        for (a, b) in [
            (Rule::Ascension, Rule::Descension),
            (Rule::Order, Rule::Chaos),
            (Rule::AllOpen, Rule::ThreeOpen),
        ] {
            if a.is_on(*self) && b.is_on(*self) {
                return Err(RulesError::Contradictory(a.name(), b.name()));
            }
        }
        if self.ascension || self.descension {
            // Typed values replace printed ranks; the FF8 rules that read printed ranks or
            // edges beside them have no FFXIV meaning to combine with.
            let name = if self.ascension { "ascension" } else { "descension" };
            for (on, other) in [
                (self.same_wall, "same_wall"),
                (self.plus_wall, "plus_wall"),
                (self.battle, "battle"),
                (self.elemental, "elemental"),
                (self.power_walls || walls, "power walls"),
            ] {
                if on {
                    return Err(RulesError::Contradictory(name, other));
                }
            }
        }
        if self.borderless {
            if self.same_wall {
                return Err(RulesError::BorderlessWithEdges("same_wall"));
            }
            if self.plus_wall {
                return Err(RulesError::BorderlessWithEdges("plus_wall"));
            }
            if self.power_walls {
                return Err(RulesError::BorderlessWithEdges("power_walls"));
            }
            if walls {
                return Err(RulesError::BorderlessWithEdges("power walls"));
            }
        }
        Ok(())
    }
}

/// How a power-wall label compares the placed card's power with its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `>n`: power greater than n.
    Greater,
    /// `<n`: power less than n.
    Less,
    /// `=n`: power equal to n.
    Equal,
}

/// A power-wall label such as `>5`, `<15` or `=8` (`+n` and `-n` are read as `>n` and `<n`).
///
/// ```
/// use arbiter_core::tripletriad::WallLabel;
/// let l: WallLabel = "+5".parse().unwrap();
/// assert_eq!(l.to_string(), ">5");
/// assert!(l.activated_by(13));
/// assert!(!l.activated_by(5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WallLabel {
    /// The comparison.
    pub comparison: Comparison,
    /// The number compared with.
    pub value: u32,
}

impl WallLabel {
    /// Whether a card of power `power` activates the label.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn activated_by(&self, power: u32) -> bool {
        match self.comparison {
            Comparison::Greater => power > self.value,
            Comparison::Less => power < self.value,
            Comparison::Equal => power == self.value,
        }
    }
}

/// A malformed power-wall label.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad wall label {0:?}: expected >n, <n or =n (or +n, -n) with n a non-negative integer")]
pub struct BadLabel(pub String);

impl FromStr for WallLabel {
    type Err = BadLabel;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadLabel(crate::error::quote(s));
        let t = s.trim();
        let mut chars = t.chars();
        let comparison = match chars.next() {
            Some('>' | '+') => Comparison::Greater,
            Some('<' | '-') => Comparison::Less,
            Some('=') => Comparison::Equal,
            _ => return Err(bad()),
        };
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let value = digits.parse().map_err(|_| bad())?;
        Ok(WallLabel { comparison, value })
    }
}

impl fmt::Display for WallLabel {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self.comparison {
            Comparison::Greater => '>',
            Comparison::Less => '<',
            Comparison::Equal => '=',
        };
        write!(f, "{c}{}", self.value)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for WallLabel {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for WallLabel {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <alloc::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The twelve segments of the border: top of cells 0, 1, 2; right of 2, 5, 8; bottom of 6, 7, 8;
/// left of 0, 3, 6 (the tensor's order).
pub(crate) const BORDER: [(u8, Side); 12] = [
    (0, Side::Top),
    (1, Side::Top),
    (2, Side::Top),
    (2, Side::Right),
    (5, Side::Right),
    (8, Side::Right),
    (6, Side::Bottom),
    (7, Side::Bottom),
    (8, Side::Bottom),
    (0, Side::Left),
    (3, Side::Left),
    (6, Side::Left),
];

/// The labels [`Rules::power_walls`] puts on the border, drawn from `rng`: two to four segments
/// of distinct cells (so a corner never carries two), each `>n` (n 3..=14), `<n` (4..=15) or
/// `=n` (3..=15). The FF8 cards' powers run from 3 to 15, so every label drawn fires for some
/// of them and not for others.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn random_walls(rng: &mut crate::Rng) -> alloc::vec::Vec<Wall> {
    let count = 2 + rng.below(3) as usize;
    let mut segments = BORDER;
    rng.shuffle(&mut segments);
    let mut walls: alloc::vec::Vec<Wall> = alloc::vec::Vec::with_capacity(count);
    for (cell, side) in segments {
        if walls.len() == count {
            break;
        }
        if walls.iter().any(|w| w.cell == cell) {
            continue;
        }
        let (comparison, least, values) = match rng.below(3) {
            0 => (Comparison::Greater, 3, 12),
            1 => (Comparison::Less, 4, 12),
            _ => (Comparison::Equal, 3, 13),
        };
        let value = least + rng.below(values) as u32;
        walls.push(Wall {
            cell,
            side,
            label: WallLabel { comparison, value },
        });
    }
    walls
}

/// A labelled wall segment: the border side of one cell.
///
/// ```
/// use arbiter_core::tripletriad::{Wall, Side};
/// let w = Wall { cell: 3, side: Side::Left, label: ">5".parse().unwrap() };
/// assert!(w.is_on_border());
/// assert!(!Wall { cell: 4, ..w }.is_on_border());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Wall {
    /// The cell whose side the segment is.
    pub cell: u8,
    /// Which side of that cell.
    pub side: Side,
    /// The label.
    pub label: WallLabel,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Wall, deny_unknown = true;
    cell: u8 => serde::Deserialize::deserialize;
    side: Side => serde::Deserialize::deserialize;
    label: WallLabel => serde::Deserialize::deserialize;
);

impl Wall {
    /// Whether the segment lies on the border of the board.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn is_on_border(&self) -> bool {
        let (row, col) = (self.cell / 3, self.cell % 3);
        self.cell < 9
            && match self.side {
                Side::Top => row == 0,
                Side::Bottom => row == 2,
                Side::Left => col == 0,
                Side::Right => col == 2,
            }
    }

    /// The three cells of the row or column the wall rotates, from the wall outwards.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn line(&self) -> [u8; 3] {
        let (row, col) = (self.cell / 3, self.cell % 3);
        match self.side {
            Side::Left => [row * 3, row * 3 + 1, row * 3 + 2],
            Side::Right => [row * 3 + 2, row * 3 + 1, row * 3],
            Side::Top => [col, col + 3, col + 6],
            Side::Bottom => [col + 6, col + 3, col],
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;
    use crate::tripletriad::{dealt_hands, ff8_card, Match, MatchConfig, Move, Player, Setup, TripleTriad};

    /// Rules read by hand (over [`Rule`]'s table) as the derived reader read them: every field,
    /// objects and arrays, and the derive's error texts word for word.
    #[cfg(feature = "serde")]
    #[test]
    fn rules_read_as_derived() {
        use alloc::string::{String, ToString};
        // Every field listed: a new one fails to compile here until it is added, and then to read
        // back until `Rule` has it.
        let every = Rules {
            open: true,
            random: true,
            same: true,
            same_wall: true,
            same_min_matches: 1,
            plus: true,
            plus_wall: true,
            combo: true,
            combo_from_basic: true,
            battle: true,
            borderless: true,
            elemental: true,
            elemental_clamp: false,
            power_walls: true,
            reverse: true,
            fallen_ace: true,
            ascension: true,
            descension: true,
            order: true,
            chaos: true,
            three_open: true,
            all_open: true,
            swap: true,
            roulette: true,
            draft: true,
            sudden_death: true,
        };
        let read = |text: &str| serde_json::from_str::<Rules>(text).map_err(|e| e.to_string());
        assert_eq!(read(&serde_json::to_string(&every).unwrap()), Ok(every));
        let values = serde_json::to_value(every).unwrap();
        let as_array: Vec<_> = Rule::ALL.iter().map(|r| values[r.name()].clone()).collect();
        assert_eq!(read(&serde_json::to_string(&as_array).unwrap()), Ok(every));
        assert_eq!(read("{}"), Ok(Rules::default()));
        assert_eq!(read("[]"), Ok(Rules::default()));
        assert_eq!(
            read("[true, true]"),
            Ok(Rules {
                open: true,
                random: true,
                ..Rules::default()
            })
        );
        let names = Rule::ALL.map(|r| alloc::format!("`{}`", r.name())).join(", ");
        let refused: [(&str, String); 9] = [
            (
                r#"{"same": true, "sane": true}"#,
                alloc::format!("unknown field `sane`, expected one of {names} at line 1 column 21"),
            ),
            (
                r#"{"plus": true, "plus": false}"#,
                "duplicate field `plus` at line 1 column 21".into(),
            ),
            (
                r#"{"same_min_matches": 300}"#,
                "invalid value: integer `300`, expected u8 at line 1 column 24".into(),
            ),
            (
                r#"{"same_min_matches": true}"#,
                "invalid type: boolean `true`, expected u8 at line 1 column 25".into(),
            ),
            (
                r#"{"combo": 1}"#,
                "invalid type: integer `1`, expected a boolean at line 1 column 11".into(),
            ),
            (
                r#"[false, false, false, false, 1.5]"#,
                "invalid type: floating point `1.5`, expected u8 at line 1 column 32".into(),
            ),
            (
                r#"[false, false, false, false, 2, false, 0]"#,
                "invalid type: integer `0`, expected a boolean at line 1 column 40".into(),
            ),
            (
                "5",
                "invalid type: integer `5`, expected struct Rules at line 1 column 1".into(),
            ),
            (
                r#""open""#,
                "invalid type: string \"open\", expected struct Rules at line 1 column 6".into(),
            ),
        ];
        for (text, message) in refused {
            assert_eq!(read(text), Err(message), "{text}");
        }
        let mut extra = ["false"; 27];
        extra[4] = "2";
        let extra = alloc::format!("[{}]", extra.join(","));
        assert_eq!(read(&extra), Err("trailing characters at line 1 column 154".into()));
    }

    fn power_walls() -> MatchConfig {
        MatchConfig {
            rules: Rules {
                power_walls: true,
                ..Rules::default()
            },
            ..MatchConfig::default()
        }
    }

    fn deal(config: MatchConfig, seed: u64) -> Match {
        let hands = dealt_hands(&config, seed).unwrap();
        Match::new(config, hands.blue, hands.red, seed).unwrap()
    }

    /// A seed replays its labels, seeds spread them over the border and every kind of label,
    /// and the rule changes nothing else of the deal.
    #[test]
    fn the_labels_are_drawn_from_the_seed() {
        let (mut kinds, mut cells, mut layouts) = ([false; 3], [false; 9], Vec::new());
        for seed in 0..300 {
            let m = deal(power_walls(), seed);
            let walls = &m.config().walls;
            assert_eq!(walls, &deal(power_walls(), seed).config().walls, "seed {seed}");
            assert_eq!(m.game().walls(), &walls[..]);
            assert!((2..=4).contains(&walls.len()), "{walls:?}");
            for w in walls {
                kinds[w.label.comparison as usize] = true;
                cells[w.cell as usize] = true;
            }
            if !layouts.contains(walls) {
                layouts.push(walls.clone());
            }
            let plain = deal(MatchConfig::default(), seed);
            assert_eq!(m.game().next_player(), plain.game().next_player());
            assert_eq!(m.brought(Player::Blue), plain.brought(Player::Blue));
        }
        assert_eq!(kinds, [true; 3]);
        assert_eq!(cells, [true, true, true, true, false, true, true, true, true]);
        assert!(layouts.len() > 250, "{} layouts", layouts.len());
        let given = MatchConfig {
            walls: alloc::vec![Wall {
                cell: 3,
                side: Side::Left,
                label: "=8".parse().unwrap()
            }],
            ..power_walls()
        };
        assert_eq!(
            deal(given.clone(), 1).config().walls,
            given.walls,
            "given labels are kept"
        );
    }

    /// A round that names the rule but carries no labels is refused (only a match draws them).
    #[test]
    fn a_round_needs_its_labels() {
        let mut setup = Setup::random_ff8(1);
        setup.rules.power_walls = true;
        assert!(TripleTriad::new(&setup).is_err());
        setup.walls = alloc::vec![Wall {
            cell: 0,
            side: Side::Top,
            label: ">5".parse().unwrap()
        }];
        assert!(TripleTriad::new(&setup).is_ok());
    }

    /// The French page's labels fire with the cards' real powers exactly when the rule says:
    /// `>5` for power above 5, `<15` below 15, `=8` at 8 (Ifrit 13, Geezard 3, Squall 15,
    /// Vysage 8), each on the left wall of the middle row.
    #[test]
    fn labels_fire_with_the_cards_real_powers() {
        let cases = [
            (">5", "Ifrit", true),
            (">5", "Geezard", false),
            ("<15", "Ifrit", true),
            ("<15", "Squall", false),
            ("=8", "Vysage", true),
            ("=8", "Ifrit", false),
        ];
        for (label, name, fires) in cases {
            let card = ff8_card(name).unwrap();
            let mut setup = Setup::random_ff8(1);
            setup.hands.blue[0] = card;
            setup.to_move = Player::Blue;
            setup.rules.power_walls = true;
            setup.walls = alloc::vec![Wall {
                cell: 3,
                side: Side::Left,
                label: label.parse().unwrap()
            }];
            let mut g = TripleTriad::new(&setup).unwrap();
            let c = g.play_explained(Move { card: 0, cell: 3 }).unwrap();
            assert_eq!(c.rotated, fires, "{name} on {label}");
            assert_eq!(c.cell, if fires { 4 } else { 3 }, "{name} on {label}");
        }
    }
}

//! The card shop of the English text game: series, card ids, prices per level, purchases and
//! custom cards (see `rules/triple-triad.md`, "Collections and decks", and the MUSH seed's "Card
//! Shop" and "Custom Cards").
//!
//! The seed gives the shape (a random and a specific price per series, each times the card's
//! level, `--` for a method a series does not sell by, half the listed price to create a custom
//! card) but not the figures; [`Catalog::standard`] fixes them and the README says which.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::collection::{copies_allowed, validate_custom_card, CollectionError};
use arbiter_core::tripletriad::{Card, Element};
use arbiter_core::{quote, Rng};

/// How many copies of each of its cards a series lets one own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Copies {
    /// The standard amounts by level ([`copies_allowed`]).
    ByLevel,
    /// One of each card (custom cards, promos, weapons and artifacts).
    One,
}

impl Copies {
    /// Copies allowed of a card of `level` (0 for a level outside 1..=10).
    pub fn allowed(self, level: u8) -> u32 {
        match self {
            Copies::ByLevel => copies_allowed(level),
            Copies::One if (1..=10).contains(&level) => 1,
            Copies::One => 0,
        }
    }
}

/// A series of cards and its prices per level (`None`: not sold that way, the seed's `--`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Series {
    /// Its letter or digit, the first character of its cards' ids.
    pub code: char,
    /// Its name.
    pub name: String,
    /// Points per level for a random card of a chosen level.
    pub random_price: Option<u32>,
    /// Points per level for a card chosen by name or id.
    pub card_price: Option<u32>,
    /// Copies one may own.
    pub copies: Copies,
}

impl Series {
    /// The seed's notation of the two prices, `10/20`, `--/100` or `--/--`.
    pub fn prices(&self) -> String {
        let p = |x: Option<u32>| x.map_or_else(|| "--".to_string(), |x| x.to_string());
        format!("{}/{}", p(self.random_price), p(self.card_price))
    }
}

/// A card of the shop's database: its id (series code and three digits), the card, its flavour text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShopCard {
    /// `A001`, `Z004`, `C012`.
    pub id: String,
    /// The card (name, ranks, element, level).
    pub card: Card,
    /// Flavour text (may be empty).
    #[cfg_attr(feature = "serde", serde(default))]
    pub text: String,
}

impl ShopCard {
    /// The series code, the id's first character.
    pub fn series(&self) -> char {
        self.id.chars().next().unwrap_or('?')
    }
}

/// A sale the shop agrees to: the card and what it costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sale {
    /// The card bought or created.
    pub card: ShopCard,
    /// Points it costs.
    pub price: u32,
}

/// Why the shop refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShopError {
    /// No series has that code.
    #[error("there is no series {0:?}")]
    UnknownSeries(String),
    /// No card has that name or id.
    #[error("there is no card named or numbered {0:?}")]
    UnknownCard(String),
    /// A level outside 1..=10.
    #[error("levels are 1 to 10, not {0}")]
    Level(u8),
    /// The series does not sell that way.
    #[error("series {series} cannot be bought {how} (its prices are {prices})")]
    NotForSale {
        /// The series code.
        series: char,
        /// `at random` or `by card`.
        how: &'static str,
        /// The series' price notation.
        prices: String,
    },
    /// The series has no card of that level.
    #[error("series {series} has no card of level {level}")]
    NoCardOfLevel {
        /// The series code.
        series: char,
        /// The level.
        level: u8,
    },
    /// Every card of that series and level is already owned as often as allowed.
    #[error("you already own as many copies as allowed of every level {level} card of series {series}")]
    AllOwned {
        /// The series code.
        series: char,
        /// The level.
        level: u8,
    },
    /// One more copy would pass the series' limit.
    #[error("one may own at most {allowed} copies of {name:?}")]
    TooManyCopies {
        /// The card's name.
        name: String,
        /// Copies allowed.
        allowed: u32,
    },
    /// Not enough points.
    #[error("that costs {price} points and you have {points}")]
    NotEnoughPoints {
        /// The price.
        price: u32,
        /// The buyer's points.
        points: u32,
    },
    /// A custom card's name that a card already has (or that reads as a card id).
    #[error("the name {0:?} is taken: a custom card needs a name no card has")]
    NameTaken(String),
    /// A custom card's name that commands could not carry.
    #[error("bad card name {name:?}: {reason}")]
    BadName {
        /// The name.
        name: String,
        /// Why.
        reason: &'static str,
    },
    /// A custom card's flavour text over the limit.
    #[error("the flavour text is {0} bytes: at most 500")]
    TextTooLong(usize),
    /// A custom card whose ranks break the level's range.
    #[error(transparent)]
    Card(#[from] CollectionError),
    /// The custom series is full (999 cards).
    #[error("series {0} is full")]
    SeriesFull(char),
}

/// The promo series' four cards (the seed shows them as pictures: the ranks are ours, within
/// level 7's range).
const PROMOS: [(&str, [u8; 4], &str); 4] = [
    ("Serendipity", [7, 6, 5, 6], "The world of eternal carnival! Offered at the Grand Opening of Serendipity."),
    ("Golden Coin", [6, 7, 6, 5], "Golden Coin retrieved from Tramdine Fens' Casino. \"I WON! I WON!\" - Don Corneo Artifact used to unlock Serendipity."),
    ("Golden Feather", [5, 6, 7, 6], "Beautiful feather wrestled away from a Chocobo Eater! \"I'M GONNA WRECK'IT!\" - Chocobo Eater Artifact used to unlock Serendipity."),
    ("Golden Card", [6, 5, 6, 7], "Part of a deck found in Old Timmy's well. - Mercade Alexander Artifact used to unlock Serendipity."),
];

/// The flavour text's limit, in bytes.
pub const TEXT_LIMIT: usize = 500;
/// The longest custom card name, in characters.
pub const NAME_LIMIT: usize = 30;

/// The shop's database: every series and every card, custom cards included.
///
/// ```
/// use arbiter_economy::{Catalog, ShopError};
/// use arbiter_core::Rng;
/// let shop = Catalog::standard();
/// assert_eq!(shop.find("A001").unwrap().card.name, "Geezard");
/// let sale = shop.buy_random('A', 7, 1000, |_| 0, &mut Rng::new(1)).unwrap();
/// assert_eq!((sale.card.card.level, sale.price), (7, 70));
/// assert!(matches!(shop.buy_card("Serendipity", 1000, 0), Err(ShopError::NotForSale { .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalog {
    series: Vec<Series>,
    cards: Vec<ShopCard>,
}

impl Catalog {
    /// The code of the series custom cards join.
    pub const CUSTOM: char = 'C';

    /// Series A (FF8's cards in the game's order, its characters and three of its monsters
    /// replaced: [`crate::series_a::REPLACED`]; 10 points a level at random, 20 by card), Z (the promos: not for sale) and C (custom cards: not sold at random, 100
    /// points a level by card, so 50 a level to create one).
    pub fn standard() -> Catalog {
        let series = alloc::vec![
            Series {
                code: 'A',
                name: "Final Fantasy".into(),
                random_price: Some(10),
                card_price: Some(20),
                copies: Copies::ByLevel,
            },
            Series {
                code: Self::CUSTOM,
                name: "Custom Cards".into(),
                random_price: None,
                card_price: Some(100),
                copies: Copies::One,
            },
            Series {
                code: 'Z',
                name: "Promo Cards".into(),
                random_price: None,
                card_price: None,
                copies: Copies::One,
            },
        ];
        let a = crate::series_a::cards().map(|(n, card)| ShopCard {
            id: format!("A{n:03}"),
            card,
            text: String::new(),
        });
        let promos = PROMOS.iter().enumerate().map(|(i, (name, ranks, text))| ShopCard {
            id: format!("Z{:03}", i + 1),
            card: Card::new(name, *ranks).with_level(7),
            text: (*text).into(),
        });
        Catalog {
            series,
            cards: a.chain(promos).collect(),
        }
    }

    /// Every series.
    pub fn series(&self) -> &[Series] {
        &self.series
    }

    /// The series of code `code` (ASCII case ignored).
    pub fn series_of(&self, code: char) -> Result<&Series, ShopError> {
        self.series
            .iter()
            .find(|s| s.code.eq_ignore_ascii_case(&code))
            .ok_or_else(|| ShopError::UnknownSeries(code.to_string()))
    }

    /// Every card, series by series in id order.
    pub fn cards(&self) -> &[ShopCard] {
        &self.cards
    }

    /// The cards of a series, of one level or all, in id order.
    pub fn cards_of(&self, series: char, level: Option<u8>) -> impl Iterator<Item = &ShopCard> + '_ {
        self.cards
            .iter()
            .filter(move |c| c.series().eq_ignore_ascii_case(&series) && level.is_none_or(|l| c.card.level == l))
    }

    /// The card with this id or name (ASCII case ignored, surrounding spaces too).
    pub fn find(&self, name_or_id: &str) -> Option<&ShopCard> {
        let key = name_or_id.trim();
        self.cards
            .iter()
            .find(|c| c.id.eq_ignore_ascii_case(key))
            .or_else(|| self.cards.iter().find(|c| c.card.name.eq_ignore_ascii_case(key)))
    }

    /// Copies of `card` one may own.
    pub fn copies_allowed(&self, card: &ShopCard) -> u32 {
        self.series_of(card.series())
            .map_or(0, |s| s.copies.allowed(card.card.level))
    }

    fn charge(price: u32, points: u32) -> Result<u32, ShopError> {
        if price > points {
            return Err(ShopError::NotEnoughPoints { price, points });
        }
        Ok(price)
    }

    /// A random card of `series` and `level` among those the buyer may still own one more of
    /// (`owned` counts the buyer's copies), for a buyer holding `points`.
    pub fn buy_random(
        &self,
        series: char,
        level: u8,
        points: u32,
        owned: impl Fn(&ShopCard) -> u32,
        rng: &mut Rng,
    ) -> Result<Sale, ShopError> {
        let s = self.series_of(series)?;
        if !(1..=10).contains(&level) {
            return Err(ShopError::Level(level));
        }
        let per_level = s.random_price.ok_or_else(|| ShopError::NotForSale {
            series: s.code,
            how: "at random",
            prices: s.prices(),
        })?;
        let all: Vec<&ShopCard> = self.cards_of(s.code, Some(level)).collect();
        if all.is_empty() {
            return Err(ShopError::NoCardOfLevel { series: s.code, level });
        }
        let open: Vec<&ShopCard> = all.into_iter().filter(|c| owned(c) < s.copies.allowed(level)).collect();
        if open.is_empty() {
            return Err(ShopError::AllOwned { series: s.code, level });
        }
        let price = Self::charge(per_level * level as u32, points)?;
        let card = open[rng.below(open.len() as u64) as usize].clone();
        Ok(Sale { card, price })
    }

    /// The card of this name or id, for a buyer who owns `owned` copies of it and holds `points`.
    pub fn buy_card(&self, name_or_id: &str, points: u32, owned: u32) -> Result<Sale, ShopError> {
        let card = self
            .find(name_or_id)
            .ok_or_else(|| ShopError::UnknownCard(quote(name_or_id)))?;
        let s = self.series_of(card.series())?;
        let per_level = s.card_price.ok_or_else(|| ShopError::NotForSale {
            series: s.code,
            how: "by card",
            prices: s.prices(),
        })?;
        let allowed = s.copies.allowed(card.card.level);
        if owned >= allowed {
            return Err(ShopError::TooManyCopies {
                name: card.card.name.clone(),
                allowed,
            });
        }
        let price = Self::charge(per_level * card.card.level as u32, points)?;
        Ok(Sale {
            card: card.clone(),
            price,
        })
    }

    /// Designs a custom card for a player holding `points`: a free name, ranks within the
    /// level's range, at half the custom series' price. The returned card has the next id of
    /// the series; [`Catalog::add`] puts it in the database.
    pub fn design_custom(
        &self,
        name: &str,
        level: u8,
        ranks: [u8; 4],
        element: Element,
        text: &str,
        points: u32,
    ) -> Result<Sale, ShopError> {
        let name = name.trim();
        self.check_name(name)?;
        if text.len() > TEXT_LIMIT {
            return Err(ShopError::TextTooLong(text.len()));
        }
        let card = Card::new(name, ranks).with_element(element).with_level(level);
        validate_custom_card(&card)?;
        let s = self.series_of(Self::CUSTOM)?;
        let per_level = s.card_price.unwrap_or(0);
        let price = Self::charge(per_level * level as u32 / 2, points)?;
        let next = self.cards_of(Self::CUSTOM, None).count() + 1;
        if next > 999 {
            return Err(ShopError::SeriesFull(Self::CUSTOM));
        }
        let card = ShopCard {
            id: format!("{}{:03}", Self::CUSTOM, next),
            card,
            text: text.into(),
        };
        Ok(Sale { card, price })
    }

    fn check_name(&self, name: &str) -> Result<(), ShopError> {
        let bad = |reason| {
            Err(ShopError::BadName {
                name: quote(name),
                reason,
            })
        };
        if name.is_empty() {
            return bad("it is empty");
        }
        if name.chars().count() > NAME_LIMIT {
            return bad("it is longer than 30 characters");
        }
        if name
            .chars()
            .any(|c| c.is_control() || matches!(c, '/' | '=' | ',' | '%' | '[' | ']'))
        {
            return bad("it holds a control character or one of / = , % [ ]");
        }
        if name.bytes().all(|b| b.is_ascii_digit()) {
            return bad("it is a number, which commands read as a position or an id");
        }
        let reads_as_id = name.len() == 4 && name[1..].bytes().all(|b| b.is_ascii_digit());
        if reads_as_id || self.find(name).is_some() {
            return Err(ShopError::NameTaken(name.into()));
        }
        Ok(())
    }

    /// Adds a card (a custom card designed here, or one loaded from the host's storage): its id
    /// must be free and in a known series, its name free.
    pub fn add(&mut self, card: ShopCard) -> Result<(), ShopError> {
        self.series_of(card.series())?;
        if self.cards.iter().any(|c| c.id.eq_ignore_ascii_case(&card.id)) {
            return Err(ShopError::NameTaken(card.id));
        }
        if self.find(&card.card.name).is_some() {
            return Err(ShopError::NameTaken(card.card.name));
        }
        validate_custom_card(&card.card)?;
        let at = self
            .cards
            .iter()
            .rposition(|c| c.series() == card.series())
            .map_or(self.cards.len(), |i| i + 1);
        self.cards.insert(at, card);
        Ok(())
    }
}

/// Five rank sets (top, right, bottom, left) whose sums fall in `level`'s custom-card range,
/// drawn from `rng`: the seed's `+TT/Help Random=<Level>`.
///
/// ```
/// use arbiter_economy::{rank_sum_range, suggest_ranks};
/// use arbiter_core::Rng;
/// let s = suggest_ranks(8, &mut Rng::new(3)).unwrap();
/// assert!(s.iter().all(|r| rank_sum_range(8).unwrap().contains(&r.iter().map(|&x| x as u32).sum())));
/// assert!(suggest_ranks(11, &mut Rng::new(3)).is_err());
/// ```
pub fn suggest_ranks(level: u8, rng: &mut Rng) -> Result<[[u8; 4]; 5], ShopError> {
    let range = crate::rank_sum_range(level).ok_or(ShopError::Level(level))?;
    let mut out = [[1u8; 4]; 5];
    for ranks in &mut out {
        let span = (range.end() - range.start() + 1) as u64;
        let sum = range.start() + rng.below(span) as u32;
        // Deal the points above 4 one at a time to sides still under A: a sum of at most 29
        // always fits in four sides of at most 10.
        for _ in 4..sum {
            let open: Vec<usize> = (0..4).filter(|&i| ranks[i] < 10).collect();
            ranks[open[rng.below(open.len() as u64) as usize]] += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank_sum_range;

    #[test]
    fn prices_are_per_level_and_dashes_refuse() {
        let shop = Catalog::standard();
        assert_eq!(shop.series_of('a').unwrap().prices(), "10/20");
        assert_eq!(shop.series_of('Z').unwrap().prices(), "--/--");
        assert_eq!(shop.buy_card("Omega Weapon", 500, 0).unwrap().price, 200);
        assert_eq!(
            shop.buy_card("Omega Weapon", 199, 0),
            Err(ShopError::NotEnoughPoints {
                price: 200,
                points: 199
            })
        );
        assert!(matches!(
            shop.buy_random('Z', 7, 1000, |_| 0, &mut Rng::new(1)),
            Err(ShopError::NotForSale {
                series: 'Z',
                how: "at random",
                ..
            })
        ));
        assert!(matches!(
            shop.buy_random('Q', 7, 1000, |_| 0, &mut Rng::new(1)),
            Err(ShopError::UnknownSeries(_))
        ));
        assert_eq!(
            shop.buy_random('A', 0, 1000, |_| 0, &mut Rng::new(1)),
            Err(ShopError::Level(0))
        );
        assert!(matches!(
            shop.buy_card("Nobody", 1000, 0),
            Err(ShopError::UnknownCard(_))
        ));
    }

    #[test]
    fn series_a_is_the_mush_s_without_characters() {
        let shop = Catalog::standard();
        assert_eq!(shop.cards_of('A', None).count(), 110);
        assert_eq!(shop.find("A110").unwrap().card.name, "Omega Weapon");
        assert_eq!(shop.find("goblin").unwrap().id, "A007");
        for name in ["Squall", "Rinoa", "Biggs, Wedge", "Angelo", "Gesper"] {
            assert_eq!(shop.find(name), None, "{name}");
        }
        let levels: Vec<u8> = shop.cards_of('A', None).map(|c| c.card.level).collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]), "numbers follow the levels");
        assert_eq!(shop.cards_of('A', Some(10)).count(), 11);
    }

    #[test]
    fn random_purchases_skip_full_cards_and_say_when_all_are() {
        let shop = Catalog::standard();
        let full = |c: &ShopCard| if c.card.name == "Omega Weapon" { 1 } else { 0 };
        for seed in 0..50 {
            let sale = shop.buy_random('A', 10, 1000, full, &mut Rng::new(seed)).unwrap();
            assert_ne!(sale.card.card.name, "Omega Weapon");
            assert_eq!(sale.price, 100);
        }
        assert_eq!(
            shop.buy_random('A', 10, 1000, |_| 1, &mut Rng::new(0)),
            Err(ShopError::AllOwned { series: 'A', level: 10 })
        );
        assert!(matches!(
            shop.buy_card("A110", 1000, 1),
            Err(ShopError::TooManyCopies { allowed: 1, .. })
        ));
        assert!(shop.buy_card("A001", 1000, 8).is_ok());
        assert!(shop.buy_card("A001", 1000, 9).is_err());
    }

    #[test]
    fn custom_cards_follow_the_seed() {
        let mut shop = Catalog::standard();
        // +TT/Custom Ultros/5=3 4 5 6 Water=...: up 3, left 4, right 5, down 6.
        let sale = shop
            .design_custom("Ultros", 5, [3, 5, 6, 4], Element::Water, "Octopus Menace", 1000)
            .unwrap();
        assert_eq!((sale.card.id.as_str(), sale.price), ("C001", 250));
        shop.add(sale.card.clone()).unwrap();
        assert_eq!(shop.find("ultros").unwrap().id, "C001");
        assert_eq!(shop.copies_allowed(&sale.card), 1);
        assert_eq!(shop.buy_card("Ultros", 1000, 0).unwrap().price, 500);
        assert!(matches!(
            shop.design_custom("ULTROS", 5, [3, 5, 6, 4], Element::Water, "", 1000),
            Err(ShopError::NameTaken(_))
        ));
        assert!(matches!(
            shop.design_custom("Geezard", 1, [3, 3, 3, 3], Element::None, "", 1000),
            Err(ShopError::NameTaken(_))
        ));
        assert!(matches!(
            shop.design_custom("Kraken", 5, [9, 9, 9, 9], Element::Water, "", 1000),
            Err(ShopError::Card(CollectionError::RankSum {
                sum: 36,
                min: 18,
                max: 21,
                ..
            }))
        ));
        assert!(matches!(
            shop.design_custom("Orthros", 5, [3, 5, 6, 4], Element::Water, "", 249),
            Err(ShopError::NotEnoughPoints {
                price: 250,
                points: 249
            })
        ));
        for bad in [
            "",
            "a/b",
            "x=y",
            "1234",
            "B123",
            "ab,c",
            "0123456789012345678901234567890",
        ] {
            assert!(
                shop.design_custom(bad, 1, [3, 3, 3, 3], Element::None, "", 1000)
                    .is_err(),
                "{bad}"
            );
        }
        let next = shop
            .design_custom("Orthros", 2, [3, 3, 3, 3], Element::None, "", 1000)
            .unwrap();
        assert_eq!(next.card.id, "C002");
        assert_eq!(shop.add(sale.card), Err(ShopError::NameTaken("C001".into())));
    }

    #[test]
    fn suggestions_cover_the_range_and_replay() {
        for level in 1..=10 {
            let range = rank_sum_range(level).unwrap();
            let mut seen = alloc::collections::BTreeSet::new();
            for seed in 0..40 {
                for r in suggest_ranks(level, &mut Rng::new(seed)).unwrap() {
                    assert!(r.iter().all(|x| (1..=10).contains(x)));
                    let sum: u32 = r.iter().map(|&x| x as u32).sum();
                    assert!(range.contains(&sum));
                    seen.insert(sum);
                }
            }
            assert_eq!(seen.len() as u32, range.end() - range.start() + 1, "level {level}");
        }
        assert_eq!(suggest_ranks(4, &mut Rng::new(9)), suggest_ranks(4, &mut Rng::new(9)));
    }
}

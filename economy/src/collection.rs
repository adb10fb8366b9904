//! Collections and decks (English source): copies per level, deck limits, custom cards.

use alloc::vec::Vec;

use arbiter_core::tripletriad::{Card, FF8_CARDS};
use arbiter_core::Rng;

/// How many copies of a card of `level` one may own: 9 (levels 1–2), 7 (3–4), 5 (5–6), 2 (7–8),
/// 1 (9–10); 0 for a level outside 1..=10.
///
/// ```
/// use arbiter_economy::copies_allowed;
/// assert_eq!(copies_allowed(1), 9);
/// assert_eq!(copies_allowed(10), 1);
/// ```
pub fn copies_allowed(level: u8) -> u32 {
    match level {
        1 | 2 => 9,
        3 | 4 => 7,
        5 | 6 => 5,
        7 | 8 => 2,
        9 | 10 => 1,
        _ => 0,
    }
}

/// The range a custom card's rank sum must fall in for its level.
///
/// ```
/// use arbiter_economy::rank_sum_range;
/// assert_eq!(rank_sum_range(1), Some(10..=13));
/// assert_eq!(rank_sum_range(10), Some(26..=29));
/// ```
pub fn rank_sum_range(level: u8) -> Option<core::ops::RangeInclusive<u32>> {
    Some(match level {
        1 => 10..=13,
        2 => 12..=15,
        3 => 14..=17,
        4 => 16..=19,
        5 => 18..=21,
        6 => 20..=23,
        7 => 22..=25,
        8 => 24..=26,
        9 => 24..=27,
        10 => 26..=29,
        _ => return None,
    })
}

/// Why a card, a collection or a deck breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CollectionError {
    /// A level outside 1..=10.
    #[error("card {name:?} has level {level}: levels are 1 to 10")]
    Level {
        /// The card's name.
        name: alloc::string::String,
        /// Its level.
        level: u8,
    },
    /// A rank outside 1..=10.
    #[error("card {0:?} has a rank outside 1 to 10")]
    Rank(alloc::string::String),
    /// A custom card's rank sum outside its level's range.
    #[error("card {name:?} of level {level} has rank sum {sum}, outside {min} to {max}")]
    RankSum {
        /// The card's name.
        name: alloc::string::String,
        /// Its level.
        level: u8,
        /// Its rank sum.
        sum: u32,
        /// The range's least sum.
        min: u32,
        /// The range's greatest sum.
        max: u32,
    },
    /// More copies than the level allows.
    #[error("one may own at most {allowed} copies of {name:?}")]
    TooManyCopies {
        /// The card's name.
        name: alloc::string::String,
        /// Copies allowed.
        allowed: u32,
    },
    /// A deck that is not five cards.
    #[error("a deck holds 5 cards, not {0}")]
    DeckSize(usize),
    /// A deck card the player does not own (or not that many copies).
    #[error("the deck uses {0:?} more times than the collection holds it")]
    NotOwned(alloc::string::String),
    /// Levels total more than 20 without `limitless`.
    #[error("the deck's levels total {0}: at most 20 unless the limitless rule is on")]
    LevelTotal(u32),
}

/// Checks a host-defined card: ranks 1..=10, level 1..=10, rank sum within the level's range.
///
/// ```
/// use arbiter_core::tripletriad::Card;
/// use arbiter_economy::validate_custom_card;
/// assert!(validate_custom_card(&Card::new("ok", [3, 3, 3, 3]).with_level(2)).is_ok());
/// assert!(validate_custom_card(&Card::new("strong", [9, 9, 9, 9]).with_level(2)).is_err());
/// ```
pub fn validate_custom_card(card: &Card) -> Result<(), CollectionError> {
    if card.ranks.iter().any(|r| !(1..=10).contains(r)) {
        return Err(CollectionError::Rank(card.name.clone()));
    }
    let range = rank_sum_range(card.level).ok_or_else(|| CollectionError::Level {
        name: card.name.clone(),
        level: card.level,
    })?;
    let sum = card.rank_sum();
    if !range.contains(&sum) {
        return Err(CollectionError::RankSum {
            name: card.name.clone(),
            level: card.level,
            sum,
            min: *range.start(),
            max: *range.end(),
        });
    }
    Ok(())
}

/// The cards a player owns, copies included.
///
/// ```
/// use arbiter_core::tripletriad::ff8_card;
/// use arbiter_economy::Collection;
/// let mut c = Collection::default();
/// let squall = ff8_card("Squall").unwrap();
/// c.add(squall.clone()).unwrap();
/// assert!(c.add(squall).is_err()); // level 10: one copy
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Collection {
    cards: Vec<Card>,
}

impl Collection {
    /// Every card owned (copies repeated).
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// How many copies of `card` are owned.
    pub fn count(&self, card: &Card) -> u32 {
        self.cards.iter().filter(|c| *c == card).count() as u32
    }

    /// Adds a copy, within the copies its level allows.
    pub fn add(&mut self, card: Card) -> Result<(), CollectionError> {
        if !(1..=10).contains(&card.level) {
            return Err(CollectionError::Level {
                name: card.name,
                level: card.level,
            });
        }
        let allowed = copies_allowed(card.level);
        if self.count(&card) >= allowed {
            return Err(CollectionError::TooManyCopies {
                name: card.name,
                allowed,
            });
        }
        self.cards.push(card);
        Ok(())
    }

    /// Removes one copy of `card`; false if none is owned.
    pub fn remove(&mut self, card: &Card) -> bool {
        match self.cards.iter().position(|c| c == card) {
            Some(i) => {
                self.cards.remove(i);
                true
            }
            None => false,
        }
    }

    /// A starter collection: 20 random FF8 cards of levels 1–3, drawn from `seed`.
    pub fn starter(seed: u64) -> Collection {
        let mut rng = Rng::new(seed);
        let pool: Vec<Card> = FF8_CARDS.iter().filter(|c| c.level <= 3).map(|c| c.card()).collect();
        let mut c = Collection::default();
        while c.cards.len() < 20 {
            let card = pool[rng.below(pool.len() as u64) as usize].clone();
            // Copies of levels 1-3 are plentiful (7 or 9); a full one is simply drawn again.
            let _ = c.add(card);
        }
        c
    }

    /// Checks a deck: five cards, all owned, levels totalling at most 20 unless `limitless`.
    pub fn validate_deck(&self, deck: &[Card], limitless: bool) -> Result<(), CollectionError> {
        if deck.len() != 5 {
            return Err(CollectionError::DeckSize(deck.len()));
        }
        for card in deck {
            if deck.iter().filter(|c| *c == card).count() as u32 > self.count(card) {
                return Err(CollectionError::NotOwned(card.name.clone()));
            }
        }
        let total: u32 = deck.iter().map(|c| c.level as u32).sum();
        if !limitless && total > 20 {
            return Err(CollectionError::LevelTotal(total));
        }
        Ok(())
    }

    /// Five distinct owned copies drawn at random (the `random` rule); `None` with fewer than five.
    pub fn random_hand(&self, rng: &mut Rng) -> Option<Vec<Card>> {
        if self.cards.len() < 5 {
            return None;
        }
        let mut idx: Vec<usize> = (0..self.cards.len()).collect();
        rng.shuffle(&mut idx);
        Some(idx[..5].iter().map(|&i| self.cards[i].clone()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::tripletriad::ff8_card;

    #[test]
    fn starter_collection_is_twenty_low_cards_and_seeded() {
        let a = Collection::starter(1);
        assert_eq!(a.cards().len(), 20);
        assert!(a.cards().iter().all(|c| (1..=3).contains(&c.level)));
        assert_eq!(a, Collection::starter(1));
        assert_ne!(a, Collection::starter(2));
    }

    #[test]
    fn deck_level_limit_and_ownership() {
        let mut c = Collection::default();
        let names = ["Squall", "Quistis", "Zell", "Irvine", "Geezard"];
        for n in names {
            c.add(ff8_card(n).unwrap()).unwrap();
        }
        let deck: Vec<Card> = names.iter().map(|n| ff8_card(n).unwrap()).collect();
        assert_eq!(c.validate_deck(&deck, false), Err(CollectionError::LevelTotal(41)));
        assert!(c.validate_deck(&deck, true).is_ok());
        let mut twice = deck.clone();
        twice[4] = ff8_card("Squall").unwrap();
        assert!(matches!(
            c.validate_deck(&twice, true),
            Err(CollectionError::NotOwned(_))
        ));
        assert_eq!(c.validate_deck(&deck[..4], true), Err(CollectionError::DeckSize(4)));
    }
}

//! Collections and decks (English source): copies per level, deck limits, custom cards.

use alloc::vec::Vec;

use arbiter_core::tripletriad::Card;
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

    /// A starter collection: 20 random cards of series A's levels 1–3, drawn from `seed`.
    pub fn starter(seed: u64) -> Collection {
        let mut rng = Rng::new(seed);
        let pool: Vec<Card> = crate::series_a::cards()
            .map(|(_, c)| c)
            .filter(|c| c.level <= 3)
            .collect();
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

    /// Five distinct owned copies drawn at random (the `random` rule), as their positions in
    /// [`Collection::cards`], their levels totalling at most `limit` when there is one; `None`
    /// when no five cards can (fewer than five, or none low enough). Each card is the first of
    /// the shuffled order that still leaves room for the cheapest cards to complete the hand, so
    /// that a limit never makes the draw fail when some hand fits it.
    ///
    /// ```
    /// use arbiter_core::{tripletriad::ff8_card, Rng};
    /// use arbiter_economy::Collection;
    /// let mut c = Collection::default();
    /// for name in ["Geezard", "Funguar", "Bite Bug", "Red Bat", "Blobra", "Squall"] {
    ///     c.add(ff8_card(name).unwrap()).unwrap();
    /// }
    /// let hand = c.random_hand(&mut Rng::new(7), Some(13)).unwrap();
    /// assert_eq!(hand.len(), 5);
    /// assert!(!hand.contains(&5), "Squall (level 10) never fits under 13 with four level 1s");
    /// assert_eq!(hand, c.random_hand(&mut Rng::new(7), Some(13)).unwrap());
    /// assert_eq!(c.random_hand(&mut Rng::new(7), Some(4)), None);
    /// ```
    pub fn random_hand(&self, rng: &mut Rng, limit: Option<u32>) -> Option<Vec<usize>> {
        let level = |i: usize| u32::from(self.cards[i].level);
        let mut order: Vec<usize> = (0..self.cards.len()).collect();
        rng.shuffle(&mut order);
        let mut hand: Vec<usize> = Vec::with_capacity(5);
        while hand.len() < 5 {
            let total: u32 = hand.iter().map(|&i| level(i)).sum();
            let need = 4 - hand.len();
            let fits = |&&i: &&usize| {
                let Some(limit) = limit else { return true };
                let mut rest: Vec<u32> = order
                    .iter()
                    .filter(|&&j| j != i && !hand.contains(&j))
                    .map(|&j| level(j))
                    .collect();
                rest.sort_unstable();
                rest.len() >= need && total + level(i) + rest[..need].iter().sum::<u32>() <= limit
            };
            let &next = order.iter().filter(|i| !hand.contains(i)).find(fits)?;
            hand.push(next);
        }
        Some(hand)
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

    #[test]
    fn random_hands_are_seeded_distinct_and_within_the_limit() {
        let c = Collection::starter(3);
        let a = c.random_hand(&mut Rng::new(1), None).unwrap();
        assert_eq!(a, c.random_hand(&mut Rng::new(1), None).unwrap());
        assert!((2..40).any(|s| c.random_hand(&mut Rng::new(s), None).unwrap() != a));
        for seed in 0..200 {
            let hand = c.random_hand(&mut Rng::new(seed), Some(6)).unwrap();
            let mut distinct = hand.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), 5);
            let total: u32 = hand.iter().map(|&i| u32::from(c.cards()[i].level)).sum();
            assert!(total <= 6, "{total}");
        }
        let mut four = Collection::default();
        for card in &c.cards()[..4] {
            four.add(card.clone()).unwrap();
        }
        assert_eq!(four.random_hand(&mut Rng::new(1), None), None);
    }
}

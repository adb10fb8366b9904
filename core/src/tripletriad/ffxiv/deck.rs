//! What a player's Final Fantasy XIV deck may hold (`rules/triple-triad-ffxiv.md`, section 3).

use super::cards::{card_by_id, CARDS};
use crate::Rng;

/// A deck rule: five distinct cards and caps on the rare ones. NPCs do not follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeckRule {
    /// Cards of 4 or 5 stars at most.
    pub max_four_or_five_stars: usize,
    /// Cards of 5 stars at most.
    pub max_five_stars: usize,
}

/// Why a deck breaks the rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// Not five cards.
    #[error("a deck holds 5 cards, not {0}")]
    Size(usize),
    /// An id no card has.
    #[error("no Final Fantasy XIV card has id {0}")]
    UnknownCard(u16),
    /// The same card twice.
    #[error("{0} is in the deck twice (a deck holds distinct cards)")]
    Duplicate(&'static str),
    /// Too many cards of 4 or 5 stars.
    #[error("{found} cards of 4 or 5 stars (at most {max})")]
    TooManyFourOrFiveStars {
        /// How many the deck holds.
        found: usize,
        /// The rule's cap.
        max: usize,
    },
    /// Too many cards of 5 stars.
    #[error("{found} cards of 5 stars (at most {max})")]
    TooManyFiveStars {
        /// How many the deck holds.
        found: usize,
        /// The rule's cap.
        max: usize,
    },
}

impl DeckRule {
    /// Today's rule: any number of cards of 1 to 3 stars, at most two of 4 or 5 stars, of
    /// which at most one of 5 [the FFXIV Online Wiki, "Card use restrictions"].
    pub const CURRENT: DeckRule = DeckRule {
        max_four_or_five_stars: 2,
        max_five_stars: 1,
    };

    /// A deck drawn from `rng`, uniformly among those the rule allows: five distinct cards,
    /// drawn again until the rule holds (most draws pass: a third of the cards have 4 or 5 stars).
    ///
    /// ```
    /// use arbiter_core::tripletriad::ffxiv::DeckRule;
    /// let deck = DeckRule::CURRENT.random_deck(&mut arbiter_core::Rng::new(7));
    /// assert!(DeckRule::CURRENT.check(&deck).is_ok());
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn random_deck(&self, rng: &mut Rng) -> [u16; 5] {
        loop {
            let mut deck = [0; 5];
            for i in 0..deck.len() {
                deck[i] = loop {
                    let id = CARDS[rng.below(CARDS.len() as u64) as usize].id;
                    if !deck[..i].contains(&id) {
                        break id;
                    }
                };
            }
            if self.check(&deck).is_ok() {
                return deck;
            }
        }
    }

    /// Whether the cards with these ids make a deck, and if not, the first reason.
    ///
    /// ```
    /// use arbiter_core::tripletriad::ffxiv::{DeckError, DeckRule};
    /// assert_eq!(DeckRule::CURRENT.check(&[1, 2, 3, 4, 5]), Ok(()));
    /// assert_eq!(DeckRule::CURRENT.check(&[1, 2, 3, 4]), Err(DeckError::Size(4)));
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn check(&self, deck: &[u16]) -> Result<(), DeckError> {
        if deck.len() != 5 {
            return Err(DeckError::Size(deck.len()));
        }
        let mut rare = 0;
        let mut legendary = 0;
        for (i, &id) in deck.iter().enumerate() {
            let card = card_by_id(id).ok_or(DeckError::UnknownCard(id))?;
            if deck[..i].contains(&id) {
                return Err(DeckError::Duplicate(card.name));
            }
            rare += usize::from(card.rarity >= 4);
            legendary += usize::from(card.rarity == 5);
        }
        if legendary > self.max_five_stars {
            return Err(DeckError::TooManyFiveStars {
                found: legendary,
                max: self.max_five_stars,
            });
        }
        if rare > self.max_four_or_five_stars {
            return Err(DeckError::TooManyFourOrFiveStars {
                found: rare,
                max: self.max_four_or_five_stars,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::ffxiv::CARDS;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    fn ids(stars: u8, n: usize) -> Vec<u16> {
        CARDS
            .iter()
            .filter(|c| c.rarity == stars)
            .take(n)
            .map(|c| c.id)
            .collect()
    }

    fn deck(parts: &[(u8, usize)]) -> Vec<u16> {
        parts.iter().flat_map(|&(stars, n)| ids(stars, n)).collect()
    }

    #[test]
    fn accepts_what_the_rule_allows() {
        let rule = DeckRule::CURRENT;
        for parts in [
            &[(1, 5)][..],
            &[(3, 5)],
            &[(1, 2), (2, 2), (3, 1)],
            &[(3, 3), (4, 2)],
            &[(3, 3), (4, 1), (5, 1)],
            &[(2, 4), (5, 1)],
        ] {
            assert_eq!(rule.check(&deck(parts)), Ok(()), "{parts:?}");
        }
    }

    #[test]
    fn refuses_what_the_rule_forbids_with_the_reason() {
        let rule = DeckRule::CURRENT;
        assert_eq!(rule.check(&deck(&[(1, 6)])), Err(DeckError::Size(6)));
        assert_eq!(rule.check(&[]), Err(DeckError::Size(0)));
        assert_eq!(rule.check(&[1, 2, 3, 4, 9999]), Err(DeckError::UnknownCard(9999)));
        assert_eq!(rule.check(&[13, 2, 13, 4, 5]), Err(DeckError::Duplicate("Chocobo")));
        assert_eq!(
            rule.check(&deck(&[(3, 2), (4, 3)])),
            Err(DeckError::TooManyFourOrFiveStars { found: 3, max: 2 })
        );
        assert_eq!(
            rule.check(&deck(&[(3, 3), (5, 2)])),
            Err(DeckError::TooManyFiveStars { found: 2, max: 1 })
        );
        assert_eq!(
            rule.check(&deck(&[(3, 2), (4, 2), (5, 1)])),
            Err(DeckError::TooManyFourOrFiveStars { found: 3, max: 2 })
        );
        let text = rule.check(&deck(&[(3, 3), (5, 2)])).unwrap_err().to_string();
        assert_eq!(text, "2 cards of 5 stars (at most 1)");
    }
}

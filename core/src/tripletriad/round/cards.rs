//! The 110 cards of Final Fantasy VIII's Triple Triad, compiled in from `data/ff8-cards.json`.

use alloc::vec::Vec;

use super::card::{Card, CardType, Element};

/// One entry of the Final Fantasy VIII card list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ff8Card {
    /// The game's order, 1..=110.
    pub id: u32,
    /// The English name.
    pub name: &'static str,
    /// 1..=10, eleven cards per level.
    pub level: u8,
    /// Top, right, bottom, left.
    pub ranks: [u8; 4],
    /// The element.
    pub element: Element,
    /// The power power walls compare (ours: no source lists them; `rules/triple-triad.md` gives
    /// the rule, level + the ranks' total / 5, which the data carries worked out).
    pub power: u8,
}

impl Ff8Card {
    /// As a [`Card`].
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn card(&self) -> Card {
        let mut card = Card::new("", [0; 4]);
        self.write_over(&mut card);
        card
    }

    /// [`Ff8Card::card`] over `card`, keeping the memory of its name (a deal that refills a
    /// round's table allocates no names).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn write_over(&self, card: &mut Card) {
        card.name.clear();
        card.name.push_str(self.name);
        card.ranks = self.ranks;
        card.element = self.element;
        card.power = self.power.into();
        card.level = self.level;
        // A table refilled from another set's deal may hold a typed FFXIV card here.
        card.card_type = CardType::None;
    }
}

/// The Final Fantasy VIII card list, in the game's order.
///
/// ```
/// use arbiter_core::tripletriad::FF8_CARDS;
/// assert_eq!(FF8_CARDS.len(), 110);
/// assert_eq!(FF8_CARDS[0].name, "Geezard");
/// ```
pub static FF8_CARDS: &[Ff8Card] = include!(concat!(env!("OUT_DIR"), "/ff8_cards.rs"));

/// The Final Fantasy VIII cards as [`Card`]s.
#[cfg_attr(arbiter_size, optimize(size))]
pub fn ff8_cards() -> Vec<Card> {
    FF8_CARDS.iter().map(Ff8Card::card).collect()
}

/// The Final Fantasy VIII card named `name` (ASCII case ignored).
///
/// ```
/// use arbiter_core::tripletriad::ff8_card;
/// let ifrit = ff8_card("ifrit").unwrap();
/// assert_eq!((ifrit.ranks, ifrit.power), ([9, 6, 2, 8], 13));
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn ff8_card(name: &str) -> Option<Card> {
    FF8_CARDS
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(name))
        .map(Ff8Card::card)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eleven_cards_per_level() {
        for level in 1..=10 {
            assert_eq!(FF8_CARDS.iter().filter(|c| c.level == level).count(), 11);
        }
        assert!(FF8_CARDS.iter().enumerate().all(|(i, c)| c.id == i as u32 + 1));
    }

    /// The data carries the powers of the rule `rules/triple-triad.md` states, and they spread
    /// so that each of the French page's labels `>5`, `<15` and `=8` fires for some cards and
    /// not for others.
    #[test]
    fn powers_follow_the_documented_rule_and_every_label_matters() {
        for c in FF8_CARDS {
            let total: u8 = c.ranks.iter().sum();
            assert_eq!(c.power, c.level + total / 5, "{}", c.name);
        }
        assert_eq!(ff8_card("Ifrit").unwrap().power, 13);
        for label in [">5", "<15", "=8"] {
            let label: crate::tripletriad::WallLabel = label.parse().unwrap();
            let fires = FF8_CARDS.iter().filter(|c| label.activated_by(c.power.into())).count();
            assert!(0 < fires && fires < FF8_CARDS.len(), "{label} fires for {fires} cards");
        }
    }
}

//! The Final Fantasy XIV cards, compiled in from `data/ffxiv-cards.json`.

use crate::tripletriad::{Card, CardType};

/// One Final Fantasy XIV card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FfxivCard {
    /// The game's card id (FFTriadBuddy's, which its NPC lists use).
    pub id: u16,
    /// The English name.
    pub name: &'static str,
    /// Top, right, bottom, left; 10 is A.
    pub ranks: [u8; 4],
    /// Stars, 1..=5.
    pub rarity: u8,
    /// The type Ascension and Descension read.
    pub card_type: CardType,
}

impl FfxivCard {
    /// As a [`Card`]: the English name, the ranks, the type.
    ///
    /// ```
    /// use arbiter_core::tripletriad::{ffxiv, CardType};
    /// let moogle = ffxiv::card("moogle").unwrap().card();
    /// assert_eq!((moogle.name.as_str(), moogle.card_type), ("Moogle", CardType::Beastman));
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn card(&self) -> Card {
        Card::new(self.name, self.ranks).with_type(self.card_type)
    }

    /// The French name, as the data has it (common nouns in lower case: « chocobo »); empty for a
    /// card that is not in [`CARDS`].
    ///
    /// ```
    /// use arbiter_core::tripletriad::ffxiv;
    /// assert_eq!(ffxiv::card("Gaelicat").unwrap().name_fr(), "gaélichat");
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn name_fr(&self) -> &'static str {
        let i = CARDS.binary_search_by_key(&self.id, |c| c.id);
        i.map_or("", |i| NAMES_FR[i])
    }
}

/// Every Final Fantasy XIV card, by ascending id.
///
/// ```
/// use arbiter_core::tripletriad::ffxiv::CARDS;
/// assert_eq!(CARDS.len(), 444);
/// ```
pub static CARDS: &[FfxivCard] = include!(concat!(env!("OUT_DIR"), "/ffxiv_cards.rs"));

/// The French names, in the order of [`CARDS`]: apart, so that a program that never asks for
/// them (the wasm package's deals) does not carry them (about 6 KB).
static NAMES_FR: &[&str] = include!(concat!(env!("OUT_DIR"), "/ffxiv_cards_fr.rs"));

/// `data/ffxiv-cards.json` as it is, its source named: what the bindings give hosts that read
/// the cards as data (a reference the Rust program does not make is not linked in).
pub const CARDS_JSON: &str = include_str!("../../../data/ffxiv-cards.json");

/// The card with id `id`.
#[cfg_attr(arbiter_size, optimize(size))]
pub fn card_by_id(id: u16) -> Option<&'static FfxivCard> {
    CARDS.binary_search_by_key(&id, |c| c.id).ok().map(|i| &CARDS[i])
}

/// The card named `name` in English or French, case ignored.
///
/// ```
/// use arbiter_core::tripletriad::ffxiv;
/// assert_eq!(ffxiv::card("CHOCOBO").unwrap().ranks, [3, 7, 2, 1]);
/// assert_eq!(ffxiv::card("gaélichat").unwrap().name, "Gaelicat");
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn card(name: &str) -> Option<&'static FfxivCard> {
    CARDS
        .iter()
        .zip(NAMES_FR)
        .find(|(c, fr)| same_name(c.name, name) || same_name(fr, name))
        .map(|(c, _)| c)
}

/// Names compared with case ignored, accented letters included (French names carry them).
#[cfg_attr(arbiter_size, optimize(size))]
pub(super) fn same_name(a: &str, b: &str) -> bool {
    let b = b.trim();
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's counts, section 1: 444 cards, by type.
    #[test]
    fn counts_by_type_are_the_specifications() {
        assert_eq!(CARDS.len(), 444);
        assert_eq!(NAMES_FR.len(), 444);
        let count = |t| CARDS.iter().filter(|c| c.card_type == t).count();
        assert_eq!(count(CardType::None), 333);
        assert_eq!(count(CardType::Beastman), 34);
        assert_eq!(count(CardType::Primal), 28);
        assert_eq!(count(CardType::Garlean), 28);
        assert_eq!(count(CardType::Scion), 21);
        for stars in 1..=5 {
            assert!(CARDS.iter().any(|c| c.rarity == stars), "no {stars}-star card");
        }
        assert!(CARDS.iter().all(|c| (1..=5).contains(&c.rarity)));
    }

    /// The three in-game observations of the spec's section 1 that fix which side `lt` is.
    #[test]
    fn the_evidence_cards_read_right_and_left_as_the_game_shows_them() {
        let chocobo = card("Chocobo").unwrap();
        assert_eq!(chocobo.ranks, [3, 7, 2, 1]);
        assert_eq!(chocobo.card().ranks, [3, 7, 2, 1]);
        let ultima = card("Ultima, the High Seraph").unwrap();
        assert_eq!(ultima.ranks[1], 10, "Ultima's right is A");
        assert_eq!(ultima.rarity, 5);
        assert_eq!(card("gaelicat").unwrap().ranks[1], 1, "Gaelicat's right is 1");
    }

    #[test]
    fn lookups_by_id_and_name() {
        assert!(CARDS.windows(2).all(|w| w[0].id < w[1].id));
        for c in CARDS {
            assert_eq!(card_by_id(c.id), Some(c));
            assert_eq!(card(c.name), Some(c), "{}", c.name);
            assert_eq!(card(c.name_fr()), Some(c), "{}", c.name_fr());
        }
        assert_eq!(card_by_id(13).unwrap().name, "Chocobo");
        assert_eq!(card(" tomberry ").unwrap().name, "Tonberry");
        assert_eq!(card("ULTIMA, LA GRANDE SÉRAPHINE").unwrap().id, 250);
        assert_eq!(card_by_id(0), None);
        assert_eq!(card_by_id(9999), None);
        assert_eq!(card("Geezard"), None);
        assert_eq!(card(""), None);
    }
}

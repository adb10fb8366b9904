//! The MUSH's series A: « based on the original series, with some modifications to remove all
//! character cards, and replacing a few monsters by some that are more broad to the series (such
//! as Goblin that wasn't in FF8) … the numbers are also in the original order, as well as their
//! levels » (the English MUSH seed, "Card Shop").
//!
//! The seed names Goblin only: which cards go and what takes their places is ours (the server's
//! README lists it). Each replacement takes the number, level, ranks and element of the card it
//! replaces, so that series A keeps FF8's numbering and balance and a copy of a removed card
//! becomes a copy of its replacement by a change of name alone (migration 0009). The core's
//! [`FF8_CARDS`] stay FF8's list, characters included: the `ff8` preset and the quiz use them.

use arbiter_core::tripletriad::{Card, FF8_CARDS};

/// The cards of FF8's list that series A does not have, with the card that takes each one's
/// number: `(number, FF8's card, series A's card)`. The first three are monsters of FF8 alone
/// replaced by monsters of the wider series; the others are FF8's characters (Angelo is Rinoa's
/// dog, the Shumi a people of the story) replaced by monsters and summons of the other games.
pub const REPLACED: [(u32, &str, &str); 18] = [
    (7, "Gesper", "Goblin"),
    (21, "Jelleye", "Flan"),
    (49, "Elastoid", "Coeurl"),
    (55, "Biggs, Wedge", "Zu"),
    (56, "Fujin, Raijin", "Ahriman"),
    (65, "Shumi Tribe", "Mindflayer"),
    (79, "Angelo", "Ramuh"),
    (100, "Ward", "Emerald Weapon"),
    (101, "Kiros", "Ruby Weapon"),
    (102, "Laguna", "Diamond Weapon"),
    (103, "Selphie", "Sapphire Weapon"),
    (104, "Quistis", "Kaiser Dragon"),
    (105, "Irvine", "Ozma"),
    (106, "Zell", "Hades"),
    (107, "Rinoa", "Ark"),
    (108, "Edea", "Knights of the Round"),
    (109, "Seifer", "Shinryu"),
    (110, "Squall", "Omega Weapon"),
];

/// Series A in number order: each card's number (1 to 110) and the card.
pub(crate) fn cards() -> impl Iterator<Item = (u32, Card)> {
    FF8_CARDS.iter().map(|c| {
        let mut card = c.card();
        if let Some((_, _, name)) = REPLACED.iter().find(|(n, _, _)| *n == c.id) {
            card.name = (*name).into();
        }
        (c.id, card)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeSet;
    use alloc::vec::Vec;

    #[test]
    fn replacements_keep_numbers_levels_ranks_and_elements_and_name_no_character() {
        let a: Vec<(u32, Card)> = cards().collect();
        assert_eq!(a.len(), FF8_CARDS.len());
        for ((n, card), ff8) in a.iter().zip(FF8_CARDS.iter()) {
            assert_eq!(*n, ff8.id);
            assert_eq!(
                (card.level, card.ranks, card.element),
                (ff8.level, ff8.ranks, ff8.element)
            );
        }
        for (n, old, new) in REPLACED {
            let ff8 = FF8_CARDS.iter().find(|c| c.id == n).unwrap();
            assert_eq!(ff8.name, old, "A{n:03}");
            assert_eq!(a[n as usize - 1].1.name, new);
        }
        // Every level 10 card of FF8 is a character: none is left.
        assert!(a
            .iter()
            .filter(|(_, c)| c.level == 10)
            .all(|(_, c)| !FF8_CARDS.iter().any(|f| f.name == c.name)));
        let names: BTreeSet<&str> = a.iter().map(|(_, c)| c.name.as_str()).collect();
        assert_eq!(names.len(), a.len(), "a name twice");
        assert!(names.contains("Goblin"));
    }
}

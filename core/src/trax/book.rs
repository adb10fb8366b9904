//! White's first two moves in the unbounded variant for the strongest level, chosen by a search
//! far deeper than a move's budget allows.
//!
//! Against itersmp-fe at 200 ms a move, every game the strongest level lost was lost as white,
//! and the second move white chose after the same first two mattered: after `@0+ B1+`, `@1\`
//! won 3 games of 3, `@1/` lost 3 of 3 and `@1+` 2 of 2 (30 games as white, seeds 201–230), a
//! choice that the clock made. The book fixes both moves to what [`search`] plays with
//! 8,000,000 nodes, seven or eight turns deep where a move's budget on a loaded machine
//! reaches four or five (after `@0+ B1+` it too plays `@1\`). The ignored test
//! `the_book_is_what_a_deep_search_plays` recomputes every entry: `cargo test --release -p
//! arbiter-core --lib trax::book -- --ignored`, about 2 minutes an entry on a loaded machine.
//!
//! [`search`]: super::search::search

use super::notation::Move;
use super::state::Trax;
use super::variant::Variant;

/// The nodes a book move was searched with.
#[cfg(test)]
const DEPTH_NODES: u64 = 8_000_000;

/// The moves before white's turn and white's move: the first move (`@0/` scored -6 at depth 8,
/// `@0+` -26 at depth 7), then the move after each of red's twelve replies.
const BOOK: [(&str, &str); 13] = [
    ("", "@0/"),
    ("@0/ @1/", "@1/"),
    ("@0/ @1+", "B2/"),
    ("@0/ @1\\", "A0/"),
    ("@0/ A0/", "A0/"),
    ("@0/ A0+", "B2/"),
    ("@0/ A0\\", "@2\\"),
    ("@0/ A2/", "@1\\"),
    ("@0/ A2+", "A3/"),
    ("@0/ A2\\", "B1/"),
    ("@0/ B1/", "A0\\"),
    ("@0/ B1+", "C1/"),
    ("@0/ B1\\", "A2/"),
];

/// The book's move for `g`, if its moves so far are in the book (unbounded games only).
pub(super) fn book_move(g: &Trax) -> Option<Move> {
    if g.variant() != Variant::Unbounded {
        return None;
    }
    let played = g.history();
    BOOK.iter()
        .find(|(before, _)| {
            let mut words = before.split_whitespace();
            played
                .iter()
                .all(|m| words.next().and_then(|w| w.parse::<Move>().ok()) == Some(*m))
                && words.next().is_none()
        })
        .and_then(|(_, mv)| mv.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trax::read_record;
    use crate::{Game, Rng};
    use alloc::vec::Vec;

    #[test]
    fn the_book_answers_every_reply_to_its_first_move_with_a_legal_move() {
        let first = book_move(&Trax::new(Variant::Unbounded)).unwrap();
        let g = Trax::replay(Variant::Unbounded, &[first]).unwrap();
        for reply in g.legal_moves() {
            let after = Trax::replay(Variant::Unbounded, &[first, reply]).unwrap();
            let mv = book_move(&after).unwrap_or_else(|| panic!("no book move after {first} {reply}"));
            assert!(after.legal_moves().contains(&mv), "{first} {reply} {mv}");
        }
        let later = Trax::replay(Variant::Unbounded, &read_record("@0/ B1+ C1/ D1+").unwrap()).unwrap();
        assert_eq!(book_move(&later), None);
        assert_eq!(book_move(&Trax::new(Variant::EightByEight)), None);
    }

    #[test]
    #[ignore = "minutes: recomputes the book"]
    fn the_book_is_what_a_deep_search_plays() {
        let limits = crate::trax::ai::Limits {
            nodes: DEPTH_NODES,
            depth: 30,
        };
        for (before, mv) in BOOK {
            let moves: Vec<Move> = read_record(before).unwrap();
            let g = Trax::replay(Variant::Unbounded, &moves).unwrap();
            let r = crate::trax::ai::search(&g, limits, &mut Rng::new(1), &mut || false).unwrap();
            assert_eq!(r.mv, mv.parse().unwrap(), "after '{before}': {r:?}");
        }
    }
}

//! The first moves of the strongest level in the unbounded variant, chosen by a search far deeper
//! than a move's budget allows: white's first two, and red's first two after either of white's
//! first moves (`@0/` and `@0+`, the only two).
//!
//! Against itersmp-fe at 200 ms a move, every game the strongest level lost was lost as white,
//! and the second move white chose after the same first two mattered: after `@0+ B1+`, `@1\`
//! won 3 games of 3, `@1/` lost 3 of 3 and `@1+` 2 of 2 (30 games as white, seeds 201–230), a
//! choice that the clock made. Once white played from the book, red lost most: the clock chose
//! red's first answer too (after `@0+`, `A2+` won 5 of 11 games, `A0+` 4 of 7). The book fixes
//! these moves to what [`search`] plays with 8,000,000 nodes, seven or eight turns deep where a
//! move's budget on a loaded machine reaches four or five (after `@0+ B1+` it too plays `@1\`).
//! The ignored test `the_book_is_what_a_deep_search_plays` recomputes every entry: `cargo test
//! --release -p arbiter-core --lib trax::book -- --ignored`, from half a minute to 2 minutes an
//! entry on a loaded machine.
//!
//! Red's third move after `@0/ @1/ B0+ @1/ C3/` is in the book too: `D1\` (0 at depth 7), where
//! a second a move (about 2,000,000 nodes, depth 6) played `D3/`. Against `D3/` itersmp-fe at 1 s
//! played `D4/` and both sides extended a diagonal band of tiles for 175 to 201 turns until
//! white closed a loop at its corner: red lost 3 games of 3 so (seeds 109, 110, 117 of the quiet
//! run of 7 December), where at 200 ms itersmp-fe answered `C4+` and lost 3 of 3. With `D1\`,
//! red won those three seeds at 1 s, each in 18 turns.
//!
//! [`search`]: super::search::search

use super::notation::Move;
use super::state::Trax;
use super::variant::Variant;

/// The nodes a book move was searched with.
#[cfg(test)]
const DEPTH_NODES: u64 = 8_000_000;

/// The moves so far and the book's move: white's first move (`@0/` scored -6 at depth 8, `@0+`
/// -26 at depth 7), white's answer to each of red's twelve replies; red's answer to each of
/// white's first moves (after `@0/`, `@1/` -6 at depth 8; after `@0+`, `A0+` -13), then to each
/// of white's replies; and red's third move in one line, `@0/ @1/ B0+ @1/ C3/` (see below).
const BOOK: [(&str, &str); 52] = [
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
    ("@0/", "@1/"),
    ("@0+", "A0+"),
    ("@0/ @1/ A0+", "B3\\"),
    ("@0/ @1/ A0/", "@1/"),
    ("@0/ @1/ A0\\", "@1/"),
    ("@0/ @1/ B0+", "@1/"),
    ("@0/ @1/ B0+ @1/ C3/", "D1\\"),
    ("@0/ @1/ B0/", "B0+"),
    ("@0/ @1/ B0\\", "@2\\"),
    ("@0/ @1/ @1+", "A0+"),
    ("@0/ @1/ @1/", "C0+"),
    ("@0/ @1/ @1\\", "A0/"),
    ("@0/ @1/ C1+", "A0\\"),
    ("@0/ @1/ C1/", "A2+"),
    ("@0/ @1/ C1\\", "B2\\"),
    ("@0/ @1/ A2+", "C2/"),
    ("@0/ @1/ A2/", "A3+"),
    ("@0/ @1/ A2\\", "C1\\"),
    ("@0/ @1/ B2+", "A0\\"),
    ("@0/ @1/ B2/", "C2/"),
    ("@0/ @1/ B2\\", "C2/"),
    ("@0+ A0+ A0+", "A0+"),
    ("@0+ A0+ A0/", "A4+"),
    ("@0+ A0+ A0\\", "A4+"),
    ("@0+ A0+ @1+", "B0/"),
    ("@0+ A0+ @1/", "C2/"),
    ("@0+ A0+ @1\\", "A2+"),
    ("@0+ A0+ B1+", "A0\\"),
    ("@0+ A0+ B1/", "B2+"),
    ("@0+ A0+ B1\\", "@1/"),
    ("@0+ A0+ @2+", "B3\\"),
    ("@0+ A0+ @2/", "A1+"),
    ("@0+ A0+ @2\\", "C2/"),
    ("@0+ A0+ B2+", "A3/"),
    ("@0+ A0+ B2/", "@1/"),
    ("@0+ A0+ B2\\", "B1+"),
    ("@0+ A0+ A3+", "A0+"),
    ("@0+ A0+ A3/", "A0+"),
    ("@0+ A0+ A3\\", "A0+"),
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

    /// The book's move after `before` and each reply to it, checked legal.
    fn answers_every_reply(before: &[Move]) {
        let g = Trax::replay(Variant::Unbounded, before).unwrap();
        let mv = book_move(&g).unwrap_or_else(|| panic!("no book move after {before:?}"));
        let mut line = before.to_vec();
        line.push(mv);
        let g = Trax::replay(Variant::Unbounded, &line).unwrap();
        for reply in g.legal_moves() {
            let after = Trax::replay(Variant::Unbounded, &[line.as_slice(), &[reply]].concat()).unwrap();
            let mv = book_move(&after).unwrap_or_else(|| panic!("no book move after {line:?} {reply}"));
            assert!(after.legal_moves().contains(&mv), "{line:?} {reply} {mv}");
        }
    }

    #[test]
    fn the_book_answers_every_reply_to_its_first_moves_with_a_legal_move() {
        answers_every_reply(&[]);
        for first in Trax::new(Variant::Unbounded).legal_moves() {
            answers_every_reply(&[first]);
        }
        let later = Trax::replay(Variant::Unbounded, &read_record("@0/ B1+ C1/ D1+").unwrap()).unwrap();
        assert_eq!(book_move(&later), None);
        let red_later = Trax::replay(Variant::Unbounded, &read_record("@0+ A0+ A0/ A4+").unwrap()).unwrap();
        assert_eq!(book_move(&red_later), None);
        assert_eq!(book_move(&Trax::new(Variant::EightByEight)), None);
    }

    #[test]
    fn red_leaves_the_band_that_itersmp_fe_won_at_a_second_a_move() {
        // `D3/` here (what 2,000,000 nodes play) met `D4/` and a diagonal band of 175 to 201 turns
        // that itersmp-fe won 3 times of 3; the strongest level plays the book's `D1\` instead.
        let g = Trax::replay(Variant::Unbounded, &read_record("@0/ @1/ B0+ @1/ C3/").unwrap()).unwrap();
        let level = crate::trax::ai::Level::Expert;
        let mv = crate::trax::ai::choose_at(&g, level, &mut Rng::new(1), crate::Budget::default());
        assert_eq!(mv, Some("D1\\".parse().unwrap()));
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

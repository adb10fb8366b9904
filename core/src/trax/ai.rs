//! A simple Trax opponent: it never misses a win in one turn and avoids handing one over.

use alloc::vec::Vec;

use super::notation::Move;
use super::state::Trax;
use crate::{Game, Outcome, Rng};

/// The most work one choice does, counted in cells scanned and turns tried. A board of thousands of
/// tiles has thousands of moves with thousands of replies each: past the budget, the moves left are
/// not checked for the opponent's replies, so that a choice always ends quickly.
const BUDGET: u64 = 1 << 24;

/// What a choice cost: copies of the state and work in [`BUDGET`] units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Effort {
    pub(crate) copies: u32,
    pub(crate) work: u64,
}

/// Chooses a move for the player to move: a winning move if there is one; otherwise a random move
/// after which the opponent has no winning reply, if any; otherwise a random one among the moves
/// that do not end the game at once and leave the opponent the fewest winning replies; a draw at
/// once only when every other move loses at once. `None` when there is no move (a finished game,
/// or a tile limit reached).
///
/// ```
/// use arbiter_core::{Game, Rng};
/// use arbiter_core::trax::{ai, Trax, Variant};
/// let mut g = Trax::new(Variant::Unbounded);
/// for m in ["@0/", "B1\\"] { g.play(m.parse().unwrap()).unwrap(); }
/// // White to move can only lose by closing red's loop; the AI does not.
/// let mv = ai::choose(&g, &mut Rng::new(1)).unwrap();
/// g.play(mv).unwrap();
/// assert!(!g.is_over());
/// ```
pub fn choose(game: &Trax, rng: &mut Rng) -> Option<Move> {
    search(game, rng, BUDGET).map(|(mv, _)| mv)
}

/// [`choose`] with a work budget, telling what it cost. One copy of the state, then every move and
/// reply is played and taken back on it.
pub(crate) fn search(game: &Trax, rng: &mut Rng, budget: u64) -> Option<(Move, Effort)> {
    let me = game.to_move()?;
    let mut g = game.clone();
    let mut effort = Effort { copies: 1, work: 0 };
    g.reserve_turns(1);
    let mut moves = Vec::new();
    g.candidates(&mut moves);
    effort.work += g.scan_cells();
    let (mut open, mut draws) = (Vec::new(), Vec::new());
    for (i, c) in moves.iter().enumerate() {
        let Some(saved) = g.make(c) else { continue };
        effort.work += 1;
        let outcome = g.outcome();
        g.unmake(saved);
        match outcome {
            Some(Outcome::Winner(p)) if p == me => return Some((c.mv, effort)),
            Some(Outcome::Draw) => draws.push(i),
            Some(Outcome::Winner(_)) => {}
            None => open.push(i),
        }
    }
    // Scores: 0 no winning reply, 1 not checked (over budget), 2 * n + 2 for n winning replies. A
    // move's replies are tried only until it scores worse than the best so far.
    let (mut best, mut pool) = (u64::MAX, Vec::new());
    let mut replies = Vec::new();
    for &i in &open {
        let score = if effort.work < budget {
            let Some(saved) = g.make(&moves[i]) else { continue };
            replies.clear();
            g.candidates(&mut replies);
            effort.work += g.scan_cells();
            let mut score = 0;
            for r in &replies {
                effort.work += 1;
                let Some(s) = g.make(r) else { continue };
                let wins = g.outcome() == Some(Outcome::Winner(me.other()));
                g.unmake(s);
                if wins {
                    score = if score == 0 { 4 } else { score + 2 };
                    if score > best {
                        break;
                    }
                }
            }
            g.unmake(saved);
            score
        } else {
            1
        };
        if score < best {
            best = score;
            pool.clear();
        }
        if score == best {
            pool.push(i);
        }
    }
    let pool = match (pool.is_empty(), draws.is_empty()) {
        (false, _) => pool,
        (true, false) => draws,
        (true, true) => (0..moves.len()).collect(),
    };
    let pick = *pool.get(rng.below(pool.len() as u64) as usize)?;
    Some((moves[pick].mv, effort))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trax::{Colour, Variant};
    use alloc::format;
    use alloc::string::String;

    fn play(variant: Variant, moves: &str) -> Trax {
        let moves: Vec<Move> = moves.split_whitespace().map(|m| m.parse().unwrap()).collect();
        Trax::replay(variant, &moves).unwrap()
    }

    /// What `mv` does: `None` if it ends the game at once, else the opponent's winning replies.
    fn winning_replies(g: &Trax, mv: Move) -> Option<usize> {
        let me = g.to_move().unwrap();
        let mut h = g.clone();
        h.play(mv).unwrap();
        if h.is_over() {
            return None;
        }
        let wins = |r: &Move| {
            let mut k = h.clone();
            k.play(*r).unwrap();
            k.outcome() == Some(Outcome::Winner(me.other()))
        };
        Some(h.legal_moves().iter().filter(|r| wins(r)).count())
    }

    #[test]
    fn with_no_safe_move_it_leaves_the_fewest_winning_replies() {
        // `arbiter play trax --variant 8x8 --you red --seed 10` with red's moves A0/ @2\ A0+ @4/
        // B7/ A3+ A8/ B5+: white to move has no safe move, and the AI picked any, here D8/, which
        // loses at once (as do C8+ and D8\); C8\ and D8+ leave red one winning reply, the rest more.
        let g = play(
            Variant::EightByEight,
            "@0+ A0/ B2/ @2\\ B0+ A0+ B5/ @4/ B6+ B7/ A7/ A3+ @6\\ A8/ @8+ B5+",
        );
        assert_eq!(g.to_move(), Some(Colour::White));
        let outcomes: Vec<(Move, Option<usize>)> = g
            .legal_moves()
            .into_iter()
            .map(|m| (m, winning_replies(&g, m)))
            .collect();
        let fewest = outcomes.iter().filter_map(|&(_, n)| n).min().unwrap();
        assert_eq!(fewest, 1, "no safe move");
        let worse = outcomes.iter().filter(|&&(_, n)| n != Some(fewest)).count();
        assert!(worse > 0);
        for seed in 0..32 {
            let mv = choose(&g, &mut Rng::new(seed)).unwrap();
            let n = outcomes.iter().find(|&&(m, _)| m == mv).unwrap().1;
            assert_eq!(n, Some(fewest), "seed {seed}: {mv}");
        }
    }

    #[test]
    fn it_chooses_on_a_200_tile_line_by_play_and_undo() {
        // It used to copy the state for every move and every reply: 50 s here.
        let mut text = String::from("@0+");
        for i in 2..=200 {
            text.push_str(&format!(" A{i}+"));
        }
        let g = play(Variant::Loop, &text);
        let (mv, effort) = search(&g, &mut Rng::new(7), BUDGET).unwrap();
        assert_eq!(effort.copies, 1);
        let moves = g.legal_moves().len() as u64;
        assert!(effort.work >= moves * moves / 2 && effort.work < BUDGET, "{effort:?}");
        assert_eq!(winning_replies(&g, mv), Some(0));
    }

    #[test]
    fn over_its_budget_it_still_avoids_ending_the_game() {
        let g = play(Variant::Unbounded, "@0/ B1\\");
        for seed in 0..16 {
            let (mv, effort) = search(&g, &mut Rng::new(seed), 0).unwrap();
            assert!(effort.work < 64);
            assert!(winning_replies(&g, mv).is_some(), "{mv}");
        }
    }
}

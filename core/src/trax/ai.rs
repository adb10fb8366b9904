//! The Trax computer players: [`choose`], the one-turn player (`easy`), and [`search`], the
//! searcher behind the stronger [`Level`]s.

use alloc::vec::Vec;

use super::notation::Move;
use super::state::Trax;
use crate::{Budget, Game, Outcome, Rng};

#[cfg(feature = "std")]
pub use super::search::search_threads;
pub use super::search::{search, Limits, Report, WIN};

/// The built-in players, weakest first. Budgets are in nodes (turns the search plays), so a seed
/// plays the same game on every machine; given time instead ([`choose_timed`], or
/// [`Budget::clock`]), a searching level deepens to its depth with no node budget until the time
/// is spent.
///
/// | level | player | in games against `easy` (`trax_strength`) |
/// |---|---|---|
/// | `random` | a uniformly random legal move | |
/// | `easy` | [`choose`]: wins in one turn, avoids handing over a win in one, else random | |
/// | `medium` | [`search`] 2 turns deep, 5,000 nodes: `easy`'s tactics, guided by the threats of open tracks | about 200 nodes a move; wins 71 % in 8x8 (22 % drawn), 98 % unbounded |
/// | `hard` | [`search`] up to 4 turns deep, 30,000 nodes: sees two-turn wins (double threats) | about 7,000 nodes, 3.5 turns deep; wins 95 % in 8x8 (the rest drawn), 100 % unbounded |
/// | `expert` | [`search`] up to 30 turns deep, 300,000 nodes; unbounded, its first two moves (white's and red's; red's third in one line) from a book of deeper searches | about 210,000 nodes, 8 turns deep in 8x8; wins 97.5 % in 8x8 (the rest drawn), 100 % unbounded |
///
/// Against each other in 8x8, the stronger level never lost: `hard` beat `medium` in 30 % of 50
/// games (the rest drawn), `expert` beat `hard` in 62 %.
/// Unbounded, where the searching levels keep the area compact (see [`search`]) so that their
/// games end: `hard` beat `medium` in 8 of 8 games, `expert` beat `hard` in 6 of 8; games between
/// them take 20 to 60 turns.
///
/// ```
/// use arbiter_core::trax::ai::Level;
/// assert_eq!("Expert".parse::<Level>().unwrap(), Level::Expert);
/// assert_eq!(Level::ALL.map(|l| l.name()), ["random", "easy", "medium", "hard", "expert"]);
/// assert_eq!(Level::Hard.limits().unwrap().nodes, 30_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Level {
    /// A random legal move.
    Random,
    /// The one-turn player.
    Easy,
    /// A shallow search.
    Medium,
    /// A search that sees two-turn wins.
    Hard,
    /// The strongest.
    #[default]
    Expert,
}

crate::level::level_names!("trax", Level { Random => "random", Easy => "easy", Medium => "medium", Hard => "hard", Expert => "expert" });

impl Level {
    /// The search budget of a searching level (`None` for `random` and `easy`).
    pub const fn limits(self) -> Option<Limits> {
        match self {
            Level::Random | Level::Easy => None,
            // Two turns: a few hundred nodes in ordinary games (at most about 1,000 measured), so
            // the budget only bounds boards of hundreds of tiles.
            Level::Medium => Some(Limits { nodes: 5_000, depth: 2 }),
            Level::Hard => Some(Limits {
                nodes: 30_000,
                depth: 4,
            }),
            Level::Expert => Some(Limits {
                nodes: 300_000,
                depth: 30,
            }),
        }
    }
}

/// A move for the player to move at `level`, within the level's budget and `budget` (the smaller
/// node count holds; the stop callback can end a search early: the move is then the best found so
/// far). A time budget ([`Budget::clock`]) lifts a searching level's node budget: it deepens, on
/// this thread, until the clock says to stop. `None` only when there is no move.
///
/// ```
/// use arbiter_core::{Budget, Game, Rng};
/// use arbiter_core::trax::{ai, Trax, Variant};
/// let mut g = Trax::new(Variant::EightByEight);
/// let mut rng = Rng::new(3);
/// while let Some(mv) = ai::choose_at(&g, ai::Level::Medium, &mut rng, Budget::default()) {
///     g.play(mv).unwrap();
/// }
/// assert!(g.is_over());
/// ```
pub fn choose_at(game: &Trax, level: Level, rng: &mut Rng, mut budget: Budget<'_>) -> Option<Move> {
    if let Some(mv) = opening(game, level) {
        return Some(mv);
    }
    match level.limits() {
        Some(limits) => {
            // A level's node budget keeps a seed's move the same everywhere; given a clock, the
            // search goes as deep as the time allows (to the level's depth).
            let own = if budget.timed { u64::MAX } else { limits.nodes };
            let limits = Limits {
                nodes: budget.cap(own),
                ..limits
            };
            search(game, limits, rng, &mut || budget.stopped()).map(|r| r.mv)
        }
        None if level == Level::Easy => {
            one_turn(game, rng, budget.cap(BUDGET), &mut || budget.stopped()).map(|(mv, _)| mv)
        }
        None => {
            let moves = game.legal_moves();
            (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize])
        }
    }
}

/// A move for the player to move at `level` that uses a time budget to its end on `threads`
/// threads: the searching levels deepen (to the level's depth) with no node budget until `stop`
/// says so ([`search_threads`]), as [`choose_at`] does on one thread given [`Budget::clock`];
/// `random` and `easy` play as in [`choose_at`]. `None` only when there is no move.
///
/// ```
/// use arbiter_core::{Game, Rng};
/// use arbiter_core::trax::{ai, Trax, Variant};
/// use std::time::{Duration, Instant};
/// let g = Trax::new(Variant::Unbounded);
/// let end = Instant::now() + Duration::from_millis(20);
/// let mv = ai::choose_timed(&g, ai::Level::Expert, &mut Rng::new(1), 2, &|| Instant::now() >= end);
/// assert!(g.legal_moves().contains(&mv.unwrap()));
/// ```
#[cfg(feature = "std")]
pub fn choose_timed(
    game: &Trax,
    level: Level,
    rng: &mut Rng,
    threads: usize,
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<Move> {
    if let Some(mv) = opening(game, level) {
        return Some(mv);
    }
    match level.limits() {
        Some(limits) => search_threads(game, limits.depth, threads, rng, stop).map(|r| r.mv),
        None => choose_at(game, level, rng, Budget::clock(&mut || stop())),
    }
}

/// The strongest level's first moves, as white or red, in the unbounded variant, from its book.
fn opening(game: &Trax, level: Level) -> Option<Move> {
    (level == Level::Expert).then(|| super::book::book_move(game)).flatten()
}

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
    one_turn(game, rng, BUDGET, &mut || false).map(|(mv, _)| mv)
}

/// How much work (in [`BUDGET`] units) passes between two questions to `stop` in [`one_turn`].
const POLL_WORK: u64 = 1 << 12;

/// [`choose`] with a work budget and a stop callback (asked every few thousand units of work),
/// telling what it cost. One copy of the state, then every move and reply is played and taken
/// back on it. Past the budget or once stopped, the moves left are not checked for replies.
pub(crate) fn one_turn(
    game: &Trax,
    rng: &mut Rng,
    budget: u64,
    stop: &mut dyn FnMut() -> bool,
) -> Option<(Move, Effort)> {
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
    let (mut polled, mut stopped) = (effort.work, false);
    for &i in &open {
        if effort.work - polled >= POLL_WORK {
            polled = effort.work;
            stopped = stopped || stop();
        }
        let score = if effort.work < budget && !stopped {
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

    use crate::trax::state::replayed as play;

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
        let (mv, effort) = one_turn(&g, &mut Rng::new(7), BUDGET, &mut || false).unwrap();
        assert_eq!(effort.copies, 1);
        let moves = g.legal_moves().len() as u64;
        assert!(effort.work >= moves * moves / 2 && effort.work < BUDGET, "{effort:?}");
        assert_eq!(winning_replies(&g, mv), Some(0));
    }

    #[test]
    fn over_its_budget_it_still_avoids_ending_the_game() {
        let g = play(Variant::Unbounded, "@0/ B1\\");
        for seed in 0..16 {
            let (mv, effort) = one_turn(&g, &mut Rng::new(seed), 0, &mut || false).unwrap();
            assert!(effort.work < 64);
            assert!(winning_replies(&g, mv).is_some(), "{mv}");
        }
    }
}

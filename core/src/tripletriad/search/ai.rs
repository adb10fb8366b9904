//! Built-in opponents. They read an [`Observation`], never the full state.

use super::expert::Expert;
use super::greedy::greedy;
use super::solve::Solver;
use crate::tripletriad::round::state::{Move, Observation, TripleTriad};
use crate::{Budget, Game, Rng};

/// How hard the built-in opponent plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Level {
    /// A uniformly random legal move.
    Random,
    /// The move that leaves it the most cards, keeping strong cards and closing exposed sides on ties.
    Greedy,
    /// Perfect play when the opponent's hand is visible (open rules), greedy otherwise.
    Perfect,
    /// Perfect play when the opponent's hand is visible; otherwise the [`Expert`]'s sampling of
    /// the hidden cards, each sample solved.
    Expert,
}

crate::level::level_names!("triple-triad", Level { Random => "random", Greedy => "greedy", Perfect => "perfect", Expert => "expert" });

fn believed_state(obs: &Observation) -> Option<TripleTriad> {
    TripleTriad::new(&obs.believed_setup()).ok()
}

/// Chooses a move for the observer, or `None` if it is not their turn or the game is over.
///
/// ```
/// use arbiter_core::{Game, Rng};
/// use arbiter_core::tripletriad::{TripleTriad, Setup, ai};
/// let mut g = TripleTriad::new(&Setup::random_ff8(8)).unwrap();
/// let mut rng = Rng::new(1);
/// while let Some(p) = g.to_move() {
///     let mv = ai::choose(&g.observation(p), ai::Level::Greedy, &mut rng).unwrap();
///     g.play(mv).unwrap();
/// }
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn choose(obs: &Observation, level: Level, rng: &mut Rng) -> Option<Move> {
    choose_within(obs, level, rng, Budget::default())
}

/// [`choose`] within `budget` (positions searched by the solver or the expert, and a stop
/// callback): when it runs out, `perfect` plays the best move of the solver's finished searches,
/// or the greedy move if none finished, and `expert` decides on the samples it solved. `random`
/// and `greedy` search nothing.
///
/// ```
/// use arbiter_core::{Budget, Game, Rng};
/// use arbiter_core::tripletriad::{ai, Rules, Setup, TripleTriad};
/// let setup = Setup::random_ff8(5).with_rules(Rules { open: true, ..Rules::default() });
/// let g = TripleTriad::new(&setup).unwrap();
/// let obs = g.observation(g.to_move().unwrap());
/// let mv = ai::choose_within(&obs, ai::Level::Perfect, &mut Rng::new(1), Budget::nodes(50));
/// assert!(g.legal_moves().contains(&mv.unwrap()));
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn choose_within(obs: &Observation, level: Level, rng: &mut Rng, mut budget: Budget<'_>) -> Option<Move> {
    if obs.to_move != obs.player {
        return None;
    }
    let state = believed_state(obs)?;
    let moves = state.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let open = obs.opponent_hand.iter().all(Option::is_some);
    match level {
        Level::Random => Some(moves[rng.below(moves.len() as u64) as usize]),
        Level::Perfect | Level::Expert if open => match Solver::default().solve_within(&state, budget) {
            Ok(s) => s.best_move,
            Err(cut) => cut.best_move.or_else(|| Some(greedy(&state, obs.player, &moves, rng))),
        },
        Level::Expert => Expert::default().think_within(obs, rng, &mut budget).best,
        Level::Greedy | Level::Perfect => Some(greedy(&state, obs.player, &moves, rng)),
    }
}

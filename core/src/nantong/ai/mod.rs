//! Nantong computer players, each reading only an [`Observation`]: [`choose`], a simple but
//! sensible policy, and [`strong`], the one to play against, which counts distances to a
//! winning hand, unseen cards, scores and danger (+42.5 points a deal against two [`choose`]
//! players over 3,000 deals: `arbiter arena nantong --players strong,basic,basic --games 9000`).

use alloc::vec::Vec;

mod distance;
mod strong;

pub use strong::strong;

use super::action::Action;
use super::card::{Kind, KINDS};
use super::observation::Observation;
use crate::Rng;

/// The built-in players, weakest first. None searches, so a choice costs a few microseconds and
/// a budget changes nothing.
///
/// | level | player |
/// |---|---|
/// | `random` | a uniformly random action of those the observation lists |
/// | `basic` | [`choose`] |
/// | `strong` | [`strong`], the one to play against: about +40 points a deal against two `basic` players |
///
/// ```
/// use arbiter_core::nantong::ai::Level;
/// assert_eq!("Strong".parse::<Level>().unwrap(), Level::Strong);
/// assert_eq!(Level::NAMES, ["random", "basic", "strong"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Level {
    /// A random listed action.
    Random,
    /// [`choose`].
    Basic,
    /// [`strong`].
    #[default]
    Strong,
}

crate::level::level_names!("nantong", Level { Random => "random", Basic => "basic", Strong => "strong" });

/// An action for the observer at `level`, from `obs` alone; `None` when it lists none.
pub fn choose_at(obs: &Observation, level: Level, rng: &mut Rng) -> Option<Action> {
    match level {
        Level::Random => {
            let n = obs.actions.len() as u64;
            obs.actions.get(rng.below(n) as usize).and_then(|a| a.parse().ok())
        }
        Level::Basic => choose(obs, rng),
        Level::Strong => strong(obs, rng),
    }
}

/// The actions an observation lists that parse, if any do.
fn listed(obs: &Observation) -> Option<Vec<Action>> {
    let actions: Vec<Action> = obs.actions.iter().filter_map(|a| a.parse().ok()).collect();
    (!actions.is_empty()).then_some(actions)
}

/// What every policy does when it may: win, and make opening declarations (they score 16 and
/// more, and a four or a Tiandi Hezi brings replacements).
fn obvious(actions: &[Action]) -> Option<Action> {
    if actions.contains(&Action::Win) {
        return Some(Action::Win);
    }
    actions.iter().copied().find(|a| {
        matches!(
            a,
            Action::DeclareFour(_) | Action::DeclareTriple(_) | Action::DeclareHezi
        )
    })
}

/// How much a kind in hand helps: copies, and neighbours of its suit within two ranks.
fn usefulness(counts: &[u8; KINDS], k: Kind) -> i32 {
    let i = k.index();
    let mut u = 4 * (counts[i] as i32 - 1);
    if let (Some(suit), Some(rank)) = (k.suit(), k.rank()) {
        for d in [-2i32, -1, 1, 2] {
            let r = rank as i32 + d;
            if (1..=9).contains(&r) {
                let n = counts[suit as usize * 9 + r as usize - 1] as i32;
                u += n * if d.abs() == 1 { 2 } else { 1 };
            }
        }
    }
    u
}

/// Chooses an action for the observer (who must be the seat to act): always win; declare what
/// can be declared and go ready when possible; kong; pong old generals and isolated pairs;
/// discard the least useful card (ties broken by the seed).
///
/// It reads nothing but `obs`, which may come from outside and say anything: it returns one of
/// the actions the observation lists, and `None` only when it lists none that parse.
///
/// ```
/// use arbiter_core::{Game, Rng};
/// use arbiter_core::nantong::{ai, Nantong};
/// let mut g = Nantong::new(3);
/// let mut rng = Rng::new(3);
/// while let Some(seat) = g.to_move() {
///     let a = ai::choose(&g.observation(seat), &mut rng).unwrap();
///     g.play(a).unwrap();
/// }
/// assert!(g.score().is_some());
/// ```
pub fn choose(obs: &Observation, rng: &mut Rng) -> Option<Action> {
    let actions = listed(obs)?;
    let mut counts = [0u8; KINDS];
    for k in &obs.hand {
        counts[k.index()] = counts[k.index()].saturating_add(1);
    }
    let has = |a: Action| actions.contains(&a);
    if let Some(a) = obvious(&actions) {
        return Some(a);
    }
    for a in [Action::Ready, Action::Finish, Action::Kong] {
        if has(a) {
            return Some(a);
        }
    }
    if let Some(&a) = actions
        .iter()
        .find(|a| matches!(a, Action::ConcealedKong(_) | Action::AddKong(_)))
    {
        return Some(a);
    }
    if has(Action::Pong) {
        let worth = obs
            .claim
            .is_none_or(|card| card.is_old_general() || usefulness(&counts, card) <= 4);
        return Some(if worth || !has(Action::Pass) {
            Action::Pong
        } else {
            Action::Pass
        });
    }
    if has(Action::Pass) {
        return Some(Action::Pass);
    }
    let discards: Vec<Kind> = actions
        .iter()
        .filter_map(|a| if let Action::Discard(k) = a { Some(*k) } else { None })
        .collect();
    let least = discards.iter().map(|&k| usefulness(&counts, k)).min()?;
    let worst: Vec<Kind> = discards
        .into_iter()
        .filter(|&k| usefulness(&counts, k) == least)
        .collect();
    Some(Action::Discard(worst[rng.below(worst.len() as u64) as usize]))
}

//! What the C library and the npm package need of every game beyond [`Game`]: names for the game,
//! its players and the levels of its built-in opponents, the game's own fast perft, and a move
//! from a built-in opponent. The bindings are generic over [`Engine`], so that each verb they
//! export is written once for the three games.

use alloc::string::ToString;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind};
use crate::game::Game;
use crate::level::UnknownLevel;
use crate::Rng;

/// What a built-in opponent may spend on one choice, besides its level's own budget: a node count
/// (the smaller of it and the level's holds) and a stop callback, asked every few hundred nodes
/// (Trax: 256; the Triple Triad solver: 4,096; its expert: before each sample) from the first on
/// (a clock, or a flag another thread sets). A search that runs out returns the best move it has
/// found so far, never none while one is legal. The core has no clock: the host brings one
/// ([`deadline`] under the `std` feature, `performance.now()` in the npm package).
///
/// What a node is depends on the game: a turn played (Trax; `easy`, which does not search, counts
/// the cells it scans too), a position searched (Triple Triad's solver and expert); Nantong's levels do no search, so their cost is fixed and small, and they
/// ignore the budget. Without a stop callback a choice depends on the seed alone; with one, on the
/// machine too.
///
/// ```
/// use arbiter_core::{Budget, Engine, Game, Rng};
/// use arbiter_core::trax::{Trax, Variant};
/// let g = Trax::new(Variant::Unbounded);
/// let mv = g.choose_within("expert", &mut Rng::new(1), Budget::nodes(10)).unwrap();
/// assert!(g.legal_moves().contains(&mv.unwrap()));
/// let mut calls = 0;
/// let mut stop = || { calls += 1; true };
/// let budget = Budget { nodes: Some(5_000), stop: Some(&mut stop), timed: false };
/// assert!(g.choose_within("hard", &mut Rng::new(1), budget).unwrap().is_some());
/// ```
#[derive(Default)]
pub struct Budget<'a> {
    /// The most nodes; `None` leaves the level's own budget.
    pub nodes: Option<u64>,
    /// Asked now and then while searching; `true` ends the search.
    pub stop: Option<&'a mut dyn FnMut() -> bool>,
    /// Whether `stop` is a clock (a time budget) rather than only a flag that calls the choice
    /// off: Trax's searching levels then deepen until it says so, past their own node budget
    /// (`nodes` still holds), so that more time buys a deeper search. Triple Triad's and
    /// Nantong's levels do not look at it.
    pub timed: bool,
}

impl<'a> Budget<'a> {
    /// At most `nodes` nodes, no stop callback.
    pub fn nodes(nodes: u64) -> Budget<'a> {
        Budget {
            nodes: Some(nodes),
            stop: None,
            timed: false,
        }
    }

    /// Until `stop`, a flag, says so, within the level's own budget.
    pub fn until(stop: &'a mut dyn FnMut() -> bool) -> Budget<'a> {
        Budget {
            nodes: None,
            stop: Some(stop),
            timed: false,
        }
    }

    /// Until `stop`, a clock ([`deadline`]), says so: a time budget, spent to its end
    /// ([`Budget::timed`]).
    pub fn clock(stop: &'a mut dyn FnMut() -> bool) -> Budget<'a> {
        Budget {
            nodes: None,
            stop: Some(stop),
            timed: true,
        }
    }

    /// Whether the stop callback says to stop now.
    pub fn stopped(&mut self) -> bool {
        self.stop.as_mut().is_some_and(|stop| stop())
    }

    /// The node budget of a level whose own is `own`.
    pub fn cap(&self, own: u64) -> u64 {
        self.nodes.map_or(own, |n| n.min(own))
    }
}

/// A stop callback for [`Budget::stop`] that says to stop once `ms` milliseconds have passed from
/// now.
#[cfg(feature = "std")]
pub fn deadline(ms: u64) -> impl FnMut() -> bool {
    let end = std::time::Instant::now() + core::time::Duration::from_millis(ms);
    move || std::time::Instant::now() >= end
}

/// The remaining depth under which [`perft_until`] counts a subtree in one call of the game's
/// own perft. Trax branches about 30 ways a few moves in: a subtree of 3 plies there is some
/// 30,000 nodes, a few milliseconds, where one of 5 plies took 1.5 s and more under load (a
/// Ctrl-C heard seconds late); the calls above the slices cost under 1 % of the count.
const PERFT_SLICE: u32 = 3;

/// [`Engine::perft`] that asks `stop` between subtrees (every few milliseconds) and gives up,
/// `None`, as soon as it says to: how a host stops a long count (Python's Ctrl-C). The top
/// plies are walked here, each subtree of the last 5 plies counted by the game's own perft,
/// so the count is the same.
///
/// ```
/// use arbiter_core::{perft_until, Engine};
/// use arbiter_core::trax::{Trax, Variant};
/// let g = Trax::new(Variant::Unbounded);
/// assert_eq!(perft_until(&g, 6, &|| false), Some(g.perft(6)));
/// assert_eq!(perft_until(&g, 6, &|| true), None);
/// ```
pub fn perft_until<G: Engine>(game: &G, depth: u32, stop: &dyn Fn() -> bool) -> Option<u64> {
    if stop() {
        return None;
    }
    if depth <= PERFT_SLICE {
        return Some(game.perft(depth));
    }
    let mut nodes = 0;
    for &mv in game.legal_moves().iter() {
        let mut next = game.clone();
        next.play_unchecked(mv);
        nodes += perft_until(&next, depth - 1, stop)?;
    }
    Some(nodes)
}

/// A game as hosts drive it: by names and numbers.
///
/// ```
/// use arbiter_core::{Engine, Game, Rng};
/// use arbiter_core::trax::{Trax, Variant};
///
/// fn play_out<G: Engine>(mut g: G, level: &str) -> G {
///     let mut rng = Rng::new(1);
///     while let Some(mv) = g.choose(level, &mut rng).unwrap() {
///         g.play(mv).map_err(Into::into).unwrap();
///     }
///     g
/// }
/// let g = play_out(Trax::new(Variant::EightByEight), "random");
/// assert!(g.is_over());
/// assert_eq!(Trax::player("white").unwrap(), Trax::PLAYERS[0]);
/// ```
pub trait Engine: Game<Player: 'static> {
    /// The game's name: `triple-triad`, `trax` or `nantong`.
    const NAME: &'static str;
    /// Every player in seat order; the C library and tensors number players by this index.
    const PLAYERS: &'static [Self::Player];
    /// The levels of the game's built-in opponents (its `ai::Level`).
    type Level: Copy + core::str::FromStr<Err = UnknownLevel> + 'static;
    /// The built-in opponents' level names, weakest first (`ai::Level::NAMES`).
    const LEVELS: &'static [&'static str];
    /// Whether [`Engine::returns`] are points (Nantong's settlement) rather than 1, -1 and 0
    /// for a win, a loss and a draw.
    const RETURNS_POINTS: bool = false;

    /// The player named `name`: as the game writes it (`blue`, `white`, `0`), ASCII case ignored.
    fn player(name: &str) -> Result<Self::Player, Error> {
        Self::PLAYERS
            .iter()
            .copied()
            .find(|p| p.to_string().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                let names: alloc::vec::Vec<_> = Self::PLAYERS.iter().map(|p| p.to_string()).collect();
                Error::new(
                    ErrorKind::Parse,
                    alloc::format!(
                        "unknown player {:?} (expected {})",
                        crate::error::quote(name),
                        names.join(" or ")
                    ),
                )
            })
    }

    /// The index of `player` in [`Engine::PLAYERS`].
    fn player_index(player: Self::Player) -> usize {
        Self::PLAYERS.iter().position(|&p| p == player).unwrap_or(0)
    }

    /// The moves played on this state, in order (Nantong: every seat's actions; a state loaded
    /// from a Triple Triad JSON state starts with none).
    fn history(&self) -> Vec<Self::Move>;

    /// Takes back the last move of [`Engine::history`] and returns it, the state exactly as it
    /// was before it; `None` when the history is empty.
    ///
    /// ```
    /// use arbiter_core::{Engine, Game, Rng};
    /// use arbiter_core::nantong::Nantong;
    /// let mut g = Nantong::new(2);
    /// let start = g.clone();
    /// for _ in 0..5 {
    ///     let mv = g.choose("basic", &mut Rng::new(1)).unwrap().unwrap();
    ///     g.play(mv).unwrap();
    /// }
    /// while Engine::undo(&mut g).is_some() {}
    /// assert_eq!(g, start);
    /// ```
    fn undo(&mut self) -> Option<Self::Move>;

    /// Counts the legal move sequences of `depth` moves with the game's own fast perft.
    fn perft(&self, depth: u32) -> u64;

    /// A move for the player to move, chosen by the built-in opponent `level` (one of
    /// [`Engine::LEVELS`]) from that player's observation only, within the level's own budget;
    /// `None` once the game is over.
    fn choose(&self, level: &str, rng: &mut Rng) -> Result<Option<Self::Move>, Error> {
        self.choose_within(level, rng, Budget::default())
    }

    /// [`Engine::choose`] within `budget` as well: the best move found when it runs out.
    fn choose_within(&self, level: &str, rng: &mut Rng, budget: Budget<'_>) -> Result<Option<Self::Move>, Error> {
        let level: Self::Level = level.parse()?;
        Ok(self.choose_level(level, rng, budget))
    }

    /// [`Engine::choose_within`] with the level as the game's type.
    fn choose_level(&self, level: Self::Level, rng: &mut Rng, budget: Budget<'_>) -> Option<Self::Move>;

    /// The move a host plays for a player whose clock ran out (the French Triple Triad server's
    /// rule: the server plays for them). A function of the state alone, drawing nothing from any
    /// generator, so that a host replaying a record gets the same move; `None` once the game is
    /// over. By default the legal move with the smallest action id; Nantong passes or ends its
    /// preparation where it may and otherwise discards the card just drawn. A Triple Triad
    /// match has its own, [`Match::timeout_move`](crate::tripletriad::Match::timeout_move).
    ///
    /// ```
    /// use arbiter_core::{Engine, Game};
    /// use arbiter_core::trax::{Trax, Variant};
    /// let g = Trax::new(Variant::EightByEight);
    /// let mv = g.timeout_move().unwrap();
    /// assert_eq!(g.action_id(mv).unwrap(), g.legal_actions()[0]);
    /// ```
    fn timeout_move(&self) -> Option<Self::Move> {
        self.legal_actions().first().and_then(|&id| self.action_move(id))
    }

    /// Calls `f(start, bytes)` on each block of memory the game holds on the heap (Trax: its
    /// grid and lists), for a host that keeps many games (the Python batches ask for huge pages
    /// under their games). None by default.
    ///
    /// ```
    /// use arbiter_core::Engine;
    /// use arbiter_core::trax::{Trax, Variant};
    /// let g = Trax::new(Variant::EightByEight);
    /// let (mut blocks, mut bytes) = (0, 0);
    /// g.heap_blocks(|_, n| {
    ///     blocks += 1;
    ///     bytes += n;
    /// });
    /// // Its 24 x 24 grid and its lists, reserved for a whole 8x8 game.
    /// assert_eq!(blocks, 8);
    /// assert!(bytes > 24 * 24 * 4 + 64 * 4 * 4);
    /// ```
    fn heap_blocks(&self, f: impl FnMut(*const u8, usize)) {
        let _ = f;
    }

    /// The length of [`Engine::observation_tensor`] in this game (Trax: per variant).
    fn tensor_len(&self) -> usize;

    /// What `player` sees, as a fixed-size vector of numbers in 0..=1 for learning agents (the
    /// layout is documented in each game's `tensor` module). It is built from what `player` may
    /// see alone, so it never changes with hidden information.
    fn observation_tensor(&self, player: Self::Player) -> Vec<f32> {
        let mut out = alloc::vec![0.0; self.tensor_len()];
        self.observation_tensor_into(player, &mut out);
        out
    }

    /// [`Engine::observation_tensor`] written over `out`, which must hold
    /// [`Engine::tensor_len`] numbers (a shorter or longer slice panics): the batched steppers
    /// write each game's tensor straight into its row of an array, allocating nothing.
    ///
    /// ```
    /// use arbiter_core::{Engine, Game};
    /// use arbiter_core::tripletriad::TripleTriad;
    /// let g = TripleTriad::from_preset("ff8", 1).unwrap();
    /// let p = g.to_move().unwrap();
    /// let mut row = vec![0.5; g.tensor_len()];
    /// g.observation_tensor_into(p, &mut row);
    /// assert_eq!(row, g.observation_tensor(p));
    /// ```
    fn observation_tensor_into(&self, player: Self::Player, out: &mut [f32]);

    /// The action ids of the legal moves, in ascending order (OpenSpiel and the research
    /// interfaces of every binding rely on the order). [`Game::legal_moves`] lists moves in the
    /// order each game generates them, which is not id order for Trax and Nantong: this sorts.
    ///
    /// ```
    /// use arbiter_core::{Engine, Game};
    /// use arbiter_core::nantong::Nantong;
    /// let g = Nantong::new(5);
    /// let ids = g.legal_actions();
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// assert_eq!(ids.len(), g.legal_moves().len());
    /// ```
    fn legal_actions(&self) -> Vec<usize> {
        let mut ids = Vec::new();
        self.legal_actions_into(&mut ids);
        ids
    }

    /// [`Engine::legal_actions`] written over `out` (cleared first), so that a caller stepping
    /// many games reuses one buffer a game.
    fn legal_actions_into(&self, out: &mut Vec<usize>) {
        out.clear();
        // Every move a game offers has an id (Trax's span limit keeps its moves inside the ids).
        out.extend(self.legal_moves().iter().filter_map(|&mv| self.action_id(mv).ok()));
        out.sort_unstable();
    }

    /// What each player (in [`Engine::PLAYERS`] order) scores at the end, for learning agents:
    /// 1 for the winner, -1 for a loser, 0 for a draw, and 0 for everyone while the game goes
    /// on. Nantong scores in points: each seat's net settlement (they sum to 0).
    ///
    /// ```
    /// use arbiter_core::{Engine, Game, Rng};
    /// use arbiter_core::trax::{Trax, Variant};
    /// let mut g = Trax::new(Variant::EightByEight);
    /// assert_eq!(g.returns(), [0.0, 0.0]);
    /// let mut rng = Rng::new(1);
    /// while let Some(mv) = g.choose("random", &mut rng).unwrap() {
    ///     g.play(mv).unwrap();
    /// }
    /// assert_eq!(g.returns().iter().sum::<f64>(), 0.0);
    /// ```
    fn returns(&self) -> Vec<f64> {
        let winner = match self.outcome() {
            Some(crate::Outcome::Winner(w)) => Some(w),
            _ => None,
        };
        Self::PLAYERS
            .iter()
            .map(|&p| match winner {
                Some(w) if w == p => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            })
            .collect()
    }

    /// The legal moves as a mask over the action ids (`mask[id]` is true for a legal move's id),
    /// of length [`Game::num_distinct_actions`].
    ///
    /// ```
    /// use arbiter_core::{Engine, Game};
    /// use arbiter_core::trax::{Trax, Variant};
    /// let g = Trax::new(Variant::EightByEight);
    /// let mask = g.legal_action_mask();
    /// assert_eq!(mask.len(), 300);
    /// assert_eq!(mask.iter().filter(|&&m| m).count(), g.legal_moves().len());
    /// ```
    fn legal_action_mask(&self) -> Vec<bool> {
        let mut mask = alloc::vec![false; self.num_distinct_actions()];
        for id in self.legal_actions() {
            if let Some(m) = mask.get_mut(id) {
                *m = true;
            }
        }
        mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nantong::Nantong;
    use crate::trax::{Trax, Variant};
    use crate::tripletriad::{Setup, TripleTriad};
    use core::cell::Cell;

    fn counts_as_perft<G: Engine>(g: &G, depth: u32) {
        assert_eq!(
            perft_until(g, depth, &|| false),
            Some(g.perft(depth)),
            "{} {depth}",
            G::NAME
        );
        // Stopped at the second question: no count.
        let asked = Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > 1
        };
        assert_eq!(perft_until(g, depth, &stop), None, "{} {depth}", G::NAME);
    }

    #[test]
    fn a_stoppable_perft_counts_as_the_games_own() {
        let mut trax = Trax::new(Variant::EightByEight);
        counts_as_perft(&trax, 6);
        for mv in ["@0/", "B1+", "A2\\"] {
            trax.play(mv.parse().unwrap()).unwrap();
        }
        counts_as_perft(&trax, 6);
        let mut tt = TripleTriad::new(&Setup::random_ff8(3)).unwrap();
        tt.play(tt.legal_moves()[0]).unwrap();
        counts_as_perft(&tt, 7);
        counts_as_perft(&Nantong::new(3), 14);
        // Near 8x8's tile limit, where a turn may not be played.
        let mut rng = crate::Rng::new(7);
        let mut late = Trax::new(Variant::EightByEight);
        while late.turns_left() > 8 && !late.is_over() {
            let moves = late.legal_moves();
            late.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
        }
        if !late.is_over() {
            assert_eq!(perft_until(&late, 7, &|| false), Some(late.perft(7)));
        }
    }
}

//! What the C library and the npm package need of every game beyond [`Game`]: names for the game,
//! its players and the levels of its built-in opponents, the game's own fast perft, and a move
//! from a built-in opponent. The bindings are generic over [`Engine`], so that each verb they
//! export is written once for the three games.

use alloc::string::ToString;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind};
use crate::game::Game;
use crate::nantong::{self, Nantong, Seat};
use crate::trax::{self, Colour, Trax};
use crate::tripletriad::{self, Player, TripleTriad};
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
/// let budget = Budget { nodes: Some(5_000), stop: Some(&mut stop) };
/// assert!(g.choose_within("hard", &mut Rng::new(1), budget).unwrap().is_some());
/// ```
#[derive(Default)]
pub struct Budget<'a> {
    /// The most nodes; `None` leaves the level's own budget.
    pub nodes: Option<u64>,
    /// Asked now and then while searching; `true` ends the search.
    pub stop: Option<&'a mut dyn FnMut() -> bool>,
}

impl<'a> Budget<'a> {
    /// At most `nodes` nodes, no stop callback.
    pub fn nodes(nodes: u64) -> Budget<'a> {
        Budget {
            nodes: Some(nodes),
            stop: None,
        }
    }

    /// Until `stop` says so.
    pub fn until(stop: &'a mut dyn FnMut() -> bool) -> Budget<'a> {
        Budget {
            nodes: None,
            stop: Some(stop),
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
    /// The built-in opponents' levels, weakest first.
    const LEVELS: &'static [&'static str];

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

    /// Counts the legal move sequences of `depth` moves with the game's own fast perft.
    fn perft(&self, depth: u32) -> u64;

    /// A move for the player to move, chosen by the built-in opponent `level` (one of
    /// [`Engine::LEVELS`]) from that player's observation only, within the level's own budget;
    /// `None` once the game is over.
    fn choose(&self, level: &str, rng: &mut Rng) -> Result<Option<Self::Move>, Error> {
        self.choose_within(level, rng, Budget::default())
    }

    /// [`Engine::choose`] within `budget` as well: the best move found when it runs out.
    fn choose_within(&self, level: &str, rng: &mut Rng, budget: Budget<'_>) -> Result<Option<Self::Move>, Error>;

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

/// The error for a level name that the game does not have.
fn unknown_level<G: Engine>(level: &str) -> Error {
    Error::new(
        ErrorKind::BadArgument,
        alloc::format!(
            "unknown level {:?} for {} (expected {})",
            crate::error::quote(level),
            G::NAME,
            G::LEVELS.join(", ")
        ),
    )
}

impl Engine for TripleTriad {
    const NAME: &'static str = "triple-triad";
    const PLAYERS: &'static [Player] = &Player::BOTH;
    const LEVELS: &'static [&'static str] = &["random", "greedy", "perfect", "expert"];

    fn perft(&self, depth: u32) -> u64 {
        TripleTriad::perft(self, depth)
    }

    fn tensor_len(&self) -> usize {
        tripletriad::tensor::LEN
    }

    fn observation_tensor_into(&self, player: Player, out: &mut [f32]) {
        tripletriad::tensor::write_state(self, player, out);
    }

    /// Ascending without a sort: card-major ids (`card * 9 + cell`), cells in order.
    fn legal_actions_into(&self, out: &mut Vec<usize>) {
        tripletriad::tensor::legal_actions_into(self, out);
    }

    fn choose_within(
        &self,
        level: &str,
        rng: &mut Rng,
        budget: Budget<'_>,
    ) -> Result<Option<tripletriad::Move>, Error> {
        let level = match level.trim().to_ascii_lowercase().as_str() {
            "random" => tripletriad::ai::Level::Random,
            "greedy" => tripletriad::ai::Level::Greedy,
            "perfect" => tripletriad::ai::Level::Perfect,
            "expert" => tripletriad::ai::Level::Expert,
            _ => return Err(unknown_level::<Self>(level)),
        };
        Ok(self
            .to_move()
            .and_then(|p| tripletriad::ai::choose_within(&self.observation(p), level, rng, budget)))
    }
}

impl Engine for Trax {
    const NAME: &'static str = "trax";
    const PLAYERS: &'static [Colour] = &[Colour::White, Colour::Red];
    const LEVELS: &'static [&'static str] = &["random", "easy", "medium", "hard", "expert"];

    fn perft(&self, depth: u32) -> u64 {
        Trax::perft(self, depth)
    }

    fn tensor_len(&self) -> usize {
        trax::tensor::len(self.variant())
    }

    /// Read from the state itself: Trax hides nothing (its observation is a copy of the state).
    fn observation_tensor_into(&self, player: Colour, out: &mut [f32]) {
        trax::tensor::write(self, player, out);
    }

    /// Trax hides nothing: the observation is the state. Without a stop callback the searching
    /// levels spend their node budget in full, so a seed plays the same move everywhere.
    fn choose_within(&self, level: &str, rng: &mut Rng, budget: Budget<'_>) -> Result<Option<trax::Move>, Error> {
        let level: trax::ai::Level = level.parse().map_err(|_| unknown_level::<Self>(level))?;
        Ok(trax::ai::choose_at(self, level, rng, budget))
    }
}

impl Engine for Nantong {
    const NAME: &'static str = "nantong";
    const PLAYERS: &'static [Seat] = &Seat::ALL;
    /// `random` (any listed action), `basic` ([`nantong::ai::choose`]) and `strong`
    /// ([`nantong::ai::strong`], the one to play against: it averages about +40 points a deal
    /// against two `basic` players).
    const LEVELS: &'static [&'static str] = &["random", "basic", "strong"];

    /// `0`, `1` or `2` (or `seat 1`, as seats display).
    fn player(name: &str) -> Result<Seat, Error> {
        let n = name.trim();
        let n = n.strip_prefix("seat").map_or(n, str::trim_start);
        match n {
            "0" | "1" | "2" => Ok(Self::PLAYERS[(n.as_bytes()[0] - b'0') as usize]),
            _ => Err(Error::new(
                ErrorKind::Parse,
                alloc::format!("unknown seat {name:?} (expected 0, 1 or 2)"),
            )),
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        crate::game::perft(self, depth)
    }

    fn tensor_len(&self) -> usize {
        nantong::tensor::LEN
    }

    fn observation_tensor_into(&self, seat: Seat, out: &mut [f32]) {
        nantong::tensor::write(&self.seen(seat), out);
    }

    /// Each seat's net settlement in points (0 for all while the deal goes on).
    fn returns(&self) -> Vec<f64> {
        match self.score() {
            Some(s) => s.settlement.iter().map(|&p| p as f64).collect(),
            None => alloc::vec![0.0; 3],
        }
    }

    /// The levels do no search (a few microseconds a choice): the budget changes nothing.
    fn choose_within(&self, level: &str, rng: &mut Rng, _budget: Budget<'_>) -> Result<Option<nantong::Action>, Error> {
        let level = level.trim().to_ascii_lowercase();
        if !Self::LEVELS.contains(&level.as_str()) {
            return Err(unknown_level::<Self>(&level));
        }
        let Some(seat) = self.to_move() else { return Ok(None) };
        let obs = self.observation(seat);
        Ok(match level.as_str() {
            // The observation lists the seat's legal actions: a random one of them.
            "random" => {
                let n = obs.actions.len() as u64;
                obs.actions.get(rng.below(n) as usize).and_then(|a| a.parse().ok())
            }
            "basic" => nantong::ai::choose(&obs, rng),
            _ => nantong::ai::strong(&obs, rng),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome;

    fn levels_play_to_the_end<G: Engine>(start: G) {
        for level in G::LEVELS {
            let mut g = start.clone();
            let mut rng = Rng::new(3);
            let mut moves = 0;
            while let Some(mv) = g.choose(level, &mut rng).unwrap() {
                g.play(mv).map_err(Into::into).unwrap();
                moves += 1;
                assert!(moves < 10_000, "{} {level} never ends", G::NAME);
            }
            assert!(g.is_over(), "{} {level}", G::NAME);
        }
        assert_eq!(
            start.choose("grandmaster", &mut Rng::new(1)).unwrap_err().kind(),
            ErrorKind::BadArgument
        );
    }

    #[test]
    fn every_level_of_every_game_plays_to_the_end() {
        levels_play_to_the_end(TripleTriad::new(&tripletriad::Setup::random_ff8(4)).unwrap());
        levels_play_to_the_end(Trax::new(trax::Variant::EightByEight));
        levels_play_to_the_end(Nantong::new(4));
    }

    /// With a budget spent at once (one node, or a stop callback that says stop on its first
    /// question), every level of every game still plays a legal move at every position.
    fn levels_play_legal_moves_on_no_budget<G: Engine>(start: G) {
        for level in G::LEVELS {
            for stop_at_once in [false, true] {
                let mut g = start.clone();
                let mut rng = Rng::new(5);
                let mut asked = 0u32;
                loop {
                    let mut stop = || {
                        asked += 1;
                        true
                    };
                    let budget = if stop_at_once {
                        Budget::until(&mut stop)
                    } else {
                        Budget::nodes(1)
                    };
                    let Some(mv) = g.choose_within(level, &mut rng, budget).unwrap() else {
                        break;
                    };
                    assert!(g.legal_moves().contains(&mv), "{} {level}", G::NAME);
                    g.play(mv).map_err(Into::into).unwrap();
                }
                assert!(g.is_over(), "{} {level}", G::NAME);
            }
        }
    }

    #[test]
    fn every_level_of_every_game_plays_within_any_budget() {
        let open = tripletriad::Rules {
            open: true,
            ..tripletriad::Rules::default()
        };
        levels_play_legal_moves_on_no_budget(TripleTriad::new(&tripletriad::Setup::random_ff8(4)).unwrap());
        levels_play_legal_moves_on_no_budget(
            TripleTriad::new(&tripletriad::Setup::random_ff8(6).with_rules(open)).unwrap(),
        );
        levels_play_legal_moves_on_no_budget(Trax::new(trax::Variant::Unbounded));
        levels_play_legal_moves_on_no_budget(Nantong::new(4));
    }

    #[test]
    fn the_solver_keeps_its_node_budget() {
        let open = tripletriad::Rules {
            open: true,
            ..tripletriad::Rules::default()
        };
        let g = TripleTriad::new(&tripletriad::Setup::random_ff8(6).with_rules(open)).unwrap();
        let full = tripletriad::Solver::default().solve(&g);
        for nodes in [1, 1_000, 10_000] {
            let cut = tripletriad::Solver::default().solve_within(&g, Budget::nodes(nodes));
            let cut = cut.expect_err("an empty board takes more than 10,000 positions");
            // The search looks at its budget after each child of a position with five empty cells
            // or more: past it, at most the path down to the first such look (nine positions).
            assert!(cut.nodes <= nodes + 9, "{nodes}: {}", cut.nodes);
            assert!(full.nodes > 10_000);
        }
        let mut calls = 0;
        let mut stop = || {
            calls += 1;
            calls > 3
        };
        let cut = tripletriad::Solver::default()
            .solve_within(&g, Budget::until(&mut stop))
            .unwrap_err();
        assert!(cut.nodes < full.nodes);
    }

    #[test]
    fn tensors_and_masks_have_their_sizes_all_game_long() {
        fn check<G: Engine>(mut g: G) {
            let mut rng = Rng::new(9);
            loop {
                for &p in G::PLAYERS {
                    assert_eq!(g.observation_tensor(p).len(), g.tensor_len(), "{}", G::NAME);
                }
                let mask = g.legal_action_mask();
                assert_eq!(mask.len(), g.num_distinct_actions());
                let legal: Vec<usize> = g.legal_moves().iter().map(|&m| g.action_id(m).unwrap()).collect();
                assert_eq!(mask.iter().filter(|&&m| m).count(), legal.len(), "{}", G::NAME);
                assert!(legal.iter().all(|&id| mask[id]));
                let Some(mv) = g.choose("random", &mut rng).unwrap() else {
                    break;
                };
                g.play(mv).map_err(Into::into).unwrap();
            }
        }
        check(TripleTriad::new(&tripletriad::Setup::random_ff8(2)).unwrap());
        check(Trax::new(trax::Variant::EightByEight));
        check(Nantong::new(2));
    }

    #[test]
    fn legal_actions_ascend_and_name_the_legal_moves_all_game_long() {
        fn check<G: Engine>(mut g: G, seed: u64) -> bool {
            let mut rng = Rng::new(seed);
            let mut unsorted = false;
            loop {
                let ids = g.legal_actions();
                assert!(ids.windows(2).all(|w| w[0] < w[1]), "{}: {ids:?}", G::NAME);
                let mut listed: Vec<usize> = g.legal_moves().iter().map(|&m| g.action_id(m).unwrap()).collect();
                unsorted |= listed.windows(2).any(|w| w[0] > w[1]);
                listed.sort_unstable();
                assert_eq!(ids, listed, "{}", G::NAME);
                let returns = g.returns();
                assert_eq!(returns.len(), G::PLAYERS.len());
                if !g.is_over() {
                    assert!(returns.iter().all(|&r| r == 0.0));
                }
                let Some(mv) = g.choose("random", &mut rng).unwrap() else {
                    assert_eq!(returns.iter().sum::<f64>(), 0.0, "{}", G::NAME);
                    return unsorted;
                };
                g.play(mv).map_err(Into::into).unwrap();
            }
        }
        check(TripleTriad::new(&tripletriad::Setup::random_ff8(3)).unwrap(), 3);
        // Nantong's generation order is not id order: the sort is what makes the guarantee.
        assert!((0..4).any(|s| check(Nantong::new(s), s)));
        for variant in [
            trax::Variant::EightByEight,
            trax::Variant::Unbounded,
            trax::Variant::Loop,
        ] {
            check(Trax::new(variant), 5);
        }
    }

    #[test]
    fn returns_score_the_winner_and_nantong_in_points() {
        let mut g = Trax::new(trax::Variant::EightByEight);
        let mut rng = Rng::new(8);
        while let Some(mv) = g.choose("random", &mut rng).unwrap() {
            g.play(mv).unwrap();
        }
        let want = match g.outcome().unwrap() {
            Outcome::Winner(Colour::White) => [1.0, -1.0],
            Outcome::Winner(Colour::Red) => [-1.0, 1.0],
            Outcome::Draw => [0.0, 0.0],
        };
        assert_eq!(g.returns(), want);
        let mut n = Nantong::new(11);
        while let Some(mv) = n.choose("basic", &mut rng).unwrap() {
            n.play(mv).unwrap();
        }
        let settlement = n.score().unwrap().settlement.map(|p| p as f64);
        assert_eq!(n.returns(), settlement);
    }

    #[test]
    fn players_read_back_from_their_names() {
        fn check<G: Engine>() {
            for (i, &p) in G::PLAYERS.iter().enumerate() {
                assert_eq!(G::player(&p.to_string()).unwrap(), p);
                assert_eq!(G::player_index(p), i);
            }
            assert_eq!(G::player("nobody").unwrap_err().kind(), ErrorKind::Parse);
            assert_eq!(G::player("3").unwrap_err().kind(), ErrorKind::Parse);
        }
        check::<TripleTriad>();
        check::<Trax>();
        check::<Nantong>();
        assert_eq!(Nantong::player(" 2").unwrap(), Seat::ALL[2]);
    }
}

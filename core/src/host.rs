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
                    alloc::format!("unknown player {name:?} (expected {})", names.join(" or ")),
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
    /// [`Engine::LEVELS`]) from that player's observation only; `None` once the game is over.
    fn choose(&self, level: &str, rng: &mut Rng) -> Result<Option<Self::Move>, Error>;

    /// The length of [`Engine::observation_tensor`] in this game (Trax: per variant).
    fn tensor_len(&self) -> usize;

    /// What `player` sees, as a fixed-size vector of numbers in 0..=1 for learning agents (the
    /// layout is documented in each game's `tensor` module). It is built from what `player` may
    /// see alone, so it never changes with hidden information.
    fn observation_tensor(&self, player: Self::Player) -> Vec<f32>;

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
        for &mv in self.legal_moves().iter() {
            if let Some(m) = self.action_id(mv).ok().and_then(|id| mask.get_mut(id)) {
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
            "unknown level {level:?} for {} (expected {})",
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

    fn observation_tensor(&self, player: Player) -> Vec<f32> {
        tripletriad::tensor::observation_tensor(&self.observation(player))
    }

    fn choose(&self, level: &str, rng: &mut Rng) -> Result<Option<tripletriad::Move>, Error> {
        let level = match level.trim().to_ascii_lowercase().as_str() {
            "random" => tripletriad::ai::Level::Random,
            "greedy" => tripletriad::ai::Level::Greedy,
            "perfect" => tripletriad::ai::Level::Perfect,
            "expert" => tripletriad::ai::Level::Expert,
            _ => return Err(unknown_level::<Self>(level)),
        };
        Ok(self
            .to_move()
            .and_then(|p| tripletriad::ai::choose(&self.observation(p), level, rng)))
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

    fn observation_tensor(&self, player: Colour) -> Vec<f32> {
        trax::tensor::observation_tensor(&self.observation(player), player)
    }

    /// Trax hides nothing: the observation is the state. Searching levels spend their node
    /// budget in full (no clock), so a seed plays the same move everywhere.
    fn choose(&self, level: &str, rng: &mut Rng) -> Result<Option<trax::Move>, Error> {
        let level: trax::ai::Level = level.parse().map_err(|_| unknown_level::<Self>(level))?;
        Ok(trax::ai::choose_at(self, level, rng, &mut || false))
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

    fn observation_tensor(&self, seat: Seat) -> Vec<f32> {
        nantong::tensor::observation_tensor(&self.observation(seat))
    }

    fn choose(&self, level: &str, rng: &mut Rng) -> Result<Option<nantong::Action>, Error> {
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

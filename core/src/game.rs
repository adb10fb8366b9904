//! The shape every game shares: the [`Game`] trait, [`Outcome`], and generic [`perft`].

use core::fmt;
use core::ops::Deref;
use core::str::FromStr;

/// The result of a finished game.
///
/// ```
/// use arbiter_core::Outcome;
/// let o: Outcome<u8> = Outcome::Winner(1);
/// assert_eq!(o.winner(), Some(1));
/// assert_eq!(Outcome::<u8>::Draw.winner(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Outcome<P> {
    /// One player won.
    Winner(P),
    /// Nobody won.
    Draw,
}

impl<P: Copy> Outcome<P> {
    /// The winner, if any.
    pub fn winner(&self) -> Option<P> {
        match *self {
            Outcome::Winner(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

/// A game state with the verbs that every Arbiter game offers.
///
/// Every game has one player to act at a time (Nantong serialises its claims), a list of its legal
/// moves ([`Game::MoveList`]: a fixed-capacity list without allocation where the game has a small
/// bound, Triple Triad's 45; a `Vec` for Trax and Nantong, whose lists have none), a `play` that
/// refuses an illegal move and leaves the state unchanged, and integer action ids for tensors and
/// for the C and JavaScript layers.
///
/// ```
/// use arbiter_core::{Game, tripletriad::{TripleTriad, Setup}};
/// let mut g = TripleTriad::new(&Setup::random_ff8(7)).unwrap();
/// while !g.is_over() {
///     let mv = g.legal_moves()[0];
///     g.play(mv).unwrap();
/// }
/// assert!(g.outcome().is_some());
/// ```
pub trait Game: Clone {
    /// A player (a colour or a seat).
    type Player: Copy + Eq + fmt::Debug + fmt::Display;
    /// A move, with a text notation.
    type Move: Copy + Eq + fmt::Debug + fmt::Display + FromStr;
    /// The fixed-capacity list that [`Game::legal_moves`] fills.
    type MoveList: Deref<Target = [Self::Move]>;
    /// Why a move was refused; it converts into the hosts' [`Error`](crate::Error) with its kind.
    type MoveError: fmt::Debug + fmt::Display + Into<crate::Error>;
    /// What one player may see of the state.
    type Observation;

    /// The number of distinct action ids, so that ids are `0..num_distinct_actions()`.
    fn num_distinct_actions(&self) -> usize;
    /// Who acts now; `None` once the game is over.
    fn to_move(&self) -> Option<Self::Player>;
    /// Every legal move in the current state (empty once the game is over).
    fn legal_moves(&self) -> Self::MoveList;
    /// Plays `mv`, or refuses it with the reason and leaves the state exactly as it was.
    fn play(&mut self, mv: Self::Move) -> Result<(), Self::MoveError>;
    /// Plays a move known to be legal, without the report of why a move is refused: a move that
    /// `play` would refuse is ignored and the state stays valid (each game checks what it must to
    /// keep that promise; the fast searches work on the games' own positions, not on this).
    fn play_unchecked(&mut self, mv: Self::Move);
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome<Self::Player>>;
    /// What `player` may see.
    fn observation(&self, player: Self::Player) -> Self::Observation;
    /// The action id of `mv` in this state (legal or not); a `BAD_ARGUMENT` error when `mv`
    /// names a place that has no id (such a move is never legal), never another move's id.
    fn action_id(&self, mv: Self::Move) -> Result<usize, crate::Error>;
    /// The move with action id `id` in this state, if the id names one (legal or not).
    fn action_move(&self, id: usize) -> Option<Self::Move>;
}

/// Counts the legal move sequences of length `depth` (depth 0 counts 1; a finished game has no moves).
///
/// Games also offer their own faster `perft`; this generic one is the reference they are tested
/// against.
///
/// ```
/// use arbiter_core::{perft, tripletriad::{TripleTriad, Setup}};
/// let g = TripleTriad::new(&Setup::random_ff8(1)).unwrap();
/// assert_eq!(perft(&g, 2), 45 * 40);
/// ```
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut next = game.clone();
            next.play_unchecked(mv);
            perft(&next, depth - 1)
        })
        .sum()
}

//! A match: one or more rounds (sudden death replays draws), then the trade.

use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use super::dealer::CardSet;
use super::trade::{DiffMode, TradeNotAllowed, TradeRule};
use crate::tripletriad::round::board::bits;
use crate::tripletriad::round::card::{Card, Element};
use crate::tripletriad::round::position::Player;
use crate::tripletriad::round::resolve::Captures;
use crate::tripletriad::round::rules::{random_walls, Rules, Wall};
use crate::tripletriad::round::setup::{Hands, Setup, SetupError, Swap};
use crate::tripletriad::round::state::{Move, MoveError, Observation, TripleTriad};
use crate::{Game, Rng};

/// What happens when a round is drawn.
///
/// In JSON a mode is its name, the same text that `FromStr` reads (`"own_colours"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SuddenDeath {
    /// A draw ends the match.
    #[default]
    Off,
    /// Each player takes the cards of their colour; the other player moves first (FF8).
    OwnColours,
    /// The ten cards are dealt out again at random, five each (Russian source).
    Shuffle,
    /// Each player gets their own five back (English source).
    OriginalHands,
}

impl SuddenDeath {
    /// Every mode, the default first.
    pub const ALL: [SuddenDeath; 4] = [
        SuddenDeath::Off,
        SuddenDeath::OwnColours,
        SuddenDeath::Shuffle,
        SuddenDeath::OriginalHands,
    ];

    /// The mode's name as written in configurations.
    pub const fn name(self) -> &'static str {
        match self {
            SuddenDeath::Off => "off",
            SuddenDeath::OwnColours => "own_colours",
            SuddenDeath::Shuffle => "shuffle",
            SuddenDeath::OriginalHands => "original_hands",
        }
    }
}

impl fmt::Display for SuddenDeath {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown sudden-death mode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown sudden death {0:?} (expected {names})", names = SuddenDeath::ALL.map(SuddenDeath::name).join(", "))]
pub struct UnknownSuddenDeath(pub alloc::string::String);

impl FromStr for SuddenDeath {
    type Err = UnknownSuddenDeath;
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SuddenDeath::ALL
            .into_iter()
            .find(|m| m.name() == s.trim())
            .ok_or_else(|| UnknownSuddenDeath(crate::error::quote(s)))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for SuddenDeath {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for SuddenDeath {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = alloc::string::String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// Where the cell elements of each round come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ElementLayout {
    /// Drawn from the match's seed at the start of each round.
    #[default]
    Random,
    /// Given by the host.
    Given([Option<Element>; 9]),
}

impl ElementLayout {
    /// The elements of a round's cells: given, drawn from `rng` under the elemental rule, or none.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn round(&self, rules: &Rules, rng: &mut Rng) -> [Option<Element>; 9] {
        match *self {
            ElementLayout::Given(e) => e,
            ElementLayout::Random if rules.elemental => crate::tripletriad::round::setup::random_elements(rng),
            ElementLayout::Random => [None; 9],
        }
    }
}

/// How many cards each player owns in all, when the host knows (the `all` trade needs more than
/// ten each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Owned {
    /// Cards blue owns.
    pub blue: u32,
    /// Cards red owns.
    pub red: u32,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Owned, deny_unknown = false;
    blue: u32 => serde::Deserialize::deserialize;
    red: u32 => serde::Deserialize::deserialize;
);

/// Everything that configures a match.
///
/// ```
/// use arbiter_core::tripletriad::{MatchConfig, SuddenDeath};
/// let c = MatchConfig { sudden_death: SuddenDeath::OwnColours, round_limit: Some(5), ..MatchConfig::default() };
/// assert_eq!(c.trade.name(), "one");
/// assert!(c.validate().is_ok());
/// assert!(MatchConfig { round_limit: Some(0), ..c }.validate().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MatchConfig {
    /// Placement rules of every round.
    pub rules: Rules,
    /// Cell elements (used when `rules.elemental` is on).
    pub elements: ElementLayout,
    /// Power-wall labels (the same in every round).
    pub walls: Vec<Wall>,
    /// What a drawn round leads to.
    pub sudden_death: SuddenDeath,
    /// At most this many rounds in all, round 1 included (`None`: unlimited; 0 is refused).
    /// FFXIV's `sudden_death` rule plays five at most whatever this says.
    pub round_limit: Option<u32>,
    /// What the winner takes.
    pub trade: TradeRule,
    /// Who moves first in the first round (`None`: drawn from the seed).
    pub first: Option<Player>,
    /// Seconds per move (15..=300) when the host keeps a clock; informational for the engine.
    pub time: Option<u32>,
    /// The levels of the five cards each player brings may total at most this (`None`:
    /// limitless). The `mush` preset sets 20.
    pub deck_level_limit: Option<u32>,
    /// Cards each player owns in all, when the host knows; checked only by the `all` trade.
    pub owned: Option<Owned>,
    /// The cards a hand the host does not bring is dealt from ([`dealt_hands`]); JSON leaves
    /// it out when it is FF8's.
    ///
    /// [`dealt_hands`]: crate::tripletriad::dealt_hands
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "CardSet::is_ff8"))]
    pub cards: CardSet,
}

// As the derive with `#[serde(default, deny_unknown_fields)]` (the container's default is each
// field's, `MatchConfig` deriving `Default`).
#[cfg(feature = "serde")]
crate::fields::read_fields!(MatchConfig, deny_unknown = true;
    rules: Rules => serde::Deserialize::deserialize, default;
    elements: ElementLayout => serde::Deserialize::deserialize, default;
    walls: Vec<Wall> => serde::Deserialize::deserialize, default;
    sudden_death: SuddenDeath => serde::Deserialize::deserialize, default;
    round_limit: Option<u32> => serde::Deserialize::deserialize, default;
    trade: TradeRule => serde::Deserialize::deserialize, default;
    first: Option<Player> => serde::Deserialize::deserialize, default;
    time: Option<u32> => serde::Deserialize::deserialize, default;
    deck_level_limit: Option<u32> => serde::Deserialize::deserialize, default;
    owned: Option<Owned> => serde::Deserialize::deserialize, default;
    cards: CardSet => serde::Deserialize::deserialize, default;
);

/// The most rounds FFXIV's Sudden Death plays: "until the fifth draw, in which it will end in a
/// draw" (`rules/triple-triad-ffxiv.md`, section 5: the fandom table over FFTriadBuddy's solver
/// limit of three restarts).
pub(crate) const FFXIV_SUDDEN_DEATH_ROUNDS: u32 = 5;

impl MatchConfig {
    /// Checks everything that does not depend on the cards brought.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn validate(&self) -> Result<(), MatchError> {
        self.rules.validate(!self.walls.is_empty()).map_err(SetupError::from)?;
        if self.rules.sudden_death && !matches!(self.sudden_death, SuddenDeath::Off | SuddenDeath::OwnColours) {
            return Err(MatchError::SuddenDeathRule(self.sudden_death));
        }
        if self.round_limit == Some(0) {
            return Err(MatchError::RoundLimit);
        }
        if let Some(t) = self.time.filter(|t| !(15..=300).contains(t)) {
            return Err(MatchError::Time(t));
        }
        if let Some(o) = self.owned {
            self.trade.allowed(o.blue as usize, o.red as usize)?;
        }
        Ok(())
    }

    /// What a drawn round leads to and the most rounds in all. FFXIV's `sudden_death` rule is
    /// [`SuddenDeath::OwnColours`] (each player takes the cards of its colour on the board and
    /// its unplayed card; the player who held that card moves first) within
    /// [`FFXIV_SUDDEN_DEATH_ROUNDS`]; a lower `round_limit` still applies.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn restarts(&self) -> (SuddenDeath, Option<u32>) {
        if self.rules.sudden_death {
            let cap = FFXIV_SUDDEN_DEATH_ROUNDS;
            (
                SuddenDeath::OwnColours,
                Some(self.round_limit.map_or(cap, |l| l.min(cap))),
            )
        } else {
            (self.sudden_death, self.round_limit)
        }
    }
}

/// How one round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RoundResult {
    /// The round's winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Final scores (blue, red).
    pub scores: [u32; 2],
}

/// The end of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MatchResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Final scores of the last round (blue, red).
    pub scores: [u32; 2],
    /// Rounds played.
    pub rounds: u32,
}

/// A card changing hands in the trade.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transfer {
    /// The card.
    pub card: Card,
    /// Who brought it (and loses it).
    pub from: Player,
    /// Who gets it.
    pub to: Player,
    /// Its position among the five `from` brought.
    pub index: u8,
}

/// What the trade needs from the winner.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TradeChoice {
    /// Nothing to choose: `settle_trade(&[])` applies the transfers (possibly none).
    Automatic,
    /// `chooser` picks `count` distinct indices among the loser's five.
    Pick {
        /// The winner.
        chooser: Player,
        /// How many cards.
        count: u8,
    },
    /// `chooser` picks one index: they take the loser's card there and give up their own there.
    Swap {
        /// The winner.
        chooser: Player,
    },
}

/// Why a match action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The hands or rules are invalid.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A refused move.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// Each player brings five cards.
    #[error("{player} brings {count} cards: a match needs five each")]
    HandSize {
        /// Who.
        player: Player,
        /// How many.
        count: usize,
    },
    /// FFXIV's `sudden_death` rule with another way of replaying a draw.
    #[error("the sudden_death rule replays a draw with each colour's cards: sudden_death {0} contradicts it (leave it off or own_colours)")]
    SuddenDeathRule(SuddenDeath),
    /// A round limit of 0.
    #[error("round_limit is 0: a match has at least one round")]
    RoundLimit,
    /// A clock outside 15..=300 seconds.
    #[error("time is {0} s per move: the clock allows 15 to 300")]
    Time(u32),
    /// The trade rule cannot apply to these players.
    #[error(transparent)]
    Trade(#[from] TradeNotAllowed),
    /// The cards brought are over the deck level limit.
    #[error("{player}'s cards total level {total}: the limit is {limit}")]
    DeckLevel {
        /// Who.
        player: Player,
        /// Their levels' total.
        total: u32,
        /// The limit.
        limit: u32,
    },
    /// A saved match whose moves do not fall in its rounds as saved.
    #[error("saved match: {0}")]
    Saved(&'static str),
    /// The trade was asked for before the end.
    #[error("the match is not over")]
    NotOver,
    /// The trade was already settled.
    #[error("the trade is already settled")]
    AlreadySettled,
    /// The picks do not fit the trade.
    #[error("bad trade picks: {0}")]
    BadPicks(&'static str),
}

/// A match between blue and red: rounds, sudden death and the trade.
///
/// A match saves (with the `serde` feature) as its configuration, the cards brought, the seed,
/// the moves of each round and the trade's picks, and loads by replaying them: a loaded match is
/// validated like a new one and continues exactly as if it had never been saved.
///
/// ```
/// use arbiter_core::tripletriad::{Match, MatchConfig, Setup, TradeChoice};
/// use arbiter_core::Game;
/// let s = Setup::random_ff8(5);
/// let mut m = Match::new(MatchConfig::default(), s.hands.blue, s.hands.red, 5).unwrap();
/// while !m.is_over() {
///     let mv = m.game().legal_moves()[0];
///     m.play(mv).unwrap();
/// }
/// match m.trade_choice().unwrap() {
///     TradeChoice::Pick { count, .. } => assert_eq!(m.settle_trade(&[0]).unwrap().len(), count as usize),
///     TradeChoice::Automatic => assert!(m.settle_trade(&[]).unwrap().is_empty()), // a draw
///     TradeChoice::Swap { .. } => unreachable!(),
/// }
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "MatchRecord", try_from = "MatchRecord"))]
pub struct Match {
    config: MatchConfig,
    /// The five cards each player brought, by original owner.
    brought: Hands,
    seed: u64,
    /// For the current round, card id -> (original owner, index among the five brought). Ids
    /// are the hand positions at the start of the round (blue 0..5, red 5..10).
    origin: Vec<(Player, u8)>,
    game: TripleTriad,
    /// Under Three Open, `visible[p]`: the ids of the opponent's cards drawn visible to `p` at
    /// the round's start.
    visible: [u16; 2],
    first: Player,
    rng: Rng,
    /// The moves of every round started, the current one last.
    moves: Vec<Vec<Move>>,
    /// Every round finished.
    rounds: Vec<RoundResult>,
    result: Option<MatchResult>,
    /// The player who left before the end, losing the match.
    forfeited: Option<Player>,
    /// The winner's picks and the transfers, once the trade is settled.
    trade: Option<(Vec<u8>, Vec<Transfer>)>,
}

/// Mixed into the seed for the power walls' draw ("WALLS" in ASCII).
const WALLS_STREAM: u64 = 0x57_414C_4C53;

/// A round as it starts: its game (under Swap with the two cards exchanged, under Chaos with the
/// first turn's draw), the swap made, and under Three Open the cards each player sees.
struct Start {
    game: TripleTriad,
    swap: Option<Swap>,
    visible: [u16; 2],
}

/// Under Three Open, the three cards of each hand of five its opponent sees, drawn from `rng`
/// (uniform: the spec names no other law): `visible[p]` holds the ids of `p`'s opponent's cards.
#[cfg_attr(arbiter_size, optimize(size))]
fn three_open(rng: &mut Rng) -> [u16; 2] {
    Player::BOTH.map(|p| {
        // A round starts with blue's five as ids 0..5 and red's as 5..10.
        let base = 5 * p.other() as u16;
        let mut slots = [0u16, 1, 2, 3, 4];
        rng.shuffle(&mut slots);
        slots[..3].iter().fold(0, |seen, &i| seen | 1 << (base + i))
    })
}

/// Under Chaos, draws the card the coming turn must play, uniform over the mover's hand (the
/// spec's reading), unless the round is over.
#[cfg_attr(arbiter_size, optimize(size))]
fn draw_chaos(game: &mut TripleTriad, rng: &mut Rng) {
    if game.rules().chaos && !game.is_over() {
        let hand = game.hand_len(game.next_player()) as u64;
        game.set_chaos_draw(rng.below(hand) as u8);
    }
}

impl Match {
    /// Starts a match; `seed` drives every random choice (first player, elements, shuffles,
    /// trade, and under [`Rules::power_walls`] the labels when none are given, which the
    /// configuration then holds). Under the FFXIV rules it also draws, in this order at a
    /// round's start after the elements: Swap's two cards (the first round only: the cards change
    /// hands before the match begins), Three Open's visible cards, and each turn's Chaos card
    /// as that turn comes.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn new(mut config: MatchConfig, blue: Vec<Card>, red: Vec<Card>, seed: u64) -> Result<Match, MatchError> {
        if config.rules.power_walls && config.walls.is_empty() {
            // A stream of their own, so that turning the rule on deals the same hands, first
            // player and elements.
            config.walls = random_walls(&mut Rng::new(seed ^ WALLS_STREAM));
        }
        let brought = Hands { blue, red };
        let (start, first, rng) = Self::opening(&config, brought.clone(), seed)?;
        let mut origin: Vec<(Player, u8)> = (0..10).map(|i| (Player::BOTH[i / 5], (i % 5) as u8)).collect();
        if let Some(s) = start.swap {
            // Each card took the other's slot and keeps its owner (cards return after the match).
            origin.swap(s.blue as usize, 5 + s.red as usize);
        }
        Ok(Match {
            config,
            brought,
            seed,
            origin,
            game: start.game,
            visible: start.visible,
            first,
            rng,
            moves: alloc::vec![Vec::new()],
            rounds: Vec::new(),
            result: None,
            forfeited: None,
            trade: None,
        })
    }

    /// Checks `config` and the hands brought, then starts the first round as `seed` does: its
    /// game, who moves first, and the match's generator after those draws.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn opening(config: &MatchConfig, hands: Hands, seed: u64) -> Result<(Start, Player, Rng), MatchError> {
        config.validate()?;
        for (player, hand) in [(Player::Blue, &hands.blue), (Player::Red, &hands.red)] {
            if hand.len() != 5 {
                return Err(MatchError::HandSize {
                    player,
                    count: hand.len(),
                });
            }
            if let Some(limit) = config.deck_level_limit {
                let total = hand.iter().map(|c| c.level as u32).sum();
                if total > limit {
                    return Err(MatchError::DeckLevel { player, total, limit });
                }
            }
        }
        let (first, mut rng) = Self::first_player(config, seed);
        let start = Self::round(config, hands, first, &mut rng, true)?;
        Ok((start, first, rng))
    }

    /// Who moves first in the first round of a match seeded with `seed`, and the generator the
    /// match goes on with (the first round's elements are drawn from it next).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn first_player(config: &MatchConfig, seed: u64) -> (Player, Rng) {
        let mut rng = Rng::new(seed);
        let first = config.first.unwrap_or_else(|| Player::BOTH[rng.below(2) as usize]);
        (first, rng)
    }

    /// Starts a round (`opening`: the match's first) with what it draws from `rng`.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn round(
        config: &MatchConfig,
        hands: Hands,
        first: Player,
        rng: &mut Rng,
        opening: bool,
    ) -> Result<Start, SetupError> {
        let rules = config.rules;
        let elements = config.elements.round(&rules, rng);
        let swap = (opening && rules.swap).then(|| Swap {
            blue: rng.below(5) as u8,
            red: rng.below(5) as u8,
        });
        let setup = Setup {
            rules,
            walls: config.walls.clone(),
            hands,
            to_move: first,
            elements,
            swap,
            ..Setup::default()
        };
        let mut game = TripleTriad::new(&setup)?;
        let visible = if rules.three_open { three_open(rng) } else { [0; 2] };
        draw_chaos(&mut game, rng);
        Ok(Start { game, swap, visible })
    }

    /// The configuration.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn config(&self) -> &MatchConfig {
        &self.config
    }

    /// The seed the match started from.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The round being played (or the last one). Its own [`Game::observation`] knows nothing of
    /// the match's draws: players see [`Match::observation`].
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn game(&self) -> &TripleTriad {
        &self.game
    }

    /// What `player` may see: the round's observation, with what the match drew. Under Three
    /// Open, of the opponent's hand only the cards drawn visible at the round's start and the
    /// cards `player` brought (one given under Swap, or taken back by a restart) show their
    /// faces; the others are `None`, so nothing of them is in the observation. Under All Open
    /// (as under `open`) every card shows. Under Chaos the draw is told to the mover only:
    /// `chaos_draws` holds its coming turn's card on its turn and is empty otherwise.
    ///
    /// ```
    /// use arbiter_core::tripletriad::{Match, MatchConfig, Player, Rules, Setup};
    /// let s = Setup::random_ff8(4);
    /// let config = MatchConfig { rules: Rules { three_open: true, ..Rules::default() }, ..MatchConfig::default() };
    /// let m = Match::new(config, s.hands.blue, s.hands.red, 4).unwrap();
    /// let o = m.observation(Player::Blue);
    /// assert_eq!(o.opponent_hand.iter().filter(|c| c.is_some()).count(), 3);
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn observation(&self, player: Player) -> Observation {
        let mut o = self.game.observation(player);
        if self.config.rules.three_open {
            let seen = self.visible[player as usize];
            o.opponent_hand = bits(self.game.pos.hand(player.other()))
                .map(|id| {
                    let shown = seen & (1 << id) != 0 || self.origin[id as usize].0 == player;
                    shown.then(|| self.game.table.cards[id as usize].clone())
                })
                .collect();
        }
        if self.game.next_player() != player {
            o.chaos_draws.clear();
        }
        o
    }

    /// The number of the current round, from 1 (once over: the number of rounds played).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn round_number(&self) -> u32 {
        self.moves.len() as u32
    }

    /// How each finished round ended, in order.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn rounds(&self) -> &[RoundResult] {
        &self.rounds
    }

    /// The moves of every round started, the current one last.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn moves(&self) -> &[Vec<Move>] {
        &self.moves
    }

    /// The five cards `player` brought.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn brought(&self, player: Player) -> &[Card] {
        self.brought.get(player)
    }

    /// Whether the match is over (the trade may still be pending).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The result, once over.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn result(&self) -> Option<MatchResult> {
        self.result
    }

    /// The cards that changed hands, once the trade is settled.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn transfers(&self) -> Option<&[Transfer]> {
        self.trade.as_ref().map(|(_, t)| t.as_slice())
    }

    /// Plays a move of the current round; a drawn round under sudden death starts the next one.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn play(&mut self, mv: Move) -> Result<Captures, MatchError> {
        // A forfeit ends the match in the middle of a round.
        if self.is_over() {
            return Err(MoveError::GameOver.into());
        }
        let captures = self.game.play_explained(mv)?;
        self.moves.last_mut().expect("a round is under way").push(mv);
        if self.game.is_over() {
            self.end_round()?;
        } else {
            draw_chaos(&mut self.game, &mut self.rng);
        }
        Ok(captures)
    }

    /// Ends the match now with `leaver` losing it (they left before the end): the trade then
    /// follows as after a loss, with the colours and scores the board shows now (`diff` takes
    /// at least one card: the leaver lost, whatever the score).
    ///
    /// ```
    /// use arbiter_core::tripletriad::{Match, MatchConfig, Player, Setup, TradeChoice};
    /// let s = Setup::random_ff8(5);
    /// let mut m = Match::new(MatchConfig::default(), s.hands.blue, s.hands.red, 5).unwrap();
    /// m.forfeit(Player::Red).unwrap();
    /// assert_eq!(m.result().unwrap().winner, Some(Player::Blue));
    /// assert_eq!(m.trade_choice().unwrap(), TradeChoice::Pick { chooser: Player::Blue, count: 1 });
    /// assert!(m.forfeit(Player::Blue).is_err()); // over already
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn forfeit(&mut self, leaver: Player) -> Result<(), MatchError> {
        if self.is_over() {
            return Err(MoveError::GameOver.into());
        }
        self.forfeited = Some(leaver);
        self.result = Some(MatchResult {
            winner: Some(leaver.other()),
            scores: [self.game.score(Player::Blue), self.game.score(Player::Red)],
            rounds: self.round_number(),
        });
        Ok(())
    }

    /// The player who left before the end, if one did ([`Match::forfeit`]).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn forfeited(&self) -> Option<Player> {
        self.forfeited
    }

    /// A legal move for a player whose clock ran out. A function of the state alone: it draws
    /// nothing from the match's random stream, so asking for it (once, twice or never) changes
    /// nothing that follows.
    ///
    /// ```
    /// use arbiter_core::tripletriad::{Match, MatchConfig, Setup};
    /// let s = Setup::random_ff8(5);
    /// let m = Match::new(MatchConfig::default(), s.hands.blue, s.hands.red, 5).unwrap();
    /// assert_eq!(m.timeout_move(), m.timeout_move());
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn timeout_move(&self) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        let moves = self.game.legal_moves();
        let placed = self.game.pos.occupied.count_ones() as u64;
        let mut rng = Rng::new(self.rng.state() ^ (self.round_number() as u64) << 32 ^ placed);
        (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize])
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn end_round(&mut self) -> Result<(), MatchError> {
        let scores = [self.game.score(Player::Blue), self.game.score(Player::Red)];
        let winner = self.game.outcome().and_then(|o| o.winner());
        self.rounds.push(RoundResult { winner, scores });
        let played = self.round_number();
        let (mode, limit) = self.config.restarts();
        let limit_reached = limit.is_some_and(|l| played >= l);
        if winner.is_some() || mode == SuddenDeath::Off || limit_reached {
            self.result = Some(MatchResult {
                winner,
                scores,
                rounds: played,
            });
            return Ok(());
        }
        // Sudden death: the ten cards of this round, with their original owners.
        let (mut blue, mut red): (Vec<_>, Vec<_>) = (Vec::new(), Vec::new());
        let mut first = self.first.other();
        match mode {
            SuddenDeath::OwnColours => {
                for (colour, id) in self.colours() {
                    let o = self.origin[id as usize];
                    if colour == Player::Blue { &mut blue } else { &mut red }.push(o);
                }
            }
            SuddenDeath::Shuffle => {
                let mut all: Vec<(Player, u8)> = self.origin.clone();
                // A canonical order before shuffling. The pairs are distinct, so every sort gives
                // this order; ten of them need no `sort_unstable` (7.6 KB of the wasm module).
                for i in 1..all.len() {
                    let mut j = i;
                    while j > 0 && all[j - 1] > all[j] {
                        all.swap(j - 1, j);
                        j -= 1;
                    }
                }
                self.rng.shuffle(&mut all);
                red = all.split_off(5);
                blue = all;
                first = Player::BOTH[self.rng.below(2) as usize];
            }
            SuddenDeath::OriginalHands | SuddenDeath::Off => {
                blue = (0..5).map(|i| (Player::Blue, i)).collect();
                red = (0..5).map(|i| (Player::Red, i)).collect();
            }
        }
        let card = |&(p, i): &(Player, u8)| self.brought.get(p)[i as usize].clone();
        let hands = Hands {
            blue: blue.iter().map(card).collect(),
            red: red.iter().map(card).collect(),
        };
        let start = Self::round(&self.config, hands, first, &mut self.rng, false)?;
        self.game = start.game;
        self.visible = start.visible;
        self.origin = blue.into_iter().chain(red).collect();
        self.first = first;
        self.moves.push(Vec::new());
        Ok(())
    }

    /// Every card of the round with the colour it shows now: its owner on the board, its holder
    /// in hand (as in the score).
    #[cfg_attr(arbiter_size, optimize(size))]
    fn colours(&self) -> impl Iterator<Item = (Player, u8)> + '_ {
        let pos = &self.game.pos;
        let board = bits(pos.occupied).map(move |cell| {
            let colour = if pos.blue & (1 << cell) != 0 {
                Player::Blue
            } else {
                Player::Red
            };
            (colour, pos.card(cell))
        });
        let hands = Player::BOTH
            .into_iter()
            .flat_map(move |p| bits(pos.hand(p)).map(move |id| (p, id)));
        board.chain(hands)
    }

    /// What the trade needs, once the match is over.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn trade_choice(&self) -> Result<TradeChoice, MatchError> {
        let result = self.result.ok_or(MatchError::NotOver)?;
        let Some(chooser) = result.winner else {
            return Ok(TradeChoice::Automatic);
        };
        let won = result.scores[chooser as usize];
        let lost = result.scores[chooser.other() as usize];
        let count = match self.config.trade {
            TradeRule::One => 1,
            TradeRule::Two => 2,
            TradeRule::Three => 3,
            TradeRule::Four => 4,
            TradeRule::Diff(DiffMode::Difference) => won.saturating_sub(lost).max(self.forfeit_minimum()),
            TradeRule::Diff(DiffMode::OverFive) => won.saturating_sub(5).max(self.forfeit_minimum()),
            TradeRule::DirectSwap => return Ok(TradeChoice::Swap { chooser }),
            _ => return Ok(TradeChoice::Automatic),
        };
        Ok(TradeChoice::Pick {
            chooser,
            count: count.min(5) as u8,
        })
    }

    /// The fewest cards a trade by count takes: one once a player left, however the board stood.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn forfeit_minimum(&self) -> u32 {
        u32::from(self.forfeited.is_some())
    }

    /// The picks of a computer that wins the trade ([`Match::trade_choice`]): the loser's
    /// strongest cards by the sum of their ranks (the first of equal sums), or the swap that gains
    /// the most in rank sums (the first of equal gains); none for an automatic trade. What
    /// [`Match::settle_trade`] takes, so that every front end's computer trades alike.
    ///
    /// ```
    /// use arbiter_core::Game;
    /// use arbiter_core::tripletriad::{Card, Match, MatchConfig, TradeRule};
    /// let hand = |r: u8| (0..5).map(|i| Card::new(&format!("{r}{i}"), [r, r, r, 1 + i])).collect::<Vec<_>>();
    /// let config = MatchConfig { trade: TradeRule::Two, ..MatchConfig::default() };
    /// let mut m = Match::new(config, hand(9), hand(1), 7).unwrap();
    /// while m.result().is_none() {
    ///     let mv = m.game().legal_moves()[0];
    ///     m.play(mv).unwrap();
    /// }
    /// let picks = m.computer_picks().unwrap();
    /// assert!(picks.is_empty() || picks == [4, 3], "{picks:?}"); // the two strongest
    /// m.settle_trade(&picks).unwrap();
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn computer_picks(&self) -> Result<Vec<u8>, MatchError> {
        let strongest_first = |score: &dyn Fn(usize) -> i64| {
            let mut idx: Vec<u8> = (0..5).collect();
            idx.sort_by_key(|&i| core::cmp::Reverse(score(i as usize)));
            idx
        };
        Ok(match self.trade_choice()? {
            TradeChoice::Automatic => Vec::new(),
            TradeChoice::Pick { chooser, count } => {
                let loser = self.brought(chooser.other());
                let mut idx = strongest_first(&|i| i64::from(loser[i].rank_sum()));
                idx.truncate(count as usize);
                idx
            }
            TradeChoice::Swap { chooser } => {
                let (loser, own) = (self.brought(chooser.other()), self.brought(chooser));
                let gain = |i: usize| i64::from(loser[i].rank_sum()) - i64::from(own[i].rank_sum());
                strongest_first(&gain)[..1].to_vec()
            }
        })
    }

    /// Settles the trade with the winner's picks (indices among the loser's five; none for an
    /// automatic trade) and returns the cards that change hands.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn settle_trade(&mut self, picks: &[u8]) -> Result<Vec<Transfer>, MatchError> {
        if self.trade.is_some() {
            return Err(MatchError::AlreadySettled);
        }
        let choice = self.trade_choice()?;
        let transfer = |from: Player, index: u8| Transfer {
            card: self.brought.get(from)[index as usize].clone(),
            from,
            to: from.other(),
            index,
        };
        let out = match choice {
            TradeChoice::Pick { chooser, count } => {
                let distinct = picks.iter().enumerate().all(|(i, p)| !picks[..i].contains(p));
                if picks.len() != count as usize || !distinct || picks.iter().any(|&p| p >= 5) {
                    return Err(MatchError::BadPicks(
                        "pick exactly the number of distinct indices (0 to 4) the trade allows",
                    ));
                }
                picks.iter().map(|&i| transfer(chooser.other(), i)).collect()
            }
            TradeChoice::Swap { chooser } => match picks {
                [i] if *i < 5 => alloc::vec![transfer(chooser.other(), *i), transfer(chooser, *i)],
                _ => return Err(MatchError::BadPicks("direct_swap takes one index from 0 to 4")),
            },
            TradeChoice::Automatic => {
                if !picks.is_empty() {
                    return Err(MatchError::BadPicks("this trade takes no picks"));
                }
                self.automatic_transfers()
            }
        };
        self.trade = Some((picks.to_vec(), out.clone()));
        Ok(out)
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn automatic_transfers(&mut self) -> Vec<Transfer> {
        let winner = self.result.and_then(|r| r.winner);
        let transfer = |brought: &Hands, from: Player, index: u8| Transfer {
            card: brought.get(from)[index as usize].clone(),
            from,
            to: from.other(),
            index,
        };
        match (self.config.trade, winner) {
            (TradeRule::Direct, _) => self
                .colours()
                .filter_map(|(colour, id)| {
                    let (owner, index) = self.origin[id as usize];
                    (owner != colour).then(|| transfer(&self.brought, owner, index))
                })
                .collect(),
            (TradeRule::All, Some(w)) => (0..5).map(|i| transfer(&self.brought, w.other(), i)).collect(),
            (TradeRule::Random, Some(w)) => {
                let i = self.rng.below(5) as u8;
                alloc::vec![transfer(&self.brought, w.other(), i)]
            }
            _ => Vec::new(),
        }
    }
}

/// A match as saved: what it started from and what was played.
#[derive(Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
struct MatchRecord {
    config: MatchConfig,
    blue: Vec<Card>,
    red: Vec<Card>,
    seed: u64,
    /// The moves of each round started; absent, a match about to start (one round, no move).
    rounds: Vec<Vec<Move>>,
    /// The player who left before the end ([`Match::forfeit`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    forfeited: Option<Player>,
    /// The trade's picks, once settled.
    picks: Option<Vec<u8>>,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(MatchRecord, deny_unknown = true;
    config: MatchConfig => serde::Deserialize::deserialize;
    blue: Vec<Card> => serde::Deserialize::deserialize;
    red: Vec<Card> => serde::Deserialize::deserialize;
    seed: u64 => crate::u64_from_number_or_text;
    rounds: Vec<Vec<Move>> => serde::Deserialize::deserialize, default = alloc::vec![Vec::new()];
    forfeited: Option<Player> => serde::Deserialize::deserialize, default;
    picks: Option<Vec<u8>> => serde::Deserialize::deserialize, default;
);

impl From<Match> for MatchRecord {
    #[cfg_attr(arbiter_size, optimize(size))]
    fn from(m: Match) -> MatchRecord {
        MatchRecord {
            config: m.config,
            blue: m.brought.blue,
            red: m.brought.red,
            seed: m.seed,
            rounds: m.moves,
            forfeited: m.forfeited,
            picks: m.trade.map(|(p, _)| p),
        }
    }
}

impl TryFrom<MatchRecord> for Match {
    type Error = MatchError;

    /// Replays a saved match: every move must fall in the round it was saved in.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn try_from(s: MatchRecord) -> Result<Match, MatchError> {
        let mut m = Match::new(s.config, s.blue, s.red, s.seed)?;
        let last = s.rounds.len().checked_sub(1).ok_or(MatchError::Saved("no round"))?;
        for (n, round) in s.rounds.iter().enumerate() {
            for &mv in round {
                if m.round_number() as usize != n + 1 {
                    return Err(MatchError::Saved("a round holds moves after it ended"));
                }
                m.play(mv)?;
            }
            if n < last && m.round_number() as usize != n + 2 {
                return Err(MatchError::Saved("a round ends before its board is full"));
            }
        }
        if m.round_number() as usize != s.rounds.len() {
            return Err(MatchError::Saved("an empty round after the last one"));
        }
        if let Some(leaver) = s.forfeited {
            m.forfeit(leaver)?;
        }
        if let Some(picks) = s.picks {
            m.settle_trade(&picks)?;
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(prefix: &str, rank: u8) -> Vec<Card> {
        (0..5)
            .map(|i| Card::new(&alloc::format!("{prefix}{i}"), [rank; 4]))
            .collect()
    }

    fn play_out(m: &mut Match) {
        while !m.is_over() {
            let mv = m.game().legal_moves()[0];
            m.play(mv).unwrap();
        }
    }

    #[test]
    fn equal_cards_draw_and_sudden_death_stops_at_the_round_limit() {
        for mode in [
            SuddenDeath::OwnColours,
            SuddenDeath::Shuffle,
            SuddenDeath::OriginalHands,
        ] {
            let config = MatchConfig {
                sudden_death: mode,
                round_limit: Some(3),
                first: Some(Player::Blue),
                ..MatchConfig::default()
            };
            let mut m = Match::new(config, cards("b", 1), cards("r", 1), 9).unwrap();
            play_out(&mut m);
            let r = m.result().unwrap();
            assert_eq!((r.winner, r.rounds, r.scores), (None, 3, [5, 5]), "{mode:?}");
            assert_eq!(m.trade_choice().unwrap(), TradeChoice::Automatic);
            assert!(m.settle_trade(&[]).unwrap().is_empty());
            assert_eq!(m.settle_trade(&[]), Err(MatchError::AlreadySettled));
        }
    }

    #[test]
    fn without_sudden_death_a_draw_ends_the_match() {
        let mut m = Match::new(MatchConfig::default(), cards("b", 1), cards("r", 1), 1).unwrap();
        play_out(&mut m);
        assert_eq!(m.result().unwrap().rounds, 1);
    }

    #[test]
    fn own_colours_alternates_the_first_player() {
        let config = MatchConfig {
            sudden_death: SuddenDeath::OwnColours,
            round_limit: Some(2),
            first: Some(Player::Red),
            ..MatchConfig::default()
        };
        let mut m = Match::new(config, cards("b", 1), cards("r", 1), 1).unwrap();
        assert_eq!(m.game().next_player(), Player::Red);
        for _ in 0..9 {
            let mv = m.game().legal_moves()[0];
            m.play(mv).unwrap();
        }
        assert_eq!(m.round_number(), 2);
        assert_eq!(m.game().next_player(), Player::Blue);
        // Red moved first and placed five: those five red cards are red's new hand.
        assert!(m.game().hand(Player::Red).all(|c| c.name.starts_with('r')));
    }

    #[test]
    fn trades_follow_the_rule() {
        // Blue's 9s take every red card they touch.
        let strong = || cards("b", 9);
        let weak = || cards("r", 1);
        let won = |trade| {
            let config = MatchConfig {
                trade,
                first: Some(Player::Red),
                ..MatchConfig::default()
            };
            let mut m = Match::new(config, strong(), weak(), 3).unwrap();
            play_out(&mut m);
            assert_eq!(m.result().unwrap().winner, Some(Player::Blue));
            m
        };
        let mut m = won(TradeRule::Two);
        assert_eq!(
            m.trade_choice().unwrap(),
            TradeChoice::Pick {
                chooser: Player::Blue,
                count: 2
            }
        );
        assert!(m.settle_trade(&[1, 1]).is_err());
        assert!(m.settle_trade(&[1, 7]).is_err());
        let t = m.settle_trade(&[1, 3]).unwrap();
        assert_eq!(
            t.iter().map(|t| (t.from, t.index)).collect::<Vec<_>>(),
            [(Player::Red, 1), (Player::Red, 3)]
        );

        let mut m = won(TradeRule::All);
        assert_eq!(m.settle_trade(&[]).unwrap().len(), 5);

        let mut m = won(TradeRule::Direct);
        let t = m.settle_trade(&[]).unwrap();
        let red_on_blue = (0..9)
            .filter(|&c| matches!(m.game().cell(c), Some((card, Player::Blue)) if card.name.starts_with('r')))
            .count();
        assert_eq!(t.len(), red_on_blue);
        assert!(t.iter().all(|t| t.from == Player::Red));

        let mut m = won(TradeRule::DirectSwap);
        assert_eq!(m.trade_choice().unwrap(), TradeChoice::Swap { chooser: Player::Blue });
        let t = m.settle_trade(&[2]).unwrap();
        assert_eq!(
            t.iter().map(|t| (t.from, t.index)).collect::<Vec<_>>(),
            [(Player::Red, 2), (Player::Blue, 2)]
        );

        let [b, r] = won(TradeRule::One).result().unwrap().scores;
        let m = won(TradeRule::Diff(DiffMode::Difference));
        assert_eq!(
            m.trade_choice().unwrap(),
            TradeChoice::Pick {
                chooser: Player::Blue,
                count: (b - r).min(5) as u8
            }
        );
        let m = won(TradeRule::Diff(DiffMode::OverFive));
        assert_eq!(
            m.trade_choice().unwrap(),
            TradeChoice::Pick {
                chooser: Player::Blue,
                count: (b - 5) as u8
            }
        );

        let draws: Vec<u8> = (0..8)
            .map(|seed| {
                let config = MatchConfig {
                    trade: TradeRule::Random,
                    first: Some(Player::Red),
                    ..MatchConfig::default()
                };
                let mut m = Match::new(config, strong(), weak(), seed).unwrap();
                play_out(&mut m);
                m.settle_trade(&[]).unwrap()[0].index
            })
            .collect();
        assert!(
            draws.iter().any(|&i| i != draws[0]),
            "random trade ignores the seed: {draws:?}"
        );

        assert!(won(TradeRule::Training).settle_trade(&[]).unwrap().is_empty());
    }

    #[test]
    fn bad_hands_and_early_trades_are_refused() {
        assert!(matches!(
            Match::new(MatchConfig::default(), cards("b", 1)[..4].to_vec(), cards("r", 1), 0),
            Err(MatchError::HandSize { .. })
        ));
        let mut m = Match::new(MatchConfig::default(), cards("b", 1), cards("r", 1), 0).unwrap();
        assert_eq!(m.trade_choice(), Err(MatchError::NotOver));
        assert_eq!(m.settle_trade(&[]), Err(MatchError::NotOver));
        assert!(m.timeout_move().is_some());
        let before = m.game().clone();
        assert!(m.play(Move { card: 7, cell: 0 }).is_err());
        assert_eq!(m.game(), &before);
    }

    #[test]
    fn the_same_seed_replays_the_same_match() {
        let config = MatchConfig {
            sudden_death: SuddenDeath::Shuffle,
            round_limit: Some(4),
            rules: Rules {
                elemental: true,
                ..Rules::default()
            },
            ..MatchConfig::default()
        };
        let run = || {
            let mut m = Match::new(config.clone(), cards("b", 1), cards("r", 1), 77).unwrap();
            let mut moves = Vec::new();
            while !m.is_over() {
                let mv = m.timeout_move().unwrap();
                moves.push(mv);
                m.play(mv).unwrap();
            }
            (moves, m.game().setup())
        };
        assert_eq!(run(), run());
    }

    fn mixed_hands() -> (Vec<Card>, Vec<Card>) {
        let s = Setup::random_ff8(21);
        (s.hands.blue, s.hands.red)
    }

    #[test]
    fn configuration_errors_are_refused() {
        let (b, r) = mixed_hands();
        let bad = [
            MatchConfig {
                round_limit: Some(0),
                ..MatchConfig::default()
            },
            MatchConfig {
                time: Some(14),
                ..MatchConfig::default()
            },
            MatchConfig {
                time: Some(301),
                ..MatchConfig::default()
            },
            MatchConfig {
                trade: TradeRule::All,
                owned: Some(Owned { blue: 11, red: 10 }),
                ..MatchConfig::default()
            },
            MatchConfig {
                deck_level_limit: Some(4),
                ..MatchConfig::default()
            },
        ];
        for config in bad {
            assert!(
                Match::new(config.clone(), b.clone(), r.clone(), 1).is_err(),
                "{config:?}"
            );
        }
        let fine = MatchConfig {
            trade: TradeRule::All,
            owned: Some(Owned { blue: 11, red: 11 }),
            time: Some(15),
            round_limit: Some(1),
            ..MatchConfig::default()
        };
        assert!(Match::new(fine, b, r, 1).is_ok());
    }

    #[test]
    fn asking_for_a_timeout_move_changes_nothing() {
        let config = MatchConfig {
            sudden_death: SuddenDeath::Shuffle,
            round_limit: Some(4),
            trade: TradeRule::Random,
            rules: Rules {
                elemental: true,
                ..Rules::default()
            },
            ..MatchConfig::default()
        };
        let run = |ask: bool| {
            let mut m = Match::new(config.clone(), cards("b", 1), cards("r", 1), 77).unwrap();
            let mut plain = Match::new(config.clone(), cards("b", 1), cards("r", 1), 77).unwrap();
            while !plain.is_over() {
                if ask {
                    assert_eq!(m.timeout_move(), m.timeout_move());
                }
                let mv = plain.game().legal_moves()[0];
                plain.play(mv).unwrap();
                m.play(mv).unwrap();
            }
            let _ = m.settle_trade(&[]);
            (m.game().setup(), m.transfers().map(<[Transfer]>::to_vec))
        };
        assert_eq!(run(true), run(false));
    }

    /// A match under FFXIV flags, `b0`..`b4` against `r0`..`r4`.
    fn ffxiv(rules: Rules, blue: u8, red: u8, seed: u64) -> Match {
        let config = MatchConfig {
            rules,
            first: Some(Player::Blue),
            ..MatchConfig::default()
        };
        Match::new(config, cards("b", blue), cards("r", red), seed).unwrap()
    }

    #[test]
    fn ffxiv_sudden_death_restarts_with_each_colour_and_ends_drawn_after_five_rounds() {
        let rules = Rules {
            sudden_death: true,
            ..Rules::default()
        };
        let mut m = ffxiv(rules, 1, 1, 2);
        for _ in 0..9 {
            let mv = m.game().legal_moves()[0];
            m.play(mv).unwrap();
        }
        // Red held the unplayed card: it moves first, with its four red board cards and that one.
        assert_eq!(m.round_number(), 2);
        assert_eq!(m.game().next_player(), Player::Red);
        let red: Vec<&str> = m.game().hand(Player::Red).map(|c| c.name.as_str()).collect();
        assert_eq!(red, ["r0", "r1", "r2", "r3", "r4"]);
        play_out(&mut m);
        let r = m.result().unwrap();
        assert_eq!((r.winner, r.rounds), (None, FFXIV_SUDDEN_DEATH_ROUNDS));
        // A lower limit still applies; a higher one does not lift the cap.
        for (limit, rounds) in [(Some(2), 2), (Some(9), 5)] {
            let config = MatchConfig {
                rules,
                round_limit: limit,
                ..MatchConfig::default()
            };
            let mut m = Match::new(config, cards("b", 1), cards("r", 1), 2).unwrap();
            play_out(&mut m);
            assert_eq!(m.result().unwrap().rounds, rounds, "{limit:?}");
        }
        for mode in [SuddenDeath::Shuffle, SuddenDeath::OriginalHands] {
            let config = MatchConfig {
                rules,
                sudden_death: mode,
                ..MatchConfig::default()
            };
            assert_eq!(
                Match::new(config, cards("b", 1), cards("r", 1), 2).unwrap_err(),
                MatchError::SuddenDeathRule(mode)
            );
        }
    }

    #[test]
    fn swap_exchanges_one_card_drawn_from_the_seed_and_cards_keep_their_owners() {
        let rules = Rules {
            swap: true,
            ..Rules::default()
        };
        let mut slots = Vec::new();
        for seed in 0..24 {
            let m = ffxiv(rules, 9, 1, seed);
            let slot = |p: Player, prefix: char| {
                let held: Vec<usize> = m
                    .game()
                    .hand(p)
                    .enumerate()
                    .filter(|(_, c)| c.name.starts_with(prefix))
                    .map(|(i, _)| i)
                    .collect();
                assert_eq!(held.len(), 1, "seed {seed}");
                held[0]
            };
            let (i, j) = (slot(Player::Blue, 'r'), slot(Player::Red, 'b'));
            // Each card took the other's slot: blue's i-th went to red's j-th place and back.
            assert_eq!(m.game().hand(Player::Blue).nth(i).unwrap().name, alloc::format!("r{j}"));
            assert_eq!(m.game().hand(Player::Red).nth(j).unwrap().name, alloc::format!("b{i}"));
            assert_eq!(m.game(), ffxiv(rules, 9, 1, seed).game(), "the seed replays its swap");
            slots.push((i, j));
            // The direct trade moves the cards by their owners, not by who played them.
            let config = MatchConfig {
                rules,
                trade: TradeRule::Direct,
                ..MatchConfig::default()
            };
            let mut m = Match::new(config, cards("b", 9), cards("r", 1), seed).unwrap();
            play_out(&mut m);
            let t = m.settle_trade(&[]).unwrap();
            assert!(t
                .iter()
                .all(|t| t.card.name.starts_with(t.from.name().chars().next().unwrap())));
            let turned = m
                .colours()
                .filter(|&(colour, id)| m.origin[id as usize].0 != colour)
                .count();
            assert_eq!(t.len(), turned, "seed {seed}");
        }
        slots.sort_unstable();
        slots.dedup();
        assert!(slots.len() > 5, "swaps ignore the seed: {slots:?}");
        // Swap happens once: a restart plays the colours as they are.
        let both = Rules {
            swap: true,
            sudden_death: true,
            ..Rules::default()
        };
        let mut m = ffxiv(both, 1, 1, 3);
        let names =
            |m: &Match| -> Vec<alloc::string::String> { m.game().hand(Player::Red).map(|c| c.name.clone()).collect() };
        let dealt = names(&m);
        // Nothing is captured and red plays its hand in order onto the cells in order.
        for _ in 0..9 {
            let mv = m.game().legal_moves()[0];
            m.play(mv).unwrap();
        }
        assert_eq!((m.round_number(), names(&m)), (2, dealt));
    }

    #[test]
    fn chaos_draws_each_turn_from_the_seed_and_tells_the_mover_only() {
        let rules = Rules {
            chaos: true,
            ..Rules::default()
        };
        let mut draws = Vec::new();
        for seed in 0..6 {
            let mut m = ffxiv(rules, 3, 3, seed);
            let mut seen = Vec::new();
            while !m.is_over() {
                let mover = m.game().next_player();
                let o = m.observation(mover);
                let &[d] = o.chaos_draws.as_slice() else {
                    panic!("no draw for {mover}: {o:?}")
                };
                assert!((d as usize) < m.game().hand_len(mover));
                assert!(m.observation(mover.other()).chaos_draws.is_empty());
                let moves = m.game().legal_moves();
                assert!(moves.iter().all(|mv| mv.card == d), "{moves:?}");
                let other = Move {
                    card: (d + 1) % m.game().hand_len(mover) as u8,
                    cell: moves[0].cell,
                };
                if other.card != d {
                    assert!(matches!(
                        m.clone().play(other),
                        Err(MatchError::Move(MoveError::NotPlayable { .. }))
                    ));
                }
                seen.push(d);
                let mv = moves[moves.len() / 2];
                m.play(mv).unwrap();
            }
            assert_eq!(seen.len(), 9);
            draws.push(seen);
        }
        draws.dedup();
        assert!(draws.len() > 1, "chaos ignores the seed");
    }

    #[test]
    fn order_holds_through_the_match() {
        let rules = Rules {
            order: true,
            sudden_death: true,
            ..Rules::default()
        };
        let mut m = ffxiv(rules, 1, 1, 5);
        while !m.is_over() {
            let moves = m.game().legal_moves();
            assert!(moves.iter().all(|mv| mv.card == 0), "{moves:?}");
            if m.game().hand_len(m.game().next_player()) > 1 {
                let second = Move { card: 1, ..moves[0] };
                assert!(m.clone().play(second).is_err());
            }
            m.play(moves[moves.len() - 1]).unwrap();
        }
        assert_eq!(m.result().unwrap().rounds, FFXIV_SUDDEN_DEATH_ROUNDS);
    }

    /// The faces of `player`'s view of the opponent's hand: the names shown, `None` for hidden.
    fn shown(m: &Match, player: Player) -> Vec<Option<alloc::string::String>> {
        let o = m.observation(player);
        o.opponent_hand.into_iter().map(|c| c.map(|c| c.name)).collect()
    }

    #[test]
    fn three_open_shows_three_cards_drawn_from_the_seed_and_all_open_shows_five() {
        let three = Rules {
            three_open: true,
            ..Rules::default()
        };
        let mut sets = Vec::new();
        for seed in 0..12 {
            let mut m = ffxiv(three, 3, 3, seed);
            for p in Player::BOTH {
                let faces = shown(&m, p);
                assert_eq!(faces.iter().flatten().count(), 3, "seed {seed}");
                sets.push(faces);
            }
            // What stays in hand keeps its face or its back until played.
            let before = shown(&m, Player::Red);
            let mv = m.game().legal_moves()[0];
            m.play(mv).unwrap();
            let mut after = before.clone();
            after.remove(mv.card as usize);
            assert_eq!(shown(&m, Player::Red), after);
        }
        sets.sort_unstable();
        sets.dedup();
        assert!(sets.len() > 3, "three open ignores the seed");
        let all = Rules {
            all_open: true,
            ..Rules::default()
        };
        let m = ffxiv(all, 3, 3, 1);
        assert!(Player::BOTH.iter().all(|&p| shown(&m, p).iter().all(Option::is_some)));
        // Under Swap, the card a player gave shows in the opponent's hand.
        let swapped = Rules {
            three_open: true,
            swap: true,
            ..Rules::default()
        };
        for seed in 0..12 {
            let m = ffxiv(swapped, 3, 3, seed);
            let faces = shown(&m, Player::Blue);
            let given = m
                .game()
                .hand(Player::Red)
                .position(|c| c.name.starts_with('b'))
                .unwrap();
            assert!(faces[given].is_some(), "seed {seed}");
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn no_byte_of_a_hidden_card_reaches_the_observation() {
        let rules = Rules {
            three_open: true,
            chaos: true,
            swap: true,
            sudden_death: true,
            ..Rules::default()
        };
        for seed in 0..16 {
            let mut m = ffxiv(rules, 3, 3, seed);
            while !m.is_over() {
                for p in Player::BOTH {
                    let o = m.observation(p);
                    let json = serde_json::to_string(&o).unwrap();
                    for (c, face) in m.game().hand(p.other()).zip(&o.opponent_hand) {
                        let named = json.contains(&alloc::format!("\"{}\"", c.name));
                        assert_eq!(named, face.is_some(), "seed {seed}: {} seen by {p}: {json}", c.name);
                    }
                }
                let mv = m.timeout_move().unwrap();
                m.play(mv).unwrap();
            }
        }
    }

    #[test]
    fn the_same_seed_and_moves_replay_the_same_ffxiv_match() {
        let rules = Rules {
            three_open: true,
            chaos: true,
            swap: true,
            sudden_death: true,
            ..Rules::default()
        };
        let run = |seed| {
            let mut m = ffxiv(rules, 3, 3, seed);
            let mut seen = Vec::new();
            while !m.is_over() {
                seen.push(Player::BOTH.map(|p| m.observation(p)));
                let mv = m.timeout_move().unwrap();
                m.play(mv).unwrap();
            }
            (seen, m.rounds().to_vec())
        };
        assert_eq!(run(8), run(8));
        assert_ne!(run(8), run(9));
    }

    #[cfg(feature = "serde")]
    mod saving {
        use super::*;

        fn reload(m: &Match) -> Match {
            let text = serde_json::to_string(m).unwrap();
            serde_json::from_str(&text).unwrap()
        }

        /// Plays both to the end with the same moves and settles with the same picks.
        fn finish(m: &mut Match) -> (Vec<RoundResult>, Vec<Transfer>) {
            while !m.is_over() {
                let mv = m.game().legal_moves()[m.game().legal_moves().len() / 2];
                m.play(mv).unwrap();
            }
            let picks: Vec<u8> = match m.trade_choice().unwrap() {
                TradeChoice::Pick { count, .. } => (0..count).collect(),
                TradeChoice::Swap { .. } => alloc::vec![1],
                TradeChoice::Automatic => Vec::new(),
            };
            (m.rounds().to_vec(), m.settle_trade(&picks).unwrap())
        }

        #[test]
        fn a_forfeit_ends_the_match_and_survives_a_reload() {
            let config = MatchConfig {
                trade: TradeRule::Diff(DiffMode::Difference),
                first: Some(Player::Blue),
                ..MatchConfig::default()
            };
            // Blue leaves at 5-5, one move in: red takes one card though the score is level.
            let mut m = Match::new(config, cards("b", 9), cards("r", 1), 3).unwrap();
            let mv = m.game().legal_moves()[0];
            m.play(mv).unwrap();
            m.forfeit(Player::Blue).unwrap();
            let r = m.result().unwrap();
            assert_eq!((r.winner, r.scores), (Some(Player::Red), [5, 5]));
            let back = reload(&m);
            assert_eq!((back.forfeited(), back.result()), (Some(Player::Blue), Some(r)));
            assert_eq!(
                back.trade_choice().unwrap(),
                TradeChoice::Pick {
                    chooser: Player::Red,
                    count: 1
                }
            );
            let next = m.game().legal_moves()[0];
            assert_eq!(m.clone().play(next), Err(MoveError::GameOver.into()));
            assert_eq!(m.timeout_move(), None);
            let t = m.settle_trade(&[4]).unwrap();
            assert_eq!((t[0].from, t[0].to, t[0].index), (Player::Blue, Player::Red, 4));
            assert_eq!(reload(&m).transfers(), Some(t.as_slice()));
        }

        #[test]
        fn a_seed_beyond_2_pow_53_reads_back_from_a_decimal_string() {
            let m = Match::new(MatchConfig::default(), cards("b", 3), cards("r", 3), u64::MAX - 1).unwrap();
            let mut json = serde_json::to_value(&m).unwrap();
            json["seed"] = serde_json::json!(alloc::format!("{}", u64::MAX - 1));
            let back: Match = serde_json::from_value(json).unwrap();
            assert_eq!(back.seed(), u64::MAX - 1);
            assert_eq!(back.game(), m.game());
        }

        #[test]
        fn a_match_saved_at_any_moment_resumes_exactly() {
            let mut most_rounds = 0;
            for (sudden_death, trade) in [
                (SuddenDeath::OwnColours, TradeRule::Direct),
                (SuddenDeath::Shuffle, TradeRule::Random),
                (SuddenDeath::OriginalHands, TradeRule::Diff(DiffMode::OverFive)),
            ] {
                let config = MatchConfig {
                    sudden_death,
                    trade,
                    round_limit: Some(3),
                    rules: Rules {
                        elemental: true,
                        ..Rules::default()
                    },
                    ..MatchConfig::default()
                };
                // Equal ranks draw every round, so sudden death deals again.
                let mut m = Match::new(config, cards("b", 3), cards("r", 3), 5).unwrap();
                let mut step = 0;
                loop {
                    let mut copy = reload(&m);
                    assert_eq!(copy.game(), m.game(), "step {step}");
                    assert_eq!(copy.round_number(), m.round_number());
                    let mut original = m.clone();
                    assert_eq!(finish(&mut copy), finish(&mut original), "{sudden_death:?} step {step}");
                    if m.is_over() {
                        break;
                    }
                    let mv = m.game().legal_moves()[0];
                    m.play(mv).unwrap();
                    step += 1;
                }
                most_rounds = most_rounds.max(m.round_number());
                // MatchRecord after the trade, it still knows the transfers.
                let mut done = m.clone();
                let settled = finish(&mut done).1;
                assert_eq!(reload(&done).transfers(), Some(&settled[..]));
            }
            assert!(most_rounds > 1, "sudden death never ran");
        }

        #[test]
        fn an_ffxiv_match_reloads_with_the_same_draws() {
            let rules = Rules {
                three_open: true,
                chaos: true,
                swap: true,
                sudden_death: true,
                ..Rules::default()
            };
            let mut m = ffxiv(rules, 3, 3, 12);
            while !m.is_over() {
                let back = reload(&m);
                assert_eq!(back.game(), m.game());
                for p in Player::BOTH {
                    assert_eq!(back.observation(p), m.observation(p));
                }
                let mv = m.timeout_move().unwrap();
                m.play(mv).unwrap();
            }
            assert!(m.round_number() > 1, "sudden death never ran");
        }

        #[test]
        fn a_direct_trade_after_a_mid_round_save_transfers_the_brought_cards() {
            let (b, r) = mixed_hands();
            let config = MatchConfig {
                trade: TradeRule::Direct,
                first: Some(Player::Blue),
                ..MatchConfig::default()
            };
            let mut m = Match::new(config, b, r, 3).unwrap();
            m.play(Move { card: 0, cell: 0 }).unwrap();
            m.play(Move { card: 0, cell: 1 }).unwrap();
            let mut loaded = reload(&m);
            assert_eq!(finish(&mut loaded), finish(&mut m));
        }

        #[test]
        fn a_corrupt_save_is_an_error_never_a_panic() {
            let (b, r) = mixed_hands();
            let mut m = Match::new(MatchConfig::default(), b, r, 3).unwrap();
            m.play(Move { card: 0, cell: 0 }).unwrap();
            let good: serde_json::Value = serde_json::to_value(&m).unwrap();
            let mut bad = Vec::new();
            let mut four = good.clone();
            four["red"].as_array_mut().unwrap().pop();
            bad.push(four);
            let mut extra_round = good.clone();
            extra_round["rounds"]
                .as_array_mut()
                .unwrap()
                .push(serde_json::json!([]));
            bad.push(extra_round);
            let mut no_round = good.clone();
            no_round["rounds"] = serde_json::json!([]);
            bad.push(no_round);
            let mut overfull = good.clone();
            let moves: Vec<_> = (0..9).map(|c| serde_json::json!({"card": 0, "cell": c})).collect();
            overfull["rounds"] = serde_json::json!([moves.clone(), moves]);
            bad.push(overfull);
            let mut early_picks = good.clone();
            early_picks["picks"] = serde_json::json!([0]);
            bad.push(early_picks);
            let mut limit0 = good.clone();
            limit0["config"]["round_limit"] = serde_json::json!(0);
            bad.push(limit0);
            for v in bad {
                assert!(serde_json::from_value::<Match>(v.clone()).is_err(), "{v}");
            }
            assert!(serde_json::from_value::<Match>(good).is_ok());
        }

        #[test]
        fn trade_rules_have_one_spelling() {
            for rule in TradeRule::ALL {
                let json = serde_json::to_string(&rule).unwrap();
                assert_eq!(json, alloc::format!("\"{}\"", rule.name()));
                assert_eq!(serde_json::from_str::<TradeRule>(&json).unwrap(), rule);
                assert_eq!(rule.name().parse::<TradeRule>().unwrap(), rule);
            }
        }
    }
}

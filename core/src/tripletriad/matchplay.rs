//! A match: one or more rounds (sudden death replays draws), then the trade.

use alloc::vec::Vec;

use super::board::bits;
use super::card::{Card, Element};
use super::resolve::Captures;
use super::rules::{Rules, Wall};
use super::setup::{Hands, Setup, SetupError};
use super::state::{Move, MoveError, Player, TripleTriad};
use super::trade::{DiffMode, TradeRule};
use crate::{Game, Rng};

/// What happens when a round is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
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

/// Everything that configures a match.
///
/// ```
/// use arbiter_core::tripletriad::{MatchConfig, SuddenDeath};
/// let c = MatchConfig { sudden_death: SuddenDeath::OwnColours, round_limit: Some(5), ..MatchConfig::default() };
/// assert_eq!(c.trade.name(), "one");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct MatchConfig {
    /// Placement rules of every round.
    pub rules: Rules,
    /// Cell elements (used when `rules.elemental` is on).
    pub elements: ElementLayout,
    /// Power-wall labels.
    pub walls: Vec<Wall>,
    /// What a drawn round leads to.
    pub sudden_death: SuddenDeath,
    /// At most this many rounds in all (`None`: unlimited).
    pub round_limit: Option<u32>,
    /// What the winner takes.
    pub trade: TradeRule,
    /// Who moves first in the first round (`None`: drawn from the seed).
    pub first: Option<Player>,
    /// Seconds per move (15..=300) when the host keeps a clock; informational for the engine.
    pub time: Option<u32>,
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
    /// The hands or configuration are invalid.
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
pub struct Match {
    config: MatchConfig,
    /// The five cards each player brought, by original owner.
    brought: Hands,
    /// For the current round, card id -> (original owner, index among the five brought).
    origin: Vec<(Player, u8)>,
    game: TripleTriad,
    first: Player,
    rounds: u32,
    rng: Rng,
    result: Option<MatchResult>,
    settled: bool,
}

impl Match {
    /// Starts a match; `seed` drives every random choice (first player, elements, shuffles, trade).
    pub fn new(config: MatchConfig, blue: Vec<Card>, red: Vec<Card>, seed: u64) -> Result<Match, MatchError> {
        for (player, hand) in [(Player::Blue, &blue), (Player::Red, &red)] {
            if hand.len() != 5 {
                return Err(MatchError::HandSize {
                    player,
                    count: hand.len(),
                });
            }
        }
        let mut rng = Rng::new(seed);
        let first = config.first.unwrap_or_else(|| Player::BOTH[rng.below(2) as usize]);
        let brought = Hands { blue, red };
        let origin = (0..10).map(|i| (Player::BOTH[i / 5], (i % 5) as u8)).collect();
        let game = Self::round(&config, &brought, first, &mut rng)?;
        Ok(Match {
            config,
            brought,
            origin,
            game,
            first,
            rounds: 1,
            rng,
            result: None,
            settled: false,
        })
    }

    fn round(config: &MatchConfig, hands: &Hands, first: Player, rng: &mut Rng) -> Result<TripleTriad, SetupError> {
        let mut setup = Setup {
            rules: config.rules,
            walls: config.walls.clone(),
            hands: hands.clone(),
            to_move: first,
            ..Setup::default()
        };
        match config.elements {
            ElementLayout::Given(e) => setup.elements = e,
            ElementLayout::Random if config.rules.elemental => setup.draw_elements(rng),
            ElementLayout::Random => {}
        }
        TripleTriad::new(&setup)
    }

    /// The configuration.
    pub fn config(&self) -> &MatchConfig {
        &self.config
    }

    /// The round being played (or the last one).
    pub fn game(&self) -> &TripleTriad {
        &self.game
    }

    /// The number of the current round, from 1.
    pub fn round_number(&self) -> u32 {
        self.rounds
    }

    /// The five cards `player` brought.
    pub fn brought(&self, player: Player) -> &[Card] {
        self.brought.get(player)
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The result, once over.
    pub fn result(&self) -> Option<MatchResult> {
        self.result
    }

    /// Plays a move of the current round; a drawn round under sudden death starts the next one.
    pub fn play(&mut self, mv: Move) -> Result<Captures, MatchError> {
        let captures = self.game.play_explained(mv)?;
        if self.game.is_over() {
            self.end_round()?;
        }
        Ok(captures)
    }

    /// A legal move for a player whose clock ran out, drawn from the match's seed.
    pub fn timeout_move(&mut self) -> Option<Move> {
        let moves = self.game.legal_moves();
        (!moves.is_empty()).then(|| moves[self.rng.below(moves.len() as u64) as usize])
    }

    fn end_round(&mut self) -> Result<(), MatchError> {
        let scores = [self.game.score(Player::Blue), self.game.score(Player::Red)];
        let winner = self.game.outcome().and_then(|o| o.winner());
        let limit_reached = self.config.round_limit.is_some_and(|l| self.rounds >= l);
        if winner.is_some() || self.config.sudden_death == SuddenDeath::Off || limit_reached {
            self.result = Some(MatchResult {
                winner,
                scores,
                rounds: self.rounds,
            });
            return Ok(());
        }
        // Sudden death: the ten cards of this round, with their original owners.
        let pos = &self.game.pos;
        let mut held: Vec<(Player, u8)> = Vec::new(); // (colour now, card id)
        for cell in bits(pos.occupied) {
            let colour = if pos.blue & (1 << cell) != 0 {
                Player::Blue
            } else {
                Player::Red
            };
            held.push((colour, pos.card(cell)));
        }
        for p in Player::BOTH {
            held.extend(bits(pos.hand(p)).map(|id| (p, id)));
        }
        let card = |id: u8| -> (Card, (Player, u8)) {
            let o = self.origin[id as usize];
            (self.brought.get(o.0)[o.1 as usize].clone(), o)
        };
        let (mut blue, mut red) = (Vec::new(), Vec::new());
        let first;
        match self.config.sudden_death {
            SuddenDeath::OwnColours => {
                for &(colour, id) in &held {
                    if colour == Player::Blue {
                        blue.push(card(id))
                    } else {
                        red.push(card(id))
                    }
                }
                first = self.first.other();
            }
            SuddenDeath::Shuffle => {
                let mut all: Vec<_> = held.iter().map(|&(_, id)| card(id)).collect();
                all.sort_unstable_by_key(|(_, o)| (o.0, o.1)); // a canonical order before shuffling
                self.rng.shuffle(&mut all);
                red = all.split_off(5);
                blue = all;
                first = Player::BOTH[self.rng.below(2) as usize];
            }
            SuddenDeath::OriginalHands | SuddenDeath::Off => {
                blue = (0..5)
                    .map(|i| (self.brought.blue[i].clone(), (Player::Blue, i as u8)))
                    .collect();
                red = (0..5)
                    .map(|i| (self.brought.red[i].clone(), (Player::Red, i as u8)))
                    .collect();
                first = self.first.other();
            }
        }
        let hands = Hands {
            blue: blue.iter().map(|(c, _)| c.clone()).collect(),
            red: red.iter().map(|(c, _)| c.clone()).collect(),
        };
        self.origin = blue.iter().chain(&red).map(|&(_, o)| o).collect();
        self.game = Self::round(&self.config, &hands, first, &mut self.rng)?;
        self.first = first;
        self.rounds += 1;
        Ok(())
    }

    /// What the trade needs, once the match is over.
    pub fn trade_choice(&self) -> Result<TradeChoice, MatchError> {
        let result = self.result.ok_or(MatchError::NotOver)?;
        let Some(chooser) = result.winner else {
            return Ok(TradeChoice::Automatic);
        };
        let [b, r] = result.scores;
        let (won, lost) = if chooser == Player::Blue { (b, r) } else { (r, b) };
        let count = match self.config.trade {
            TradeRule::One => 1,
            TradeRule::Two => 2,
            TradeRule::Three => 3,
            TradeRule::Four => 4,
            TradeRule::Diff(DiffMode::Difference) => won - lost,
            TradeRule::Diff(DiffMode::OverFive) => won.saturating_sub(5),
            TradeRule::DirectSwap => return Ok(TradeChoice::Swap { chooser }),
            _ => return Ok(TradeChoice::Automatic),
        };
        Ok(TradeChoice::Pick {
            chooser,
            count: count.min(5) as u8,
        })
    }

    /// Settles the trade with the winner's picks (indices among the loser's five; none for an
    /// automatic trade) and returns the cards that change hands.
    pub fn settle_trade(&mut self, picks: &[u8]) -> Result<Vec<Transfer>, MatchError> {
        if self.settled {
            return Err(MatchError::AlreadySettled);
        }
        let choice = self.trade_choice()?;
        let result = self.result.ok_or(MatchError::NotOver)?;
        let transfer = |from: Player, index: u8| Transfer {
            card: self.brought.get(from)[index as usize].clone(),
            from,
            index,
        };
        let out = match choice {
            TradeChoice::Pick { chooser, count } => {
                let distinct = picks.iter().enumerate().all(|(i, p)| !picks[..i].contains(p));
                if picks.len() != count as usize || !distinct || picks.iter().any(|&p| p >= 5) {
                    return Err(MatchError::BadPicks(
                        "pick exactly the number of distinct indices 0..=4 the trade allows",
                    ));
                }
                picks.iter().map(|&i| transfer(chooser.other(), i)).collect()
            }
            TradeChoice::Swap { chooser } => match picks {
                [i] if *i < 5 => alloc::vec![transfer(chooser.other(), *i), transfer(chooser, *i)],
                _ => return Err(MatchError::BadPicks("direct_swap takes one index 0..=4")),
            },
            TradeChoice::Automatic => {
                if !picks.is_empty() {
                    return Err(MatchError::BadPicks("this trade takes no picks"));
                }
                self.automatic_transfers(result)
            }
        };
        self.settled = true;
        Ok(out)
    }

    fn automatic_transfers(&mut self, result: MatchResult) -> Vec<Transfer> {
        let transfer = |from: Player, index: u8, brought: &Hands| Transfer {
            card: brought.get(from)[index as usize].clone(),
            from,
            index,
        };
        match (self.config.trade, result.winner) {
            (TradeRule::Direct, _) => {
                let pos = &self.game.pos;
                bits(pos.occupied)
                    .filter_map(|cell| {
                        let colour = if pos.blue & (1 << cell) != 0 {
                            Player::Blue
                        } else {
                            Player::Red
                        };
                        let (owner, index) = self.origin[pos.card(cell) as usize];
                        (owner != colour).then(|| transfer(owner, index, &self.brought))
                    })
                    .collect()
            }
            (TradeRule::All, Some(w)) => (0..5).map(|i| transfer(w.other(), i, &self.brought)).collect(),
            (TradeRule::Random, Some(w)) => {
                let i = self.rng.below(5) as u8;
                alloc::vec![transfer(w.other(), i, &self.brought)]
            }
            _ => Vec::new(),
        }
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
}

//! What a finished match earns and what a challenge may stake: the English text game's points,
//! the French server's experience, gils, gil bets and experience thresholds, its winner-rule names
//! and its rule that nothing is staked against a computer player.
//!
//! Points (5 a game, 5 more for a win) are the MUSH seed's figures. The French page says which
//! winner rules give gils and experience (all but Training) but not how much: [`reward`] fixes
//! those amounts, and more at stake earns more experience.

use arbiter_core::quote;
use arbiter_core::tripletriad::{DiffMode, Player, TradeNotAllowed, TradeRule, UnknownTradeRule};

/// Points every game played earns (MUSH).
pub const POINTS_PER_GAME: u32 = 5;
/// Points a win earns on top (MUSH).
pub const POINTS_PER_WIN: u32 = 5;

/// How a match ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Standing {
    /// Won the match (also by the opponent's forfeit).
    Won,
    /// Lost it.
    Lost,
    /// A draw.
    Drawn,
    /// Left before the end ("did not finish"): earns nothing.
    Forfeited,
}

/// What a finished match earns one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Reward {
    /// Shop points.
    pub points: u32,
    /// Experience.
    pub experience: u32,
    /// Gils (bets aside).
    pub gils: u32,
}

/// What `standing` earns under the winner rule `trade`. Training earns nothing at all; every
/// other rule earns points (5, or 10 for a win), gils (win 50, draw 20, loss 10) and experience
/// (win 100, draw 40, loss 20), the experience times 1 for None, 2 for one card at stake (One,
/// Direct, Diff, Random, Direct swap), 3 to 5 for Two to Four and 6 for All.
///
/// ```
/// use arbiter_core::tripletriad::TradeRule;
/// use arbiter_economy::{reward, Standing};
/// assert_eq!(reward(TradeRule::One, Standing::Won).points, 10);
/// assert_eq!(reward(TradeRule::One, Standing::Lost).points, 5);
/// assert_eq!(reward(TradeRule::Training, Standing::Won), Default::default());
/// assert_eq!(reward(TradeRule::None, Standing::Won).experience, 100);
/// ```
pub fn reward(trade: TradeRule, standing: Standing) -> Reward {
    let factor = match trade {
        TradeRule::Training => return Reward::default(),
        TradeRule::None => 1,
        TradeRule::One | TradeRule::Direct | TradeRule::Diff(_) | TradeRule::Random | TradeRule::DirectSwap => 2,
        TradeRule::Two => 3,
        TradeRule::Three => 4,
        TradeRule::Four => 5,
        TradeRule::All => 6,
    };
    let (points, experience, gils) = match standing {
        Standing::Won => (POINTS_PER_GAME + POINTS_PER_WIN, 100, 50),
        Standing::Drawn => (POINTS_PER_GAME, 40, 20),
        Standing::Lost => (POINTS_PER_GAME, 20, 10),
        Standing::Forfeited => return Reward::default(),
    };
    Reward {
        points,
        experience: experience * factor,
        gils,
    }
}

/// Which server's customs a challenge follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Customs {
    /// The English text game: no experience thresholds.
    #[default]
    Mush,
    /// The French server: each stake needs experience of both players.
    Ttonline,
}

/// One side of a challenge, as the stake check needs it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Party {
    /// A computer player.
    pub computer: bool,
    /// Experience.
    pub experience: u32,
    /// Gils.
    pub gils: u32,
    /// Cards owned in all.
    pub cards: u32,
}

/// What a challenge puts at stake.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Stake {
    /// The winner rule.
    pub trade: TradeRule,
    /// Gils each player bets (the winner takes both; a draw returns them).
    pub gils: u32,
    /// Whose customs apply.
    pub customs: Customs,
}

/// Why a stake cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StakeError {
    /// Cards or gils staked against a computer player.
    #[error("nothing is staked against a computer player: use the winner rule training or none, and no gils")]
    Computer,
    /// A player lacks the experience the rule needs.
    #[error("{player} has {has} experience: the winner rule {trade} needs {needed}")]
    Experience {
        /// Who.
        player: Player,
        /// The rule.
        trade: TradeRule,
        /// Experience needed.
        needed: u32,
        /// Experience held.
        has: u32,
    },
    /// The French server does not offer the rule.
    #[error("the winner rule {0} is not one the French server offers")]
    NotOffered(TradeRule),
    /// A player cannot cover the bet.
    #[error("{player} has {has} gils and cannot bet {bet}")]
    Gils {
        /// Who.
        player: Player,
        /// The bet.
        bet: u32,
        /// Gils held.
        has: u32,
    },
    /// `all` with ten cards or fewer.
    #[error(transparent)]
    Trade(#[from] TradeNotAllowed),
}

impl Stake {
    /// Checks the stake for the two sides (blue the challenger, red the one challenged).
    ///
    /// ```
    /// use arbiter_core::tripletriad::TradeRule;
    /// use arbiter_economy::{Customs, Party, Stake, StakeError};
    /// let rookie = Party { experience: 0, cards: 20, ..Party::default() };
    /// let mog = Party { computer: true, ..Party::default() };
    /// let stake = Stake { trade: TradeRule::Two, gils: 0, customs: Customs::Ttonline };
    /// assert!(matches!(stake.check(&rookie, &rookie), Err(StakeError::Experience { needed: 2000, .. })));
    /// assert_eq!(Stake { trade: TradeRule::One, ..stake }.check(&rookie, &mog), Err(StakeError::Computer));
    /// assert!(Stake { trade: TradeRule::None, ..stake }.check(&rookie, &mog).is_ok());
    /// ```
    pub fn check(&self, blue: &Party, red: &Party) -> Result<(), StakeError> {
        let stakes_cards = !matches!(self.trade, TradeRule::Training | TradeRule::None);
        if (blue.computer || red.computer) && (stakes_cards || self.gils > 0) {
            return Err(StakeError::Computer);
        }
        for (player, party) in [(Player::Blue, blue), (Player::Red, red)] {
            if party.computer {
                continue;
            }
            if self.customs == Customs::Ttonline {
                let needed = self
                    .trade
                    .experience_required()
                    .ok_or(StakeError::NotOffered(self.trade))?;
                if party.experience < needed {
                    return Err(StakeError::Experience {
                        player,
                        trade: self.trade,
                        needed,
                        has: party.experience,
                    });
                }
            }
            if party.gils < self.gils {
                return Err(StakeError::Gils {
                    player,
                    bet: self.gils,
                    has: party.gils,
                });
            }
        }
        self.trade.allowed(blue.cards as usize, red.cards as usize)?;
        Ok(())
    }
}

/// The French server's winner rules by the names its page gives them, in English or French
/// (accents and ASCII case ignored): Training/Entraînement, None/Aucune, One, Two, Three, Four,
/// Total/Totale, Direct/Directe, Change, Random/Aléatoire. Change is the score difference.
///
/// ```
/// use arbiter_core::tripletriad::{DiffMode, TradeRule};
/// use arbiter_economy::ttonline_winner_rule;
/// assert_eq!(ttonline_winner_rule("Totale").unwrap(), TradeRule::All);
/// assert_eq!(ttonline_winner_rule("change").unwrap(), TradeRule::Diff(DiffMode::Difference));
/// assert_eq!(ttonline_winner_rule("Entraînement").unwrap(), TradeRule::Training);
/// assert!(ttonline_winner_rule("diff_over_five").is_err());
/// ```
pub fn ttonline_winner_rule(name: &str) -> Result<TradeRule, UnknownTradeRule> {
    const NAMES: [(&str, &str, TradeRule); 10] = [
        ("training", "entraînement", TradeRule::Training),
        ("none", "aucune", TradeRule::None),
        ("one", "one", TradeRule::One),
        ("two", "two", TradeRule::Two),
        ("three", "three", TradeRule::Three),
        ("four", "four", TradeRule::Four),
        ("total", "totale", TradeRule::All),
        ("direct", "directe", TradeRule::Direct),
        ("change", "change", TradeRule::Diff(DiffMode::Difference)),
        ("random", "aléatoire", TradeRule::Random),
    ];
    let key = name.trim();
    let same = |a: &str| {
        a.chars().count() == key.chars().count() && a.chars().zip(key.chars()).all(|(x, y)| fold(x) == fold(y))
    };
    NAMES
        .iter()
        .find(|(en, fr, _)| same(en) || same(fr))
        .map(|&(_, _, r)| r)
        .ok_or_else(|| UnknownTradeRule(quote(name)))
}

/// A letter without its accent, in lower case (the accents of the French rule names).
pub(crate) fn fold(c: char) -> char {
    match c.to_ascii_lowercase() {
        'é' | 'è' | 'ê' | 'É' | 'È' | 'Ê' => 'e',
        'î' | 'Î' => 'i',
        'à' | 'À' => 'a',
        c => c,
    }
}

/// What a settled match moves in gils: the loser pays the bet to the winner; a draw moves none.
/// Returns `(from, to, amount)`.
///
/// ```
/// use arbiter_core::tripletriad::Player;
/// use arbiter_economy::bet_transfer;
/// assert_eq!(bet_transfer(30, Some(Player::Red)), Some((Player::Blue, Player::Red, 30)));
/// assert_eq!(bet_transfer(30, None), None);
/// ```
pub fn bet_transfer(bet: u32, winner: Option<Player>) -> Option<(Player, Player, u32)> {
    let w = winner.filter(|_| bet > 0)?;
    Some((w.other(), w, bet))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_follow_the_french_page() {
        let party = |experience| Party {
            experience,
            cards: 20,
            gils: 100,
            computer: false,
        };
        let cases = [
            ("One", 1000),
            ("Directe", 1000),
            ("Change", 1000),
            ("Aléatoire", 1000),
            ("Two", 2000),
            ("Three", 3000),
            ("Four", 4000),
            ("Totale", 5000),
            ("Aucune", 0),
            ("Entraînement", 0),
        ];
        for (name, needed) in cases {
            let trade = ttonline_winner_rule(name).unwrap();
            let stake = Stake {
                trade,
                gils: 0,
                customs: Customs::Ttonline,
            };
            assert!(stake.check(&party(needed), &party(needed)).is_ok(), "{name}");
            if needed > 0 {
                assert_eq!(
                    stake.check(&party(needed), &party(needed - 1)),
                    Err(StakeError::Experience {
                        player: Player::Red,
                        trade,
                        needed,
                        has: needed - 1
                    })
                );
                // The English text game has no thresholds.
                let mush = Stake {
                    customs: Customs::Mush,
                    ..stake
                };
                assert!(mush.check(&party(0), &party(0)).is_ok());
            }
        }
    }

    #[test]
    fn total_needs_more_than_ten_cards_and_bets_need_gils() {
        let rich = Party {
            experience: 9999,
            gils: 50,
            cards: 11,
            computer: false,
        };
        let all = Stake {
            trade: TradeRule::All,
            gils: 0,
            customs: Customs::Ttonline,
        };
        assert!(all.check(&rich, &rich).is_ok());
        let poor = Party { cards: 10, ..rich };
        assert!(matches!(all.check(&rich, &poor), Err(StakeError::Trade(_))));
        let bet = Stake { gils: 51, ..all };
        assert_eq!(
            bet.check(&rich, &rich),
            Err(StakeError::Gils {
                player: Player::Blue,
                bet: 51,
                has: 50
            })
        );
        let bot = Party {
            computer: true,
            ..Party::default()
        };
        let none_bet = Stake {
            trade: TradeRule::None,
            gils: 5,
            customs: Customs::Ttonline,
        };
        assert_eq!(none_bet.check(&bot, &rich), Err(StakeError::Computer));
        let swap = Stake {
            trade: TradeRule::DirectSwap,
            gils: 0,
            customs: Customs::Ttonline,
        };
        assert_eq!(
            swap.check(&rich, &rich),
            Err(StakeError::NotOffered(TradeRule::DirectSwap))
        );
    }

    #[test]
    fn rewards() {
        assert_eq!(
            reward(TradeRule::Two, Standing::Won),
            Reward {
                points: 10,
                experience: 300,
                gils: 50
            }
        );
        assert_eq!(reward(TradeRule::All, Standing::Drawn).points, 5);
        assert_eq!(reward(TradeRule::One, Standing::Forfeited), Reward::default());
        for trade in TradeRule::ALL {
            for s in [Standing::Won, Standing::Lost, Standing::Drawn] {
                let r = reward(trade, s);
                assert!(trade == TradeRule::Training || r.points >= POINTS_PER_GAME);
                assert!(reward(trade, Standing::Won).experience >= r.experience);
            }
        }
    }
}

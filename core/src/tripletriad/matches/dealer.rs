//! Deals under a named preset: a match ([`Match::from_preset`]), its first round
//! ([`TripleTriad::from_preset`]), and that round made over and over ([`Dealer`]: a batched
//! stepper restarts a round every nine moves): the preset's configuration looked up once, and a
//! finished round's table refilled in place rather than a new one built, copied and freed, with
//! no card names allocated. The hands come from the configuration's card set ([`CardSet`]).

use super::matchplay::{Match, MatchConfig};
use super::preset::preset_config;
use crate::tripletriad::ffxiv::{card_by_id, DeckRule};
use crate::tripletriad::round::card::Card;
use crate::tripletriad::round::cards::FF8_CARDS;
use crate::tripletriad::round::position::{Position, RoundTable};
use crate::tripletriad::round::setup::{ff8_deal, Hands};
use crate::tripletriad::round::state::TripleTriad;
use crate::{Error, ErrorKind, Rng, Shared};

/// The cards a match deals the hands nobody brings from.
///
/// ```
/// use arbiter_core::tripletriad::{preset, CardSet};
/// assert_eq!(preset("ff8").unwrap().cards, CardSet::Ff8);
/// assert_eq!(preset("ffxiv").unwrap().cards, CardSet::Ffxiv);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum CardSet {
    /// Final Fantasy VIII's 110 cards: five distinct ones a hand, uniform among the hands within
    /// the deck level limit.
    #[default]
    Ff8,
    /// Final Fantasy XIV's cards: a hand is a deck its deck rule allows ([`DeckRule::CURRENT`]:
    /// five distinct cards, at most two of 4 or 5 stars, at most one of 5), uniform among those
    /// decks. The specification is silent on how a dealer picks (FFXIV's players bring their
    /// own decks): the uniform draw, each player's independent of the other's (both may hold
    /// the same card, as two collections may), is ours. Its cards have no level, so a deck
    /// level limit never refuses them: the deck rule stands in for it.
    Ffxiv,
}

#[cfg(feature = "serde")]
impl CardSet {
    /// Whether this is [`CardSet::Ff8`] (the JSON form leaves it out).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub(crate) fn is_ff8(&self) -> bool {
        *self == CardSet::Ff8
    }
}

/// Two hands of five cards drawn from `seed` from `config`'s card set (within its deck level
/// limit for FF8's), blue's then red's; the hands [`Match::from_preset`] plays.
///
/// ```
/// use arbiter_core::tripletriad::{dealt_hands, ffxiv, preset};
/// let h = dealt_hands(&preset("ffxiv").unwrap(), 3).unwrap();
/// assert!(h.blue.iter().all(|c| ffxiv::card(&c.name).is_some()));
/// let mush = preset("mush").unwrap();
/// assert!(dealt_hands(&mush, 3).unwrap().red.iter().map(|c| c.level as u32).sum::<u32>() <= 20);
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn dealt_hands(config: &MatchConfig, seed: u64) -> Result<Hands, Error> {
    match config.cards {
        CardSet::Ff8 => Hands::random_ff8(seed, config.deck_level_limit).ok_or_else(|| {
            Error::new(
                ErrorKind::BadArgument,
                "deck_level_limit: no five cards have levels that low (5 at least)",
            )
        }),
        CardSet::Ffxiv => {
            let [blue, red] = ffxiv_deal(seed).map(|deck| deck.map(ffxiv_card).to_vec());
            Ok(Hands { blue, red })
        }
    }
}

/// The ids of two decks [`DeckRule::CURRENT`] allows, blue's then red's, from one stream of
/// `seed` as FF8's hands are drawn.
#[cfg_attr(arbiter_size, optimize(size))]
fn ffxiv_deal(seed: u64) -> [[u16; 5]; 2] {
    let mut rng = Rng::new(seed);
    let blue = DeckRule::CURRENT.random_deck(&mut rng);
    [blue, DeckRule::CURRENT.random_deck(&mut rng)]
}

#[cfg_attr(arbiter_size, optimize(size))]
fn ffxiv_card(id: u16) -> Card {
    card_by_id(id).expect("a deck holds cards that exist").card()
}

impl Match {
    /// A match under the named preset (see [`preset`](crate::tripletriad::preset)) between two hands
    /// drawn from `seed` from the preset's cards ([`dealt_hands`]: FFXIV's under `ffxiv`, FF8's
    /// under the others); `seed` also drives the match.
    ///
    /// ```
    /// use arbiter_core::tripletriad::{Match, SuddenDeath};
    /// let m = Match::from_preset("ff8", 42).unwrap();
    /// assert_eq!(m.config().sudden_death, SuddenDeath::OwnColours);
    /// assert!(Match::from_preset("chess", 42).is_err());
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn from_preset(name: &str, seed: u64) -> Result<Match, Error> {
        let config = preset_config(name)?;
        let hands = dealt_hands(&config, seed)?;
        Ok(Match::new(config, hands.blue, hands.red, seed)?)
    }
}

impl TripleTriad {
    /// The first round of a match under the named preset between two hands drawn from `seed`
    /// (see [`Match::from_preset`]).
    ///
    /// ```
    /// use arbiter_core::tripletriad::TripleTriad;
    /// let g = TripleTriad::from_preset("mush", 1).unwrap();
    /// assert!(g.rules().elemental_clamp);
    /// ```
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn from_preset(name: &str, seed: u64) -> Result<TripleTriad, Error> {
        Ok(Dealer::new(name)?.deal(seed))
    }
}

/// Deals the first rounds of a preset's matches: [`Dealer::deal`]`(seed)` is
/// [`TripleTriad::from_preset`]`(preset, seed)`, the same cards, elements and first player.
///
/// ```
/// use arbiter_core::tripletriad::{Dealer, TripleTriad};
/// let dealer = Dealer::new("ff8").unwrap();
/// let mut g = dealer.deal(7);
/// assert_eq!(g, TripleTriad::from_preset("ff8", 7).unwrap());
/// dealer.deal_into(8, &mut g);
/// assert_eq!(g, TripleTriad::from_preset("ff8", 8).unwrap());
/// assert!(Dealer::new("chess").is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Dealer {
    config: MatchConfig,
}

impl Dealer {
    /// The dealer of the named preset (see [`preset`](crate::tripletriad::preset)).
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn new(preset: &str) -> Result<Dealer, Error> {
        let config = preset_config(preset)?;
        config.validate()?;
        Ok(Dealer { config })
    }

    /// The preset's configuration.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn config(&self) -> &MatchConfig {
        &self.config
    }

    /// The first round of the preset's match seeded with `seed`.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn deal(&self, seed: u64) -> TripleTriad {
        let mut table = RoundTable::blank(self.config.rules, self.config.walls.clone());
        let pos = self.draw(seed, &mut table);
        TripleTriad {
            table: Shared::new(table),
            pos,
            played: arrayvec::ArrayVec::new(),
        }
    }

    /// [`Dealer::deal`] over `game`, refilling its table where no copy of `game` shares it.
    #[cfg_attr(arbiter_size, optimize(size))]
    pub fn deal_into(&self, seed: u64, game: &mut TripleTriad) {
        let Some(table) = Shared::get_mut(&mut game.table) else {
            *game = self.deal(seed);
            return;
        };
        table.rules = self.config.rules;
        table.walls.clone_from(&self.config.walls);
        game.pos = self.draw(seed, table);
        game.played.clear();
    }

    /// Draws the round of `seed` as a match does (the hands, then who starts, then the
    /// elements), writes its cards and elements into `table` and works out the rest; the
    /// position it starts from.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn draw(&self, seed: u64, table: &mut RoundTable) -> Position {
        // Ids as `Setup` numbers them: blue's hand from 0, red's from 5.
        match self.config.cards {
            CardSet::Ff8 => {
                let [blue, red] = ff8_deal(seed, self.config.deck_level_limit).expect("presets' limits admit hands");
                let ids = blue.into_iter().chain(red).map(|i| &FF8_CARDS[i as usize]);
                table.cards.truncate(10);
                for (k, card) in ids.enumerate() {
                    match table.cards.get_mut(k) {
                        Some(c) => card.write_over(c),
                        None => table.cards.push(card.card()),
                    }
                }
            }
            CardSet::Ffxiv => {
                let [blue, red] = ffxiv_deal(seed);
                table.cards.clear();
                table.cards.extend(blue.into_iter().chain(red).map(ffxiv_card));
            }
        }
        let (first, mut rng) = Match::first_player(&self.config, seed);
        table.elements = self.config.elements.round(&self.config.rules, &mut rng);
        table.derive();
        Position {
            cells: 0,
            occupied: 0,
            blue: 0,
            hands: 0x3FF,
            to_move: first,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::ffxiv::CARDS;
    use crate::tripletriad::PRESETS;
    use crate::{Engine, Game, Rng};

    /// Every preset deals what a match's first round through a [`Setup`](crate::tripletriad::Setup)
    /// is, fresh or over a finished round, and the refilled table plays every move alike:
    /// the same states and the same tensors all round long.
    #[test]
    fn a_deal_is_the_first_round_of_the_match_and_a_refill_plays_alike() {
        for name in PRESETS {
            let dealer = Dealer::new(name).unwrap();
            let mut refilled = dealer.deal(u64::MAX);
            let mut rng = Rng::new(3);
            for seed in 0..150u64 {
                let fresh = Match::from_preset(name, seed).unwrap().game().clone();
                assert_eq!(dealer.deal(seed), fresh, "{name} {seed}");
                dealer.deal_into(seed, &mut refilled);
                let mut reference = fresh;
                let (mut a, mut b) = (alloc::vec![0.0; 463], alloc::vec![1.0; 463]);
                while let Some(p) = reference.to_move() {
                    assert_eq!(refilled, reference, "{name} {seed}");
                    assert_eq!(refilled.legal_actions(), reference.legal_actions());
                    refilled.observation_tensor_into(p, &mut a);
                    reference.observation_tensor_into(p, &mut b);
                    assert_eq!(a, b, "{name} {seed}");
                    let moves = reference.legal_moves();
                    let mv = moves[rng.below(moves.len() as u64) as usize];
                    let (x, y) = (
                        refilled.play_explained(mv).unwrap(),
                        reference.play_explained(mv).unwrap(),
                    );
                    assert_eq!(x, y, "{name} {seed}: the captures of {mv}");
                }
                assert_eq!(refilled.outcome(), reference.outcome());
            }
        }
    }

    /// The `ffxiv` preset deals two FFXIV decks its deck rule allows, the seed replaying them,
    /// in a match and in a round alike; seeds spread them over the cards (typed ones too).
    #[test]
    fn the_ffxiv_preset_deals_decks_the_deck_rule_allows() {
        let (mut seen, mut typed) = (alloc::collections::BTreeSet::new(), 0);
        for seed in 0..300u64 {
            let m = Match::from_preset("ffxiv", seed).unwrap();
            let setup = m.game().setup();
            assert_eq!(setup, TripleTriad::from_preset("ffxiv", seed).unwrap().setup());
            for hand in [&setup.hands.blue, &setup.hands.red] {
                let ids: alloc::vec::Vec<u16> = hand
                    .iter()
                    .map(|c| CARDS.iter().find(|x| x.card() == *c).expect("a FFXIV card").id)
                    .collect();
                assert_eq!(DeckRule::CURRENT.check(&ids), Ok(()), "seed {seed}");
                seen.extend(ids);
                typed += hand.iter().filter(|c| !c.card_type.is_none()).count();
            }
        }
        assert!(seen.len() > 400, "{} cards dealt", seen.len());
        assert!(typed > 300, "{typed} typed cards dealt");
    }

    /// A table an FFXIV deal filled and an FF8 dealer refills holds FF8's untyped cards.
    #[test]
    fn a_refill_from_another_set_leaves_no_type_behind() {
        let mut g = Dealer::new("ffxiv").unwrap().deal(4);
        let ff8 = Dealer::new("ff8").unwrap();
        for seed in 0..20 {
            ff8.deal_into(seed, &mut g);
            assert_eq!(g, ff8.deal(seed), "seed {seed}");
            Dealer::new("ffxiv").unwrap().deal_into(seed, &mut g);
        }
    }

    /// A round that a copy still shares keeps its table: the deal goes to a new one.
    #[test]
    fn a_shared_table_is_left_to_the_copy() {
        let dealer = Dealer::new("mush").unwrap();
        let mut g = dealer.deal(1);
        let copy = g.clone();
        dealer.deal_into(2, &mut g);
        assert_eq!(copy, dealer.deal(1));
        assert_eq!(g, dealer.deal(2));
    }
}

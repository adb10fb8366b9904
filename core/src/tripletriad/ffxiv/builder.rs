//! The deck builder (issue #39 item 5): from a collection, the deck with the best exact
//! probability of beating an NPC.
//!
//! **How.** Every deck of the collection that the deck rule allows is a candidate, visited in a
//! fixed order (cards by descending rank sum, then id: strong decks come first, so that the best
//! found early cuts the rest). A deck is scored round by round (each NPC hand, each starting
//! player, each Swap exchange: all equally weighted, see [`odds`](super::odds)), and abandoned as
//! soon as even winning all its remaining rounds could not beat the best deck found: an exact
//! bound, so no candidate is lost. Among decks of equal probability the first in that order is
//! kept. Under Order a deck's hand order is part of it (the player arranges the deck): each of
//! a deck's 120 orders is a candidate, in lexicographic order, and the best order is returned.
//!
//! **Monotone.** Run to the end the search is exhaustive, so its answer is the optimum over the
//! collection's decks; a larger collection only adds candidates, and the order (hence the
//! tie-break) does not depend on the collection: the answer never gets worse when a card is added.
//!
//! **Why no pruning by dominance.** A card whose four ranks are all at least another's is not
//! always the better card, even under the basic rule alone: a card taken by the NPC is harder for
//! the player to take back when its ranks are higher; under Same and Plus equal ranks and sums
//! matter, not size; Reverse, Fallen Ace, Ascension and Descension turn it further. No such rule
//! is used, so the answer is exact under every rule mix.
//!
//! **Rounds no deck wins.** Against a perfect NPC, under neither Chaos nor Swap, with at most
//! [`MOST_CARDS`] cards in the collection: when a deck loses a round, the builder asks whether
//! the player would win it holding the whole collection at once ([`bound`](super::bound), a
//! relaxation of every deck of it). If not, no deck wins that round: it is never solved again,
//! and the best any deck can do is the share of the other rounds. A deck reaching that share
//! ends the search (it is optimal).
//!
//! **Stopping early.** The `stop` callback, asked between rounds, ends the search: the answer then
//! holds the best deck found and an upper bound on the optimum: the share of rounds not shown
//! lost by every deck as above (or the best deck's, if higher), which is 1 where the relaxation
//! does not apply.

use alloc::vec;
use alloc::vec::Vec;

use super::bound::{applies, Relaxation, MOST_CARDS};
use super::cards::{card_by_id, FfxivCard};
use super::deck::{DeckError, DeckRule};
use super::npcs::Npc;
use super::odds::{rounds, rounds_per_start, Judge, OddsError, Opponent, Start, ORDERS};
use crate::tripletriad::round::position::Player;
use crate::tripletriad::TripleTriad;

/// What the deck builder found.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltDeck {
    /// The best deck found (card ids in the visiting order, or in the best hand order under
    /// Order), `None` if the collection holds no deck the rule allows, or if the search stopped
    /// before a first deck was scored.
    pub deck: Option<[u16; 5]>,
    /// Its probability of winning.
    pub win: f64,
    /// An upper bound on the best probability any deck of the collection has: `win` when the
    /// search ran to the end.
    pub upper: f64,
    /// Whether every candidate was examined (the deck is then the optimum).
    pub complete: bool,
    /// Decks examined (fully or until they could no longer beat the best).
    pub decks: u64,
    /// Rounds solved (a round found lost by every deck is solved no more).
    pub rounds: u64,
    /// Positions searched.
    pub nodes: u64,
}

/// Why the builder cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// An id in the collection names no card.
    #[error(transparent)]
    Deck(#[from] DeckError),
    /// The NPC's rules are not modelled, or the core refuses a round.
    #[error(transparent)]
    Odds(#[from] OddsError),
}

/// A round's win probability as an exact integer: in units of 1 / `UNITS`, a multiple of the
/// number of equally likely chance sequences of any round from either start: a random NPC's
/// moves (46,080 when the player starts, 113,400 when the NPC does; 384 and 945 under Order),
/// times the Chaos draws (120 for each player's five turns, 120 for its four), 2^13 3^5 5^3 7.
pub(crate) const UNITS: u64 = 1_741_824_000;

/// The deck of `collection` (card ids; repeats and order do not matter) with the best exact
/// probability of beating `npc` played as `opponent`, the first player drawn as `start` says,
/// under [`DeckRule::CURRENT`]. `stop` is asked between rounds; `true` ends the search early.
///
/// ```
/// use arbiter_core::tripletriad::ffxiv::{self, best_deck, Opponent, Start};
/// let npc = ffxiv::npc("Triple Triad Master").unwrap();
/// let collection: Vec<u16> = (1..=8).collect();
/// let built = best_deck(&collection, npc, Opponent::Perfect, Start::Either, &mut || false).unwrap();
/// assert!(built.complete && built.deck.is_some() && built.upper == built.win);
/// ```
#[cfg_attr(arbiter_size, optimize(size))]
pub fn best_deck(
    collection: &[u16],
    npc: &Npc,
    opponent: Opponent,
    start: Start,
    stop: &mut dyn FnMut() -> bool,
) -> Result<BuiltDeck, BuildError> {
    let rules = npc.round_rules();
    let mut cards: Vec<&'static FfxivCard> = Vec::new();
    for &id in collection {
        cards.push(card_by_id(id).ok_or(DeckError::UnknownCard(id))?);
    }
    cards.sort_by_key(|c| {
        (
            core::cmp::Reverse(c.ranks.iter().map(|&r| u32::from(r)).sum::<u32>()),
            c.id,
        )
    });
    cards.dedup_by_key(|c| c.id);
    let firsts: &[Player] = match start {
        Start::Player => &[Player::Blue],
        Start::Npc => &[Player::Red],
        Start::Either => &[Player::Blue, Player::Red],
    };
    let hands = npc.hands();
    let per_deck = hands.len() * firsts.len() * rounds_per_start(rules);
    let most = UNITS * per_deck as u64;
    let relax = opponent == Opponent::Perfect && applies(rules) && cards.len() <= MOST_CARDS;
    let mut search = Builder {
        best: None,
        best_units: 0,
        hand_order: rules.order,
        stopped: false,
        decks: 0,
        rounds: Rounds {
            judge: Judge::new(opponent),
            relaxation: relax.then(Relaxation::new),
            // Rounds are tried in this order; one that cut a deck short moves to the front, since
            // it is likely to cut the next one too (the order never changes the answer).
            order: (0..per_deck).collect(),
            relaxed: vec![None; per_deck],
            solved: 0,
        },
    };
    let mut chosen = Vec::with_capacity(5);
    search.visit(&cards, 0, &mut chosen, &mut |deck, known, best| {
        let deck_cards: [&FfxivCard; 5] = core::array::from_fn(|i| cards[deck[i]]);
        let mut games: Vec<TripleTriad> = Vec::with_capacity(per_deck);
        for hand in &hands {
            for &first in firsts {
                games.extend(rounds(&deck_cards, hand, rules, first)?.into_iter().map(|r| r.game));
            }
        }
        let mut units = 0;
        for done in 0..per_deck {
            let r = known.order[done];
            if known.relaxed[r] == Some(false) {
                continue; // no deck wins it
            }
            if stop() {
                return Ok(Verdict::Stopped);
            }
            known.solved += 1;
            let won = known.judge.win_units(&games[r], UNITS);
            units += won;
            if let Some(relaxation) = known.relaxation.as_mut().filter(|_| known.relaxed[r].is_none()) {
                // A win of the deck is a win of the relaxed round: only a loss asks, and only
                // once a first deck is scored (an answer to give comes first).
                if won == UNITS {
                    known.relaxed[r] = Some(true);
                } else if best.is_some() {
                    known.relaxed[r] = relaxation.wins(&games[r], &cards, stop);
                    if known.relaxed[r].is_none() {
                        return Ok(Verdict::Stopped);
                    }
                }
            }
            let left = known.order[done + 1..]
                .iter()
                .filter(|&&q| known.relaxed[q] != Some(false))
                .count() as u64;
            if units + left * UNITS <= best.unwrap_or(0) {
                return Ok(Verdict::CutAt(done));
            }
        }
        Ok(Verdict::Scored(units))
    })?;
    let ids = |d: &[usize]| -> [u16; 5] { core::array::from_fn(|i| cards[d[i]].id) };
    let ceiling = search.rounds.ceiling();
    let complete = !search.stopped || search.best_units >= ceiling;
    let win = search.best_units as f64 / most as f64;
    Ok(BuiltDeck {
        deck: search.best.as_deref().map(ids),
        win,
        upper: if complete { win } else { ceiling as f64 / most as f64 },
        complete,
        decks: search.decks,
        rounds: search.rounds.solved,
        nodes: search.rounds.judge.nodes + search.rounds.relaxation.map_or(0, |r| r.nodes),
    })
}

/// What scoring one deck gave.
enum Verdict {
    /// Its exact score (units won over all its rounds).
    Scored(u64),
    /// Cut short after this many rounds plus one: it cannot beat the best.
    CutAt(usize),
    /// The caller asked to stop.
    Stopped,
}

/// The search's state: the best deck so far and the counters.
struct Builder {
    best: Option<Vec<usize>>,
    best_units: u64,
    /// Order is played: a deck's order matters.
    hand_order: bool,
    stopped: bool,
    decks: u64,
    rounds: Rounds,
}

/// The rounds every deck plays, and what is known of them whatever the deck.
struct Rounds {
    judge: Judge,
    /// Present where the relaxation applies (see the module's comment).
    relaxation: Option<Relaxation>,
    /// The order in which a deck's rounds are solved (indices into them).
    order: Vec<usize>,
    /// `relaxed[r]`: whether round `r` is won by the player holding the whole collection, where
    /// known: `Some(false)` if no deck wins it.
    relaxed: Vec<Option<bool>>,
    /// Rounds solved.
    solved: u64,
}

impl Rounds {
    /// The most units any deck may win: every round not shown lost by all decks.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn ceiling(&self) -> u64 {
        UNITS * self.relaxed.iter().filter(|&&r| r != Some(false)).count() as u64
    }
}

/// Scores a deck: its card indices, the rounds, the best score so far (`None` before a first).
type Score<'a> = dyn FnMut(&[usize], &mut Rounds, Option<u64>) -> Result<Verdict, OddsError> + 'a;

impl Builder {
    /// Scores one deck (card indices in hand order) and keeps it if it is the best. Whether to
    /// go on: not once the caller stops the search or a deck wins every round some deck may win.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn consider(&mut self, deck: &[usize], score: &mut Score<'_>) -> Result<bool, OddsError> {
        self.decks += 1;
        let best = self.best.is_some().then_some(self.best_units);
        match score(deck, &mut self.rounds, best)? {
            Verdict::Stopped => {
                self.stopped = true;
                return Ok(false);
            }
            Verdict::CutAt(done) => {
                let order = &mut self.rounds.order;
                let r = order.remove(done);
                order.insert(0, r);
                // Only the first deck can be cut with no best yet: it scored nothing.
                if self.best.is_none() {
                    self.best = Some(deck.to_vec());
                }
            }
            Verdict::Scored(units) => {
                if self.best.is_none() || units > self.best_units {
                    self.best = Some(deck.to_vec());
                    self.best_units = units;
                }
            }
        }
        Ok(self.best_units < self.rounds.ceiling())
    }

    /// Visits the decks extending `chosen` with cards from index `from` on, in lexicographic
    /// order of indices, skipping any the deck rule forbids. Whether to go on: not once the
    /// caller stops the search or a deck wins every round.
    #[cfg_attr(arbiter_size, optimize(size))]
    fn visit(
        &mut self,
        cards: &[&FfxivCard],
        from: usize,
        chosen: &mut Vec<usize>,
        score: &mut Score<'_>,
    ) -> Result<bool, OddsError> {
        if chosen.len() == 5 {
            debug_assert!(DeckRule::CURRENT
                .check(&chosen.iter().map(|&c| cards[c].id).collect::<Vec<_>>())
                .is_ok());
            // Under Order the hand's order is part of the deck: each order is a candidate.
            let orders: &[[usize; 5]] = if self.hand_order { &ORDERS } else { &ORDERS[..1] };
            for order in orders {
                let deck: Vec<usize> = order.iter().map(|&i| chosen[i]).collect();
                if !self.consider(&deck, score)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        for i in from..cards.len() {
            if cards.len() - i < 5 - chosen.len() {
                break;
            }
            chosen.push(i);
            let going = !allowed_so_far(chosen.iter().map(|&c| cards[c])) || self.visit(cards, i + 1, chosen, score)?;
            chosen.pop();
            if !going {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Whether some deck extending these cards can follow [`DeckRule::CURRENT`]: its rarity caps
/// only grow with more cards, and the cards are distinct.
#[cfg_attr(arbiter_size, optimize(size))]
fn allowed_so_far<'a>(cards: impl Iterator<Item = &'a FfxivCard>) -> bool {
    let (mut rare, mut legendary) = (0, 0);
    for c in cards {
        rare += usize::from(c.rarity >= 4);
        legendary += usize::from(c.rarity == 5);
    }
    rare <= DeckRule::CURRENT.max_four_or_five_stars && legendary <= DeckRule::CURRENT.max_five_stars
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tripletriad::ffxiv::{npc, odds, CARDS};

    fn build(collection: &[u16], name: &str) -> BuiltDeck {
        best_deck(
            collection,
            npc(name).unwrap(),
            Opponent::Perfect,
            Start::Either,
            &mut || false,
        )
        .unwrap()
    }

    /// Six one-star cards, then three two-star ones: against the Triple Triad Master the
    /// decks of one-star cards lose, those with two of the others win (measured), so the best
    /// deck changes as the collection grows.
    const POOL: [u16; 9] = [1, 2, 3, 4, 5, 6, 21, 22, 23];

    fn weak(n: usize) -> Vec<u16> {
        POOL[..n].to_vec()
    }

    /// Two- and three-star cards against Kotokaze (Same, 3 hands): one deck wins one round in
    /// six (measured), most rounds are lost by every deck, some only by the relaxed player.
    const KOTOKAZE: [u16; 7] = [28, 29, 30, 33, 38, 39, 44];

    /// The builder's deck is the best of every deck, each scored by `odds` apart, where every
    /// deck's first round wins (the Master) and where rounds are found lost by every deck.
    #[test]
    fn equals_the_best_of_every_deck_scored_apart() {
        for (name, collection) in [("Triple Triad Master", &POOL[2..]), ("Kotokaze", &KOTOKAZE[..])] {
            let npc = npc(name).unwrap();
            let built = build(collection, name);
            let mut best: f64 = 0.0;
            let mut worst: f64 = 1.0;
            for skip in 0..7 {
                for skip2 in skip + 1..7 {
                    let deck: Vec<&FfxivCard> = (0..7)
                        .filter(|&i| i != skip && i != skip2)
                        .map(|i| card_by_id(collection[i]).unwrap())
                        .collect();
                    let deck: [&FfxivCard; 5] = deck.try_into().unwrap();
                    let win = odds(&deck, npc, Opponent::Perfect).unwrap().total(Start::Either).win;
                    (best, worst) = (best.max(win), worst.min(win));
                }
            }
            assert!(built.complete, "{name}");
            assert_eq!(built.win, best, "{name}");
            assert_eq!(built.upper, best, "{name}");
            let deck = built.deck.unwrap().map(|id| card_by_id(id).unwrap());
            assert_eq!(
                odds(&deck, npc, Opponent::Perfect).unwrap().total(Start::Either).win,
                best,
                "{name}"
            );
            assert!(worst < best, "{name}: a test that can tell decks apart");
        }
    }

    /// Stopped early, the bound is never below the best deck's probability (run to the end),
    /// and once rounds are found lost by every deck it is below 1; with no deck scored yet
    /// there is no deck and no bound but 1. Against Kotokaze the relaxed player wins every round
    /// (the bound stays 1), against Klynthota (Same + Plus) it loses some (measured).
    #[test]
    fn stopped_early_the_bound_holds_the_optimum() {
        let mut below_one = 0;
        for name in ["Kotokaze", "Klynthota"] {
            let npc = npc(name).unwrap();
            let optimum = build(&KOTOKAZE, name).win;
            assert!(name == "Klynthota" || optimum > 0.0, "{name}: {optimum}");
            let mut asked = 1;
            loop {
                let mut calls = 0;
                let built = best_deck(&KOTOKAZE, npc, Opponent::Perfect, Start::Either, &mut || {
                    calls += 1;
                    calls > asked
                })
                .unwrap();
                assert!(
                    built.win <= optimum && optimum <= built.upper,
                    "{name} {asked}: {built:?}"
                );
                if asked == 1 {
                    assert_eq!((built.deck, built.upper), (None, 1.0));
                }
                if built.complete {
                    assert_eq!(built.upper, optimum);
                    break;
                }
                below_one += usize::from(built.upper < 1.0);
                // The stop callback is asked between rounds and, in the relaxed rounds, every
                // 65,536 positions.
                asked *= 2;
            }
        }
        assert!(below_one > 0, "a bound below 1 before the end");
    }

    /// Adding cards never lowers the best probability; the same collection in another order
    /// or with repeats gives the same deck.
    #[test]
    fn monotone_in_the_collection_and_deterministic() {
        let pool = weak(9);
        let mut last = 0.0;
        let mut values = Vec::new();
        for n in 5..=9 {
            let built = build(&pool[..n], "Triple Triad Master");
            assert!(built.complete);
            assert!(built.win >= last, "{n} cards: {} after {last}", built.win);
            last = built.win;
            values.push(built.win);
            let mut shuffled: Vec<u16> = pool[..n].iter().rev().copied().collect();
            shuffled.push(pool[0]);
            assert_eq!(build(&shuffled, "Triple Triad Master"), built, "{n} cards");
        }
        assert!(values[0] < values[4], "the best value grows somewhere: {values:?}");
    }

    #[test]
    fn bad_collections_get_a_clear_answer() {
        let master = npc("Triple Triad Master").unwrap();
        let none = best_deck(&weak(4), master, Opponent::Perfect, Start::Either, &mut || false).unwrap();
        assert_eq!((none.deck, none.complete), (None, true));
        let five_stars: Vec<u16> = CARDS.iter().filter(|c| c.rarity == 5).take(6).map(|c| c.id).collect();
        let none = best_deck(&five_stars, master, Opponent::Perfect, Start::Either, &mut || false).unwrap();
        assert_eq!(none.deck, None, "one five-star card a deck at most");
        assert_eq!(
            best_deck(&[1, 2, 9999], master, Opponent::Perfect, Start::Either, &mut || false),
            Err(BuildError::Deck(DeckError::UnknownCard(9999)))
        );
    }
}

//! Nantong long cards: a deal, with what it adds to the shared verbs: the seat to act, actions by
//! seat, the score breakdown, the next deal, and the two checks that need no deal (a hand's
//! standing and the score of a finished deal).

use arbiter_core::nantong::{self as nt, FinishedDeal, HandCheck, Kind};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::convert::{from_py, list_from_py, py_to_value, to_py, to_py_or_none, OrRaise};
use crate::verbs::{self, player_from_py, PyGame};

impl PyGame for nt::Nantong {
    const NUMBERED: bool = true;
}

/// The core's size of `groups` and `kinds` (the full game's where `None`), checked there.
fn sized(groups: Option<u32>, kinds: Option<u32>) -> PyResult<nt::Size> {
    nt::Options {
        groups,
        kinds,
        ..nt::Options::default()
    }
    .size()
    .py()
}

/// A batch's `groups` and `kinds`, read as the core's size.
pub fn size(groups: Option<&Bound<'_, PyAny>>, kinds: Option<&Bound<'_, PyAny>>) -> PyResult<nt::Size> {
    let read = |v: Option<&Bound<'_, PyAny>>, what: &str| {
        v.filter(|v| !v.is_none())
            .map(|v| crate::convert::integer(v, what, u32::MAX as u64).map(|n| n as u32))
            .transpose()
    };
    sized(read(groups, "groups")?, read(kinds, "kinds")?)
}

crate::game_class! {
    /// A deal of Nantong long cards: three seats (0, 1, 2), hidden hands, claims, kongs and hu
    /// scoring.
    Nantong(nt::Nantong, "Nantong") {
        /// A deal whose deck order and dealer are drawn from `seed`; `groups` (0 to 7) and
        /// `kinds` (1 to 30) make a smaller deal (`rules/nantong-small.md`): winning hands of
        /// `groups` groups and a pair, a deck of the first `kinds` kinds.
        #[new]
        #[pyo3(signature = (seed, *, groups = None, kinds = None))]
        fn new(seed: &Bound<'_, PyAny>, groups: Option<u32>, kinds: Option<u32>) -> PyResult<Self> {
            let size = sized(groups, kinds)?;
            Ok(Nantong(nt::Nantong::sized(crate::convert::seed(seed)?, size)))
        }

        /// The canonical deal of a deck order (120 card codes, four of each kind): the dealer
        /// takes the first 23 cards, the next seats 22 each, two indicators are turned up, 51
        /// make the stock. With `groups` below 7, a smaller deal: the deck holds four of each of
        /// the first `len(deck) / 4` kinds, the dealer takes `3 * groups + 2` cards, the others
        /// `3 * groups + 1`.
        #[staticmethod]
        #[pyo3(signature = (deck, dealer, *, groups = None))]
        fn deal(deck: &Bound<'_, PyAny>, dealer: &Bound<'_, PyAny>, groups: Option<u32>) -> PyResult<Self> {
            let deck: Vec<Kind> = list_from_py(deck, "deck")?;
            let dealer = player_from_py::<nt::Nantong>(dealer)?;
            let kinds = Some((deck.len() / 4).max(1) as u32);
            let size = sized(groups, kinds)?;
            nt::Nantong::deal_sized(&deck, dealer, size).py().map(Nantong)
        }

        /// Groups in a winning hand (7; fewer in a smaller deal).
        #[getter]
        fn groups(&self) -> usize {
            self.0.size().groups()
        }

        /// Kinds in the deck (30; fewer in a smaller deal).
        #[getter]
        fn kinds(&self) -> usize {
            self.0.size().kinds()
        }

        /// The next deal: the next seat deals a deck shuffled by this deal's generator.
        fn next_deal(&self) -> Self {
            Nantong(self.0.next_deal())
        }

        /// The seat to act (the same as `to_move`); `None` once the deal is over.
        #[getter]
        fn actor<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            verbs::to_move(py, &self.0)
        }

        /// The dealer.
        #[getter]
        fn dealer(&self) -> usize {
            <nt::Nantong as arbiter_core::Engine>::player_index(self.0.dealer())
        }

        /// `seat` acts (notation or action id): `IllegalMoveError` when another seat is to act
        /// or the action is not legal now; nothing changes then.
        fn act(&mut self, seat: &Bound<'_, PyAny>, action: &Bound<'_, PyAny>) -> PyResult<()> {
            let seat = player_from_py::<nt::Nantong>(seat)?;
            let action = verbs::read_move(&self.0, action)?;
            self.0.act(seat, action).py()
        }

        /// Answers `pass` for every seat whose claim question has no other answer, and says how
        /// many it answered (for records that list only the questions a seat could act on, as
        /// the conformance `replay` cases; players who cannot see each other answer themselves,
        /// lest the speed of an automatic pass give a hand away).
        fn pass_forced(&mut self) -> usize {
            self.0.pass_forced()
        }

        /// The deal as a conformance `replay` case's input, `{"deck", "dealer", "actions"}`: the
        /// actions less the passes that no seat could have answered otherwise, which a `replay`
        /// runner answers itself (`pass_forced`) and a save (`to_json`) lists.
        fn replay_record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            let actions: Vec<_> = (self.0.unforced_history().into_iter())
                .map(|(seat, action)| serde_json::json!({"seat": seat, "action": action}))
                .collect();
            let record = serde_json::json!({"deck": self.0.deck(), "dealer": self.0.dealer(), "actions": actions});
            to_py(py, &record)
        }

        /// The itemised score of every seat once the deal is over, else `None`.
        fn score<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_py_or_none(py, self.0.score())
        }

        /// How the deal was won; `None` while it goes on and once it is exhausted.
        fn win<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_py_or_none(py, self.0.win())
        }

        /// Whether a hand wins (seven groups and a pair, the melds counted as groups) and the
        /// cards that would complete it when it is one short: `{"winning": bool, "waits": [...]}`.
        #[staticmethod]
        #[pyo3(signature = (hand, melds = None))]
        fn winning<'py>(
            py: Python<'py>,
            hand: &Bound<'py, PyAny>,
            melds: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let empty = PyList::empty(py).into_any();
            let melds = melds.filter(|m| !m.is_none()).unwrap_or(&empty);
            if !hand.is_instance_of::<PyList>() && !hand.is_instance_of::<pyo3::types::PyTuple>() {
                return Err(crate::convert::wrong_type("hand", "a list", hand));
            }
            let check = serde_json::json!({
                "hand": py_to_value(hand, "hand")?,
                "melds": py_to_value(melds, "melds")?,
            });
            let check: HandCheck = serde_json::from_value(check)
                .map_err(|e| crate::convert::parse_error(format!("hand check: {e}")))?;
            to_py(py, &check.standing())
        }

        /// The score of a finished deal given as its cards (the conformance `score` input:
        /// indicators, dealer, each seat's hand, melds and ready flag, and the win or `None`).
        /// Raises `ParseError` for cards that no deal can end with.
        #[staticmethod]
        fn score_hand<'py>(py: Python<'py>, input: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
            to_py(py, &from_py::<FinishedDeal>(input, "finished deal")?.score())
        }
    }
}

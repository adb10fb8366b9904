//! Nantong behind the shared verbs ([`Game`]) and as hosts drive it ([`Engine`]), and its errors
//! as hosts see them ([`Error`]).

use alloc::string::ToString;
use alloc::vec::Vec;

use super::{
    ai, tensor, Action, BadAction, Nantong, NantongError, NoSuchSeat, Observation, Phase, ScoreError, Seat, UnknownCard,
};
use crate::error::{classify, Error, ErrorKind};
use crate::{Budget, Engine, Game, Outcome, Rng};

impl Engine for Nantong {
    const NAME: &'static str = "nantong";
    const PLAYERS: &'static [Seat] = &Seat::ALL;
    type Level = ai::Level;
    const LEVELS: &'static [&'static str] = &ai::Level::NAMES;
    const RETURNS_POINTS: bool = true;

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

    fn history(&self) -> Vec<Action> {
        Nantong::history(self).iter().map(|&(_, a)| a).collect()
    }

    fn undo(&mut self) -> Option<Action> {
        Nantong::undo(self).map(|(_, a)| a)
    }

    /// The generic perft's count, with one state and one list of actions a level, refilled in
    /// place: a clone of a deal allocates its melds, discards, history and last event anew, and
    /// the generic perft clones at every node (in the npm package's module the allocator then
    /// weighs on perft's time).
    #[cfg_attr(arbiter_size, optimize(size))]
    fn perft(&self, depth: u32) -> u64 {
        // Any deal will do as a level's state (`refill` overwrites it); this one costs no clone's
        // code here.
        let mut levels: Vec<(Nantong, Vec<Action>)> = (0..depth).map(|_| (self.redealt(), Vec::new())).collect();
        perft_in(self, &mut levels)
    }

    fn tensor_len(&self) -> usize {
        tensor::LEN
    }

    /// The legal actions' ids without a list of the actions first. Sorted by insertion: the list
    /// is short (where `sort_unstable` sorts by insertion too), and its quicksort, which no other
    /// Nantong path needs, would weigh 7 KB in the npm package's module.
    fn legal_actions_into(&self, out: &mut Vec<usize>) {
        out.clear();
        self.each_action(|a| out.push(a.id()));
        for i in 1..out.len() {
            let id = out[i];
            let mut j = i;
            while j > 0 && out[j - 1] > id {
                out[j] = out[j - 1];
                j -= 1;
            }
            out[j] = id;
        }
    }

    fn observation_tensor_into(&self, seat: Seat, out: &mut [f32]) {
        tensor::write(&self.sight(seat), out);
    }

    /// Each seat's net settlement in points (0 for all while the deal goes on).
    fn returns(&self) -> Vec<f64> {
        match self.score() {
            Some(s) => s.settlement.iter().map(|&p| p as f64).collect(),
            None => alloc::vec![0.0; 3],
        }
    }

    /// `pass` in a claim window and `finish` in the preparation (a seat that lets its clock run
    /// out claims nothing and declares nothing), after a draw the drawn card, else the first
    /// discard offered.
    fn timeout_move(&self) -> Option<Action> {
        let actions = self.actions();
        let drawn = match self.phase() {
            Phase::AfterDraw { drawn, .. } => Some(Action::Discard(drawn)),
            _ => None,
        };
        [Some(Action::Pass), Some(Action::Finish), drawn]
            .into_iter()
            .flatten()
            .find(|a| actions.contains(a))
            .or_else(|| actions.iter().copied().find(|a| matches!(a, Action::Discard(_))))
            .or_else(|| actions.first().copied())
    }

    /// The levels do no search (a few microseconds a choice): the budget changes nothing.
    fn choose_level(&self, level: ai::Level, rng: &mut Rng, _budget: Budget<'_>) -> Option<Action> {
        let seat = self.to_move()?;
        ai::choose_at(&self.observation(seat), level, rng)
    }
}

/// Perft from `g` over `levels`' states and lists, one level a ply.
#[cfg_attr(arbiter_size, optimize(size))]
fn perft_in(g: &Nantong, levels: &mut [(Nantong, Vec<Action>)]) -> u64 {
    let Some(((next, actions), deeper)) = levels.split_first_mut() else {
        return 1;
    };
    actions.clear();
    g.each_action(|a| actions.push(a));
    if deeper.is_empty() {
        return actions.len() as u64;
    }
    let mut n = 0;
    for &a in actions.iter() {
        next.refill(g);
        next.play_unchecked(a);
        n += perft_in(next, deeper);
    }
    n
}

impl Nantong {
    /// `*self = source.clone()` for a deal still going on (perft refills from states with
    /// actions), keeping this state's buffers where they are large enough. Every field is named,
    /// so that a field added to the deal cannot be left out here.
    fn refill(&mut self, source: &Nantong) {
        let Nantong {
            size,
            rng,
            dealer,
            indicators,
            deck,
            front,
            back,
            hands,
            dealt,
            melds,
            ready,
            discards,
            phase,
            claiming_first_discard,
            history,
            last,
            result,
        } = source;
        self.size = *size;
        self.rng = *rng;
        self.dealer = *dealer;
        self.indicators = *indicators;
        self.deck = *deck;
        self.front = *front;
        self.back = *back;
        self.hands = *hands;
        self.dealt = *dealt;
        for (mine, theirs) in self.melds.iter_mut().zip(melds) {
            mine.clone_from(theirs);
        }
        self.ready = *ready;
        self.discards.clone_from(discards);
        self.phase = *phase;
        self.claiming_first_discard = *claiming_first_discard;
        self.history.clone_from(history);
        self.last.clone_from(last);
        debug_assert!(result.is_none(), "a finished deal has no actions to refill for");
        self.result = None;
    }
}

classify! {
    Parse: BadAction, UnknownCard;
    BadArgument: ScoreError, NoSuchSeat;
}

impl From<NantongError> for Error {
    fn from(e: NantongError) -> Error {
        let kind = match e {
            NantongError::Over => ErrorKind::GameOver,
            NantongError::BadDeck => ErrorKind::BadArgument,
            NantongError::OutOfTurn { .. } | NantongError::Illegal { .. } => ErrorKind::IllegalMove,
        };
        Error::new(kind, e.to_string())
    }
}

impl Game for Nantong {
    type Player = Seat;
    type Move = Action;
    type MoveList = Vec<Action>;
    type MoveError = NantongError;
    type Observation = Observation;

    fn num_distinct_actions(&self) -> usize {
        Action::COUNT
    }

    fn to_move(&self) -> Option<Seat> {
        self.actor()
    }

    fn legal_moves(&self) -> Vec<Action> {
        self.actions()
    }

    fn play(&mut self, mv: Action) -> Result<(), NantongError> {
        let seat = self.actor().ok_or(NantongError::Over)?;
        self.act(seat, mv)
    }

    fn play_unchecked(&mut self, mv: Action) {
        let _ = self.play(mv);
    }

    fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn outcome(&self) -> Option<Outcome<Seat>> {
        self.result
            .as_ref()
            .map(|(w, _)| w.map_or(Outcome::Draw, |w| Outcome::Winner(w.seat)))
    }

    fn observation(&self, seat: Seat) -> Observation {
        self.observe(seat)
    }

    fn action_id(&self, mv: Action) -> Result<usize, crate::Error> {
        Ok(mv.id())
    }

    fn action_move(&self, id: usize) -> Option<Action> {
        Action::from_id(id)
    }
}

/// `Eq` is derived, so equal states have played the same actions: their history is the hash.
impl crate::Transpose for Nantong {
    fn position_hash(&self) -> u64 {
        crate::frontier::hash_of(&self.history)
    }
}

/// A deal ends with each seat's net settlement.
#[cfg(feature = "std")]
impl crate::arena::Contest for Nantong {
    fn points(&self) -> Option<Vec<f64>> {
        self.score().map(|s| s.settlement.iter().map(|&p| p as f64).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deals of each size along a few seeded lines of play: before the first action, in the
    /// preparation, in turns and claim windows, and over.
    fn positions() -> Vec<Nantong> {
        let mut out = Vec::new();
        for seed in 0..6 {
            let mut g = Nantong::new(seed);
            let mut rng = Rng::new(seed);
            out.push(g.clone());
            while let Some(seat) = g.actor() {
                let actions = g.actions();
                let a = actions[rng.below(actions.len() as u64) as usize];
                g.act(seat, a).unwrap();
                if g.history.len() % 17 == 0 {
                    out.push(g.clone());
                }
            }
            out.push(g);
        }
        out
    }

    #[test]
    fn perft_counts_as_the_generic_perft() {
        for g in positions() {
            for depth in 0..4 {
                assert_eq!(g.perft(depth), crate::game::perft(&g, depth), "{:?}", g.history);
            }
        }
        let g = Nantong::new(1);
        assert_eq!(g.perft(8), crate::game::perft(&g, 8));
    }

    #[test]
    fn a_refilled_state_equals_its_source() {
        let all = positions();
        for (i, source) in all.iter().enumerate().filter(|(_, g)| !g.is_over()) {
            let mut g = all[(i * 7 + 3) % all.len()].clone();
            g.refill(source);
            assert_eq!(&g, source);
        }
    }
}

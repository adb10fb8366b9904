//! Batched stepping: N games of one kind stepped in one call, writing observation tensors, legal
//! action masks, rewards, the player to move and done flags into NumPy arrays, with the GIL
//! released and the games split over threads.
//!
//! Each game's episodes are seeded from the batch's seed, the game's index and the episode's
//! number alone, so the arrays after any sequence of `step` calls are the same whatever the
//! number of threads. A finished game restarts at once from its next seed (as vectorised
//! environments do): `done[i]` and `rewards[i]` tell of the game that just ended, the other
//! arrays show the new one.

use arbiter_core::nantong::{Nantong, Size};
use arbiter_core::trax::{Trax, Variant};
use arbiter_core::tripletriad::{Dealer, TripleTriad, DEFAULT_PRESET};
use arbiter_core::{Budget, Error, ErrorKind, Rng};
use numpy::ndarray::Dimension;
use numpy::{Element, PyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PySlice, PyTuple};
use std::sync::Mutex;

use crate::convert::{bad_argument, integer, raise, seed, wrong_type, OrRaise};
use crate::crew::{lock, Crew};
use crate::memory;
use crate::pages;
use crate::verbs::PyGame;

/// A game that a batch can start afresh from a seed.
pub trait Fresh: PyGame<Level: Send + Sync> {
    /// What every game of a batch shares (a preset, a variant).
    type Params: Send + Sync;
    /// A new game for `seed`.
    fn fresh(params: &Self::Params, seed: u64) -> Result<Self, Error>;
    /// A game for another of a large batch's slots (one that asks for huge pages, [`pages`]), as
    /// `first` is before its first episode: a copy. (A small batch copies `first`.)
    fn spare(_: &Self::Params, first: &Self) -> Self {
        first.clone()
    }
    /// [`Fresh::fresh`] over a finished `game`, reusing what it can.
    fn refresh(params: &Self::Params, seed: u64, game: &mut Self) -> Result<(), Error> {
        *game = Self::fresh(params, seed)?;
        Ok(())
    }
}

impl Fresh for TripleTriad {
    type Params = Dealer;
    fn fresh(dealer: &Dealer, seed: u64) -> Result<TripleTriad, Error> {
        Ok(dealer.deal(seed))
    }
    /// The round's table refilled in place (unless `game(i)` handed out a copy that shares it).
    fn refresh(dealer: &Dealer, seed: u64, game: &mut TripleTriad) -> Result<(), Error> {
        dealer.deal_into(seed, game);
        Ok(())
    }
}

impl Fresh for Trax {
    type Params = Variant;
    /// Trax has no chance: every game starts on the empty board.
    fn fresh(variant: &Variant, _seed: u64) -> Result<Trax, Error> {
        Ok(Trax::new(*variant))
    }
    /// A new game, not a copy: a new 8x8 game's lists are reserved for a whole game, side by
    /// side, under the huge pages asked for them, where a copy's are empty and then grow
    /// wherever the allocator has room as the games play their first turns in turn, a game's
    /// lists then on as many pages. (In a small batch, whose memory the caches hold, the copies'
    /// lists as grown, smaller, were 1 % faster: 64 games.)
    fn spare(variant: &Variant, _: &Trax) -> Trax {
        Trax::new(*variant)
    }
    /// The game emptied in place, its memory kept where it was ([`Trax::restart`]).
    fn refresh(_: &Variant, _seed: u64, game: &mut Trax) -> Result<(), Error> {
        game.restart();
        Ok(())
    }
}

impl Fresh for Nantong {
    type Params = Size;
    fn fresh(size: &Size, seed: u64) -> Result<Nantong, Error> {
        Ok(Nantong::sized(seed, *size))
    }
}

/// The most heap bytes a game of the batch holds over an episode, its legal ids included: a fresh
/// game measured through a random game. Counted, not estimated: a game's tables and histories
/// are most of a batch's memory for the games with small observations.
fn footprint<G: Fresh>(params: &G::Params, seed: u64) -> Result<usize, Error> {
    let measure = memory::Measure::start();
    let mut game = G::fresh(params, seed)?;
    let mut legal = Vec::new();
    let mut rng = random_actions(seed);
    let mut most = 0;
    for _ in 0..PLAYOUT_STEPS {
        game.legal_actions_into(&mut legal);
        most = most.max(measure.kept());
        if game.is_over() || legal.is_empty() {
            break;
        }
        let id = legal[rng.below(legal.len() as u64) as usize];
        let mv = game
            .action_move(id)
            .ok_or_else(|| Error::new(ErrorKind::IllegalMove, format!("no action id {id}")))?;
        game.play(mv).map_err(Into::into)?;
    }
    Ok(most.max(0) as usize)
}

/// What every game of a batch shares: the game's parameters, and the built-in level that plays
/// the seats other than the learner's, if any.
pub struct Setup<G: Fresh> {
    params: G::Params,
    opponent: Option<Opponent<G>>,
}

/// A built-in level playing every seat but `learner`'s, inside the batch's threads: a step
/// plays the learner's action and then the others' until the learner is to move again.
pub struct Opponent<G: Fresh> {
    level: G::Level,
    learner: usize,
}

/// The seed of episode `episode` of game `index` in a batch seeded with `seed`.
pub fn episode_seed(seed: u64, index: u64, episode: u64) -> u64 {
    [index, episode].iter().fold(seed, |s, &p| Rng::new(s ^ p).next_u64())
}

/// One game of a batch, with its legal action ids (ascending) kept for checking the next step.
struct Slot<G> {
    game: G,
    episode: u64,
    legal: Vec<usize>,
    /// The action id the last step played.
    last: usize,
    /// Where `step_random` draws this episode's actions from.
    rng: Rng,
    /// The seed of the episode being played, and the moves played in it.
    seed: u64,
    plies: u64,
}

impl<G: Fresh> Slot<G> {
    /// Starts episode `episode` of game `i` of a batch seeded with `seed`, played up to the
    /// learner's first decision. An episode that the opponent ends before it (a Nantong dealer
    /// going out on the deal) has nothing to learn from: the next one begins.
    fn begin(&mut self, setup: &Setup<G>, seed: u64, i: usize, episode: u64) -> Result<(), Error> {
        let mut episode = episode;
        loop {
            let s = episode_seed(seed, i as u64, episode);
            G::refresh(&setup.params, s, &mut self.game)?;
            self.episode = episode;
            self.rng = random_actions(s);
            (self.seed, self.plies) = (s, 0);
            self.answer(setup)?;
            if setup.opponent.is_none() || !self.game.is_over() {
                return Ok(());
            }
            episode += 1;
        }
    }

    /// The opponent's moves, until the learner is to move or the game is over.
    fn answer(&mut self, setup: &Setup<G>) -> Result<(), Error> {
        let Some(opponent) = &setup.opponent else {
            return Ok(());
        };
        while let Some(p) = self.game.to_move() {
            if G::player_index(p) == opponent.learner {
                break;
            }
            let mut rng = Rng::new(opponent_seed(self.seed, self.plies));
            let mv = (self.game)
                .choose_level(opponent.level, &mut rng, Budget::default())
                .ok_or_else(|| Error::new(ErrorKind::GameOver, "the opponent has no move"))?;
            self.game.play(mv).map_err(Into::into)?;
            self.plies += 1;
        }
        Ok(())
    }

    /// Plays action id `action` (legal now), writes the rows, and starts the next episode if
    /// this one ended.
    fn advance(&mut self, setup: &Setup<G>, seed: u64, i: usize, action: usize, rows: Rows<'_>) -> Result<(), Error> {
        let mv = (self.game.action_move(action))
            .ok_or_else(|| Error::new(ErrorKind::IllegalMove, format!("game {i}: no action id {action}")))?;
        self.game.play(mv).map_err(Into::into)?;
        self.last = action;
        self.plies += 1;
        self.answer(setup)?;
        *rows.done = self.game.is_over();
        if *rows.done {
            for (r, v) in rows.rewards.iter_mut().zip(self.game.returns()) {
                *r = v as f32;
            }
            self.begin(setup, seed, i, self.episode + 1)?;
        } else {
            rows.rewards.fill(0.0);
        }
        write(self, rows);
        Ok(())
    }
}

/// The generator of `step_random`'s actions in the episode of seed `episode_seed`: another
/// stream than the deal's (`Rng::new(episode_seed)`), so that the actions do not repeat the
/// deal's draws.
fn random_actions(episode_seed: u64) -> Rng {
    Rng::new(!episode_seed)
}

/// The seed of the opponent's choice at move `ply` (from 0) of the episode of seed
/// `episode_seed`: a single game replays it with `choose_move(level, seed)`. Another stream
/// than the deal's and `step_random`'s.
pub fn opponent_seed(episode_seed: u64, ply: u64) -> u64 {
    Rng::new(episode_seed.rotate_left(32) ^ ply.wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64()
}

/// Whether game `i` may step (its action is legal), before any game steps.
type Check<'a, G> = &'a (dyn Fn(usize, &Slot<G>) -> Result<(), Error> + Sync);

/// The rows of the output arrays that belong to one game.
struct Rows<'a> {
    observation: &'a mut [f32],
    mask: Option<&'a mut [bool]>,
    rewards: &'a mut [f32],
    to_move: &'a mut i32,
    done: &'a mut bool,
}

/// The most bytes a batch takes where the system does not say what is left (not Linux).
const MAX_BYTES: u64 = 1 << 31;
/// The share of what is left that one batch may take: the rest is the program's and the steps'.
const SHARE_OF_HEADROOM: (u64, u64) = (9, 10);
/// The most steps of the random game through which a batch measures a game's footprint.
const PLAYOUT_STEPS: usize = 2_000;
/// The most games and threads a batch takes.
const MAX_GAMES: u64 = 1 << 20;
const MAX_THREADS: u64 = 256;

/// A call's games and arrays as pointers, from which each thread makes the slices of the pieces it
/// claims: a list of every piece's slices, written by the calling thread at every call, cost each
/// worker a cache line fetched from the caller's core for each piece it checked or played (about
/// 200 ns apiece between the two cores of the machines we measure).
struct Whole<G> {
    slots: *mut Slot<G>,
    observations: *mut f32,
    masks: Option<*mut bool>,
    rewards: *mut f32,
    to_move: *mut i32,
    done: *mut bool,
    /// The lengths of an observation, a mask and a rewards row.
    widths: (usize, usize, usize),
}

// SAFETY: the pointers are used only through `Whole::piece`, whose callers hold their piece alone.
unsafe impl<G: Send> Sync for Whole<G> {}

/// One piece's games and rows.
type Piece<'a, G> = (
    &'a mut [Slot<G>],
    &'a mut [f32],
    Option<&'a mut [bool]>,
    &'a mut [f32],
    &'a mut [i32],
    &'a mut [bool],
);

impl<G> Whole<G> {
    /// The games `start..end` and their rows.
    ///
    /// # Safety
    /// `start..end` lies within the call's games, and no other thread uses any of them while the
    /// slices live.
    unsafe fn piece(&self, start: usize, end: usize) -> Piece<'_, G> {
        let (t, a, p) = self.widths;
        let n = end - start;
        // SAFETY: within the arrays the pointers were taken from (the caller's promise), and not
        // aliased (likewise).
        unsafe {
            (
                std::slice::from_raw_parts_mut(self.slots.add(start), n),
                std::slice::from_raw_parts_mut(self.observations.add(start * t), n * t),
                self.masks
                    .map(|m| std::slice::from_raw_parts_mut(m.add(start * a), n * a)),
                std::slice::from_raw_parts_mut(self.rewards.add(start * p), n * p),
                std::slice::from_raw_parts_mut(self.to_move.add(start), n),
                std::slice::from_raw_parts_mut(self.done.add(start), n),
            )
        }
    }
}

/// N games of one kind and the arrays they are written to.
pub struct Batch<G: Fresh> {
    setup: Setup<G>,
    slots: Vec<Slot<G>>,
    seed: u64,
    threads: usize,
    /// The batch's worker threads beside the calling thread, which steps a chunk of its own
    /// (`None` on one thread: the games step in the calling thread alone).
    crew: Option<Crew>,
    tensor_len: usize,
    num_actions: usize,
    masks: bool,
    arrays: Arrays,
}

/// The batch's own output arrays, written when `step` is given no `out`.
struct Arrays {
    observations: Py<PyArray2<f32>>,
    masks: Option<Py<PyArray2<bool>>>,
    rewards: Py<PyArray2<f32>>,
    to_move: Py<PyArray1<i32>>,
    done: Py<PyArray1<bool>>,
}

/// The bytes left unused after each of a batch's own arrays. The small arrays (masks, rewards,
/// players to move, done flags) lie one after the other on the heap, each ending with the
/// worker's rows (the back range, see `crew::Split`) just before the calling thread's first rows
/// of the next one. The worker's stores at an array's end slowed the caller's next range (64
/// Triple Triad games of a 128-game call in 13.9-14.0 µs, 13.1-13.3 with this gap: `docs/speed.md`,
/// "Fifteenth round, two threads"), most likely through the prefetch that those stores set off,
/// which takes the lines after them from the caller's core. A prefetch does not cross a page
/// boundary, and any 4,096 bytes hold one.
const GAP: usize = 4096;

/// A zeroed C-contiguous array of `shape` whose data starts at a multiple of 64 bytes (of a huge
/// page when it is large): JAX takes a DLPack array without a copy only when it is so aligned,
/// and NumPy aligns to 16. A view into a longer array, which it keeps alive, and whose last page
/// ([`GAP`]) nothing uses.
fn aligned_zeros<T: Element, D: Dimension>(py: Python<'_>, shape: &[usize]) -> PyResult<Py<PyArray<T, D>>> {
    let len: usize = shape.iter().product();
    // An array of half a huge page or more starts on one, so that it spans the fewest (`pages`):
    // 1,024 Trax games' observations (2,028 KB) fit one.
    let align = if len * size_of::<T>() >= pages::HUGE / 2 {
        pages::HUGE
    } else {
        64
    };
    let pad = (align + GAP) / size_of::<T>();
    let whole = PyArray1::<T>::zeros(py, len + pad, false);
    let skip = (align - whole.data() as usize % align) % align / size_of::<T>();
    let view = whole
        .get_item(PySlice::new(py, skip as isize, (skip + len) as isize, 1))?
        .call_method1("reshape", (shape.to_vec(),))?;
    Ok(view.cast_into::<PyArray<T, D>>()?.unbind())
}

/// The arrays one call writes, bound to the interpreter.
struct Targets<'py> {
    observations: Bound<'py, PyArray2<f32>>,
    masks: Option<Bound<'py, PyArray2<bool>>>,
    rewards: Bound<'py, PyArray2<f32>>,
    to_move: Bound<'py, PyArray1<i32>>,
    done: Bound<'py, PyArray1<bool>>,
}

impl<'py> Targets<'py> {
    fn tuple(&self) -> PyResult<Bound<'py, PyTuple>> {
        let py = self.observations.py();
        PyTuple::new(
            py,
            [
                self.observations.clone().into_any(),
                self.masks
                    .clone()
                    .map_or_else(|| py.None().into_bound(py), Bound::into_any),
                self.rewards.clone().into_any(),
                self.to_move.clone().into_any(),
                self.done.clone().into_any(),
            ],
        )
    }
}

impl<G: Fresh> Batch<G> {
    pub fn new(
        py: Python<'_>,
        params: G::Params,
        opponent: Option<Opponent<G>>,
        num_games: &Bound<'_, PyAny>,
        seed_value: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        masks: Option<bool>,
    ) -> PyResult<Batch<G>> {
        let n = integer(num_games, "num_games", MAX_GAMES)? as usize;
        if n == 0 {
            return Err(bad_argument("num_games must be at least 1"));
        }
        let threads = threads.map_or(Ok(1), |t| integer(t, "threads", MAX_THREADS))?.max(1) as usize;
        let seed = seed_value.map_or(Ok(0), seed)?;
        let first = G::fresh(&params, episode_seed(seed, 0, 0)).py()?;
        let (tensor_len, num_actions, players) = (first.tensor_len(), first.num_distinct_actions(), G::PLAYERS.len());
        // Dense masks unless they would be large (unbounded Trax): then legal_actions(i).
        let masks = masks.unwrap_or(num_actions <= 1 << 16);
        let row = (tensor_len * 4 + players * 4 + 4 + 1 + if masks { num_actions } else { 0 }) as u64;
        let state = (size_of::<Slot<G>>() + footprint::<G>(&params, episode_seed(seed, 0, 0)).py()?) as u64;
        let bytes = (n as u64).saturating_mul(row + state);
        let (most, whose) = memory::headroom().map_or((MAX_BYTES, "the ceiling where the system does not say"), |h| {
            (h / SHARE_OF_HEADROOM.1 * SHARE_OF_HEADROOM.0, "90 % of what this process may still take: the least of MemAvailable, its cgroup's memory.max and ulimit -v")
        });
        if bytes > most {
            let hint = if masks && num_actions as u64 > state {
                "; masks=False and legal_actions(i) save the masks"
            } else {
                ""
            };
            let mib = |b: u64| b.div_ceil(1 << 20);
            return Err(raise(Error::new(
                ErrorKind::LimitExceeded,
                format!(
                    "{n} games would take {} MiB ({row} bytes of arrays and {state} of game state a game), more than {} MiB ({whose}){hint}",
                    mib(bytes),
                    mib(most),
                ),
            )));
        }
        let arrays = Arrays {
            observations: aligned_zeros(py, &[n, tensor_len])?,
            masks: masks.then(|| aligned_zeros(py, &[n, num_actions])).transpose()?,
            rewards: aligned_zeros(py, &[n, players])?,
            to_move: aligned_zeros(py, &[n])?,
            done: aligned_zeros(py, &[n])?,
        };
        let large = bytes >= pages::WORTH_IT;
        let slots = (0..n)
            .map(|_| Slot {
                game: if large {
                    G::spare(&params, &first)
                } else {
                    first.clone()
                },
                episode: 0,
                legal: Vec::new(),
                last: 0,
                rng: Rng::new(0),
                seed: 0,
                plies: 0,
            })
            .collect();
        let crew = (threads > 1 && n > 1)
            .then(|| Crew::new(threads.min(n) - 1))
            .transpose()
            .map_err(|e| {
                raise(Error::new(
                    ErrorKind::LimitExceeded,
                    format!("cannot start {threads} threads: {e}"),
                ))
            })?;
        let mut batch = Batch {
            setup: Setup { params, opponent },
            slots,
            seed,
            threads,
            crew,
            tensor_len,
            num_actions,
            masks,
            arrays,
        };
        batch.restart(py, seed, None)?;
        if large {
            batch.huge_pages(py);
        }
        Ok(batch)
    }

    /// Asks for huge pages under the batch's memory ([`pages`]): its slots, its games' blocks and
    /// legal ids on the heap (side by side there, as they were made one after the other), and
    /// its own arrays.
    fn huge_pages(&self, py: Python<'_>) {
        let mut windows = pages::Windows::default();
        windows.add(self.slots.as_ptr() as usize, size_of_val(&self.slots[..]));
        for slot in &self.slots {
            slot.game.heap_blocks(|start, bytes| windows.add(start as usize, bytes));
        }
        for slot in &self.slots {
            windows.add(slot.legal.as_ptr() as usize, slot.legal.capacity() * size_of::<usize>());
        }
        fn array<T: Element, D: Dimension>(windows: &mut pages::Windows, a: &Py<PyArray<T, D>>, py: Python<'_>) {
            let a = a.bind(py);
            windows.add(a.data() as usize, a.len() * size_of::<T>());
        }
        let a = &self.arrays;
        array(&mut windows, &a.observations, py);
        array(&mut windows, &a.rewards, py);
        array(&mut windows, &a.to_move, py);
        array(&mut windows, &a.done, py);
        if let Some(m) = &a.masks {
            array(&mut windows, m, py);
        }
        pages::advise(&windows);
    }

    /// The arrays of `out` (a tuple or list of five as `step` returns them), checked, or the
    /// batch's own.
    fn targets<'py>(&self, py: Python<'py>, out: Option<&Bound<'py, PyAny>>) -> PyResult<Targets<'py>> {
        let Some(out) = out.filter(|o| !o.is_none()) else {
            return Ok(Targets {
                observations: self.arrays.observations.bind(py).clone(),
                masks: self.arrays.masks.as_ref().map(|m| m.bind(py).clone()),
                rewards: self.arrays.rewards.bind(py).clone(),
                to_move: self.arrays.to_move.bind(py).clone(),
                done: self.arrays.done.bind(py).clone(),
            });
        };
        let items: Vec<Bound<'py, PyAny>> = match out.extract() {
            Ok(items) if !out.is_instance_of::<pyo3::types::PyString>() => items,
            _ => return Err(wrong_type("out", "a tuple of five arrays", out)),
        };
        if items.len() != 5 {
            return Err(bad_argument(format!(
                "out must hold five arrays (observations, masks, rewards, to_move, done), got {}",
                items.len()
            )));
        }
        let n = self.slots.len();
        fn array<'py, T: pyo3::PyTypeCheck>(v: &Bound<'py, PyAny>, what: &str, dtype: &str) -> PyResult<Bound<'py, T>> {
            v.cast::<T>()
                .cloned()
                .map_err(|_| wrong_type(what, &format!("a NumPy array of {dtype}"), v))
        }
        let observations: Bound<'py, PyArray2<f32>> = array(&items[0], "out observations", "float32, 2-D")?;
        let masks = match (&self.masks, items[1].is_none()) {
            (true, false) => Some(array::<PyArray2<bool>>(&items[1], "out masks", "bool, 2-D")?),
            (true, true) => return Err(bad_argument("out masks must be an array: this batch writes masks")),
            (false, true) => None,
            (false, false) => return Err(bad_argument("out masks must be None: this batch writes no masks")),
        };
        let rewards: Bound<'py, PyArray2<f32>> = array(&items[2], "out rewards", "float32, 2-D")?;
        let to_move: Bound<'py, PyArray1<i32>> = array(&items[3], "out to_move", "int32, 1-D")?;
        let done: Bound<'py, PyArray1<bool>> = array(&items[4], "out done", "bool, 1-D")?;
        let shapes = [
            ("observations", observations.shape().to_vec(), vec![n, self.tensor_len]),
            ("rewards", rewards.shape().to_vec(), vec![n, G::PLAYERS.len()]),
            ("to_move", to_move.shape().to_vec(), vec![n]),
            ("done", done.shape().to_vec(), vec![n]),
        ];
        let mask_shape = masks.as_ref().map(|m| m.shape().to_vec());
        for (what, got, want) in shapes
            .into_iter()
            .chain(mask_shape.map(|s| ("masks", s, vec![n, self.num_actions])))
        {
            if got != want {
                return Err(bad_argument(format!(
                    "out {what} must have shape {want:?}, got {got:?}"
                )));
            }
        }
        Ok(Targets {
            observations,
            masks,
            rewards,
            to_move,
            done,
        })
    }

    /// Runs `f` on every game with its rows of `targets`, with the GIL released, the games cut
    /// into contiguous pieces that the batch's threads claim (see [`Crew`]); first `check` on
    /// every game, if given, so that a refusal changes nothing. On threads each thread checks
    /// the pieces it claims, and plays once every check has passed (a lookup a game, but a
    /// cache miss or two each, the check was about a twentieth of a step, all of it the calling
    /// thread's).
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        targets: &Targets<'py>,
        check: Option<Check<'_, G>>,
        f: impl Fn(&Setup<G>, u64, usize, &mut Slot<G>, Rows<'_>) -> Result<(), Error> + Sync,
    ) -> PyResult<()> {
        let mut observations = targets.observations.try_readwrite()?;
        let mut masks = targets.masks.as_ref().map(|m| m.try_readwrite()).transpose()?;
        let mut rewards = targets.rewards.try_readwrite()?;
        let mut to_move = targets.to_move.try_readwrite()?;
        let mut done = targets.done.try_readwrite()?;
        let contiguous = |_| bad_argument("out arrays must be C-contiguous");
        let observations = observations.as_slice_mut().map_err(contiguous)?;
        let masks = masks
            .as_mut()
            .map(|m| m.as_slice_mut())
            .transpose()
            .map_err(contiguous)?;
        let rewards = rewards.as_slice_mut().map_err(contiguous)?;
        let to_move = to_move.as_slice_mut().map_err(contiguous)?;
        let done = done.as_slice_mut().map_err(contiguous)?;
        let (t, a, p) = (self.tensor_len, self.num_actions, G::PLAYERS.len());
        let (setup, seed) = (&self.setup, self.seed);
        let slots = self.slots.as_mut_slice();
        let f = &f;
        let work = move |start: usize,
                         slots: &mut [Slot<G>],
                         observations: &mut [f32],
                         mut masks: Option<&mut [bool]>,
                         rewards: &mut [f32],
                         to_move: &mut [i32],
                         done: &mut [bool]|
              -> Result<(), Error> {
            if crate::crew::on_worker() {
                let piece = (slots, observations, masks, rewards, to_move, done);
                return deferred(piece, (t, a, p), |k, slot, rows| f(setup, seed, start + k, slot, rows));
            }
            for (k, slot) in slots.iter_mut().enumerate() {
                let rows = Rows {
                    observation: &mut observations[k * t..(k + 1) * t],
                    mask: masks.as_deref_mut().map(|m| &mut m[k * a..(k + 1) * a]),
                    rewards: &mut rewards[k * p..(k + 1) * p],
                    to_move: &mut to_move[k],
                    done: &mut done[k],
                };
                f(setup, seed, start + k, slot, rows)?;
            }
            Ok(())
        };
        if let Some(crew) = self.crew.as_mut() {
            crew.after_fork().map_err(|e| {
                raise(Error::new(
                    ErrorKind::LimitExceeded,
                    format!("cannot start the batch's threads: {e}"),
                ))
            })?;
        }
        let crew = self.crew.as_mut();
        let check_all = |slots: &[Slot<G>], start: usize| {
            check.map_or(Ok(()), |check| {
                (slots.iter().enumerate()).try_for_each(|(k, slot)| check(start + k, slot))
            })
        };
        let result = py.detach(move || {
            let plan = crew.map(|crew| {
                let sizes = crew.plan(slots.len());
                (crew, sizes)
            });
            let (crew, sizes) = match plan {
                Some((crew, Some(sizes))) => (crew, sizes),
                plan => {
                    let alone = move || {
                        check_all(slots, 0)?;
                        work(0, slots, observations, masks, rewards, to_move, done)
                    };
                    return match plan {
                        Some((crew, _)) => crew.alone(alone),
                        None => alone(),
                    };
                }
            };
            let starts: Vec<usize> = std::iter::once(0)
                .chain(sizes.iter().scan(0, |at, &k| {
                    *at += k;
                    Some(*at)
                }))
                .collect();
            let whole = Whole {
                slots: slots.as_mut_ptr(),
                observations: observations.as_mut_ptr(),
                masks: masks.map(<[bool]>::as_mut_ptr),
                rewards: rewards.as_mut_ptr(),
                to_move: to_move.as_mut_ptr(),
                done: done.as_mut_ptr(),
                widths: (t, a, p),
            };
            // The first refusal (or error) in the games' order, whatever the threads: the error
            // of the piece that begins first. A panic (a bug) in a worker goes on in the calling
            // thread once every piece is done, where PyO3 turns it into a PanicException, as when
            // one game panics without threads.
            let first: Mutex<Option<(usize, Error)>> = Mutex::new(None);
            let keep = |at: usize, e: Error| {
                let mut first = lock(&first);
                if first.as_ref().is_none_or(|(was, _)| at < *was) {
                    *first = Some((at, e));
                }
            };
            let check_piece = |k: usize| {
                // SAFETY: piece `k` is this thread's until it returns, and no piece plays before
                // every check has returned (see `Crew::run`).
                let (slots, ..) = unsafe { whole.piece(starts[k], starts[k + 1]) };
                check_all(slots, starts[k]).map_err(|e| keep(starts[k], e)).is_ok()
            };
            crew.run(sizes.len(), check.is_some().then_some(&check_piece as _), &|k| {
                // SAFETY: as above; a piece plays once, in the thread that claimed it.
                let (s, o, m, r, t, d) = unsafe { whole.piece(starts[k], starts[k + 1]) };
                if let Err(e) = work(starts[k], s, o, m, r, t, d) {
                    keep(starts[k], e);
                }
            });
            first
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .map_or(Ok(()), |(_, e)| Err(e))
        });
        result.py()
    }

    /// Starts every game afresh: game `i`'s first episode from `episode_seed(seed, i, 0)`.
    pub fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed_value: &Bound<'py, PyAny>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seed = seed(seed_value)?;
        self.restart(py, seed, out)
    }

    fn restart<'py>(
        &mut self,
        py: Python<'py>,
        seed: u64,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let targets = self.targets(py, out)?;
        self.seed = seed;
        self.run(py, &targets, None, |setup, seed, i, slot, rows| {
            slot.begin(setup, seed, i, 0)?;
            rows.rewards.fill(0.0);
            *rows.done = false;
            write(slot, rows);
            Ok(())
        })?;
        targets.tuple()
    }

    /// Plays `actions[i]` (an action id, legal now) in game `i`, for every game.
    pub fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = read_actions(actions, self.slots.len())?;
        let targets = self.targets(py, out)?;
        let check = |i: usize, slot: &Slot<G>| {
            let a = actions[i];
            if usize::try_from(a).is_ok_and(|a| slot.legal.binary_search(&a).is_ok()) {
                return Ok(());
            }
            Err(Error::new(
                ErrorKind::IllegalMove,
                format!("game {i}: action id {a} is not legal now (legal: {:?})", slot.legal),
            ))
        };
        self.run(py, &targets, Some(&check), |setup, seed, i, slot, rows| {
            slot.advance(setup, seed, i, actions[i] as usize, rows)
        })?;
        targets.tuple()
    }

    /// Plays a random legal action in every game, drawn in the stepping thread from the game's
    /// own generator (seeded from the episode's seed, so the same whatever the threads).
    pub fn step_random<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let targets = self.targets(py, out)?;
        self.run(py, &targets, None, |setup, seed, i, slot, rows| {
            let drawn = slot.rng.below(slot.legal.len() as u64) as usize;
            let action = *(slot.legal.get(drawn))
                .ok_or_else(|| Error::new(ErrorKind::GameOver, format!("game {i} has no legal action")))?;
            slot.advance(setup, seed, i, action, rows)
        })?;
        targets.tuple()
    }

    /// The action ids the last step played, one per game (0 before any step).
    pub fn last_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_iter(py, self.slots.iter().map(|s| s.last as i64))
    }

    pub fn slot(&self, i: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(integer(i, "a game index", self.slots.len() as u64 - 1)? as usize)
    }

    pub fn game(&self, i: usize) -> G {
        self.slots[i].game.clone()
    }

    pub fn legal_actions<'py>(&self, py: Python<'py>, i: usize) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_vec(py, self.slots[i].legal.iter().map(|&a| a as i64).collect())
    }

    pub fn episode_seed(&self, i: usize) -> u64 {
        episode_seed(self.seed, i as u64, self.slots[i].episode)
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn tensor_len(&self) -> usize {
        self.tensor_len
    }

    pub fn num_actions(&self) -> usize {
        self.num_actions
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn writes_masks(&self) -> bool {
        self.masks
    }

    pub fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.targets(py, None)?.tuple()
    }
}

/// The rows of a worker's piece that the caller's Python reads between calls (the masks that a
/// NumPy draw reads, the rewards, players to move and done flags), written here first.
#[derive(Default)]
struct Deferred {
    masks: Vec<bool>,
    rewards: Vec<f32>,
    to_move: Vec<i32>,
    done: Vec<bool>,
}

thread_local! {
    static DEFERRED: std::cell::Cell<Deferred> = std::cell::Cell::new(Deferred::default());
}

/// Plays `f` on every game of a worker's piece, its masks, rewards, players to move and done
/// flags written into buffers of the thread's own, copied to the arrays at the end of the piece.
///
/// Why: the caller's Python read those rows after the last call, so each of their lines is in
/// the other core's cache, and written game by game, each line a game wrote stalled the worker
/// until it came back (about 210 ns a line between the two virtual CPUs we measure; less than a
/// line a Triple Triad game, about 200 ns of work): the worker stepped its games up to 1.5
/// times slower than the caller. Copied in one burst, the lines are fetched many at a time. The
/// observations are written in place: a draw from the masks leaves them in the worker's cache.
/// (Streaming stores, which fetch no line, cost more than they saved: `docs/speed.md`,
/// "Fourteenth round".)
fn deferred<G>(
    (slots, observations, masks, rewards, to_move, done): Piece<'_, G>,
    (t, a, p): (usize, usize, usize),
    f: impl Fn(usize, &mut Slot<G>, Rows<'_>) -> Result<(), Error>,
) -> Result<(), Error> {
    let n = slots.len();
    let mut own = DEFERRED.take();
    own.masks.resize(masks.as_ref().map_or(0, |m| m.len()), false);
    own.rewards.resize(n * p, 0.0);
    own.to_move.resize(n, 0);
    own.done.resize(n, false);
    let has_masks = masks.is_some();
    let (mut result, mut played) = (Ok(()), 0);
    for (k, slot) in slots.iter_mut().enumerate() {
        let rows = Rows {
            observation: &mut observations[k * t..(k + 1) * t],
            mask: has_masks.then(|| &mut own.masks[k * a..(k + 1) * a]),
            rewards: &mut own.rewards[k * p..(k + 1) * p],
            to_move: &mut own.to_move[k],
            done: &mut own.done[k],
        };
        played = k + 1;
        result = f(k, slot, rows);
        if result.is_err() {
            break;
        }
    }
    // The games up to the one that failed wrote their rows (as in place), no other.
    if let Some(masks) = masks {
        masks[..played * a].copy_from_slice(&own.masks[..played * a]);
    }
    rewards[..played * p].copy_from_slice(&own.rewards[..played * p]);
    to_move[..played].copy_from_slice(&own.to_move[..played]);
    done[..played].copy_from_slice(&own.done[..played]);
    DEFERRED.set(own);
    result
}

/// Writes a game's legal ids, mask, observation tensor (of the player to move) and player to move.
fn write<G: Fresh>(slot: &mut Slot<G>, rows: Rows<'_>) {
    slot.game.legal_actions_into(&mut slot.legal);
    if let Some(mask) = rows.mask {
        mask.fill(false);
        for &id in &slot.legal {
            mask[id] = true;
        }
    }
    match slot.game.to_move() {
        Some(p) => {
            slot.game.observation_tensor_into(p, rows.observation);
            *rows.to_move = G::player_index(p) as i32;
        }
        None => {
            rows.observation.fill(0.0);
            *rows.to_move = -1;
        }
    }
}

/// The actions of a step: a NumPy int64 array, or any sequence of ints, one per game.
fn read_actions(actions: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<i64>> {
    let ids: Vec<i64> = if let Ok(a) = actions.extract::<PyReadonlyArray1<'_, i64>>() {
        a.as_array().to_vec()
    } else {
        match actions.extract::<Vec<i64>>() {
            Ok(v) if !actions.is_instance_of::<pyo3::types::PyString>() => v,
            _ => {
                return Err(wrong_type(
                    "actions",
                    "a sequence of ints (one action id per game)",
                    actions,
                ))
            }
        }
    };
    if ids.len() != n {
        return Err(bad_argument(format!(
            "actions must hold {n} ids (one per game), got {}",
            ids.len()
        )));
    }
    Ok(ids)
}

/// Declares the Python class of a batch of one game.
macro_rules! batch_class {
    (
        $(#[$doc:meta])*
        $class:ident($core:ty, $game:ident, $name:literal)
        new($($arg:ident),* $(; keyword $($kw:ident),+)?) => $params:expr
    ) => {
        $(#[$doc])*
        #[pyclass(module = "arbiter", name = $name)]
        pub struct $class(Batch<$core>);

        #[pymethods]
        impl $class {
            #[new]
            #[pyo3(signature = (num_games, $($arg = None,)* seed = None, threads = None, masks = None, opponent = None, seat = None $(, *, $($kw = None),+)?))]
            #[allow(clippy::too_many_arguments)]
            fn new<'py>(
                py: Python<'py>,
                num_games: &Bound<'py, PyAny>,
                $($arg: Option<&Bound<'py, PyAny>>,)*
                seed: Option<&Bound<'py, PyAny>>,
                threads: Option<&Bound<'py, PyAny>>,
                masks: Option<bool>,
                opponent: Option<&Bound<'py, PyAny>>,
                seat: Option<&Bound<'py, PyAny>>,
                $($($kw: Option<&Bound<'py, PyAny>>,)+)?
            ) -> PyResult<Self> {
                let params = $params;
                let opponent = read_opponent::<$core>(opponent, seat)?;
                Batch::new(py, params?, opponent, num_games, seed, threads, masks).map($class)
            }

            /// Starts every game afresh from `seed` and returns the arrays.
            #[pyo3(signature = (seed, out = None))]
            fn reset<'py>(
                slf: &Bound<'py, Self>,
                py: Python<'py>,
                seed: &Bound<'py, PyAny>,
                out: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyTuple>> {
                slf.try_borrow_mut().map_err(in_use)?.0.reset(py, seed, out)
            }

            /// Plays one action id per game and returns the arrays
            /// `(observations, masks, rewards, to_move, done)`.
            #[pyo3(signature = (actions, out = None))]
            fn step<'py>(
                slf: &Bound<'py, Self>,
                py: Python<'py>,
                actions: &Bound<'py, PyAny>,
                out: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyTuple>> {
                slf.try_borrow_mut().map_err(in_use)?.0.step(py, actions, out)
            }

            /// Plays a random legal action in every game (each game's actions drawn from its
            /// own generator, seeded from its episode's seed) and returns the arrays as `step`
            /// does; `last_actions()` tells which.
            #[pyo3(signature = (out = None))]
            fn step_random<'py>(
                slf: &Bound<'py, Self>,
                py: Python<'py>,
                out: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyTuple>> {
                slf.try_borrow_mut().map_err(in_use)?.0.step_random(py, out)
            }

            /// The action ids the last step played, one per game, as a NumPy int64 array.
            fn last_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
                self.0.last_actions(py)
            }

            /// The batch's own arrays `(observations, masks, rewards, to_move, done)`.
            #[getter]
            fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
                self.0.arrays(py)
            }

            /// A copy of game `i` as it stands.
            fn game(slf: &Bound<'_, Self>, i: &Bound<'_, PyAny>) -> PyResult<$game> {
                let this = slf.try_borrow().map_err(in_use)?;
                Ok($game(this.0.game(this.0.slot(i)?)))
            }

            /// The legal action ids of game `i`, ascending.
            fn legal_actions<'py>(slf: &Bound<'py, Self>, py: Python<'py>, i: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray1<i64>>> {
                let this = slf.try_borrow().map_err(in_use)?;
                Ok(this.0.legal_actions(py, this.0.slot(i)?))
            }

            /// The seed of game `i`'s current episode.
            fn episode_seed(&self, i: &Bound<'_, PyAny>) -> PyResult<u64> {
                Ok(self.0.episode_seed(self.0.slot(i)?))
            }

            fn __len__(&self) -> usize {
                self.0.len()
            }

            #[getter]
            fn tensor_len(&self) -> usize {
                self.0.tensor_len()
            }

            #[getter]
            fn num_actions(&self) -> usize {
                self.0.num_actions()
            }

            #[getter]
            fn threads(&self) -> usize {
                self.0.threads()
            }

            /// Whether `step` writes dense masks (else use `legal_actions(i)`).
            #[getter]
            fn masks(&self) -> bool {
                self.0.writes_masks()
            }
        }
    };
}

use crate::nantong::Nantong as PyNantong;
use crate::trax::Trax as PyTrax;
use crate::tripletriad::TripleTriad as PyTripleTriad;

batch_class! {
    /// N Triple Triad rounds of a preset, each dealt from its own seed.
    TripleTriadBatch(TripleTriad, PyTripleTriad, "TripleTriadBatch")
    new(preset) => preset
        .map_or(Ok(DEFAULT_PRESET.to_owned()), |p| crate::convert::text(p, "preset"))
        .and_then(|p| Dealer::new(&p).py())
}

batch_class! {
    /// N Trax games of a variant.
    TraxBatch(Trax, PyTrax, "TraxBatch")
    new(variant) => variant.map_or(Ok(Variant::default()), crate::trax::read_variant)
}

batch_class! {
    /// N Nantong deals, each from its own seed; `groups` and `kinds` make them smaller deals
    /// (`rules/nantong-small.md`), as `Nantong(seed, groups=, kinds=)` does.
    NantongBatch(Nantong, PyNantong, "NantongBatch")
    new(; keyword groups, kinds) => crate::nantong::size(groups, kinds)
}

/// The `opponent` (a level's name) and the learner's `seat` (a player's name or index, 0 by
/// default) of a batch's constructor.
fn read_opponent<G: Fresh>(
    opponent: Option<&Bound<'_, PyAny>>,
    seat: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Opponent<G>>> {
    let (opponent, seat) = (opponent.filter(|o| !o.is_none()), seat.filter(|s| !s.is_none()));
    let Some(level) = opponent else {
        return match seat {
            Some(_) => Err(bad_argument(
                "seat is the learner's seat against an opponent: give opponent= too",
            )),
            None => Ok(None),
        };
    };
    let level: G::Level = crate::convert::text(level, "opponent")?
        .parse()
        .map_err(Error::from)
        .py()?;
    let learner = seat.map_or(Ok(0), |s| crate::verbs::player_from_py::<G>(s).map(G::player_index))?;
    Ok(Some(Opponent { level, learner }))
}

/// The error of a call on a batch that another Python thread is stepping (the batch steps with
/// the GIL released): PyO3's own says only "Already borrowed".
fn in_use<E>(_: E) -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(
        "this batch is being stepped by another thread: a batch is used by one thread at a time (its own threads=N steps it on several cores); give each Python thread its own batch, or hold a threading.Lock around its calls",
    )
}

/// Tells the batches' crews after `os.fork()` that their workers stayed in the parent.
#[pyfunction(name = "_after_fork")]
pub fn after_fork() {
    crate::crew::forked();
}

/// The seed of the built-in opponent's choice at move `ply` (from 0) of an episode of seed
/// `episode_seed` in a batch with `opponent=`: the move is `game.choose_move(level,
/// opponent_seed(episode_seed, ply))` on that episode's game.
#[pyfunction(name = "opponent_seed")]
pub fn seed_of_opponent(episode_seed: &Bound<'_, PyAny>, ply: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(opponent_seed(
        crate::convert::seed(episode_seed)?,
        integer(ply, "ply", u64::MAX)?,
    ))
}

/// The seed of episode `episode` (from 0) of game `index` in a batch seeded with `seed`: what
/// `Nantong(seed)` or `TripleTriad.from_preset(preset, seed)` start that game from.
#[pyfunction(name = "episode_seed")]
pub fn seed_of_episode(seed: &Bound<'_, PyAny>, index: &Bound<'_, PyAny>, episode: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(episode_seed(
        crate::convert::seed(seed)?,
        integer(index, "index", u64::MAX)?,
        integer(episode, "episode", u64::MAX)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workers_deferred_rows_land_as_in_place_ones_up_to_the_game_that_failed() {
        let dealer = Dealer::new(DEFAULT_PRESET).unwrap();
        let mut slots: Vec<Slot<TripleTriad>> = (0..6)
            .map(|i| Slot {
                game: dealer.deal(i),
                episode: 0,
                legal: Vec::new(),
                last: 0,
                rng: Rng::new(i),
                seed: i,
                plies: 0,
            })
            .collect();
        let (t, a, p) = (3, 5, 2);
        let (mut observations, mut masks) = (vec![-1.0; 6 * t], vec![false; 6 * a]);
        let (mut rewards, mut to_move, mut done) = (vec![-1.0; 6 * p], vec![-1; 6], vec![false; 6]);
        let fails_at = 3;
        let result = deferred(
            (
                &mut slots,
                &mut observations,
                Some(&mut masks),
                &mut rewards,
                &mut to_move,
                &mut done,
            ),
            (t, a, p),
            |k, slot, rows| {
                slot.plies += 1;
                rows.observation.fill(k as f32);
                for (j, m) in rows.mask.unwrap().iter_mut().enumerate() {
                    *m = (j + k) % 2 == 0;
                }
                rows.rewards.fill(10.0 + k as f32);
                *rows.to_move = k as i32;
                *rows.done = true;
                if k == fails_at {
                    return Err(Error::new(ErrorKind::IllegalMove, "failed"));
                }
                Ok(())
            },
        );
        assert!(result.is_err());
        for k in 0..6 {
            let played = k <= fails_at;
            assert_eq!(slots[k].plies, u64::from(played));
            assert!(observations[k * t..(k + 1) * t]
                .iter()
                .all(|&x| x == if played { k as f32 } else { -1.0 }));
            let mask: Vec<bool> = (0..a).map(|j| played && (j + k) % 2 == 0).collect();
            assert_eq!(masks[k * a..(k + 1) * a], mask[..], "game {k}");
            assert!(rewards[k * p..(k + 1) * p]
                .iter()
                .all(|&r| r == if played { 10.0 + k as f32 } else { -1.0 }));
            assert_eq!(to_move[k], if played { k as i32 } else { -1 });
            assert_eq!(done[k], played);
        }
    }
}

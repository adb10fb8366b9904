//! The verbs every game shares, written once over [`Engine`]; each game's module exports them
//! under its own names with one-line wrappers (cbindgen reads only plain `extern "C"` functions).

use std::ffi::c_char;

use arbiter_core::{spoken_indices, Engine, Error, Game, Outcome, Rng};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::boundary::{arg, arg_mut, core_error, give, guard, text, Buffer, Failure, Handle, Out, TextOut};
use crate::budget::{with_budget, ArbiterBudget};
use crate::ArbiterStatus::{self, *};

/// An object that plays one game's turns: a game itself, or a match through its round in play, so
/// that a match answers a turn's questions without copying the round.
pub(crate) trait Round {
    type Game: Engine + 'static;
    fn round(&self) -> &Self::Game;
    /// What `player` sees: the round's observation, unless the holder hides more than its
    /// round does (a match's Three Open cards and the other player's Chaos draw).
    fn observation(&self, player: <Self::Game as Game>::Player) -> <Self::Game as Game>::Observation {
        self.round().observation(player)
    }
}

macro_rules! is_its_own_round {
    ($($game:ty),+) => {$(
        impl Round for $game {
            type Game = $game;
            fn round(&self) -> &$game {
                self
            }
        }
    )+};
}
is_its_own_round!(
    arbiter_core::tripletriad::TripleTriad,
    arbiter_core::trax::Trax,
    arbiter_core::nantong::Nantong
);

/// Runs `f` on the object behind a handle.
///
/// # Safety
/// `h` is NULL or a live handle that no other thread uses during the call.
pub(crate) unsafe fn read<H: Handle>(h: *const H, f: impl FnOnce(&H::Inner) -> Result<(), Failure>) -> ArbiterStatus {
    guard(|| f(arg(h, "the handle")?.inner()))
}

/// Runs `f` on the object behind a handle that the call may change.
///
/// # Safety
/// As [`read`].
pub(crate) unsafe fn change<H: Handle>(
    h: *mut H,
    f: impl FnOnce(&mut H::Inner) -> Result<(), Failure>,
) -> ArbiterStatus {
    guard(|| f(arg_mut(h, "the handle")?.inner_mut()))
}

/// Writes what `f` makes of the object behind a handle to `out`, named `name` in errors.
///
/// # Safety
/// As [`read`]; `out` is NULL or writable.
pub(crate) unsafe fn value<H: Handle, T>(
    h: *const H,
    out: *mut T,
    name: &str,
    f: impl FnOnce(&H::Inner) -> Result<T, Failure>,
) -> ArbiterStatus {
    read(h, |g| {
        let out = Out::new(out, name)?;
        out.set(f(g)?);
        Ok(())
    })
}

/// Writes what `f` makes of the object behind a handle as JSON into a caller buffer.
///
/// # Safety
/// As [`read`]; `buf` is NULL or `cap` writable bytes; `size` is NULL or writable.
pub(crate) unsafe fn json<H: Handle, T: Serialize>(
    h: *const H,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
    f: impl FnOnce(&H::Inner) -> Result<T, Failure>,
) -> ArbiterStatus {
    read(h, |g| {
        let out = TextOut::new(buf, cap, size, "buf")?;
        out.json(&f(g)?)
    })
}

/// Creates an object from a text argument.
///
/// # Safety
/// `s` is NULL or points to `len` bytes; `out` is NULL or writable.
pub(crate) unsafe fn create<H: Handle>(
    s: *const c_char,
    len: usize,
    out: *mut *mut H,
    make: impl FnOnce(&str) -> Result<H::Inner, Failure>,
) -> ArbiterStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        give(out, make(text(s, len, "the text")?)?);
        Ok(())
    })
}

/// # Safety
/// As [`read`]; `out` is NULL or writable.
pub(crate) unsafe fn clone<H: Handle>(h: *const H, out: *mut *mut H) -> ArbiterStatus
where
    H::Inner: Clone,
{
    read(h, |g| {
        give(Out::new(out, "out")?, g.clone());
        Ok(())
    })
}

/// # Safety
/// As [`create`].
pub(crate) unsafe fn from_json<H: Handle>(json: *const c_char, len: usize, out: *mut *mut H) -> ArbiterStatus
where
    H::Inner: DeserializeOwned,
{
    create(json, len, out, |s| Ok(serde_json::from_str(s)?))
}

/// # Safety
/// As [`read`]; `buf` is NULL or `cap` writable bytes; `size` is NULL or writable.
pub(crate) unsafe fn to_json<H: Handle>(h: *const H, buf: *mut c_char, cap: usize, size: *mut usize) -> ArbiterStatus
where
    H::Inner: Serialize,
{
    read(h, |g| TextOut::new(buf, cap, size, "buf")?.json(g))
}

/// The player at `index` in [`Engine::PLAYERS`].
pub(crate) fn player_at<G: Engine>(index: i32) -> Result<G::Player, Failure> {
    usize::try_from(index)
        .ok()
        .and_then(|i| G::PLAYERS.get(i).copied())
        .ok_or_else(|| {
            Failure::new(
                ARBITER_BAD_ARGUMENT,
                format!(
                    "no player {index} in {} (players are {})",
                    G::NAME,
                    spoken_indices(G::PLAYERS.len())
                ),
            )
        })
}

/// A player's index for C.
fn index<G: Engine>(p: G::Player) -> i32 {
    G::player_index(p) as i32
}

/// The move an action id names in `g` (legal or not).
pub(crate) fn action<G: Game>(g: &G, id: u32) -> Result<G::Move, Failure> {
    g.action_move(id as usize).ok_or_else(|| {
        Failure::new(
            ARBITER_BAD_ARGUMENT,
            format!(
                "no action id {id} (ids are 0 to {})",
                g.num_distinct_actions().saturating_sub(1)
            ),
        )
    })
}

/// A move read from its notation.
pub(crate) fn notation<M: std::str::FromStr>(s: &str) -> Result<M, Failure>
where
    M::Err: Into<Error>,
{
    s.parse().map_err(core_error)
}

/// The action id of a move the game offered, for C (every game's ids fit in 32 bits).
pub(crate) fn id<G: Game>(g: &G, mv: G::Move) -> u32 {
    g.action_id(mv).expect("every move a game offers has an id") as u32
}

/// # Safety
/// As [`read`]; `buf` is NULL or `cap` writable ids; `count` is NULL or writable.
pub(crate) unsafe fn legal_actions<H: Handle>(
    h: *const H,
    buf: *mut u32,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus
where
    H::Inner: Round,
{
    read(h, |g| {
        let out = Buffer::new(buf, cap, count, "buf")?;
        out.fill(g.round().legal_actions().into_iter().map(|id| id as u32), None)
    })
}

/// # Safety
/// As [`read`]; `buf` is NULL or `cap` writable numbers; `count` is NULL or writable.
pub(crate) unsafe fn observation_tensor<H: Handle>(
    h: *const H,
    player: i32,
    buf: *mut f32,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus
where
    H::Inner: Engine,
{
    read(h, |g| {
        let out = Buffer::new(buf, cap, count, "buf")?;
        out.fill(g.observation_tensor(player_at::<H::Inner>(player)?).into_iter(), None)
    })
}

/// # Safety
/// As [`read`]; `buf` is NULL or `cap` writable bytes; `count` is NULL or writable.
pub(crate) unsafe fn legal_action_mask<H: Handle>(
    h: *const H,
    buf: *mut u8,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus
where
    H::Inner: Engine,
{
    read(h, |g| {
        let out = Buffer::new(buf, cap, count, "buf")?;
        out.fill(g.legal_action_mask().into_iter().map(u8::from), None)
    })
}

/// # Safety
/// As [`to_json`].
pub(crate) unsafe fn legal_moves<H: Handle>(
    h: *const H,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus
where
    H::Inner: Engine,
{
    json(h, buf, cap, size, |g| {
        Ok(g.legal_moves().iter().map(ToString::to_string).collect::<Vec<_>>())
    })
}

/// # Safety
/// As [`read`]; `s` is NULL or `len` readable bytes.
pub(crate) unsafe fn play<H: Handle>(h: *mut H, s: *const c_char, len: usize) -> ArbiterStatus
where
    H::Inner: Engine,
    <<H::Inner as Game>::Move as std::str::FromStr>::Err: Into<Error>,
{
    change(h, |g| {
        let mv = notation(text(s, len, "the move")?)?;
        g.play(mv).map_err(core_error)
    })
}

/// # Safety
/// As [`read`].
pub(crate) unsafe fn play_action<H: Handle>(h: *mut H, id: u32) -> ArbiterStatus
where
    H::Inner: Engine,
{
    change(h, |g| {
        let mv = action(g, id)?;
        g.play(mv).map_err(core_error)
    })
}

/// # Safety
/// As [`read`]; `player` is NULL or writable.
pub(crate) unsafe fn to_move<H: Handle>(h: *const H, player: *mut i32) -> ArbiterStatus
where
    H::Inner: Round,
{
    value(h, player, "player", |g| {
        Ok(g.round().to_move().map_or(-1, index::<<H::Inner as Round>::Game>))
    })
}

/// # Safety
/// As [`read`]; `over` is NULL or writable.
pub(crate) unsafe fn is_over<H: Handle>(h: *const H, over: *mut bool) -> ArbiterStatus
where
    H::Inner: Engine,
{
    value(h, over, "over", |g| Ok(g.is_over()))
}

/// # Safety
/// As [`read`]; `outcome` is NULL or writable.
pub(crate) unsafe fn outcome<H: Handle>(h: *const H, outcome: *mut i32) -> ArbiterStatus
where
    H::Inner: Engine,
{
    value(h, outcome, "outcome", |g| {
        Ok(match g.outcome() {
            None => -1,
            Some(Outcome::Draw) => -2,
            Some(Outcome::Winner(p)) => index::<H::Inner>(p),
        })
    })
}

/// # Safety
/// As [`to_json`].
pub(crate) unsafe fn observation<H: Handle>(
    h: *const H,
    player_index: i32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus
where
    H::Inner: Round,
    <<H::Inner as Round>::Game as Game>::Observation: Serialize,
{
    json(h, buf, cap, size, |g| {
        Ok(g.observation(player_at::<<H::Inner as Round>::Game>(player_index)?))
    })
}

/// # Safety
/// As [`read`]; `nodes` is NULL or writable.
pub(crate) unsafe fn perft<H: Handle>(h: *const H, depth: u32, nodes: *mut u64) -> ArbiterStatus
where
    H::Inner: Engine,
{
    value(h, nodes, "nodes", |g| Ok(Engine::perft(g, depth)))
}

/// # Safety
/// As [`read`]; `level` is NULL or `len` readable bytes; `budget` as in [`with_budget`];
/// `action` is NULL or writable.
pub(crate) unsafe fn choose<H: Handle>(
    h: *const H,
    level: *const c_char,
    len: usize,
    seed: u64,
    budget: *const ArbiterBudget,
    action: *mut u32,
) -> ArbiterStatus
where
    H::Inner: Round,
{
    value(h, action, "action", |g| {
        let g = g.round();
        let level = text(level, len, "the level")?;
        let mv = with_budget(budget, |b| Ok(g.choose_within(level, &mut Rng::new(seed), b)?))?
            .ok_or_else(|| Failure::new(ARBITER_GAME_OVER, "the game is over: there is no move to choose"))?;
        Ok(id(g, mv))
    })
}

/// # Safety
/// `buf` is NULL or `cap` writable bytes; `size` is NULL or writable.
pub(crate) unsafe fn levels<G: Engine>(buf: *mut c_char, cap: usize, size: *mut usize) -> ArbiterStatus {
    guard(|| TextOut::new(buf, cap, size, "buf")?.json(&G::LEVELS))
}

/// # Safety
/// As [`to_json`].
pub(crate) unsafe fn action_text<H: Handle>(
    h: *const H,
    id: u32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus
where
    H::Inner: Engine,
{
    read(h, |g| {
        let out = TextOut::new(buf, cap, size, "buf")?;
        out.text(&action(g, id)?.to_string())
    })
}

/// # Safety
/// As [`play`]; `id` is NULL or writable.
pub(crate) unsafe fn action_id<H: Handle>(h: *const H, s: *const c_char, len: usize, id_out: *mut u32) -> ArbiterStatus
where
    H::Inner: Engine,
    <<H::Inner as Game>::Move as std::str::FromStr>::Err: Into<Error>,
{
    value(h, id_out, "id", |g| {
        let mv = notation(text(s, len, "the move")?)?;
        g.action_id(mv).map(|id| id as u32).map_err(core_error)
    })
}

/// # Safety
/// As [`read`]; `count` is NULL or writable.
pub(crate) unsafe fn num_actions<H: Handle>(h: *const H, count: *mut usize) -> ArbiterStatus
where
    H::Inner: Engine,
{
    value(h, count, "count", |g| Ok(g.num_distinct_actions()))
}

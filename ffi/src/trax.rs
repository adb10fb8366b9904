//! Trax: `arbiter_trax_*`.

use std::ffi::c_char;

use arbiter_core::trax::{Trax, Variant};
use arbiter_core::Engine;

use crate::boundary::{core_error, give, guard, handle, text, Failure, Out, TextOut};
use crate::verbs::{self, change, json, read, value};
use crate::ArbiterStatus;

/// A Trax game (`8x8`, `unbounded` or `loop`). Players: 0 white, 1 red.
pub struct ArbiterTrax(Trax);
handle!(ArbiterTrax, Trax);

fn variant(name: &str) -> Result<Variant, Failure> {
    name.parse().map_err(core_error)
}

/// Creates an empty board of a variant: `8x8`, `unbounded` or `loop`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_new(
    name: *const c_char,
    len: usize,
    out: *mut *mut ArbiterTrax,
) -> ArbiterStatus {
    verbs::create(name, len, out, |name| Ok(Trax::new(variant(name)?)))
}

/// Creates an empty board of a variant with a limit on the tiles (1..=32768; the default of
/// `arbiter_trax_new` is 10000): a turn that would pass it is refused with
/// `ARBITER_LIMIT_EXCEEDED`, and once the player to move has no turn that fits, the game is over
/// and drawn (a convention of this engine, not a rule).
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_new_limited(
    name: *const c_char,
    len: usize,
    max_tiles: u32,
    out: *mut *mut ArbiterTrax,
) -> ArbiterStatus {
    verbs::create(name, len, out, |name| {
        Trax::with_max_tiles(variant(name)?, max_tiles).map_err(core_error)
    })
}

/// Creates a game by replaying a game record (moves in official notation, optionally numbered,
/// with `#` comments), e.g. `1. @0/ 2. B1+ ...`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_from_record(
    name: *const c_char,
    name_len: usize,
    record: *const c_char,
    record_len: usize,
    out: *mut *mut ArbiterTrax,
) -> ArbiterStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let variant = variant(text(name, name_len, "the variant")?)?;
        let g = Trax::from_record(variant, text(record, record_len, "the record")?).map_err(core_error)?;
        give(out, g);
        Ok(())
    })
}

/// Loads a game saved by `_to_json`: `{"variant": "8x8", "moves": ["@0+", ...]}` (moves in
/// official notation, replayed).
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_from_json(
    json: *const c_char,
    len: usize,
    out: *mut *mut ArbiterTrax,
) -> ArbiterStatus {
    verbs::from_json(json, len, out)
}

/// Saves the game as JSON: its variant and moves.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_to_json(
    h: *const ArbiterTrax,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::to_json(h, buf, cap, size)
}

/// What `player` sees, as JSON: Trax hides nothing, so this is the saved game, `{"variant":
/// "8x8" | "unbounded" | "loop", "moves": [the moves in notation, in the order played]}`, with
/// `"max_tiles": n` for a game made with another tile limit than the default. Forced tiles are
/// not moves: `_tile_at`, `_size` and `_last_turn` give the board they made.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_observation(
    h: *const ArbiterTrax,
    player: i32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::observation(h, player, buf, cap, size)
}

/// Frees a game; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_free(h: *mut ArbiterTrax) {
    crate::boundary::free(h)
}

/// Copies a game into a new handle.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_clone(h: *const ArbiterTrax, out: *mut *mut ArbiterTrax) -> ArbiterStatus {
    verbs::clone(h, out)
}

/// What `player` (0 white, 1 red) sees, as a fixed-size vector of numbers in 0..=1 for learning agents
/// (layout: the docs of `arbiter_core::trax::tensor`), into `buf`; `count` receives the length. Built from what
/// that player may see alone.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_observation_tensor(
    h: *const ArbiterTrax,
    player: i32,
    buf: *mut f32,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus {
    verbs::observation_tensor(h, player, buf, cap, count)
}

/// The legal moves as a mask over the action ids into `buf` (`buf[id]` is 1 for a legal move's
/// id, else 0); `count` receives the number of action ids.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_legal_action_mask(
    h: *const ArbiterTrax,
    buf: *mut u8,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus {
    verbs::legal_action_mask(h, buf, cap, count)
}

/// The legal action ids into `buf` (a cell relative to the area and a shape); `count` receives
/// how many there are.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_legal_actions(
    h: *const ArbiterTrax,
    buf: *mut u32,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus {
    verbs::legal_actions(h, buf, cap, count)
}

/// The legal moves in official notation, as a JSON array of strings.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_legal_moves(
    h: *const ArbiterTrax,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::legal_moves(h, buf, cap, size)
}

/// Plays a move in official notation (`@0+`, `B2/`, `AA10\`); the forced tiles follow.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_play(h: *mut ArbiterTrax, text: *const c_char, len: usize) -> ArbiterStatus {
    verbs::play(h, text, len)
}

/// Plays the move of an action id.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_play_action(h: *mut ArbiterTrax, id: u32) -> ArbiterStatus {
    verbs::play_action(h, id)
}

/// The player to move (0 white, 1 red), or -1 once the game is over.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_to_move(h: *const ArbiterTrax, player: *mut i32) -> ArbiterStatus {
    verbs::to_move(h, player)
}

/// The player who moves next, also after the end (who would have moved): 0 white, 1 red.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_next_player(h: *const ArbiterTrax, player: *mut i32) -> ArbiterStatus {
    value(h, player, "player", |g| Ok(Trax::player_index(g.next_player()) as i32))
}

/// Whether the game is over.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_is_over(h: *const ArbiterTrax, over: *mut bool) -> ArbiterStatus {
    verbs::is_over(h, over)
}

/// The result: the winner (0, 1), -2 for a draw, -1 while the game goes on.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_outcome(h: *const ArbiterTrax, outcome: *mut i32) -> ArbiterStatus {
    verbs::outcome(h, outcome)
}

/// Counts the legal move sequences of `depth` turns (forced tiles are part of a turn).
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_perft(h: *const ArbiterTrax, depth: u32, nodes: *mut u64) -> ArbiterStatus {
    verbs::perft(h, depth, nodes)
}

/// A move for the player to move by the built-in opponent `level` (`random`, `easy`, `medium`,
/// `hard`, `expert`: `arbiter_trax_levels`), with randomness from `seed`; the searching levels
/// have node budgets, so the move depends on the seed only, never on the machine's speed.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_choose(
    h: *const ArbiterTrax,
    level: *const c_char,
    len: usize,
    seed: u64,
    action: *mut u32,
) -> ArbiterStatus {
    verbs::choose(h, level, len, seed, std::ptr::null(), action)
}

/// `arbiter_trax_choose` within `budget` too (NULL: none): a time limit, a node limit, a
/// cancel flag. A search that runs out plays the best move it found so far, never none while one
/// is legal. With a time limit or a flag the move may depend on the machine's speed.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_choose_within(
    h: *const ArbiterTrax,
    level: *const c_char,
    len: usize,
    seed: u64,
    budget: *const crate::ArbiterBudget,
    action: *mut u32,
) -> ArbiterStatus {
    verbs::choose(h, level, len, seed, budget, action)
}

/// The built-in opponents' levels, weakest first, as a JSON array of strings.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_levels(buf: *mut c_char, cap: usize, size: *mut usize) -> ArbiterStatus {
    verbs::levels::<Trax>(buf, cap, size)
}

/// The official notation of an action id, e.g. `B2/`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_action_text(
    h: *const ArbiterTrax,
    id: u32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::action_text(h, id, buf, cap, size)
}

/// The action id of a move in official notation.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_action_id(
    h: *const ArbiterTrax,
    text: *const c_char,
    len: usize,
    id: *mut u32,
) -> ArbiterStatus {
    verbs::action_id(h, text, len, id)
}

/// The number of action ids: ids are `0..count` (300 for 8x8).
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_num_actions(h: *const ArbiterTrax, count: *mut usize) -> ArbiterStatus {
    verbs::num_actions(h, count)
}

/// Tiles on the board, forced ones included.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_tiles(h: *const ArbiterTrax, tiles: *mut u32) -> ArbiterStatus {
    value(h, tiles, "tiles", |g| Ok(g.tiles()))
}

/// The most tiles the board may hold.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_max_tiles(h: *const ArbiterTrax, max_tiles: *mut u32) -> ArbiterStatus {
    value(h, max_tiles, "max_tiles", |g| Ok(g.max_tiles()))
}

/// The variant's name (`8x8`, `unbounded` or `loop`), NUL-terminated into `buf`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_variant(
    h: *const ArbiterTrax,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    read(h, |g| TextOut::new(buf, cap, size, "buf")?.text(g.variant().name()))
}

/// The columns and rows the tiles span (0 and 0 on an empty board).
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_size(h: *const ArbiterTrax, cols: *mut u32, rows: *mut u32) -> ArbiterStatus {
    read(h, |g| {
        let (cols, rows) = (Out::new(cols, "cols")?, Out::new(rows, "rows")?);
        let (c, r) = g.size();
        cols.set(c);
        rows.set(r);
        Ok(())
    })
}

/// The tile at notation coordinates (`col` 1 = column A, `row` 1 = the top row) as the mask of
/// its red edges (bit 0 north, 1 east, 2 south, 3 west), or 0 for an empty cell.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_tile_at(
    h: *const ArbiterTrax,
    col: u32,
    row: u32,
    red_edges: *mut u8,
) -> ArbiterStatus {
    read(h, |g| {
        let out = Out::new(red_edges, "red_edges")?;
        let mask = g.tile_at(col, row).map_or(0, |t| {
            (0..4u8)
                .filter(|&e| t.colour(e) == arbiter_core::trax::Colour::Red)
                .fold(0, |m, e| m | 1 << e)
        });
        out.set(mask);
        Ok(())
    })
}

/// Where the last turn put its tiles, as JSON in notation coordinates of the area after it
/// (column 1 = `A`, row 1 = the top row): `{"move": "B2/", "placed": {"col": 2, "row": 2},
/// "forced": [{"col": 1, "row": 2}, ...]}` (forced tiles in the order they fell); `null` on an
/// empty board.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_last_turn(
    h: *const ArbiterTrax,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |g| Ok(g.last_turn()))
}

/// How the game was won, as JSON: `{"winner": "white" | "red", "by_loop": bool, "by_line": bool,
/// "tracks": [[{"col": 2, "row": 2}, ...], ...]}` (one turn can close both a loop and a line;
/// `tracks` gives the cells of each winning track in order along it, in notation coordinates of
/// the area now, for a board to light); `null` while the game goes on and for a draw.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_win(
    h: *const ArbiterTrax,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |g| Ok(g.win()))
}

/// Takes back the last turn, forced tiles included: the state is exactly the one before it.
/// `ARBITER_ILLEGAL_MOVE` on an empty board.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_undo(h: *mut ArbiterTrax) -> ArbiterStatus {
    change(h, |g| {
        g.undo().map(drop).ok_or_else(|| {
            Failure::new(
                ArbiterStatus::ARBITER_ILLEGAL_MOVE,
                "no turn to take back: the board is empty",
            )
        })
    })
}

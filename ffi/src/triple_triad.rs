//! Triple Triad rounds: `arbiter_triple_triad_*`.

use std::ffi::c_char;

use arbiter_core::tripletriad::{self, TripleTriad};

use crate::boundary::{handle, Failure, Out};
use crate::verbs::{self, id, json, player_at, read, value};
use crate::ArbiterStatus::{self, *};

/// A Triple Triad round: board, hands, rules, player to move. Players: 0 blue, 1 red.
pub struct ArbiterTripleTriad(TripleTriad);
handle!(ArbiterTripleTriad, TripleTriad);

/// Creates a round from a state JSON (the conformance state: `rules`, `board`, `hands`,
/// `to_move`, optional `elements` and `walls`), which is also what `_to_json` saves. JSON that
/// cannot be read, or a state the rules do not allow, is `ARBITER_PARSE_ERROR`, as for every
/// game's `_from_json` and in the npm package.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_from_json(
    json: *const c_char,
    len: usize,
    out: *mut *mut ArbiterTripleTriad,
) -> ArbiterStatus {
    verbs::from_json(json, len, out)
}

/// Creates the first round of a match under a preset (`ff8`, `ttonline`, `mush`, `ffforever`)
/// between two hands of FF8 cards drawn from `seed`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_from_preset(
    name: *const c_char,
    len: usize,
    seed: u64,
    out: *mut *mut ArbiterTripleTriad,
) -> ArbiterStatus {
    verbs::create(name, len, out, |name| Ok(TripleTriad::from_preset(name, seed)?))
}

/// Frees a round; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_free(h: *mut ArbiterTripleTriad) {
    crate::boundary::free(h)
}

/// Copies a round into a new handle.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_clone(
    h: *const ArbiterTripleTriad,
    out: *mut *mut ArbiterTripleTriad,
) -> ArbiterStatus {
    verbs::clone(h, out)
}

/// Saves the round as state JSON (what `_from_json` reads back).
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_to_json(
    h: *const ArbiterTripleTriad,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::to_json(h, buf, cap, size)
}

/// What `player` (0 blue, 1 red) sees, as a fixed-size vector of numbers in 0..=1 for learning agents
/// (layout: the docs of `arbiter_core::tripletriad::tensor`), into `buf`; `count` receives the length. Built from what
/// that player may see alone.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_observation_tensor(
    h: *const ArbiterTripleTriad,
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
pub unsafe extern "C" fn arbiter_triple_triad_legal_action_mask(
    h: *const ArbiterTripleTriad,
    buf: *mut u8,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus {
    verbs::legal_action_mask(h, buf, cap, count)
}

/// The legal action ids (`card * 9 + cell`) into `buf`; `count` receives how many there are.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_legal_actions(
    h: *const ArbiterTripleTriad,
    buf: *mut u32,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus {
    verbs::legal_actions(h, buf, cap, count)
}

/// The legal moves in notation (`card@cell`), as a JSON array of strings.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_legal_moves(
    h: *const ArbiterTripleTriad,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::legal_moves(h, buf, cap, size)
}

/// Plays a move in notation, e.g. `2@4`: the third card of the mover's hand onto the centre.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_play(
    h: *mut ArbiterTripleTriad,
    text: *const c_char,
    len: usize,
) -> ArbiterStatus {
    verbs::play(h, text, len)
}

/// Plays the move of an action id.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_play_action(h: *mut ArbiterTripleTriad, id: u32) -> ArbiterStatus {
    verbs::play_action(h, id)
}

/// The player to move (0 blue, 1 red), or -1 once the board is full.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_to_move(h: *const ArbiterTripleTriad, player: *mut i32) -> ArbiterStatus {
    verbs::to_move(h, player)
}

/// The player who moves next, also once the board is full (who would have moved): 0 blue, 1 red.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_next_player(
    h: *const ArbiterTripleTriad,
    player: *mut i32,
) -> ArbiterStatus {
    value(h, player, "player", |g| {
        Ok(<TripleTriad as arbiter_core::Engine>::player_index(g.next_player()) as i32)
    })
}

/// Whether the board is full.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_is_over(h: *const ArbiterTripleTriad, over: *mut bool) -> ArbiterStatus {
    verbs::is_over(h, over)
}

/// The result: the winner (0, 1), -2 for a draw, -1 while the round goes on.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_outcome(
    h: *const ArbiterTripleTriad,
    outcome: *mut i32,
) -> ArbiterStatus {
    verbs::outcome(h, outcome)
}

/// What `player` (0 blue, 1 red) sees, as a JSON object:
/// - `player`, `to_move`: `"blue"` or `"red"`: whose view this is, and who plays next.
/// - `rules`: a flag per rule (`open`, `random`, `same`, `same_wall`, `plus`, `plus_wall`,
///   `combo`, `combo_from_basic`, `battle`, `borderless`, `elemental`, `elemental_clamp`,
///   `power_walls`) and
///   `same_min_matches` (1 or 2).
/// - `elements`: the 9 cells row by row from the top left (cell 0 to 8): an element or `null`.
/// - `walls`: power-wall labels, `[{"cell": 0..8, "side": "top" | "right" | "bottom" | "left",
///   "label": ">5"}]`.
/// - `board`: the 9 cells: `null`, or `{"card": CARD, "owner": "blue" | "red"}` (the colour it
///   shows now).
/// - `hand`: the player's cards in hand order: the `CARD` of a move `CARD@CELL` indexes this list.
/// - `opponent_hand`: an entry per card the opponent holds: the card under `open`, else `null`.
///
/// A card is `{"name", "ranks": [top, right, bottom, left] (1..=10), "element" ("none", "fire",
/// "ice", "thunder", "earth", "poison", "wind", "water", "holy"), "power", "level"}`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_observation(
    h: *const ArbiterTripleTriad,
    player: i32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::observation(h, player, buf, cap, size)
}

/// Counts the legal move sequences of `depth` moves.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_perft(
    h: *const ArbiterTripleTriad,
    depth: u32,
    nodes: *mut u64,
) -> ArbiterStatus {
    verbs::perft(h, depth, nodes)
}

/// A move for the player to move by the built-in opponent `level` (`random`, `greedy`,
/// `perfect`, `expert`: `arbiter_triple_triad_levels`), from that player's observation, with
/// randomness from `seed`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_choose(
    h: *const ArbiterTripleTriad,
    level: *const c_char,
    len: usize,
    seed: u64,
    action: *mut u32,
) -> ArbiterStatus {
    verbs::choose(h, level, len, seed, std::ptr::null(), action)
}

/// `arbiter_triple_triad_choose` within `budget` too (NULL: none): a time limit, a node limit, a
/// cancel flag. A search that runs out plays the best move it found so far, never none while one
/// is legal. With a time limit or a flag the move may depend on the machine's speed.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_choose_within(
    h: *const ArbiterTripleTriad,
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
pub unsafe extern "C" fn arbiter_triple_triad_levels(buf: *mut c_char, cap: usize, size: *mut usize) -> ArbiterStatus {
    verbs::levels::<TripleTriad>(buf, cap, size)
}

/// The notation of an action id.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_action_text(
    h: *const ArbiterTripleTriad,
    id: u32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::action_text(h, id, buf, cap, size)
}

/// The action id of a move in notation.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_action_id(
    h: *const ArbiterTripleTriad,
    text: *const c_char,
    len: usize,
    id: *mut u32,
) -> ArbiterStatus {
    verbs::action_id(h, text, len, id)
}

/// The number of action ids (45): ids are `0..count`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_num_actions(
    h: *const ArbiterTripleTriad,
    count: *mut usize,
) -> ArbiterStatus {
    verbs::num_actions(h, count)
}

/// What the last move played on this handle captured, as JSON: `{"placed_on", "cell", "rotated",
/// "same_matches", "flips": [{"cell", "rule"}], "placed_lost", "steps"}`, `steps` the evidence in
/// order (each rule that fired with its pairs and the ranks it read, each Combo wave: the `Step`
/// objects of `conformance/FORMAT.md`); `null` before any move (and on a round just loaded).
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_last_captures(
    h: *const ArbiterTripleTriad,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |g| Ok(g.last_move()))
}

/// The score of `player`: cards of their colour on the board plus cards in their hand.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_score(
    h: *const ArbiterTripleTriad,
    player: i32,
    score: *mut u32,
) -> ArbiterStatus {
    value(h, score, "score", |g| Ok(g.score(player_at::<TripleTriad>(player)?)))
}

/// Solves the round exactly with both hands known: `value` receives the final score of the
/// player to move minus the opponent's under perfect play, `action` a best move.
/// `ARBITER_GAME_OVER` once the board is full.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_solve(
    h: *const ArbiterTripleTriad,
    value: *mut i32,
    action: *mut u32,
) -> ArbiterStatus {
    arbiter_triple_triad_solve_within(h, std::ptr::null(), value, action)
}

/// `arbiter_triple_triad_solve` within `budget` (NULL: none; its nodes are positions searched):
/// `ARBITER_LIMIT_EXCEEDED` if it runs out before the value is exact, with `value` and `action`
/// untouched (`arbiter_triple_triad_choose_within` at `perfect` plays the best move found then);
/// `ARBITER_BAD_ARGUMENT` under Chaos while a remaining turn's draw is unknown.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_solve_within(
    h: *const ArbiterTripleTriad,
    budget: *const crate::ArbiterBudget,
    value: *mut i32,
    action: *mut u32,
) -> ArbiterStatus {
    read(h, |g| {
        let (value, action) = (Out::new(value, "value")?, Out::new(action, "action")?);
        g.solvable()?;
        let solution = crate::budget::with_budget(budget, |b| {
            tripletriad::Solver::default().solve_within(g, b).map_err(|cut| {
                Failure::new(
                    ARBITER_LIMIT_EXCEEDED,
                    format!("the solve ran out of its budget after {} positions", cut.nodes),
                )
            })
        })?;
        let best = solution
            .best_move
            .ok_or_else(|| Failure::new(ARBITER_GAME_OVER, "game over: the board is full"))?;
        value.set(solution.value);
        action.set(id(g, best));
        Ok(())
    })
}

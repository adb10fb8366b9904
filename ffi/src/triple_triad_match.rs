//! Triple Triad matches (rounds, sudden death, trade): `arbiter_triple_triad_match_*`.

use std::ffi::c_char;

use arbiter_core::tripletriad::Match;

use crate::boundary::{core_error, give, handle, slice, text, Failure, Out};
use crate::triple_triad::ArbiterTripleTriad;
use crate::verbs::{self, action, change, id, json, notation, read, value};
use crate::ArbiterStatus;

/// A Triple Triad match: rounds (sudden death replays draws), then the trade.
pub struct ArbiterTripleTriadMatch(Match);
handle!(ArbiterTripleTriadMatch, Match);

/// Creates a match from JSON: `{"config": {...}, "blue": [5 cards], "red": [5 cards], "seed": N}`
/// starts one; a save (`_to_json`) adds `rounds` and `picks` and resumes exactly.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_from_json(
    json: *const c_char,
    len: usize,
    out: *mut *mut ArbiterTripleTriadMatch,
) -> ArbiterStatus {
    verbs::from_json(json, len, out)
}

/// Creates a match under a preset (`ff8`, `ttonline`, `mush`, `ffforever`) between two hands of
/// FF8 cards drawn from `seed`, which also drives the match.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_from_preset(
    name: *const c_char,
    len: usize,
    seed: u64,
    out: *mut *mut ArbiterTripleTriadMatch,
) -> ArbiterStatus {
    verbs::create(name, len, out, |name| Ok(Match::from_preset(name, seed)?))
}

/// Frees a match; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_free(h: *mut ArbiterTripleTriadMatch) {
    verbs::free(h)
}

/// Copies a match into a new handle.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_clone(
    h: *const ArbiterTripleTriadMatch,
    out: *mut *mut ArbiterTripleTriadMatch,
) -> ArbiterStatus {
    verbs::clone(h, out)
}

/// Saves the match as JSON: configuration, cards brought, seed, the moves of every round and the
/// trade's picks.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_to_json(
    h: *const ArbiterTripleTriadMatch,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::to_json(h, buf, cap, size)
}

/// A copy of the round in play (or the last one), as a new round handle: ask it for legal
/// actions, observations or a built-in opponent's move, then play that move on the match.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_game(
    h: *const ArbiterTripleTriadMatch,
    out: *mut *mut ArbiterTripleTriad,
) -> ArbiterStatus {
    read(h, |m| {
        give(Out::new(out, "out")?, m.game().clone());
        Ok(())
    })
}

/// Plays a move of the current round in notation (`card@cell`); a drawn round under sudden
/// death starts the next round.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_play(
    h: *mut ArbiterTripleTriadMatch,
    text_ptr: *const c_char,
    len: usize,
) -> ArbiterStatus {
    change(h, |m| {
        let mv = notation(text(text_ptr, len, "the move")?)?;
        m.play(mv).map(drop).map_err(core_error)
    })
}

/// Plays the move of an action id (as in the round: `card * 9 + cell`).
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_play_action(
    h: *mut ArbiterTripleTriadMatch,
    id: u32,
) -> ArbiterStatus {
    change(h, |m| {
        let mv = action(m.game(), id)?;
        m.play(mv).map(drop).map_err(core_error)
    })
}

/// Whether the match is over (the trade may still be pending).
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_is_over(
    h: *const ArbiterTripleTriadMatch,
    over: *mut bool,
) -> ArbiterStatus {
    value(h, over, "over", |m| Ok(m.is_over()))
}

/// The number of the current round, from 1 (once over: the number of rounds played).
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_round_number(
    h: *const ArbiterTripleTriadMatch,
    round: *mut u32,
) -> ArbiterStatus {
    value(h, round, "round", |m| Ok(m.round_number()))
}

/// How each finished round ended, as JSON: `[{"winner": "blue" | "red" | null, "scores": [b, r]}]`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_rounds(
    h: *const ArbiterTripleTriadMatch,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |m| Ok(m.rounds().to_vec()))
}

/// The result as JSON: `{"winner": "blue" | "red" | null, "scores": [b, r], "rounds": n}`, or
/// `null` while the match goes on.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_result(
    h: *const ArbiterTripleTriadMatch,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |m| Ok(m.result()))
}

/// What the trade needs from the winner, as JSON: `"automatic"` (settle with no picks),
/// `{"pick": {"chooser": P, "count": n}}` (n distinct indices among the loser's five cards
/// brought) or `{"swap": {"chooser": P}}` (one index). `ARBITER_ILLEGAL_MOVE` before the end.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_trade_choice(
    h: *const ArbiterTripleTriadMatch,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |m| m.trade_choice().map_err(core_error))
}

/// Settles the trade with the winner's `n` picks (indices 0..4 among the cards the loser brought;
/// none for an automatic trade: `picks` may then be NULL).
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_settle_trade(
    h: *mut ArbiterTripleTriadMatch,
    picks: *const u8,
    n: usize,
) -> ArbiterStatus {
    change(h, |m| {
        let picks = slice(picks, n, "picks")?;
        m.settle_trade(picks).map(drop).map_err(core_error)
    })
}

/// The cards that changed hands, as JSON: `[{"card": {...}, "from": P, "to": P, "index": i}]`, or
/// `null` until the trade is settled.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_transfers(
    h: *const ArbiterTripleTriadMatch,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |m| Ok(m.transfers().map(<[_]>::to_vec)))
}

/// A legal move for a player whose clock ran out, as an action id: a function of the state
/// alone (asking changes nothing). `ARBITER_GAME_OVER` once the match is over.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_timeout_move(
    h: *const ArbiterTripleTriadMatch,
    action: *mut u32,
) -> ArbiterStatus {
    value(h, action, "action", |m| {
        let mv = m
            .timeout_move()
            .ok_or_else(|| Failure::new(ArbiterStatus::ARBITER_GAME_OVER, "the match is over"))?;
        Ok(id(m.game(), mv))
    })
}

//! Triple Triad matches (rounds, sudden death, trade): `arbiter_triple_triad_match_*`.

use std::ffi::c_char;

use arbiter_core::tripletriad::{Match, Observation, Player, TradeChoice, TripleTriad};
use arbiter_core::Engine;

use crate::boundary::{core_error, give, handle, slice, text, Failure, Out};
use crate::triple_triad::ArbiterTripleTriad;
use crate::verbs::{self, action, change, id, json, notation, player_at, read, value, Round};
use crate::ArbiterStatus;

/// A Triple Triad match: rounds (sudden death replays draws), then the trade.
pub struct ArbiterTripleTriadMatch(Match);
handle!(ArbiterTripleTriadMatch, Match);

impl Round for Match {
    type Game = TripleTriad;
    fn round(&self) -> &TripleTriad {
        self.game()
    }
    fn observation(&self, player: Player) -> Observation {
        Match::observation(self, player)
    }
}

/// What kind of choice the trade asks of the winner.
#[repr(i32)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArbiterTradeKind {
    /// Nothing to choose: settle with no picks (some cards may still change hands).
    ARBITER_TRADE_AUTOMATIC = 0,
    /// The winner picks `count` distinct indices among the five cards the loser brought.
    ARBITER_TRADE_PICK = 1,
    /// The winner picks one index: they take the loser's card there and give up their own there.
    ARBITER_TRADE_SWAP = 2,
}

/// What the trade needs from the winner (`arbiter_triple_triad_match_trade_choice`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArbiterTradeChoice {
    /// Automatic, pick or swap.
    pub kind: ArbiterTradeKind,
    /// Who picks: the winner (0 blue, 1 red), or -1 for an automatic trade. The loser is the
    /// other player: `arbiter_triple_triad_match_brought(h, 1 - chooser, ...)` lists the cards
    /// the indices refer to.
    pub chooser: i32,
    /// How many indices `_settle_trade` takes: the count of a pick, 1 for a swap, 0 otherwise.
    pub count: u32,
}

impl From<TradeChoice> for ArbiterTradeChoice {
    fn from(choice: TradeChoice) -> ArbiterTradeChoice {
        let seat = |p| TripleTriad::player_index(p) as i32;
        let (kind, chooser, count) = match choice {
            TradeChoice::Pick { chooser, count } => (ArbiterTradeKind::ARBITER_TRADE_PICK, seat(chooser), count.into()),
            TradeChoice::Swap { chooser } => (ArbiterTradeKind::ARBITER_TRADE_SWAP, seat(chooser), 1),
            TradeChoice::Automatic => (ArbiterTradeKind::ARBITER_TRADE_AUTOMATIC, -1, 0),
        };
        ArbiterTradeChoice { kind, chooser, count }
    }
}

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
    crate::boundary::free(h)
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

/// The player to move in the round in play (0 blue, 1 red), or -1 once the match is over.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_to_move(
    h: *const ArbiterTripleTriadMatch,
    player: *mut i32,
) -> ArbiterStatus {
    verbs::to_move(h, player)
}

/// The legal action ids of the round in play (as `arbiter_triple_triad_legal_actions`).
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_legal_actions(
    h: *const ArbiterTripleTriadMatch,
    buf: *mut u32,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus {
    verbs::legal_actions(h, buf, cap, count)
}

/// What `player` sees of the round in play, as JSON (as `arbiter_triple_triad_observation`),
/// with what the match hides besides: under Three Open the three of the other hand drawn as
/// visible (the others `null`), and the other player's Chaos draw left out.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_observation(
    h: *const ArbiterTripleTriadMatch,
    player: i32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::observation(h, player, buf, cap, size)
}

/// A move in the round in play by the built-in opponent `level`, as an action id (as
/// `arbiter_triple_triad_choose`): play it with `_play_action`. `ARBITER_GAME_OVER` once the
/// match is over.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_choose(
    h: *const ArbiterTripleTriadMatch,
    level: *const c_char,
    len: usize,
    seed: u64,
    action: *mut u32,
) -> ArbiterStatus {
    verbs::choose(h, level, len, seed, std::ptr::null(), action)
}

/// `arbiter_triple_triad_match_choose` within `budget` too (NULL: none), as
/// `arbiter_triple_triad_choose_within`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_choose_within(
    h: *const ArbiterTripleTriadMatch,
    level: *const c_char,
    len: usize,
    seed: u64,
    budget: *const crate::ArbiterBudget,
    action: *mut u32,
) -> ArbiterStatus {
    verbs::choose(h, level, len, seed, budget, action)
}

/// The five cards `player` (0 blue, 1 red) brought to the match, in order, as a JSON array of
/// cards (`{"name", "level", "ranks": [top, right, bottom, left], "element", "power"}`): what the trade's
/// indices refer to.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_brought(
    h: *const ArbiterTripleTriadMatch,
    player: i32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |m| {
        Ok(m.brought(player_at::<TripleTriad>(player)?).to_vec())
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

/// The picks a computer that won would make, as a JSON list of indices among the loser's five
/// cards (`[]` for an automatic trade): the strongest by rank sum, or the swap that gains the
/// most. What `arbiter_triple_triad_match_settle_trade` takes. `ARBITER_ILLEGAL_MOVE` before the
/// end.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_computer_picks(
    h: *const ArbiterTripleTriadMatch,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |m| m.computer_picks().map_err(core_error))
}

/// What the trade needs from the winner, into `choice`: its kind, who picks and how many
/// indices. `ARBITER_ILLEGAL_MOVE` before the end.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_match_trade_choice(
    h: *const ArbiterTripleTriadMatch,
    choice: *mut ArbiterTradeChoice,
) -> ArbiterStatus {
    value(h, choice, "choice", |m| {
        Ok(m.trade_choice().map_err(core_error)?.into())
    })
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

//! Nantong long cards: `arbiter_nantong_*`.

use std::ffi::c_char;

use arbiter_core::nantong::{FinishedDeal, HandCheck, Kind, Nantong, Options, Size};

use crate::boundary::{core_error, give, guard, handle, text, Out, TextOut};
use crate::verbs::{self, change, json, notation, player_at, read};
use crate::ArbiterStatus;

/// A Nantong deal: three seats (0, 1, 2), hidden hands, claims, scoring.
pub struct ArbiterNantong(Nantong);
handle!(ArbiterNantong, Nantong);

/// Creates a deal whose deck order and dealer are drawn from `seed`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_new(seed: u64, out: *mut *mut ArbiterNantong) -> ArbiterStatus {
    guard(|| {
        give(Out::new(out, "out")?, Nantong::new(seed));
        Ok(())
    })
}

/// Creates a smaller deal (`rules/nantong-small.md`) whose deck order and dealer are drawn from
/// `seed`: winning hands of `groups` groups and a pair (0 to 7), a deck of four of each of the
/// first `kinds` kinds (1 to 30). 7 and 30 are the full game, dealt as `arbiter_nantong_new`
/// deals it; a size whose deck cannot deal the hands is `ARBITER_BAD_ARGUMENT`, the message
/// saying the least `kinds`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_new_sized(
    seed: u64,
    groups: u32,
    kinds: u32,
    out: *mut *mut ArbiterNantong,
) -> ArbiterStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        give(out, Nantong::sized(seed, size(Some(groups), Some(kinds))?));
        Ok(())
    })
}

/// The core's size of `groups` and `kinds` (the full game's where absent), checked there.
fn size(groups: Option<u32>, kinds: Option<u32>) -> Result<Size, crate::boundary::Failure> {
    Options {
        groups,
        kinds,
        ..Options::default()
    }
    .size()
    .map_err(core_error)
}

/// Creates the deal of an explicit deck (a JSON array of 120 card codes, four of each kind, in
/// dealing order) and dealer seat (0, 1, 2).
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_deal(
    deck: *const c_char,
    len: usize,
    dealer: i32,
    out: *mut *mut ArbiterNantong,
) -> ArbiterStatus {
    deal(deck, len, dealer, None, out)
}

/// Creates the smaller deal of `groups` groups (0 to 7) of an explicit deck: four of each of the
/// first `n / 4` kinds for a JSON array of `n` card codes, in dealing order; the dealer (0, 1, 2)
/// takes the first `3 * groups + 2` cards, the next seats `3 * groups + 1` each.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_deal_sized(
    deck: *const c_char,
    len: usize,
    dealer: i32,
    groups: u32,
    out: *mut *mut ArbiterNantong,
) -> ArbiterStatus {
    deal(deck, len, dealer, Some(groups), out)
}

/// The canonical deal of a deck given as JSON: the full game's without `groups`, else of the
/// kinds its length gives.
unsafe fn deal(
    deck: *const c_char,
    len: usize,
    dealer: i32,
    groups: Option<u32>,
    out: *mut *mut ArbiterNantong,
) -> ArbiterStatus {
    verbs::create(deck, len, out, |deck| {
        let dealer = player_at::<Nantong>(dealer)?;
        let deck: Vec<Kind> = serde_json::from_str(deck)?;
        let size = match groups {
            None => Size::FULL,
            Some(_) => size(groups, Some((deck.len() / 4).max(1) as u32))?,
        };
        Nantong::deal_sized(&deck, dealer, size).map_err(core_error)
    })
}

/// Groups in a winning hand: 7, fewer in a smaller deal.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_groups(h: *const ArbiterNantong, groups: *mut u32) -> ArbiterStatus {
    verbs::value(h, groups, "groups", |g| Ok(g.size().groups() as u32))
}

/// Kinds in the deck: 30, fewer in a smaller deal.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_kinds(h: *const ArbiterNantong, kinds: *mut u32) -> ArbiterStatus {
    verbs::value(h, kinds, "kinds", |g| Ok(g.size().kinds() as u32))
}

/// Loads a deal saved by `_to_json` (its deck order, dealer, generator state and actions,
/// replayed): it continues exactly, the next deals included.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_from_json(
    json: *const c_char,
    len: usize,
    out: *mut *mut ArbiterNantong,
) -> ArbiterStatus {
    verbs::from_json(json, len, out)
}

/// Saves the deal as JSON. It holds every hand: a host that hides cards from players shows them
/// observations, not saves.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_to_json(
    h: *const ArbiterNantong,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::to_json(h, buf, cap, size)
}

/// The next deal, as a new handle: the next seat deals a deck shuffled by this deal's generator
/// (so that a saved deal's next deals come out the same).
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_next_deal(
    h: *const ArbiterNantong,
    out: *mut *mut ArbiterNantong,
) -> ArbiterStatus {
    read(h, |g| {
        give(Out::new(out, "out")?, g.next_deal());
        Ok(())
    })
}

/// Frees a deal; NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_free(h: *mut ArbiterNantong) {
    crate::boundary::free(h)
}

/// Copies a deal into a new handle.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_clone(
    h: *const ArbiterNantong,
    out: *mut *mut ArbiterNantong,
) -> ArbiterStatus {
    verbs::clone(h, out)
}

/// What `player` (seat 0, 1 or 2) sees, as a fixed-size vector of numbers in 0..=1 for learning agents
/// (layout: the docs of `arbiter_core::nantong::tensor`), into `buf`; `count` receives the length. Built from what
/// that player may see alone.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_observation_tensor(
    h: *const ArbiterNantong,
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
pub unsafe extern "C" fn arbiter_nantong_legal_action_mask(
    h: *const ArbiterNantong,
    buf: *mut u8,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus {
    verbs::legal_action_mask(h, buf, cap, count)
}

/// The legal action ids of the seat to act into `buf`; `count` receives how many there are.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_legal_actions(
    h: *const ArbiterNantong,
    buf: *mut u32,
    cap: usize,
    count: *mut usize,
) -> ArbiterStatus {
    verbs::legal_actions(h, buf, cap, count)
}

/// The legal actions of the seat to act as text (`discard 5m`, `pong`, ...), a JSON array.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_legal_moves(
    h: *const ArbiterNantong,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::legal_moves(h, buf, cap, size)
}

/// Plays an action of the seat to act, as text: `discard 5m`, `win`, `pass`, `pong`, `kong`,
/// `concealed_kong 5m`, `add_kong 5m`, `declare_four 5m`, `declare_triple 2s`, `declare_hezi`,
/// `ready`, `finish`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_play(
    h: *mut ArbiterNantong,
    text: *const c_char,
    len: usize,
) -> ArbiterStatus {
    verbs::play(h, text, len)
}

/// Plays the action of an action id for the seat to act.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_play_action(h: *mut ArbiterNantong, id: u32) -> ArbiterStatus {
    verbs::play_action(h, id)
}

/// Plays an action as text for `seat`: `ARBITER_ILLEGAL_MOVE` when another seat is to act.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_act(
    h: *mut ArbiterNantong,
    seat: i32,
    action: *const c_char,
    len: usize,
) -> ArbiterStatus {
    change(h, |g| {
        let seat = player_at::<Nantong>(seat)?;
        let action = notation(text(action, len, "the action")?)?;
        g.act(seat, action).map_err(core_error)
    })
}

/// Answers `pass` to every pending claim question whose only answer is `pass`; `passed`
/// receives how many. For replaying records that list only the questions a seat
/// could act on (the conformance `replay` cases), or a table whose seats share one screen: seats
/// that cannot see each other must each answer, or the time taken would tell which could claim.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_pass_forced(h: *mut ArbiterNantong, passed: *mut usize) -> ArbiterStatus {
    change(h, |g| {
        let passed = Out::new(passed, "passed")?;
        passed.set(g.pass_forced());
        Ok(())
    })
}

/// The seat to act (0, 1, 2), or -1 once the deal is over.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_to_move(h: *const ArbiterNantong, player: *mut i32) -> ArbiterStatus {
    verbs::to_move(h, player)
}

/// The seat to act (the same as `_to_move`, under the Rust name `actor`).
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_actor(h: *const ArbiterNantong, seat: *mut i32) -> ArbiterStatus {
    verbs::to_move(h, seat)
}

/// The dealer's seat (0, 1, 2).
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_dealer(h: *const ArbiterNantong, seat: *mut i32) -> ArbiterStatus {
    verbs::value(h, seat, "seat", |g| Ok(g.dealer().index() as i32))
}

/// How the deal was won, as JSON (`{"seat", "card", "source", "heavenly", "dealer_first_discard",
/// "last_card"}`); `null` while the deal goes on and after an exhausted deal.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_win(
    h: *const ArbiterNantong,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |g| Ok(g.win().copied()))
}

/// Whether the deal is over.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_is_over(h: *const ArbiterNantong, over: *mut bool) -> ArbiterStatus {
    verbs::is_over(h, over)
}

/// The result: the winning seat, -2 for an exhausted deal, -1 while the deal goes on.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_outcome(h: *const ArbiterNantong, outcome: *mut i32) -> ArbiterStatus {
    verbs::outcome(h, outcome)
}

/// What `seat` sees, as a JSON object; never another seat's concealed cards. Cards are codes
/// (`1m`..`9m`, `1s`..`9s`, `1c`..`9c`, `T`, `W`, `R`); seats are 0, 1, 2.
/// - `seat`: the observer; `dealer`: the dealer's seat.
/// - `hand`: the observer's concealed cards, sorted.
/// - `melds`: per seat, its melds in the order made: `{"type": "pong" | "exposed_kong" |
///   "concealed_kong" | "opening_four" | "opening_triple" | "hezi", "card": code}`.
/// - `discards`: every discard on the table, oldest first, as `[seat, code]`.
/// - `indicators`: the two indicator cards.
/// - `stock`: the cards left to draw; `hand_sizes`: concealed cards per seat (another seat's
///   draw counts once that seat has acted); `ready`: per seat, whether it declared ready.
/// - `to_act`: the seat to act, or `null` (after a discard every other seat answers in turn,
///   whatever its hand, so who is asked tells nothing).
/// - `claim`: the discard a claim question asks the observer about, or `null`.
/// - `actions`: the observer's legal actions in notation (`discard 5m`, `pong`, `pass`, ...),
///   empty while another seat acts.
/// - `last_event`: what the last action did, for animation: `{"seat", "action", "took": {"card",
///   "from"} or null, "draws": [{"seat", "replacement", "card"}]}`, a drawn card shown to its
///   drawer only (`null` to the others).
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_observation(
    h: *const ArbiterNantong,
    seat: i32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::observation(h, seat, buf, cap, size)
}

/// Counts the legal action sequences of `depth` actions.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_perft(h: *const ArbiterNantong, depth: u32, nodes: *mut u64) -> ArbiterStatus {
    verbs::perft(h, depth, nodes)
}

/// An action for the seat to act by the built-in opponent `level` (`random`, `basic`, `strong`:
/// `arbiter_nantong_levels`), from that seat's observation only, with randomness from `seed`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_choose(
    h: *const ArbiterNantong,
    level: *const c_char,
    len: usize,
    seed: u64,
    action: *mut u32,
) -> ArbiterStatus {
    verbs::choose(h, level, len, seed, std::ptr::null(), action)
}

/// `arbiter_nantong_choose` within `budget` too (NULL: none): a time limit, a node limit, a
/// cancel flag. A search that runs out plays the best move it found so far, never none while one
/// is legal. With a time limit or a flag the move may depend on the machine's speed.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_choose_within(
    h: *const ArbiterNantong,
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
pub unsafe extern "C" fn arbiter_nantong_levels(buf: *mut c_char, cap: usize, size: *mut usize) -> ArbiterStatus {
    verbs::levels::<Nantong>(buf, cap, size)
}

/// The text of an action id, e.g. `discard 5m`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_action_text(
    h: *const ArbiterNantong,
    id: u32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    verbs::action_text(h, id, buf, cap, size)
}

/// The action id of an action's text.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_action_id(
    h: *const ArbiterNantong,
    text: *const c_char,
    len: usize,
    id: *mut u32,
) -> ArbiterStatus {
    verbs::action_id(h, text, len, id)
}

/// The number of action ids: ids are `0..count`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_num_actions(h: *const ArbiterNantong, count: *mut usize) -> ArbiterStatus {
    verbs::num_actions(h, count)
}

/// The score of a finished deal with its itemised breakdown, as JSON: `{"players": [{"groups",
/// "base", "bonuses", "multipliers", "raw", "total"}], "totals", "settlement"}`; `null` while the
/// deal goes on.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_score(
    h: *const ArbiterNantong,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    json(h, buf, cap, size, |g| Ok(g.score().cloned()))
}

/// Checks a hand given as JSON, `{"hand": [codes], "melds": [{"type", "card"}]}` (the conformance
/// `winning` input): writes `{"winning": bool, "waits": [codes]}`, the waits being the cards that
/// would complete a hand one card short.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_winning(
    json: *const c_char,
    len: usize,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    guard(|| {
        let out = TextOut::new(buf, cap, size, "buf")?;
        let hand: HandCheck = serde_json::from_str(text(json, len, "the hand")?)?;
        out.json(&hand.standing())
    })
}

/// Scores the end of a deal given as JSON (the conformance `score` input): `indicators` (two
/// codes), `dealer`, `players` (three `{"hand": [codes], "melds": [...], "ready": bool}`, the
/// winner's hand with the winning card) and `win` (`null` for an exhausted deal, else `{"seat",
/// "card", "source", "heavenly", "dealer_first_discard", "last_card"}`). Writes the score as
/// `_score` does; cards no deal can end with are `ARBITER_PARSE_ERROR`, with the reason.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_score_hand(
    json: *const c_char,
    len: usize,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    guard(|| {
        let out = TextOut::new(buf, cap, size, "buf")?;
        let deal: FinishedDeal = serde_json::from_str(text(json, len, "the deal")?)?;
        out.json(&deal.score())
    })
}

//! The C library's exports called from bytes, as a careless C host would call them: states from
//! arbitrary JSON, arbitrary texts and ids, buffers of every size, NULL pointers, unknown levels
//! and players, budgets and cancel flags. Checked: no call is an internal error (a panic caught
//! at the boundary); a refused call leaves the game as it was; every offered action is accepted;
//! a save loads back to the same save; a chosen action is one of the offered ones, within any
//! budget; a size query and the text agree.

use std::ffi::c_char;
use std::ptr::{null, null_mut};

use arbiter::budget::*;
use arbiter::ffxiv::*;
use arbiter::nantong::*;
use arbiter::trax::*;
use arbiter::triple_triad::*;
use arbiter::triple_triad_match::*;
use arbiter::ArbiterBudget;
use arbiter::ArbiterStatus::{self, *};

use crate::Input;

type Text<H> = unsafe extern "C" fn(*const H, *mut c_char, usize, *mut usize) -> ArbiterStatus;
type Observe<H> = unsafe extern "C" fn(*const H, i32, *mut c_char, usize, *mut usize) -> ArbiterStatus;
type Choose<H> = unsafe extern "C" fn(*const H, *const c_char, usize, u64, *mut u32) -> ArbiterStatus;
type ChooseWithin<H> =
    unsafe extern "C" fn(*const H, *const c_char, usize, u64, *const ArbiterBudget, *mut u32) -> ArbiterStatus;
type ActionText<H> = unsafe extern "C" fn(*const H, u32, *mut c_char, usize, *mut usize) -> ArbiterStatus;

/// One game's exports.
struct Api<H> {
    from_json: unsafe extern "C" fn(*const c_char, usize, *mut *mut H) -> ArbiterStatus,
    to_json: Text<H>,
    observation: Observe<H>,
    clone: unsafe extern "C" fn(*const H, *mut *mut H) -> ArbiterStatus,
    free: unsafe extern "C" fn(*mut H),
    play: unsafe extern "C" fn(*mut H, *const c_char, usize) -> ArbiterStatus,
    play_action: unsafe extern "C" fn(*mut H, u32) -> ArbiterStatus,
    legal_actions: unsafe extern "C" fn(*const H, *mut u32, usize, *mut usize) -> ArbiterStatus,
    choose: Choose<H>,
    choose_within: ChooseWithin<H>,
    action_text: ActionText<H>,
    levels: &'static [&'static str],
    /// Seats a view may be asked for (0 to `seats - 1`).
    seats: i32,
    /// The calls only this game has (a call of kind 9), given the offered actions; what they
    /// return, checked like any call's.
    own: fn(*mut H, &[u32], &mut Input) -> ArbiterStatus,
}

/// A move's text in the match's round in play, through the round's handle the match gives: the
/// match has no text export of its own.
unsafe extern "C" fn match_action_text(
    h: *const ArbiterTripleTriadMatch,
    id: u32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    let mut round = null_mut();
    let status = arbiter_triple_triad_match_game(h, &mut round);
    if status != ARBITER_OK {
        return status;
    }
    let status = arbiter_triple_triad_action_text(round, id, buf, cap, size);
    arbiter_triple_triad_free(round);
    status
}

/// A budget read from one byte, its flag (NULL or to free with `arbiter_cancel_free`), and
/// whether it limits anything: bit 0 gives a flag, bit 1 raises it, bits 2-3 a time limit of 0
/// to 3 ms, bits 4-7 a node limit (none, or 20 to 300).
fn budget(byte: u8) -> (ArbiterBudget, *mut ArbiterCancel, bool) {
    let mut flag = null_mut();
    let raised = byte & 3 == 3;
    if byte & 1 != 0 {
        assert_eq!(unsafe { arbiter_cancel_new(&mut flag) }, ARBITER_OK);
        let status = unsafe {
            (if raised {
                arbiter_cancel_raise
            } else {
                arbiter_cancel_reset
            })(flag)
        };
        assert_eq!(status, ARBITER_OK);
    }
    let budget = ArbiterBudget {
        time_ms: u64::from(byte >> 2 & 3),
        nodes: u64::from(byte >> 4) * 20,
        cancel: flag,
    };
    let limits = raised || budget.time_ms > 0 || budget.nodes > 0;
    (budget, flag, limits)
}

/// A text export read in two calls (the size, then the text), checked to agree; `None` when the
/// export refuses (it must not be an internal error).
fn text(f: impl Fn(*mut c_char, usize, *mut usize) -> ArbiterStatus) -> Option<Vec<u8>> {
    let mut size = 0;
    let status = f(null_mut(), 0, &mut size);
    if status != ARBITER_BUFFER_TOO_SMALL {
        assert_ne!(status, ARBITER_INTERNAL_ERROR);
        assert_ne!(status, ARBITER_OK, "an empty buffer cannot hold the terminating NUL");
        return None;
    }
    let mut buf = vec![0 as c_char; size];
    let mut again = 0;
    assert_eq!(f(buf.as_mut_ptr(), size, &mut again), ARBITER_OK);
    assert_eq!((again, buf.pop()), (size, Some(0)), "size and text disagree");
    Some(buf.into_iter().map(|c| c as u8).collect())
}

/// A text export of `len` bytes into a buffer of `cap % (len + 2)` bytes: refused with the size
/// needed when too small, nothing written past it.
fn short(f: impl Fn(*mut c_char, usize, *mut usize) -> ArbiterStatus, len: usize, cap: usize) -> ArbiterStatus {
    let cap = cap % (len + 2);
    let mut buf = vec![0x55 as c_char; cap + 8];
    let mut size = 0;
    let status = f(buf.as_mut_ptr(), cap, &mut size);
    assert_eq!(size, len + 1);
    assert_eq!(status == ARBITER_OK, cap > len);
    assert!(buf[cap..].iter().all(|&c| c == 0x55), "written past the buffer");
    status
}

fn save<H>(api: &Api<H>, h: *const H) -> Vec<u8> {
    text(|b, c, s| unsafe { (api.to_json)(h, b, c, s) }).expect("a game always saves")
}

fn legal<H>(api: &Api<H>, h: *const H) -> Vec<u32> {
    let mut n = 0;
    let status = unsafe { (api.legal_actions)(h, null_mut(), 0, &mut n) };
    assert_eq!(status, if n == 0 { ARBITER_OK } else { ARBITER_BUFFER_TOO_SMALL });
    let mut ids = vec![0u32; n + 1];
    let mut m = 0;
    assert_eq!(
        unsafe { (api.legal_actions)(h, ids.as_mut_ptr(), ids.len(), &mut m) },
        ARBITER_OK
    );
    assert_eq!(m, n, "the count query and the list disagree");
    ids.truncate(n);
    ids
}

/// Runs calls read from `input` against handle `h` (owned; freed at the end).
fn calls<H>(api: &Api<H>, h: *mut H, input: &mut Input) {
    for _ in 0..200 {
        if input.is_empty() {
            break;
        }
        let before = save(api, h);
        let offered = legal(api, h);
        let status = match input.byte() % 10 {
            0 | 1 if !offered.is_empty() => {
                // An offered action, by id or by its text: always accepted.
                let pick = input.byte() as usize;
                let id = offered[pick % offered.len()];
                let status = if pick & 1 == 0 {
                    unsafe { (api.play_action)(h, id) }
                } else {
                    let t = text(|b, c, s| unsafe { (api.action_text)(h, id, b, c, s) }).expect("an offered id's text");
                    unsafe { (api.play)(h, t.as_ptr().cast(), t.len()) }
                };
                assert_eq!(status, ARBITER_OK, "offered action {id} refused");
                status
            }
            2 => {
                let id = u32::from_be_bytes([input.byte(), input.byte(), input.byte(), input.byte()]);
                let status = unsafe { (api.play_action)(h, id) };
                assert_eq!(status == ARBITER_OK, offered.contains(&id), "action {id}: {status:?}");
                status
            }
            3 => {
                let t = input.text();
                unsafe { (api.play)(h, t.as_ptr().cast(), t.len()) }
            }
            4 => {
                // A save loads back to the same save, in a new handle.
                let mut copy = null_mut();
                assert_eq!(
                    unsafe { (api.from_json)(before.as_ptr().cast(), before.len(), &mut copy) },
                    ARBITER_OK
                );
                assert_eq!(save(api, copy), before);
                unsafe { (api.free)(copy) };
                let mut twin = null_mut();
                assert_eq!(unsafe { (api.clone)(h, &mut twin) }, ARBITER_OK);
                assert_eq!(save(api, twin), before);
                unsafe { (api.free)(twin) };
                ARBITER_OK
            }
            5 => {
                // A level by name (a few of them unknown), within a budget read from a byte;
                // searching levels only now and then unless the budget bounds them.
                let pick = input.byte() as usize;
                let (b, flag, limited) = budget(input.byte());
                let level = api
                    .levels
                    .get(pick % (api.levels.len() + 1))
                    .copied()
                    .unwrap_or("grandmaster");
                if pick % (api.levels.len() + 1) >= 2 && !limited && !pick.is_multiple_of(16) {
                    unsafe { arbiter_cancel_free(flag) };
                    continue;
                }
                let (l, n) = (level.as_ptr().cast(), level.len());
                let mut action = u32::MAX;
                let status = unsafe { (api.choose_within)(h, l, n, 7, &b, &mut action) };
                match status {
                    ARBITER_OK => assert!(offered.contains(&action), "{level} chose {action}"),
                    ARBITER_GAME_OVER => assert!(offered.is_empty()),
                    other => assert_eq!((other, level), (ARBITER_BAD_ARGUMENT, "grandmaster")),
                }
                if !limited {
                    // A budget that limits nothing is no budget: the choice is the seed's.
                    let mut again = u32::MAX;
                    assert_eq!(unsafe { (api.choose)(h, l, n, 7, &mut again) }, status);
                    assert_eq!(again, action, "{level}: an empty budget changed the choice");
                }
                unsafe { arbiter_cancel_free(flag) };
                status
            }
            6 => {
                // Any player index: a seat's view, or refused as a bad argument.
                let player = i32::from(input.byte() as i8);
                if text(|b, c, s| unsafe { (api.observation)(h, player, b, c, s) }).is_none() {
                    assert!(!(0..api.seats).contains(&player), "no observation for player {player}");
                }
                ARBITER_OK
            }
            7 => {
                let cap = input.byte() as usize;
                short(|b, c, s| unsafe { (api.to_json)(h, b, c, s) }, before.len(), cap)
            }
            8 => {
                // NULL where a pointer is due: refused, never followed.
                let mut n = 0;
                assert_eq!(
                    unsafe { (api.legal_actions)(null(), null_mut(), 0, &mut n) },
                    ARBITER_NULL_POINTER
                );
                assert_eq!(unsafe { (api.play)(h, null(), 3) }, ARBITER_NULL_POINTER);
                assert_eq!(unsafe { (api.play_action)(null_mut(), 0) }, ARBITER_NULL_POINTER);
                assert_eq!(
                    unsafe { (api.to_json)(h, null_mut(), 0, null_mut()) },
                    ARBITER_NULL_POINTER
                );
                assert_eq!(
                    unsafe { (api.from_json)(b"{}".as_ptr().cast(), 2, null_mut()) },
                    ARBITER_NULL_POINTER
                );
                ARBITER_NULL_POINTER
            }
            _ => (api.own)(h, &offered, input),
        };
        assert_ne!(status, ARBITER_INTERNAL_ERROR);
        if status != ARBITER_OK {
            assert_eq!(save(api, h), before, "a refused call changed the game");
        }
    }
    unsafe { (api.free)(h) };
}

/// Triple Triad's own call: the exact solver within a budget (always a limited one: a whole
/// round unsolved costs seconds).
fn round_own(h: *mut ArbiterTripleTriad, offered: &[u32], input: &mut Input) -> ArbiterStatus {
    let (b, flag, _) = budget(input.byte() | 0x10);
    let (mut value, mut action) = (i32::MIN, u32::MAX);
    let status = unsafe { arbiter_triple_triad_solve_within(h, &b, &mut value, &mut action) };
    unsafe { arbiter_cancel_free(flag) };
    match status {
        ARBITER_OK => {
            assert!(
                offered.contains(&action) && (-10..=10).contains(&value),
                "solved {value} by {action}"
            );
            // Solved within the budget: the search without one finds the same value.
            let mut exact = i32::MIN;
            assert_eq!(
                unsafe { arbiter_triple_triad_solve(h, &mut exact, &mut action) },
                ARBITER_OK
            );
            assert_eq!(exact, value);
        }
        ARBITER_GAME_OVER => assert!(offered.is_empty()),
        ARBITER_LIMIT_EXCEEDED => assert_eq!((value, action), (i32::MIN, u32::MAX), "written when cut"),
        other => assert_eq!(other, ARBITER_BAD_ARGUMENT, "solve"),
    }
    status
}

/// A match's own calls: its reports, the cards either player brought, and the trade once over
/// (the computer's picks, or picks read from the input).
fn match_own(h: *mut ArbiterTripleTriadMatch, offered: &[u32], input: &mut Input) -> ArbiterStatus {
    let report = |f: Text<ArbiterTripleTriadMatch>| text(|b, c, s| unsafe { f(h, b, c, s) }).expect("a report");
    let transfers = report(arbiter_triple_triad_match_transfers);
    report(arbiter_triple_triad_match_rounds);
    let result = report(arbiter_triple_triad_match_result);
    let player = i32::from(input.byte() as i8);
    let brought = text(|b, c, s| unsafe { arbiter_triple_triad_match_brought(h, player, b, c, s) });
    assert_eq!(brought.is_some(), (0..2).contains(&player), "cards brought by {player}");
    let mut over = false;
    assert_eq!(unsafe { arbiter_triple_triad_match_is_over(h, &mut over) }, ARBITER_OK);
    assert_eq!(over, result != b"null", "over, or a result");
    let mut choice = ArbiterTradeChoice {
        kind: ArbiterTradeKind::ARBITER_TRADE_AUTOMATIC,
        chooser: -1,
        count: 0,
    };
    let status = unsafe { arbiter_triple_triad_match_trade_choice(h, &mut choice) };
    if !over {
        assert!(!offered.is_empty());
        assert_eq!(status, ARBITER_ILLEGAL_MOVE, "a trade before the end");
        return status;
    }
    assert_eq!(status, ARBITER_OK);
    let picks = text(|b, c, s| unsafe { arbiter_triple_triad_match_computer_picks(h, b, c, s) }).expect("picks");
    let picks: Vec<u8> = serde_json::from_slice(&picks).expect("picks as JSON");
    assert_eq!(picks.len(), choice.count as usize, "{choice:?}");
    let unsettled = transfers == b"null";
    let status = if input.byte() & 1 == 0 {
        let status = unsafe { arbiter_triple_triad_match_settle_trade(h, picks.as_ptr(), picks.len()) };
        assert_eq!(status == ARBITER_OK, unsettled, "the computer's picks: {status:?}");
        status
    } else {
        let mine: Vec<u8> = (0..input.byte() % 7).map(|_| input.byte() % 8).collect();
        unsafe { arbiter_triple_triad_match_settle_trade(h, mine.as_ptr(), mine.len()) }
    };
    if status == ARBITER_OK {
        assert_ne!(
            report(arbiter_triple_triad_match_transfers),
            b"null",
            "settled, no transfers"
        );
    }
    status
}

/// A Nantong deal's own calls: its size, read back.
fn nantong_own(h: *mut ArbiterNantong, _: &[u32], _: &mut Input) -> ArbiterStatus {
    let (mut groups, mut kinds) = (u32::MAX, u32::MAX);
    assert_eq!(unsafe { arbiter_nantong_groups(h, &mut groups) }, ARBITER_OK);
    assert_eq!(unsafe { arbiter_nantong_kinds(h, &mut kinds) }, ARBITER_OK);
    assert!(
        groups <= 7 && (1..=30).contains(&kinds),
        "{groups} groups, {kinds} kinds"
    );
    assert_eq!(unsafe { arbiter_nantong_groups(h, null_mut()) }, ARBITER_NULL_POINTER);
    ARBITER_OK
}

/// The calls that take no game: the FFXIV data as text, whole and into short buffers; cancel
/// flags given NULL.
fn library(input: &mut Input) {
    type Data = unsafe extern "C" fn(*mut c_char, usize, *mut usize) -> ArbiterStatus;
    let exports: [(Data, &str); 3] = [
        (arbiter_ffxiv_cards, "cards"),
        (arbiter_ffxiv_npcs, "npcs"),
        (arbiter_ffxiv_deck_rule, "cards"),
    ];
    for (f, key) in exports {
        let whole = text(|b, c, s| unsafe { f(b, c, s) }).expect("the FFXIV data");
        let json: serde_json::Value = serde_json::from_slice(&whole).expect("the FFXIV data as JSON");
        assert!(json.get(key).is_some(), "no {key}");
        let cap = (input.u64() % 0x1_0000) as usize;
        short(|b, c, s| unsafe { f(b, c, s) }, whole.len(), cap);
        assert_eq!(unsafe { f(null_mut(), 0, null_mut()) }, ARBITER_NULL_POINTER);
    }
    assert_eq!(unsafe { arbiter_cancel_new(null_mut()) }, ARBITER_NULL_POINTER);
    assert_eq!(unsafe { arbiter_cancel_raise(null()) }, ARBITER_NULL_POINTER);
    assert_eq!(unsafe { arbiter_cancel_reset(null()) }, ARBITER_NULL_POINTER);
    unsafe { arbiter_cancel_free(null_mut()) };
}

/// A game byte (bit 7: from JSON; bit 6: the library's calls first; bit 5: a Nantong deck
/// dealt), then either a seed (new game) or JSON up to a 0 byte (a game from JSON, which may be
/// refused), then calls.
pub fn c_abi(data: &[u8]) {
    let mut input = Input(data);
    let game = input.byte();
    if game & 0x40 != 0 {
        library(&mut input);
    }
    let from_json = game & 0x80 != 0;
    macro_rules! run {
        ($api:expr, $new:expr, $parse:expr) => {{
            let api = $api;
            let mut h = null_mut();
            let status = if from_json {
                let status = $parse(&api, &mut input, &mut h);
                assert_ne!(status, ARBITER_INTERNAL_ERROR);
                assert_eq!(status == ARBITER_OK, !h.is_null());
                status
            } else {
                let seed = input.u64();
                $new(seed, &mut h)
            };
            if status == ARBITER_OK {
                calls(&api, h, &mut input);
            }
        }};
        ($api:expr, $new:expr) => {
            run!($api, $new, |api: &Api<_>, input: &mut Input, h| {
                let json = input.text();
                unsafe { (api.from_json)(json.as_ptr().cast(), json.len(), h) }
            })
        };
    }
    match game % 4 {
        0 => run!(
            Api {
                from_json: arbiter_triple_triad_from_json,
                to_json: arbiter_triple_triad_to_json,
                observation: arbiter_triple_triad_observation,
                clone: arbiter_triple_triad_clone,
                free: arbiter_triple_triad_free,
                play: arbiter_triple_triad_play,
                play_action: arbiter_triple_triad_play_action,
                legal_actions: arbiter_triple_triad_legal_actions,
                choose: arbiter_triple_triad_choose,
                choose_within: arbiter_triple_triad_choose_within,
                action_text: arbiter_triple_triad_action_text,
                levels: &["random", "greedy", "perfect", "expert"],
                seats: 2,
                own: round_own,
            },
            |seed: u64, h: &mut *mut ArbiterTripleTriad| {
                let preset = ["ff8", "ttonline", "mush", "ffforever"][seed as usize % 4];
                unsafe { arbiter_triple_triad_from_preset(preset.as_ptr().cast(), preset.len(), seed, h) }
            }
        ),
        1 => run!(
            Api {
                from_json: arbiter_trax_from_json,
                to_json: arbiter_trax_to_json,
                observation: arbiter_trax_observation,
                clone: arbiter_trax_clone,
                free: arbiter_trax_free,
                play: arbiter_trax_play,
                play_action: arbiter_trax_play_action,
                legal_actions: arbiter_trax_legal_actions,
                choose: arbiter_trax_choose,
                choose_within: arbiter_trax_choose_within,
                action_text: arbiter_trax_action_text,
                levels: &["random", "easy", "medium", "hard", "expert"],
                seats: 2,
                own: |_, _, _| ARBITER_OK,
            },
            |seed: u64, h: &mut *mut ArbiterTrax| {
                let variant = ["8x8", "unbounded", "loop"][seed as usize % 3];
                unsafe { arbiter_trax_new(variant.as_ptr().cast(), variant.len(), h) }
            }
        ),
        2 => run!(
            Api {
                from_json: arbiter_nantong_from_json,
                to_json: arbiter_nantong_to_json,
                observation: arbiter_nantong_observation,
                clone: arbiter_nantong_clone,
                free: arbiter_nantong_free,
                play: arbiter_nantong_play,
                play_action: arbiter_nantong_play_action,
                legal_actions: arbiter_nantong_legal_actions,
                choose: arbiter_nantong_choose,
                choose_within: arbiter_nantong_choose_within,
                action_text: arbiter_nantong_action_text,
                levels: &["random", "basic", "strong"],
                seats: 3,
                own: nantong_own,
            },
            |seed: u64, h: &mut *mut ArbiterNantong| {
                if seed.is_multiple_of(4) {
                    return unsafe { arbiter_nantong_new(seed, h) };
                }
                // Any size, some of them too small to deal: refused as a bad argument.
                let (groups, kinds) = (u32::from((seed >> 8) as u8 % 9), u32::from((seed >> 16) as u8 % 32));
                let status = unsafe { arbiter_nantong_new_sized(seed, groups, kinds, h) };
                assert!(
                    matches!(status, ARBITER_OK | ARBITER_BAD_ARGUMENT),
                    "{groups} groups, {kinds} kinds: {status:?}"
                );
                if status == ARBITER_OK {
                    let (mut g, mut k) = (0, 0);
                    unsafe { (arbiter_nantong_groups(*h, &mut g), arbiter_nantong_kinds(*h, &mut k)) };
                    assert_eq!((g, k), (groups, kinds));
                }
                status
            },
            |api: &Api<ArbiterNantong>, input: &mut Input, h| {
                let text = input.text();
                if game & 0x20 == 0 {
                    return unsafe { (api.from_json)(text.as_ptr().cast(), text.len(), h) };
                }
                // A deck in dealing order, as a host deals it: any seat, any size.
                let (dealer, groups) = (i32::from(input.byte() as i8), u32::from(input.byte()));
                unsafe { arbiter_nantong_deal_sized(text.as_ptr().cast(), text.len(), dealer, groups, h) }
            }
        ),
        _ => run!(
            Api {
                from_json: arbiter_triple_triad_match_from_json,
                to_json: arbiter_triple_triad_match_to_json,
                observation: arbiter_triple_triad_match_observation,
                clone: arbiter_triple_triad_match_clone,
                free: arbiter_triple_triad_match_free,
                play: arbiter_triple_triad_match_play,
                play_action: arbiter_triple_triad_match_play_action,
                legal_actions: arbiter_triple_triad_match_legal_actions,
                choose: arbiter_triple_triad_match_choose,
                choose_within: arbiter_triple_triad_match_choose_within,
                action_text: match_action_text,
                levels: &["random", "greedy", "perfect", "expert"],
                seats: 2,
                own: match_own,
            },
            |seed: u64, h: &mut *mut ArbiterTripleTriadMatch| {
                let preset = ["ff8", "ttonline", "mush", "ffforever", "ffxiv"][seed as usize % 5];
                unsafe { arbiter_triple_triad_match_from_preset(preset.as_ptr().cast(), preset.len(), seed, h) }
            }
        ),
    }
}

#[cfg(test)]
mod tests {
    /// The checks themselves, on stable: each game new and from JSON, through every kind of call.
    #[test]
    fn every_game_through_every_kind_of_call() {
        // Texts a host might send: moves of every game, garbage, invalid UTF-8; each after an
        // offered action (a call of kind 0), as a call of kind 3 up to the 0 byte that ends it.
        const TEXTS: &[&[u8]] = &[
            b"0@0",
            b"4@8",
            b"9@9",
            b"@0+",
            b"A1/",
            b"B2\\",
            b"AA10+",
            b"discard 5m",
            b"pass",
            b"win",
            b"ready",
            b"finish",
            b"pong",
            b"",
            b" ",
            b"\xff\xfe",
            b"concealed_kong T",
        ];
        let mut calls: Vec<u8> = (0..=255).collect();
        for (i, t) in TEXTS.iter().enumerate() {
            calls.extend([0, i as u8, 3]);
            calls.extend(*t);
            calls.push(0);
        }
        // Nantong's seeds past 3 are sizes: one group of five kinds, the tiniest, the full game.
        for seed in [0, 1, 2, 3, 0x05_01_01, 0x02_00_02, 0x1e_07_03u64] {
            for game in [0, 1, 2, 3, 0x40] {
                let mut data = vec![game];
                data.extend(seed.to_be_bytes());
                data.extend(&calls);
                super::c_abi(&data);
            }
        }
        let trax = br#"{"variant": "8x8", "moves": ["@0/", "B1\\", "B2/"]}"#;
        let deck = br#"["1m","1m","1m","1m","2m","2m","2m","2m"]"#;
        for (game, json) in [
            (0x81, &trax[..]),
            (0x81, b"{\"variant\": 3}"),
            (0x81, b"\xff"),
            (0xa2, deck),
        ] {
            let mut data = vec![game];
            data.extend(json);
            data.extend([0, 1, 0]);
            data.extend(&calls);
            super::c_abi(&data);
        }
    }
}

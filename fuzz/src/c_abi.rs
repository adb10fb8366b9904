//! The C library's exports called from bytes, as a careless C host would call them: states from
//! arbitrary JSON, arbitrary texts and ids, buffers of every size, NULL pointers, unknown levels
//! and players. Checked: no call is an internal error (a panic caught at the boundary); a refused
//! call leaves the game as it was; every offered action is accepted; a save loads back to the same
//! save; a chosen action is one of the offered ones; a size query and the text agree.

use std::ffi::c_char;
use std::ptr::{null, null_mut};

use arbiter::nantong::*;
use arbiter::trax::*;
use arbiter::triple_triad::*;
use arbiter::ArbiterStatus::{self, *};

use crate::Input;

type Text<H> = unsafe extern "C" fn(*const H, *mut c_char, usize, *mut usize) -> ArbiterStatus;
type Observe<H> = unsafe extern "C" fn(*const H, i32, *mut c_char, usize, *mut usize) -> ArbiterStatus;

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
    choose: unsafe extern "C" fn(*const H, *const c_char, usize, u64, *mut u32) -> ArbiterStatus,
    action_text: unsafe extern "C" fn(*const H, u32, *mut c_char, usize, *mut usize) -> ArbiterStatus,
    levels: &'static [&'static str],
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
        let status = match input.byte() % 9 {
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
                // A level by name (a few of them unknown); searching levels only now and then.
                let pick = input.byte() as usize;
                let level = api
                    .levels
                    .get(pick % (api.levels.len() + 1))
                    .copied()
                    .unwrap_or("grandmaster");
                if pick % (api.levels.len() + 1) >= 2 && !pick.is_multiple_of(16) {
                    continue;
                }
                let mut action = u32::MAX;
                let status = unsafe { (api.choose)(h, level.as_ptr().cast(), level.len(), 7, &mut action) };
                match status {
                    ARBITER_OK => assert!(offered.contains(&action), "{level} chose {action}"),
                    ARBITER_GAME_OVER => assert!(offered.is_empty()),
                    other => assert_eq!((other, level), (ARBITER_BAD_ARGUMENT, "grandmaster")),
                }
                status
            }
            6 => {
                // Any player index: a seat's view, or refused as a bad argument.
                let player = i32::from(input.byte() as i8);
                if text(|b, c, s| unsafe { (api.observation)(h, player, b, c, s) }).is_none() {
                    assert!(!(0..2).contains(&player), "no observation for player {player}");
                }
                ARBITER_OK
            }
            7 => {
                // A buffer too small for the save: refused with the size needed, nothing written
                // past it.
                let cap = input.byte() as usize % (before.len() + 2);
                let mut buf = vec![0x55 as c_char; cap + 8];
                let mut size = 0;
                let status = unsafe { (api.to_json)(h, buf.as_mut_ptr(), cap, &mut size) };
                assert_eq!(size, before.len() + 1);
                assert_eq!(status == ARBITER_OK, cap > before.len());
                assert!(buf[cap..].iter().all(|&c| c == 0x55), "written past the buffer");
                status
            }
            _ => {
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
        };
        assert_ne!(status, ARBITER_INTERNAL_ERROR);
        if status != ARBITER_OK {
            assert_eq!(save(api, h), before, "a refused call changed the game");
        }
    }
    unsafe { (api.free)(h) };
}

/// A game byte, then either a seed (new game) or JSON up to a 0 byte (a game from JSON, which
/// may be refused), then calls.
pub fn c_abi(data: &[u8]) {
    let mut input = Input(data);
    let game = input.byte();
    let from_json = game & 0x80 != 0;
    macro_rules! run {
        ($api:expr, $new:expr) => {{
            let api = $api;
            let mut h = null_mut();
            let status = if from_json {
                let json = input.text();
                let status = unsafe { (api.from_json)(json.as_ptr().cast(), json.len(), &mut h) };
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
    }
    match game % 3 {
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
                action_text: arbiter_triple_triad_action_text,
                levels: &["random", "greedy", "perfect", "expert"],
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
                action_text: arbiter_trax_action_text,
                levels: &["random", "easy", "medium", "hard", "expert"],
            },
            |seed: u64, h: &mut *mut ArbiterTrax| {
                let variant = ["8x8", "unbounded", "loop"][seed as usize % 3];
                unsafe { arbiter_trax_new(variant.as_ptr().cast(), variant.len(), h) }
            }
        ),
        _ => run!(
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
                action_text: arbiter_nantong_action_text,
                levels: &["random", "basic", "strong"],
            },
            |seed: u64, h: &mut *mut ArbiterNantong| unsafe { arbiter_nantong_new(seed, h) }
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
        for seed in 0..4u64 {
            for game in 0..3u8 {
                let mut data = vec![game];
                data.extend(seed.to_be_bytes());
                data.extend(&calls);
                super::c_abi(&data);
            }
        }
        let trax = br#"{"variant": "8x8", "moves": ["@0/", "B1\\", "B2/"]}"#;
        for json in [&trax[..], b"{\"variant\": 3}", b"\xff"] {
            let mut data = vec![0x81];
            data.extend(json);
            data.push(0);
            data.extend(&calls);
            super::c_abi(&data);
        }
    }
}

//! Random calls through the exported functions, as a C host would make them: every legal action
//! offered is accepted (by id and by its text), every refused call leaves the game exactly as it
//! was, and no call is an internal error.

use std::ffi::c_char;
use std::ptr::null_mut;

use arbiter_core::Rng;

use crate::ArbiterStatus::{self, *};
use crate::{nantong::*, trax::*, triple_triad::*};

/// The calls the test makes of one game's exports.
struct Api<H> {
    create: fn(u64) -> *mut H,
    free: unsafe extern "C" fn(*mut H),
    /// What the state is, as text: equal texts, equal states.
    view: fn(*const H) -> String,
    play: unsafe extern "C" fn(*mut H, *const c_char, usize) -> ArbiterStatus,
    play_action: unsafe extern "C" fn(*mut H, u32) -> ArbiterStatus,
    legal_actions: unsafe extern "C" fn(*const H, *mut u32, usize, *mut usize) -> ArbiterStatus,
    num_actions: unsafe extern "C" fn(*const H, *mut usize) -> ArbiterStatus,
    action_text: unsafe extern "C" fn(*const H, u32, *mut c_char, usize, *mut usize) -> ArbiterStatus,
}

/// A text result of an export (two calls: the size, then the text).
fn text(f: impl Fn(*mut c_char, usize, *mut usize) -> ArbiterStatus) -> String {
    let mut size = 0;
    assert_eq!(f(null_mut(), 0, &mut size), ARBITER_BUFFER_TOO_SMALL);
    let mut buf = vec![0 as c_char; size];
    assert_eq!(f(buf.as_mut_ptr(), size, &mut size), ARBITER_OK);
    assert_eq!(buf.pop(), Some(0));
    String::from_utf8(buf.into_iter().map(|c| c as u8).collect()).expect("UTF-8")
}

/// Texts a host might send: moves of every game, garbage, invalid UTF-8.
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
    b"2@4\0",
    b"concealed_kong T",
];

fn random_calls<H>(api: &Api<H>, seed: u64) {
    let mut rng = Rng::new(seed);
    let g = (api.create)(seed);
    let mut ids = vec![0u32; 4096];
    let mut total = 0;
    unsafe { (api.num_actions)(g, &mut total) };
    for _ in 0..400 {
        let before = (api.view)(g);
        let mut n = 0;
        assert_eq!(
            unsafe { (api.legal_actions)(g, ids.as_mut_ptr(), ids.len(), &mut n) },
            ARBITER_OK
        );
        let status = match rng.below(4) {
            // A legal action, by id or by its text: always accepted.
            0 | 1 if n > 0 => {
                let id = ids[rng.below(n as u64) as usize];
                let status = if rng.below(2) == 0 {
                    unsafe { (api.play_action)(g, id) }
                } else {
                    let t = text(|b, c, s| unsafe { (api.action_text)(g, id, b, c, s) });
                    unsafe { (api.play)(g, t.as_ptr().cast(), t.len()) }
                };
                assert_eq!(status, ARBITER_OK, "a legal action was refused");
                status
            }
            2 => unsafe { (api.play_action)(g, rng.below(total as u64 + 10) as u32) },
            _ => {
                let t = TEXTS[rng.below(TEXTS.len() as u64) as usize];
                unsafe { (api.play)(g, t.as_ptr().cast(), t.len()) }
            }
        };
        assert_ne!(status, ARBITER_INTERNAL_ERROR);
        if status != ARBITER_OK {
            assert_eq!((api.view)(g), before, "a refused call changed the game");
        }
    }
    unsafe { (api.free)(g) };
}

#[test]
fn triple_triad_refusals_change_nothing() {
    let api = Api {
        create: |seed| {
            let mut g = null_mut();
            assert_eq!(
                unsafe { arbiter_triple_triad_from_preset(b"mush".as_ptr().cast(), 4, seed, &mut g) },
                ARBITER_OK
            );
            g
        },
        free: arbiter_triple_triad_free,
        view: |g| text(|b, c, s| unsafe { arbiter_triple_triad_to_json(g, b, c, s) }),
        play: arbiter_triple_triad_play,
        play_action: arbiter_triple_triad_play_action,
        legal_actions: arbiter_triple_triad_legal_actions,
        num_actions: arbiter_triple_triad_num_actions,
        action_text: arbiter_triple_triad_action_text,
    };
    (0..20).for_each(|seed| random_calls(&api, seed));
}

#[test]
fn trax_refusals_change_nothing() {
    let api = Api {
        create: |seed| {
            let mut g = null_mut();
            let variant: &[u8] = [b"8x8".as_slice(), b"unbounded", b"loop"][seed as usize % 3];
            assert_eq!(
                unsafe { arbiter_trax_new(variant.as_ptr().cast(), variant.len(), &mut g) },
                ARBITER_OK
            );
            g
        },
        free: arbiter_trax_free,
        view: |g| text(|b, c, s| unsafe { arbiter_trax_to_json(g, b, c, s) }),
        play: arbiter_trax_play,
        play_action: arbiter_trax_play_action,
        legal_actions: arbiter_trax_legal_actions,
        num_actions: arbiter_trax_num_actions,
        action_text: arbiter_trax_action_text,
    };
    (0..12).for_each(|seed| random_calls(&api, seed));
}

#[test]
fn nantong_refusals_change_nothing() {
    let api = Api {
        create: |seed| {
            let mut g = null_mut();
            assert_eq!(unsafe { arbiter_nantong_new(seed, &mut g) }, ARBITER_OK);
            g
        },
        free: arbiter_nantong_free,
        view: |g| text(|b, c, s| unsafe { arbiter_nantong_to_json(g, b, c, s) }),
        play: arbiter_nantong_play,
        play_action: arbiter_nantong_play_action,
        legal_actions: arbiter_nantong_legal_actions,
        num_actions: arbiter_nantong_num_actions,
        action_text: arbiter_nantong_action_text,
    };
    (0..12).for_each(|seed| random_calls(&api, seed));
}

#[test]
fn an_empty_list_into_a_null_buffer_is_no_list() {
    // Found by the C ABI fuzz target: a finished game's legal actions asked with a NULL buffer of
    // capacity 0 made a slice from NULL (undefined behaviour) before reporting the count.
    let mut g = null_mut();
    let json = br#"{"variant": "8x8", "moves": ["@0/", "B1\\", "B2/"]}"#;
    assert_eq!(
        unsafe { arbiter_trax_from_json(json.as_ptr().cast(), json.len(), &mut g) },
        ARBITER_OK
    );
    let mut n = usize::MAX;
    assert_eq!(
        unsafe { arbiter_trax_legal_actions(g, null_mut(), 0, &mut n) },
        ARBITER_OK
    );
    assert_eq!(n, 0);
    unsafe { arbiter_trax_free(g) };
}

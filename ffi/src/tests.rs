//! Calls through the exports that the C ABI fuzz target (`fuzz/src/c_abi.rs`, which also runs
//! random calls of every kind on stable in `./test.sh`) cannot make or once got wrong.

use std::ptr::null_mut;

use crate::ArbiterStatus::*;
use crate::{trax::*, triple_triad::*};

#[test]
fn an_empty_list_into_a_null_buffer_is_no_list() {
    // Found by the C ABI fuzz target's check: a finished game's legal actions asked with a NULL
    // buffer of capacity 0 made a slice from NULL (undefined behaviour) before reporting the count.
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

#[test]
fn a_move_with_an_inner_nul_is_refused_and_changes_nothing() {
    // Text comes as pointer and length, so a NUL inside it is part of the move (the fuzz target
    // ends its texts at a 0 byte and cannot send one).
    let mut g = null_mut();
    assert_eq!(
        unsafe { arbiter_triple_triad_from_preset(b"mush".as_ptr().cast(), 4, 1, &mut g) },
        ARBITER_OK
    );
    let save = |g| {
        let mut buf = vec![0 as std::ffi::c_char; 1 << 16];
        let mut size = 0;
        assert_eq!(
            unsafe { arbiter_triple_triad_to_json(g, buf.as_mut_ptr(), buf.len(), &mut size) },
            ARBITER_OK
        );
        buf.truncate(size);
        buf
    };
    let before = save(g);
    let text: &[u8] = &[b'2', b'@', b'4', 0];
    let status = unsafe { arbiter_triple_triad_play(g, text.as_ptr().cast(), text.len()) };
    assert!(status != ARBITER_OK && status != ARBITER_INTERNAL_ERROR, "{status:?}");
    assert_eq!(save(g), before);
    unsafe { arbiter_triple_triad_free(g) };
}

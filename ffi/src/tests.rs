//! Calls through the exports that the C ABI fuzz target (`fuzz/src/c_abi.rs`, which also runs
//! random calls of every kind on stable in `./test.sh`) cannot make or once got wrong.

use std::ptr::null_mut;

use crate::ArbiterStatus::*;
use crate::{nantong::*, trax::*, triple_triad::*};

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

fn last_error() -> String {
    // SAFETY: arbiter_last_error always returns a valid C string.
    unsafe { std::ffi::CStr::from_ptr(crate::arbiter_last_error()) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_failing_call_from_a_thread_local_destructor_returns_its_status() {
    // A host's thread-local destructor may run after the library's message slot is destroyed
    // (destructors run in reverse order of first use); `with` then panicked inside the export
    // and the process aborted.
    struct CallsOnDrop;
    impl Drop for CallsOnDrop {
        fn drop(&mut self) {
            let status = unsafe { arbiter_trax_play(null_mut(), b"@0+".as_ptr().cast(), 3) };
            let message = last_error();
            SEEN.lock().unwrap().push((status, message));
        }
    }
    thread_local!(static HOST: CallsOnDrop = const { CallsOnDrop });
    static SEEN: std::sync::Mutex<Vec<(crate::ArbiterStatus, String)>> = std::sync::Mutex::new(Vec::new());
    std::thread::spawn(|| {
        HOST.with(|_| ());
        // The slot is first used after HOST, so it is destroyed before HOST's destructor runs.
        let status = unsafe { arbiter_trax_play(null_mut(), b"@0+".as_ptr().cast(), 3) };
        assert_eq!(status, ARBITER_NULL_POINTER);
    })
    .join()
    .unwrap();
    let seen = SEEN.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].0, ARBITER_NULL_POINTER);
    assert!(seen[0].1.contains("thread-local storage is gone"), "{}", seen[0].1);
}

#[test]
fn a_length_above_ptrdiff_max_is_refused() {
    // Such a length made a slice larger than any object (undefined behaviour: the text was read
    // past its end).
    let mut g = null_mut();
    assert_eq!(
        unsafe { arbiter_trax_new(b"8x8".as_ptr().cast(), 3, &mut g) },
        ARBITER_OK
    );
    for len in [isize::MAX as usize + 1, usize::MAX] {
        let status = unsafe { arbiter_trax_play(g, b"@0+".as_ptr().cast(), len) };
        assert_eq!(status, ARBITER_BAD_ARGUMENT);
        assert!(last_error().contains("PTRDIFF_MAX"), "{}", last_error());
    }
    let mut id = 0;
    assert_eq!(
        unsafe { arbiter_trax_action_id(g, b"@0+".as_ptr().cast(), usize::MAX, &mut id) },
        ARBITER_BAD_ARGUMENT
    );
    unsafe { arbiter_trax_free(g) };
}

#[test]
fn a_huge_bad_text_gives_a_short_message() {
    // The whole text was quoted: a 200 MB bad move kept a 200 MB message.
    let mut g = null_mut();
    assert_eq!(
        unsafe { arbiter_trax_new(b"8x8".as_ptr().cast(), 3, &mut g) },
        ARBITER_OK
    );
    let huge = "Q".repeat(20 << 20);
    let status = unsafe { arbiter_trax_play(g, huge.as_ptr().cast(), huge.len()) };
    assert_eq!(status, ARBITER_PARSE_ERROR);
    let message = last_error();
    assert!(message.len() < 400, "{} bytes", message.len());
    assert!(message.starts_with("malformed move \"QQQ"), "{message}");
    unsafe { arbiter_trax_free(g) };
    // A JSON library's message quotes a whole string value: the boundary cuts it.
    let json = format!(r#"{{"rules": {{}}, "board": "{huge}"}}"#);
    let mut round = null_mut();
    let status = unsafe { arbiter_triple_triad_from_json(json.as_ptr().cast(), json.len(), &mut round) };
    assert_eq!(status, ARBITER_PARSE_ERROR);
    assert!(last_error().len() <= 1100, "{} bytes", last_error().len());
    assert!(
        last_error().starts_with("invalid type: string \"QQQ"),
        "{}",
        last_error()
    );
}

#[test]
fn notation_without_an_action_id_is_refused() {
    // Trax ids number a fixed square of cells: `K1+` on 8x8 was given the id of `I1+`, and
    // `A5000+` that of `A1023+`, with OK.
    let mut g = null_mut();
    for (variant, inside, outside) in [("8x8", "I1+", "K1+"), ("unbounded", "A1023+", "A5000+")] {
        assert_eq!(
            unsafe { arbiter_trax_new(variant.as_ptr().cast(), variant.len(), &mut g) },
            ARBITER_OK
        );
        let id =
            |text: &str, out: &mut u32| unsafe { arbiter_trax_action_id(g, text.as_ptr().cast(), text.len(), out) };
        let mut n = 0;
        assert_eq!(id(inside, &mut n), ARBITER_OK);
        let mut untouched = u32::MAX;
        assert_eq!(id(outside, &mut untouched), ARBITER_BAD_ARGUMENT);
        assert_eq!(untouched, u32::MAX);
        let error = unsafe { std::ffi::CStr::from_ptr(crate::arbiter_last_error()) };
        assert!(
            error
                .to_str()
                .unwrap()
                .starts_with(&format!("{outside} has no action id")),
            "{error:?}"
        );
        unsafe { arbiter_trax_free(g) };
    }
}

#[test]
fn forced_passes_answer_only_questions_with_no_other_answer() {
    let mut g = null_mut();
    assert_eq!(unsafe { arbiter_nantong_new(5, &mut g) }, ARBITER_OK);
    let act = |g, text: &str, seat: i32| unsafe { arbiter_nantong_act(g, seat, text.as_ptr().cast(), text.len()) };
    let mut dealer = -1;
    assert_eq!(unsafe { arbiter_nantong_dealer(g, &mut dealer) }, ARBITER_OK);
    for seat in [dealer, (dealer + 1) % 3, (dealer + 2) % 3] {
        assert_eq!(act(g, "finish", seat), ARBITER_OK);
    }
    let mut passed = usize::MAX;
    // Nothing to pass before the dealer's discard; NULL is refused and changes nothing.
    assert_eq!(unsafe { arbiter_nantong_pass_forced(g, &mut passed) }, ARBITER_OK);
    assert_eq!(passed, 0);
    assert_eq!(
        unsafe { arbiter_nantong_pass_forced(g, null_mut()) },
        ARBITER_NULL_POINTER
    );
    let mut ids = [0u32; 64];
    let mut n = 0;
    assert_eq!(
        unsafe { arbiter_nantong_legal_actions(g, ids.as_mut_ptr(), ids.len(), &mut n) },
        ARBITER_OK
    );
    assert_eq!(unsafe { arbiter_nantong_play_action(g, ids[0]) }, ARBITER_OK);
    assert_eq!(unsafe { arbiter_nantong_pass_forced(g, &mut passed) }, ARBITER_OK);
    assert!(passed >= 2, "{passed}");
    assert_eq!(
        unsafe { arbiter_nantong_legal_actions(g, ids.as_mut_ptr(), ids.len(), &mut n) },
        ARBITER_OK
    );
    // Pass is id 151: what is left to answer offers more than a pass.
    assert!(ids[..n] != [151]);
    unsafe { arbiter_nantong_free(g) };
}

/// Every shared verb (a generic function of `verbs.rs`, or `free` of `boundary.rs`, that some
/// game exports under its own name) is exported by every game's handle, and the handle verbs by
/// the match handle too: the wrappers are written by hand for cbindgen, so one could go missing on
/// one game unnoticed.
#[test]
fn every_handle_exports_every_shared_verb() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let header = std::fs::read_to_string(root.join("../include/arbiter.h")).expect("include/arbiter.h");
    let read = |file: &str| std::fs::read_to_string(root.join("src").join(file)).expect(file);
    let verbs = read("verbs.rs") + &read("boundary.rs");
    let exports = |prefix: &str| -> std::collections::BTreeSet<String> {
        header
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter_map(|w| w.strip_prefix(prefix))
            .map(str::to_owned)
            .collect()
    };
    // `pub(crate) unsafe fn NAME<H: Handle>` or `<G: Engine>`: generic over the games.
    let generic: Vec<&str> = verbs
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub(crate) unsafe fn "))
        .filter_map(|l| {
            let (name, rest) = l.split_once('<')?;
            (rest.starts_with("H: Handle") || rest.starts_with("G: Engine")).then_some(name)
        })
        .collect();
    let games = ["arbiter_triple_triad_", "arbiter_trax_", "arbiter_nantong_"].map(exports);
    let shared: Vec<&str> = generic
        .iter()
        .copied()
        .filter(|name| games.iter().any(|g| g.contains(*name)))
        .collect();
    assert!(
        shared.len() >= 20,
        "the shared verbs are read from verbs.rs and boundary.rs: {shared:?}"
    );
    for (game, exported) in ["triple_triad", "trax", "nantong"].iter().zip(&games) {
        for verb in &shared {
            assert!(
                exported.contains(*verb),
                "arbiter_{game}_{verb} is missing from include/arbiter.h"
            );
        }
    }
    let matches = exports("arbiter_triple_triad_match_");
    for verb in ["free", "clone", "from_json", "to_json"] {
        assert!(matches.contains(verb), "arbiter_triple_triad_match_{verb} is missing");
    }
}

#[test]
fn a_match_observation_hides_what_the_match_hides() {
    // The match's own observation, not its round's: under Three Open three of the other hand are
    // shown (the round alone hides all five, or would show all under a wrong reading).
    use crate::triple_triad_match::*;
    use arbiter_core::tripletriad::{Match, MatchConfig, Rules, Setup};
    let s = Setup::random_ff8(4);
    let config = MatchConfig {
        rules: Rules {
            three_open: true,
            ..Rules::default()
        },
        ..MatchConfig::default()
    };
    let json = serde_json::to_string(&Match::new(config, s.hands.blue, s.hands.red, 4).unwrap()).unwrap();
    let mut m = null_mut();
    assert_eq!(
        unsafe { arbiter_triple_triad_match_from_json(json.as_ptr().cast(), json.len(), &mut m) },
        ARBITER_OK
    );
    let mut buf = vec![0u8; 1 << 16];
    let mut size = 0;
    assert_eq!(
        unsafe { arbiter_triple_triad_match_observation(m, 0, buf.as_mut_ptr().cast(), buf.len(), &mut size) },
        ARBITER_OK
    );
    let text = &buf[..buf.iter().position(|&b| b == 0).unwrap()];
    let seen: serde_json::Value = serde_json::from_slice(text).unwrap();
    let shown = seen["opponent_hand"].as_array().unwrap();
    assert_eq!(
        (shown.len(), shown.iter().filter(|c| !c.is_null()).count()),
        (5, 3),
        "{seen}"
    );
    unsafe { arbiter_triple_triad_match_free(m) };
}

//! The perft split for C: a game's frontier after a few plies as JSON, and the count of one part
//! of it, so that separate processes or machines count the parts and their counts sum to the
//! whole count. Written once over the core's [`Frontier`]; exported under each game's names.

use std::ffi::c_char;

use arbiter_core::{Frontier, Transpose};
use serde::Serialize;

use crate::boundary::{Failure, Handle};
use crate::nantong::ArbiterNantong;
use crate::trax::ArbiterTrax;
use crate::triple_triad::ArbiterTripleTriad;
use crate::verbs;
use crate::ArbiterStatus;

/// One position of the frontier as JSON: the first line of moves reaching it and the number of
/// move sequences reaching it.
#[derive(Serialize)]
struct Position {
    line: String,
    count: u64,
}

/// # Safety
/// As [`verbs::json`].
unsafe fn frontier<H: Handle>(h: *const H, plies: u32, buf: *mut c_char, cap: usize, size: *mut usize) -> ArbiterStatus
where
    H::Inner: Transpose,
{
    verbs::json(h, buf, cap, size, |g| {
        let f = Frontier::new(g, plies).map_err(Failure::from)?;
        Ok((0..f.len())
            .map(|i| Position {
                line: f.line_text(i),
                count: f.multiplicity(i),
            })
            .collect::<Vec<_>>())
    })
}

/// # Safety
/// As [`verbs::value`].
unsafe fn perft_part<H: Handle>(
    h: *const H,
    depth: u32,
    split: u32,
    (part, parts): (usize, usize),
    nodes: *mut u64,
) -> ArbiterStatus
where
    H::Inner: Transpose,
{
    verbs::value(h, nodes, "nodes", |g| {
        let f = Frontier::new(g, split)?;
        Ok(f.perft_part(depth, part, parts)?)
    })
}

/// The positions after `plies` plies from this one, in a stable order, as a JSON array of
/// `{"line": "@0/, B1+", "count": 2}`: the first line of moves reaching each position, separated
/// by a comma and a space (the position is this game after it) and the number of move sequences reaching it (transposed
/// orders merge). `ARBITER_BAD_ARGUMENT` when it would hold more than 500,000 positions (in one ply).
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_frontier(
    h: *const ArbiterTrax,
    plies: u32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    frontier(h, plies, buf, cap, size)
}

/// `arbiter_trax_perft` at `depth` counted over part `part` of `parts` (from 0) of the frontier
/// after `split` plies: every `parts`-th position from the `part`-th. The parts' counts sum to
/// the whole count; `ARBITER_BAD_ARGUMENT` for a part out of range or `split` past `depth`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_trax_perft_part(
    h: *const ArbiterTrax,
    depth: u32,
    split: u32,
    part: usize,
    parts: usize,
    nodes: *mut u64,
) -> ArbiterStatus {
    perft_part(h, depth, split, (part, parts), nodes)
}

/// As `arbiter_trax_frontier`, for Triple Triad (lines of moves such as `2@4`).
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_frontier(
    h: *const ArbiterTripleTriad,
    plies: u32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    frontier(h, plies, buf, cap, size)
}

/// As `arbiter_trax_perft_part`, for Triple Triad.
#[no_mangle]
pub unsafe extern "C" fn arbiter_triple_triad_perft_part(
    h: *const ArbiterTripleTriad,
    depth: u32,
    split: u32,
    part: usize,
    parts: usize,
    nodes: *mut u64,
) -> ArbiterStatus {
    perft_part(h, depth, split, (part, parts), nodes)
}

/// As `arbiter_trax_frontier`, for Nantong (lines of actions such as `discard 5m`).
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_frontier(
    h: *const ArbiterNantong,
    plies: u32,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> ArbiterStatus {
    frontier(h, plies, buf, cap, size)
}

/// As `arbiter_trax_perft_part`, for Nantong.
#[no_mangle]
pub unsafe extern "C" fn arbiter_nantong_perft_part(
    h: *const ArbiterNantong,
    depth: u32,
    split: u32,
    part: usize,
    parts: usize,
    nodes: *mut u64,
) -> ArbiterStatus {
    perft_part(h, depth, split, (part, parts), nodes)
}

#[cfg(test)]
mod tests {
    use std::ptr::null_mut;

    use super::*;
    use crate::trax::{arbiter_trax_free, arbiter_trax_from_json, arbiter_trax_perft};
    use crate::triple_triad::{
        arbiter_triple_triad_free, arbiter_triple_triad_from_preset, arbiter_triple_triad_perft,
    };
    use crate::ArbiterStatus::*;

    #[test]
    fn parts_sum_to_the_whole_and_a_part_out_of_range_is_refused() {
        let mut t = null_mut();
        let json = br#"{"variant": "unbounded", "moves": ["@0/", "B1\\"]}"#;
        assert_eq!(
            unsafe { arbiter_trax_from_json(json.as_ptr().cast(), json.len(), &mut t) },
            ARBITER_OK
        );
        let mut whole = 0;
        assert_eq!(unsafe { arbiter_trax_perft(t, 4, &mut whole) }, ARBITER_OK);
        let sum: u64 = (0..3)
            .map(|part| {
                let mut n = 0;
                assert_eq!(unsafe { arbiter_trax_perft_part(t, 4, 2, part, 3, &mut n) }, ARBITER_OK);
                n
            })
            .sum();
        assert_eq!(sum, whole);
        let mut n = 7;
        assert_eq!(
            unsafe { arbiter_trax_perft_part(t, 4, 2, 3, 3, &mut n) },
            ARBITER_BAD_ARGUMENT
        );
        assert_eq!(n, 7);
        assert_eq!(
            unsafe { arbiter_trax_perft_part(t, 1, 2, 0, 3, &mut n) },
            ARBITER_BAD_ARGUMENT
        );
        let mut size = 0;
        assert_eq!(
            unsafe { arbiter_trax_frontier(t, 2, null_mut(), 0, &mut size) },
            ARBITER_BUFFER_TOO_SMALL
        );
        let mut buf = vec![0 as c_char; size + 1];
        assert_eq!(
            unsafe { arbiter_trax_frontier(t, 2, buf.as_mut_ptr(), buf.len(), &mut size) },
            ARBITER_OK
        );
        let text: Vec<u8> = buf.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
        let v: serde_json::Value = serde_json::from_slice(&text).unwrap();
        let counts: u64 = v.as_array().unwrap().iter().map(|p| p["count"].as_u64().unwrap()).sum();
        let mut two = 0;
        assert_eq!(unsafe { arbiter_trax_perft(t, 2, &mut two) }, ARBITER_OK);
        assert_eq!(counts, two);
        unsafe { arbiter_trax_free(t) };

        let mut g = null_mut();
        assert_eq!(
            unsafe { arbiter_triple_triad_from_preset(b"ff8".as_ptr().cast(), 3, 5, &mut g) },
            ARBITER_OK
        );
        let mut whole = 0;
        assert_eq!(unsafe { arbiter_triple_triad_perft(g, 3, &mut whole) }, ARBITER_OK);
        let mut sum = 0;
        for part in 0..4 {
            let mut n = 0;
            assert_eq!(
                unsafe { arbiter_triple_triad_perft_part(g, 3, 1, part, 4, &mut n) },
                ARBITER_OK
            );
            sum += n;
        }
        assert_eq!(sum, whole);
        unsafe { arbiter_triple_triad_free(g) };
    }
}

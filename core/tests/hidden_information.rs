//! Hidden information stays hidden, checked differentially for every game: two worlds that
//! differ only in cards one observer never sees, the same actions in both, and that observer's
//! observations (JSON and tensor) identical at every step. The check is the fuzz target
//! `hidden_information`'s, included from `fuzz/src/hidden.rs`; here it runs over a fixed sweep
//! of deals, observers, swaps and styles of play.
#![cfg(feature = "serde")]

#[path = "../../fuzz/src/hidden.rs"]
mod hidden;

use arbiter_core::Rng;

/// The inputs of the sweep for `game`: per seed, each observer, play by the computer players
/// (input exhausted) or random legal moves (random bytes).
fn sweep(game: u8, seeds: u64) -> (usize, Vec<String>) {
    let (mut pairs, mut leaks) = (0, Vec::new());
    for seed in 0..seeds {
        for observer in 0..3u8 {
            let mut data = vec![game];
            data.extend(seed.to_be_bytes());
            data.push(observer);
            data.extend((seed * 3 + observer as u64).to_be_bytes());
            if seed % 2 == 1 {
                let mut rng = Rng::new(seed);
                data.extend((0..2000).map(|_| rng.below(256) as u8));
            }
            match hidden::check(&data) {
                Ok(n) => pairs += n,
                Err(e) => leaks.push(e),
            }
        }
    }
    (pairs, leaks)
}

fn assert_hidden(game: u8, seeds: u64, at_least: usize) {
    let (pairs, leaks) = sweep(game, seeds);
    eprintln!("game {game}: {pairs} observation pairs compared, {} leaks", leaks.len());
    assert!(
        leaks.is_empty(),
        "{} of {} runs leak; the first:\n{}",
        leaks.len(),
        seeds * 3,
        leaks[0]
    );
    assert!(pairs >= at_least, "only {pairs} pairs compared");
}

#[test]
fn nantong_observations_do_not_depend_on_unseen_cards() {
    assert_hidden(0, 60, 60_000);
}

#[test]
fn triple_triad_closed_hands_do_not_show() {
    assert_hidden(1, 400, 3_000);
}

#[test]
fn trax_observations_depend_on_the_moves_alone() {
    assert_hidden(2, 30, 1_000);
}

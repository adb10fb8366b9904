//! Shared fixtures of the benchmarks (`benches/`) and of the one-shot speed examples
//! (`examples/`), so that both measure exactly the same work.

use arbiter_core::nantong::{full_deck, is_winning, Counts, Kind, PlayerHand, Seat, Win, WinSource, KINDS};
use arbiter_core::tripletriad::{Rules, Setup, TripleTriad};
use arbiter_core::Rng;
use std::time::Instant;

/// The solver benchmark's positions: an empty board, open hands, Same+Plus+Combo, two random FF8
/// hands from each seed.
pub fn tt_solve_position(seed: u64) -> TripleTriad {
    let rules = Rules {
        open: true,
        same: true,
        plus: true,
        combo: true,
        ..Rules::default()
    };
    TripleTriad::new(&Setup::random_ff8(seed).with_rules(rules)).expect("a valid setup")
}

/// The perft benchmark's position with captures: the opening of seed 1 under Same, Plus, Combo and
/// Elemental, with elements drawn from seed 3 (wind, ice and holy on cells 0, 2 and 4), so that
/// every step of the resolution has work.
pub fn tt_capture_position() -> TripleTriad {
    let rules = Rules {
        same: true,
        plus: true,
        combo: true,
        elemental: true,
        ..Rules::default()
    };
    let mut setup = Setup::random_ff8(1).with_rules(rules);
    setup.draw_elements(&mut Rng::new(3));
    TripleTriad::new(&setup).expect("a valid setup")
}

/// `n` Nantong hands of 23 cards from seed 1: even ones dealt from a shuffled deck (they rarely
/// win), odd ones built from seven random groups and a pair (so that scoring has work to do).
pub fn nantong_hands(n: usize) -> Vec<Counts> {
    let mut rng = Rng::new(1);
    let deck = full_deck();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut c = [0u8; KINDS];
        if out.len() % 2 == 0 {
            let mut d = deck.clone();
            rng.shuffle(&mut d);
            d[..23].iter().for_each(|k| c[k.index()] += 1);
        } else {
            for _ in 0..7 {
                let k = rng.below(30) as usize;
                if k < 27 && k % 9 <= 6 && rng.below(2) == 0 {
                    (0..3).for_each(|x| c[k + x] += 1);
                } else {
                    c[k] += 3;
                }
            }
            c[rng.below(30) as usize] += 2;
            if c.iter().any(|&x| x > 4) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// The winning hands among `hands` that fit a deal with [`nantong_indicators`], each as seat 0's
/// (the dealer), won by self-draw of its first kind; seats 1 and 2 hold 22 of the other cards, so
/// that every deal is one the rules can produce and scoring it does a whole deal's work.
pub fn nantong_wins(hands: &[Counts]) -> Vec<([PlayerHand; 3], Win)> {
    let ind = nantong_indicators();
    let mut rng = Rng::new(2);
    hands
        .iter()
        .filter(|h| is_winning(h, 0))
        .filter_map(|h| {
            let mut left = [4u8; KINDS];
            for k in Kind::all() {
                left[k.index()] -= h[k.index()];
            }
            for k in ind {
                left[k.index()] = left[k.index()].checked_sub(1)?;
            }
            let mut rest: Vec<Kind> = Kind::all().flat_map(|k| vec![k; left[k.index()] as usize]).collect();
            rng.shuffle(&mut rest);
            let deal = |cards: &[Kind]| {
                let mut c = [0u8; KINDS];
                cards.iter().for_each(|k| c[k.index()] += 1);
                PlayerHand {
                    hand: c,
                    ..PlayerHand::default()
                }
            };
            let card = Kind::all().find(|k| h[k.index()] > 0).expect("a card");
            let players = [
                PlayerHand {
                    hand: *h,
                    ..PlayerHand::default()
                },
                deal(&rest[..22]),
                deal(&rest[22..44]),
            ];
            let win = Win {
                seat: Seat::ALL[0],
                card,
                source: WinSource::SelfDraw,
                heavenly: false,
                dealer_first_discard: false,
                last_card: false,
            };
            Some((players, win))
        })
        .collect()
}

/// The indicators of the scoring benchmark.
pub fn nantong_indicators() -> [Kind; 2] {
    ["2s".parse().expect("code"), "T".parse().expect("code")]
}

/// Runs `perft` once and prints `label: nodes in seconds = M moves/s`, the one-shot figure of the
/// speed examples.
pub fn report_perft(label: &str, perft: impl FnOnce() -> u64) {
    let t = Instant::now();
    let nodes = perft();
    let s = t.elapsed().as_secs_f64();
    println!("{label}: {nodes} in {s:.3} s = {:.1}M moves/s", nodes as f64 / s / 1e6);
}

//! Nantong hand speed on random 23-card hands drawn from shuffled decks:
//! `cargo run --release -p arbiter-core --example nantong_speed`.
//! Half the hands are random; half are built to win (so that scoring has work to do).

use arbiter_core::nantong::{
    full_deck, is_winning, score_deal, winner_total, Counts, Kind, PlayerHand, Win, WinSource, KINDS,
};
use arbiter_core::Rng;
use std::hint::black_box;
use std::time::Instant;

fn random_hand(rng: &mut Rng) -> Counts {
    let mut deck = full_deck();
    rng.shuffle(&mut deck);
    let mut c = [0u8; KINDS];
    for k in &deck[..23] {
        c[k.index()] += 1;
    }
    c
}

/// A winning hand: seven random groups and a pair within the four copies of each kind.
fn winning_hand(rng: &mut Rng) -> Counts {
    loop {
        let mut c = [0u8; KINDS];
        let mut ok = true;
        for _ in 0..7 {
            let k = rng.below(30) as usize;
            if k < 27 && k % 9 <= 6 && rng.below(2) == 0 {
                for d in 0..3 {
                    c[k + d] += 1;
                }
            } else {
                c[k] += 3;
            }
        }
        c[rng.below(30) as usize] += 2;
        for &n in &c {
            ok &= n <= 4;
        }
        if ok {
            return c;
        }
    }
}

fn main() {
    let mut rng = Rng::new(1);
    let n = 200_000;
    let hands: Vec<Counts> = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                random_hand(&mut rng)
            } else {
                winning_hand(&mut rng)
            }
        })
        .collect();
    let t = Instant::now();
    let wins = hands.iter().filter(|h| is_winning(black_box(h), 0)).count();
    let s = t.elapsed().as_secs_f64();
    println!(
        "win checks: {n} in {s:.3} s = {:.2}M/s ({wins} winning)",
        n as f64 / s / 1e6
    );

    let ind: [Kind; 2] = ["2s".parse().unwrap(), "T".parse().unwrap()];
    // Each winning hand as seat 0's, won by self-draw of its first kind (built once, outside the timing).
    let deals: Vec<([PlayerHand; 3], Win)> = hands
        .iter()
        .filter(|h| is_winning(h, 0))
        .map(|h| {
            let card = Kind::all().find(|k| h[k.index()] > 0).unwrap();
            let players = [
                PlayerHand {
                    hand: *h,
                    ..PlayerHand::default()
                },
                PlayerHand::default(),
                PlayerHand::default(),
            ];
            let win = Win {
                seat: 0,
                card,
                source: WinSource::SelfDraw,
                heavenly: false,
                dealer_first_discard: false,
                last_card: false,
            };
            (players, win)
        })
        .collect();
    let t = Instant::now();
    let total: u64 = deals
        .iter()
        .map(|(p, w)| winner_total(ind, black_box(&p[0]), w).unwrap() as u64)
        .sum();
    let s = t.elapsed().as_secs_f64();
    println!(
        "winner totals (best partition, no breakdown): {} in {s:.3} s = {:.2}M/s (checksum {total})",
        deals.len(),
        deals.len() as f64 / s / 1e6
    );
    let t = Instant::now();
    let check: u64 = deals
        .iter()
        .map(|(p, w)| score_deal(ind, black_box(p), Some(w)).unwrap().totals[0] as u64)
        .sum();
    let s = t.elapsed().as_secs_f64();
    assert_eq!(check, total);
    println!(
        "deal scores with breakdowns: {} in {s:.3} s = {:.2}M/s",
        deals.len(),
        deals.len() as f64 / s / 1e6
    );
}

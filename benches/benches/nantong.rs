//! Nantong: win checks and best-partition scoring on random 23-card hands.

use arbiter_core::nantong::{full_deck, is_winning, winner_total, Counts, Kind, PlayerHand, Win, WinSource, KINDS};
use arbiter_core::Rng;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn hands(n: usize) -> Vec<Counts> {
    let mut rng = Rng::new(7);
    let deck = full_deck();
    let mut out = Vec::new();
    while out.len() < n {
        let mut c = [0u8; KINDS];
        if out.len() % 2 == 0 {
            let mut d = deck.clone();
            rng.shuffle(&mut d);
            d[..23].iter().for_each(|k| c[k.index()] += 1);
        } else {
            // A winning hand from seven random groups and a pair.
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

fn bench(c: &mut Criterion) {
    let hs = hands(1000);
    let mut group = c.benchmark_group("nantong");
    group.throughput(Throughput::Elements(hs.len() as u64));
    group.bench_function("win_check_23", |b| {
        b.iter(|| hs.iter().filter(|h| is_winning(black_box(h), 0)).count())
    });
    let winners: Vec<PlayerHand> = hs
        .iter()
        .filter(|h| is_winning(h, 0))
        .map(|h| PlayerHand {
            hand: *h,
            ..PlayerHand::default()
        })
        .collect();
    let ind: [Kind; 2] = ["2s".parse().unwrap(), "T".parse().unwrap()];
    group.throughput(Throughput::Elements(winners.len() as u64));
    group.bench_function("best_partition_score", |b| {
        b.iter(|| {
            winners
                .iter()
                .map(|p| {
                    let card = Kind::all().find(|k| p.hand[k.index()] > 0).unwrap();
                    let win = Win {
                        seat: 0,
                        card,
                        source: WinSource::SelfDraw,
                        heavenly: false,
                        dealer_first_discard: false,
                        last_card: false,
                    };
                    winner_total(ind, black_box(p), &win).unwrap()
                })
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

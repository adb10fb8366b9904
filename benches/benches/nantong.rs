//! Nantong: win checks and best-partition scoring on random 23-card hands.

use arbiter_benches::{nantong_hands, nantong_indicators, nantong_wins};
use arbiter_core::nantong::{is_winning, winner_total};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let hands = nantong_hands(1000);
    let mut group = c.benchmark_group("nantong");
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function("win_check_23", |b| {
        b.iter(|| hands.iter().filter(|h| is_winning(black_box(h), 0)).count())
    });
    // The wording: random 23-card hands, i.e. only the dealt half (they rarely win).
    let dealt: Vec<_> = hands.iter().step_by(2).copied().collect();
    group.throughput(Throughput::Elements(dealt.len() as u64));
    group.bench_function("win_check_23_dealt", |b| {
        b.iter(|| dealt.iter().filter(|h| is_winning(black_box(h), 0)).count())
    });
    let deals = nantong_wins(&hands);
    let ind = nantong_indicators();
    group.throughput(Throughput::Elements(deals.len() as u64));
    group.bench_function("best_partition_score", |b| {
        b.iter(|| {
            deals
                .iter()
                .map(|(p, w)| winner_total(ind, black_box(&p[0]), w).unwrap())
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

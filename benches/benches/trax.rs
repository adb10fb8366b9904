//! Trax perft from the empty board and from a real game's middle.

use arbiter_core::trax::{read_record, Trax, Variant};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("trax_perft");
    group.sample_size(10);
    let empty = Trax::new(Variant::Unbounded);
    let middle = Trax::replay(
        Variant::Unbounded,
        &read_record("@0/ A2+ A3/ @2/ @2/ A1/ D2+ B0+").unwrap(),
    )
    .unwrap();
    for (name, g, depth) in [
        ("empty", &empty, 5u32),
        ("empty", &empty, 6),
        ("cg001_move8", &middle, 3),
    ] {
        group.throughput(Throughput::Elements(g.perft(depth)));
        group.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
            b.iter(|| g.perft(black_box(d)))
        });
    }
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);

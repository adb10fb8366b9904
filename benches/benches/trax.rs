//! Trax perft from the empty board and from a real game's middle; legal moves and the opponent's
//! choice there and on a long Loop Trax column; the `hard` level's search in the middle game.

use arbiter_core::trax::{ai, read_record, Move, Shape, Trax, Variant};
use arbiter_core::{Game, Rng};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

fn middle() -> Trax {
    Trax::replay(
        Variant::Unbounded,
        &read_record("@0/ A2+ A3/ @2/ @2/ A1/ D2+ B0+").unwrap(),
    )
    .unwrap()
}

/// A Loop Trax column of `n` straight tiles (`@0+ A2+ A3+ …`).
fn column(n: u64) -> Trax {
    let mut g = Trax::new(Variant::Loop);
    g.play("@0+".parse().unwrap()).unwrap();
    for row in 2..=n {
        g.play(Move {
            col: 1,
            row,
            shape: Shape::Straight,
        })
        .unwrap();
    }
    g
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("trax_perft");
    group.sample_size(10);
    let empty = Trax::new(Variant::Unbounded);
    let middle = middle();
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

fn moves_and_ai(c: &mut Criterion) {
    let mut group = c.benchmark_group("trax_moves");
    group.sample_size(10);
    let middle = middle();
    let long = column(5_000);
    let line = column(200);
    group.bench_function("legal_moves/cg001_move8", |b| {
        b.iter(|| black_box(&middle).legal_moves())
    });
    group.bench_function("legal_moves/column_5000", |b| b.iter(|| black_box(&long).legal_moves()));
    group.bench_function("ai/cg001_move8", |b| {
        b.iter(|| ai::choose(black_box(&middle), &mut Rng::new(1)))
    });
    group.bench_function("ai/column_200", |b| {
        b.iter(|| ai::choose(black_box(&line), &mut Rng::new(1)))
    });
    let hard = ai::Level::Hard.limits().expect("a searching level");
    group.bench_function("search_hard/cg001_move8", |b| {
        b.iter(|| ai::search(black_box(&middle), hard, &mut Rng::new(1), &mut || false))
    });
    group.finish();
}

criterion_group!(benches, perft, moves_and_ai);
criterion_main!(benches);

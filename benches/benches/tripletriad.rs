//! Triple Triad: perft on basic rules and exact solving with Same+Plus+Combo.

use arbiter_benches::tt_solve_position;
use arbiter_core::tripletriad::{Setup, Solver, TripleTriad};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt_perft_basic");
    group.sample_size(10);
    let g = TripleTriad::new(&Setup::random_ff8(1)).unwrap();
    for depth in [5u32, 6] {
        group.throughput(Throughput::Elements(g.perft(depth)));
        group.bench_with_input(BenchmarkId::from_parameter(depth), &depth, |b, &d| {
            b.iter(|| g.perft(black_box(d)))
        });
    }
    group.finish();
}

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt_solve_same_plus_combo");
    group.sample_size(10);
    let mut solver = Solver::default();
    for seed in [0u64, 1, 2] {
        let g = tt_solve_position(seed);
        group.bench_with_input(BenchmarkId::new("empty_board_seed", seed), &g, |b, g| {
            b.iter(|| solver.solve(black_box(g)).value)
        });
    }
    group.finish();
}

criterion_group!(benches, perft, solve);
criterion_main!(benches);

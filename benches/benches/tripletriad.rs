//! Triple Triad: perft on basic rules and with captures (Same+Plus+Combo+Elemental), exact
//! solving with Same+Plus+Combo, and both shared among threads (the figures of `tt_speed`, on
//! smaller trees).

use arbiter_benches::{tt_capture_position, tt_solve_position};
use arbiter_core::perft_threads;
use arbiter_core::tripletriad::{solve_threads, Setup, Solver, TripleTriad};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt_perft");
    group.sample_size(10);
    let basic = TripleTriad::new(&Setup::random_ff8(1)).unwrap();
    let captures = tt_capture_position();
    for (name, g) in [("basic", &basic), ("captures", &captures)] {
        for depth in [5u32, 6] {
            group.throughput(Throughput::Elements(g.perft(depth)));
            group.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
                b.iter(|| g.perft(black_box(d)))
            });
        }
    }
    for threads in [1usize, 2] {
        group.throughput(Throughput::Elements(basic.perft(6)));
        group.bench_with_input(BenchmarkId::new("basic_6_threads", threads), &threads, |b, &n| {
            b.iter(|| perft_threads(&basic, 6, black_box(n), &|_, _| {}))
        });
    }
    group.finish();
}

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt_solve_same_plus_combo");
    group.sample_size(10);
    let mut solver = Solver::default();
    for seed in [0u64, 1, 2] {
        // A new round each time: the solver keeps the entries of the round it solved last, and
        // solving the same round again would be answered from its table.
        group.bench_with_input(BenchmarkId::new("empty_board_seed", seed), &seed, |b, &seed| {
            b.iter_batched(
                || tt_solve_position(seed),
                |g| solver.solve(black_box(&g)).value,
                BatchSize::SmallInput,
            )
        });
    }
    let g = tt_solve_position(0);
    for threads in [1usize, 2] {
        group.bench_with_input(BenchmarkId::new("seed_0_threads", threads), &threads, |b, &n| {
            b.iter(|| solve_threads(&g, black_box(n), Solver::DEFAULT_TABLE_BITS, &|_, _| {}).value)
        });
    }
    group.finish();
}

criterion_group!(benches, perft, solve);
criterion_main!(benches);

//! Criterion benchmarks for arbiter-core live in `benches/`.

use arbiter_core::tripletriad::*;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map(|s| s.as_str()).unwrap_or("solve");
    if what == "perft" {
        let d: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(7);
        let g = TripleTriad::new(&Setup::random_ff8(1)).unwrap();
        let t = Instant::now();
        let n = g.perft(d);
        let s = t.elapsed().as_secs_f64();
        println!("perft {d}: {n} in {s:.3}s = {:.1}M/s", n as f64 / s / 1e6);
        return;
    }
    let rules = Rules {
        open: true,
        same: true,
        plus: true,
        combo: true,
        ..Rules::default()
    };
    let mut times = vec![];
    let mut solver = Solver::new(20);
    for seed in 0..20 {
        let g = TripleTriad::new(&Setup::random_ff8(seed).with_rules(rules)).unwrap();
        let t = Instant::now();
        let s = solver.solve(&g);
        let e = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "seed {seed}: value {} nodes {} {:.2} ms",
            s.value, s.nodes, e
        );
        times.push(e);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("median {:.2} ms", (times[9] + times[10]) / 2.0);
}

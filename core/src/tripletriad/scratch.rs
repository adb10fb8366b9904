#![allow(dead_code, unused)]
use super::board::{bits, FULL};
use super::resolve::child;
use super::solve::mtd;
use super::*;
use crate::{Game, Rng};
use std::println;
use std::time::Instant;

#[test]
#[ignore]
fn measure() {
    let rules = Rules {
        same: true,
        plus: true,
        combo: true,
        ..Rules::default()
    };
    let mut sign_nodes = [0u64; 10];
    let mut exact_nodes = [0u64; 10];
    let mut solve_nodes = [0u64; 10];
    let mut sign_ms = [0f64; 10];
    let mut exact_ms = [0f64; 10];
    let mut count = [0u64; 10];
    let mut solver = Solver::default();
    for seed in 0..12 {
        let mut g = TripleTriad::new(&Setup::random_ff8(seed).with_rules(rules)).unwrap();
        let mut rng = Rng::new(seed);
        while !g.is_over() {
            let e = (!g.pos.occupied & FULL).count_ones() as usize;
            let t = &*g.table;
            let pos = g.pos;
            // sign
            solver.start();
            let tm = Instant::now();
            for card in bits(pos.hand(pos.to_move)) {
                if pos.hand(pos.to_move) & t.twins[card as usize] != 0 {
                    continue;
                }
                for cell in bits(!pos.occupied & FULL) {
                    let k = child(t, pos, card, cell);
                    if k.is_over() {
                        continue;
                    }
                    solver.search(t, &k, -1, 1);
                }
            }
            sign_ms[e] += tm.elapsed().as_secs_f64() * 1e3;
            sign_nodes[e] += solver.nodes();
            solver.start();
            let tm = Instant::now();
            for card in bits(pos.hand(pos.to_move)) {
                if pos.hand(pos.to_move) & t.twins[card as usize] != 0 {
                    continue;
                }
                for cell in bits(!pos.occupied & FULL) {
                    let k = child(t, pos, card, cell);
                    mtd(&k, |a, b| solver.search(t, &k, a, b));
                }
            }
            exact_ms[e] += tm.elapsed().as_secs_f64() * 1e3;
            exact_nodes[e] += solver.nodes();
            let s = Solver::default().solve(&g);
            solve_nodes[e] += s.nodes;
            count[e] += 1;
            let moves = g.legal_moves();
            g.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
        }
    }
    for e in 1..10 {
        let c = count[e] as f64;
        println!(
            "E={e}: sign {:.0} nodes {:.2} ms; exact {:.0} nodes {:.2} ms; solve {:.0} nodes",
            sign_nodes[e] as f64 / c,
            sign_ms[e] / c,
            exact_nodes[e] as f64 / c,
            exact_ms[e] / c,
            solve_nodes[e] as f64 / c
        );
    }
}

fn shallow(
    t: &super::state::Table,
    pos: &super::state::Position,
    depth: u32,
    alpha: i8,
    beta: i8,
    nodes: &mut u64,
) -> i8 {
    *nodes += 1;
    if depth == 0 || pos.is_over() {
        return 2 * pos.score(pos.to_move) as i8 - 10;
    }
    let hand = pos.hand(pos.to_move);
    let mut best = -128i8;
    for card in bits(hand) {
        if hand & t.twins[card as usize] != 0 {
            continue;
        }
        for cell in bits(!pos.occupied & FULL) {
            let k = child(t, *pos, card, cell);
            let v = -shallow(t, &k, depth - 1, -beta, -alpha.max(best), nodes);
            if v > best {
                best = v;
                if best >= beta {
                    return best;
                }
            }
        }
    }
    best
}

#[test]
#[ignore]
fn measure_shallow() {
    let rules = Rules {
        same: true,
        plus: true,
        combo: true,
        ..Rules::default()
    };
    for e in [9usize, 8] {
        for depth in 4..=5u32 {
            let mut nodes = 0u64;
            let mut ms = 0.0;
            let mut count = 0;
            for seed in 0..10 {
                let mut g = TripleTriad::new(&Setup::random_ff8(seed).with_rules(rules)).unwrap();
                if e == 8 {
                    let m = g.legal_moves()[7];
                    g.play(m).unwrap();
                }
                let t = &*g.table;
                let pos = g.pos;
                let tm = Instant::now();
                for card in bits(pos.hand(pos.to_move)) {
                    for cell in bits(!pos.occupied & FULL) {
                        let k = child(t, pos, card, cell);
                        shallow(t, &k, depth - 1, -127, 127, &mut nodes);
                    }
                }
                ms += tm.elapsed().as_secs_f64() * 1e3;
                count += 1;
            }
            println!(
                "E={e} depth {depth}: {} nodes {:.2} ms per sample",
                nodes / count,
                ms / count as f64
            );
        }
    }
}

use super::expert::Expert;
extern crate std;
use std::sync::Mutex;
use std::vec::Vec;

fn env(name: &str, default: i64) -> i64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn config(prefix: &str) -> Option<Expert> {
    if env(&std::format!("{prefix}_GREEDY"), 0) == 1 {
        return None;
    }
    let mut e = Expert::default();
    e.samples = env(&std::format!("{prefix}_SAMPLES"), e.samples as i64) as u32;
    e.nodes = env(&std::format!("{prefix}_NODES"), e.nodes as i64) as u64;
    e.shallow_samples = env(&std::format!("{prefix}_SHALLOW"), e.shallow_samples as i64) as u32;
    e.clip = env(&std::format!("{prefix}_CLIP"), e.clip as i64) as i8;
    e.exact_from = env(&std::format!("{prefix}_EXACT"), e.exact_from as i64) as u32;
    e.horizon = env(&std::format!("{prefix}_HORIZON"), e.horizon as i64) as u32;
    Some(e)
}

#[test]
#[ignore]
fn duel() {
    let pairs = env("PAIRS", 100) as u64;
    let base = env("BASE", 1000) as u64;
    let a = config("A");
    let b = config("B");
    let rules = Rules {
        same: true,
        plus: true,
        combo: true,
        ..Rules::default()
    };
    let res = Mutex::new((0u32, 0u32, 0u32, 0f64, 0u64, 0f64, 0u64, [0f64; 10], [0u64; 10]));
    let next = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= pairs {
                    break;
                }
                for swap in 0..2 {
                    let mut g = TripleTriad::new(&Setup::random_ff8(base + i).with_rules(rules)).unwrap();
                    let a_is = if swap == 0 { Player::Blue } else { Player::Red };
                    let mut rng = Rng::new((base + i) * 2 + swap);
                    let mut ms = 0.0;
                    let mut moves = 0;
                    let mut maxms: f64 = 0.0;
                    let mut per = [0f64; 10];
                    let mut pern = [0u64; 10];
                    while let Some(p) = g.to_move() {
                        let obs = g.observation(p);
                        let cfg = if p == a_is { &a } else { &b };
                        let tm = Instant::now();
                        let e = (0..9).filter(|&c| g.cell(c).is_none()).count();
                        let mv = match cfg {
                            Some(x) => x.think(&obs, &mut rng).best.unwrap(),
                            None => ai::choose(&obs, ai::Level::Greedy, &mut rng).unwrap(),
                        };
                        let el = tm.elapsed().as_secs_f64() * 1e3;
                        if p == a_is {
                            ms += el;
                            moves += 1;
                            maxms = maxms.max(el);
                            per[e] += el;
                            pern[e] += 1;
                        }
                        g.play(mv).unwrap();
                    }
                    let mut r = res.lock().unwrap();
                    match g.outcome().unwrap().winner() {
                        Some(w) if w == a_is => r.0 += 1,
                        Some(_) => r.2 += 1,
                        None => r.1 += 1,
                    }
                    r.3 += ms;
                    r.4 += moves;
                    r.5 = r.5.max(maxms);
                    for e in 0..10 {
                        r.7[e] += per[e];
                        r.8[e] += pern[e];
                    }
                }
            });
        }
    });
    let r = res.into_inner().unwrap();
    let dec = (r.0 + r.2) as f64;
    let p = r.0 as f64 / dec;
    let se = (p * (1.0 - p) / dec).sqrt();
    println!(
        "A wins {} draws {} losses {}: decisive win rate {:.3} +- {:.3}; A ms/move mean {:.1} max {:.1}",
        r.0,
        r.1,
        r.2,
        p,
        1.96 * se,
        r.3 / r.4 as f64,
        r.5
    );
    for e in 1..10 {
        if r.8[e] > 0 {
            println!("  E={e}: {:.2} ms", r.7[e] / r.8[e] as f64);
        }
    }
}

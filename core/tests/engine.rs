//! The shared host API over every game: levels, budgets, tensors, masks, returns, player names.

use arbiter_core::nantong::{Nantong, Seat};
use arbiter_core::trax::{self, Colour, Trax};
use arbiter_core::tripletriad::{self, TripleTriad};
use arbiter_core::{Budget, Engine, ErrorKind, Game, Outcome, Rng};

fn levels_play_to_the_end<G: Engine>(start: G) {
    for level in G::LEVELS {
        let mut g = start.clone();
        let mut rng = Rng::new(3);
        let mut moves = 0;
        while let Some(mv) = g.choose(level, &mut rng).unwrap() {
            g.play(mv).map_err(Into::into).unwrap();
            moves += 1;
            assert!(moves < 10_000, "{} {level} never ends", G::NAME);
        }
        assert!(g.is_over(), "{} {level}", G::NAME);
    }
    assert_eq!(
        start.choose("grandmaster", &mut Rng::new(1)).unwrap_err().kind(),
        ErrorKind::BadArgument
    );
}

/// The timeout move is legal at every position of a whole game and the same when asked twice.
fn timeout_moves_play_to_the_end<G: Engine>(start: G) {
    let mut g = start;
    let mut moves = 0;
    while let Some(mv) = g.timeout_move() {
        assert!(g.legal_moves().contains(&mv), "{} {mv}", G::NAME);
        assert!(g.timeout_move() == Some(mv));
        g.play(mv).map_err(Into::into).unwrap();
        moves += 1;
        assert!(moves < 10_000, "{} never ends on timeout moves", G::NAME);
    }
    assert!(g.is_over(), "{}", G::NAME);
}

#[test]
fn timeout_moves_are_legal_to_the_end() {
    timeout_moves_play_to_the_end(TripleTriad::new(&tripletriad::Setup::random_ff8(4)).unwrap());
    timeout_moves_play_to_the_end(Trax::new(trax::Variant::EightByEight));
    for seed in 0..5 {
        timeout_moves_play_to_the_end(Nantong::new(seed));
    }
}

#[test]
fn every_level_of_every_game_plays_to_the_end() {
    levels_play_to_the_end(TripleTriad::new(&tripletriad::Setup::random_ff8(4)).unwrap());
    levels_play_to_the_end(Trax::new(trax::Variant::EightByEight));
    levels_play_to_the_end(Nantong::new(4));
}

/// With a budget spent at once (one node, or a stop callback that says stop on its first
/// question), every level of every game still plays a legal move at every position.
fn levels_play_legal_moves_on_no_budget<G: Engine>(start: G) {
    for level in G::LEVELS {
        for stop_at_once in [false, true] {
            let mut g = start.clone();
            let mut rng = Rng::new(5);
            let mut asked = 0u32;
            loop {
                let mut stop = || {
                    asked += 1;
                    true
                };
                let budget = if stop_at_once {
                    Budget::until(&mut stop)
                } else {
                    Budget::nodes(1)
                };
                let Some(mv) = g.choose_within(level, &mut rng, budget).unwrap() else {
                    break;
                };
                assert!(g.legal_moves().contains(&mv), "{} {level}", G::NAME);
                g.play(mv).map_err(Into::into).unwrap();
            }
            assert!(g.is_over(), "{} {level}", G::NAME);
        }
    }
}

#[test]
fn every_level_of_every_game_plays_within_any_budget() {
    let open = tripletriad::Rules {
        open: true,
        ..tripletriad::Rules::default()
    };
    levels_play_legal_moves_on_no_budget(TripleTriad::new(&tripletriad::Setup::random_ff8(4)).unwrap());
    levels_play_legal_moves_on_no_budget(
        TripleTriad::new(&tripletriad::Setup::random_ff8(6).with_rules(open)).unwrap(),
    );
    levels_play_legal_moves_on_no_budget(Trax::new(trax::Variant::Unbounded));
    levels_play_legal_moves_on_no_budget(Nantong::new(4));
}

#[test]
fn the_solver_keeps_its_node_budget() {
    let open = tripletriad::Rules {
        open: true,
        ..tripletriad::Rules::default()
    };
    let g = TripleTriad::new(&tripletriad::Setup::random_ff8(6).with_rules(open)).unwrap();
    let full = tripletriad::Solver::default().solve(&g);
    for nodes in [1, 1_000, 10_000] {
        let cut = tripletriad::Solver::default().solve_within(&g, Budget::nodes(nodes));
        let cut = cut.expect_err("an empty board takes more than 10,000 positions");
        // The search looks at its budget after each child of a position with five empty cells
        // or more: past it, at most the path down to the first such look (nine positions).
        assert!(cut.nodes <= nodes + 9, "{nodes}: {}", cut.nodes);
        assert!(full.nodes > 10_000);
    }
    let mut calls = 0;
    let mut stop = || {
        calls += 1;
        calls > 3
    };
    let cut = tripletriad::Solver::default()
        .solve_within(&g, Budget::until(&mut stop))
        .unwrap_err();
    assert!(cut.nodes < full.nodes);
}

#[test]
fn tensors_and_masks_have_their_sizes_all_game_long() {
    fn check<G: Engine>(mut g: G) {
        let mut rng = Rng::new(9);
        loop {
            for &p in G::PLAYERS {
                assert_eq!(g.observation_tensor(p).len(), g.tensor_len(), "{}", G::NAME);
            }
            let mask = g.legal_action_mask();
            assert_eq!(mask.len(), g.num_distinct_actions());
            let legal: Vec<usize> = g.legal_moves().iter().map(|&m| g.action_id(m).unwrap()).collect();
            assert_eq!(mask.iter().filter(|&&m| m).count(), legal.len(), "{}", G::NAME);
            assert!(legal.iter().all(|&id| mask[id]));
            let Some(mv) = g.choose("random", &mut rng).unwrap() else {
                break;
            };
            g.play(mv).map_err(Into::into).unwrap();
        }
    }
    check(TripleTriad::new(&tripletriad::Setup::random_ff8(2)).unwrap());
    check(Trax::new(trax::Variant::EightByEight));
    check(Nantong::new(2));
}

#[test]
fn legal_actions_ascend_and_name_the_legal_moves_all_game_long() {
    fn check<G: Engine>(mut g: G, seed: u64) -> bool {
        let mut rng = Rng::new(seed);
        let mut unsorted = false;
        loop {
            let ids = g.legal_actions();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "{}: {ids:?}", G::NAME);
            let mut listed: Vec<usize> = g.legal_moves().iter().map(|&m| g.action_id(m).unwrap()).collect();
            unsorted |= listed.windows(2).any(|w| w[0] > w[1]);
            listed.sort_unstable();
            assert_eq!(ids, listed, "{}", G::NAME);
            let returns = g.returns();
            assert_eq!(returns.len(), G::PLAYERS.len());
            if !g.is_over() {
                assert!(returns.iter().all(|&r| r == 0.0));
            }
            let Some(mv) = g.choose("random", &mut rng).unwrap() else {
                assert_eq!(returns.iter().sum::<f64>(), 0.0, "{}", G::NAME);
                return unsorted;
            };
            g.play(mv).map_err(Into::into).unwrap();
        }
    }
    check(TripleTriad::new(&tripletriad::Setup::random_ff8(3)).unwrap(), 3);
    // Nantong's generation order is not id order: the sort is what makes the guarantee.
    assert!((0..4).any(|s| check(Nantong::new(s), s)));
    for variant in [
        trax::Variant::EightByEight,
        trax::Variant::Unbounded,
        trax::Variant::Loop,
    ] {
        check(Trax::new(variant), 5);
    }
}

#[test]
fn returns_score_the_winner_and_nantong_in_points() {
    let mut g = Trax::new(trax::Variant::EightByEight);
    let mut rng = Rng::new(8);
    while let Some(mv) = g.choose("random", &mut rng).unwrap() {
        g.play(mv).unwrap();
    }
    let want = match g.outcome().unwrap() {
        Outcome::Winner(Colour::White) => [1.0, -1.0],
        Outcome::Winner(Colour::Red) => [-1.0, 1.0],
        Outcome::Draw => [0.0, 0.0],
    };
    assert_eq!(g.returns(), want);
    let mut n = Nantong::new(11);
    while let Some(mv) = n.choose("basic", &mut rng).unwrap() {
        n.play(mv).unwrap();
    }
    let settlement = n.score().unwrap().settlement.map(|p| p as f64);
    assert_eq!(n.returns(), settlement);
}

#[test]
fn players_read_back_from_their_names() {
    fn check<G: Engine>() {
        for (i, &p) in G::PLAYERS.iter().enumerate() {
            assert_eq!(G::player(&p.to_string()).unwrap(), p);
            assert_eq!(G::player_index(p), i);
        }
        assert_eq!(G::player("nobody").unwrap_err().kind(), ErrorKind::Parse);
        assert_eq!(G::player("3").unwrap_err().kind(), ErrorKind::Parse);
    }
    check::<TripleTriad>();
    check::<Trax>();
    check::<Nantong>();
    assert_eq!(Nantong::player(" 2").unwrap(), Seat::ALL[2]);
}

#[test]
fn every_game_undoes_its_history_back_to_the_start() {
    fn check<G: Engine + PartialEq>(start: G) {
        let mut g = start.clone();
        let mut rng = Rng::new(12);
        let mut states = vec![g.clone()];
        while let Some(mv) = g.choose("random", &mut rng).unwrap() {
            g.play(mv).map_err(Into::into).unwrap();
            states.push(g.clone());
            assert_eq!(Engine::history(&g).len(), states.len() - 1, "{}", G::NAME);
        }
        let played = Engine::history(&g);
        while let Some(mv) = Engine::undo(&mut g) {
            states.pop();
            assert!(g == *states.last().unwrap(), "{}", G::NAME);
            assert_eq!(Some(mv), played.get(states.len() - 1).copied(), "{}", G::NAME);
        }
        assert!(g == start && Engine::history(&g).is_empty(), "{}", G::NAME);
    }
    check(TripleTriad::new(&tripletriad::Setup::random_ff8(5)).unwrap());
    check(Trax::new(trax::Variant::EightByEight));
    check(Nantong::new(6));
}

//! Smaller Nantong deals (`rules/nantong-small.md`): the same rules on shorter hands and a smaller
//! deck, through the same verbs, ids and tensor as the full game.

use arbiter_core::games::{AnyGame, Options};
use arbiter_core::nantong::{self, describe, tensor, Action, Kind, Nantong, Phase, Seat, Size};
use arbiter_core::{Engine, Game, Rng};

fn kinds(s: &str) -> Vec<Kind> {
    s.split_whitespace().map(|k| k.parse().unwrap()).collect()
}

/// Plays `g` out with random legal actions, checking what every step shows.
fn play_out(mut g: Nantong, rng: &mut Rng) -> Nantong {
    let size = g.size();
    let mut tensor = vec![0.0; tensor::LEN];
    while let Some(seat) = g.to_move() {
        let ids = g.legal_actions();
        assert!(!ids.is_empty() && ids.iter().all(|&id| id < Action::COUNT));
        for &id in &ids {
            // Only the deck's kinds are ever named.
            let named = match Action::from_id(id).unwrap() {
                Action::Discard(k) | Action::ConcealedKong(k) | Action::AddKong(k) => Some(k),
                Action::DeclareFour(k) | Action::DeclareTriple(k) => Some(k),
                _ => None,
            };
            assert!(named.is_none_or(|k| k.index() < size.kinds()), "{id}");
        }
        g.observation_tensor_into(seat, &mut tensor);
        assert!(tensor.iter().all(|x| (0.0..=1.0).contains(x)));
        let id = ids[rng.below(ids.len() as u64) as usize];
        g.play(g.action_move(id).unwrap()).unwrap();
    }
    let score = g.score().expect("a finished deal is scored");
    assert_eq!(score.settlement.iter().sum::<i64>(), 0);
    g
}

#[test]
fn small_deals_play_out_under_the_full_games_verbs() {
    let mut rng = Rng::new(1);
    for (groups, kinds) in [(0, 2), (0, 5), (1, 4), (1, 5), (2, 8), (4, 20)] {
        let size = Size::new(groups, kinds).unwrap();
        let mut wins = 0;
        for seed in 0..60 {
            let g = Nantong::sized(seed, size);
            let hand = 3 * groups as usize + 1;
            assert_eq!(g.hand_size(g.dealer()), hand + 1);
            assert_eq!(g.hand_size(g.dealer().next()), hand);
            assert_eq!(g.stock_size(), size.cards() - 3 * hand - 3);
            assert!(g.deck().iter().all(|k| k.index() < kinds as usize));
            let end = play_out(g, &mut rng);
            wins += usize::from(end.win().is_some());
            assert_eq!(end.next_deal().size(), size);
        }
        // Random play wins short hands (and rarely long ones).
        assert!(groups > 1 || wins > 0, "{groups} groups, {kinds} kinds: no deal won");
    }
}

#[test]
fn a_heavenly_one_group_hand_is_qing_hu() {
    // The dealer holds 1m 2m 3m and the pair 4m: one sequence and a pair win at once.
    let deck = kinds("1m 2m 3m 4m 4m  1m 2m 3m 5m  1m 2m 3m 5m  1m 2m  3m 4m 4m 5m 5m");
    let [s0, s1, s2] = Seat::ALL;
    let size = Size::new(1, 5).unwrap();
    let mut g = Nantong::deal_sized(&deck, s0, size).unwrap();
    assert!(Nantong::deal(&deck, s0).is_err(), "not a full deck");
    // A seat one card short (1m 2m 3m 5m waits on 5m) may declare ready, as in the full game.
    g.play(Action::Finish).unwrap();
    assert_eq!(g.waits(s1), kinds("5m"));
    assert!(g.legal_moves().contains(&Action::Ready));
    g.play(Action::Finish).unwrap();
    g.play(Action::Finish).unwrap();
    assert_eq!(g.phase(), Phase::DealerFirst);
    assert!(g.legal_moves().contains(&Action::Win));
    g.play(Action::Win).unwrap();
    let score = g.score().unwrap();
    let winner = &score.players[s0.index()];
    let bonuses: Vec<_> = winner.bonuses.iter().map(|b| (b.name, b.value)).collect();
    assert_eq!(bonuses, [("qing hu", 100)]);
    // Qing Hu 100, doubled by the heavenly win; the others hold no group that scores.
    assert_eq!(score.totals, [200, 0, 0]);
    assert_eq!(score.settlement, [400, -200, -200]);
    assert_eq!(g.hand_size(s2), 4);
}

#[test]
fn a_pair_alone_wins_a_deal_of_no_groups_as_tazi_hu() {
    let deck = kinds("1m 1m  2m  2m  1m 2m  1m 2m");
    let mut g = Nantong::deal_sized(&deck, Seat::ALL[2], Size::new(0, 2).unwrap()).unwrap();
    for _ in 0..3 {
        g.play(Action::Finish).unwrap();
    }
    g.play(Action::Win).unwrap();
    let score = g.score().unwrap();
    let winner = &score.players[2];
    assert_eq!(winner.bonuses.iter().map(|b| b.name).collect::<Vec<_>>(), ["tazi hu"]);
    assert_eq!(score.totals, [0, 0, 40]);
}

#[test]
fn the_options_declare_the_size_and_every_host_deals_it() {
    let d = describe();
    assert!(d.option("groups").is_some() && d.option("kinds").is_some());
    let sized = |groups, kinds| {
        Options::Nantong(nantong::Options {
            groups,
            kinds,
            ..nantong::Options::default()
        })
    };
    let options = sized(Some(1), Some(5));
    let AnyGame::Nantong(g) = AnyGame::new("nantong", &options, 3).unwrap() else {
        panic!()
    };
    assert_eq!((g.size(), g.deck().len()), (Size::new(1, 5).unwrap(), 20));
    for options in [sized(Some(8), None), sized(Some(1), Some(3))] {
        let e = AnyGame::new("nantong", &options, 3).unwrap_err();
        assert!(e.message().contains("groups") || e.message().contains("kinds"), "{e}");
    }
    // The full game is the default, draw for draw.
    let full = Options::defaults("nantong").unwrap();
    let AnyGame::Nantong(g) = AnyGame::new("nantong", &full, 3).unwrap() else {
        panic!()
    };
    assert_eq!(*g, Nantong::new(3));
}

#[test]
fn undo_takes_a_small_deal_back_to_its_own_size() {
    let mut g = Nantong::sized(9, Size::new(1, 5).unwrap());
    let start = g.clone();
    let mut rng = Rng::new(9);
    for _ in 0..6 {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        g.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
    }
    while g.undo().is_some() {}
    assert_eq!(g, start);
}

#[cfg(feature = "serde")]
#[test]
fn a_small_deal_saves_its_groups_and_loads_again() {
    let mut g = Nantong::sized(4, Size::new(2, 8).unwrap());
    for _ in 0..5 {
        let a = g.legal_moves()[0];
        g.play(a).unwrap();
    }
    let saved = serde_json::to_value(&g).unwrap();
    assert_eq!(
        (saved["groups"].as_u64(), saved["deck"].as_array().unwrap().len()),
        (Some(2), 32)
    );
    let loaded: Nantong = serde_json::from_value(saved).unwrap();
    assert_eq!(loaded, g);
    // The full game's save has no `groups`: it is the same as before smaller deals.
    assert!(serde_json::to_value(Nantong::new(4)).unwrap().get("groups").is_none());
}

#[test]
fn the_levels_play_small_deals_and_the_strong_one_wins_them() {
    use arbiter_core::nantong::ai::{choose_at, Level};
    let size = Size::new(1, 5).unwrap();
    let mut strong_points = 0;
    for seed in 0..200 {
        let mut g = Nantong::sized(seed, size);
        let mut rng = Rng::new(seed);
        // Seat 0 strong, the others random.
        while let Some(seat) = g.to_move() {
            let level = if seat == Seat::ALL[0] {
                Level::Strong
            } else {
                Level::Random
            };
            let a = choose_at(&g.observation(seat), level, &mut rng).unwrap();
            g.play(a).unwrap();
        }
        strong_points += g.score().unwrap().settlement[0];
    }
    assert!(strong_points > 0, "{strong_points}");
}

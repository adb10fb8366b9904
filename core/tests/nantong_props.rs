//! Invariants of Nantong over random deals and random legal play.

use arbiter_core::nantong::{
    ai, counts_of, full_deck, is_winning, score_deal, waits, Action, FinishedDeal, Kind, Nantong, Phase, PlayerHand,
    Seat,
};
use arbiter_core::{Game, Rng};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_deals_keep_every_invariant(seed in any::<u64>(), policy in 0u8..2) {
        let mut g = Nantong::new(seed);
        let mut rng = Rng::new(seed);
        let mut steps = 0;
        while let Some(seat) = g.to_move() {
            let legal = g.legal_moves();
            prop_assert!(!legal.is_empty());
            // Every action not offered is refused, and refusals change nothing.
            let before = format!("{:?}", g);
            for id in 0..Action::COUNT {
                let a = Action::from_id(id).unwrap();
                if !legal.contains(&a) {
                    prop_assert!(g.clone().play(a).is_err(), "{} accepted, not offered", a);
                }
            }
            prop_assert!(g.act(seat.next(), legal[0]).is_err());
            prop_assert_eq!(format!("{:?}", g), before);
            // Observations never show another hand: only the observer's own cards (less the card
            // of a kong being added), and actions only to the seat to act.
            for s in Seat::ALL {
                let o = g.observation(s);
                let adding = matches!(g.phase(), Phase::RobKong { adder, .. } if adder == s);
                prop_assert_eq!(o.hand.len() + usize::from(adding), g.hand_size(s));
                prop_assert!(o.actions.is_empty() || s == seat);
            }
            let a = if policy == 0 {
                legal[rng.below(legal.len() as u64) as usize]
            } else {
                ai::choose(&g.observation(seat), &mut rng).unwrap()
            };
            g.play(a).unwrap();
            steps += 1;
            prop_assert!(steps < 2000);
        }
        let s = g.score().unwrap();
        prop_assert_eq!(s.settlement.iter().sum::<i64>(), 0);
        prop_assert!(s.totals.iter().all(|t| t % 10 == 0));
        // The replay of the history reaches the same end.
        let mut deck = full_deck();
        let mut r = Rng::new(seed);
        let dealer = Seat::ALL[r.below(3) as usize];
        r.shuffle(&mut deck);
        let again = Nantong::replay(&deck, dealer, g.history()).unwrap();
        prop_assert_eq!(again.score(), g.score());
    }

    #[test]
    fn waits_are_exactly_the_completing_kinds(seed in any::<u64>()) {
        let mut deck = full_deck();
        Rng::new(seed).shuffle(&mut deck);
        let codes: Vec<String> = deck[..22].iter().map(|k| k.to_string()).collect();
        let hand = counts_of(codes.iter().map(String::as_str)).unwrap();
        let w = waits(&hand, 0, &hand);
        for k in Kind::all() {
            let mut c = hand;
            c[k.index()] += 1;
            let completes = hand[k.index()] < 4 && is_winning(&c, 0);
            prop_assert_eq!(w.contains(&k), completes);
        }
    }
}

#[test]
fn bad_decks_and_actions_are_refused() {
    let [s0, s1, s2] = Seat::ALL;
    assert!(Nantong::deal(&full_deck()[..119], s0).is_err());
    let mut deck = full_deck();
    deck[0] = deck[5];
    assert!(Nantong::deal(&deck, s0).is_err());
    let mut g = Nantong::deal(&full_deck(), s1).unwrap();
    assert!("discard 0z".parse::<Action>().is_err());
    let err = g.act(s1, Action::Ready).unwrap_err();
    assert!(err.to_string().contains("dealer cannot declare ready"), "{err}");
    let err = g.act(s2, Action::Finish).unwrap_err();
    assert!(err.to_string().contains("seat 1 is to act"), "{err}");
}

/// Plays one action of `seat` by `policy` (0: a uniformly random legal action, 1: the AI).
fn play_one(g: &mut Nantong, seat: Seat, policy: u8, rng: &mut Rng) {
    let a = if policy == 0 {
        let legal = g.legal_moves();
        legal[rng.below(legal.len() as u64) as usize]
    } else {
        ai::choose(&g.observation(seat), rng).unwrap()
    };
    g.play(a).unwrap();
}

/// Plays `g` to its end with `policy` (as [`play_one`]), calling `visit` on every state before
/// its action.
fn play_out(g: &mut Nantong, seed: u64, policy: u8, mut visit: impl FnMut(&Nantong)) {
    let mut rng = Rng::new(seed ^ 0x5eed);
    while let Some(seat) = g.to_move() {
        visit(g);
        play_one(g, seat, policy, &mut rng);
    }
}

#[test]
fn claim_windows_ask_every_other_seat_in_turn() {
    // Who is asked, and when, must not depend on any hand: after a discard the two other seats
    // answer on winning, from the discarder's next seat, each with `pass` among its answers;
    // then, on melds, each seat not ready (while fewer than three copies are in sight).
    let mut windows = 0;
    for seed in 0..120u64 {
        let mut g = Nantong::new(seed);
        let mut rng = Rng::new(seed);
        while let Some(seat) = g.to_move() {
            let a = ai::choose(&g.observation(seat), &mut rng).unwrap();
            g.play(a).unwrap();
            let Action::Discard(card) = a else { continue };
            windows += 1;
            for asked in [seat.next(), seat.next().next()] {
                assert_eq!(
                    g.phase(),
                    Phase::ClaimWin {
                        card,
                        from: seat,
                        seat: asked
                    },
                    "seed {seed}"
                );
                for x in Seat::ALL {
                    let o = g.observation(x);
                    assert_eq!((o.to_act, o.claim.is_some()), (Some(asked), x == asked));
                }
                assert!(g.legal_moves().contains(&Action::Pass));
                if g.legal_moves().contains(&Action::Win) {
                    break;
                }
                g.play(Action::Pass).unwrap();
            }
            if let Phase::ClaimMeld { seat: asked, .. } = g.phase() {
                assert!(!g.observation(asked).ready[asked.index()]);
                assert!(g.legal_moves().contains(&Action::Pass));
            }
        }
    }
    assert!(windows > 3000, "{windows} windows");
}

#[test]
fn the_last_event_says_what_happened_and_shows_a_drawn_card_to_its_drawer_only() {
    let (mut draws, mut claims) = (0, 0);
    for seed in 0..60u64 {
        let mut g = Nantong::new(seed);
        let mut rng = Rng::new(seed);
        while let Some(seat) = g.to_move() {
            let before = g.observation(seat);
            let a = ai::choose(&before, &mut rng).unwrap();
            let stock = g.stock_size();
            g.play(a).unwrap();
            let mut drawn = 0;
            for x in Seat::ALL {
                let e = g.observation(x).last_event.unwrap();
                assert_eq!((e.seat, e.action), (seat, a));
                for d in &e.draws {
                    assert_eq!(d.card.is_some(), d.seat == x, "seed {seed}: {e:?} seen by {x}");
                }
                drawn = e.draws.len();
                let took = e.took.map(|t| (t.from, t.card));
                match a {
                    Action::Pong | Action::Kong => {
                        assert_eq!(took, before.discards.last().copied());
                        claims += 1;
                    }
                    Action::Win if before.claim.is_some() => assert!(took.is_some()),
                    _ => assert_eq!(took, None),
                }
            }
            assert_eq!(drawn, stock - g.stock_size(), "seed {seed}");
            draws += drawn;
        }
    }
    assert!(draws > 2000 && claims > 100, "{draws} draws, {claims} claims");
}

#[test]
fn every_played_deal_passes_the_score_checks() {
    // The checks on scoring input must accept every end the engine reaches, and score it alike.
    for seed in 0..120u64 {
        let mut g = Nantong::new(seed);
        play_out(&mut g, seed, (seed % 2) as u8, |_| {});
        let players = Seat::ALL.map(|s| {
            let o = g.observation(s);
            let mut hand = [0u8; 30];
            o.hand.iter().for_each(|k| hand[k.index()] += 1);
            PlayerHand {
                hand,
                melds: o.melds[s.index()].clone(),
                ready: o.ready[s.index()],
            }
        });
        let deal = FinishedDeal::new(g.indicators(), g.dealer(), players.clone(), g.win().copied())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(Some(&deal.score()), g.score());
        assert_eq!(
            score_deal(g.indicators(), g.dealer(), &players, g.win()).as_ref().ok(),
            g.score()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Observations may come from outside: the AI answers any of them without panicking, with
    /// an action the observation lists.
    #[test]
    fn the_ai_answers_any_observation_with_a_listed_action(
        hand in proptest::collection::vec(0usize..30, 0..60),
        heap in (0usize..30, 0usize..400),
        actions in proptest::collection::vec(
            prop_oneof![
                (0..Action::COUNT).prop_map(|id| Action::from_id(id).unwrap().to_string()),
                "[a-z_ 0-9mscTWR]{0,16}",
            ],
            0..12,
        ),
        claim in proptest::option::of(0usize..30),
        seed in any::<u64>(),
    ) {
        let kind = |i: usize| Kind::from_index(i).unwrap();
        let mut o = Nantong::new(seed).observation(Seat::ALL[(seed % 3) as usize]);
        o.hand = hand.into_iter().map(kind).collect();
        o.hand.extend(std::iter::repeat_n(kind(heap.0), heap.1));
        o.actions = actions;
        o.claim = claim.map(kind);
        let listed: Vec<Action> = o.actions.iter().filter_map(|a| a.parse().ok()).collect();
        for policy in [ai::choose, ai::strong] {
            match policy(&o, &mut Rng::new(seed)) {
                Some(a) => prop_assert!(listed.contains(&a), "{} not in {:?}", a, o.actions),
                None => prop_assert!(listed.is_empty(), "nothing chosen from {:?}", o.actions),
            }
        }
    }
}

#[test]
fn the_ai_counts_a_crafted_heap_of_one_card() {
    let mut o = Nantong::new(3).observation(Seat::ALL[0]);
    o.hand = vec!["5m".parse().unwrap(); 256];
    o.actions = vec!["pong".into(), "pass".into()];
    o.claim = Some("5m".parse().unwrap());
    for policy in [ai::choose, ai::strong] {
        assert!(policy(&o, &mut Rng::new(1)).is_some());
    }
    o.actions = vec!["discard 5m".into()];
    for policy in [ai::choose, ai::strong] {
        assert_eq!(policy(&o, &mut Rng::new(1)), Some("discard 5m".parse().unwrap()));
    }
}

#[cfg(feature = "serde")]
proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// A deal saved at any moment loads back exactly: the same state, the same legal actions,
    /// the same next deal.
    #[test]
    fn saved_deals_load_back_exactly(seed in any::<u64>(), steps in 0usize..400, policy in 0u8..2) {
        let mut g = Nantong::new(seed);
        let mut rng = Rng::new(seed);
        for _ in 0..steps {
            let Some(seat) = g.to_move() else { break };
            play_one(&mut g, seat, policy, &mut rng);
        }
        let text = serde_json::to_string(&g).unwrap();
        let loaded: Nantong = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&loaded, &g);
        prop_assert_eq!(serde_json::to_string(&loaded).unwrap(), text);
        prop_assert_eq!(loaded.next_deal(), g.next_deal());
        prop_assert_eq!(loaded.restart(), g.restart());
    }

    /// A saved deal whose actions were tampered with loads as exactly what it says, or is
    /// refused; it never panics.
    #[test]
    fn tampered_saves_are_refused_or_replayed(
        seed in any::<u64>(),
        steps in 1usize..200,
        at in any::<prop::sample::Index>(),
        id in 0..Action::COUNT,
        seat in 0u8..4,
    ) {
        let mut g = Nantong::new(seed);
        let mut rng = Rng::new(seed);
        for _ in 0..steps {
            if g.to_move().is_none() {
                break;
            }
            let legal = g.legal_moves();
            g.play(legal[rng.below(legal.len() as u64) as usize]).unwrap();
        }
        let mut v = serde_json::to_value(&g).unwrap();
        let actions = v["actions"].as_array_mut().unwrap();
        let i = at.index(actions.len());
        actions[i] = serde_json::json!({"seat": seat, "action": Action::from_id(id).unwrap().to_string()});
        // Loaded, it holds exactly the actions it says, the tampered one included.
        if let Ok(loaded) = serde_json::from_value::<Nantong>(v.clone()) {
            prop_assert_eq!(serde_json::to_value(&loaded).unwrap(), v);
        }
    }
}

//! Nantong input from outside: scoring input that no deal can produce, seats out of range,
//! crafted saves. Every one is refused with an error, never a panic.

use arbiter_core::nantong::{
    counts_of, score_deal, winner_total, FinishedDeal, Kind, Meld, MeldType, NoSuchSeat, PlayerHand, ScoreError, Seat,
    Win, WinSource,
};
use arbiter_core::{Error, ErrorKind};

fn k(code: &str) -> Kind {
    code.parse().unwrap()
}

fn hand(codes: &str) -> PlayerHand {
    PlayerHand {
        hand: counts_of(codes.split_whitespace()).unwrap(),
        ..PlayerHand::default()
    }
}

const S0: Seat = Seat::ALL[0];
const S1: Seat = Seat::ALL[1];
const S2: Seat = Seat::ALL[2];
const IND: [&str; 2] = ["5c", "6c"];

fn indicators() -> [Kind; 2] {
    IND.map(k)
}

/// A deal seat 1 won by drawing T: the winner's Qing Hu; seat 2 holds the first 22 cards left in
/// code order (myriads), seat 0 the last 22 (four R, four W, two T, coins).
fn won_deal() -> ([PlayerHand; 3], Win) {
    let winner = hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s 1c 2c 3c T T");
    let mut left = [4u8; 30];
    for kind in Kind::all() {
        left[kind.index()] -= winner.hand[kind.index()];
    }
    for kind in indicators() {
        left[kind.index()] -= 1;
    }
    let rest: Vec<Kind> = Kind::all()
        .flat_map(|kind| vec![kind; left[kind.index()] as usize])
        .collect();
    let of = |cards: &[Kind]| {
        let mut p = PlayerHand::default();
        cards.iter().for_each(|c| p.hand[c.index()] += 1);
        p
    };
    let players = [of(&rest[rest.len() - 22..]), winner, of(&rest[..22])];
    let win = Win {
        seat: S1,
        card: Kind::T,
        source: WinSource::SelfDraw,
        heavenly: false,
        dealer_first_discard: false,
        last_card: false,
    };
    (players, win)
}

/// An exhausted deal: indicators 2s and 3m, seat 1 holding three 2s.
fn exhausted_deal() -> ([Kind; 2], [PlayerHand; 3]) {
    let players = [
        hand("2m 2m 2m 6s 6s 6s 1m 4m 7m 1s 4s 7s 1c 4c 7c 2c 5c 8c 9c 9c T W"),
        hand("2s 2s 2s 2m 5m 8m 3s 5s 8s 2c 5c 8c 3c 6c 9c 1m 4m 7m 1s 4s 7s R"),
        hand("5m 5m 6m 6m 8m 8m 9m 9m 1s 1s 4s 4s 7s 7s 1c 1c 4c 4c 7c 7c 3c 3c"),
    ];
    ([k("2s"), k("3m")], players)
}

#[test]
fn seventeen_pongs_of_one_card_are_refused_not_scored() {
    // Issue: more than sixteen scoring groups overflowed the breakdown (a panic).
    let (ind, mut players) = exhausted_deal();
    players[0].melds = vec![
        Meld {
            kind: MeldType::Pong,
            card: k("5m"),
        };
        17
    ];
    assert_eq!(
        score_deal(ind, S0, &players, None),
        Err(ScoreError::TooManyCopies(k("5m")))
    );
    let err: Error = FinishedDeal::new(ind, S0, players, None).unwrap_err().into();
    assert_eq!(err.kind(), ErrorKind::BadArgument);
    assert_eq!(
        err.to_string(),
        "more than four 5m among the indicators, hands and melds"
    );
}

#[test]
fn seventeen_kinds_held_three_times_are_refused_not_scored() {
    let (ind, _) = exhausted_deal();
    let kinds: Vec<Kind> = Kind::all().filter(|x| !ind.contains(x)).take(17).collect();
    let mut big = PlayerHand::default();
    kinds.iter().for_each(|x| big.hand[x.index()] = 3);
    let players = [big, PlayerHand::default(), PlayerHand::default()];
    assert_eq!(
        score_deal(ind, S0, &players, None),
        Err(ScoreError::HandSize {
            seat: S0,
            cards: 51,
            expected: 22
        })
    );
}

#[test]
fn copies_count_the_indicators_melds_and_every_hand() {
    let (ind, players) = exhausted_deal();
    assert_eq!(score_deal(ind, S0, &players, None).unwrap().totals, [20, 30, 0]);
    // The indicator 2s is the fourth copy: a pong of 2s is one too many.
    let mut p = players.clone();
    p[2].melds.push(Meld {
        kind: MeldType::Pong,
        card: k("2s"),
    });
    assert_eq!(score_deal(ind, S0, &p, None), Err(ScoreError::TooManyCopies(k("2s"))));
    // A Tiandi Hezi's two cards count: with both indicators 9m, two 9m are left.
    let mut p = players.clone();
    p[2].hand[k("9m").index()] = 0;
    p[2].hand[k("5c").index()] = 2;
    p[2].melds.push(Meld {
        kind: MeldType::Hezi,
        card: k("9m"),
    });
    assert!(score_deal([k("9m"); 2], S0, &p, None).is_ok());
    p[0].hand[k("9m").index()] = 1;
    p[0].hand[k("9c").index()] = 1;
    assert_eq!(
        score_deal([k("9m"); 2], S0, &p, None),
        Err(ScoreError::TooManyCopies(k("9m")))
    );
}

#[test]
fn hands_are_the_size_a_deal_leaves() {
    let (ind, players) = exhausted_deal();
    let mut p = players.clone();
    p[2].hand[k("3c").index()] -= 1;
    assert_eq!(
        score_deal(ind, S0, &p, None),
        Err(ScoreError::HandSize {
            seat: S2,
            cards: 21,
            expected: 22
        })
    );
    // A kong counts three: its fourth card came with a replacement.
    let mut p = players.clone();
    p[0].hand[k("6s").index()] = 0;
    p[0].melds.push(Meld {
        kind: MeldType::ConcealedKong,
        card: k("6s"),
    });
    assert!(score_deal(ind, S0, &p, None).is_ok());
    // The winner holds one more.
    let (players, win) = won_deal();
    assert!(score_deal(indicators(), S0, &players, Some(&win)).is_ok());
    assert_eq!(
        score_deal(indicators(), S0, &players, None),
        Err(ScoreError::HandSize {
            seat: S1,
            cards: 23,
            expected: 22
        })
    );
}

#[test]
fn melds_and_ready_must_be_ones_the_rules_give() {
    let (ind, players) = exhausted_deal();
    let triple = |p: &mut [PlayerHand; 3], seat: usize, card: &str| {
        p[seat].hand[k(card).index()] -= 3;
        p[seat].melds.push(Meld {
            kind: MeldType::OpeningTriple,
            card: k(card),
        });
    };
    let mut p = players.clone();
    triple(&mut p, 1, "2s");
    assert!(score_deal(ind, S0, &p, None).is_ok());
    let mut p = players.clone();
    triple(&mut p, 0, "2m");
    assert!(matches!(
        score_deal(ind, S0, &p, None),
        Err(ScoreError::BadMeld { seat, .. }) if seat == S0
    ));
    let mut p = players.clone();
    p[2].melds.push(Meld {
        kind: MeldType::Hezi,
        card: k("3m"),
    });
    assert!(matches!(score_deal(ind, S0, &p, None), Err(ScoreError::BadMeld { .. })));
    // Ready: not the dealer, and nothing but opening declarations.
    let mut p = players.clone();
    p[0].ready = true;
    assert_eq!(score_deal(ind, S0, &p, None), Err(ScoreError::ReadyDealer(S0)));
    let mut p = players.clone();
    p[1].ready = true;
    assert!(score_deal(ind, S0, &p, None).is_ok());
    p[1].hand[k("2s").index()] = 0;
    p[1].melds.push(Meld {
        kind: MeldType::Pong,
        card: k("2s"),
    });
    assert!(matches!(score_deal(ind, S0, &p, None), Err(ScoreError::BadMeld { .. })));
}

#[test]
fn a_win_must_fit_the_deal() {
    let (players, win) = won_deal();
    let ind = indicators();
    let score = |dealer: Seat, p: &[PlayerHand; 3], w: &Win| score_deal(ind, dealer, p, Some(w));
    let bad_win = |r: Result<_, ScoreError>| matches!(r, Err(ScoreError::BadWin { seat, .. }) if seat == S1);
    assert!(score(S0, &players, &win).is_ok());
    assert!(bad_win(score(S0, &players, &Win { heavenly: true, ..win })));
    assert!(score(S1, &players, &Win { heavenly: true, ..win }).is_ok());
    assert!(bad_win(score(
        S0,
        &players,
        &Win {
            source: WinSource::RobbedKong,
            ..win
        }
    )));
    assert!(bad_win(score(
        S0,
        &players,
        &Win {
            source: WinSource::KongReplacement,
            ..win
        }
    )));
    assert!(bad_win(score(
        S0,
        &players,
        &Win {
            dealer_first_discard: true,
            ..win
        }
    )));
    let on_first = Win {
        dealer_first_discard: true,
        source: WinSource::Discard,
        ..win
    };
    assert!(score(S0, &players, &on_first).is_ok());
    assert!(bad_win(score(S1, &players, &on_first)));
    // A robbed kong: another seat keeps its pong of the card (three 5m from seat 2).
    let mut p = players.clone();
    p[2].hand[k("5m").index()] -= 3;
    p[2].hand[k("R").index()] += 3;
    p[0].hand[k("R").index()] -= 3;
    p[0].melds.push(Meld {
        kind: MeldType::Pong,
        card: k("5m"),
    });
    let robbed = Win {
        card: k("5m"),
        source: WinSource::RobbedKong,
        ..win
    };
    assert!(score(S0, &players, &robbed).is_err());
    assert!(score(S0, &p, &robbed).is_ok());
    assert!(bad_win(score(
        S0,
        &p,
        &Win {
            last_card: true,
            ..robbed
        }
    )));
    // The winning card must be in the winning hand.
    assert_eq!(
        score(S0, &players, &Win { card: k("4c"), ..win }),
        Err(ScoreError::NotWinning(S1))
    );
    let mut p = players.clone();
    p[1].hand[k("1m").index()] -= 1;
    p[1].hand[k("8m").index()] += 1;
    p[2].hand[k("8m").index()] -= 1;
    p[2].hand[k("1m").index()] += 1;
    assert_eq!(score(S0, &p, &win), Err(ScoreError::NotWinning(S1)));
}

#[test]
fn winner_total_checks_what_one_hand_can_show() {
    let (players, win) = won_deal();
    assert_eq!(winner_total(indicators(), &players[1], &win), Some(140));
    assert_eq!(
        winner_total(indicators(), &players[1], &Win { card: Kind::R, ..win }),
        None
    );
    // Three T in hand: a fifth T with both indicators T.
    let p = hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 4s 5s 6s 7s 8s 9s T T T W W");
    assert!(winner_total([Kind::T, Kind::W], &p, &win).is_some());
    assert_eq!(winner_total([Kind::T, Kind::T], &p, &win), None);
    // Absurd melds give no total (and no overflow).
    let mut p = players[1].clone();
    p.melds = vec![
        Meld {
            kind: MeldType::Pong,
            card: k("R"),
        };
        100_000
    ];
    assert_eq!(winner_total(indicators(), &p, &win), None);
}

#[test]
fn seats_exist_only_in_range() {
    assert_eq!(Seat::new(3), None);
    assert_eq!(Seat::try_from(255), Err(NoSuchSeat(255)));
    assert_eq!(Seat::ALL.map(|s| s.next()), [S1, S2, S0]);
    assert_eq!(Seat::ALL.map(u8::from), [0, 1, 2]);
    let e: Error = NoSuchSeat(7).into();
    assert_eq!(e.kind(), ErrorKind::BadArgument);
}

#[cfg(feature = "serde")]
mod json {
    use super::*;
    use arbiter_core::nantong::{full_deck, Nantong, Observation, Source};
    use arbiter_core::Game;
    use serde_json::{json, Value};

    #[test]
    fn seats_from_json_are_checked() {
        // Issue: a seat read from outside was trusted, and `Seat(3)` indexed out of bounds.
        assert_eq!(serde_json::from_str::<Seat>("2").unwrap(), S2);
        for bad in ["3", "255", "256", "-1", "\"1\""] {
            assert!(serde_json::from_str::<Seat>(bad).is_err(), "{bad}");
        }
        let g = Nantong::new(4);
        let mut o = serde_json::to_value(g.observation(S0)).unwrap();
        o["seat"] = json!(3);
        assert!(serde_json::from_value::<Observation>(o).is_err());
        let mut saved = serde_json::to_value(&g).unwrap();
        saved["dealer"] = json!(3);
        assert!(serde_json::from_value::<Nantong>(saved).is_err());
    }

    fn first_score_case() -> Value {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../conformance/nantong-worked-examples.jsonl"
        ))
        .unwrap();
        text.lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|c| c["kind"] == "score" && c["win"]["source"] == "self_draw")
            .unwrap()
    }

    #[test]
    fn a_finished_deal_reads_a_whole_conformance_case() {
        let case = first_score_case();
        let deal: FinishedDeal = serde_json::from_value(case.clone()).unwrap();
        let s = deal.score();
        assert_eq!(json!(s.totals), case["expect"]["totals"]);
        assert_eq!(json!(s.settlement), case["expect"]["settlement"]);
        // It writes back what it read.
        let again: FinishedDeal = serde_json::from_value(serde_json::to_value(&deal).unwrap()).unwrap();
        assert_eq!(again, deal);
        // `win` is required: null for an exhausted deal, never forgotten.
        let mut c = case.clone();
        c.as_object_mut().unwrap().remove("win");
        assert!(serde_json::from_value::<FinishedDeal>(c).is_err());
        // Only a heavenly win may leave out its card and source.
        let mut c = case.clone();
        c["win"].as_object_mut().unwrap().remove("card");
        assert!(serde_json::from_value::<FinishedDeal>(c.clone()).is_err());
        c["win"].as_object_mut().unwrap().remove("source");
        c["win"]["heavenly"] = json!(true);
        let err = serde_json::from_value::<FinishedDeal>(c.clone())
            .unwrap_err()
            .to_string();
        assert!(err.contains("only the dealer"), "{err}");
        c["dealer"] = c["win"]["seat"].clone();
        let deal = serde_json::from_value::<FinishedDeal>(c).unwrap();
        assert!(deal.win().unwrap().heavenly);
    }

    #[test]
    fn huge_lists_are_refused_as_they_are_read() {
        let mut case = first_score_case();
        case["players"][0]["melds"] = json!(vec![json!({"type": "pong", "card": "5m"}); 17]);
        let err = serde_json::from_value::<FinishedDeal>(case.clone())
            .unwrap_err()
            .to_string();
        assert!(err.contains("at most eight melds"), "{err}");
        case["players"][0]["melds"] = json!([]);
        case["players"][0]["hand"] = json!(vec!["T"; 100_000]);
        let err = serde_json::from_value::<FinishedDeal>(case).unwrap_err().to_string();
        assert!(err.contains("more than four T"), "{err}");
    }

    #[test]
    fn a_score_reads_well_as_json() {
        let (players, win) = won_deal();
        let s = score_deal(indicators(), S0, &players, Some(&win)).unwrap();
        let v = serde_json::to_value(&s).unwrap();
        let winner = &v["players"][1];
        assert_eq!(
            winner["bonuses"],
            json!([
                {"name": "self-draw", "value": 10},
                {"name": "qing hu", "value": 100},
                {"name": "wenqian", "value": 20},
                {"name": "winning card completes pair, middle, 3 of 1-2-3 or 7 of 7-8-9", "value": 10},
            ])
        );
        assert_eq!(winner["total"], 140);
        assert_eq!(v["totals"][1], 140);
        let kong = Meld {
            kind: MeldType::ExposedKong,
            card: Kind::R,
        };
        // Seat 0 konged its four R and drew 4c as the replacement.
        let mut p = players.clone();
        p[0].hand[Kind::R.index()] = 0;
        p[0].hand[k("4c").index()] += 1;
        p[0].melds.push(kong);
        let v = serde_json::to_value(score_deal(indicators(), S0, &p, Some(&win)).unwrap()).unwrap();
        let group = &v["players"][0]["groups"][0];
        assert_eq!(group["source"], "exposed_kong");
        let source: Source = serde_json::from_value(group["source"].clone()).unwrap();
        assert_eq!(source, Source::Meld(MeldType::ExposedKong));
        assert_eq!(group["doublings"], json!(["old general"]));
        assert_eq!(group["value"], 16);
    }

    #[test]
    fn crafted_saves_are_refused() {
        let mut g = Nantong::new(9);
        for _ in 0..4 {
            let a = g.legal_moves()[0];
            g.play(a).unwrap();
        }
        let saved = serde_json::to_value(&g).unwrap();
        let mut bad = saved.clone();
        bad["actions"][2]["action"] = json!("win");
        let err = serde_json::from_value::<Nantong>(bad).unwrap_err().to_string();
        assert!(err.contains("saved action 2") && err.contains("refused"), "{err}");
        let mut bad = saved.clone();
        bad["deck"][0] = bad["deck"][1].clone();
        assert!(serde_json::from_value::<Nantong>(bad).is_err());
        let mut bad = saved.clone();
        bad["deck"] = json!(full_deck()
            .iter()
            .map(|c| c.to_string())
            .chain(["T".into()])
            .collect::<Vec<_>>());
        assert!(serde_json::from_value::<Nantong>(bad).is_err());
        let mut bad = saved;
        bad["actions"][0]["action"] = json!("discard 0z");
        assert!(serde_json::from_value::<Nantong>(bad).is_err());
    }
}

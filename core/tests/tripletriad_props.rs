//! Invariants of Triple Triad over random setups, rules and move sequences.

use arbiter_core::tripletriad::*;
use arbiter_core::{perft, Game};
use proptest::prelude::*;

fn card(i: usize) -> impl Strategy<Value = Card> {
    (prop::array::uniform4(1u8..=10), 0usize..9, 0u32..20, 0usize..5).prop_map(move |(ranks, e, power, ty)| {
        let mut c = Card::new(&format!("card{i}"), ranks)
            .with_element(Element::ALL[e])
            .with_power(power);
        c.card_type = CardType::ALL[ty];
        c
    })
}

fn rules() -> impl Strategy<Value = Rules> {
    (prop::array::uniform20(any::<bool>()), 1u8..=2).prop_map(|(f, min)| {
        let borderless = f[9];
        // The FFXIV flags, one of each contradictory pair; Ascension and Descension leave out
        // the FF8 rules that read printed ranks or edges (`setup` drops the walls).
        let typed = f[14] && !f[2] && !f[4] && !f[7] && !f[8];
        Rules {
            reverse: f[12],
            fallen_ace: f[13],
            ascension: typed && f[15],
            descension: typed && !f[15],
            order: f[16] && !f[17],
            chaos: f[17],
            swap: f[18],
            open: f[0],
            same: f[1],
            same_wall: f[1] && f[2] && !borderless,
            plus: f[3],
            plus_wall: f[3] && f[4] && !borderless,
            combo: f[5],
            combo_from_basic: f[6],
            battle: f[7],
            elemental: f[8],
            borderless,
            elemental_clamp: f[10],
            same_min_matches: min,
            ..Rules::default()
        }
    })
}

fn walls() -> impl Strategy<Value = Vec<Wall>> {
    // One candidate segment per border cell; the corner cells pick one of their two sides.
    let segments = [
        (0, Side::Top),
        (1, Side::Top),
        (2, Side::Right),
        (3, Side::Left),
        (5, Side::Right),
        (6, Side::Bottom),
        (7, Side::Bottom),
        (8, Side::Bottom),
    ];
    prop::collection::vec((0usize..8, 0usize..3, 0u32..20), 0..4).prop_map(move |ws| {
        let mut out: Vec<Wall> = Vec::new();
        for (s, cmp, v) in ws {
            let (cell, side) = segments[s];
            if out.iter().all(|w| w.cell != cell) {
                let comparison = [Comparison::Greater, Comparison::Less, Comparison::Equal][cmp];
                out.push(Wall {
                    cell,
                    side,
                    label: WallLabel { comparison, value: v },
                });
            }
        }
        out
    })
}

/// A valid setup: a random partial board (filled by random earlier owners), hands sized so that
/// the mover holds as many cards as the opponent or one more.
fn setup() -> impl Strategy<Value = Setup> {
    (
        rules(),
        walls(),
        prop::array::uniform9(prop::option::of(0usize..9)),
        prop::collection::vec(card(0), 10),
        0usize..=9,
        any::<bool>(),
        prop::array::uniform9(any::<bool>()),
        (prop::collection::vec(0u8..5, 0..10), 0u8..5, 0u8..5, any::<bool>()),
    )
        .prop_map(
            |(rules, walls, elements, mut cards, filled, blue_first, owners, (draws, i, j, swap))| {
                for (i, c) in cards.iter_mut().enumerate() {
                    c.name = format!("card{i}");
                }
                let typed = rules.ascension || rules.descension;
                let walls = if rules.borderless || typed { Vec::new() } else { walls };
                let empty = 9 - filled;
                let total = empty + 1;
                let (mine, theirs) = (total - total / 2, total / 2);
                let to_move = if blue_first { Player::Blue } else { Player::Red };
                let mut it = cards.into_iter();
                let mut board: [Option<Placed>; 9] = Default::default();
                for (cell, slot) in board.iter_mut().enumerate().take(filled) {
                    let owner = if owners[cell] { Player::Blue } else { Player::Red };
                    *slot = Some(Placed {
                        card: it.next().unwrap(),
                        owner,
                    });
                }
                let mut hands = Hands::default();
                *hands.get_mut(to_move) = it.by_ref().take(mine).collect();
                *hands.get_mut(to_move.other()) = it.take(theirs).collect();
                // Chaos draws for some of the coming turns, each within its mover's hand then.
                let mut chaos_draws = Vec::new();
                if rules.chaos {
                    let mut held = [mine, theirs];
                    for (turn, raw) in draws.into_iter().take(empty).enumerate() {
                        chaos_draws.push(raw % held[turn % 2] as u8);
                        held[turn % 2] -= 1;
                    }
                }
                Setup {
                    rules,
                    elements: elements.map(|e| e.map(|i| Element::ALL[i])),
                    walls,
                    board,
                    hands,
                    to_move,
                    chaos_draws,
                    swap: (rules.swap && swap && filled == 0).then_some(Swap { blue: i, red: j }),
                }
            },
        )
}

fn closed_form(g: &TripleTriad, depth: u32) -> u64 {
    // Captures never change how many cells are empty or how many cards each hand holds; Order
    // and a known Chaos draw leave one card to play.
    let (rules, draws) = (*g.rules(), g.setup().chaos_draws);
    let mut empty = (0..9).filter(|&c| g.cell(c).is_none()).count() as u64;
    let mut hands = [
        g.hand_len(g.next_player()) as u64,
        g.hand_len(g.next_player().other()) as u64,
    ];
    let mut n = 1;
    for turn in 0..depth as usize {
        if empty == 0 {
            return 0;
        }
        let forced = rules.order || turn < draws.len();
        n *= empty * if forced { hands[0].min(1) } else { hands[0] };
        empty -= 1;
        hands[0] -= 1;
        hands.swap(0, 1);
    }
    n
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn playouts_keep_every_invariant(s in setup(), picks in prop::collection::vec((0u8..6, 0u8..10), 10)) {
        let mut g = TripleTriad::new(&s).unwrap();
        for (card, cell) in picks {
            prop_assert_eq!(g.score(Player::Blue) + g.score(Player::Red), 10);
            let legal = g.legal_moves();
            prop_assert_eq!(legal.len() as u64, closed_form(&g, 1));
            let mv = Move { card, cell };
            let before = g.clone();
            let offered = legal.contains(&mv);
            match g.play(mv) {
                Ok(()) => prop_assert!(offered, "{} accepted but not offered", mv),
                Err(_) => {
                    prop_assert!(!offered, "{} offered but refused", mv);
                    prop_assert_eq!(&g, &before);
                    if let Some(&first) = legal.first() {
                        g.play(first).unwrap();
                    }
                }
            }
            // Playing on a copy never touches the original.
            prop_assert_eq!(before.clone(), before);
        }
        prop_assert_eq!(g.score(Player::Blue) + g.score(Player::Red), 10);
    }

    #[test]
    fn every_offered_move_is_accepted(s in setup()) {
        let g = TripleTriad::new(&s).unwrap();
        for mv in g.legal_moves() {
            let mut h = g.clone();
            prop_assert!(h.play(mv).is_ok());
            prop_assert_eq!(h.score(Player::Blue) + h.score(Player::Red), 10);
            prop_assert_eq!(g.action_move(g.action_id(mv).unwrap()), Some(mv));
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_round_trip(s in setup()) {
        let g = TripleTriad::new(&s).unwrap();
        let json = serde_json::to_string(&g).unwrap();
        let back: TripleTriad = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, &g);
        prop_assert_eq!(back.legal_moves(), g.legal_moves());
        let again: Setup = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        prop_assert_eq!(again, s);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn observations_hide_unplayed_opponent_cards(s in setup()) {
        let g = TripleTriad::new(&s).unwrap();
        for p in Player::BOTH {
            let o = g.observation(p);
            let json = serde_json::to_string(&o).unwrap();
            prop_assert_eq!(o.hand.len(), g.hand_len(p));
            prop_assert_eq!(o.opponent_hand.len(), g.hand_len(p.other()));
            for c in g.hand(p.other()) {
                let shown = json.contains(&format!("\"{}\"", c.name));
                prop_assert_eq!(shown, g.rules().open, "{} of {} seen by {}", c.name, p.other(), p);
            }
        }
    }

    #[test]
    fn perft_matches_generic_and_closed_form(s in setup(), depth in 0u32..4) {
        let g = TripleTriad::new(&s).unwrap();
        let n = g.perft(depth);
        prop_assert_eq!(n, perft(&g, depth));
        prop_assert_eq!(n, closed_form(&g, depth));
    }
}

/// Plain minimax over the full tree: the reference the solver is checked against.
fn minimax(g: &TripleTriad) -> i32 {
    if g.is_over() {
        let me = g.next_player();
        return g.score(me) as i32 - g.score(me.other()) as i32;
    }
    g.legal_moves()
        .iter()
        .map(|&mv| {
            let mut h = g.clone();
            h.play_unchecked(mv);
            -minimax(&h)
        })
        .max()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    #[test]
    fn solver_agrees_with_minimax(mut s in setup()) {
        // At most five empty cells keeps plain minimax quick.
        let g0 = TripleTriad::new(&s).unwrap();
        let empty = (0..9).filter(|&c| g0.cell(c).is_none()).count();
        prop_assume!(empty <= 5);
        s.rules.open = false; // the solver reads both hands whatever `open` says
        let g = TripleTriad::new(&s).unwrap();
        let want = minimax(&g);
        let got = solve(&g);
        prop_assert_eq!(got.value, want);
        if let Some(mv) = got.best_move {
            let mut h = g.clone();
            h.play(mv).unwrap();
            prop_assert_eq!(-minimax(&h), want, "best move {} does not reach the value", mv);
        } else {
            prop_assert!(g.is_over());
        }
    }
}

/// The FFXIV rules a match draws for or replays: Three Open or All Open, Order or Chaos, Swap,
/// Sudden Death, on equal-ish cards so that draws (and so restarts) come often.
#[cfg(feature = "serde")]
fn ffxiv_rules() -> impl Strategy<Value = Rules> {
    prop::array::uniform6(any::<bool>()).prop_map(|f| Rules {
        three_open: f[0] && !f[1],
        all_open: f[1],
        order: f[2] && !f[3],
        chaos: f[3],
        swap: f[4],
        sudden_death: f[5],
        ..Rules::default()
    })
}

#[cfg(feature = "serde")]
fn ffxiv_hand(prefix: &'static str) -> impl Strategy<Value = Vec<Card>> {
    prop::collection::vec(prop::array::uniform4(4u8..=6), 5).prop_map(move |ranks| {
        ranks
            .into_iter()
            .enumerate()
            .map(|(i, r)| Card::new(&format!("{prefix}{i}"), r))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// A match under FFXIV rules: every move it offers is accepted and none other; under
    /// Chaos the offered moves play the mover's draw, which only the mover sees; an observer
    /// sees exactly the opponent's cards its observation shows faces for (three or four at the
    /// start of a Three Open match, five under All Open), no byte of the others; and the same seed
    /// and moves replay the same match.
    #[cfg(feature = "serde")]
    #[test]
    fn ffxiv_matches_offer_what_they_accept_and_hide_what_they_hide(
        rules in ffxiv_rules(),
        blue in ffxiv_hand("b"),
        red in ffxiv_hand("r"),
        seed in any::<u64>(),
        picks in prop::collection::vec(0usize..45, 60),
    ) {
        let config = MatchConfig { rules, ..MatchConfig::default() };
        let mut m = Match::new(config.clone(), blue.clone(), red.clone(), seed).unwrap();
        let mut played = Vec::new();
        for pick in picks {
            if m.is_over() {
                break;
            }
            let g = m.game();
            let mover = g.next_player();
            let legal = g.legal_moves();
            for p in Player::BOTH {
                let o = m.observation(p);
                let json = serde_json::to_string(&o).unwrap();
                prop_assert_eq!(o.opponent_hand.len(), g.hand_len(p.other()));
                for (c, face) in g.hand(p.other()).zip(&o.opponent_hand) {
                    prop_assert_eq!(face.is_some(), json.contains(&format!("\"{}\"", c.name)));
                    prop_assert!(!rules.all_open || face.is_some());
                }
                let start = g.hand_len(p.other()) == 5 && g.hand_len(p) == 5;
                if rules.three_open && start {
                    // Three drawn, and a card this observer gave under Swap or took back.
                    let shown = o.opponent_hand.iter().flatten().count();
                    prop_assert!((3..=4).contains(&shown) || m.round_number() > 1, "{} shown", shown);
                }
                match (rules.chaos, p == mover) {
                    (true, true) => {
                        prop_assert_eq!(o.chaos_draws.len(), 1);
                        prop_assert!(legal.iter().all(|mv| mv.card == o.chaos_draws[0]));
                    }
                    _ => prop_assert!(o.chaos_draws.is_empty()),
                }
            }
            let mv = Move { card: (pick / 9) as u8, cell: (pick % 9) as u8 };
            let offered = legal.contains(&mv);
            let mv = if offered { mv } else {
                prop_assert!(m.clone().play(mv).is_err(), "{} accepted but not offered", mv);
                legal[pick % legal.len()]
            };
            m.play(mv).unwrap();
            played.push(mv);
        }
        prop_assert!(m.round_number() <= 5 || !rules.sudden_death);
        let mut again = Match::new(config, blue, red, seed).unwrap();
        for mv in played {
            again.play(mv).unwrap();
        }
        prop_assert_eq!(again.game(), m.game());
        prop_assert_eq!(again.rounds(), m.rounds());
        for p in Player::BOTH {
            prop_assert_eq!(again.observation(p), m.observation(p));
        }
    }
}

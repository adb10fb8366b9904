//! The checks behind the fuzz targets. Each takes raw bytes, builds whatever the bytes describe
//! through the public API, and asserts invariants, not just the absence of a panic: refused moves
//! leave the state unchanged, saves load back equal, scores total what they must, observations hide
//! what they must. The libFuzzer binaries in `fuzz_targets/` call them; the test below replays every
//! input kept under `regressions/`, on stable Rust.

use arbiter_core::nantong::{standing, FinishedDeal, Nantong, PlayerHand};
use arbiter_core::trax::{read_record, Move as TraxMove, Trax, Variant};
use arbiter_core::tripletriad::{Match, Move, Player, Setup, TradeChoice, TripleTriad, PRESETS};
use arbiter_core::{Engine, Game, Rng};

mod c_abi;
pub use c_abi::c_abi;
mod hidden;

/// A game, a seed, an observer and a swap, then one byte per action: two worlds that differ only
/// in what the observer never sees must look the same to it at every step (`src/hidden.rs`).
pub fn hidden_information(data: &[u8]) {
    if let Err(leak) = hidden::check(data) {
        panic!("{leak}");
    }
}

/// Bytes read front to back; exhausted input reads as zeros.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }

    fn u64(&mut self) -> u64 {
        (0..8).fold(0, |v, _| v << 8 | self.byte() as u64)
    }

    /// Everything up to the next 0 byte (consumed).
    fn text(&mut self) -> &'a [u8] {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(self.0.len());
        let (text, rest) = self.0.split_at(end);
        self.0 = rest.get(1..).unwrap_or(&[]);
        text
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Plays action ids read from `input` (some out of range), checking after every attempt that a
/// refusal changed nothing (by `snapshot`) and that `invariant` holds.
fn play_ids<G: Game>(
    g: &mut G,
    input: &mut Input,
    id_bytes: usize,
    snapshot: impl Fn(&G) -> String,
    invariant: impl Fn(&G),
) {
    let mut steps = 0;
    while !input.is_empty() && steps < 400 {
        steps += 1;
        let id = (0..id_bytes).fold(0usize, |v, _| v << 8 | input.byte() as usize);
        let id = id % (g.num_distinct_actions() + 8);
        let Some(mv) = g.action_move(id) else {
            assert!(id >= g.num_distinct_actions(), "id {id} names no move");
            continue;
        };
        let offered = g.legal_moves().contains(&mv);
        let before = snapshot(g);
        match g.play(mv) {
            Ok(()) => assert!(offered, "{mv} accepted but not offered"),
            Err(e) => {
                assert!(!offered, "{mv} offered but refused: {e}");
                assert_eq!(snapshot(g), before, "refused {mv} changed the state");
            }
        }
        invariant(g);
    }
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("serialisable")
}

fn round_trips<T: serde::Serialize + serde::de::DeserializeOwned>(v: &T) {
    let text = json(v);
    let back: T = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(json(&back), text);
}

fn triple_triad_invariant(g: &TripleTriad) {
    assert_eq!(g.score(Player::Blue) + g.score(Player::Red), 10);
    round_trips(g);
    for p in Player::BOTH {
        let o = g.observation(p);
        assert_eq!(o.hand.len(), g.hand_len(p));
        assert_eq!(o.opponent_hand.len(), g.hand_len(p.other()));
        assert!(
            // FF8's Open or FFXIV's All Open shows the other hand; nothing else in a round does.
            g.rules().open || g.rules().all_open || o.opponent_hand.iter().all(Option::is_none),
            "hidden cards leak"
        );
    }
    // Whatever play_unchecked is given, the state stays valid.
    for id in [0, 44, 8, 9 * 4 + 8] {
        let mut h = g.clone();
        h.play_unchecked(Move {
            card: (id / 9) as u8,
            cell: (id % 9 + id / 5) as u8,
        });
        assert_eq!(h.score(Player::Blue) + h.score(Player::Red), 10);
    }
}

/// A Triple Triad state as JSON text (up to a 0 byte), then moves as action ids.
pub fn triple_triad_state(data: &[u8]) {
    let mut input = Input(data);
    let Ok(text) = std::str::from_utf8(input.text()) else {
        return;
    };
    let Ok(setup) = serde_json::from_str::<Setup>(text) else {
        return;
    };
    let Ok(mut g) = TripleTriad::new(&setup) else { return };
    triple_triad_invariant(&g);
    play_ids(&mut g, &mut input, 1, json, triple_triad_invariant);
    let depth = input.byte() as u32 % 4;
    assert_eq!(g.perft(depth), arbiter_core::perft(&g, depth));
}

/// A match (JSON text up to a 0 byte, or a preset when the text is empty), moves as action ids,
/// then the trade's picks.
pub fn triple_triad_match(data: &[u8]) {
    let mut input = Input(data);
    let text = input.text();
    let m = if text.is_empty() {
        let name = PRESETS[input.byte() as usize % PRESETS.len()];
        Match::from_preset(name, input.u64()).ok()
    } else {
        std::str::from_utf8(text)
            .ok()
            .and_then(|t| serde_json::from_str::<Match>(t).ok())
    };
    let Some(mut m) = m else { return };
    round_trips(&m);
    let mut steps = 0;
    while !m.is_over() && !input.is_empty() && steps < 400 {
        steps += 1;
        let id = input.byte() as usize % 50;
        let Some(mv) = m.game().action_move(id) else { continue };
        let offered = m.game().legal_moves().contains(&mv);
        let before = json(&m);
        match m.play(mv) {
            Ok(_) => assert!(offered),
            Err(_) => {
                assert!(!offered);
                assert_eq!(json(&m), before);
            }
        }
        assert_eq!(m.timeout_move(), m.timeout_move());
        // A save replays every move: checking it at each of the first moves and at the end keeps
        // the run linear in the moves.
        if steps < 40 {
            round_trips(&m);
        }
    }
    round_trips(&m);
    if let Ok(choice) = m.trade_choice() {
        let picks: Vec<u8> = (0..input.byte() % 7).map(|_| input.byte() % 6).collect();
        let before = json(&m);
        match m.settle_trade(&picks) {
            Ok(transfers) => {
                match choice {
                    TradeChoice::Pick { count, .. } => assert_eq!(transfers.len(), count as usize),
                    TradeChoice::Swap { .. } => assert_eq!(transfers.len(), 2),
                    TradeChoice::Automatic => assert!(picks.is_empty()),
                }
                let back: Match = serde_json::from_str(&json(&m)).unwrap();
                assert_eq!(back.transfers(), Some(&transfers[..]));
            }
            Err(_) => assert_eq!(json(&m), before),
        }
    }
}

fn trax_snapshot(g: &Trax) -> String {
    format!("{g:?} {:?} {:?}", g.size(), g.outcome())
}

/// A variant byte, then Trax text: read as a game record and as moves, then played.
pub fn trax_record(data: &[u8]) {
    let Some((&v, text)) = data.split_first() else { return };
    let variant = [Variant::EightByEight, Variant::Unbounded, Variant::Loop][v as usize % 3];
    let Ok(text) = std::str::from_utf8(text) else { return };
    let _ = read_record(text);
    let mut g = Trax::new(variant);
    for token in text.split_whitespace().take(300) {
        let Ok(mv) = token.parse::<TraxMove>() else { continue };
        assert_eq!(mv.to_string().parse::<TraxMove>().ok(), Some(mv), "{token}");
        let legal = g.legal_moves();
        let before = trax_snapshot(&g);
        match g.play(mv) {
            Ok(()) => {
                assert!(legal.contains(&mv), "{mv} accepted but not offered");
                // Undo then replay gives the same state; a save loads back equal.
                let mut u = g.clone();
                assert_eq!(u.undo(), Some(mv));
                assert_eq!(trax_snapshot(&u), before);
                u.play(mv).unwrap();
                assert_eq!(u, g);
                let back: Trax = serde_json::from_str(&json(&g)).unwrap();
                assert_eq!(back, g);
            }
            Err(_) => {
                assert!(!legal.contains(&mv), "{mv} offered but refused");
                assert_eq!(trax_snapshot(&g), before);
            }
        }
        assert_eq!(g.perft(1), g.legal_moves().len() as u64);
    }
}

fn nantong_snapshot(g: &Nantong) -> String {
    format!("{g:?}")
}

fn nantong_invariant(g: &Nantong) {
    for &seat in Nantong::PLAYERS {
        let o = g.observation(seat);
        assert_eq!(o.hand.len(), g.hand_size(seat));
        assert_eq!(o.hand_sizes[seat.index()], g.hand_size(seat));
        assert!(
            g.to_move() == Some(seat) || o.actions.is_empty(),
            "another seat's actions leak"
        );
    }
    if let Some(s) = g.score() {
        assert_eq!(s.settlement.iter().sum::<i64>(), 0);
    }
}

/// A seed, then actions as two-byte ids.
pub fn nantong_deal(data: &[u8]) {
    let mut input = Input(data);
    let mut g = Nantong::new(input.u64());
    play_ids(&mut g, &mut input, 2, nantong_snapshot, nantong_invariant);
    // The same actions replay to the same deal (a deal from a deck carries no generator for the
    // next deal), and a save loads back equal.
    let replayed = Nantong::replay(g.deck(), g.dealer(), g.history()).expect("its own history replays");
    let without_rng = |n: &Nantong| {
        let mut v = serde_json::to_value(n).unwrap();
        v.as_object_mut().unwrap().remove("rng");
        v
    };
    assert_eq!(without_rng(&replayed), without_rng(&g));
    for &seat in Nantong::PLAYERS {
        assert_eq!(replayed.observation(seat), g.observation(seat));
    }
    let back: Nantong = serde_json::from_str(&json(&g)).unwrap();
    assert_eq!(back, g);
}

/// A conformance `score` input (or a `winning` one) as JSON text.
pub fn nantong_score(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(deal) = serde_json::from_str::<FinishedDeal>(text) {
        let s = deal.score();
        assert_eq!(s.settlement.iter().sum::<i64>(), 0);
        assert!(s.totals.iter().all(|t| t % 10 == 0));
        round_trips(&deal);
    }
    // The `winning` input: a hand and its melds.
    if let Ok(p) = serde_json::from_str::<PlayerHand>(text) {
        let s = standing(&p.hand, &p.melds);
        // Each wait completes the hand: the same hand with it added is winning.
        for k in &s.waits {
            let mut more = p.hand;
            more[k.index()] += 1;
            assert!(standing(&more, &p.melds).winning, "{k} is no wait");
        }
    }
}

/// A game byte, a level byte, then action ids of four bytes (most out of range) into that game,
/// with the built-in opponents asked along the way.
pub fn action_ids(data: &[u8]) {
    let mut input = Input(data);
    let game = input.byte() % 3;
    let level = input.byte();
    let seed = input.u64();
    match game {
        0 => {
            let Ok(mut g) = TripleTriad::from_preset(PRESETS[seed as usize % PRESETS.len()], seed) else {
                return;
            };
            any_ids(&mut g, &mut input, level, seed, json);
        }
        1 => {
            let mut g = Trax::new([Variant::EightByEight, Variant::Unbounded, Variant::Loop][seed as usize % 3]);
            any_ids(&mut g, &mut input, level, seed, trax_snapshot);
        }
        _ => any_ids(&mut Nantong::new(seed), &mut input, level, seed, nantong_snapshot),
    }
}

fn any_ids<G: Engine>(g: &mut G, input: &mut Input, level: u8, seed: u64, snapshot: impl Fn(&G) -> String) {
    let mut rng = Rng::new(seed);
    let mut asked = 0;
    for _ in 0..300 {
        if input.is_empty() {
            break;
        }
        let id = input.u64() as usize;
        let before = snapshot(g);
        let played = g.action_move(id).map(|mv| g.play(mv).is_ok());
        if played != Some(true) {
            assert_eq!(snapshot(g), before);
        }
        // The strongest levels search: a few questions per input keep the runs short.
        if !id.is_multiple_of(8) || asked == 1 {
            continue;
        }
        asked += 1;
        let name = G::LEVELS.get(level as usize % 4).copied().unwrap_or("no such level");
        match g.choose(name, &mut rng) {
            Ok(Some(mv)) => assert!(g.legal_moves().contains(&mv), "{} {name} chose {mv}", G::NAME),
            Ok(None) => assert!(g.is_over()),
            Err(_) => assert!(!G::LEVELS.contains(&name)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every kept input of every target runs through its check (a finding stays fixed).
    #[test]
    fn regressions_replay() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
        type Check = fn(&[u8]);
        let targets: [(&str, Check); 8] = [
            ("triple_triad_state", super::triple_triad_state),
            ("triple_triad_match", super::triple_triad_match),
            ("trax_record", super::trax_record),
            ("nantong_deal", super::nantong_deal),
            ("nantong_score", super::nantong_score),
            ("action_ids", super::action_ids),
            ("c_abi", super::c_abi),
            ("hidden_information", super::hidden_information),
        ];
        let mut replayed = 0;
        for (name, check) in targets {
            let Ok(entries) = std::fs::read_dir(dir.join(name)) else {
                continue;
            };
            for entry in entries {
                let path = entry.unwrap().path();
                let data = std::fs::read(&path).unwrap();
                let outcome = std::panic::catch_unwind(|| check(&data));
                assert!(outcome.is_ok(), "{} fails again", path.display());
                replayed += 1;
            }
        }
        assert!(replayed > 0, "no regression inputs found under {}", dir.display());
    }
}

//! A whole match of each game between two clients over real sockets (Nantong: two people and a
//! computer seat), a spectator watching, and every frame any of them receives checked against
//! the true hidden state.

mod common;

use common::truth::{check_frames, rng, variant, Truth};
use common::{moves_of, start_match, Client, Database, Server};
use serde_json::{json, Value};

/// A spectator of a match, and the ply it joined at.
struct Watcher<'a> {
    client: &'a mut Client,
    /// The moves already played when it joined: its `spectate` answer listed them, and no
    /// `moved` frame of theirs ever reaches it.
    joined: u64,
}

/// `client` spectates match `id`. A computer seat may have moved by then (in Nantong it deals
/// and finishes its preparation at once): those moves come in the answer's move list.
async fn spectate(client: &mut Client, id: i64) -> Watcher<'_> {
    let state = client.request(json!({"type": "spectate", "match": id})).await;
    assert_eq!(state["type"], "match_state", "{state}");
    assert!(state["seat"].is_null());
    let joined = state["ply"].as_u64().unwrap();
    Watcher { client, joined }
}

/// Plays match `id` to its end: the seat to act (by the truth) sends a random legal move, and
/// every seat and the spectators wait for its `moved` (a spectator only for the moves after it
/// joined). Returns the states after each ply.
async fn play_out(
    id: i64,
    seats: &mut [Option<&mut Client>],
    watchers: &mut [Watcher<'_>],
    mut truth: Truth,
    seed: u64,
) -> Vec<Truth> {
    let mut states = vec![truth.clone()];
    let mut r = rng(seed);
    let mut ply = 0u64;
    while let Some(to_move) = truth.to_move() {
        let mv = match seats[to_move].as_deref_mut() {
            Some(client) => {
                let mv = truth.pick(&mut r);
                client
                    .send(json!({"type": "move", "match": id, "move": mv, "ply": ply}))
                    .await;
                Some(mv)
            }
            None => None, // a computer seat: the server moves
        };
        ply += 1;
        let mut told: Option<Value> = None;
        let mut all: Vec<&mut Client> = seats.iter_mut().flatten().map(|c| &mut **c).collect();
        all.extend(watchers.iter_mut().filter(|w| ply > w.joined).map(|w| &mut *w.client));
        for c in all {
            let m = c.moved(id, ply).await;
            if let Some(t) = &told {
                assert_eq!((&m["move"], &m["seat"]), (&t["move"], &t["seat"]));
            }
            told = Some(m);
        }
        let told = told.unwrap();
        assert_eq!(told["seat"], to_move);
        if let Some(mv) = mv {
            assert_eq!(told["move"], mv);
        }
        assert_eq!(told["timeout"], false);
        truth.play(told["move"].as_str().unwrap());
        states.push(truth.clone());
        assert!(ply < 5000, "the match never ends");
    }
    states
}

fn check_all(id: i64, seats: &[Option<&mut Client>], spectators: &[Watcher<'_>], states: &[Truth]) {
    for (s, c) in seats.iter().enumerate() {
        if let Some(c) = c {
            let n = check_frames(&c.frames, id, Some(s), states);
            assert!(
                n >= states.len(),
                "seat {s} checked {n} frames for {} states",
                states.len()
            );
        }
    }
    for w in spectators {
        // Its `spectate` answer, and a `moved` for each ply after it.
        let n = check_frames(&w.client.frames, id, None, states);
        assert!(
            n > states.len() - 1 - w.joined as usize,
            "the spectator (joined at ply {}) checked {n} frames for {} states",
            w.joined,
            states.len()
        );
    }
}

/// A server whose rate limit lets test clients play as fast as it answers (a person's pace is
/// far below the default; these clients answer every claim question at once), and whose claim
/// pause holds no pass.
fn fast(db: &Database) -> Server {
    Server::start_with(db, &["--rate", "2000", "--burst", "2000", "--claim-pause-ms", "0"])
}

async fn stats(c: &mut Client, game: &str) -> Value {
    let s = c.request(json!({"type": "stats"})).await;
    s["games"][game].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn triple_triad_closed_hands_rounds_and_a_spectator() {
    let db = Database::fresh().await;
    let server = fast(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    alice.deck().await;
    bob.deck().await;
    let nb = bob.name();
    bob.request(json!({"type": "lobby"})).await;
    let challenge = json!({"game": "triple-triad", "options": {"preset": "mush", "round_limit": 3},
        "seats": [{"kind": "me"}, {"kind": "player", "name": nb}], "time": 60});
    let mut cl = challenge.clone();
    cl["type"] = "challenge".into();
    let made = alice.request(cl).await;
    let cid = made["challenge"]["id"].as_i64().unwrap();
    // The invitation reaches bob live, with the rules.
    let open = bob
        .expect_where(|v| v["type"] == "challenge_open" && v["challenge"]["id"] == cid)
        .await;
    assert_eq!(open["challenge"]["options"]["preset"], "mush");
    assert_eq!(
        bob.request(json!({"type": "accept", "challenge": cid})).await["seat"],
        1
    );
    let started = alice.expect("match_started").await;
    let id = started["match"]["id"].as_i64().unwrap();
    bob.expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
        .await;
    alice
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
        .await;
    // The lobby lists it with its rules; a spectator (not even logged in) watches.
    let lobby = bob.request(json!({"type": "lobby"})).await;
    assert!(lobby["matches"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["id"] == id && m["options"]["round_limit"] == 3));
    let mut carol = Client::connect(&server).await;
    let mut watchers = [spectate(&mut carol, id).await];

    let seed = db.seed(id).await;
    let truth = Truth::tt("mush", Some(3), 60, seed, db.hands(id).await);
    let mut seats = [Some(&mut alice), Some(&mut bob)];
    let states = play_out(id, &mut seats, &mut watchers, truth, seed).await;
    let Truth::Tt(m) = states.last().unwrap() else {
        unreachable!()
    };
    let result = m.result().unwrap();
    let over = seats[0].as_deref_mut().unwrap().over(id).await;
    seats[1].as_deref_mut().unwrap().over(id).await;
    watchers[0].client.over(id).await;
    let winner = result.winner.map(|w| w as usize);
    assert_eq!(over["result"]["winners"], json!(winner.into_iter().collect::<Vec<_>>()));
    assert_eq!(over["result"]["scores"], json!(result.scores));
    check_all(id, &seats, &watchers, &states);
    // Stats count the match for both.
    for (s, c) in seats.iter_mut().enumerate() {
        let st = stats(c.as_deref_mut().unwrap(), "triple-triad").await;
        assert_eq!(st["played"], 1);
        let expected = match winner {
            None => "drawn",
            Some(w) if w == s => "won",
            Some(_) => "lost",
        };
        assert_eq!(st[expected], 1, "{st}");
    }
}

/// A challenge under FFXIV's rules: the people play FFXIV decks the core deals from the seed
/// (their collections hold FF8 cards: their decks are not played, and a deck named, five cards
/// picked or a stake are refused with the reason). Three Open shows each seat three of the
/// opponent's five, and the card it gave under Swap; no frame of a seat or a spectator ever
/// carries the others. Chaos tells the mover its card; Sudden Death runs as the core's match does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn triple_triad_under_ffxiv_rules_shows_three_open_cards_only() {
    let db = Database::fresh().await;
    let server = fast(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    alice.deck().await;
    bob.deck().await;
    let options = json!({"preset": "ffxiv",
        "rules": {"three_open": true, "chaos": true, "swap": true, "sudden_death": true}});
    let nb = bob.name();
    let to_bob = |options: Value| {
        json!({"type": "challenge", "game": "triple-triad", "options": options, "time": 60,
               "seats": [{"kind": "me"}, {"kind": "player", "name": nb}]})
    };
    for (extra, said) in [
        (json!({"deck": "Main"}), "options.deck: under FFXIV's cards"),
        (
            json!({"stake": {"trade": "one", "gils": 0, "customs": "mush"}}),
            "options.stake: under FFXIV's cards",
        ),
    ] {
        let mut o = options.clone();
        o.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let r = alice.refused(to_bob(o), "bad_challenge").await;
        assert!(r["message"].as_str().unwrap().contains(said), "{r}");
    }
    let mut picked = to_bob(options.clone());
    picked["cards"] = json!(["A1", "A2", "A3", "A4", "A5"]);
    let r = alice.refused(picked, "bad_challenge").await;
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("under FFXIV's cards (dealt from the seed)"),
        "{r}"
    );
    let id = start_match(
        &mut alice,
        &mut [&mut bob],
        json!({"game": "triple-triad", "options": options, "time": 60,
               "seats": [{"kind": "me"}, {"kind": "player", "name": nb}]}),
    )
    .await;
    let mut carol = Client::connect(&server).await;
    let mut watchers = [spectate(&mut carol, id).await];
    let seed = db.seed(id).await;
    let config = serde_json::from_value::<arbiter_core::tripletriad::Options>(options.clone())
        .unwrap()
        .config()
        .unwrap();
    let dealt = arbiter_core::tripletriad::dealt_hands(&config, seed).unwrap();
    for hand in [&dealt.blue, &dealt.red] {
        assert!(hand
            .iter()
            .all(|c| arbiter_core::tripletriad::ffxiv::card(&c.name).is_some()));
    }
    let truth = Truth::tt_options(&options, 60, seed, dealt);
    for (seat, c) in [&mut alice, &mut bob].into_iter().enumerate() {
        let view = c.request(json!({"type": "sync", "match": id})).await;
        let o = &view["view"]["observation"];
        let theirs = o["opponent_hand"].as_array().unwrap();
        // Three drawn visible, and the card this seat gave under Swap if it is not among them.
        let shown = theirs.iter().filter(|c| !c.is_null()).count();
        assert!((3..=4).contains(&shown), "seat {seat}: {view}");
        let mover = view["to_move"].as_u64() == Some(seat as u64);
        assert_eq!(
            o["chaos_draws"].as_array().map_or(0, Vec::len),
            usize::from(mover),
            "{view}"
        );
    }
    let mut seats = [Some(&mut alice), Some(&mut bob)];
    let states = play_out(id, &mut seats, &mut watchers, truth, seed).await;
    seats[0].as_deref_mut().unwrap().over(id).await;
    seats[1].as_deref_mut().unwrap().over(id).await;
    check_all(id, &seats, &watchers, &states);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trax_between_two_people_to_the_end() {
    let db = Database::fresh().await;
    let server = fast(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    let mut carol = Client::connect(&server).await;
    carol.request(json!({"type": "lobby"})).await; // not logged in: refused, harmless
    let id = start_match(
        &mut alice,
        &mut [&mut bob],
        json!({"game": "trax", "options": {"variant": "8x8"}, "time": 30}),
    )
    .await;
    let mut watchers = [spectate(&mut carol, id).await];
    let mut seats = [Some(&mut alice), Some(&mut bob)];
    let states = play_out(id, &mut seats, &mut watchers, Truth::trax(variant("8x8")), 7).await;
    seats[0].as_deref_mut().unwrap().over(id).await;
    check_all(id, &seats, &watchers, &states);
    // Action ids work as well as notation: a second game, its first move by id.
    let [Some(a), Some(b)] = &mut seats else { unreachable!() };
    let id2 = start_match(a, &mut [&mut **b], json!({"game": "trax"})).await;
    let t = Truth::trax(variant("8x8"));
    let Truth::Trax(g) = &t else { unreachable!() };
    use arbiter_core::{Engine, Game};
    let id_of_first = g.legal_actions()[0];
    let expect = g.action_move(id_of_first).unwrap().to_string();
    a.send(json!({"type": "move", "match": id2, "action": id_of_first, "id": "first"}))
        .await;
    let m = a.moved(id2, 1).await;
    assert_eq!(
        (m["move"].as_str().unwrap(), m["action"].as_u64().unwrap(), &m["re"]),
        (expect.as_str(), id_of_first as u64, &json!("first"))
    );
}

/// A spectator who joins a running match gets the moves so far in its `match_state`, and a
/// `moved` for each later one only: the Nantong test's spectator joins after the computer seat
/// may already have moved, and once waited for a `moved` of such a move that never comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_spectator_gets_the_moves_so_far_then_each_next() {
    let db = Database::fresh().await;
    let server = fast(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    let id = start_match(&mut alice, &mut [&mut bob], json!({"game": "trax", "time": 60})).await;
    let mut truth = Truth::trax(variant("8x8"));
    let mut r = rng(3);
    let first = truth.pick(&mut r);
    alice
        .send(json!({"type": "move", "match": id, "move": first, "ply": 0}))
        .await;
    alice.moved(id, 1).await;
    bob.moved(id, 1).await;
    truth.play(&first);
    let mut carol = Client::connect(&server).await;
    let w = spectate(&mut carol, id).await;
    assert_eq!(w.joined, 1);
    assert_eq!(moves_of(w.client.frames.last().unwrap()), std::slice::from_ref(&first));
    let second = truth.pick(&mut r);
    bob.send(json!({"type": "move", "match": id, "move": second, "ply": 1}))
        .await;
    let next = carol.expect("moved").await;
    assert_eq!((&next["ply"], &next["move"]), (&json!(2), &json!(second)));
    assert_eq!(carol.frames.iter().filter(|f| f["type"] == "moved").count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nantong_two_people_and_a_computer_seat() {
    let db = Database::fresh().await;
    let server = fast(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    let id = start_match(
        &mut alice,
        &mut [&mut bob],
        json!({"game": "nantong", "options": {"deals": 2}, "time": 60,
               "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "computer", "level": "strong"}]}),
    )
    .await;
    let mut carol = Client::connect(&server).await;
    let mut watchers = [spectate(&mut carol, id).await];
    let seed = db.seed(id).await;
    let mut seats = [Some(&mut alice), Some(&mut bob), None];
    let states = play_out(id, &mut seats, &mut watchers, Truth::nantong(seed, 2), seed).await;
    let over = seats[0].as_deref_mut().unwrap().over(id).await;
    assert_eq!(over["result"]["scores"].as_array().unwrap().len(), 3);
    assert_eq!(
        over["result"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_i64().unwrap())
            .sum::<i64>(),
        0
    );
    check_all(id, &seats, &watchers, &states);
    let st = stats(seats[1].as_deref_mut().unwrap(), "nantong").await;
    assert_eq!(st["played"], 1);
}

//! SIGKILL in the middle of several matches, restart on the same database: every match goes on
//! from the last acknowledged move (the move in flight may or may not have been committed,
//! never half), its clock keeps its stored deadline, and a clock that ran out while the server
//! was down plays its timeout move once it is back.

mod common;

use std::time::Duration;

use common::truth::{rng, variant, Truth};
use common::{moves_of, start_match, Client, Database, Server};
use serde_json::json;

/// Plays `n` moves of match `id` between `seats` (a `None` seat is the server's), waiting for
/// each to be acknowledged; returns the acknowledged move list and the last deadline.
async fn advance(
    id: i64,
    seats: &mut [Option<&mut Client>],
    truth: &mut Truth,
    told: &mut Vec<String>,
    n: usize,
    seed: u64,
) -> i64 {
    let mut r = rng(seed);
    let mut deadline = 0;
    for _ in 0..n {
        let Some(to_move) = truth.to_move() else { break };
        let ply = told.len() as u64;
        if let Some(c) = seats[to_move].as_deref_mut() {
            let mv = truth.pick(&mut r);
            c.send(json!({"type": "move", "match": id, "move": mv, "ply": ply}))
                .await;
        }
        let watcher = seats.iter_mut().flatten().next().unwrap();
        let m = watcher.moved(id, ply + 1).await;
        truth.play(m["move"].as_str().unwrap());
        told.push(m["move"].as_str().unwrap().to_owned());
        deadline = m["deadline"].as_i64().unwrap_or(0);
    }
    deadline
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_move_and_clocks_survive() {
    let db = Database::fresh().await;
    let mut server = Server::start_with(&db, &["--rate", "2000", "--burst", "2000"]);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    alice.deck().await;
    bob.deck().await;
    let (ta, tb) = (alice.token.clone().unwrap(), bob.token.clone().unwrap());

    // Trax, Triple Triad and Nantong (with computer seats) with a minute a move, and a Trax
    // whose 15 s clock will run out while the server is down.
    let trax = start_match(&mut alice, &mut [&mut bob], json!({"game": "trax", "time": 60})).await;
    let tt = start_match(
        &mut alice,
        &mut [&mut bob],
        json!({"game": "triple-triad", "options": {"preset": "ff8"}, "time": 60}),
    )
    .await;
    let nt = start_match(
        &mut alice,
        &mut [],
        json!({"game": "nantong", "time": 60, "options": {"deals": 1},
               "seats": [{"kind": "computer", "level": "basic"}, {"kind": "me"}, {"kind": "computer", "level": "random"}]}),
    )
    .await;
    let short = start_match(&mut alice, &mut [&mut bob], json!({"game": "trax", "time": 15})).await;

    let mut t_trax = Truth::trax(variant("8x8"));
    let mut t_tt = Truth::tt("ff8", None, 60, db.seed(tt).await, db.hands(tt).await);
    let mut t_nt = Truth::nantong(db.seed(nt).await, 1);
    let mut t_short = Truth::trax(variant("8x8"));
    let (mut m_trax, mut m_tt, mut m_nt, mut m_short) = (vec![], vec![], vec![], vec![]);
    let d_trax = advance(
        trax,
        &mut [Some(&mut alice), Some(&mut bob)],
        &mut t_trax,
        &mut m_trax,
        7,
        1,
    )
    .await;
    let d_tt = advance(tt, &mut [Some(&mut alice), Some(&mut bob)], &mut t_tt, &mut m_tt, 4, 2).await;
    // Nantong: the computers move at once; alice (seat 1) answers until 40 moves are played.
    let d_nt = advance(nt, &mut [None, Some(&mut alice), None], &mut t_nt, &mut m_nt, 40, 3).await;
    let d_short = advance(
        short,
        &mut [Some(&mut alice), Some(&mut bob)],
        &mut t_short,
        &mut m_short,
        2,
        4,
    )
    .await;
    // One more Trax move in flight as the server dies: committed or not, never half.
    let in_flight = t_trax.pick(&mut rng(9));
    let to_move = t_trax.to_move().unwrap();
    let c = if to_move == 0 { &mut alice } else { &mut bob };
    c.send(json!({"type": "move", "match": trax, "move": in_flight, "ply": m_trax.len()}))
        .await;
    server.kill9();
    drop((alice, bob));

    // Down until the short clock has run out.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    tokio::time::sleep(Duration::from_millis((d_short - now + 500).max(0) as u64)).await;

    let server = Server::start_with(&db, &["--rate", "2000", "--burst", "2000"]);
    let mut alice = Client::connect(&server).await;
    assert_eq!(
        alice.request(json!({"type": "resume", "token": ta})).await["type"],
        "authenticated"
    );
    let mut bob = Client::connect(&server).await;
    assert_eq!(
        bob.request(json!({"type": "resume", "token": tb})).await["type"],
        "authenticated"
    );

    let s_trax = alice
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == trax)
        .await;
    let got = moves_of(&s_trax);
    assert_eq!(&got[..m_trax.len()], &m_trax[..], "Trax lost an acknowledged move");
    assert!(got.len() <= m_trax.len() + 1);
    if got.len() > m_trax.len() {
        assert_eq!(got[m_trax.len()], in_flight);
        t_trax.play(&in_flight);
        m_trax.push(in_flight.clone());
    } else {
        assert_eq!(s_trax["deadline"].as_i64().unwrap(), d_trax, "the Trax clock was reset");
    }
    let s_tt = alice
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == tt)
        .await;
    assert_eq!(moves_of(&s_tt), m_tt);
    assert_eq!(
        s_tt["deadline"].as_i64().unwrap(),
        d_tt,
        "the Triple Triad clock was reset"
    );
    let s_nt = alice
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == nt)
        .await;
    let got_nt = moves_of(&s_nt);
    assert_eq!(&got_nt[..m_nt.len()], &m_nt[..], "Nantong lost an acknowledged move");
    // A computer seat may have answered before the kill: take the server's list as the truth.
    for mv in &got_nt[m_nt.len()..] {
        t_nt.play(mv);
        m_nt.push(mv.clone());
    }
    if got_nt.len() == m_nt.len() && s_nt["deadline"].as_i64().is_some() && t_nt.to_move() == Some(1) {
        assert!(s_nt["deadline"].as_i64().unwrap() >= d_nt);
    }
    // The short clock ran out while the server was down: its timeout move comes now (or has
    // already, before the resume's state was taken).
    let s_short = alice
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == short)
        .await;
    let Truth::Trax(g) = &t_short else { unreachable!() };
    use arbiter_core::Engine;
    let expected = g.timeout_move().unwrap().to_string();
    let timed_out = if moves_of(&s_short).len() > m_short.len() {
        s_short["moves"][m_short.len()].clone()
    } else {
        alice.moved(short, m_short.len() as u64 + 1).await
    };
    assert_eq!(
        (timed_out["move"].as_str().unwrap(), &timed_out["timeout"]),
        (expected.as_str(), &json!(true))
    );

    // Every match plays on from where it stood.
    advance(
        trax,
        &mut [Some(&mut alice), Some(&mut bob)],
        &mut t_trax,
        &mut m_trax,
        3,
        5,
    )
    .await;
    advance(tt, &mut [Some(&mut alice), Some(&mut bob)], &mut t_tt, &mut m_tt, 2, 6).await;
    advance(nt, &mut [None, Some(&mut alice), None], &mut t_nt, &mut m_nt, 5, 7).await;
    let final_trax = bob.request(json!({"type": "sync", "match": trax})).await;
    assert_eq!(moves_of(&final_trax), m_trax);
}

/// Many matches moving at once, so that the server commits their moves in shared batches:
/// SIGKILL amid them, and every move a mover was told of is there after the restart, in order;
/// beyond them at most the one move each match had in flight.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_amid_many_concurrent_matches_loses_no_acknowledged_move() {
    use std::sync::{Arc, Mutex};

    const MATCHES: usize = 12;
    let db = Database::fresh().await;
    let args = ["--rate", "2000", "--burst", "2000", "--hashers", "4"];
    let mut server = Server::start_with(&db, &args);
    let mut players = Vec::new();
    let mut told = Vec::new();
    for i in 0..MATCHES {
        let mut a = Client::player(&server, "a").await;
        let mut b = Client::player(&server, "b").await;
        let id = start_match(&mut a, &mut [&mut b], json!({"game": "trax", "time": 60})).await;
        let list: Arc<Mutex<Vec<String>>> = Arc::default();
        told.push((id, a.token.clone().unwrap(), list.clone()));
        // The pair moves as fast as the server answers; a move counts once its mover is told.
        players.push(tokio::spawn(async move {
            let mut seats = [a, b];
            let mut truth = Truth::trax(variant("8x8"));
            let mut r = rng(100 + i as u64);
            while let Some(to_move) = truth.to_move() {
                let ply = list.lock().unwrap().len() as u64;
                let mv = truth.pick(&mut r);
                let c = &mut seats[to_move];
                c.send(json!({"type": "move", "match": id, "move": mv, "ply": ply}))
                    .await;
                let m = c.moved(id, ply + 1).await;
                assert_eq!(m["move"], mv.as_str());
                truth.play(&mv);
                list.lock().unwrap().push(mv);
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // The players stop where they are, their last moves still in flight, and the server dies.
    for p in &players {
        p.abort();
    }
    server.kill9();
    for p in players {
        if let Err(e) = p.await {
            assert!(e.is_cancelled(), "a player failed: {e}");
        }
    }
    let total: usize = told.iter().map(|(_, _, l)| l.lock().unwrap().len()).sum();
    assert!(
        total >= MATCHES * 4,
        "too few moves before the kill to test anything: {total}"
    );

    let server = Server::start_with(&db, &args);
    for (id, token, list) in &told {
        let acknowledged = list.lock().unwrap().clone();
        let mut c = Client::connect(&server).await;
        assert_eq!(
            c.request(json!({"type": "resume", "token": token})).await["type"],
            "authenticated"
        );
        let stored = moves_of(&c.request(json!({"type": "sync", "match": id})).await);
        assert!(
            stored.len() <= acknowledged.len() + 1
                && stored[..acknowledged.len().min(stored.len())] == acknowledged[..],
            "match {id}: told {acknowledged:?}, stored {stored:?}"
        );
        assert!(
            stored.len() >= acknowledged.len(),
            "match {id}: an acknowledged move was lost"
        );
    }
}

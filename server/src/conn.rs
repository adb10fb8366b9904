//! One WebSocket connection: the `hello` handshake, the rate limit, requests answered in order,
//! and the hub's events written as they come. Whatever a client sends, it gets an error or a
//! close with a reason; nothing it sends reaches another connection's task.

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use arbiter_core::tripletriad::Spectators;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::Row as _;

use crate::accounts::User;
use crate::challenges;
use crate::error::Failure;
use crate::hub::Hub;
use crate::live::{self, Mover};
use crate::protocol::{self, Request, VERSION};
use crate::table::{GameKind, Input};
use crate::told;

/// Refusals for flooding after which the connection is closed.
const FLOOD_CLOSE: u32 = 200;

/// A token bucket: `rate` a second, `burst` at once.
pub(crate) struct Bucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    pub(crate) fn new(rate: u32, burst: u32) -> Bucket {
        Bucket {
            rate: f64::from(rate),
            burst: f64::from(burst),
            tokens: f64::from(burst),
            at: Instant::now(),
        }
    }

    pub(crate) fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

struct Session {
    id: u64,
    /// Where the connection comes from: the login budgets are the address's.
    peer: IpAddr,
    greeted: bool,
    user: Option<User>,
    token: Option<String>,
    /// The frames told once that the request being answered hands over (login, resume): put
    /// back should writing them fail.
    handing: Vec<told::Untold>,
    /// Those handed over: their live copy, queued meanwhile, is not written a second time.
    handed: HashSet<told::Receipt>,
}

/// What handling a frame leads to.
enum Next {
    Reply(Vec<Value>),
    Close(Vec<Value>, u16, &'static str),
}

pub async fn serve(hub: Arc<Hub>, socket: WebSocket, peer: SocketAddr) {
    let id = crate::db::new_id() as u64;
    let mut events = hub.connect(id);
    let (mut sink, mut stream) = socket.split();
    let mut session = Session {
        id,
        peer: peer.ip(),
        greeted: false,
        user: None,
        token: None,
        handing: Vec::new(),
        handed: HashSet::new(),
    };
    let mut bucket = Bucket::new(hub.config.rate, hub.config.burst);
    let mut refused = 0;
    let close = |code: u16, reason: &'static str| {
        Message::Close(Some(CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        }))
    };
    loop {
        let next = tokio::select! {
            frame = stream.next() => match frame {
                None | Some(Ok(Message::Close(_))) => break,
                Some(Err(e)) => {
                    let text = e.to_string();
                    // tungstenite refuses a frame over the limit before reading it.
                    if text.contains("too long") || text.contains("Space limit") || text.contains("size") {
                        let _ = sink.send(close(1009, "too_large")).await;
                        linger(&mut stream).await;
                    }
                    break;
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(frame)) => {
                    if !bucket.take() {
                        refused += 1;
                        if refused >= FLOOD_CLOSE {
                            Next::Close(vec![], 1008, "rate_limited")
                        } else {
                            // The dropped request's id, so that a client knows which one to send again.
                            let re = match &frame {
                                Message::Text(text) => protocol::id_of(text.as_str()),
                                _ => None,
                            };
                            Next::Reply(vec![error(re.as_ref(), &Failure::new("rate_limited", "too many messages: slow down"))])
                        }
                    } else {
                        match frame {
                            Message::Text(text) => handle(&hub, &mut session, text.as_str()).await,
                            _ => Next::Reply(vec![error(None, &Failure::new("bad_json", "binary frames are not spoken here: send JSON text"))]),
                        }
                    }
                }
            },
            out = events.recv() => match out {
                Some(out) => {
                    if out.once.as_ref().is_some_and(|r| session.handed.remove(r)) {
                        continue;
                    }
                    if sink.send(Message::Text(Utf8Bytes::from(&*out.text))).await.is_err() {
                        break;
                    }
                    if let Some(r) = &out.once {
                        told::mark(&hub.pool, r).await;
                    }
                    continue;
                }
                None => {
                    let _ = sink.send(close(1008, "too_slow")).await;
                    break;
                }
            },
        };
        let (replies, closing) = match next {
            Next::Reply(r) => (r, None),
            Next::Close(r, code, reason) => (r, Some((code, reason))),
        };
        let mut failed = false;
        for r in replies {
            if sink.send(Message::Text(r.to_string().into())).await.is_err() {
                failed = true;
                break;
            }
        }
        let handing = std::mem::take(&mut session.handing);
        if failed {
            told::put_back(&hub.pool, &handing).await;
        } else {
            session.handed.extend(handing.into_iter().map(|u| u.receipt));
        }
        if let Some((code, reason)) = closing {
            let _ = sink.send(close(code, reason)).await;
            linger(&mut stream).await;
            break;
        }
        if failed {
            break;
        }
    }
    hub.disconnect(id);
}

/// After sending a close, reads what the client still sends (for a second at most) until its
/// close: dropping a socket with unread data resets it, and the client would never read the
/// reason.
async fn linger(stream: &mut futures_util::stream::SplitStream<WebSocket>) {
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), async {
        while let Some(Ok(m)) = stream.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

fn error(re: Option<&Value>, f: &Failure) -> Value {
    let mut v = json!({"type": "error", "code": f.code, "message": f.message});
    if let Some(re) = re {
        v["re"] = re.clone();
    }
    v
}

fn with_re(mut v: Value, re: &Option<Value>) -> Value {
    if let (Some(re), Some(obj)) = (re, v.as_object_mut()) {
        obj.insert("re".into(), re.clone());
    }
    v
}

async fn handle(hub: &Arc<Hub>, s: &mut Session, text: &str) -> Next {
    // The card economy's messages (`tt_*`) have their own reader.
    if let Some(reply) = crate::economy::protocol::intercept(hub, s.greeted, s.user.as_ref(), text).await {
        return Next::Reply(vec![reply]);
    }
    let (re, request) = protocol::parse(text);
    let request = match request {
        Ok(r) => r,
        Err(f) if !s.greeted => return Next::Close(vec![error(re.as_ref(), &f)], 1002, "hello_first"),
        Err(f) => return Next::Reply(vec![error(re.as_ref(), &f)]),
    };
    match (s.greeted, request) {
        (false, Request::Hello { protocol, .. }) => {
            if protocol != VERSION {
                let f = Failure::new(
                    "protocol_version",
                    format!("this server speaks protocol {VERSION}, not {protocol}"),
                );
                return Next::Close(vec![error(re.as_ref(), &f)], 1002, "protocol_version");
            }
            s.greeted = true;
            Next::Reply(vec![with_re(welcome(hub), &re)])
        }
        (false, _) => {
            let f = Failure::new("hello_first", "the first message is hello with the protocol version");
            Next::Close(vec![error(re.as_ref(), &f)], 1002, "hello_first")
        }
        (true, Request::Logout {}) => {
            if let Some(token) = s.token.take() {
                if let Err(f) = hub.accounts.forget(&token).await {
                    return Next::Reply(vec![error(re.as_ref(), &f)]);
                }
            }
            Next::Close(vec![], 1000, "logout")
        }
        (true, request) => match answer(hub, s, request, &re).await {
            Ok(replies) => Next::Reply(
                replies
                    .into_iter()
                    .enumerate()
                    .map(|(i, r)| if i == 0 { with_re(r, &re) } else { r })
                    .collect(),
            ),
            Err(f) => Next::Reply(vec![error(re.as_ref(), &f)]),
        },
    }
}

fn welcome(hub: &Hub) -> Value {
    let games: serde_json::Map<String, Value> = GameKind::ALL
        .iter()
        .map(|g| (g.name().to_owned(), g.describe()))
        .collect();
    json!({
        "type": "welcome", "protocol": VERSION, "server": concat!("arbiter-server ", env!("CARGO_PKG_VERSION")),
        "limits": {
            "max_frame": hub.config.max_frame, "rate_per_s": hub.config.rate, "burst": hub.config.burst,
            "min_time": challenges::TIME_RANGE.start(), "max_time": challenges::TIME_RANGE.end(),
        },
        "games": games,
    })
}

fn need(s: &Session) -> Result<&User, Failure> {
    s.user
        .as_ref()
        .ok_or_else(|| Failure::new("not_authenticated", "log in first"))
}

/// The replies to a request (the first carries its `re`), or why it was refused.
async fn answer(hub: &Arc<Hub>, s: &mut Session, request: Request, re: &Option<Value>) -> Result<Vec<Value>, Failure> {
    match request {
        Request::Hello { .. } => Err(Failure::new("bad_message", "hello comes once, first")),
        Request::Register { name, password } | Request::Login { name, password } if s.user.is_some() => {
            let _ = (name, password);
            Err(Failure::new("already_authenticated", "this connection is logged in"))
        }
        Request::Resume { .. } if s.user.is_some() => {
            Err(Failure::new("already_authenticated", "this connection is logged in"))
        }
        Request::Register { name, password } => {
            let (user, token) = hub.accounts.register(&name, &password, s.peer).await?;
            Ok(vec![authenticated(hub, s, user, token)])
        }
        Request::Login { name, password } => {
            let (user, token) = hub.accounts.login(&name, &password, s.peer).await?;
            let mut replies = vec![authenticated(hub, s, user.clone(), token)];
            replies.extend(pending_choice(hub, &user).await?);
            replies.extend(untold(hub, s, &user).await?);
            Ok(replies)
        }
        Request::Resume { token } => {
            let user = hub.accounts.resume(&token).await?;
            let mut replies = vec![authenticated(hub, s, user.clone(), token)];
            replies.extend(running_states(hub, &user).await?);
            replies.extend(pending_choice(hub, &user).await?);
            replies.extend(untold(hub, s, &user).await?);
            Ok(replies)
        }
        Request::Logout {} => unreachable!("handled before"),
        Request::Lobby {} => {
            let user = need(s)?.clone();
            hub.subscribe_lobby(s.id);
            Ok(vec![challenges::lobby(hub, &user).await?])
        }
        Request::Challenge {
            game,
            options,
            seats,
            time,
            private,
            broadcast,
        } => {
            let user = need(s)?.clone();
            let spectators = match (private, broadcast) {
                (true, true) => {
                    return Err(Failure::new(
                        "bad_challenge",
                        "a challenge is private (no spectators) or broadcast, not both",
                    ))
                }
                (true, false) => Spectators::Private,
                (false, true) => Spectators::Broadcast,
                (false, false) => Spectators::Open,
            };
            Ok(vec![
                challenges::create(hub, &user, &game, options, seats, time, spectators).await?,
            ])
        }
        Request::Accept { challenge, deck } => {
            let user = need(s)?;
            if let Some(deck) = deck {
                hub.economy.choose_deck(challenge, user.id, &deck).await?;
            }
            Ok(vec![challenges::accept(hub, challenge, user).await?])
        }
        Request::Refuse { challenge } => Ok(vec![challenges::decline(hub, challenge, need(s)?, false).await?]),
        Request::Withdraw { challenge } => Ok(vec![challenges::decline(hub, challenge, need(s)?, true).await?]),
        Request::Move {
            match_id,
            notation,
            action,
            ply,
        } => {
            let user = need(s)?.id;
            let input = match (notation, action) {
                (Some(n), None) => Input::Notation(n),
                (None, Some(a)) => Input::Action(a),
                _ => {
                    return Err(Failure::new(
                        "bad_message",
                        "a move has exactly one of \"move\" and \"action\"",
                    ))
                }
            };
            live::play(
                hub,
                match_id,
                Mover::Person { user, conn: s.id },
                input,
                ply,
                re.clone(),
            )
            .await?;
            Ok(vec![])
        }
        Request::Leave { match_id } => {
            let dnf = live::leave(hub, match_id, need(s)?.id).await?;
            Ok(vec![json!({"type": "left", "match": match_id, "dnf": dnf})])
        }
        Request::Spectate { match_id } => Ok(vec![state_for(hub, s, match_id, true).await?]),
        Request::Unspectate { match_id } => {
            hub.spectate(s.id, match_id, false);
            Ok(vec![json!({"type": "unspectated", "match": match_id})])
        }
        Request::Sync { match_id } => Ok(vec![state_for(hub, s, match_id, false).await?]),
        Request::Spectators { match_id, spectators } => {
            Ok(vec![crate::spectators::set(hub, match_id, need(s)?, spectators).await?])
        }
        Request::Stats { name } => {
            let user = match name {
                Some(n) => hub.accounts.find(&n).await?,
                None => need(s)?.clone(),
            };
            let games = hub.accounts.stats(user.id).await?;
            Ok(vec![json!({"type": "stats", "user": user, "games": games})])
        }
        Request::Ping {} => Ok(vec![json!({"type": "pong", "time": crate::db::now_ms()})]),
    }
}

fn authenticated(hub: &Hub, s: &mut Session, user: User, token: String) -> Value {
    hub.authenticate(s.id, &user);
    let v = json!({"type": "authenticated", "user": user, "token": token});
    s.user = Some(user);
    s.token = Some(token);
    v
}

/// The match as this connection may see it: its seat's view, or the public one. With `watch`,
/// a connection that sits in no seat becomes a spectator in the same moment, the match locked:
/// every move is then either in the state or told to it after.
async fn state_for(hub: &Arc<Hub>, s: &Session, match_id: i64, watch: bool) -> Result<Value, Failure> {
    let user = s.user.as_ref().map(|u| u.id);
    let see = |l: &live::Live| -> Result<Value, Failure> {
        let seat = user.and_then(|u| l.seat_of(u));
        if seat.is_none() && l.spectators == Spectators::Private {
            return Err(Failure::new("private_match", "this match is private: no spectators"));
        }
        if seat.is_none() && watch {
            hub.spectate(s.id, match_id, true);
        }
        Ok(l.state(seat))
    };
    match hub.live(match_id) {
        Some(h) => see(&*h.lock().await),
        None => see(&live::load(&hub.pool, match_id).await?),
    }
}

/// A `match_state` for every running match `user` sits in.
async fn running_states(hub: &Arc<Hub>, user: &User) -> Result<Vec<Value>, Failure> {
    let rows = sqlx::query(
        "SELECT match_seats.match_id AS id FROM match_seats JOIN matches ON matches.id = match_seats.match_id \
         WHERE match_seats.user_id = $1 AND matches.status = 'running' ORDER BY matches.started",
    )
    .bind(user.id)
    .fetch_all(&hub.pool)
    .await?;
    let mut out = Vec::new();
    for r in rows {
        let id: i64 = r.try_get("id")?;
        if let Some(h) = hub.live(id) {
            let l = h.lock().await;
            out.push(l.state(l.seat_of(user.id)));
        }
    }
    Ok(out)
}

/// The `tt_choose` of a match of `user`'s whose winner is still choosing: told again to a player
/// who logs in or reconnects (the first one went out before a drop, or before a restart of the
/// server, or never did when the server died right after the result committed).
async fn pending_choice(hub: &Arc<Hub>, user: &User) -> Result<Option<Value>, Failure> {
    let Some(id) = hub.economy.awaiting_choice(user.id).await? else {
        return Ok(None);
    };
    match hub.economy.win_list(id).await {
        Ok(w) => Ok(Some(live::choice_frame(id, w.chooser, w.count, w.deadline))),
        // Settled between the two reads (its clock ran out): nothing to tell.
        Err(f) if f.code == "nothing_to_choose" => Ok(None),
        Err(f) => Err(f),
    }
}

/// The ends and settlements of `user`'s matches that no connection of theirs was told of (they
/// were away, or the server restarted before the frame went out), taken for this connection.
async fn untold(hub: &Hub, s: &mut Session, user: &User) -> Result<Vec<Value>, Failure> {
    s.handing = told::claim(&hub.pool, user.id).await?;
    Ok(s.handing.iter().map(|u| u.frame.clone()).collect())
}

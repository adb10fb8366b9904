//! One WebSocket connection: the `hello` handshake, the rate limit, requests answered in order,
//! and the hub's events written as they come. Whatever a client sends, it gets an error or a
//! close with a reason; nothing it sends reaches another connection's task.

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_economy::Spectators;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use sqlx::Row as _;

use crate::accounts::User;
use crate::challenges;
use crate::error::{Code, Failure};
use crate::frames::{Frame, Limits};
use crate::hub::Hub;
use crate::live::{self, Mover};
use crate::protocol::{self, Request, FRAME_OUT_MAX, VERSION};
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

    /// `rate` a minute, `burst` at once.
    pub(crate) fn per_minute(rate: u32, burst: u32) -> Bucket {
        Bucket {
            rate: f64::from(rate) / 60.0,
            ..Bucket::new(0, burst)
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
    tracing::debug!("connection {id} from {peer}");
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
    // A client that reads nothing for as long as it may stay silent is as gone as a silent one.
    let patience = hub.config.idle_timeout;
    let mut quiet = Quiet::new(hub.config.hello_timeout, patience);
    let alarm = tokio::time::sleep_until(quiet.next(false).into());
    tokio::pin!(alarm);
    loop {
        let next = tokio::select! {
            frame = stream.next() => {
                quiet.heard();
                match frame {
                None | Some(Ok(Message::Close(_))) => break,
                Some(Err(e)) => {
                    let text = e.to_string();
                    // tungstenite refuses a frame over the limit before reading it.
                    if text.contains("too long") || text.contains("Space limit") || text.contains("size") {
                        let _ = send(&mut sink, close(1009, "too_large"), patience).await;
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
                            Next::Reply(vec![error(re.as_ref(), &Failure::new(Code::RateLimited, "too many messages: slow down"))])
                        }
                    } else {
                        match frame {
                            Message::Text(text) => handle(&hub, &mut session, text.as_str()).await,
                            _ => Next::Reply(vec![error(None, &Failure::new(Code::BadJson, "binary frames are not spoken here: send JSON text"))]),
                        }
                    }
                }
            }},
            out = events.recv() => match out {
                Some(out) => {
                    if out.once.as_ref().is_some_and(|r| session.handed.remove(r)) {
                        continue;
                    }
                    let fits = out.text.len() <= FRAME_OUT_MAX;
                    let text = if fits {
                        Utf8Bytes::from(&*out.text)
                    } else {
                        writable(out.text.to_string(), None).into()
                    };
                    if !send(&mut sink, Message::Text(text), patience).await {
                        break;
                    }
                    // A frame replaced by its refusal was not told: it stays to be sent again.
                    if let Some(r) = out.once.as_ref().filter(|_| fits) {
                        told::mark(&hub.pool, r).await;
                    }
                    continue;
                }
                None => {
                    let _ = send(&mut sink, close(1008, "too_slow"), patience).await;
                    break;
                }
            },
            () = &mut alarm => match quiet.due(session.greeted) {
                Due::Nothing => {
                    alarm.as_mut().reset(quiet.next(session.greeted).into());
                    continue;
                }
                Due::Ping => {
                    if !send(&mut sink, Message::Ping(Default::default()), patience).await {
                        break;
                    }
                    alarm.as_mut().reset(quiet.next(session.greeted).into());
                    continue;
                }
                Due::Close(reason) => Next::Close(vec![], 1008, reason),
            },
        };
        let (replies, closing) = match next {
            Next::Reply(r) => (r, None),
            Next::Close(r, code, reason) => (r, Some((code, reason))),
        };
        let mut failed = false;
        for r in replies {
            if !send(
                &mut sink,
                Message::Text(writable(r.to_string(), r.get("re")).into()),
                patience,
            )
            .await
            {
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
            let _ = send(&mut sink, close(code, reason), patience).await;
            linger(&mut stream).await;
            break;
        }
        if failed {
            break;
        }
    }
    hub.disconnect(id);
}

/// Writes `message`, or gives up after `patience`: whether it went.
async fn send(sink: &mut SplitSink<WebSocket, Message>, message: Message, patience: Duration) -> bool {
    matches!(tokio::time::timeout(patience, sink.send(message)).await, Ok(Ok(())))
}

/// How long a connection has been silent, and what that calls for: a `hello` is due within
/// `hello` of the opening; after `idle / 2` of silence the server pings (any client answers a
/// ping by itself, so a player waiting on a long opponent, or a spectator, is never silent), and
/// after `idle` the connection is closed.
struct Quiet {
    opened: Instant,
    heard: Instant,
    pinged: bool,
    hello: Duration,
    idle: Duration,
}

enum Due {
    Nothing,
    Ping,
    Close(&'static str),
}

impl Quiet {
    fn new(hello: Duration, idle: Duration) -> Quiet {
        let now = Instant::now();
        Quiet {
            opened: now,
            heard: now,
            pinged: false,
            hello,
            idle,
        }
    }

    /// Anything came from the client: a frame, a ping or the answer to one.
    fn heard(&mut self) {
        self.heard = Instant::now();
        self.pinged = false;
    }

    /// When to look again. The alarm is not moved on every frame: it rings, and is set anew
    /// from the last frame heard.
    fn next(&self, greeted: bool) -> Instant {
        let silence = if self.pinged {
            self.heard + self.idle
        } else {
            self.heard + self.idle / 2
        };
        if greeted {
            silence
        } else {
            silence.min(self.opened + self.hello)
        }
    }

    fn due(&mut self, greeted: bool) -> Due {
        let now = Instant::now();
        if !greeted && now >= self.opened + self.hello {
            Due::Close("hello_timeout")
        } else if now >= self.heard + self.idle {
            Due::Close("idle_timeout")
        } else if !self.pinged && now >= self.heard + self.idle / 2 {
            self.pinged = true;
            Due::Ping
        } else {
            Due::Nothing
        }
    }
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
    let frame = Frame::Error {
        code: f.code,
        message: f.message.clone(),
    };
    with_re(frame.json(), &re.cloned())
}

/// `frame` if it can be written, or else the `error` `reply_too_large` (answering request `re`)
/// in its place: the limits keep every frame under [`FRAME_OUT_MAX`], and one that is not must
/// not drop its connection without a word.
fn writable(frame: String, re: Option<&Value>) -> String {
    let size = frame.len();
    if size <= FRAME_OUT_MAX {
        return frame;
    }
    tracing::error!("a frame of {size} bytes is over the {FRAME_OUT_MAX}-byte limit: not sent");
    let f = Failure::new(
        Code::ReplyTooLarge,
        format!("the answer takes {size} bytes, over the {FRAME_OUT_MAX} bytes a frame may: it was not sent"),
    );
    error(re, &f).to_string()
}

fn with_re(mut v: Value, re: &Option<Value>) -> Value {
    if let (Some(re), Some(obj)) = (re, v.as_object_mut()) {
        obj.insert("re".into(), re.clone());
    }
    v
}

async fn handle(hub: &Arc<Hub>, s: &mut Session, text: &str) -> Next {
    if !s.greeted {
        return greet(hub, s, text);
    }
    let (re, request) = protocol::parse(text);
    let request = match request {
        Ok(r) => r,
        Err(f) => return Next::Reply(vec![error(re.as_ref(), &f)]),
    };
    match request {
        Request::Logout {} => {
            if let Some(token) = s.token.take() {
                if let Err(f) = hub.accounts.forget(&token).await {
                    return Next::Reply(vec![error(re.as_ref(), &f)]);
                }
            }
            Next::Close(vec![], 1000, "logout")
        }
        request => match answer(hub, s, request, &re).await {
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

/// The first frame: `hello`, or the connection closes. What is not JSON, or a malformed
/// `hello`, says so; a message of any other type, the economy's too, is `hello_first`.
fn greet(hub: &Hub, s: &mut Session, text: &str) -> Next {
    let (re, request) = protocol::parse(text);
    let f = match request {
        Ok(Request::Hello { protocol, .. }) if protocol == VERSION => {
            s.greeted = true;
            return Next::Reply(vec![with_re(welcome(hub), &re)]);
        }
        Ok(Request::Hello { protocol, .. }) => {
            let f = Failure::new(
                Code::ProtocolVersion,
                format!("this server speaks protocol {VERSION}, not {protocol}"),
            );
            return Next::Close(vec![error(re.as_ref(), &f)], 1002, "protocol_version");
        }
        Err(f)
            if f.code == Code::BadJson || serde_json::from_str::<Value>(text).is_ok_and(|v| v["type"] == "hello") =>
        {
            f
        }
        _ => Failure::new(Code::HelloFirst, "the first message is hello with the protocol version"),
    };
    Next::Close(vec![error(re.as_ref(), &f)], 1002, "hello_first")
}

fn welcome(hub: &Hub) -> Value {
    let c = &hub.config;
    Frame::Welcome {
        protocol: VERSION,
        server: concat!("arbiter-server ", env!("CARGO_PKG_VERSION")).to_owned(),
        limits: Limits {
            max_frame: c.max_frame,
            rate_per_s: c.rate,
            burst: c.burst,
            min_time: *challenges::TIME_RANGE.start(),
            max_time: *challenges::TIME_RANGE.end(),
            recent_moves: live::RECENT_MOVES,
            history_max: live::HISTORY_MAX,
            max_challenges: c.max_challenges,
            max_matches: c.max_matches,
            lobby_page: challenges::PAGE_MAX,
            max_options: challenges::OPTIONS_MAX,
            max_words: challenges::WORDS_MAX,
        },
        games: GameKind::ALL
            .iter()
            .map(|g| (g.name().to_owned(), g.describe()))
            .collect(),
    }
    .json()
}

fn need(s: &Session) -> Result<&User, Failure> {
    s.user
        .as_ref()
        .ok_or_else(|| Failure::new(Code::NotAuthenticated, "log in first"))
}

/// The replies to a request (the first carries its `re`), or why it was refused.
async fn answer(hub: &Arc<Hub>, s: &mut Session, request: Request, re: &Option<Value>) -> Result<Vec<Value>, Failure> {
    match request {
        Request::Hello { .. } => Err(Failure::new(Code::BadMessage, "hello comes once, first")),
        Request::Register { .. } | Request::Login { .. } if s.user.is_some() => {
            Err(Failure::new(Code::AlreadyAuthenticated, "this connection is logged in"))
        }
        Request::Resume { .. } if s.user.is_some() => {
            Err(Failure::new(Code::AlreadyAuthenticated, "this connection is logged in"))
        }
        Request::Register {
            name,
            password,
            language,
        } => {
            let (user, token) = hub
                .accounts
                .register(&name, &password, language.as_deref(), s.peer)
                .await?;
            Ok(vec![authenticated(hub, s, user, token, language)])
        }
        Request::Login { name, password } => {
            let (user, token) = hub.accounts.login(&name, &password, s.peer).await?;
            let language = hub.accounts.language(user.id).await?;
            let mut replies = vec![authenticated(hub, s, user.clone(), token, language)];
            replies.extend(pending_choice(hub, &user).await?);
            replies.extend(untold(hub, s, &user).await?);
            Ok(replies)
        }
        Request::Resume { token } => {
            let user = hub.accounts.resume(&token).await?;
            let language = hub.accounts.language(user.id).await?;
            let mut replies = vec![authenticated(hub, s, user.clone(), token, language)];
            replies.extend(running_states(hub, &user).await?);
            replies.extend(pending_choice(hub, &user).await?);
            replies.extend(untold(hub, s, &user).await?);
            Ok(replies)
        }
        Request::Logout {} => unreachable!("handled before"),
        Request::Language { language } => {
            hub.accounts.set_language(need(s)?.id, &language).await?;
            Ok(vec![Frame::Language { language }.json()])
        }
        Request::Lobby { after, limit } => {
            let user = need(s)?.clone();
            let joined = hub.subscribe_lobby(s.id);
            let mut replies = vec![challenges::lobby(hub, &user, after.as_deref(), limit).await?];
            replies.extend(joined.then(|| hub.chat.history(None)));
            Ok(replies)
        }
        Request::Challenge {
            game,
            options,
            seats,
            time,
            private,
            broadcast,
            cards,
        } => {
            let user = need(s)?.clone();
            let options = challenges::client_options(options)?;
            let spectators = match (private, broadcast) {
                (true, true) => {
                    return Err(Failure::new(
                        Code::BadChallenge,
                        "a challenge is private (no spectators) or broadcast, not both",
                    ))
                }
                (true, false) => Spectators::Private,
                (false, true) => Spectators::Broadcast,
                (false, false) => Spectators::Open,
            };
            Ok(vec![
                challenges::create(hub, &user, &game, options, seats, time, spectators, cards).await?,
            ])
        }
        Request::Accept { challenge, deck, cards } => {
            let pick = crate::economy::Pick::from_request(deck, cards)?;
            Ok(vec![challenges::accept(hub, challenge, need(s)?, pick).await?])
        }
        Request::Pick { challenge, deck, cards } => {
            let pick = crate::economy::Pick::from_request(deck, cards)?
                .ok_or_else(|| Failure::new(Code::BadMessage, "a pick names a deck or five cards"))?;
            Ok(vec![challenges::pick(hub, challenge, need(s)?, pick).await?])
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
                        Code::BadMessage,
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
            Ok(vec![Frame::Left { match_id, dnf }.json()])
        }
        Request::Spectate { match_id } => Ok(vec![
            seen(hub, s, match_id, true, live::Live::state).await?,
            hub.chat.history(Some(match_id)),
        ]),
        Request::Unspectate { match_id } => {
            hub.spectate(s.id, match_id, false);
            Ok(vec![Frame::Unspectated {
                match_id,
                reason: None,
                by: None,
                message: None,
            }
            .json()])
        }
        Request::Sync { match_id } => Ok(vec![seen(hub, s, match_id, false, live::Live::state).await?]),
        Request::History { match_id, from, count } => {
            let count = count.unwrap_or(live::HISTORY_MAX as u64);
            Ok(vec![
                seen(hub, s, match_id, false, |l, _| l.history(from, count)).await?,
            ])
        }
        Request::Spectators { match_id, spectators } => Ok(vec![
            crate::live::spectating::set(hub, match_id, need(s)?, spectators).await?,
        ]),
        Request::Stats { name } => {
            let user = match name {
                Some(n) => hub.accounts.find(&n).await?,
                None => need(s)?.clone(),
            };
            let games = hub.accounts.stats(user.id).await?;
            Ok(vec![Frame::Stats { user, games }.json()])
        }
        Request::Ping {} => Ok(vec![Frame::Pong {
            time: crate::db::now_ms(),
        }
        .json()]),
        Request::Chat {
            match_id,
            to,
            text,
            pose,
        } => {
            let user = need(s)?;
            crate::chat::post(hub, s.id, user, match_id, to.as_deref(), &text, pose).await
        }
        Request::ChatSilence { match_id, silenced } => {
            Ok(vec![crate::chat::silence(hub, need(s)?, match_id, silenced).await?])
        }
        Request::Cards(r) => Ok(vec![crate::cards::answer(hub, need(s)?, r).await?]),
    }
}

fn authenticated(hub: &Hub, s: &mut Session, user: User, token: String, language: Option<String>) -> Value {
    hub.authenticate(s.id, &user);
    let v = Frame::Authenticated {
        user: user.clone(),
        token: token.clone(),
        language,
    }
    .json();
    s.user = Some(user);
    s.token = Some(token);
    v
}

/// `show` of the match as this connection may see it (its seat, or `None` for a spectator): a
/// private match only to its seats. With `watch`, a connection that sits in no seat becomes a
/// spectator in the same moment, the match locked: every move is then either in what `show`
/// gives or told to it after.
async fn seen(
    hub: &Arc<Hub>,
    s: &Session,
    match_id: i64,
    watch: bool,
    show: impl Fn(&live::Live, Option<usize>) -> Value,
) -> Result<Value, Failure> {
    let user = s.user.as_ref().map(|u| u.id);
    let see = |l: &live::Live| -> Result<Value, Failure> {
        let seat = user.and_then(|u| l.seat_of(u));
        if seat.is_none() && l.spectators == Spectators::Private {
            return Err(Failure::new(Code::PrivateMatch, "this match is private: no spectators"));
        }
        if seat.is_none() && watch {
            hub.spectate(s.id, match_id, true);
        }
        Ok(show(l, seat))
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
    match hub.economy.win_list(id, user.id).await {
        Ok(w) => Ok(Some(live::choice_frame(id, w.chooser, w.count, w.deadline))),
        // Settled between the two reads (its clock ran out): nothing to tell.
        Err(f) if f.code == Code::NothingToChoose => Ok(None),
        Err(f) => Err(f),
    }
}

/// The ends and settlements of `user`'s matches that no connection of theirs was told of (they
/// were away, or the server restarted before the frame went out), taken for this connection.
async fn untold(hub: &Hub, s: &mut Session, user: &User) -> Result<Vec<Value>, Failure> {
    s.handing = told::claim(&hub.pool, user.id).await?;
    Ok(s.handing.iter().map(|u| u.frame.clone()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_frame_too_large_to_write_becomes_its_refusal() {
        let small = json!({"type": "pong", "re": 3}).to_string();
        assert_eq!(writable(small.clone(), Some(&json!(3))), small);
        let big = json!({"type": "lobby", "re": "x", "pad": "y".repeat(protocol::WRITE_MAX)});
        let sent: Value = serde_json::from_str(&writable(big.to_string(), big.get("re"))).unwrap();
        assert_eq!(sent["type"], "error");
        assert_eq!(sent["code"], "reply_too_large");
        assert_eq!(sent["re"], "x");
    }
}

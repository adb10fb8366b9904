//! The chat: the lobby's room, each match's room (its players and spectators; the players may
//! silence the spectators), a page from one player to another, and the server's own commands
//! typed in a room (`!aide`, `!quizz`, `!scores`). Lines are bounded, stripped of control
//! characters and rate limited per account as the operator sets (`Limits`); the last lines of
//! each room are kept in memory for whoever joins it, and are lost with the process.
//!
//! Every line and every silencing goes through the relay, and each process keeps its rooms'
//! history and silenced matches from what the relay delivers ([`Chat::heard`]): in a cluster
//! every process holds the same. A quiz is the process's where it was asked: its answers are
//! those typed through that process.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use arbiter_core::Rng;
use serde_json::Value;

use crate::accounts::User;
use crate::bus::Event;
use crate::conn::Bucket;
use crate::error::{Code, Failure};
use crate::frames::{ChatLine, Frame, Score};
use crate::hub::Hub;
use crate::quiz::Question;

/// A room: the lobby (`None`) or a match's.
pub(crate) type Room = Option<i64>;

/// The server's own commands, typed in a room: what `!aide` lists (each client words them).
const COMMANDS: [&str; 3] = ["!aide", "!quizz", "!scores"];

/// The operator's limits on the chat (server/README.md).
#[derive(Debug, Clone)]
pub struct Limits {
    /// Characters a line may hold, once stripped.
    pub max_chars: usize,
    /// Lines an account may send a minute, on average, and at once.
    pub per_minute: u32,
    pub burst: u32,
    /// Lines of each room told to whoever joins it.
    pub history: usize,
    /// Seconds a quiz question stays open.
    pub quiz_seconds: u64,
    /// The quiz's seed (drawn at start when not set).
    pub quiz_seed: Option<u64>,
}

/// A question being asked in a room.
struct Asked {
    number: u64,
    question: Question,
    deadline: i64,
}

struct State {
    history: HashMap<Room, VecDeque<ChatLine>>,
    silenced: HashSet<i64>,
    buckets: HashMap<i64, Bucket>,
    asked: HashMap<Room, Asked>,
    /// Each room's quiz points, by player name.
    scores: HashMap<Room, BTreeMap<String, u32>>,
    rng: Rng,
    questions: u64,
}

pub(crate) struct Chat {
    limits: Limits,
    state: Mutex<State>,
}

impl Chat {
    pub(crate) fn new(limits: Limits) -> Chat {
        let seed = limits.quiz_seed.unwrap_or_else(|| getrandom::u64().unwrap_or(0));
        Chat {
            limits,
            state: Mutex::new(State {
                history: HashMap::new(),
                silenced: HashSet::new(),
                buckets: HashMap::new(),
                asked: HashMap::new(),
                scores: HashMap::new(),
                rng: Rng::new(seed),
                questions: 0,
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // Each change is one statement: a panic elsewhere leaves nothing half-done.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps what the relay delivered of a room: its lines, and whether its spectators speak.
    pub(crate) fn heard(&self, msg: &Value) {
        let Ok(frame) = serde_json::from_value::<Frame>(msg.clone()) else {
            return;
        };
        let mut s = self.state();
        match frame {
            Frame::Chat(line) if line.to.is_none() => {
                let lines = s.history.entry(line.match_id).or_default();
                lines.push_back(line);
                while lines.len() > self.limits.history {
                    lines.pop_front();
                }
            }
            Frame::ChatSilenced { match_id, silenced, .. } => {
                if silenced {
                    s.silenced.insert(match_id);
                } else {
                    s.silenced.remove(&match_id);
                }
            }
            _ => {}
        }
    }

    /// The last lines of `room`, as a `chat_history` frame.
    pub(crate) fn history(&self, room: Room) -> Value {
        let lines = self
            .state()
            .history
            .get(&room)
            .map(|l| l.iter().cloned().collect())
            .unwrap_or_default();
        Frame::ChatHistory { match_id: room, lines }.json()
    }

    /// The line as it may be shown, or why it may not be sent now.
    fn admit(&self, user: &User, text: &str) -> Result<String, Failure> {
        let text = crate::text::one_line(text).trim().to_owned();
        if text.is_empty() {
            return Err(Failure::new(Code::BadMessage, "a chat line holds some text"));
        }
        let n = text.chars().count();
        if n > self.limits.max_chars {
            return Err(Failure::new(
                Code::ChatTooLong,
                format!("the line is {n} characters long: {} at most", self.limits.max_chars),
            ));
        }
        let mut s = self.state();
        let bucket = s
            .buckets
            .entry(user.id)
            .or_insert_with(|| Bucket::per_minute(self.limits.per_minute, self.limits.burst));
        if !bucket.take() {
            return Err(Failure::new(
                Code::ChatRateLimited,
                format!("{} chat lines a minute at most: wait a little", self.limits.per_minute),
            ));
        }
        Ok(text)
    }

    fn scores(&self, room: Room) -> Vec<Score> {
        let s = self.state();
        let mut scores: Vec<Score> = s
            .scores
            .get(&room)
            .into_iter()
            .flatten()
            .map(|(name, &points)| Score {
                name: name.clone(),
                points,
            })
            .collect();
        scores.sort_by(|a, b| b.points.cmp(&a.points).then_with(|| a.name.cmp(&b.name)));
        scores
    }
}

/// Who hears a match's room: its seated people (and, through the hub, its spectators), or why
/// `user` on connection `conn` may not speak there.
async fn match_room(hub: &Hub, conn: u64, user: &User, id: i64) -> Result<Vec<i64>, Failure> {
    let (seated, people) = match hub.live(id) {
        Some(h) => {
            let l = h.lock().await;
            (l.seat_of(user.id).is_some(), l.people())
        }
        None => {
            let l = crate::live::load(&hub.pool, id).await?;
            (l.seat_of(user.id).is_some(), l.people())
        }
    };
    if !seated && !hub.watching(conn, id) {
        return Err(Failure::new(
            Code::NotInMatch,
            "only the players and spectators of a match speak in its chat",
        ));
    }
    if !seated && hub.chat.state().silenced.contains(&id) {
        return Err(Failure::new(
            Code::ChatSilenced,
            "the players silenced the spectators of this match",
        ));
    }
    Ok(people)
}

/// `user` (on connection `conn`) types `text` in `room`, or pages the player `to`: the frames
/// for them alone (the answer to a command), the line itself reaching everyone through the relay.
pub(crate) async fn post(
    hub: &Arc<Hub>,
    conn: u64,
    user: &User,
    room: Room,
    to: Option<&str>,
    text: &str,
    pose: bool,
) -> Result<Vec<Value>, Failure> {
    let text = hub.chat.admit(user, text)?;
    let line = |to: Option<String>| ChatLine {
        match_id: room,
        from: user.clone(),
        to,
        text: text.clone(),
        pose,
        time: crate::db::now_ms(),
    };
    if let Some(to) = to {
        if room.is_some() {
            return Err(Failure::new(
                Code::BadMessage,
                "a page goes to a player, not to a match",
            ));
        }
        let to = hub.accounts.find(to).await?;
        let msg = Frame::Chat(line(Some(to.name.clone()))).json();
        hub.relay.publish(Event::Users {
            users: vec![to.id, user.id],
            msg,
        });
        return Ok(vec![sent()]);
    }
    let users = match room {
        Some(id) => match_room(hub, conn, user, id).await?,
        None => Vec::new(),
    };
    let command = text.split_whitespace().next().unwrap_or("").to_lowercase();
    match command.as_str() {
        "!aide" | "!help" => {
            return Ok(vec![Frame::ChatCommands {
                commands: COMMANDS.map(str::to_owned).to_vec(),
            }
            .json()])
        }
        "!scores" => {
            return Ok(vec![Frame::QuizScores {
                match_id: room,
                scores: hub.chat.scores(room),
            }
            .json()])
        }
        "!quizz" | "!quiz" => return Ok(vec![ask(hub, room, users)]),
        _ => {}
    }
    hub.relay.publish(Event::Chat {
        match_id: room,
        users: users.clone(),
        msg: Frame::Chat(line(None)).json(),
    });
    if !pose {
        answered(hub, room, users, user, &text);
    }
    Ok(vec![sent()])
}

/// The answer to a line sent: it reaches everyone, its sender too, as a `chat` frame.
fn sent() -> Value {
    Frame::ChatSent {}.json()
}

/// Asks `room` a question, the open one asked again to whoever typed `!quizz` meanwhile.
fn ask(hub: &Arc<Hub>, room: Room, users: Vec<i64>) -> Value {
    let seconds = hub.chat.limits.quiz_seconds;
    let deadline = crate::db::now_ms() + 1000 * seconds as i64;
    let (frame, fresh) = {
        let mut s = hub.chat.state();
        match s.asked.get(&room) {
            Some(a) => (question(room, a), None),
            None => {
                s.questions += 1;
                let asked = Asked {
                    number: s.questions,
                    question: Question::draw(&mut s.rng),
                    deadline,
                };
                let frame = question(room, &asked);
                let number = asked.number;
                s.asked.insert(room, asked);
                (frame, Some(number))
            }
        }
    };
    let Some(number) = fresh else {
        return frame;
    };
    hub.relay.publish(Event::Chat {
        match_id: room,
        users: users.clone(),
        msg: frame,
    });
    let weak: Weak<Hub> = Arc::downgrade(hub);
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(seconds)).await;
        let Some(hub) = weak.upgrade() else { return };
        let gone = {
            let mut s = hub.chat.state();
            match s.asked.get(&room) {
                Some(a) if a.number == number => s.asked.remove(&room),
                _ => None,
            }
        };
        if let Some(a) = gone {
            hub.relay.publish(Event::Chat {
                match_id: room,
                users,
                msg: Frame::QuizTimeout {
                    match_id: room,
                    number,
                    answer: a.question.answer(),
                }
                .json(),
            });
        }
    });
    sent()
}

fn question(room: Room, a: &Asked) -> Value {
    Frame::QuizQuestion {
        match_id: room,
        number: a.number,
        question: a.question.clone(),
        deadline: a.deadline,
    }
    .json()
}

/// `text` typed by `user` in `room` answers its open question right: the point is theirs and
/// the room is told.
fn answered(hub: &Hub, room: Room, users: Vec<i64>, user: &User, text: &str) {
    let won = {
        let mut s = hub.chat.state();
        match s.asked.get(&room) {
            Some(a) if a.question.right(text) => {
                let a = s.asked.remove(&room).expect("asked");
                *s.scores.entry(room).or_default().entry(user.name.clone()).or_default() += 1;
                Some(a)
            }
            _ => None,
        }
    };
    if let Some(a) = won {
        hub.relay.publish(Event::Chat {
            match_id: room,
            users,
            msg: Frame::QuizAnswered {
                match_id: room,
                number: a.number,
                by: user.clone(),
                answer: a.question.answer(),
                scores: hub.chat.scores(room),
            }
            .json(),
        });
    }
}

/// A seated `user` silences the spectators of match `id` (or lets them speak again): told to
/// the match's room.
pub(crate) async fn silence(hub: &Hub, user: &User, id: i64, silenced: bool) -> Result<Value, Failure> {
    let live = crate::live::running(hub, id).await?;
    if live.seat_of(user.id).is_none() {
        return Err(Failure::new(
            Code::NotSeated,
            "only a player of the match silences its spectators",
        ));
    }
    let msg = Frame::ChatSilenced {
        match_id: id,
        silenced,
        by: user.clone(),
    }
    .json();
    hub.relay.publish(Event::Chat {
        match_id: Some(id),
        users: live.people(),
        msg: msg.clone(),
    });
    Ok(msg)
}

//! What stands between a login and a password hash: per-peer budgets, failure counters with
//! back-off per name, and the bounded queue of the hashers.
//!
//! Argon2id is the costly part of a login (a core and 19 MiB for tens of milliseconds), so a
//! guess costs the server far more than the guesser. A peer (an IPv4 address, or an IPv6 /64,
//! what one host usually holds) may therefore have only a few hashes running or waiting, and
//! only a few failures in any ten minutes. A name collects the failures made on it, per peer and
//! in all: past a threshold its logins wait an interval that doubles with each further failure.
//! The per-peer count locks out the guesser alone; the count in all (a guesser with many
//! addresses) holds back only peers that failed a login themselves within the hour, so that the
//! account's owner, from an address that never failed, still gets in. The counters apply to
//! names nobody holds too, so that they tell nothing about which names exist.
//!
//! The hashers serve the waiting by their peer's recent use (logins tried in the last minute or
//! so, and failures), least first: a flood of wrong passwords, or of logins at once, queues behind
//! every honest login instead of in front of it. The queue is bounded: a
//! login that finds it full is refused at once (`busy`), or takes the place of the waiting login
//! of a peer with more failures.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use crate::error::{Code, Failure};

/// The window of a peer's failure budget: its `peer_failures` refill over this time.
const BUDGET_WINDOW: Duration = Duration::from_secs(600);
/// Failures older than this are forgotten (counters, and a peer's "failed recently").
const FORGET: Duration = Duration::from_secs(3600);
/// The first back-off past a threshold; each further failure doubles it, up to `MAX_BACKOFF`.
const FIRST_BACKOFF: Duration = Duration::from_secs(1);
const MAX_BACKOFF: Duration = Duration::from_secs(900);
/// The longest a login waits for a hasher: the queue's bound keeps it far lower unless peers
/// with fewer failures keep coming first.
const LONGEST_WAIT: Duration = Duration::from_secs(5);
/// The time constant of a peer's recent use: it decays by e in this time.
const USE_DECAY: Duration = Duration::from_secs(60);
/// Entries kept per table; an attacker with many addresses makes the oldest forgotten first.
const MAX_ENTRIES: usize = 100_000;

/// The settings (`config.rs`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Hashes computed at once.
    pub(crate) hashers: usize,
    /// Logins waiting for a hasher, beyond which `busy` answers at once.
    pub(crate) queue: usize,
    /// Hashes a peer may have running or waiting.
    pub(crate) peer_hashes: u32,
    /// Failed logins a peer may make in any ten minutes.
    pub(crate) peer_failures: u32,
    /// Failed logins on one name from one peer before back-off.
    pub(crate) name_failures: u32,
    /// Failed logins on one name from all peers before back-off for peers that failed recently.
    pub(crate) account_failures: u32,
}

/// Where a connection comes from, as far as budgets go: an IPv4 address, or an IPv6 /64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Peer(IpAddr);

impl From<IpAddr> for Peer {
    fn from(ip: IpAddr) -> Peer {
        match ip.to_canonical() {
            IpAddr::V6(v6) => Peer(IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into())),
            v4 => Peer(v4),
        }
    }
}

/// Failures on a name, forgotten an hour after the last.
#[derive(Debug, Clone, Copy)]
struct Strikes {
    count: u32,
    last: Instant,
}

impl Strikes {
    fn count(this: Option<&Strikes>, now: Instant) -> u32 {
        this.filter(|s| now.duration_since(s.last) < FORGET)
            .map_or(0, |s| s.count)
    }

    /// How long logins must still wait past `threshold` failures.
    fn wait(this: Option<&Strikes>, threshold: u32, now: Instant) -> Option<Duration> {
        let count = Strikes::count(this, now);
        let over = count.checked_sub(threshold)?;
        let backoff = FIRST_BACKOFF.saturating_mul(1 << over.min(20)).min(MAX_BACKOFF);
        let until = this?.last + backoff;
        (until > now).then(|| until - now)
    }

    fn add<K: Eq + std::hash::Hash>(this: &mut HashMap<K, Strikes>, key: K, now: Instant) {
        let s = this.entry(key).or_insert(Strikes { count: 0, last: now });
        s.count = Strikes::count(Some(s), now) + 1;
        s.last = now;
    }
}

#[derive(Debug)]
struct PeerState {
    /// Hashes admitted and not yet done.
    in_flight: u32,
    /// What is left of the failure budget (refilled continuously; below zero after failures
    /// that were in flight together).
    budget: f64,
    /// Logins and registrations admitted, decaying with `USE_DECAY`.
    used: f64,
    at: Instant,
    last_failure: Option<Instant>,
}

impl PeerState {
    /// Brings the budget and the use up to `now`.
    fn catch_up(&mut self, full: f64, now: Instant) {
        let elapsed = now.duration_since(self.at).as_secs_f64();
        self.budget = (self.budget + elapsed * full / BUDGET_WINDOW.as_secs_f64()).min(full);
        self.used *= (-elapsed / USE_DECAY.as_secs_f64()).exp();
        self.at = now;
    }

    fn failed_recently(&self, now: Instant) -> bool {
        self.last_failure.is_some_and(|t| now.duration_since(t) < FORGET)
    }
}

#[derive(Default)]
struct Counters {
    peers: HashMap<Peer, PeerState>,
    /// Failures per (name key, peer).
    pairs: HashMap<(String, Peer), Strikes>,
    /// Failures per name key, from all peers.
    names: HashMap<String, Strikes>,
    /// Admissions and failures since the last sweep.
    since_sweep: usize,
}

impl Counters {
    /// Counts an admission or a failure, and now and then forgets what is old: failures an hour
    /// old, peers idle for minutes, then, past `MAX_ENTRIES`, the oldest half.
    fn note(&mut self, full: f64, now: Instant) {
        self.since_sweep += 1;
        if self.since_sweep < 4096
            && self.pairs.len() <= MAX_ENTRIES
            && self.names.len() <= MAX_ENTRIES
            && self.peers.len() <= MAX_ENTRIES
        {
            return;
        }
        self.since_sweep = 0;
        let fresh = |t: Instant| now.duration_since(t) < FORGET;
        self.peers.retain(|_, p| {
            p.catch_up(full, now);
            p.in_flight > 0 || p.last_failure.is_some_and(fresh) || p.used >= 0.5
        });
        self.pairs.retain(|_, s| fresh(s.last));
        self.names.retain(|_, s| fresh(s.last));
        fn halve<K: Clone + Eq + std::hash::Hash>(map: &mut HashMap<K, Strikes>) {
            if map.len() > MAX_ENTRIES {
                let mut by_age: Vec<(Instant, K)> = map.iter().map(|(k, s)| (s.last, k.clone())).collect();
                by_age.sort_by_key(|(t, _)| *t);
                for (_, k) in by_age.into_iter().take(map.len() - MAX_ENTRIES / 2) {
                    map.remove(&k);
                }
            }
        }
        halve(&mut self.pairs);
        halve(&mut self.names);
        if self.peers.len() > MAX_ENTRIES {
            let mut by_age: Vec<(Instant, Peer)> = self
                .peers
                .iter()
                .filter(|(_, p)| p.in_flight == 0)
                .map(|(k, p)| (p.last_failure.unwrap_or(p.at).max(p.at), *k))
                .collect();
            by_age.sort_by_key(|(t, _)| *t);
            let excess = self.peers.len() - MAX_ENTRIES / 2;
            for (_, k) in by_age.into_iter().take(excess) {
                self.peers.remove(&k);
            }
        }
    }
}

/// The hashers and their queue.
#[derive(Default)]
struct Queue {
    free: usize,
    /// The waiting, by (their ticket's level, arrival).
    waiting: BTreeMap<(u32, u64), oneshot::Sender<Hasher>>,
    arrivals: u64,
}

pub(crate) struct Guard {
    limits: Limits,
    counters: Mutex<Counters>,
    queue: Mutex<Queue>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The state stays consistent between statements: a panic elsewhere leaves it usable.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn seconds(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

/// The right to hash, for one login or registration of one peer: taken by [`Guard::admit`],
/// given back when dropped.
pub(crate) struct Ticket {
    guard: Arc<Guard>,
    peer: Peer,
    key: Option<String>,
    /// The peer's recent use and failures when admitted: its place in the queue.
    level: u32,
}

/// One hasher, held while hashing; dropped, it passes to the next waiting.
pub(crate) struct Hasher(Option<Arc<Guard>>);

impl Drop for Hasher {
    fn drop(&mut self) {
        if let Some(guard) = self.0.take() {
            guard.release();
        }
    }
}

/// Removes a waiting login from the queue when it stops waiting (served, evicted, timed out, or
/// its connection gone).
struct Waiting<'a> {
    guard: &'a Guard,
    place: (u32, u64),
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        lock(&self.guard.queue).waiting.remove(&self.place);
    }
}

impl Guard {
    pub(crate) fn new(limits: Limits) -> Arc<Guard> {
        Arc::new(Guard {
            limits,
            counters: Mutex::default(),
            queue: Mutex::new(Queue {
                free: limits.hashers,
                ..Queue::default()
            }),
        })
    }

    /// Admits a login on name key `key` (or a registration, `None`) from `peer`, or refuses it
    /// at once: too many of the peer's in flight or failed recently (`too_many_logins`), or the
    /// name held back (`login_throttled`).
    pub(crate) fn admit(self: &Arc<Guard>, peer: Peer, key: Option<&str>) -> Result<Ticket, Failure> {
        let now = Instant::now();
        let full = f64::from(self.limits.peer_failures);
        let mut c = lock(&self.counters);
        let c = &mut *c;
        let state = c.peers.entry(peer).or_insert(PeerState {
            in_flight: 0,
            budget: full,
            used: 0.0,
            at: now,
            last_failure: None,
        });
        state.catch_up(full, now);
        if state.budget < 1.0 {
            let rate = full / BUDGET_WINDOW.as_secs_f64();
            let wait = Duration::from_secs_f64((1.0 - state.budget) / rate);
            return Err(Failure::new(
                Code::TooManyLogins,
                format!(
                    "too many failed logins from your address: try again in {} s",
                    seconds(wait)
                ),
            ));
        }
        if state.in_flight >= self.limits.peer_hashes {
            return Err(Failure::new(
                Code::TooManyLogins,
                format!(
                    "at most {} logins at once from your address: wait for their answers",
                    self.limits.peer_hashes
                ),
            ));
        }
        if let Some(key) = key {
            let pair = Strikes::wait(c.pairs.get(&(key.to_owned(), peer)), self.limits.name_failures, now);
            let all = if state.failed_recently(now) {
                Strikes::wait(c.names.get(key), self.limits.account_failures, now)
            } else {
                None
            };
            if let Some(wait) = pair.max(all) {
                return Err(Failure::new(
                    Code::LoginThrottled,
                    format!("too many failed logins for this name: try again in {} s", seconds(wait)),
                ));
            }
        }
        // Recent use, and failures in the last ten minutes rounded up: 0 for a peer's first login
        // in minutes, if it never failed.
        let level = state.used.round() as u32 + (full - state.budget).max(0.0).ceil() as u32;
        state.in_flight += 1;
        state.used += 1.0;
        c.note(full, now);
        Ok(Ticket {
            guard: self.clone(),
            peer,
            key: key.map(str::to_owned),
            level,
        })
    }

    /// A hasher for `ticket`: one free now, or one freed while it waits. `busy` at once when the
    /// queue is full of logins of peers with as few failures, later when others keep coming first.
    pub(crate) async fn hasher(&self, ticket: &Ticket) -> Result<Hasher, Failure> {
        let busy = || {
            Failure::new(
                Code::Busy,
                "the server is busy with other logins: try again in a moment",
            )
        };
        let (place, answer) = {
            let mut q = lock(&self.queue);
            if q.free > 0 {
                q.free -= 1;
                return Ok(Hasher(Some(ticket.guard.clone())));
            }
            if q.waiting.len() >= self.limits.queue {
                // The waiting login of the peer with the most failures makes room, if it has
                // more than this one's peer; dropping its sender tells it `busy`.
                match q.waiting.last_key_value() {
                    Some((&(level, _), _)) if level > ticket.level => {
                        q.waiting.pop_last();
                    }
                    _ => return Err(busy()),
                }
            }
            q.arrivals += 1;
            let place = (ticket.level, q.arrivals);
            let (send, answer) = oneshot::channel();
            q.waiting.insert(place, send);
            (place, answer)
        };
        let _waiting = Waiting { guard: self, place };
        match tokio::time::timeout(LONGEST_WAIT, answer).await {
            Ok(Ok(hasher)) => Ok(hasher),
            _ => Err(busy()),
        }
    }

    /// Passes a hasher that is done to the first waiting login still there, or frees it.
    fn release(self: Arc<Guard>) {
        let mut q = lock(&self.queue);
        while let Some((_, send)) = q.waiting.pop_first() {
            match send.send(Hasher(Some(self.clone()))) {
                Ok(()) => return,
                // Its login stopped waiting: the hasher, disarmed, goes to the next one.
                Err(mut hasher) => {
                    hasher.0 = None;
                }
            }
        }
        q.free += 1;
    }

    /// Records how the login of `ticket` ended: a wrong password counts against the peer's
    /// budget and the name; a right one clears the name's count for this peer.
    pub(crate) fn record(&self, ticket: &Ticket, ok: bool) {
        let Some(key) = &ticket.key else { return };
        let now = Instant::now();
        let mut c = lock(&self.counters);
        if ok {
            c.pairs.remove(&(key.clone(), ticket.peer));
            return;
        }
        if let Some(p) = c.peers.get_mut(&ticket.peer) {
            p.catch_up(f64::from(self.limits.peer_failures), now);
            p.budget -= 1.0;
            p.last_failure = Some(now);
        }
        Strikes::add(&mut c.pairs, (key.clone(), ticket.peer), now);
        Strikes::add(&mut c.names, key.clone(), now);
        c.note(f64::from(self.limits.peer_failures), now);
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut c = lock(&self.guard.counters);
        if let Some(p) = c.peers.get_mut(&self.peer) {
            p.in_flight -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use futures_util::FutureExt as _;

    use super::*;

    fn limits() -> Limits {
        Limits {
            hashers: 1,
            queue: 2,
            peer_hashes: 2,
            peer_failures: 4,
            name_failures: 2,
            account_failures: 3,
        }
    }

    fn peer(last: u8) -> Peer {
        IpAddr::from([10, 0, 0, last]).into()
    }

    #[test]
    fn ipv6_peers_are_their_64() {
        let a: IpAddr = "2001:db8:1:2:3:4:5:6".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::1".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(Peer::from(a), Peer::from(b));
        assert_ne!(Peer::from(a), Peer::from(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(Peer::from(mapped), Peer::from(IpAddr::from([192, 0, 2, 7])));
    }

    #[test]
    fn a_peer_has_few_in_flight() {
        let g = Guard::new(limits());
        let one = g.admit(peer(1), Some("a")).unwrap();
        let _two = g.admit(peer(1), None).unwrap();
        assert_eq!(g.admit(peer(1), Some("b")).err().unwrap().code, Code::TooManyLogins);
        assert!(g.admit(peer(2), Some("b")).is_ok());
        drop(one);
        assert!(g.admit(peer(1), Some("b")).is_ok());
    }

    #[test]
    fn failures_hold_back_the_name_for_the_peer_then_for_failing_peers() {
        let g = Guard::new(limits());
        for _ in 0..2 {
            let t = g.admit(peer(1), Some("victim")).unwrap();
            g.record(&t, false);
        }
        assert_eq!(
            g.admit(peer(1), Some("victim")).err().unwrap().code,
            Code::LoginThrottled
        );
        // Another name from the same peer, and the same name from another peer, still go.
        assert!(g.admit(peer(1), Some("other")).is_ok());
        let t = g.admit(peer(2), Some("victim")).unwrap();
        g.record(&t, false);
        drop(t);
        // Three failures on the name in all: a peer that failed is held back, a clean one is not.
        let t = g.admit(peer(3), Some("elsewhere")).unwrap();
        g.record(&t, false);
        drop(t);
        assert_eq!(
            g.admit(peer(3), Some("victim")).err().unwrap().code,
            Code::LoginThrottled
        );
        assert!(g.admit(peer(4), Some("victim")).is_ok());
    }

    #[test]
    fn the_failure_budget_runs_out() {
        let g = Guard::new(limits());
        for n in 0..4 {
            let t = g.admit(peer(1), Some(&format!("n{n}"))).unwrap();
            assert_eq!(t.level, 2 * n, "one use and one failure more each time");
            g.record(&t, false);
        }
        let refused = g.admit(peer(1), Some("n9")).err().unwrap();
        assert_eq!(refused.code, Code::TooManyLogins);
        assert!(refused.message.contains("try again in 150 s"), "{}", refused.message);
        assert!(g.admit(peer(1), None).is_err());
    }

    #[tokio::test]
    async fn the_queue_is_bounded_and_serves_clean_peers_first() {
        let g = Guard::new(limits());
        let clean = g.admit(peer(1), Some("a")).unwrap();
        let dirty = |n: u8| {
            let t = g.admit(peer(n), Some("x")).unwrap();
            g.record(&t, false);
            drop(t);
            g.admit(peer(n), Some("y")).unwrap()
        };
        let (d2, d3, d4) = (dirty(2), dirty(3), dirty(4));
        let running = g.hasher(&d2).await.unwrap();
        let (w3, w4) = (g.hasher(&d3), g.hasher(&d4));
        tokio::pin!(w3, w4);
        // Both wait (the queue holds two); a clean newcomer takes the last one's place.
        assert!(w3.as_mut().now_or_never().is_none());
        assert!(w4.as_mut().now_or_never().is_none());
        let wc = g.hasher(&clean);
        tokio::pin!(wc);
        assert!(wc.as_mut().now_or_never().is_none());
        assert_eq!(w4.await.err().unwrap().code, Code::Busy);
        let d5 = dirty(5);
        assert_eq!(g.hasher(&d5).await.err().unwrap().code, Code::Busy);
        drop(running);
        let first = wc.await.unwrap();
        drop(first);
        assert!(w3.await.is_ok());
    }
}

//! A batch's worker threads: a call is cut into pieces that the calling thread claims from the
//! front and the workers from the back, and the crew steps alone whenever the workers do not pay.
//!
//! Why not a general pool (rayon): it puts its idle workers to sleep, and on the 2-core virtual
//! machines we measure on, waking a sleeping thread took 6–18 µs a call (`park`/`unpark` round
//! trip), against 0.2 µs for a worker that spins, while a step of 64 Triple Triad games is about
//! 35 µs of work. So the workers spin a while after each call, for about twice the time seen
//! between two calls (at most [`LINGER`]), and then sleep, so that an idle batch costs nothing.
//!
//! On a loaded machine (several Ray workers, an oversubscribed Slurm job) a thread may wait
//! milliseconds for a core, and a crew that split each call into one fixed share a thread ran
//! 4–5× slower than one thread: the caller waited for a worker that the system had put off. Hence:
//! - the pieces are claimed, not assigned: a worker that arrives late finds them taken, and the
//!   caller waits only for the pieces a worker has begun (never for a worker that holds none).
//!   Claimed from both ends, each thread finds the same games as in the call before, still in its
//!   core's cache. A small call on two threads is two pieces, one a thread, meeting where both
//!   end together ([`Split`]), and there the caller leaves the worker its piece however late it
//!   comes: taking it moved all its games' state to the caller's core and back at the next call
//!   (on a loaded machine, the calls' median went from 31–33 to 24 µs for 128 Triple Triad games
//!   once the caller left it). A worker the system holds off then holds the caller: the stall
//!   below starts a trial, and a busy machine steps alone;
//! - a piece that a worker has begun cannot be taken back, and a worker the system pauses inside
//!   one holds the caller for as long as the system keeps it off a core (milliseconds under
//!   load, whatever the piece's size). So the crew tries its workers in trials of a few calls
//!   with them, then two alone, back to back, so that both see the same moment of the machine's
//!   load, and keeps the workers only while they gain [`PAYS`]; else it steps alone (the
//!   workers sleep) for a time in proportion to what the trial lost, longer each time they lose,
//!   and with them, it tries again after [`TEAM_CALLS`] calls (twice as many after each trial
//!   won in a row, at most [`TEAM_MOST`]), or at once after a call in which the caller waited
//!   for a worker's piece far longer than the trial's calls took. A trial compares the fastest
//!   call of each kind, and a stall is the caller's wait, not the call's length: calls differ
//!   by more than the workers gain (a Triple Triad batch deals all its games anew every ninth
//!   step, ten times a step's work), and one such call among a trial's few decided it, or
//!   ended the workers' stretch as a stall. (Judging a call with the workers by the caller's own
//!   pieces does not do: a worker that shares a busy core with the caller slows the caller's
//!   pieces down, so the time alone they suggest is too long, and the crew kept workers that
//!   lost.)
//! - no thread spins when there are more threads than cores; and while the machine's other
//!   threads ready to run (read from `/proc/loadavg` now and then, less the crew's own) leave the
//!   crew fewer cores than it has threads, the crew steps alone, without trials: there a worker
//!   can wait a time slice (a millisecond or more) for a core in any call it joins, so a trial
//!   measures the system's choices more than the workers (one that wins is as likely a call
//!   alone that the system put off), and the calls with the workers it leads to lose. A thread
//!   that runs a moment (a daemon waking) is not such a load: the gate leaves a thread's
//!   slack (see [`Tuning::look`]). Nor are threads of a lower priority (`nice`d builds), which
//!   `/proc/loadavg` counts alike: the gate also asks how long the calling thread itself waited
//!   for a core (`/proc/thread-self/schedstat`), and a machine where it hardly waits is calm.
//!
//! [`ALWAYS`] turns all this off: every call of more than one piece goes with the workers. The
//! tests need it, or a busy test machine would step every batch alone and leave the workers'
//! paths untried; so may a job whose cores are its own while `/proc/loadavg` counts the
//! node's other jobs.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest a worker stays awake after a call: longer than the time between two steps of a
/// batch stepped in a loop (drawing 128 actions with NumPy takes about 15 µs, 1,024 Triple
/// Triad actions about 290 µs: at 300 µs a worker could fall asleep just before the next call
/// and be woken, 6–18 µs, in a call of about 350 µs on two threads).
const LINGER: Duration = Duration::from_micros(1000);

/// The longest the calling thread waits awake for a piece that a worker has begun, before it
/// sleeps (a worker that the system has put off would otherwise wait for the core the caller
/// spins on).
const AWAIT: Duration = Duration::from_micros(200);

/// The least gain (calls alone over calls with the workers, in one trial) for which the workers
/// go on.
const PAYS: f64 = 1.1;

/// A trial's calls, in order: with the workers (the first, which wakes them, not judged), then
/// alone.
const TRIAL: [bool; 5] = [true, true, true, false, false];

/// After a trial that lost, the crew steps alone for this many times the time the trial lost
/// (at first, and at most: the factor doubles with each trial lost in a row), so that trials
/// cost at most a sixteenth of the time, and soon far less. Under load, a trial can lose
/// milliseconds where a call alone takes tens of microseconds: waits counted in calls cost
/// more than the workers ever gave back.
const WAIT_FIRST: f64 = 16.0;
const WAIT_MOST: f64 = 1024.0;

/// Calls with the workers between two trials while they pay, after a trial lost (two calls
/// alone in 69 cost about 1.5 % when the workers gain 1.6×), and at most, after trials won in a
/// row (about 0.5 %): a quiet machine's trials keep winning, and each costs.
const TEAM_CALLS: f64 = 64.0;
const TEAM_MOST: f64 = 256.0;

/// A call with the workers in which the caller waited for their pieces this many times as long
/// as the trial's fastest call with them starts a new trial at once: the machine has changed (a
/// worker held off its core holds the caller for a time slice). A call that is long for its
/// work (a deal of every game) holds the caller for at most the piece in hand.
const STALL: f64 = 4.0;

/// A check of a piece before any piece plays: whether the call may go on.
pub type Check<'a> = &'a (dyn Fn(usize) -> bool + Sync);

/// The current call's job: its tag (see [`Ends`]), the check of every piece (if any), the job,
/// its number of pieces, and the most pieces the calling thread claims in each phase. The
/// lifetimes are erased: a worker calls them only for a piece it claimed under that tag, and
/// [`Crew::run`] does not return before every piece claimed has returned.
#[derive(Clone, Copy)]
struct Job {
    tag: u32,
    check: Option<*const (dyn Fn(usize) -> bool + Sync)>,
    play: *const (dyn Fn(usize) + Sync),
    pieces: usize,
    front_most: usize,
}

// SAFETY: the functions behind the pointers are `Sync`, and only called while alive (see `Job`).
unsafe impl Send for Job {}

/// The pieces not yet claimed in one word: the call's tag (the high half), `front` and `back`
/// (16 bits each; the caller claims from the front, the workers from the back). A worker still
/// holding an earlier call's job finds another tag and claims nothing.
struct Ends(AtomicU64);

impl Ends {
    fn set(&self, tag: u32, front: usize, back: usize) {
        self.0.store(
            u64::from(tag) << 32 | (front as u64) << 16 | back as u64,
            Ordering::SeqCst,
        );
    }

    /// Claims the next piece of call `tag` from the front (`true`) or the back, if any is left.
    fn claim(&self, tag: u32, front: bool) -> Option<usize> {
        let mut ends = self.0.load(Ordering::SeqCst);
        loop {
            let (t, f, b) = ((ends >> 32) as u32, (ends >> 16) & 0xffff, ends & 0xffff);
            if t != tag || f >= b {
                return None;
            }
            let (next, piece) = if front {
                (ends + (1 << 16), f)
            } else {
                (ends - 1, b - 1)
            };
            match self
                .0
                .compare_exchange_weak(ends, next, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return Some(piece as usize),
                Err(now) => ends = now,
            }
        }
    }
}

/// A piece is at most this share of what is left of its thread's side of the call: the pieces
/// shrink toward the point where the calling thread and the workers meet, so that the last piece
/// begun, which the others wait for, is short (pieces of one size, an eighth of a thread's share,
/// left a thread waiting for up to 8 Trax games at the end of every call), while the first ones
/// are long (each claim fetches the ends' line from the other core).
const PIECE_SHARE: usize = 3;

/// The least piece is this share of the call's items (or one item): the claims at the meeting
/// point come in quick turns from both threads, each fetching the ends' line from the other
/// core, and a piece of one Nantong or Triple Triad game is hardly more work than that.
const LEAST_SHARE: usize = 32;

/// The sizes of the pieces of `items` for `threads` threads, front to back: the calling thread's
/// share from the front, the workers' from the back, each in pieces that shrink toward the
/// meeting point (see [`PIECE_SHARE`]), none under [`LEAST_SHARE`]: a few dozen pieces at most,
/// far within the 16 bits that [`Ends`] counts them in.
fn cut(items: usize, threads: usize) -> Vec<usize> {
    let front = items.div_ceil(threads);
    let least = (items / LEAST_SHARE).max(1);
    let side = |mut rest: usize, claimers: usize| {
        let mut sizes = Vec::new();
        while rest > 0 {
            let size = rest.div_ceil(PIECE_SHARE * claimers).max(least).min(rest);
            sizes.push(size);
            rest -= size;
        }
        sizes
    };
    let mut sizes = side(front, 1);
    sizes.extend(side(items - front, threads - 1).into_iter().rev());
    sizes
}

/// Calls of at most this many items on two threads go in two ranges, one a thread, the same
/// every call but for where they meet ([`Split`]): no claim a piece (each fetched the ends' line
/// from the other core, about 210 ns on the virtual machines we measure), and each game stays on
/// the core that stepped it last, where the pieces' meeting point moved a few games, each a few
/// hundred lines of state, every call. Beyond, a call is long enough for those to weigh little
/// (the pieces gave 1.6–2.0× at 1,024 games), and pieces let a thread that the system put off
/// leave the rest of its share to the other. (256 itself is not measured against other bounds.)
const FIXED_MOST: usize = 256;

/// The weight of a call's measure in [`Split`]'s moving average, and the least move of the
/// meeting point, as a share of the call's items (at least two): a game that changes thread
/// brings its state over, so the point moves only for a lasting difference.
const SPLIT_WEIGHT: f64 = 0.125;
const SPLIT_SLACK: usize = 64;

/// Where the calling thread's range (from the front) meets the worker's, on two threads: moved
/// between calls only, from the two ranges' measured times, so that both end together.
struct Split {
    /// The call's items the meeting point is for, and the caller's range.
    items: usize,
    front: usize,
    /// The worker's time an item over the caller's, a moving average: a worker whose rows the
    /// caller's Python read between calls fetches them back, and its games step slower.
    ratio: f64,
}

impl Split {
    fn new() -> Split {
        Split {
            items: 0,
            front: 0,
            ratio: 1.0,
        }
    }

    /// The caller's range of a call of `items` (at least 2).
    fn front(&mut self, items: usize) -> usize {
        if items != self.items {
            self.items = items;
            self.front = self.meet();
        }
        self.front
    }

    /// The point where both ranges would take as long, at the measured ratio.
    fn meet(&self) -> usize {
        let front = self.items as f64 * self.ratio / (1.0 + self.ratio);
        (front.round() as usize).clamp(1, self.items - 1)
    }

    /// Takes in a call in which the caller's range took `caller` ns and the worker's `worker`.
    fn weigh(&mut self, caller: f64, worker: f64) {
        if caller <= 0.0 || worker <= 0.0 {
            return;
        }
        let (front, back) = (self.front as f64, (self.items - self.front) as f64);
        // A thread held off its core a moment says little of its games: one call moves the
        // average by a thirty-second at most.
        let ratio = (worker / back / (caller / front)).clamp(self.ratio * 0.8, self.ratio * 1.25);
        self.ratio += (ratio - self.ratio) * SPLIT_WEIGHT;
        let meet = self.meet();
        if meet.abs_diff(self.front) >= (self.items / SPLIT_SLACK).max(2) {
            self.front = meet;
        }
    }
}

/// A word on a cache line (two: the prefetcher fetches lines in pairs) of its own. The calling
/// thread claims pieces through [`Ends`] while an idle worker spins on the generation and the
/// caller on [`Shared::finished`]: on one line, every claim waited for the line to come back
/// from the spinning core.
#[repr(align(128))]
struct Line<T>(T);

impl<T> std::ops::Deref for Line<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The end of the current call's plays: the pieces returned, and the nanoseconds the worker
/// spent on its pieces.
struct Finished {
    count: AtomicUsize,
    played: AtomicU64,
}

/// A thread's part in a call ([`Shared::take_part`]).
struct Part {
    /// Whether no check refused (so that the pieces played).
    played: bool,
    /// How long it waited for the others' checks.
    waited: Duration,
    /// The pieces it played, and how long they took.
    run: usize,
    spent: Duration,
}

/// What the calling thread and the workers share.
struct Shared {
    /// Bumped once per call; the workers wake when it moves. `u64::MAX` ends them.
    generation: Line<AtomicU64>,
    /// The current call's job, `None` once every piece has returned.
    job: Mutex<Option<Job>>,
    ends: Line<Ends>,
    /// The pieces of the current call's check not yet claimed, the call's tag and the checks
    /// that have returned (the high and low halves), and whether one refused.
    checks: Line<Ends>,
    checked: Line<AtomicU64>,
    refused: AtomicBool,
    /// Pieces of the current call that have returned, and the time the workers spent playing
    /// theirs (what [`Split`] weighs the worker's range by), on one line: the caller reads both.
    finished: Line<Finished>,
    /// The first panic of this call's pieces, to go on in the calling thread.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    /// Threads asleep (workers waiting for a call, the caller waiting for the workers), woken
    /// through `wake`.
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    /// Whether the threads may spin (not when there are more threads than cores, nor while the
    /// machine is oversubscribed).
    spin: AtomicBool,
    /// How long a worker spins after a call, in nanoseconds (twice the time seen between calls).
    linger: AtomicU64,
}

/// `m` locked: a lock poisoned by a panic (a bug) goes on being used, as the panic itself goes on
/// in the calling thread.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// Waits until `ready()`: awake for `linger` if the threads spin, then asleep until
    /// [`Shared::notify`]. How long it waited.
    fn wait(&self, linger: Duration, ready: impl Fn() -> bool) -> Duration {
        if ready() {
            return Duration::ZERO;
        }
        let start = Instant::now();
        if self.spin.load(Ordering::Relaxed) {
            while !ready() {
                if start.elapsed() >= linger {
                    break;
                }
                std::hint::spin_loop();
            }
        }
        if !ready() {
            let mut guard = lock(&self.lock);
            // Counted before `ready` is read again (both sequentially consistent), so that a
            // `notify` either finds the sleeper or came before the read that then sees it ready.
            self.sleepers.fetch_add(1, Ordering::SeqCst);
            while !ready() {
                guard = self.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
            }
            self.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
        start.elapsed()
    }

    /// Wakes the sleepers, after a change that `wait`'s `ready` reads (made sequentially
    /// consistent).
    fn notify(&self) {
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            drop(lock(&self.lock));
            self.wake.notify_all();
        }
    }

    /// Takes part in `job` from one end (`front` or the back), waiting `linger` awake at the
    /// end of its check: checks pieces while any is left, waits until every check of the call
    /// has returned, then plays pieces unless one refused (see [`Part`]). One call, not a round
    /// of checks and a round of plays: the hand-off (a worker seeing the call, taking its job)
    /// is paid once. A piece that panics
    /// counts as run (its panic is kept for the caller; a check's refuses): the others go on.
    /// Each count is added once, at the end of its phase: it is a write to a line the other
    /// threads read.
    fn take_part(&self, job: Job, front: bool, linger: Duration) -> Part {
        let most = if front { job.front_most } else { job.pieces };
        let mut waited = Duration::ZERO;
        if let Some(check) = job.check {
            let tag = u64::from(job.tag);
            let mut run = 0;
            while let Some(k) = (run < most).then(|| self.checks.claim(job.tag, front)).flatten() {
                // SAFETY: as for `play` below.
                let check = unsafe { &*check };
                let passed = panic::catch_unwind(AssertUnwindSafe(|| check(k))).unwrap_or_else(|payload| {
                    lock(&self.panic).get_or_insert(payload);
                    false
                });
                if !passed {
                    self.refused.store(true, Ordering::SeqCst);
                }
                run += 1;
            }
            let done = |v: u64| v >> 32 != tag || (v & 0xffff_ffff) as usize == job.pieces;
            if run > 0 && done(self.checked.fetch_add(run as u64, Ordering::SeqCst) + run as u64) {
                self.notify();
            }
            // A thread still holding an earlier call's job sees another tag and goes on, to
            // claim nothing.
            waited = self.wait(linger, || done(self.checked.load(Ordering::SeqCst)));
            if self.refused.load(Ordering::SeqCst) {
                return Part {
                    played: false,
                    waited,
                    run: 0,
                    spent: Duration::ZERO,
                };
            }
        }
        let (mut run, began) = (0, Instant::now());
        while let Some(k) = (run < most).then(|| self.ends.claim(job.tag, front)).flatten() {
            // SAFETY: piece `k` of call `tag` is claimed and has not returned: the caller waits
            // for it (see `Job`).
            let play = unsafe { &*job.play };
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| play(k))) {
                lock(&self.panic).get_or_insert(payload);
            }
            run += 1;
        }
        let spent = began.elapsed();
        if run > 0 {
            if !front {
                self.finished.played.store(spent.as_nanos() as u64, Ordering::Relaxed);
            }
            if self.finished.count.fetch_add(run, Ordering::SeqCst) + run == job.pieces {
                self.notify();
            }
        }
        Part {
            played: true,
            waited,
            run,
            spent,
        }
    }
}

/// How many times this process is a fork's child, counted by [`forked`].
static FORKS: AtomicU64 = AtomicU64::new(0);

/// Tells the crews that the process is a fork's child (Python's `os.register_at_fork` calls it):
/// the child has only the thread that forked, so the crews started before need workers anew.
pub fn forked() {
    FORKS.fetch_add(1, Ordering::SeqCst);
}

/// Whether the workers pay, from trials of calls with them and alone.
struct Tuning {
    /// The next call of the current trial ([`TRIAL`]; past its end: no trial under way), and
    /// the trial's fastest judged call with the workers and alone, in nanoseconds.
    step: usize,
    with: f64,
    without: f64,
    /// Between trials: whether the calls go with the workers, and what is left before the next
    /// trial (calls with them, or nanoseconds of calls alone).
    team: bool,
    left: f64,
    /// The calls with the workers after the next trial won.
    stretch: f64,
    /// The factor of the next wait alone.
    factor: f64,
    /// When the last call ended, to time the gap before the next one.
    last_end: Option<Instant>,
    gap: f64,
    /// When the machine's threads ready to run were last read, the moving average of those not
    /// the crew's, and whether it leaves a core to each of the crew's threads.
    last_look: Option<Instant>,
    ready: f64,
    /// The calling thread's last reading of its wait for a core (its thread, when, the wait in
    /// nanoseconds), and the moving average of the share of the time it waited.
    last_wait: Option<(std::thread::ThreadId, Instant, u64)>,
    waits: f64,
    calm: bool,
    /// Whether the last call went with the workers (so that they spin now, if they may).
    last_team: bool,
}

/// The environment variable that, set to `always` when a batch is made, has its every call
/// of more than one piece go with the workers, whatever the machine's load.
pub const ALWAYS: &str = "ARBITER_BATCH_WORKERS";

/// How often a crew reads how many threads the machine has ready to run.
const LOOK: Duration = Duration::from_millis(50);

/// The threads ready to run on the machine now (this one included), from `/proc/loadavg`'s
/// fourth field (`running/total`); `None` where it cannot be read.
fn threads_ready() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().nth(3)?.split('/').next()?.parse().ok()
}

/// How long the calling thread has waited for a core while ready to run, in nanoseconds
/// (`/proc/thread-self/schedstat`'s second field); `None` where it cannot be read.
fn waited() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().nth(1)?.parse().ok()
}

/// The share of the time above which a calling thread that waits for a core finds the machine
/// busy. Three threads of one priority on two cores wait a third of the time; a thread beside
/// `nice 19` builds, a few hundredths.
const WAITS: f64 = 0.1;

impl Tuning {
    fn new() -> Tuning {
        Tuning {
            // The first calls are a trial.
            step: 0,
            with: f64::INFINITY,
            without: f64::INFINITY,
            team: false,
            left: 0.0,
            stretch: TEAM_CALLS,
            factor: WAIT_FIRST,
            last_end: None,
            gap: 0.0,
            last_look: None,
            ready: -1.0,
            last_wait: None,
            waits: -1.0,
            calm: true,
            last_team: false,
        }
    }

    /// Takes in `now` threads ready to run on a machine of `cores`, `ours` of them the crew's
    /// (of its `threads`), and the share of the time since the last look that the calling
    /// thread waited for a core, if known: whether the machine is calm. The crew's own are left
    /// out of the average, or a crew that steps alone on a machine with one other busy thread
    /// would see it calm, then busy once its workers spin, and so on.
    fn look(&mut self, now: f64, ours: usize, threads: usize, cores: usize, waited: Option<f64>) -> bool {
        let average = |old: f64, new: f64| if old < 0.0 { new } else { old * 0.75 + new * 0.25 };
        self.ready = average(self.ready, (now - ours as f64).max(0.0));
        if let Some(w) = waited {
            self.waits = average(self.waits, w);
        }
        // A thread's slack: a daemon that runs a moment (a load average of 0.3 is a thread ready
        // 30 % of the time) keeps the average above a whole thread for seconds (the excess
        // shrinks by a quarter a read). More threads than cores are counted as the cores they
        // can fill.
        let calm = self.ready + (threads.min(cores) as f64) < (cores + 1) as f64 || (0.0..WAITS).contains(&self.waits);
        if self.calm && !calm && (self.team || self.step < TRIAL.len()) {
            // Judged on a calm machine: a trial comes first when it is calm again.
            self.begin_trial();
        }
        self.calm = calm;
        calm
    }

    /// Whether this call goes with the workers: never while the machine is busy.
    fn team(&self) -> bool {
        self.calm && TRIAL.get(self.step).copied().unwrap_or(self.team)
    }

    fn begin_trial(&mut self) {
        (self.step, self.with, self.without) = (0, f64::INFINITY, f64::INFINITY);
    }

    /// Records a call of `ns` nanoseconds, with the workers or not, in which the caller waited
    /// `held` nanoseconds for the workers' pieces.
    fn record(&mut self, team: bool, ns: f64, held: f64) {
        self.last_team = team;
        if !self.calm {
            // Alone, as the machine is busy: no trial goes on, but a wait alone after a trial
            // lost counts the time.
            if self.step >= TRIAL.len() && !self.team {
                self.left -= ns;
                if self.left <= 0.0 {
                    self.begin_trial();
                }
            }
            return;
        }
        if self.step < TRIAL.len() {
            match (self.step, team) {
                (0, _) => {}
                (_, true) => self.with = self.with.min(ns),
                (_, false) => self.without = self.without.min(ns),
            }
            self.step += 1;
            if self.step < TRIAL.len() {
                return;
            }
            self.team = self.without >= PAYS * self.with;
            if self.team {
                self.left = self.stretch;
                self.stretch = (self.stretch * 2.0).min(TEAM_MOST);
                self.factor = WAIT_FIRST;
            } else {
                self.stretch = TEAM_CALLS;
                // What the trial's judged calls with the workers lost; at least one call's
                // time, so that a trial never follows a trial.
                let judged = TRIAL.iter().skip(1).filter(|&&t| t).count() as f64;
                self.left = self.factor * (judged * (self.with - self.without)).max(ns);
                self.factor = (self.factor * 2.0).min(WAIT_MOST);
            }
            return;
        }
        let stalled = team && held > STALL * self.with;
        self.left -= if team { 1.0 } else { ns };
        if stalled {
            self.stretch = TEAM_CALLS;
        }
        if self.left <= 0.0 || stalled {
            self.begin_trial();
        }
    }
}

/// The cores this process may use. Read once a crew: the standard library asks the system's
/// affinity and reads three cgroup files each time, which at every look (two `/proc` reads
/// besides) made a batch stepping alone on a loaded machine spend 3–8 % more processor a step
/// than one without threads.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Worker threads that run a job's pieces beside the calling thread.
pub struct Crew {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
    /// [`FORKS`] when the workers started.
    forks: u64,
    tuning: Tuning,
    /// The last call's tag.
    tag: u32,
    /// When the current call began ([`Crew::plan`]).
    start: Instant,
    /// [`ALWAYS`] was set: no trial, no gate.
    always: bool,
    /// [`cores`], when the crew was made.
    cores: usize,
    /// Where the two threads' ranges meet, with one worker, and whether the current call goes in
    /// those two ranges.
    split: Option<Split>,
    fixed: bool,
}

impl Crew {
    /// `workers` threads beside the caller's.
    pub fn new(workers: usize) -> std::io::Result<Crew> {
        let forks = FORKS.load(Ordering::SeqCst);
        let cores = cores();
        let shared = Arc::new(Shared {
            generation: Line(AtomicU64::new(0)),
            job: Mutex::new(None),
            ends: Line(Ends(AtomicU64::new(0))),
            checks: Line(Ends(AtomicU64::new(0))),
            checked: Line(AtomicU64::new(0)),
            refused: AtomicBool::new(false),
            finished: Line(Finished {
                count: AtomicUsize::new(0),
                played: AtomicU64::new(0),
            }),
            panic: Mutex::new(None),
            sleepers: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            spin: AtomicBool::new(workers < cores),
            linger: AtomicU64::new(LINGER.as_nanos() as u64),
        });
        let mut crew = Crew {
            shared,
            workers: Vec::with_capacity(workers),
            forks,
            tuning: Tuning::new(),
            tag: 0,
            start: Instant::now(),
            always: std::env::var(ALWAYS).is_ok_and(|v| v == "always"),
            cores,
            split: (workers == 1).then(Split::new),
            fixed: false,
        };
        for share in 1..=workers {
            let shared = Arc::clone(&crew.shared);
            let worker = std::thread::Builder::new()
                .name(format!("arbiter-batch-{share}"))
                .spawn(move || work(&shared))?;
            // Pushed at once: if a later spawn fails, dropping `crew` ends the ones started.
            crew.workers.push(worker);
        }
        Ok(crew)
    }

    /// Starts the workers again in a fork's child, where the crew's threads do not exist.
    pub fn after_fork(&mut self) -> std::io::Result<()> {
        if FORKS.load(Ordering::SeqCst) == self.forks {
            return Ok(());
        }
        // The old crew's drop leaves its threads alone: they are the parent's.
        *self = Crew::new(self.workers.len())?;
        Ok(())
    }

    /// Begins a call over `items`: the sizes of the pieces to cut them into for [`Crew::run`],
    /// front to back, or `None` when the call is to step alone, through [`Crew::alone`] (which
    /// then costs nothing more than a call without threads). Several pieces per thread, so that
    /// a thread the system puts off leaves its pieces to the others, but for a small call on two
    /// threads ([`FIXED_MOST`]): a piece each.
    pub fn plan(&mut self, items: usize) -> Option<Vec<usize>> {
        let start = Instant::now();
        self.start = start;
        if let Some(end) = self.tuning.last_end {
            let gap = start.duration_since(end).as_nanos() as f64;
            self.tuning.gap = if self.tuning.gap == 0.0 {
                gap
            } else {
                self.tuning.gap * 0.75 + gap * 0.25
            };
            // Through a trial, the longest: the workers stay awake across its calls alone, or
            // the next call with them would wake them (a futex and a halted core's wake-up, 10 µs
            // or more on a virtual machine), twice a trial.
            let linger = if self.tuning.step < TRIAL.len() {
                LINGER.as_nanos() as f64
            } else {
                (2.0 * self.tuning.gap).min(LINGER.as_nanos() as f64)
            };
            self.shared.linger.store(linger as u64, Ordering::Relaxed);
        }
        if self.tuning.last_look.is_none_or(|t| start.duration_since(t) >= LOOK) {
            self.tuning.last_look = Some(start);
            let wait = waited().map(|w| (std::thread::current().id(), start, w));
            let share = match (self.tuning.last_wait, wait) {
                (Some((was, then, before)), Some((now, _, after))) if was == now && start > then => {
                    Some(after.saturating_sub(before) as f64 / start.duration_since(then).as_nanos() as f64)
                }
                _ => None,
            };
            self.tuning.last_wait = wait;
            if let Some(now) = threads_ready() {
                let (cores, threads) = (self.cores, self.workers.len() + 1);
                // The caller reads, and the workers spin if the last call went with them.
                let spinning = self.tuning.last_team && self.shared.spin.load(Ordering::Relaxed);
                let ours = if spinning { threads } else { 1 };
                let calm = self.tuning.look(now, ours, threads, cores, share);
                self.shared.spin.store(threads <= cores && calm, Ordering::Relaxed);
            }
        }
        self.fixed = false;
        (items > 1 && (self.always || self.tuning.team())).then(|| match self.split.as_mut() {
            Some(split) if items <= FIXED_MOST => {
                self.fixed = true;
                let front = split.front(items);
                vec![front, items - front]
            }
            _ => cut(items, self.workers.len() + 1),
        })
    }

    /// The call that [`Crew::plan`] began, stepped alone by `f`.
    pub fn alone<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let out = f();
        let end = Instant::now();
        self.tuning
            .record(false, end.duration_since(self.start).as_nanos() as f64, 0.0);
        self.tuning.last_end = Some(end);
        out
    }

    /// The call that [`Crew::plan`] began, with the workers: runs `check(k)`, if given, for
    /// every piece `k` in `0..pieces`, then, unless one returned `false`, `play(k)` for every
    /// piece, in the calling thread and the workers; returns once every piece begun has
    /// returned. A panic in any of them goes on here once all are done (a check that panics
    /// refuses).
    pub fn run(&mut self, pieces: usize, check: Option<Check<'_>>, play: &(dyn Fn(usize) + Sync)) {
        let shared = &*self.shared;
        self.tag = self.tag.wrapping_add(1);
        // SAFETY (the lifetimes erased): the caller returns only once every piece begun has
        // returned (`checked`, then `finished` unless a check refused, after which no thread
        // plays), and a worker calls them only for a piece of this call's tag.
        let job = Job {
            tag: self.tag,
            check: check.map(|c| unsafe { std::mem::transmute::<Check<'_>, Check<'static>>(c) } as *const _),
            play: unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), &'static (dyn Fn(usize) + Sync)>(play) },
            pieces,
            front_most: if self.fixed { 1 } else { pieces },
        };
        shared.ends.set(self.tag, 0, pieces);
        if check.is_some() {
            shared.checks.set(self.tag, 0, pieces);
            shared.checked.store(u64::from(self.tag) << 32, Ordering::SeqCst);
            shared.refused.store(false, Ordering::SeqCst);
        }
        shared.finished.count.store(0, Ordering::SeqCst);
        *lock(&shared.job) = Some(job);
        shared.generation.fetch_add(1, Ordering::SeqCst);
        shared.notify();
        let part = shared.take_part(job, true, AWAIT);
        let mut held = part.waited;
        if part.played {
            held += shared.wait(AWAIT, || shared.finished.count.load(Ordering::SeqCst) == pieces);
            // The worker played its range (the caller only its own): how the two ranges went.
            if let Some(split) = self.split.as_mut().filter(|_| self.fixed && part.run == 1) {
                let worker = shared.finished.played.load(Ordering::Relaxed) as f64;
                split.weigh(part.spent.as_nanos() as f64, worker);
            }
        }
        // Only now: a caller that leaves pieces to the workers waits for a worker that has yet to
        // take the job.
        *lock(&shared.job) = None;
        let end = Instant::now();
        self.tuning.record(
            true,
            end.duration_since(self.start).as_nanos() as f64,
            held.as_nanos() as f64,
        );
        self.tuning.last_end = Some(end);
        if let Some(payload) = lock(&shared.panic).take() {
            panic::resume_unwind(payload);
        }
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        if FORKS.load(Ordering::SeqCst) != self.forks {
            // A crew of the parent's, dropped in a fork's child: its threads are not this
            // process's to wake or join (POSIX leaves that undefined), so nothing is touched.
            std::mem::take(&mut self.workers).into_iter().for_each(std::mem::forget);
            return;
        }
        self.shared.generation.store(u64::MAX, Ordering::SeqCst);
        self.shared.notify();
        for worker in self.workers.drain(..) {
            // A worker's panics are caught in `claim`: joining cannot fail.
            let _ = worker.join();
        }
    }
}

thread_local! {
    /// Whether this thread is a batch's worker (not a thread of the caller's).
    static WORKER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the current thread is a crew's worker.
pub fn on_worker() -> bool {
    WORKER.get()
}

/// A worker's life: wait for a call, claim its pieces while any are left, until the crew ends.
fn work(shared: &Shared) {
    WORKER.set(true);
    let mut seen = 0;
    loop {
        let linger = Duration::from_nanos(shared.linger.load(Ordering::Relaxed));
        shared.wait(linger, || shared.generation.load(Ordering::SeqCst) != seen);
        seen = shared.generation.load(Ordering::SeqCst);
        if seen == u64::MAX {
            return;
        }
        let job = *lock(&shared.job);
        if let Some(job) = job {
            shared.take_part(job, false, linger);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pieces_shrink_toward_where_the_threads_meet() {
        for (items, threads) in [(2, 2), (3, 2), (17, 2), (128, 2), (128, 3), (1024, 2), (1 << 20, 4)] {
            let sizes = cut(items, threads);
            assert_eq!(sizes.iter().sum::<usize>(), items, "{items} on {threads}");
            assert!(sizes.iter().all(|&s| s > 0));
            // The caller's share from the front, shrinking; the workers' from the back, likewise.
            let (mut sum, mut meet) = (0, 0);
            while sum < items.div_ceil(threads) {
                sum += sizes[meet];
                meet += 1;
            }
            assert_eq!(sum, items.div_ceil(threads), "{items} on {threads}: {sizes:?}");
            assert!(sizes[..meet].windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
            assert!(sizes[meet..].windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
            assert!(sizes.len() < 64, "{items} on {threads}: {} pieces", sizes.len());
        }
        // 128 games on two threads: no more claims than the sixteen pieces of eight before, and
        // the last piece begun is at most four games, not eight.
        let sizes = cut(128, 2);
        assert!(sizes.len() <= 16 && sizes[0] >= 16, "{sizes:?}");
        assert!(
            sizes[sizes.len() / 2 - 1] <= 4 && sizes[sizes.len() / 2] <= 4,
            "{sizes:?}"
        );
    }

    /// Weighs `calls` calls in which the worker takes `slower` times the caller's time a game.
    fn weigh(split: &mut Split, items: usize, calls: usize, slower: impl Fn(usize) -> f64) {
        for call in 0..calls {
            let front = split.front(items);
            split.weigh(front as f64 * 400.0, (items - front) as f64 * 400.0 * slower(call));
        }
    }

    #[test]
    fn the_ranges_meet_where_both_threads_end_together() {
        let mut split = Split::new();
        assert_eq!(split.front(128), 64);
        // A worker 20 % slower a game: both end together at 128 * 1.2 / 2.2, about 70.
        weigh(&mut split, 128, 200, |_| 1.2);
        assert!((68..=71).contains(&split.front(128)), "{}", split.front(128));
        // Another size starts from the ratio measured.
        assert!((33..=36).contains(&split.front(64)), "{}", split.front(64));
        assert_eq!((split.front(2), split.front(3)), (1, 2));
    }

    #[test]
    fn calls_that_differ_a_little_leave_the_meeting_point_where_it_is() {
        let mut split = Split::new();
        // Each game that changes thread brings its state over: noise moves no game.
        weigh(&mut split, 128, 1000, |call| if call % 2 == 0 { 0.9 } else { 1.1 });
        assert_eq!(split.front(128), 64);
        // Nor does a call in which the worker was held off its core for a time slice.
        weigh(&mut split, 128, 1, |_| 1000.0);
        assert_eq!(split.front(128), 64);
    }

    #[test]
    fn a_moment_of_load_leaves_a_quiet_machine_calm() {
        let mut t = Tuning::new();
        // A batch's two threads fill the 2 cores; a daemon runs a moment.
        for now in [2.0, 2.0, 3.0, 2.0, 2.0] {
            t.look(now, 2, 2, 2, None);
        }
        assert!(t.calm, "average {}", t.ready);
        for _ in 0..10 {
            t.look(4.0, 2, 2, 2, None);
        }
        assert!(!t.calm, "average {}", t.ready);
    }

    #[test]
    fn one_other_busy_thread_is_seen_alike_whether_the_workers_spin_or_sleep() {
        // Counting the crew's own threads, the machine looked calm to a crew stepping alone
        // (the caller and the busy thread: 2 < 3) and busy once its worker spun (3).
        for (now, ours) in [(2.0, 1), (3.0, 2)] {
            let mut t = Tuning::new();
            for _ in 0..10 {
                t.look(now, ours, 2, 2, None);
            }
            assert!(!t.calm, "{now} ready, {ours} ours: average {}", t.ready);
        }
    }

    /// Runs a whole trial: its calls with the workers take `with` ns, alone `without`.
    fn trial(t: &mut Tuning, with: f64, without: f64) {
        for &team in &TRIAL {
            assert_eq!(t.team(), team);
            t.record(team, if team { with } else { without }, 0.0);
        }
    }

    #[test]
    fn a_busy_machine_steps_alone_and_a_trial_comes_first_when_calm_again() {
        let mut t = Tuning::new();
        t.look(0.0, 1, 2, 2, None);
        trial(&mut t, 100.0, 300.0);
        assert!(t.team());
        // Four busy threads besides the caller: no call goes with the workers, however long.
        for _ in 0..5 {
            t.look(5.0, 1, 2, 2, Some(0.6));
        }
        assert!(!t.calm);
        for _ in 0..1000 {
            assert!(!t.team());
            t.record(false, 100.0, 0.0);
        }
        // Calm again: a trial first, whose loss sends the crew alone.
        while !t.look(1.0, 1, 2, 2, Some(0.3)) {}
        trial(&mut t, 300.0, 100.0);
        assert!(!t.team());
        assert_eq!(t.left, 16.0 * 400.0);
    }

    #[test]
    fn a_caller_that_hardly_waits_for_a_core_finds_the_machine_calm() {
        // Ten threads ready besides a caller that waits 2 % of the time (`nice`d builds), then
        // a third of the time.
        let mut t = Tuning::new();
        for _ in 0..10 {
            t.look(11.0, 1, 2, 2, Some(0.02));
        }
        assert!(t.calm, "waits {}", t.waits);
        for _ in 0..10 {
            t.look(11.0, 1, 2, 2, Some(0.33));
        }
        assert!(!t.calm, "waits {}", t.waits);
    }

    /// Steps `calls` calls of a batch whose every ninth call is ten times the others' work (a
    /// Triple Triad batch deals all its games anew), the workers gaining 1.85× and holding the
    /// caller for at most a piece of sixteen: the share of calls that went alone.
    fn alone_share(t: &mut Tuning, calls: usize) -> f64 {
        let mut alone = 0;
        for i in 0..calls {
            let work = if i % 9 == 8 { 300_000.0 } else { 30_000.0 };
            let team = t.team();
            alone += usize::from(!team);
            if team {
                t.record(true, work / 1.85, work / 32.0);
            } else {
                t.record(false, work, 0.0);
            }
        }
        alone as f64 / calls as f64
    }

    #[test]
    fn a_call_far_longer_than_the_others_neither_decides_a_trial_nor_stalls() {
        // Judged by sums and by the length of a call, a deal among a trial's calls lost it or
        // ended the workers' stretch: 22 % of the calls went alone.
        let mut t = Tuning::new();
        t.look(0.0, 1, 2, 2, None);
        let share = alone_share(&mut t, 9_000);
        assert!(share < 0.02, "{share}");
    }

    #[test]
    fn a_caller_held_by_its_workers_starts_a_trial_at_once() {
        let mut t = Tuning::new();
        t.look(0.0, 1, 2, 2, None);
        trial(&mut t, 100.0, 300.0);
        // A long call that held the caller for no more than a piece: the workers go on.
        t.record(true, 1_000.0, 50.0);
        assert!(t.step >= TRIAL.len() && t.team());
        // A worker held off its core for a time slice held the caller: a trial at once.
        t.record(true, 1_000.0, 500.0);
        assert_eq!(t.step, 0);
    }

    #[test]
    fn a_wait_alone_goes_on_counting_while_the_machine_is_busy() {
        let mut t = Tuning::new();
        t.look(0.0, 1, 2, 2, None);
        trial(&mut t, 300.0, 100.0);
        let left = t.left;
        t.look(5.0, 1, 2, 2, Some(0.6));
        t.record(false, 100.0, 0.0);
        assert_eq!(t.left, left - 100.0);
        assert!(t.step >= TRIAL.len());
    }
}

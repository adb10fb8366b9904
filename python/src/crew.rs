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
//!   core's cache;
//! - a piece that a worker has begun cannot be taken back, and a worker the system pauses inside
//!   one holds the caller for as long as the system keeps it off a core (milliseconds under
//!   load, whatever the piece's size). So each call with the workers measures what it gained:
//!   the caller's own pieces, timed, say what the whole call would have taken alone, against
//!   what it took. While that ratio is under [`PAYS`], the crew steps alone (the workers sleep)
//!   and tries the workers again for a few calls after a time alone in proportion to what the
//!   last trial lost, longer each time they lose;
//! - no thread spins when there are more threads than cores, nor while the machine has more
//!   threads ready to run than cores (read from `/proc/loadavg` now and then): a spinning thread
//!   would take a core from one with work.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest a worker stays awake after a call: longer than the time between two steps of a
/// batch stepped in a loop (drawing 128 actions with NumPy takes about 15 µs).
const LINGER: Duration = Duration::from_micros(300);

/// The longest the calling thread waits awake for a piece that a worker has begun, before it
/// sleeps (a worker that the system has put off would otherwise wait for the core the caller
/// spins on).
const AWAIT: Duration = Duration::from_micros(200);

/// The least gain (the call's time alone over its time with the workers) for which the workers
/// go on: above 1, because the caller's pieces run a little slower beside a worker (the two share
/// the memory bus), which makes the time alone it infers from them a little long.
const PAYS: f64 = 1.1;

/// How many calls a trial of the workers lasts (the first not judged; fewer if they lose more
/// than half at once).
const TRIAL: u32 = 4;

/// After a trial that lost, the crew steps alone for this many times the time the trial lost
/// (at first, and at most: the factor doubles with each trial lost in a row), so that trials
/// cost at most a sixteenth of the time, and soon far less. Under load, a trial can lose
/// milliseconds where a call alone takes tens of microseconds: waits counted in calls cost
/// more than the workers ever gave back.
const WAIT_FIRST: f64 = 16.0;
const WAIT_MOST: f64 = 1024.0;

/// Calls with the workers after which their losing starts the waits afresh: they paid for a
/// while, so the machine has changed.
const PAID_LONG: u32 = 64;

/// The current call's job: its tag (see [`Ends`]), the job, its number of pieces. The job's
/// lifetime is erased: a worker calls it only for a piece it claimed under that tag, and
/// [`Crew::run`] does not return before every piece claimed has returned.
#[derive(Clone, Copy)]
struct Job(u32, *const (dyn Fn(usize) + Sync), usize);

// SAFETY: the job behind the pointer is `Sync`, and it is only called while alive (see `Job`).
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

/// The most pieces a call is cut into (`front` and `back` take 16 bits).
const MOST_PIECES: usize = 0xffff;

/// What the calling thread and the workers share.
struct Shared {
    /// Bumped once per call; the workers wake when it moves. `u64::MAX` ends them.
    generation: AtomicU64,
    /// The current call's job, `None` once the caller has claimed the last piece.
    job: Mutex<Option<Job>>,
    ends: Ends,
    /// Pieces of the current call that have returned.
    finished: AtomicUsize,
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
    /// [`Shared::notify`].
    fn wait(&self, linger: Duration, ready: impl Fn() -> bool) {
        if self.spin.load(Ordering::Relaxed) {
            let start = Instant::now();
            while !ready() {
                if start.elapsed() >= linger {
                    break;
                }
                std::hint::spin_loop();
            }
        }
        if ready() {
            return;
        }
        let mut guard = lock(&self.lock);
        // Counted before `ready` is read again (both sequentially consistent), so that a
        // `notify` either finds the sleeper or came before the read that then sees it ready.
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        while !ready() {
            guard = self.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Wakes the sleepers, after a change that `wait`'s `ready` reads (made sequentially
    /// consistent).
    fn notify(&self) {
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            drop(lock(&self.lock));
            self.wake.notify_all();
        }
    }

    /// Claims and runs pieces of `job` from one end until none is left, and says how many it ran.
    /// A piece that panics counts as run (its panic is kept for the caller): the others go on.
    fn claim(&self, Job(tag, job, pieces): Job, front: bool) -> usize {
        let mut ran = 0;
        while let Some(k) = self.ends.claim(tag, front) {
            // SAFETY: piece `k` of call `tag` is claimed and has not returned: the caller waits
            // for it (see `Job`).
            let job = unsafe { &*job };
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| job(k))) {
                lock(&self.panic).get_or_insert(payload);
            }
            ran += 1;
            if self.finished.fetch_add(1, Ordering::SeqCst) + 1 == pieces {
                self.notify();
            }
        }
        ran
    }
}

/// How many times this process is a fork's child, counted by [`forked`].
static FORKS: AtomicU64 = AtomicU64::new(0);

/// Tells the crews that the process is a fork's child (Python's `os.register_at_fork` calls it):
/// the child has only the thread that forked, so the crews started before need workers anew.
pub fn forked() {
    FORKS.fetch_add(1, Ordering::SeqCst);
}

/// Whether the workers pay, from what the calls with them gained.
struct Tuning {
    /// The calls with the workers since the last trial began, summed with the older ones
    /// fading: what they would have taken alone (inferred from the caller's pieces) and what
    /// they took, in nanoseconds.
    alone: f64,
    together: f64,
    /// The same, summed without fading: what the workers lost since the trial began.
    lost: f64,
    /// Calls with the workers since the last trial began, and of those still to come in that
    /// trial whatever they gain.
    stretch: u32,
    trial: u32,
    /// Nanoseconds of calls alone left before the next trial, and the factor of the next wait.
    wait: f64,
    factor: f64,
    /// When the last call ended, to time the gap before the next one.
    last_end: Option<Instant>,
    gap: f64,
    /// When the machine's threads ready to run were last read, and their moving average.
    last_look: Option<Instant>,
    ready: f64,
}

/// How often a crew reads how many threads the machine has ready to run.
const LOOK: Duration = Duration::from_millis(50);

/// The threads ready to run on the machine now (this one included), from `/proc/loadavg`'s
/// fourth field (`running/total`); `None` where it cannot be read.
fn threads_ready() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().nth(3)?.split('/').next()?.parse().ok()
}

impl Tuning {
    fn new() -> Tuning {
        Tuning {
            alone: 0.0,
            together: 0.0,
            lost: 0.0,
            stretch: 0,
            // The first calls are a trial.
            trial: TRIAL,
            wait: 0.0,
            factor: WAIT_FIRST,
            last_end: None,
            gap: 0.0,
            last_look: None,
            ready: 0.0,
        }
    }

    /// Whether this call goes with the workers.
    fn team(&self) -> bool {
        self.wait <= 0.0
    }

    /// Records a call alone of `ns` nanoseconds.
    fn alone(&mut self, ns: f64) {
        self.wait -= ns;
        if self.wait <= 0.0 {
            // A new trial, judged on its own calls: what the workers gained long ago says
            // little about the machine now.
            (self.alone, self.together, self.lost) = (0.0, 0.0, 0.0);
            (self.stretch, self.trial) = (0, TRIAL);
        }
    }

    /// Records a call with the workers: what it would have taken alone and what it took, in
    /// nanoseconds.
    fn together(&mut self, alone: f64, together: f64) {
        if self.trial == TRIAL && self.stretch == 0 {
            // A trial's first call wakes the workers from their sleep (tens of microseconds,
            // as much as a whole call of 64 Triple Triad games): it says nothing of the calls
            // that follow with the workers awake.
            self.trial -= 1;
            self.stretch += 1;
            return;
        }
        // Older calls fade, so that the crew follows the machine's load within a few calls.
        self.alone = self.alone * 0.75 + alone;
        self.together = self.together * 0.75 + together;
        self.lost += together - alone;
        self.stretch += 1;
        self.trial = self.trial.saturating_sub(1);
        let losing = self.alone < PAYS * self.together;
        if !losing || (self.trial > 0 && self.together < 2.0 * self.alone) {
            return;
        }
        if self.stretch >= PAID_LONG {
            self.factor = WAIT_FIRST;
        }
        // At least one call's time, whatever the loss, so that a trial never follows a trial.
        self.wait = self.factor * self.lost.max(together);
        self.factor = (self.factor * 2.0).min(WAIT_MOST);
    }
}

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
}

impl Crew {
    /// `workers` threads beside the caller's.
    pub fn new(workers: usize) -> std::io::Result<Crew> {
        let forks = FORKS.load(Ordering::SeqCst);
        let cores = cores();
        let shared = Arc::new(Shared {
            generation: AtomicU64::new(0),
            job: Mutex::new(None),
            ends: Ends(AtomicU64::new(0)),
            finished: AtomicUsize::new(0),
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

    /// Begins a call over `items`: how many pieces to cut them into for [`Crew::run`], or
    /// `None` when the call is to step alone, through [`Crew::alone`] (which then costs nothing
    /// more than a call without threads). Several pieces per thread, so that a thread the
    /// system puts off leaves its pieces to the others.
    pub fn plan(&mut self, items: usize) -> Option<usize> {
        let start = Instant::now();
        self.start = start;
        if let Some(end) = self.tuning.last_end {
            let gap = start.duration_since(end).as_nanos() as f64;
            self.tuning.gap = if self.tuning.gap == 0.0 {
                gap
            } else {
                self.tuning.gap * 0.75 + gap * 0.25
            };
            let linger = (2.0 * self.tuning.gap).min(LINGER.as_nanos() as f64);
            self.shared.linger.store(linger as u64, Ordering::Relaxed);
        }
        if self.tuning.last_look.is_none_or(|t| start.duration_since(t) >= LOOK) {
            self.tuning.last_look = Some(start);
            if let Some(now) = threads_ready() {
                let t = &mut self.tuning;
                t.ready = if t.ready == 0.0 {
                    now
                } else {
                    t.ready * 0.75 + now * 0.25
                };
                let cores = cores();
                let spin = self.workers.len() < cores && t.ready <= cores as f64;
                self.shared.spin.store(spin, Ordering::Relaxed);
            }
        }
        let pieces = items.min(8 * (self.workers.len() + 1)).min(MOST_PIECES);
        (pieces > 1 && self.tuning.team()).then_some(pieces)
    }

    /// The call that [`Crew::plan`] began, stepped alone by `f`.
    pub fn alone<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let out = f();
        let end = Instant::now();
        self.tuning.alone(end.duration_since(self.start).as_nanos() as f64);
        self.tuning.last_end = Some(end);
        out
    }

    /// The call that [`Crew::plan`] began, with the workers: runs `job(k)` once for every piece
    /// `k` in `0..pieces`, in the calling thread and the workers, and returns when every one has
    /// returned. A panic in any of them goes on here once all are done.
    pub fn run(&mut self, pieces: usize, job: &(dyn Fn(usize) + Sync)) {
        let (mine, working) = self.together(pieces, job);
        let end = Instant::now();
        let together = end.duration_since(self.start).as_nanos() as f64;
        // The caller's pieces at the pace it ran them: the whole call alone, on this machine as
        // loaded now. A caller that ran none (put off while the workers took every piece)
        // tells nothing.
        let (alone, together) = match mine {
            0 => (0.0, 0.0),
            _ => (working.as_nanos() as f64 * pieces as f64 / mine as f64, together),
        };
        self.tuning.together(alone, together);
        self.tuning.last_end = Some(end);
    }

    /// [`Crew::run`] with the workers woken; says how many pieces the caller ran and how long
    /// that took it.
    fn together(&mut self, pieces: usize, job: &(dyn Fn(usize) + Sync)) -> (usize, Duration) {
        let shared = &*self.shared;
        self.tag = self.tag.wrapping_add(1);
        // SAFETY (the lifetime erased): the caller returns only once every piece has returned
        // (`finished`), and a worker calls the job only for a piece of this call's tag.
        let job: *const (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(job) };
        let job = Job(self.tag, job, pieces);
        shared.ends.set(self.tag, 0, pieces);
        shared.finished.store(0, Ordering::SeqCst);
        *lock(&shared.job) = Some(job);
        shared.generation.fetch_add(1, Ordering::SeqCst);
        shared.notify();
        let begun = Instant::now();
        let mine = shared.claim(job, true);
        let working = begun.elapsed();
        *lock(&shared.job) = None;
        shared.wait(AWAIT, || shared.finished.load(Ordering::SeqCst) == pieces);
        if let Some(payload) = lock(&shared.panic).take() {
            panic::resume_unwind(payload);
        }
        (mine, working)
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

/// A worker's life: wait for a call, claim its pieces while any are left, until the crew ends.
fn work(shared: &Shared) {
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
            shared.claim(job, false);
        }
    }
}

//! A batch's worker threads: a call is cut into pieces that the calling thread and the workers
//! claim one at a time, and the crew steps alone whenever the workers do not pay.
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
//!   caller waits only for the pieces a worker has begun;
//! - each call is timed, and the crew keeps the faster of stepping with its workers and stepping
//!   alone (the workers then sleep), trying the other way now and then, less often each time it
//!   loses, so that a batch is never much slower than its one-thread run;
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

/// How often (in calls) the way not taken is tried again at first, and at most: the interval
/// doubles each time it loses.
const PROBE_FIRST: u32 = 8;
const PROBE_MOST: u32 = 512;

/// The job of the current call and its number of pieces, the job's lifetime erased:
/// [`Crew::run`] does not return, nor unwind, before every worker is done with it.
type Job = (&'static (dyn Fn(usize) + Sync), usize);

/// What the calling thread and the workers share.
struct Shared {
    /// Bumped once per call; the workers wake when it moves. `u64::MAX` ends them.
    generation: AtomicU64,
    /// The current call's job, `None` once the caller has taken every piece: a worker enters the
    /// job (counted in `inside`) only while holding this lock and finding it there.
    job: Mutex<Option<Job>>,
    /// The next piece to claim.
    next: AtomicUsize,
    /// Workers inside the current job.
    inside: AtomicUsize,
    /// The first panic of a worker in this call, to go on in the calling thread.
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

    /// Claims and runs pieces of `job` until none is left; a panic stops this thread's claims.
    fn claim(&self, (job, pieces): Job) -> Result<(), Box<dyn Any + Send>> {
        panic::catch_unwind(AssertUnwindSafe(|| loop {
            let k = self.next.fetch_add(1, Ordering::SeqCst);
            if k >= pieces {
                return;
            }
            job(k);
        }))
    }
}

/// How many times this process is a fork's child, counted by [`forked`].
static FORKS: AtomicU64 = AtomicU64::new(0);

/// Tells the crews that the process is a fork's child (Python's `os.register_at_fork` calls it):
/// the child has only the thread that forked, so the crews started before need workers anew.
pub fn forked() {
    FORKS.fetch_add(1, Ordering::SeqCst);
}

/// What the calls took, with the workers and alone, to keep the faster way.
#[derive(Default)]
struct Tuning {
    /// Moving averages of a call's wall time (ns), with the workers and alone; 0 until timed.
    team: f64,
    solo: f64,
    /// Calls since the way not taken was last tried, and how many calls to wait before the next
    /// try.
    since: u32,
    interval: u32,
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
    /// Whether this call goes with the workers.
    fn team(&mut self) -> bool {
        if self.team == 0.0 {
            return true;
        }
        if self.solo == 0.0 {
            return false;
        }
        let best = self.team <= self.solo;
        self.since += 1;
        if self.since >= self.interval.max(PROBE_FIRST) {
            self.since = 0;
            return !best;
        }
        best
    }

    /// Records a call of `ns` nanoseconds, `team` or alone.
    fn record(&mut self, team: bool, ns: f64) {
        let before = self.team <= self.solo || self.solo == 0.0;
        let avg = if team { &mut self.team } else { &mut self.solo };
        // A quarter of the new figure: a probe moves the average, one slow call does not flip it.
        *avg = if *avg == 0.0 { ns } else { *avg * 0.75 + ns * 0.25 };
        if self.since == 0 && self.team != 0.0 && self.solo != 0.0 {
            let after = self.team <= self.solo;
            self.interval = if after == before {
                (self.interval.max(PROBE_FIRST / 2) * 2).min(PROBE_MOST)
            } else {
                PROBE_FIRST
            };
        }
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
}

impl Crew {
    /// `workers` threads beside the caller's.
    pub fn new(workers: usize) -> std::io::Result<Crew> {
        let forks = FORKS.load(Ordering::SeqCst);
        let cores = cores();
        let shared = Arc::new(Shared {
            generation: AtomicU64::new(0),
            job: Mutex::new(None),
            next: AtomicUsize::new(0),
            inside: AtomicUsize::new(0),
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
            tuning: Tuning::default(),
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

    /// How many pieces to cut `items` into: several per thread, so that a thread the system
    /// puts off leaves its pieces to the others.
    pub fn pieces(&self, items: usize) -> usize {
        items.min(8 * (self.workers.len() + 1)).max(1)
    }

    /// Runs `job(k)` once for every piece `k` in `0..pieces`, in the calling thread and the
    /// workers, and returns when every one has returned. A panic in any of them goes on here
    /// once all are done.
    pub fn run(&mut self, pieces: usize, job: &(dyn Fn(usize) + Sync)) {
        let start = Instant::now();
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
        let team = self.tuning.team();
        if team {
            self.together(pieces, job);
        } else {
            (0..pieces).for_each(job);
        }
        let end = Instant::now();
        self.tuning.record(team, end.duration_since(start).as_nanos() as f64);
        self.tuning.last_end = Some(end);
    }

    /// [`Crew::run`] with the workers woken.
    fn together(&self, pieces: usize, job: &(dyn Fn(usize) + Sync)) {
        let shared = &*self.shared;
        // SAFETY: the lifetime is erased so that the workers can hold the job. Below, whether
        // the caller's pieces panic or not, the caller takes the job back (no worker enters it
        // after) and waits until every worker that entered it has left, before returning: no
        // worker touches it after `together` ends.
        let erased = unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), &'static (dyn Fn(usize) + Sync)>(job) };
        shared.next.store(0, Ordering::SeqCst);
        *lock(&shared.job) = Some((erased, pieces));
        shared.generation.fetch_add(1, Ordering::SeqCst);
        shared.notify();
        let mine = shared.claim((erased, pieces));
        if mine.is_err() {
            // No more pieces for anyone: the caller's panic goes on.
            shared.next.store(pieces, Ordering::SeqCst);
        }
        *lock(&shared.job) = None;
        shared.wait(AWAIT, || shared.inside.load(Ordering::SeqCst) == 0);
        let theirs = lock(&shared.panic).take();
        if let Some(payload) = mine.err().or(theirs) {
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
        let entered = {
            let job = lock(&shared.job);
            if job.is_some() {
                shared.inside.fetch_add(1, Ordering::SeqCst);
            }
            *job
        };
        let Some(job) = entered else { continue };
        if let Err(payload) = shared.claim(job) {
            lock(&shared.panic).get_or_insert(payload);
        }
        if shared.inside.fetch_sub(1, Ordering::SeqCst) == 1 {
            shared.notify();
        }
    }
}

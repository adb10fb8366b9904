//! A batch's worker threads: each runs its share of every call, then stays awake a little for
//! the next call before it sleeps.
//!
//! A general pool (rayon) puts its idle workers to sleep, and on the 2-core virtual machines we
//! measure on, waking a sleeping thread took 6–18 µs a call (`park`/`unpark` round trip), against
//! 0.2 µs for a worker that spins: a step of 64 Triple Triad games is about 35 µs of work, so
//! the wake-up alone cost two threads a fifth of their speed. As OpenMP runtimes do, the workers
//! spin for [`LINGER`] after each call, so that a batch stepped in a loop finds them awake, and
//! then sleep, so that an idle batch costs nothing. They never spin when there are more threads
//! than cores: a spinning thread would then take a core from one with work.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a worker stays awake after a call: longer than the time between two steps of a
/// batch stepped in a loop (drawing 128 actions with NumPy takes about 15 µs).
const LINGER: Duration = Duration::from_micros(300);

/// How long the calling thread waits awake for the workers' shares before it sleeps (a worker
/// that the system has put off would otherwise wait for the core that the caller spins on).
const AWAIT: Duration = Duration::from_micros(500);

/// The job of the current call, its lifetime erased: [`Crew::run`] does not return, nor unwind,
/// before every worker is done with it.
type Job = &'static (dyn Fn(usize) + Sync);

/// What the calling thread and the workers share.
struct Shared {
    /// Bumped once per call; the workers run the job when it moves. `u64::MAX` ends them.
    generation: AtomicU64,
    job: Mutex<Option<Job>>,
    /// Workers not yet done with this call's job.
    pending: AtomicUsize,
    /// The first panic of a worker in this call, to go on in the calling thread.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    /// Threads asleep (workers waiting for a call, the caller waiting for the workers), woken
    /// through `wake`.
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    /// Whether the threads may spin (not when there are more threads than cores).
    spin: bool,
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
        if self.spin {
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
}

/// How many times this process is a fork's child, counted by [`forked`].
static FORKS: AtomicU64 = AtomicU64::new(0);

/// Tells the crews that the process is a fork's child (Python's `os.register_at_fork` calls it):
/// the child has only the thread that forked, so the crews started before need workers anew.
pub fn forked() {
    FORKS.fetch_add(1, Ordering::SeqCst);
}

/// Worker threads that run a job's shares beside the calling thread.
pub struct Crew {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
    /// [`FORKS`] when the workers started.
    forks: u64,
}

impl Crew {
    /// `workers` threads beside the caller's.
    pub fn new(workers: usize) -> std::io::Result<Crew> {
        let forks = FORKS.load(Ordering::SeqCst);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let shared = Arc::new(Shared {
            generation: AtomicU64::new(0),
            job: Mutex::new(None),
            pending: AtomicUsize::new(0),
            panic: Mutex::new(None),
            sleepers: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            spin: workers < cores,
        });
        let mut crew = Crew {
            shared,
            workers: Vec::with_capacity(workers),
            forks,
        };
        for share in 1..=workers {
            let shared = Arc::clone(&crew.shared);
            let worker = std::thread::Builder::new()
                .name(format!("arbiter-batch-{share}"))
                .spawn(move || work(&shared, share))?;
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

    /// Runs `job(0)` in the calling thread and `job(k)` in worker `k` (1 ≤ k ≤ workers), and
    /// returns when every one has returned. A panic in any of them goes on here once all are done.
    pub fn run(&self, job: &(dyn Fn(usize) + Sync)) {
        let shared = &*self.shared;
        // A worker's panic left by a call whose own share panicked first.
        lock(&shared.panic).take();
        // SAFETY: the lifetime is erased so that the workers can hold the job. `Done` below,
        // dropped on return and on unwinding alike, waits until every worker has finished this
        // call's job and then takes it back, so no worker touches it after `run` ends.
        let erased: Job = unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), Job>(job) };
        *lock(&shared.job) = Some(erased);
        shared.pending.store(self.workers.len(), Ordering::SeqCst);
        shared.generation.fetch_add(1, Ordering::SeqCst);
        shared.notify();

        struct Done<'a>(&'a Shared);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.wait(AWAIT, || self.0.pending.load(Ordering::SeqCst) == 0);
                *lock(&self.0.job) = None;
            }
        }
        let done = Done(shared);
        job(0);
        drop(done);
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
            // A worker's panics are caught in `work`: joining cannot fail.
            let _ = worker.join();
        }
    }
}

/// Worker `share`'s life: wait for a call, run its share, tell the caller, until the crew ends.
fn work(shared: &Shared, share: usize) {
    let mut seen = 0;
    loop {
        shared.wait(LINGER, || shared.generation.load(Ordering::SeqCst) != seen);
        seen = shared.generation.load(Ordering::SeqCst);
        if seen == u64::MAX {
            return;
        }
        let job = *lock(&shared.job);
        if let Some(job) = job {
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| job(share))) {
                lock(&shared.panic).get_or_insert(payload);
            }
        }
        if shared.pending.fetch_sub(1, Ordering::SeqCst) == 1 {
            shared.notify();
        }
    }
}

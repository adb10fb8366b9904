//! Ctrl-C in a long call: the work runs with the GIL released, and asks [`Interrupt::stop`] now
//! and then; from the thread that made the call (Python runs signal handlers in the main thread
//! only), that takes the GIL back every [`EVERY`] to run them, and a handler's exception
//! (`KeyboardInterrupt`) stops the work and is raised when the call returns.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use pyo3::prelude::*;

use crate::crew::lock;

/// How often the calling thread runs Python's signal handlers during a long call.
const EVERY: Duration = Duration::from_millis(50);

/// A long call's stop: set once a signal handler raised.
pub struct Interrupt {
    stopped: AtomicBool,
    caller: ThreadId,
    last: Mutex<Instant>,
    raised: Mutex<Option<PyErr>>,
}

impl Interrupt {
    /// For a call made now from this thread (created before the GIL is released).
    pub fn new() -> Interrupt {
        Interrupt {
            stopped: AtomicBool::new(false),
            caller: std::thread::current().id(),
            last: Mutex::new(Instant::now()),
            raised: Mutex::new(None),
        }
    }

    /// Whether the work should stop: a signal handler raised (run here, in the calling thread,
    /// at most every [`EVERY`]). Any thread of the work may ask.
    pub fn stop(&self) -> bool {
        if self.stopped.load(Ordering::Relaxed) {
            return true;
        }
        if std::thread::current().id() != self.caller {
            return false;
        }
        {
            let mut last = lock(&self.last);
            if last.elapsed() < EVERY {
                return false;
            }
            *last = Instant::now();
        }
        if let Err(e) = Python::attach(|py| py.check_signals()) {
            *lock(&self.raised) = Some(e);
            self.stopped.store(true, Ordering::Relaxed);
        }
        self.stopped.load(Ordering::Relaxed)
    }

    /// The call's result, or the exception a signal handler raised during it.
    pub fn result<T>(self, value: Option<T>) -> PyResult<T> {
        match (value, self.raised.into_inner().unwrap_or_else(|e| e.into_inner())) {
            (_, Some(e)) => Err(e),
            (Some(v), None) => Ok(v),
            // Stopped without a signal handler's exception: cannot happen (`stop` is set only
            // with one), but a clear error beats a panic.
            (None, None) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted")),
        }
    }
}

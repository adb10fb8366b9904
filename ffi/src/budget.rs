//! What the computer may spend on one choice or solve ([`ArbiterBudget`]), and the flag another
//! thread raises to call one off ([`ArbiterCancel`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use arbiter_core::Budget;

use crate::boundary::{arg, give, guard, Failure, Out};
use crate::ArbiterStatus;

/// A flag that calls off the choices and solves given it in their `ArbiterBudget`, from any
/// thread. Raising, lowering and reading it are atomic: one thread may raise it while another
/// thread's choice runs. Free it only once no call uses it.
pub struct ArbiterCancel(AtomicBool);

impl crate::boundary::Handle for ArbiterCancel {
    type Inner = AtomicBool;
    fn wrap(inner: AtomicBool) -> Self {
        ArbiterCancel(inner)
    }
    fn inner(&self) -> &AtomicBool {
        &self.0
    }
    fn inner_mut(&mut self) -> &mut AtomicBool {
        &mut self.0
    }
}

/// What one choice or solve may spend besides its level's own budget. Zero-initialised, it limits
/// nothing: the call is the one without a budget.
#[repr(C)]
pub struct ArbiterBudget {
    /// Milliseconds from the call's start after which the search stops (it asks the clock every
    /// few hundred nodes); 0 for no time limit. Trax's searching levels spend them to the end,
    /// past their own node budget.
    pub time_ms: u64,
    /// The most nodes (Trax: turns played; Triple Triad: positions searched); 0 for the level's
    /// own budget. The smaller of it and the level's holds.
    pub nodes: u64,
    /// NULL, or a flag whose raising stops the search (`arbiter_cancel_raise`).
    pub cancel: *const ArbiterCancel,
}

/// Runs `f` with the core's form of `budget` (NULL: none). Without a clock or a flag the result
/// depends on the seed alone; with one, on the machine too.
///
/// # Safety
/// `budget` is NULL or readable, and its `cancel` NULL or a live flag.
pub(crate) unsafe fn with_budget<T>(
    budget: *const ArbiterBudget,
    f: impl FnOnce(Budget<'_>) -> Result<T, Failure>,
) -> Result<T, Failure> {
    let Some(b) = budget.as_ref() else {
        return f(Budget::default());
    };
    let cancel = b.cancel.as_ref().map(|c| &c.0);
    let deadline = (b.time_ms > 0).then(|| Instant::now() + Duration::from_millis(b.time_ms));
    let mut stop =
        || cancel.is_some_and(|c| c.load(Ordering::Relaxed)) || deadline.is_some_and(|d| Instant::now() >= d);
    f(Budget {
        nodes: (b.nodes > 0).then_some(b.nodes),
        stop: (cancel.is_some() || deadline.is_some()).then_some(&mut stop as &mut dyn FnMut() -> bool),
        timed: deadline.is_some(),
    })
}

/// A new flag, lowered, in `*out`; free it with `arbiter_cancel_free`.
#[no_mangle]
pub unsafe extern "C" fn arbiter_cancel_new(out: *mut *mut ArbiterCancel) -> ArbiterStatus {
    guard(|| {
        give(Out::new(out, "out")?, AtomicBool::new(false));
        Ok(())
    })
}

/// Raises the flag: every search given it stops at its next look (within a few milliseconds) and
/// returns its best move so far. Any thread may call it while another uses the flag.
#[no_mangle]
pub unsafe extern "C" fn arbiter_cancel_raise(c: *const ArbiterCancel) -> ArbiterStatus {
    guard(|| {
        arg(c, "the flag")?.0.store(true, Ordering::Relaxed);
        Ok(())
    })
}

/// Lowers the flag, for the next choice. Any thread may call it.
#[no_mangle]
pub unsafe extern "C" fn arbiter_cancel_reset(c: *const ArbiterCancel) -> ArbiterStatus {
    guard(|| {
        arg(c, "the flag")?.0.store(false, Ordering::Relaxed);
        Ok(())
    })
}

/// Frees a flag; NULL is ignored. No call may be using it.
#[no_mangle]
pub unsafe extern "C" fn arbiter_cancel_free(c: *mut ArbiterCancel) {
    crate::boundary::free(c)
}

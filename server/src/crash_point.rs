//! A test hook, not a feature: `ARBITER_CRASH_AT=<step>` (read once at start) makes the process
//! abort at that step of the end of a match or of a purchase, as abruptly as SIGKILL (no unwinding,
//! no destructor, no transaction rolled back or committed by us), so that the crash tests
//! (`tests/economy_crash.rs`) can kill the server between any two writes that matter and check
//! that the restart loses and duplicates nothing. Unset, each step costs one relaxed atomic load.

use std::sync::atomic::{AtomicU8, Ordering};

/// The named steps, in the order a match with stakes or a purchase passes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Step {
    /// The match's result, stats and rewards are written, its transaction not yet committed.
    ResultWritten = 1,
    /// The result's transaction has committed; nobody has been told.
    ResultCommitted,
    /// The winner's picks (or the clock's) are checked, no card moved yet.
    CardsChosen,
    /// The cards have changed owners inside the settling transaction, not yet committed.
    CardsMoved,
    /// The choice's transaction has committed; nobody has been told.
    ChoiceCommitted,
    /// A purchase's points are paid and its card minted, not yet committed.
    PointsPaid,
    /// The purchase has committed; the buyer has not been answered.
    PurchaseCommitted,
}

impl Step {
    const ALL: [Step; 7] = [
        Step::ResultWritten,
        Step::ResultCommitted,
        Step::CardsChosen,
        Step::CardsMoved,
        Step::ChoiceCommitted,
        Step::PointsPaid,
        Step::PurchaseCommitted,
    ];

    fn name(self) -> &'static str {
        match self {
            Step::ResultWritten => "result_written",
            Step::ResultCommitted => "result_committed",
            Step::CardsChosen => "cards_chosen",
            Step::CardsMoved => "cards_moved",
            Step::ChoiceCommitted => "choice_committed",
            Step::PointsPaid => "points_paid",
            Step::PurchaseCommitted => "purchase_committed",
        }
    }
}

/// The armed step (0: none).
static ARMED: AtomicU8 = AtomicU8::new(0);

/// Reads `ARBITER_CRASH_AT` once, at start; an unknown step is refused rather than ignored (a
/// crash test that never crashes would pass for the wrong reason).
pub(crate) fn arm_from_env() -> anyhow::Result<()> {
    let Ok(name) = std::env::var("ARBITER_CRASH_AT") else {
        return Ok(());
    };
    let step = Step::ALL.into_iter().find(|s| s.name() == name.trim()).ok_or_else(|| {
        let names: Vec<&str> = Step::ALL.iter().map(|s| s.name()).collect();
        anyhow::anyhow!("ARBITER_CRASH_AT={name:?}: not a step ({})", names.join(", "))
    })?;
    tracing::warn!("ARBITER_CRASH_AT: this process aborts at {}", step.name());
    ARMED.store(step as u8, Ordering::Relaxed);
    Ok(())
}

/// The process has reached `step`: abort here if it is the armed one.
pub(crate) fn reached(step: Step) {
    if ARMED.load(Ordering::Relaxed) == step as u8 {
        eprintln!("arbiter-server: crash point {} reached: aborting", step.name());
        std::process::abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_has_its_own_name_and_none_is_armed_by_default() {
        let mut names: Vec<&str> = Step::ALL.iter().map(|s| s.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Step::ALL.len());
        assert!(Step::ALL.iter().all(|&s| s as u8 != 0));
        // Unarmed, every step passes.
        for s in Step::ALL {
            reached(s);
        }
    }
}

//! The work meter of one comparison (issue 34, item 3: the budget in a
//! small type of its own). Every step of the prover counts one
//! ([`Meter::tick`]); a sub-procedure charges the work it did
//! ([`Meter::charge`]: the automata one step per thousand); once the
//! [`Budget`]'s steps are spent every question still open is undecided,
//! so any input ends. Nesting is counted apart ([`Meter::enter`]).

use super::Budget;

/// Steps spent and nesting entered, against a [`Budget`].
#[derive(Debug)]
pub(super) struct Meter {
    /// Steps allowed.
    limit: u64,
    /// Deepest nesting allowed.
    depth: u32,
    steps: u64,
    exhausted: bool,
    stack: u32,
}

impl Meter {
    /// A meter with nothing spent.
    pub(super) fn new(budget: &Budget) -> Meter {
        Meter {
            limit: budget.steps,
            depth: budget.max_depth.saturating_mul(4),
            steps: 0,
            exhausted: false,
            stack: 0,
        }
    }

    /// Counts one step; false once the budget is spent.
    pub(super) fn tick(&mut self) -> bool {
        self.charge(1);
        !self.exhausted
    }

    /// Charges `n` steps (work done by a sub-procedure).
    pub(super) fn charge(&mut self, n: u64) {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.limit {
            self.exhausted = true;
        }
    }

    /// True once the steps are spent.
    pub(super) fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// Enters one level of nesting; false beyond the deepest allowed (the
    /// caller still [`Meter::leave`]s).
    pub(super) fn enter(&mut self) -> bool {
        self.stack += 1;
        self.stack <= self.depth
    }

    /// Leaves a level [`Meter::enter`] entered.
    pub(super) fn leave(&mut self) {
        self.stack = self.stack.saturating_sub(1);
    }
}

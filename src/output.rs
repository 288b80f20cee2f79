//! What a command produced: bytes for stdout, text for stderr, the exit
//! status. Commands return it; only `main` writes it out.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::Error;

/// Set by the binary when the process exits as soon as the command's
/// [`Output`] is written ([`exit_after_run`]).
static EXIT_AFTER_RUN: AtomicBool = AtomicBool::new(false);

/// Says that the process exits as soon as the command it runs has
/// returned its [`Output`] (the binary's `main` calls it; a library caller
/// does not): what [`dispose`] is given is then left to the exit.
pub fn exit_after_run() {
    EXIT_AFTER_RUN.store(true, Ordering::Relaxed);
}

/// Drops `value`, a command's own working data (a run's report), or, when
/// the process exits right after the command ([`exit_after_run`]), leaves
/// it to the exit: freeing a large report block by block on the main
/// thread, after every other thread is done, was the last serial step of a
/// `verify` of many packages (issue 38: 7.2 M instructions, 44 % of the
/// main thread's, on the corpus), and the kernel takes the memory back at
/// exit anyway. Nothing observable depends on the drop (a report holds
/// memory and closed descriptors only, no file or lock it must release).
pub fn dispose<T>(value: T) {
    if EXIT_AFTER_RUN.load(Ordering::Relaxed) {
        std::mem::forget(value);
    } else {
        drop(value);
    }
}

/// What a command produced.
#[derive(Debug, Default)]
pub struct Output {
    /// Bytes for stdout.
    pub stdout: Vec<u8>,
    /// Text for stderr.
    pub stderr: String,
    /// Exit status.
    pub code: u8,
}

impl From<Error> for Output {
    /// `form-package: <error>` on stderr ([`crate::render::escape::line`]:
    /// a path in it escaped), exit 2: the command could not run.
    fn from(e: Error) -> Self {
        Output {
            stderr: crate::render::escape::line(&e.to_string()),
            code: e.exit_code(),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_that_cannot_run_exits_2_with_its_cause() {
        let o = Output::from(Error::Internal("no embedded schema x".into()));
        assert_eq!(o.code, 2);
        assert_eq!(
            o.stderr,
            "form-package: internal error: no embedded schema x\n"
        );
        assert!(o.stdout.is_empty());
    }

    /// A library caller's [`dispose`] drops what it is given (only the
    /// binary, which exits next, leaves it to the exit); the flag is the
    /// binary's alone, no test sets it.
    #[test]
    fn dispose_drops_unless_the_process_exits_next() {
        struct Counted<'a>(&'a std::cell::Cell<u32>);
        impl Drop for Counted<'_> {
            fn drop(&mut self) {
                self.0.set(self.0.get() + 1);
            }
        }
        let drops = std::cell::Cell::new(0);
        assert!(!EXIT_AFTER_RUN.load(Ordering::Relaxed));
        dispose(Counted(&drops));
        assert_eq!(drops.get(), 1);
    }
}

//! The progress bar of a long `verify` run, drawn on stderr (the report
//! itself is printed by the other views of `render/`; issue 21 item 3).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A progress bar on stderr for runs over a second, only when stderr is a
/// terminal: piped or captured output gets nothing extra. It never changes
/// stdout, so output is identical whatever the thread count.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    start: Instant,
    shown: AtomicBool,
}

impl Progress {
    /// A bar for `total` packages, drawn only when `is_terminal` (stderr
    /// is a terminal) and `total` is over one, and only once the run has
    /// taken a second.
    pub fn new(total: usize, is_terminal: bool) -> Self {
        let bar = (is_terminal && total > 1).then(|| {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(total as u64),
                indicatif::ProgressDrawTarget::hidden(),
            );
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} packages {elapsed}")
            {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    /// A bar for `total` packages on this process's stderr, drawn when it
    /// is a terminal ([`Progress::new`]).
    pub fn on_stderr(total: usize) -> Self {
        Progress::new(total, std::io::stderr().is_terminal())
    }

    /// `done` packages verified in all (called from any thread; a count
    /// below one already shown leaves the bar where it is).
    pub fn tick_to(&self, done: u64) {
        let Some(bar) = &self.bar else { return };
        if self.start.elapsed() > Duration::from_secs(1)
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        if done > bar.position() {
            bar.set_position(done);
        }
    }

    /// The run is over: the bar, if drawn, is cleared.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

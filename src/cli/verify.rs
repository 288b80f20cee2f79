//! `form-package verify PATH...`: every Form Package under each PATH
//! ([`crate::ops::verify::verify_paths_with`]), its report rendered
//! ([`crate::render`]) or its refusal said.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use crate::cli::args::{self, OutputArgs, ReportArgs, SelectArgs, SummaryArgs};
use crate::ops::verify::{Observer, Printed, Refusal};
use crate::output::Output;
use crate::render::progress::Progress;
use crate::render::{self, Format, RunView};
use crate::report::Report;

/// `verify`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Package directories or trees holding packages.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// `--format`, `--color`.
    #[command(flatten)]
    pub report: ReportArgs,
    /// Treat warnings as errors (exit 1 when any package has a warning).
    #[arg(long)]
    pub deny_warnings: bool,
    /// Print only findings (no per-package summary lines).
    #[arg(long, short)]
    pub quiet: bool,
    /// Human output: add what each stage checked, per package.
    #[arg(long, short, conflicts_with = "quiet")]
    pub verbose: bool,
    /// `--output-file`, `--sarif-root`.
    #[command(flatten)]
    pub output: OutputArgs,
    /// `--summary-file`.
    #[command(flatten)]
    pub summary: SummaryArgs,
    /// `--select`, `--ignore`, `--warn`, `--exit-zero`, `--statistics`, `--config`, `--exclude`, `--no-ignore`.
    #[command(flatten)]
    pub rules: SelectArgs,
}

/// Runs `verify`; `is_terminal`: whether stdout is a terminal.
pub fn run(a: Args, is_terminal: bool) -> Output {
    if let Some(refused) = args::refuse_output_args(&a.output, &a.paths) {
        return refused;
    }
    if let Some(refused) = a.summary.refuse(&a.paths) {
        return refused;
    }
    let color = a.report.use_color(is_terminal && a.output.file().is_none());
    let opts = args::render_options(&a.output, color, a.quiet, a.verbose, a.deny_warnings);
    let format = a.report.format;
    let bar = ProgressBar::default();
    let printed = Printed {
        cwd: opts.cwd.clone(),
        deny_warnings: a.deny_warnings,
        without_statistics: format.without_statistics(),
    };
    let run = crate::ops::verify::verify_paths_with(&a.paths, &printed, &a.rules.rules(), &bar);
    let output = match &run {
        Ok(report) => output(report, format, &opts),
        Err(refusal) => refused(refusal),
    };
    let output = args::deliver(output, a.output.file());
    let output = match &run {
        Ok(report) => a.summary.deliver(output, || {
            let view = RunView::of(report);
            let line = render::human::summary_line(&view);
            render::summary::render(
                "verify",
                &line,
                &view,
                &opts,
                render::summary::blob_base().as_deref(),
            )
        }),
        Err(_) => output,
    };
    // The report is printed: the binary exits without freeing it.
    crate::output::dispose(run);
    output
}

/// The run's progress bar on stderr ([`Progress::on_stderr`]: drawn only
/// when stderr is a terminal, the run has more than one package and has
/// taken a second), made when the walk has counted the packages. Packages
/// are verified while the walk goes on, so the ones done before it are
/// counted and shown when the bar is made.
#[derive(Default)]
struct ProgressBar {
    bar: OnceLock<Progress>,
    done: AtomicU64,
}

impl Observer for ProgressBar {
    fn start(&self, packages: usize) {
        let bar = self.bar.get_or_init(|| Progress::on_stderr(packages));
        bar.tick_to(self.done.load(Ordering::SeqCst));
    }

    fn package_done(&self) {
        let done = self.done.fetch_add(1, Ordering::SeqCst) + 1;
        if let Some(bar) = self.bar.get() {
            bar.tick_to(done);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish();
        }
    }
}

/// The report in `format`: the statistics (human or JSON) with the
/// skipped directories on stderr, or the report ([`render::report`]); the
/// exit status is the report's ([`Report::exit_code`]).
fn output(report: &Report, format: Format, opts: &render::Options) -> Output {
    let run = RunView::of(report);
    let (stdout, stderr) = if report.statistics {
        // The statistics are the one document on stdout: the skipped
        // directories are said on stderr.
        (
            render::statistics::render(&run, format == Format::Json),
            render::skipped(&run, opts),
        )
    } else {
        render::report(format, &run, opts)
    };
    // What the run says about its settings comes first on stderr.
    let notes: String = report
        .notes
        .iter()
        .map(|n| render::escape::line(n))
        .collect();
    Output {
        stdout: stdout.into_bytes(),
        stderr: notes + &stderr,
        code: report.exit_code(),
    }
}

/// A run that did not run: `form-package: <why>` on stderr (a fault names
/// its package, escaped: [`render::fault`]), exit 2.
fn refused(refusal: &Refusal) -> Output {
    match refusal {
        Refusal::Fault { path, error } => Output {
            stderr: render::fault(path, error),
            code: error.exit_code(),
            ..Output::default()
        },
        _ => Output {
            stderr: render::escape::line(&refusal.to_string()),
            code: 2,
            ..Output::default()
        },
    }
}

//! `form-package verify PATH...`: every Form Package under each PATH
//! ([`crate::run::verify_paths_with`]).

use std::path::PathBuf;

use crate::cli::args::{self, OutputArgs, ReportArgs, SelectArgs};
use crate::output::Output;

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
    /// `--select`, `--ignore`, `--warn`, `--exit-zero`, `--statistics`, `--config`, `--exclude`, `--no-ignore`.
    #[command(flatten)]
    pub rules: SelectArgs,
}

/// Runs `verify`; `is_terminal`: whether stdout is a terminal.
pub fn run(a: Args, is_terminal: bool) -> Output {
    if let Some(refused) = args::refuse_output_args(&a.output, &a.paths) {
        return refused;
    }
    let color = a.report.use_color(is_terminal && a.output.file().is_none());
    let opts = args::render_options(&a.output, color, a.quiet, a.verbose, a.deny_warnings);
    args::deliver(
        crate::run::verify_paths_with(&a.paths, a.report.format, &opts, &a.rules.rules()),
        a.output.file(),
    )
}

//! `form-package check FILE...`: single JSON documents checked by what
//! they are ([`crate::ops::check::check_files`]), then printed
//! ([`crate::render::check::output`]); the exit status is the run's
//! ([`crate::ops::check::CheckRun::exit_code`]).

use std::path::PathBuf;

use crate::cli::args::ReportArgs;
use crate::output::Output;

/// `check`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The documents (`-` for standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The name standard input gets in findings (and where its fixtures sit).
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<String>,
    /// `--format`, `--color`.
    #[command(flatten)]
    pub report: ReportArgs,
    /// Treat warnings as errors.
    #[arg(long)]
    pub deny_warnings: bool,
}

/// Runs `check`; `is_terminal`: whether stdout is a terminal.
pub fn run(a: &Args, is_terminal: bool) -> Output {
    match crate::ops::check::check_files(&a.files, a.stdin_filename.as_deref(), a.deny_warnings) {
        Ok(found) => Output {
            code: found.exit_code(),
            stdout: crate::render::check::output(
                &found,
                a.report.format,
                a.report.use_color(is_terminal),
            )
            .into_bytes(),
            ..Default::default()
        },
        Err(message) => Output {
            stderr: crate::render::escape::line(&message),
            code: 2,
            ..Default::default()
        },
    }
}

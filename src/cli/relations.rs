//! `form-package relations PATH`: the relations of a Definition's desired
//! schema ([`crate::ops::relations::run`], rendered by
//! [`crate::render::relations::render`]).

use std::path::{Path, PathBuf};

use crate::cli::args::{self, OutputArgs, ReportArgs};
use crate::output::Output;
use crate::render::{self, Format};

/// `relations`' arguments.
#[derive(Debug, clap::Args)]
#[command(mut_arg("format", |a| a.help(
    "Output format: `human` (a table, then the findings), `json` (the relations document); `sarif`, `github` and `junit` report the findings as `verify` does"
)))]
#[command(mut_arg("color", |a| a.help(
    "When to colour the findings of human output (NO_COLOR is honoured with `auto`)"
)))]
pub struct Args {
    /// A package directory, a bare `definition.json`, or `-` (a definition on standard input).
    pub path: PathBuf,
    /// `--format`, `--color`.
    #[command(flatten)]
    pub report: ReportArgs,
    /// Resolve the relations against this desired document and list the concrete instances.
    #[arg(long)]
    pub instance: Option<PathBuf>,
    /// `--output-file`, `--sarif-root`.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Runs `relations`; `is_terminal`: whether stdout is a terminal.
pub fn run(a: Args, is_terminal: bool) -> Output {
    // PATH, the package a bare definition file sits in, and the
    // --instance document (never overwritten by the report, T3 C9).
    let guarded: Vec<_> = std::iter::once(a.path.clone())
        .chain(crate::ops::relations::enclosing_package(&a.path))
        .chain(a.instance.clone())
        .collect();
    if let Some(refused) = args::refuse_output_args(&a.output, &guarded) {
        return refused;
    }
    let color = a.report.use_color(is_terminal && a.output.file().is_none());
    let opts = args::render_options(&a.output, color, false, false, false);
    args::deliver(
        report(&a.path, a.report.format, a.instance.as_deref(), &opts),
        a.output.file(),
    )
}

/// Derives the relations of `path` (resolved against the `instance`
/// desired document when given) and renders them in `format`: what
/// `relations` prints, before `--output-file` (exit status and shapes:
/// [`crate::ops::relations`]).
pub fn report(
    path: &Path,
    format: Format,
    instance: Option<&Path>,
    opts: &render::Options,
) -> Output {
    let result = crate::ops::relations::run(path, instance);
    let code = crate::ops::relations::exit_code(&result);
    let (stdout, stderr) = render::relations::render(result, format, opts);
    Output {
        stdout: stdout.into_bytes(),
        stderr,
        code,
    }
}

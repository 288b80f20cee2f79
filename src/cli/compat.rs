//! `form-package compat OLD NEW | --history PATH... | --baseline BASE
//! PATH...`: did a Form change the way its new definitionVersion says
//! ([`crate::ops::compat::run`]).

use std::path::PathBuf;

use crate::cli::args::{self, OutputArgs, ReportArgs};
use crate::output::Output;

/// `compat`'s arguments.
#[derive(Debug, clap::Args)]
#[command(mut_arg("format", |a| a.help(
    "Output format (`json`: its JSON Schema is `form-package schema compat`)"
)))]
pub struct Args {
    /// OLD NEW (each a package directory or a definition.json); with
    /// --history or --baseline, the trees to walk.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Compare each consecutive version of every (group, kind) under the PATHs.
    #[arg(long, conflicts_with = "baseline")]
    pub history: bool,
    /// Compare each package under the PATHs with the newest older version of its kind in BASE.
    #[arg(long, value_name = "BASE")]
    pub baseline: Option<PathBuf>,
    /// Write each breaking pair's witness into DIR as a JSON file a
    /// publisher can add as a negative fixture (never inside a package).
    #[arg(long, value_name = "DIR")]
    pub write_witnesses: Option<PathBuf>,
    /// `--format`, `--color`.
    #[command(flatten)]
    pub report: ReportArgs,
    /// `--output-file`, `--sarif-root`.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Runs `compat`; `is_terminal`: whether stdout is a terminal.
pub fn run(a: Args, is_terminal: bool) -> Output {
    let mut guarded = a.paths.clone();
    guarded.extend(a.baseline.clone());
    if let Some(refused) = args::refuse_output_args(&a.output, &guarded) {
        return refused;
    }
    let color = a.report.use_color(is_terminal && a.output.file().is_none());
    let opts = args::render_options(&a.output, color, false, false, false);
    let out = match crate::ops::compat::run(
        &a.paths,
        a.history,
        a.baseline.as_deref(),
        a.write_witnesses.as_deref(),
    ) {
        Err(e) => e.into(),
        Ok(run) => {
            let code = run.exit_code();
            let (stdout, skipped) =
                crate::render::compat::report(&run.report, a.report.format, &opts);
            let stderr = skipped
                + &match run.witnesses {
                    None => String::new(),
                    Some(Ok(written)) => crate::render::compat::wrote_witnesses(&written),
                    // The command could not finish: `form-package: <error>`.
                    Some(Err(e)) => Output::from(e).stderr,
                };
            Output {
                stdout: stdout.into_bytes(),
                stderr,
                code,
            }
        }
    };
    args::deliver(out, a.output.file())
}

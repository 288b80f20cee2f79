//! `form-package compat OLD NEW | --history PATH... | --baseline BASE
//! PATH... | --baseline-rev REV PATH...`: did a Form change the way its new definitionVersion says
//! ([`crate::ops::compat::run`]).

use std::path::PathBuf;

use crate::cli::args::{self, OutputArgs, ReportArgs, SummaryArgs};
use crate::compat::report::Base;
use crate::output::Output;

/// `compat`'s arguments.
#[derive(Debug, clap::Args)]
// One schema command for `--format json` (issue 35 item 5): the shared
// `Format` values name `schema report` (verify's document), so compat
// lists its own.
#[command(mut_arg("format", |a| a.hide_possible_values(true).help(
    "Output format: human, json (its JSON Schema: `form-package schema compat`), sarif, github or junit"
).long_help(
    "Output format:\n\
     - human:  the verdict of each pair, its change records and findings, then a summary\n\
     - json:   one JSON document for the whole run (its JSON Schema: `form-package schema compat`)\n\
     - sarif:  SARIF 2.1.0, one rule per code\n\
     - github: GitHub Actions workflow commands, the failing pairs' findings annotated first\n\
     - junit:  JUnit XML, one testcase per pair and per package outside the pairs"
)))]
pub struct Args {
    /// OLD NEW (each a package directory or a definition.json); with
    /// --history, --baseline or --baseline-rev, the trees to walk.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Compare each consecutive version of every (group, kind) under the PATHs.
    #[arg(long, conflicts_with = "baseline")]
    pub history: bool,
    /// Compare each package under the PATHs whose version BASE lacks with
    /// its published neighbours in BASE (the newest older and the next
    /// newer versions of its kind).
    #[arg(long, value_name = "BASE")]
    pub baseline: Option<PathBuf>,
    /// As --baseline, BASE being every package of the repository's whole
    /// tree at the git revision REV (read from git, no checkout; nothing
    /// is fetched); the PATHs name the PR's packages.
    #[arg(long, value_name = "REV", conflicts_with_all = ["baseline", "history"])]
    pub baseline_rev: Option<String>,
    /// Write each breaking pair's witness into DIR as a JSON file a
    /// publisher can add as a negative fixture (never inside a package).
    #[arg(long, value_name = "DIR")]
    pub write_witnesses: Option<PathBuf>,
    /// Treat warnings as errors (exit 1 when a warning is found, e.g. a
    /// published version removed, FD679, or a new version compared with
    /// nothing that is no first release, FD681).
    #[arg(long)]
    pub deny_warnings: bool,
    /// `--format`, `--color`.
    #[command(flatten)]
    pub report: ReportArgs,
    /// `--output-file`, `--sarif-root`.
    #[command(flatten)]
    pub output: OutputArgs,
    /// `--summary-file`.
    #[command(flatten)]
    pub summary: SummaryArgs,
}

/// Runs `compat`; `is_terminal`: whether stdout is a terminal.
pub fn run(a: Args, is_terminal: bool) -> Output {
    let mut guarded = a.paths.clone();
    guarded.extend(a.baseline.clone());
    if let Some(refused) = args::refuse_output_args(&a.output, &guarded) {
        return refused;
    }
    if let Some(refused) = a.summary.refuse(&guarded) {
        return refused;
    }
    let color = a.report.use_color(is_terminal && a.output.file().is_none());
    let opts = args::render_options(&a.output, color, false, false, a.deny_warnings);
    let mut summary = None;
    let out = match crate::ops::compat::run(
        &a.paths,
        a.history,
        match (&a.baseline, &a.baseline_rev) {
            (Some(dir), _) => Some(Base::Dir(dir)),
            (None, Some(rev)) => Some(Base::Rev(rev)),
            (None, None) => None,
        },
        a.write_witnesses.as_deref(),
        a.deny_warnings,
    ) {
        Err(e) => e.into(),
        Ok(run) => {
            if a.summary.summary_file.is_some() {
                let view = crate::render::RunView::of(&run.report.report);
                let line = crate::render::compat::summary_line(&run.report);
                summary = Some(crate::render::summary::render(
                    "compat",
                    &line,
                    &view,
                    &opts,
                    crate::render::summary::blob_base().as_deref(),
                ));
            }
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
    let out = args::deliver(out, a.output.file());
    match summary {
        Some(text) => a.summary.deliver(out, || text),
        None => out,
    }
}

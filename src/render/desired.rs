//! The view of `form-package desired validate|materialize`: the operation
//! returns what it found, the command line hands it here as a [`Desired`];
//! this module alone turns it into text.
//!
//! - `validate`: the report in `--format` (default `human`: each entry's
//!   findings and one verdict line per entry) on stdout.
//! - `materialize` with no `--format` (or `human`): the materialized
//!   document's RFC 8785 bytes and a newline on stdout, so it pipes into a
//!   host or `sha256sum`; the findings and verdict lines, when there is a
//!   finding, on stderr. With `--format json|sarif|junit|github` the
//!   report on stdout, carrying the bytes as `materialized` (JSON: the
//!   document entry's member; SARIF: the run's property bag; JUnit: a
//!   testcase property; GitHub: a notice).

use crate::render::check::render_documents;
use crate::render::{escape, Format};
use crate::report::{EntryKind, Report};

/// What a `desired` run hands its view: the report, what was asked, the
/// Form found and the materialized bytes (read from the operation's result
/// by the command line, so this view imports no operation).
#[derive(Clone, Copy, Debug)]
pub struct Desired<'a> {
    /// Every entry with its findings.
    pub report: &'a Report,
    /// `materialize` (else `validate`).
    pub materialize: bool,
    /// The exact Form's subject, when REF was found.
    pub form: Option<&'a str>,
    /// The materialized document's RFC 8785 bytes, when it was valid.
    pub materialized: Option<&'a [u8]>,
}

/// The verdict line of each entry of `run`'s report (human output).
fn verdicts(run: &Desired) -> Vec<String> {
    let deny = run.report.rule.deny_warnings;
    run.report
        .entries
        .iter()
        .map(|e| {
            let name = escape::path(e.name());
            let errors = e.counts().errors;
            let what = match (e.kind(), run.materialize) {
                (EntryKind::Document, false) if e.fails(deny) => "not valid".to_owned(),
                (EntryKind::Document, true) if e.fails(deny) => "not materialized".to_owned(),
                (EntryKind::Document, false) => "valid".to_owned(),
                (EntryKind::Document, true) => "materialized".to_owned(),
                (EntryKind::Snapshot, _) if e.fails(deny) => "not compiled".to_owned(),
                (EntryKind::Snapshot, _) => "compiled".to_owned(),
                _ if e.fails(deny) => "refused".to_owned(),
                _ => "verified".to_owned(),
            };
            let against = match (e.kind(), run.form) {
                (EntryKind::Document, Some(f)) => format!(" against {}", escape::text(f)),
                _ => String::new(),
            };
            if e.fails(deny) {
                let n = if errors == 1 {
                    "1 error".to_owned()
                } else {
                    format!("{errors} errors")
                };
                format!("FAIL {name}: {n} ({what}{against})\n")
            } else {
                format!("ok {name} ({what}{against})\n")
            }
        })
        .collect()
}

/// What `desired` prints for `run`, as (stdout, stderr), in `format`
/// (`None`: the default of the mode, see the module docs); `color`
/// colours human findings. The exit status is the operation's
/// (`DesiredRun::exit_code`), never this view's.
pub fn output(run: &Desired, format: Option<Format>, color: bool) -> (Vec<u8>, String) {
    let lines = verdicts(run);
    match (run.materialize, format.unwrap_or(Format::Human)) {
        (true, Format::Human) => {
            let stdout = run
                .materialized
                .map(|b| {
                    let mut b = b.to_vec();
                    b.push(b'\n');
                    b
                })
                .unwrap_or_default();
            let quiet = run.materialized.is_some() && run.report.findings().next().is_none();
            let stderr = if quiet {
                String::new()
            } else {
                render_documents(run.report, &lines, Format::Human, color)
            };
            (stdout, stderr)
        }
        (_, f) => (
            render_documents(run.report, &lines, f, color).into_bytes(),
            String::new(),
        ),
    }
}

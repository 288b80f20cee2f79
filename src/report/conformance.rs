//! What `conformance DIR` returns (`ops::conformance::run`): each case's
//! result, or the report of a manifest that was refused;
//! `render::conformance` prints it.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::diag::Diagnostic;
use crate::json::strict;
use crate::report::{Entry, EntryKind, ExitRule, Report};

/// One case's result.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CaseResult {
    /// The manifest's name.
    pub name: String,
    /// `positive` or `negative`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The negative case's operation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// Whether the case passed.
    pub passed: bool,
    /// Positive: the FormRef kind wanted; negative: the code wanted (`FDnnn`).
    pub want: String,
    /// Positive: the kind found (if verified); negative: the error codes found.
    pub got: Vec<String>,
    /// Why it failed (empty when it passed).
    pub detail: String,
}

/// What `conformance DIR` found (`ops::conformance::run`): the suite and what became of
/// it. The command prints it with `render::conformance`.
#[derive(Debug)]
pub struct SuiteReport {
    /// The suite directory as given (`suite` in `--format json`).
    pub suite: PathBuf,
    /// The cases' results, or why none ran.
    pub result: SuiteResult,
}

/// What became of a suite.
#[derive(Debug)]
pub enum SuiteResult {
    /// Every case ran: positives, then negatives, each in manifest order.
    Ran(Vec<CaseResult>),
    /// `manifest.json` is not the reference's format (exit 2): the report
    /// of the manifest ([`SuiteResult::refused`]).
    Refused(Report),
    /// `manifest.json` cannot be read (exit 2): the message, `read PATH: cause`.
    Unreadable(String),
}

impl SuiteReport {
    /// The exit status: 0 when every case passed, 1 when one failed, 2
    /// when no case ran (a refused or unreadable manifest).
    pub fn exit_code(&self) -> u8 {
        match &self.result {
            SuiteResult::Ran(cases) => u8::from(cases.iter().any(|c| !c.passed)),
            SuiteResult::Refused(report) => report.exit_code(),
            SuiteResult::Unreadable(_) => 2,
        }
    }
}

impl SuiteResult {
    /// A refused manifest as a report built complete: one
    /// [`EntryKind::Document`] entry named `<dir>/manifest.json`, its
    /// findings (`diagnostics`, their files relative to the suite
    /// directory `dir`: `manifest.json`) and the manifest's bytes and spans
    /// (`manifest`), so each finding is located
    /// (`<dir>/manifest.json:line:column`) in every format as `verify`'s
    /// are; [`Report::could_not_read`] set: no case ran (exit 2).
    pub fn refused(dir: &Path, diagnostics: Vec<Diagnostic>, manifest: &[u8]) -> Self {
        let source = crate::verify::Source {
            spans: strict::parse(manifest).ok().map(|p| p.spans),
            bytes: manifest.to_vec(),
        };
        let outcome = crate::verify::PackageOutcome {
            path: dir.to_path_buf(),
            diagnostics,
            sources: std::collections::BTreeMap::from([("manifest.json".to_owned(), source)]),
            ..Default::default()
        };
        let entry = Entry::new(EntryKind::Document, outcome).named(dir.join("manifest.json"));
        let mut report = Report::new(vec![entry], ExitRule::default());
        report.could_not_read = true;
        SuiteResult::Refused(report)
    }
}

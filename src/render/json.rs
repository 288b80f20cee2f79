//! `--format json`: one document for the whole run. This is a versioned
//! contract (`"version": 1`), described by
//! `schemas/form-package-report-v1.schema.json` (ours, not a Takoform
//! schema). Shape:
//!
//! ```text
//! { "version": 1,
//!   "tool": { "name": "form-package", "version": "<crate version>" },
//!   "configuration"?: "<form-package.toml in force, as the run names it>",
//!   "skippedDirectories"?: [ { "path": "<as walked>", "rule": "hidden" | ".gitignore" | "exclude" } ],
//!   "packages": [ {
//!       "path": "<as given>", "verdict": "ok" | "fail",
//!       "kind": "package" | "document" | "configuration" | "path",  // only packages and documents are counted in "summary"
//!       "packageDigest"?: "sha256:…",              // whenever the index canonicalized
//!       "formRef"?: {…}, "fileCount"?: n, "payloadBytes"?: n,   // the reference report, only when verified
//!       "errors": n, "warnings": n, "fixturesRun": n,
//!       "skipped": ["<stage>: <why>"],
//!       "diagnostics": [ { "code": "FD213", "name": "open-object-schema",
//!           "severity": "error" | "warning" | "note", "specCode": "PROOF_OBJECT_OPEN" | "",
//!           "message": "…", "file": "definition.json" | null, "pointer": "/desiredSchema",
//!           "target": "value" | "key", "line"?: n, "column"?: n,
//!           "span"?: { "start": n, "end": n }, "help"?: "…", "notes": ["…"] } ],
//!       "relations": [ … ],
//!       "locator"?: { "apiVersion", "releaseId", "artifactId", "tag", "sourcePath" } } ],  // a verified package's
//!   "summary": { "packages": n, "verified": n, "failed": n, "errors": n, "warnings": n } }
//! ```
//! Diagnostics are sorted by (file, pointer, severity, code); packages by path.
//! `line`/`column` are 1-based, columns in Unicode code points (the one unit
//! of every format, see [`super::position`]); lines end at LF, CR LF or CR.

use serde::Serialize;
use serde_json::Value;

use super::{EntryKind, Located, RunView};
use crate::diag::{Severity, Target};

/// The report format version.
pub const VERSION: u32 = 1;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    version: u32,
    tool: Tool,
    /// The configuration file in force ([`RunView::config`]), when one was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    configuration: Option<String>,
    /// The directories the walk skipped by a rule ([`RunView::skipped`],
    /// [`super::skipped_value`]), when there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped_directories: Option<Value>,
    packages: Vec<Package<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Package<'a> {
    path: String,
    verdict: &'static str,
    kind: EntryKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    package_digest: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    form_ref: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    payload_bytes: Option<u64>,
    errors: usize,
    warnings: usize,
    fixtures_run: usize,
    skipped: &'a [String],
    diagnostics: Vec<Diag<'a>>,
    relations: &'a [Value],
    /// The publication locator of a verified package
    /// ([`crate::verify::PackageOutcome::locator`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    locator: Option<&'a Value>,
    /// [`crate::verify::PackageOutcome::summary`]'s members, as members
    /// of this object.
    #[serde(flatten)]
    summary: serde_json::Map<String, Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Diag<'a> {
    code: &'static str,
    name: &'static str,
    severity: Severity,
    spec_code: &'static str,
    message: &'a str,
    file: Option<&'a str>,
    pointer: &'a str,
    target: Target,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    span: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    notes: &'a [String],
}

#[derive(Serialize)]
struct Span {
    start: usize,
    end: usize,
}

#[derive(Serialize)]
struct Summary {
    packages: usize,
    verified: usize,
    failed: usize,
    errors: usize,
    warnings: usize,
}

/// One located finding as its JSON object (also used by `relations`).
pub fn diagnostic_value(f: &Located<'_>) -> Value {
    serde_json::to_value(diag(f)).unwrap_or(Value::Null)
}

fn diag<'a>(f: &Located<'a>) -> Diag<'a> {
    let d = f.diag;
    let info = d.code.info();
    Diag {
        code: info.id,
        name: info.name,
        severity: d.severity,
        spec_code: info.spec_code,
        message: &d.message,
        file: d.file.as_deref(),
        pointer: d.pointer.as_str(),
        target: d.target,
        line: f.start.map(|p| p.line),
        column: f.start.map(|p| p.column),
        span: f.span.as_ref().map(|s| Span {
            start: s.start,
            end: s.end,
        }),
        help: d.help.as_deref(),
        notes: &d.notes,
    }
}

/// Renders the whole run as pretty JSON with a trailing newline.
pub fn render(run: &RunView<'_>) -> String {
    let packages = run
        .packages
        .iter()
        .map(|p| {
            let o = p.outcome;
            Package {
                path: p.name().display().to_string(),
                verdict: if p.failed { "fail" } else { "ok" },
                kind: p.kind,
                package_digest: o.package_digest.as_deref(),
                form_ref: o.report.as_ref().map(|r| &r.form_ref),
                file_count: o.report.as_ref().map(|r| r.file_count),
                payload_bytes: o.report.as_ref().map(|r| r.payload_bytes),
                errors: p.counts.errors,
                warnings: p.counts.warnings,
                fixtures_run: o.fixtures_run,
                skipped: &o.skipped,
                diagnostics: p.findings.iter().map(diag).collect(),
                relations: &o.relations,
                locator: o.locator.as_ref(),
                summary: o.summary_members(),
            }
        })
        .collect();
    let doc = Run {
        version: VERSION,
        tool: Tool {
            name: "form-package",
            version: env!("CARGO_PKG_VERSION"),
        },
        configuration: run.config.as_ref().map(|c| c.display().to_string()),
        skipped_directories: (!run.skipped.is_empty()).then(|| super::skipped_value(&run.skipped)),
        packages,
        summary: Summary {
            packages: run.package_count(),
            verified: run.verified(),
            failed: run.failed,
            errors: run.counts.errors,
            warnings: run.counts.warnings,
        },
    };
    // Reserve more than the document takes, so the buffer is never copied
    // while it grows (untouched reserved pages cost no memory).
    let mut buf = Vec::with_capacity(64 * 1024 + run.counts.total().saturating_mul(2048));
    if let Err(e) = serde_json::to_writer_pretty(&mut buf, &doc) {
        return format!("{{\"error\":\"{e}\"}}\n");
    }
    buf.push(b'\n');
    String::from_utf8(buf).unwrap_or_default()
}

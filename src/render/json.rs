//! `--format json`: one document for the whole run. This is a versioned
//! contract (`"version": 1`), described by
//! `schemas/form-package-report-v1.schema.json` (ours, not a Takoform
//! schema). Shape:
//!
//! ```text
//! { "version": 1,
//!   "tool": { "name": "form-package", "version": "<crate version>" },
//!   "packages": [ {
//!       "path": "<as given>", "verdict": "ok" | "fail",
//!       "packageDigest"?: "sha256:…",              // whenever the index canonicalized
//!       "formRef"?: {…}, "fileCount"?: n, "payloadBytes"?: n,   // the reference report, only when verified
//!       "errors": n, "warnings": n, "fixturesRun": n,
//!       "skipped": ["<stage>: <why>"],
//!       "diagnostics": [ { "code": "FD213", "name": "open-object-schema",
//!           "severity": "error" | "warning" | "note", "specCode": "PROOF_OBJECT_OPEN" | "",
//!           "message": "…", "file": "definition.json" | null, "pointer": "/desiredSchema",
//!           "target": "value" | "key", "line"?: n, "column"?: n,
//!           "span"?: { "start": n, "end": n }, "help"?: "…", "notes": ["…"] } ],
//!       "relations": [ … ] } ],
//!   "summary": { "packages": n, "verified": n, "failed": n, "errors": n, "warnings": n } }
//! ```
//! Diagnostics are sorted by (file, pointer, severity, code); packages by path.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

use super::LineIndex;
use crate::diag::{Diagnostic, Severity, Target};
use crate::verify::{PackageOutcome, Source};

/// The report format version.
pub const VERSION: u32 = 1;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    version: u32,
    tool: Tool,
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

/// One diagnostic as its JSON object (also used by other machine formats).
pub fn diagnostic_value(d: &Diagnostic, source: Option<&Source>) -> Value {
    serde_json::to_value(diag(d, source, None)).unwrap_or(Value::Null)
}

fn diag<'a>(d: &'a Diagnostic, source: Option<&Source>, index: Option<&LineIndex>) -> Diag<'a> {
    let info = d.code.info();
    let span = super::resolve_span(d, source);
    let lc = match (&span, source, index) {
        (Some(s), Some(src), Some(idx)) => Some(idx.line_col(&src.bytes, s.start)),
        (Some(s), Some(src), None) => Some(super::line_col(&src.bytes, s.start)),
        _ => None,
    };
    Diag {
        code: info.id,
        name: info.name,
        severity: d.severity,
        spec_code: info.spec_code,
        message: &d.message,
        file: d.file.as_deref(),
        pointer: d.pointer.as_str(),
        target: d.target,
        line: lc.map(|x| x.0),
        column: lc.map(|x| x.1),
        span: span.map(|s| Span {
            start: s.start,
            end: s.end,
        }),
        help: d.help.as_deref(),
        notes: &d.notes,
    }
}

/// Renders the whole run as pretty JSON with a trailing newline.
pub fn render(packages: &[PackageOutcome], deny_warnings: bool) -> String {
    let mut summary = Summary {
        packages: packages.len(),
        verified: 0,
        failed: 0,
        errors: 0,
        warnings: 0,
    };
    let mut out = Vec::new();
    for p in packages {
        let errors = p.diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = p
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        let failed = errors > 0 || (deny_warnings && warnings > 0);
        summary.errors += errors;
        summary.warnings += warnings;
        if failed {
            summary.failed += 1
        } else {
            summary.verified += 1
        }
        out.push(Package {
            path: p.path.display().to_string(),
            verdict: if failed { "fail" } else { "ok" },
            package_digest: p.package_digest.as_deref(),
            form_ref: p.report.as_ref().map(|r| &r.form_ref),
            file_count: p.report.as_ref().map(|r| r.file_count),
            payload_bytes: p.report.as_ref().map(|r| r.payload_bytes),
            errors,
            warnings,
            fixtures_run: p.fixtures_run,
            skipped: &p.skipped,
            diagnostics: {
                // One line index per file, so N findings cost O(N log S).
                let mut indexes: HashMap<&str, LineIndex> = HashMap::new();
                p.diagnostics
                    .iter()
                    .map(|d| {
                        let file = d.file.as_deref();
                        let source = file.and_then(|f| p.sources.get(f));
                        let index = match (file, source) {
                            (Some(f), Some(src)) => Some(
                                &*indexes
                                    .entry(f)
                                    .or_insert_with(|| LineIndex::new(&src.bytes)),
                            ),
                            _ => None,
                        };
                        diag(d, source, index)
                    })
                    .collect()
            },
            relations: &p.relations,
        });
    }
    let run = Run {
        version: VERSION,
        tool: Tool {
            name: "form-package",
            version: env!("CARGO_PKG_VERSION"),
        },
        packages: out,
        summary,
    };
    let mut text =
        serde_json::to_string_pretty(&run).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    text.push('\n');
    text
}

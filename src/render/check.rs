//! The views of `form-package check` (and of `revocation`, which prints
//! its documents the same way): the per-document rendering in every
//! [`Format`] and the human verdict lines. `ops::check` returns the checked
//! documents ([`CheckRun`]); this module alone turns them into text
//! ([`output`], issue 21 item 3).

use crate::diag::Severity;
use crate::render::{self, escape, human, Format};
use crate::report::check::CheckRun;
use crate::report::Report;
use crate::verify::PackageOutcome;

/// What `check FILE...` prints on stdout for `found`: its report in
/// `format` ([`render_documents`]; `human`: each document's findings, its
/// verdict line, then [`summary_line`]). The exit status is the run's
/// ([`CheckRun::exit_code`]), never this view's.
pub fn output(found: &CheckRun, format: Format, color: bool) -> String {
    let report = &found.report;
    let deny_warnings = report.rule.deny_warnings;
    let verdicts: Vec<String> = report
        .entries
        .iter()
        .zip(&found.documents)
        .map(|(e, d)| {
            verdict_line(
                e.outcome(),
                d.kind,
                d.api_version.as_deref(),
                d.digest.as_deref(),
                &e.name().display().to_string(),
                deny_warnings,
            )
        })
        .collect();
    let mut stdout = render_documents(report, &verdicts, format, color);
    if format == Format::Human {
        stdout.push_str(&summary_line(report));
    }
    stdout
}

/// Renders a report of single documents (`check`'s, a revocation
/// command's) in `format`: each entry is a document named by its path as
/// given (the `path` of each `--format json` entry and the `name` of each
/// JUnit testcase, so every document is identifiable, while an outcome's
/// `path` is the directory its findings' files are relative to); whether
/// the run could run (SARIF `executionSuccessful`) and `--deny-warnings`
/// are the report's. `verdicts` are the human verdict lines (one per
/// entry), used for `human` only.
pub fn render_documents(
    report: &Report,
    verdicts: &[String],
    format: Format,
    color: bool,
) -> String {
    let run = render::RunView::of(report);
    let opts = render::Options {
        color,
        quiet: true,
        deny_warnings: report.rule.deny_warnings,
        ..render::Options::here()
    };
    match format {
        Format::Human => {
            let mut text = String::new();
            for (p, v) in run.packages.iter().zip(verdicts) {
                text.push_str(&human::render_package(p, &opts));
                for s in &p.outcome.skipped {
                    text.push_str(&format!("  skipped {}\n", escape::text(s)));
                }
                text.push_str(v);
            }
            text
        }
        other => render::render(other, &run, &opts),
    }
}

/// The human verdict line of one checked document.
///
/// `outcome` is the document's; `kind` (its label, `Form Definition`…)
/// and `api_version` what it is (none when unrecognised); `digest` its `sha256:` canonical digest; `shown` the
/// path as the user gave it. The path and the `apiVersion` (a stranger's
/// text) are escaped ([`escape::text`]), as `verify`'s verdict line escapes
/// its path. Ends with a newline.
pub fn verdict_line(
    outcome: &PackageOutcome,
    kind: Option<&str>,
    api_version: Option<&str>,
    digest: Option<&str>,
    shown: &str,
    deny_warnings: bool,
) -> String {
    let errors = outcome.count(Severity::Error);
    let warnings = outcome.count(Severity::Warning);
    let what = match (kind, api_version) {
        (Some(k), Some(a)) => format!("{k} {}", escape::text(a)),
        (Some(k), None) => k.to_owned(),
        (None, _) if outcome.sources.is_empty() => "not read".to_owned(),
        (None, _) => "unrecognised document".to_owned(),
    };
    let warn = match warnings {
        0 => String::new(),
        1 => ", 1 warning".to_owned(),
        n => format!(", {n} warnings"),
    };
    if outcome.fails(deny_warnings) {
        let e = if errors == 1 {
            "1 error".to_owned()
        } else {
            format!("{errors} errors")
        };
        format!("FAIL {}: {e}{warn} ({what})\n", escape::text(shown))
    } else {
        let fixtures = if outcome.fixtures_run > 0 {
            match outcome.fixtures_run {
                1 => ", 1 fixture validation run".to_owned(),
                n => format!(", {n} fixture validations run"),
            }
        } else {
            String::new()
        };
        format!(
            "ok {} ({what}, {}{fixtures}{warn})\n",
            escape::text(shown),
            digest.unwrap_or_default()
        )
    }
}

/// The human closing line of a run over several documents
/// (`N documents: A ok, B failed`, newline-terminated; a document fails by
/// [`crate::report::Entry::fails`]); empty for one.
pub fn summary_line(report: &Report) -> String {
    let n = report.entries.len();
    if n <= 1 {
        return String::new();
    }
    let bad = report
        .entries
        .iter()
        .filter(|e| e.fails(report.rule.deny_warnings))
        .count();
    format!("{n} documents: {} ok, {bad} failed\n", n - bad)
}

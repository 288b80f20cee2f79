//! The views of `form-package check` (and of `revocation`, which prints
//! its documents the same way): the per-document rendering in every
//! [`Format`] and the human verdict lines. `check_cmd` returns the checked
//! documents ([`CheckRun`]); this module alone turns them into text
//! ([`output`], issue 21 item 3).

use crate::check_cmd::CheckRun;
use crate::codes::Code;
use crate::diag::Severity;
use crate::doc_kind::DocKind;
use crate::render::{self, escape, human, Format};
use crate::verify::PackageOutcome;

/// What `check FILE...` prints on stdout for `found`: each document in
/// `format` ([`render_documents`]; `human`: its findings, its verdict line,
/// then [`summary_line`]). The exit status is the run's
/// ([`CheckRun::exit_code`]), never this view's.
pub fn output(found: CheckRun, format: Format, color: bool, deny_warnings: bool) -> String {
    let checked = found.checked;
    let verdicts: Vec<String> = checked
        .iter()
        .map(|c| {
            verdict_line(
                &c.outcome,
                c.kind,
                c.api_version.as_deref(),
                c.digest.as_deref(),
                &c.shown,
                deny_warnings,
            )
        })
        .collect();
    let names: Vec<String> = checked.iter().map(|c| c.shown.clone()).collect();
    let outcomes: Vec<PackageOutcome> = checked.into_iter().map(|c| c.outcome).collect();
    let mut stdout = render_documents(&outcomes, &names, &verdicts, format, color, deny_warnings);
    if format == Format::Human {
        stdout.push_str(&summary_line(&outcomes, deny_warnings));
    }
    stdout
}

/// Renders single-document outcomes in `format`; `names` are the documents'
/// paths as given (one per outcome): the `path` of each `--format json`
/// entry and the `name` of each JUnit testcase, so every document is
/// identifiable (an outcome's `path` is the directory its findings' files
/// are relative to); `verdicts` are the human verdict lines (one per
/// outcome), used for `human` only.
pub fn render_documents(
    outcomes: &[PackageOutcome],
    names: &[String],
    verdicts: &[String],
    format: Format,
    color: bool,
    deny_warnings: bool,
) -> String {
    let mut run = render::RunView::documents(outcomes, names, deny_warnings);
    // A FILE that could not be read makes the run exit 2: SARIF says the
    // run did not complete (T2 F2), as it does for `verify`.
    run.could_not_run = outcomes.iter().any(|o| {
        o.diagnostics
            .iter()
            .any(|d| matches!(d.code, Code::PathNotFound | Code::UnreadableFile))
    });
    let opts = render::Options {
        color,
        quiet: true,
        deny_warnings,
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
/// `outcome` is the document's; `kind` and `api_version` what it is (none
/// when unrecognised); `digest` its `sha256:` canonical digest; `shown` the
/// path as the user gave it. The path and the `apiVersion` (a stranger's
/// text) are escaped ([`escape::text`]), as `verify`'s verdict line escapes
/// its path. Ends with a newline.
pub fn verdict_line(
    outcome: &PackageOutcome,
    kind: Option<DocKind>,
    api_version: Option<&str>,
    digest: Option<&str>,
    shown: &str,
    deny_warnings: bool,
) -> String {
    let errors = outcome.count(Severity::Error);
    let warnings = outcome.count(Severity::Warning);
    let what = match (kind, api_version) {
        (Some(k), Some(a)) => format!("{} {}", k.label(), escape::text(a)),
        (Some(k), None) => k.label().to_owned(),
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
/// (`N documents: A ok, B failed`, newline-terminated); empty for one.
pub fn summary_line(outcomes: &[PackageOutcome], deny_warnings: bool) -> String {
    if outcomes.len() <= 1 {
        return String::new();
    }
    let bad = outcomes.iter().filter(|o| o.fails(deny_warnings)).count();
    format!(
        "{} documents: {} ok, {} failed\n",
        outcomes.len(),
        outcomes.len() - bad,
        bad
    )
}

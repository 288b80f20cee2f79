//! The `trust` commands' human summary (issue 26 item 3): one or two lines
//! on stderr beside the JSON report on stdout, so a person reading a CI log
//! sees what was verified without parsing the report, and a script still
//! reads stdout alone. A refusal is the JSON failure report on stderr (its
//! `message` is the human line), unchanged. `verify-set` prints its report
//! in every `--format` instead ([`set_output`]).
//!
//! Every value that comes from an input file (identities, FormRef members,
//! paths) is escaped with [`super::escape::text`].

use std::path::Path;

use serde_json::Value;

use super::escape;
use crate::report::trust::{
    Answer, BundleReport, CheckpointReport, Failure, NotRevokedReport, PackageSummary,
};

/// What `trust verify-set` prints, as (stdout, stderr): its report in
/// `format` ([`super::report`]: every part of the set an entry, every
/// finding with the file it concerns, one verdict line per entry), and in
/// `human` after it one line of the set's verdict.
pub fn set_output(
    report: &crate::report::Report,
    format: super::Format,
    opts: &super::Options,
) -> (String, String) {
    let (mut stdout, stderr) = super::report(format, &super::RunView::of(report), opts);
    if format == super::Format::Human {
        stdout.push_str(&set_line(report));
    }
    (stdout, stderr)
}

/// `trust set DIR: verified (N parts)`, or how many parts fail; the set is
/// the first part of the report.
fn set_line(report: &crate::report::Report) -> String {
    let deny = report.rule.deny_warnings;
    let parts: Vec<&crate::report::Entry> = report
        .entries
        .iter()
        .filter(|e| e.kind() == crate::report::EntryKind::TrustSet)
        .collect();
    let Some(set) = parts.first() else {
        return String::new();
    };
    let failing = parts.iter().filter(|e| e.fails(deny)).count();
    let others = report
        .entries
        .iter()
        .filter(|e| e.kind() != crate::report::EntryKind::TrustSet && e.fails(deny))
        .count();
    let name = super::escape::path(set.name());
    if failing == 0 && others == 0 {
        format!(
            "trust set {name}: verified ({})\n",
            super::count(parts.len(), "part")
        )
    } else {
        format!(
            "trust set {name}: NOT verified: {} of {} fail{}\n",
            failing,
            super::count(parts.len(), "part"),
            if others > 0 {
                format!(", and {others} of the packages or PATHs given")
            } else {
                String::new()
            }
        )
    }
}

/// The failure report of a refusal, the Core's members plus our code, one
/// JSON line for stderr:
/// `{"status":"error","code":CLASS,"message":…,"diagnostic":"FD8xx"}`.
pub fn failure(e: &Failure) -> String {
    let v = serde_json::json!({
        "status": "error",
        "code": e.class,
        "message": e.diagnostic.message,
        "diagnostic": e.diagnostic.code.info().id,
    });
    format!("{v}\n")
}

/// The human summary of `answer` (lines, each ending in a newline);
/// `pin_out`: where `--pin-out` wrote the pin.
pub fn summary(answer: &Answer, pin_out: Option<&Path>) -> String {
    match answer {
        Answer::Bundle(report, package) => bundle(report, package.as_ref()),
        Answer::Checkpoint(report) => checkpoint(report, pin_out),
        Answer::NotRevoked(r) => {
            let mut s = not_revoked(r);
            if let Some(p) = pin_out {
                s.push_str(&pin_line(p));
            }
            s
        }
    }
}

fn pin_line(p: &Path) -> String {
    escape::line(&format!("pin written to {}", p.display()))
}

/// `verify-bundle`: `form-package: bundle verified: <subject> signed by
/// <identity> at source commit <commit>`, then the package line when the
/// subject was a `--package`.
fn bundle(report: &BundleReport, package: Option<&PackageSummary>) -> String {
    let mut s = escape::line(&format!(
        "bundle verified: {} signed by {} at source commit {}",
        report.subject_digest, report.publisher_identity, report.source_commit,
    ));
    if let Some(p) = package {
        s.push_str(&package_line(p));
    }
    s
}

/// `verify-checkpoint`: the checkpoint verified and the pin to keep, or
/// `unchanged since the pin`; then where the pin was written.
fn checkpoint(report: &CheckpointReport, pin_out: Option<&Path>) -> String {
    let mut s = if report.status == "unchanged" {
        escape::line(&format!(
            "revocation checkpoint {} unchanged since the pin (sequence {}, {} entries, {}); pin kept",
            report.checkpoint_version, report.pin.sequence, report.entry_count, report.pin.digest,
        ))
    } else {
        escape::line(&format!(
            "revocation checkpoint {} verified (sequence {}, {} entries) signed by {}; pin to keep: sequence {} {}",
            report.checkpoint_version,
            report.pin.sequence,
            report.entry_count,
            report.bundle.publisher_identity,
            report.pin.sequence,
            report.pin.digest,
        ))
    };
    if let Some(p) = pin_out {
        s.push_str(&pin_line(p));
    }
    s
}

/// `check-not-revoked`: the package (its FormRef and digest) is not revoked
/// by the checkpoint; a warning line when the digest and the FormRef were
/// given separately and could not be checked against each other.
fn not_revoked(r: &NotRevokedReport) -> String {
    let (package_digest, form_ref, checkpoint, package, cross_checked) = (
        &r.package_digest,
        &r.form_ref,
        &r.checkpoint,
        r.package.as_ref(),
        r.cross_checked,
    );
    let member =
        |k: &str| escape::text(form_ref.get(k).and_then(Value::as_str).unwrap_or("")).into_owned();
    let mut s = String::new();
    if let Some(p) = package {
        s.push_str(&package_line(p));
    }
    s.push_str(&escape::line(&format!(
        "not revoked: {} {} {} ({package_digest}) by revocation checkpoint {} (sequence {}, {} entries)",
        member("apiVersion"),
        member("kind"),
        member("definitionVersion"),
        checkpoint.checkpoint_version,
        checkpoint.pin.sequence,
        checkpoint.entry_count,
    )));
    if !cross_checked {
        s.push_str(&escape::line(
            "warning: --package-digest and --form-ref were given separately and are not checked against each other; pass --package DIR or the package index as --form-ref",
        ));
    }
    s
}

fn package_line(p: &PackageSummary) -> String {
    let member = |k: &str| {
        escape::text(p.form_ref.get(k).and_then(Value::as_str).unwrap_or("")).into_owned()
    };
    escape::line(&format!(
        "package {} verified: {} {} {}, package digest {}",
        p.path,
        member("apiVersion"),
        member("kind"),
        member("definitionVersion"),
        p.package_digest,
    ))
}

//! `form-package compat` in every format of `verify` (issue 20): the one
//! place the report of a `compat` run ([`Compat`], the report model's)
//! becomes text.
//!
//! - `json`: its own versioned document (`"version": 1`, JSON Schema:
//!   `form-package schema compat`, `schemas/form-package-compat-v1.schema.json`):
//!
//! ```text
//! { "version": 1, "tool": {…}, "mode": "pair" | "history" | "baseline",
//!   "pairs": [ {
//!       "old": { "formRef": {apiVersion, kind, definitionVersion, schemaDigest},
//!                "path": "<PATH>", "definition": "<definition file>" },
//!       "new": { … },
//!       "compared": true | false,
//!       "actualBump": "none|patch|minor|major",
//!       "requiredBump": "none|patch|minor|major" | null,   (null: not compared, or FD675)
//!       "requiredBumpReason": "0.x: a breaking change needs a minor (FD650 …)" | null,
//!       "bumpOk": true | false,
//!       "desired": null | { "verdict": "identical|equivalent|widened|compatible|breaking|unknown",
//!                           "witness"?: <document>, "newlyAccepted"?: <document>,
//!                           "pointer"?: "/…", "reason"?: "…" },   (pointer, reason: unknown, compatible)
//!       "changes": [ { "code", "name", "class": "breaking|addition|relaxation|documentation",
//!                      "inference": bool, "message", "help",
//!                      "witness"?: <document>,   (FD668: valid under both, omits the member)
//!                      "old": null | LOC, "new": null | LOC } ],
//!       "findings": [ { "code", "name", "severity", "message", "help",
//!                       "old": null | LOC, "new": null | LOC } ] } ],
//!   "outcomes": [ { "path", "diagnostics": [ <verify's diagnostic objects> ] } ],
//!   "skipped": [ { "path", "rule": "hidden" | ".gitignore" | … } ],   (directories the walk skipped)
//!   "summary": { "pairs", "bumpOk", "bumpFailed", "errors", "warnings", "notes", "baseRefused" } }
//! LOC = { "file", "pointer", "line"?, "column"? }
//! ```
//! - `human`: per pair a verdict line, one block per change record (its
//!   `file:line:column` in both files) and the findings through miette, then
//!   the findings outside the pairs as `verify` prints them, then a summary;
//! - `sarif`, `github`, `junit`: each pair is an entry of `verify`'s run
//!   (its records and findings are diagnostics located in NEW, or in OLD for
//!   what NEW lacks, with the other side's location as a note; the pair's
//!   verdict and bumps ride in [`crate::verify::PackageOutcome::summary`]), after the
//!   outcomes outside the pairs.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::{json, Value};

use super::{human, Format, Options, RunView};
use crate::diag::Severity;
use crate::report::compat::{Change, Compat, Pair, Place, Record};
use crate::report::SkipRule;

/// The version of the `--format json` document.
pub const VERSION: u32 = 1;

/// `compat --write-witnesses`' stderr: `form-package: wrote witness
/// <path>`, one line per file written, each followed by the
/// `negativeConformanceFixtures` entry to paste into NEW's definition once
/// the file is copied to NEW's `fixtures/` (issue 35 item 5; [`negative_entry`]).
pub fn wrote_witnesses(written: &[PathBuf]) -> String {
    written
        .iter()
        .map(|w| {
            super::escape::line(&format!("wrote witness {}", w.display()))
                + &super::escape::line(&format!(
                    "add it to NEW as a negative fixture (copied to its fixtures/), this entry in negativeConformanceFixtures: {}",
                    negative_entry(w)
                ))
        })
        .collect()
}

/// The `negativeConformanceFixtures` entry of a witness file written by
/// `--write-witnesses`: `name` its stem lowercased (the definition's name
/// grammar `^[a-z0-9][a-z0-9._-]{0,127}$`), `stage` `desired`,
/// `inputPath` `fixtures/<file name>`, `expectedFailure`
/// `schema_validation_failed`; compact JSON.
pub fn negative_entry(witness: &std::path::Path) -> String {
    let file = witness
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = file.strip_suffix(".negative.json").unwrap_or(&file);
    let name: String = stem
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .skip_while(|c| !c.is_ascii_alphanumeric())
        .take(128)
        .collect();
    json!({
        "name": name,
        "stage": "desired",
        "inputPath": format!("fixtures/{file}"),
        "expectedFailure": "schema_validation_failed"
    })
    .to_string()
}

/// The whole report in `format`: (stdout, stderr). Stdout is [`render`]'s;
/// the directories the walk skipped by a rule ([`Compat::skipped`]) are
/// said as `verify` says them ([`super::report`]): after the human report,
/// on stderr in `sarif`, `github` and `junit` (whose stdout stays one
/// document), and in the `json` document itself (`skipped`).
pub fn report(report: &Compat, format: Format, opts: &Options) -> (String, String) {
    let stdout = render(report, format, opts);
    let skipped = skipped(&report.skipped);
    match format {
        Format::Human => (stdout + &skipped, String::new()),
        Format::Json => (stdout, String::new()),
        _ => (stdout, skipped),
    }
}

/// `N directories skipped by a rule (hidden, .gitignore): not compared:`
/// then one escaped path and its rule a line (compat has neither `-v`
/// nor `--no-ignore`, so every one is listed); empty when none was.
fn skipped(dirs: &[(PathBuf, SkipRule)]) -> String {
    super::skipped_lines(
        dirs,
        "of verify's walk (hidden, .gitignore): not compared:",
        true,
    )
}

/// Renders `report` in `format` (stdout only: see [`report`]).
pub fn render(report: &Compat, format: Format, opts: &Options) -> String {
    match format {
        Format::Json => render_json(report),
        Format::Human => render_human(report, opts),
        Format::Github => {
            // The findings of failing pairs are annotated first (issue 35
            // item 7): GitHub's 10 annotations per type go to the FD670
            // that fails the step before other packages' findings; the
            // rest are log lines, counted after the summary as `verify`
            // counts them.
            let run = RunView::of(&report.report);
            let outside = report.outside_pairs();
            let failing = |i: usize| i >= outside && run.packages.get(i).is_some_and(|p| p.failed);
            let (lines, more) = super::github::annotations(&run, opts, &failing);
            format!("{lines}{}{more}", summary_line(report))
        }
        Format::Concise => {
            // Compat's own summary (breaker4 H4): a pair is no package, so
            // verify's "N packages (V verified, F failed)" miscounted it.
            let lines = super::concise::lines(&RunView::of(&report.report));
            if opts.quiet {
                lines
            } else {
                lines + &summary_line(report)
            }
        }
        other => super::render(other, &RunView::of(&report.report), opts),
    }
}

/// Sets member `key` of the object `v` (nothing for another value).
fn set(v: &mut Value, key: &str, x: Value) {
    if let Some(m) = v.as_object_mut() {
        m.insert(key.to_owned(), x);
    }
}

/// A location in one document of a side (`null` when the side has no
/// such document), or `null` for no place.
fn locate(place: Option<Place<'_>>) -> Value {
    let Some((p, file)) = place.and_then(|p| Some((p, p.file?))) else {
        return Value::Null;
    };
    let mut loc = json!({"file": file, "pointer": p.pointer.as_str()});
    if let Some(at) = p.position {
        set(&mut loc, "line", json!(at.line));
        set(&mut loc, "column", json!(at.column));
    }
    loc
}

/// `file:line:column at /pointer` (or `file at /pointer`), escaped
/// ([`Place::shown`]).
fn where_text(place: Place<'_>) -> String {
    super::escape::text(&place.shown()).into_owned()
}

/// The object of a change record or a finding: `code`, `name`, then its
/// `traits` (a change's `class` and `inference`, a finding's `severity`),
/// `message`, `help`, and where it is in OLD and in NEW.
fn record_value(r: &Record, traits: Vec<(&str, Value)>) -> Value {
    let d = &r.diagnostic;
    let info = d.code.info();
    let mut v = json!({"code": info.id, "name": info.name});
    for (key, value) in traits {
        set(&mut v, key, value);
    }
    set(&mut v, "message", json!(d.message));
    set(&mut v, "help", json!(d.help.as_deref().unwrap_or_default()));
    set(&mut v, "old", locate(r.in_old()));
    set(&mut v, "new", locate(r.in_new()));
    v
}

fn change_value(c: &Change) -> Value {
    let traits = vec![("class", json!(c.class)), ("inference", json!(c.inference))];
    let mut v = record_value(&c.record, traits);
    if let Some(w) = &c.witness {
        set(&mut v, "witness", w.clone());
    }
    v
}

fn finding_value(f: &Record) -> Value {
    record_value(f, vec![("severity", json!(f.diagnostic.severity))])
}

/// Counts of the summary: (errors, warnings, notes) over every finding
/// of the report (a pair's change records and findings among them), each
/// counted once.
fn counts(report: &Compat) -> (usize, usize, usize) {
    let mut c = (0, 0, 0);
    for d in report.report.findings() {
        match d.severity {
            Severity::Error => c.0 += 1,
            Severity::Warning => c.1 += 1,
            _ => c.2 += 1,
        }
    }
    c
}

fn render_json(report: &Compat) -> String {
    let pairs: Vec<Value> = report
        .pairs
        .iter()
        .map(|p| {
            let mut v = p.summary.value();
            set(
                &mut v,
                "changes",
                p.changes.iter().map(change_value).collect(),
            );
            set(
                &mut v,
                "findings",
                p.findings.iter().map(finding_value).collect(),
            );
            v
        })
        .collect();
    let run = RunView::of(&report.report);
    let outcomes: Vec<Value> = run
        .packages
        .iter()
        .take(report.outside_pairs())
        .map(|p| {
            json!({
                "path": p.path().display().to_string(),
                "diagnostics": p.findings.iter().map(super::json::diagnostic_value).collect::<Vec<_>>(),
            })
        })
        .collect();
    let (errors, warnings, notes) = counts(report);
    let ok = report.pairs.iter().filter(|p| p.summary.bump_ok).count();
    let doc = json!({
        "version": VERSION,
        "tool": {"name": "form-package", "version": env!("CARGO_PKG_VERSION")},
        "mode": report.mode,
        "pairs": pairs,
        "outcomes": outcomes,
        "skipped": report.skipped.iter().map(|(dir, rule)| json!({
            "path": dir.display().to_string(),
            "rule": rule.name(),
        })).collect::<Vec<_>>(),
        "summary": {
            "pairs": report.pairs.len(),
            "bumpOk": ok,
            "bumpFailed": report.pairs.len() - ok,
            "errors": errors,
            "warnings": warnings,
            "notes": notes,
            "baseRefused": report.base_refused,
        },
    });
    let mut text =
        serde_json::to_string_pretty(&doc).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    text.push('\n');
    text
}

/// `form-package compat: N pairs (K fit, F do not), E errors, W warnings, N notes`.
pub fn summary_line(report: &Compat) -> String {
    let (errors, warnings, notes) = counts(report);
    let ok = report.pairs.iter().filter(|p| p.summary.bump_ok).count();
    let n = |k: usize, w: &str| {
        if k == 1 {
            format!("1 {w}")
        } else {
            format!("{k} {w}s")
        }
    };
    let mut line = format!(
        "form-package compat: {} ({ok} fit, {} do not), {}, {}, {}",
        n(report.pairs.len(), "pair"),
        report.pairs.len() - ok,
        n(errors, "error"),
        n(warnings, "warning"),
        n(notes, "note"),
    );
    if report.base_refused > 0 {
        let _ = write!(
            line,
            "; {} of BASE refused by verification, never used as a baseline",
            n(report.base_refused, "package")
        );
    }
    line.push('\n');
    line
}

/// The verdict line of a pair.
fn pair_line(p: &Pair) -> String {
    let (o, n) = (&p.old, &p.new);
    let name = if p.reidentified {
        format!(
            "{} → {}",
            super::escape::text(&o.label),
            super::escape::text(&n.label)
        )
    } else {
        format!(
            "{} {} {} → {}",
            super::escape::text(&o.api_version),
            super::escape::text(&o.kind),
            super::escape::text(&o.definition_version),
            super::escape::text(&n.definition_version)
        )
    };
    let desired = p.verdict.unwrap_or("not compared");
    let backwards = p
        .findings
        .iter()
        .any(|f| f.diagnostic.code == crate::codes::Code::VersionNotIncreasing);
    // A version that goes back has no bump to show or require: FD675 says
    // it (issue 35 item 5).
    let bump = if backwards {
        "NEW's version does not follow OLD's (FD675)".to_owned()
    } else {
        format!(
            "bump {}, required {}",
            p.summary.actual_bump,
            p.summary.required_bump.unwrap_or("not compared")
        )
    };
    let mut line = format!(
        "{} {name}: desired {desired}; {bump}\n  old {}\n  new {}\n",
        if p.summary.bump_ok { "ok" } else { "FAIL" },
        super::escape::path(&p.old.path),
        super::escape::path(&p.new.path),
    );
    if let (Some(required), Some(reason)) =
        (p.summary.required_bump, &p.summary.required_bump_reason)
    {
        let _ = writeln!(line, "  required {required}: {reason}");
    }
    line
}

fn render_human(report: &Compat, opts: &Options) -> String {
    let run = RunView::of(&report.report);
    let (outside, pair_views) = run.packages.split_at(report.outside_pairs());
    let mut out = String::new();
    for (p, view) in report.pairs.iter().zip(pair_views) {
        out.push_str(&pair_line(p));
        if let Some(witness) = &p.witness {
            let _ = writeln!(
                out,
                "  witness (valid under OLD, refused by NEW): {}",
                super::escape::text(&witness.to_string())
            );
        }
        if let Some(newly_accepted) = &p.newly_accepted {
            let _ = writeln!(
                out,
                "  newly accepted (valid under NEW, refused by OLD): {}",
                super::escape::text(&newly_accepted.to_string())
            );
        }
        for c in &p.changes {
            let d = &c.record.diagnostic;
            let info = d.code.info();
            let _ = writeln!(
                out,
                "  {} {} {}: {}",
                format!("{:?}", c.class).to_lowercase(),
                info.id,
                info.name,
                super::escape::text(&d.message)
            );
            if let Some(w) = &c.witness {
                let label = if c.valid_under_both {
                    "counterexample (valid under OLD and NEW)"
                } else {
                    "witness (what hosts that materialize make of it: above)"
                };
                let _ = writeln!(out, "    {label}: {}", super::escape::text(&w.to_string()));
            }
            if let Some(place) = c.record.in_old() {
                let _ = writeln!(out, "    old {}", where_text(place));
            }
            if let Some(place) = c.record.in_new() {
                let _ = writeln!(out, "    new {}", where_text(place));
            }
        }
        // The pair's findings, after its change records in its entry.
        for f in view.findings.iter().skip(p.changes.len()) {
            out.push_str(&human::render_diagnostic_in(
                f.diag, f.source, None, opts.color,
            ));
        }
        out.push('\n');
    }
    let quiet = Options {
        quiet: true,
        ..opts.clone()
    };
    for view in outside {
        out.push_str(&human::render_package(view, &quiet));
    }
    out.push_str(&summary_line(report));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One line per witness written, then the entry to paste (issue 35
    /// item 5); none written, nothing said.
    #[test]
    fn each_witness_written_is_one_line_and_its_entry() {
        assert_eq!(wrote_witnesses(&[]), "");
        let entry = |file: &str, name: &str| {
            format!(
                "form-package: add it to NEW as a negative fixture (copied to its fixtures/), this entry in negativeConformanceFixtures: {{\"name\":\"{name}\",\"stage\":\"desired\",\"inputPath\":\"fixtures/{file}\",\"expectedFailure\":\"schema_validation_failed\"}}\n"
            )
        };
        let a = "Store-1.0.0-to-2.0.0.negative.json";
        assert_eq!(
            wrote_witnesses(&[PathBuf::from(format!("w/{a}")), PathBuf::from("w/b.json")]),
            format!(
                "form-package: wrote witness w/{a}\n{}form-package: wrote witness w/b.json\n{}",
                entry(a, "store-1.0.0-to-2.0.0"),
                entry("b.json", "b.json")
            )
        );
        // A control character in the path (a directory the user named) is
        // escaped, never sent to the terminal.
        assert!(wrote_witnesses(&[PathBuf::from("w\u{1b}[2J/a.json")])
            .starts_with("form-package: wrote witness w\\x1b[2J/a.json\n"));
    }
}

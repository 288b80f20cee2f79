//! `form-package compat`: the command as one operation (the CLI file
//! `src/cli/compat.rs` only parses arguments and delivers the output): run
//! the request ([`crate::compat::report::run`]), write the witnesses, and
//! return the report as the report model holds it
//! ([`crate::report::compat::Compat`], which
//! [`crate::render::compat::render`] prints).
//!
//! A lone definition file is verified by the lone-document check `check`
//! runs ([`crate::document::check_document`], called by the library).

use std::path::{Path, PathBuf};

use crate::compat::pairs::Pair;
use crate::compat::side::{Doc, Side};
use crate::error::Error;
use crate::json::pointer::JsonPointer;
use crate::report::compat::{self as model, Compat};

/// What one `compat` run did: its report, and with `--write-witnesses`
/// the witness files written or why writing them failed.
#[derive(Debug)]
pub struct CompatRun {
    /// Everything the run found, as the report model holds it.
    pub report: Compat,
    /// With `--write-witnesses`: the files written, or the error that
    /// stopped the writing (the run then exits 2).
    pub witnesses: Option<Result<Vec<PathBuf>, Error>>,
}

impl CompatRun {
    /// The exit status: the report's
    /// ([`crate::report::Report::exit_code`]: 2 could not run, 1 some
    /// entry fails, a bump that does not fit among them), or 2 when the
    /// witnesses could not be written.
    pub fn exit_code(&self) -> u8 {
        match self.witnesses {
            Some(Err(_)) => 2,
            _ => self.report.report.exit_code(),
        }
    }
}

/// The whole command: runs the request (a warning fails its entry under
/// `--deny-warnings`, `deny_warnings`) and writes the witnesses into
/// `witnesses` when asked (refused, exit 2, inside a package:
/// [`crate::discover::inside_package`]); nothing is printed
/// ([`crate::render::compat`] makes the text).
///
/// # Errors
/// The command could not run (exit 2).
pub fn run(
    paths: &[PathBuf],
    history_mode: bool,
    base: Option<crate::compat::report::Base>,
    witnesses: Option<&Path>,
    deny_warnings: bool,
) -> Result<CompatRun, Error> {
    if let Some(dir) = witnesses {
        if let Some(package) = crate::discover::inside_package(dir) {
            return Err(Error::Usage(format!(
                "--write-witnesses {} is inside the package {}: nothing is written to a package being verified; write the witnesses outside it",
                dir.display(),
                crate::discover::as_given(dir, &package).display()
            )));
        }
    }
    let mut report = crate::compat::report::run(paths, history_mode, base)?;
    report.report.rule.deny_warnings = deny_warnings;
    let witnesses = witnesses.map(|dir| crate::compat::report::write_witnesses(&report, dir));
    Ok(CompatRun {
        report: compat_model(report),
        witnesses,
    })
}

/// `report` as the report model holds it: the run's report as it is, and
/// each pair's summary, sides, verdict, change records and findings, each
/// record located in both sides ([`Side::line_column`], through
/// [`crate::locate`]).
pub fn compat_model(report: crate::compat::report::Report) -> Compat {
    Compat {
        mode: report.mode,
        pairs: report.pairs.iter().map(pair_model).collect(),
        base_refused: report.base_refused,
        report: report.report,
        skipped: report.skipped,
    }
}

fn pair_model(p: &Pair) -> model::Pair {
    use crate::compat::desired::Verdict;
    let end = |s: &Side| model::End {
        api_version: s.form_ref.api_version.clone(),
        kind: s.form_ref.kind.clone(),
        definition_version: s.form_ref.definition_version.clone(),
        label: s.form_ref.label(),
        path: s.path.clone(),
    };
    model::Pair {
        summary: p.summary(),
        old: end(&p.old),
        new: end(&p.new),
        reidentified: p.reidentified(),
        verdict: p.desired.as_ref().map(Verdict::name),
        witness: match &p.desired {
            Some(Verdict::Breaking { witness }) => Some(witness.clone()),
            _ => None,
        },
        newly_accepted: match &p.desired {
            Some(Verdict::Widened { newly_accepted }) => Some(newly_accepted.clone()),
            _ => None,
        },
        changes: p
            .changes
            .iter()
            .map(|c| model::Change {
                code: c.code,
                class: c.class,
                inference: c.inference,
                message: c.message.clone(),
                witness: c.witness.clone(),
                valid_under_both: c.message.contains(crate::compat::change::VALID_UNDER_BOTH),
                old: c.old.as_ref().map(|ptr| place(&p.old, c.doc, ptr)),
                new: c.new.as_ref().map(|ptr| place(&p.new, c.doc, ptr)),
            })
            .collect(),
        findings: p
            .findings
            .iter()
            .map(|f| model::Finding {
                code: f.code,
                message: f.message.clone(),
                old: f
                    .old
                    .as_ref()
                    .map(|ptr| place(&p.old, Doc::Definition, ptr)),
                new: f
                    .new
                    .as_ref()
                    .map(|ptr| place(&p.new, Doc::Definition, ptr)),
            })
            .collect(),
    }
}

/// Where `pointer` is in the document `doc` of `side`.
fn place(side: &Side, doc: Doc, pointer: &JsonPointer) -> model::Place {
    model::Place {
        file: side.document(doc).map(|(file, _)| file.to_owned()),
        pointer: pointer.clone(),
        line_column: side.line_column(doc, pointer),
        shown: side.location(doc, pointer),
    }
}

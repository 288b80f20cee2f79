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
use crate::compat::side::Side;
use crate::error::Error;
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
/// record a diagnostic located in its sides ([`Pair::placed`], through
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
                record: p.change_record(c),
                class: c.class,
                inference: c.inference,
                witness: c.witness.clone(),
                valid_under_both: c.valid_under_both,
            })
            .collect(),
        findings: p.findings.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::report::compat::{Record, Which, OLD};

    use crate::testing::worker_definition_at as definition_at;

    /// The one finding of `code` of the only pair of `old` → `new`.
    fn finding(old: &Path, new: &Path, code: Code) -> Record {
        let r = compat_model(crate::compat::report::pair(old, new).unwrap());
        let found: Vec<&Record> = r.pairs[0]
            .findings
            .iter()
            .filter(|f| f.diagnostic.code == code)
            .collect();
        assert_eq!(found.len(), 1, "{:?}", r.pairs[0].findings);
        found[0].clone()
    }

    /// Issue 34 item 2: a pair's finding is a Diagnostic located in NEW
    /// whose related location is OLD's (label, file, pointer and
    /// line:column), the same place its JSON `old` and its note name.
    /// Near miss: a finding about NEW only has no related location and no
    /// place in OLD.
    #[test]
    fn a_pair_finding_is_a_diagnostic_with_old_as_its_related_location() {
        let tmp = tempfile::tempdir().unwrap();
        let old = definition_at(&tmp.path().join("old"), "0.1.0");
        let back = definition_at(&tmp.path().join("back"), "0.0.9");
        let f = finding(&old, &back, Code::VersionNotIncreasing);
        let d = &f.diagnostic;
        assert_eq!(f.side, Some(Which::New));
        assert!(
            d.file.as_deref().is_some_and(|p| p.contains("back")),
            "{d:?}"
        );
        assert_eq!(d.pointer.as_str(), "/definitionVersion");
        assert_eq!(d.related.len(), 1);
        let related = &d.related[0];
        assert_eq!(related.label, OLD);
        let old_file = related.file.as_deref().unwrap();
        assert!(old_file.contains("old") && old_file.ends_with("definition.json"));
        assert_eq!(related.pointer.as_str(), "/definitionVersion");
        let at = related.position.unwrap();
        assert!(at.line > 1 && at.column > 1, "{at:?}");
        assert_eq!(
            f.in_old().unwrap().shown(),
            format!("{old_file}:{}:{} at /definitionVersion", at.line, at.column)
        );
        assert!(d
            .notes
            .contains(&format!("old: {}", f.in_old().unwrap().shown())));
        // Near miss: NEW a pre-release after a release: about NEW only.
        let rc = definition_at(&tmp.path().join("rc"), "0.1.1-rc.1");
        let f = finding(&old, &rc, Code::PreReleaseVersion);
        assert_eq!(f.side, Some(Which::New));
        assert!(f.diagnostic.related.is_empty());
        assert!(f.in_old().is_none() && f.in_new().is_some());
    }

    /// Whether a witness is valid under both schemas as it is comes from
    /// the prover, never from its message, which quotes package text: an
    /// OLD default that reads like the message's own words ("(valid under
    /// OLD and NEW)") labelled `{}` a counterexample valid under both,
    /// though both schemas refuse it as it is (`name` is required). Near
    /// miss: the optional `plain`'s default changed, whose witness is valid
    /// under both.
    #[test]
    fn a_witness_is_labelled_by_the_prover_not_by_its_message() {
        use crate::compat::change::VALID_UNDER_BOTH;
        let tmp = tempfile::tempdir().unwrap();
        let widget = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/cases/desired/packages/widget-0.1.0/definition.json");
        let base: serde_json::Value =
            serde_json::from_slice(&std::fs::read(widget).unwrap()).unwrap();
        let side = |name: &str, version: &str, member: &str, default: &str| {
            let mut d = base.clone();
            d["definitionVersion"] = version.into();
            d["desiredSchema"]["properties"][member]["default"] = default.into();
            let dir = tmp.path().join(name);
            std::fs::create_dir_all(&dir).unwrap();
            let file = dir.join("definition.json");
            std::fs::write(&file, serde_json::to_vec_pretty(&d).unwrap()).unwrap();
            file
        };
        let changed = |old: &Path, new: &Path| {
            let r = compat_model(crate::compat::report::pair(old, new).unwrap());
            let found: Vec<&model::Change> = r.pairs[0]
                .changes
                .iter()
                .filter(|c| c.record.diagnostic.code == Code::DesiredDefaultChanged)
                .collect();
            assert_eq!(found.len(), 1, "{:?}", r.pairs[0].changes);
            found[0].clone()
        };
        let c = changed(
            &side("old", "1.0.0", "name", VALID_UNDER_BOTH),
            &side("new", "2.0.0", "name", "b"),
        );
        assert!(c.record.diagnostic.message.contains(VALID_UNDER_BOTH));
        assert_eq!(c.witness, Some(serde_json::json!({})));
        assert!(!c.valid_under_both, "{c:?}");
        let c = changed(
            &side("p-old", "1.0.0", "plain", "p"),
            &side("p-new", "2.0.0", "plain", "q"),
        );
        assert!(c.witness.is_some() && c.valid_under_both, "{c:?}");
    }
}

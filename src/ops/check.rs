//! `form-package check FILE...`: reads each FILE (or standard input) and
//! checks it on its own by what it is ([`crate::document::check_document`],
//! the lone-document check the language server, `compat`, `conformance`
//! and the revocation commands call too); a FILE that cannot be read is a
//! finding of its own. [`check_files`] returns a [`CheckRun`];
//! `render::check` prints it and `cli/check.rs` passes its exit status on.

use std::path::PathBuf;

use crate::codes::Code;
use crate::diag::{self, Diagnostic};
use crate::doc_kind::DocKind;
use crate::document::{check_document, document_entry, split, Checked};
use crate::error::Error;
use crate::fileread::{read_file, read_stdin, FileRefusal, Reach};
use crate::report::{ExitRule, Report};
use crate::verify::PackageOutcome;

/// A FILE that could not be read: a finding of its own (`FD900` when it
/// does not exist, `FD905` for a directory or a read error) about the path
/// itself, so every other FILE is still checked and rendered in every
/// format; the run then exits 2 (`verify` does the same for a missing PATH).
fn unreadable(display: String, e: &FileRefusal) -> Checked {
    let finding = if e.is_not_found() {
        Diagnostic::new(
            Code::PathNotFound,
            format!("FILE {display} does not exist ({e})"),
        )
    } else if e.is_directory() {
        Diagnostic::new(
            Code::UnreadableFile,
            format!(
                "FILE {display} is a directory; check takes JSON documents (use `verify` for a package directory)"
            ),
        )
    } else {
        Diagnostic::new(
            Code::UnreadableFile,
            format!("FILE {display} cannot be read ({e})"),
        )
    };
    unread(display, finding)
}

/// The [`Checked`] of a FILE that could not be read, with `finding`.
fn unread(display: String, finding: Diagnostic) -> Checked {
    // Located at the FILE itself (its directory + name, as every document
    // is), never at `<FILE>/package-index.json` (T2 F2).
    let (dir, name) = split(&display);
    let mut diagnostics = vec![finding.in_file(name)];
    diag::finish(&mut diagnostics);
    Checked {
        outcome: PackageOutcome {
            path: dir,
            diagnostics,
            skipped: vec!["everything: the file could not be read".into()],
            ..Default::default()
        },
        kind: None,
        api_version: None,
        digest: None,
        shown: display,
        parsed: None,
    }
}

pub use crate::report::check::{CheckRun, DocumentFacts};

/// The report of `checked` (one document entry each, named by the path
/// as given) and what each document is.
fn check_run(checked: Vec<Checked>, could_not_read: bool, deny_warnings: bool) -> CheckRun {
    let mut documents = Vec::with_capacity(checked.len());
    let mut entries = Vec::with_capacity(checked.len());
    for c in checked {
        documents.push(DocumentFacts {
            kind: c.kind.map(DocKind::label),
            api_version: c.api_version,
            digest: c.digest,
        });
        entries.push(document_entry(&c.shown, c.outcome));
    }
    let mut report = Report::new(
        entries,
        ExitRule {
            deny_warnings,
            ..ExitRule::default()
        },
    );
    report.could_not_read = could_not_read;
    CheckRun { report, documents }
}

/// `check FILE... [--stdin-filename NAME]`: `-` reads standard input (at
/// most once: a second `-` is a usage error, exit 2). A FILE that does not
/// exist, is a directory or cannot be read is a finding (`unreadable`):
/// every other FILE is still checked and the run exits 2.
/// `deny_warnings`: a warning fails its document (`--deny-warnings`).
///
/// # Errors
/// The command could not run (exit 2), with the message that follows
/// `form-package: `: a second `-`, standard input that cannot be read, a
/// check that could not run, or the first document whose checks an
/// internal fault stopped (`fault_exit`).
pub fn check_files(
    files: &[PathBuf],
    stdin_filename: Option<&str>,
    deny_warnings: bool,
) -> Result<CheckRun, String> {
    if files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
        return Err(Error::Usage(
            "check: `-` (standard input) can be given once; standard input is read once".into(),
        )
        .to_string());
    }
    let mut checked = Vec::new();
    let mut could_not_read = false;
    for f in files {
        let (display, bytes, beside) = if f.as_os_str() == "-" {
            let bytes = read_stdin(crate::limits::PAYLOAD_BYTES)
                .map_err(|e| format!("read standard input: {e}"))?;
            let name = stdin_filename.unwrap_or("<stdin>").to_owned();
            let beside = stdin_filename.map(|n| split(n).0);
            (name, bytes, beside)
        } else {
            // A FILE named on the command line (`crate::fileread`): the
            // user's link followed, a regular file of at most the payload
            // limit (64 MiB; the package rules then apply their own).
            let display = f.display().to_string();
            match read_file(f, Reach::Named, crate::limits::PAYLOAD_BYTES) {
                Ok(b) => {
                    let beside = Some(split(&display).0);
                    (display, b, beside)
                }
                Err(e) => {
                    could_not_read = true;
                    checked.push(unreadable(display, &e));
                    continue;
                }
            }
        };
        let beside = beside.map(|b| {
            if b.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                b
            }
        });
        checked.push(check_document(&display, bytes, beside.as_deref())?);
    }
    if let Some(fault) = fault_exit(&checked) {
        return Err(fault);
    }
    Ok(check_run(checked, could_not_read, deny_warnings))
}

/// The exit-2 message naming the first document whose checks an internal
/// fault stopped ([`PackageOutcome::fault`], e.g. an embedded published
/// schema that does not build): the command could not run, whatever the
/// other documents say (the README's exit codes; `verify` does the same in
/// [`crate::ops::verify`]). `None` when no document has a fault.
fn fault_exit(checked: &[Checked]) -> Option<String> {
    checked.iter().find_map(|c| {
        c.outcome
            .fault
            .as_ref()
            .map(|fault| format!("{}: {fault}", c.shown))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::document_outcome;
    use crate::output::Output;
    use crate::render::{check::render_documents, human::Color, Format};
    use crate::report::EntryKind;
    use serde_json::Value;
    use std::path::Path;

    /// `check` as the command line runs it: its own face,
    /// `cli::check::run` ([`check_files`], then `render::check::output`,
    /// the run's exit status), so no copy of it is kept here.
    fn run(
        files: &[PathBuf],
        stdin_filename: Option<&str>,
        format: Format,
        color: bool,
        deny_warnings: bool,
    ) -> Output {
        let args = crate::cli::check::Args {
            files: files.to_vec(),
            stdin_filename: stdin_filename.map(str::to_owned),
            report: crate::cli::args::ReportArgs {
                format,
                color: if color { Color::Always } else { Color::Never },
            },
            deny_warnings,
        };
        crate::cli::check::run(&args, false)
    }

    fn checked(shown: &str, fault: Option<Error>, errors: usize) -> Checked {
        let diags = (0..errors)
            .map(|_| Diagnostic::new(Code::UnrecognizedDocument, "not recognised"))
            .collect();
        let mut outcome = document_outcome(shown, b"{}".to_vec(), diags);
        outcome.fault = fault;
        Checked {
            outcome,
            kind: None,
            api_version: None,
            digest: None,
            shown: shown.to_owned(),
            parsed: None,
        }
    }

    #[test]
    fn a_fault_exits_2_naming_the_document() {
        let docs = [
            checked("a.json", None, 1),
            checked(
                "b.json",
                Some(Error::Internal("embedded schema x: broken".into())),
                0,
            ),
        ];
        assert_eq!(
            fault_exit(&docs).as_deref(),
            Some("b.json: internal error: embedded schema x: broken")
        );
    }

    #[test]
    fn findings_without_a_fault_are_no_fault_exit() {
        // Near miss: a refused document is a finding (exit 1 from `run`),
        // never the command failing to run.
        let docs = [checked("a.json", None, 2), checked("b.json", None, 0)];
        assert!(fault_exit(&docs).is_none());
        assert!(docs[0].outcome.fails(false));
    }

    #[test]
    fn run_exits_1_on_a_refused_document() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, br#"{"apiVersion":"x/v1","kind":"Nothing"}"#).unwrap();
        let out = run(&[bad], None, Format::Human, false, false);
        assert_eq!(out.code, 1);
        assert!(String::from_utf8_lossy(&out.stdout).contains("FD630"));
    }

    #[test]
    fn an_unreadable_file_is_a_finding_and_the_others_are_still_checked() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.json");
        std::fs::write(&empty, b"").unwrap();
        let missing = dir.path().join("nonexist.json");
        let adir = dir.path().join("adir");
        std::fs::create_dir(&adir).unwrap();
        let files = [empty.clone(), missing.clone(), adir.clone()];
        let out = run(&files, None, Format::Json, false, false);
        assert_eq!(out.code, 2, "{}", out.stderr);
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let packages = doc["packages"].as_array().unwrap();
        let got: Vec<(&str, &str)> = packages
            .iter()
            .map(|p| {
                (
                    p["path"].as_str().unwrap(),
                    p["diagnostics"][0]["code"].as_str().unwrap(),
                )
            })
            .collect();
        let shown = |p: &Path| p.display().to_string();
        assert_eq!(
            got,
            vec![
                (shown(&empty).as_str(), "FD012"),
                (shown(&missing).as_str(), "FD900"),
                (shown(&adir).as_str(), "FD905"),
            ]
        );
        let human = run(&files, None, Format::Human, false, false);
        assert_eq!(human.code, 2);
        let text = String::from_utf8(human.stdout).unwrap();
        assert!(text.contains("FD012"), "{text}");
        assert!(text.contains("3 documents: 0 ok, 3 failed"), "{text}");
        // SARIF says the run did not complete, and locates the finding at
        // the FILE itself (T2 F2).
        let sarif = run(&files, None, Format::Sarif, false, false);
        let doc: Value = serde_json::from_slice(&sarif.stdout).unwrap();
        assert_eq!(
            doc["runs"][0]["invocations"][0]["executionSuccessful"],
            false
        );
        let uri = doc["runs"][0]["results"][1]["locations"][0]["physicalLocation"]
            ["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert!(uri.ends_with("/nonexist.json"), "{uri}");
        // Near miss: readable documents alone exit by their verdict, and
        // their SARIF run completed.
        assert_eq!(
            run(
                std::slice::from_ref(&empty),
                None,
                Format::Json,
                false,
                false
            )
            .code,
            1
        );
        let sarif = run(&[empty], None, Format::Sarif, false, false);
        let doc: Value = serde_json::from_slice(&sarif.stdout).unwrap();
        assert_eq!(
            doc["runs"][0]["invocations"][0]["executionSuccessful"],
            true
        );
    }

    /// The operation returns its report built complete (issue 21 item 3):
    /// one document entry per FILE, named by the path as given, in order;
    /// `could_not_read` set by the operation when a FILE could not be read
    /// (exit 2 from the report); `--deny-warnings` in its rule. Near miss:
    /// the readable FILEs alone are read, and exit by their verdict.
    #[test]
    fn the_report_is_built_complete_by_the_operation() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, br#"{"apiVersion":"x/v1","kind":"Nothing"}"#).unwrap();
        let missing = dir.path().join("missing.json");
        let files = [bad.clone(), missing.clone()];
        let found = check_files(&files, None, true).unwrap();
        let r = &found.report;
        let shape: Vec<(EntryKind, &Path)> =
            r.entries.iter().map(|e| (e.kind(), e.name())).collect();
        assert_eq!(
            shape,
            [
                (EntryKind::Document, bad.as_path()),
                (EntryKind::Document, missing.as_path())
            ]
        );
        assert_eq!(found.documents.len(), 2);
        assert!(r.could_not_read);
        assert!(r.rule.deny_warnings);
        assert_eq!(found.exit_code(), 2);
        let read = check_files(std::slice::from_ref(&bad), None, false).unwrap();
        assert!(!read.report.could_not_read);
        assert!(!read.report.rule.deny_warnings);
        assert_eq!(read.exit_code(), 1);
    }

    #[test]
    fn every_document_is_named_by_its_own_path_in_json_and_junit() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.json");
        let b = dir.path().join("b.json");
        std::fs::write(&a, br#"{"apiVersion":"x/v1","kind":"A"}"#).unwrap();
        std::fs::write(&b, br#"{"apiVersion":"x/v1","kind":"B"}"#).unwrap();
        let files = [a.clone(), b.clone()];
        let json: Value =
            serde_json::from_slice(&run(&files, None, Format::Json, false, false).stdout).unwrap();
        assert_eq!(json["packages"][0]["path"], a.display().to_string());
        assert_eq!(json["packages"][1]["path"], b.display().to_string());
        let junit =
            String::from_utf8(run(&files, None, Format::Junit, false, false).stdout).unwrap();
        assert!(
            junit.contains(&format!("<testcase name=\"{}\"", a.display())),
            "{junit}"
        );
        assert!(
            junit.contains(&format!("<testcase name=\"{}\"", b.display())),
            "{junit}"
        );
    }

    #[test]
    fn junit_names_are_escaped_and_the_rest_kept() {
        let entry =
            |name: &str| document_entry(name, document_outcome(name, b"{}".to_vec(), Vec::new()));
        let report = Report::new(
            vec![entry("d/a&b\".json"), entry("c.json")],
            ExitRule::default(),
        );
        let junit = render_documents(
            &report,
            &[String::new(), String::new()],
            Format::Junit,
            false,
        );
        assert!(
            junit.contains("<testcase name=\"d/a&amp;b&quot;.json\""),
            "{junit}"
        );
        assert!(junit.contains("<testcase name=\"c.json\""), "{junit}");
        // A class per document (issue 37 item 6).
        assert!(junit.contains("classname=\"c.json\""), "{junit}");
    }

    #[test]
    fn standard_input_is_read_once() {
        let out = run(
            &[PathBuf::from("-"), PathBuf::from("-")],
            None,
            Format::Human,
            false,
            false,
        );
        assert_eq!(out.code, 2);
        assert!(out.stdout.is_empty());
        assert!(
            out.stderr
                .contains("`-` (standard input) can be given once"),
            "{}",
            out.stderr
        );
    }

    /// T1 C8: an index finding about a fixture's entry (FD114, a JSON
    /// fixture without `.json`) is placed at the definition member naming
    /// the fixture, not at the document's first byte. Near miss: the
    /// unchanged definition has no finding.
    #[test]
    fn a_fixture_entry_finding_points_at_the_fixture_path_member() {
        let base = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632");
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("fixtures")).unwrap();
        std::fs::copy(
            base.join("fixtures/desired.json"),
            dir.path().join("fixtures/desired"),
        )
        .unwrap();
        std::fs::copy(
            base.join("fixtures/desired.json"),
            dir.path().join("fixtures/desired.json"),
        )
        .unwrap();
        let text = std::fs::read_to_string(base.join("definition.json")).unwrap();
        let good = dir.path().join("good.json");
        std::fs::write(&good, &text).unwrap();
        let bad = dir.path().join("definition.json");
        std::fs::write(
            &bad,
            text.replace("\"fixtures/desired.json\"", "\"fixtures/desired\""),
        )
        .unwrap();
        let out = run(&[bad], None, Format::Json, false, false);
        assert_eq!(out.code, 1, "{}", out.stderr);
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let d = &doc["packages"][0]["diagnostics"][0];
        assert_eq!(d["code"], "FD114", "{doc}");
        assert_eq!(d["pointer"], "/conformanceFixtures/0/desiredPath");
        // The span is the member's value, not the document's first byte.
        let start = d["span"]["start"].as_u64().unwrap() as usize;
        assert_eq!(
            text.replace("\"fixtures/desired.json\"", "\"fixtures/desired\"")
                .get(start..start + 18),
            Some("\"fixtures/desired\""),
            "{d}"
        );
        let out = run(&[good], None, Format::Json, false, false);
        assert_eq!(out.code, 0, "{}", String::from_utf8_lossy(&out.stdout));
    }
}

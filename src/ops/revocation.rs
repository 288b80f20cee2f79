//! `validate-revocation FILE` and `validate-revocation-checkpoint FILE
//! [--advance | --previous-pin PIN_FILE [--allow-unchanged]]` (issue 12
//! part 1; rules in [`crate::revocation`]): one operation each
//! ([`statement`], [`checkpoint`]) that returns what it found, a
//! [`RevocationRun`] carrying its exit status ([`RevocationRun::exit_code`]:
//! 0 valid, 1 refused, 2 could not run). `render::revocation` alone makes
//! its text (the reference's output by default, or a `--format`'s
//! document) and `cli/revocation.rs` builds the command's output (issue 21
//! item 3).

use std::path::Path;

use crate::diag::Diagnostic;
use crate::document::{document_entry, document_outcome};
use crate::error::Refused;
use crate::json::strict;
use crate::limits::JSON_BYTES;
use crate::report::{ExitRule, Report};
use crate::revocation;

pub use crate::report::revocation::{Document, Refusal, RevocationRun, Valid};

/// Reads and strictly parses one file the user named (their link followed,
/// a regular file of at most `limits::JSON_BYTES`, [`crate::fileread`]).
///
/// # Errors
/// The [`RevocationRun`] to return: [`RevocationRun::Unreadable`] for a file
/// that cannot be read, [`RevocationRun::Refused`] for a document that is
/// not strict I-JSON (its first line the reference's: `<what>: invalid
/// I-JSON: …`, [`reference_parse_line`]).
fn read(path: &Path, what: &str) -> Result<(String, Vec<u8>, serde_json::Value), RevocationRun> {
    let display = path.display().to_string();
    let bytes = match crate::fileread::read_file(path, crate::fileread::Reach::Named, JSON_BYTES) {
        Ok(b) => b,
        Err(why) => return Err(RevocationRun::Unreadable { display, why }),
    };
    match strict::parse(&bytes) {
        Ok(p) => Ok((display, bytes, p.value)),
        Err(e) => {
            let first = reference_parse_line(what, &e);
            Err(refuse_with(
                display,
                bytes,
                vec![e.to_diagnostic()],
                Some(first),
            ))
        }
    }
}

/// The reference's first line for a document that is not strict I-JSON:
/// `<what>: ` then the reference's parse message (`invalid I-JSON: …`, as
/// `canonicalize` prints it: [`strict::ParseError::reference_line`]), e.g.
/// `Form Package revocation: invalid I-JSON: unexpected end of input`.
pub fn reference_parse_line(what: &str, e: &strict::ParseError) -> String {
    format!("{what}: {}", e.reference_line())
}

/// Exit 1 with `diags`; the reference's message is the first finding's.
fn refuse(display: String, bytes: Vec<u8>, diags: Vec<Diagnostic>) -> RevocationRun {
    refuse_with(display, bytes, diags, None)
}

/// [`refuse`] with the reference's message given (`None`: the first
/// finding's message, which carries the reference's prefix).
fn refuse_with(
    display: String,
    bytes: Vec<u8>,
    diags: Vec<Diagnostic>,
    first: Option<String>,
) -> RevocationRun {
    let reference_line =
        first.unwrap_or_else(|| diags.first().map(|d| d.message.clone()).unwrap_or_default());
    let report = document_report(&display, document_outcome(&display, bytes, diags));
    RevocationRun::Refused(Box::new(Refusal {
        reference_line,
        report,
        display,
    }))
}

/// Exit 0 with `document`; its entry's outcome carries the new pin of an advance
/// (`PackageOutcome::summary`), which every format prints.
fn accept(display: String, bytes: Vec<u8>, document: Document) -> RevocationRun {
    let mut outcome = document_outcome(&display, bytes, Vec::new());
    if let Some(pin) = document.pin().and_then(|p| serde_json::to_value(p).ok()) {
        outcome.summary = Some(crate::summary::Summary::Pin(pin));
    }
    RevocationRun::Valid(Box::new(Valid {
        document,
        report: document_report(&display, outcome),
        display,
    }))
}

/// The report of one revocation document: `outcome` as a document entry
/// named by `display`, the path as given ([`document_entry`]), under the
/// default rule (no `--deny-warnings`).
pub fn document_report(display: &str, outcome: crate::verify::PackageOutcome) -> Report {
    Report::new(vec![document_entry(display, outcome)], ExitRule::default())
}

/// `validate-revocation FILE`: the statement at `path` read
/// ([`crate::fileread`]) and validated ([`revocation::validate_statement`]).
pub fn statement(path: &Path) -> RevocationRun {
    let (display, bytes, value) = match read(path, revocation::STATEMENT_PREFIX) {
        Ok(r) => r,
        Err(run) => return run,
    };
    match revocation::validate_statement(&display, &value) {
        Ok(s) => accept(display, bytes, Document::Statement(s)),
        Err(Refused::Findings(diags)) => refuse(display, bytes, diags),
        Err(Refused::Fault(e)) => RevocationRun::Fault(e),
    }
}

/// `validate-revocation-checkpoint FILE [--advance | --previous-pin
/// PIN_FILE [--allow-unchanged]]`: the checkpoint at `path` validated
/// ([`revocation::validate_checkpoint`]); with `advance` or `previous_pin`
/// (a pin, or a previous run's whole report: [`revocation::previous_pin`])
/// advanced with [`revocation::advance`], as `trust verify-checkpoint`
/// advances; `allow_unchanged` accepts the checkpoint the previous pin
/// already names (the pin kept, `unchanged`).
pub fn checkpoint(
    path: &Path,
    advance: bool,
    previous_pin: Option<&Path>,
    allow_unchanged: bool,
) -> RevocationRun {
    let (display, bytes, value) = match read(path, revocation::CHECKPOINT_PREFIX) {
        Ok(r) => r,
        Err(run) => return run,
    };
    let pin = match previous_pin {
        None => None,
        Some(p) => {
            let (pin_display, pin_bytes, pin_value) = match read(p, "previous pin") {
                Ok(r) => r,
                Err(run) => return run,
            };
            match revocation::previous_pin(&pin_display, &pin_value) {
                Ok(pin) => Some(pin),
                Err(diags) => return refuse(pin_display, pin_bytes, diags),
            }
        }
    };
    let valid = match revocation::validate_checkpoint(&display, &value) {
        Ok(v) => v,
        Err(Refused::Findings(diags)) => return refuse(display, bytes, diags),
        Err(Refused::Fault(e)) => return RevocationRun::Fault(e),
    };
    if !advance && previous_pin.is_none() {
        return accept(display, bytes, Document::Checkpoint(valid.checkpoint));
    }
    match revocation::advance(&display, pin.as_ref(), &valid, allow_unchanged) {
        Ok(advanced) => accept(
            display,
            bytes,
            Document::Advanced {
                checkpoint: valid.checkpoint,
                pin: advanced.pin,
                unchanged: advanced.unchanged,
            },
        ),
        Err(diags) => refuse(display, bytes, diags),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &Path, name: &str, text: &[u8]) -> std::path::PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    fn reference_line(run: &RevocationRun) -> &str {
        match run {
            RevocationRun::Refused(r) => &r.reference_line,
            other => panic!("{other:?}"),
        }
    }

    /// T1 C5: the reference's message for a document that is not strict
    /// I-JSON is `<what>: invalid I-JSON: …` (checked against the oracle on
    /// these inputs), exit 1. Near miss: a schema refusal keeps the first
    /// finding's own (already prefixed) message.
    #[test]
    fn the_message_of_a_parse_error_is_the_references() {
        let dir = tempfile::tempdir().unwrap();
        let cases: [(&str, &[u8], &str); 3] = [
            (
                "bad.json",
                b"{\"a\":\n",
                "invalid I-JSON: unexpected end of input",
            ),
            (
                "dup.json",
                br#"{"a":1,"a":2}"#,
                "invalid I-JSON: duplicate object name \"a\"",
            ),
            (
                "utf.json",
                b"{\"a\":\"\xff\"}",
                "I-JSON input is not valid UTF-8",
            ),
        ];
        for (name, text, line) in cases {
            let p = file(dir.path(), name, text);
            let run = statement(&p);
            assert_eq!(run.exit_code(), 1);
            assert_eq!(
                reference_line(&run),
                format!("Form Package revocation: {line}")
            );
            let run = checkpoint(&p, false, None, false);
            assert_eq!(
                reference_line(&run),
                format!("Form Package revocation checkpoint: {line}")
            );
        }
        let p = file(
            dir.path(),
            "s.json",
            br#"{"apiVersion":"trust.forms.takoform.com/v1alpha1","kind":"FormPackageRevocation"}"#,
        );
        let run = statement(&p);
        assert!(
            reference_line(&run)
                .starts_with("Form Package revocation: does not satisfy Draft 2020-12 schema: "),
            "{run:?}"
        );
    }

    /// The exit status is the operation's: 2 for a FILE or a PIN_FILE that
    /// cannot be read (missing, a directory), 0 for a valid checkpoint, 1
    /// for a refused one.
    #[test]
    fn the_exit_status_is_decided_by_the_operation() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.json");
        assert_eq!(statement(&missing).exit_code(), 2);
        assert_eq!(statement(dir.path()).exit_code(), 2);
        let genesis = file(
            dir.path(),
            "genesis.json",
            br#"{"apiVersion":"trust.forms.takoform.com/v1","kind":"FormPackageRevocationCheckpoint","checkpointVersion":"0.0.0","sequence":0,"previousCheckpointDigest":null,"entries":[]}"#,
        );
        let valid = checkpoint(&genesis, true, None, false);
        assert_eq!(valid.exit_code(), 0, "{valid:?}");
        match &valid {
            RevocationRun::Valid(v) => {
                assert_eq!(v.document.pin().map(|p| p.sequence), Some(0));
                assert!(matches!(
                    v.report.entries[0].outcome().summary,
                    Some(crate::summary::Summary::Pin(_))
                ));
            }
            other => panic!("{other:?}"),
        }
        let run = checkpoint(&genesis, false, Some(&missing), false);
        assert!(
            matches!(&run, RevocationRun::Unreadable { display, .. } if display.ends_with("missing.json")),
            "{run:?}"
        );
        assert_eq!(run.exit_code(), 2);
        assert_eq!(statement(&genesis).exit_code(), 1);
    }
}

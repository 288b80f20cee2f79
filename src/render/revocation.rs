//! The view of `form-package validate-revocation FILE` and
//! `validate-revocation-checkpoint FILE`: `ops::revocation` returns what it
//! found ([`RevocationRun`], with its exit status); this module alone turns
//! it into text (issue 21 item 3).
//!
//! With no `--format`, the reference's output: on success stdout is the
//! decoded document as 2-space JSON plus a newline, byte for byte the
//! reference's ([`reference_json`]); after `--advance` or `--previous-pin`
//! it is one JSON object `{"checkpoint": …, "pin": …}` (`"unchanged":
//! true` beside them when `--allow-unchanged` kept the pin). On refusal
//! stderr starts with the reference's one line (`form-package: <first
//! message>`) and then gives every finding as `check` does (code, JSON
//! Pointer, `file:line:column`, help) and a `FAIL` line. `--format human`
//! is the same; `--format json|sarif|junit|github` prints that format's
//! document on stdout instead, carrying the new pin of an advance
//! (`packages[0].pin` in JSON).

use serde::Serialize;

use crate::render::check::render_documents;
use crate::render::{escape, Format};
use crate::report::revocation::RevocationRun;

/// What a revocation command prints for `run`, as (stdout, stderr), in
/// `format` (`None`: the reference's output, see the module doc); `color`
/// colours human findings. A file that cannot be read, or a fault, is one
/// `form-package: …` line on stderr whatever the format. The exit status
/// is the operation's ([`RevocationRun::exit_code`]), never this view's.
pub fn output(run: RevocationRun, format: Option<Format>, color: bool) -> (Vec<u8>, String) {
    match run {
        RevocationRun::Unreadable { display, why } => {
            (Vec::new(), escape::line(&format!("read {display}: {why}")))
        }
        RevocationRun::Fault(e) => (Vec::new(), escape::line(&e.to_string())),
        RevocationRun::Refused(r) => {
            let errors = r.report.findings().filter(|d| d.is_error()).count();
            let verdict = format!(
                "FAIL {}: {errors} error{}\n",
                escape::text(&r.display),
                if errors == 1 { "" } else { "s" }
            );
            let f = format.unwrap_or(Format::Human);
            let text = render_documents(&r.report, &[verdict], f, color);
            match f {
                Format::Human => (
                    Vec::new(),
                    format!("{}{text}", escape::line(&r.reference_line)),
                ),
                _ => (text.into_bytes(), String::new()),
            }
        }
        RevocationRun::Valid(v) => match format {
            // The decoded document as the reference prints it (its
            // `Serialize` is the reference's shape).
            None | Some(Format::Human) => (reference_json(&v.document).into_bytes(), String::new()),
            Some(f) => {
                let text = render_documents(&v.report, &[String::new()], f, color);
                (text.into_bytes(), String::new())
            }
        },
    }
}

/// Writes `value` as the reference does (Go `json.MarshalIndent` with two
/// spaces, HTML characters not escaped, then a newline): serde_json's
/// pretty printer gives the same bytes except that Go also escapes U+2028
/// and U+2029, which this function adds.
pub fn reference_json<T: Serialize>(value: &T) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    let mut out = text
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::diag::Diagnostic;
    use crate::document::document_outcome;
    use crate::ops::revocation::document_report;
    use crate::report::revocation::{Document, Refusal, Valid};
    use crate::revocation::{Checkpoint, Pin};

    #[test]
    fn reference_json_escapes_like_go() {
        let v = serde_json::json!({"s": "a<b>&\u{2028}\u{2029}\u{1}\u{7f}\u{8}\u{c}é"});
        assert_eq!(
            reference_json(&v),
            "{\n  \"s\": \"a<b>&\\u2028\\u2029\\u0001\u{7f}\\b\\fé\"\n}\n"
        );
    }

    fn pin() -> Pin {
        Pin {
            checkpoint_api_version: None,
            sequence: 1,
            digest: "sha256:aa".into(),
            entries_digest: "sha256:bb".into(),
        }
    }

    fn checkpoint() -> Checkpoint {
        Checkpoint {
            api_version: "trust.forms.takoform.com/v1alpha1".into(),
            kind: "FormPackageRevocationCheckpoint".into(),
            checkpoint_version: "1.0.0".into(),
            sequence: 1,
            previous_checkpoint_digest: None,
            entries: Vec::new(),
        }
    }

    fn valid(document: Document) -> RevocationRun {
        let mut outcome = document_outcome("d/c.json", b"{}".to_vec(), Vec::new());
        if let Some(p) = document.pin() {
            outcome.summary = Some(crate::summary::Summary::Pin(
                serde_json::to_value(p).unwrap(),
            ));
        }
        RevocationRun::Valid(Box::new(Valid {
            document,
            report: document_report("d/c.json", outcome),
            display: "d/c.json".into(),
        }))
    }

    /// A valid advance prints the reference's `{"checkpoint", "pin"}` on
    /// stdout (`unchanged` only when true), and in JSON the pin at
    /// `packages[0].pin`. Near miss: a checkpoint without an advance has no
    /// pin anywhere.
    #[test]
    fn an_advance_prints_its_pin_in_every_shape() {
        let advanced = |unchanged| Document::Advanced {
            checkpoint: checkpoint(),
            pin: pin(),
            unchanged,
        };
        let (stdout, stderr) = output(valid(advanced(false)), None, false);
        let v: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
        assert_eq!(v["pin"]["sequence"], 1);
        assert_eq!(v["checkpoint"]["sequence"], 1);
        assert!(v.get("unchanged").is_none());
        assert!(stderr.is_empty());
        let (stdout, _) = output(valid(advanced(true)), Some(Format::Human), false);
        let v: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
        assert_eq!(v["unchanged"], true);
        // The reference's member order: the checkpoint, the pin, then
        // `unchanged`.
        let text = String::from_utf8(stdout).unwrap();
        let at = |m: &str| text.find(&format!("\n  \"{m}\": ")).unwrap();
        assert!(text.starts_with("{\n  \"checkpoint\": {\n"), "{text}");
        assert!(at("checkpoint") < at("pin") && at("pin") < at("unchanged"));
        assert!(text.ends_with("  \"unchanged\": true\n}\n"), "{text}");
        let (stdout, _) = output(valid(advanced(false)), Some(Format::Json), false);
        let v: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
        assert_eq!(v["packages"][0]["pin"]["digest"], "sha256:aa");
        assert_eq!(v["packages"][0]["path"], "d/c.json");
        let (stdout, _) = output(
            valid(Document::Checkpoint(checkpoint())),
            Some(Format::Json),
            false,
        );
        let v: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
        assert!(v["packages"][0].get("pin").is_none(), "{v}");
        let (stdout, _) = output(valid(Document::Checkpoint(checkpoint())), None, false);
        assert_eq!(stdout, reference_json(&checkpoint()).into_bytes());
    }

    /// A refusal is the reference's line, then the findings and the `FAIL`
    /// line on stderr (the default and `human`), or the format's document
    /// on stdout; a file that cannot be read is one line on stderr in
    /// every format.
    #[test]
    fn a_refusal_is_the_references_line_then_every_finding() {
        let refused = || {
            let d = Diagnostic::new(Code::InvalidCheckpointPin, "Form Package revocation: bad")
                .in_file("d/p.json");
            RevocationRun::Refused(Box::new(Refusal {
                reference_line: "Form Package revocation: bad".into(),
                report: document_report(
                    "d/p.json",
                    document_outcome("d/p.json", b"{}".to_vec(), vec![d]),
                ),
                display: "d/p.json".into(),
            }))
        };
        for format in [None, Some(Format::Human)] {
            let (stdout, stderr) = output(refused(), format, false);
            assert!(stdout.is_empty());
            assert!(
                stderr.starts_with("form-package: Form Package revocation: bad\nFD620 "),
                "{stderr}"
            );
            assert!(stderr.ends_with("FAIL d/p.json: 1 error\n"), "{stderr}");
        }
        let (stdout, stderr) = output(refused(), Some(Format::Json), false);
        assert!(stderr.is_empty());
        let v: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
        assert_eq!(v["packages"][0]["diagnostics"][0]["code"], "FD620");
        for format in [None, Some(Format::Sarif)] {
            let why = crate::fileread::FileRefusal::NotRegular("a FIFO");
            let run = RevocationRun::Unreadable {
                display: "p.json".into(),
                why,
            };
            let (stdout, stderr) = output(run, format, false);
            assert!(stdout.is_empty());
            assert!(
                stderr.starts_with("form-package: read p.json: not a regular file: a FIFO"),
                "{stderr}"
            );
        }
    }
}

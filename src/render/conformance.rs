//! The view of `form-package conformance DIR`: the suite's
//! [`SuiteReport`] in every format the command supports (one line per case
//! and a summary, or one JSON document; a refused manifest's findings on
//! stderr, and in the JSON document). `conformance` runs the cases; this
//! module alone turns its report into text (issue 21 item 3).

use std::path::Path;

use crate::render::{escape, Format};
use crate::report::conformance::{SuiteReport, SuiteResult};

/// The `--format json` document of a suite whose manifest was refused
/// (`run`: the view of its report): `cases` empty, every count 0,
/// `manifestDiagnostics` the manifest's findings as `verify --format json`
/// writes a finding (file `manifest.json`, line and column).
fn refused_json(dir: &Path, run: &crate::render::RunView<'_>) -> String {
    let found: Vec<serde_json::Value> = run
        .findings()
        .map(|(_, f)| crate::render::json::diagnostic_value(f))
        .collect();
    let doc = serde_json::json!({
        "suite": dir.display().to_string(),
        "manifestDiagnostics": found,
        "cases": [],
        "summary": {
            "cases": 0,
            "passed": 0,
            "failed": 0,
            "positive": 0,
            "negative": 0,
        },
    });
    let mut t = serde_json::to_string_pretty(&doc).unwrap_or_default();
    t.push('\n');
    t
}

/// The output of `conformance DIR [--format human|json]` for `report`, as
/// (stdout, stderr) (a format `conformance` does not take prints as
/// `human`). The exit status is the report's
/// ([`SuiteReport::exit_code`]), never this view's.
pub fn output(report: &SuiteReport, format: Format) -> (String, String) {
    let dir = report.suite.as_path();
    let results = match &report.result {
        SuiteResult::Ran(r) => r,
        SuiteResult::Unreadable(msg) => return (String::new(), escape::line(msg)),
        SuiteResult::Refused(refused) => {
            let run = crate::render::RunView::of(refused);
            // Each finding located as `check`'s and `verify`'s human
            // findings are (`<dir>/manifest.json:line:column`, the excerpt),
            // by the one human printer.
            let mut stderr = escape::line(&format!(
                "{}: not a conformance manifest",
                dir.join("manifest.json").display()
            ));
            stderr.push_str(&crate::render::human::render_run(
                &run,
                &crate::render::Options {
                    quiet: true,
                    ..Default::default()
                },
            ));
            // `--format json` still prints its document: no case run, the
            // manifest's findings located (a CI step parsing stdout reads
            // why, not an empty page).
            let stdout = match format {
                Format::Json => refused_json(dir, &run),
                _ => String::new(),
            };
            return (stdout, stderr);
        }
    };
    let failed = results.iter().filter(|r| !r.passed).count();
    let positives = results.iter().filter(|r| r.kind == "positive").count();
    let stdout = match format {
        Format::Json => {
            let doc = serde_json::json!({
                "suite": dir.display().to_string(),
                "cases": results,
                "summary": {
                    "cases": results.len(),
                    "passed": results.len() - failed,
                    "failed": failed,
                    "positive": positives,
                    "negative": results.len() - positives,
                },
            });
            let mut t = serde_json::to_string_pretty(&doc).unwrap_or_default();
            t.push('\n');
            t
        }
        _ => {
            let mut t = String::new();
            // The names, kinds, operations and the package's kind come from
            // the suite (a stranger's text): escaped ([`escape::text`]); the
            // detail quotes names as messages do ([`escape::message`]).
            let esc = |s: &str| escape::text(s).into_owned();
            for r in results {
                let op = r
                    .operation
                    .as_deref()
                    .map(|o| format!(" ({})", esc(o)))
                    .unwrap_or_default();
                if r.passed {
                    t.push_str(&format!(
                        "ok   {} {}{op}: {}\n",
                        r.kind,
                        esc(&r.name),
                        if r.kind == "positive" {
                            format!("verified, kind {}", esc(&r.want))
                        } else {
                            format!("refused with {}", esc(&r.want))
                        }
                    ));
                } else {
                    t.push_str(&format!(
                        "FAIL {} {}{op}: {}; want {}, got [{}]\n",
                        r.kind,
                        esc(&r.name),
                        escape::message(&r.detail),
                        esc(&r.want),
                        esc(&r.got.join(", "))
                    ));
                }
            }
            t.push_str(&format!(
                "{} cases ({} positive, {} negative): {} passed, {} failed\n",
                results.len(),
                positives,
                results.len() - positives,
                results.len() - failed,
                failed
            ));
            t
        }
    };
    (stdout, String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::diag::Diagnostic;
    use crate::json::pointer::JsonPointer;
    use crate::report::conformance::CaseResult;
    use std::path::PathBuf;

    /// What `cli/conformance.rs` prints: this view's text, the report's
    /// exit status.
    fn printed(report: &SuiteReport, format: Format) -> crate::output::Output {
        let (stdout, stderr) = output(report, format);
        crate::output::Output {
            stdout: stdout.into_bytes(),
            stderr,
            code: report.exit_code(),
        }
    }

    fn report(result: SuiteResult) -> SuiteReport {
        SuiteReport {
            suite: PathBuf::from("suite"),
            result,
        }
    }

    fn case(kind: &'static str, passed: bool) -> CaseResult {
        CaseResult {
            name: format!("{kind}-case"),
            kind,
            operation: (kind == "negative").then(|| "canonicalize".to_owned()),
            passed,
            want: if kind == "positive" { "Store" } else { "FD012" }.to_owned(),
            got: vec!["FD011".to_owned()],
            detail: if passed {
                ""
            } else {
                "refused by another check"
            }
            .to_owned(),
        }
    }

    #[test]
    fn a_case_is_one_line_and_the_summary_counts_them() {
        let ran = report(SuiteResult::Ran(vec![
            case("positive", true),
            case("negative", false),
        ]));
        let out = printed(&ran, Format::Human);
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            "ok   positive positive-case: verified, kind Store\n\
             FAIL negative negative-case (canonicalize): refused by another check; want FD012, got [FD011]\n\
             2 cases (1 positive, 1 negative): 1 passed, 1 failed\n"
        );
        assert_eq!(out.code, 1);
        assert!(out.stderr.is_empty());
        let json: serde_json::Value =
            serde_json::from_slice(&printed(&ran, Format::Json).stdout).unwrap();
        assert_eq!(json["suite"], "suite");
        assert_eq!(json["cases"][1]["type"], "negative");
        assert_eq!(json["cases"][1]["operation"], "canonicalize");
        assert_eq!(
            json["summary"],
            serde_json::json!({"cases": 2, "passed": 1, "failed": 1, "positive": 1, "negative": 1})
        );
        // Near miss: every case passed, exit 0.
        let passed = report(SuiteResult::Ran(vec![case("negative", true)]));
        let out = printed(&passed, Format::Human);
        assert_eq!(out.code, 0);
        assert!(String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("ok   negative negative-case (canonicalize): refused with FD012\n"));
    }

    #[test]
    fn a_refused_manifest_is_on_stderr_and_in_the_json_document_located_in_both() {
        let manifest = b"{\"schemaVersion\": 2}".to_vec();
        let finding = Diagnostic::new(
            Code::ConformanceManifest,
            "conformance manifest schemaVersion must be 1",
        )
        .in_file("manifest.json")
        .at(JsonPointer::root().child("schemaVersion"));
        let refused = report(SuiteResult::refused(
            Path::new("suite"),
            vec![finding],
            &manifest,
        ));
        // The operation builds the report: the manifest a document entry
        // named by its path, and the run could not read its suite (exit 2).
        let SuiteResult::Refused(r) = &refused.result else {
            panic!("{:?}", refused.result)
        };
        let shown = Path::new("suite").join("manifest.json");
        assert_eq!(r.entries[0].kind(), crate::report::EntryKind::Document);
        assert_eq!(r.entries[0].name(), shown);
        assert!(r.could_not_read);
        let human = printed(&refused, Format::Human);
        assert_eq!(human.code, 2);
        assert!(human.stdout.is_empty());
        assert!(
            human.stderr.starts_with(&format!(
                "form-package: {}: not a conformance manifest\nFD640 conformance-manifest\n",
                shown.display()
            )),
            "{}",
            human.stderr
        );
        // Located as `check`'s and `verify`'s human findings are: the
        // excerpt's header and the help line name `suite/manifest.json:1:19`
        // (the value `2`), not only the file and the pointer.
        let at = format!("{}:1:19", shown.display());
        assert!(
            human.stderr.contains(&format!("╭─[{at}]"))
                && human
                    .stderr
                    .contains(&format!("help: {at}: the value 2 at /schemaVersion")),
            "{}",
            human.stderr
        );
        let json = printed(&refused, Format::Json);
        assert_eq!(json.code, 2);
        assert_eq!(json.stderr, human.stderr);
        let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        let d = &doc["manifestDiagnostics"][0];
        assert_eq!(d["code"], "FD640");
        assert_eq!(d["pointer"], "/schemaVersion");
        // Located in the manifest: the value `2` at line 1, column 19.
        assert_eq!(
            (d["line"].as_u64(), d["column"].as_u64()),
            (Some(1), Some(19))
        );
        assert_eq!(doc["cases"], serde_json::json!([]));
        assert_eq!(doc["summary"]["cases"], 0);
    }

    #[test]
    fn an_unreadable_manifest_is_one_line_in_either_format() {
        let unreadable = report(SuiteResult::Unreadable(
            "read suite/manifest.json: gone".into(),
        ));
        for format in [Format::Human, Format::Json] {
            let out = printed(&unreadable, format);
            assert_eq!(out.code, 2);
            assert!(out.stdout.is_empty());
            assert_eq!(out.stderr, "form-package: read suite/manifest.json: gone\n");
        }
    }
}

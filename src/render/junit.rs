//! `--format junit`: JUnit XML (through the `quick-junit` crate), for CI
//! systems that show test reports (GitLab, Jenkins, Azure Pipelines, …).
//!
//! Shape: one `<testsuites name="form-package">` holding one `<testsuite
//! name="form-package">`, with one `<testcase>` per package (`name` and
//! `classname` = the package path as given, so a CI system groups no two
//! packages as one class; `time` = the seconds verifying it took, when
//! the command timed it; packages in the order given), so its `tests` is
//! the summary's package count; entries
//! that are no package (the configuration file, a walk finding about a
//! PATH: [`super::EntryKind`]) are testcases of a second `<testsuite
//! name="form-package inputs">`, `classname` = their kind:
//!
//! - a package that verifies is a passing testcase;
//! - a package that fails has one `<failure>` whose `message` is `N errors`
//!   (or `N warnings (--deny-warnings)`), whose `type` is the codes of its
//!   failing findings (`FD016 FD213`), and whose text holds one line per
//!   failing finding, in order: `FDnnn name: <package>/<file>:line:column:
//!   <message> (at <pointer>)`. JUnit XML (and `quick-junit`) allows one
//!   failure element per testcase, so each error finding is one line of it;
//! - warnings and notes that do not fail the package are listed the same way
//!   in the testcase's `<system-out>`.
//!
//! The first suite's properties name the configuration file in force
//! (`configuration`) and each directory the walk skipped by a rule
//! (`skippedDirectory`, `<path> (<rule>)`, rule `hidden`, `.gitignore` or
//! `exclude`), so the report says what was not verified.
//!
//! Locations use the same `line:column` (code points) as every format.
//! Package text (names, keys, pointers, file names, messages) is escaped as
//! the human format escapes it ([`super::escape`]: Go's escapes for every
//! non-printable character), which also keeps out every character XML 1.0
//! forbids (U+0000–U+0008, U+000B, U+000C, U+000E–U+001F, U+FFFE, U+FFFF):
//! every report is well-formed XML (issue 22 item 3).

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::escape;
use super::{count, EntryKind, Located, PackageView, RunView};
use crate::diag::Severity;

/// One finding as one line (see the module docs): package text escaped
/// ([`escape::text`]), so no line break splits it and no character XML 1.0
/// forbids (C0 controls but TAB/LF/CR, U+FFFE, U+FFFF) reaches the document.
pub fn finding_line(p: &PackageView<'_>, f: &Located<'_>) -> String {
    let d = f.diag;
    let info = d.code.info();
    let mut line = format!(
        "{} {}: {}: {}",
        info.id,
        info.name,
        escape::text(&f.location(p.path())),
        escape::message(&d.message)
    );
    if !d.pointer.is_root() {
        line.push_str(&format!(" (at {})", escape::text(d.pointer.as_str())));
    }
    line
}

/// The testcase of one package.
fn testcase(p: &PackageView<'_>) -> TestCase {
    let name = escape::path(p.name());
    // What fails the package: its errors, or its warnings under --deny-warnings.
    let fails =
        |s: Severity| s == Severity::Error || (p.counts.errors == 0 && s == Severity::Warning);
    let status = if p.failed {
        let failing: Vec<&Located<'_>> = p
            .findings
            .iter()
            .filter(|f| fails(f.diag.severity))
            .collect();
        let message = if p.counts.errors > 0 {
            count(p.counts.errors, "error")
        } else {
            format!("{} (--deny-warnings)", count(p.counts.warnings, "warning"))
        };
        let mut codes: Vec<&str> = failing.iter().map(|f| f.diag.code.info().id).collect();
        codes.sort_unstable();
        codes.dedup();
        let mut text = String::new();
        for f in &failing {
            text.push_str(&finding_line(p, f));
            text.push('\n');
        }
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status
            .set_message(message)
            .set_type(codes.join(" "))
            .set_description(text);
        status
    } else {
        TestCaseStatus::success()
    };
    let mut case = TestCase::new(name.as_str(), status);
    // A class per package (issue 37 item 6): CI systems group testcases by
    // classname, and 310 packages under one `form-package` read as one.
    case.set_classname(match p.kind {
        EntryKind::Package | EntryKind::Document => name.as_str(),
        EntryKind::Configuration => "configuration",
        EntryKind::Path => "path",
        EntryKind::Snapshot => "snapshot",
        EntryKind::TrustSet => "trust-set",
    });
    if let Some(t) = p.outcome.elapsed {
        case.set_time(t);
    }
    for (key, value) in &p.outcome.summary_members() {
        case.add_property((
            escape::text(key).as_ref(),
            escape::text(&value.to_string()).as_ref(),
        ));
    }
    let mut rest = String::new();
    for f in p
        .findings
        .iter()
        .filter(|f| !(p.failed && fails(f.diag.severity)))
    {
        rest.push_str(&finding_line(p, f));
        rest.push('\n');
    }
    if !rest.is_empty() {
        case.set_system_out(rest);
    }
    case
}

/// Renders the run as one JUnit XML document with a trailing newline.
pub fn render(run: &RunView<'_>) -> String {
    let mut suite = TestSuite::new("form-package");
    if let Some(config) = &run.config {
        suite.add_property(quick_junit::Property::new(
            "configuration",
            escape::path(config),
        ));
    }
    // The directories the walk skipped by a rule: one property each,
    // `<path> (<rule>)`, so a report names what was not verified.
    for (dir, rule) in &run.skipped {
        suite.add_property(quick_junit::Property::new(
            "skippedDirectory",
            format!("{} ({rule})", escape::path(dir)),
        ));
    }
    let (packages, inputs): (Vec<_>, Vec<_>) =
        run.packages.iter().partition(|p| p.kind.is_package());
    suite.add_test_cases(packages.into_iter().map(testcase));
    let mut report = Report::new("form-package");
    report.add_test_suite(suite);
    if !inputs.is_empty() {
        let mut others = TestSuite::new("form-package inputs");
        others.add_test_cases(inputs.into_iter().map(testcase));
        report.add_test_suite(others);
    }
    let mut text = report
        .to_string()
        .unwrap_or_else(|e| format!("<!-- junit: {e} -->"));
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::diag::Diagnostic;
    use crate::json::pointer::JsonPointer;
    use crate::testing::outcome;

    #[test]
    fn one_testcase_per_package_and_a_line_per_error() {
        let e1 = Diagnostic::new(Code::UnlistedFile, "u").in_file("x.json");
        let e2 = Diagnostic::new(Code::OpenObjectSchema, "open <&>")
            .in_file("definition.json")
            .at(JsonPointer::from("/desiredSchema"));
        let w = Diagnostic::new(Code::UnsatisfiableAllOf, "w").severity(Severity::Warning);
        let all = [
            outcome("bad", vec![e1, e2, w.clone()]),
            outcome("good", vec![w]),
            outcome("clean", vec![]),
        ];
        let xml = render(&RunView::new(&all, false));
        assert_eq!(xml.matches("<testcase ").count(), 3, "{xml}");
        assert_eq!(xml.matches("<failure").count(), 1, "{xml}");
        assert!(xml.contains(r#"tests="3""#), "{xml}");
        assert!(xml.contains(r#"failures="1""#), "{xml}");
        assert!(
            xml.contains(r#"message="2 errors" type="FD018 FD213""#),
            "{xml}"
        );
        assert!(
            xml.contains("FD018 unlisted-file: bad/x.json: u\n"),
            "{xml}"
        );
        // XML-escaped message, pointer named.
        assert!(
            xml.contains("FD213 open-object-schema: bad/definition.json: open &lt;&amp;&gt; (at /desiredSchema)"),
            "{xml}"
        );
        // The warning of the good package is in its system-out, not a failure.
        assert!(
            xml.contains("<system-out>FD223 unsatisfiable-all-of: good: w\n</system-out>"),
            "{xml}"
        );
        // --deny-warnings: the warning fails its package.
        let xml = render(&RunView::new(&all, true));
        assert_eq!(xml.matches("<failure").count(), 2, "{xml}");
        assert!(
            xml.contains(r#"message="1 warning (--deny-warnings)""#),
            "{xml}"
        );
    }
}

//! `--format concise`: one line per finding, as ruff's concise output and
//! kubeconform's default print theirs, then the one-line summary
//! (issue 37 item 6):
//!
//! ```text
//! pkg/definition.json:1:168: FD213 object schema must set additionalProperties to false or a typed schema (at /desiredSchema)
//! pkg/extra.json: FD018 package file closure mismatch: "extra.json" is not listed
//! form-package: 1 package (0 verified, 1 failed), 2 errors, 0 warnings, 0 notes
//! ```
//!
//! A finding's location is [`super::Located::location`] (`line:column`
//! only when its span resolved), its message is followed by ` (at
//! <pointer>)` unless the pointer is the root, and a finding that is not
//! an error says so after its code (`FD223 warning: …`, `FD508 note: …`).
//! Findings come in the report's order; `--quiet` leaves the summary out.
//! Package text is escaped as the human format escapes it
//! ([`super::escape`]).

use std::fmt::Write as _;

use super::{escape, Options, RunView};
use crate::diag::Severity;

/// Renders `run` as concise lines, every line ending with `\n`.
pub fn render(run: &RunView<'_>, opts: &Options) -> String {
    let mut out = lines(run);
    if !opts.quiet {
        out.push_str(&super::human::summary_line(run));
    }
    out
}

/// The configuration line (when one was read) and one line per finding,
/// without the summary: `compat` ends them with its own (pairs that fit
/// and do not, breaker4 H4), not with a count of packages.
pub fn lines(run: &RunView<'_>) -> String {
    let mut out = String::new();
    if let Some(config) = &run.config {
        out.push_str(&super::human::config_line(config));
    }
    for (p, f) in run.findings() {
        let d = f.diag;
        let mut message = escape::message(&d.message).into_owned();
        if !d.pointer.is_root() {
            let _ = write!(message, " (at {})", escape::text(d.pointer.as_str()));
        }
        let severity = match d.severity {
            Severity::Error => "",
            Severity::Warning => " warning:",
            Severity::Note => " note:",
        };
        let _ = writeln!(
            out,
            "{}: {}{severity} {message}",
            escape::text(&f.location(p.path())),
            d.code.info().id
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::diag::Diagnostic;
    use crate::json::pointer::JsonPointer;
    use crate::verify::{PackageOutcome, Source};

    /// One line per finding (`path:line:col: CODE message`, the location
    /// without `line:col` when no span resolves, a warning said), then the
    /// summary; near miss: `--quiet` prints the findings only.
    #[test]
    fn one_line_per_finding_then_the_summary() {
        let e = Diagnostic::new(Code::OpenObjectSchema, "open\nobject")
            .in_file("d.json")
            .span(4..7)
            .at(JsonPointer::from("/a"));
        let w = Diagnostic::new(Code::UnsatisfiableAllOf, "w").severity(Severity::Warning);
        let mut p = PackageOutcome {
            path: "pkg".into(),
            diagnostics: vec![e, w],
            ..Default::default()
        };
        p.sources.insert(
            "d.json".into(),
            Source {
                bytes: b"{\n  \"a\": 1\n}".to_vec(),
                spans: None,
            },
        );
        let all = [p];
        let run = RunView::new(&all, false);
        let text = render(&run, &Options::default());
        assert_eq!(
            text,
            "pkg/d.json:2:3: FD213 open\\nobject (at /a)\n\
             pkg: FD223 warning: w\n\
             form-package: 1 package (0 verified, 1 failed), 1 error, 1 warning, 0 notes\n"
        );
        let quiet = Options {
            quiet: true,
            ..Options::default()
        };
        assert_eq!(render(&run, &quiet).lines().count(), 2);
    }
}

//! `--format github`: GitHub Actions workflow commands, one line per
//! diagnostic (packages in the order given, diagnostics in their sorted
//! order), then one plain summary line:
//!
//! ```text
//! ::error file=<pkg>/definition.json,line=3,col=5,title=FD213 open-object-schema::<message> (at /desiredSchema)
//! ::warning file=<pkg>,title=FD223 unsatisfiable-all-of::<message>
//! form-package: 2 packages, 1 verified, 1 failed, 3 errors, 1 warning
//! ```
//!
//! - the command is `error`, `warning` or `notice` after the severity;
//! - `file` is the package path as given joined with the diagnostic's file
//!   (the package directory itself when there is none); `line`/`col` are
//!   the 1-based start of the resolved span, exactly as [`super::json`]
//!   computes `line`/`column`, and are omitted when no span resolves;
//! - the message is followed by ` (at <pointer>)` unless the pointer is the
//!   document root;
//! - escaping follows GitHub's workflow-command rules: in the message `%`,
//!   `\r`, `\n` become `%25`, `%0D`, `%0A`; in property values additionally
//!   `:` and `,` become `%3A` and `%2C`.
//!
//! The summary counts a package as failed when it has an error (this format
//! has no `--deny-warnings` view; the exit code still honours it).

use std::fmt::Write as _;

use crate::diag::{Diagnostic, Severity};
use crate::verify::{PackageOutcome, Source};

/// Escapes workflow-command data (the message): `%` → `%25`, `\r` → `%0D`,
/// `\n` → `%0A`.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow-command property value: [`escape_data`] plus
/// `:` → `%3A` and `,` → `%2C`.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The workflow command of a severity: `error`, `warning`, `notice`.
pub fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    }
}

/// One diagnostic of package `p` as one workflow-command line (no newline).
pub fn line(p: &PackageOutcome, d: &Diagnostic, source: Option<&Source>) -> String {
    let info = d.code.info();
    let file = match &d.file {
        Some(f) => p.path.join(f),
        None => p.path.clone(),
    };
    let mut props = format!("file={}", escape_property(&file.display().to_string()));
    if let (Some(span), Some(src)) = (super::resolve_span(d, source), source) {
        let (l, c) = super::line_col(&src.bytes, span.start);
        let _ = write!(props, ",line={l},col={c}");
    }
    let title = format!("{} {}", info.id, info.name);
    let _ = write!(props, ",title={}", escape_property(&title));
    let mut message = d.message.clone();
    if !d.pointer.is_root() {
        let _ = write!(message, " (at {})", d.pointer);
    }
    format!(
        "::{} {}::{}",
        command(d.severity),
        props,
        escape_data(&message)
    )
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Renders every diagnostic as a workflow-command line, then the summary
/// line `form-package: N packages, V verified, F failed, E errors, W warnings`
/// (singular nouns for 1); every line ends with `\n`.
/// A package fails on an error, or on a warning under `deny_warnings`;
/// `quiet` leaves the summary line out.
pub fn render(packages: &[PackageOutcome], deny_warnings: bool, quiet: bool) -> String {
    let mut out = String::new();
    let (mut errors, mut warnings, mut failed) = (0, 0, 0);
    for p in packages {
        for d in &p.diagnostics {
            let source = d.file.as_ref().and_then(|f| p.sources.get(f));
            out.push_str(&line(p, d, source));
            out.push('\n');
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                _ => {}
            }
        }
        if super::fails(p, deny_warnings) {
            failed += 1;
        }
    }
    if quiet {
        return out;
    }
    let _ = writeln!(
        out,
        "form-package: {}, {} verified, {} failed, {}, {}",
        plural(packages.len(), "package"),
        packages.len() - failed,
        failed,
        plural(errors, "error"),
        plural(warnings, "warning"),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::json::pointer::JsonPointer;
    use std::path::PathBuf;

    fn outcome(path: &str, diags: Vec<Diagnostic>) -> PackageOutcome {
        PackageOutcome {
            path: PathBuf::from(path),
            diagnostics: diags,
            ..Default::default()
        }
    }

    #[test]
    fn escapes_data_and_properties() {
        assert_eq!(escape_data("a%b\r\nc: d, e"), "a%25b%0D%0Ac: d, e");
        assert_eq!(escape_property("a%b\r\nc: d, e"), "a%25b%0D%0Ac%3A d%2C e");
        // Near miss: nothing to escape.
        assert_eq!(
            escape_property("pkg/definition.json"),
            "pkg/definition.json"
        );
    }

    #[test]
    fn line_with_span_pointer_and_escapes() {
        let bytes = b"{\n  \"a\": 1\n}".to_vec();
        let d = Diagnostic::new(Code::OpenObjectSchema, "50% open\nreally")
            .in_file("d,x.json")
            .span(4..7)
            .at(JsonPointer::from("/a"));
        let p = outcome("pk:g", vec![]);
        let src = Source { bytes, spans: None };
        assert_eq!(
            line(&p, &d, Some(&src)),
            "::error file=pk%3Ag/d%2Cx.json,line=2,col=3,title=FD213 open-object-schema::50%25 open%0Areally (at /a)"
        );
    }

    #[test]
    fn severities_and_missing_file_and_root_pointer() {
        let w = Diagnostic::new(Code::UnsatisfiableAllOf, "w").severity(Severity::Warning);
        let n = Diagnostic::new(Code::RootChanged, "n")
            .in_file("a.json")
            .severity(Severity::Note);
        let p = outcome("pkg", vec![w.clone(), n.clone()]);
        assert_eq!(
            line(&p, &w, None),
            "::warning file=pkg,title=FD223 unsatisfiable-all-of::w"
        );
        assert_eq!(
            line(&p, &n, None),
            "::notice file=pkg/a.json,title=FD003 root-changed::n"
        );
    }

    #[test]
    fn render_counts_and_summary() {
        let e = Diagnostic::new(Code::UnlistedFile, "u").in_file("x.json");
        let w = Diagnostic::new(Code::UnsatisfiableAllOf, "w").severity(Severity::Warning);
        let all = [
            outcome("a", vec![e]),
            outcome("b", vec![w]),
            outcome("c", vec![]),
        ];
        assert_eq!(
            render(&all, false, false),
            "::error file=a/x.json,title=FD018 unlisted-file::u\n\
             ::warning file=b,title=FD223 unsatisfiable-all-of::w\n\
             form-package: 3 packages, 2 verified, 1 failed, 1 error, 1 warning\n"
        );
        // --deny-warnings: the warning fails its package too
        assert!(render(&all, true, false)
            .ends_with("3 packages, 1 verified, 2 failed, 1 error, 1 warning\n"));
        // --quiet: findings only
        assert!(!render(&all, false, true).contains("form-package:"));
        assert_eq!(
            render(&[outcome("ok", vec![])], false, false),
            "form-package: 1 package, 1 verified, 0 failed, 0 errors, 0 warnings\n"
        );
    }
}

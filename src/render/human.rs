//! Human output through miette, with a fixed theme so it can be tested.
//!
//! Each diagnostic shows `FDnnn name`, the message, the file excerpt with
//! the span of its JSON Pointer, the pointer itself, the help line and the
//! notes. Colour: `--color auto|always|never`; `NO_COLOR` turns `auto` off.

use std::fmt;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};

use crate::diag::{Diagnostic, Severity};
use crate::verify::{PackageOutcome, Source};

/// When to colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Color {
    /// Colour when stdout is a terminal and `NO_COLOR` is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

struct Shown<'a> {
    diag: &'a Diagnostic,
    code: String,
    help: Option<String>,
    source: Option<NamedSource<String>>,
    span: Option<SourceSpan>,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl std::error::Error for Shown<'_> {}

impl miette::Diagnostic for Shown<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Note => miette::Severity::Advice,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.span?;
        let label = if self.diag.pointer.is_root() {
            "here".to_owned()
        } else {
            self.diag.pointer.to_string()
        };
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(label),
            span,
        ))))
    }
}

/// Renders one diagnostic (with its source, if any) to text.
pub fn render_diagnostic(d: &Diagnostic, source: Option<&Source>, color: bool) -> String {
    let span = super::resolve_span(d, source);
    let text = source.and_then(|s| std::str::from_utf8(&s.bytes).ok());
    let file = d.file.clone().unwrap_or_default();
    let location = match (&d.file, &span, source) {
        (Some(f), Some(s), Some(src)) => {
            let (l, c) = super::line_col(&src.bytes, s.start);
            format!("{f}:{l}:{c}")
        }
        (Some(f), _, _) => f.clone(),
        (None, _, _) => String::new(),
    };
    let mut help_lines = Vec::new();
    if !location.is_empty() {
        let ptr = if d.pointer.is_root() {
            String::new()
        } else {
            format!(" at {}", d.pointer)
        };
        help_lines.push(format!("{location}{ptr}"));
    }
    if let Some(h) = &d.help {
        help_lines.push(h.clone());
    }
    for n in &d.notes {
        help_lines.push(format!("note: {n}"));
    }
    let info = d.code.info();
    let shown = Shown {
        diag: d,
        code: format!("{} {}", info.id, info.name),
        help: (!help_lines.is_empty()).then(|| help_lines.join("\n")),
        source: match (text, &span) {
            (Some(t), Some(_)) => Some(NamedSource::new(file, t.to_owned())),
            _ => None,
        },
        span: match (text, span) {
            (Some(t), Some(s)) => {
                let start = s.start.min(t.len());
                let end = s.end.clamp(start, t.len());
                Some(SourceSpan::from(start..end))
            }
            _ => None,
        },
    };
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_context_lines(1);
    let mut out = String::new();
    if handler.render_report(&mut out, &shown).is_err() {
        out = format!("{}: {}\n", shown.code, d.message);
    }
    out
}

/// Renders a whole package: its diagnostics, what was skipped, and a verdict line.
pub fn render_package(p: &PackageOutcome, color: bool, quiet: bool) -> String {
    let mut out = String::new();
    for d in &p.diagnostics {
        let source = d.file.as_ref().and_then(|f| p.sources.get(f));
        out.push_str(&render_diagnostic(d, source, color));
    }
    if quiet {
        return out;
    }
    for s in &p.skipped {
        out.push_str(&format!("  skipped {s}\n"));
    }
    let errors = p.diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = p
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let path = p.path.display();
    if errors == 0 {
        let digest = p
            .report
            .as_ref()
            .map(|r| r.package_digest.as_str())
            .unwrap_or("");
        let files = p.report.as_ref().map(|r| r.file_count).unwrap_or(0);
        out.push_str(&format!(
            "ok {path} ({files} files, {} fixtures, {digest}){}\n",
            p.fixtures_run,
            plural(warnings, "warning", ", ")
        ));
    } else {
        out.push_str(&format!(
            "FAIL {path}: {}{}\n",
            plural(errors, "error", ""),
            plural(warnings, "warning", ", ")
        ));
    }
    out
}

fn plural(n: usize, what: &str, sep: &str) -> String {
    match n {
        0 if !sep.is_empty() => String::new(),
        1 => format!("{sep}1 {what}"),
        _ => format!("{sep}{n} {what}s"),
    }
}

/// Whether to colour, from the flag, `NO_COLOR`, and whether stdout is a terminal.
pub fn use_color(choice: Color, is_terminal: bool) -> bool {
    match choice {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

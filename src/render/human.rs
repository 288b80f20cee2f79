//! Human output through miette, with a fixed theme so it can be tested.
//!
//! Each diagnostic shows `FDnnn name`, the message, the file excerpt with
//! the span of its JSON Pointer, the pointer itself, the help line and the
//! notes. Colour: `--color auto|always|never`; `NO_COLOR` turns `auto` off.

use std::collections::HashMap;
use std::fmt;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};

use super::LineIndex;
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

/// Longest source line, in bytes, that a source excerpt may show (the
/// longest line of any published package file is about 4 KiB). A longer line
/// (minified or hostile input) is summarised by `file:line:column` only: it
/// keeps the output linear in the number of findings, and miette panics when
/// an underline starts beyond column 65535.
const MAX_EXCERPT_LINE: usize = 16 * 1024;

/// Largest excerpt, in bytes (the lines miette shows: one line of context
/// before the span, the span's lines, one line after).
const MAX_EXCERPT: usize = 256 * 1024;

/// Once a package's rendered text reaches this many bytes, later findings
/// are shown without excerpts, so a package with thousands of findings
/// cannot make the output (held in memory) grow with findings × file size.
const EXCERPT_OUTPUT_BUDGET: usize = 8 * 1024 * 1024;

/// At most this many findings of one package get an excerpt: miette locates
/// an excerpt by scanning the file from its start (and the file is copied
/// for it), so excerpts cost O(file size) each.
const MAX_EXCERPTS: usize = 200;

/// Files larger than this (4 MiB, the definition limit) get no excerpts.
const MAX_EXCERPT_FILE: usize = 4 * 1024 * 1024;

/// True when the excerpt miette would draw for `span` in `text` is within
/// [`MAX_EXCERPT`] and no line of it is longer than [`MAX_EXCERPT_LINE`].
fn excerpt_fits(text: &[u8], span: &std::ops::Range<usize>) -> bool {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    // Start of the line before the span's first line.
    let line_start = |at: usize| {
        text.get(..at)
            .and_then(|t| t.iter().rposition(|&b| b == b'\n'))
            .map_or(0, |i| i + 1)
    };
    let mut from = line_start(start);
    if from > 0 {
        from = line_start(from - 1);
    }
    // End of the line after the span's last line; scanning stops early once
    // the window is already too large.
    let limit = text.len().min(from.saturating_add(MAX_EXCERPT + 1));
    let mut to = end;
    for _ in 0..2 {
        to = text
            .get(to.min(limit)..limit)
            .and_then(|t| t.iter().position(|&b| b == b'\n'))
            .map_or(limit, |i| to + i + 1);
    }
    if to - from > MAX_EXCERPT {
        return false;
    }
    text.get(from..to).is_some_and(|t| {
        t.split(|&b| b == b'\n')
            .all(|line| line.len() <= MAX_EXCERPT_LINE)
    })
}

/// Renders one diagnostic (with its source, if any) to text. The source
/// excerpt is left out when it would show a line longer than 16 KiB or more
/// than 256 KiB of source (the `file:line:column` help line remains).
pub fn render_diagnostic(d: &Diagnostic, source: Option<&Source>, color: bool) -> String {
    render_one(d, source, None, color, true, None)
}

/// `package`: the package directory as given, so every location reads
/// `<package>/<file>:line:column` (a finding can be told apart from those of
/// other packages, even with `--quiet`); a finding without a file names the
/// package directory itself.
fn render_one(
    d: &Diagnostic,
    source: Option<&Source>,
    index: Option<&LineIndex>,
    color: bool,
    excerpt: bool,
    package: Option<&std::path::Path>,
) -> String {
    let span = super::resolve_span(d, source);
    let text = source
        .filter(|s| s.bytes.len() <= MAX_EXCERPT_FILE)
        .and_then(|s| std::str::from_utf8(&s.bytes).ok())
        .filter(|t| excerpt && span.as_ref().is_some_and(|s| excerpt_fits(t.as_bytes(), s)));
    let shown_file = |f: &str| match package {
        Some(p) => p.join(f).display().to_string(),
        None => f.to_owned(),
    };
    let file = d.file.as_deref().map(shown_file).unwrap_or_default();
    let location = match (&d.file, &span, source) {
        (Some(_), Some(s), Some(src)) => {
            let (l, c) = match index {
                Some(idx) => idx.line_col(&src.bytes, s.start),
                None => super::line_col(&src.bytes, s.start),
            };
            format!("{file}:{l}:{c}")
        }
        (Some(_), _, _) => file.clone(),
        (None, _, _) => package.map(|p| p.display().to_string()).unwrap_or_default(),
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
                let mut end = s.end.clamp(start, t.len());
                // A value over several lines (an object, an array) is marked
                // on its first line only, so the excerpt stays short.
                if let Some(nl) = t
                    .as_bytes()
                    .get(start..end)
                    .and_then(|b| b.iter().position(|&c| c == b'\n'))
                {
                    end = start + nl;
                }
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
        .with_context_lines(1)
        .with_wrap_lines(false);
    let mut out = String::new();
    if handler.render_report(&mut out, &shown).is_err() {
        out = format!("{}: {}\n", shown.code, d.message);
    }
    out
}

/// Renders a whole package: its diagnostics, what was skipped, and a verdict
/// line. Only the first 200 findings get a source excerpt, and excerpts stop
/// once the text reaches 8 MiB (later findings keep their
/// `file:line:column` line), so time and output stay linear in the findings.
/// `deny_warnings`: a warning fails the package (the verdict line says FAIL).
pub fn render_package(p: &PackageOutcome, color: bool, quiet: bool, deny_warnings: bool) -> String {
    let mut out = String::new();
    // One line index per file, so N findings cost O(N log S), not O(N × S).
    let mut indexes: HashMap<&str, LineIndex> = HashMap::new();
    for (i, d) in p.diagnostics.iter().enumerate() {
        let file = d.file.as_deref();
        let source = file.and_then(|f| p.sources.get(f));
        let index = match (file, source) {
            (Some(f), Some(src)) => Some(
                &*indexes
                    .entry(f)
                    .or_insert_with(|| LineIndex::new(&src.bytes)),
            ),
            _ => None,
        };
        let excerpt = i < MAX_EXCERPTS && out.len() < EXCERPT_OUTPUT_BUDGET;
        out.push_str(&render_one(d, source, index, color, excerpt, Some(&p.path)));
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
    if !super::fails(p, deny_warnings) {
        let digest = p
            .report
            .as_ref()
            .map(|r| r.package_digest.as_str())
            .unwrap_or("");
        let files = p.report.as_ref().map(|r| r.file_count).unwrap_or(0);
        out.push_str(&format!(
            "ok {path} ({}, {} run, {digest}){}\n",
            count(files, "file"),
            count(p.fixtures_run, "fixture validation"),
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

/// `1 file`, `0 files`, `7 files`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
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

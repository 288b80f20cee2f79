//! Human output through miette, with a fixed theme so it can be tested.
//!
//! Each diagnostic shows `FDnnn name`, the message, the file excerpt with
//! the span of its JSON Pointer, the pointer itself, the help line and the
//! notes. The header and the `help:` line give the same `line:column`
//! (code points, see [`super::position`]). Colour: `--color auto|always|never`; `NO_COLOR` turns `auto` off.

use std::fmt;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteSpanContents, SourceSpan,
    SpanContents,
};

use super::escape;
use super::{count, Located, Options, PackageView, Position, RunView};
use crate::diag::{Diagnostic, Severity, Target};
use crate::verify::Source;

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
    /// The message, escaped ([`super::escape::text`]).
    message: String,
    code: String,
    help: Option<String>,
    source: Option<Excerpt<'a>>,
    span: Option<SourceSpan>,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
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
            escape::text(self.diag.pointer.as_str()).into_owned()
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

/// At most this many findings of one package get an excerpt: an excerpt
/// still costs O(file size) (the file's UTF-8 check, the line count before
/// its [`window`]).
const MAX_EXCERPTS: usize = 200;

/// Files larger than this (4 MiB, the definition limit) get no excerpts.
const MAX_EXCERPT_FILE: usize = 4 * 1024 * 1024;

/// True when the excerpt miette would draw for `span` in `text` is within
/// [`MAX_EXCERPT`], no line of it is longer than [`MAX_EXCERPT_LINE`], and
/// it holds no character a terminal or a CI log must not receive raw
/// ([`escape::needs_escape`] but TAB, LF and CR: an excerpt is shown as the
/// file has it, never escaped, so such a line is shown by its
/// `file:line:column` only; issue 22 item 2).
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
            && String::from_utf8_lossy(t)
                .chars()
                .all(|c| matches!(c, '\t' | '\n' | '\r') || !escape::needs_escape(c))
    })
}

/// A miette source that reports our position in the excerpt header.
///
/// miette computes the header's `line:column` itself, with byte columns
/// (and its excerpt does not split lines at a lone CR). This wrapper hands
/// miette the text with every lone CR replaced by LF (same length, so spans
/// do not move; the lines then are exactly ours) and answers the header's
/// one-span read with the finding's [`Position`] (code points), so the header
/// says what the `help:` line, JSON, SARIF and GitHub say. The header's read
/// is the only one without context lines: the handler below asks for one
/// line of context everywhere else (`with_context_lines(1)`).
///
/// miette reads a source from its first byte for every read (three or four
/// per finding), so each read is handed only the lines around its span
/// ([`window`]) and its answer is moved back to the whole text's offsets and
/// line numbers: the same contents as a read of the whole text, at the cost
/// of a few lines (issue 38: rendering was most of the corpus run's serial
/// tail). The text is borrowed unless it has a lone CR.
struct Excerpt<'t> {
    name: String,
    text: std::borrow::Cow<'t, str>,
    /// The position of byte `at` (the span's first byte).
    header: Position,
    /// The byte offset `header` is the position of.
    at: usize,
}

impl miette::SourceCode for Excerpt<'_> {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, miette::MietteError> {
        let text = self.text.as_bytes();
        let (from, to) = window(text, span, before, after);
        let part = text.get(from..to).unwrap_or_default();
        // Line breaks before the window, as miette counts them (LF, CR LF;
        // there is no lone CR left): the window starts a line.
        // Counted back from the span's known line when the span starts at
        // `at` (every read of a finding's own span), not from the text's
        // start: a lone CR became an LF above, so the LFs before `at` are
        // its line - 1.
        let newlines = |range: std::ops::Range<usize>| {
            text.get(range)
                .unwrap_or_default()
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
        };
        let lines_before = if span.offset() == self.at && from <= self.at {
            (self.header.line - 1).saturating_sub(newlines(from..self.at))
        } else {
            newlines(0..from)
        };
        let inner = part.read_span(
            &SourceSpan::from((span.offset() - from, span.len())),
            before,
            after,
        )?;
        let (line, column) = if before == 0 && after == 0 {
            (self.header.line - 1, self.header.column - 1)
        } else {
            (inner.line() + lines_before, inner.column())
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            SourceSpan::from((inner.span().offset() + from, inner.span().len())),
            line,
            column,
            inner.line_count() + lines_before,
        )))
    }
}

/// The byte range of `text` that a miette read of `span` with `before` and
/// `after` context lines looks at, with a line to spare on each side: from
/// the start of the line `before + 1` lines above the span's first line to
/// the end of the line `after + 1` lines below its last byte (or the whole
/// text when the span does not lie in it). It starts and ends at a line
/// start (after an LF) or at an end of the text, so no CR LF is split.
fn window(text: &[u8], span: &SourceSpan, before: usize, after: usize) -> (usize, usize) {
    let start = span.offset();
    let end = start.saturating_add(span.len());
    if end > text.len() {
        return (0, text.len());
    }
    let line_start = |at: usize| {
        text.get(..at)
            .and_then(|t| t.iter().rposition(|&b| b == b'\n'))
            .map_or(0, |i| i + 1)
    };
    let mut from = line_start(start);
    for _ in 0..=before {
        if from == 0 {
            break;
        }
        from = line_start(from - 1);
    }
    let mut to = end;
    for _ in 0..=after + 1 {
        match text
            .get(to..)
            .and_then(|t| t.iter().position(|&b| b == b'\n'))
        {
            Some(i) => to += i + 1,
            None => {
                to = text.len();
                break;
            }
        }
    }
    (from, to)
}

/// `text` with every CR that is not followed by LF replaced by LF.
fn lone_cr_to_lf(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('\r') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Longest token text the help line quotes.
const TOKEN_CHARS: usize = 40;

/// What the location marks, for the help line: `the member name "spec"`,
/// `the value {`, `the token tru`, `the end of the file`.
fn marked_token(f: &Located<'_>) -> Option<String> {
    let span = f.span.as_ref()?;
    let bytes = &f.source?.bytes;
    let raw = bytes.get(span.start.min(bytes.len())..span.end.min(bytes.len()))?;
    let text = String::from_utf8_lossy(raw);
    let first = text
        .split(['\n', '\r'])
        .next()
        .unwrap_or_default()
        .trim_end();
    if first.is_empty() {
        return Some(if span.start >= bytes.len() {
            "the end of the file".to_owned()
        } else {
            "the empty span".to_owned()
        });
    }
    let mut token: String = first.chars().take(TOKEN_CHARS).collect();
    if token.len() < text.len() {
        token.push('…');
    }
    let token = escape::text(&token).into_owned();
    let what = if f.diag.span.is_some() {
        "the token"
    } else if f.diag.target == Target::Key
        && f.source
            .and_then(|s| s.spans.as_ref())
            .and_then(|s| s.key_span(&f.diag.pointer))
            .as_ref()
            == Some(span)
    {
        "the member name"
    } else {
        "the value"
    };
    Some(format!("{what} {token}"))
}

/// Renders one diagnostic (with its source, if any) to text, for commands
/// that report single findings (`canonicalize`, `digest`): located the same
/// way as `verify`'s; the finding's file name is shown as it is.
pub fn render_diagnostic(d: &Diagnostic, source: Option<&Source>, color: bool) -> String {
    render_diagnostic_in(d, source, None, color)
}

/// [`render_diagnostic`] for a finding whose file is relative to `package`
/// (shown as `<package>/<file>:line:column`; `None`: the file as it is).
pub fn render_diagnostic_in(
    d: &Diagnostic,
    source: Option<&Source>,
    package: Option<&std::path::Path>,
    color: bool,
) -> String {
    let place = crate::locate::finding(d, source);
    let f = Located {
        diag: d,
        source,
        span: place.span,
        start: place.start,
        end: place.end,
    };
    render_one(&f, color, true, package.unwrap_or(std::path::Path::new("")))
}

/// [`render_diagnostic_in`] of a finding a view already located (its
/// excerpt always drawn when it fits).
pub fn render_located(f: &Located<'_>, package: Option<&std::path::Path>, color: bool) -> String {
    render_one(f, color, true, package.unwrap_or(std::path::Path::new("")))
}

/// One located finding: `package` is the package directory as given, so
/// every location reads `<package>/<file>:line:column` (a finding can be
/// told apart from those of other packages, even with `--quiet`); a finding
/// without a file names the package directory itself.
fn render_one(f: &Located<'_>, color: bool, excerpt: bool, package: &std::path::Path) -> String {
    let d = f.diag;
    // Cheap tests first: UTF-8 validation is O(file size), so only the
    // findings that get an excerpt pay it.
    let text = f
        .source
        .filter(|s| {
            excerpt
                && f.start.is_some()
                && s.bytes.len() <= MAX_EXCERPT_FILE
                && f.span.as_ref().is_some_and(|sp| excerpt_fits(&s.bytes, sp))
        })
        .and_then(|s| std::str::from_utf8(&s.bytes).ok());
    let file = d
        .file
        .as_ref()
        .map(|_| escape::text(&f.path(package)).into_owned())
        .unwrap_or_default();
    let location = escape::text(&f.location(package)).into_owned();
    let mut help_lines = Vec::new();
    if !location.is_empty() {
        let mut line = location;
        if let Some(token) = marked_token(f) {
            line.push_str(&format!(": {token}"));
        }
        if !d.pointer.is_root() {
            line.push_str(&format!(" at {}", escape::text(d.pointer.as_str())));
        }
        help_lines.push(line);
    }
    if let Some(h) = &d.help {
        help_lines.push(escape::message(h).into_owned());
    }
    for n in &d.notes {
        help_lines.push(format!("note: {}", escape::message(n)));
    }
    let info = d.code.info();
    let (source, span) = match (text, &f.span, f.start) {
        (Some(t), Some(s), Some(header)) => {
            let start = s.start.min(t.len());
            let mut end = s.end.clamp(start, t.len());
            // A value over several lines (an object, an array) is marked
            // on its first line only, so the excerpt stays short.
            if let Some(nl) = t
                .as_bytes()
                .get(start..end)
                .and_then(|b| b.iter().position(|&c| c == b'\n' || c == b'\r'))
            {
                end = start + nl;
            }
            (
                Some(Excerpt {
                    name: file,
                    text: lone_cr_to_lf(t),
                    header,
                    at: start,
                }),
                Some(SourceSpan::from(start..end)),
            )
        }
        _ => (None, None),
    };
    let shown = Shown {
        diag: d,
        message: escape::message(&d.message).into_owned(),
        code: format!("{} {}", info.id, info.name),
        help: (!help_lines.is_empty()).then(|| help_lines.join("\n")),
        source,
        span,
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
        out = format!("{}: {}\n", shown.code, shown.message);
    }
    out
}

/// Renders a whole package: its diagnostics, what was skipped, a verdict
/// line, and with `verbose` what each stage checked. Only the first 200
/// findings get a source excerpt, and excerpts stop once the text reaches
/// 8 MiB (later findings keep their `file:line:column` line), so time and
/// output stay linear in the findings. A package fails on an error, or on a
/// warning under `--deny-warnings` (the verdict line says FAIL).
pub fn render_package(p: &PackageView<'_>, opts: &Options) -> String {
    let mut out = String::new();
    for (i, f) in p.findings.iter().enumerate() {
        let excerpt = i < MAX_EXCERPTS && out.len() < EXCERPT_OUTPUT_BUDGET;
        out.push_str(&render_one(f, opts.color, excerpt, p.path()));
    }
    if opts.quiet {
        return out;
    }
    let o = p.outcome;
    for s in &o.skipped {
        out.push_str(&format!("  skipped {}\n", escape::text(s)));
    }
    let path = escape::path(p.name());
    if matches!(
        p.kind,
        super::EntryKind::Configuration | super::EntryKind::Snapshot | super::EntryKind::TrustSet
    ) {
        // The configuration file's entry is no package: no figures (T2 F8);
        // nor is a compiled set's (`snapshot`), whose roster follows, nor a
        // part of a trust set's (`trust verify-set`).
        let parts: Vec<String> = [
            (p.counts.errors, "error"),
            (p.counts.warnings, "warning"),
            (p.counts.notes, "note"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, w)| count(n, w))
        .collect();
        let said = if parts.is_empty() && p.kind != super::EntryKind::Configuration {
            "no finding".to_owned()
        } else {
            parts.join(", ")
        };
        out.push_str(&format!(
            "{} {path}: {said}\n",
            if p.failed { "FAIL" } else { "ok" }
        ));
        return out;
    }
    if !p.failed {
        // A package whose errors a selection hid or demoted passes, but says
        // so, with the figures of its index (N1 findings §3.2): the outcome
        // keeps them whatever its findings.
        let figures = o.report.as_ref().or(o.figures.as_ref());
        let digest = figures
            .map(|r| r.package_digest.as_str())
            .or(o.package_digest.as_deref())
            .unwrap_or("no package digest");
        let files = figures.map(|r| r.file_count).unwrap_or(0);
        let hidden = if p.hidden.unverified() {
            let h = &p.hidden;
            let parts: Vec<String> = [
                (h.counts.errors, "error"),
                (h.counts.warnings, "warning"),
                (h.counts.notes, "note"),
            ]
            .into_iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, w)| count(n, w))
            .collect();
            let mut text = String::new();
            if !parts.is_empty() {
                text = format!("findings hidden: {}", parts.join(", "));
            }
            if h.demoted > 0 {
                if !text.is_empty() {
                    text.push_str(", ");
                }
                text.push_str(&if h.demoted == 1 {
                    "1 error reported as a warning".to_owned()
                } else {
                    format!("{} errors reported as warnings", h.demoted)
                });
            }
            format!("{text}; not verified: ")
        } else {
            String::new()
        };
        out.push_str(&format!(
            "ok {path} ({hidden}{}, {} run, {digest}){}{}\n",
            count(files, "file"),
            count(o.fixtures_run, "fixture validation"),
            plural(p.counts.warnings, "warning", ", "),
            plural(p.counts.notes, "note", ", ")
        ));
    } else {
        out.push_str(&format!(
            "FAIL {path}: {}{}{}\n",
            plural(p.counts.errors, "error", ""),
            plural(p.counts.warnings, "warning", ", "),
            plural(p.counts.notes, "note", ", ")
        ));
    }
    if opts.verbose {
        out.push_str(&checked(p));
    }
    out
}

/// `-v`: what each stage checked, from what the package's outcome records
/// (one line per stage, `  checked <stage>: <what>`).
fn checked(p: &PackageView<'_>) -> String {
    let o = p.outcome;
    let mut lines = Vec::new();
    match &o.package_digest {
        Some(d) => lines.push(format!(
            "index: package-index.json read as strict I-JSON and canonicalized (package digest {d})"
        )),
        None => lines.push("index: package-index.json not canonicalized".to_owned()),
    }
    match &o.report {
        Some(r) => lines.push(format!(
            "files: {} listed, inventoried and digested ({} payload bytes); FormRef and schemaDigest matched",
            count(r.file_count, "file"),
            r.payload_bytes
        )),
        None => lines.push("files: not every listed file verified (see the findings)".to_owned()),
    }
    lines.push(format!(
        "fixtures: {}",
        count(o.fixtures_run, "fixture validation")
    ));
    // Which violation rejected each negative fixture (issue 26 item 5): a
    // negative that fails for another reason than the one it was written
    // for shows here.
    for r in &o.fixture_rejections {
        let keyword = r.schema_pointer.tokens().pop().unwrap_or_default();
        let at = if r.instance_pointer.is_root() {
            "the document".to_owned()
        } else {
            r.instance_pointer.as_str().to_owned()
        };
        let line = format!(
            "fixtures: negative {:?} ({:?}, {}) rejected at {} by `{}`: {}",
            r.name, r.path, r.stage, at, keyword, r.message
        );
        // Names, paths and the message quote text from the package.
        lines.push(super::escape::message(&line).into_owned());
    }
    lines.push(format!(
        "relations: {} derived from the desired schema",
        o.relations.len()
    ));
    lines.push(format!(
        "findings: {}, {}, {}",
        count(p.counts.errors, "error"),
        count(p.counts.warnings, "warning"),
        count(p.counts.notes, "note")
    ));
    lines.iter().map(|l| format!("  checked {l}\n")).collect()
}

/// The whole run: every package ([`render_package`]), then unless `quiet`
/// the summary line `form-package: N packages (V verified, F failed), E
/// errors, W warnings, K notes` (singular nouns for 1).
pub fn render_run(run: &RunView<'_>, opts: &Options) -> String {
    let mut text = String::new();
    if let (Some(config), false) = (&run.config, opts.quiet) {
        text.push_str(&config_line(config));
    }
    // Packages render on the pool (their verification already started it;
    // one package renders on this thread, which starts no pool).
    let rendered: Vec<String> = if run.packages.len() > 1 {
        use rayon::prelude::*;
        run.packages
            .par_iter()
            .map(|p| render_package(p, opts))
            .collect()
    } else {
        run.packages
            .iter()
            .map(|p| render_package(p, opts))
            .collect()
    };
    for p in rendered {
        text.push_str(&p);
    }
    if !opts.quiet {
        text.push_str(&summary_line(run));
    }
    text
}

/// The header naming the configuration file in force (issue 22 item 4):
/// `form-package: configuration <path>\n`.
pub fn config_line(path: &std::path::Path) -> String {
    escape::line(&format!("configuration {}", path.display()))
}

/// `form-package: 2 packages (1 verified, 1 failed), 3 errors, 1 warning, 0 notes\n`.
pub fn summary_line(run: &RunView<'_>) -> String {
    let [packages, verified, failed, errors, warnings, notes] = run.tally();
    escape::line(&format!(
        "{packages} ({verified}, {failed}), {errors}, {warnings}, {notes}"
    ))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::json::pointer::JsonPointer;

    use crate::testing::source;

    fn help_line(d: &Diagnostic, src: &Source) -> String {
        let text = render_diagnostic_in(d, Some(src), Some(std::path::Path::new("pkg")), false);
        let at = text.find("help: ").unwrap();
        text[at + 6..].lines().next().unwrap().to_owned()
    }

    #[test]
    fn help_line_names_the_marked_token() {
        let src = source("{\n  \"password\": {\"a\": 1},\n  \"long\": \"0123456789012345678901234567890123456789xyz\"\n}");
        let key = Diagnostic::new(Code::ForbiddenPayloadField, "k")
            .in_file("f.json")
            .at_key(JsonPointer::from("/password"));
        assert_eq!(
            help_line(&key, &src),
            "pkg/f.json:2:3: the member name \"password\" at /password"
        );
        let value = Diagnostic::new(Code::OpenObjectSchema, "v")
            .in_file("f.json")
            .at(JsonPointer::from("/password"));
        assert_eq!(
            help_line(&value, &src),
            "pkg/f.json:2:15: the value {\"a\": 1} at /password"
        );
        // Long tokens are cut at 40 code points.
        let long = Diagnostic::new(Code::OpenObjectSchema, "v")
            .in_file("f.json")
            .at(JsonPointer::from("/long"));
        assert_eq!(
            help_line(&long, &src),
            "pkg/f.json:3:11: the value \"012345678901234567890123456789012345678… at /long"
        );
        // A parse error names the token it stopped at, or the end of the file.
        let bad = Source {
            bytes: b"[1, tru".to_vec(),
            spans: None,
        };
        let e = crate::json::strict::parse(&bad.bytes).unwrap_err();
        let d = e.to_diagnostic().in_file("b.json");
        assert!(
            help_line(&d, &bad).starts_with("pkg/b.json:1:5: the token tru"),
            "{}",
            help_line(&d, &bad)
        );
        let eof = Diagnostic::new(Code::InvalidIJson, "eof")
            .in_file("b.json")
            .span(7..7);
        assert_eq!(help_line(&eof, &bad), "pkg/b.json:1:8: the end of the file");
        // Near miss: a finding about a whole file names only the file.
        let whole = Diagnostic::new(Code::UnlistedFile, "u").in_file("x.json");
        let text = render_diagnostic_in(&whole, None, Some(std::path::Path::new("pkg")), false);
        assert!(text.contains("help: pkg/x.json\n"), "{text}");
    }

    /// Every read of an excerpt gives what miette's own read of the whole
    /// text gives (the window and the line count taken back from the
    /// span's known position), on LF, CR LF and lone-CR texts.
    #[test]
    fn excerpt_reads_as_the_whole_text_reads() {
        use miette::SourceCode as _;
        for raw in [
            "{\n  \"a\": 1,\n  \"b\": [\n    true\n  ],\n  \"c\": \"x\"\n}\n",
            "{\r\n  \"a\": 1,\r\n\r\n  \"b\": {\"c\": 2}\r\n}",
            "{\r\"é😀\": {\"x\": 1},\r\r\"y\": 2}",
        ] {
            let index = crate::json::position::LineIndex::new(raw.as_bytes());
            let whole = lone_cr_to_lf(raw).into_owned();
            for start in (0..raw.len()).filter(|&i| raw.is_char_boundary(i)) {
                let (line, column) = index.line_col(raw.as_bytes(), start);
                let excerpt = Excerpt {
                    name: "f.json".to_owned(),
                    text: lone_cr_to_lf(raw),
                    header: Position { line, column },
                    at: start,
                };
                for len in [0, 1] {
                    let span = SourceSpan::from((start, len.min(raw.len() - start)));
                    for (before, after) in [(1, 1), (2, 0), (0, 2)] {
                        let ours = excerpt.read_span(&span, before, after).unwrap();
                        let theirs = whole.read_span(&span, before, after).unwrap();
                        let what = format!("{raw:?} at {start}+{len}, {before}/{after}");
                        assert_eq!(ours.data(), theirs.data(), "{what}");
                        assert_eq!(ours.line(), theirs.line(), "{what}");
                        assert_eq!(ours.column(), theirs.column(), "{what}");
                        assert_eq!(ours.line_count(), theirs.line_count(), "{what}");
                        assert_eq!(ours.span(), theirs.span(), "{what}");
                    }
                    // A span other than the finding's own is counted from
                    // the start of the text.
                    if start > 0 {
                        let other = SourceSpan::from((start - 1, 0));
                        let ours = excerpt.read_span(&other, 1, 1).unwrap();
                        let theirs = whole.read_span(&other, 1, 1).unwrap();
                        assert_eq!(ours.line(), theirs.line(), "{raw:?} at {start}");
                    }
                }
            }
        }
    }

    #[test]
    fn header_and_help_agree_on_code_points_and_lone_cr() {
        let src = source("{\r\"é😀\": {\"x\": tru}}");
        let e = crate::json::strict::parse(&src.bytes).unwrap_err();
        let d = e.to_diagnostic().in_file("c.json");
        let text = render_diagnostic_in(&d, Some(&src), None, false);
        // Code points: 13 (bytes would say 17); the lone CR ends line 1.
        assert!(text.contains("╭─[c.json:2:13]"), "{text}");
        assert!(text.contains("help: c.json:2:13: the token tru"), "{text}");
    }
}

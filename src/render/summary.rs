//! `--summary-file FILE`: a Markdown job summary of a run, appended to
//! FILE (GitHub's `$GITHUB_STEP_SUMMARY`; issue 37 item 2), so a failing
//! CI job shows its findings on the run's page even where no code scanning
//! takes SARIF:
//!
//! ```text
//! ### form-package verify
//!
//! 2 packages (1 verified, 1 failed), 3 errors, 1 warning, 0 notes
//!
//! | Package | Verdict | Errors | Warnings | Notes |
//! | --- | --- | --- | --- | --- |
//! | packages/bad | failed | 3 | 1 | 0 |
//! | packages/good | verified | 0 | 0 | 0 |
//!
//! | Code | Findings |
//! | --- | --- |
//! | FD019 missing-listed-file | 3 |
//!
//! First findings (errors first):
//!
//! - error FD019 missing-listed-file: [packages/bad/package-index.json:4:7](URL): message
//! ```
//!
//! Every piece of package text is escaped as the GitHub format escapes it
//! ([`super::escape::text`]), then each ASCII punctuation character is
//! backslash-escaped ([`md`]) so that no name can open a link, a table
//! cell, an HTML tag or a code span. A finding links to its line when the
//! blob URL of the commit is known (`GITHUB_SERVER_URL`,
//! `GITHUB_REPOSITORY`, `GITHUB_SHA`: [`blob_base`]); the link path is the
//! annotation's ([`super::github::annotation_path`]).

use std::fmt::Write as _;

use super::{github, Options, RunView};
use crate::diag::Severity;

/// How many findings the summary lists one by one (errors first, then
/// warnings, then notes); the rest are counted in the table per code and
/// said in a last line.
pub const FIRST_FINDINGS: usize = 20;

/// The characters [`md`] backslash-escapes: every one that can open
/// GitHub Markdown markup inside a line (emphasis, code, links, HTML,
/// entities, math, table cells, autolinks' `:` and `@`).
const MARKUP: &str = "\\`*_[]<>()|~&!$:@{}";

/// Backslash-escapes each `MARKUP` character of `s` (GitHub Markdown's
/// escapes), after [`super::escape::text`]: package text neither ends a
/// table row nor opens markup, a link or an autolink.
pub fn md(s: &str) -> String {
    let text = super::escape::text(s);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if MARKUP.contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The blob URL of the commit a run checks, `SERVER/REPOSITORY/blob/SHA`,
/// from `GITHUB_SERVER_URL`, `GITHUB_REPOSITORY` and `GITHUB_SHA` when all
/// are set (a GitHub Actions job), else `None` (no links).
pub fn blob_base() -> Option<String> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    Some(format!(
        "{}/{}/blob/{}",
        var("GITHUB_SERVER_URL")?,
        var("GITHUB_REPOSITORY")?,
        var("GITHUB_SHA")?
    ))
}

/// The summary of `run` under the heading `### form-package <title>`,
/// with `line` (the command's own summary line, without its
/// `form-package: ` prefix) under it; `blob`: [`blob_base`].
pub fn render(
    title: &str,
    line: &str,
    run: &RunView<'_>,
    opts: &Options,
    blob: Option<&str>,
) -> String {
    let mut out = format!("### form-package {}\n\n", md(title));
    // The tool's own prefix, as `escape::line` writes it, is not repeated.
    let prefix = super::escape::line("");
    let line = line.trim_end();
    let line = line
        .strip_prefix(prefix.trim_end_matches('\n'))
        .unwrap_or(line);
    let _ = writeln!(out, "{}\n", md(line));
    let entries: Vec<_> = run
        .packages
        .iter()
        .filter(|p| p.kind.is_package())
        .collect();
    if !entries.is_empty() {
        out.push_str("| Package | Verdict | Errors | Warnings | Notes |\n");
        out.push_str("| --- | --- | --- | --- | --- |\n");
        for p in &entries {
            let verdict = if p.failed {
                "failed"
            } else if p.hidden.unverified() {
                "unverified"
            } else {
                "verified"
            };
            let _ = writeln!(
                out,
                "| {} | {verdict} | {} | {} | {} |",
                md(&p.name().display().to_string()),
                p.counts.errors,
                p.counts.warnings,
                p.counts.notes
            );
        }
        out.push('\n');
    }
    let mut per_code: std::collections::BTreeMap<(&str, &str), usize> = Default::default();
    for (_, f) in run.findings() {
        let info = f.diag.code.info();
        *per_code.entry((info.id, info.name)).or_default() += 1;
    }
    if !per_code.is_empty() {
        out.push_str("| Code | Findings |\n| --- | --- |\n");
        for ((id, name), n) in &per_code {
            let _ = writeln!(out, "| {id} {name} | {n} |");
        }
        out.push('\n');
    }
    let base = opts.workspace.as_deref().unwrap_or(&opts.cwd);
    let mut findings: Vec<_> = run.findings().collect();
    // Errors first, then warnings, then notes; in the report's order within.
    findings.sort_by_key(|(_, f)| rank(f.diag.severity));
    if !findings.is_empty() {
        out.push_str("First findings (errors first):\n\n");
    }
    for (p, f) in findings.iter().take(FIRST_FINDINGS) {
        let info = f.diag.code.info();
        let file = github::annotation_path(p.path(), f, base, &opts.cwd);
        let mut location = md(&file);
        if let (Some(_), Some(pos)) = (&f.diag.file, f.start) {
            let _ = write!(location, ":{}:{}", pos.line, pos.column);
        }
        let location = match blob {
            Some(b) => {
                let anchor = match (&f.diag.file, f.start) {
                    (Some(_), Some(pos)) => format!("#L{}", pos.line),
                    _ => String::new(),
                };
                format!("[{location}]({b}/{}{anchor})", url_path(&file))
            }
            None => location,
        };
        let mut message = f.diag.message.clone();
        if !f.diag.pointer.is_root() {
            let _ = write!(message, " (at {})", f.diag.pointer);
        }
        let _ = writeln!(
            out,
            "- {} {} {}: {location}: {}",
            github::command(f.diag.severity),
            info.id,
            info.name,
            md(&super::escape::message(&message))
        );
    }
    if findings.len() > FIRST_FINDINGS {
        let _ = writeln!(
            out,
            "\n{} more (every one is in the log's annotations and in the report).",
            findings.len() - FIRST_FINDINGS
        );
    }
    out.push('\n');
    out
}

/// Errors first, then warnings, then notes.
pub fn rank(s: Severity) -> u8 {
    match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Note => 2,
    }
}

/// A relative path as a URL path: every byte but unreserved characters
/// and `/` percent-encoded.
fn url_path(path: &str) -> String {
    const SET: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'/')
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(path, SET).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Markup in package text is escaped, control characters Go-escaped;
    /// near miss: letters and digits stay.
    #[test]
    fn package_text_opens_no_markup() {
        assert_eq!(md("a|b](x)<img>"), "a\\|b\\]\\(x\\)\\<img\\>");
        assert_eq!(md("line\nnext"), "line\\\\nnext");
        assert_eq!(md("plain 42 é a/b-c.json"), "plain 42 é a/b-c.json");
        assert_eq!(md("https://x"), "https\\://x");
        assert_eq!(url_path("p q/def#1.json"), "p%20q/def%231.json");
    }
}

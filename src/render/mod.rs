//! Renderers: the only code that turns outcomes into text.
//!
//! `human` (miette, default), `json` (our versioned contract, see
//! [`json`]). Checks never print; `main.rs` writes what these return.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use crate::diag::Diagnostic;
use crate::verify::Source;

/// Output format of `verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// miette diagnostics with source excerpts, then a summary.
    Human,
    /// One JSON document for the whole run (schema: `schemas/form-package-report-v1.schema.json`).
    Json,
    /// SARIF 2.1.0, one rule per code.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::`).
    Github,
}

/// Whether a package fails: an error, or a warning under `--deny-warnings`.
pub fn fails(p: &crate::verify::PackageOutcome, deny_warnings: bool) -> bool {
    p.diagnostics
        .iter()
        .any(|d| d.is_error() || (deny_warnings && d.severity == crate::diag::Severity::Warning))
}

/// Byte span of a diagnostic in its file: the explicit span, else the
/// pointer's key or value span, else the nearest ancestor that resolves.
pub fn resolve_span(d: &Diagnostic, source: Option<&Source>) -> Option<std::ops::Range<usize>> {
    if let Some(s) = &d.span {
        return Some(s.clone());
    }
    let spans = source?.spans.as_ref()?;
    if d.target == crate::diag::Target::Key {
        if let Some(s) = spans.key_span(&d.pointer) {
            return Some(s);
        }
    }
    let mut p = Some(d.pointer.clone());
    while let Some(ptr) = p {
        if let Some(s) = spans.value_span(&ptr) {
            return Some(s);
        }
        p = ptr.parent();
    }
    None
}

/// 1-based line and column of a byte offset (columns count Unicode scalar values).
///
/// O(offset): for many positions in one file use [`LineIndex`].
pub fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    crate::json::strict::line_col(bytes, offset)
}

/// Scalar-value counts are checkpointed every this many bytes.
const CHECKPOINT: usize = 256;

/// A line index of one file: [`LineIndex::line_col`] gives the same answer
/// as [`line_col`] in O(log lines + 256) instead of O(offset), so rendering
/// N findings of a file of S bytes costs O(S + N log S), not O(N × S) (a
/// 16 MiB fixture with a million forbidden names must not take hours).
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset where each line starts (the first is 0).
    line_starts: Vec<usize>,
    /// Number of scalar values (non-continuation bytes) before offset
    /// `i * CHECKPOINT`.
    chars_before: Vec<usize>,
}

impl LineIndex {
    /// Indexes `bytes` in one pass (memory: 8 bytes per line plus 8 bytes
    /// per 256 bytes of input).
    pub fn new(bytes: &[u8]) -> Self {
        let mut line_starts = vec![0];
        let mut chars_before = Vec::with_capacity(bytes.len() / CHECKPOINT + 1);
        let mut chars = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if i % CHECKPOINT == 0 {
                chars_before.push(chars);
            }
            if !(0x80..0xC0).contains(&b) {
                chars += 1;
            }
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        chars_before.push(chars);
        LineIndex {
            line_starts,
            chars_before,
        }
    }

    /// Scalar values in `bytes[..offset]`.
    fn chars_to(&self, bytes: &[u8], offset: usize) -> usize {
        let block = offset / CHECKPOINT;
        let base = self.chars_before.get(block).copied().unwrap_or(0);
        base + bytes
            .get(block * CHECKPOINT..offset)
            .unwrap_or_default()
            .iter()
            .filter(|&&b| !(0x80..0xC0).contains(&b))
            .count()
    }

    /// 1-based line and column of `offset` in `bytes` (the bytes this index
    /// was built from); offsets past the end are clamped, as in [`line_col`].
    pub fn line_col(&self, bytes: &[u8], offset: usize) -> (usize, usize) {
        let offset = offset.min(bytes.len());
        // Lines whose start is <= offset; the first start is 0, so >= 1.
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self
            .line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(0);
        let col = 1 + self.chars_to(bytes, offset) - self.chars_to(bytes, start);
        (line, col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_agrees_with_line_col() {
        let text = "ab\ncé€😀x\r\n\n".repeat(100).into_bytes();
        let idx = LineIndex::new(&text);
        for off in 0..=text.len() + 3 {
            assert_eq!(idx.line_col(&text, off), line_col(&text, off), "{off}");
        }
        let empty = LineIndex::new(b"");
        assert_eq!(empty.line_col(b"", 5), (1, 1));
        // Invalid UTF-8 still gets a position.
        let bad = b"\xff\xfe\n\x80a";
        let idx = LineIndex::new(bad);
        for off in 0..=bad.len() {
            assert_eq!(idx.line_col(bad, off), line_col(bad, off), "{off}");
        }
    }
}

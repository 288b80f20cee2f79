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
pub fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    crate::json::strict::line_col(bytes, offset)
}

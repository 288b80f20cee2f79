//! Renderers: the only code that turns outcomes into text.
//!
//! One front end for every command's output: [`model::RunView`] resolves
//! every finding's span and `line:column` once per file ([`position`]: one
//! column unit, Unicode code points), then [`render`] dispatches on
//! [`Format`] to `human` (miette, default), `json` (our versioned contract,
//! see [`json`]), `sarif` (typed SARIF 2.1.0), `github` (workflow commands)
//! or `junit` (JUnit XML). `verify` and `relations` share the enum and the
//! dispatch; [`write_output`] writes `--output-file` atomically. Checks never
//! print; `main.rs` writes what these return.

pub mod github;
pub mod human;
pub mod json;
pub mod junit;
pub mod model;
pub mod position;
pub mod sarif;

use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;
use crate::verify::Source;

pub use model::{Counts, Located, PackageView, RunView};
pub use position::{LineIndex, Position};

/// Output format of every command that reports findings (`verify`, `relations`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// miette diagnostics with source excerpts, then a summary.
    Human,
    /// One JSON document for the whole run (its JSON Schema: `form-package schema report`).
    Json,
    /// SARIF 2.1.0, one rule per code.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::`).
    Github,
    /// JUnit XML: one testcase per package, a failure for each failing one.
    Junit,
}

/// What every renderer may need besides the findings.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Colour human output.
    pub color: bool,
    /// Findings only: no per-package verdict lines, no summary line.
    pub quiet: bool,
    /// Human output adds what each stage checked, per package.
    pub verbose: bool,
    /// A warning fails its package.
    pub deny_warnings: bool,
    /// SARIF `%SRCROOT%`: artifact URIs are relative to this directory
    /// (absolute; `--sarif-root`, default the working directory).
    pub sarif_root: PathBuf,
    /// The working directory, against which relative package paths are
    /// resolved before they are made relative to `sarif_root`.
    pub cwd: PathBuf,
}

/// Renders a located run in `format` (the one dispatch of every command).
pub fn render(format: Format, run: &RunView<'_>, opts: &Options) -> String {
    match format {
        Format::Human => human::render_run(run, opts),
        Format::Json => json::render(run),
        Format::Sarif => sarif::render(run, opts),
        Format::Github => github::render(run, opts),
        Format::Junit => junit::render(run),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory, flushed to disk, then renamed over `path` (readers see the old
/// file or the whole new one, never a part).
///
/// # Errors
/// The I/O error of creating, writing, syncing or renaming.
pub fn write_output(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".to_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Whether a package fails: an error, or a warning under `--deny-warnings`
/// (the same rule as [`PackageView::failed`]).
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

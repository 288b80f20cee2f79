//! The operations: one file per command, named like the command's face in
//! `src/cli/` (`cli/verify.rs` calls `ops::verify`, `cli/check.rs`
//! `ops::check`, …). An operation reads its inputs, runs the library
//! (`checks`, `verify`, `document`, `compat`, `family`, `trust`, …) and
//! returns a typed result carrying its exit status; `src/render/` turns that
//! result into text and the command's `cli/` file into an `Output`.
//!
//! Only `src/cli/` (and `main.rs`) imports an operation: the library and
//! `render/` never do (`tests/docs/imports.rs` holds the rule).

pub mod canonicalize;
pub mod check;
pub mod compat;
pub mod conformance;
pub mod desired;
pub mod digest;
pub mod family;
pub mod index;
pub mod init;
pub mod locator;
pub mod relations;
pub mod revocation;
pub mod snapshot;
pub mod trust;
pub mod verify;

/// PATH `dir` walked as `verify` walks it by default
/// ([`crate::discover::walk`]): each walk finding as a `Path` entry of the
/// report, and the package roots found (sorted). What `locator`,
/// `snapshot` and `desired` do with every PATH before they verify.
pub(crate) fn walk(dir: &std::path::Path) -> (Vec<crate::report::Entry>, Vec<std::path::PathBuf>) {
    let walk = crate::discover::walk(dir, &crate::discover::WalkRules::default());
    let findings = walk
        .findings
        .into_iter()
        .map(|(path, d)| {
            crate::report::Entry::new(
                crate::report::EntryKind::Path,
                crate::verify::PackageOutcome {
                    path,
                    diagnostics: vec![d],
                    ..crate::verify::PackageOutcome::default()
                },
            )
        })
        .collect();
    (findings, walk.roots)
}

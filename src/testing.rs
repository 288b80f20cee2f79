//! Support shared by the unit tests (compiled only with `cfg(test)`).
//!
//! The corpus is found through `FORM_PACKAGE_CORPUS` (default
//! `../shared/corpus` beside the clone). When it is missing, a test that
//! needs it fails under CI (`CI` set) and otherwise says so on the terminal,
//! past the test harness's output capture, and returns.

use std::path::{Path, PathBuf};

/// The corpus root, or `None` (after saying so) when it is not there.
///
/// # Panics
/// When the corpus is missing and `CI` is set.
pub(crate) fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("FORM_PACKAGE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if dir.join("manifest.json").is_file() {
        return Some(dir);
    }
    did_not_run(&format!("no corpus at {}", dir.display()));
    None
}

/// The upstream definition cases, copied into the repository
/// (`tests/cases/current-profile-definitions.json`, provenance beside it).
pub(crate) fn definition_cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/current-profile-definitions.json")
}

/// Fails under CI; otherwise prints `CORPUS TESTS DID NOT RUN: <why>`
/// straight to stderr (not through the captured `eprintln!`).
///
/// # Panics
/// When `CI` is set.
pub(crate) fn did_not_run(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "corpus tests cannot run: {why}"
    );
    let _ = std::io::Write::write_fmt(
        &mut std::io::stderr(),
        format_args!("\n*** CORPUS TESTS DID NOT RUN: {why} (set FORM_PACKAGE_CORPUS) ***\n"),
    );
}

/// A package outcome with only its path and findings (what a renderer's
/// unit test starts from).
pub(crate) fn outcome(
    path: &str,
    diagnostics: Vec<crate::diag::Diagnostic>,
) -> crate::verify::PackageOutcome {
    crate::verify::PackageOutcome {
        path: PathBuf::from(path),
        diagnostics,
        ..Default::default()
    }
}

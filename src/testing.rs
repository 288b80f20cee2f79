//! Support shared by the unit tests (compiled only with `cfg(test)`).
//!
//! The corpus is found through `FORM_PACKAGE_CORPUS` (default
//! `../shared/corpus` beside the clone). When it is missing, a test that
//! needs it is reported ignored (`no_corpus`, set by build.rs), and under CI
//! (`CI` set) [`tests::the_corpus_is_there_under_ci`] fails.

use std::path::{Path, PathBuf};

/// The corpus root, for a test that needs it: such a test carries
/// `#[cfg_attr(no_corpus, ignore = "needs the corpus")]` (build.rs sets
/// `no_corpus` when the corpus is missing), so it is reported ignored, not
/// passed, without the corpus.
///
/// # Panics
/// When the corpus is missing all the same (removed after the build): the
/// test fails rather than pass.
pub(crate) fn corpus_root() -> PathBuf {
    let dir = std::env::var_os("FORM_PACKAGE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    assert!(
        dir.join("manifest.json").is_file(),
        "this test needs the corpus, missing at {} (set FORM_PACKAGE_CORPUS)",
        dir.display()
    );
    dir
}

/// The upstream definition cases, copied into the repository
/// (`tests/cases/current-profile-definitions.json`, provenance beside it).
pub(crate) fn definition_cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/current-profile-definitions.json")
}

#[cfg(test)]
mod tests {
    /// CI must run the corpus tests: there a missing corpus (which makes
    /// them ignored) is a failure (`.ci/run` checks it too).
    #[test]
    fn the_corpus_is_there_under_ci() {
        if std::env::var_os("CI").is_some() {
            let _ = super::corpus_root();
        }
    }
}

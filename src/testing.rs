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

/// The fixture WorkerVersion's definition and fixtures (no index) copied
/// under `dir`, its `definitionVersion` set to `version`: the copy's
/// `definition.json` (one side of a `compat` pair).
pub(crate) fn worker_definition_at(dir: &Path, version: &str) -> PathBuf {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7");
    std::fs::create_dir_all(dir.join("fixtures")).unwrap();
    for f in std::fs::read_dir(package.join("fixtures")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join("fixtures").join(f.file_name().unwrap())).unwrap();
    }
    let bytes = std::fs::read(package.join("definition.json")).unwrap();
    let mut d: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    d["definitionVersion"] = serde_json::Value::from(version);
    let file = dir.join("definition.json");
    std::fs::write(&file, serde_json::to_vec_pretty(&d).unwrap()).unwrap();
    file
}

/// The upstream definition cases, copied into the repository
/// (`tests/cases/current-profile-definitions.json`, provenance beside it):
/// its `definitions`, each `{"name", "expect", "definition"}`.
///
/// # Panics
/// When the file is missing or not that shape.
pub(crate) fn definition_cases() -> Vec<serde_json::Value> {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/current-profile-definitions.json");
    let text = std::fs::read_to_string(file).unwrap();
    let mut cases: serde_json::Value = serde_json::from_str(&text).unwrap();
    match cases["definitions"].take() {
        serde_json::Value::Array(all) => all,
        other => panic!("definitions is not an array: {other}"),
    }
}

/// A row of the corpus's `mutants-current/cases.tsv` (the columns the
/// unit tests read).
pub(crate) struct MutantRow {
    /// `case`: the folder under `mutants-current/`.
    pub case: String,
    /// `family` of the mutation.
    pub family: String,
    /// `rule` of the spec it breaks (`6.2`).
    pub rule: String,
    /// `code`: the reference's catalogue code when it fails.
    pub code: String,
    /// `expect`: `ok` or `fail`.
    pub expect: String,
}

/// The rows of `mutants-current/cases.tsv` that `keep` selects, each with
/// its `package/definition.json` parsed (a test that calls it needs the
/// corpus: [`corpus_root`]).
///
/// # Panics
/// Without the corpus; when a selected case's definition cannot be read
/// or parsed.
pub(crate) fn current_mutants(
    keep: impl Fn(&MutantRow) -> bool,
) -> Vec<(MutantRow, serde_json::Value)> {
    let dir = corpus_root().join("mutants-current");
    let tsv = std::fs::read_to_string(dir.join("cases.tsv")).unwrap();
    let rows = tsv.lines().skip(1).map(|line| {
        let cols: Vec<&str> = line.split('\t').collect();
        MutantRow {
            case: cols[0].to_owned(),
            family: cols[3].to_owned(),
            rule: cols[4].to_owned(),
            code: cols[5].to_owned(),
            expect: cols[8].to_owned(),
        }
    });
    let read = |row: MutantRow| {
        let file = dir.join(&row.case).join("package/definition.json");
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let definition = serde_json::from_str(&text).unwrap();
        (row, definition)
    };
    rows.filter(|r| keep(r)).map(read).collect()
}

/// A file's source as verification keeps it: `text`'s bytes and, when it
/// parses strictly, its span map (what a located finding reads).
pub(crate) fn source(text: &str) -> crate::package::Source {
    let bytes = text.as_bytes().to_vec();
    let spans = crate::json::strict::parse(&bytes).ok().map(|p| p.spans);
    crate::package::Source { bytes, spans }
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

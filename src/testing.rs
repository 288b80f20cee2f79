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
/// its `package/definition.json` parsed; `None` (said by [`corpus_dir`])
/// without the corpus.
///
/// # Panics
/// When a selected case's definition cannot be read or parsed.
pub(crate) fn current_mutants(
    keep: impl Fn(&MutantRow) -> bool,
) -> Option<Vec<(MutantRow, serde_json::Value)>> {
    let dir = corpus_dir()?.join("mutants-current");
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
    Some(rows.filter(|r| keep(r)).map(read).collect())
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

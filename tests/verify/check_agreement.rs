//! `check definition.json` agrees with `verify` on the definition of every
//! corpus package, mutant and engine case: the same error codes at the same
//! JSON Pointers in the definition file (issue 12 part 3, "the same
//! findings, codes and locations as inside a package"). Differences that
//! are the point of a lone document are excluded by rule, not by case:
//! findings about how the index lists fixtures (FD403, FD404: there is no
//! index), a definition that is not strict I-JSON (FD020 payload inside a
//! package, FD012 document on its own), and a definition whose package
//! index selects another lane than its own `apiVersion` implies (a lone
//! definition has no index to say so).

use crate::common;

use std::path::{Path, PathBuf};

use form_package::codes::Code;
use form_package::document::{self, DocKind};
use form_package::profile::IndexProfile;
use serde_json::Value;

fn package_dirs(corpus: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(corpus.join("manifest.json")).unwrap())
            .unwrap();
    for p in manifest.as_array().unwrap() {
        dirs.push(corpus.join(p["path"].as_str().unwrap()));
    }
    for set in ["mutants", "mutants-current", "engine"] {
        let mut cases: Vec<PathBuf> = std::fs::read_dir(corpus.join(set))
            .unwrap()
            .map(|e| e.unwrap().path().join("package"))
            .filter(|p| p.is_dir())
            .collect();
        cases.sort();
        dirs.extend(cases);
    }
    dirs
}

fn errors_in(diags: &[form_package::diag::Diagnostic], file: &str) -> Vec<(Code, String)> {
    let mut v: Vec<(Code, String)> = diags
        .iter()
        .filter(|d| d.is_error() && d.file.as_deref() == Some(file))
        .filter(|d| !matches!(d.code, Code::FixtureUnlisted | Code::FixtureMediaType))
        .map(|d| {
            let code = if d.code == Code::InvalidJsonPayload {
                Code::InvalidIJson
            } else {
                d.code
            };
            (code, d.pointer.as_str().to_owned())
        })
        .collect();
    v.sort();
    v
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn check_agrees_with_verify_on_every_corpus_definition() {
    let corpus = common::corpus_root();
    use rayon::prelude::*;
    // Per package: None skipped (not a definition), Some(Err) another lane,
    // Some(Ok(None)) agrees, Some(Ok(Some(diff))) disagrees.
    let results: Vec<Option<Result<Option<String>, ()>>> = package_dirs(&corpus)
        .par_iter()
        .map(|dir| {
            let index_text = std::fs::read_to_string(dir.join("package-index.json")).ok()?;
            let index = serde_json::from_str::<Value>(&index_text).ok()?;
            let def_path = index["definitionPath"]
                .as_str()
                .unwrap_or("definition.json");
            let bytes = std::fs::read(dir.join(def_path)).ok()?;
            let display = dir.join(def_path).display().to_string();
            let checked = document::check_document(&display, bytes, Some(dir)).unwrap();
            let unrecognised = checked
                .outcome
                .diagnostics
                .iter()
                .any(|d| d.code == Code::UnrecognizedDocument);
            if unrecognised || checked.kind.is_some_and(|k| k != DocKind::Definition) {
                return None; // definitionPath names another kind of document
            }
            if let (Some(api), Some(actual)) = (
                checked.api_version.as_deref(),
                index["apiVersion"]
                    .as_str()
                    .and_then(IndexProfile::from_api_version),
            ) {
                let chosen = form_package::index::profile_for_definition(api);
                let lane =
                    |p: IndexProfile| (p == IndexProfile::V1alpha4, p == IndexProfile::V1alpha5);
                if lane(chosen) != lane(actual) {
                    return Some(Err(()));
                }
            }
            let verified = form_package::verify::verify_package(dir);
            let name = Path::new(def_path).file_name()?.to_str()?;
            let got = errors_in(&checked.outcome.diagnostics, name);
            let want = errors_in(&verified.diagnostics, def_path);
            Some(Ok((got != want).then(|| {
                format!("{}: check {got:?}, verify {want:?}", dir.display())
            })))
        })
        .collect();
    let compared = results.iter().filter(|r| matches!(r, Some(Ok(_)))).count();
    let other_lane = results
        .iter()
        .filter(|r| matches!(r, Some(Err(()))))
        .count();
    let failures: Vec<String> = results
        .into_iter()
        .filter_map(|r| r.and_then(Result::ok).flatten())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 580, "{compared} definitions compared");
    assert!(other_lane <= 8, "{other_lane} skipped for their lane");
}

//! The runner's gating (`src/checks/mod.rs`): a check is skipped only when
//! a fact it needs failed, never because of an unrelated error elsewhere
//! (T1 finding C14: an unlisted file used to skip the fixtures). Runs on
//! the packages shipped in `fixtures/` (no corpus needed).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::print_stderr
)] // test code: a panic is a failed run

mod common;
use common::{copy_package, fixtures, reindex, run_in};

use serde_json::Value;

/// The codes of `verify --format json` of `pkg` (run in its parent), and
/// the run's `skipped` records.
fn codes_and_skipped(dir: &std::path::Path) -> (Vec<String>, String, Option<i32>) {
    let out = run_in(dir, &["verify", "--format", "json", "pkg"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let package = &report["packages"][0];
    let codes = package["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect();
    (codes, package["skipped"].to_string(), out.status.code())
}

#[test]
fn an_unlisted_file_does_not_skip_the_fixtures() {
    let base = fixtures().join("packages/versionless/queue-consumer-0.2.0-03c2f61a47b7");
    let (tmp, pkg) = copy_package(&base);
    // A positive fixture the desired schema refuses (as the FD410 golden case).
    let desired = pkg.join("fixtures/desired.json");
    let mut v: Value = serde_json::from_slice(&std::fs::read(&desired).unwrap()).unwrap();
    v["maxRetries"] = Value::from(1000);
    std::fs::write(&desired, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    reindex(&pkg);
    let (codes, _, status) = codes_and_skipped(tmp.path());
    assert_eq!(codes, ["FD410"], "near miss: the fixture alone");
    assert_eq!(status, Some(1));
    // An unrelated error: a file the index does not list.
    std::fs::write(pkg.join("stray.txt"), b"s").unwrap();
    let (codes, skipped, status) = codes_and_skipped(tmp.path());
    assert_eq!(codes, ["FD410", "FD018"], "{skipped}");
    assert!(!skipped.contains("fixtures"), "{skipped}");
    assert_eq!(status, Some(1));
}

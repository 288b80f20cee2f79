//! Per-code golden cases (issue 11): each folder `fixtures/golden/<ID>-<name>/`
//! holds `case.json` (a clean base package under `fixtures/packages/` and
//! the edits that make one rule fire) and `expected.json` (the findings of
//! `form-package verify --format json` on the edited copy: code, file,
//! pointer, line, column and message). Every folder is one case of the one
//! test below; `BLESS=1 cargo test --test golden` rewrites `expected.json`.
//!
//! `case.json`: `{"base": "fixtures/packages/…", "edits": [EDIT…],
//! "reindex": true}`, where an EDIT is `{"file", "pointer", "value"}` (set
//! the member at `pointer` of that JSON file, the file then pretty-printed),
//! `{"file", "pointer", "remove": true}` or `{"file", "text"}` (write
//! the file's bytes). With `"reindex": true` the index is rebuilt after the
//! edits (sizes, digests, `schemaDigest`), so only the intended rule fires.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::print_stderr
)] // test code: a panic is a failed test, printing is the report

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden")
}

/// Sets or removes the member at `pointer` (its parent must exist).
fn edit_pointer(doc: &mut Value, pointer: &str, value: Option<Value>) {
    let (parent, last) = pointer.rsplit_once('/').expect("pointer starts with /");
    let last = last.replace("~1", "/").replace("~0", "~");
    let target = doc
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"));
    match (target, value) {
        (Value::Object(m), Some(v)) => {
            m.insert(last, v);
        }
        (Value::Object(m), None) => {
            m.shift_remove(&last);
        }
        (Value::Array(a), Some(v)) => {
            let i: usize = last.parse().unwrap();
            if i == a.len() {
                a.push(v);
            } else {
                a[i] = v;
            }
        }
        (Value::Array(a), None) => {
            a.remove(last.parse::<usize>().unwrap());
        }
        _ => panic!("{parent} is not a container"),
    }
}

fn apply(case: &Value, dir: &Path) {
    for e in case["edits"].as_array().into_iter().flatten() {
        let file = dir.join(e["file"].as_str().unwrap());
        if let Some(text) = e["text"].as_str() {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, text).unwrap();
            continue;
        }
        let mut doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let pointer = e["pointer"].as_str().unwrap();
        let value = (!e["remove"].as_bool().unwrap_or(false)).then(|| e["value"].clone());
        edit_pointer(&mut doc, pointer, value);
        let mut bytes = serde_json::to_vec_pretty(&doc).unwrap();
        bytes.push(b'\n');
        std::fs::write(&file, bytes).unwrap();
    }
    if case["reindex"].as_bool().unwrap_or(false) {
        common::reindex(dir);
    }
}

/// The findings of `verify --format json DIR` as the golden fields.
fn findings(dir: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_form-package"))
        .args(["verify", "--format", "json"])
        .arg(dir)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = report["packages"][0]["diagnostics"].as_array().unwrap();
    Value::Array(
        diags
            .iter()
            .map(|d| {
                json!({
                    "code": d["code"], "file": d["file"], "pointer": d["pointer"],
                    "line": d.get("line").cloned().unwrap_or(Value::Null),
                    "column": d.get("column").cloned().unwrap_or(Value::Null),
                    "message": d["message"],
                })
            })
            .collect(),
    )
}

#[test]
fn every_golden_case_gives_its_expected_findings() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("case.json").is_file())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no golden cases");
    let mut failed = Vec::new();
    for case_dir in &cases {
        let name = case_dir.file_name().unwrap().to_str().unwrap().to_owned();
        let case: Value =
            serde_json::from_slice(&std::fs::read(case_dir.join("case.json")).unwrap()).unwrap();
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(case["base"].as_str().unwrap());
        let (_tmp, dir) = common::copy_package(&base);
        apply(&case, &dir);
        let actual = findings(&dir);
        let expected_path = case_dir.join("expected.json");
        if bless {
            let mut bytes = serde_json::to_vec_pretty(&actual).unwrap();
            bytes.push(b'\n');
            std::fs::write(&expected_path, bytes).unwrap();
        }
        let expected: Value =
            serde_json::from_slice(&std::fs::read(&expected_path).unwrap()).unwrap();
        // The folder is named after the code it shows, and that code fires.
        let code = name.split('-').next().unwrap();
        let fired = actual.as_array().unwrap().iter().any(|d| d["code"] == code);
        if actual != expected || !fired {
            failed.push(format!(
                "== {name} (code fired: {fired})\n-- expected\n{}\n-- actual\n{}",
                serde_json::to_string_pretty(&expected).unwrap(),
                serde_json::to_string_pretty(&actual).unwrap()
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

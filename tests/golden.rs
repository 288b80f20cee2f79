//! Per-code golden cases (issue 11): each folder `fixtures/golden/<ID>-<name>/`
//! holds `case.json` (a clean base package under `fixtures/packages/` and
//! the edits that make one rule fire) and `expected.json` (the findings of
//! `form-package verify --format json` on the edited copy: code, file,
//! pointer, line, column and message). Every folder is one case of the one
//! test below; `BLESS=1 cargo test --test golden` rewrites `expected.json`.
//!
//! `case.json`: `{"base": "fixtures/packages/…", "edits": [EDIT…],
//! "reindex": true}`. The EDITs run in order on a copy of the base package;
//! `file` is a path relative to the package root (`""` is the root itself).
//! An EDIT is one of:
//! - `{"file", "pointer", "value"}`: set the member at `pointer` of that JSON
//!   file (its parent must exist; a last token `-` or the array's length
//!   appends), the file then pretty-printed; with `"copies": N` the value is
//!   appended N times, every `{n}` in its strings replaced by the copy number
//!   zero-padded to the width of N-1 (so generated paths stay sorted);
//! - `{"file", "pointer", "remove": true}`: remove that member;
//! - `{"file", "text"}` or `{"file", "hex"}`: write the file's bytes (UTF-8
//!   text, or bytes given as hex digits for content that is not UTF-8),
//!   replacing whatever is there, even a directory (the root included);
//! - `{"file", "replace", "with"}`: substitute `with` for the one occurrence
//!   of the text `replace` in the file (text a JSON edit cannot produce,
//!   such as a duplicate member; a float like `3.0` in a `value` stays
//!   `3.0`);
//! - `{"file", "pad": N}`: append spaces until the file is N bytes (the
//!   4 MiB and 16 MiB read limits without committing a large file);
//! - `{"file", "delete": true}`: remove the file or directory tree;
//! - `{"file", "symlink": "target"}`: replace it by a symlink to `target`;
//! - `{"file", "fifo": true}`: replace it by a named pipe;
//! - `{"file", "mode": "755"}`: set its permission bits (octal);
//! - `{"reindex": true}`: rebuild the index now, so later edits can break
//!   the index of an otherwise consistent package.
//!
//! With the case-level `"reindex": true` the index is rebuilt after the
//! edits (sizes, digests, `formRef` from the definition), so only the
//! intended rule fires; without it the index keeps what the edits left.
//!
//! `GOLDEN_KEEP=DIR` keeps each edited package as `DIR/<folder>` (the
//! same file system as the temp dir), to run the reference on it by hand.
//!
//! A second test checks every folder is named `<ID>-<name>` exactly as
//! `form-package rules` prints one code.
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

/// Sets or removes the member at `pointer` (its parent must exist; `-` or
/// the length of an array appends).
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
            let i: usize = if last == "-" {
                a.len()
            } else {
                last.parse().unwrap()
            };
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

/// `value` with every `{n}` in its strings replaced by `n`.
fn numbered(value: &Value, n: &str) -> Value {
    match value {
        Value::String(s) => Value::String(s.replace("{n}", n)),
        Value::Array(a) => Value::Array(a.iter().map(|v| numbered(v, n)).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), numbered(v, n))).collect())
        }
        other => other.clone(),
    }
}

/// Bytes from hex digits (whitespace ignored).
fn from_hex(hex: &str) -> Vec<u8> {
    let digits: Vec<u8> = hex
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| u8::try_from((b as char).to_digit(16).expect("hex digit")).unwrap())
        .collect();
    assert!(digits.len() % 2 == 0, "odd number of hex digits: {hex}");
    digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect()
}

/// Removes whatever is at `path` (file, symlink, fifo or directory tree).
fn clear(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path).unwrap(),
        Ok(_) => std::fs::remove_file(path).unwrap(),
        Err(_) => {}
    }
}

/// Replaces whatever is at `path` by a file holding `bytes`.
fn write_file(path: &Path, bytes: &[u8]) {
    clear(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Applies one EDIT of the module doc to the package at `dir`.
fn apply_edit(e: &Value, dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if e["reindex"].as_bool() == Some(true) {
        common::reindex(dir);
        return;
    }
    let rel = e["file"].as_str().expect("edit without \"file\"");
    let file = if rel.is_empty() {
        dir.to_path_buf()
    } else {
        dir.join(rel)
    };
    if let Some(text) = e["text"].as_str() {
        write_file(&file, text.as_bytes());
    } else if let Some(hex) = e["hex"].as_str() {
        write_file(&file, &from_hex(hex));
    } else if let Some(from) = e["replace"].as_str() {
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(
            text.matches(from).count(),
            1,
            "{rel}: {from:?} must occur once"
        );
        let to = e["with"].as_str().expect("replace without \"with\"");
        std::fs::write(&file, text.replacen(from, to, 1)).unwrap();
    } else if let Some(len) = e["pad"].as_u64() {
        let mut bytes = std::fs::read(&file).unwrap();
        bytes.resize(usize::try_from(len).unwrap(), b' ');
        std::fs::write(&file, bytes).unwrap();
    } else if e["delete"].as_bool() == Some(true) {
        assert!(
            std::fs::symlink_metadata(&file).is_ok(),
            "{rel}: nothing to delete"
        );
        clear(&file);
    } else if let Some(target) = e["symlink"].as_str() {
        clear(&file);
        std::os::unix::fs::symlink(target, &file).unwrap();
    } else if e["fifo"].as_bool() == Some(true) {
        clear(&file);
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &file,
            rustix::fs::Mode::from_raw_mode(0o644),
        )
        .unwrap();
    } else if let Some(mode) = e["mode"].as_str() {
        let mode = u32::from_str_radix(mode, 8).expect("octal mode");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
    } else {
        let mut doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let pointer = e["pointer"].as_str().expect("edit of unknown kind");
        if let Some(copies) = e["copies"].as_u64() {
            let width = copies.saturating_sub(1).to_string().len();
            for n in 0..copies {
                let value = numbered(&e["value"], &format!("{n:0width$}"));
                edit_pointer(&mut doc, pointer, Some(value));
            }
        } else {
            let value = (!e["remove"].as_bool().unwrap_or(false)).then(|| e["value"].clone());
            edit_pointer(&mut doc, pointer, value);
        }
        let mut bytes = serde_json::to_vec_pretty(&doc).unwrap();
        bytes.push(b'\n');
        std::fs::write(&file, bytes).unwrap();
    }
}

fn apply(case: &Value, dir: &Path) {
    for e in case["edits"].as_array().into_iter().flatten() {
        apply_edit(e, dir);
    }
    if case["reindex"].as_bool().unwrap_or(false) {
        common::reindex(dir);
    }
}

/// With `GOLDEN_KEEP=DIR`, moves the edited package to `DIR/<folder>` (for
/// running the reference verifier on it by hand); otherwise nothing.
fn keep(dir: &Path, name: &str) {
    let Some(keep) = std::env::var_os("GOLDEN_KEEP") else {
        return;
    };
    let to = Path::new(&keep).join(name);
    std::fs::create_dir_all(&keep).unwrap();
    clear(&to);
    std::fs::rename(dir, &to).unwrap();
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
        keep(&dir, &name);
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

/// Every folder is named `<ID>-<name>` of one code, exactly as `form-package
/// rules` prints the two columns, and holds a case and its expected findings.
#[test]
fn every_golden_folder_is_named_after_one_code() {
    let out = Command::new(env!("CARGO_BIN_EXE_form-package"))
        .arg("rules")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let names: Vec<String> = text
        .lines()
        .skip(1)
        .map(|line| {
            let mut cols = line.split_whitespace();
            format!("{}-{}", cols.next().unwrap(), cols.next().unwrap())
        })
        .collect();
    assert!(
        names.iter().any(|n| n == "FD213-open-object-schema"),
        "{text}"
    );
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(golden_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if !names.contains(&name) {
            bad.push(format!(
                "{name}: no code of `form-package rules` has this id and name"
            ));
        }
        for file in ["case.json", "expected.json"] {
            if !path.join(file).is_file() {
                bad.push(format!("{name}: no {file}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

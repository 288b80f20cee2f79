//! Per-code golden cases (issue 11): each folder `fixtures/golden/<ID>-<name>/`
//! holds `case.json` (a clean base package under `fixtures/packages/` and
//! the edits that make one rule fire) and `expected.json` (the findings of
//! `form-package verify --format json` on the edited copy: code, file,
//! pointer, line, column and message). Every folder is one generated test
//! named after it (`harness = false`, built with libtest-mimic, so
//! `cargo test --test golden FD2` runs a few); `BLESS=1 cargo test --test
//! golden` rewrites `expected.json` (`GOLDEN=FD6` limits a run, and a
//! bless, to the folders named so).
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
//!
//! Codes of the other commands (`check`, `validate-revocation`,
//! `validate-revocation-checkpoint`, `conformance`, `family`, `trust`,
//! `index`, and `verify` over trees) are command cases: `case.json` holds
//! `"command": [ARG…]` (the arguments after the binary), run in a fresh
//! working directory W with `NO_COLOR=1`. W is built from, in order:
//! `"base"` (a directory of the repository copied as W itself; optional),
//! `"files"` (`{"DEST": "SRC"}`: a repository file or directory copied to
//! W/DEST), every other file of the golden folder (the case's own inputs,
//! so arguments name them by relative path), `"delete"` (`[PATH…]`: files
//! or directories of W removed), then `"edits"` (the package
//! edits above, relative to W). `"republish": "all"` (or `"candidates"`)
//! then replaces, after the edits, each changed `definition.json`'s old
//! RFC 8785 digest by its new one in every JSON file of W (or only in
//! candidate sets), repeated while that changes another definition, and
//! re-indexes every package of W: a family republished with exactly one
//! fault. `"symlinks": {"LINK": "TARGET"}`, `"chmod": {"PATH": "755"}` and
//! `"unprivileged": true` (run as uid/gid 65534 via `setpriv` when the test
//! runs as root, so permission bits bite) shape a tree for the walk codes.
//!
//! A command case's `expected.json` is `{"exit": N, "findings": [...]}`,
//! the findings taken from what the command prints, by its shape:
//! - the `--format json` report (`verify`, `check`, `validate-revocation*`):
//!   every package's diagnostics as `path` (the package's PATH), `code`,
//!   `file`, `pointer`, `line`, `column`, `message`;
//! - the `family --format json` document: every finding as `code`, `step`,
//!   `file`, `pointer`, `line`, `column` (of its `location`) and `message`;
//! - the `compat --format json` document: every pair's change records and
//!   findings as `code`, `file`, `pointer`, `line`, `column` (in NEW, else
//!   in OLD), `other` (the other side's `file:line:column pointer`) and
//!   `message`, then the findings outside the pairs as for `verify`;
//! - `trust`'s error document on stderr (it has no other format, and no
//!   location): `code` (its `diagnostic`), `class` (its error class) and
//!   `message` (`trust verify-set` prints the report, read as above);
//! - otherwise (`conformance` with a manifest it cannot run, whose
//!   `--format json` document carries them as `manifestDiagnostics` too,
//!   and `index`, which prints findings only as human text on stderr) the human blocks on
//!   stderr: `code`, `message` (the `×` line) and `location` (the `help:`
//!   line that says where: `FILE:LINE:COL: …` or `FILE at POINTER`).
//!
//! W's absolute path never reaches `expected.json`: arguments are relative
//! to W, and any occurrence of W's path in a string is written `{dir}`.

use crate::common;

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
    let out = Command::new(crate::common::BIN)
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

/// One generated test per folder (`golden::FD213-open-object-schema`; a
/// filter such as `cargo test --test golden FD6` runs some), plus the
/// naming test. With `BLESS` set, each run case rewrites its
/// `expected.json` before comparing.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    // `GOLDEN=FD6` runs (and blesses) only the folders whose name starts so.
    let only = std::env::var("GOLDEN").ok();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("case.json").is_file())
        .filter(|p| {
            only.as_deref()
                .is_none_or(|o| p.file_name().unwrap().to_string_lossy().starts_with(o))
        })
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no golden cases");
    let mut trials: Vec<libtest_mimic::Trial> = cases
        .into_iter()
        .map(|case_dir| {
            let name = case_dir.file_name().unwrap().to_str().unwrap().to_owned();
            libtest_mimic::Trial::test(name, move || run_case(&case_dir))
        })
        .collect();
    trials.push(libtest_mimic::Trial::test(
        "every_golden_folder_is_named_after_one_code",
        || {
            every_golden_folder_is_named_after_one_code();
            Ok(())
        },
    ));
    trials
}

/// Runs one folder: its findings must equal `expected.json` and include the
/// folder's code.
fn run_case(case_dir: &Path) -> Result<(), libtest_mimic::Failed> {
    let bless = std::env::var_os("BLESS").is_some();
    let name = case_dir.file_name().unwrap().to_str().unwrap().to_owned();
    let case: Value =
        serde_json::from_slice(&std::fs::read(case_dir.join("case.json")).unwrap()).unwrap();
    let actual = if case.get("command").is_some() {
        command_case(case_dir, &case)
    } else {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(case["base"].as_str().unwrap());
        let (_tmp, dir) = common::copy_package(&base);
        apply(&case, &dir);
        let found = findings(&dir);
        keep(&dir, &name);
        found
    };
    let expected_path = case_dir.join("expected.json");
    if bless {
        let mut bytes = serde_json::to_vec_pretty(&actual).unwrap();
        bytes.push(b'\n');
        std::fs::write(&expected_path, bytes).unwrap();
    }
    let expected: Value = serde_json::from_slice(&std::fs::read(&expected_path).unwrap()).unwrap();
    // The folder is named after the code it shows, and that code fires.
    let code = name.split('-').next().unwrap();
    let listed = actual.get("findings").unwrap_or(&actual);
    let fired = listed.as_array().unwrap().iter().any(|d| d["code"] == code);
    if actual != expected || !fired {
        return Err(format!(
            "== {name} (code fired: {fired})\n-- expected\n{}\n-- actual\n{}",
            serde_json::to_string_pretty(&expected).unwrap(),
            serde_json::to_string_pretty(&actual).unwrap()
        )
        .into());
    }
    Ok(())
}

fn every_golden_folder_is_named_after_one_code() {
    let out = Command::new(crate::common::BIN)
        .arg("rules")
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_WORKSPACE")
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

// ------------------------------------------------------------ command cases

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Copies a file, or a directory tree, to `to`.
fn copy_any(from: &Path, to: &Path) {
    if from.is_dir() {
        common::copy_dir(from, to);
    } else {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, to).unwrap();
    }
}

/// Every file below `dir` (recursively), sorted.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                stack.push(e.path());
            } else if t.is_file() {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

/// The RFC 8785 digest of a JSON file, `None` when it does not parse.
fn canonical_digest(path: &Path) -> Option<String> {
    let v = form_package::json::strict::parse_value(&std::fs::read(path).ok()?).ok()?;
    let bytes = form_package::canonical::canonicalize(&v).ok()?;
    Some(form_package::canonical::sha256_digest(&bytes))
}

/// The digest of every `definition.json` below `dir`.
fn definition_digests(dir: &Path) -> Vec<(PathBuf, Option<String>)> {
    files_below(dir)
        .into_iter()
        .filter(|f| f.file_name().is_some_and(|n| n == "definition.json"))
        .map(|f| {
            let d = canonical_digest(&f);
            (f, d)
        })
        .collect()
}

/// Replaces `old` by `new` in the JSON files of `dir` (only candidate sets
/// when `candidates_only`); a `definition.json` changed that way changes
/// its own digest, which is replaced in turn.
fn propagate(dir: &Path, old: &str, new: &str, candidates_only: bool) {
    if old == new {
        return;
    }
    for f in files_below(dir) {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".json") || name == "package-index.json" {
            continue;
        }
        if candidates_only && !name.starts_with("candidate-set") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        if !text.contains(old) {
            continue;
        }
        let before = canonical_digest(&f);
        std::fs::write(&f, text.replace(old, new)).unwrap();
        if name == "definition.json" {
            if let (Some(b), Some(a)) = (before, canonical_digest(&f)) {
                propagate(dir, &b, &a, candidates_only);
            }
        }
    }
}

/// Builds the working directory of a command case (see the module doc).
fn build_workdir(case_dir: &Path, case: &Value, work: &Path) {
    if let Some(base) = case["base"].as_str() {
        common::copy_dir(&repo_root().join(base), work);
    } else {
        std::fs::create_dir_all(work).unwrap();
    }
    for (dest, src) in case["files"].as_object().into_iter().flatten() {
        copy_any(&repo_root().join(src.as_str().unwrap()), &work.join(dest));
    }
    for f in files_below(case_dir) {
        let rel = f.strip_prefix(case_dir).unwrap();
        if rel != Path::new("case.json") && rel != Path::new("expected.json") {
            copy_any(&f, &work.join(rel));
        }
    }
    for gone in case["delete"].as_array().into_iter().flatten() {
        let path = work.join(gone.as_str().unwrap());
        if path.is_dir() {
            std::fs::remove_dir_all(&path).unwrap();
        } else {
            std::fs::remove_file(&path).unwrap();
        }
    }
    let republish = case["republish"].as_str();
    let before = republish.map(|_| definition_digests(work));
    apply(case, work);
    if let (Some(mode), Some(before)) = (republish, before) {
        for (file, old) in before {
            if let (Some(old), Some(new)) = (old, canonical_digest(&file)) {
                propagate(work, &old, &new, mode == "candidates");
            }
        }
        for f in files_below(work) {
            if f.file_name().is_some_and(|n| n == "package-index.json") {
                common::reindex(f.parent().unwrap());
            }
        }
    }
    for (link, target) in case["symlinks"].as_object().into_iter().flatten() {
        std::os::unix::fs::symlink(target.as_str().unwrap(), work.join(link)).unwrap();
    }
}

/// Sets the `"chmod"` modes of a case (`restore`: back to 0755).
fn chmod(case: &Value, work: &Path, restore: bool) {
    use std::os::unix::fs::PermissionsExt;
    for (path, mode) in case["chmod"].as_object().into_iter().flatten() {
        let mode = if restore {
            0o755
        } else {
            u32::from_str_radix(mode.as_str().unwrap(), 8).unwrap()
        };
        std::fs::set_permissions(work.join(path), std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").unwrap().uid() == 0
}

/// Runs a command case and returns `{"exit", "findings"}`.
fn command_case(case_dir: &Path, case: &Value) -> Value {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    build_workdir(case_dir, case, &work);
    let args: Vec<&str> = case["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let unprivileged = case["unprivileged"].as_bool().unwrap_or(false) && is_root();
    let mut cmd = if unprivileged {
        use std::os::unix::fs::PermissionsExt;
        // The unprivileged user must reach W through the temporary directory.
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(crate::common::BIN);
        c
    } else {
        Command::new(crate::common::BIN)
    };
    chmod(case, &work, false);
    let out = cmd
        .args(&args)
        .current_dir(&work)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_WORKSPACE")
        .output()
        .unwrap();
    chmod(case, &work, true);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    // `trust verify-set` prints the report (`--format json`) as the
    // other report commands do; the other `trust` commands one error
    // document on stderr.
    let findings = if args.first() == Some(&"trust") && args.get(1) != Some(&"verify-set") {
        trust_findings(&stderr)
    } else if let Ok(doc) = serde_json::from_str::<Value>(&stdout)
        .map_err(drop)
        .and_then(|d: Value| {
            // `conformance --format json` with a refused manifest: its
            // findings are read from the human blocks on stderr.
            if d.get("manifestDiagnostics").is_some() {
                Err(())
            } else {
                Ok(d)
            }
        })
    {
        if doc.get("findings").is_some() {
            family_findings(&doc)
        } else if doc.get("pairs").is_some() {
            compat_findings(&doc)
        } else {
            report_findings(&doc)
        }
    } else {
        text_findings(&stderr)
    };
    let mut result = json!({"exit": out.status.code(), "findings": findings});
    normalise(&mut result, &work.to_string_lossy());
    result
}

/// `{dir}` for the working directory's absolute path, in every string.
fn normalise(v: &mut Value, work: &str) {
    match v {
        Value::String(s) if s.contains(work) => *s = s.replace(work, "{dir}"),
        Value::Array(a) => a.iter_mut().for_each(|x| normalise(x, work)),
        Value::Object(m) => m.values_mut().for_each(|x| normalise(x, work)),
        _ => {}
    }
}

fn or_null(v: &Value, key: &str) -> Value {
    v.get(key).cloned().unwrap_or(Value::Null)
}

/// The diagnostics of a `--format json` report, every package's.
fn report_findings(doc: &Value) -> Value {
    let mut out = Vec::new();
    for p in doc["packages"].as_array().into_iter().flatten() {
        for d in p["diagnostics"].as_array().into_iter().flatten() {
            out.push(json!({
                "path": p["path"], "code": d["code"], "file": d["file"], "pointer": d["pointer"],
                "line": or_null(d, "line"), "column": or_null(d, "column"), "message": d["message"],
            }));
        }
    }
    Value::Array(out)
}

/// The records and findings of a `compat --format json` document: each
/// pair's change records and findings (located in NEW, else in OLD, the
/// other side's location as `other`), then the findings outside the pairs.
fn compat_findings(doc: &Value) -> Value {
    let mut out = Vec::new();
    for p in doc["pairs"].as_array().into_iter().flatten() {
        let records = p["changes"].as_array().into_iter().flatten();
        for r in records.chain(p["findings"].as_array().into_iter().flatten()) {
            let (at, other) = if r["new"].is_null() {
                (&r["old"], &Value::Null)
            } else {
                (&r["new"], &r["old"])
            };
            out.push(json!({
                "code": r["code"], "file": or_null(at, "file"), "pointer": or_null(at, "pointer"),
                "line": or_null(at, "line"), "column": or_null(at, "column"),
                "other": if other.is_null() { Value::Null } else {
                    json!(format!("{}:{}:{} {}", other["file"].as_str().unwrap_or(""), other["line"], other["column"], other["pointer"].as_str().unwrap_or("")))
                },
                "message": r["message"],
            }));
        }
    }
    for o in doc["outcomes"].as_array().into_iter().flatten() {
        for d in o["diagnostics"].as_array().into_iter().flatten() {
            out.push(json!({
                "path": o["path"], "code": d["code"], "file": d["file"], "pointer": d["pointer"],
                "line": or_null(d, "line"), "column": or_null(d, "column"), "message": d["message"],
            }));
        }
    }
    Value::Array(out)
}

/// The findings of a `family --format json` document.
fn family_findings(doc: &Value) -> Value {
    let mut out = Vec::new();
    for f in doc["findings"].as_array().into_iter().flatten() {
        let at = &f["location"];
        out.push(json!({
            "code": f["code"], "step": f["step"], "file": or_null(at, "file"),
            "pointer": or_null(at, "pointer"), "line": or_null(at, "line"),
            "column": or_null(at, "column"), "message": f["message"],
        }));
    }
    Value::Array(out)
}

/// `trust`'s one error document on stderr (no location: it has none).
fn trust_findings(stderr: &str) -> Value {
    match serde_json::from_str::<Value>(stderr) {
        Ok(e) if e.get("diagnostic").is_some() => json!([{
            "code": e["diagnostic"], "class": e["code"], "message": e["message"],
        }]),
        _ => json!([]),
    }
}

/// The human blocks on stderr: a `FDnnn name` line, the `×` message (its
/// wrapped lines joined) and the `help:` line that says where.
fn text_findings(stderr: &str) -> Value {
    let mut out = Vec::new();
    let lines: Vec<&str> = stderr.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let mut words = line.split(' ');
        let (Some(code), Some(_name), None) = (words.next(), words.next(), words.next()) else {
            continue;
        };
        if !(code.len() == 5
            && code.starts_with("FD")
            && code[2..].bytes().all(|b| b.is_ascii_digit()))
        {
            continue;
        }
        let mut message = String::new();
        let mut location = Value::Null;
        for l in &lines[i + 1..] {
            let t = l.trim();
            if let Some(m) = t.strip_prefix("× ") {
                message = m.to_owned();
            } else if let Some(h) = t.strip_prefix("help: ") {
                location = h.into();
                break;
            } else if t.starts_with("FD") || t.starts_with("form-package:") {
                break;
            } else if !message.is_empty()
                && !t.is_empty()
                && !t.starts_with(['╭', '│', '·', '╰'])
                && !t.chars().next().is_some_and(|c| c.is_ascii_digit())
            {
                message.push(' ');
                message.push_str(t);
            }
        }
        out.push(json!({"code": code, "message": message, "location": location}));
    }
    Value::Array(out)
}

//! Agreement with the real corpus (`../shared/corpus`): every published
//! package gives its manifest verdict, every digest reproduces, and every
//! mutant gives the reference verdict.
//!
//! The corpus is found through `FORM_PACKAGE_CORPUS` (default
//! `../shared/corpus` beside the clone). When it is missing, the tests are
//! reported ignored (`no_corpus`, build.rs); the same code paths are covered
//! on a fresh clone by the tests on `fixtures/`.

use crate::common;

use std::path::{Path, PathBuf};

use form_package::verify::verify_package;
use serde_json::Value;

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// The corpus manifest's entries that match `keep` (e.g. the packages
/// expected to verify, `"expect": "ok"`).
fn manifest_entries(root: &Path, keep: fn(&Value) -> bool) -> Vec<Value> {
    let manifest = read_json(&root.join("manifest.json"));
    manifest
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| keep(e))
        .cloned()
        .collect()
}

fn codes_of(o: &form_package::verify::PackageOutcome) -> String {
    o.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            format!(
                "{} {} {:?} {}",
                d.code.info().id,
                d.code.info().spec_code,
                d.file,
                d.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n    ")
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn every_corpus_package_gives_its_manifest_verdict() {
    let root = common::corpus_root();
    let manifest = read_json(&root.join("manifest.json"));
    let mut bad = Vec::new();
    let mut n = 0;
    for e in manifest.as_array().unwrap() {
        n += 1;
        let dir = root.join(e["path"].as_str().unwrap());
        let o = verify_package(&dir);
        let got = if o.has_errors() { "fail" } else { "ok" };
        if got != e["expect"] {
            bad.push(format!(
                "{}: want {}, got {got}\n    {}",
                e["path"],
                e["expect"],
                codes_of(&o)
            ));
            continue;
        }
        if got == "ok" {
            let want = e["computedPackageDigest"].as_str().unwrap();
            let digest = o.report.as_ref().map(|r| r.package_digest.as_str());
            if digest != Some(want) {
                bad.push(format!(
                    "{}: packageDigest {digest:?}, manifest {want}",
                    e["path"]
                ));
            }
        }
    }
    assert_eq!(n, 310, "manifest size");
    assert!(
        bad.is_empty(),
        "{} of {n} disagree:\n{}",
        bad.len(),
        bad.join("\n")
    );
    eprintln!("corpus: {n}/{n} packages agree");
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn every_definition_digest_reproduces() {
    let root = common::corpus_root();
    let mut n = 0;
    for e in manifest_entries(&root, |e| e["complete"] == true) {
        let def = root
            .join(e["path"].as_str().unwrap())
            .join("definition.json");
        let bytes = std::fs::read(&def).unwrap();
        let parsed = form_package::json::strict::parse(&bytes).unwrap();
        let canonical = form_package::canonical::canonicalize(&parsed.value).unwrap();
        assert_eq!(
            form_package::canonical::sha256_digest(&canonical),
            e["computedSchemaDigest"].as_str().unwrap(),
            "{}",
            e["path"]
        );
        n += 1;
    }
    assert_eq!(n, 306);
}

/// Copies `src` to a temp dir and applies a mutant recipe (mkdir, symlink,
/// mkfifo, chmod), as `shared/tools/agreement.py` does.
fn apply_recipe(src: &Path, recipe: &Value) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dst = tmp.path().join("pkg");
    copy_tree(src, &dst);
    for step in recipe["steps"].as_array().unwrap() {
        let p = dst.join(step["path"].as_str().unwrap());
        match step["op"].as_str().unwrap() {
            "mkdir" => std::fs::create_dir_all(&p).unwrap(),
            "symlink" => {
                let _ = std::fs::remove_file(&p);
                std::os::unix::fs::symlink(step["target"].as_str().unwrap(), &p).unwrap();
            }
            "mkfifo" => {
                let _ = std::fs::remove_file(&p);
                common::mkfifo(&p);
            }
            "chmod" => {
                use std::os::unix::fs::PermissionsExt;
                let mode =
                    u32::from_str_radix(&step["mode"].to_string().replace('"', ""), 8).unwrap();
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
            }
            op => panic!("unknown recipe op {op}"),
        }
    }
    (tmp, dst)
}

fn copy_tree(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            copy_tree(&e.path(), &to);
        } else if ft.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(e.path()).unwrap(), &to).unwrap();
        } else {
            std::fs::copy(e.path(), &to).unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
}

/// Runs every mutant of `folder`; `bar` names the verdict member. Returns
/// (agreeing, disagreements).
fn run_mutants(root: &Path, folder: &str, bar: &str) -> (usize, Vec<String>) {
    let base = root.join(folder);
    let mut names: Vec<_> = std::fs::read_dir(&base)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    names.sort();
    let mut agree = 0;
    let mut bad = Vec::new();
    for case in names {
        let ej = case.join("expected.json");
        if !ej.is_file() {
            continue;
        }
        let e = read_json(&ej);
        let dir = case.join(
            e.get("packageDir")
                .and_then(Value::as_str)
                .unwrap_or("package"),
        );
        let (_tmp, dir) = match e.get("recipe") {
            Some(r) if !r.is_null() => {
                let (t, d) = apply_recipe(&dir, r);
                (Some(t), d)
            }
            _ => (None, dir),
        };
        let o = verify_package(&dir);
        let got = if o.has_errors() { "fail" } else { "ok" };
        let want = e[bar].as_str().unwrap();
        let spec = e.get("specCode").and_then(Value::as_str).unwrap_or("");
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        if got != want {
            bad.push(format!(
                "{name} [{}]: want {want}, got {got}\n    {}",
                spec,
                codes_of(&o)
            ));
        } else if want == "fail"
            && !spec.is_empty()
            && !o
                .diagnostics
                .iter()
                .any(|d| d.is_error() && d.code.info().spec_code == spec)
        {
            bad.push(format!(
                "{name}: verdict right but no error maps to {spec}\n    {}",
                codes_of(&o)
            ));
        } else {
            agree += 1;
        }
    }
    (agree, bad)
}

/// Runs every mutant of `folder` and asserts all agree with `bar`.
fn assert_mutants_agree(root: &Path, folder: &str, bar: &str) {
    let (agree, bad) = run_mutants(root, folder, bar);
    eprintln!("{folder}: {agree} agree, {} disagree", bad.len());
    assert!(
        bad.is_empty(),
        "{} of {folder} disagree:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn every_mutant_gives_the_reference_verdict() {
    let root = common::corpus_root();
    assert_mutants_agree(&root, "mutants", "oracleVerdict");
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn every_current_profile_mutant_gives_its_expectation() {
    let root = common::corpus_root();
    assert_mutants_agree(&root, "mutants-current", "expect");
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn every_corpus_fixture_runs() {
    let root = common::corpus_root();
    let mut fixtures = 0;
    for e in manifest_entries(&root, |e| e["expect"] == "ok") {
        let o = verify_package(&root.join(e["path"].as_str().unwrap()));
        fixtures += o.fixtures_run;
    }
    eprintln!("corpus: {fixtures} fixture validations ran (positive per stage + negative)");
    assert_eq!(
        fixtures, 1991,
        "every fixture of every verified corpus package runs"
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn output_does_not_depend_on_the_thread_count() {
    let root = common::corpus_root();
    let run = |threads: &str| {
        let o = std::process::Command::new(crate::common::BIN)
            .args(["verify", "--format", "json"])
            .arg(root.join("packages"))
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(1),
            "the corpus holds 16 failing packages"
        );
        o.stdout
    };
    let one = run("1");
    let two = run("2");
    assert!(one == two, "findings differ between 1 and 2 threads");
    let v: Value = serde_json::from_slice(&one).unwrap();
    assert_eq!(v["summary"]["packages"], 310);
    assert_eq!(v["summary"]["failed"], 16);
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn index_check_reports_no_drift_on_verified_packages() {
    let root = common::corpus_root();
    let mut n = 0;
    for e in manifest_entries(&root, |e| e["expect"] == "ok") {
        let dir = root.join(e["path"].as_str().unwrap());
        let indexed = form_package::index::build(&dir, None)
            .unwrap_or_else(|d| panic!("{}: {d:?}", e["path"]));
        assert!(!indexed.drift, "{}: index would change", e["path"]);
        // the written bytes canonicalize to the published package digest
        let parsed = form_package::json::strict::parse(&indexed.bytes).unwrap();
        let canonical = form_package::canonical::canonicalize(&parsed.value).unwrap();
        assert_eq!(
            form_package::canonical::sha256_digest(&canonical),
            e["computedPackageDigest"].as_str().unwrap()
        );
        n += 1;
    }
    assert_eq!(n, 294);
}

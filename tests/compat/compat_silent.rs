//! `compat` as a release gate that never passes in silence (issue 35,
//! breaker2 findings): a Form Package the walk skips (a hidden directory, or
//! one a `.gitignore` names) fails the run (FD683, G1), in every mode that
//! walks a tree, on BASE's side and on the PATHs', and `--baseline DIR` and
//! `--baseline-rev REV` give the same verdict on the same trees.

use std::path::{Path, PathBuf};

use libtest_mimic::{Failed, Trial};
use serde_json::{json, Value};

use crate::common;
use crate::compat::{codes, git, package, run_in, steps_of, store_with, STORE};

/// `compat ARGS --format json` run in `dir`: (exit status, document).
fn json_in(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let (code, out, err) = run_in(dir, &all);
    let doc: Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\nstderr: {err}"));
    (code, doc)
}

/// The store at `version` with `name.maxLength` 10 (63 before): breaking
/// against 1.0.0.
fn breaking(dir: &Path, name: &str, version: &str) -> PathBuf {
    package(dir, name, STORE, |d| {
        d["definitionVersion"] = json!(version);
        d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(10);
    })
}

/// The FD683 diagnostics of a document's outcomes, as (path, message).
fn skipped_packages(doc: &Value) -> Vec<(String, String)> {
    doc["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| {
            o["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["code"] == "FD683")
                .map(|d| {
                    assert_eq!(d["severity"], "error", "{d}");
                    (
                        o["path"].as_str().unwrap().to_owned(),
                        d["message"].as_str().unwrap().to_owned(),
                    )
                })
        })
        .collect()
}

/// A repository with `packages/store-1.0.0` committed (tag `base`).
fn repository(tmp: &Path) -> PathBuf {
    let repo = tmp.join("repo");
    store_with(&repo.join("packages"), "store-1.0.0", "1.0.0", &[]);
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "base"]);
    git(&repo, &["tag", "base"]);
    repo
}

/// Breaker2 G1, the PR's side: a breaking 1.0.1 in a directory a
/// `.gitignore` names, committed with `git add -f` (so published), used to
/// pass (`0 pairs`, exit 0). Now it is FD683 (an error naming it and the
/// rule), exit 1, with the PATH `packages` and with `.`; in a hidden
/// directory likewise (`packages/.next/store-1.0.1`). Naming the package as
/// a PATH compares it (FD670, no FD683). `verify`'s walk keeps its
/// documented skip (exit 0, the directory listed). Near misses: a
/// `.gitignore`d `build/` and a hidden `.github/` holding no package, and a
/// `package-index.json` inside `.git`, are no finding (exit 0, the skipped
/// directories still listed).
fn a_package_the_walk_skips_fails_the_gate() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let repo = repository(tmp.path());
    breaking(&repo.join("packages"), "store-1.0.1", "1.0.1");
    std::fs::write(repo.join("packages/.gitignore"), "store-1.0.1/\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["add", "-f", "packages/store-1.0.1"]);
    git(&repo, &["commit", "-qm", "pr"]);
    for path in ["packages", "."] {
        let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "base", path]);
        assert_eq!(code, 1, "{path}: {doc}");
        assert_eq!(doc["pairs"], json!([]), "{path}: {doc}");
        let found = skipped_packages(&doc);
        assert_eq!(found.len(), 1, "{path}: {doc}");
        let package = if path == "." {
            "./packages/store-1.0.1"
        } else {
            "packages/store-1.0.1"
        };
        assert_eq!(found[0].0, package, "{doc}");
        assert_eq!(
            found[0].1,
            format!("the Form Package {package} is a directory a .gitignore names, which the walk skips: it was not compared")
        );
    }
    let (code, out, _) = run_in(&repo, &["compat", "--baseline-rev", "base", "packages"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FD683")
            && out.contains("remove the ignore entry / rename the directory, or name it as a PATH"),
        "{out}"
    );
    // Named as a PATH, it is compared.
    let (code, doc) = json_in(
        &repo,
        &[
            "compat",
            "--baseline-rev",
            "base",
            "packages",
            "packages/store-1.0.1",
        ],
    );
    assert_eq!(code, 1, "{doc}");
    assert!(skipped_packages(&doc).is_empty(), "{doc}");
    assert!(
        doc["pairs"][0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "FD670"),
        "{doc}"
    );
    // verify's walk is unchanged: the directory is listed, exit 0.
    let (code, out, err) = run_in(&repo, &["verify", "packages"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        !out.contains("FD683") && !err.contains("FD683"),
        "{out}{err}"
    );

    // A hidden directory on the PR's side.
    let hidden = tmp.path().join("hidden");
    common::copy_dir(&repo, &hidden);
    std::fs::remove_file(hidden.join("packages/.gitignore")).unwrap();
    std::fs::create_dir_all(hidden.join("packages/.next")).unwrap();
    std::fs::rename(
        hidden.join("packages/store-1.0.1"),
        hidden.join("packages/.next/store-1.0.1"),
    )
    .unwrap();
    let (code, doc) = json_in(&hidden, &["compat", "--baseline-rev", "base", "packages"]);
    assert_eq!(code, 1, "{doc}");
    let found = skipped_packages(&doc);
    assert_eq!(found.len(), 1, "{doc}");
    assert_eq!(found[0].0, "packages/.next/store-1.0.1");
    assert_eq!(
        found[0].1,
        "the Form Package packages/.next/store-1.0.1 is in packages/.next, a hidden directory, which the walk skips: it was not compared"
    );
    // --history walks the same way.
    let (code, doc) = json_in(&hidden, &["compat", "--history", "packages"]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(skipped_packages(&doc).len(), 1, "{doc}");

    // Near misses: skipped directories that hold no package.
    let quiet = tmp.path().join("quiet");
    common::copy_dir(&repo, &quiet);
    std::fs::remove_dir_all(quiet.join("packages/store-1.0.1")).unwrap();
    store_with(&quiet.join("packages"), "store-1.0.1", "1.0.1", &[]);
    std::fs::write(quiet.join("packages/.gitignore"), "build/\n").unwrap();
    std::fs::create_dir_all(quiet.join("packages/build")).unwrap();
    std::fs::write(quiet.join("packages/build/notes.json"), "{}").unwrap();
    std::fs::create_dir_all(quiet.join("packages/.github")).unwrap();
    std::fs::write(quiet.join("packages/.github/ci.yml"), "on: push\n").unwrap();
    std::fs::create_dir_all(quiet.join(".git/stray")).unwrap();
    std::fs::write(quiet.join(".git/stray/package-index.json"), "{}").unwrap();
    for path in ["packages", "."] {
        let (code, doc) = json_in(&quiet, &["compat", "--baseline-rev", "base", path]);
        assert_eq!(code, 0, "{path}: {doc}");
        assert!(skipped_packages(&doc).is_empty(), "{path}: {doc}");
        let rules: Vec<&str> = doc["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["rule"].as_str().unwrap())
            .collect();
        assert!(
            rules.contains(&"hidden") && rules.contains(&".gitignore"),
            "{path}: {doc}"
        );
    }
    Ok(())
}

/// Breaker2 G1, BASE's side: a `.gitignore` merged earlier into the
/// published tree names the published 1.1.0 (`c` added; force-added, so
/// published). A PR adds 1.1.1 without `c` (breaking against 1.1.0).
/// `--baseline DIR` used to read BASE without 1.1.0 and pass (1.0.0 →
/// 1.1.1); now it is FD683 at BASE's copy (exit 1), and `--baseline-rev`
/// (whose walk at REV follows git, not `.gitignore`) fails too (FD670): the
/// two modes give one verdict on the same trees. A package at REV under a
/// hidden directory is FD683 named `REV:…`. Near miss: the same trees
/// without the `.gitignore` line: both modes find FD670 and no FD683.
fn both_modes_fail_on_a_hidden_published_version() -> Result<(), Failed> {
    for ignored in [true, false] {
        let tmp = tempfile::tempdir().unwrap();
        let ws = tmp.path().join("ws");
        let tree = ws.join("packages");
        store_with(&tree, "store-1.0.0", "1.0.0", &[]);
        store_with(&tree, "store-1.1.0", "1.1.0", &["c"]);
        if ignored {
            std::fs::write(tree.join(".gitignore"), "store-1.1.0/\n").unwrap();
        }
        git(&ws, &["init", "-q"]);
        git(&ws, &["add", "-A"]);
        git(&ws, &["add", "-f", "packages/store-1.1.0"]);
        git(&ws, &["commit", "-qm", "published"]);
        git(tmp.path(), &["clone", "-q", "ws", "base"]);
        store_with(&tree, "store-1.1.1", "1.1.1", &[]);
        let (dir_code, dir_doc) = json_in(&ws, &["compat", "--baseline", "../base", "packages"]);
        let (rev_code, rev_doc) = json_in(&ws, &["compat", "--baseline-rev", "HEAD", "packages"]);
        assert_eq!((dir_code, rev_code), (1, 1), "{dir_doc}\n{rev_doc}");
        let rev_steps = steps_of(&rev_doc);
        assert_eq!(
            rev_steps,
            [("1.1.0".into(), "1.1.1".into(), false)],
            "{rev_doc}"
        );
        if !ignored {
            assert_eq!(steps_of(&dir_doc), rev_steps, "{dir_doc}");
            assert!(skipped_packages(&dir_doc).is_empty(), "{dir_doc}");
            assert!(skipped_packages(&rev_doc).is_empty(), "{rev_doc}");
            continue;
        }
        let base_side: Vec<(String, String)> = skipped_packages(&dir_doc)
            .into_iter()
            .filter(|(p, _)| p.starts_with("../base"))
            .collect();
        assert_eq!(base_side.len(), 1, "{dir_doc}");
        assert_eq!(base_side[0].0, "../base/packages/store-1.1.0");
        assert_eq!(
            base_side[0].1,
            "the Form Package ../base/packages/store-1.1.0 is a directory a .gitignore names, which the walk of BASE ../base skips: it was not read as published, so no new version was checked against it"
        );
        // The PR's side: the working tree's copy of the .gitignore hides it too.
        assert!(
            skipped_packages(&rev_doc)
                .iter()
                .any(|(p, _)| p == "packages/store-1.1.0"),
            "{rev_doc}"
        );
    }

    // At REV, a published package under a hidden directory.
    let tmp = tempfile::tempdir().unwrap();
    let repo = repository(tmp.path());
    store_with(&repo.join("packages/.old"), "store-0.9.0", "0.9.0", &[]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "hidden"]);
    std::fs::remove_dir_all(repo.join("packages/.old")).unwrap();
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages"]);
    assert_eq!(code, 1, "{doc}");
    let found = skipped_packages(&doc);
    assert_eq!(found.len(), 1, "{doc}");
    assert_eq!(found[0].0, "HEAD:packages/.old/store-0.9.0", "{doc}");
    assert_eq!(
        found[0].1,
        "the Form Package HEAD:packages/.old/store-0.9.0 is in HEAD:packages/.old, a hidden directory, which the walk of BASE HEAD skips: it was not read as published, so no new version was checked against it"
    );
    // Near miss: the revision before it holds no hidden package.
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "base", "packages"]);
    assert_eq!(code, 0, "{doc}");
    assert!(!codes(&doc).contains(&"FD683".to_owned()), "{doc}");
    Ok(())
}

/// This file's trials, run by the binary's `main` (reported ignored where
/// git is not installed).
pub fn trials() -> Vec<Trial> {
    let has_git = std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_ok();
    vec![
        Trial::test(
            "a_package_the_walk_skips_fails_the_gate",
            a_package_the_walk_skips_fails_the_gate,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "both_modes_fail_on_a_hidden_published_version",
            both_modes_fail_on_a_hidden_published_version,
        )
        .with_ignored_flag(!has_git),
    ]
}

//! `compat --baseline` / `--baseline-rev` as a release gate that cannot be
//! walked around (issue 35, breaker findings F2, F3, F9, F11): a published
//! version refused at REV stays in the line, BASE at REV is the whole
//! repository, a BASE with no package cannot run, a new version compared
//! with nothing that is no first release is a warning, and a pre-release
//! after a release is held to its release's bump.

use libtest_mimic::{Failed, Trial};
use serde_json::{json, Value};

use crate::common;
use crate::compat::{
    breaking, codes, commit_all, committed, git, json_in, json_run, package, published, run,
    run_in, s, steps_of, store_with, STORE,
};

/// The codes of the pairs' findings.
fn pair_findings(doc: &Value) -> Vec<String> {
    doc["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| common::strings(&p["findings"], "code"))
        .map(str::to_owned)
        .collect()
}

/// Breaker F2: a version published at REV whose copy there verify refuses
/// (a symbolic link in it, or an executable file) still stands in BASE's
/// line as a refused published neighbour: the PR's breaking 1.0.1 is
/// paired with it and the pair says FD678 (exit 1), as `--baseline DIR`
/// says for the same tree on disk; never FD677 / FD681, and the PR's fixed
/// 1.0.0 is not a new version. The link and the executable bit behave
/// alike. Near miss: a readable REV copy is compared (FD670, the breaking
/// patch found).
fn baseline_rev_keeps_a_refused_published_version() -> Result<(), Failed> {
    for how in ["symlink", "executable", "readable"] {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        let tree = repo.join("packages");
        let base = tmp.path().join("base");
        for t in [&tree, &base] {
            let a = store_with(t, "a", "1.0.0", &[]);
            match how {
                "symlink" => {
                    std::os::unix::fs::symlink("../definition.json", a.join("fixtures/extra.json"))
                        .unwrap();
                }
                "executable" if t == &base => {
                    use std::os::unix::fs::PermissionsExt;
                    let f = a.join("definition.json");
                    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o755)).unwrap();
                }
                _ => {}
            }
        }
        git(&repo, &["init", "-q"]);
        git(&repo, &["add", "-A"]);
        if how == "executable" {
            git(
                &repo,
                &["update-index", "--chmod=+x", "packages/a/definition.json"],
            );
        }
        git(&repo, &["commit", "-qm", "published"]);
        if how == "symlink" {
            // The PR "fixes" the published copy ...
            std::fs::remove_file(tree.join("a/fixtures/extra.json")).unwrap();
        }
        // ... and ships a breaking change as a patch.
        breaking(&tree, "b", "1.0.1");
        let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages"]);
        assert_eq!(code, 1, "{how}: {doc}");
        assert_eq!(
            steps_of(&doc),
            [("1.0.0".into(), "1.0.1".into(), false)],
            "{how}: {doc}"
        );
        assert_eq!(doc["pairs"][0]["old"]["path"], "HEAD:packages/a", "{how}");
        let all = codes(&doc);
        assert!(
            !all.iter().any(|c| c == "FD677" || c == "FD681"),
            "{how}: {all:?}"
        );
        let findings = pair_findings(&doc);
        if how == "readable" {
            assert_eq!(doc["summary"]["baseRefused"], 0, "{doc}");
            assert!(findings.contains(&"FD670".to_owned()), "{doc}");
            continue;
        }
        assert_eq!(doc["summary"]["baseRefused"], 1, "{how}: {doc}");
        assert!(findings.contains(&"FD678".to_owned()), "{how}: {doc}");
        // The same tree on disk, as `--baseline DIR`: the same steps and
        // the same refusal.
        breaking(&base.join("pr"), "b", "1.0.1");
        let pr = base.join("pr");
        common::copy_dir(&tree.join("a"), &pr.join("a"));
        let (code, dir_doc) = json_run(&["compat", "--baseline", s(&base.join("a")), s(&pr)]);
        assert_eq!(code, 1, "{how}: {dir_doc}");
        assert_eq!(steps_of(&dir_doc), steps_of(&doc), "{how}: {dir_doc}");
        assert!(
            pair_findings(&dir_doc).contains(&"FD678".to_owned()),
            "{how}"
        );
    }
    Ok(())
}

/// Breaker F3 (the lead's decision): at REV the published line of a kind
/// is looked up in the whole repository, the PATHs only select the PR's
/// packages: `--baseline-rev HEAD packages/b` (the new package's directory
/// alone) compares the breaking 1.0.1 with `HEAD:packages/a` (exit 1).
/// Near miss: a 1.0.1 that changes nothing but its version fits (exit 0),
/// still compared.
fn baseline_rev_reads_the_whole_tree() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let (repo, tree) = published(tmp.path(), "a");
    breaking(&tree, "b", "1.0.1");
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages/b"]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(steps_of(&doc), [("1.0.0".into(), "1.0.1".into(), false)]);
    assert_eq!(doc["pairs"][0]["old"]["path"], "HEAD:packages/a", "{doc}");
    assert_eq!(doc["pairs"][0]["new"]["path"], "packages/b", "{doc}");
    std::fs::remove_dir_all(tree.join("b")).unwrap();
    store_with(&tree, "b", "1.0.1", &[]);
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages/b"]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(steps_of(&doc), [("1.0.0".into(), "1.0.1".into(), true)]);
    assert!(codes(&doc).is_empty(), "{doc}");
    Ok(())
}

/// Breaker F9: a BASE that holds no Form Package (an empty directory;
/// packages only under a hidden directory; a revision without one) cannot
/// run: exit 2, saying BASE holds no Form Package, nothing on stdout. A new
/// version compared with nothing that is no plausible first release
/// (1.0.1, with BASE holding another kind) is FD681, a warning: exit 0,
/// exit 1 under `--deny-warnings`. Near misses: a first release (1.0.0,
/// 0.1.0-rc.1) is FD677, a note, exit 0 even under `--deny-warnings`.
fn baseline_without_a_package_cannot_run() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let new = breaking(&tmp.path().join("pr"), "b", "1.0.1");
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (code, out, err) = run(&["compat", "--baseline", s(&empty), s(&new)]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("BASE holds no Form Package") && err.contains("published tree"),
        "{err}"
    );
    let hidden = tmp.path().join("hidden");
    store_with(&hidden.join(".old"), "a", "1.0.0", &[]);
    let (code, _, err) = run(&["compat", "--baseline", s(&hidden), s(&new)]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("BASE holds no Form Package") && err.contains(".old (hidden)"),
        "{err}"
    );

    let repo = tmp.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    std::fs::write(repo.join("README"), "no package yet\n").unwrap();
    committed(&repo, "empty");
    breaking(&repo.join("packages"), "b", "1.0.1");
    let (code, out, err) = run_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("holds no Form Package at HEAD"), "{err}");

    // BASE holds another kind only.
    let other = tmp.path().join("other");
    package(
        &other,
        "bucket",
        "fixtures/packages/v1beta1/object-bucket-0.1.0-553675391d88",
        |_| {},
    );
    let (code, doc) = json_run(&["compat", "--baseline", s(&other), s(&new)]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(codes(&doc), ["FD681"], "{doc}");
    let d = &doc["outcomes"][0]["diagnostics"][0];
    assert_eq!(d["severity"], "warning", "{d}");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("\"1.0.1\" is not a first release"),
        "{d}"
    );
    let (code, _) = json_run(&[
        "compat",
        "--baseline",
        s(&other),
        s(&new),
        "--deny-warnings",
    ]);
    assert_eq!(code, 1);
    for first in ["1.0.0", "0.1.0-rc.1", "0.0.1"] {
        let pr = tmp.path().join(format!("first-{first}"));
        let p = store_with(&pr, "a", first, &[]);
        let (code, doc) = json_run(&["compat", "--baseline", s(&other), s(&p), "--deny-warnings"]);
        assert_eq!(code, 0, "{first}: {doc}");
        assert_eq!(codes(&doc), ["FD677"], "{first}: {doc}");
    }
    Ok(())
}

/// Breaker F11: a pre-release after a release previews its release and is
/// held to the bump that release shows: BASE 1.0.0, a new `1.0.1-rc.1`
/// with a breaking change fails (FD670 beside the FD673 note, exit 1), and
/// in `--history` a later `1.0.1-rc.2` is held to 1.0.0, not to rc.1.
/// Near misses: `2.0.0-rc.1` with the same change fits (exit 0, FD673); an
/// OLD pre-release promises nothing (`0.0.0-legacy.1` → a breaking 1.0.0
/// is no failure of the corpus's history, `history_table_page`).
fn a_pre_release_is_held_to_its_release() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    store_with(&base, "a", "1.0.0", &[]);
    let rc = breaking(&tmp.path().join("pr"), "rc", "1.0.1-rc.1");
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&rc)]);
    assert_eq!(code, 1, "{doc}");
    let findings = pair_findings(&doc);
    assert!(
        findings.contains(&"FD670".to_owned()) && findings.contains(&"FD673".to_owned()),
        "{doc}"
    );
    assert_eq!(doc["pairs"][0]["requiredBump"], "major");
    assert_eq!(doc["pairs"][0]["bumpOk"], false);
    let major = breaking(&tmp.path().join("pr2"), "rc", "2.0.0-rc.1");
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&major)]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(pair_findings(&doc), ["FD673"], "{doc}");

    let tree = tmp.path().join("tree");
    store_with(&tree, "a", "1.0.0", &[]);
    store_with(&tree, "b", "1.0.1-rc.1", &[]);
    breaking(&tree, "c", "1.0.1-rc.2");
    let (code, doc) = json_run(&["compat", "--history", s(&tree)]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        steps_of(&doc),
        [
            ("1.0.0".into(), "1.0.1-rc.1".into(), true),
            ("1.0.0".into(), "1.0.1-rc.2".into(), false)
        ],
        "{doc}"
    );
    Ok(())
}

/// Breaker2 G2: a package of BASE whose package index verify refuses
/// (here an unknown member) names no FormRef that can be read, so it
/// cannot stand in its version line; it used to vanish, and a PR's 1.1.1
/// that drops what the published 1.1.0 added was compared with 1.0.0 only
/// and passed. Now its own findings and an FD678 are reported and the run
/// fails (exit 1). Near miss: the same BASE with 1.1.0's index intact:
/// 1.1.0 → 1.1.1 is compared and found breaking (FD670).
fn baseline_fails_on_a_published_package_it_cannot_place() -> Result<(), Failed> {
    for intact in [false, true] {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().join("base");
        store_with(&base, "a", "1.0.0", &[]);
        let b = store_with(&base, "b", "1.1.0", &["c"]);
        if !intact {
            let f = b.join("package-index.json");
            let mut index: Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
            index["zzz"] = json!(1);
            std::fs::write(&f, serde_json::to_vec_pretty(&index).unwrap()).unwrap();
        }
        let pr = tmp.path().join("pr");
        store_with(&pr, "c", "1.1.1", &[]);
        let (code, doc) = json_in(tmp.path(), &["compat", "--baseline", "base", "pr"]);
        assert_eq!(code, 1, "intact {intact}: {doc}");
        let all = codes(&doc);
        if intact {
            assert_eq!(
                steps_of(&doc),
                [("1.1.0".into(), "1.1.1".into(), false)],
                "{doc}"
            );
            assert!(!all.iter().any(|c| c == "FD101"), "{all:?}");
        } else {
            assert!(all.iter().any(|c| c == "FD101"), "{all:?}: {doc}");
            assert!(all.iter().any(|c| c == "FD678"), "{all:?}: {doc}");
            assert_eq!(doc["summary"]["baseRefused"], 1, "{doc}");
        }
    }
    Ok(())
}

/// Breaker4 C1: a PR that commits a bare repository as plain files under
/// its PATH (`packages/HEAD`, `config`, `objects/`, a replace ref mapping
/// the real base commit to one that already holds the PR's packages) must
/// not become BASE: git's discovery would take `packages/` for the
/// repository, and the breaking 1.0.1 passed (exit 0, FD684). Now the run
/// refuses that directory (exit 2, saying why), also with the real
/// repository's top among the PATHs (BASE was the union of both trees).
/// A replace ref in the real repository is ignored too: the base commit
/// is read as it is. Near miss: the same PR without the planted files is
/// compared with the real base and fails (FD670, exit 1).
fn baseline_rev_reads_only_the_repositorys_own_git() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let (repo, tree) = published(tmp.path(), "store-1.0.0");
    let base = git(&repo, &["rev-parse", "HEAD"]);
    breaking(&tree, "store-1.0.1", "1.0.1");
    // Near miss first: the real base, the breaking patch found.
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", &base, "packages"]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(steps_of(&doc), [("1.0.0".into(), "1.0.1".into(), false)]);
    // A commit holding the PR's packages, in a repository of its own.
    let evil = tmp.path().join("evil");
    for name in ["store-1.0.0", "store-1.0.1"] {
        common::copy_dir(&tree.join(name), &evil.join(name));
    }
    committed(&evil, "x");
    let swapped = git(&evil, &["rev-parse", "HEAD"]);
    // A replace ref in the real repository: ignored.
    git(&repo, &["fetch", "-q", evil.to_str().unwrap(), "HEAD"]);
    git(&repo, &["replace", &base, &swapped]);
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", &base, "packages"]);
    assert_eq!(code, 1, "a replace ref swapped BASE: {doc}");
    assert_eq!(steps_of(&doc), [("1.0.0".into(), "1.0.1".into(), false)]);
    git(&repo, &["replace", "-d", &base]);
    // The planted bare repository, committed as plain files.
    common::copy_dir(&evil.join(".git/objects"), &tree.join("objects"));
    std::fs::create_dir_all(tree.join("refs/replace")).unwrap();
    std::fs::write(tree.join("HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(
        tree.join("config"),
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n",
    )
    .unwrap();
    std::fs::write(
        tree.join("refs/replace").join(&base),
        format!("{swapped}\n"),
    )
    .unwrap();
    commit_all(&repo, "pr");
    for paths in [
        &["packages"][..],
        &["packages/store-1.0.1"],
        &[".", "packages"],
    ] {
        let mut args = vec!["compat", "--baseline-rev", &base];
        args.extend(paths);
        let (code, out, err) = run_in(&repo, &args);
        assert_eq!(code, 2, "{paths:?}: {out}\n{err}");
        assert!(err.contains("bare repository"), "{paths:?}: {err}");
        assert!(out.is_empty(), "{paths:?}: {out}");
    }
    Ok(())
}

/// The FD683 outcomes' paths of a compat JSON document.
fn skipped_paths(doc: &Value) -> Vec<String> {
    doc["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| {
            o["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["code"] == "FD683")
        })
        .map(|o| o["path"].as_str().unwrap().to_owned())
        .collect()
}

/// Breaker4 H5: a Form Package inside another package (a whole breaking
/// Store 1.0.1 carried in Other 1.0.1's `fixtures/`) was never compared:
/// the walk stops at a package root. It is FD683 now, on the PR's side
/// and at REV (exit 1). Near miss: Other 1.0.1 without the nested package
/// fits (exit 0, no FD683).
fn a_package_inside_a_package_fails_the_gate() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let tree = repo.join("packages");
    store_with(&tree, "store-1.0.0", "1.0.0", &[]);
    let other = |name: &str, version: &str| {
        package(&tree, name, STORE, |d| {
            d["kind"] = json!("Other");
            d["definitionVersion"] = json!(version);
        })
    };
    other("other-1.0.0", "1.0.0");
    committed(&repo, "published");
    let outer = other("other-1.0.1", "1.0.1");
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages"]);
    assert_eq!(code, 0, "near miss: {doc}");
    assert!(skipped_paths(&doc).is_empty(), "{doc}");
    breaking(&outer.join("fixtures"), "store-1.0.1", "1.0.1");
    common::reindex(&outer);
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages"]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        skipped_paths(&doc),
        ["packages/other-1.0.1/fixtures/store-1.0.1"],
        "{doc}"
    );
    // Published so: at REV too.
    commit_all(&repo, "nested");
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages"]);
    assert_eq!(code, 1, "{doc}");
    assert!(
        skipped_paths(&doc)
            .iter()
            .any(|p| p == "HEAD:packages/other-1.0.1/fixtures/store-1.0.1"),
        "{doc}"
    );
    Ok(())
}

/// Breaker4 H1: a published version held in a git submodule was read at
/// REV as an empty directory, so the next breaking version was compared
/// with nothing (FD681, a warning, exit 0). A submodule at REV is FD683
/// now (its objects are not read; exit 1). Near miss: the same tree with
/// the package committed in place of the submodule has no FD683.
fn a_submodule_at_rev_fails_the_gate() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let sub = tmp.path().join("sub");
    store_with(&sub, "store-1.0.0", "1.0.0", &[]);
    committed(&sub, "sub");
    let repo = tmp.path().join("repo");
    let tree = repo.join("packages");
    std::fs::create_dir_all(&tree).unwrap();
    git(&repo, &["init", "-q"]);
    git(
        &repo,
        &[
            "submodule",
            "add",
            "-q",
            sub.to_str().unwrap(),
            "packages/pub",
        ],
    );
    git(&repo, &["commit", "-qm", "published"]);
    breaking(&tree, "store-1.0.1", "1.0.1");
    let (code, doc) = json_in(
        &repo,
        &["compat", "--baseline-rev", "HEAD", "packages/store-1.0.1"],
    );
    assert_eq!(code, 1, "{doc}");
    assert_eq!(skipped_paths(&doc), ["HEAD:packages/pub"], "{doc}");
    // Near miss: the package committed as plain files.
    let plain = tmp.path().join("plain");
    let ptree = plain.join("packages");
    store_with(&ptree.join("pub"), "store-1.0.0", "1.0.0", &[]);
    committed(&plain, "published");
    store_with(&ptree, "store-1.0.1", "1.0.1", &[]);
    let (code, doc) = json_in(
        &plain,
        &["compat", "--baseline-rev", "HEAD", "packages/store-1.0.1"],
    );
    assert_eq!(code, 0, "{doc}");
    assert!(skipped_paths(&doc).is_empty(), "{doc}");
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
            "baseline_fails_on_a_published_package_it_cannot_place",
            baseline_fails_on_a_published_package_it_cannot_place,
        ),
        // Reported ignored, not passed, where git is not installed.
        Trial::test(
            "baseline_rev_keeps_a_refused_published_version",
            baseline_rev_keeps_a_refused_published_version,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "baseline_rev_reads_the_whole_tree",
            baseline_rev_reads_the_whole_tree,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "baseline_rev_reads_only_the_repositorys_own_git",
            baseline_rev_reads_only_the_repositorys_own_git,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "a_package_inside_a_package_fails_the_gate",
            a_package_inside_a_package_fails_the_gate,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "a_submodule_at_rev_fails_the_gate",
            a_submodule_at_rev_fails_the_gate,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "baseline_without_a_package_cannot_run",
            baseline_without_a_package_cannot_run,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "a_pre_release_is_held_to_its_release",
            a_pre_release_is_held_to_its_release,
        ),
    ]
}

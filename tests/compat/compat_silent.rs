//! `compat` as a release gate that never passes in silence (issue 35,
//! breaker2 findings): a Form Package the walk skips (a hidden directory, or
//! one a `.gitignore` names) fails the run (FD683, G1), in every mode that
//! walks a tree, on BASE's side and on the PATHs', and `--baseline DIR` and
//! `--baseline-rev REV` give the same verdict on the same trees; a BASE that
//! already holds every package under the PATHs is said (FD684, G9); a kind
//! whose every published version is gone from the working tree is FD679
//! (G11); a refused package of BASE in a pair shows its own findings (G4).

use std::path::{Path, PathBuf};

use libtest_mimic::{Failed, Trial};
use serde_json::{json, Value};

use crate::common;
use crate::compat::{
    breaking, codes, commit_all, committed, git, json_in, package, published, run_in, steps_of,
    store_with, STORE,
};

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
    let (repo, _) = published(tmp, "store-1.0.0");
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
    commit_all(&repo, "hidden");
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

/// The codes of a document's outcomes (findings outside the pairs) with
/// their severity.
fn outcome_codes(doc: &Value) -> Vec<(String, String)> {
    doc["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| o["diagnostics"].as_array().unwrap())
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["severity"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The message of the one FD684 of a document.
fn nothing_new(doc: &Value) -> String {
    let found: Vec<&Value> = doc["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| o["diagnostics"].as_array().unwrap())
        .filter(|d| d["code"] == "FD684")
        .collect();
    assert_eq!(found.len(), 1, "{doc}");
    assert_eq!(found[0]["severity"], "note", "{doc}");
    found[0]["message"].as_str().unwrap().to_owned()
}

/// Breaker2 G9: a run where no package under the PATHs is new against
/// BASE compared nothing and said nothing (`0 pairs`, exit 0). Now it is
/// FD684, a note (exit 0, also under `--deny-warnings`: a PR that changes
/// no package is right): BASE and the PATH the same directory (also
/// spelled another way) say so; `--baseline-rev HEAD` once the PR is committed
/// asks for the base sha. Near misses: the base revision compares the new
/// 1.0.1 (FD670, no FD684); a copy of the tree as BASE is not called the
/// same directory.
fn a_baseline_that_holds_the_pr_is_said() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let repo = repository(tmp.path());
    breaking(&repo.join("packages"), "store-1.0.1", "1.0.1");
    for base in ["packages", "./packages/../packages"] {
        for deny in [false, true] {
            let mut args = vec!["compat", "--baseline", base, "packages"];
            if deny {
                args.push("--deny-warnings");
            }
            let (code, doc) = json_in(&repo, &args);
            assert_eq!(code, 0, "{base} {deny}: {doc}");
            assert_eq!(doc["pairs"], json!([]), "{doc}");
            assert_eq!(outcome_codes(&doc), [("FD684".into(), "note".into())]);
            assert_eq!(
                nothing_new(&doc),
                format!("BASE {base} and the PATH packages are the same directory: no package under the PATHs is new against BASE, so nothing was compared; did you mean --baseline <a checkout of the base branch>, or --baseline-rev <base sha>?")
            );
        }
    }
    let copy = tmp.path().join("copy");
    common::copy_dir(&repo.join("packages"), &copy);
    let (code, doc) = json_in(&repo, &["compat", "--baseline", "../copy", "packages"]);
    assert_eq!(code, 0, "{doc}");
    assert!(
        nothing_new(&doc).starts_with(
            "no package under the PATHs (packages) is new against BASE ../copy, so nothing was compared; is BASE the published tree"
        ),
        "{doc}"
    );

    commit_all(&repo, "pr");
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages"]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(
        nothing_new(&doc),
        "no package under the PATHs (packages) is new against BASE HEAD, so nothing was compared; did you mean --baseline-rev <base sha> (the pull request's base, not a revision that already holds its commits)?"
    );
    let (code, out, _) = run_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("FD684 nothing-new")
            && out.contains("0 pairs (0 fit, 0 do not), 0 errors, 0 warnings, 1 note"),
        "{out}"
    );
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "base", "packages"]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(steps_of(&doc), [("1.0.0".into(), "1.0.1".into(), false)]);
    assert!(outcome_codes(&doc).is_empty(), "{doc}");
    Ok(())
}

/// Breaker2 G11: at REV, a PR that deletes every published version of a
/// kind (its directories under the PATH) passed with no word. Now each
/// is FD679 at its REV copy (a warning: exit 0, 1 under
/// `--deny-warnings`), and no FD684 (something did change). Near misses:
/// a package moved to another directory under the PATH (same version) is
/// not removed; with the PATH naming only the other kind's directory, the
/// removed one is outside the PATHs and not reported.
fn a_kind_removed_at_rev_is_said() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let tree = repo.join("packages");
    store_with(&tree.join("a"), "store-1.0.0", "1.0.0", &[]);
    store_with(&tree.join("a"), "store-1.0.1", "1.0.1", &[]);
    package(
        &tree,
        "bucket",
        "fixtures/packages/v1beta1/object-bucket-0.1.0-553675391d88",
        |_| {},
    );
    committed(&repo, "published");
    let moved = tmp.path().join("moved");
    common::copy_dir(&repo, &moved);
    std::fs::rename(moved.join("packages/a"), moved.join("packages/b")).unwrap();
    let (code, doc) = json_in(&moved, &["compat", "--baseline-rev", "HEAD", "packages"]);
    assert_eq!(code, 0, "{doc}");
    assert!(
        !outcome_codes(&doc).iter().any(|(c, _)| c == "FD679"),
        "{doc}"
    );

    std::fs::remove_dir_all(tree.join("a")).unwrap();
    let (code, doc) = json_in(&repo, &["compat", "--baseline-rev", "HEAD", "packages"]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(
        outcome_codes(&doc),
        [
            ("FD679".into(), "warning".into()),
            ("FD679".into(), "warning".into())
        ],
        "{doc}"
    );
    let files: Vec<&str> = doc["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["diagnostics"][0]["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "HEAD:packages/a/store-1.0.0/definition.json",
            "HEAD:packages/a/store-1.0.1/definition.json"
        ]
    );
    let (code, _) = json_in(
        &repo,
        &[
            "compat",
            "--baseline-rev",
            "HEAD",
            "packages",
            "--deny-warnings",
        ],
    );
    assert_eq!(code, 1);
    let (code, doc) = json_in(
        &repo,
        &["compat", "--baseline-rev", "HEAD", "packages/bucket"],
    );
    assert_eq!(code, 0, "{doc}");
    assert_eq!(
        outcome_codes(&doc),
        [("FD684".into(), "note".into())],
        "{doc}"
    );
    Ok(())
}

/// Breaker2 G4: FD678 says a refused side's "findings are reported", but
/// a refused package of BASE (here a published 1.0.0 holding a symbolic
/// link, FD004) paired with the PR's 1.0.1 had none shown, in any format.
/// Now its own findings are an outcome at its BASE path (`HEAD:…` at REV,
/// the directory in DIR mode) in json, human, concise, sarif, github and
/// junit. Near miss: a refused package of BASE in no pair (another kind) is
/// counted (`baseRefused`), not listed, and the run passes (exit 0).
fn a_refused_base_package_in_a_pair_shows_its_findings() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let tree = repo.join("packages");
    let a = store_with(&tree, "a", "1.0.0", &[]);
    std::os::unix::fs::symlink("../definition.json", a.join("fixtures/extra.json")).unwrap();
    committed(&repo, "published");
    git(tmp.path(), &["clone", "-q", "repo", "base"]);
    std::fs::remove_file(a.join("fixtures/extra.json")).unwrap();
    breaking(&tree, "b", "1.0.1");
    for (base, at) in [
        (["--baseline-rev", "HEAD"], "HEAD:packages/a"),
        (["--baseline", "../base"], "../base/packages/a"),
    ] {
        let args = ["compat", base[0], base[1], "packages"];
        let (code, doc) = json_in(&repo, &args);
        assert_eq!(code, 1, "{doc}");
        let shown: Vec<&Value> = doc["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["path"] == at)
            .collect();
        assert_eq!(shown.len(), 1, "{at}: {doc}");
        let codes_at: Vec<&str> = common::strings(&shown[0]["diagnostics"], "code");
        assert!(codes_at.contains(&"FD004"), "{codes_at:?}");
        // The file as verify names it: relative to the package's path.
        assert_eq!(
            shown[0]["diagnostics"][0]["file"], "fixtures/extra.json",
            "{doc}"
        );
        assert!(
            doc["pairs"][0]["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["code"] == "FD678"),
            "{doc}"
        );
        for format in ["human", "concise", "sarif", "github", "junit"] {
            let mut all = args.to_vec();
            all.extend(["--format", format]);
            let (code, out, err) = run_in(&repo, &all);
            assert_eq!(code, 1, "{format}: {out}{err}");
            assert!(
                out.contains("FD004") && out.contains(at),
                "{at} {format}: {out}"
            );
        }
    }

    // Near miss: a refused package of BASE in no pair.
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    store_with(&base, "a", "1.0.0", &[]);
    let bucket = package(
        &base,
        "bucket",
        "fixtures/packages/v1beta1/object-bucket-0.1.0-553675391d88",
        |_| {},
    );
    std::os::unix::fs::symlink("../definition.json", bucket.join("fixtures/extra.json")).unwrap();
    let pr = tmp.path().join("pr");
    store_with(&pr, "a", "1.0.0", &[]);
    store_with(&pr, "b", "1.0.1", &[]);
    let (code, doc) = json_in(tmp.path(), &["compat", "--baseline", "base", "pr"]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["summary"]["baseRefused"], 1, "{doc}");
    assert!(outcome_codes(&doc).is_empty(), "{doc}");
    assert_eq!(steps_of(&doc), [("1.0.0".into(), "1.0.1".into(), true)]);
    Ok(())
}

/// Breaker4 H6: BASE published 1.0.0 twice with different bytes (copy
/// `a`: `name.maxLength` 10; copy `b`: 63); a new 1.0.1 identical in its
/// desired schema to `a` was compared with `a` alone and passed (exit 0),
/// though hosts on `b` get a breaking patch. Now the new version is held to
/// every published copy of its neighbour: two pairs, the one with `b`
/// fails (FD670), exit 1, at REV and with `--baseline DIR`; a newer
/// published neighbour's copies likewise. Near miss: two copies that
/// differ only in `title` both fit (fitting pairs only, exit 0).
fn every_published_copy_of_a_neighbour_is_compared() -> Result<(), Failed> {
    for near_miss in [false, true] {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        let tree = repo.join("packages");
        breaking(&tree.join("a"), "store-1.0.0", "1.0.0");
        if near_miss {
            package(&tree.join("b"), "store-1.0.0", STORE, |d| {
                d["definitionVersion"] = json!("1.0.0");
                d["title"] = json!("Another store");
                d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(10);
            });
        } else {
            store_with(&tree.join("b"), "store-1.0.0", "1.0.0", &[]);
        }
        committed(&repo, "published");
        git(tmp.path(), &["clone", "-q", "repo", "base"]);
        breaking(&tree, "store-1.0.1", "1.0.1");
        for (base, b) in [
            (["--baseline-rev", "HEAD"], "HEAD:packages/b/store-1.0.0"),
            (["--baseline", "../base"], "../base/packages/b/store-1.0.0"),
        ] {
            let args = ["compat", base[0], base[1], "packages/store-1.0.1"];
            let (code, doc) = json_in(&repo, &args);
            assert_eq!(code, i32::from(!near_miss), "{near_miss} {b}: {doc}");
            assert_eq!(
                steps_of(&doc),
                [
                    ("1.0.0".into(), "1.0.1".into(), true),
                    ("1.0.0".into(), "1.0.1".into(), near_miss)
                ],
                "{b}: {doc}"
            );
            assert_eq!(doc["pairs"][1]["old"]["path"], b, "{doc}");
            assert_eq!(
                codes(&doc).contains(&"FD670".to_owned()),
                !near_miss,
                "{b}: {doc}"
            );
        }
        // The newer neighbour likewise: BASE 1.0.0 and 1.2.0 twice (`x`:
        // maxLength 10; `y`: 63, or 63 with another title in the near
        // miss); a new 1.1.0 (63) fits 1.0.0 and `y`, but the published
        // minor 1.1.0 → 1.2.0 of `x` now narrows `name`: breaking, exit 1.
        let base = tmp.path().join("base2");
        store_with(&base, "store-1.0.0", "1.0.0", &[]);
        package(&base.join("x"), "store-1.2.0", STORE, |d| {
            d["definitionVersion"] = json!("1.2.0");
            if near_miss {
                d["title"] = json!("Another store");
            } else {
                d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(10);
            }
        });
        store_with(&base.join("y"), "store-1.2.0", "1.2.0", &[]);
        let pr = tmp.path().join("pr2");
        store_with(&pr, "store-1.1.0", "1.1.0", &[]);
        let (code, doc) = json_in(tmp.path(), &["compat", "--baseline", "base2", "pr2"]);
        assert_eq!(code, i32::from(!near_miss), "{doc}");
        assert_eq!(
            steps_of(&doc),
            [
                ("1.0.0".into(), "1.1.0".into(), true),
                ("1.1.0".into(), "1.2.0".into(), near_miss),
                ("1.1.0".into(), "1.2.0".into(), true)
            ],
            "{doc}"
        );
        assert_eq!(
            doc["pairs"][1]["new"]["path"], "base2/x/store-1.2.0",
            "{doc}"
        );
    }
    Ok(())
}

/// Breaker4 H4: `--format concise` ended with verify's summary, counting
/// the pair as a failed package ("N packages (0 verified, N failed)").
/// Now it ends with compat's own, as human does: here 12 packages of BASE
/// kinds each gain an unlisted file (FD018, failed) and a breaking 1.0.1
/// fails: `1 pair (0 fit, 1 do not), 13 errors`, the same line human
/// prints. Near miss: a fitting 1.0.1 alone says `1 pair (1 fit, 0 do
/// not)` (exit 0).
fn concise_ends_with_compat_summary() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    store_with(&base, "store-1.0.0", "1.0.0", &[]);
    let pr = tmp.path().join("pr");
    store_with(&pr, "store-1.0.0", "1.0.0", &[]);
    store_with(&pr, "store-1.0.1", "1.0.1", &[]);
    let last = |out: &str| out.lines().last().unwrap_or_default().to_owned();
    let (code, out, err) = run_in(
        tmp.path(),
        &["compat", "--baseline", "base", "pr", "--format", "concise"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        last(&out),
        "form-package compat: 1 pair (1 fit, 0 do not), 0 errors, 0 warnings, 0 notes",
        "{out}"
    );
    std::fs::remove_dir_all(pr.join("store-1.0.1")).unwrap();
    breaking(&pr, "store-1.0.1", "1.0.1");
    for i in 1..=12 {
        let k = package(&pr, &format!("k{i}"), STORE, |d| {
            d["kind"] = json!(format!("K{i}"));
        });
        std::fs::write(k.join("fixtures/extra.json"), "{\"zz\":1}").unwrap();
    }
    let (code, out, err) = run_in(
        tmp.path(),
        &["compat", "--baseline", "base", "pr", "--format", "concise"],
    );
    assert_eq!(code, 1, "{out}{err}");
    let (_, human, _) = run_in(tmp.path(), &["compat", "--baseline", "base", "pr"]);
    assert!(
        last(&out).starts_with("form-package compat: 1 pair (0 fit, 1 do not), 13 errors"),
        "{out}"
    );
    assert!(human.lines().any(|l| l == last(&out)), "{human}\n{out}");
    assert!(!out.contains("verified"), "{out}");
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
        Trial::test(
            "a_baseline_that_holds_the_pr_is_said",
            a_baseline_that_holds_the_pr_is_said,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "a_kind_removed_at_rev_is_said",
            a_kind_removed_at_rev_is_said,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "a_refused_base_package_in_a_pair_shows_its_findings",
            a_refused_base_package_in_a_pair_shows_its_findings,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "every_published_copy_of_a_neighbour_is_compared",
            every_published_copy_of_a_neighbour_is_compared,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "concise_ends_with_compat_summary",
            concise_ends_with_compat_summary,
        ),
    ]
}

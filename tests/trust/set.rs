//! Issue 39 item 4, end to end: `trust verify-set` on the corpus's
//! published trust sets (`trust/takoform-forms/forms/trust/sets/`) with the
//! publisher's pinned root and policy, and near misses on copies under
//! `$TMPDIR` (the corpus is read-only): a tampered bundle, a renamed folder,
//! a swapped policy (the set's copy, and the pinned one), a stray file, a
//! missing bundle, a package at hand under another release id, and
//! replays from the genesis.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use libtest_mimic::Trial;
use serde_json::Value;

const E7F8: &str = "e7f8a39311dd011b8467e97e7f300cabb9a6b06c";
const CDD3: &str = "cdd30b711e2c6857b1b4d247b1471f5676904933";
/// object-bucket 0.1.0's release id and folder (in cdd3).
const BUCKET_RELEASE: &str = "k-mvsgozjomzxxe3ltfz2gc23pmzxxe3jomnxw2l2pmjvgky3uij2wg23foq";
const BUCKET_DIGEST: &str = "52a0cd0b11d35fbf8ab57ac7d5717f550efa77a2b20997b8ac0abdf3e4752200";
/// worker-deployment 0.2.0's release id (in cdd3).
const DEPLOYMENT_RELEASE: &str =
    "k-mvsgozjomzxxe3ltfz2gc23pmzxxe3jomnxw2l2xn5zgwzlsirsxa3dppfwwk3tu";

fn forms(corpus: &Path) -> PathBuf {
    corpus.join("trust/takoform-forms/forms/trust")
}

fn set(corpus: &Path, commit: &str) -> PathBuf {
    forms(corpus).join("sets").join(commit)
}

/// `trust verify-set --format json` of `dir` with the publisher's pins and
/// `extra` arguments.
fn run(corpus: &Path, dir: &Path, policy: Option<&Path>, extra: &[&Path]) -> Output {
    let pinned_policy = forms(corpus).join("publisher-policy.json");
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "trust".as_ref(),
        "verify-set".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "--trusted-root".as_ref(),
    ];
    let root = forms(corpus).join("trusted-root.json");
    args.push(root.as_os_str());
    args.push("--policy".as_ref());
    args.push(policy.unwrap_or(&pinned_policy).as_os_str());
    args.push(dir.as_os_str());
    for e in extra {
        args.push(e.as_os_str());
    }
    common::run(&args)
}

/// Every entry of the report as (kind, path relative to `base`, codes).
fn entries(o: &Output, base: &Path) -> Vec<(String, String, Vec<String>)> {
    let doc: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    doc["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let path = p["path"].as_str().unwrap();
            let rel = Path::new(path)
                .strip_prefix(base)
                .map(|r| r.display().to_string())
                .unwrap_or_else(|_| path.to_owned());
            let codes = p["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["code"].as_str().unwrap().to_owned())
                .collect();
            (p["kind"].as_str().unwrap().to_owned(), rel, codes)
        })
        .collect()
}

/// The entries with a finding: (path relative to `base`, codes).
fn failing(o: &Output, base: &Path) -> Vec<(String, Vec<String>)> {
    entries(o, base)
        .into_iter()
        .filter(|(_, _, c)| !c.is_empty())
        .map(|(_, p, c)| (p, c))
        .collect()
}

/// A copy of a corpus set under a temporary directory.
fn copy_set(corpus: &Path, commit: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dst = tmp.path().join(commit);
    common::copy_dir(&set(corpus, commit), &dst);
    (tmp, dst)
}

fn the_published_set_verifies(corpus: &Path) {
    let dir = set(corpus, E7F8);
    let o = run(corpus, &dir, None, &[]);
    common::assert_exit(&o, 0);
    let all = entries(&o, &dir);
    // The set, its 17 package folders, its checkpoint: every one a part.
    assert_eq!(all.len(), 19, "{all:?}");
    assert!(all.iter().all(|(k, _, c)| k == "trust-set" && c.is_empty()));
    assert_eq!(all[0].1, "");
    assert_eq!(all.last().unwrap().1, "revocations");
    assert_eq!(
        all.iter()
            .filter(|(_, p, _)| p.starts_with("packages/k-") && p.contains("/sha256-"))
            .count(),
        17
    );
    // The human report ends with the set's verdict.
    let human = common::run(
        [
            "trust".as_ref(),
            "verify-set".as_ref(),
            "--trusted-root".as_ref(),
            forms(corpus).join("trusted-root.json").as_os_str(),
            "--policy".as_ref(),
            forms(corpus).join("publisher-policy.json").as_os_str(),
            dir.as_os_str(),
        ]
        .as_slice(),
    );
    common::assert_exit(&human, 0);
    let text = common::stdout(&human);
    assert!(
        text.ends_with(&format!(
            "trust set {}: verified (19 parts)\n",
            dir.display()
        )),
        "{text}"
    );
}

fn the_cdd3_set_with_its_packages_at_hand(corpus: &Path) {
    let dir = set(corpus, CDD3);
    let versionless = corpus.join("packages/versionless");
    let bucket = versionless.join("object-bucket-0.1.0-52a0cd0b11d3");
    let deployment = versionless.join("worker-deployment-0.2.0-f90f1b86cc93");
    let o = run(
        corpus,
        &dir,
        None,
        &[
            "--package".as_ref(),
            &bucket,
            "--package".as_ref(),
            &deployment,
        ],
    );
    common::assert_exit(&o, 1);
    let all = entries(&o, &dir);
    // Both packages verified and placed (no FD789); the three bundles
    // verify; the one finding: this stored copy has no revocations/.
    assert_eq!(
        all.iter()
            .filter(|(k, _, c)| k == "package" && c.is_empty())
            .count(),
        2,
        "{all:?}"
    );
    assert_eq!(
        failing(&o, &dir),
        [(String::new(), vec!["FD788".to_owned()])]
    );
    // Near miss: a package the set does not sign (it is in no cdd3 or e7f8
    // folder) is FD789 on the package, and the set still verifies.
    let other = versionless.join("actor-namespace-0.2.0-6cb09560435e");
    let o = run(
        corpus,
        &set(corpus, E7F8),
        None,
        &["--package".as_ref(), &other],
    );
    common::assert_exit(&o, 1);
    let f = failing(&o, &set(corpus, E7F8));
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].1, ["FD789"]);
    assert!(
        f[0].0.ends_with("actor-namespace-0.2.0-6cb09560435e"),
        "{f:?}"
    );
    // A package at hand that does not verify is reported with its own
    // findings and placed nowhere.
    let incomplete = versionless.join("worker-version-0.3.0-d1ccfb0b47a4");
    let o = run(corpus, &dir, None, &["--package".as_ref(), &incomplete]);
    let f = failing(&o, &dir);
    assert!(
        f.iter()
            .any(|(p, c)| p.ends_with("worker-version-0.3.0-d1ccfb0b47a4")
                && c.contains(&"FD019".to_owned())
                && !c.contains(&"FD789".to_owned())),
        "{f:?}"
    );
}

fn a_renamed_release_folder_is_caught_with_the_package_at_hand(corpus: &Path) {
    let (_tmp, dir) = copy_set(corpus, CDD3);
    let packages = dir.join("packages");
    // Move object-bucket's digest folder under worker-deployment's release id.
    std::fs::rename(
        packages
            .join(BUCKET_RELEASE)
            .join(format!("sha256-{BUCKET_DIGEST}")),
        packages
            .join(DEPLOYMENT_RELEASE)
            .join(format!("sha256-{BUCKET_DIGEST}")),
    )
    .unwrap();
    std::fs::remove_dir(packages.join(BUCKET_RELEASE)).unwrap();
    // The release id is not signed: by digest alone the folder verifies.
    let o = run(corpus, &dir, None, &[]);
    assert_eq!(
        failing(&o, &dir),
        [(String::new(), vec!["FD788".to_owned()])]
    );
    // With the package at hand, its locator's release id is checked.
    let bucket = corpus.join("packages/versionless/object-bucket-0.1.0-52a0cd0b11d3");
    let o = run(corpus, &dir, None, &["--package".as_ref(), &bucket]);
    common::assert_exit(&o, 1);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let package = doc["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "package")
        .unwrap();
    let d = &package["diagnostics"][0];
    assert_eq!(d["code"], "FD789");
    assert!(
        d["message"].as_str().unwrap().contains(&format!(
            "under the release id \"{DEPLOYMENT_RELEASE}\", not under the package's own \"{BUCKET_RELEASE}\""
        )),
        "{d}"
    );
}

fn a_tampered_bundle_and_a_renamed_digest_folder_fail_alone(corpus: &Path) {
    let (_tmp, dir) = copy_set(corpus, E7F8);
    let release = dir
        .join("packages")
        .join("k-mvsgozjomzxxe3ltfz2gc23pmzxxe3jomnxw2l2xn5zgwzlskzsxe43jn5xa");
    let folder =
        release.join("sha256-21adc2e4e677cd31e905483d38eff60c9eb61112f6c234a01d6a487154980891");
    // Tampered: one base64 character of the message signature changed.
    let bundle_path = folder.join("package-index.sigstore.json");
    let mut bundle: Value = serde_json::from_slice(&std::fs::read(&bundle_path).unwrap()).unwrap();
    let sig = bundle["messageSignature"]["signature"]
        .as_str()
        .unwrap()
        .to_owned();
    let flipped: String = sig
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i == 10 {
                if c == 'A' {
                    'B'
                } else {
                    'A'
                }
            } else {
                c
            }
        })
        .collect();
    bundle["messageSignature"]["signature"] = Value::String(flipped);
    std::fs::write(&bundle_path, serde_json::to_vec(&bundle).unwrap()).unwrap();
    // Renamed: another folder's last hex digit changed.
    let other = dir
        .join("packages")
        .join("k-mvsgozjomzxxe3ltfz2gc23pmzxxe3jomnxw2l2nn5shk3dfk5xxe23foi");
    let old = other.join("sha256-931eda33c673a640530b81779a5821ed27b9244c9f13dec9660867173aa69405");
    let renamed =
        other.join("sha256-931eda33c673a640530b81779a5821ed27b9244c9f13dec9660867173aa69406");
    std::fs::rename(&old, &renamed).unwrap();
    let o = run(corpus, &dir, None, &[]);
    common::assert_exit(&o, 1);
    let f = failing(&o, &dir);
    assert_eq!(f.len(), 2, "{f:?}");
    let rel = |p: &Path| p.strip_prefix(&dir).unwrap().display().to_string();
    assert!(
        f.contains(&(rel(&folder), vec!["FD806".to_owned()])),
        "{f:?}"
    );
    assert!(
        f.contains(&(rel(&renamed), vec!["FD806".to_owned()])),
        "{f:?}"
    );
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let renamed_entry = doc["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["path"].as_str().unwrap().ends_with("69406"))
        .unwrap();
    let d = &renamed_entry["diagnostics"][0];
    assert_eq!(d["file"], "package-index.sigstore.json");
    assert!(
        d["message"].as_str().unwrap().contains(
            "the bundle signs sha256:931eda33c673a640530b81779a5821ed27b9244c9f13dec9660867173aa69405, not the subject sha256:931eda33c673a640530b81779a5821ed27b9244c9f13dec9660867173aa69406"
        ),
        "{d}"
    );
    // Near miss: the folder renamed back verifies again.
    std::fs::rename(&renamed, &old).unwrap();
    let o = run(corpus, &dir, None, &[]);
    assert_eq!(failing(&o, &dir).len(), 1);
}

fn a_swapped_policy_is_refused(corpus: &Path) {
    // The set's own copy swapped for another policy: FD787 on the set.
    let (_tmp, dir) = copy_set(corpus, E7F8);
    let probe = corpus.join("trust/probe/publisher-policy.json");
    std::fs::copy(&probe, dir.join("publisher-policy.json")).unwrap();
    let o = run(corpus, &dir, None, &[]);
    common::assert_exit(&o, 1);
    assert_eq!(
        failing(&o, &dir),
        [(String::new(), vec!["FD787".to_owned()])]
    );
    // Near miss: the very pinned policy (and root) as the set's copies.
    std::fs::copy(
        forms(corpus).join("publisher-policy.json"),
        dir.join("publisher-policy.json"),
    )
    .unwrap();
    std::fs::copy(
        forms(corpus).join("trusted-root.json"),
        dir.join("trusted-root.json"),
    )
    .unwrap();
    let o = run(corpus, &dir, None, &[]);
    common::assert_exit(&o, 0);
    // The set's trusted root swapped (one without certificate
    // authorities): FD787 too.
    std::fs::copy(
        corpus.join("trust/probe/negative/trusted-root-no-certificate-authorities.json"),
        dir.join("trusted-root.json"),
    )
    .unwrap();
    let o = run(corpus, &dir, None, &[]);
    common::assert_exit(&o, 1);
    assert_eq!(
        failing(&o, &dir),
        [(String::new(), vec!["FD787".to_owned()])]
    );
    std::fs::copy(
        forms(corpus).join("trusted-root.json"),
        dir.join("trusted-root.json"),
    )
    .unwrap();
    // The pinned policy swapped: the set's copy differs (FD787) and no
    // bundle's identity matches it (FD812 in every folder and the
    // checkpoint).
    let o = run(corpus, &dir, Some(&probe), &[]);
    common::assert_exit(&o, 1);
    let f = failing(&o, &dir);
    assert_eq!(f.len(), 19, "{f:?}");
    assert_eq!(f[0], (String::new(), vec!["FD787".to_owned()]));
    assert!(f[1..].iter().all(|(_, c)| c == &["FD812"]), "{f:?}");
}

fn the_layout_is_kept(corpus: &Path) {
    let (_tmp, dir) = copy_set(corpus, E7F8);
    let release = dir
        .join("packages")
        .join("k-mvsgozjomzxxe3ltfz2gc23pmzxxe3jomnxw2l2xn5zgwzlskzsxe43jn5xa");
    let folder =
        release.join("sha256-21adc2e4e677cd31e905483d38eff60c9eb61112f6c234a01d6a487154980891");
    std::fs::write(folder.join("notes.txt"), "x").unwrap();
    std::fs::write(dir.join("README.md"), "x").unwrap();
    let other = dir
        .join("packages")
        .join("k-mvsgozjomzxxe3ltfz2gc23pmzxxe3jomnxw2l2nn5shk3dfk5xxe23foi")
        .join("sha256-931eda33c673a640530b81779a5821ed27b9244c9f13dec9660867173aa69405");
    std::fs::remove_file(other.join("package-index.sigstore.json")).unwrap();
    std::fs::remove_file(dir.join("revocations/checkpoint.sigstore.json")).unwrap();
    // A folder name that is no tag: an upper-case digest.
    let upper = dir
        .join("packages")
        .join("k-mvsgozjomzxxe3ltfz2gc23pmzxxe3jomnxw2l2tkfggs5dfirqxiylcmfzwk");
    std::fs::rename(
        upper.join("sha256-0d3cce162550bb956ed19ce72b5eb1aeca52d78e7ca80e868d646fd580deef84"),
        upper.join("sha256-0D3CCE162550BB956ED19CE72B5EB1AECA52D78E7CA80E868D646FD580DEEF84"),
    )
    .unwrap();
    // A symbolic link is never followed: the set's policy copy as a link
    // to the pinned policy itself is refused.
    std::os::unix::fs::symlink(
        forms(corpus).join("publisher-policy.json"),
        dir.join("publisher-policy.json"),
    )
    .unwrap();
    let o = run(corpus, &dir, None, &[]);
    common::assert_exit(&o, 1);
    let f = failing(&o, &dir);
    let rel = |p: &Path| p.strip_prefix(&dir).unwrap().display().to_string();
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let set_files: Vec<&str> = doc["packages"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["file"].as_str().unwrap())
        .collect();
    assert_eq!(set_files, ["README.md", "publisher-policy.json"]);
    assert_eq!(
        f,
        [
            (String::new(), vec!["FD788".to_owned(), "FD788".to_owned()]),
            (rel(&other), vec!["FD788".to_owned()]),
            (
                rel(&upper.join(
                    "sha256-0D3CCE162550BB956ED19CE72B5EB1AECA52D78E7CA80E868D646FD580DEEF84"
                )),
                vec!["FD783".to_owned()]
            ),
            (rel(&folder), vec!["FD788".to_owned()]),
            ("revocations".to_owned(), vec!["FD788".to_owned()]),
        ],
        "{f:?}"
    );
}

/// A replay directory of the genesis (and its bundle) named `name`.
fn genesis_replay(corpus: &Path, tmp: &Path, name: &str) -> PathBuf {
    let replay = tmp.join("replay");
    std::fs::create_dir_all(&replay).unwrap();
    let rev = set(corpus, E7F8).join("revocations");
    std::fs::copy(
        rev.join("checkpoint.json"),
        replay.join(format!("{name}.json")),
    )
    .unwrap();
    std::fs::copy(
        rev.join("checkpoint.sigstore.json"),
        replay.join(format!("{name}.sigstore.json")),
    )
    .unwrap();
    replay
}

fn a_replay_from_the_genesis_ends_at_the_sets_checkpoint(corpus: &Path) {
    let dir = set(corpus, E7F8);
    let tmp = tempfile::tempdir().unwrap();
    let replay = genesis_replay(corpus, tmp.path(), "0000-genesis");
    let o = run(corpus, &dir, None, &["--replay".as_ref(), &replay]);
    common::assert_exit(&o, 0);
    let all = entries(&o, &dir);
    assert_eq!(all.len(), 20, "{all:?}");
    assert!(all
        .iter()
        .any(|(k, p, c)| k == "trust-set" && p.ends_with("0000-genesis.json") && c.is_empty()));
    // Near miss: the next checkpoint (sequence 1, from the revocation
    // conformance fixtures) with the genesis's bundle does not verify.
    let one =
        corpus.join("conformance/revocation-checkpoint-v1/positive/checkpoint-1-from-genesis.json");
    let bytes = std::fs::read(&one).unwrap();
    let canonical =
        form_package::canonical::canonicalize(&serde_json::from_slice(&bytes).unwrap()).unwrap();
    std::fs::write(replay.join("0001.json"), canonical).unwrap();
    std::fs::copy(
        replay.join("0000-genesis.sigstore.json"),
        replay.join("0001.sigstore.json"),
    )
    .unwrap();
    let o = run(corpus, &dir, None, &["--replay".as_ref(), &replay]);
    common::assert_exit(&o, 1);
    let f = failing(&o, &dir);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].1, ["FD806"]);
    // A checkpoint without its bundle is FD788; an empty replay directory
    // too (a replay starts at the genesis).
    std::fs::remove_file(replay.join("0001.sigstore.json")).unwrap();
    let o = run(corpus, &dir, None, &["--replay".as_ref(), &replay]);
    assert_eq!(failing(&o, &dir)[0].1, ["FD788"]);
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = run(corpus, &dir, None, &["--replay".as_ref(), &empty]);
    common::assert_exit(&o, 1);
    assert_eq!(failing(&o, &dir)[0].1, ["FD788"]);
    // A replay that replays the genesis twice: the second is not the next
    // sequence (FD813, the one pin model).
    let twice = genesis_replay(corpus, &tmp.path().join("t"), "a");
    std::fs::copy(twice.join("a.json"), twice.join("b.json")).unwrap();
    std::fs::copy(twice.join("a.sigstore.json"), twice.join("b.sigstore.json")).unwrap();
    let o = run(corpus, &dir, None, &["--replay".as_ref(), &twice]);
    common::assert_exit(&o, 1);
    assert_eq!(failing(&o, &dir)[0].1, ["FD813"]);
}

fn a_set_without_packages_signs_nothing(corpus: &Path) {
    let (_tmp, dir) = copy_set(corpus, E7F8);
    std::fs::remove_dir_all(dir.join("packages")).unwrap();
    let o = run(corpus, &dir, None, &[]);
    common::assert_exit(&o, 1);
    assert_eq!(
        failing(&o, &dir),
        [(String::new(), vec!["FD788".to_owned()])]
    );
    // An empty packages/ signs nothing either: one FD788.
    std::fs::create_dir(dir.join("packages")).unwrap();
    let o = run(corpus, &dir, None, &[]);
    assert_eq!(
        failing(&o, &dir),
        [(String::new(), vec!["FD788".to_owned()])]
    );
    // packages and revocations as files: one FD788 each (the wrong type),
    // not a second one for a missing folder.
    std::fs::remove_dir(dir.join("packages")).unwrap();
    std::fs::remove_dir_all(dir.join("revocations")).unwrap();
    std::fs::write(dir.join("packages"), "x").unwrap();
    std::fs::write(dir.join("revocations"), "x").unwrap();
    let o = run(corpus, &dir, None, &[]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let messages: Vec<&str> = doc["packages"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "\"packages\" is a file: a trust set holds publisher-policy.json, trusted-root.json, packages/ and revocations/ only",
            "\"revocations\" is a file: a trust set holds publisher-policy.json, trusted-root.json, packages/ and revocations/ only",
        ]
    );
}

fn unreadable_pins_and_a_missing_set_could_not_run(corpus: &Path) {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(corpus, &tmp.path().join("nope"), None, &[]);
    common::assert_exit(&o, 2);
    let o = run(
        corpus,
        &set(corpus, E7F8),
        Some(&tmp.path().join("no-policy.json")),
        &[],
    );
    common::assert_exit(&o, 2);
    // A pinned policy that is no policy: the one finding FD800, exit 1.
    let bad = corpus.join("trust/probe/negative/policy-wildcard-ref.json");
    let o = run(corpus, &set(corpus, E7F8), Some(&bad), &[]);
    common::assert_exit(&o, 1);
    let f = failing(&o, Path::new(""));
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].1, ["FD800"]);
}

pub fn trials() -> Vec<Trial> {
    let corpus = common::corpus();
    let t = |name: &str, f: fn(&Path)| common::corpus_test(name, &corpus, f);
    vec![
        t("the_published_set_verifies", the_published_set_verifies),
        t(
            "the_cdd3_set_with_its_packages_at_hand",
            the_cdd3_set_with_its_packages_at_hand,
        ),
        t(
            "a_renamed_release_folder_is_caught_with_the_package_at_hand",
            a_renamed_release_folder_is_caught_with_the_package_at_hand,
        ),
        t(
            "a_tampered_bundle_and_a_renamed_digest_folder_fail_alone",
            a_tampered_bundle_and_a_renamed_digest_folder_fail_alone,
        ),
        t("a_swapped_policy_is_refused", a_swapped_policy_is_refused),
        t("the_layout_is_kept", the_layout_is_kept),
        t(
            "a_replay_from_the_genesis_ends_at_the_sets_checkpoint",
            a_replay_from_the_genesis_ends_at_the_sets_checkpoint,
        ),
        t(
            "a_set_without_packages_signs_nothing",
            a_set_without_packages_signs_nothing,
        ),
        t(
            "unreadable_pins_and_a_missing_set_could_not_run",
            unreadable_pins_and_a_missing_set_could_not_run,
        ),
    ]
}

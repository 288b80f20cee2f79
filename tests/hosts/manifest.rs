//! `snapshot --manifest` (a `takoform.core-artifact-corpus@v1` manifest)
//! against the Core's compiler (`snapshot-oracle compile MANIFEST`): the
//! ten current-profile packages with the corpus Interfaces copied under
//! `$TMPDIR` beside a manifest; input names other than the generic
//! conformance's pair (breaker F5); a package or an Interface listed twice,
//! which must reach the compiler as a duplicate identity and never print a
//! digest (breaker F4). Recorded answers need no oracle; the comparison is
//! `common::needs_oracle`'s.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::common;

/// The ten packages and the 25 Interfaces copied into `dir`, with what a
/// manifest pins of them: packages as (path, packageDigest, formRef),
/// interfaces as (path, schemaDigest).
#[allow(clippy::type_complexity)]
fn workspace(corpus: &Path, dir: &Path) -> (Vec<(String, String, Value)>, Vec<(String, String)>) {
    let digest = |path: &Path| {
        let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        form_package::canonical::sha256_digest(&form_package::canonical::canonicalize(&v).unwrap())
    };
    let mut packages = Vec::new();
    for package in crate::snapshot::ten() {
        let dst = dir.join(&package);
        common::copy_dir(&corpus.join(&package), &dst);
        let index = dst.join("package-index.json");
        let form_ref: Value = serde_json::from_slice(&std::fs::read(&index).unwrap()).unwrap();
        packages.push((
            format!("{package}/package-index.json"),
            digest(&index),
            form_ref["formRef"].clone(),
        ));
    }
    let mut interfaces = Vec::new();
    for file in crate::snapshot::contract_files(corpus, "contracts/interfaces/v1alpha1") {
        let dst = dir.join(&file);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::copy(corpus.join(&file), &dst).unwrap();
        interfaces.push((file, digest(&dst)));
    }
    (packages, interfaces)
}

/// A manifest of one input `name` over `packages` and `interfaces`, one
/// default pin per kind, the roster expected in Form order (each of the ten
/// is its own kind of one group).
fn input(
    name: &str,
    packages: &[(String, String, Value)],
    interfaces: &[(String, String)],
) -> Value {
    let mut refs: Vec<&Value> = packages.iter().map(|(_, _, r)| r).collect();
    refs.sort_by_key(|r| r["kind"].as_str().unwrap().to_owned());
    refs.dedup();
    json!({
        "name": name,
        "packages": packages.iter().map(|(p, d, _)| json!({"path": p, "packageDigest": d})).collect::<Vec<_>>(),
        "interfaces": interfaces.iter().map(|(p, d)| json!({"path": p, "schemaDigest": d})).collect::<Vec<_>>(),
        "bindings": [],
        "defaultCreates": refs.iter().map(|r| json!({"group": r["apiVersion"], "kind": r["kind"], "ref": r})).collect::<Vec<_>>(),
        "expectedFormRefs": refs,
    })
}

fn manifest(dir: &Path, file: &str, inputs: Vec<Value>) -> PathBuf {
    let m = json!({
        "format": "takoform.core-artifact-corpus@v1",
        "hostApiLane": "forms.takoform.com/v1",
        "snapshotInputs": inputs,
    });
    let path = dir.join(file);
    std::fs::write(&path, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    path
}

/// Per input, in order: (name, status, digest, Core codes) and our exit
/// status with every FD code of the run.
#[allow(clippy::type_complexity)]
fn ours(
    manifest: &Path,
) -> (
    Vec<(String, String, Option<String>, Vec<String>)>,
    i32,
    Vec<String>,
) {
    let out = Command::new(common::BIN)
        .args(["snapshot", "--format", "json", "--manifest"])
        .arg(manifest)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let packages = v["packages"].as_array().unwrap();
    let sets = packages
        .iter()
        .filter(|p| p["kind"] == "snapshot")
        .map(|s| {
            let name = s["path"].as_str().unwrap();
            (
                name.strip_prefix("snapshot ").unwrap_or(name).to_owned(),
                status(s["status"].as_str().unwrap()),
                s["snapshotDigest"].as_str().map(str::to_owned),
                codes(&s["coreDiagnostics"]),
            )
        })
        .collect();
    let fd = packages
        .iter()
        .flat_map(|p| p["diagnostics"].as_array().unwrap().iter())
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect();
    (sets, out.status.code().unwrap_or(-1), fd)
}

fn status(s: &str) -> String {
    match s {
        "compiled" | "failed" => s.to_owned(),
        _ => "refused".to_owned(),
    }
}

fn codes(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect()
}

/// The oracle's `compile MANIFEST`, per input.
fn theirs(oracle: &Path, manifest: &Path) -> Vec<(String, String, Option<String>, Vec<String>)> {
    let out = Command::new(oracle)
        .arg("compile")
        .arg(manifest)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("oracle {e}: {}", String::from_utf8_lossy(&out.stderr)));
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                status(s["status"].as_str().unwrap()),
                s["snapshotDigest"].as_str().map(str::to_owned),
                codes(&s["diagnostics"]),
            )
        })
        .collect()
}

/// The manifests of the cases: (name, manifest).
fn cases(corpus: &Path, dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let (packages, interfaces) = workspace(corpus, dir);
    let mut twice = packages.clone();
    twice.push(packages[0].clone());
    let mut iface_twice = interfaces.clone();
    iface_twice.push(interfaces[0].clone());
    vec![
        (
            "the generic conformance's two inputs",
            manifest(
                dir,
                "m-pair.json",
                vec![
                    input("external-family", &packages, &interfaces),
                    input("zero-family", &[], &[]),
                ],
            ),
        ),
        (
            "any input names",
            manifest(
                dir,
                "m-names.json",
                vec![
                    input("edge", &packages, &interfaces),
                    input("", &[], &[]),
                    input("edge", &packages[..1], &interfaces),
                ],
            ),
        ),
        (
            "a package listed twice",
            manifest(
                dir,
                "m-pkg-dup.json",
                vec![input("external-family", &twice, &interfaces)],
            ),
        ),
        (
            "an interface listed twice",
            manifest(
                dir,
                "m-if-dup.json",
                vec![input("external-family", &packages, &iface_twice)],
            ),
        ),
    ]
}

const TEN_DIGEST: &str = "sha256:7cb99f9e21c39822803f239a04948980d2405d2ef70b47fc0f1fc0ec1487ebed";

/// Recorded answers, no oracle: any names compile; a repeated package or
/// Interface is a duplicate identity (FD755/FD757 with the FD782 of the
/// repeated path), "failed", no digest, exit 1.
fn recorded(corpus: &Path) {
    let tmp = tempfile::tempdir().unwrap();
    let cases = cases(corpus, tmp.path());
    let (sets, code, fd) = ours(&cases[0].1);
    assert_eq!(code, 0, "{fd:?}");
    assert_eq!(sets[0].2.as_deref(), Some(TEN_DIGEST));
    assert_eq!(sets[1].1, "compiled");
    let (sets, code, fd) = ours(&cases[1].1);
    assert_eq!(code, 0, "{fd:?}");
    let names: Vec<&str> = sets.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names, ["edge", "", "edge"]);
    assert!(sets.iter().all(|s| s.1 == "compiled"), "{sets:?}");
    for (case, core, ours_code) in [
        (2, "duplicate_identity", "FD755"),
        (3, "duplicate_identity", "FD757"),
    ] {
        let (sets, code, fd) = ours(&cases[case].1);
        assert_eq!(code, 1, "{}", cases[case].0);
        assert_eq!(sets.len(), 1);
        assert_eq!(sets[0].1, "failed", "{}", cases[case].0);
        assert_eq!(sets[0].2, None, "{}: no digest", cases[case].0);
        assert_eq!(sets[0].3, [core], "{}", cases[case].0);
        assert!(fd.contains(&ours_code.to_owned()), "{fd:?}");
        assert!(fd.contains(&"FD782".to_owned()), "{fd:?}");
    }
}

/// Every case: per input, the oracle's name, status, digest and Core codes.
fn agrees_with_the_oracle(corpus: &Path, oracle: &Path) -> Result<(), libtest_mimic::Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let mut bad = Vec::new();
    for (name, m) in cases(corpus, tmp.path()) {
        let want = theirs(oracle, &m);
        let (got, _, _) = ours(&m);
        if got != want {
            bad.push(format!("{name}:\n  oracle {want:?}\n  ours   {got:?}"));
        }
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join("\n").into())
    }
}

pub fn trials() -> Vec<libtest_mimic::Trial> {
    let corpus = common::corpus();
    let c = corpus.clone();
    vec![
        common::corpus_test("manifest_recorded_verdicts", &corpus, recorded),
        common::needs_oracle(
            "manifests_agree_with_the_snapshot_oracle",
            common::snapshot_oracle(),
            move |bin: PathBuf| {
                common::corpus_trial(
                    "manifests_agree_with_the_snapshot_oracle",
                    &c,
                    move |corpus| agrees_with_the_oracle(corpus, &bin),
                )
            },
        ),
    ]
}

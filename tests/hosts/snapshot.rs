//! `snapshot` against the Core's compiler on the shared corpus: the ten
//! current-profile packages of the oracle's README with the 25 corpus
//! Interfaces, with and without pins, a package twice, every lane, the
//! legacy and current Bindings, each package alone, permuted input order;
//! plus the recorded digests (no oracle needed).

use std::path::{Path, PathBuf};

use crate::common;
use crate::oracle::{self, Verdict};

/// The ten current-profile packages the oracle's README names, with the
/// GROUP/KIND@VERSION of each (its default-create pin).
const TEN: [(&str, &str); 10] = [
    ("actor-namespace-0.2.0-6cb09560435e", "ActorNamespace@0.2.0"),
    (
        "container-endpoint-0.1.0-c5ee452369dd",
        "ContainerEndpoint@0.1.0",
    ),
    (
        "container-service-0.1.0-0fb3c5394018",
        "ContainerService@0.1.0",
    ),
    (
        "durable-workflow-0.2.0-9162a6d6466a",
        "DurableWorkflow@0.2.0",
    ),
    ("module-worker-0.2.0-0bdbadf2c300", "ModuleWorker@0.2.0"),
    ("object-bucket-0.1.0-52a0cd0b11d3", "ObjectBucket@0.1.0"),
    ("queue-consumer-0.2.0-03c2f61a47b7", "QueueConsumer@0.2.0"),
    (
        "worker-cron-trigger-0.2.0-0983c22734d7",
        "WorkerCronTrigger@0.2.0",
    ),
    (
        "worker-custom-domain-0.2.0-bea209fcf648",
        "WorkerCustomDomain@0.2.0",
    ),
    ("worker-endpoint-0.2.0-919eb6f18efc", "WorkerEndpoint@0.2.0"),
];

/// The digest of the ten with the 25 Interfaces and one pin per kind, in
/// any order (the oracle's README).
const TEN_DIGEST: &str = "sha256:7cb99f9e21c39822803f239a04948980d2405d2ef70b47fc0f1fc0ec1487ebed";

const GROUP: &str = "edge.forms.takoform.com";

fn package(name: &str) -> String {
    format!("packages/versionless/{name}")
}

fn pins() -> Vec<String> {
    TEN.iter()
        .flat_map(|(_, p)| ["--default".to_owned(), format!("{GROUP}/{p}")])
        .collect()
}

/// `--interface FILE` for each corpus Interface (sorted).
fn interfaces(corpus: &Path) -> Vec<String> {
    contract_files(corpus, "contracts/interfaces/v1alpha1")
        .into_iter()
        .flat_map(|f| ["--interface".to_owned(), f])
        .collect()
}

/// The `definition.json` files below `dir` of the corpus, relative, sorted.
pub fn contract_files(corpus: &Path, dir: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(corpus.join(dir))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path().join("definition.json");
            p.is_file().then(|| {
                format!(
                    "{dir}/{}",
                    p.parent().unwrap().file_name().unwrap().to_str().unwrap()
                )
            })
        })
        .map(|d| format!("{d}/definition.json"))
        .collect();
    out.sort();
    out
}

pub fn ten() -> Vec<String> {
    TEN.iter().map(|(d, _)| package(d)).collect()
}

/// Every case compared with the oracle: (name, arguments).
fn cases(corpus: &Path) -> Vec<(String, Vec<String>)> {
    let mut cases = Vec::new();
    let all = |extra: Vec<String>, dirs: Vec<String>| -> Vec<String> {
        let mut a = extra;
        a.extend(dirs);
        a
    };
    let mut full = pins();
    full.extend(interfaces(corpus));
    cases.push(("ten, interfaces, pins".into(), all(full.clone(), ten())));
    let mut reversed = full.clone();
    reversed.reverse();
    // `--default X` reversed is `X --default`: reverse the pairs, not the words.
    let pairs: Vec<String> = full.chunks(2).rev().flat_map(|c| c.to_vec()).collect();
    let mut dirs = ten();
    dirs.reverse();
    cases.push(("ten, permuted".into(), all(pairs, dirs)));
    drop(reversed);
    cases.push((
        "ten, interfaces, no pins".into(),
        all(interfaces(corpus), ten()),
    ));
    cases.push(("ten, pins, no interfaces".into(), all(pins(), ten())));
    cases.push(("ten alone".into(), ten()));
    let bucket = package(TEN[5].0);
    cases.push((
        "a package twice".into(),
        vec![bucket.clone(), bucket.clone()],
    ));
    cases.push((
        "a package twice, pinned".into(),
        vec![
            "--default".into(),
            format!("{GROUP}/{}", TEN[5].1),
            bucket.clone(),
            bucket.clone(),
        ],
    ));
    for lane in [
        "forms.takoform.com/v1",
        "forms.takoform.com/v1beta1",
        "forms.takoform.com/v1beta4",
        "forms.takoform.com/v2",
        "forms.takoform.com/v1alpha1",
        "forms.takoform.com/latest",
        "",
    ] {
        let mut a = vec!["--host-api".to_owned(), lane.to_owned()];
        a.extend(full.clone());
        a.extend(ten());
        cases.push((format!("lane {lane:?}"), a));
    }
    for (dir, pin) in TEN {
        let mut a = vec!["--default".to_owned(), format!("{GROUP}/{pin}")];
        a.extend(interfaces(corpus));
        a.push(package(dir));
        cases.push((format!("{dir} alone"), a));
    }
    for b in contract_files(corpus, "contracts/bindings/v1alpha1")
        .into_iter()
        .chain(contract_files(corpus, "contracts/bindings/v1alpha2"))
    {
        let mut a = vec!["--binding".to_owned(), b.clone()];
        a.extend(full.clone());
        a.extend(ten());
        cases.push((format!("binding {b}"), a));
    }
    // The other current-profile packages that verify, each with the ten's
    // pins for its kind (a second version of a kind: an extra Form).
    for p in [
        "actor-namespace-0.2.0-c2cb82ff5b58",
        "worker-deployment-0.2.0-f90f1b86cc93",
        "durable-workflow-0.2.0-413ace043840",
    ] {
        let mut a = full.clone();
        a.extend(ten());
        a.push(package(p));
        cases.push((format!("ten and {p}"), a));
    }
    // A refused package (an incomplete copy): no Snapshot either way.
    cases.push((
        "a refused package".into(),
        vec![package("worker-version-0.3.0-d1ccfb0b47a4")],
    ));
    cases
}

/// Every case: our verdict, digest and Core diagnostics (code, subject,
/// pointer) are the oracle's.
fn agrees_with_the_oracle(corpus: &Path, bin: &Path) -> Result<(), libtest_mimic::Failed> {
    let mut bad = Vec::new();
    let cases = cases(corpus);
    let mut compiled = 0;
    for (name, args) in &cases {
        let want = oracle::oracle(bin, corpus, args);
        let (got, _) = oracle::ours(corpus, args);
        if got.status == "compiled" {
            compiled += 1;
        }
        if got != want {
            bad.push(format!("{name}:\n  oracle {want:?}\n  ours   {got:?}"));
        }
    }
    assert!(
        compiled >= 12,
        "only {compiled} of {} cases compiled",
        cases.len()
    );
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join("\n").into())
    }
}

/// Recorded answers, no oracle: the ten compile to the README's digest in
/// both orders; without pins, ten `missing_default`; a package twice is one
/// `duplicate_identity`; a legacy Binding is refused.
fn recorded(corpus: &Path) {
    let cases = cases(corpus);
    let get = |n: &str| oracle::ours(corpus, &cases.iter().find(|(c, _)| c == n).unwrap().1).0;
    for n in ["ten, interfaces, pins", "ten, permuted"] {
        assert_eq!(get(n).digest.as_deref(), Some(TEN_DIGEST), "{n}");
    }
    let v: Verdict = get("ten, interfaces, no pins");
    assert_eq!(v.status, "failed");
    assert_eq!(v.diagnostics.len(), 10);
    assert!(v
        .diagnostics
        .iter()
        .all(|d| d.0 == "missing_default" && d.2.is_empty()));
    let v = get("a package twice");
    assert_eq!(v.diagnostics.len(), 1);
    assert_eq!(v.diagnostics[0].0, "duplicate_identity");
    let legacy = cases
        .iter()
        .find(|(c, _)| c.starts_with("binding contracts/bindings/v1alpha1/"))
        .unwrap();
    let v = oracle::ours(corpus, &legacy.1).0;
    assert_eq!(v.status, "failed");
    assert_eq!(v.diagnostics[0].0, "invalid_artifact");
    assert_eq!(v.diagnostics[0].2, "/definition");
    let v = get("lane \"forms.takoform.com/v1beta1\"");
    assert_eq!(
        v.diagnostics,
        [(
            "unsupported_host_api".to_owned(),
            "input".to_owned(),
            "/hostApi".to_owned()
        )]
    );
}

pub fn trials() -> Vec<libtest_mimic::Trial> {
    let corpus = common::corpus();
    let probe = common::snapshot_oracle();
    let c = corpus.clone();
    vec![
        common::corpus_test("recorded_digests_and_verdicts", &corpus, recorded),
        common::needs_oracle(
            "agrees_with_the_snapshot_oracle",
            probe,
            move |bin: PathBuf| {
                common::corpus_trial("agrees_with_the_snapshot_oracle", &c, move |corpus| {
                    agrees_with_the_oracle(corpus, &bin)
                })
            },
        ),
    ]
}

//! `locator` against the Core (`snapshot-oracle locator` and `parse-tag`)
//! over the whole corpus: every package's locator (or its absence, for a
//! package the Core's verifier refuses) is the oracle's, and every tag read
//! back, with and without its package apiVersion, and one-edit variants of
//! it (uppercase release id, SemVer artifact, a changed base32 character,
//! another lane), parse or are refused as the oracle says. Plus recorded
//! answers from `host-rules.md` §3, no oracle needed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common;

/// Every package directory of the corpus manifest, relative.
fn dirs(corpus: &Path) -> Vec<String> {
    let m: Value =
        serde_json::from_slice(&std::fs::read(corpus.join("manifest.json")).unwrap()).unwrap();
    m.as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap().to_owned())
        .collect()
}

/// Our locators of `dirs` (`None` for a package without one).
fn ours(corpus: &Path, dirs: &[String]) -> BTreeMap<String, Option<Value>> {
    let out = Command::new(common::BIN)
        .args(["locator", "--format", "json"])
        .args(dirs)
        .current_dir(corpus)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["path"].as_str().unwrap().to_owned(),
                p.get("locator").cloned(),
            )
        })
        .collect()
}

/// Our answer to `locator --parse TAG [--package-api-version V]`.
fn our_parse(tag: &str, api: Option<&str>) -> Option<Value> {
    let mut c = Command::new(common::BIN);
    c.args(["locator", "--format", "json", "--parse", tag]);
    if let Some(a) = api {
        c.args(["--package-api-version", a]);
    }
    let out = c.output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let got = v["packages"][0].get("locator").cloned();
    assert_eq!(out.status.code() == Some(0), got.is_some(), "{tag}");
    got
}

fn oracle_parse(bin: &Path, tag: &str, api: Option<&str>) -> Option<Value> {
    let out = Command::new(bin)
        .arg("parse-tag")
        .arg(tag)
        .args(api)
        .output()
        .unwrap();
    out.status
        .success()
        .then(|| serde_json::from_slice(&out.stdout).unwrap())
}

/// The tags to read back: each package's, and one-edit variants.
fn variants(tag: &str) -> Vec<String> {
    let parts: Vec<&str> = tag.split('/').collect();
    let (id, art) = (parts[1], parts[2]);
    let mut flipped = id.to_owned();
    let last = flipped.pop().unwrap();
    flipped.push(if last == 'a' { 'b' } else { 'a' });
    vec![
        tag.to_owned(),
        format!("forms/{}/{art}", id.to_uppercase()),
        format!("forms/{id}/v0.1.0"),
        format!("forms/{id}/sha256-{}", "0".repeat(64)),
        format!("forms/{flipped}/{art}"),
        format!("forms/{id}/{}", art.trim_start_matches('v')),
        format!("releases/{id}/{art}"),
        format!("forms/{id}={art}"),
    ]
}

const APIS: [&str; 6] = [
    "packages.forms.takoform.com/v1alpha1",
    "packages.forms.takoform.com/v1alpha2",
    "packages.forms.takoform.com/v1alpha3",
    "packages.forms.takoform.com/v1alpha4",
    "packages.forms.takoform.com/v1alpha5",
    "packages.forms.takoform.com/v1",
];

fn agrees_with_the_oracle(corpus: &Path, bin: &Path) -> Result<(), libtest_mimic::Failed> {
    let dirs = dirs(corpus);
    let mine = ours(corpus, &dirs);
    let out = Command::new(bin)
        .arg("locator")
        .args(&dirs)
        .current_dir(corpus)
        .output()
        .unwrap();
    let mut bad = Vec::new();
    let mut tags = std::collections::BTreeSet::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let dir = v["dir"].as_str().unwrap();
        let want = v.get("locator").cloned();
        let got = mine.get(dir).cloned().flatten();
        if want != got {
            bad.push(format!("{dir}: oracle {want:?}, ours {got:?}"));
        }
        if let Some(w) = want {
            tags.insert((
                w["tag"].as_str().unwrap().to_owned(),
                w["apiVersion"].as_str().unwrap().to_owned(),
            ));
        }
    }
    assert!(tags.len() > 200, "{} tags", tags.len());
    // Up to 12 tags of each package apiVersion (the grammar depends on the
    // lane and the release id, not on the package): each with every
    // apiVersion, each variant without one and with the tag's own.
    let mut per_lane: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (tag, api) in &tags {
        let lane = per_lane.entry(api.clone()).or_default();
        if lane.len() < 12 {
            lane.push((tag.clone(), api.clone()));
        }
    }
    let mut parsed = 0;
    for (tag, own) in per_lane.values().flatten() {
        let mut runs: Vec<(String, Option<&str>)> = std::iter::once(None)
            .chain(APIS.iter().map(|a| Some(*a)))
            .map(|a| (tag.clone(), a))
            .collect();
        for t in variants(tag).into_iter().skip(1) {
            runs.push((t.clone(), None));
            runs.push((t, Some(own.as_str())));
        }
        for (t, api) in runs {
            let want = oracle_parse(bin, &t, api);
            let got = our_parse(&t, api);
            parsed += usize::from(want.is_some());
            if want != got {
                bad.push(format!("parse {t} {api:?}: oracle {want:?}, ours {got:?}"));
            }
        }
    }
    assert!(parsed > 40, "{parsed} parsed");
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join("\n").into())
    }
}

/// `host-rules.md` §3's worked examples, recorded.
fn recorded(corpus: &Path) {
    let cases = [
        ("packages/v1alpha1/example-store-1.0.0-f486d5e31632", "forms/k-iv4gc3lqnrsvg5dpojsq/v1.0.0"),
        ("packages/v1alpha2/container-service-0.1.0-aebbdaa7473b", "forms/k-inxw45dbnfxgk4stmvzhm2ldmu/sha256-aebbdaa7473be2d857c1f948521bf86ca6c30d84ca7e9279b84b49edc4fcc888"),
        ("packages/versionless/object-bucket-0.1.0-52a0cd0b11d3", "forms/k-mvsgozjomzxxe3ltfz2gc23pmzxxe3jomnxw2l2pmjvgky3uij2wg23foq/sha256-52a0cd0b11d35fbf8ab57ac7d5717f550efa77a2b20997b8ac0abdf3e4752200"),
    ];
    let dirs: Vec<String> = cases.iter().map(|(d, _)| (*d).to_owned()).collect();
    let mine = ours(corpus, &dirs);
    for (d, tag) in cases {
        assert_eq!(mine[d].as_ref().unwrap()["tag"], tag, "{d}");
    }
    assert!(our_parse(cases[1].1, None).is_none());
    assert_eq!(
        our_parse(cases[1].1, Some("packages.forms.takoform.com/v1alpha3")).unwrap()["apiVersion"],
        "packages.forms.takoform.com/v1alpha3"
    );
    // verify --format json carries the locator of a verified package.
    let out = Command::new(common::BIN)
        .args(["verify", "--format", "json", cases[2].0])
        .current_dir(corpus)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["packages"][0]["locator"]["tag"], cases[2].1);
}

pub fn trials() -> Vec<libtest_mimic::Trial> {
    let corpus = common::corpus();
    let probe = common::snapshot_oracle();
    let c = corpus.clone();
    vec![
        common::corpus_test("recorded_locators", &corpus, recorded),
        common::needs_oracle(
            "locators_agree_with_the_snapshot_oracle",
            probe,
            move |bin: PathBuf| {
                common::corpus_trial(
                    "locators_agree_with_the_snapshot_oracle",
                    &c,
                    move |corpus| agrees_with_the_oracle(corpus, &bin),
                )
            },
        ),
    ]
}

//! `desired validate|materialize` against the Core (issue 39 item 2): the
//! synthetic Forms of `tests/cases/desired/` cover each rule of the Core's
//! default insertion (`../shared/spec/host-rules.md` §1.6: `properties`
//! defaults, nested defaults of a defaulted object, `additionalProperties`
//! and `items` recursion, the discriminator's branch, a missing tag, nothing
//! behind `$ref`/`allOf`/`anyOf`/`if`/a `type` array, numbers, a default the
//! schema refuses, exact lookup beside another version, a FormRef file).
//!
//! `cases.json` records, for each case and mode, the exit status and (a
//! materialized document) the stdout bytes of
//! `../shared/oracle/snapshot-oracle` (`record.py` writes it from
//! `cases.src.json`). The first trial compares our binary with the record
//! and needs no oracle; the second runs the oracle live on every case and
//! compares it with ours and with the record, byte for byte. Without the
//! oracle (`common::snapshot_oracle`) it is reported ignored, and fails when
//! `CI` or `FORM_PACKAGE_REQUIRE_ORACLE` is set (`common::needs_oracle`).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/desired")
}

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(here().join("cases.json")).unwrap();
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn s<'a>(c: &'a Value, key: &str) -> &'a str {
    c[key].as_str().unwrap()
}

/// REF as the case gives it: `GROUP/KIND@VERSION`, or a FormRef file
/// under `documents/`.
fn reference(c: &Value) -> String {
    let r = s(c, "ref");
    if r.contains('@') {
        r.to_owned()
    } else {
        format!("documents/{r}")
    }
}

/// Our `desired MODE packages/... REF documents/DOC`, run in the cases
/// directory.
fn ours(c: &Value) -> std::process::Output {
    let mut args = vec!["desired".to_owned(), s(c, "mode").to_owned()];
    for p in c["packages"].as_array().unwrap() {
        args.push(format!("packages/{}", p.as_str().unwrap()));
    }
    args.push(reference(c));
    args.push(format!("documents/{}", s(c, "document")));
    Command::new(crate::common::BIN)
        .args(&args)
        .current_dir(here())
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// The oracle's `MODE dirs:packages/... REF documents/DOC`.
fn theirs(oracle: &Path, c: &Value) -> std::process::Output {
    let dirs: Vec<String> = c["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("packages/{}", p.as_str().unwrap()))
        .collect();
    Command::new(oracle)
        .arg(s(c, "mode"))
        .arg(format!("dirs:{}", dirs.join(",")))
        .arg(reference(c))
        .arg(format!("documents/{}", s(c, "document")))
        .current_dir(here())
        .output()
        .unwrap()
}

fn label(c: &Value) -> String {
    format!("{} {} ({})", s(c, "mode"), s(c, "document"), s(c, "rule"))
}

/// Every recorded case: our exit status is the oracle's, and a
/// materialized document is byte for byte the oracle's stdout. A refusal
/// carries FD762, or the finding its case names (near miss: an accepted
/// case carries none).
fn recorded_cases_give_the_oracles_verdicts_and_bytes() {
    let cases = cases();
    assert!(cases.len() >= 28, "{} cases", cases.len());
    let mut bytes_compared = 0;
    for c in &cases {
        let out = ours(c);
        let want = c["exit"].as_i64().unwrap() as i32;
        assert_eq!(
            out.status.code(),
            Some(want),
            "{}: exit; stderr {}",
            label(c),
            String::from_utf8_lossy(&out.stderr)
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        if let Some(expected) = c["stdout"].as_str() {
            assert_eq!(stdout, expected, "{}: materialized bytes", label(c));
            assert!(!stderr.contains("FD762"), "{}: {stderr}", label(c));
            bytes_compared += 1;
        } else if want == 1 {
            // A refusal carries FD762, or the finding the case names (a
            // set that does not compile: FD755, and FD764 on the document).
            let text = format!("{stdout}{stderr}");
            let code = c["finding"].as_str().unwrap_or("FD762");
            assert!(text.contains(code), "{}: {text}", label(c));
            if code != "FD762" {
                assert!(text.contains("FD764"), "{}: {text}", label(c));
            }
        } else {
            assert!(stdout.contains("(valid against "), "{}: {stdout}", label(c));
        }
    }
    assert!(bytes_compared >= 9, "{bytes_compared} documents compared");
}

/// Live: the oracle's exit status and stdout equal the record and ours on
/// every case (so the record cannot drift from the Core).
fn the_oracle_agrees_live(oracle: &Path) {
    for c in &cases() {
        let o = theirs(oracle, c);
        let u = ours(c);
        let want = c["exit"].as_i64().unwrap() as i32;
        assert_eq!(o.status.code(), Some(want), "{}: oracle exit", label(c));
        assert_eq!(u.status.code(), o.status.code(), "{}: our exit", label(c));
        if let Some(expected) = c["stdout"].as_str() {
            assert_eq!(o.stdout, expected.as_bytes(), "{}: oracle bytes", label(c));
            assert_eq!(u.stdout, o.stdout, "{}: our bytes", label(c));
        }
    }
}

/// The trials of this file.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    let name = "the_snapshot_oracle_agrees_live";
    vec![
        crate::common::test(
            "recorded_cases_give_the_oracles_verdicts_and_bytes",
            recorded_cases_give_the_oracles_verdicts_and_bytes,
        ),
        crate::common::needs_oracle(name, crate::common::snapshot_oracle(), |o| {
            libtest_mimic::Trial::test(name, move || {
                the_oracle_agrees_live(&o);
                Ok(())
            })
        }),
    ]
}

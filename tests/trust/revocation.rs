//! `validate-revocation` and `validate-revocation-checkpoint` over every
//! case of `corpus/conformance/revocation-checkpoint-v1/cases.json` (55:
//! valid documents, pins, advances and refusals), through the binary: the
//! expected verdict, the expected pin (members and order), and for each
//! refusal the code of its own kind.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::print_stderr
)] // test code: a panic is a failed test

use crate::common;

use std::path::Path;

use serde_json::Value;

use common::run_in as run;

/// The code each refusal must carry: schema refusals carry the schema code
/// of the document kind; every typed rule has its own.
fn expected_code(operation: &str, gist: &str) -> &'static str {
    if gist.starts_with("schema: ") {
        return if operation == "validate-revocation" {
            "FD601"
        } else {
            "FD610"
        };
    }
    const TABLE: &[(&str, &str)] = &[
        ("unsupported apiVersion", "FD600"),
        ("entries[0]: FormRef apiVersion", "FD617"),
        ("FormRef apiVersion", "FD603"),
        ("cumulative entries, found", "FD611"),
        ("previousCheckpointDigest", "FD612"),
        ("].sequence is", "FD613"),
        ("duplicate statementVersion", "FD614"),
        ("duplicate statementDigest", "FD615"),
        (
            "final statementVersion must equal checkpointVersion",
            "FD616",
        ),
        ("pin has unsupported profile", "FD620"),
        ("pin cannot have sequence 0", "FD620"),
        ("pin has a non-canonical digest", "FD620"),
        ("first trusted", "FD621"),
        ("revocation checkpoint sequence is", "FD622"),
        ("does not extend the pinned digest", "FD623"),
        ("rewrites the pinned cumulative entries", "FD624"),
        ("does not match pinned", "FD625"),
        (
            "does not identify the exact signed current genesis",
            "FD626",
        ),
    ];
    TABLE
        .iter()
        .find(|(g, _)| gist.contains(g))
        .map(|(_, c)| *c)
        .unwrap_or_else(|| panic!("no code for gist {gist:?}"))
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn every_case_gives_its_expected_result_and_pin() {
    let corpus = common::corpus_root();
    let dir = corpus.join("conformance/revocation-checkpoint-v1");
    let cases: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cases.json")).unwrap()).unwrap();
    let cases = cases["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 55);
    let tmp = tempfile::tempdir().unwrap();
    let pin_file = tmp.path().join("pin.json");
    let mut failures = Vec::new();
    let mut codes_by_gist = std::collections::BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        let file = c["file"].as_str().unwrap();
        let op = c["operation"].as_str().unwrap();
        let mut args: Vec<String> = match op {
            "validate-revocation" => vec![op.into(), file.into()],
            _ => vec!["validate-revocation-checkpoint".into(), file.into()],
        };
        if op == "advance" {
            match &c["previousPin"] {
                Value::Null => args.push("--advance".into()),
                pin => {
                    std::fs::write(&pin_file, pin.to_string()).unwrap();
                    args.push("--previous-pin".into());
                    args.push(pin_file.display().to_string());
                }
            }
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let plain = run(&dir, &argv);
        let mut with_json = argv.clone();
        with_json.extend(["--format", "json"]);
        let json = run(&dir, &with_json);
        let valid = c["expect"] == "valid";
        let want_exit = if valid { 0 } else { 1 };
        if plain.status.code() != Some(want_exit) || json.status.code() != Some(want_exit) {
            failures.push(format!(
                "case {i} {op} {file}: exit {:?}/{:?}, want {want_exit}: {}",
                plain.status.code(),
                json.status.code(),
                String::from_utf8_lossy(&plain.stderr)
            ));
            continue;
        }
        if valid {
            let out: Value = serde_json::from_slice(&plain.stdout).unwrap();
            if let Some(want) = c.get("expectPin") {
                let got = &out["pin"];
                let order =
                    |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
                if got != want || order(got) != order(want) {
                    failures.push(format!("case {i} {file}: pin {got}, want {want}"));
                }
                assert!(out["checkpoint"].is_object(), "case {i}");
            } else {
                // Without flags: the decoded document (member order may differ from the input).
                let input: Value =
                    serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap())
                        .unwrap();
                assert_eq!(out, input, "case {i}: the decoded document");
            }
            continue;
        }
        let gist = c["errorGist"].as_str().unwrap();
        let want = expected_code(op, gist);
        let report: Value = serde_json::from_slice(&json.stdout).unwrap();
        let diags = report["packages"][0]["diagnostics"].as_array().unwrap();
        let codes: Vec<&str> = diags.iter().map(|d| d["code"].as_str().unwrap()).collect();
        if !codes.contains(&want) {
            failures.push(format!(
                "case {i} {file} ({gist}): codes {codes:?}, want {want}"
            ));
        }
        // The typed-rule gists are the reference's messages, quoted in ours.
        if !gist.starts_with("schema: ")
            && !diags
                .iter()
                .any(|d| d["message"].as_str().unwrap().contains(gist))
        {
            failures.push(format!("case {i} {file}: no message quotes {gist:?}"));
        }
        // Every finding is located: a file and, for a document that parsed, a line.
        for d in diags {
            assert!(d["file"].is_string(), "case {i}: {d}");
            assert!(d["line"].as_u64().is_some_and(|l| l >= 1), "case {i}: {d}");
        }
        codes_by_gist.insert(gist.to_owned(), want);
        // The default output keeps the reference's one line first, on stderr.
        let stderr = String::from_utf8_lossy(&plain.stderr);
        assert!(stderr.starts_with("form-package: "), "case {i}: {stderr}");
        assert!(plain.stdout.is_empty(), "case {i}: nothing on stdout");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Not one catch-all: the 40 refusals spread over many codes.
    let distinct: std::collections::BTreeSet<_> = codes_by_gist.values().collect();
    assert!(distinct.len() >= 15, "{distinct:?}");
}

#[test]
fn a_refusal_is_located_in_every_format() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/inputs");
    let human = run(
        &dir,
        &[
            "validate-revocation",
            "statement-1-reasonCode-deprecated.json",
        ],
    );
    assert_eq!(human.status.code(), Some(1));
    let text = String::from_utf8(human.stderr).unwrap();
    assert!(text.contains("FD601 revocation-schema-violation"), "{text}");
    assert!(
        text.contains(
            "statement-1-reasonCode-deprecated.json:13:17: the value \"deprecated\" at /reasonCode"
        ),
        "{text}"
    );
    let sarif = run(
        &dir,
        &[
            "validate-revocation-checkpoint",
            "checkpoint-2-entry-sequence-9.json",
            "--format",
            "sarif",
        ],
    );
    assert_eq!(sarif.status.code(), Some(1));
    let log: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "FD613");
    let region = &result["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startLine"], 9, "{result}");
    let github = run(
        &dir,
        &[
            "validate-revocation-checkpoint",
            "checkpoint-2-entry-sequence-9.json",
            "--format",
            "github",
        ],
    );
    let text = String::from_utf8(github.stdout).unwrap();
    assert!(
        text.contains("::error file=checkpoint-2-entry-sequence-9.json,line=9"),
        "{text}"
    );
    // Near miss: the same file advanced from nothing is valid only as a document.
    let ok = run(
        &dir,
        &["validate-revocation-checkpoint", "checkpoint-2-fork.json"],
    );
    assert_eq!(ok.status.code(), Some(0));
}

#[test]
fn a_pin_file_that_is_not_a_pin_is_refused_in_the_pin_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/inputs");
    let tmp = tempfile::tempdir().unwrap();
    let pin = tmp.path().join("pin.json");
    std::fs::write(
        &pin,
        r#"{"sequence": 1, "digest": "sha256:00", "extra": true}"#,
    )
    .unwrap();
    let out = run(
        &dir,
        &[
            "validate-revocation-checkpoint",
            "checkpoint-2.json",
            "--previous-pin",
            pin.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = v["packages"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(codes.iter().all(|c| *c == "FD620"), "{codes:?}");
    assert!(!codes.is_empty());
    // --advance and --previous-pin together are a usage error.
    let both = run(
        &dir,
        &[
            "validate-revocation-checkpoint",
            "checkpoint-2.json",
            "--advance",
            "--previous-pin",
            pin.to_str().unwrap(),
        ],
    );
    assert_eq!(both.status.code(), Some(2));
    // A missing file cannot be read: exit 2.
    assert_eq!(
        run(&dir, &["validate-revocation", "nope.json"])
            .status
            .code(),
        Some(2)
    );
}

/// FD602: a sequence the schema's integer type accepts but the typed
/// decode (uint64) refuses, as the reference refuses it; near miss: the
/// largest uint64 is accepted.
#[test]
fn the_typed_decode_refuses_what_the_reference_refuses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/inputs");
    let text = std::fs::read_to_string(dir.join("statement-1.json")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for (literal, exit) in [
        ("1.0", 1),
        ("1e0", 1),
        ("18446744073709551616", 1),
        ("18446744073709551615", 0),
    ] {
        let f = tmp.path().join("s.json");
        std::fs::write(
            &f,
            text.replacen("\"sequence\": 1,", &format!("\"sequence\": {literal},"), 1),
        )
        .unwrap();
        let out = run(
            tmp.path(),
            &["validate-revocation", "s.json", "--format", "json"],
        );
        assert_eq!(out.status.code(), Some(exit), "{literal}");
        if exit == 1 {
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            let d = &v["packages"][0]["diagnostics"][0];
            assert_eq!(d["code"], "FD602", "{literal}: {d}");
            assert_eq!(d["pointer"], "/sequence");
        }
    }
}

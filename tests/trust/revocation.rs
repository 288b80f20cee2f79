//! `validate-revocation` and `validate-revocation-checkpoint` over every
//! case of `corpus/conformance/revocation-checkpoint-v1/cases.json` (55:
//! valid documents, pins, advances and refusals), through the binary: the
//! expected verdict, the expected pin (members and order), and for each
//! refusal the code of its own kind.

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

fn every_case_gives_its_expected_result_and_pin(corpus: &Path) {
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
    let codes = crate::common::codes(&v);
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

// ---------------------------------------------------------------------------
// One revocation model (issue 21 item 4): `validate-revocation-checkpoint`
// and the trust commands' checkpoint path give one verdict on every chain.

use form_package::canonical::{canonicalize, sha256_digest};
use form_package::codes::Code;
use form_package::revocation::{self as model, CHECKPOINT_PREFIX};
use form_package::trust::revocation as trust;
use form_package::trust::ErrorClass;
use serde_json::json;

/// An answer of either path: the pin kept and whether the checkpoint was
/// unchanged since the pin, or the refusal's text.
type Verdict = Result<(Value, bool), String>;

/// The current-profile genesis (sequence 0, the only empty state).
fn genesis() -> Value {
    json!({"apiVersion": model::CURRENT, "kind": model::CHECKPOINT_KIND,
        "checkpointVersion": "0.0.0", "sequence": 0, "previousCheckpointDigest": null, "entries": []})
}

fn digest_of(doc: &Value) -> String {
    sha256_digest(&canonicalize(doc).unwrap())
}

/// The `n`th current-profile entry (1-based), distinct digests per `n`.
fn current_entry(n: u64, version: &str) -> Value {
    json!({"statementApiVersion": model::CURRENT, "sequence": n, "statementVersion": version,
        "statementDigest": format!("sha256:{}", format!("{n:x}").repeat(64).get(..64).unwrap()),
        "packageDigest": format!("sha256:{}", "ab".repeat(32)),
        "formRef": {"apiVersion": "storage.forms.publisher.example", "kind": format!("Kind{n}"),
            "definitionVersion": "0.1.0", "schemaDigest": format!("sha256:{}", "c".repeat(64))}})
}

/// The current-profile checkpoint after `prev` with `entries`.
fn current_after(prev: &Value, entries: &[Value]) -> Value {
    let version = entries.last().unwrap()["statementVersion"].clone();
    json!({"apiVersion": model::CURRENT, "kind": model::CHECKPOINT_KIND,
        "checkpointVersion": version, "sequence": entries.len(),
        "previousCheckpointDigest": digest_of(prev), "entries": entries})
}

/// The pin of `doc` advanced from `prev` by the model (the inputs of the
/// chains below; what both paths answer is compared, not these).
fn pin_of(doc: &Value, prev: Option<&Value>) -> Value {
    let valid = model::validate_checkpoint("cp", doc).unwrap();
    let prev = prev.map(|p| model::parse_pin("pin", p).unwrap());
    serde_json::to_value(
        model::advance("cp", prev.as_ref(), &valid, false)
            .unwrap()
            .pin,
    )
    .unwrap()
}

/// `validate-revocation-checkpoint FILE [--advance | --previous-pin PIN
/// [--allow-unchanged]]`, through the binary.
fn through_validate(tmp: &Path, doc: &Value, pin: Option<&Value>, allow: bool) -> Verdict {
    let file = tmp.join("checkpoint.json");
    std::fs::write(&file, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    let pin_file = tmp.join("pin.json");
    let mut args = vec!["validate-revocation-checkpoint", "checkpoint.json"];
    match pin {
        None => args.push("--advance"),
        Some(p) => {
            std::fs::write(&pin_file, p.to_string()).unwrap();
            args.extend(["--previous-pin", "pin.json"]);
            if allow {
                args.push("--allow-unchanged");
            }
        }
    }
    let out = run(tmp, &args);
    match out.status.code() {
        Some(0) => {
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            Ok((v["pin"].clone(), v["unchanged"] == true))
        }
        Some(1) => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let first = stderr.lines().next().unwrap_or_default();
            let first = first.strip_prefix("form-package: ").unwrap_or(first);
            let prefix = format!("{CHECKPOINT_PREFIX}: ");
            Err(first.strip_prefix(&prefix).unwrap_or(first).to_owned())
        }
        other => panic!(
            "{args:?}: exit {other:?}: {stderr}",
            stderr = String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// The trust commands' checkpoint path (what `trust verify-checkpoint`
/// runs around the signature check): the pin, the signed canonical bytes,
/// the checkpoint, the advance.
fn through_trust(doc: &Value, pin: Option<&Value>, allow: bool) -> Verdict {
    let bytes = canonicalize(doc).unwrap();
    let answer = (|| {
        let pin = match pin {
            None => None,
            Some(p) => Some(trust::parse_pin("pin.json", p.to_string().as_bytes())?),
        };
        let value = trust::canonical_checkpoint(&bytes)?;
        let valid = trust::validate_checkpoint("checkpoint.json", &value)?;
        trust::advance("checkpoint.json", pin.as_ref(), &valid, allow)
    })();
    answer
        .map(|a| (serde_json::to_value(&a.pin).unwrap(), a.unchanged))
        .map_err(|e| e.message)
}

/// Both paths on one step: the same acceptance, pin and unchanged flag, or
/// both refused with the trust refusal quoting the command's first finding.
fn same_verdict(tmp: &Path, what: &str, doc: &Value, pin: Option<&Value>) -> Vec<String> {
    let mut failures = Vec::new();
    let allows: &[bool] = if pin.is_some() {
        &[false, true]
    } else {
        &[false]
    };
    for &allow in allows {
        let cmd = through_validate(tmp, doc, pin, allow);
        let lib = through_trust(doc, pin, allow);
        let agree = match (&cmd, &lib) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) => b.contains(a.as_str()),
            _ => false,
        };
        if !agree {
            failures.push(format!("{what} (allow-unchanged {allow}): validate-revocation-checkpoint {cmd:?}, trust {lib:?}"));
        }
    }
    failures
}

fn reference_input(name: &str) -> Value {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/inputs");
    serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).unwrap()
}

/// Crafted chains of both profiles, each step with and without
/// `--allow-unchanged`: the valid advances, a replay (the pinned checkpoint
/// again: refused, or unchanged with the flag), a gap, a fork, a rollback,
/// a wrong pinned digest and entries digest, a crossed profile, pins that
/// are not pins.
fn both_commands_give_one_verdict_on_crafted_chains() {
    let tmp = tempfile::tempdir().unwrap();
    let cp1 = reference_input("checkpoint-1.json");
    let cp2 = reference_input("checkpoint-2.json");
    let fork = reference_input("checkpoint-2-fork.json");
    let seq9 = reference_input("checkpoint-2-entry-sequence-9.json");
    let g = genesis();
    let c1 = current_after(&g, &[current_entry(1, "1.0.0")]);
    let c2 = current_after(&c1, &[current_entry(1, "1.0.0"), current_entry(2, "1.1.0")]);
    let pin1 = pin_of(&cp1, None);
    let pin2 = pin_of(&cp2, Some(&pin1));
    let gpin = pin_of(&g, None);
    let c1pin = pin_of(&c1, Some(&gpin));
    let c2pin = pin_of(&c2, Some(&c1pin));
    let with = |pin: &Value, k: &str, v: Value| {
        let mut p = pin.clone();
        p[k] = v;
        p
    };
    let zeros = json!(format!("sha256:{}", "0".repeat(64)));
    let steps: Vec<(&str, &Value, Option<Value>)> = vec![
        ("legacy first", &cp1, None),
        ("legacy next", &cp2, Some(pin1.clone())),
        ("legacy first is not sequence 1", &cp2, None),
        ("legacy replay of 1", &cp1, Some(pin1.clone())),
        ("legacy replay of 2", &cp2, Some(pin2.clone())),
        ("legacy rollback", &cp1, Some(pin2.clone())),
        ("legacy fork", &fork, Some(pin1.clone())),
        ("legacy entry sequence 9", &seq9, Some(pin1.clone())),
        (
            "wrong pinned digest",
            &cp2,
            Some(with(&pin1, "digest", zeros.clone())),
        ),
        (
            "wrong pinned entries digest",
            &cp2,
            Some(with(&pin1, "entriesDigest", zeros.clone())),
        ),
        (
            "replay under a wrong entries digest",
            &cp1,
            Some(with(&pin1, "entriesDigest", zeros.clone())),
        ),
        ("current genesis", &g, None),
        ("current next", &c1, Some(gpin.clone())),
        ("current next again", &c2, Some(c1pin.clone())),
        ("current gap", &c2, Some(gpin.clone())),
        ("current replay of the genesis", &g, Some(gpin.clone())),
        ("current replay of 2", &c2, Some(c2pin.clone())),
        ("current rollback", &c1, Some(c2pin.clone())),
        ("current rollback to the genesis", &g, Some(c1pin.clone())),
        ("current first is not the genesis", &c1, None),
        ("legacy pin on current", &c1, Some(pin1.clone())),
        ("current pin on legacy", &cp2, Some(gpin.clone())),
        (
            "sequence-0 pin that is not the genesis",
            &c1,
            Some(with(&gpin, "digest", zeros.clone())),
        ),
        (
            "legacy sequence-0 pin",
            &cp1,
            Some(json!({"sequence": 0, "digest": zeros, "entriesDigest": zeros})),
        ),
        (
            "pin with an unknown member",
            &cp2,
            Some(with(&pin1, "extra", json!(true))),
        ),
        (
            "pin of another profile",
            &c1,
            Some(with(
                &gpin,
                "checkpointApiVersion",
                json!("trust.forms.takoform.com/v2"),
            )),
        ),
    ];
    let mut failures = Vec::new();
    for (what, doc, pin) in &steps {
        failures.extend(same_verdict(tmp.path(), what, doc, pin.as_ref()));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The chains are real: valid steps, unchanged ones and refusals all occur.
    let verdicts: Vec<Verdict> = steps
        .iter()
        .map(|(_, d, p)| through_trust(d, p.as_ref(), true))
        .collect();
    assert_eq!(
        verdicts
            .iter()
            .filter(|v| v.as_ref().is_ok_and(|(_, u)| !u))
            .count(),
        5
    );
    assert_eq!(
        verdicts
            .iter()
            .filter(|v| v.as_ref().is_ok_and(|(_, u)| *u))
            .count(),
        4
    );
    assert_eq!(
        through_trust(&g, Some(&gpin), false).map_err(|e| e.contains("--allow-unchanged")),
        Err(true)
    );
}

/// Every `advance` case of `corpus/conformance/revocation-checkpoint-v1`
/// (each with and without `--allow-unchanged`) through both paths.
fn both_commands_give_one_verdict_on_every_corpus_chain(corpus: &Path) {
    let dir = corpus.join("conformance/revocation-checkpoint-v1");
    let cases: Value =
        serde_json::from_slice(&std::fs::read(dir.join("cases.json")).unwrap()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for c in cases["cases"].as_array().unwrap() {
        if c["operation"] != "advance" {
            continue;
        }
        let file = c["file"].as_str().unwrap();
        let doc: Value = serde_json::from_slice(&std::fs::read(dir.join(file)).unwrap()).unwrap();
        let pin = Some(&c["previousPin"]).filter(|p| !p.is_null());
        failures.extend(same_verdict(tmp.path(), file, &doc, pin));
        n += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(n, 18);
}

/// The one signed checkpoint of the corpus (the Edge publisher's genesis)
/// through both binaries, `trust verify-checkpoint` with its real bundle,
/// from every kind of previous pin.
fn both_binaries_agree_on_the_signed_genesis(corpus: &Path) {
    let forms = corpus.join("trust/takoform-forms/forms/trust");
    let set = forms.join("sets/e7f8a39311dd011b8467e97e7f300cabb9a6b06c/revocations");
    let checkpoint = set.join("checkpoint.json");
    let doc: Value = serde_json::from_slice(&std::fs::read(&checkpoint).unwrap()).unwrap();
    let gpin = pin_of(&genesis(), None);
    let legacy = pin_of(&reference_input("checkpoint-1.json"), None);
    let mut not_genesis = gpin.clone();
    not_genesis["digest"] = json!(format!("sha256:{}", "0".repeat(64)));
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut accepted = 0;
    for (what, pin) in [
        ("no pin", None),
        ("the genesis pin", Some(&gpin)),
        ("a legacy pin", Some(&legacy)),
        (
            "a sequence-0 pin that is not the genesis",
            Some(&not_genesis),
        ),
    ] {
        for allow in [false, true] {
            if allow && pin.is_none() {
                continue;
            }
            let cmd = through_validate(tmp.path(), &doc, pin, allow);
            let mut trust_cmd = std::process::Command::new(crate::common::BIN);
            trust_cmd
                .args(["trust", "verify-checkpoint", "--checkpoint"])
                .arg(&checkpoint)
                .arg("--bundle")
                .arg(set.join("checkpoint.sigstore.json"))
                .arg("--trusted-root")
                .arg(forms.join("trusted-root.json"))
                .arg("--policy")
                .arg(forms.join("publisher-policy.json"));
            if let Some(p) = pin {
                let f = tmp.path().join("trust-pin.json");
                std::fs::write(&f, p.to_string()).unwrap();
                trust_cmd.arg("--previous-pin").arg(f);
                if allow {
                    trust_cmd.arg("--allow-unchanged");
                }
            }
            let out = trust_cmd.output().unwrap();
            let lib: Verdict = match out.status.code() {
                Some(0) => {
                    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
                    Ok((v["pin"].clone(), v["status"] == "unchanged"))
                }
                _ => {
                    let e: Value = serde_json::from_slice(&out.stderr).unwrap();
                    assert_eq!(out.status.code(), Some(1), "{what}: {e}");
                    Err(e["message"].as_str().unwrap().to_owned())
                }
            };
            let agree = match (&cmd, &lib) {
                (Ok(a), Ok(b)) => a == b,
                (Err(a), Err(b)) => b.contains(a.as_str()),
                _ => false,
            };
            if !agree {
                failures.push(format!("{what} ({allow}): {cmd:?} / trust {lib:?}"));
            }
            accepted += usize::from(lib.is_ok());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The first advance, and the replay with --allow-unchanged; the rest refused.
    assert_eq!(accepted, 2);
}

/// What the trust path now refuses because it validates the whole
/// checkpoint against its profile's schema and typed rules (its own reader
/// accepted each of these): `invalid-checkpoint`, naming the finding that
/// `validate-revocation-checkpoint` reports with its code. Near miss: the
/// unedited checkpoints are valid on both.
fn the_trust_path_refuses_what_the_full_schema_refuses() {
    let g = genesis();
    let c1 = current_after(&g, &[current_entry(1, "1.0.0")]);
    let c2 = current_after(&c1, &[current_entry(1, "1.0.0"), current_entry(2, "1.1.0")]);
    let cp2 = reference_input("checkpoint-2.json");
    let edit = |doc: &Value, f: &dyn Fn(&mut Value)| {
        let mut d = doc.clone();
        f(&mut d);
        d
    };
    let schema = "does not satisfy Draft 2020-12 schema";
    let cases: Vec<(&str, Value, Code, &str)> = vec![
        (
            "entry without statementDigest",
            edit(&c1, &|d| {
                d["entries"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("statementDigest");
            }),
            Code::CheckpointSchemaViolation,
            schema,
        ),
        (
            "entry without statementApiVersion",
            edit(&c1, &|d| {
                d["entries"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("statementApiVersion");
            }),
            Code::CheckpointSchemaViolation,
            schema,
        ),
        (
            "entry with an unknown member",
            edit(&c1, &|d| d["entries"][0]["note"] = json!("x")),
            Code::CheckpointSchemaViolation,
            schema,
        ),
        (
            "FormRef with an unknown member",
            edit(&c1, &|d| d["entries"][0]["formRef"]["extra"] = json!("x")),
            Code::CheckpointSchemaViolation,
            schema,
        ),
        (
            "statementVersion not SemVer",
            edit(&c1, &|d| {
                d["entries"][0]["statementVersion"] = json!("1.0");
                d["checkpointVersion"] = json!("1.0");
            }),
            Code::CheckpointSchemaViolation,
            schema,
        ),
        (
            "statementDigest in uppercase",
            edit(&c1, &|d| {
                d["entries"][0]["statementDigest"] = json!(format!("sha256:{}", "A".repeat(64)))
            }),
            Code::CheckpointSchemaViolation,
            schema,
        ),
        (
            "FormRef of the reserved group",
            edit(&c1, &|d| {
                d["entries"][0]["formRef"]["apiVersion"] = json!("trust.forms.takoform.com")
            }),
            Code::CheckpointEntryFormRefGroup,
            "is reserved or unsupported",
        ),
        (
            "duplicate statementVersion",
            edit(&c2, &|d| {
                d["entries"][1]["statementVersion"] = json!("1.0.0");
                d["checkpointVersion"] = json!("1.0.0");
            }),
            Code::CheckpointDuplicateStatementVersion,
            "duplicate statementVersion",
        ),
        (
            "duplicate statementDigest",
            edit(&c2, &|d| {
                d["entries"][1]["statementDigest"] = d["entries"][0]["statementDigest"].clone()
            }),
            Code::CheckpointDuplicateStatementDigest,
            "duplicate statementDigest",
        ),
        (
            "legacy final statementVersion",
            edit(&cp2, &|d| d["checkpointVersion"] = json!("1.2.0")),
            Code::CheckpointFinalVersion,
            "final statementVersion must equal checkpointVersion",
        ),
    ];
    let trust_path = |doc: &Value| {
        trust::canonical_checkpoint(&canonicalize(doc).unwrap())
            .and_then(|v| trust::validate_checkpoint("checkpoint.json", &v))
    };
    for doc in [&g, &c1, &c2, &cp2] {
        assert!(model::validate_checkpoint("checkpoint.json", doc).is_ok());
        assert!(trust_path(doc).is_ok());
    }
    for (what, doc, code, gist) in cases {
        let codes: Vec<Code> = match model::validate_checkpoint("checkpoint.json", &doc) {
            Err(form_package::error::Refused::Findings(d)) => d.iter().map(|d| d.code).collect(),
            other => panic!("{what}: {other:?}"),
        };
        assert!(codes.contains(&code), "{what}: {codes:?}");
        let e = trust_path(&doc).map(|_| ()).unwrap_err();
        assert_eq!(e.class, ErrorClass::InvalidCheckpoint, "{what}");
        assert_eq!(e.code, Code::TrustInvalidCheckpoint, "{what}");
        assert!(e.message.contains(gist), "{what}: {}", e.message);
    }
}

/// This file's trials, each listed as `[revocation] name`; the corpus tests
/// are ignored without the corpus.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    let corpus = common::corpus();
    let with_corpus = |name: &str, f: fn(&Path)| common::corpus_test(name, &corpus, f);
    vec![
        with_corpus(
            "every_case_gives_its_expected_result_and_pin",
            every_case_gives_its_expected_result_and_pin,
        ),
        common::test(
            "a_refusal_is_located_in_every_format",
            a_refusal_is_located_in_every_format,
        ),
        common::test(
            "a_pin_file_that_is_not_a_pin_is_refused_in_the_pin_file",
            a_pin_file_that_is_not_a_pin_is_refused_in_the_pin_file,
        ),
        common::test(
            "the_typed_decode_refuses_what_the_reference_refuses",
            the_typed_decode_refuses_what_the_reference_refuses,
        ),
        common::test(
            "both_commands_give_one_verdict_on_crafted_chains",
            both_commands_give_one_verdict_on_crafted_chains,
        ),
        with_corpus(
            "both_commands_give_one_verdict_on_every_corpus_chain",
            both_commands_give_one_verdict_on_every_corpus_chain,
        ),
        with_corpus(
            "both_binaries_agree_on_the_signed_genesis",
            both_binaries_agree_on_the_signed_genesis,
        ),
        common::test(
            "the_trust_path_refuses_what_the_full_schema_refuses",
            the_trust_path_refuses_what_the_full_schema_refuses,
        ),
    ]
}

//! `--previous-pin` of `validate-revocation-checkpoint` and of `trust
//! verify-checkpoint`: one reader (`revocation::previous_pin`), the same
//! two forms on both commands (the pin alone, or a previous run's whole
//! JSON report of either command, whose pin is read: `validate-revocation-
//! checkpoint`'s output or its `--format json` report, `trust
//! verify-checkpoint`'s report), and the same near misses refused with
//! their code (a report without a pin, among them a `--format json` report
//! of a run that did not advance; a pin with a wrong member).

use crate::common::{self, assert_exit, BIN};

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The current-profile genesis (`../shared/corpus/conformance/
/// revocation-checkpoint-v1/positive/`) and the checkpoint that advances
/// from it.
fn conformance(corpus: &Path, name: &str) -> PathBuf {
    corpus
        .join("conformance/revocation-checkpoint-v1/positive")
        .join(name)
}

/// `trust verify-checkpoint` on the Edge publisher's signed genesis (the
/// same genesis: its canonical digest is the one a sequence-0 pin names),
/// with `--allow-unchanged --previous-pin pin` (the pin names that very
/// checkpoint).
fn trust_on_genesis(corpus: &Path, pin: &Path) -> Output {
    let trust = corpus.join("trust/takoform-forms/forms/trust");
    let set = trust.join("sets/e7f8a39311dd011b8467e97e7f300cabb9a6b06c/revocations");
    Command::new(BIN)
        .args(["trust", "verify-checkpoint", "--checkpoint"])
        .arg(set.join("checkpoint.json"))
        .arg("--bundle")
        .arg(set.join("checkpoint.sigstore.json"))
        .arg("--trusted-root")
        .arg(trust.join("trusted-root.json"))
        .arg("--policy")
        .arg(trust.join("publisher-policy.json"))
        .arg("--allow-unchanged")
        .arg("--previous-pin")
        .arg(pin)
        .output()
        .unwrap()
}

/// `validate-revocation-checkpoint checkpoint-1-from-genesis.json
/// --previous-pin pin`.
fn validate_from_genesis(corpus: &Path, pin: &Path) -> Output {
    let checkpoint = conformance(corpus, "checkpoint-1-from-genesis.json");
    common::run(&[
        OsStr::new("validate-revocation-checkpoint"),
        checkpoint.as_os_str(),
        OsStr::new("--previous-pin"),
        pin.as_os_str(),
    ])
}

fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

pub fn both_commands_read_a_pin_or_a_whole_report_and_refuse_the_same_near_misses(corpus: &Path) {
    let tmp = tempfile::tempdir().unwrap();
    let write = |name: &str, v: &Value| {
        let p = tmp.path().join(name);
        std::fs::write(&p, v.to_string()).unwrap();
        p
    };
    // The four forms, all naming the genesis: the pin alone,
    // `validate-revocation-checkpoint --advance`'s output and its `--format
    // json` report (the pin at `packages[0].pin`), `trust
    // verify-checkpoint`'s report.
    let genesis = conformance(corpus, "checkpoint-genesis.json");
    let advanced = common::run(&[
        OsStr::new("validate-revocation-checkpoint"),
        OsStr::new("--advance"),
        genesis.as_os_str(),
    ]);
    assert_exit(&advanced, 0);
    let validate_output = json(&advanced.stdout);
    let pin = validate_output["pin"].clone();
    assert_eq!(pin["sequence"], 0);
    let alone = write("pin.json", &pin);
    let from_validate = write("validate-output.json", &validate_output);
    let genesis_json = |advance: bool| {
        let mut args = vec![
            OsStr::new("validate-revocation-checkpoint"),
            genesis.as_os_str(),
            OsStr::new("--format"),
            OsStr::new("json"),
        ];
        if advance {
            args.push(OsStr::new("--advance"));
        }
        let o = common::run(&args);
        assert_exit(&o, 0);
        json(&o.stdout)
    };
    let validate_report = genesis_json(true);
    assert_eq!(validate_report["packages"][0]["pin"], pin);
    let from_validate_report = write("validate-report.json", &validate_report);
    let trusted = trust_on_genesis(corpus, &alone);
    assert_exit(&trusted, 0);
    let trust_report = json(&trusted.stdout);
    assert_eq!(trust_report["status"], "unchanged");
    let from_trust = write("trust-report.json", &trust_report);
    for file in [&alone, &from_validate, &from_validate_report, &from_trust] {
        let o = trust_on_genesis(corpus, file);
        assert_exit(&o, 0);
        assert_eq!(json(&o.stdout)["pin"], pin, "{}", file.display());
        let o = validate_from_genesis(corpus, file);
        assert_exit(&o, 0);
        assert_eq!(json(&o.stdout)["pin"]["sequence"], 1, "{}", file.display());
    }
    // Near misses: a report without a pin (among them the `--format json`
    // report of a run that did not advance); a pin with a wrong member
    // (alone and inside a report). FD620 for validate-revocation-checkpoint,
    // the trust commands' input-error (FD815) naming the same cause.
    let mut wrong = pin.clone();
    wrong["x"] = 1.into();
    let not_advanced = genesis_json(false);
    assert!(not_advanced["packages"][0].get("pin").is_none());
    for (file, cause) in [
        (
            write("no-pin.json", &serde_json::json!({"status": "verified"})),
            "a report without a pin member",
        ),
        (
            write("not-advanced-report.json", &not_advanced),
            "a report without a pin member",
        ),
        (write("wrong.json", &wrong), "unknown member \"x\""),
        (
            write("wrong-in-report.json", &serde_json::json!({"pin": wrong})),
            "unknown member \"x\"",
        ),
    ] {
        let o = validate_from_genesis(corpus, &file);
        assert_exit(&o, 1);
        let text = String::from_utf8_lossy(&o.stderr);
        assert!(
            text.contains("FD620 invalid-checkpoint-pin") && text.contains(cause),
            "{text}"
        );
        let o = trust_on_genesis(corpus, &file);
        assert_exit(&o, 1);
        let e = json(&o.stderr);
        assert_eq!(
            (e["code"].as_str(), e["diagnostic"].as_str()),
            (Some("input-error"), Some("FD815"))
        );
        assert!(e["message"].as_str().unwrap().contains(cause), "{e}");
    }
}

pub fn trials() -> Vec<libtest_mimic::Trial> {
    let corpus = common::corpus();
    vec![common::corpus_test(
        "both_commands_read_a_pin_or_a_whole_report_and_refuse_the_same_near_misses",
        &corpus,
        both_commands_read_a_pin_or_a_whole_report_and_refuse_the_same_near_misses,
    )]
}

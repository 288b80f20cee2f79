//! The reference CLI, invocation form by invocation form (issue 12): every
//! reference subcommand is listed by `--help` under the reference's name,
//! and each form run on real files gives the reference's verdict, with
//! stdout byte-identical to the reference's for `canonicalize`, `digest`,
//! `validate-revocation` and `validate-revocation-checkpoint`.
//!
//! The reference's answers are committed in `tests/reference/` (generated
//! with `../shared/oracle/form-package-reference`), so CI needs no oracle;
//! when the oracle is present (`FORM_PACKAGE_ORACLE`, or beside the corpus)
//! the answers are also compared live, and without it that comparison is
//! reported ignored (failed when `CI` or `FORM_PACKAGE_REQUIRE_ORACLE` is
//! set, the one rule of every oracle-backed test, `common::needs_oracle`:
//! the oracle is not part of this repository, it sits beside the corpus a
//! CI run needs anyway). Exit codes are ours on purpose: 0
//! valid, 1 refused, 2 could not run (the reference uses 1 for usage errors).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ours(args: &[&str]) -> std::process::Output {
    Command::new(crate::common::BIN)
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_WORKSPACE")
        .output()
        .unwrap()
}

/// The reference verifier: `FORM_PACKAGE_ORACLE`, else
/// `oracle/form-package-reference` beside `FORM_PACKAGE_CORPUS`, else
/// `../shared/oracle/form-package-reference`; `Err` says where none was found.
fn oracle() -> Result<PathBuf, String> {
    let p = std::env::var_os("FORM_PACKAGE_ORACLE")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("FORM_PACKAGE_CORPUS")
                .map(|c| PathBuf::from(c).join("../oracle/form-package-reference"))
        })
        .unwrap_or_else(|| root().join("../shared/oracle/form-package-reference"));
    if p.is_file() {
        Ok(p)
    } else {
        Err(format!("no reference verifier at {}", p.display()))
    }
}

/// A case's command line (`args`).
fn args_of(c: &Value) -> Vec<&str> {
    c["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect()
}

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("tests/reference/cases.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["cases"].as_array().unwrap().clone()
}

const REFERENCE_COMMANDS: &[&str] = &[
    "version",
    "verify",
    "canonicalize",
    "digest",
    "validate-revocation",
    "validate-revocation-checkpoint",
];

fn help_lists_every_reference_subcommand() {
    let out = ours(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let listed: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for c in REFERENCE_COMMANDS {
        assert!(listed.contains(c), "--help does not list {c}:\n{text}");
    }
    // And ours beside them.
    for c in ["check", "conformance"] {
        assert!(listed.contains(&c), "--help does not list {c}");
    }
}

fn every_reference_invocation_form_gives_the_reference_verdict_and_bytes() {
    let cases = cases();
    let mut forms_seen = std::collections::BTreeSet::new();
    let mut compared_bytes = 0;
    for c in &cases {
        let args = args_of(c);
        forms_seen.insert(args[0]);
        let out = ours(&args);
        let want = c["exit"].as_i64().unwrap() as i32;
        assert_eq!(
            out.status.code(),
            Some(want),
            "{args:?}: exit (stderr: {})",
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(file) = c["stdout"].as_str() {
            let expected =
                std::fs::read(root().join("tests/reference/expected").join(file)).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&expected),
                "{args:?}: stdout differs from the reference's"
            );
            assert_eq!(out.stdout, expected, "{args:?}: bytes");
            compared_bytes += 1;
        }
    }
    for c in REFERENCE_COMMANDS {
        assert!(forms_seen.contains(c), "no case runs {c}");
    }
    assert!(compared_bytes >= 12, "{compared_bytes} byte comparisons");
}

fn committed_answers_are_the_live_oracles(oracle: &Path) {
    for c in cases() {
        let args = args_of(&c);
        if args[0] == "version" {
            continue; // this oracle build predates `version` (see cases.json)
        }
        let out = Command::new(oracle)
            .args(&args)
            .current_dir(root())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code().map(i64::from),
            c["exit"].as_i64(),
            "{args:?}"
        );
        if let Some(file) = c["stdout"].as_str() {
            let expected =
                std::fs::read(root().join("tests/reference/expected").join(file)).unwrap();
            assert_eq!(out.stdout, expected, "{args:?}");
        }
    }
}

fn version_keeps_the_reference_members_in_order_and_the_commit() {
    let out = ours(&["version"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("}\n") && text.lines().count() == 1,
        "{text:?}"
    );
    let v: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = v.keys().map(String::as_str).collect();
    let want: &[&str] = if v.contains_key("commit") {
        &["command", "module", "version", "commit"]
    } else {
        &["command", "module", "version"]
    };
    assert_eq!(keys, want, "{text}");
    assert_eq!(v["command"], "form-package");
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    if let Some(c) = v.get("commit").and_then(Value::as_str) {
        assert!(
            (c.len() == 40 || c.len() == 64)
                && c.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{c}"
        );
    }
    // Built from a git checkout with git available, the build records a
    // commit (build.rs; it reruns when HEAD moves).
    if root().join(".git").exists() {
        let head = Command::new("git")
            .args(["rev-parse", "HEAD"])
            .current_dir(root())
            .output();
        if let Ok(h) = head {
            if h.status.success() {
                assert!(
                    v.contains_key("commit"),
                    "a git build records its commit: {text}"
                );
            }
        }
    }
    // An extra argument is a usage error: exit 2 (ours), not the reference's 1.
    assert_eq!(ours(&["version", "extra"]).status.code(), Some(2));
}

fn usage_errors_exit_2_and_verify_of_a_file_points_at_check() {
    assert_eq!(ours(&[]).status.code(), Some(2));
    assert_eq!(ours(&["no-such-command"]).status.code(), Some(2));
    assert_eq!(ours(&["validate-revocation"]).status.code(), Some(2));
    let out = ours(&["verify", "tests/reference/inputs/statement-1.json"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("FD001"), "{text}");
    assert!(
        text.contains("form-package check tests/reference/inputs/statement-1.json"),
        "{text}"
    );
}

/// This file's trials, each listed as `[reference_cli] name`. The live
/// comparison with the oracle is decided when the trials are listed: without
/// the oracle ([`oracle`]) it is reported ignored, or failed when `CI` or
/// `FORM_PACKAGE_REQUIRE_ORACLE` is set (`common::needs_oracle`).
pub fn trials() -> Vec<libtest_mimic::Trial> {
    let live = "committed_answers_are_the_live_oracles";
    let live = crate::common::needs_oracle(live, oracle(), |o| {
        libtest_mimic::Trial::test(live, move || {
            committed_answers_are_the_live_oracles(&o);
            Ok(())
        })
    });
    let tests: [(&str, fn()); 4] = [
        (
            "help_lists_every_reference_subcommand",
            help_lists_every_reference_subcommand,
        ),
        (
            "every_reference_invocation_form_gives_the_reference_verdict_and_bytes",
            every_reference_invocation_form_gives_the_reference_verdict_and_bytes,
        ),
        (
            "version_keeps_the_reference_members_in_order_and_the_commit",
            version_keeps_the_reference_members_in_order_and_the_commit,
        ),
        (
            "usage_errors_exit_2_and_verify_of_a_file_points_at_check",
            usage_errors_exit_2_and_verify_of_a_file_points_at_check,
        ),
    ];
    let mut trials: Vec<_> = tests
        .into_iter()
        .map(|(name, f)| crate::common::test(name, f))
        .collect();
    trials.push(live);
    trials
}

//! Running `form-package` and the Core's `snapshot-oracle` on the same
//! input, from the corpus root (so every path, and so every origin in a
//! subject, is the same relative path for both).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// What one compile said: status (`compiled`, `failed`, or `refused` for
/// anything else: the oracle's `input-error`, our refused package), digest,
/// and the Core diagnostics as (code, subject, pointer).
#[derive(Debug, PartialEq, Eq)]
pub struct Verdict {
    pub status: String,
    pub digest: Option<String>,
    pub diagnostics: Vec<(String, String, String)>,
}

fn triples(v: &Value) -> Vec<(String, String, String)> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap_or_default().to_owned();
            (s("code"), s("subject"), s("pointer"))
        })
        .collect()
}

/// The oracle's verdict on `compile-dirs ARGS`.
pub fn oracle(bin: &Path, corpus: &Path, args: &[String]) -> Verdict {
    let out = Command::new(bin)
        .arg("compile-dirs")
        .args(args)
        .current_dir(corpus)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "oracle output {e}: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let r = &v[0];
    let status = match r["status"].as_str().unwrap() {
        "compiled" => "compiled",
        "failed" => "failed",
        _ => "refused",
    };
    Verdict {
        status: status.into(),
        digest: r["snapshotDigest"].as_str().map(str::to_owned),
        diagnostics: triples(&r["diagnostics"]),
    }
}

/// Our verdict on `snapshot --format json ARGS`, and the exit status.
pub fn ours(corpus: &Path, args: &[String]) -> (Verdict, i32) {
    let out = Command::new(crate::common::BIN)
        .arg("snapshot")
        .args(["--format", "json"])
        .args(args)
        .current_dir(corpus)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("our output {e}: {}", String::from_utf8_lossy(&out.stderr)));
    let set = v["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "snapshot")
        .unwrap()
        .clone();
    let status = match set["status"].as_str().unwrap() {
        "compiled" => "compiled",
        "failed" => "failed",
        _ => "refused",
    };
    let code = out.status.code().unwrap_or(-1);
    // The verdict is kept exactly: exit 0 exactly when the set compiled.
    assert_eq!(
        code == 0,
        status == "compiled",
        "exit {code} for status {status}"
    );
    (
        Verdict {
            status: status.into(),
            digest: set["snapshotDigest"].as_str().map(str::to_owned),
            diagnostics: triples(&set["coreDiagnostics"]),
        },
        code,
    )
}

//! Issue 14 item 10: the pre-commit hook (`.pre-commit-hooks.yaml`) is
//! parsed (YAML) and the command it declares is run, against the binary
//! this build made (the GitHub Action's steps run in
//! `tests/golden/action.rs`).

use crate::common;
use common::{copy_dir, fixtures};

use std::path::Path;
use std::process::Command;

use yaml_rust2::{Yaml, YamlLoader};

use crate::common::BIN;
const STORE: &str = "packages/v1alpha1/example-store-1.0.0-f486d5e31632";

fn load(file: &str) -> Yaml {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    YamlLoader::load_from_str(&text).unwrap().remove(0)
}

#[test]
fn pre_commit_hook_runs_its_entry() {
    let hooks = load(".pre-commit-hooks.yaml");
    let hooks = hooks.as_vec().unwrap();
    assert_eq!(hooks.len(), 1);
    let hook = &hooks[0];
    assert_eq!(hook["id"].as_str(), Some("form-package-verify"));
    assert_eq!(hook["language"].as_str(), Some("rust"));
    assert_eq!(hook["pass_filenames"].as_bool(), Some(false));
    let entry: Vec<&str> = hook["entry"].as_str().unwrap().split_whitespace().collect();
    assert_eq!(
        entry[0], "form-package",
        "the binary cargo install puts on PATH"
    );
    let args: Vec<&str> = hook["args"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let files = regex::Regex::new(hook["files"].as_str().unwrap()).unwrap();
    assert!(files.is_match("packages/x/definition.json") && !files.is_match("README.md"));

    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&fixtures().join(STORE), &tmp.path().join("good"));
    let run = || {
        Command::new(BIN)
            .args(&entry[1..])
            .args(&args)
            .current_dir(tmp.path())
            .output()
            .unwrap()
    };
    assert_eq!(run().status.code(), Some(0));
    std::fs::remove_file(tmp.path().join("good/fixtures/desired.json")).unwrap();
    let out = run();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("FD019"));
}

/// The CI page of the book (`docs/src/contributing/ci.md`) names every
/// step `.ci/run` announces (`echo "== …"`) and every tool it installs.
#[test]
fn ci_page_matches_ci_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    let ci = std::fs::read_to_string(root.join("docs/src/contributing/ci.md")).unwrap();
    let mut steps = 0;
    for line in run.lines().map(str::trim) {
        let Some(step) = line.strip_prefix("echo \"== ") else {
            continue;
        };
        let key = match step.split([':', ' ', '(']).next().unwrap() {
            "cargo" => step.split(" (").next().unwrap().trim_end_matches('"'),
            other => other,
        };
        let key = match key {
            "installing" => "installs",
            "corpus" => "== corpus",
            "note" => "sigstore",
            "differential" => "differential smoke",
            "cargo doc" => "cargo doc",
            k => k,
        };
        assert!(
            ci.contains(key),
            "the CI page lacks {key:?} (from {line:?})"
        );
        steps += 1;
    }
    assert!(steps >= 8, "{steps} steps");
    for tool in run
        .lines()
        .filter_map(|l| l.split("need+=(").nth(1))
        .map(|t| t.trim_end_matches(')'))
    {
        let named = match tool {
            "coreutils" => "mkfifo",
            "time" => "/usr/bin/time",
            "util-linux" => "setpriv",
            t => t,
        };
        assert!(ci.contains(named), "the CI page lacks the tool {named}");
    }
    assert!(ci.contains("exactly `cargo test --locked`"));
    assert!(run.lines().any(|l| l.trim() == "cargo test --locked"));
}

//! Issue 14 item 10: the GitHub Action (`action.yml`) and the pre-commit
//! hook (`.pre-commit-hooks.yaml`) are parsed (YAML) and the commands they
//! declare are run, against the binary this build made.

use crate::common;
use common::expand;
use common::{copy_dir, fixtures};

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use yaml_rust2::{Yaml, YamlLoader};

use crate::common::BIN;
const STORE: &str = "packages/v1alpha1/example-store-1.0.0-f486d5e31632";

fn load(file: &str) -> Yaml {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    YamlLoader::load_from_str(&text).unwrap().remove(0)
}

/// Runs the action's build, verify and compat steps (as the runner would,
/// with bash and the step's `env`) on a tree, with `baseline` as the
/// `baseline` input; returns (the step outputs, verify's SARIF).
fn run_action(tree: &Path, paths: &str, args: &str) -> (String, Value) {
    run_action_with(tree, paths, args, "")
}

fn run_action_with(tree: &Path, paths: &str, args: &str, baseline: &str) -> (String, Value) {
    let action = load("action.yml");
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    let inputs = &action["inputs"];
    for k in [
        "paths",
        "args",
        "sarif-file",
        "upload-sarif",
        "baseline",
        "compat-sarif-file",
    ] {
        assert!(inputs[k]["description"].as_str().is_some(), "input {k}");
    }
    let steps = action["runs"]["steps"].as_vec().unwrap();
    let uses: Vec<&str> = steps.iter().filter_map(|s| s["uses"].as_str()).collect();
    assert_eq!(
        uses,
        [
            "actions/cache@v4",
            "github/codeql-action/upload-sarif@v3",
            "github/codeql-action/upload-sarif@v3"
        ]
    );
    // The action's checkout holds the binary already built (the cache hit).
    let action_path = tree.join("action");
    std::fs::create_dir_all(action_path.join("target/release")).unwrap();
    let bin = action_path.join("target/release/form-package");
    if !bin.exists() {
        std::os::unix::fs::symlink(BIN, &bin).unwrap();
    }
    let output = tree.join("github_output");
    std::fs::write(&output, "").unwrap();
    let ctx = BTreeMap::from([
        ("github.action_path", action_path.display().to_string()),
        ("github.action_ref", "v0.0.0-test".to_owned()),
        ("github.server_url", "https://github.invalid".to_owned()),
        ("github.action_repository", "owner/form-package".to_owned()),
        ("inputs.paths", paths.to_owned()),
        ("inputs.args", args.to_owned()),
        (
            "inputs.sarif-file",
            inputs["sarif-file"]["default"].as_str().unwrap().to_owned(),
        ),
        ("inputs.baseline", baseline.to_owned()),
        (
            "inputs.compat-sarif-file",
            inputs["compat-sarif-file"]["default"]
                .as_str()
                .unwrap()
                .to_owned(),
        ),
    ]);
    let mut ran = 0;
    for step in steps {
        let (Some(script), Some("bash")) = (step["run"].as_str(), step["shell"].as_str()) else {
            continue;
        };
        if step["name"].as_str() == Some("Fail when verify failed") {
            continue;
        }
        let mut cmd = Command::new("bash");
        cmd.args(["-e", "-c", script])
            .current_dir(tree)
            .env("GITHUB_OUTPUT", &output);
        if let Some(env) = step["env"].as_hash() {
            for (k, v) in env {
                cmd.env(k.as_str().unwrap(), expand(v.as_str().unwrap(), &ctx));
            }
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "step {:?}: {}",
            step["name"],
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert_eq!(ran, 3, "build, verify and compat steps");
    let status = std::fs::read_to_string(&output).unwrap();
    let sarif_file = tree.join(inputs["sarif-file"]["default"].as_str().unwrap());
    let sarif = serde_json::from_slice(&std::fs::read(sarif_file).unwrap()).unwrap();
    (status, sarif)
}

#[test]
fn github_action_builds_runs_verify_and_writes_sarif() {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&fixtures().join(STORE), &tmp.path().join("packages/good"));
    let (status, sarif) = run_action(tmp.path(), "packages", "");
    assert_eq!(status, "exit-code=0\ncompat-exit-code=0\n");
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 0);

    let bad = tmp.path().join("packages/bad");
    copy_dir(&fixtures().join(STORE), &bad);
    std::fs::remove_file(bad.join("fixtures/desired.json")).unwrap();
    let (status, sarif) = run_action(tmp.path(), "packages", "--deny-warnings");
    assert_eq!(status, "exit-code=1\ncompat-exit-code=0\n");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    assert!(results.iter().all(
        |r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .starts_with("packages/bad/")
    ));
    // The last step turns the recorded status into the step's failure.
    assert_eq!(last_step_exit(&[("STATUS", "1")]), Some(1));
}

/// The exit code of `action.yml`'s last step (which turns the recorded
/// statuses into the step's failure) run by bash with `env`.
fn last_step_exit(env: &[(&str, &str)]) -> Option<i32> {
    let action = load("action.yml");
    let last = action["runs"]["steps"]
        .as_vec()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    Command::new("bash")
        .args(["-c", last["run"].as_str().unwrap()])
        .envs(env.iter().copied())
        .status()
        .unwrap()
        .code()
}

/// The `baseline` input runs `compat --baseline BASE PATHS` into its own
/// SARIF report; a new version whose bump does not fit its changes fails
/// the last step even when verify passed.
#[test]
fn github_action_baseline_runs_compat() {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&fixtures().join(STORE), &tmp.path().join("published/store"));
    let new = tmp.path().join("packages/store");
    copy_dir(&fixtures().join(STORE), &new);
    let file = new.join("definition.json");
    let mut d: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    d["definitionVersion"] = serde_json::json!("1.0.1");
    d["lifecycleCapabilities"] = serde_json::json!(["create", "observe", "delete"]);
    std::fs::write(&file, serde_json::to_vec(&d).unwrap()).unwrap();
    common::reindex(&new);
    let (status, sarif) = run_action_with(tmp.path(), "packages", "", "published");
    assert_eq!(status, "exit-code=0\ncompat-exit-code=1\n");
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 0);
    let compat: Value = serde_json::from_slice(
        &std::fs::read(tmp.path().join("form-package-compat.sarif")).unwrap(),
    )
    .unwrap();
    let ids: Vec<&str> = common::strings(&compat["runs"][0]["results"], "ruleId");
    assert!(ids.contains(&"FD670") && ids.contains(&"FD656"), "{ids:?}");
    assert_eq!(
        last_step_exit(&[("STATUS", "0"), ("COMPAT_STATUS", "1")]),
        Some(1)
    );
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

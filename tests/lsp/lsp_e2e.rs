//! `form-package lsp` from a real client out of process (issue 24 "done
//! when"): the Node client in `tests/lsp-client/` (npm's
//! `vscode-languageserver-protocol`, the protocol layer of VS Code's own
//! client) drives the built binary through `e2e.js`, one scenario per
//! trial: published diagnostics equal `verify --format json`, FD213
//! appears and vanishes with an unsaved edit (undone, then closed by its
//! quick fix), the index code action makes `verify` pass on the saved
//! package, hover on a code and a `$ref`, go to definition on a `$ref`,
//! completion of members, keywords, `immutableFields` pointers and
//! fixture paths;
//! and, in one session, the diagnostics of every corpus mutant equal
//! `verify --format json`'s.
//! Each scenario works on a temporary copy of a corpus package.
//!
//! The client needs `node` and `npm ci` in `tests/lsp-client` (`.ci/run`
//! does both). Without them the trials are reported as ignored, not
//! passed, and fail when `CI` is set or when run with `--ignored`.
//! `editors/vscode`'s `.vsix` (built by `.ci/run` with `vsce`) is checked
//! the same way.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

/// A failing package with findings in its definition and in three
/// unlisted fixtures (nothing open but the definition, the index and one
/// fixture: findings on files that are not open are compared too).
const FAILING_PACKAGE: &str = "packages/v1alpha3/worker-version-0.1.0-6d85e6d07c13";
/// A clean package (the largest real definition, 16 fixtures).
const CLEAN_PACKAGE: &str = "packages/v1alpha3/worker-version-0.1.0-0bc964e2377d-v2";

fn bin() -> &'static str {
    crate::common::BIN
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn client_dir() -> PathBuf {
    root().join("tests/lsp-client")
}

/// Why the Node client cannot run here, if it cannot.
fn client_missing() -> Option<String> {
    let node = Command::new("node").arg("--version").output();
    if !node.is_ok_and(|o| o.status.success()) {
        return Some("`node` is not on PATH".into());
    }
    let module = client_dir().join("node_modules/vscode-languageserver-protocol/package.json");
    (!module.is_file()).then(|| {
        "tests/lsp-client/node_modules is missing (run `npm ci --prefix tests/lsp-client`)".into()
    })
}

/// Runs `node e2e.js SCENARIO SERVER PACKAGE`; its JSON summary on
/// success, the client's account of what differs otherwise.
fn scenario(name: &str, package: &Path) -> Result<Value, Failed> {
    if let Some(why) = client_missing() {
        return Err(format!("the LSP client cannot run: {why}").into());
    }
    let out = Command::new("node")
        .arg(client_dir().join("e2e.js"))
        .arg(name)
        .arg(bin())
        .arg(package)
        .output()
        .map_err(|e| format!("node: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("e2e.js {name} exited {}:\n{stderr}{stdout}", out.status).into());
    }
    let last = stdout.lines().last().unwrap_or_default();
    let facts: Value =
        serde_json::from_str(last).map_err(|e| format!("summary {last:?}: {e}\n{stderr}"))?;
    if facts["passed"] != Value::Bool(true) || facts["scenario"] != name {
        return Err(format!("e2e.js {name}: summary {facts}").into());
    }
    Ok(facts)
}

fn diagnostics_equal_verify(corpus: &Path) -> Result<(), Failed> {
    let facts = scenario("diagnostics", &corpus.join(FAILING_PACKAGE))?;
    // Ten findings on four files (FD508 in the definition, FD018 on three
    // unlisted fixtures) were compared one by one.
    assert_eq!(facts["compared"], 10, "{facts}");
    assert_eq!(facts["files"].as_array().map(Vec::len), Some(4), "{facts}");
    assert_eq!(facts["hoveredCode"], "FD508", "{facts}");
    assert!(facts["explainLines"].as_u64() > Some(3), "{facts}");
    assert_eq!(facts["ref"]["pointer"], "/$defs/jsonValueDepth2", "{facts}");
    Ok(())
}

fn fd213_appears_and_vanishes(corpus: &Path) -> Result<(), Failed> {
    let facts = scenario("fd213", &corpus.join(CLEAN_PACKAGE))?;
    let codes: Vec<&str> = facts["codesWhileOpen"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // The open object, and the index's size, digest and schemaDigest of
    // the unsaved definition.
    for code in ["FD213", "FD015", "FD016", "FD123"] {
        assert!(codes.contains(&code), "{code} missing: {facts}");
    }
    assert_eq!(facts["fd213"].as_array().map(Vec::len), Some(1), "{facts}");
    assert_eq!(facts["fd213"][0]["start"]["line"], 188, "{facts}");
    assert_eq!(facts["vanished"], true, "{facts}");
    assert!(
        facts["quickFix"]
            .as_str()
            .is_some_and(|t| t.contains("additionalProperties")),
        "{facts}"
    );
    Ok(())
}

fn index_code_action_makes_verify_pass(corpus: &Path) -> Result<(), Failed> {
    let facts = scenario("code-action", &corpus.join(CLEAN_PACKAGE))?;
    assert_eq!(facts["verifyExit"], 0, "{facts}");
    assert!(
        facts["staleBefore"]
            .as_array()
            .is_some_and(|a| a.iter().any(|c| c == "FD016")),
        "{facts}"
    );
    Ok(())
}

/// Completion on the largest real definition (issue 24 item 5): members,
/// keywords, `immutableFields` pointers and fixture paths, each equal to
/// what an oracle outside the server computes (see `e2e.js completion`).
fn completion_offers_what_the_schemas_and_package_hold(corpus: &Path) -> Result<(), Failed> {
    let facts = scenario("completion", &corpus.join(CLEAN_PACKAGE))?;
    // The v1beta1 members it lacks, the 23 desired property pointers but
    // the 11 listed, and its 16 fixtures.
    assert_eq!(
        facts["members"],
        serde_json::json!(["observedSchema", "outputSchema", "providedInterfaces"]),
        "{facts}"
    );
    assert_eq!(facts["pointers"], 12, "{facts}");
    assert_eq!(facts["files"], 16, "{facts}");
    assert!(facts["keywords"].as_u64() > Some(40), "{facts}");
    Ok(())
}

fn diagnostics_equal_verify_on_every_mutant(corpus: &Path) -> Result<(), Failed> {
    let dir = corpus.join("mutants");
    let mut packages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path().join("package")))
        .filter(|p| p.is_dir())
        .collect();
    packages.sort();
    let facts = many(&packages)?;
    // Every mutant with an index (one has none by design) was compared,
    // and the findings span every stage of the verifier.
    assert!(facts["compared"].as_u64() >= Some(170), "{facts}");
    assert!(facts["findings"].as_u64() >= Some(100), "{facts}");
    assert!(
        facts["codes"].as_array().map(Vec::len) >= Some(50),
        "{facts}"
    );
    assert_eq!(
        facts["notCompared"],
        serde_json::json!(["fs-no-index--v1a2-queue"])
    );
    Ok(())
}

/// `node e2e.js many SERVER PACKAGE...`: one session for every package.
fn many(packages: &[PathBuf]) -> Result<Value, Failed> {
    if let Some(why) = client_missing() {
        return Err(format!("the LSP client cannot run: {why}").into());
    }
    let out = Command::new("node")
        .arg(client_dir().join("e2e.js"))
        .arg("many")
        .arg(bin())
        .args(packages)
        .output()
        .map_err(|e| format!("node: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(format!("e2e.js many exited {}:\n{stderr}{stdout}", out.status).into());
    }
    let last = stdout.lines().last().unwrap_or_default();
    let facts: Value = serde_json::from_str(last).map_err(|e| format!("{last:?}: {e}"))?;
    if facts["passed"] != Value::Bool(true) {
        return Err(format!("e2e.js many: {facts}").into());
    }
    Ok(facts)
}

/// The server's analysis gives what `verify` gives for a file the
/// inventory refuses (a backslash in its name): FD008 alone, no second
/// finding (FD014) for the refused read of the same file. Near miss: an
/// ordinary unlisted file is FD018 in both. Needs neither the client nor
/// the corpus.
fn refused_name_is_one_finding_as_in_verify() -> Result<(), Failed> {
    let base = common::fixtures().join("packages/v1beta1/object-bucket-0.1.0-553675391d88");
    for (name, code) in [
        ("fixtures\\evil.json", "FD008"),
        ("fixtures/extra.json", "FD018"),
    ] {
        let (_tmp, pkg) = common::copy_package(&base);
        std::fs::write(pkg.join(name), "{}\n").unwrap();
        let a = form_package::lsp::analysis::analyze(
            &pkg,
            &form_package::lsp::analysis::DiskSnapshot::read(&pkg),
            &std::collections::BTreeMap::new(),
        );
        let mut ours: Vec<(String, Option<String>)> = a
            .report
            .findings()
            .map(|d| (d.code.info().id.to_owned(), d.file.clone()))
            .collect();
        ours.sort();
        let out = Command::new(bin())
            .args(["verify", "--format", "json"])
            .arg(&pkg)
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut theirs: Vec<(String, Option<String>)> = report["packages"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let file = d["file"].as_str().map(str::to_owned);
                (d["code"].as_str().unwrap().to_owned(), file)
            })
            .collect();
        theirs.sort();
        assert_eq!(ours, vec![(code.to_owned(), Some(name.to_owned()))]);
        assert_eq!(ours, theirs, "{name}");
    }
    Ok(())
}

/// The VS Code extension package `.ci/run` builds: a zip whose central
/// directory names the manifest and the entry point.
fn vsix_holds_the_extension() -> Result<(), Failed> {
    let dir = root().join("editors/vscode");
    let vsix: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "vsix"))
        .collect();
    let [path] = vsix.as_slice() else {
        return Err(format!("expected one .vsix in editors/vscode, found {vsix:?}").into());
    };
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    assert!(
        bytes.starts_with(b"PK\x03\x04"),
        "{} is not a zip",
        path.display()
    );
    for name in [
        "extension/package.json",
        "extension/extension.js",
        "extension.vsixmanifest",
        "extension/node_modules/vscode-languageclient/package.json",
    ] {
        let found = bytes.windows(name.len()).any(|w| w == name.as_bytes());
        assert!(found, "{} does not hold {name}", path.display());
    }
    Ok(())
}

/// Whether a `.vsix` was built in `editors/vscode`.
fn vsix_built() -> bool {
    std::fs::read_dir(root().join("editors/vscode")).is_ok_and(|d| {
        d.filter_map(Result::ok)
            .any(|e| e.path().extension().is_some_and(|x| x == "vsix"))
    })
}

fn loud(what: &str) {
    let _ = writeln!(std::io::stderr(), "\n*** {what} ***");
}

/// This file's trials, run by the binary's `main`.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    let ci = std::env::var_os("CI").is_some();
    let corpus = common::corpus();
    let missing = client_missing();
    if let Some(why) = &missing {
        assert!(
            !ci,
            "CI is set but the LSP end-to-end client cannot run: {why}"
        );
        loud(&format!("LSP END-TO-END TESTS DID NOT RUN: {why}"));
    }
    let skip = missing.is_some() || corpus.is_none();
    let built = vsix_built();
    if !built {
        assert!(
            !ci,
            "CI is set but editors/vscode holds no .vsix (.ci/run builds it)"
        );
        loud("VS CODE EXTENSION CHECK DID NOT RUN: no .vsix in editors/vscode (`npx vsce package` there)");
    }
    let c = corpus.unwrap_or_default();
    let (c1, c2, c3, c4, c5) = (c.clone(), c.clone(), c.clone(), c.clone(), c);
    vec![
        Trial::test("lsp_client_diagnostics_equal_verify_json", move || {
            diagnostics_equal_verify(&c1)
        })
        .with_ignored_flag(skip),
        Trial::test("lsp_client_fd213_appears_and_vanishes", move || {
            fd213_appears_and_vanishes(&c2)
        })
        .with_ignored_flag(skip),
        Trial::test(
            "lsp_client_index_code_action_makes_verify_pass",
            move || index_code_action_makes_verify_pass(&c3),
        )
        .with_ignored_flag(skip),
        Trial::test(
            "lsp_client_completion_offers_what_the_schemas_and_package_hold",
            move || completion_offers_what_the_schemas_and_package_hold(&c5),
        )
        .with_ignored_flag(skip),
        Trial::test(
            "lsp_client_diagnostics_equal_verify_on_every_mutant",
            move || diagnostics_equal_verify_on_every_mutant(&c4),
        )
        .with_ignored_flag(skip),
        Trial::test(
            "refused_name_is_one_finding_as_in_verify",
            refused_name_is_one_finding_as_in_verify,
        ),
        Trial::test("vscode_vsix_holds_the_extension", vsix_holds_the_extension)
            .with_ignored_flag(!built),
    ]
}

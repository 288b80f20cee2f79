//! `form-package compat` end to end (issue 20): the corpus history (done
//! when 1), `--baseline` on an edited copy of the corpus (done when 4),
//! every output format, `--write-witnesses`, the exit statuses and the
//! near misses. Each code firing with its message and location is a golden
//! case (`fixtures/golden/FD65x…FD67x`, run by `tests/golden/golden.rs`).
//!
//! `harness = false` (libtest-mimic) so that a test that cannot run says
//! so: the corpus tests are reported *ignored* when the corpus is absent
//! (`FORM_PACKAGE_CORPUS`, default `../shared/corpus`; under `CI` a missing
//! corpus fails).

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use libtest_mimic::{Failed, Trial};
use serde_json::{json, Value};

pub(crate) const STORE: &str = "fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632";

pub(crate) fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Runs the binary with `args`; (exit status, stdout, stderr).
pub(crate) fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(crate::common::BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_WORKSPACE")
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

pub(crate) fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The validator of `schemas/form-package-compat-v1.schema.json`, the one
/// `form-package schema compat` prints.
fn validator() -> jsonschema::Validator {
    let (code, text, _) = run(&["schema", "compat"]);
    assert_eq!(code, 0);
    let schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        schema,
        serde_json::from_slice::<Value>(
            &std::fs::read(repo("schemas/form-package-compat-v1.schema.json")).unwrap()
        )
        .unwrap()
    );
    assert!(jsonschema::meta::is_valid(&schema));
    jsonschema::validator_for(&schema).unwrap()
}

/// `compat … --format json`, checked against its schema.
pub(crate) fn json_run(args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let (code, out, err) = run(&all);
    assert!(!err.contains("internal error"), "{err}");
    let doc: Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\nstderr: {err}"));
    let v = validator();
    let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    (code, doc)
}

/// A copy of a fixture package as `<tmp>/<name>`, changed by `edit` on its
/// definition and re-indexed.
pub(crate) fn package(tmp: &Path, name: &str, src: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let dir = tmp.join(name);
    common::copy_dir(&repo(src), &dir);
    let file = dir.join("definition.json");
    let mut d: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    edit(&mut d);
    std::fs::write(&file, serde_json::to_vec_pretty(&d).unwrap()).unwrap();
    common::reindex(&dir);
    dir
}

/// The codes of a document's pairs (records and findings) and outcomes.
pub(crate) fn codes(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for p in doc["pairs"].as_array().unwrap() {
        for r in p["changes"]
            .as_array()
            .unwrap()
            .iter()
            .chain(p["findings"].as_array().unwrap())
        {
            out.push(r["code"].as_str().unwrap().to_owned());
        }
    }
    for o in doc["outcomes"].as_array().unwrap() {
        for d in o["diagnostics"].as_array().unwrap() {
            out.push(d["code"].as_str().unwrap().to_owned());
        }
    }
    out
}

// ------------------------------------------------------------- done when 1

/// `compat --history ../shared/corpus/packages` classifies all 51 real
/// consecutive pairs of 19 kinds without an internal error, and every patch
/// step has an identical desired schema and fits.
fn history_of_the_corpus(corpus: &Path) -> Result<(), Failed> {
    let packages = corpus.join("packages");
    let (code, doc) = json_run(&["compat", "--history", s(&packages)]);
    // The corpus republished versions with other bytes (FD671): exit 1.
    assert_eq!(code, 1);
    let pairs = doc["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 51, "{}", doc["summary"]);
    let kinds: BTreeSet<(String, String)> = pairs
        .iter()
        .map(|p| {
            let f = &p["new"]["formRef"];
            (f["apiVersion"].to_string(), f["kind"].to_string())
        })
        .collect();
    assert_eq!(kinds.len(), 19);
    let mut patches = 0;
    for p in pairs {
        let name = format!("{} -> {}", p["old"]["path"], p["new"]["path"]);
        if p["compared"] == json!(false) {
            // WorkerVersion 0.3.0 -> 0.4.0: the corpus copies lack their
            // definition.json (listed files missing): refused, not compared.
            assert!(name.contains("worker-version"), "{name}");
            assert_eq!(p["findings"][0]["code"], "FD678", "{name}");
            continue;
        }
        if p["actualBump"] == "patch" {
            patches += 1;
            assert_eq!(p["desired"]["verdict"], "identical", "{name}");
            assert_eq!(p["bumpOk"], true, "{name}");
        }
        let verdict = p["desired"]["verdict"].as_str().unwrap();
        assert!(
            [
                "identical",
                "equivalent",
                "widened",
                "compatible",
                "breaking",
                "unknown"
            ]
            .contains(&verdict),
            "{name}"
        );
    }
    assert_eq!(patches, 10);
    let compared = pairs
        .iter()
        .filter(|p| p["compared"] == json!(true))
        .count();
    assert_eq!(compared, 50);
    // The reuse the corpus holds is reported at each copy.
    assert!(codes(&doc).iter().any(|c| c == "FD671"));
    Ok(())
}

/// The compat page's table of the corpus history (`docs/src/compat.md`, between the
/// `compat-history` markers) is the one `--history` gives today: one row
/// per pair with its desired verdict, the bump required and shown, whether
/// the major was earned, the breaking records and one witness. `BLESS=1`
/// rewrites it.
fn history_table_page(corpus: &Path) -> Result<(), Failed> {
    let packages = corpus.join("packages");
    let (_, doc) = json_run(&["compat", "--history", s(&packages)]);
    let cell = |t: &str| t.replace('|', "\\|").replace('\n', " ");
    let mut table = String::from(
        "| Form | step | desired | required / shown | verdict | breaking records | witness (valid before, refused after) |\n|---|---|---|---|---|---|---|\n",
    );
    let (mut earned, mut not_earned, mut fits, mut fails) = (0, 0, 0, 0);
    for p in doc["pairs"].as_array().unwrap() {
        let (o, n) = (&p["old"]["formRef"], &p["new"]["formRef"]);
        let findings: Vec<&str> = common::strings(&p["findings"], "code");
        let verdict = if p["compared"] == json!(false) {
            "not compared (a side is refused: its definition.json is missing in the corpus copy)"
                .to_owned()
        } else if findings.contains(&"FD673") {
            "pre-release: no promise".to_owned()
        } else if findings.contains(&"FD672") {
            not_earned += 1;
            "fits; major not earned".to_owned()
        } else if p["bumpOk"] == json!(true) {
            fits += 1;
            if p["actualBump"] == "major" {
                earned += 1;
                "fits; major earned".to_owned()
            } else {
                "fits".to_owned()
            }
        } else {
            fails += 1;
            "does not fit".to_owned()
        };
        let mut broke: Vec<(String, usize)> = Vec::new();
        for c in p["changes"].as_array().unwrap() {
            if c["class"] != "breaking" {
                continue;
            }
            let name = c["name"].as_str().unwrap().to_owned();
            match broke.iter_mut().find(|(n, _)| *n == name) {
                Some((_, k)) => *k += 1,
                None => broke.push((name, 1)),
            }
        }
        let broke: Vec<String> = broke
            .into_iter()
            .map(|(n, k)| if k == 1 { n } else { format!("{n} ×{k}") })
            .collect();
        let witness = match p["desired"]["witness"].as_object() {
            Some(_) => {
                let w = p["desired"]["witness"].to_string();
                let short: String = w.chars().take(70).collect();
                format!(
                    "`{}{}`",
                    cell(&short),
                    if w.chars().count() > 70 { "…" } else { "" }
                )
            }
            None => String::new(),
        };
        table.push_str(&format!(
            "| {} {} | {} → {} | {} | {} / {} | {} | {} | {} |\n",
            cell(o["apiVersion"].as_str().unwrap()),
            cell(o["kind"].as_str().unwrap()),
            cell(o["definitionVersion"].as_str().unwrap()),
            cell(n["definitionVersion"].as_str().unwrap()),
            p["desired"]["verdict"].as_str().unwrap_or("—"),
            // null: not compared (a side refused).
            p["requiredBump"].as_str().unwrap_or("—"),
            p["actualBump"].as_str().unwrap(),
            verdict,
            broke.join(", "),
            witness
        ));
    }
    table.push_str(&format!(
        "\n{} pairs: {fits} fit ({earned} majors earned), {not_earned} major{} not earned, {fails} do not fit.\n",
        doc["pairs"].as_array().unwrap().len(),
        if not_earned == 1 { "" } else { "s" }
    ));
    let readme_path = repo("docs/src/compat.md");
    let readme = std::fs::read_to_string(&readme_path).unwrap();
    let (start, end) = (
        "<!-- compat-history:start -->\n",
        "<!-- compat-history:end -->",
    );
    let i = readme
        .find(start)
        .expect("docs/src/compat.md has the compat-history start marker")
        + start.len();
    let j = readme
        .find(end)
        .expect("docs/src/compat.md has the compat-history end marker");
    if std::env::var_os("BLESS").is_some() {
        let mut text = readme.clone();
        text.replace_range(i..j, &table);
        std::fs::write(&readme_path, text).unwrap();
        return Ok(());
    }
    if readme[i..j] != table {
        return Err(format!(
            "docs/src/compat.md's history table is not today's output (BLESS=1 cargo test --test compat history_table rewrites it):\n{table}"
        )
        .into());
    }
    Ok(())
}

// ------------------------------------------------------------- done when 4

/// A copy of the corpus's packages under `tmp`.
fn corpus_copy(corpus: &Path, tmp: &Path) -> PathBuf {
    let to = tmp.join("packages");
    common::copy_dir(&corpus.join("packages"), &to);
    to
}

/// `--baseline BASE PATH` with one package of PATH edited in place (same
/// version, new bytes) reports the reuse at that package (FD671, exit 1);
/// the unedited copy reports no reuse there (the near miss).
fn baseline_reports_reuse(corpus: &Path) -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let copy = corpus_copy(corpus, tmp.path());
    let target = copy.join("v1alpha1/edge-worker-4.0.0-2aa6311988d4");
    let named = |doc: &Value| {
        doc["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|o| o["diagnostics"].as_array().unwrap())
            .filter(|d| d["code"] == "FD671")
            .filter(|d| {
                d["file"]
                    .as_str()
                    .unwrap()
                    .contains("edge-worker-4.0.0-2aa6311988d4")
            })
            .count()
    };
    let base = corpus.join("packages");
    let (_, before) = json_run(&["compat", "--baseline", s(&base), s(&target)]);
    assert_eq!(named(&before), 0, "unedited: no reuse");
    assert!(before["pairs"].as_array().unwrap().is_empty());
    let file = target.join("definition.json");
    let mut d: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    d["title"] = json!("Edge Worker, retitled in place");
    std::fs::write(&file, serde_json::to_vec_pretty(&d).unwrap()).unwrap();
    common::reindex(&target);
    let (code, after) = json_run(&["compat", "--baseline", s(&base), s(&copy)]);
    assert_eq!(code, 1);
    assert!(named(&after) >= 1, "{}", after["summary"]);
    Ok(())
}

/// `--baseline` with a required property added to the desired schema and a
/// minor bump reports the breaking change with its witness, and exit 1.
fn baseline_reports_breaking_minor(corpus: &Path) -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let src = corpus.join("packages/v1alpha1/edge-worker-4.0.0-2aa6311988d4");
    let dir = tmp.path().join("edge-worker-4.1.0");
    common::copy_dir(&src, &dir);
    let file = dir.join("definition.json");
    let mut d: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    d["definitionVersion"] = json!("4.1.0");
    d["desiredSchema"]["properties"]["tier"] = json!({"type": "string", "minLength": 1});
    d["desiredSchema"]["required"]
        .as_array_mut()
        .unwrap()
        .push(json!("tier"));
    std::fs::write(&file, serde_json::to_vec_pretty(&d).unwrap()).unwrap();
    // The canonical fixture keeps passing: it gains the property.
    for fixture in d["conformanceFixtures"].as_array().unwrap() {
        let path = dir.join(fixture["desiredPath"].as_str().unwrap());
        let mut doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        doc["tier"] = json!("gold");
        std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    }
    common::reindex(&dir);
    let base = corpus.join("packages");
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&dir)]);
    assert_eq!(code, 1, "{doc}");
    let pair = &doc["pairs"][0];
    assert_eq!(pair["old"]["formRef"]["definitionVersion"], "4.0.0");
    assert_eq!(pair["desired"]["verdict"], "breaking", "{pair}");
    let witness = &pair["desired"]["witness"];
    assert!(witness.is_object(), "{pair}");
    assert!(
        witness.get("tier").is_none(),
        "the witness lacks the new required property"
    );
    assert_eq!(pair["requiredBump"], "major");
    assert_eq!(pair["actualBump"], "minor");
    assert_eq!(pair["bumpOk"], false);
    let c = codes(&doc);
    assert!(
        c.contains(&"FD650".to_owned()) && c.contains(&"FD670".to_owned()),
        "{c:?}"
    );
    Ok(())
}

// ------------------------------------------------------------- commands

/// The near miss of every record: a package compared with an identical
/// copy of itself has no change, no finding, and exits 0.
fn identical_pair_is_silent() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let a = package(tmp.path(), "a", STORE, |_| {});
    let b = package(tmp.path(), "b", STORE, |_| {});
    let (code, doc) = json_run(&["compat", s(&a), s(&b)]);
    assert_eq!(code, 0);
    let p = &doc["pairs"][0];
    assert_eq!(p["desired"]["verdict"], "identical");
    assert_eq!(p["changes"], json!([]));
    assert_eq!(p["findings"], json!([]));
    assert_eq!(p["actualBump"], "none");
    assert_eq!(p["requiredBump"], "none");
    assert_eq!(p["bumpOk"], true);
    Ok(())
}

/// A change that lives in the package index (a fixture's bytes) is
/// located in each side's `package-index.json` with its line and column,
/// from the span map verify built in its one parse of the index (near
/// miss: the pointer alone, as when no span map was kept, fails).
fn index_changes_are_located() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let a = package(tmp.path(), "a", STORE, |_| {});
    let b = package(tmp.path(), "b", STORE, |_| {});
    std::fs::write(b.join("fixtures/desired.json"), br#"{"name":"other"}"#).unwrap();
    common::reindex(&b);
    let (_, doc) = json_run(&["compat", s(&a), s(&b)]);
    let changes = doc["pairs"][0]["changes"].as_array().unwrap();
    let c = changes
        .iter()
        .find(|c| c["message"] == r#"file "fixtures/desired.json" changed"#)
        .unwrap_or_else(|| panic!("{changes:?}"));
    for (side, dir) in [("old", &a), ("new", &b)] {
        let at = &c[side];
        assert_eq!(at["file"], s(&dir.join("package-index.json")), "{c}");
        assert_eq!(at["pointer"], "/files/1/digest", "{c}");
        assert!(at["line"].as_u64().is_some_and(|l| l >= 1), "{c}");
        assert!(at["column"].as_u64().is_some_and(|l| l > 1), "{c}");
    }
    Ok(())
}

/// A crafted pair per change kind with the bump it requires (issue 20 done
/// when 2, for the records this command owns; the desired-schema verdicts
/// are the prover's table): (edit of OLD, edit of NEW, code, required bump).
fn table_of_change_kinds() -> Result<(), Failed> {
    type Edit = fn(&mut Value);
    let none: Edit = |_| {};
    let cases: Vec<(&str, Edit, Edit, &str, &str)> = vec![
        (
            "immutable added",
            |d| d["immutableFields"] = json!([]),
            |d| d["definitionVersion"] = json!("1.0.1"),
            "FD654",
            "major",
        ),
        (
            "immutable removed",
            none,
            |d| {
                d["immutableFields"] = json!([]);
                d["definitionVersion"] = json!("1.0.1");
            },
            "FD655",
            "minor",
        ),
        (
            "capability removed",
            none,
            |d| {
                d["lifecycleCapabilities"] = json!(["create", "observe", "delete"]);
                d["definitionVersion"] = json!("1.0.1");
            },
            "FD656",
            "major",
        ),
        (
            "capability added",
            |d| d["lifecycleCapabilities"] = json!(["create", "observe", "delete"]),
            |d| d["definitionVersion"] = json!("1.0.1"),
            "FD657",
            "minor",
        ),
        (
            "member removed",
            none,
            |d| {
                d["observedSchema"]["properties"] = json!({});
                d["definitionVersion"] = json!("1.0.1");
            },
            "FD662",
            "major",
        ),
        (
            "member added",
            none,
            |d| {
                d["observedSchema"]["properties"]["port"] = json!({"type": "integer"});
                d["definitionVersion"] = json!("1.0.1");
            },
            "FD664",
            "minor",
        ),
        (
            "desired compatible (OLD ⊆ NEW proved, the converse undecided)",
            |d| {
                d["desiredSchema"]["dependentSchemas"] = json!({"name": {"type": "object",
                    "additionalProperties": false, "properties": {"name": {"type": "string"}}}});
            },
            |d| d["definitionVersion"] = json!("1.0.1"),
            "FD667",
            "minor",
        ),
        (
            "title",
            none,
            |d| {
                d["title"] = json!("Renamed");
                d["definitionVersion"] = json!("1.0.1");
            },
            "FD665",
            "patch",
        ),
        (
            "fixture list",
            none,
            |d| {
                d["conformanceFixtures"][0]["name"] = json!("renamed");
                d["definitionVersion"] = json!("1.0.1");
            },
            "FD665",
            "patch",
        ),
    ];
    let tmp = tempfile::tempdir().unwrap();
    for (i, (name, old, new, code, bump)) in cases.into_iter().enumerate() {
        let a = package(tmp.path(), &format!("a{i}"), STORE, old);
        let b = package(tmp.path(), &format!("b{i}"), STORE, new);
        let (status, doc) = json_run(&["compat", s(&a), s(&b)]);
        let p = &doc["pairs"][0];
        assert!(codes(&doc).contains(&code.to_owned()), "{name}: {doc}");
        assert_eq!(p["requiredBump"], bump, "{name}");
        assert_eq!(p["actualBump"], "patch", "{name}");
        let fits = bump == "patch";
        assert_eq!(p["bumpOk"], fits, "{name}");
        assert_eq!(status, if fits { 0 } else { 1 }, "{name}");
        let inference = p["changes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["code"] == code)
            .map(|c| c["inference"].clone());
        assert_eq!(
            inference,
            Some(json!(code == "FD662" || code == "FD664")),
            "{name}: only observed/output members are labelled as an inference"
        );
    }
    Ok(())
}

/// Every format of verify renders a pair: human names both sides and the
/// bumps, SARIF is one log with the pair's codes, GitHub annotates the
/// error, JUnit has one testcase named after the pair.
fn every_format() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let a = package(tmp.path(), "a", STORE, |_| {});
    let b = package(tmp.path(), "b", STORE, |d| {
        d["lifecycleCapabilities"] = json!(["create", "observe", "delete"]);
        d["definitionVersion"] = json!("1.0.1");
    });
    let (code, human, _) = run(&["compat", s(&a), s(&b)]);
    assert_eq!(code, 1);
    assert!(
        human.contains("FAIL forms.takoform.com/v1alpha1 ExampleStore 1.0.0 → 1.0.1"),
        "{human}"
    );
    assert!(human.contains("FD656 capability-removed"), "{human}");
    assert!(human.contains("FD670"), "{human}");
    assert!(human.contains("b/definition.json:"), "{human}");
    assert!(
        human.ends_with(
            "form-package compat: 1 pair (0 fit, 1 do not), 1 error, 0 warnings, 1 note\n"
        ),
        "{human}"
    );
    let (code, sarif, _) = run(&["compat", s(&a), s(&b), "--format", "sarif"]);
    assert_eq!(code, 1);
    let log: Value = serde_json::from_str(&sarif).unwrap();
    let ids: Vec<&str> = common::strings(&log["runs"][0]["results"], "ruleId");
    assert!(ids.contains(&"FD656") && ids.contains(&"FD670"), "{ids:?}");
    let (code, github, _) = run(&["compat", s(&a), s(&b), "--format", "github"]);
    assert_eq!(code, 1);
    assert!(github.contains("::error file="), "{github}");
    assert!(github.contains("title=FD670 bump-too-small"), "{github}");
    let (code, junit, _) = run(&["compat", s(&a), s(&b), "--format", "junit"]);
    assert_eq!(code, 1);
    assert!(junit.contains("compat forms.takoform.com/v1alpha1 ExampleStore 1.0.0 -&gt; forms.takoform.com/v1alpha1 ExampleStore 1.0.1"), "{junit}");
    assert!(junit.contains("<failure"), "{junit}");
    Ok(())
}

/// Exit 2 when the command cannot run: one PATH, a missing PATH, a
/// `--write-witnesses` DIR inside a package being checked; nothing is
/// written there.
fn cannot_run() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let a = package(tmp.path(), "a", STORE, |_| {});
    let (code, _, err) = run(&["compat", s(&a)]);
    assert_eq!(code, 2);
    assert!(err.contains("compat takes OLD and NEW"), "{err}");
    let missing = tmp.path().join("missing");
    let (code, _, _) = run(&["compat", s(&a), s(&missing)]);
    assert_eq!(code, 2);
    let (code, _, _) = run(&["compat", "--baseline", s(&missing), s(&a)]);
    assert_eq!(code, 2);
    let inside = a.join("witnesses");
    let (code, _, err) = run(&["compat", s(&a), s(&a), "--write-witnesses", s(&inside)]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("nothing is written to a package being verified"),
        "{err}"
    );
    assert!(!inside.exists());
    // The near miss: a DIR beside the packages is fine.
    let beside = tmp.path().join("witnesses");
    let (code, _, err) = run(&["compat", s(&a), s(&a), "--write-witnesses", s(&beside)]);
    assert_eq!(code, 0, "{err}");
    Ok(())
}

/// `--write-witnesses DIR` writes each witness through the one writer,
/// never into a package (breaker G1, issue 37 item 8): a symbolic link
/// or a hard link planted under the witness's name, pointing into NEW, is
/// refused (exit 2) and the package file keeps its bytes; near miss: an
/// existing plain witness file is replaced by the new witness (exit 1, the
/// bump does not fit).
fn witness_never_written_through_a_link() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let old = package(tmp.path(), "old", STORE, |_| {});
    let new = package(tmp.path(), "new", STORE, |d| {
        d["definitionVersion"] = json!("1.0.1");
        d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(20);
    });
    let victim = new.join("fixtures/desired.json");
    let before = std::fs::read(&victim).unwrap();
    let dir = tmp.path().join("w");
    std::fs::create_dir(&dir).unwrap();
    let named = dir.join("ExampleStore-1.0.0-to-1.0.1.negative.json");
    let args = ["compat", s(&old), s(&new), "--write-witnesses", s(&dir)];
    for link in ["symbolic", "hard"] {
        if link == "symbolic" {
            std::os::unix::fs::symlink(&victim, &named).unwrap();
        } else {
            std::fs::hard_link(&victim, &named).unwrap();
        }
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{link}: {err}");
        assert!(err.contains("is inside the package"), "{link}: {err}");
        assert_eq!(std::fs::read(&victim).unwrap(), before, "{link}");
        std::fs::remove_file(&named).unwrap();
    }
    std::fs::write(&named, "stale").unwrap();
    let (code, _, err) = run(&args);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("wrote witness"), "{err}");
    let witness: Value = serde_json::from_slice(&std::fs::read(&named).unwrap()).unwrap();
    assert!(witness["name"].as_str().unwrap().len() > 20, "{witness}");
    assert_eq!(std::fs::read(&victim).unwrap(), before);
    Ok(())
}

/// Breaker G8: a release is compared with the newest older release, not
/// with a release candidate between them: 1.0.0 → 1.0.1-rc.1 (identical)
/// → 1.0.1 (a breaking change labelled patch) fails in `--history` and in
/// `--baseline` with the rc in BASE. Near miss: the rc itself is still
/// compared with the version before it (no promise, FD673).
fn a_pre_release_never_stands_between_releases() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    package(&tree, "a", STORE, |_| {});
    package(&tree, "b", STORE, |d| {
        d["definitionVersion"] = json!("1.0.1-rc.1")
    });
    let new = package(tmp.path(), "new", STORE, |d| {
        d["definitionVersion"] = json!("1.0.1");
        d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(20);
    });
    let steps = |doc: &Value| -> Vec<(String, String, bool)> {
        doc["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["old"]["formRef"]["definitionVersion"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                    p["new"]["formRef"]["definitionVersion"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                    p["bumpOk"].as_bool().unwrap_or(false),
                )
            })
            .collect()
    };
    let (code, doc) = json_run(&["compat", "--baseline", s(&tree), s(&new)]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        steps(&doc),
        [("1.0.0".into(), "1.0.1".into(), false)],
        "{doc}"
    );
    common::copy_dir(&new, &tree.join("c"));
    let (code, doc) = json_run(&["compat", "--history", s(&tree)]);
    assert_eq!(code, 1, "{doc}");
    let steps = steps(&doc);
    assert!(
        steps.contains(&("1.0.0".into(), "1.0.1".into(), false)),
        "{steps:?}"
    );
    assert!(
        steps
            .iter()
            .any(|(o, n, _)| o == "1.0.0" && n == "1.0.1-rc.1"),
        "{steps:?}"
    );
    assert!(
        !steps.iter().any(|(o, _, _)| o == "1.0.1-rc.1"),
        "{steps:?}"
    );
    Ok(())
}

/// The (old, new, bumpOk) of each pair of a compat document.
pub(crate) fn steps_of(doc: &Value) -> Vec<(String, String, bool)> {
    doc["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let v = |side: &str| {
                p[side]["formRef"]["definitionVersion"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            };
            (v("old"), v("new"), p["bumpOk"].as_bool().unwrap_or(false))
        })
        .collect()
}

/// ExampleStore at `version` with the optional string members `extra`
/// beside `name`, as `<dir>/<name>`.
pub(crate) fn store_with(dir: &Path, name: &str, version: &str, extra: &[&str]) -> PathBuf {
    package(dir, name, STORE, |d| {
        d["definitionVersion"] = json!(version);
        for m in extra {
            d["desiredSchema"]["properties"][*m] = json!({"type": "string"});
        }
    })
}

/// Issue 35 item 2: BASE published 1.0.0 (`name`) and 1.2.0 (`name`,
/// `b`); a PR adds 1.1.0 (`name`, `c`): 1.0.0 → 1.1.0 is a fitting minor,
/// but the published 1.1.0 → 1.2.0 minor now removes `c` (breaking), so
/// the run fails (`--history` over the merged tree agrees). Near misses: a
/// 1.1.0 that holds `b` fits both neighbours (exit 0); a new
/// `1.1.0-rc.1` (`c`) is compared with 1.0.0 only: a pre-release never
/// stands between the releases 1.0.0 and 1.2.0.
fn baseline_checks_both_published_neighbours() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    store_with(&base, "a", "1.0.0", &[]);
    store_with(&base, "b", "1.2.0", &["b"]);
    let pr = tmp.path().join("pr");
    common::copy_dir(&base, &pr);
    store_with(&pr, "c", "1.1.0", &["c"]);
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&pr)]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        steps_of(&doc),
        [
            ("1.0.0".into(), "1.1.0".into(), true),
            ("1.1.0".into(), "1.2.0".into(), false)
        ],
        "{doc}"
    );
    assert_eq!(doc["pairs"][1]["desired"]["verdict"], "breaking");
    assert!(!codes(&doc).contains(&"FD679".to_owned()), "{doc}");
    let (code, merged) = json_run(&["compat", "--history", s(&pr)]);
    assert_eq!(code, 1, "{merged}");
    assert!(steps_of(&merged).contains(&("1.1.0".into(), "1.2.0".into(), false)));

    let fits = tmp.path().join("fits");
    common::copy_dir(&base, &fits);
    store_with(&fits, "c", "1.1.0", &["b"]);
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&fits)]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(
        steps_of(&doc),
        [
            ("1.0.0".into(), "1.1.0".into(), true),
            ("1.1.0".into(), "1.2.0".into(), true)
        ],
        "{doc}"
    );

    let rc = tmp.path().join("rc");
    common::copy_dir(&base, &rc);
    store_with(&rc, "c", "1.1.0-rc.1", &["c"]);
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&rc)]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(
        steps_of(&doc),
        [("1.0.0".into(), "1.1.0-rc.1".into(), true)],
        "{doc}"
    );
    Ok(())
}

/// Breaker F1: two new versions of one PR are held to each other, as
/// `--history` over the merged tree holds them: BASE 1.0.0; the PR adds
/// 1.1.0 (`c`) and 1.2.0 (without `c`): 1.1.0 → 1.2.0 is a breaking minor
/// and the run fails (it passed when each new version was compared with
/// BASE alone). Near miss: a 1.2.0 that keeps `c` and adds `d` fits.
fn baseline_holds_new_versions_to_each_other() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    store_with(&base, "a", "1.0.0", &[]);
    let pr = tmp.path().join("pr");
    common::copy_dir(&base, &pr);
    store_with(&pr, "b", "1.1.0", &["c"]);
    store_with(&pr, "c", "1.2.0", &[]);
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&pr)]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        steps_of(&doc),
        [
            ("1.0.0".into(), "1.1.0".into(), true),
            ("1.1.0".into(), "1.2.0".into(), false)
        ],
        "{doc}"
    );
    let (code, merged) = json_run(&["compat", "--history", s(&pr)]);
    assert_eq!(code, 1, "{merged}");
    assert_eq!(steps_of(&merged), steps_of(&doc), "{merged}");

    let fits = tmp.path().join("fits");
    common::copy_dir(&base, &fits);
    store_with(&fits, "b", "1.1.0", &["c"]);
    store_with(&fits, "c", "1.2.0", &["c", "d"]);
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&fits)]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(
        steps_of(&doc),
        [
            ("1.0.0".into(), "1.1.0".into(), true),
            ("1.1.0".into(), "1.2.0".into(), true)
        ],
        "{doc}"
    );
    Ok(())
}

/// Issue 35 item 2: a PR tree that lacks a version BASE published (of a
/// kind the tree holds) gets FD679 (a warning, exit 0) at BASE's copy;
/// the removed version is still a neighbour BASE checks against. Near
/// miss: the tree that keeps it has no FD679 (only FD684: nothing is new).
fn baseline_warns_of_a_removed_published_version() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    store_with(&base, "a", "1.0.0", &[]);
    store_with(&base, "b", "1.0.1", &[]);
    let pr = tmp.path().join("pr");
    store_with(&pr, "a", "1.0.0", &[]);
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&pr)]);
    assert_eq!(code, 0, "{doc}");
    let removed: Vec<&Value> = doc["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| o["diagnostics"].as_array().unwrap())
        .filter(|d| d["code"] == "FD679")
        .collect();
    assert_eq!(removed.len(), 1, "{doc}");
    assert_eq!(removed[0]["severity"], "warning");
    assert!(
        removed[0]["file"]
            .as_str()
            .unwrap()
            .ends_with("b/definition.json"),
        "{doc}"
    );
    assert_eq!(removed[0]["pointer"], "/definitionVersion");
    store_with(&pr, "b", "1.0.1", &[]);
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&pr)]);
    assert_eq!(code, 0, "{doc}");
    // Nothing removed, and nothing new either: FD684, a note (breaker2 G9).
    assert_eq!(codes(&doc), ["FD684"], "{doc}");
    Ok(())
}

/// `git ARGS` in `dir` (no user or system configuration; an author set):
/// its stdout, trimmed; panics when it fails.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "protocol.file.allow=always",
        ])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_owned()
}

/// A new repository in `dir` with every file of its tree committed with
/// `message` (`git init`, `add -A`, `commit`).
pub(crate) fn committed(dir: &Path, message: &str) {
    git(dir, &["init", "-q"]);
    commit_all(dir, message);
}

/// Every change of the tree of the repository `dir` committed with
/// `message` (`git add -A`, `commit`).
pub(crate) fn commit_all(dir: &Path, message: &str) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", message]);
}

/// A repository `tmp/repo` whose `packages/NAME` is the store at 1.0.0,
/// committed: (the repository, its `packages`).
pub(crate) fn published(tmp: &Path, name: &str) -> (PathBuf, PathBuf) {
    let repo = tmp.join("repo");
    let tree = repo.join("packages");
    store_with(&tree, name, "1.0.0", &[]);
    committed(&repo, "published");
    (repo, tree)
}

/// `compat ARGS --format json` run in `dir`: (exit status, document).
pub(crate) fn json_in(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let (code, out, err) = run_in(dir, &all);
    let doc: Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\nstderr: {err}"));
    (code, doc)
}

/// The store at `version` with `name.maxLength` 10 (63 before): a breaking
/// change against 1.0.0, made as the package `dir/name`.
pub(crate) fn breaking(dir: &Path, name: &str, version: &str) -> PathBuf {
    package(dir, name, STORE, |d| {
        d["definitionVersion"] = json!(version);
        d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(10);
    })
}

/// Runs the binary with `args` in `dir`; (exit status, stdout, stderr).
pub(crate) fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let o = Command::new(crate::common::BIN)
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env("GIT_CEILING_DIRECTORIES", dir.parent().unwrap())
        .env_remove("GITHUB_WORKSPACE")
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Issue 35 item 3: `--baseline-rev REV PATH` reads BASE from the git
/// revision REV of the repository PATH is in, with no checkout: the
/// packages under `packages` at the commit `published` (1.0.0, 1.2.0 `b`)
/// against the working tree that adds 1.1.0 (`c`): the published 1.1.0 →
/// 1.2.0 step breaks (exit 1), BASE's sides named `REV:PATH/…` as PATH was
/// given; nothing is written to the repository. Near miss: a 1.1.0 that
/// holds `b` fits (exit 0).
fn baseline_rev_reads_base_from_git() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let tree = repo.join("packages");
    store_with(&tree, "a", "1.0.0", &[]);
    store_with(&tree, "b", "1.2.0", &["b"]);
    committed(&repo, "published");
    git(&repo, &["tag", "published"]);
    let files = |dir: &Path| {
        let mut all: Vec<PathBuf> = walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|e| e.unwrap().path().to_path_buf())
            .collect();
        all.sort();
        all
    };
    store_with(&tree, "c", "1.1.0", &["c"]);
    let before = files(&repo);
    let (code, out, err) = run_in(
        &repo,
        &[
            "compat",
            "--baseline-rev",
            "published",
            "packages",
            "--format",
            "json",
        ],
    );
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert_eq!(code, 1, "{doc}{err}");
    assert_eq!(
        steps_of(&doc),
        [
            ("1.0.0".into(), "1.1.0".into(), true),
            ("1.1.0".into(), "1.2.0".into(), false)
        ],
        "{doc}"
    );
    assert_eq!(
        doc["pairs"][0]["old"]["path"], "published:packages/a",
        "{doc}"
    );
    assert_eq!(
        doc["pairs"][1]["new"]["path"], "published:packages/b",
        "{doc}"
    );
    assert_eq!(doc["pairs"][1]["old"]["path"], "packages/c", "{doc}");
    assert_eq!(files(&repo), before, "nothing written to the repository");
    assert_eq!(git(&repo, &["worktree", "list"]).lines().count(), 1);
    std::fs::remove_dir_all(tree.join("c")).unwrap();
    store_with(&tree, "c", "1.1.0", &["b"]);
    let (code, out, err) = run_in(
        &repo,
        &["compat", "--baseline-rev", "published", "packages"],
    );
    assert_eq!(code, 0, "{out}{err}");
    Ok(())
}

/// Issue 35 item 3: `--baseline-rev` cannot run (exit 2) and says why and
/// how to fetch: an unknown revision (`git fetch origin REV`), a shallow
/// clone that lacks it (`git fetch --deepen`), no repository. Near miss:
/// the revision the shallow clone holds runs (exit 0). A package at REV
/// with an executable file is counted as a refused package of BASE.
fn baseline_rev_that_cannot_be_read() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    store_with(&repo.join("packages"), "a", "1.0.0", &[]);
    committed(&repo, "one");
    let first = git(&repo, &["rev-parse", "HEAD"]);
    store_with(&repo.join("packages"), "b", "1.0.1", &[]);
    commit_all(&repo, "two");

    let (code, _, err) = run_in(&repo, &["compat", "--baseline-rev", "nope", "packages"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("unknown revision in the repository of packages:")
            && err.contains("git fetch origin nope"),
        "{err}"
    );
    // Paths as given, never absolute (issue 35 item 5).
    assert!(!err.contains(s(tmp.path())), "{err}");

    let url = format!("file://{}", repo.display());
    git(
        tmp.path(),
        &["clone", "-q", "--depth", "1", &url, "shallow"],
    );
    let shallow = tmp.path().join("shallow");
    let (code, _, err) = run_in(&shallow, &["compat", "--baseline-rev", &first, "packages"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("shallow clone") && err.contains("git fetch --deepen"),
        "{err}"
    );
    let (code, out, err) = run_in(&shallow, &["compat", "--baseline-rev", "HEAD", "packages"]);
    assert_eq!(code, 0, "{out}{err}");

    // A package at REV holding an executable file is one verify refuses
    // on disk (FD006): counted as a refused package of BASE, never a
    // baseline. Near miss: the revision before it has none.
    let (code, out, err) = run_in(
        &repo,
        &[
            "compat",
            "--baseline-rev",
            "HEAD",
            "packages",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["summary"]["baseRefused"], 0, "{doc}");
    git(
        &repo,
        &["update-index", "--chmod=+x", "packages/b/definition.json"],
    );
    git(&repo, &["commit", "-qm", "executable"]);
    let (_, out, err) = run_in(
        &repo,
        &[
            "compat",
            "--baseline-rev",
            "HEAD",
            "packages",
            "--format",
            "json",
        ],
    );
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert_eq!(doc["summary"]["baseRefused"], 1, "{doc}");

    let plain = tmp.path().join("plain");
    store_with(&plain, "a", "1.0.0", &[]);
    let (code, _, err) = run_in(&plain, &["compat", "--baseline-rev", "HEAD", "."]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not in a git repository"), "{err}");
    Ok(())
}

/// Issue 35 item 7: `--format github` spends GitHub's 10 error
/// annotations on the failing pair first: 12 refused packages of other
/// kinds (an unlisted file each) and one breaking patch annotate the pair's
/// FD670, print the rest as log lines and say how many are in the log only,
/// as `verify` does. Near miss: the failing pair alone is annotated and
/// nothing is said past the limit.
fn github_annotates_failing_pairs_first() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    package(&tree, "a", STORE, |_| {});
    package(&tree, "b", STORE, |d| {
        d["definitionVersion"] = json!("1.0.1");
        d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(20);
    });
    let github = |tree: &Path| {
        let (code, out, err) = run(&["compat", "--history", s(tree), "--format", "github"]);
        assert_eq!(code, 1, "{out}{err}");
        out
    };
    let alone = github(&tree);
    let annotated = |out: &str| {
        out.lines()
            .filter(|l| l.starts_with("::error"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert!(
        annotated(&alone).iter().any(|l| l.contains("FD670")),
        "{alone}"
    );
    assert!(!alone.contains("annotations per type"), "{alone}");
    for n in 0..12 {
        let dir = package(&tree, &format!("broken-{n:02}"), STORE, |d| {
            d["kind"] = json!(format!("Broken{n:02}"));
        });
        std::fs::write(dir.join("unlisted.json"), "{}").unwrap();
    }
    let out = github(&tree);
    let errors = annotated(&out);
    assert_eq!(errors.len(), 10, "{out}");
    assert!(errors.iter().any(|l| l.contains("FD670")), "{out}");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("form-package: GitHub shows 10 annotations per type; ")
            && last.contains("more errors are in this log only"),
        "{out}"
    );
    Ok(())
}

/// The `old` and `new` pointers of a pair's record of `code`.
fn record_pointers(doc: &Value, code: &str) -> (String, String) {
    let r = doc["pairs"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == code)
        .unwrap_or_else(|| panic!("no {code}: {doc}"));
    let at = |side: &str| r[side]["pointer"].as_str().unwrap_or_default().to_owned();
    (at("old"), at("new"))
}

/// Issue 35 item 5, where: a breaking record points at the keyword of NEW
/// that refuses the witness (the engine's re-check) and at the same keyword
/// of OLD, not at `/desiredSchema`; a widened record at the keyword of OLD
/// that refuses the newly accepted document. Why: one line gives the
/// reason of the required bump, by OLD's major line. Near miss: a change
/// outside the desired schema keeps its own pointer and a 0.x breaking
/// change needs a minor.
fn records_point_at_the_deciding_keyword() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let old = package(tmp.path(), "old", STORE, |_| {});
    let narrower = package(tmp.path(), "narrower", STORE, |d| {
        d["definitionVersion"] = json!("1.0.1");
        d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(20);
    });
    let (code, doc) = json_run(&["compat", s(&old), s(&narrower)]);
    assert_eq!(code, 1, "{doc}");
    let keyword = "/desiredSchema/properties/name/maxLength".to_owned();
    assert_eq!(
        record_pointers(&doc, "FD650"),
        (keyword.clone(), keyword.clone())
    );
    assert_eq!(
        doc["pairs"][0]["requiredBumpReason"],
        "1.x: a breaking change needs a major (FD650 desired-schema-breaking)"
    );
    let (_, human, _) = run(&["compat", s(&old), s(&narrower)]);
    assert!(
        human.contains(
            "  required major: 1.x: a breaking change needs a major (FD650 desired-schema-breaking)\n"
        ),
        "{human}"
    );
    assert!(
        human
            .contains("narrower/definition.json:15:22 at /desiredSchema/properties/name/maxLength"),
        "{human}"
    );

    let wider = package(tmp.path(), "wider", STORE, |d| {
        d["definitionVersion"] = json!("1.1.0");
        d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(100);
    });
    let (code, doc) = json_run(&["compat", s(&old), s(&wider)]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(record_pointers(&doc, "FD652"), (keyword.clone(), keyword));
    assert_eq!(
        doc["pairs"][0]["requiredBumpReason"],
        "1.x: an addition needs a minor (FD652 desired-schema-widened)"
    );
    let unlisted = package(tmp.path(), "unlisted", STORE, |d| {
        d["definitionVersion"] = json!("1.0.1");
        d["desiredSchema"]["properties"]["size"] = json!({"type": "integer"});
    });
    let (_, doc) = json_run(&["compat", s(&old), s(&unlisted)]);
    assert_eq!(
        record_pointers(&doc, "FD652"),
        (
            "/desiredSchema/additionalProperties".to_owned(),
            "/desiredSchema/additionalProperties".to_owned()
        ),
        "{doc}"
    );

    let zero = |name: &str, version: &str, max: i64| {
        package(tmp.path(), name, STORE, |d| {
            d["definitionVersion"] = json!(version);
            d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(max);
        })
    };
    let (a, b) = (zero("z1", "0.3.0", 63), zero("z2", "0.3.1", 20));
    let (code, doc) = json_run(&["compat", s(&a), s(&b)]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        doc["pairs"][0]["requiredBumpReason"],
        "0.x: a breaking change needs a minor (FD650 desired-schema-breaking)"
    );
    Ok(())
}

/// Issue 35 item 5: reversed arguments say FD675 and no bump ("bump none,
/// required none" said a bump was asked and none fits); `requiredBump` is
/// null. Near miss: the same pair in order shows its bumps.
fn reversed_arguments_say_fd675_only() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let old = package(tmp.path(), "old", STORE, |_| {});
    let new = package(tmp.path(), "new", STORE, |d| {
        d["definitionVersion"] = json!("1.1.0");
    });
    let (code, human, _) = run(&["compat", s(&new), s(&old)]);
    assert_eq!(code, 1, "{human}");
    assert!(
        human.contains("desired identical; NEW's version does not follow OLD's (FD675)\n"),
        "{human}"
    );
    assert!(!human.contains("bump none"), "{human}");
    let (_, doc) = json_run(&["compat", s(&new), s(&old)]);
    assert_eq!(doc["pairs"][0]["requiredBump"], Value::Null, "{doc}");
    assert_eq!(codes(&doc), ["FD675"]);
    let (code, human, _) = run(&["compat", s(&old), s(&new)]);
    assert_eq!(code, 0, "{human}");
    assert!(human.contains("bump minor, required none"), "{human}");
    Ok(())
}

/// Issue 35 item 5: each witness written prints the
/// `negativeConformanceFixtures` entry to paste, and pasted as said (the
/// file copied to NEW's `fixtures/`), NEW verifies with it; a refusal names
/// the package as the path was given, not absolute. Near miss: without
/// the entry NEW verifies too, and the witness is refused by NEW.
fn witness_entry_to_paste_and_paths_as_given() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let old = package(tmp.path(), "old", STORE, |_| {});
    let new = package(tmp.path(), "new", STORE, |d| {
        d["definitionVersion"] = json!("2.0.0");
        d["desiredSchema"]["properties"]["name"]["maxLength"] = json!(20);
    });
    let (code, _, err) = run_in(
        tmp.path(),
        &["compat", "old", "new", "--write-witnesses", "new/w"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--write-witnesses new/w is inside the package new: "),
        "{err}"
    );
    assert!(!err.contains(s(tmp.path())), "{err}");
    let (code, _, err) = run_in(
        tmp.path(),
        &["compat", "old", "new", "--output-file", "new/x.json"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("is inside the package new being verified"),
        "{err}"
    );

    let (code, _, err) = run_in(
        tmp.path(),
        &["compat", "old", "new", "--write-witnesses", "w"],
    );
    assert_eq!(code, 0, "{err}");
    let file = "ExampleStore-1.0.0-to-2.0.0.negative.json";
    let prefix = "this entry in negativeConformanceFixtures: ";
    let line = err
        .lines()
        .find(|l| l.contains(prefix))
        .unwrap_or_else(|| panic!("{err}"));
    let entry: Value = serde_json::from_str(line.split_once(prefix).unwrap().1).unwrap();
    assert_eq!(
        entry,
        json!({"name": "examplestore-1.0.0-to-2.0.0", "stage": "desired",
               "inputPath": format!("fixtures/{file}"),
               "expectedFailure": "schema_validation_failed"})
    );
    std::fs::copy(
        tmp.path().join("w").join(file),
        new.join("fixtures").join(file),
    )
    .unwrap();
    let def = new.join("definition.json");
    let mut d: Value = serde_json::from_slice(&std::fs::read(&def).unwrap()).unwrap();
    d["negativeConformanceFixtures"]
        .as_array_mut()
        .map(|a| a.push(entry.clone()))
        .unwrap_or_else(|| d["negativeConformanceFixtures"] = json!([entry]));
    std::fs::write(&def, serde_json::to_vec_pretty(&d).unwrap()).unwrap();
    common::reindex(&new);
    let (code, out, err) = run(&["verify", s(&new)]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, _, err) = run(&["verify", s(&old)]);
    assert_eq!(code, 0, "{err}");
    Ok(())
}

/// Issue 35 item 5: `compat --help` names one schema command for its JSON
/// (`schema compat`; the shared format list named `schema report`). Near
/// miss: `verify --help` names `schema report`.
fn compat_help_names_its_schema() -> Result<(), Failed> {
    let (code, help, _) = run(&["compat", "--help"]);
    assert_eq!(code, 0);
    assert!(help.contains("`form-package schema compat`"), "{help}");
    assert!(!help.contains("schema report"), "{help}");
    let (_, help, _) = run(&["verify", "--help"]);
    assert!(help.contains("`form-package schema report`"), "{help}");
    Ok(())
}

/// Issue 35 item 5: FD667's reason names the side that asserts the
/// format: OLD asserts `format: regex`, NEW drops it, so whether NEW
/// accepts more is the question, and the reason says OLD asserts it (it
/// said NEW). A prover that decides it (a string that is no pattern,
/// FD652) must show a newly accepted string that is not a valid pattern.
fn fd667_names_the_side_that_asserts_the_format() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let old = package(tmp.path(), "old", STORE, |d| {
        d["desiredSchema"]["properties"]["name"]["format"] = json!("regex");
    });
    let new = package(tmp.path(), "new", STORE, |d| {
        d["definitionVersion"] = json!("1.1.0");
    });
    let (code, doc) = json_run(&["compat", s(&old), s(&new)]);
    assert_eq!(code, 0, "{doc}");
    let desired = &doc["pairs"][0]["desired"];
    match desired["verdict"].as_str() {
        Some("compatible") => {
            let reason = desired["reason"].as_str().unwrap();
            assert!(
                reason.starts_with("OLD asserts `format: regex`"),
                "{reason}"
            );
            assert!(reason.contains("NEW's strings"), "{reason}");
        }
        Some("widened") => {
            let name = desired["newlyAccepted"]["name"].as_str().unwrap();
            assert!(regex::Regex::new(name).is_err(), "{name}");
        }
        other => panic!("{other:?}: {doc}"),
    }
    Ok(())
}

/// Breaker G7: one kind in two groups, each with a breaking step 0.2.0 →
/// 0.2.1: the two witnesses would share `<kind>-<old>-to-<new>`; each is
/// prefixed with its group and both are written (one was lost). Near
/// miss: a lone breaking pair keeps the short name
/// (`witness_never_written_through_a_link`).
fn witnesses_of_two_groups_never_share_a_name() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    for (group, prefix) in [
        ("edge.forms.takoform.com", "a"),
        ("other.forms.takoform.com", "b"),
    ] {
        package(
            &tree,
            &format!("{prefix}1"),
            crate::compat_meaning::CONSUMER,
            |d| d["apiVersion"] = json!(group),
        );
        package(
            &tree,
            &format!("{prefix}2"),
            crate::compat_meaning::CONSUMER,
            |d| {
                d["apiVersion"] = json!(group);
                d["definitionVersion"] = json!("0.2.1");
                let max = &mut d["desiredSchema"]["properties"]["maxRetries"]["maximum"];
                *max = json!(max.as_i64().unwrap() - 1);
            },
        );
    }
    let dir = tmp.path().join("w");
    let (code, _, err) = run(&[
        "compat",
        "--history",
        s(&tree),
        "--write-witnesses",
        s(&dir),
    ]);
    assert_eq!(code, 1, "{err}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "edge.forms.takoform.com-QueueConsumer-0.2.0-to-0.2.1.negative.json",
            "other.forms.takoform.com-QueueConsumer-0.2.0-to-0.2.1.negative.json"
        ],
        "{err}"
    );
    assert_eq!(err.matches("wrote witness").count(), 2, "{err}");
    Ok(())
}

/// `--history` over a tree with the same version twice with different
/// bytes reports FD671 at both copies; a new kind under `--baseline` has
/// nothing to compare (FD677, exit 0).
fn tree_modes() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("tree");
    package(&tree, "one", STORE, |_| {});
    package(&tree, "two", STORE, |d| {
        d["title"] = json!("Other bytes, same version")
    });
    package(&tree, "three", STORE, |d| {
        d["definitionVersion"] = json!("1.0.1")
    });
    let (code, doc) = json_run(&["compat", "--history", s(&tree)]);
    assert_eq!(code, 1);
    let reused: Vec<&Value> = doc["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| o["diagnostics"].as_array().unwrap())
        .filter(|d| d["code"] == "FD671")
        .collect();
    assert_eq!(reused.len(), 2, "{doc}");
    assert_eq!(doc["pairs"].as_array().unwrap().len(), 1);
    // The step 1.0.0 -> 1.0.1 is taken from the copy closest to 1.0.1.
    assert!(doc["pairs"][0]["old"]["path"]
        .as_str()
        .unwrap()
        .ends_with("one"));
    assert_eq!(doc["pairs"][0]["bumpOk"], true);
    let base = tmp.path().join("base");
    package(
        &base,
        "bucket",
        "fixtures/packages/v1beta1/object-bucket-0.1.0-553675391d88",
        |_| {},
    );
    // A 1.0.1 with nothing older is no first release: FD681, a warning
    // (breaker F9); a first release is FD677 (`compat_gate`).
    let (code, doc) = json_run(&["compat", "--baseline", s(&base), s(&tree.join("three"))]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(codes(&doc), vec!["FD681".to_owned()]);
    Ok(())
}

/// This file's trials, run by the binary's `main`.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    let corpus = common::corpus();
    let has_git = Command::new("git").arg("--version").output().is_ok();
    let mut trials = vec![
        Trial::test("identical_pair_is_silent", identical_pair_is_silent),
        Trial::test("index_changes_are_located", index_changes_are_located),
        Trial::test("table_of_change_kinds", table_of_change_kinds),
        Trial::test("every_format", every_format),
        Trial::test("cannot_run", cannot_run),
        Trial::test(
            "witness_never_written_through_a_link",
            witness_never_written_through_a_link,
        ),
        Trial::test("tree_modes", tree_modes),
        Trial::test(
            "witnesses_of_two_groups_never_share_a_name",
            witnesses_of_two_groups_never_share_a_name,
        ),
        Trial::test(
            "baseline_checks_both_published_neighbours",
            baseline_checks_both_published_neighbours,
        ),
        Trial::test(
            "baseline_holds_new_versions_to_each_other",
            baseline_holds_new_versions_to_each_other,
        ),
        Trial::test(
            "baseline_warns_of_a_removed_published_version",
            baseline_warns_of_a_removed_published_version,
        ),
        // Reported ignored, not passed, where git is not installed.
        Trial::test(
            "baseline_rev_reads_base_from_git",
            baseline_rev_reads_base_from_git,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "baseline_rev_that_cannot_be_read",
            baseline_rev_that_cannot_be_read,
        )
        .with_ignored_flag(!has_git),
        Trial::test(
            "github_annotates_failing_pairs_first",
            github_annotates_failing_pairs_first,
        ),
        Trial::test(
            "records_point_at_the_deciding_keyword",
            records_point_at_the_deciding_keyword,
        ),
        Trial::test(
            "reversed_arguments_say_fd675_only",
            reversed_arguments_say_fd675_only,
        ),
        Trial::test(
            "witness_entry_to_paste_and_paths_as_given",
            witness_entry_to_paste_and_paths_as_given,
        ),
        Trial::test("compat_help_names_its_schema", compat_help_names_its_schema),
        Trial::test(
            "fd667_names_the_side_that_asserts_the_format",
            fd667_names_the_side_that_asserts_the_format,
        ),
        Trial::test(
            "a_pre_release_never_stands_between_releases",
            a_pre_release_never_stands_between_releases,
        ),
    ];
    let with_corpus =
        |name: &str, f: fn(&Path) -> Result<(), Failed>| common::corpus_trial(name, &corpus, f);
    trials.push(with_corpus(
        "corpus_history_classifies_every_pair",
        history_of_the_corpus,
    ));
    trials.push(with_corpus("history_table_page", history_table_page));
    trials.push(with_corpus(
        "corpus_baseline_reports_reuse",
        baseline_reports_reuse,
    ));
    trials.push(with_corpus(
        "corpus_baseline_reports_breaking_minor",
        baseline_reports_breaking_minor,
    ));
    trials
}

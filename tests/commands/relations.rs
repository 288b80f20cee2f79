//! `form-package relations` (issue #5).
//!
//! Unconditional tests run on the packages shipped in `fixtures/`. The
//! corpus test compares `relations --format json` of every complete
//! family-lane and current-profile package of the shared corpus (manifest
//! entries with `complete: true` and `epoch` in `v1alpha3`, `v1beta1`,
//! `versionless`) with `tests/relations/<epoch>__<dirname>.json`; with
//! `BLESS=1` it writes those files instead. The corpus is found through
//! `FORM_PACKAGE_CORPUS` (default `../shared/corpus` beside the clone); when
//! it is missing the corpus tests fail under CI (`CI` set) and otherwise say
//! loudly that they did not run.

use crate::common;
use common::copy_dir;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use form_package::render::{Format, Options};
use serde_json::{json, Value};

const EPOCHS: [&str; 3] = ["v1alpha3", "v1beta1", "versionless"];

fn run(args: &[&std::ffi::OsStr]) -> Output {
    common::run(args)
}

/// `relations` on the worker-version fixture with `--instance INSTANCE`.
fn relations_with_instance(instance: &Path) -> Output {
    run(&[
        "relations".as_ref(),
        worker_version().as_os_str(),
        "--instance".as_ref(),
        instance.as_os_str(),
    ])
}

/// `relations --output-file OUTPUT --instance INSTANCE` on the
/// worker-version fixture.
fn relations_into(output: &Path, instance: &Path) -> Output {
    run(&[
        "relations".as_ref(),
        "--output-file".as_ref(),
        output.as_os_str(),
        "--instance".as_ref(),
        instance.as_os_str(),
        worker_version().as_os_str(),
    ])
}

/// A run's standard error as text (lossy).
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn worker_version() -> PathBuf {
    manifest_dir().join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7")
}

fn relations_json(path: &Path, instance: Option<&Path>) -> Value {
    let o = form_package::cli::relations::report(path, Format::Json, instance, &Options::here());
    assert_eq!(o.code, 0, "{}: {}", path.display(), o.stderr);
    serde_json::from_slice(&o.stdout).unwrap()
}

fn reindex(dir: &Path) {
    let indexed = form_package::index::build(dir, None).unwrap();
    form_package::index::write(dir, &indexed).unwrap();
}

#[test]
fn worker_version_derives_its_eight_relations_with_bindings() {
    let v = relations_json(&worker_version(), None);
    let got: Vec<(String, String, String, bool)> = v["relations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["pointer"].as_str().unwrap().to_owned(),
                r["targetKind"].as_str().unwrap().to_owned(),
                r["binding"].as_str().unwrap().to_owned(),
                r["required"].as_bool().unwrap(),
            )
        })
        .collect();
    let want = [
        ("/assets/bundle", "StaticAssetBundle", "", false),
        (
            "/bucketBindings/*/resource",
            "ObjectBucket",
            "module-worker.object-bucket",
            false,
        ),
        ("/bundle", "WorkerBundle", "", true),
        (
            "/kvBindings/*/resource",
            "EdgeKVNamespace",
            "module-worker.edge-kv",
            false,
        ),
        (
            "/queueProducerBindings/*/resource",
            "AtLeastOnceQueue",
            "module-worker.queue-producer",
            false,
        ),
        (
            "/serviceBindings/*/resource",
            "ModuleWorker",
            "module-worker.service",
            false,
        ),
        (
            "/sqliteBindings/*/resource",
            "SQLiteDatabase",
            "module-worker.sqlite",
            false,
        ),
        ("/worker", "ModuleWorker", "", true),
    ]
    .map(|(p, k, b, r)| (p.to_owned(), k.to_owned(), b.to_owned(), r));
    assert_eq!(got, want);
    assert_eq!(
        v["definition"],
        json!({"apiVersion": "edge.forms.takoform.com/v1beta1", "kind": "WorkerVersion", "definitionVersion": "0.1.0"})
    );
    assert_eq!(v["diagnostics"], json!([]));
    // target contracts: a FormRef list for /bundle, an interface for /kvBindings
    let rels = v["relations"].as_array().unwrap();
    assert_eq!(
        rels[2]["targetFormRefs"][0]["schemaDigest"],
        "sha256:8891abff562e0725c96aaaf2014bd2ded6cd0e8697ffa2fe227342363a6537b1"
    );
    assert!(rels[2].get("requiredInterface").is_none());
    assert_eq!(rels[3]["requiredInterface"]["name"], "edge.kv");
    assert_eq!(rels[3]["requiredInterface"]["version"], "1.0.0");
    assert!(rels[3].get("targetFormRefs").is_none());
}

#[test]
fn bare_definition_file_gives_the_same_relations_as_its_package() {
    let from_dir = relations_json(&worker_version(), None);
    let from_file = relations_json(&worker_version().join("definition.json"), None);
    assert_eq!(from_dir["relations"], from_file["relations"]);
    assert_eq!(from_dir["definition"], from_file["definition"]);
}

#[test]
fn instance_resolves_concrete_pointers_and_names() {
    let tmp = tempfile::tempdir().unwrap();
    let doc = tmp.path().join("desired.json");
    std::fs::write(
        &doc,
        r#"{"kvBindings":[{"name":"CACHE","resource":{"apiVersion":"edge.forms.takoform.com/v1beta1","kind":"EdgeKVNamespace","name":"cache"}}]}"#,
    )
    .unwrap();
    let v = relations_json(&worker_version(), Some(&doc));
    assert_eq!(
        v["instances"],
        json!([{"relation": "/kvBindings/*/resource", "pointer": "/kvBindings/0/resource", "name": "cache"}])
    );
    // human: the instance table and the count line
    let o = relations_with_instance(&doc);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("/kvBindings/0/resource  cache  /kvBindings/*/resource"),
        "{text}"
    );
    assert!(
        text.ends_with("8 relations, 0 warnings, 0 notes, 1 instance\n"),
        "{text}"
    );
    // without --instance there is no instances member
    assert!(relations_json(&worker_version(), None)
        .get("instances")
        .is_none());
}

#[test]
fn instance_that_does_not_parse_is_status_1() {
    let tmp = tempfile::tempdir().unwrap();
    let doc = tmp.path().join("desired.json");
    std::fs::write(&doc, "{\"kvBindings\": [1,]}").unwrap();
    let o = relations_with_instance(&doc);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("FD012"), "{}", stderr(&o));
}

#[test]
fn human_table_lists_every_column() {
    let o = run(&["relations".as_ref(), worker_version().as_os_str()]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "edge.forms.takoform.com/v1beta1 WorkerVersion 0.1.0 (definition.json)"
    );
    assert!(lines[2].starts_with("POINTER "), "{text}");
    assert!(lines[2].ends_with("TARGET CONTRACT"), "{text}");
    let kv = lines
        .iter()
        .find(|l| l.starts_with("/kvBindings/*/resource "))
        .unwrap();
    let cells: Vec<&str> = kv.split("  ").filter(|c| !c.is_empty()).collect();
    assert_eq!(
        cells.iter().map(|c| c.trim()).collect::<Vec<_>>(),
        [
            "/kvBindings/*/resource",
            "edge.forms.takoform.com/v1beta1/EdgeKVNamespace",
            "module-worker.edge-kv",
            "no",
            "interface: edge.kv@1.0.0"
        ]
    );
    let bundle = lines.iter().find(|l| l.starts_with("/bundle ")).unwrap();
    assert!(
        bundle.ends_with("yes       formrefs: edge.forms.takoform.com/v1beta1 WorkerBundle 0.1.0"),
        "{bundle}"
    );
    assert_eq!(*lines.last().unwrap(), "8 relations, 0 warnings, 0 notes");
}

#[test]
fn exit_status_2_for_missing_path_and_1_for_unparsable_definition() {
    let o = run(&["relations".as_ref(), "/nonexistent/relcmd".as_ref()]);
    assert_eq!(o.status.code(), Some(2));
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    copy_dir(&worker_version(), &pkg);
    std::fs::write(pkg.join("definition.json"), "{\"kind\": -0}").unwrap();
    let o = run(&["relations".as_ref(), pkg.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("FD012") && err.contains("definition.json:1:10"),
        "{err}"
    );
    // a package whose index is missing falls back to definition.json
    std::fs::remove_file(pkg.join("package-index.json")).unwrap();
    std::fs::copy(
        worker_version().join("definition.json"),
        pkg.join("definition.json"),
    )
    .unwrap();
    assert_eq!(
        relations_json(&pkg, None)["relations"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
}

/// B5: a document that is not a Form Definition (a JSON array, a package
/// index, an unrecognised object, a definition whose desiredSchema is not
/// an object) is refused with FD630 naming what it is (exit 1; in `human`
/// on stderr with nothing on stdout, in `json` in the document, T2 F3),
/// never "0 relations". Near miss: the definition file itself.
#[test]
fn a_document_that_is_not_a_form_definition_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        ("arr.json", "[1]".to_owned(), "it is a JSON array"),
        (
            "u.json",
            r#"{"apiVersion":"foo/v1","kind":"X"}"#.to_owned(),
            "it is an unrecognised document (apiVersion \"foo/v1\", kind \"X\")",
        ),
        (
            "index.json",
            std::fs::read_to_string(worker_version().join("package-index.json")).unwrap(),
            "it is a package index",
        ),
        (
            "b.json",
            r#"{"apiVersion":"forms.takoform.com/v1alpha1","kind":"FormDefinition","desiredSchema":[]}"#
                .to_owned(),
            "its desiredSchema is not an object",
        ),
    ];
    for (name, text, why) in cases {
        let file = tmp.path().join(name);
        std::fs::write(&file, text).unwrap();
        for format in ["human", "json"] {
            let o = run(&[
                "relations".as_ref(),
                file.as_os_str(),
                "--format".as_ref(),
                format.as_ref(),
            ]);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{name} {format}: {err}");
            if format == "human" {
                assert!(o.stdout.is_empty(), "{name} {format}");
                assert!(err.contains("FD630") && err.contains(why), "{name}: {err}");
            } else {
                // T2 F3: the finding is in the document, on stdout.
                assert!(err.is_empty(), "{name}: {err}");
                let v: Value = serde_json::from_slice(&o.stdout).unwrap();
                assert_eq!(v["relations"], json!([]), "{name}");
                let d = &v["diagnostics"][0];
                assert_eq!(d["code"], "FD630", "{name}");
                assert!(d["message"].as_str().unwrap().contains(why), "{name}: {d}");
            }
        }
    }
    let o = run(&[
        "relations".as_ref(),
        worker_version().join("definition.json").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0));
}

/// B7: an `--instance` that is a directory (or cannot be read) is the
/// command failing to run: exit 2, as a missing one. Near miss: one that
/// does not parse is a finding (exit 1, `instance_that_does_not_parse_is_status_1`).
#[test]
fn instance_directory_is_status_2() {
    let tmp = tempfile::tempdir().unwrap();
    for instance in [tmp.path().to_path_buf(), tmp.path().join("nonexist.json")] {
        let o = relations_with_instance(&instance);
        assert_eq!(o.status.code(), Some(2), "{}", instance.display());
        assert!(o.stdout.is_empty());
        assert!(
            stderr(&o).starts_with("form-package: relations: "),
            "{}",
            stderr(&o)
        );
    }
}

/// B6: `relations --output-file` inside the package of a bare definition
/// file PATH is refused (exit 2, nothing written), as for the package
/// directory. Near miss: beside the package, and a definition file outside
/// any package, whose directory takes the report.
#[test]
fn output_file_inside_the_package_of_a_definition_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("p");
    copy_dir(&worker_version(), &pkg);
    let def = pkg.join("definition.json");
    for out in [pkg.join("r.txt"), pkg.join("fixtures/r.txt")] {
        let o = run(&[
            "relations".as_ref(),
            "--output-file".as_ref(),
            out.as_os_str(),
            def.as_os_str(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", out.display());
        assert!(String::from_utf8_lossy(&o.stderr).contains("being verified"));
        assert!(!out.exists(), "{} was written", out.display());
    }
    let beside = tmp.path().join("r.txt");
    let o = run(&[
        "relations".as_ref(),
        "--output-file".as_ref(),
        beside.as_os_str(),
        def.as_os_str(),
    ]);
    common::assert_exit(&o, 0);
    assert!(std::fs::read_to_string(&beside)
        .unwrap()
        .contains("8 relations"));
    let loose = tmp.path().join("loose");
    std::fs::create_dir(&loose).unwrap();
    std::fs::copy(&def, loose.join("definition.json")).unwrap();
    let report = loose.join("r.txt");
    let o = run(&[
        "relations".as_ref(),
        "--output-file".as_ref(),
        report.as_os_str(),
        loose.join("definition.json").as_os_str(),
    ]);
    common::assert_exit(&o, 0);
    assert!(report.exists());
}

/// Builds a worker-version package whose `/worker` reference states no
/// target contract (FD502, a warning) and returns it.
fn package_with_relation_warning(tmp: &Path) -> PathBuf {
    let pkg = tmp.join("pkg");
    copy_dir(&worker_version(), &pkg);
    let p = pkg.join("definition.json");
    let mut def: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    let worker = def["desiredSchema"]["properties"]["worker"]
        .as_object_mut()
        .unwrap();
    assert!(worker.remove("x-takoform-required-interface").is_some());
    std::fs::write(&p, serde_json::to_vec_pretty(&def).unwrap()).unwrap();
    reindex(&pkg);
    pkg
}

#[test]
fn relation_warnings_fail_verify_only_with_deny_warnings() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = package_with_relation_warning(tmp.path());
    let v = relations_json(&pkg, None);
    let codes: Vec<&str> = common::strings(&v["diagnostics"], "code");
    assert_eq!(codes, ["FD502"]);
    assert_eq!(v["diagnostics"][0]["severity"], "warning");
    assert_eq!(
        v["diagnostics"][0]["pointer"],
        "/desiredSchema/properties/worker"
    );
    assert_eq!(v["diagnostics"][0]["file"], "definition.json");
    assert!(v["diagnostics"][0]["line"].as_u64().unwrap() > 1);
    // the relation is still listed, without a contract
    let worker = v["relations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["pointer"] == "/worker")
        .unwrap();
    assert!(worker.get("requiredInterface").is_none());

    let o = run(&["verify".as_ref(), pkg.as_os_str()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = run(&[
        "verify".as_ref(),
        "--deny-warnings".as_ref(),
        pkg.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("FD502"));
    // near miss: the unmodified package passes --deny-warnings
    let o = run(&[
        "verify".as_ref(),
        "--deny-warnings".as_ref(),
        worker_version().as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    // human relations output renders the warning and counts it
    let o = run(&["relations".as_ref(), pkg.as_os_str()]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("FD502 missing-target-contract"), "{text}");
    assert!(
        text.ends_with("8 relations, 1 warning, 0 notes\n"),
        "{text}"
    );
}

// ---------------------------------------------------------------- corpus

/// The manifest entries that match `keep`: (epoch, package dir, expect).
fn manifest_entries(root: &Path, keep: fn(&Value) -> bool) -> Vec<(String, PathBuf, String)> {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(root.join("manifest.json")).unwrap()).unwrap();
    manifest
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| keep(e))
        .map(|e| {
            (
                e["epoch"].as_str().unwrap().to_owned(),
                root.join(e["path"].as_str().unwrap()),
                e["expect"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The selected manifest entries: (epoch, package dir, expect).
fn selected(root: &Path) -> Vec<(String, PathBuf, String)> {
    manifest_entries(root, |e| {
        e["complete"] == true && EPOCHS.contains(&e["epoch"].as_str().unwrap_or(""))
    })
}

fn expected_file(epoch: &str, dir: &Path) -> PathBuf {
    let name = dir.file_name().unwrap().to_string_lossy();
    manifest_dir().join(format!("tests/relations/{epoch}__{name}.json"))
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn corpus_relations_match_their_expected_files() {
    let root = common::corpus_root();
    let bless = std::env::var_os("BLESS").is_some_and(|v| v == "1");
    let entries = selected(&root);
    assert!(entries.len() >= 100, "only {} packages", entries.len());
    let mut bad = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for (epoch, dir, _) in &entries {
        let o = form_package::cli::relations::report(dir, Format::Json, None, &Options::here());
        assert_eq!(o.code, 0, "{}: {}", dir.display(), o.stderr);
        let file = expected_file(epoch, dir);
        names.insert(file.file_name().unwrap().to_owned());
        if bless {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, &o.stdout).unwrap();
            continue;
        }
        match std::fs::read(&file) {
            Ok(want) if want == o.stdout => {}
            Ok(_) => bad.push(format!("{}: differs", file.display())),
            Err(e) => bad.push(format!("{}: {e} (run with BLESS=1)", file.display())),
        }
    }
    // no stale expected files
    for e in std::fs::read_dir(manifest_dir().join("tests/relations")).unwrap() {
        let n = e.unwrap().file_name();
        if !names.contains(&n) {
            bad.push(format!("stale expected file {}", n.to_string_lossy()));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Every manifest entry (all epochs, complete or not): (epoch, dir, expect).
fn all_entries(root: &Path) -> Vec<(String, PathBuf, String)> {
    manifest_entries(root, |_| true)
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn corpus_relation_findings_never_change_a_verdict() {
    let root = common::corpus_root();
    let mut bad = Vec::new();
    let mut with_findings = 0;
    for (epoch, dir, expect) in all_entries(&root) {
        let o = form_package::verify::verify_package(&dir);
        let got = if o.has_errors() { "fail" } else { "ok" };
        if got != expect {
            bad.push(format!("{}: want {expect}, got {got}", dir.display()));
        }
        let relation_findings: Vec<_> = o
            .diagnostics
            .iter()
            .filter(|d| d.code.info().id.starts_with("FD5"))
            .collect();
        if !relation_findings.is_empty() {
            with_findings += 1;
        }
        for d in relation_findings {
            if d.is_error() {
                bad.push(format!(
                    "{}: {} is an error",
                    dir.display(),
                    d.code.info().id
                ));
            }
        }
        // a verified family/current package reports the same relations as
        // the relations command
        if got == "ok" && EPOCHS.contains(&epoch.as_str()) {
            let cmd = relations_json(&dir, None);
            if Value::Array(o.relations.clone()) != cmd["relations"] {
                bad.push(format!("{}: verify and relations disagree", dir.display()));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // the corpus does carry relation findings (FD508 notes on edge v1alpha1
    // references), so the check above is not vacuous
    assert!(with_findings >= 9, "{with_findings}");
}

/// T2 F3: in a machine format a refusal (exit 1) is a document of that
/// format carrying the finding, on stdout and in `--output-file`: a JSON
/// array PATH (FD630), an empty file (FD012), an `--instance` that is not
/// an object (FD630) or does not parse (FD012, reported beside the
/// derivation's 8 relations). Near miss: `human` keeps the finding on
/// stderr with nothing on stdout; a missing PATH stays exit 2 with no
/// document.
#[test]
fn a_refusal_in_a_machine_format_is_a_document_with_the_finding() {
    let tmp = tempfile::tempdir().unwrap();
    let arr = tmp.path().join("arr.json");
    std::fs::write(&arr, "[1]").unwrap();
    let empty = tmp.path().join("empty.json");
    std::fs::write(&empty, "").unwrap();
    let not_object = tmp.path().join("inst.json");
    std::fs::write(&not_object, "[]").unwrap();
    let bad = tmp.path().join("bad.json");
    std::fs::write(&bad, "{\"kvBindings\": [1,]}").unwrap();
    let wv = worker_version();
    let cases: [(Vec<&std::ffi::OsStr>, &str, usize); 4] = [
        (vec![arr.as_os_str()], "FD630", 0),
        (vec![empty.as_os_str()], "FD012", 0),
        (
            vec![
                wv.as_os_str(),
                "--instance".as_ref(),
                not_object.as_os_str(),
            ],
            "FD630",
            8,
        ),
        (
            vec![wv.as_os_str(), "--instance".as_ref(), bad.as_os_str()],
            "FD012",
            8,
        ),
    ];
    for (args, code, relations) in &cases {
        let with = |format: &str| {
            let mut all: Vec<&std::ffi::OsStr> =
                vec!["relations".as_ref(), "--format".as_ref(), format.as_ref()];
            all.extend(args.iter().copied());
            run(&all)
        };
        let o = with("json");
        assert_eq!(o.status.code(), Some(1), "{code}");
        assert!(
            o.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["version"], 1);
        assert_eq!(v["relations"].as_array().unwrap().len(), *relations);
        let codes: Vec<&str> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == "error")
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, [*code]);
        let o = with("sarif");
        assert_eq!(o.status.code(), Some(1));
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let results = v["runs"][0]["results"].as_array().unwrap();
        assert!(
            results
                .iter()
                .any(|r| r["ruleId"] == *code && r["level"] == "error"),
            "{results:?}"
        );
        let o = with("github");
        assert_eq!(o.status.code(), Some(1));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains(&format!("title={code} ")), "{text}");
        assert!(text.contains("1 error"), "{text}");
        let o = with("junit");
        assert_eq!(o.status.code(), Some(1));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains(&format!("type=\"{code}\"")), "{text}");
        // Near miss: human keeps the finding on stderr.
        let o = with("human");
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty());
        assert!(String::from_utf8_lossy(&o.stderr).contains(code));
    }
    let out = tmp.path().join("out.sarif");
    let o = run(&[
        "relations".as_ref(),
        "--format".as_ref(),
        "sarif".as_ref(),
        "--output-file".as_ref(),
        out.as_os_str(),
        arr.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["runs"][0]["results"][0]["ruleId"], "FD630");
    let o = run(&[
        "relations".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        tmp.path().join("nonexist.json").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}

/// T3 B1, B2: a package's definition is read as `verify` reads it: a
/// symlink out of the package is refused, never followed (its target's
/// bytes must not reach the output), and a FIFO is refused without being
/// opened (no hang). A FILE named on the command line that is not a
/// regular file is a usage error (exit 2). Near miss: the same package
/// with its real definition derives its relations.
#[cfg(unix)]
#[test]
fn a_package_definition_is_never_read_through_a_link_or_from_a_fifo() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = tmp.path().join("secret.txt");
    std::fs::write(&secret, "SECRET_TOKEN=hunter2\n").unwrap();
    let linked = tmp.path().join("linked");
    copy_dir(&worker_version(), &linked);
    std::fs::remove_file(linked.join("definition.json")).unwrap();
    std::os::unix::fs::symlink(&secret, linked.join("definition.json")).unwrap();
    let fifo = tmp.path().join("fifo");
    copy_dir(&worker_version(), &fifo);
    std::fs::remove_file(fifo.join("definition.json")).unwrap();
    common::mkfifo(&fifo.join("definition.json"));
    for dir in [&linked, &fifo] {
        for format in ["human", "json"] {
            let o = run(&[
                "relations".as_ref(),
                "--format".as_ref(),
                format.as_ref(),
                dir.as_os_str(),
            ]);
            assert_eq!(o.status.code(), Some(1), "{dir:?} {format}");
            let all = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(all.contains("FD014"), "{all}");
            assert!(all.contains("not a regular non-link file"), "{all}");
            assert!(!all.contains("hunter2"), "{all}");
        }
    }
    let o = run(&[
        "relations".as_ref(),
        fifo.join("definition.json").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a regular file"));
    // Near miss: a real definition.
    let o = run(&["relations".as_ref(), worker_version().as_os_str()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("8 relations"));
}

/// T3 C9: the report never overwrites the `--instance` document. Near
/// miss: another `--output-file` is written.
#[test]
fn the_report_never_overwrites_the_instance() {
    let tmp = tempfile::tempdir().unwrap();
    let inst = tmp.path().join("inst.json");
    std::fs::write(&inst, b"{\"worker\":{}}").unwrap();
    let o = relations_into(&inst, &inst);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&inst).unwrap(), b"{\"worker\":{}}");
    let out = tmp.path().join("out.txt");
    let o = relations_into(&out, &inst);
    assert_eq!(o.status.code(), Some(0));
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("WorkerVersion"));
}

#[test]
fn dash_is_standard_input() {
    let def = worker_version().join("definition.json");
    let mut child = Command::new(crate::common::BIN)
        .args(["relations", "-", "--format", "json"])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        &mut child.stdin.take().unwrap(),
        &std::fs::read(&def).unwrap(),
    )
    .unwrap();
    let o = child.wait_with_output().unwrap();
    common::assert_exit(&o, 0);
    let from_stdin: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        from_stdin["relations"],
        relations_json(&def, None)["relations"]
    );
    // A near miss: a file named `-` is not looked for.
    let none = run(&["relations".as_ref(), "./-".as_ref()]);
    assert_eq!(none.status.code(), Some(2));
}

#[test]
fn junit_names_a_bare_definition_file_testcase_after_the_file() {
    let def = worker_version().join("definition.json");
    let o = run(&[
        "relations".as_ref(),
        "--format".as_ref(),
        "junit".as_ref(),
        def.as_os_str(),
    ]);
    let xml = String::from_utf8(o.stdout).unwrap();
    assert!(!xml.contains("testcase name=\"\""), "{xml}");
    assert!(
        xml.contains(&format!("testcase name=\"{}\"", def.display())),
        "{xml}"
    );
    // The package directory keeps its own name.
    let o = run(&[
        "relations".as_ref(),
        "--format".as_ref(),
        "junit".as_ref(),
        worker_version().as_os_str(),
    ]);
    let xml = String::from_utf8(o.stdout).unwrap();
    assert!(
        xml.contains(&format!("testcase name=\"{}\"", worker_version().display())),
        "{xml}"
    );
}

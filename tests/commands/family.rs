//! `form-package family` (issue 13) on the corpus family snapshots
//! (`shared/corpus/families/manifest.json`): each snapshot is assembled in a
//! temporary directory from exactly its listed packages, contracts and
//! candidate sets, then checked. Single-fault variants of the v1beta1
//! snapshot fire exactly the named step; every snapshot's findings are
//! golden (`tests/family/golden/<id>.txt`, explained in
//! `tests/family/README.md`); DOT output parses with the `dot-parser`
//! crate (and with the system `dot` when present); Mermaid output is golden.
//!
//! `FAMILY_GOLDEN_UPDATE=1 cargo test --test commands family::` rewrites the goldens
//! (then read the diff and explain it in the README).

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use form_package::family::check::{EdgeStatus, Report};
use form_package::family::{self, load, Options};
use form_package::ops::family as family_op;
use serde_json::Value;

/// The views of `render::family`, each over the checked report made the
/// report model's (`ops::family::view`), as `cli/family.rs` prints them.
mod graph {
    use form_package::family::check::Report;
    use form_package::ops::family::view;
    use form_package::render::family as views;
    pub use form_package::render::family::finding_line;

    pub fn human(r: &Report) -> String {
        views::human(&view(r))
    }
    pub fn json(r: &Report) -> serde_json::Value {
        views::json(&view(r))
    }
    pub fn dot(r: &Report) -> String {
        views::dot(&view(r))
    }
    pub fn mermaid(r: &Report) -> String {
        views::mermaid(&view(r))
    }
}

const V1BETA1: &str = "v1beta1-001";

fn manifest(corpus: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(corpus.join("families/manifest.json")).unwrap();
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn snapshot(corpus: &Path, id: &str) -> Value {
    manifest(corpus)
        .into_iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no snapshot {id}"))
}

/// Copies exactly the snapshot's packages, contracts and candidate sets
/// (paths relative to the corpus root) into a fresh temporary directory.
fn assemble(corpus: &Path, snap: &Value) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for p in snap["packages"].as_array().unwrap() {
        let rel = p.as_str().unwrap();
        common::copy_dir(&corpus.join(rel), &tmp.path().join(rel));
    }
    for key in ["contracts", "candidateSets"] {
        for p in snap[key].as_array().unwrap() {
            let rel = p.as_str().unwrap();
            let to = tmp.path().join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(corpus.join(rel), to).unwrap();
        }
    }
    tmp
}

fn run(root: &Path, options: &Options) -> Report {
    let fam = load::load(&[root.to_path_buf()]).unwrap();
    family::check::check(fam, options)
}

fn partial() -> Options {
    Options {
        partial: true,
        ..Default::default()
    }
}

/// The Form kind of a package path in the report (or the path).
fn kind_of(report: &Report, path: &str) -> String {
    report
        .family
        .packages
        .iter()
        .find(|p| p.path == path)
        .and_then(|p| p.form.as_ref().map(|f| f.kind.clone()))
        .unwrap_or_else(|| path.to_owned())
}

/// Errors and warnings as `code step SourceKind relation-or-target`.
fn keys(report: &Report) -> Vec<String> {
    let mut v: Vec<String> = report
        .findings
        .iter()
        .filter(|f| f.diagnostic.severity != form_package::diag::Severity::Note)
        .map(|f| {
            let source = f
                .source
                .as_deref()
                .map(|s| kind_of(report, s))
                .unwrap_or_else(|| "-".to_owned());
            let what = f
                .relation
                .clone()
                .or_else(|| f.target.clone())
                .unwrap_or_default();
            format!("{} {} {source} {what}", f.code().info().id, f.step.name())
        })
        .collect();
    v.sort();
    v
}

fn digest_of(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let v = form_package::json::strict::parse_value(&bytes).unwrap();
    form_package::canonical::sha256_digest(&form_package::canonical::canonicalize(&v).unwrap())
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json")
            && p.file_name().is_some_and(|n| n != "package-index.json")
        {
            out.push(p);
        }
    }
}

/// Replaces digest `old` by `new` in every JSON file under `root` (only
/// candidate sets when `candidates_only`); a definition or contract whose
/// bytes change that way changes its own digest, which is propagated in
/// turn. A republished family stays consistent except for the one fault a
/// test made.
fn propagate(root: &Path, old: &str, new: &str, candidates_only: bool) {
    if old == new {
        return;
    }
    let mut files = Vec::new();
    json_files(root, &mut files);
    for f in files {
        let is_candidate = f
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("candidate-set");
        if candidates_only && !is_candidate {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        if !text.contains(old) {
            continue;
        }
        let before = digest_of(&f);
        std::fs::write(&f, text.replace(old, new)).unwrap();
        if f.file_name().unwrap() == "definition.json" {
            let after = digest_of(&f);
            propagate(root, &before, &after, candidates_only);
        }
    }
}

/// Re-indexes every package under `root`.
fn reindex_all(root: &Path) {
    for e in walkdir::WalkDir::new(root) {
        let e = e.unwrap();
        if e.file_name() == "package-index.json" {
            common::reindex(e.path().parent().unwrap());
        }
    }
}

/// Edits a JSON file, then republishes: its new digest replaces the old
/// one wherever the family names it (everywhere, or only in candidate
/// sets), and every package is re-indexed.
fn edit(root: &Path, rel: &str, candidates_only: bool, f: impl FnOnce(&mut Value)) {
    let path = root.join(rel);
    let old = digest_of(&path);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap() + "\n").unwrap();
    let new = digest_of(&path);
    propagate(root, &old, &new, candidates_only);
    reindex_all(root);
}

fn find(root: &Path, prefix: &str) -> String {
    let mut files = Vec::new();
    json_files(root, &mut files);
    files
        .iter()
        .map(|f| f.strip_prefix(root).unwrap().to_string_lossy().into_owned())
        .filter(|f| f.starts_with(prefix) && f.ends_with("definition.json"))
        .min()
        .unwrap_or_else(|| panic!("no file under {prefix}"))
}

fn pkg(kind: &str) -> String {
    format!("packages/v1beta1/{kind}")
}

// ---------------------------------------------------------------- done 1

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn v1beta1_snapshot_has_no_error_and_every_relation_is_an_edge() {
    let corpus = common::corpus_root();
    let snap = snapshot(&corpus, V1BETA1);
    let tmp = assemble(&corpus, &snap);
    // Every target kind its relations name is loaded, so it passes even
    // without --partial.
    for options in [Options::default(), partial()] {
        let report = run(tmp.path(), &options);
        assert_eq!(keys(&report), Vec::<String>::new());
        assert!(report.findings.is_empty(), "{:#?}", report.findings);
        assert!(!report.fails());
        assert_eq!(report.family.packages.len(), 12);
        assert_eq!(report.family.contracts.len(), 11);
        assert!(report.edges.iter().all(|e| e.status == EdgeStatus::Ok));
    }
    let report = run(tmp.path(), &Options::default());
    let doc = graph::json(&report);
    let mut total = 0;
    for node in doc["nodes"].as_array().unwrap() {
        let Some(def) = node["definition"].as_str() else {
            continue;
        };
        let value = form_package::json::strict::parse_value(&std::fs::read(def).unwrap()).unwrap();
        let derived: BTreeSet<String> = form_package::relations::derive(&value)
            .relations
            .into_iter()
            .map(|r| format!("{} -> {}", r.pointer, r.target_kind))
            .collect();
        let kind_of_id = |id: &str| -> String {
            doc["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|n| n["id"] == id)
                .unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        let edges: BTreeSet<String> = doc["edges"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["from"] == node["id"])
            .map(|e| {
                format!(
                    "{} -> {}",
                    e["pointer"].as_str().unwrap(),
                    kind_of_id(e["to"].as_str().unwrap())
                )
            })
            .collect();
        assert_eq!(edges, derived, "{}", node["kind"]);
        total += derived.len();
    }
    assert_eq!(total, 13);
    assert_eq!(doc["edges"].as_array().unwrap().len(), 13);
}

// ---------------------------------------------------------------- done 2

fn variant(f: impl FnOnce(&Path)) -> (tempfile::TempDir, Report, Report) {
    let corpus = common::corpus_root();
    let snap = snapshot(&corpus, V1BETA1);
    let tmp = assemble(&corpus, &snap);
    f(tmp.path());
    let strict = run(tmp.path(), &Options::default());
    let partial = run(tmp.path(), &partial());
    (tmp, strict, partial)
}

fn assert_keys(report: &Report, want: &[&str]) {
    let mut want: Vec<String> = want.iter().map(|s| (*s).to_owned()).collect();
    want.sort();
    assert_eq!(keys(report), want, "{:#?}", report.findings);
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn decision_0015_case_worker_service_on_worker_version() {
    // worker.service moved from ModuleWorker's providedInterfaces to
    // WorkerVersion's: the service binding allows only ModuleWorker, so no
    // service binding can ever verify.
    let (tmp, report, _) = variant(|root| {
        let mw = find(root, &pkg("module-worker"));
        let wv = find(root, &pkg("worker-version"));
        let mut moved = Value::Null;
        edit(root, &mw, false, |v| {
            let list = v["providedInterfaces"].as_array_mut().unwrap();
            let i = list
                .iter()
                .position(|p| p["name"] == "worker.service")
                .unwrap();
            moved = list.remove(i);
        });
        edit(root, &wv, false, |v| {
            v.as_object_mut()
                .unwrap()
                .insert("providedInterfaces".into(), Value::Array(vec![moved]));
        });
    });
    assert_keys(
        &report,
        &[
            "FD714 rule8-step5 WorkerVersion /serviceBindings/*/resource",
            "FD721 accepted-binding WorkerVersion module-worker.service@1.0.0",
        ],
    );
    let f = report
        .findings
        .iter()
        .find(|f| f.code().info().id == "FD721")
        .unwrap();
    let at = f.location().unwrap();
    assert_eq!(at.pointer, "/acceptedBindings/4");
    assert!(at.file.ends_with("definition.json") && at.file.contains("worker-version"));
    assert!(at.line > 1);
    let contract = f.contract().unwrap();
    assert!(contract.file.contains("module-worker.service-7d98d90fdf63"));
    assert_eq!(contract.pointer, "/targetInterface");
    // The finding is a Diagnostic located where the definition declares
    // it, the contract its related location (issue 34 item 2).
    let d = &f.diagnostic;
    assert_eq!(d.file.as_deref(), Some(at.file.as_str()));
    assert_eq!(d.pointer.as_str(), "/acceptedBindings/4");
    assert_eq!(d.related.len(), 1);
    let related = &d.related[0];
    assert_eq!(related.label, "contract");
    assert_eq!(related.file.as_deref(), Some(contract.file.as_str()));
    assert_eq!(related.pointer.as_str(), "/targetInterface");
    assert_eq!(
        related.position.map(|p| (p.line, p.column)),
        Some((contract.line, contract.column))
    );
    // Near miss: a finding that names no contract has no related location.
    let bare = family::Finding::new(
        form_package::codes::Code::FamilyFormNotLoaded,
        family::Step::Package,
        "x",
    );
    assert!(bare.diagnostic.related.is_empty() && bare.contract().is_none());
    assert!(f
        .diagnostic
        .notes
        .iter()
        .any(|n| n.contains("declared by WorkerVersion")));
    assert!(report.fails());
    // The JSON graph marks the failing edge.
    let doc = graph::json(&report);
    let failed: Vec<&Value> = common::elements_with(&doc["edges"], "status", "failed");
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["pointer"], "/serviceBindings/*/resource");
    assert_eq!(failed[0]["step"], "rule8-step5");
    // The DOT and Mermaid pictures mark it too.
    let dot = graph::dot(&report);
    assert_eq!(dot.matches("color=\"#c62828\", fontcolor").count(), 1);
    let mermaid = graph::mermaid(&report);
    assert!(mermaid.contains("linkStyle 10 stroke:#c62828"), "{mermaid}");
    drop(tmp);
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn step1_binding_removed_from_accepted_bindings() {
    let (_tmp, report, _) = variant(|root| {
        let wv = find(root, &pkg("worker-version"));
        edit(root, &wv, false, |v| {
            let list = v["acceptedBindings"].as_array_mut().unwrap();
            list.retain(|b| b["name"] != "module-worker.sqlite");
        });
    });
    assert_keys(
        &report,
        &["FD710 rule8-step1 WorkerVersion /sqliteBindings/*/resource"],
    );
    let at = report.findings[0].location().unwrap();
    assert_eq!(
        at.pointer,
        "/desiredSchema/properties/sqliteBindings/x-takoform-binding"
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn step2_binding_definition_with_one_byte_changed() {
    let (_tmp, report, _) = variant(|root| {
        let rel = find(root, "contracts/bindings/v1alpha1/module-worker.service-");
        let path = root.join(&rel);
        let old = digest_of(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        // One byte: "Projects" -> "projects" in the description.
        std::fs::write(&path, text.replacen("Projects", "projects", 1)).unwrap();
        // The publisher regenerated the candidate set; the Form still accepts the old digest.
        propagate(root, &old, &digest_of(&path), true);
    });
    assert_keys(
        &report,
        &["FD711 rule8-step2 WorkerVersion /serviceBindings/*/resource"],
    );
    let f = &report.findings[0];
    assert_eq!(f.location().unwrap().pointer, "/acceptedBindings/4");
    assert!(f
        .contract()
        .as_ref()
        .unwrap()
        .file
        .contains("module-worker.service-"));
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn step3_source_role_changed() {
    let (_tmp, report, _) = variant(|root| {
        let rel = find(root, "contracts/bindings/v1alpha1/module-worker.service-");
        edit(root, &rel, false, |v| v["sourceRole"] = "identity".into());
    });
    assert_keys(
        &report,
        &[
            "FD712 rule8-step3 WorkerVersion /serviceBindings/*/resource",
            "FD720 accepted-binding WorkerVersion module-worker.service@1.0.0",
        ],
    );
    let f = report
        .findings
        .iter()
        .find(|f| f.code().info().id == "FD712")
        .unwrap();
    assert_eq!(f.location().unwrap().pointer, "/role");
    assert_eq!(f.contract().unwrap().pointer, "/sourceRole");
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn step4_target_form_dropped_from_allowed_target_forms() {
    let (_tmp, report, _) = variant(|root| {
        let rel = find(root, "contracts/bindings/v1alpha1/module-worker.sqlite-");
        edit(root, &rel, false, |v| {
            // The only allowed target, SQLiteDatabase, is replaced (the list
            // must stay non-empty to satisfy the published schema).
            v["allowedTargetForms"][0]["kind"] = "ObjectBucket".into();
        });
    });
    assert_keys(
        &report,
        &[
            "FD713 rule8-step4 WorkerVersion /sqliteBindings/*/resource",
            "FD721 accepted-binding WorkerVersion module-worker.sqlite@1.0.0",
        ],
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn step5_target_without_the_interface_or_with_another_digest() {
    for another_digest in [false, true] {
        let (_tmp, report, _) = variant(|root| {
            let db = find(root, &pkg("sqlite-database"));
            edit(root, &db, false, |v| {
                let list = v["providedInterfaces"].as_array_mut().unwrap();
                if another_digest {
                    list[0]["schemaDigest"] = format!("sha256:{}", "0".repeat(64)).into();
                } else {
                    list.retain(|p| p["name"] != "edge.sql");
                }
            });
        });
        assert_keys(
            &report,
            &[
                "FD714 rule8-step5 WorkerVersion /sqliteBindings/*/resource",
                "FD721 accepted-binding WorkerVersion module-worker.sqlite@1.0.0",
            ],
        );
    }
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn target_kind_removed_from_the_family() {
    let (_tmp, strict, partial) = variant(|root| {
        let db = find(root, &pkg("sqlite-database"));
        let dir = root.join(db).parent().unwrap().to_path_buf();
        std::fs::remove_dir_all(dir).unwrap();
    });
    assert_keys(
        &strict,
        &[
            "FD702 accepted-binding WorkerVersion module-worker.sqlite@1.0.0",
            "FD702 target-kind SQLiteMigrationApplication /database",
            "FD702 target-kind WorkerVersion /sqliteBindings/*/resource",
        ],
    );
    let f = strict
        .findings
        .iter()
        .find(|f| f.relation.as_deref() == Some("/database"))
        .unwrap();
    assert!(f.diagnostic.message.contains("target not loaded"));
    // --partial: the same three become notes and the run passes.
    assert_keys(&partial, &[]);
    assert_eq!(
        partial
            .findings
            .iter()
            .filter(|f| f.code().info().id == "FD703")
            .count(),
        3
    );
    assert!(partial.findings[0]
        .diagnostic
        .message
        .starts_with("cannot be checked: "));
    assert!(!partial.fails());
    // --allow-external accepts the group on purpose.
    let external = run(
        _tmp.path(),
        &Options {
            allow_external: vec!["edge.forms.takoform.com".to_owned()],
            ..Default::default()
        },
    );
    assert_keys(&external, &[]);
    // Each of the three becomes a note FD704, the accepted binding's too
    // (issue 21 item 3: it used to vanish): nothing accepted on purpose is
    // accepted in silence.
    let notes: Vec<(String, Option<String>)> = external
        .findings
        .iter()
        .filter(|f| f.code().info().id == "FD704")
        .map(|f| (format!("{:?}", f.step), f.target.clone()))
        .collect();
    assert_eq!(notes.len(), 3, "{notes:?}");
    let accepted = external
        .findings
        .iter()
        .find(|f| f.code().info().id == "FD704" && f.relation.is_none())
        .expect("the acceptedBindings entry has its note");
    assert_eq!(
        accepted.diagnostic.severity,
        form_package::diag::Severity::Note
    );
    assert_eq!(
        accepted.target.as_deref(),
        Some("module-worker.sqlite@1.0.0")
    );
    assert!(
        accepted
            .diagnostic
            .message
            .contains("outside the family (--allow-external)"),
        "{}",
        accepted.diagnostic.message
    );
    assert!(!external.fails());
    // The near miss: a group that is not the target's keeps the error.
    let other = run(
        _tmp.path(),
        &Options {
            allow_external: vec!["other.forms.example.com".to_owned()],
            ..Default::default()
        },
    );
    assert_eq!(keys(&other), keys(&strict));
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn formref_contract_pointing_at_a_digest_not_in_the_family() {
    let (_tmp, report, _) = variant(|root| {
        let wd = find(root, &pkg("worker-deployment"));
        edit(root, &wd, false, |v| {
            v["desiredSchema"]["properties"]["worker"]["x-takoform-target-formrefs"][0]
                ["schemaDigest"] = format!("sha256:{}", "0".repeat(64)).into();
        });
    });
    assert_keys(&report, &["FD705 target-contract WorkerDeployment /worker"]);
    assert_eq!(
        report.findings[0].location().unwrap().pointer,
        "/desiredSchema/properties/worker/x-takoform-target-formrefs"
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn interface_definition_missing() {
    let (_tmp, report, _) = variant(|root| {
        let rel = find(root, "contracts/interfaces/v1alpha1/edge.sql-");
        std::fs::remove_file(root.join(rel)).unwrap();
    });
    assert_keys(
        &report,
        &[
            "FD707 target-contract WorkerVersion /sqliteBindings/*/resource",
            "FD732 candidate-set - edge.sql@1.0.0",
        ],
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn contract_findings_i_json_schema_and_digest_conflict() {
    let (_tmp, report, _) = variant(|root| {
        // A second worker.runtime 1.0.0 with other bytes, and a contract that
        // is not I-JSON, and one that breaks its schema.
        let rel = find(root, "contracts/interfaces/v1alpha1/worker.runtime-");
        let text = std::fs::read_to_string(root.join(&rel)).unwrap();
        let dup = root.join("contracts/extra/worker.runtime-copy/definition.json");
        std::fs::create_dir_all(dup.parent().unwrap()).unwrap();
        let mut v: Value = serde_json::from_str(&text).unwrap();
        v["title"] = "another title, same name and version".into();
        std::fs::write(&dup, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        let bad = root.join("contracts/extra/bad/definition.json");
        std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
        std::fs::write(
            &bad,
            "{\"apiVersion\":\"bindings.takoform.com/v1alpha1\",\"a\":1,\"a\":2}",
        )
        .unwrap();
        let loose = root.join("contracts/extra/loose/definition.json");
        std::fs::create_dir_all(loose.parent().unwrap()).unwrap();
        std::fs::write(
            &loose,
            "{\"apiVersion\":\"edge.forms.takoform.com/v1beta1\",\"kind\":\"X\"}",
        )
        .unwrap();
        let open = root.join("contracts/extra/open/definition.json");
        std::fs::create_dir_all(open.parent().unwrap()).unwrap();
        std::fs::write(&open, "{\"apiVersion\":\"interfaces.takoform.com/v1alpha1\",\"kind\":\"InterfaceDefinition\",\"name\":\"x\",\"version\":\"1.0.0\"}").unwrap();
    });
    let k = keys(&report);
    assert!(k.contains(&"FD012 contract - ".to_owned()), "{k:#?}");
    assert_eq!(
        k.iter()
            .filter(|x| x.starts_with("FD701 contract - worker.runtime@1.0.0"))
            .count(),
        2,
        "{k:#?}"
    );
    assert!(k.iter().any(|x| x.starts_with("FD631 contract")), "{k:#?}");
    // A definition.json of no contract group is named as a note, not checked.
    assert!(report.findings.iter().any(|f| f.code().info().id == "FD632"
        && f.diagnostic.severity == form_package::diag::Severity::Note
        && f.diagnostic
            .message
            .starts_with("not a Binding or Interface Definition")));
    let bad = report
        .findings
        .iter()
        .find(|f| f.code().info().id == "FD012")
        .unwrap();
    let at = bad.location().unwrap();
    assert_eq!((at.line, at.column), (1, 54), "the second \"a\"");
}

// ---------------------------------------------------------------- done 3

/// The validator of our own `schemas/form-package-family-v1.schema.json`.
fn family_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("schemas/form-package-family-v1.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert!(jsonschema::meta::is_valid(&schema));
    jsonschema::validator_for(&schema).unwrap()
}

/// The golden text of one snapshot: every finding on one line, paths
/// relative to the snapshot root.
fn golden_text(root: &Path, report: &Report, partial: bool) -> String {
    let prefix = root.display().to_string();
    let mut s = format!(
        "# {} packages ({} verified), {} contracts, {} candidate sets, {} edges{}\n",
        report.family.packages.len(),
        report
            .family
            .packages
            .iter()
            .filter(|p| !p.outcome.has_errors())
            .count(),
        report.family.contracts.len(),
        report.family.candidate_sets.len(),
        report.edges.len(),
        if partial { "; --partial" } else { "" }
    );
    for f in &report.findings {
        s.push_str(&graph::finding_line(f).replace(&prefix, "."));
        s.push('\n');
    }
    s
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn every_snapshot_matches_its_golden_findings() {
    let corpus = common::corpus_root();
    let update = std::env::var_os("FAMILY_GOLDEN_UPDATE").is_some();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/family/golden");
    let validator = family_validator();
    let snaps = manifest(&corpus);
    assert_eq!(snaps.len(), 20);
    let mut mismatched = Vec::new();
    for snap in &snaps {
        let id = snap["id"].as_str().unwrap();
        let complete = snap["complete"].as_bool().unwrap();
        let tmp = assemble(&corpus, snap);
        let options = Options {
            partial: !complete,
            ..Default::default()
        };
        let report = run(tmp.path(), &options);
        // Every package of every snapshot verifies, and the JSON document
        // satisfies its own schema.
        assert!(
            report
                .family
                .packages
                .iter()
                .all(|p| !p.outcome.has_errors()),
            "{id}"
        );
        let doc = graph::json(&report);
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{id}: {errors:#?}");
        let text = golden_text(tmp.path(), &report, !complete);
        let file = dir.join(format!("{id}.txt"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&file, &text).unwrap();
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
            mismatched.push(format!("{id}:\n{text}"));
        }
    }
    assert!(
        mismatched.is_empty(),
        "golden findings differ (FAMILY_GOLDEN_UPDATE=1 rewrites them):\n{}",
        mismatched.join("\n")
    );
}

// ---------------------------------------------------------------- done 4

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn dot_parses_with_a_dot_parser_and_mermaid_is_golden() {
    let (tmp, broken, _) = variant(|root| {
        let db = find(root, &pkg("sqlite-database"));
        edit(root, &db, false, |v| {
            v["providedInterfaces"].as_array_mut().unwrap().clear();
        });
    });
    let corpus = common::corpus_root();
    let clean_tmp = assemble(&corpus, &snapshot(&corpus, V1BETA1));
    let clean = run(clean_tmp.path(), &Options::default());
    for report in [&clean, &broken] {
        let text = graph::dot(report);
        let ast = dot_parser::ast::Graph::try_from(text.as_str())
            .unwrap_or_else(|e| panic!("DOT does not parse: {e}\n{text}"));
        let g = dot_parser::canonical::Graph::from(ast);
        assert!(g.is_digraph);
        assert_eq!(g.edges.set.len(), report.edges.len());
        for i in 0..report.family.packages.len() {
            assert!(g.nodes.set.contains_key(&format!("n{i}")), "n{i}");
        }
        let red = g
            .edges
            .set
            .iter()
            .filter(|e| {
                e.attr.elems.iter().any(|(k, v)| {
                    format!("{k:?}") == "ID(\"color\")" && format!("{v:?}").contains("c62828")
                })
            })
            .count();
        assert_eq!(
            red,
            report
                .edges
                .iter()
                .filter(|e| e.status == EdgeStatus::Failed)
                .count()
        );
        if let Ok(out) = std::process::Command::new("dot")
            .arg("-Tsvg")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(text.as_bytes())?;
                child.wait_with_output()
            })
        {
            assert!(
                out.status.success(),
                "system dot refused: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    assert!(broken.edges.iter().any(|e| e.status == EdgeStatus::Failed));
    // Mermaid: the clean snapshot's flowchart is golden.
    let mermaid = graph::mermaid(&clean);
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/family/golden/v1beta1-001.mmd");
    if std::env::var_os("FAMILY_GOLDEN_UPDATE").is_some() {
        std::fs::write(&file, &mermaid).unwrap();
    }
    assert_eq!(mermaid, std::fs::read_to_string(&file).unwrap());
    assert!(mermaid.starts_with("flowchart LR\n"));
    // The broken one marks its failing edges.
    let m = graph::mermaid(&broken);
    assert!(
        m.contains("linkStyle ") && m.contains("%% finding: FD714"),
        "{m}"
    );
    drop(tmp);
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn the_binary_runs_family_in_every_format() {
    let corpus = common::corpus_root();
    let tmp = assemble(&corpus, &snapshot(&corpus, V1BETA1));
    let bin = crate::common::BIN;
    for format in ["human", "json", "dot", "mermaid"] {
        let out = std::process::Command::new(bin)
            .args(["family", "--format", format])
            .arg(tmp.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        assert!(!out.stdout.is_empty());
    }
    let human = std::process::Command::new(bin)
        .arg("family")
        .arg(tmp.path())
        .output()
        .unwrap();
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(text.contains("12 Forms in 1 family"), "{text}");
    assert!(
        text.contains("family: 0 errors, 0 warnings, 0 notes; ok"),
        "{text}"
    );
    // Exit 1 on a finding, 2 on a PATH that does not exist.
    let wv = find(tmp.path(), &pkg("worker-version"));
    edit(tmp.path(), &wv, false, |v| {
        v["acceptedBindings"].as_array_mut().unwrap().pop();
    });
    let out = std::process::Command::new(bin)
        .arg("family")
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("error[FD710] rule8-step1"), "{text}");
    let out = std::process::Command::new(bin)
        .args(["family", "/nonexistent/family/path"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let empty = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(bin)
        .arg("family")
        .arg(empty.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("no Form Package, contract or candidate set under"));
}

// ---------------------------------------------------------------- done 5

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn families_page_example_is_the_real_output() {
    let corpus = common::corpus_root();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/families.md"))
            .unwrap();
    let start = "$ form-package family --partial .\n";
    let at = readme
        .find(start)
        .expect("the Form Families page has the example")
        + start.len();
    let shown = &readme[at..at + readme[at..].find("```").unwrap()];
    let tmp = assemble(&corpus, &snapshot(&corpus, V1BETA1));
    let out = std::process::Command::new(crate::common::BIN)
        .args(["family", "--partial", "."])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown);
    assert!(Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/src/family-v1beta1.svg")
        .is_file());
}

// ------------------------------------------------ the other ways codes fire

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn target_interface_not_provided_for_a_plain_relation() {
    // ModuleWorker no longer provides worker.runtime: the two `/worker`
    // relations requiring it fail their target contract (no binding involved).
    let (_tmp, report, _) = variant(|root| {
        let mw = find(root, &pkg("module-worker"));
        edit(root, &mw, false, |v| {
            v["providedInterfaces"]
                .as_array_mut()
                .unwrap()
                .retain(|p| p["name"] != "worker.runtime");
        });
    });
    assert_keys(
        &report,
        &[
            "FD706 target-contract WorkerCronTrigger /worker",
            "FD706 target-contract WorkerVersion /worker",
        ],
    );
    let f = &report.findings[0];
    assert_eq!(
        f.location().unwrap().pointer,
        "/desiredSchema/properties/worker/x-takoform-required-interface"
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn accepted_binding_without_relation_not_loaded_or_of_another_role() {
    // ModuleWorker (role identity) accepts two Bindings no relation of its
    // schema names: one at a digest nobody publishes (FD722), one loaded
    // whose sourceRole is revision (FD720).
    let (_tmp, report, _) = variant(|root| {
        let mw = find(root, &pkg("module-worker"));
        edit(root, &mw, false, |v| {
            let zero = format!("sha256:{}", "0".repeat(64));
            v.as_object_mut().unwrap().insert(
                "acceptedBindings".into(),
                serde_json::json!([
                    {"apiVersion": "bindings.takoform.com/v1alpha1", "name": "module-worker.sqlite", "version": "1.0.0", "schemaDigest": zero},
                    {"apiVersion": "bindings.takoform.com/v1alpha1", "name": "module-worker.service", "version": "1.0.0", "schemaDigest": "sha256:7d98d90fdf6382d019cc9cd6fefa7363cefd715ec9913566a76e08a77abe952a"}
                ]),
            );
        });
    });
    assert_keys(
        &report,
        &[
            "FD720 accepted-binding ModuleWorker module-worker.service@1.0.0",
            "FD722 accepted-binding ModuleWorker module-worker.sqlite@1.0.0",
        ],
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn candidate_sets_invalid_or_with_another_digest() {
    let (_tmp, report, _) = variant(|root| {
        let dir = root.join("contracts/bindings/v1alpha1");
        let set = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("candidate-set")
            })
            .unwrap();
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&set).unwrap()).unwrap();
        v["bindings"][0]["schemaDigest"] = format!("sha256:{}", "1".repeat(64)).into();
        std::fs::write(&set, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        std::fs::write(
            dir.join("candidate-set-extra.json"),
            r#"{"format": "takoform.candidates@v9", "bindings": []}"#,
        )
        .unwrap();
    });
    assert_keys(
        &report,
        &[
            "FD730 candidate-set - ",
            "FD731 candidate-set - module-worker.edge-kv@1.0.0",
        ],
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn a_package_whose_definition_does_not_load_takes_no_part() {
    let (tmp, report, _) = variant(|root| {
        let bundle = find(root, &pkg("worker-bundle"));
        std::fs::write(root.join(bundle), "{\"apiVersion\": 1, \"apiVersion\": 2}").unwrap();
    });
    // verify fails the package; the family says the Form is not loaded,
    // and WorkerVersion's `/bundle` relation has no target kind.
    let bundle = report
        .family
        .packages
        .iter()
        .find(|p| p.path.contains("worker-bundle"))
        .unwrap();
    assert!(bundle.outcome.has_errors());
    assert!(bundle.form.is_none());
    let k = keys(&report);
    assert!(k.iter().any(|x| x.starts_with("FD740 package ")), "{k:#?}");
    assert!(
        k.contains(&"FD702 target-kind WorkerVersion /bundle".to_owned()),
        "{k:#?}"
    );
    assert!(report.fails());
    // The package's verify findings are in the human report and the JSON node.
    let human = graph::human(&report);
    assert!(
        human.contains(&format!(
            "{}: FAIL\n  error[FD020] {}/definition.json:1:19: duplicate object name",
            bundle.path, bundle.path
        )),
        "{human}"
    );
    let doc = graph::json(&report);
    let node = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["package"] == bundle.path.as_str())
        .unwrap();
    assert_eq!(node["verified"], false);
    assert_eq!(node["loaded"], false);
    assert_eq!(node["diagnostics"][0]["code"], "FD020");
    assert_eq!(node["diagnostics"][0]["line"], 1);
    let errors: Vec<String> = family_validator()
        .iter_errors(&doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // A contract named directly as a PATH is loaded as a contract, not verified as a package.
    let contract = tmp
        .path()
        .join(find(tmp.path(), "contracts/interfaces/v1alpha1/edge.sql-"));
    let only = run(&contract, &Options::default());
    assert!(only.family.packages.is_empty());
    assert_eq!(only.family.contracts.len(), 1);
    assert!(only.findings.is_empty(), "{:#?}", only.findings);
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn two_forms_of_one_kind_a_failing_one_is_a_note_when_another_satisfies() {
    let corpus = common::corpus_root();
    let tmp = assemble(&corpus, &snapshot(&corpus, V1BETA1));
    // A second WorkerBundle (another definitionVersion): WorkerVersion's
    // `/bundle` FormRef lists only 0.1.0, so the edge to 0.2.0 fails while
    // the edge to 0.1.0 holds.
    let src = tmp.path().join(pkg("worker-bundle-0.1.0-f4b7e28d88ff"));
    let dst = tmp.path().join(pkg("worker-bundle-0.2.0-copy"));
    common::copy_dir(&src, &dst);
    let def = dst.join("definition.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&def).unwrap()).unwrap();
    v["definitionVersion"] = "0.2.0".into();
    std::fs::write(&def, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    common::reindex(&dst);
    let report = run(tmp.path(), &Options::default());
    assert_keys(&report, &[]);
    let notes: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.code().info().id == "FD705")
        .collect();
    assert_eq!(notes.len(), 1, "{:#?}", report.findings);
    assert_eq!(
        notes[0].diagnostic.severity,
        form_package::diag::Severity::Note
    );
    let bundle_edges: Vec<_> = report
        .edges
        .iter()
        .filter(|e| e.pointer == "/bundle")
        .collect();
    assert_eq!(bundle_edges.len(), 2);
    assert_eq!(
        bundle_edges
            .iter()
            .filter(|e| e.status == EdgeStatus::Failed)
            .count(),
        1
    );
}

/// T1 C6, T2 F6: the human summary line and the JSON `summary` count the
/// packages' own findings (an unlisted file, FD018, in a package of a
/// clean snapshot): never "0 errors … FAIL". Near miss: the clean snapshot
/// says 0 errors and ok.
#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn the_summary_line_counts_package_findings() {
    let corpus = common::corpus_root();
    let tmp = assemble(&corpus, &snapshot(&corpus, V1BETA1));
    let bin = crate::common::BIN;
    let last = |root: &Path| {
        let out = std::process::Command::new(bin)
            .arg("family")
            .arg(root)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        (
            out.status.code(),
            text.lines().last().unwrap_or_default().to_owned(),
        )
    };
    assert_eq!(
        last(tmp.path()),
        (
            Some(0),
            "family: 0 errors, 0 warnings, 0 notes; ok".to_owned()
        )
    );
    let summary = |root: &Path| {
        let out = std::process::Command::new(bin)
            .args(["family", "--format", "json"])
            .arg(root)
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        (
            out.status.code(),
            v["summary"]["errors"].clone(),
            v["summary"]["failed"].clone(),
            v["summary"]["ok"].clone(),
        )
    };
    assert_eq!(
        summary(tmp.path()),
        (Some(0), 0.into(), 0.into(), true.into())
    );
    let wv = find(tmp.path(), &pkg("worker-version"));
    let package = tmp.path().join(&wv).parent().unwrap().to_path_buf();
    std::fs::write(package.join("extra.json"), "{}").unwrap();
    assert_eq!(
        last(tmp.path()),
        (
            Some(1),
            "family: 1 error, 0 warnings, 0 notes; FAIL".to_owned()
        )
    );
    // T2 F6: the JSON summary counts the same package finding.
    assert_eq!(
        summary(tmp.path()),
        (Some(1), 1.into(), 1.into(), false.into())
    );
}

/// T1 D3: a regular file PATH that is none of a package, a contract
/// (`definition.json`) or a candidate set is exit 2 (README *family*), not
/// a failed package. Near miss: a contract named directly is loaded.
#[test]
fn a_file_that_is_no_family_member_is_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let x = tmp.path().join("x.json");
    std::fs::write(&x, "{}").unwrap();
    let bin = crate::common::BIN;
    let out = std::process::Command::new(bin)
        .arg("family")
        .arg(&x)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("x.json: is none of a Form Package (a directory), a contract"),
        "{err}"
    );
    let contract = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7/definition.json");
    let out = std::process::Command::new(bin)
        .arg("family")
        .arg(&contract)
        .output()
        .unwrap();
    assert_ne!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Issue 21 item 3: a device (`/dev/null`) or a FIFO named as a PATH is
/// none of a package, a contract or a candidate set either: exit 2, never
/// a failed package. Near miss: a directory with no package is no error.
#[test]
fn a_device_or_fifo_path_is_no_package() {
    let bin = crate::common::BIN;
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut paths = vec![PathBuf::from("/dev/null")];
    if made {
        paths.push(fifo);
    }
    for p in paths {
        let out = std::process::Command::new(bin)
            .arg("family")
            .arg(&p)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", p.display());
        assert!(
            out.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("{}: is none of a Form Package", p.display())),
            "{err}"
        );
    }
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert!(load::load(&[empty]).is_ok());
}

/// T2 F7: a PATH that does not exist is an FD900 finding (step `path`) in
/// the report of the other PATHs, which are still checked and rendered, in
/// every format; the run exits 2, as `verify` does. Near miss: the same
/// package alone (no FD900, not exit 2).
#[test]
fn a_missing_path_is_reported_beside_the_other_paths() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7");
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nonexist");
    let bin = crate::common::BIN;
    let family = |paths: &[&Path], format: &str| {
        let mut cmd = std::process::Command::new(bin);
        cmd.args(["family", "--format", format]);
        for p in paths {
            cmd.arg(p);
        }
        cmd.output().unwrap()
    };
    let o = family(&[&package, &missing], "human");
    assert_eq!(o.status.code(), Some(2));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("packages: 1 verified, 0 failed"), "{text}");
    assert!(
        text.contains(&format!(
            "error[FD900] path: PATH {} does not exist",
            missing.display()
        )),
        "{text}"
    );
    let o = family(&[&package, &missing], "json");
    assert_eq!(o.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(family_validator().is_valid(&v), "{v}");
    assert_eq!(v["summary"]["packages"], 1);
    assert_eq!(v["summary"]["verified"], 1);
    let fd900: Vec<&Value> = common::elements_with(&v["findings"], "code", "FD900");
    assert_eq!(fd900.len(), 1, "{v}");
    assert_eq!(fd900[0]["step"], "path");
    assert_eq!(fd900[0]["severity"], "error");
    let with_missing = v["summary"]["errors"].as_u64().unwrap();
    for format in ["dot", "mermaid"] {
        let o = family(&[&package, &missing], format);
        assert_eq!(o.status.code(), Some(2), "{format}");
        assert!(
            String::from_utf8(o.stdout).unwrap().contains("FD900"),
            "{format}"
        );
    }
    // `verify` counts the same way (issue 21 item 3: it counted the PATH as
    // a failed package): the PATH is an entry of kind "path", no package.
    let verify = |format: &str| {
        std::process::Command::new(bin)
            .args(["verify", "--isolated", "--format", format])
            .arg(&package)
            .arg(&missing)
            .output()
            .unwrap()
    };
    let o = verify("human");
    assert_eq!(o.status.code(), Some(2));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.ends_with(
            "form-package: 1 package (1 verified, 0 failed), 1 error, 0 warnings, 0 notes\n"
        ),
        "{text}"
    );
    let o = verify("json");
    assert_eq!(o.status.code(), Some(2));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    for member in ["packages", "verified", "failed"] {
        assert_eq!(r["summary"][member], v["summary"][member], "{member}: {r}");
    }
    let kinds: Vec<(&str, &str)> = r["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["kind"].as_str().unwrap(), p["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, [("package", "ok"), ("path", "fail")], "{r}");
    let o = verify("junit");
    let xml = String::from_utf8(o.stdout).unwrap();
    assert!(
        xml.contains(
            r#"<testsuite name="form-package" tests="1" skipped="0" errors="0" failures="0">"#
        ),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<testsuite name="form-package inputs" tests="1" skipped="0" errors="0" failures="1">"#),
        "{xml}"
    );
    // Near miss: the package alone.
    let o = family(&[&package], "json");
    assert_ne!(o.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["packages"], 1);
    assert_eq!(v["summary"]["errors"].as_u64().unwrap() + 1, with_missing);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("FD900"));
}

/// T3 B3: a symlinked package directory in a family tree is the walk's
/// FD902 (not followed), an error of the family run (exit 1), as `verify`
/// reports it; it was dropped without a word. Near miss: the same tree
/// without the link has no such finding.
#[cfg(unix)]
#[test]
fn a_symlinked_package_directory_is_a_finding_not_dropped() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("x");
    common::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/families/v1beta1-001"),
        &root,
    );
    let bin = crate::common::BIN;
    let family = |format: &str| {
        std::process::Command::new(bin)
            .args(["family", "--format", format])
            .arg(&root)
            .output()
            .unwrap()
    };
    let clean: Value = serde_json::from_slice(&family("json").stdout).unwrap();
    let codes = |v: &Value| -> Vec<String> {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(!codes(&clean).contains(&"FD902".to_owned()), "{clean}");
    // A package moved out of the tree and linked back in.
    let packages = root.join("packages/v1beta1");
    let moved = std::fs::read_dir(&packages)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.join("package-index.json").is_file())
        .unwrap();
    let outside = tmp.path().join("outside");
    std::fs::rename(&moved, &outside).unwrap();
    std::os::unix::fs::symlink(&outside, packages.join("linked")).unwrap();
    let o = family("json");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(family_validator().is_valid(&v), "{v}");
    let f902: Vec<&Value> = common::elements_with(&v["findings"], "code", "FD902");
    assert_eq!(f902.len(), 1, "{v}");
    assert_eq!(f902[0]["severity"], "error");
    assert_eq!(f902[0]["step"], "path");
    assert_ne!(o.status.code(), Some(0));
    let human = String::from_utf8(family("human").stdout).unwrap();
    assert!(human.contains("error[FD902] path:"), "{human}");
}

/// Issue 21 item 3: `--format dot` and `mermaid` carry the packages' own
/// findings (what `verify` found in each), as comment lines, as `human`
/// and `json` do; they were omitted. The DOT still parses. Near miss: a
/// package without findings has no such line.
#[test]
fn dot_and_mermaid_carry_the_packages_own_findings() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    common::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7"),
        &pkg,
    );
    let clean = run(tmp.path(), &Options::default());
    assert!(clean.family.packages[0].outcome.diagnostics.is_empty());
    assert!(!graph::dot(&clean).contains("// verify:"));
    assert!(!graph::mermaid(&clean).contains("%% verify:"));
    // One byte more in the definition: its size and digest no longer match.
    let def = pkg.join("definition.json");
    let mut bytes = std::fs::read(&def).unwrap();
    bytes.push(b'\n');
    std::fs::write(&def, bytes).unwrap();
    let broken = run(tmp.path(), &Options::default());
    let codes: Vec<&str> = broken.family.packages[0]
        .outcome
        .diagnostics
        .iter()
        .map(|d| d.code.info().id)
        .collect();
    assert!(!codes.is_empty());
    let dot = graph::dot(&broken);
    dot_parser::ast::Graph::try_from(dot.as_str())
        .unwrap_or_else(|e| panic!("DOT does not parse: {e}\n{dot}"));
    let mermaid = graph::mermaid(&broken);
    for (text, prefix) in [(&dot, "//"), (&mermaid, "%%")] {
        assert!(
            text.contains(&format!("  {prefix} package {}: FAIL", pkg.display())),
            "{text}"
        );
        for code in &codes {
            assert!(
                text.lines()
                    .any(|l| l.starts_with(&format!("  {prefix} verify: error[{code}] "))),
                "{code}: {text}"
            );
        }
    }
}

/// Issue 21: `--format dot` and `--format mermaid` are one traversal in two
/// spellings, so they draw the same graph: the same comment lines, the same
/// nodes (family groups, a failing package, the target kinds not loaded) and
/// the same edges (dashed where unchecked), in the same order. The v1beta1
/// fixture family with module-worker removed (its relations unchecked under
/// `--partial`) and one byte added to worker-version's definition (it fails
/// `verify`).
#[test]
fn dot_and_mermaid_draw_the_same_graph() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/families/v1beta1-001"),
        tmp.path(),
    );
    let packages = tmp.path().join("packages/v1beta1");
    std::fs::remove_dir_all(packages.join("module-worker-0.1.0-812193fa7366")).unwrap();
    let def = packages.join("worker-version-0.1.0-54e6d25738e7/definition.json");
    let mut bytes = std::fs::read(&def).unwrap();
    bytes.push(b'\n');
    std::fs::write(&def, bytes).unwrap();
    let report = run(tmp.path(), &partial());
    let dot = graph::dot(&report);
    let mermaid = graph::mermaid(&report);
    // (comments, nodes, edges as "from -> to", dashed edges)
    type Drawn = (Vec<String>, Vec<String>, Vec<String>, usize);
    let drawn = |text: &str, comment: &str| -> Drawn {
        let mut d: Drawn = Default::default();
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let arrow = words
                .get(1)
                .is_some_and(|w| *w == "->" || w.starts_with("-->") || w.starts_with("-.->"));
            if let Some(c) = line.trim_start().strip_prefix(comment) {
                d.0.push(c.to_owned());
            } else if arrow {
                let to = if words[1] == "->" {
                    words[2]
                } else {
                    words.last().unwrap()
                };
                d.2.push(format!("{} -> {to}", words[0]));
                d.3 += usize::from(line.contains("style=dashed") || words[1].starts_with("-.->"));
            } else if line.starts_with("    ") && (line.ends_with(']') || line.contains(" [label="))
            {
                d.1.push(words[0].split('[').next().unwrap().to_owned());
            }
        }
        d
    };
    let (d, m) = (drawn(&dot, "//"), drawn(&mermaid, "%%"));
    assert_eq!(d, m, "{dot}\n{mermaid}");
    assert!(d.0.iter().any(|c| c.contains(": FAIL")), "{dot}");
    assert!(
        d.0.iter().any(|c| c.starts_with(" finding: FD703")),
        "{dot}"
    );
    assert!(d.1.iter().any(|id| id == "m0"), "{dot}");
    assert!(d.2.len() > 5 && d.3 > 0 && d.3 < d.2.len(), "{dot}");
    assert_eq!(dot.matches("verify: FAIL").count(), 1);
    assert_eq!(mermaid.matches("verify: FAIL").count(), 1);
    assert_eq!(d.1.len(), dot.matches(" [label=").count() - d.2.len());
}

/// Issue 21 item 3: `ops::family::run` is a typed operation. It returns the
/// checked report, which carries the exit status (0 ok, 1 a finding, 2 a
/// PATH missing: `FD900` beside the other PATHs), or a typed refusal (a
/// PATH that is no family member; PATHs holding nothing) whose text is the
/// reason alone: the `form-package: ` line is the command line's.
/// `render::family::output` is each format's view of that one report.
#[test]
fn family_run_returns_the_report_and_its_exit_status() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/packages/v1beta1/object-bucket-0.1.0-553675391d88");
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nonexist");
    let clean = family_op::run(std::slice::from_ref(&package), &Options::default()).unwrap();
    assert_eq!(clean.packages.len(), 1);
    assert!(!clean.fails);
    assert_eq!(clean.exit_code(), 0);
    let with_missing =
        family_op::run(&[package.clone(), missing.clone()], &Options::default()).unwrap();
    assert_eq!(with_missing.packages.len(), 1, "the other PATH is checked");
    assert!(with_missing
        .findings
        .iter()
        .any(|f| f.code().info().id == "FD900" && f.step == family::Step::Path));
    assert_eq!(with_missing.exit_code(), 2);
    let alone = family_op::run(std::slice::from_ref(&missing), &Options::default()).unwrap();
    assert_eq!(
        alone.exit_code(),
        2,
        "a missing PATH alone is reported, not refused"
    );
    // A failing package (its definition edited, so its digests no longer
    // match) is exit 1.
    let broken = tmp.path().join("broken");
    common::copy_dir(&package, &broken);
    let def = broken.join("definition.json");
    let mut text = std::fs::read_to_string(&def).unwrap();
    text.push(' ');
    std::fs::write(&def, text).unwrap();
    let failing = family_op::run(std::slice::from_ref(&broken), &Options::default()).unwrap();
    assert!(failing.fails);
    assert_eq!(failing.exit_code(), 1);
    // Refusals: typed, the reason alone.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let refused = family_op::run(std::slice::from_ref(&empty), &Options::default()).unwrap_err();
    assert!(
        matches!(refused, family_op::Refusal::Empty(..)),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        format!(
            "no Form Package, contract or candidate set under {}",
            empty.display()
        )
    );
    let refused = family_op::run(&[PathBuf::from("/dev/null")], &Options::default()).unwrap_err();
    assert!(
        matches!(refused, family_op::Refusal::Load(_)),
        "{refused:?}"
    );
    assert!(
        refused
            .to_string()
            .starts_with("/dev/null: is none of a Form Package"),
        "{refused}"
    );
    // Each format's view of the one report.
    use form_package::render::{family as views, Format};
    assert_eq!(views::output(&clean, Format::Human), views::human(&clean));
    assert_eq!(
        views::output(&clean, Format::Json),
        views::json_text(&clean)
    );
    assert_eq!(views::output(&clean, Format::Dot), views::dot(&clean));
    assert_eq!(
        views::output(&clean, Format::Mermaid),
        views::mermaid(&clean)
    );
    assert!(views::output(&clean, Format::Human)
        .ends_with("family: 0 errors, 0 warnings, 0 notes; ok\n"));
}

/// A valid Interface Definition of the repository's v1beta1 family fixture,
/// copied to `to` (its parents made).
fn put_contract(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "fixtures/families/v1beta1-001/contracts/interfaces/v1alpha1/edge.kv-231cfe2a7d8a/definition.json",
    );
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
}

/// The findings of `load` over `root` as `(code, severity, step, help)`.
fn read_findings(root: &Path) -> (load::Family, Vec<(String, String, String, String)>) {
    let fam = load::load(&[root.to_path_buf()]).unwrap();
    let found = fam
        .findings
        .iter()
        .map(|f| {
            (
                f.code().info().id.to_owned(),
                f.diagnostic.severity.as_str().to_owned(),
                f.step.name().to_owned(),
                f.diagnostic.help.clone().unwrap_or_default(),
            )
        })
        .collect();
    (fam, found)
}

fn help_of(id: &str) -> String {
    form_package::codes::TABLE
        .iter()
        .find(|i| i.id == id)
        .and_then(|i| i.help)
        .unwrap()
        .to_owned()
}

/// Issue 21 item 3 (family): a contract or candidate set that cannot be
/// read is reported with the code and help `verify` gives the same fault in
/// a package, never as `FD012` with a help line about fixing the JSON: a
/// FIFO is `FD005`, a file over the 4 MiB limit `FD014`, a symbolic link
/// `FD004` (a warning: not followed), both where the walk finds it and
/// where the reader refuses it. Near miss: the valid contract beside each
/// still loads, and a directory named `definition.json` is walked (the
/// contract inside it loads), never read.
#[test]
fn a_family_file_that_cannot_be_read_has_verify_s_code_and_help() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    put_contract(&root.join("contracts/good/definition.json"));
    let made = |p: &Path| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .is_ok_and(|s| s.success())
    };
    assert!(made(&root.join("contracts/fifo/definition.json")), "mkfifo");
    assert!(made(&root.join("contracts/fifo/candidate-set-x.json")));
    let big = root.join("contracts/big/definition.json");
    std::fs::create_dir_all(big.parent().unwrap()).unwrap();
    let mut bytes = vec![b' '; usize::try_from(load::MAX_DOCUMENT).unwrap()];
    bytes.extend_from_slice(b"{}");
    std::fs::write(&big, bytes).unwrap();
    std::fs::create_dir_all(root.join("contracts/link")).unwrap();
    std::os::unix::fs::symlink(
        "../good/definition.json",
        root.join("contracts/link/definition.json"),
    )
    .unwrap();
    put_contract(&root.join("contracts/dir/definition.json/inner/definition.json"));
    let (fam, mut found) = read_findings(root);
    found.sort();
    let f = |code: &str, severity: &str, step: &str| {
        (
            code.to_owned(),
            severity.to_owned(),
            step.to_owned(),
            help_of(code),
        )
    };
    assert_eq!(
        found,
        [
            f("FD004", "warning", "contract"),
            f("FD005", "error", "candidate-set"),
            f("FD005", "error", "contract"),
            f("FD014", "error", "contract"),
        ]
    );
    assert!(!help_of("FD005").contains("JSON") && !help_of("FD014").contains("JSON"));
    let messages: Vec<&str> = fam
        .findings
        .iter()
        .map(|f| f.diagnostic.message.as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.ends_with("fifo/definition.json: not a regular file: a FIFO")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.ends_with("big/definition.json: file is 4194306 bytes; maximum is 4194304")),
        "{messages:?}"
    );
    // Near misses: the good contract (and the one inside the directory
    // named definition.json) load; the link is not followed.
    let loaded: Vec<String> = fam.contracts.iter().map(|c| c.doc.file.clone()).collect();
    assert_eq!(
        loaded,
        [
            root.join("contracts/dir/definition.json/inner/definition.json")
                .display()
                .to_string(),
            root.join("contracts/good/definition.json")
                .display()
                .to_string(),
        ]
    );
    // The reader's own refusal of a link (one swapped in after the walk)
    // is the walk's FD004, not FD012.
    let e = load::Doc::read(&root.join("contracts/link/definition.json")).unwrap_err();
    assert_eq!(
        (
            e.code().info().id,
            e.diagnostic.severity.as_str(),
            e.diagnostic.help.as_deref()
        ),
        ("FD004", "warning", Some(help_of("FD004").as_str()))
    );
    // And a contract that is not I-JSON is still FD012.
    let bad = root.join("bad/definition.json");
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&bad, "{\"a\":1,\"a\":2}").unwrap();
    let e = load::Doc::read(&bad).unwrap_err();
    assert_eq!(e.code().info().id, "FD012");
}

/// A contract or candidate set the user names through a symbolic link is
/// read through it, as every command reads a file it is given (it was
/// taken for a package: FD001, FD740, FD004 and "1 failed"); the same link
/// found by the walk of a directory is still not followed (FD004), and a
/// named link to a directory is still refused as `verify` refuses it
/// (FD001: a package root is a real directory).
#[test]
fn a_named_link_to_a_contract_is_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    put_contract(&root.join("contracts/good/definition.json"));
    std::fs::create_dir_all(root.join("named")).unwrap();
    let link = root.join("named/definition.json");
    std::os::unix::fs::symlink("../contracts/good/definition.json", &link).unwrap();
    let fam = load::load(std::slice::from_ref(&link)).unwrap();
    let codes: Vec<&str> = fam.findings.iter().map(|f| f.code().info().id).collect();
    assert_eq!(codes, Vec::<&str>::new());
    assert!(fam.packages.is_empty());
    let loaded: Vec<&str> = fam.contracts.iter().map(|c| c.doc.file.as_str()).collect();
    assert_eq!(loaded, [link.display().to_string().as_str()]);
    let out = common::run(&["family".as_ref(), link.as_os_str()]);
    common::assert_exit(&out, 0);
    // Near miss: the directory holding the link, walked: not followed.
    let fam = load::load(&[root.join("named")]).unwrap();
    let codes: Vec<&str> = fam.findings.iter().map(|f| f.code().info().id).collect();
    assert_eq!(codes, ["FD004"]);
    assert!(fam.contracts.is_empty());
    // Near miss: a named link to a directory is a package root verify
    // refuses (FD001), its Form not loaded (FD740).
    let dir_link = root.join("dir-link");
    std::os::unix::fs::symlink("contracts", &dir_link).unwrap();
    let fam = load::load(std::slice::from_ref(&dir_link)).unwrap();
    let codes: Vec<&str> = fam.findings.iter().map(|f| f.code().info().id).collect();
    assert_eq!(codes, ["FD740"]);
    let verify_codes: Vec<&str> = fam.packages[0]
        .outcome
        .diagnostics
        .iter()
        .map(|d| d.code.info().id)
        .collect();
    assert_eq!(verify_codes, ["FD001"]);
    assert!(fam.contracts.is_empty());
}

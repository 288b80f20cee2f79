//! `compat`: changes of meaning the accepted documents do not show, and
//! what a pair reports beside its records (breaker findings F5, F12, F14,
//! F8, F6):
//! - a `default` of the desired schema added, removed or changed is
//!   breaking (`FD668`) with a counterexample valid under both schemas that
//!   omits the member, checked here with the `jsonschema` crate as an
//!   independent oracle; `examples` stays documentation;
//! - a relation retargeted, removed or added is `FD669` (the tester's
//!   `cq/` case, `tests/cases/compat-cq`); an `x-` key that is no relation
//!   annotation stays documentation;
//! - `--history` / `--baseline` say which directories they skipped, in
//!   every format;
//! - a refused side reports the bump its versions show and no required
//!   bump; every JSON record and finding carries its code's help.

use std::path::{Path, PathBuf};

use libtest_mimic::{Failed, Trial};
use serde_json::{json, Value};

use crate::compat::{codes, json_run, package, repo, run, s, STORE};

/// The store's desired schema with two optional members: `tier` (a
/// string) and `limits` (an object holding `size`), each given `default`s
/// by `tier` and `size` when set.
fn with_members(d: &mut Value, tier: Option<Value>, size: Option<Value>) {
    let props = &mut d["desiredSchema"]["properties"];
    props["tier"] = json!({"type": "string", "examples": ["gold"]});
    props["limits"] = json!({"type": "object", "additionalProperties": false,
        "properties": {"size": {"type": "integer", "minimum": 0}}});
    if let Some(t) = tier {
        props["tier"]["default"] = t;
    }
    if let Some(z) = size {
        props["limits"]["properties"]["size"]["default"] = z;
    }
}

/// Whether `doc` is valid under the desired schema of the definition in
/// package `dir`, by the `jsonschema` crate.
fn valid_under(dir: &Path, doc: &Value) -> bool {
    let d: Value =
        serde_json::from_slice(&std::fs::read(dir.join("definition.json")).unwrap()).unwrap();
    jsonschema::validator_for(&d["desiredSchema"])
        .unwrap()
        .is_valid(doc)
}

/// The records of `code` in a pair.
fn records<'d>(pair: &'d Value, code: &str) -> Vec<&'d Value> {
    pair["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["code"] == code)
        .collect()
}

type Edit = Box<dyn Fn(&mut Value)>;

/// F5: a `default` added, removed or changed, at the top level and nested,
/// in 1.x (major) and 0.x (minor), each with a counterexample valid under
/// both schemas (re-checked here by `jsonschema`) that omits the member
/// at its place; near misses: an `examples` change and an unchanged
/// default stay a patch (a default of a required member is judged by what
/// hosts that materialize accept: `defaults_of_required_members`).
fn default_changes_are_breaking() -> Result<(), Failed> {
    // (name, OLD edit, NEW edit, member path of the parent object, member)
    let cases: Vec<(&str, Edit, Edit, Vec<&str>, &str)> = vec![
        (
            "top-level changed",
            Box::new(|d| with_members(d, Some(json!("silver")), None)),
            Box::new(|d| with_members(d, Some(json!("gold")), None)),
            vec![],
            "tier",
        ),
        (
            "top-level added",
            Box::new(|d| with_members(d, None, None)),
            Box::new(|d| with_members(d, Some(json!("gold")), None)),
            vec![],
            "tier",
        ),
        (
            "top-level removed",
            Box::new(|d| with_members(d, Some(json!("gold")), None)),
            Box::new(|d| with_members(d, None, None)),
            vec![],
            "tier",
        ),
        (
            "nested changed",
            Box::new(|d| with_members(d, None, Some(json!(1)))),
            Box::new(|d| with_members(d, None, Some(json!(2)))),
            vec!["limits"],
            "size",
        ),
        (
            "nested added",
            Box::new(|d| with_members(d, None, None)),
            Box::new(|d| with_members(d, None, Some(json!(2)))),
            vec!["limits"],
            "size",
        ),
        (
            "nested removed",
            Box::new(|d| with_members(d, None, Some(json!(1)))),
            Box::new(|d| with_members(d, None, None)),
            vec!["limits"],
            "size",
        ),
    ];
    let tmp = tempfile::tempdir().unwrap();
    for (i, (name, old, new, parents, member)) in cases.into_iter().enumerate() {
        let a = package(tmp.path(), &format!("a{i}"), STORE, |d| old(d));
        let b = package(tmp.path(), &format!("b{i}"), STORE, |d| {
            new(d);
            d["definitionVersion"] = json!("1.0.1");
        });
        let (status, doc) = json_run(&["compat", s(&a), s(&b)]);
        let p = &doc["pairs"][0];
        assert_eq!(status, 1, "{name}: {doc}");
        assert_eq!(p["requiredBump"], "major", "{name}");
        assert_eq!(p["bumpOk"], false, "{name}");
        let r = records(p, "FD668");
        assert_eq!(r.len(), 1, "{name}: {p}");
        let r = r[0];
        assert_eq!(r["class"], "breaking", "{name}");
        assert_eq!(
            r["help"],
            "nothing to do when the version is a new major (1.x) or minor (0.x); otherwise keep the old default (a document that omits the member must keep its meaning), or bump the version",
            "{name}"
        );
        // Located at the changed `default` (at the member's schema on the
        // side that has none), with a line in both files.
        let mut at = String::from("/desiredSchema");
        for p in &parents {
            at.push_str(&format!("/properties/{p}"));
        }
        at.push_str(&format!("/properties/{member}"));
        for side in ["old", "new"] {
            let ptr = r[side]["pointer"].as_str().unwrap();
            assert!(
                ptr == at || ptr == format!("{at}/default"),
                "{name}: {side} {ptr}"
            );
            assert!(r[side]["line"].as_u64().is_some(), "{name}: {r}");
        }
        assert!(
            r["old"]["pointer"].as_str().unwrap().ends_with("/default")
                || r["new"]["pointer"].as_str().unwrap().ends_with("/default"),
            "{name}: {r}"
        );
        // The counterexample: valid under both, the parent object present
        // and the member absent.
        let w = &r["witness"];
        assert!(valid_under(&a, w) && valid_under(&b, w), "{name}: {w}");
        let mut holder = w;
        for p in &parents {
            holder = &holder[*p];
        }
        assert!(holder.is_object(), "{name}: {w}");
        assert!(holder.get(member).is_none(), "{name}: {w}");
        assert!(
            r["message"]
                .as_str()
                .unwrap()
                .contains(&format!("default of member \"{member}\"")),
            "{name}: {r}"
        );
    }
    // 0.x: a breaking change needs a minor.
    let bucket = "fixtures/packages/v1beta1/object-bucket-0.1.0-553675391d88";
    let a = package(tmp.path(), "zero-a", bucket, |d| {
        d["desiredSchema"]["properties"]["tier"] = json!({"type": "string", "default": "a"});
    });
    let b = package(tmp.path(), "zero-b", bucket, |d| {
        d["desiredSchema"]["properties"]["tier"] = json!({"type": "string", "default": "b"});
        d["definitionVersion"] = json!("0.1.1");
    });
    let (status, doc) = json_run(&["compat", s(&a), s(&b)]);
    let p = &doc["pairs"][0];
    assert_eq!(status, 1, "{doc}");
    assert_eq!(p["requiredBump"], "minor");
    assert_eq!(records(p, "FD668").len(), 1, "{p}");
    assert_eq!(records(p, "FD668")[0]["witness"], json!({}), "{p}");
    // Near misses.
    let near: Vec<(&str, Edit, Edit, &str)> = vec![
        (
            "examples changed",
            Box::new(|d| with_members(d, Some(json!("gold")), Some(json!(1)))),
            Box::new(|d| {
                with_members(d, Some(json!("gold")), Some(json!(1)));
                d["desiredSchema"]["properties"]["tier"]["examples"] = json!(["silver"]);
            }),
            "FD653",
        ),
        (
            "default unchanged, description changed",
            Box::new(|d| with_members(d, Some(json!("gold")), None)),
            Box::new(|d| {
                with_members(d, Some(json!("gold")), None);
                d["desiredSchema"]["properties"]["tier"]["description"] = json!("The tier.");
            }),
            "FD653",
        ),
    ];
    for (i, (name, old, new, code)) in near.into_iter().enumerate() {
        let a = package(tmp.path(), &format!("near-a{i}"), STORE, |d| old(d));
        let b = package(tmp.path(), &format!("near-b{i}"), STORE, |d| {
            new(d);
            d["definitionVersion"] = json!("1.0.1");
        });
        let (status, doc) = json_run(&["compat", s(&a), s(&b)]);
        let p = &doc["pairs"][0];
        assert_eq!(status, 0, "{name}: {doc}");
        assert_eq!(p["requiredBump"], "patch", "{name}: {p}");
        assert!(records(p, "FD668").is_empty(), "{name}: {p}");
        assert!(codes(&doc).contains(&code.to_owned()), "{name}: {p}");
    }
    Ok(())
}

/// The store's `name` (required) with the default `default`, and, when
/// `nested`, an optional object `o` whose member `a` is required and has
/// the default `nested`.
fn required_defaults(d: &mut Value, default: Option<&str>, nested: Option<Option<&str>>) {
    if let Some(v) = default {
        d["desiredSchema"]["properties"]["name"]["default"] = json!(v);
    }
    if let Some(n) = nested {
        d["desiredSchema"]["properties"]["o"] = json!({"type": "object",
            "additionalProperties": false, "required": ["a"],
            "properties": {"a": {"type": "string"}}});
        if let Some(v) = n {
            d["desiredSchema"]["properties"]["o"]["properties"]["a"]["default"] = json!(v);
        }
    }
}

/// Breaker F12: a default of a required member is judged by what hosts
/// that materialize accept (the Core inserts defaults, then validates,
/// `host-rules.md` §1.6). Added (`name` required, NEW default "zz"): NEW's
/// hosts accept `{}`, which OLD's refused: a relaxation (`FD682`), a minor
/// required (1.0.1 fails, 1.1.0 fits), the witness `{}`; nested too (the
/// required `o.a` gains a default: `{"name":"a","o":{}}` now accepted).
/// Changed (`a` → `b`): `{}` is accepted under both and stored
/// differently, breaking (`FD668`); removed: NEW's hosts refuse `{}`,
/// breaking (`FD668`). Near miss: a default added to an optional member is
/// `FD668` (a document valid under both materializes differently), never
/// `FD682`.
fn defaults_of_required_members() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    type Case = (
        &'static str,
        Option<&'static str>,
        Option<&'static str>,
        Option<Option<&'static str>>,
        Option<Option<&'static str>>,
        &'static str,
        &'static str,
        Value,
    );
    let cases: Vec<Case> = vec![
        (
            "added",
            None,
            Some("zz"),
            None,
            None,
            "FD682",
            "relaxation",
            json!({}),
        ),
        (
            "nested added",
            None,
            None,
            Some(None),
            Some(Some("q")),
            "FD682",
            "relaxation",
            json!({"name": "a", "o": {}}),
        ),
        (
            "changed",
            Some("a"),
            Some("b"),
            None,
            None,
            "FD668",
            "breaking",
            json!({}),
        ),
        (
            "removed",
            Some("a"),
            None,
            None,
            None,
            "FD668",
            "breaking",
            json!({}),
        ),
    ];
    for (i, (name, od, nd, on, nn, code, class, witness)) in cases.into_iter().enumerate() {
        let a = package(tmp.path(), &format!("a{i}"), STORE, |d| {
            required_defaults(d, od, on)
        });
        for (version, fits) in [("1.0.1", false), ("1.1.0", class == "relaxation")] {
            let b = package(tmp.path(), &format!("b{i}-{version}"), STORE, |d| {
                required_defaults(d, nd, nn);
                d["definitionVersion"] = json!(version);
            });
            let (status, doc) = json_run(&["compat", s(&a), s(&b)]);
            let p = &doc["pairs"][0];
            assert_eq!(status, i32::from(!fits), "{name} {version}: {doc}");
            assert_eq!(
                p["requiredBump"],
                if class == "relaxation" {
                    "minor"
                } else {
                    "major"
                },
                "{name}: {p}"
            );
            let r = records(p, code);
            assert_eq!(r.len(), 1, "{name}: {p}");
            assert_eq!(r[0]["class"], class, "{name}: {p}");
            assert_eq!(r[0]["witness"], witness, "{name}: {p}");
            assert!(records(p, "FD665").is_empty(), "{name}: {p}");
            if class == "relaxation" {
                assert!(records(p, "FD668").is_empty(), "{name}: {p}");
                // The witness: refused under OLD, accepted under NEW once
                // materialized, as `desired materialize` says.
                let file = tmp.path().join(format!("w{i}.json"));
                std::fs::write(&file, witness.to_string()).unwrap();
                let (code_old, _, _) = run(&[
                    "desired",
                    "materialize",
                    s(&a),
                    "forms.takoform.com/v1alpha1/ExampleStore@1.0.0",
                    s(&file),
                ]);
                let (code_new, out, err) = run(&[
                    "desired",
                    "materialize",
                    s(&b),
                    &format!("forms.takoform.com/v1alpha1/ExampleStore@{version}"),
                    s(&file),
                ]);
                assert_eq!((code_old, code_new), (1, 0), "{name}: {out}{err}");
                assert!(
                    r[0]["message"]
                        .as_str()
                        .unwrap()
                        .contains(&format!("materializes as {} under NEW", out.trim_end())),
                    "{name}: {r:?}"
                );
            }
        }
    }
    // Near miss: an optional member gains a default.
    let a = package(tmp.path(), "opt-a", STORE, |d| with_members(d, None, None));
    let b = package(tmp.path(), "opt-b", STORE, |d| {
        with_members(d, Some(json!("gold")), None);
        d["definitionVersion"] = json!("1.1.0");
    });
    let (status, doc) = json_run(&["compat", s(&a), s(&b)]);
    let p = &doc["pairs"][0];
    assert_eq!(status, 1, "{doc}");
    assert_eq!(records(p, "FD668").len(), 1, "{p}");
    assert!(records(p, "FD682").is_empty(), "{p}");
    Ok(())
}

pub(crate) const CONSUMER: &str = "fixtures/packages/versionless/queue-consumer-0.2.0-03c2f61a47b7";

/// F12: the tester's `cq/` case. OLD is the queue consumer 0.2.0 (the
/// tester's `cq/old`, byte-identical to the fixture); `new` retargets the
/// `/queue` relation's required Interface to edge.queue 2.0.0, `new2`
/// removes it; both at 0.2.1, a patch: each is `FD669`, breaking, located
/// at the annotation with the old and new targets, and the patch fails
/// (a minor is required in 0.x). The right bump (0.3.0) fits.
fn relation_changes_are_breaking() -> Result<(), Failed> {
    let old = repo(CONSUMER);
    let cases = repo("tests/cases/compat-cq");
    let annotation = "/desiredSchema/properties/queue/x-takoform-required-interface";
    for (name, new_at, to) in [
        ("new", annotation, "edge.queue@2.0.0"),
        (
            "new2",
            "/desiredSchema/properties/queue",
            "no target contract",
        ),
    ] {
        let new = cases.join(name);
        let (status, doc) = json_run(&["compat", s(&old), s(&new)]);
        let p = &doc["pairs"][0];
        assert_eq!(status, 1, "{name}: {doc}");
        assert_eq!(p["actualBump"], "patch");
        assert_eq!(p["requiredBump"], "minor", "{name}: {p}");
        let r = records(p, "FD669");
        assert_eq!(r.len(), 1, "{name}: {p}");
        assert_eq!(r[0]["class"], "breaking");
        assert_eq!(r[0]["old"]["pointer"], annotation);
        assert_eq!(r[0]["new"]["pointer"], new_at);
        let m = r[0]["message"].as_str().unwrap();
        assert!(
            m.starts_with("relation \"/queue\" target changed: ")
                && m.contains("edge.queue@1.0.0 → ")
                && m.ends_with(to),
            "{m}"
        );
        assert!(codes(&doc).contains(&"FD670".to_owned()), "{name}");
    }
    // Two bare definition files: the relations `check` derived, the same
    // record.
    let (status, doc) = json_run(&[
        "compat",
        s(&old.join("definition.json")),
        s(&cases.join("new/definition.json")),
    ]);
    assert_eq!(status, 1, "{doc}");
    let r = records(&doc["pairs"][0], "FD669");
    assert_eq!(r.len(), 1, "{doc}");
    assert_eq!(r[0]["new"]["pointer"], annotation);
    // The right bump for 0.x: a minor fits.
    let tmp = tempfile::tempdir().unwrap();
    let minor = package(tmp.path(), "minor", CONSUMER, |d| {
        d["desiredSchema"]["properties"]["queue"]["x-takoform-required-interface"]["version"] =
            json!("2.0.0");
        d["definitionVersion"] = json!("0.3.0");
    });
    let (status, doc) = json_run(&["compat", s(&old), s(&minor)]);
    assert_eq!(status, 0, "{doc}");
    assert_eq!(doc["pairs"][0]["requiredBump"], "minor");
    Ok(())
}

/// Breaker G11: a relation's `x-takoform-required-entrypoint` changed
/// (`"queue"` → `"scheduled"`) or added is `FD669` breaking, located at the
/// annotation, and a patch fails; removed, a relaxation. Near miss: the
/// same entrypoint on both sides is no relation change (identical).
fn relation_entrypoint_changes() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let with = |name: &str, version: &str, entry: Option<&str>| {
        package(tmp.path(), name, CONSUMER, |d| {
            d["definitionVersion"] = json!(version);
            if let Some(e) = entry {
                d["desiredSchema"]["properties"]["queue"]["x-takoform-required-entrypoint"] =
                    json!(e);
            }
        })
    };
    let old = with("old", "0.2.0", Some("queue"));
    let at = "/desiredSchema/properties/queue/x-takoform-required-entrypoint";
    for (name, entry, class, message) in [
        (
            "changed",
            Some("scheduled"),
            "breaking",
            "relation \"/queue\" required entrypoint changed: \"queue\" → \"scheduled\"",
        ),
        (
            "removed",
            None,
            "relaxation",
            "relation \"/queue\" required entrypoint changed: \"queue\" → none",
        ),
    ] {
        let new = with(name, "0.2.1", entry);
        let (status, doc) = json_run(&["compat", s(&old), s(&new)]);
        assert_eq!(status, 1, "{name}: {doc}");
        let p = &doc["pairs"][0];
        let r = records(p, "FD669");
        assert_eq!(r.len(), 1, "{name}: {p}");
        assert_eq!(r[0]["class"], class, "{name}");
        assert_eq!(r[0]["old"]["pointer"], at, "{name}");
        assert_eq!(r[0]["message"], message, "{name}");
    }
    // Added where OLD had none: breaking, located at the reference in OLD.
    let bare = with("bare", "0.2.0", None);
    let (status, doc) = json_run(&[
        "compat",
        s(&bare),
        s(&with("added", "0.2.1", Some("queue"))),
    ]);
    assert_eq!(status, 1, "{doc}");
    let r = records(&doc["pairs"][0], "FD669");
    assert_eq!(r[0]["class"], "breaking", "{doc}");
    assert_eq!(r[0]["new"]["pointer"], at, "{doc}");
    // Near miss: the same entrypoint, a patch: no relation change.
    let (status, doc) = json_run(&["compat", s(&old), s(&with("same", "0.2.1", Some("queue")))]);
    assert_eq!(status, 0, "{doc}");
    assert!(records(&doc["pairs"][0], "FD669").is_empty(), "{doc}");
    Ok(())
}

/// F12: a relation added on a new optional member is an addition (a
/// minor: no document valid before holds the member); made optional, a
/// relaxation. The near miss: an `x-` key beside the relation annotation
/// that is no relation annotation (`x-note`) changes no relation: it stays
/// documentation (`FD653`, the verdict reads it as an annotation), a patch
/// fits.
fn relation_added_and_unrelated_x_key() -> Result<(), Failed> {
    let old = repo(CONSUMER);
    let tmp = tempfile::tempdir().unwrap();
    let added = package(tmp.path(), "added", CONSUMER, |d| {
        let mut q = d["desiredSchema"]["properties"]["queue"].clone();
        q["x-takoform-required-interface"]["version"] = json!("1.1.0");
        d["desiredSchema"]["properties"]["overflowQueue"] = q;
        d["definitionVersion"] = json!("0.2.1");
    });
    let (status, doc) = json_run(&["compat", s(&old), s(&added)]);
    let p = &doc["pairs"][0];
    assert_eq!(status, 1, "{doc}");
    let r = records(p, "FD669");
    assert_eq!(r.len(), 1, "{p}");
    assert_eq!(r[0]["class"], "addition");
    assert_eq!(r[0]["old"], Value::Null);
    assert_eq!(
        r[0]["new"]["pointer"],
        "/desiredSchema/properties/overflowQueue"
    );
    assert!(
        r[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("relation \"/overflowQueue\" ("),
        "{}",
        r[0]
    );
    let note = package(tmp.path(), "note", CONSUMER, |d| {
        d["desiredSchema"]["properties"]["queue"]["x-note"] = json!("the queue drained");
        d["definitionVersion"] = json!("0.2.1");
    });
    let (status, doc) = json_run(&["compat", s(&old), s(&note)]);
    let p = &doc["pairs"][0];
    assert_eq!(status, 0, "{doc}");
    assert_eq!(p["requiredBump"], "patch");
    assert!(records(p, "FD669").is_empty(), "{p}");
    assert_eq!(codes(&doc), vec!["FD653".to_owned()], "{p}");
    Ok(())
}

/// The tree of F14: `v1` = the store 1.0.0, `.v2` (hidden) = the store at
/// 1.0.1 with a required member added (a breaking change labelled patch).
fn hidden_tree(tmp: &Path) -> PathBuf {
    let tree = tmp.join("h2");
    package(&tree, "v1", STORE, |_| {});
    package(&tree, ".v2", STORE, |d| {
        d["desiredSchema"]["properties"]["size"] = json!({"type": "integer"});
        d["definitionVersion"] = json!("1.0.1");
    });
    tree
}

/// F14: `--history` and `--baseline` skip a hidden directory by verify's
/// walk rules, and say so in every format: after the human report, in the
/// JSON document (`skipped`), on stderr for SARIF, GitHub and JUnit (their
/// stdout stays one document). The directory holds a Form Package, so the
/// run fails (breaker2 G1, FD683, `compat_silent`). Near miss: a tree
/// without one says nothing.
fn skipped_directories_are_said() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let tree = hidden_tree(tmp.path());
    let hidden = s(&tree.join(".v2")).to_owned();
    let line = "1 directory skipped by a rule of verify's walk (hidden, .gitignore): not compared:";
    for mode in [
        vec!["compat", "--history", s(&tree)],
        vec!["compat", "--baseline", s(&tree), s(&tree.join("v1"))],
    ] {
        let (code, out, _) = run(&mode);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("FD683"), "{out}");
        assert!(
            out.ends_with(&format!("{line}\n  {hidden} (hidden)\n")),
            "{mode:?}: {out}"
        );
        let (_, doc) = json_run(&mode);
        assert_eq!(
            doc["skipped"],
            json!([{"path": hidden, "rule": "hidden"}]),
            "{mode:?}"
        );
        for format in ["sarif", "github", "junit"] {
            let mut args = mode.clone();
            args.extend(["--format", format]);
            let (_, out, err) = run(&args);
            assert!(err.starts_with(line), "{mode:?} {format}: {err}");
            assert!(!out.contains("skipped by a rule"), "{format}: {out}");
        }
    }
    let (_, doc) = json_run(&["compat", "--history", s(&tree.join("v1"))]);
    assert_eq!(doc["skipped"], json!([]));
    let (_, out, err) = run(&["compat", "--history", s(&tree.join("v1"))]);
    assert!(!out.contains("skipped") && err.is_empty(), "{out}{err}");
    Ok(())
}

/// F8, F6: a side refused by verification leaves the pair uncompared: the
/// bump its versions show is still reported (1.0.0 → 1.0.1 is a patch)
/// and the required bump is null (human: "required not compared"); every
/// finding and change record in JSON carries its code's help, the text
/// SARIF gives.
fn refused_side_and_help() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let a = package(tmp.path(), "a", STORE, |_| {});
    let b = package(tmp.path(), "b", STORE, |d| {
        d["desiredSchema"]["properties"]["size"] = json!({"type": "integer"});
        d["desiredSchema"]["required"] = json!(["name", "size"]);
        d["definitionVersion"] = json!("1.0.1");
    });
    let (code, doc) = json_run(&["compat", s(&a), s(&b)]);
    assert_eq!(code, 1);
    let p = &doc["pairs"][0];
    assert_eq!(p["compared"], false);
    assert_eq!(p["actualBump"], "patch");
    assert_eq!(p["requiredBump"], Value::Null);
    assert_eq!(p["findings"][0]["code"], "FD678");
    assert_eq!(
        p["findings"][0]["help"],
        "fix the refused package (its own findings are reported) and run again"
    );
    let (_, human, _) = run(&["compat", s(&a), s(&b)]);
    assert!(
        human.contains("desired not compared; bump patch, required not compared"),
        "{human}"
    );
    // A compared pair: each record's help is its code's, as in SARIF.
    let c = package(tmp.path(), "c", STORE, |d| {
        d["title"] = json!("Renamed");
        d["definitionVersion"] = json!("1.0.1");
    });
    let (_, doc) = json_run(&["compat", s(&a), s(&c)]);
    let record = &doc["pairs"][0]["changes"][0];
    assert_eq!(record["code"], "FD665");
    assert_eq!(record["help"], "a patch bump fits");
    let (_, sarif, _) = run(&["compat", s(&a), s(&c), "--format", "sarif"]);
    let log: Value = serde_json::from_str(&sarif).unwrap();
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "FD665");
    assert!(result.to_string().contains("a patch bump fits"), "{result}");
    Ok(())
}

/// A current-profile package with no Interface (`tests/cases/desired`'s
/// Widget), so the snapshot oracle compiles it alone.
const WIDGET: &str = "tests/cases/desired/packages/widget-0.1.0";

/// A widget 1.0.0 (`STEM-a`, `m` a string) and its copy at `version`
/// (`STEM-b`) whose required `name` gains the default `"zz"`.
fn name_gains_default(tmp: &Path, stem: &str, version: &str) -> (PathBuf, PathBuf) {
    let a = widget(
        tmp,
        &format!("{stem}-a"),
        "1.0.0",
        json!({"type": "string"}),
        json!({}),
    );
    let b = package(tmp, &format!("{stem}-b"), WIDGET, |d| {
        *d = serde_json::from_slice(&std::fs::read(a.join("definition.json")).unwrap()).unwrap();
        d["definitionVersion"] = json!(version);
        d["desiredSchema"]["properties"]["name"]["default"] = json!("zz");
    });
    (a, b)
}

/// The Widget at `version` with the desired schema `{name (required), m}`
/// where `m` is `member`, and `$defs` `defs`.
fn widget(tmp: &Path, name: &str, version: &str, member: Value, defs: Value) -> PathBuf {
    package(tmp, name, WIDGET, |d| {
        d["definitionVersion"] = json!(version);
        d["desiredSchema"] = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object", "additionalProperties": false, "required": ["name"],
            "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 63}, "m": member},
            "$defs": defs});
    })
}

/// The pairs of issue 35 item 1: (name, OLD m, OLD $defs, NEW m, NEW
/// $defs, whether hosts store another document).
fn meaning_pairs() -> Vec<(&'static str, Value, Value, Value, Value, bool)> {
    let s = |d: &str| json!({"type": "string", "default": d});
    vec![
        (
            "a default behind $ref changed (M x -> M2 y)",
            json!({"$ref": "#/$defs/M"}),
            json!({"M": s("x")}),
            json!({"$ref": "#/$defs/M2"}),
            json!({"M2": s("y")}),
            false,
        ),
        (
            "a defaulted member moved into $defs",
            s("x"),
            json!({}),
            json!({"$ref": "#/$defs/M"}),
            json!({"M": s("x")}),
            true,
        ),
        (
            "a defaulted member moved into a one-branch allOf",
            s("x"),
            json!({}),
            json!({"allOf": [s("x")]}),
            json!({}),
            true,
        ),
        (
            "a default on a member reached through properties changed",
            s("x"),
            json!({}),
            s("y"),
            json!({}),
            true,
        ),
        (
            "a default reached through items changed",
            items(s("x")),
            json!({}),
            items(s("y")),
            json!({}),
            true,
        ),
        (
            "a default reached through a typed map changed",
            map(s("x")),
            json!({}),
            map(s("y")),
            json!({}),
            true,
        ),
        (
            "a default of a discriminated branch changed",
            branch(s("x")),
            json!({}),
            branch(s("y")),
            json!({}),
            true,
        ),
    ]
}

/// A closed object whose one member `d` is `d`.
fn closed_d(d: Value) -> Value {
    json!({"type": "object", "additionalProperties": false, "properties": {"d": d}})
}

/// An array of at most two closed objects whose member `d` is `d`.
fn items(d: Value) -> Value {
    json!({"type": "array", "maxItems": 2, "items": closed_d(d)})
}

/// The reviewed typed map of closed objects whose member `d` is `d`.
fn map(d: Value) -> Value {
    json!({"type": "object", "maxProperties": 4,
        "propertyNames": {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9._-]{0,63}$",
            "x-takoform-fieldPolicy": "portable-data-only-v1"},
        "additionalProperties": closed_d(d)})
}

/// An object discriminated by `k` with one branch (`k` = "a") whose member
/// `d` is `d`.
fn branch(d: Value) -> Value {
    json!({"type": "object", "additionalProperties": false, "x-takoform-discriminator": "k",
        "properties": {"k": {"type": "string"}, "d": {"type": "string"}},
        "oneOf": [{"type": "object", "additionalProperties": false, "required": ["k"],
            "properties": {"k": {"const": "a"}, "d": d}}]})
}

/// Issue 35 item 1: meaning is what hosts materialize. A default behind
/// `$ref` changed (OLD `m -> #/$defs/M` default "x", NEW 1.0.1 `m ->
/// #/$defs/M2` default "y") is equivalent with notes (`FD680`, never
/// silent), exit 0; moving a defaulted member into `$defs` or a one-branch
/// `allOf` is a change of meaning (`FD668`, breaking) whose witness is a
/// document valid under both with both materialized forms, each equal to
/// what `desired materialize` prints for that side, also for a default
/// reached through `items`, a typed map and a discriminated branch (near
/// miss: the unchanged pair has no record).
fn meaning_is_what_hosts_materialize() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    for (i, (name, om, od, nm, nd, changes)) in meaning_pairs().into_iter().enumerate() {
        let a = widget(
            tmp.path(),
            &format!("a{i}"),
            "1.0.0",
            om.clone(),
            od.clone(),
        );
        let b = widget(tmp.path(), &format!("b{i}"), "1.0.1", nm, nd);
        let (status, doc) = json_run(&["compat", s(&a), s(&b)]);
        let p = &doc["pairs"][0];
        let meaning = records(p, "FD668");
        if !changes {
            assert_eq!(status, 0, "{name}: {doc}");
            assert_eq!(p["requiredBump"], "patch", "{name}: {p}");
            assert!(meaning.is_empty(), "{name}: {p}");
            let notes = records(p, "FD680");
            assert_eq!(notes.len(), 2, "{name}: {p}");
            for n in notes {
                assert_eq!(n["class"], "documentation", "{name}");
                assert!(
                    n["message"].as_str().unwrap().contains("never inserts"),
                    "{n}"
                );
            }
            continue;
        }
        assert_eq!(status, 1, "{name}: {doc}");
        assert_eq!(p["requiredBump"], "major", "{name}: {p}");
        assert_eq!(meaning.len(), 1, "{name}: {p}");
        let r = meaning[0];
        let w = &r["witness"];
        assert!(valid_under(&a, w) && valid_under(&b, w), "{name}: {w}");
        // Both materialized forms, as `desired materialize` prints them.
        let file = tmp.path().join(format!("w{i}.json"));
        std::fs::write(&file, w.to_string()).unwrap();
        let message = r["message"].as_str().unwrap();
        for (dir, version, side) in [(&a, "1.0.0", "OLD"), (&b, "1.0.1", "NEW")] {
            let (code, out, err) = run(&[
                "desired",
                "materialize",
                s(dir),
                &format!("example.forms.takoform.com/Widget@{version}"),
                s(&file),
            ]);
            assert_eq!(code, 0, "{name}: {err}");
            let form = out.trim_end();
            assert!(
                message.contains(&format!("as {form} under {side}")),
                "{name}: {side} {form} not in {message}"
            );
        }
    }
    // Near miss: the same pair twice.
    let a = widget(
        tmp.path(),
        "same-a",
        "1.0.0",
        json!({"type": "string", "default": "x"}),
        json!({}),
    );
    let b = widget(
        tmp.path(),
        "same-b",
        "1.0.1",
        json!({"type": "string", "default": "x"}),
        json!({}),
    );
    let (status, doc) = json_run(&["compat", s(&a), s(&b)]);
    assert_eq!(status, 0, "{doc}");
    assert!(records(&doc["pairs"][0], "FD668").is_empty());
    assert!(records(&doc["pairs"][0], "FD680").is_empty());
    Ok(())
}

/// The snapshot oracle: beside `FORM_PACKAGE_CORPUS`, else
/// `../shared/oracle/snapshot-oracle`.
fn snapshot_oracle() -> Result<PathBuf, String> {
    let p = std::env::var_os("FORM_PACKAGE_CORPUS")
        .map(|c| PathBuf::from(c).join("../oracle/snapshot-oracle"))
        .unwrap_or_else(|| repo("../shared/oracle/snapshot-oracle"));
    if p.is_file() {
        Ok(p)
    } else {
        Err(format!("no snapshot oracle at {}", p.display()))
    }
}

/// Each witness of a change of meaning, materialized by the Core
/// (`snapshot-oracle materialize`) under OLD and under NEW: the two forms
/// the record prints, and they differ.
fn meaning_witnesses_agree_with_the_core(oracle: &Path) {
    let tmp = tempfile::tempdir().unwrap();
    let mut confirmed = 0;
    for (i, (name, om, od, nm, nd, changes)) in meaning_pairs().into_iter().enumerate() {
        if !changes {
            continue;
        }
        let a = widget(tmp.path(), &format!("a{i}"), "1.0.0", om, od);
        let b = widget(tmp.path(), &format!("b{i}"), "1.0.1", nm, nd);
        let (_, doc) = json_run(&["compat", s(&a), s(&b)]);
        let r = records(&doc["pairs"][0], "FD668")[0].clone();
        let file = tmp.path().join(format!("w{i}.json"));
        std::fs::write(&file, r["witness"].to_string()).unwrap();
        let mut forms = Vec::new();
        for (dir, version, side) in [(&a, "1.0.0", "OLD"), (&b, "1.0.1", "NEW")] {
            let o = std::process::Command::new(oracle)
                .arg("materialize")
                .arg(format!("dirs:{}", s(dir)))
                .arg(format!("example.forms.takoform.com/Widget@{version}"))
                .arg(&file)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(0), "{name}: {o:?}");
            let form = String::from_utf8(o.stdout).unwrap().trim_end().to_owned();
            assert!(
                r["message"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("as {form} under {side}")),
                "{name}: the Core materializes {form} under {side}: {r}"
            );
            forms.push(form);
        }
        assert_ne!(forms[0], forms[1], "{name}");
        confirmed += 1;
    }
    assert_eq!(confirmed, 6);
    // Breaker F12: the required `name` gains a default: the Core refuses
    // the witness under OLD (missing `name`) and materializes it under NEW
    // as the FD682 record says.
    let (a, b) = name_gains_default(tmp.path(), "req", "1.1.0");
    let (_, doc) = json_run(&["compat", s(&a), s(&b)]);
    let r = records(&doc["pairs"][0], "FD682")[0].clone();
    let file = tmp.path().join("w-req.json");
    std::fs::write(&file, r["witness"].to_string()).unwrap();
    let core = |dir: &Path, version: &str| {
        std::process::Command::new(oracle)
            .arg("materialize")
            .arg(format!("dirs:{}", s(dir)))
            .arg(format!("example.forms.takoform.com/Widget@{version}"))
            .arg(&file)
            .output()
            .unwrap()
    };
    let old = core(&a, "1.0.0");
    assert_eq!(old.status.code(), Some(1), "{old:?}");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&old.stdout),
        String::from_utf8_lossy(&old.stderr)
    );
    assert!(said.contains("missing property 'name'"), "{said}");
    let new = core(&b, "1.1.0");
    assert_eq!(new.status.code(), Some(0), "{new:?}");
    let form = String::from_utf8(new.stdout).unwrap().trim_end().to_owned();
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains(&format!("materializes as {form} under NEW")),
        "the Core materializes {form} under NEW: {r}"
    );
}

/// Relations are compared as `relations` derives them (decision 0015):
/// NEW adds under `$defs` a reference annotated with another Interface (an
/// annotation derivation never reaches): every derived relation kept, no
/// `FD669`, a patch fits. Near miss: the same retarget on the derived
/// reference (`properties.queue`) is `FD669`.
fn a_rewrite_keeping_every_derived_relation_is_equivalent() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let other = json!({"apiVersion": "interfaces.takoform.com/v1alpha1", "name": "edge.other",
        "schemaDigest": format!("sha256:{}", "a".repeat(64)), "version": "1.0.0"});
    let a = package(tmp.path(), "a", CONSUMER, |_| {});
    let o = other.clone();
    let b = package(tmp.path(), "b", CONSUMER, move |d| {
        let mut q = d["desiredSchema"]["properties"]["queue"].clone();
        q["x-takoform-required-interface"] = o;
        d["desiredSchema"]["$defs"] = json!({"unused": q});
        d["definitionVersion"] = json!("0.2.1");
    });
    let (status, doc) = json_run(&["compat", s(&a), s(&b)]);
    let p = &doc["pairs"][0];
    assert_eq!(status, 0, "{doc}");
    assert!(records(p, "FD669").is_empty(), "{p}");
    assert_eq!(p["requiredBump"], "patch", "{p}");
    let c = package(tmp.path(), "c", CONSUMER, move |d| {
        d["desiredSchema"]["properties"]["queue"]["x-takoform-required-interface"] = other;
        d["definitionVersion"] = json!("0.2.1");
    });
    let (status, doc) = json_run(&["compat", s(&a), s(&c)]);
    assert_eq!(status, 1, "{doc}");
    assert_eq!(records(&doc["pairs"][0], "FD669").len(), 1, "{doc}");
    Ok(())
}

/// Breaker2 G6: a default its own schema refuses, added on a required
/// member (`name`, `maxLength` 63, default of 100 characters; a required
/// object `o` whose required `a` has no default, `default: {}`): hosts
/// that materialize refuse every document that omits the member under
/// OLD (required) and under NEW (the inserted default is refused), so
/// nothing they store changes: documentation (`FD665`, a patch fits, exit
/// 0), no FD668, no witness. The Core agrees (`snapshot-oracle
/// materialize` refuses the document under both). Near misses: the same
/// refused default on an optional member is FD668 (OLD's hosts accept the
/// document, NEW's refuse it; the Core agrees), and a default the schema
/// accepts on the required member is FD682 (a minor).
fn a_default_no_host_can_insert_changes_nothing(oracle: &Path) {
    let tmp = tempfile::tempdir().unwrap();
    let core = |dir: &Path, version: &str, doc: &Value| {
        let file = tmp.path().join(format!("doc-{version}.json"));
        std::fs::write(&file, doc.to_string()).unwrap();
        let o = std::process::Command::new(oracle)
            .arg("materialize")
            .arg(format!("dirs:{}", s(dir)))
            .arg(format!("example.forms.takoform.com/Widget@{version}"))
            .arg(&file)
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        (o.status.code(), said)
    };
    let object = json!({"type": "object", "additionalProperties": false,
        "required": ["a"], "properties": {"a": {"type": "string"}}});
    // (member, edit, document, what the Core says under NEW).
    let cases: Vec<(&str, Edit, Value, &str)> = vec![
        (
            "name",
            Box::new(|d: &mut Value| {
                d["desiredSchema"]["properties"]["name"]["default"] = json!("x".repeat(100));
            }),
            json!({"o": {"a": "x"}}),
            "at '/name': maxLength",
        ),
        (
            "o",
            Box::new(|d: &mut Value| {
                d["desiredSchema"]["properties"]["o"]["default"] = json!({});
            }),
            json!({"name": "n"}),
            "at '/o': missing property 'a'",
        ),
    ];
    for (member, edit, doc, refused) in cases {
        let o = object.clone();
        let a = package(tmp.path(), &format!("{member}-a"), WIDGET, move |d| {
            d["definitionVersion"] = json!("1.0.0");
            d["desiredSchema"] = json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object", "additionalProperties": false, "required": ["name", "o"],
                "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 63}, "o": o}});
        });
        let old: Value =
            serde_json::from_slice(&std::fs::read(a.join("definition.json")).unwrap()).unwrap();
        let b = package(tmp.path(), &format!("{member}-b"), WIDGET, |d| {
            *d = old;
            d["definitionVersion"] = json!("1.0.1");
            edit(d);
        });
        // The positive fixture holds the required `o`.
        for dir in [&a, &b] {
            std::fs::write(
                dir.join("fixtures/desired.json"),
                json!({"name": "example", "o": {"a": "x"}}).to_string(),
            )
            .unwrap();
            crate::common::reindex(dir);
        }
        let (status, out) = json_run(&["compat", s(&a), s(&b)]);
        let p = &out["pairs"][0];
        assert_eq!(status, 0, "{member}: {p}");
        assert_eq!(p["requiredBump"], "patch", "{member}: {p}");
        assert!(records(p, "FD668").is_empty(), "{member}: {p}");
        let r = records(p, "FD665");
        assert_eq!(r.len(), 1, "{member}: {p}");
        assert!(r[0].get("witness").is_none_or(Value::is_null), "{p}");
        let message = r[0]["message"].as_str().unwrap();
        assert!(
            message.contains(
                "hosts that materialize refuse every document that omits it, under OLD (required, no default) and under NEW (its default is refused by its own schema at /"
            ) && message.ends_with("FD228): no change they can observe (documentation)"),
            "{message}"
        );
        let (code, said) = core(&a, "1.0.0", &doc);
        assert_eq!(code, Some(1), "{member}: OLD refuses: {said}");
        assert!(
            said.contains(&format!("missing property '{member}'")),
            "{said}"
        );
        let (code, said) = core(&b, "1.0.1", &doc);
        assert_eq!(code, Some(1), "{member}: NEW refuses: {said}");
        assert!(said.contains(refused), "{member}: {said}");
    }

    // Near miss: an optional member, the same refused default.
    let a = widget(
        tmp.path(),
        "opt-a",
        "1.0.0",
        json!({"type": "string", "maxLength": 3}),
        json!({}),
    );
    let b = widget(
        tmp.path(),
        "opt-b",
        "1.0.1",
        json!({"type": "string", "maxLength": 3, "default": "long"}),
        json!({}),
    );
    let (status, out) = json_run(&["compat", s(&a), s(&b)]);
    assert_eq!(status, 1, "{out}");
    assert_eq!(records(&out["pairs"][0], "FD668").len(), 1, "{out}");
    let doc = json!({"name": "n"});
    assert_eq!(core(&a, "1.0.0", &doc).0, Some(0), "OLD accepts");
    let (code, said) = core(&b, "1.0.1", &doc);
    assert_eq!(code, Some(1), "NEW refuses: {said}");
    assert!(said.contains("at '/m': maxLength"), "{said}");

    // Near miss: a default the schema accepts on the required member.
    let (a, b) = name_gains_default(tmp.path(), "ok", "1.0.1");
    let (status, out) = json_run(&["compat", s(&a), s(&b)]);
    assert_eq!(status, 1, "{out}");
    assert_eq!(records(&out["pairs"][0], "FD682").len(), 1, "{out}");
    assert!(records(&out["pairs"][0], "FD665").is_empty(), "{out}");
}

/// This file's trials, run by the binary's `main`.
pub fn trials() -> Vec<Trial> {
    vec![
        Trial::test("default_changes_are_breaking", default_changes_are_breaking),
        Trial::test("defaults_of_required_members", defaults_of_required_members),
        Trial::test(
            "relation_changes_are_breaking",
            relation_changes_are_breaking,
        ),
        Trial::test("relation_entrypoint_changes", relation_entrypoint_changes),
        Trial::test(
            "relation_added_and_unrelated_x_key",
            relation_added_and_unrelated_x_key,
        ),
        Trial::test("skipped_directories_are_said", skipped_directories_are_said),
        Trial::test("refused_side_and_help", refused_side_and_help),
        Trial::test(
            "meaning_is_what_hosts_materialize",
            meaning_is_what_hosts_materialize,
        ),
        Trial::test(
            "a_rewrite_keeping_every_derived_relation_is_equivalent",
            a_rewrite_keeping_every_derived_relation_is_equivalent,
        ),
        crate::common::needs_oracle(
            "a_default_no_host_can_insert_changes_nothing",
            snapshot_oracle(),
            |o| {
                Trial::test("a_default_no_host_can_insert_changes_nothing", move || {
                    a_default_no_host_can_insert_changes_nothing(&o);
                    Ok(())
                })
            },
        ),
        crate::common::needs_oracle(
            "meaning_witnesses_agree_with_the_core",
            snapshot_oracle(),
            |o| {
                Trial::test("meaning_witnesses_agree_with_the_core", move || {
                    meaning_witnesses_agree_with_the_core(&o);
                    Ok(())
                })
            },
        ),
    ]
}

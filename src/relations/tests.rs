//! Tests of relation derivation (`verifier-rules.md` §8, decision 0015).

use super::*;
use serde_json::json;

fn reference(api: &str, kind: &str) -> Value {
    json!({
        "type": "object", "additionalProperties": false,
        "required": ["apiVersion", "kind", "name"],
        "properties": {
            "apiVersion": {"type": "string", "const": api},
            "kind": {"type": "string", "const": kind},
            "name": {"type": "string"}
        },
        "x-takoform-required-interface": {"apiVersion": "interfaces.takoform.com/v1alpha1",
            "name": "edge.kv", "version": "1.0.0", "schemaDigest": "sha256:00"}
    })
}

fn def(desired_props: Value) -> Value {
    json!({
        "apiVersion": "edge.forms.takoform.com/v1beta1",
        "acceptedBindings": [{"name": "module-worker.edge-kv"}],
        "desiredSchema": {"type": "object", "additionalProperties": false,
                          "required": ["a"], "properties": desired_props}
    })
}

fn codes(d: &Derivation) -> Vec<(&'static str, String)> {
    d.diagnostics
        .iter()
        .map(|d| (d.code.info().id, d.pointer.as_str().to_owned()))
        .collect()
}

fn pointers(d: &Derivation) -> Vec<&str> {
    d.relations.iter().map(|r| r.pointer.as_str()).collect()
}

#[test]
fn clean_reference_is_a_silent_relation() {
    let d = derive(&def(json!({"a": reference("x.example", "X")})));
    assert_eq!(codes(&d), []);
    assert_eq!(pointers(&d), ["/a"]);
    let r = &d.relations[0];
    assert_eq!(
        (r.target_api_version.as_str(), r.target_kind.as_str()),
        ("x.example", "X")
    );
    assert!(r.required);
    assert_eq!(r.binding, "");
    assert!(r.required_interface.is_some() && r.target_form_refs.is_none());
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(
        json.as_object().unwrap().keys().collect::<Vec<_>>(),
        [
            "pointer",
            "targetApiVersion",
            "targetKind",
            "binding",
            "required",
            "requiredInterface"
        ]
    );
}

#[test]
fn fd500_reference_at_root() {
    let mut d = reference("x.example", "X");
    d = json!({"desiredSchema": d});
    let out = derive(&d);
    assert_eq!(codes(&out), [("FD500", "/desiredSchema".to_owned())]);
    assert!(out.relations.is_empty());
    // Near miss: the same reference one level down.
    assert_eq!(
        codes(&derive(&def(json!({"a": reference("x.example", "X")})))),
        []
    );
}

fn nest(depth: usize, leaf: Value) -> Value {
    let mut v = leaf;
    for _ in 0..depth {
        v = json!({"type": "object", "additionalProperties": false, "properties": {"n": v}});
    }
    v
}

#[test]
fn fd501_depth() {
    // Root is depth 0; the reference at depth 33 is beyond the limit.
    let d = derive(&json!({"desiredSchema": nest(33, reference("x.example", "X"))}));
    assert_eq!(d.diagnostics.len(), 1);
    assert_eq!(d.diagnostics[0].code, Code::RelationDepth);
    assert!(d.relations.is_empty());
    // Near miss: depth 32 is allowed.
    let d = derive(&json!({"desiredSchema": nest(32, reference("x.example", "X"))}));
    assert_eq!(codes(&d), []);
    assert_eq!(d.relations.len(), 1);
    assert_eq!(d.relations[0].pointer.matches("/n").count(), 32);
}

#[test]
fn fd502_missing_contract_and_fd508_history() {
    let mut r = reference("x.example", "X");
    r.as_object_mut()
        .unwrap()
        .remove("x-takoform-required-interface");
    let d = derive(&def(json!({"a": r.clone()})));
    assert_eq!(
        codes(&d),
        [("FD502", "/desiredSchema/properties/a".to_owned())]
    );
    assert_eq!(pointers(&d), ["/a"]);
    let mut old = def(json!({"a": r}));
    old["apiVersion"] = json!(EDGE_V1ALPHA1);
    let d = derive(&old);
    assert_eq!(
        codes(&d),
        [("FD508", "/desiredSchema/properties/a".to_owned())]
    );
    assert_eq!(d.diagnostics[0].severity, crate::diag::Severity::Note);
}

#[test]
fn fd503_both_contracts() {
    let mut r = reference("x.example", "X");
    r["x-takoform-target-formrefs"] = json!([{"apiVersion": "x.example", "kind": "X",
        "definitionVersion": "0.1.0", "schemaDigest": "sha256:00"}]);
    let d = derive(&def(json!({"a": r})));
    assert_eq!(
        codes(&d),
        [("FD503", "/desiredSchema/properties/a".to_owned())]
    );
}

#[test]
fn fd504_malformed_contracts() {
    let cases = [
        (
            "x-takoform-target-formrefs",
            json!([]),
            "/x-takoform-target-formrefs",
        ),
        (
            "x-takoform-target-formrefs",
            json!("nope"),
            "/x-takoform-target-formrefs",
        ),
        (
            "x-takoform-target-formrefs",
            json!([{"apiVersion": "x", "kind": "X", "definitionVersion": ""}]),
            "/x-takoform-target-formrefs/0",
        ),
        (
            "x-takoform-required-interface",
            json!(["x"]),
            "/x-takoform-required-interface",
        ),
        (
            "x-takoform-required-interface",
            json!({"apiVersion": "a", "name": "n", "version": "1"}),
            "/x-takoform-required-interface",
        ),
    ];
    for (key, value, at) in cases {
        let mut r = reference("x.example", "X");
        let o = r.as_object_mut().unwrap();
        o.remove("x-takoform-required-interface");
        o.insert(key.to_owned(), value.clone());
        let d = derive(&def(json!({"a": r})));
        assert_eq!(
            codes(&d),
            [("FD504", format!("/desiredSchema/properties/a{at}"))],
            "{value}"
        );
        assert_eq!(pointers(&d), ["/a"]);
        assert!(
            d.relations[0].target_form_refs.is_none()
                && d.relations[0].required_interface.is_none()
        );
    }
}

#[test]
fn fd505_binding_not_accepted() {
    let list = |binding: &str| {
        json!({"type": "array", "x-takoform-binding": binding, "items": {
        "type": "object", "additionalProperties": false, "required": ["resource"],
        "properties": {"resource": reference("x.example", "KV")}}})
    };
    let d = derive(&def(
        json!({"kv": list("module-worker.other"), "kv2": list("module-worker.other")}),
    ));
    assert_eq!(
        codes(&d),
        [
            (
                "FD505",
                "/desiredSchema/properties/kv/x-takoform-binding".to_owned()
            ),
            (
                "FD505",
                "/desiredSchema/properties/kv2/x-takoform-binding".to_owned()
            )
        ]
    );
    // Near miss: the accepted contract.
    let d = derive(&def(json!({"kv": list("module-worker.edge-kv")})));
    assert_eq!(codes(&d), []);
    assert_eq!(pointers(&d), ["/kv/*/resource"]);
    assert_eq!(d.relations[0].binding, "module-worker.edge-kv");
    assert!(!d.relations[0].required, "kv is not in required");
}

#[test]
fn binding_annotation_on_items_reference_is_ignored() {
    // QUIRK (§8.3): the items hop takes the binding from the ARRAY node.
    let mut r = reference("x.example", "X");
    r["x-takoform-binding"] = json!("module-worker.edge-kv");
    let d = derive(&def(json!({"l": {"type": "array", "items": r.clone()}})));
    assert_eq!(pointers(&d), ["/l/*"]);
    assert_eq!(d.relations[0].binding, "");
    // Near miss: on the properties path the node's own annotation counts.
    let d = derive(&def(json!({"p": r})));
    assert_eq!(d.relations[0].binding, "module-worker.edge-kv");
}

#[test]
fn fd506_non_const_identity() {
    let mut r = reference("x.example", "X");
    r["properties"]["kind"] = json!({"type": "string", "enum": ["X"]});
    let d = derive(&def(json!({"a": r})));
    assert_eq!(
        codes(&d),
        [(
            "FD506",
            "/desiredSchema/properties/a/properties/kind".to_owned()
        )]
    );
    assert!(d.diagnostics[0]
        .message
        .contains("no non-empty string const kind,"));
    assert!(d.relations.is_empty());
    // Both members without a const: both named, the first one pointed at.
    let mut r = reference("x.example", "X");
    r["properties"]["apiVersion"] = json!({"type": "string"});
    r["properties"]["kind"] = json!({"type": "string", "const": ""});
    let d = derive(&def(json!({"a": r})));
    assert_eq!(
        codes(&d),
        [(
            "FD506",
            "/desiredSchema/properties/a/properties/apiVersion".to_owned()
        )]
    );
    assert!(d.diagnostics[0]
        .message
        .contains("const apiVersion or kind,"));
    // Near miss: an object with four properties is not reference-shaped.
    let mut r = reference("x.example", "X");
    r["properties"]["kind"] = json!({"type": "string"});
    r["properties"]["extra"] = json!({"type": "string"});
    assert_eq!(codes(&derive(&def(json!({"a": r})))), []);
}

#[test]
fn fd507_hidden_references() {
    let r = reference("x.example", "X");
    let cases = [
        (
            json!({"$defs": {"R": r.clone()}, "properties": {"a": {"$ref": "#/$defs/R"}}}),
            "/desiredSchema/$defs/R",
            "$defs",
        ),
        (
            json!({"properties": {"a": {"allOf": [r.clone()]}}}),
            "/desiredSchema/properties/a/allOf/0",
            "allOf",
        ),
        (
            json!({"properties": {"a": {"anyOf": [r.clone()]}}}),
            "/desiredSchema/properties/a/anyOf/0",
            "anyOf",
        ),
        (
            json!({"properties": {"a": {"oneOf": [r.clone()]}}}),
            "/desiredSchema/properties/a/oneOf/0",
            "oneOf",
        ),
        (
            json!({"properties": {"m": {"type": "object", "additionalProperties": r.clone()}}}),
            "/desiredSchema/properties/m/additionalProperties",
            "additionalProperties",
        ),
        (
            json!({"properties": {"t": {"type": "array", "prefixItems": [r.clone()], "items": false}}}),
            "/desiredSchema/properties/t/prefixItems/0",
            "prefixItems",
        ),
    ];
    for (desired, at, kw) in cases {
        let d = derive(&json!({"desiredSchema": desired}));
        assert_eq!(codes(&d), [("FD507", at.to_owned())], "{kw}");
        assert!(
            d.diagnostics[0].message.contains(kw),
            "{}",
            d.diagnostics[0].message
        );
        assert!(d.relations.is_empty());
    }
    // Near miss: a versionless (current-profile) definition's walk follows
    // oneOf (current-profile.md §9), so a tagged-union branch hides nothing,
    // while allOf still does.
    let tagged = json!({"properties": {"a": {"oneOf": [r.clone()]}, "b": {"allOf": [r.clone()]}}});
    let d = derive(&json!({"apiVersion": "edge.forms.takoform.com", "desiredSchema": tagged}));
    assert_eq!(
        codes(&d),
        [("FD507", "/desiredSchema/properties/b/allOf/0".to_owned())]
    );
    // Near miss: the same reference under properties/items is derived, not hidden.
    let d = derive(&json!({"desiredSchema": {"properties": {"l": {"type": "array", "items": r}}}}));
    assert_eq!(codes(&d), []);
    assert_eq!(pointers(&d), ["/l/*"]);
}

#[test]
fn pointers_are_escaped_sorted_and_required_accumulates() {
    let r = reference("x.example", "X");
    let d = derive(
        &json!({"desiredSchema": {"type": "object", "required": ["o", "a/b"], "properties": {
            "z~": r.clone(), "a/b": r.clone(),
            "o": {"type": "object", "required": [], "properties": {"inner": r.clone()}}
        }}}),
    );
    assert_eq!(pointers(&d), ["/a~1b", "/o/inner", "/z~0"]);
    let req: Vec<bool> = d.relations.iter().map(|r| r.required).collect();
    assert_eq!(req, [true, false, false]);
}

#[test]
fn resolve_kv_binding_instance() {
    let d = derive(&def(
        json!({"kvBindings": {"type": "array", "x-takoform-binding": "module-worker.edge-kv",
        "items": {"type": "object", "properties": {"name": {"type": "string"}, "resource": reference("x", "y")}}}}),
    ));
    assert_eq!(pointers(&d), ["/kvBindings/*/resource"]);
    let desired = json!({"kvBindings": [{"name": "CACHE", "resource": {"apiVersion": "x", "kind": "y", "name": "cache"}}]});
    let inst = resolve(&d.relations, &desired);
    assert_eq!(
        inst,
        [Instance {
            relation: "/kvBindings/*/resource".into(),
            pointer: "/kvBindings/0/resource".into(),
            name: "cache".into()
        }]
    );
}

#[test]
fn resolve_fans_out_and_drops_mismatches() {
    let rel = |p: &str| Relation {
        pointer: p.into(),
        target_api_version: "a".into(),
        target_kind: "k".into(),
        binding: String::new(),
        required: false,
        target_form_refs: None,
        required_interface: None,
    };
    let rels = [rel("/l/*/r"), rel("/a~1b"), rel("/missing"), rel("/s")];
    let desired = json!({
        "l": [{"r": {"name": "one"}}, {"r": {"name": ""}}, {"x": 1}, {"r": {"name": "four"}}, 5, {"r": {"name": 3}}],
        "a/b": {"name": "slash"},
        "s": "not an object"
    });
    let got: Vec<(String, String)> = resolve(&rels, &desired)
        .into_iter()
        .map(|i| (i.pointer, i.name))
        .collect();
    assert_eq!(
        got,
        [
            ("/a~1b".into(), "slash".into()),
            ("/l/0/r".into(), "one".into()),
            ("/l/3/r".into(), "four".into())
        ]
    );
    // Type mismatch at a fan-out: nothing.
    assert!(resolve(&[rel("/l/*/r")], &json!({"l": {"r": {"name": "x"}}})).is_empty());
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn v1beta1_worker_version_relations() {
    let corpus = crate::testing::corpus_root();
    let path = corpus.join("packages/v1beta1/worker-version-0.1.0-54e6d25738e7/definition.json");
    let def: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let d = derive(&def);
    let got: Vec<(&str, &str)> = d
        .relations
        .iter()
        .map(|r| (r.pointer.as_str(), r.binding.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("/assets/bundle", ""),
            ("/bucketBindings/*/resource", "module-worker.object-bucket"),
            ("/bundle", ""),
            ("/kvBindings/*/resource", "module-worker.edge-kv"),
            (
                "/queueProducerBindings/*/resource",
                "module-worker.queue-producer"
            ),
            ("/serviceBindings/*/resource", "module-worker.service"),
            ("/sqliteBindings/*/resource", "module-worker.sqlite"),
            ("/worker", ""),
        ]
    );
    assert_eq!(
        codes(&d),
        [],
        "a published v1beta1 definition derives cleanly"
    );
    assert!(d
        .relations
        .iter()
        .all(|r| r.target_form_refs.is_some() != r.required_interface.is_some()));
    let bundle = &d.relations[2];
    assert_eq!(
        (bundle.target_kind.as_str(), bundle.required),
        ("WorkerBundle", true)
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn derive_never_panics_on_corpus_definitions() {
    let corpus = crate::testing::corpus_root();
    let mut n = 0;
    for entry in walkdir::WalkDir::new(&corpus)
        .into_iter()
        .filter_map(Result::ok)
    {
        if entry.file_name() != "definition.json" {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        let Ok(def) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let d = derive(&def);
        let _ = resolve(&d.relations, &json!({}));
        n += 1;
    }
    assert!(n > 500, "only {n} definitions found");
}

/// A reference whose target contract is the FormRef list `refs`.
fn reference_to(api: &str, kind: &str, refs: Value) -> Value {
    let mut r = reference(api, kind);
    let o = r.as_object_mut().unwrap();
    o.remove("x-takoform-required-interface");
    o.insert("x-takoform-target-formrefs".into(), refs);
    r
}

fn form_ref(api: &str, kind: &str) -> Value {
    json!({"apiVersion": api, "kind": kind, "definitionVersion": "0.2.0",
           "schemaDigest": "sha256:00"})
}

/// Issue 22 item 11: a `required` list with a non-string entry marks no
/// child required (the reference's helper reads it as empty).
#[test]
fn a_required_list_with_a_non_string_entry_marks_nothing_required() {
    let mut d = def(json!({"a": reference("x.example", "X")}));
    d["desiredSchema"]["required"] = json!(["a", 1]);
    let out = derive(&d);
    assert_eq!(pointers(&out), ["/a"]);
    assert!(!out.relations[0].required);
    // Near miss: the same list with strings only.
    d["desiredSchema"]["required"] = json!(["a", "b"]);
    assert!(derive(&d).relations[0].required);
    // Nested: an inner list with a null entry breaks only its own level.
    let inner = json!({"type": "object", "additionalProperties": false,
                       "required": ["r", null], "properties": {"r": reference("x.example", "X")}});
    let out = derive(&def(json!({"a": inner})));
    assert_eq!(pointers(&out), ["/a/r"]);
    assert!(!out.relations[0].required);
}

/// Issue 22 item 11: a target FormRef of another group or kind than the
/// reference's own consts is a warning at the member that differs; the
/// relation is still derived.
#[test]
fn fd509_target_formref_of_another_kind_or_group() {
    let refs = json!([
        form_ref("x.example", "X"),
        form_ref("x.example", "Y"),
        form_ref("y.example", "X")
    ]);
    let out = derive(&def(json!({"a": reference_to("x.example", "X", refs)})));
    assert_eq!(
        codes(&out),
        [
            (
                "FD509",
                "/desiredSchema/properties/a/x-takoform-target-formrefs/1/kind".to_owned()
            ),
            (
                "FD509",
                "/desiredSchema/properties/a/x-takoform-target-formrefs/2/apiVersion".to_owned()
            ),
        ]
    );
    assert_eq!(
        out.relations[0].target_form_refs.as_ref().map(Vec::len),
        Some(3)
    );
    // Near miss: every entry names the reference's own group and kind.
    let refs = json!([form_ref("x.example", "X")]);
    let out = derive(&def(json!({"a": reference_to("x.example", "X", refs)})));
    assert_eq!(codes(&out), []);
    assert_eq!(pointers(&out), ["/a"]);
}

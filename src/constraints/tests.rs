//! Tests of constraint semantics (`current-profile.md` §6.2, §13).

use super::*;
use serde_json::json;

fn reference() -> Value {
    json!({"type": "object", "additionalProperties": false, "required": ["apiVersion", "kind", "name"],
        "properties": {"apiVersion": {"type": "string", "const": "a.example"},
                       "kind": {"type": "string", "const": "K"}, "name": {"type": "string"}},
        "x-takoform-required-interface": {"apiVersion": "i", "name": "n", "version": "1.0.0", "schemaDigest": "sha256:00"}})
}

fn def(constraints: Value) -> Value {
    json!({
        "desiredSchema": {
            "type": "object", "additionalProperties": false,
            "required": ["min", "max", "spec", "list", "worker", "versions"],
            "properties": {
                "min": {"type": "integer"},
                "max": {"type": "number"},
                "opt": {"type": "integer"},
                "str": {"type": "string"},
                "multi": {"type": ["integer"]},
                "spec": {"type": "object", "required": ["inner"], "properties": {
                    "inner": {"type": "integer"}, "loose": {"type": "integer"}}},
                "list": {"type": "array", "items": {"type": "object", "required": ["id", "obj"],
                    "properties": {"id": {"type": "string"}, "obj": {"type": "object"}, "opt": {"type": "string"}}}},
                "strings": {"type": "array", "items": {"type": "string"}},
                "tuple": {"type": "object", "properties": {"x": {"type": "integer"}}},
                "worker": reference(),
                "other": reference(),
                "a/b": reference(),
                "versions": {"type": "array", "items": {"type": "object", "properties": {"v": reference()}}},
                "union": {"oneOf": [{"type": "object", "properties": {"q": reference()}}]},
                "viaRef": {"$ref": "#/$defs/R"}
            },
            "$defs": {"R": reference()}
        },
        "constraints": constraints
    })
}

fn run(c: Value) -> Vec<(&'static str, String, String)> {
    check(&def(json!([c])))
        .into_iter()
        .map(|d| (d.code.info().id, d.pointer.as_str().to_owned(), d.message))
        .collect()
}

#[test]
fn ordered_pair_ok() {
    assert_eq!(
        run(json!({"kind": "orderedPair", "references": ["/min", "/max"]})),
        []
    );
    assert_eq!(
        run(json!({"kind": "orderedPair", "references": ["/spec/inner", "/min"]})),
        []
    );
}

#[test]
fn ordered_pair_not_required() {
    for p in ["/opt", "/spec/loose"] {
        assert_eq!(
            run(json!({"kind": "orderedPair", "references": ["/min", p]})),
            [(
                "FD415",
                "/constraints/0/references/1".to_owned(),
                format!(
                    "constraints[0] orderedPair pointer {p} must name a required numeric schema"
                )
            )]
        );
    }
}

#[test]
fn ordered_pair_not_numeric() {
    for p in ["/spec", "/multi", "/str"] {
        let got = run(json!({"kind": "orderedPair", "references": [p, "/max"]}));
        assert_eq!(got.len(), 1, "{p}");
        assert_eq!(got[0].1, "/constraints/0/references/0");
        assert!(
            got[0].2.ends_with("must name a required numeric schema"),
            "{p}"
        );
    }
}

#[test]
fn walk_error_fragments() {
    let cases = [
        ("", "is not a non-root JSON Pointer"),
        ("min", "is not a non-root JSON Pointer"),
        ("/min/", "is not a non-root JSON Pointer"),
        ("/", "is not a non-root JSON Pointer"),
        ("/spec//inner", "contains an invalid property token \"\""),
        ("/list/*/id", "contains an invalid property token \"*\""),
        ("/min/x", "traverses a schema with no properties"),
        ("/nope", "does not name a declared property"),
        ("/viaRef/name", "traverses a schema with no properties"),
    ];
    for (p, frag) in cases {
        let got = run(json!({"kind": "orderedPair", "references": [p, "/max"]}));
        assert_eq!(got.len(), 1, "{p}");
        assert_eq!(
            got[0].2,
            format!("constraints[0] orderedPair pointer {p}: {frag}")
        );
    }
    // Escapes decode: "/a~1b" names member "a/b".
    assert!(walk(&def(json!([]))["desiredSchema"], "/a~1b").is_ok());
    assert!(walk(&def(json!([]))["desiredSchema"], "/a/b").is_err());
}

#[test]
fn unique_by_ok_and_optional_list() {
    assert_eq!(
        run(json!({"kind": "uniqueBy", "list": "/list", "member": "id"})),
        []
    );
    // The list itself need not be required.
    let mut d = def(json!([{"kind": "uniqueBy", "list": "/list", "member": "id"}]));
    d["desiredSchema"]["required"] = json!([]);
    assert_eq!(check(&d), []);
}

#[test]
fn unique_by_failures() {
    // (list, member, the member of the constraint at fault, message after
    // `constraints[0] uniqueBy `).
    let cases = [
        (
            "/nope",
            "id",
            "list",
            "list /nope: does not name a declared property",
        ),
        (
            "/spec",
            "id",
            "list",
            "list /spec must name an array schema",
        ),
        (
            "/strings",
            "id",
            "list",
            "list /strings must contain object schemas",
        ),
        (
            "/list",
            "opt",
            "member",
            "member opt must be required on /list items",
        ),
        (
            "/list",
            "missing",
            "member",
            "member missing must be required on /list items",
        ),
        (
            "/list",
            "obj",
            "member",
            "member obj on /list items must be scalar",
        ),
    ];
    for (list, member, at, msg) in cases {
        let c = json!({"kind": "uniqueBy", "list": list, "member": member});
        let want = (
            "FD416",
            format!("/constraints/0/{at}"),
            format!("constraints[0] uniqueBy {msg}"),
        );
        assert_eq!(run(c.clone()), [want], "{c}");
    }
}

#[test]
fn relation_pointer_set() {
    let d = def(json!([]));
    let r: Vec<String> = relation_pointers(&d["desiredSchema"]).into_iter().collect();
    assert_eq!(
        r,
        ["/a~1b", "/other", "/union/q", "/versions/*/v", "/worker"]
    );
}

#[test]
fn relation_kinds_ok() {
    for c in [
        json!({"kind": "acyclic", "reference": "/worker"}),
        json!({"kind": "distinctPair", "references": ["/worker", "/other"]}),
        json!({"kind": "uniquePair", "references": ["/a~1b", "/union/q"]}),
        json!({"kind": "sameResolvedTarget", "anchor": "/worker", "members": "/versions/*/v", "through": "/not/checked"}),
    ] {
        assert_eq!(run(c.clone()), [], "{c}");
    }
}

#[test]
fn relation_kinds_failures() {
    let msg = |i: usize, k: &str, p: &str| {
        format!("constraints[{i}] kind {k} names local pointer {p}, which desiredSchema does not declare as a relation")
    };
    // (constraint, the member at fault, its kind, the pointer it names).
    let cases = [
        (
            json!({"kind": "acyclic", "reference": "/min"}),
            "reference",
            "acyclic",
            "/min",
        ),
        (
            json!({"kind": "distinctPair", "references": ["/worker", "/viaRef"]}),
            "references/1",
            "distinctPair",
            "/viaRef",
        ),
        (
            json!({"kind": "uniquePair", "references": ["/a/b", "/other"]}),
            "references/0",
            "uniquePair",
            "/a/b",
        ),
        (
            json!({"kind": "sameResolvedTarget", "anchor": "/worker", "members": "/versions/0/v", "through": "/x"}),
            "members",
            "sameResolvedTarget",
            "/versions/0/v",
        ),
    ];
    for (c, at, kind, p) in cases {
        let want = ("FD417", format!("/constraints/0/{at}"), msg(0, kind, p));
        assert_eq!(run(c.clone()), [want], "{c}");
    }
    // Order and index across several constraints.
    let got = check(&def(json!([
        {"kind": "exclusive", "reference": "/nowhere"},
        {"kind": "acyclic", "reference": "/nowhere"}
    ])));
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].message, msg(1, "acyclic", "/nowhere"));
    assert!(got[0].notes[0]
        .starts_with("the reference verifier reports: Form Definition constraints[1]"));
}

#[test]
fn unchecked_kinds_and_absent_constraints() {
    for c in [
        json!({"kind": "exclusive", "reference": "/nowhere", "keyedBy": "/nope"}),
        json!({"kind": "sum", "list": "/nowhere", "member": "w", "total": 1}),
        json!({"kind": "claim", "property": "/nowhere"}),
        json!({"kind": "hostAssigned", "output": "/nowhere"}),
    ] {
        assert_eq!(run(c.clone()), [], "{c}");
    }
    assert_eq!(check(&json!({"desiredSchema": {}})), []);
}

#[test]
fn upstream_definition_cases() {
    // The failing cases whose failure is a constraint rule (the others fail
    // the definition schema, which is not this module's job).
    let semantic = [
        (
            "constraint: ordered pair with optional value",
            Code::ConstraintOrderedPair,
        ),
        (
            "constraint: unique list with absent member",
            Code::ConstraintUniqueBy,
        ),
        (
            "constraint: acyclic non-relation pointer",
            Code::ConstraintRelation,
        ),
        (
            "constraint: pair contains non-relation",
            Code::ConstraintRelation,
        ),
    ];
    let mut seen = 0;
    for case in crate::testing::definition_cases() {
        let name = case["name"].as_str().unwrap();
        let got = check(&case["definition"]);
        if case["expect"] == "ok" {
            assert_eq!(got, [], "{name}");
        } else if let Some((_, code)) = semantic.iter().find(|(n, _)| *n == name) {
            assert_eq!(
                got.iter().map(|d| d.code).collect::<Vec<_>>(),
                [*code],
                "{name}"
            );
            seen += 1;
        }
    }
    assert_eq!(seen, semantic.len());
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn current_mutants_constraint_semantics() {
    let cases =
        crate::testing::current_mutants(|m| m.case.starts_with("constraint-") && m.rule == "6.2");
    for (m, def) in &cases {
        let got: Vec<&str> = check(def).iter().map(|d| d.code.info().spec_code).collect();
        if m.expect == "ok" {
            assert_eq!(got, Vec::<&str>::new(), "{}", m.case);
        } else {
            assert!(
                !got.is_empty() && got.iter().all(|c| *c == m.code),
                "{}: {got:?}",
                m.case
            );
        }
    }
    assert_eq!(cases.len(), 11);
}

//! Tests of [`super::prove_inline_schema`]: the "Test cases worth
//! re-creating" 6–9 and 24–29 of `verifier-rules.md`, the worked examples of
//! §4.6/§4.7, one firing case and one near miss per emitted code, and the
//! corpus (real packages and single-fault mutants).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::work::{instance_work, SATURATED, WORK_LIMIT};
use super::*;
use crate::diag::{Severity, Target};

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

fn none(_: &NameQuery<'_>) -> Option<String> {
    None
}

fn prove_at(field: &str, schema: &Value) -> ProofReport {
    prove_inline_schema(&JsonPointer::from(field), schema, &none)
}

fn prove(schema: &Value) -> ProofReport {
    prove_at("/desiredSchema", schema)
}

/// (code, pointer) of every diagnostic, in report order.
fn found(r: &ProofReport) -> Vec<(Code, String)> {
    r.diagnostics
        .iter()
        .map(|d| (d.code, d.pointer.as_str().to_owned()))
        .collect()
}

fn one(code: Code, ptr: &str) -> Vec<(Code, String)> {
    vec![(code, ptr.to_owned())]
}

/// A desired root: closed object with these properties (and extras merged).
fn root_with(props: Value, extra: Value) -> Value {
    let mut root = json!({
        "$schema": DRAFT,
        "type": "object",
        "additionalProperties": false,
        "properties": props
    });
    if let (Value::Object(r), Value::Object(e)) = (&mut root, extra) {
        r.extend(e);
    }
    root
}

/// Root with one property `p` whose schema is `schema`.
fn with_p(schema: Value) -> Value {
    root_with(json!({ "p": schema }), json!({}))
}

fn assert_clean(r: &ProofReport) {
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
}

fn marker() -> Value {
    json!({"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9._-]{0,63}$",
           "x-takoform-fieldPolicy": "portable-data-only-v1"})
}

// ---------------------------------------------------------------- accepted

#[test]
fn case_6_shared_def_anyof_false_and_items() {
    let s = root_with(
        json!({
            "a": {"$ref": "#/$defs/ClosedConfig"},
            "b": {"$ref": "#/$defs/ClosedConfig"},
            "c": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "d": false,
            "e": {"type": "array", "items": {"type": "string"}}
        }),
        json!({"$defs": {"ClosedConfig": {"type": "object", "additionalProperties": false,
                                           "properties": {"x": {"type": "integer"}}}}}),
    );
    let r = prove(&s);
    assert_clean(&r);
    // root, ClosedConfig, x, a(+ref), b(+ref), c, c/anyOf 0..1, d, e, e/items
    assert_eq!(r.operations, 1 + 2 + 2 + 2 + 3 + 1 + 2);
    assert_eq!(r.height, 3); // root → a → $ref ClosedConfig → x
}

#[test]
fn case_7_typed_map() {
    let s = with_p(json!({"type": "object", "propertyNames": marker(),
                          "additionalProperties": {"type": "string"}}));
    assert_clean(&prove(&s));
}

#[test]
fn case_8_exact_object_const_is_data() {
    let lit = json!({"$schema": DRAFT, "$ref": "#/$defs/value", "type": "object",
                     "properties": {"password": {}}, "additionalProperties": true});
    let r = prove(&with_p(json!({ "const": lit })));
    assert_clean(&r);
    // root, p, then the literal: 1 + 5 members + properties/password
    assert_eq!(r.operations, 2 + 1 + 5 + 1);
    assert_eq!(r.height, 1 + 2);
}

fn doubling(levels: usize) -> Value {
    work::tests::doubling_root(levels)
}

#[test]
fn case_9_shared_dag_proves_linearly() {
    let r = prove(&doubling(10));
    assert_clean(&r);
    assert_eq!(r.structural_work, 6145);
    // root 1, Node0 + flag 2, Node1..10 each 1 + 2·(1 node + 1 ref) = 5,
    // config 1 + 1 ref, name 1.
    assert_eq!(r.operations, 56);
    assert!(r.operations < 100);
}

#[test]
fn refs_with_escaped_and_encoded_tokens_resolve() {
    let s = root_with(
        json!({
            "a": {"$ref": "#/$defs/m~1z"},
            "b": {"$ref": "#/$defs/a~0b"},
            "c": {"$ref": "#/$defs/e%20f"},
            "d": {"$ref": "#/%24defs/m~1z"},
            "e": {"$ref": "#/$defs/choice/anyOf/+0"}
        }),
        json!({"$defs": {"m/z": {"type": "string"}, "a~b": {"type": "integer"},
                         "e f": {"type": "boolean"},
                         "choice": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}),
    );
    let r = prove(&s);
    assert_clean(&r);
    // root, 4 defs + 2 anyOf branches, 5 props with 5 refs, `+0` is its own key (+1).
    assert_eq!(r.operations, 1 + 6 + 10 + 1);
}

// ---------------------------------------------------------------- rejected

#[test]
fn case_24_open_property_schemas() {
    let p = "/desiredSchema/properties/p";
    let cases: Vec<(Value, Code, String)> = vec![
        (json!(true), Code::TrueSchema, p.to_owned()),
        (json!({}), Code::OpenSchema, p.to_owned()),
        (
            json!({"not": {"type": "string"}}),
            Code::OpenSchema,
            p.to_owned(),
        ),
        (
            json!({"minProperties": 1}),
            Code::ImplicitObjectKeywords,
            p.to_owned(),
        ),
        (
            json!({"anyOf": [{"type": "string"}, {}]}),
            Code::OpenSchema,
            format!("{p}/anyOf/1"),
        ),
        (
            json!({"allOf": [{"type": "string"}, {}]}),
            Code::OpenSchema,
            format!("{p}/allOf/1"),
        ),
        (
            json!({"type": "array"}),
            Code::ArrayWithoutItems,
            p.to_owned(),
        ),
        (
            json!({"enum": ["a", {"a": 1}]}),
            Code::OpenSchema,
            p.to_owned(),
        ),
    ];
    for (schema, code, ptr) in cases {
        let r = prove(&with_p(schema.clone()));
        assert_eq!(found(&r), one(code, &ptr), "{schema}");
    }
    // Messages carry the reference gist.
    let r = prove(&with_p(json!({})));
    assert!(r.diagnostics[0]
        .message
        .contains("can admit arbitrary object values"));
    let r = prove(&with_p(json!(true)));
    assert!(r.diagnostics[0].message.contains("boolean true"));
    let r = prove(&with_p(json!({"type": "array"})));
    assert!(r.diagnostics[0].message.contains("must declare items"));
}

#[test]
fn case_24_near_misses() {
    for schema in [
        json!(false),
        json!({"type": "string"}),
        json!({"not": {"type": "string"}, "type": "integer"}),
        json!({"anyOf": [{"type": "string"}, false]}),
        json!({"allOf": [{"type": "string"}, {"type": "string", "minLength": 1}]}),
        json!({"enum": ["a", 1, null, [{"a": 1}]]}),
        json!({"const": "x"}),
        json!({"type": ["array", "null"], "items": false, "prefixItems": [{"type": "string"}]}),
        json!({"$comment": "x", "type": "number", "x-anything": {}, "additionalItems": true}),
    ] {
        assert_clean(&prove(&with_p(schema)));
    }
}

#[test]
fn open_reported_at_both_nodes() {
    let s = json!({"$schema": DRAFT, "type": "object",
                   "properties": {"spec": {"type": "object"}}});
    let r = prove(&s);
    assert_eq!(
        found(&r),
        vec![
            (Code::OpenObjectSchema, "/desiredSchema".to_owned()),
            (
                Code::OpenObjectSchema,
                "/desiredSchema/properties/spec".to_owned()
            ),
        ]
    );
    assert!(r.diagnostics[0]
        .message
        .contains("must set additionalProperties to false"));
    assert_eq!(
        r.diagnostics[0].help.as_deref(),
        Some("add \"additionalProperties\": false")
    );
    assert!(r.diagnostics[0].notes.iter().any(|n| n.contains(
        "desiredSchema object schema must set additionalProperties to false or a typed schema"
    )));
}

#[test]
fn case_25_object_closure_and_typed_map() {
    let open_true = json!({"$schema": DRAFT, "type": "object", "additionalProperties": true});
    assert_eq!(
        found(&prove(&open_true)),
        one(
            Code::OpenObjectSchema,
            "/desiredSchema/additionalProperties"
        )
    );
    let odd = json!({"$schema": DRAFT, "type": "object", "additionalProperties": 3});
    assert_eq!(
        found(&prove(&odd)),
        one(
            Code::OpenObjectSchema,
            "/desiredSchema/additionalProperties"
        )
    );
    let p = "/desiredSchema/properties/p";
    let no_names = with_p(json!({"type": "object", "additionalProperties": {"type": "string"}}));
    assert_eq!(found(&prove(&no_names)), one(Code::MapKeyPolicy, p));
    let mut no_marker = marker();
    no_marker
        .as_object_mut()
        .unwrap()
        .remove("x-takoform-fieldPolicy");
    let mut wild = marker();
    wild["pattern"] = json!(".*");
    let mut extra = marker();
    extra["minLength"] = json!(1);
    for pn in [no_marker, wild, extra, json!(true)] {
        let s = with_p(json!({"type": "object", "propertyNames": pn,
                              "additionalProperties": {"type": "string"}}));
        let r = prove(&s);
        assert_eq!(
            found(&r),
            one(Code::MapKeyPolicy, &format!("{p}/propertyNames")),
            "{pn}"
        );
        assert!(r.diagnostics[0].notes[0].contains("must be exactly type=string"));
    }
    let impure = with_p(json!({"type": "object", "propertyNames": marker(),
                               "properties": {"a": {"type": "string"}},
                               "additionalProperties": {"type": "string"}}));
    assert_eq!(found(&prove(&impure)), one(Code::ImpureTypedMap, p));
    let pattern = with_p(json!({"type": "object", "additionalProperties": false,
                                "patternProperties": {"^a": {"type": "string"}}}));
    assert_eq!(
        found(&prove(&pattern)),
        one(Code::PatternProperties, &format!("{p}/patternProperties"))
    );
    // Typed-map values are proven: `{}` is open, `true` is a true schema.
    let open_values = with_p(json!({"type": "object", "propertyNames": marker(),
                                    "additionalProperties": {}}));
    assert_eq!(
        found(&prove(&open_values)),
        one(Code::OpenSchema, &format!("{p}/additionalProperties"))
    );
    // Near misses: a closed object may carry propertyNames and required.
    let closed = with_p(json!({"type": "object", "additionalProperties": false,
                               "propertyNames": {"maxLength": 3, "type": "string"},
                               "required": ["a"], "properties": {"a": {"type": "string"}}}));
    assert_clean(&prove(&closed));
}

#[test]
fn case_26_ref_and_scope_faults() {
    let p = "/desiredSchema/properties/p";
    let cases: Vec<(Value, Code, String)> = vec![
        (
            json!({"$ref": "#named"}),
            Code::NonLocalRef,
            format!("{p}/$ref"),
        ),
        (
            json!({"type": "string", "$dynamicRef": "#x"}),
            Code::DynamicRef,
            format!("{p}/$dynamicRef"),
        ),
        (
            json!({"type": "string", "$id": "x"}),
            Code::ResolutionScopeKeyword,
            format!("{p}/$id"),
        ),
        (
            json!({"type": "string", "$anchor": "x"}),
            Code::ResolutionScopeKeyword,
            format!("{p}/$anchor"),
        ),
        (
            json!({"type": "object", "additionalProperties": false, "dependencies": {}}),
            Code::LegacyDependencies,
            format!("{p}/dependencies"),
        ),
        (
            json!({"$ref": "https://attacker.invalid/s.json"}),
            Code::NonLocalRef,
            format!("{p}/$ref"),
        ),
        (json!({"$ref": 7}), Code::NonLocalRef, format!("{p}/$ref")),
        (
            json!({"type": "string", "$schema": "http://json-schema.org/draft-07/schema#"}),
            Code::NestedDialect,
            format!("{p}/$schema"),
        ),
    ];
    for (schema, code, ptr) in cases {
        let r = prove(&with_p(schema.clone()));
        assert_eq!(found(&r), one(code, &ptr), "{schema}");
    }
    // Near miss: a nested $schema equal to 2020-12.
    assert_clean(&prove(&with_p(json!({"type": "string", "$schema": DRAFT}))));
    // The remote root $ref.
    let s = json!({"$schema": DRAFT, "$ref": "https://attacker.invalid/x.json"});
    assert_eq!(
        found(&prove(&s)),
        one(Code::NonLocalRef, "/desiredSchema/$ref")
    );
    // Loop.
    let s = root_with(
        json!({}),
        json!({"$defs": {"Loop": {"$ref": "#/$defs/Loop"}}}),
    );
    let r = prove(&s);
    assert_eq!(
        found(&r),
        one(Code::CyclicRef, "/desiredSchema/$defs/Loop/$ref")
    );
    assert_eq!(r.structural_work, 0);
}

#[test]
fn empty_and_root_refs_refused_without_crash() {
    let r = prove(&json!({"$ref": ""}));
    assert_eq!(found(&r), one(Code::NonLocalRef, "/desiredSchema/$ref"));
    let r = prove(&json!({"$ref": "#"}));
    assert_eq!(found(&r), one(Code::CyclicRef, "/desiredSchema/$ref"));
    let r = prove(&with_p(json!({"$ref": "#"})));
    assert_eq!(
        found(&r),
        one(Code::CyclicRef, "/desiredSchema/properties/p/$ref")
    );
    assert!(r.diagnostics[0]
        .notes
        .iter()
        .any(|n| n.contains("desiredSchema.properties.p.$ref(#) cyclic schema references")));
}

#[test]
fn ab_cycle_detected_once_with_hops() {
    let s = root_with(
        json!({"probe": {"$ref": "#/$defs/probeA"}}),
        json!({"$defs": {"probeA": {"$ref": "#/properties/probe"}}}),
    );
    let r = prove(&s);
    assert_eq!(
        found(&r),
        one(Code::CyclicRef, "/desiredSchema/properties/probe/$ref")
    );
    assert!(r.diagnostics[0].notes.iter().any(|n| n.contains(
        "desiredSchema.$defs.probeA.$ref(#/properties/probe).$ref(#/$defs/probeA) cyclic"
    )));
}

#[test]
fn unresolved_refs() {
    let p = "/desiredSchema/properties/p/$ref";
    let defs = json!({"$defs": {"x": {"type": "string"}}});
    for (r, gist) in [
        (
            "#/$defs/x%zz",
            "decode fragment: invalid URL escape \"%zz\"",
        ),
        (
            "#/$defs/missing",
            "fragment token \"missing\" does not exist",
        ),
        ("#/$defs/x~2", "invalid JSON Pointer escape"),
        ("#/$defs/x/type/deeper", "fragment traverses non-container"),
    ] {
        let s = root_with(json!({"p": {"$ref": r}}), defs.clone());
        let rep = prove(&s);
        assert_eq!(found(&rep), one(Code::UnresolvedRef, p), "{r}");
        assert!(
            rep.diagnostics[0].message.contains(gist),
            "{}",
            rep.diagnostics[0].message
        );
    }
    // A ref to a non-schema value is resolved and then refused as a node.
    let s = root_with(json!({"p": {"$ref": "#/$defs/x/type"}}), defs);
    assert_eq!(
        found(&prove(&s)),
        one(Code::NonSchemaValue, "/desiredSchema/$defs/x/type")
    );
}

#[test]
fn case_27_limits() {
    // Nested closed objects: the deepest at 64 edges proves, at 65 fails.
    fn chain(n: usize) -> Value {
        let mut s = json!({"type": "string"});
        for _ in 0..n {
            s = json!({"type": "object", "additionalProperties": false, "properties": {"next": s}});
        }
        s
    }
    let mut ok = chain(64);
    ok["$schema"] = json!(DRAFT);
    let r = prove(&ok);
    assert_clean(&r);
    assert_eq!(r.height, 64);
    let r = prove(&chain(65));
    let (code, ptr) = &found(&r)[0];
    assert_eq!(*code, Code::ProofDepthExceeded);
    assert_eq!(ptr.matches("/properties/next").count(), 65);
    assert_eq!(r.diagnostics.len(), 1);
    assert!(r.diagnostics[0]
        .notes
        .iter()
        .any(|n| n.contains("proof stopped")));

    // allOf of 2049 refs to one closed def: budget.
    let refs: Vec<Value> = (0..2049).map(|_| json!({"$ref": "#/$defs/c"})).collect();
    let s = root_with(
        json!({"p": {"allOf": refs}}),
        json!({"$defs": {"c": {"type": "object", "additionalProperties": false}}}),
    );
    let r = prove(&s);
    assert_eq!(found(&r)[0].0, Code::ProofBudgetExceeded);
    assert_eq!(r.operations, 4097);

    // Const literal with 4096 keys: budget inside the literal.
    let big: serde_json::Map<String, Value> =
        (0..4096).map(|i| (format!("k{i}"), json!(i))).collect();
    let r = prove(&with_p(json!({ "const": Value::Object(big) })));
    assert_eq!(found(&r).len(), 1);
    assert_eq!(found(&r)[0].0, Code::ProofBudgetExceeded);
    assert!(found(&r)[0]
        .1
        .starts_with("/desiredSchema/properties/p/const/k"));

    // Const literal nested 66 deep: depth inside the literal.
    let mut lit = json!(1);
    for _ in 0..66 {
        lit = json!({ "a": lit });
    }
    let r = prove(&with_p(json!({ "const": lit })));
    assert_eq!(found(&r)[0].0, Code::ProofDepthExceeded);

    // Literal 64 tall at depth 1 fails on d + h; 63 tall passes.
    let tall = |n: usize| {
        let mut lit = json!(1);
        for _ in 0..n {
            lit = json!({ "a": lit });
        }
        with_p(json!({ "const": lit }))
    };
    assert_eq!(
        found(&prove(&tall(64))),
        one(Code::ProofDepthExceeded, "/desiredSchema/properties/p")
    );
    let r = prove(&tall(63));
    assert_clean(&r);
    assert_eq!(r.height, 64);

    // Object const with a sibling.
    let s = with_p(json!({"const": {"value": "fixed"}, "description": "…"}));
    let r = prove(&s);
    assert_eq!(
        found(&r),
        one(Code::MixedObjectConst, "/desiredSchema/properties/p")
    );
    assert!(r.diagnostics[0].message.contains("single-key schema"));
}

#[test]
fn operation_budget_is_exact() {
    // Mirrors the corpus mutant: root + shared def + probe = 3, then 2 per branch.
    let build = |n: usize| {
        let refs: Vec<Value> = (0..n)
            .map(|_| json!({"$ref": "#/$defs/probeShared"}))
            .collect();
        root_with(
            json!({"probe": {"allOf": refs}}),
            json!({"$defs": {"probeShared": {"type": "string"}}}),
        )
    };
    let r = prove(&build(2046));
    assert_clean(&r);
    assert_eq!(r.operations, 3 + 2 * 2046);
    let r = prove(&build(2047));
    assert_eq!(
        found(&r),
        one(
            Code::ProofBudgetExceeded,
            "/desiredSchema/properties/probe/allOf/2046/$ref"
        )
    );
    assert!(r.diagnostics[0].notes.iter().any(|n| n.contains(
        "desiredSchema.properties.probe.allOf[2046].$ref portable schema closure proof exceeds combined node/ref operation budget 4096 while proving local reference"
    )));
}

#[test]
fn memo_reuse_checks_depth_plus_height() {
    // A def of height 63 is fine at depth 1 but not behind a ref at depth 2.
    let mut deep = json!({"type": "string"});
    for _ in 0..63 {
        deep = json!({"type": "object", "additionalProperties": false, "properties": {"n": deep}});
    }
    let direct = root_with(json!({}), json!({"$defs": {"d": deep.clone()}}));
    assert_clean(&prove(&direct));
    let via_ref = root_with(
        json!({"p": {"$ref": "#/$defs/d"}}),
        json!({"$defs": {"d": deep}}),
    );
    assert_eq!(
        found(&prove(&via_ref)),
        one(Code::ProofDepthExceeded, "/desiredSchema/properties/p/$ref")
    );
}

#[test]
fn case_28_work_limits() {
    let r = prove(&doubling(12));
    assert_eq!(
        found(&r),
        one(Code::StructuralWorkExceeded, "/desiredSchema")
    );
    assert_eq!(r.structural_work, SATURATED);
    assert!(r.diagnostics[0]
        .message
        .contains("worst-case fixture validation work exceeds 16384"));
    // Cardinality amplification proves and has small structural work, but
    // fixture-time work saturates (1 + 64·510 = 32641 unsaturated).
    let mut s = json!({"$schema": DRAFT, "type": "array",
                       "items": {"$ref": "#/$defs/Node7"}});
    s["$defs"] = work::tests::doubling_defs(json!({"type": "string"}), 7);
    let r = prove(&s);
    assert_clean(&r);
    assert_eq!(r.structural_work, 511);
    let fixture = Value::Array(vec![json!("x"); 64]);
    assert!(instance_work(&s, &fixture) > WORK_LIMIT);
    assert_eq!(instance_work(&s, &fixture), SATURATED);
}

#[test]
fn case_29_content_keywords() {
    for kw in ["contentEncoding", "contentMediaType", "contentSchema"] {
        let s = with_p(json!({"type": "string", kw: "base64"}));
        let r = prove(&s);
        let ptr = format!("/desiredSchema/properties/p/{kw}");
        assert_eq!(found(&r), one(Code::ContentKeyword, &ptr));
        assert!(r.diagnostics[0].message.contains(kw));
    }
    // Near miss: `format` and `contentX` lookalikes in an x- keyword.
    assert_clean(&prove(&with_p(json!({"type": "string", "format": "byte",
                                        "x-contentEncoding": "base64"}))));
}

#[test]
fn malformed_keywords() {
    let p = "/desiredSchema/properties/p";
    let cases: Vec<(Value, String)> = vec![
        (json!({"type": "string", "allOf": []}), format!("{p}/allOf")),
        (json!({"type": "string", "oneOf": {}}), format!("{p}/oneOf")),
        (
            json!({"type": "array", "items": false, "prefixItems": []}),
            format!("{p}/prefixItems"),
        ),
        (json!({"type": "string", "enum": []}), format!("{p}/enum")),
        (
            json!({"type": "object", "additionalProperties": false, "properties": []}),
            format!("{p}/properties"),
        ),
        (
            json!({"type": "object", "additionalProperties": false, "required": "a"}),
            format!("{p}/required"),
        ),
        (
            json!({"type": "object", "additionalProperties": false, "required": [1]}),
            format!("{p}/required/0"),
        ),
        (
            json!({"type": "object", "additionalProperties": false, "dependentRequired": []}),
            format!("{p}/dependentRequired"),
        ),
        (
            json!({"type": "object", "additionalProperties": false, "dependentRequired": {"a": "b"}}),
            format!("{p}/dependentRequired/a"),
        ),
        (json!({"type": "string", "$defs": []}), format!("{p}/$defs")),
        (
            json!({"type": "object", "additionalProperties": false, "dependentSchemas": 1}),
            format!("{p}/dependentSchemas"),
        ),
    ];
    for (schema, ptr) in cases {
        let r = prove(&with_p(schema.clone()));
        assert_eq!(
            found(&r),
            one(Code::MalformedSchemaKeyword, &ptr),
            "{schema}"
        );
    }
    let r = prove(&with_p(json!({"type": "string", "allOf": []})));
    assert!(r.diagnostics[0]
        .message
        .contains("allOf must be a non-empty array of schemas"));
}

#[test]
fn non_schema_values() {
    let r = prove(&with_p(json!(5)));
    assert_eq!(
        found(&r),
        one(Code::NonSchemaValue, "/desiredSchema/properties/p")
    );
    let r = prove(&with_p(json!({"type": "array", "items": "string"})));
    assert_eq!(
        found(&r),
        one(Code::NonSchemaValue, "/desiredSchema/properties/p/items")
    );
    // Near miss: boolean false items.
    assert_clean(&prove(&with_p(json!({"type": "array", "items": false}))));
}

#[test]
fn unused_defs_are_proven() {
    let s = root_with(
        json!({}),
        json!({"$defs": {"probeUnused": {}}, "definitions": {"b": true}}),
    );
    assert_eq!(
        found(&prove(&s)),
        vec![
            (
                Code::OpenSchema,
                "/desiredSchema/$defs/probeUnused".to_owned()
            ),
            (Code::TrueSchema, "/desiredSchema/definitions/b".to_owned()),
        ]
    );
}

#[test]
fn every_independent_violation_is_reported_sorted() {
    let s = json!({
        "$schema": DRAFT,
        "type": "object",
        "properties": {
            "z": {"$ref": "#/$defs/nope"},
            "a": {"type": "array"},
            "m": {"type": "string", "contentEncoding": "base64", "$anchor": "m"},
            "r": {"$ref": "https://x.invalid/s"}
        }
    });
    let r = prove(&s);
    assert_eq!(
        found(&r),
        vec![
            (Code::OpenObjectSchema, "/desiredSchema".to_owned()),
            (
                Code::ArrayWithoutItems,
                "/desiredSchema/properties/a".to_owned()
            ),
            (
                Code::ResolutionScopeKeyword,
                "/desiredSchema/properties/m/$anchor".to_owned()
            ),
            (
                Code::ContentKeyword,
                "/desiredSchema/properties/m/contentEncoding".to_owned()
            ),
            (
                Code::NonLocalRef,
                "/desiredSchema/properties/r/$ref".to_owned()
            ),
            (
                Code::UnresolvedRef,
                "/desiredSchema/properties/z/$ref".to_owned()
            ),
        ]
    );
    // Work is still estimated (no cycle, no budget stop).
    assert!(r.structural_work > 0);
}

#[test]
fn unsatisfiable_all_of_warning() {
    let a = json!({"type": "object", "additionalProperties": false,
                   "properties": {"x": {"type": "string"}}, "required": ["x"]});
    let b = json!({"type": "object", "additionalProperties": false,
                   "properties": {"y": {"type": "string"}}});
    let s = root_with(
        json!({"p": {"allOf": [a.clone(), {"$ref": "#/$defs/b"}]}}),
        json!({"$defs": {"b": b}}),
    );
    let r = prove(&s);
    assert_eq!(
        found(&r),
        one(
            Code::UnsatisfiableAllOf,
            "/desiredSchema/properties/p/allOf"
        )
    );
    assert_eq!(r.diagnostics[0].severity, Severity::Warning);
    assert!(!r.has_errors());
    // Near misses: the other branch declares x, or is not closed.
    let b2 = json!({"type": "object", "additionalProperties": false,
                    "properties": {"x": {"type": "string"}, "y": {"type": "string"}}});
    assert_clean(&prove(&with_p(json!({"allOf": [a.clone(), b2]}))));
    assert_clean(&prove(&with_p(
        json!({"allOf": [a, {"type": "object", "propertyNames": marker(),
                                                     "additionalProperties": {"type": "string"}}]}),
    )));
}

#[test]
fn forbidden_names_go_through_the_policy() {
    let seen = std::cell::RefCell::new(Vec::new());
    let policy = |q: &NameQuery<'_>| {
        seen.borrow_mut().push((
            q.name.to_owned(),
            q.site,
            q.in_desired,
            q.property_schema.cloned(),
        ));
        (q.name == "password").then(|| "credential".to_owned())
    };
    let s = with_p(json!({
        "type": "object", "additionalProperties": false,
        "properties": {"password": {"type": "string"}, "ok": {"type": "string"}},
        "required": ["ok", "password"],
        "dependentRequired": {"password": ["ok"], "ok": ["password"]}
    }));
    let r = prove_inline_schema(&JsonPointer::from("/desiredSchema"), &s, &policy);
    let p = "/desiredSchema/properties/p";
    assert_eq!(
        found(&r),
        vec![
            (
                Code::ForbiddenSchemaName,
                format!("{p}/dependentRequired/ok/0")
            ),
            (
                Code::ForbiddenSchemaName,
                format!("{p}/dependentRequired/password")
            ),
            (
                Code::ForbiddenSchemaName,
                format!("{p}/properties/password")
            ),
            (Code::ForbiddenSchemaName, format!("{p}/required/1")),
        ]
    );
    let targets: Vec<Target> = r.diagnostics.iter().map(|d| d.target).collect();
    assert_eq!(
        targets,
        vec![Target::Value, Target::Key, Target::Key, Target::Value]
    );
    assert!(r.diagnostics[2].notes.iter().any(|n| n == "credential"));
    let seen = seen.borrow();
    // Required gets the sibling property schema; in_desired is set.
    assert!(seen.iter().any(|(n, site, d, ps)| n == "password"
        && *site == NameSite::Required
        && *d
        && ps.as_ref() == Some(&json!({"type": "string"}))));
    assert!(seen
        .iter()
        .any(|(n, site, _, ps)| n == "p" && *site == NameSite::Property && ps.is_some()));
    // Near miss: outside desiredSchema in_desired is false, and nothing fires
    // for allowed names.
    let r = prove_inline_schema(
        &JsonPointer::from("/observedSchema"),
        &with_p(json!({"type": "string"})),
        &|q| {
            assert!(!q.in_desired);
            None
        },
    );
    assert_clean(&r);
}

#[test]
fn legacy_interface_field_label() {
    let s = json!({"$schema": DRAFT, "type": "object"});
    let r = prove_at("/interfaces/3/documentSchema", &s);
    assert_eq!(
        found(&r),
        one(Code::OpenObjectSchema, "/interfaces/3/documentSchema")
    );
    assert!(r.diagnostics[0]
        .notes
        .iter()
        .any(|n| n.starts_with("reference message: interfaces[3].documentSchema object schema")));
}

#[test]
fn near_misses_for_keyword_rules() {
    // Not `$dynamicRef`, not `dependencies`, object keywords with explicit type.
    let s = with_p(json!({
        "type": "object", "additionalProperties": false, "minProperties": 1,
        "properties": {"dynamicRef": {"type": "string"}, "dependencies": {"type": "string"}},
        "dependentRequired": {"dynamicRef": ["dependencies"]},
        "dependentSchemas": {"dynamicRef": {"type": "object", "additionalProperties": false}},
        "x-dynamicRef": "#x"
    }));
    assert_clean(&prove(&s));
    // An array `type` including "object" still needs closure.
    let s = with_p(json!({"type": ["object", "null"], "maxProperties": 2}));
    assert_eq!(
        found(&prove(&s)),
        one(Code::OpenObjectSchema, "/desiredSchema/properties/p")
    );
}

// ---------------------------------------------------------------- corpus

/// Proves every inline schema of one definition with the no-op policy.
fn prove_definition(def: &Value) -> Vec<ProofReport> {
    let mut out = Vec::new();
    for field in ["desiredSchema", "observedSchema", "outputSchema"] {
        if let Some(s) = def.get(field) {
            out.push(prove_at(&format!("/{field}"), s));
        }
    }
    if let Some(Value::Array(ifaces)) = def.get("interfaces") {
        for (i, iface) in ifaces.iter().enumerate() {
            if let Some(s) = iface.get("documentSchema") {
                out.push(prove_at(&format!("/interfaces/{i}/documentSchema"), s));
            }
        }
    }
    out
}

fn read_json(path: &Path) -> Value {
    use serde::Deserialize;
    let text = std::fs::read_to_string(path).unwrap();
    // Mutants nest deeper than serde_json's default limit of 128.
    let mut de = serde_json::Deserializer::from_str(&text);
    de.disable_recursion_limit();
    Value::deserialize(&mut de).unwrap()
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn corpus_packages_all_prove() {
    let root = crate::testing::corpus_root();
    let mut checked = 0;
    let mut failures = Vec::new();
    let (mut max_ops, mut max_h, mut max_w) = (0, 0, 0);
    for entry in walkdir::WalkDir::new(root.join("packages")).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_name() != "definition.json" {
            continue;
        }
        for r in prove_definition(&read_json(entry.path())) {
            checked += 1;
            max_ops = max_ops.max(r.operations);
            max_h = max_h.max(r.height);
            max_w = max_w.max(r.structural_work);
            for d in r.diagnostics.iter().filter(|d| d.is_error()) {
                failures.push(format!(
                    "{}: {} {} {}",
                    entry.path().display(),
                    d.code.info().id,
                    d.pointer,
                    d.message
                ));
            }
        }
    }
    assert!(checked > 300, "only {checked} schemas");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // current-profile.md §8 margins hold far from the limits.
    assert!(
        max_ops < 4096 && max_h <= 64 && max_w <= WORK_LIMIT,
        "{max_ops} {max_h} {max_w}"
    );
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn corpus_mutants_agree() {
    let root = crate::testing::corpus_root();
    let mut checked = 0;
    let mut problems = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("mutants"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    dirs.sort();
    for dir in dirs {
        let expected = read_json(&dir.join("expected.json"));
        let stage = expected["stage"].as_str().unwrap_or_default();
        if !(stage.starts_with('4') || stage.starts_with('5')) {
            continue;
        }
        let spec_code = expected["specCode"].as_str().unwrap_or_default();
        let verdict = expected["oracleVerdict"].as_str().unwrap_or_default();
        // Skipped: fixture-time instance work (checked by the fixture runner
        // with `work::instance_work`), and vocabulary findings that need the
        // real name policy.
        if spec_code == "FIXTURE_WORK" || spec_code == "PROOF_FORBIDDEN_NAME" {
            continue;
        }
        let def = read_json(&dir.join("package/definition.json"));
        let reports = prove_definition(&def);
        let errors: Vec<&Diagnostic> = reports
            .iter()
            .flat_map(|r| r.diagnostics.iter())
            .filter(|d| d.is_error())
            .collect();
        checked += 1;
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        match verdict {
            "fail" => {
                if !errors.iter().any(|d| d.code.info().spec_code == spec_code) {
                    problems.push(format!(
                        "{name}: want {spec_code}, got {:?}",
                        errors
                            .iter()
                            .map(|d| (d.code.info().spec_code, d.pointer.as_str()))
                            .collect::<Vec<_>>()
                    ));
                }
            }
            _ => {
                if !errors.is_empty() {
                    problems.push(format!(
                        "{name}: want no errors, got {:?}",
                        errors
                            .iter()
                            .map(|d| (d.code.info().spec_code, d.pointer.as_str()))
                            .collect::<Vec<_>>()
                    ));
                }
            }
        }
    }
    assert!(checked >= 40, "only {checked} mutants");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn corpus_limit_mutants_hit_the_limits_exactly() {
    let root = crate::testing::corpus_root();
    let desired = |m: &str| {
        let def = read_json(&root.join("mutants").join(m).join("package/definition.json"));
        prove_at("/desiredSchema", &def["desiredSchema"])
    };
    let r = desired("limit-ops-4096-ok--v1a2-queue");
    assert_clean(&r);
    assert_eq!(r.operations, 4096);
    let r = desired("limit-depth-64-ok--v1b1-object-bucket");
    assert_clean(&r);
    assert_eq!(r.height, 64);
    let r = desired("limit-const-literal-height-63-ok--v1b1-object-bucket");
    assert_clean(&r);
    assert_eq!(r.height, 64);
    let r = desired("limit-ops-4097--v1b1-object-bucket");
    assert_eq!(
        found(&r),
        one(
            Code::ProofBudgetExceeded,
            "/desiredSchema/properties/probe/allOf/2046/$ref"
        )
    );
    assert_eq!(r.operations, 4097);
}

/// The proof memo (issue 38) gives the report a fresh proof gives, once per
/// (field, schema as read): a second package's same schema is a hit; the
/// same schema at another field (its pointers are prefixed with the field)
/// and the same members in another order or with another number spelling
/// (the prover visits members in order, messages print numbers) are
/// entries of their own (near misses).
#[test]
fn the_memo_proves_a_schema_once_per_field_and_exact_value() {
    let memo = memo::Memo::new(memo::BUDGET);
    let open = json!({"$schema": DRAFT, "type": "object", "properties": {"a": {"type": "string"}, "b": {"maxItems": 1}}});
    let desired = JsonPointer::from("/desiredSchema");
    let output = JsonPointer::from("/outputSchema");
    let first = memo.prove(&desired, &open, &none);
    assert_eq!(*first, prove_at("/desiredSchema", &open));
    assert!(!first.diagnostics.is_empty());
    let again = memo.prove(&desired, &open.clone(), &none);
    assert!(std::sync::Arc::ptr_eq(&first, &again));
    assert_eq!(memo.len(), 1);
    let elsewhere = memo.prove(&output, &open, &none);
    assert_eq!(*elsewhere, prove_at("/outputSchema", &open));
    assert_ne!(*elsewhere, *first);
    let reordered = json!({"$schema": DRAFT, "type": "object", "properties": {"b": {"maxItems": 1}, "a": {"type": "string"}}});
    let spelled: Value = serde_json::from_str(
        &open
            .to_string()
            .replace("\"maxItems\":1", "\"maxItems\":1.0"),
    )
    .unwrap();
    assert_ne!(spelled, open);
    for other in [&reordered, &spelled] {
        assert_eq!(
            *memo.prove(&desired, other, &none),
            prove_at("/desiredSchema", other)
        );
    }
    assert_eq!(memo.len(), 4);
    assert!(memo.charged() > 0 && memo.charged() <= memo::BUDGET);
}

/// The proof memo is bounded by its budget in bytes, not by a count: a
/// stream of distinct schemas with many findings each (a language server
/// proving every edit) never holds more than [`memo::BUDGET`] charged
/// bytes; near miss: one such report alone is kept.
#[test]
fn the_memo_stays_within_its_budget() {
    let memo = memo::Memo::new(memo::BUDGET);
    let desired = JsonPointer::from("/desiredSchema");
    let many = |i: usize| {
        let props: serde_json::Map<String, Value> = (0..2000)
            .map(|j| (format!("p{i}_{j}"), json!({})))
            .collect();
        json!({"$schema": DRAFT, "type": "object", "properties": props, "additionalProperties": false})
    };
    let one = memo.prove(&desired, &many(0), &none);
    assert!(one.diagnostics.len() >= 2000, "{}", one.diagnostics.len());
    assert_eq!(memo.len(), 1);
    for i in 1..12 {
        memo.prove(&desired, &many(i), &none);
        assert!(memo.charged() <= memo::BUDGET, "{i}: {}", memo.charged());
    }
    assert!(memo.len() < 12, "{}", memo.len());
}

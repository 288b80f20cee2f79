//! Unit tests of the compiler's pure parts (the corpus and the oracle are
//! in `tests/hosts/`).

use super::*;

/// An empty set on the served lane compiles; its digest document has
/// `forms: []` and `null` for the three other lists (Go nil slices), and
/// its digest is the RFC 8785 sha256 of exactly that.
#[test]
fn an_empty_set_digests_with_go_nulls() {
    let s = compile(&Input {
        host_api: SERVED_LANE.into(),
        ..Input::default()
    })
    .unwrap();
    let doc = digest_document(&s);
    assert_eq!(
        doc,
        json!({"format": "takoform.compiled-snapshot@v1", "hostApi": "forms.takoform.com/v1",
               "forms": [], "interfaces": null, "bindings": null, "defaults": null})
    );
    let bytes = br#"{"bindings":null,"defaults":null,"format":"takoform.compiled-snapshot@v1","forms":[],"hostApi":"forms.takoform.com/v1","interfaces":null}"#;
    assert_eq!(s.digest, crate::canonical::sha256_digest(bytes));
}

/// Each lane rule fires alone; near miss: the served lane passes.
#[test]
fn the_lane_is_checked_in_three_steps() {
    let code = |lane: &str| {
        compile(&Input {
            host_api: lane.into(),
            ..Input::default()
        })
        .err()
        .map(|f| (f.len(), f[0].code, f[0].pointer.clone()))
    };
    assert_eq!(
        code("forms.takoform.com/latest"),
        Some((1, Code::HostApiNotALane, "/hostApi".into()))
    );
    assert_eq!(
        code("forms.takoform.com/v1gamma1"),
        Some((1, Code::HostApiNotALane, "/hostApi".into()))
    );
    assert_eq!(
        code("forms.takoform.com/v2"),
        Some((1, Code::HostApiLaneUnknown, "/hostApi".into()))
    );
    assert_eq!(
        code("forms.takoform.com/v1alpha9"),
        Some((1, Code::HostApiLaneUnknown, "/hostApi".into()))
    );
    assert_eq!(
        code("forms.takoform.com/v1beta1"),
        Some((1, Code::HostApiLaneNotServed, "/hostApi".into()))
    );
    assert_eq!(
        code("forms.takoform.com/v1beta4"),
        Some((1, Code::HostApiLaneNotServed, "/hostApi".into()))
    );
    assert_eq!(code("forms.takoform.com/v1"), None);
}

/// Form order is group, kind, then SemVer precedence (build metadata
/// ignored, as blang/semver does), then the version text, then the digest.
#[test]
fn forms_are_ordered_as_the_core_orders_them() {
    let r = |v: &str, d: &str| {
        FormKey(FormRef {
            api_version: "g".into(),
            kind: "K".into(),
            definition_version: v.into(),
            schema_digest: d.into(),
        })
    };
    assert!(r("0.9.0", "b") < r("0.10.0", "a"));
    assert!(r("1.0.0-alpha", "z") < r("1.0.0", "a"));
    // Equal precedence (build metadata): the version text decides.
    assert!(r("1.0.0+b", "a") > r("1.0.0+a", "z"));
    // Not SemVer: the text.
    assert!(r("10", "a") < r("9", "a"));
}

/// A reference decodes as Go's strict typed decoding: null is the zero
/// reference, names match ignoring case, an unknown member or a number
/// refuses it.
#[test]
fn references_decode_as_the_core_decodes_them() {
    assert_eq!(FormRef::decode(&Value::Null), Some(FormRef::default()));
    let r = FormRef::decode(&json!({"APIVERSION": "g", "kind": "K"})).unwrap();
    assert_eq!((r.api_version.as_str(), r.kind.as_str()), ("g", "K"));
    assert_eq!(FormRef::decode(&json!({"kind": "K", "x": 1})), None);
    assert_eq!(FormRef::decode(&json!({"kind": 1})), None);
    assert_eq!(FormRef::decode(&json!("K")), None);
}

/// Stage 6 on a synthetic Form (verify refuses any other requiresHostApi
/// than the served lane, so no package can reach it): an unknown required
/// lane fails; near miss, the served lane passes.
#[test]
fn an_unmet_host_api_requirement_stops_the_compile() {
    let form_ref = FormRef {
        api_version: "g".into(),
        kind: "K".into(),
        definition_version: "1.0.0".into(),
        schema_digest: "sha256:aa".into(),
    };
    let input = |required: &str| Input {
        host_api: SERVED_LANE.into(),
        packages: vec![PackageArtifact {
            origin: "p".into(),
            expected_digest: format!("sha256:{}", "1".repeat(64)),
            package_digest: format!("sha256:{}", "1".repeat(64)),
            form_ref: form_ref.clone(),
            definition: json!({"requiresHostApi": required, "desiredSchema": {}}),
        }],
        defaults: vec![DefaultPin {
            group: "g".into(),
            kind: "K".into(),
            form_ref: form_ref.clone(),
        }],
        ..Input::default()
    };
    let f = compile(&input("forms.takoform.com/v2")).unwrap_err();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].code, Code::HostApiRequirementUnmet);
    assert_eq!(f[0].pointer, "/requiresHostApi");
    assert_eq!(f[0].core_code(), "unsupported_host_api");
    assert!(compile(&input(SERVED_LANE)).is_ok());
}

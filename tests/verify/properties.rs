//! Property tests (project issue #7) with `proptest`, 256 cases each:
//!
//! * the strict reader (`json::strict::parse`) agrees with `serde_json` on
//!   every valid document it is given (generated values without `-0` or
//!   non-finite numbers, serialized compact and pretty);
//! * the strict reader never accepts what `serde_json` refuses, and what it
//!   accepts it reads as `serde_json` does (mutated documents);
//! * RFC 8785 canonical bytes do not depend on formatting or member order;
//! * canonicalization is a fixed point: `canon(parse(canon(x))) == canon(x)`;
//! * JSON Pointer escaping round-trips (`json::pointer`).

use form_package::canonical::canonicalize;
use form_package::json::pointer::{escape, unescape, JsonPointer};
use form_package::json::strict;
use proptest::prelude::*;
use serde_json::{Map, Number, Value};

/// A finite, non-negative-zero `f64` (the strict reader refuses `-0` and
/// non-finite numbers by design).
fn finite_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        (-1.0e6f64..1.0e6),
        Just(f64::MAX),
        Just(f64::MIN_POSITIVE),
        Just(5e-324),
        Just(0.1),
        Just(1e21),
        Just(1e-7),
    ]
    .prop_filter("finite, not -0", |f| {
        f.is_finite() && !(*f == 0.0 && f.is_sign_negative())
    })
}

fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        // `from_f64` only fails for non-finite values, filtered out above.
        finite_f64().prop_map(|f| Number::from_f64(f).unwrap()),
    ]
}

/// Strings mixing ASCII, controls, escapes-needing characters, astral
/// characters and arbitrary scalar values.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,8}",
        "[\\x00-\\x1f\"\\\\/~]{0,6}",
        any::<String>(),
        "[\u{1F600}-\u{1F64F}\u{E000}\u{FFFF}\u{10FFFF}]{0,4}",
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        text().prop_map(Value::String),
    ]
}

/// JSON values at most 6 levels deep (far below both the strict reader's
/// 256 and serde_json's 128 nesting limits).
fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..8)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A top-level container (RFC 8785 refuses top-level scalars, §2.1 J7).
fn document() -> impl Strategy<Value = Value> {
    prop_oneof![
        value().prop_map(|v| Value::Array(vec![v])),
        prop::collection::vec((text(), value()), 0..6)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        value().prop_filter("container", |v| v.is_object() || v.is_array()),
    ]
}

/// The same value with every object's members in reverse, then rotated,
/// order (`serde_json` keeps insertion order with `preserve_order`).
fn reorder(v: &Value, rotate: usize) -> Value {
    match v {
        Value::Array(a) => Value::Array(a.iter().map(|x| reorder(x, rotate)).collect()),
        Value::Object(m) => {
            let mut members: Vec<(String, Value)> = m
                .iter()
                .map(|(k, x)| (k.clone(), reorder(x, rotate)))
                .collect();
            members.reverse();
            if !members.is_empty() {
                let n = rotate % members.len();
                members.rotate_left(n);
            }
            Value::Object(members.into_iter().collect())
        }
        other => other.clone(),
    }
}

/// Structural equality that ignores member order (`Value`'s `==` with
/// `preserve_order` already does, but say so explicitly for the reader).
fn same(a: &Value, b: &Value) -> bool {
    a == b
}

/// Every number replaced by its binary64 value (RFC 8785 §3.2.2.3 prints
/// numbers as doubles, so `9007199254740993` canonicalizes as
/// `9007199254740992`).
fn as_doubles(v: &Value) -> Value {
    match v {
        Value::Number(n) => Value::from(n.as_f64().unwrap()),
        Value::Array(a) => Value::Array(a.iter().map(as_doubles).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, x)| (k.clone(), as_doubles(x))).collect())
        }
        other => other.clone(),
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        // 256 by default; `PROPTEST_CASES=N` runs a longer soak.
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(256),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn strict_reader_agrees_with_serde_json(v in value()) {
        for text in [
            serde_json::to_string(&v).unwrap(),
            serde_json::to_string_pretty(&v).unwrap(),
        ] {
            let ours = strict::parse(text.as_bytes())
                .unwrap_or_else(|e| panic!("refused {text:?}: {e}"));
            let theirs: Value = serde_json::from_str(&text).unwrap();
            prop_assert!(same(&ours.value, &theirs), "{text}");
            prop_assert!(same(&ours.value, &v), "{text}");
        }
    }

    #[test]
    fn strict_reader_never_accepts_more_than_serde_json(
        v in value(),
        at in any::<prop::sample::Index>(),
        insert in prop_oneof![
            Just(","), Just("}"), Just("]"), Just("\""), Just("-0"), Just("\\"),
            Just("\u{0}"), Just(" "), Just("1e999"), Just("{"), Just(":"),
        ],
        delete in any::<bool>(),
    ) {
        let mut text = serde_json::to_string(&v).unwrap();
        let mut cut = at.index(text.len() + 1);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        if delete && cut < text.len() {
            text.remove(cut);
        } else {
            text.insert_str(cut, insert);
        }
        if let Ok(ours) = strict::parse(text.as_bytes()) {
            let theirs: Result<Value, _> = serde_json::from_str(&text);
            prop_assert!(theirs.is_ok(), "strict accepted what serde_json refuses: {text:?}");
            prop_assert!(same(&ours.value, &theirs.unwrap()), "{text:?}");
        }
    }

    #[test]
    fn canonical_bytes_ignore_formatting_and_member_order(
        v in document(),
        rotate in 0usize..8,
    ) {
        let canon = canonicalize(&v).unwrap();
        for text in [
            serde_json::to_string(&v).unwrap(),
            serde_json::to_string_pretty(&v).unwrap(),
            serde_json::to_string_pretty(&reorder(&v, rotate)).unwrap(),
            serde_json::to_string(&reorder(&v, rotate + 1)).unwrap(),
        ] {
            let parsed = strict::parse(text.as_bytes()).unwrap().value;
            prop_assert_eq!(&canonicalize(&parsed).unwrap(), &canon, "{}", text);
        }
    }

    #[test]
    fn canonicalization_is_a_fixed_point(v in document()) {
        let once = canonicalize(&v).unwrap();
        let parsed = strict::parse(&once)
            .unwrap_or_else(|e| panic!("canonical bytes refused: {e}: {}", String::from_utf8_lossy(&once)));
        let twice = canonicalize(&parsed.value).unwrap();
        prop_assert_eq!(&twice, &once);
        // And it parses back to the same value, numbers compared as the
        // binary64 doubles RFC 8785 prints (an integer above 2^53 changes).
        prop_assert!(same(&as_doubles(&parsed.value), &as_doubles(&v)));
    }

    #[test]
    fn pointer_escaping_round_trips(tokens in prop::collection::vec(text(), 0..6)) {
        let mut p = JsonPointer::root();
        for t in &tokens {
            prop_assert_eq!(&unescape(&escape(t)), t);
            p.push(t);
        }
        prop_assert_eq!(&p.tokens(), &tokens);
        prop_assert_eq!(JsonPointer::parse(p.as_str()), Some(p.clone()));
        prop_assert_eq!(p.is_root(), tokens.is_empty());
        // The pointer resolves in a document built along its tokens.
        let mut doc = Value::from("leaf");
        for t in tokens.iter().rev() {
            let mut m = Map::new();
            m.insert(t.clone(), doc);
            doc = Value::Object(m);
        }
        prop_assert_eq!(p.resolve(&doc), Some(&Value::from("leaf")));
        if let Some(parent) = p.parent() {
            prop_assert_eq!(parent.tokens(), tokens[..tokens.len() - 1].to_vec());
        }
    }
}

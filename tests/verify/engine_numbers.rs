//! Numbers as the reference verifier decides them (issue 10, kind 1;
//! `verifier-rules.md` §12 E4; `src/engine/numbers.rs`).
//!
//! One table per root cause. Each row is a schema for the property `x`, a
//! fixture value for it, and the reference verifier's verdict, read off
//! `../shared/oracle/form-package-reference` on a package
//! `{"type":"object","additionalProperties":false,"properties":{"x": S}}`
//! with the fixture `{"x": V}` (true = verified). The rows run without the
//! oracle: the schema is read as a definition is (strict reader, then the
//! engine), the fixture as a fixture is (strict reader with number
//! literals).

use crate::common;

use form_package::engine::{self, numbers::Literals};
use form_package::json::strict;
use serde_json::Value;

/// The verdict of `schema` (JSON text) on `instance` (JSON text), checked
/// both through the fast path and the violation list.
fn verdict(schema: &str, instance: &str) -> bool {
    let mut s = strict::parse_value(schema.as_bytes()).expect("schema JSON");
    if let Value::Object(m) = &mut s {
        m.insert("$schema".into(), Value::from(engine::DRAFT_2020_12));
    }
    let compiled = engine::compile(&s).unwrap_or_else(|e| panic!("{schema}: {e:?}"));
    let (value, numbers) = strict::parse_value_with_numbers(instance.as_bytes()).expect("fixture");
    let literals = Literals::from(numbers);
    let fast = compiled.is_valid_with(&value, Some(&literals));
    let listed = compiled.violations_with(&value, Some(&literals), 100);
    assert_eq!(fast, listed.is_empty(), "{schema} / {instance}: {listed:?}");
    fast
}

fn check(table: &[(&str, &str, bool)]) {
    for (schema, instance, want) in table {
        // Wrapped in an array so that a scalar fixture is a document.
        let got = verdict(
            &format!(r#"{{"type":"array","prefixItems":[{schema}]}}"#),
            &format!("[{instance}]"),
        );
        assert_eq!(got, *want, "schema {schema} instance {instance}");
    }
}

/// Instance numbers are exact from their literal text (`json.Number` →
/// `big.Rat`), not rounded to binary64.
#[test]
fn instance_literal_is_exact() {
    check(&[
        (r#"{"type":"integer"}"#, "1.0", true),
        (r#"{"type":"integer"}"#, "1e2", true),
        (r#"{"type":"integer"}"#, "1.0000000000000001", false),
        (
            r#"{"type":"integer"}"#,
            "-9223372036854775809.1000000000000000055511151231257827e21",
            false,
        ),
        (r#"{"type":"integer"}"#, "1e-400", false),
        (
            r#"{"type":"number","maximum":1}"#,
            "1.00000000000000000000000001",
            false,
        ),
        (
            r#"{"type":"number","minimum":1}"#,
            "0.99999999999999999999999999",
            false,
        ),
        (
            r#"{"type":["number","string","boolean","null","array"],"enum":[null,9007199254740993]}"#,
            "9007199254740993.000",
            false,
        ),
        (
            r#"{"type":"number","const":9007199254740992}"#,
            "9007199254740992.0",
            true,
        ),
    ]);
}

/// Schema numbers are the shortest decimal text of their binary64 value
/// (the reference decodes the definition into float64).
#[test]
fn schema_number_is_shortest_binary64_text() {
    check(&[
        (
            r#"{"type":"number","maximum":9223372036854775807}"#,
            "9223372036854775809",
            true,
        ),
        (
            r#"{"type":"number","maximum":9223372036854775807}"#,
            "9223372036854776001",
            false,
        ),
        (
            r#"{"type":"number","exclusiveMaximum":36028797018963970}"#,
            "3.602879701896397e+16",
            false,
        ),
        (
            r#"{"type":"number","maximum":1.0000000000000000000000001}"#,
            "1.0000000000000000000000002",
            false,
        ),
        // A binary64 value exactly between two shortest texts (…099.2 and
        // …099.3) is printed with the even digit, as Go prints it.
        (
            r#"{"type":"number","const":9007199254740992.0e-1}"#,
            "9007199254740992.0e-1",
            true,
        ),
        (
            r#"{"type":"number","enum":[-3.0,9007199254740993e-1]}"#,
            "9007199254740993e-1",
            false,
        ),
    ]);
}

/// `multipleOf` divides exact rationals.
#[test]
fn multiple_of_is_exact() {
    check(&[
        (r#"{"type":"number","multipleOf":1e23}"#, "1e24", true),
        (r#"{"type":"integer","multipleOf":1e23}"#, "1e123", true),
        (r#"{"type":"number","multipleOf":0.1}"#, "0.3", true),
        (
            r#"{"type":"number","multipleOf":0.1}"#,
            "0.30000000000000004",
            false,
        ),
        (r#"{"type":"number","multipleOf":0.01}"#, "19.99", true),
        (r#"{"type":"number","multipleOf":0.01}"#, "0.075", false),
    ]);
}

/// Count keywords become a Go `int` (low 64 bits), so they wrap at 2^63.
#[test]
fn count_keywords_wrap_like_go_int() {
    check(&[
        (
            r#"{"type":"string","minLength":9223372036854775808}"#,
            r#""""#,
            true,
        ),
        (
            r#"{"type":"string","maxLength":9223372036854775808}"#,
            r#""""#,
            false,
        ),
        (r#"{"type":"string","maxLength":1e19}"#, r#""""#, false),
        (
            r#"{"type":"string","maxLength":18446744073709551615}"#,
            r#""""#,
            true,
        ),
        (
            r#"{"type":"string","minLength":18446744073709551616}"#,
            r#""""#,
            false,
        ),
        (
            r#"{"type":"string","maxLength":36893488147419103232}"#,
            r#""a""#,
            false,
        ),
        (r#"{"type":"string","maxLength":1e300}"#, r#""a""#, false),
        (
            r#"{"type":"string","maxLength":1.8446744073709552e19}"#,
            r#""aaa""#,
            true,
        ),
        (
            r#"{"type":"array","minItems":9223372036854775808}"#,
            "[1]",
            true,
        ),
        (
            r#"{"type":"array","maxItems":9223372036854775808}"#,
            "[]",
            false,
        ),
        (
            r#"{"type":"array","contains":{"type":"string"},"minContains":9223372036854775808}"#,
            "[1]",
            true,
        ),
        (
            r#"{"type":"array","contains":{"type":"number"},"maxContains":9223372036854775808}"#,
            "[]",
            false,
        ),
        (
            r#"{"type":"array","items":{"type":"integer"},"contains":{"type":"integer","minimum":1},"maxContains":9223372036854775808}"#,
            "[1]",
            false,
        ),
        (
            r#"{"type":"array","contains":{"type":"string"},"minContains":0}"#,
            "[1]",
            true,
        ),
    ]);
}

/// A number equals a string that `big.Rat.SetString` reads as the same
/// rational, with the instance (or the later array item) on the left.
#[test]
fn number_equals_numeric_string_one_way() {
    let ns = r#""type":["number","string","array"]"#;
    let c = |v: &str| format!(r#"{{{ns},"const":{v}}}"#);
    let e = |v: &str| format!(r#"{{{ns},"enum":{v}}}"#);
    let u = format!(r#"{{{ns},"items":{{{ns}}},"uniqueItems":true}}"#);
    let mut table: Vec<(String, &str, bool)> = Vec::new();
    for (text, equal) in [
        (r#""0x10""#, true),
        (r#""0X10""#, true),
        (r#""1_6""#, true),
        (r#""0x_10""#, true),
        (r#""0_16""#, true),
        (r#""0x1p4""#, true),
        (r#""0x1.0p4""#, true),
        (r#""32/2""#, true),
        (r#""020/1""#, true),
        (r#""0x10/0x1""#, true),
        (r#""+16""#, true),
        (r#""16.""#, true),
        (r#"".16e2""#, true),
        (r#""1.6e0_1""#, true),
        (r#""0b10000""#, true),
        (r#""0o20""#, true),
        (r#"" 16""#, false),
        (r#""16/+1""#, false),
        (r#""1_6_""#, false),
        (r#""1__6""#, false),
        (r#""1_.6e1""#, false),
        (r#""1.6_e1""#, false),
        (r#""16e""#, false),
        (r#""020""#, false),
        (r#""0x10e0""#, false),
    ] {
        table.push((c(text), "16", equal));
    }
    table.extend([
        (c("16"), r#""0x10""#, false),
        (e(r#"["0x10"]"#), "16", false),
        (e(r#"["0x10",1]"#), "16", true),
        (e(r#"[1,"0x10"]"#), "16", true),
        (c(r#"["0x10"]"#), "[16]", true),
        (c("[16]"), r#"["0x10"]"#, false),
        (u.clone(), r#"["1",1]"#, false),
        (u.clone(), r#"[1,"1"]"#, true),
        (u.clone(), r#"[[1],["1"]]"#, true),
        (u.clone(), r#"[["1"],[1]]"#, false),
        (u.clone(), "[1, 1.0]", false),
        (
            u.clone(),
            r#"["1",2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,1]"#,
            false,
        ),
        // More than 20 items: a type-tagged hash, numbers never meet strings.
        (
            u.clone(),
            r#"["1",2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,1]"#,
            true,
        ),
        (
            u.clone(),
            "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,1.0]",
            false,
        ),
        (
            u.clone(),
            "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,-1]",
            true,
        ),
    ]);
    for (schema, instance, want) in &table {
        check(&[(schema.as_str(), instance, *want)]);
    }
}

/// Literals `big.Rat.SetString` refuses (exponent past ±1,000,000 or past
/// 64 bits) equal nothing and are not integers.
#[test]
fn go_unreadable_literal() {
    let u = r#"{"type":"array","items":{"type":"number"},"uniqueItems":true}"#;
    check(&[
        (r#"{"type":"number"}"#, "1e-1000001", true),
        (r#"{"type":"integer"}"#, "1e-1000001", false),
        (
            r#"{"type":"number","const":0}"#,
            "0e-99999999999999999999",
            false,
        ),
        (u, "[1e-1000001,1e-1000001]", true),
    ]);
    // The reference crashes (exit 2) on a bound over such a number; we
    // refuse it rather than pass it.
    check(&[(r#"{"type":"number","minimum":0}"#, "1e-1000001", false)]);
}

/// The engine corpus cases of the number-decided families verify exactly
/// as `expected.json` says (the reference's verdicts).
#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn engine_corpus_number_cases() {
    let root = common::corpus_root();
    let mut seen = 0;
    for e in std::fs::read_dir(root.join("engine")).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if !["number--", "sizes--", "array--", "constenum--"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            continue;
        }
        let expected: Value =
            serde_json::from_slice(&std::fs::read(e.path().join("expected.json")).unwrap())
                .unwrap();
        let outcome = form_package::verify::verify_package(&e.path().join("package"));
        let got = if outcome.has_errors() { "fail" } else { "ok" };
        assert_eq!(got, expected["expect"], "{name}");
        seen += 1;
    }
    assert!(seen >= 8, "{seen} number cases");
}

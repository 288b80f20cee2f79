//! RFC 8785 (JCS) canonical bytes and SHA-256 digests.
//!
//! Implements `verifier-rules.md` §2.1 J7, §2.2 (C1–C4) and §2.3 (D1–D5).
//! The writer is our own (issue 23 decision 1), over the strict reader's
//! own tree (the `serde_json::Value` of [`crate::json::strict::parse`]):
//! members sorted by UTF-16 code units (RFC 8785 §3.2.3), minimal string
//! escapes (§3.2.2.2), ECMAScript number printing (§3.2.2.3). Every number
//! — integers included — is converted to binary64 before printing, so
//! `9223372036854775807` canonicalises as `9223372036854776000`, which is
//! what the published `schemaDigest`s were computed from (§2.2 C3).
//!
//! Why hand-rolled: RFC 8785 is what this project exists for, and the
//! `serde_json_canonicalizer` crate, on a whole value, buffers every member,
//! parses each member name back from JSON to sort it and copies nested
//! objects once per level (≈ 11 % of the corpus run's instructions). The
//! crate stays a dev-dependency as the oracle: `tests/golden/speed.rs` compares
//! both byte for byte on every corpus file, the RFC 8785 vectors and
//! generated documents, and checks the ES6 number test file's published
//! SHA-256.
//!
//! Typical use: `sha256_digest(&canonicalize(&strict::parse(bytes)?.value)?)`.

use sha2::{Digest, Sha256};

use crate::codes::Code;
use crate::diag::Diagnostic;

/// The RFC 8785 canonical bytes of `value` (§2.2).
///
/// Errors: a top-level scalar (number, string, boolean, null) is refused with
/// [`Code::ScalarTopLevel`] (§2.1 J7; the reference says
/// `RFC 8785 canonicalization: Expected '{' but got …`). The value should come
/// from [`crate::json::strict::parse`], which already refused non-finite
/// numbers and negative zero; a serializer failure (cannot happen for a
/// `serde_json::Value`) is reported as [`Code::InvalidIJson`].
// The signature is the agreed API (`Diagnostic` errors); it is called a few
// times per package, so the large `Err` variant costs nothing measurable.
#[allow(clippy::result_large_err)]
pub fn canonicalize(value: &serde_json::Value) -> Result<Vec<u8>, Diagnostic> {
    let kind = match value {
        serde_json::Value::Object(_) | serde_json::Value::Array(_) => None,
        serde_json::Value::Null => Some("null"),
        serde_json::Value::Bool(_) => Some("a boolean"),
        serde_json::Value::Number(_) => Some("a number"),
        serde_json::Value::String(_) => Some("a string"),
    };
    if let Some(kind) = kind {
        return Err(Diagnostic::new(
            Code::ScalarTopLevel,
            format!("RFC 8785 canonicalization: expected an object or array at the top level, got {kind}"),
        )
        .note("the reference verifier reports `RFC 8785 canonicalization: Expected '{' but got …`"));
    }
    let mut out = Vec::with_capacity(256);
    write_value(value, &mut out);
    Ok(out)
}

/// The RFC 8785 bytes of `value`, any kind (a scalar too: [`canonicalize`]
/// refuses those, as the reference does).
pub fn canonical_any(value: &serde_json::Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    write_value(value, &mut out);
    out
}

/// Appends the RFC 8785 form of `value` to `out`. A `Value` holds only
/// finite numbers, unique names and valid UTF-8, so this cannot fail.
fn write_value(value: &serde_json::Value, out: &mut Vec<u8>) {
    use serde_json::Value;
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(item, out);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            // Whether any name needs the UTF-16 comparison is asked once per
            // object, not at every comparison of the sort.
            if members.iter().any(|(name, _)| astral(name)) {
                members.sort_unstable_by(|a, b| utf16_order(a.0, b.0));
            } else {
                members.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            }
            out.push(b'{');
            for (i, (name, member)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(name, out);
                out.push(b':');
                write_value(member, out);
            }
            out.push(b'}');
        }
    }
}

/// Whether `a` and `b` have the same RFC 8785 bytes ([`canonical_any`]'s,
/// any kind at the top level), decided without writing them: members
/// compared as sets of names, numbers by their binary64 value (the bytes of
/// a number are a function of it: `write_number`), strings and the rest
/// as they are. `compat` asks it of two 2 MB schemas (issue 35 item 4).
/// Iterative: no recursion on the nesting.
pub fn same_canonical(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (a, b) {
            (Value::Null, Value::Null) => {}
            (Value::Bool(x), Value::Bool(y)) if x == y => {}
            (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => {}
            (Value::String(x), Value::String(y)) if x == y => {}
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                stack.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for (name, v) in x {
                    let Some(w) = y.get(name) else {
                        return false;
                    };
                    stack.push((v, w));
                }
            }
            _ => return false,
        }
    }
    true
}

/// RFC 8785 §3.2.3 member order: by UTF-16 code units. Names without a
/// character above U+FFFF (no UTF-8 lead byte ≥ 0xF0) compare as their
/// UTF-8 bytes do (code point order equals UTF-16 order below U+10000);
/// otherwise by code units, where a surrogate (0xD800–0xDFFF) sorts below
/// U+E000–U+FFFF.
fn utf16_order(a: &str, b: &str) -> std::cmp::Ordering {
    if astral(a) || astral(b) {
        a.encode_utf16().cmp(b.encode_utf16())
    } else {
        a.as_bytes().cmp(b.as_bytes())
    }
}

/// True when `s` holds a character above U+FFFF (a UTF-8 lead byte ≥ 0xF0).
fn astral(s: &str) -> bool {
    s.bytes().any(|c| c >= 0xF0)
}

/// RFC 8785 §3.2.2.2: `"` and `\` escaped, U+0000–U+001F as `\b \t \n
/// \f \r` or `\u00xx` (lowercase hex); everything else (U+007F, U+2028,
/// supplementary characters) as its UTF-8 bytes.
fn write_string(s: &str, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let mut rest = s.as_bytes();
    // Runs that need no escape are copied whole (most strings are one run),
    // then the byte that ended the run is escaped.
    loop {
        let run = crate::json::plain_run(rest);
        out.extend_from_slice(rest.get(..run).unwrap_or_default());
        let Some((&b, tail)) = rest.get(run..).and_then(<[u8]>::split_first) else {
            break;
        };
        let short: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x09 => b"\\t",
            0x0A => b"\\n",
            0x0C => b"\\f",
            0x0D => b"\\r",
            _ => b"",
        };
        if short.is_empty() {
            out.extend_from_slice(b"\\u00");
            for nibble in [b >> 4, b & 0x0f] {
                out.push(HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'));
            }
        } else {
            out.extend_from_slice(short);
        }
        rest = tail;
    }
    out.push(b'"');
}

/// RFC 8785 §3.2.2.3: the number as binary64, printed as ECMAScript's
/// `Number.prototype.toString` does. Integers of at most 53 bits are exact
/// in binary64 and print as their digits; every other number goes through
/// [`write_f64`].
fn write_number(n: &serde_json::Number, out: &mut Vec<u8>) {
    const EXACT: u64 = 1 << 53;
    use std::io::Write as _;
    // Writing into a `Vec` cannot fail.
    if let Some(u) = n.as_u64().filter(|u| *u <= EXACT) {
        let _ = write!(out, "{u}");
    } else if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= EXACT) {
        let _ = write!(out, "{i}");
    } else {
        // Integers convert as `as f64` does (round to nearest, as the
        // reference's float64 decoding); a `Value` holds no NaN/infinity.
        write_f64(n.as_f64().unwrap_or(0.0), out);
    }
}

/// ECMAScript `Number::toString(x)` for a finite `x` (ECMA-262
/// §6.1.6.1.20, as RFC 8785 §3.2.3 requires): the shortest digits that
/// read back as `x`, the closest to `x` among those and the even one on a
/// tie (`1424953923781206.25` → `1424953923781206.2`), laid out as
/// ECMAScript does (`1e+21`, `0.000001`, `1e-7`). The digits and layout are
/// `ryu-js`'s (Rust's `{:e}` rounds such ties up, so it is not used);
/// `tests/golden/speed.rs` checks the result against the RFC 8785 ES6 number test
/// file's published SHA-256s. Zero of either sign is `0`; a non-finite
/// input (never from a `Value`) prints `null`, as `JSON.stringify` does.
pub(crate) fn write_f64(x: f64, out: &mut Vec<u8>) {
    if x.is_finite() {
        let mut buf = ryu_js::Buffer::new();
        out.extend_from_slice(buf.format_finite(x).as_bytes());
    } else {
        out.extend_from_slice(b"null");
    }
}

/// Whether [`canonicalize`] would succeed on `value`, without producing the
/// bytes: `Ok` for an object or array, the same [`Code::ScalarTopLevel`]
/// error otherwise (§2.1 J7, §2.2). For a parsed `serde_json::Value` the
/// serializer cannot fail below the top level (numbers are finite, member
/// names unique, strings valid UTF-8), so the top-level kind decides.
// Same error type as `canonicalize`, whose error it returns.
#[allow(clippy::result_large_err)]
pub fn check(value: &serde_json::Value) -> Result<(), Diagnostic> {
    match value {
        serde_json::Value::Object(_) | serde_json::Value::Array(_) => Ok(()),
        _ => canonicalize(value).map(|_| ()),
    }
}

/// `"sha256:"` + 64 lowercase hex digits of the SHA-256 of `bytes` (§2.3 D2;
/// applied to canonical bytes it gives the schema and package digests of
/// D3/D4).
pub fn sha256_digest(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let sum = Sha256::digest(bytes);
    let mut out = String::with_capacity(71);
    out.push_str("sha256:");
    for b in sum {
        for nibble in [b >> 4, b & 0x0f] {
            out.push(char::from(
                HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'),
            ));
        }
    }
    out
}

/// True when `s` is a well-formed digest text (§2.3 D1): exactly 71 bytes,
/// the prefix `sha256:`, then only `0-9a-f`.
pub fn is_canonical_digest(s: &str) -> bool {
    s.len() == 71
        && s.starts_with("sha256:")
        && s.as_bytes()
            .iter()
            .skip(7)
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::strict::parse;

    /// Strings are written as the RFC 8785 crate writes them, with every
    /// character that needs an escape at every place of a string (the
    /// plain fast path and the escaping path; issue 38).
    #[test]
    fn strings_are_written_as_the_crate_writes_them() {
        let specials = [
            '"', '\\', '\u{0}', '\u{8}', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1f}',
        ];
        // Near misses: the first bytes that need no escape.
        let plain = [' ', '\u{7f}', 'é', '\u{2028}', '😀'];
        for len in 0..40 {
            for (i, c) in specials.iter().chain(plain.iter()).enumerate() {
                let at = (i * 7) % (len + 1);
                let mut text: String = "abcdefgh".chars().cycle().take(len).collect();
                text.insert(at, *c);
                let value = serde_json::Value::String(text);
                let mut ours = Vec::new();
                write_value(&value, &mut ours);
                let theirs = serde_json_canonicalizer::to_vec(&value).unwrap();
                assert_eq!(ours, theirs, "{value}");
            }
        }
    }

    proptest::proptest! {
        /// `same_canonical` answers as comparing the canonical bytes does
        /// (the oracle), on pairs of generated values and on a value against
        /// itself respelled (`1` as `1.0`, members reordered). Near miss:
        /// one number or one name changed is another document.
        #[test]
        fn same_canonical_is_equal_canonical_bytes(
            a in json_value(),
            b in json_value(),
        ) {
            let bytes = |v: &serde_json::Value| canonical_any(v);
            proptest::prop_assert_eq!(same_canonical(&a, &b), bytes(&a) == bytes(&b));
            let re = respelled(&a);
            proptest::prop_assert!(same_canonical(&a, &re));
            proptest::prop_assert_eq!(bytes(&a), bytes(&re));
        }
    }

    /// Values of every kind, numbers among them integral floats, large
    /// integers and fractions; names from a small set so that objects meet.
    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        use serde_json::Value;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (0u64..4).prop_map(Value::from),
            prop_oneof![
                Just(0.5f64),
                Just(1.0),
                Just(3.0),
                Just(9_007_199_254_740_993.0)
            ]
            .prop_map(Value::from),
            Just(Value::from(9_007_199_254_740_993u64)),
            "[ab]{0,2}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                proptest::collection::vec(("[ab]", inner), 0..3)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// `v` written otherwise: integers as floats, members in reverse order.
    fn respelled(v: &serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match v {
            Value::Number(n) if n.as_u64().is_some_and(|u| u < 1 << 53) => {
                Value::from(n.as_f64().unwrap_or_default())
            }
            Value::Array(items) => Value::Array(items.iter().map(respelled).collect()),
            Value::Object(m) => Value::Object(
                m.iter()
                    .rev()
                    .map(|(k, x)| (k.clone(), respelled(x)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    fn canon(text: &str) -> String {
        let v = parse(text.as_bytes()).unwrap().value;
        String::from_utf8(canonicalize(&v).unwrap()).unwrap()
    }

    const VECTORS: [(&str, &[u8], &[u8]); 6] = [
        (
            "arrays",
            include_bytes!("../fixtures/rfc8785/input/arrays.json"),
            include_bytes!("../fixtures/rfc8785/output/arrays.json"),
        ),
        (
            "french",
            include_bytes!("../fixtures/rfc8785/input/french.json"),
            include_bytes!("../fixtures/rfc8785/output/french.json"),
        ),
        (
            "structures",
            include_bytes!("../fixtures/rfc8785/input/structures.json"),
            include_bytes!("../fixtures/rfc8785/output/structures.json"),
        ),
        (
            "unicode",
            include_bytes!("../fixtures/rfc8785/input/unicode.json"),
            include_bytes!("../fixtures/rfc8785/output/unicode.json"),
        ),
        (
            "values",
            include_bytes!("../fixtures/rfc8785/input/values.json"),
            include_bytes!("../fixtures/rfc8785/output/values.json"),
        ),
        (
            "weird",
            include_bytes!("../fixtures/rfc8785/input/weird.json"),
            include_bytes!("../fixtures/rfc8785/output/weird.json"),
        ),
    ];

    #[test]
    fn check_agrees_with_canonicalize() {
        for text in [
            "{}",
            "[]",
            r#"{"a":[1,2.5,"x"]}"#,
            "1",
            "\"s\"",
            "null",
            "true",
        ] {
            let v = parse(text.as_bytes()).unwrap().value;
            let full = canonicalize(&v).map(|_| ()).map_err(|d| d.code);
            assert_eq!(check(&v).map_err(|d| d.code), full, "{text}");
        }
        assert_eq!(
            check(&serde_json::json!(3)).unwrap_err().code,
            Code::ScalarTopLevel
        );
    }

    #[test]
    fn rfc8785_fixture_vectors_are_byte_exact() {
        for (name, input, output) in VECTORS {
            let v = parse(input).unwrap_or_else(|e| panic!("{name}: {e}")).value;
            let got = canonicalize(&v).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(output),
                "vector {name}"
            );
            assert_eq!(got, output, "vector {name}");
        }
    }

    #[test]
    fn members_sort_by_utf16_code_units() {
        // By code point U+FB33 < U+1F600, but in UTF-16 U+1F600 is
        // 0xD83D 0xDE00 and 0xD83D < 0xFB33, so the emoji member comes first.
        let v = parse(br#"{"\ufb33":1,"\ud83d\ude00":2}"#).unwrap().value;
        let got = canonicalize(&v).unwrap();
        let hex: String = got.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, "7b22f09f9880223a322c22efacb3223a317d");
        // Near miss: without an astral name in the object, U+FB33 sorts
        // by code point, after U+E000 and before U+FFFD, as the crate says.
        let v = parse(br#"{"\ufffd":1,"\ufb33":2,"\ue000":3,"a":4}"#)
            .unwrap()
            .value;
        assert_eq!(
            canonicalize(&v).unwrap(),
            serde_json_canonicalizer::to_vec(&v).unwrap()
        );
        assert_eq!(
            String::from_utf8(canonicalize(&v).unwrap()).unwrap(),
            "{\"a\":4,\"\u{e000}\":3,\"\u{fb33}\":2,\"\u{fffd}\":1}"
        );
    }

    #[test]
    fn numbers_follow_ecmascript() {
        assert_eq!(
            canon("[1e-6,2.9514790517935283e20,1e21,9.999999999999997e22]"),
            "[0.000001,295147905179352830000,1e+21,9.999999999999997e+22]"
        );
        assert_eq!(canon("[1424953923781206.25]"), "[1424953923781206.2]");
        assert_eq!(
            canon(r#"{"d":0.000001,"c":1e-7,"b":1e30,"a":"\u20ac"}"#),
            r#"{"a":"€","b":1e+30,"c":1e-7,"d":0.000001}"#
        );
        assert_eq!(canon("[1e-400, 1E+2, 10000, 1e4]"), "[0,100,10000,10000]");
        assert_eq!(canon("[-1, -0.5, 0]"), "[-1,-0.5,0]");
    }

    #[test]
    fn negative_zero_never_reaches_the_canonicaliser() {
        let e = parse(b"[1e-6,2.9514790517935283e20,-0.0,1e21]").unwrap_err();
        assert!(
            e.detail.contains("negative zero \"-0.0\" is forbidden"),
            "{}",
            e.detail
        );
    }

    #[test]
    fn big_integers_are_printed_as_doubles() {
        assert_eq!(
            canon(r#"{"max":9223372036854775807,"u":18446744073709551615,"s":9007199254740993}"#),
            r#"{"max":9223372036854776000,"s":9007199254740992,"u":18446744073709552000}"#
        );
        assert_eq!(
            canon("[-9223372036854775808, 123456789012345678901234567890]"),
            "[-9223372036854776000,1.2345678901234568e+29]"
        );
    }

    #[test]
    fn strings_use_minimal_escapes() {
        assert_eq!(
            canon("[\"\\u0000\\u001f\\b\\f\\n\\r\\t\\\"\\\\\\/\u{7f}\\u2028\"]"),
            "[\"\\u0000\\u001f\\b\\f\\n\\r\\t\\\"\\\\/\u{7f}\u{2028}\"]"
        );
        assert_eq!(canon("[true,false,null]"), "[true,false,null]");
    }

    #[test]
    fn whitespace_style_does_not_matter() {
        let pretty = "{\n  \"b\": 1.0,\n  \"a\": \"x\"\n}\n";
        let compact = r#"{"b":1.0,"a":"x"}"#;
        assert_eq!(canon(pretty), canon(compact));
        assert_eq!(canon(compact), r#"{"a":"x","b":1}"#);
    }

    #[test]
    fn top_level_scalars_are_refused() {
        for text in ["5", "\"x\"", "true", "null"] {
            let v = parse(text.as_bytes()).unwrap().value;
            let d = canonicalize(&v).unwrap_err();
            assert_eq!(d.code, Code::ScalarTopLevel, "{text}");
            assert!(
                d.message
                    .starts_with("RFC 8785 canonicalization: expected an object or array"),
                "{}",
                d.message
            );
        }
        // Near misses: empty containers are fine.
        assert_eq!(canon("[]"), "[]");
        assert_eq!(canon(" {} "), "{}");
    }

    #[test]
    fn digests_have_the_canonical_shape() {
        assert_eq!(
            sha256_digest(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let good = sha256_digest(b"x");
        assert!(is_canonical_digest(&good));
        assert!(!is_canonical_digest(&good.to_uppercase()));
        assert!(!is_canonical_digest(&good.replace("sha256:", "SHA256:")));
        assert!(!is_canonical_digest(&good[..70]));
        assert!(!is_canonical_digest(&format!("{good}0")));
        assert!(!is_canonical_digest(&good.replace("sha256:", "sha512:")));
        let mut upper_hex = good.clone();
        upper_hex.replace_range(7..8, "A");
        assert!(!is_canonical_digest(&upper_hex));
        let mut g = good.clone();
        g.replace_range(70..71, "g");
        assert!(!is_canonical_digest(&g));
        assert!(!is_canonical_digest(""));
        // multi-byte char keeping byte length 71 is still refused
        let mut m = good[..69].to_owned();
        m.push('é');
        assert_eq!(m.len(), 71);
        assert!(!is_canonical_digest(&m));
    }
}

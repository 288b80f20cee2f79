//! Tests of the strict I-JSON reader ([`super`]), in a file of their own
//! (issue 34: no production file over 1,500 lines).

use super::*;
use crate::codes::Code;
use serde_json::json;

fn err(text: &[u8]) -> ParseError {
    match parse(text) {
        Ok(p) => panic!(
            "accepted {:?}: {:?}",
            String::from_utf8_lossy(text),
            p.value
        ),
        Err(e) => e,
    }
}

fn syntax(text: &str, fragment: &str) -> ParseError {
    let e = err(text.as_bytes());
    assert_eq!(e.kind, ParseErrorKind::Syntax, "{text}: {}", e.detail);
    assert!(
        e.detail.contains(fragment),
        "{text}: detail {:?} lacks {fragment:?}",
        e.detail
    );
    e
}

/// [`syntax`] over each (text, fragment).
fn syntax_all(cases: &[(&str, &str)]) {
    for (text, fragment) in cases {
        syntax(text, fragment);
    }
}

/// [`syntax`], and the error's span is `span`.
fn syntax_at(text: &str, fragment: &str, span: std::ops::Range<usize>) {
    assert_eq!(syntax(text, fragment).span, span, "{text}");
}

/// [`syntax_at`] over each (text, fragment, span).
fn syntax_all_at(cases: &[(&str, &str, std::ops::Range<usize>)]) {
    for (text, fragment, span) in cases {
        syntax_at(text, fragment, span.clone());
    }
}

fn ok(text: &str) -> serde_json::Value {
    parse(text.as_bytes())
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .value
}

fn ptr(s: &str) -> JsonPointer {
    JsonPointer::parse(s).unwrap()
}

#[test]
fn duplicate_names_point_at_the_second_name() {
    let src = br#"{"qty":1,"qty":-1}"#;
    let e = err(src);
    assert_eq!(e.detail, r#"duplicate object name "qty""#);
    assert_eq!(e.span, 9..14);
    assert_eq!(line_col(src, e.span.start), (1, 10));
    assert_eq!(e.pointer, JsonPointer::root());
    let d = e.to_diagnostic();
    assert_eq!(d.code, Code::InvalidIJson);
    assert_eq!(d.message, e.detail);
    assert_eq!(d.span, Some(9..14));
    // Compared after unescaping.
    let e = syntax(r#"{"a":1,"\u0061":2}"#, r#"duplicate object name "a""#);
    assert_eq!(e.span, 7..15);
    // Nested: pointer is the object holding the duplicate.
    let e = syntax(r#"{"x":[{"k":1,"k":2}]}"#, r#"duplicate object name "k""#);
    assert_eq!(e.pointer.as_str(), "/x/0");
    // Near misses: same name in different objects, names differing only
    // by escaping of `/` vs a nested key.
    assert_eq!(
        ok(r#"{"a":{"a":1},"b":{"a":2}}"#),
        json!({"a":{"a":1},"b":{"a":2}})
    );
    assert_eq!(ok(r#"{"a/b":1,"a":{"b":2}}"#), json!({"a/b":1,"a":{"b":2}}));
    assert_eq!(ok(r#"{"A":1,"a":2}"#), json!({"A":1,"a":2}));
}

#[test]
fn trailing_commas_point_at_the_comma() {
    let src = br#"{"a":1,}"#;
    let e = err(src);
    assert!(
        e.detail.contains("object name: expected string"),
        "{}",
        e.detail
    );
    assert_eq!(e.span, 6..7);
    assert_eq!(line_col(src, e.span.start), (1, 7));
    syntax_at("[1,]", "trailing comma", 2..3);
    let e = syntax("[1,\n  ]", "trailing comma");
    assert_eq!(e.span, 2..3);
    // Issue 36 item 7: the cause first, with the text around it.
    assert_eq!(
        e.detail,
        "trailing comma before ']' at offset 6: `[1, ]`: remove the comma after the last item (the reference reads it as an invalid number at offset 6)"
    );
    assert_eq!(
        e.reference_line(),
        "invalid I-JSON: invalid number at offset 6"
    );
    let e = err(br#"{"name": "a very long member value here",}"#);
    assert!(
        e.detail.starts_with(
            "trailing comma before '\u{7d}' at offset 41: `…long member value here\",\u{7d}`"
        ),
        "{}",
        e.detail
    );
    assert_eq!(
        e.reference_line(),
        "invalid I-JSON: object name: expected string at offset 41"
    );
    // Near miss.
    assert_eq!(ok("[1, 2]"), json!([1, 2]));
}

#[test]
fn utf8_and_bom_are_refused() {
    let e = err(b"[\"a\xFF\"]");
    assert_eq!(e.kind, ParseErrorKind::InvalidUtf8);
    assert!(e.detail.contains("invalid UTF-8"), "{}", e.detail);
    assert!(e.detail.contains("I-JSON input is not valid UTF-8"));
    assert_eq!(e.span, 3..4);
    assert_eq!(e.to_diagnostic().code, Code::InvalidUtf8);
    // Truncated multi-byte sequence at the end.
    let e = err(b"[\"\xE2\x82");
    assert_eq!(e.kind, ParseErrorKind::InvalidUtf8);
    assert_eq!(e.span, 2..4);
    // Overlong encoding.
    assert_eq!(err(b"\"\xC0\xAF\"").kind, ParseErrorKind::InvalidUtf8);
    let e = err(b"\xEF\xBB\xBF{}");
    assert_eq!(
        e.kind,
        ParseErrorKind::Syntax,
        "a BOM is a bad first token, as the reference sees it"
    );
    assert!(
        e.detail.starts_with("byte-order mark at offset 0: "),
        "{}",
        e.detail
    );
    assert_eq!(
        e.reference_line(),
        "invalid I-JSON: invalid number at offset 0"
    );
    assert_eq!(e.span, 0..3);
    // Near misses: U+FEFF inside a string, multi-byte text.
    assert_eq!(ok("[\"\u{feff}é😀\"]"), json!(["\u{feff}é😀"]));
    // U+FEFF after leading whitespace is not whitespace.
    syntax(" \u{feff}{}", "invalid number at offset 1");
}

#[test]
fn surrogates_must_pair() {
    syntax_all_at(&[
        (r#""\ud800""#, "unpaired high surrogate U+D800", 1..7),
        (r#""\udc00""#, "unpaired low surrogate U+DC00", 1..7),
    ]);
    syntax_all(&[
        (r#""\ud800x""#, "unpaired high surrogate U+D800"),
        (r#""\ud800\n""#, "unpaired high surrogate U+D800"),
    ]);
    let e = syntax(
        r#""\uD83D\u0041""#,
        "high surrogate U+D83D followed by non-low-surrogate U+0041",
    );
    assert_eq!(e.span, 1..13);
    syntax(r#""\ud83d\ud83d""#, "followed by non-low-surrogate U+D83D");
    // Near miss.
    assert_eq!(ok(r#""\ud83d\ude00""#), json!("😀"));
    assert_eq!(ok(r#""\uD83D\uDE00""#), json!("😀"));
}

#[test]
fn numbers_are_strict() {
    for lit in ["-0", "-0.000", "-0e99", "-1e-400", "-0.0E+0", "-0E-0"] {
        let text = format!("[{lit}]");
        let e = syntax(&text, &format!("negative zero \"{lit}\" is forbidden"));
        assert_eq!(e.span, 1..1 + lit.len(), "{lit}");
        assert_eq!(e.pointer.as_str(), "/0");
    }
    let e = syntax("{\"n\": 1e9999}", "number \"1e9999\" is not finite");
    assert_eq!(e.span, 6..12);
    assert_eq!(e.pointer.as_str(), "/n");
    syntax(
        "-1e400",
        "number \"-1e400\" is not finite IEEE-754 binary64",
    );
    let huge = format!("[1{}]", "0".repeat(400));
    syntax(&huge, "is not finite");
    for text in ["NaN", "Infinity", "-Infinity", "+1", ".5", "[NaN]"] {
        syntax(text, "invalid number");
    }
    syntax_all_at(&[
        ("[NaN]", "invalid number at offset 1", 1..4),
        ("01", "leading zero", 0..2),
    ]);
    syntax_all(&[
        ("-012", "leading zero"),
        ("1.", "fraction has no digits"),
        ("1.e5", "fraction has no digits"),
        ("1e", "exponent has no digits"),
        ("1e+", "exponent has no digits"),
        ("1E-x", "exponent has no digits"),
        ("-", "truncated number"),
        ("-a", "invalid number"),
        ("1x", "unexpected trailing byte at offset 1"),
    ]);
    // Near misses.
    assert_eq!(ok("1e-400"), json!(0.0));
    assert_eq!(ok("0"), json!(0));
    assert_eq!(ok("-1"), json!(-1));
    assert_eq!(ok("1E+2"), json!(100.0));
    assert_eq!(ok("0.0"), json!(0.0));
    assert_eq!(ok("0e5"), json!(0.0));
    assert_eq!(ok("-0.5"), json!(-0.5));
    assert_eq!(ok("1.7976931348623157e308"), json!(f64::MAX));
}

#[test]
fn number_values_match_serde_json() {
    for text in [
        "9223372036854775807",
        "-9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775809",
        "1.5",
        "100",
        "1E2",
        "5e-324",
        "2.2250738585072014e-308",
        "0.1",
        "123456789.123456789e-3",
    ] {
        let ours = ok(text);
        let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(ours, theirs, "{text}");
    }
    assert!(ok("9223372036854775807").is_i64());
    assert!(ok("18446744073709551615").is_u64());
    assert!(ok("18446744073709551616").is_f64());
    assert!(ok("-9223372036854775808").is_i64());
    assert!(ok("1E2").is_f64());
}

#[test]
fn integer_literals_are_recorded() {
    let src =
        br#"{"a":9223372036854775807,"b":1.0,"c":1e2,"d":"1","e":-3,"f":99999999999999999999}"#;
    let p = parse(src).unwrap();
    let s = &p.spans;
    assert_eq!(s.is_integer_literal(&ptr("/a")), Some(true));
    assert_eq!(s.is_integer_literal(&ptr("/b")), Some(false));
    assert_eq!(s.is_integer_literal(&ptr("/c")), Some(false));
    assert_eq!(s.is_integer_literal(&ptr("/d")), Some(false));
    assert_eq!(s.is_integer_literal(&ptr("/e")), Some(true));
    assert_eq!(s.is_integer_literal(&ptr("/f")), Some(true));
    assert!(p.value["f"].is_f64());
    assert_eq!(s.is_integer_literal(&ptr("/zz")), None);
    assert_eq!(s.raw_text(src, &ptr("/a")), Some("9223372036854775807"));
    assert_eq!(s.raw_text(src, &ptr("/c")), Some("1e2"));
    assert_eq!(s.raw_text(src, &ptr("/d")), Some("\"1\""));
    assert_eq!(s.raw(&ptr("/b")), s.value_span(&ptr("/b")));
    assert_eq!(s.len(), 7);
    assert!(!s.is_empty());
}

#[test]
fn literals_and_structure() {
    syntax("{}[]", "unexpected trailing byte at offset 2");
    syntax_at("{} x", "unexpected trailing byte at offset 3", 3..4);
    syntax_all(&[
        ("", "unexpected end of input"),
        ("  \n", "unexpected end of input"),
        ("[1", "expected ',' or ']' at offset 2"),
        ("{\"a\"", "expected ':' at offset 4"),
        ("{\"a\":", "unexpected end of input"),
        ("{\"a\":1", "expected ',' or '}' at offset 6"),
        ("{", "object name: expected string at offset 1"),
        ("{\"a\":1,", "object name: expected string at offset 7"),
        ("[1,", "unexpected end of input"),
        ("{\"a\" 1}", "expected ':' at offset 5"),
        ("{\"a\":1 \"b\":2}", "expected ',' or '}' at offset 7"),
        ("[1 2]", "expected ',' or ']' at offset 3"),
        ("{a:1}", "object name: expected string at offset 1"),
        ("{,}", "object name: expected string at offset 1"),
        ("[,1]", "invalid number at offset 1"),
        ("tru", "invalid literal at offset 0"),
        ("nul", "invalid literal at offset 0"),
        ("True", "invalid number"),
        ("[falsey]", "expected ',' or ']' at offset 6"),
    ]);
    // Whitespace other than SP HT LF CR.
    syntax_all(&[
        ("[1,\u{c}2]", "invalid number"),
        ("[1,\u{a0}2]", "invalid number"),
        ("\u{b}[]", "invalid number"),
    ]);
    // Near misses.
    assert_eq!(
        ok(" \t\r\n[ true , false , null ] \t\r\n"),
        json!([true, false, null])
    );
    assert_eq!(ok("{}"), json!({}));
    assert_eq!(ok("[]"), json!([]));
    assert_eq!(ok("\"top\""), json!("top"));
    assert_eq!(ok("null"), json!(null));
}

#[test]
fn strings_are_strict() {
    syntax_at("[\"a\tb\"]", "unescaped control character U+0009", 3..4);
    syntax_all(&[
        ("\"\n\"", "unescaped control character U+000A"),
        ("\"\u{0}\"", "unescaped control character U+0000"),
        ("\"\u{1f}\"", "unescaped control character U+001F"),
    ]);
    syntax_at(r#"["\x"]"#, r"invalid escape \x", 2..4);
    syntax_all(&[
        (r#""\'""#, r"invalid escape \'"),
        ("\"\\é\"", "invalid escape \\é"),
        (r#""\U0041""#, r"invalid escape \U"),
    ]);
    syntax_at(r#""\u12""#, "truncated Unicode escape", 1..5);
    syntax_all(&[
        (r#""\u12"#, "truncated Unicode escape"),
        (r#""\u12G4""#, r"invalid Unicode escape \u12G"),
        ("\"\\", "unterminated escape"),
        ("\"abc", "unterminated string"),
        ("[\"abc]", "unterminated string"),
    ]);
    // Near misses.
    assert_eq!(ok(r#""\u0000""#), json!("\u{0}"));
    assert_eq!(ok("\"\u{7f}\""), json!("\u{7f}"));
    assert_eq!(ok("\"\u{fffe}\u{ffff}\""), json!("\u{fffe}\u{ffff}"));
    assert_eq!(ok(r#""\ufffe\uFDD0""#), json!("\u{fffe}\u{fdd0}"));
    assert_eq!(
        ok(r#""\"\\\/\b\f\n\r\t\u00e9\u20AC""#),
        json!("\"\\/\u{8}\u{c}\n\r\té€")
    );
    assert_eq!(ok("\"\u{2028}\""), json!("\u{2028}"));
}

fn nested(n: usize) -> Vec<u8> {
    let mut v = vec![b'['; n];
    v.extend(std::iter::repeat_n(b']', n));
    v
}

#[test]
fn nesting_is_bounded() {
    let p = parse(&nested(MAX_DEPTH)).unwrap();
    assert_eq!(p.spans.len(), MAX_DEPTH);
    let deepest = JsonPointer::from("/0".repeat(MAX_DEPTH - 1).as_str());
    assert_eq!(
        p.spans.value_span(&deepest),
        Some(MAX_DEPTH - 1..MAX_DEPTH + 1)
    );
    let e = err(&nested(MAX_DEPTH + 1));
    assert_eq!(e.detail, "JSON nesting exceeds 256 containers");
    assert_eq!(e.span, 256..257);
    // Objects count too.
    let mut s = "{\"a\":".repeat(MAX_DEPTH);
    s.push('1');
    s.push_str(&"}".repeat(MAX_DEPTH));
    assert!(parse(s.as_bytes()).is_ok());
    let mut s = "{\"a\":".repeat(MAX_DEPTH - 1);
    s.push_str("[[]]");
    s.push_str(&"}".repeat(MAX_DEPTH - 1));
    syntax(&s, "JSON nesting exceeds 256 containers");
    // Hostile depth: refused, no stack overflow (unclosed, too).
    let e = err(&vec![b'['; 100_000]);
    assert_eq!(e.detail, "JSON nesting exceeds 256 containers");
    assert_eq!(e.span, 256..257);
    let e = err(&nested(100_000));
    assert_eq!(e.span, 256..257);
}

#[test]
fn span_index_is_exact() {
    let src = b"{\n  \"a\": {\n  \"b\": [10, \"x\", {\"c\": null}]\n  },\n  \"d/e~\": true\n}\n";
    let p = parse(src).unwrap();
    let s = &p.spans;
    let slice = |r: Range<usize>| std::str::from_utf8(&src[r]).unwrap();
    assert_eq!(s.value_span(&JsonPointer::root()), Some(0..src.len() - 1));
    assert_eq!(s.key_span(&JsonPointer::root()), None);
    let a = ptr("/a");
    assert_eq!(slice(s.key_span(&a).unwrap()), "\"a\"");
    assert_eq!(s.key_span(&a), Some(4..7));
    assert_eq!(
        slice(s.value_span(&a).unwrap()),
        "{\n  \"b\": [10, \"x\", {\"c\": null}]\n  }"
    );
    let b = ptr("/a/b");
    assert_eq!(s.key_span(&b), Some(13..16));
    assert_eq!(line_col(src, 13), (3, 3));
    assert_eq!(
        slice(s.value_span(&b).unwrap()),
        "[10, \"x\", {\"c\": null}]"
    );
    assert_eq!(s.value_span(&ptr("/a/b/0")), Some(19..21));
    assert_eq!(s.key_span(&ptr("/a/b/0")), None);
    assert_eq!(slice(s.value_span(&ptr("/a/b/1")).unwrap()), "\"x\"");
    assert_eq!(
        slice(s.value_span(&ptr("/a/b/2")).unwrap()),
        "{\"c\": null}"
    );
    let c = ptr("/a/b/2/c");
    assert_eq!(slice(s.key_span(&c).unwrap()), "\"c\"");
    assert_eq!(slice(s.value_span(&c).unwrap()), "null");
    let de = JsonPointer::root().child("d/e~");
    assert_eq!(de.as_str(), "/d~1e~0");
    assert_eq!(slice(s.key_span(&de).unwrap()), "\"d/e~\"");
    assert_eq!(slice(s.value_span(&de).unwrap()), "true");
    assert_eq!(line_col(src, s.key_span(&de).unwrap().start), (5, 3));
    assert_eq!(s.value_span(&ptr("/a/b/3")), None);
    assert_eq!(s.value_span(&ptr("/zz")), None);
    assert_eq!(s.len(), 8);
    // Escaped names: the key span covers the escaped token.
    let src = br#"{"\u0061\/":1}"#;
    let p = parse(src).unwrap();
    assert_eq!(
        p.spans.key_span(&JsonPointer::root().child("a/")),
        Some(1..11)
    );
}

#[test]
fn push_decimal_writes_indexes() {
    for n in [0usize, 7, 10, 99, 100, 123_456_789, usize::MAX] {
        let mut s = String::from("/a/");
        push_decimal(&mut s, n);
        assert_eq!(s, format!("/a/{n}"));
    }
}

#[test]
fn parse_value_agrees_with_parse() {
    let cases: [&[u8]; 14] = [
        br#"{"a":1,"b":[true,null,{"c":"d"}]}"#,
        br#"{"a":1,"a":2}"#,
        br#"{"x":{"a":1,"b":{"a":1},"a":3}}"#,
        br#"[{"a":1},{"a":1}]"#,
        br#"{"a/b":1,"a~1b":2}"#,
        br#"{"~0":1,"~":2,"~0":3}"#,
        b"{\"a\":1,}",
        b"[1,2,]",
        b"{\"a\" 1}",
        b"\xEF\xBB\xBF{}",
        b"{\"a\":\"\xFF\"}",
        b"[1.0e400]",
        b"{} x",
        b"",
    ];
    for c in cases {
        let full = parse(c).map(|p| p.value);
        assert_eq!(
            format!("{:?}", parse_value(c)),
            format!("{full:?}"),
            "{}",
            String::from_utf8_lossy(c)
        );
    }
    // The duplicate is found in the object that holds it, not a sibling.
    let e = parse_value(br#"{"x":{"a":1,"b":{"a":1},"a":3}}"#).unwrap_err();
    assert!(e.detail.contains("duplicate object name"), "{}", e.detail);
    assert!(parse_value(br#"[{"a":1},{"a":1}]"#).is_ok());
}

/// `accepts_unflagged` accepts exactly the objects and arrays `parse`
/// accepts, and stops at a flagged member name.
#[test]
fn scan_accepts_what_parse_accepts() {
    let mut cases: Vec<Vec<u8>> = [
        &br#"{"a":1,"b":[true,null,{"c":"d"}]}"#[..],
        br#"{"a":1,"a":2}"#,
        br#"{"x":{"a":1,"b":{"a":1},"a":3}}"#,
        br#"[{"a":1},{"a":1}]"#,
        br#"{"a/b":1,"a~1b":2}"#,
        br#"{"~0":1,"~":2,"~0":3}"#,
        br#"{"\u0061":1,"a":2}"#,
        br#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":0}"#,
        br#"{"a":1,}"#,
        b"[1,2,]",
        b"[1 2]",
        br#"{"a" 1}"#,
        br#"{"a":1 "b":2}"#,
        b"\xEF\xBB\xBF{}",
        b"{\"a\":\"\xFF\"}",
        b"[1.0e400]",
        b"[-0]",
        b"[01]",
        b"[truex]",
        b"[nul]",
        br#"["\ud800"]"#,
        b"[\"a\x01\"]",
        b"{} x",
        b" [ ] ",
        b"{}",
        b"",
        b"1",
        br#""s""#,
        b"[",
        br#"{"a":"#,
    ]
    .iter()
    .map(|c| c.to_vec())
    .collect();
    cases.push(nested(MAX_DEPTH));
    cases.push(nested(MAX_DEPTH + 1));
    for c in &cases {
        let full = parse(c).is_ok_and(|p| p.value.is_object() || p.value.is_array());
        assert_eq!(
            accepts_unflagged(c, &mut |_| false),
            full,
            "{}",
            String::from_utf8_lossy(c)
        );
    }
    let doc = br#"{"a":{"b":[{"secret":1}]},"c":2}"#;
    let mut seen = Vec::new();
    assert!(accepts_unflagged(doc, &mut |n| {
        seen.push(n.to_owned());
        false
    }));
    assert_eq!(seen, ["a", "b", "secret", "c"]);
    assert!(!accepts_unflagged(doc, &mut |n| n == "secret"));
}

/// Calls `each` with the path and bytes of every JSON document of the
/// corpus (mutants included), and asserts there were more than 5,000.
fn corpus_documents(mut each: impl FnMut(&str, &[u8])) {
    let corpus = crate::testing::corpus_root();
    let mut compared = 0usize;
    for entry in walkdir::WalkDir::new(&corpus) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "json") {
            let c = std::fs::read(entry.path()).unwrap();
            each(&entry.path().display().to_string(), &c);
            compared += 1;
        }
    }
    assert!(compared > 5000, "only {compared} corpus documents compared");
}

/// [`scan_accepts_what_parse_accepts`] on every JSON document of the corpus (mutants included).
#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn scan_accepts_what_parse_accepts_on_the_corpus() {
    corpus_documents(|path, c| {
        let full = parse(c).is_ok_and(|p| p.value.is_object() || p.value.is_array());
        assert_eq!(accepts_unflagged(c, &mut |_| false), full, "{path}");
    });
}

/// [`spans`] gives [`parse`]'s span map, or its refusal, for every JSON
/// document of the corpus (mutants included: duplicate names, bad
/// escapes, deep nesting); and on documents built here: escaped and
/// duplicate member names, nested arrays (near miss: one byte changed is
/// one span changed).
#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn spans_alone_are_the_spans_of_parse() {
    fn map(s: &SpanIndex) -> std::collections::BTreeMap<String, SpanEntry> {
        s.iter().map(|(k, v)| (k.to_owned(), v.clone())).collect()
    }
    let same = |c: &[u8], what: &str| match (parse(c), spans(c)) {
        (Ok(p), Ok(s)) => assert_eq!(map(&p.spans), map(&s), "{what}"),
        (Err(a), Err(b)) => assert_eq!(
            (a.kind, a.detail, a.span, a.pointer),
            (b.kind, b.detail, b.span, b.pointer),
            "{what}"
        ),
        (a, b) => panic!("{what}: parse {:?} but spans {:?}", a.is_ok(), b.is_ok()),
    };
    for doc in [
        r#"{"a~b/c": ["x", {"\u00e9": [1, 2.5, "s"]}], "e": {}, "f": []}"#,
        r#"{"a": 1, "a": 2}"#,
        r#"{"a": {"b": "x", "b": "y"}}"#,
        r#"[[["deep", "\n"]], {"k": null}]"#,
    ] {
        same(doc.as_bytes(), doc);
    }
    let a = map(&spans(br#"{"a": [1, 2]}"#).unwrap());
    let b = map(&spans(br#"{"a": [1, 20]}"#).unwrap());
    let changed: Vec<_> = a.iter().filter(|(k, v)| b.get(*k) != Some(v)).collect();
    assert_eq!(changed.len(), 3, "{changed:?}"); // the root, /a and /a/1 end one byte later
    corpus_documents(|path, c| same(c, path));
}

#[test]
fn line_col_counts_scalar_values() {
    let src = "ab\ncé😀x\r\nz".as_bytes();
    assert_eq!(line_col(src, 0), (1, 1));
    assert_eq!(line_col(src, 2), (1, 3));
    assert_eq!(line_col(src, 3), (2, 1));
    let x = src.iter().position(|&b| b == b'x').unwrap();
    assert_eq!(line_col(src, x), (2, 4));
    let z = src.len() - 1;
    assert_eq!(line_col(src, z), (3, 1));
    assert_eq!(line_col(src, 10_000), (3, 2));
    assert_eq!(line_col(b"", 0), (1, 1));
}

#[test]
fn reference_lines_match_the_oracle() {
    // (input, the reference verifier's `canonicalize` line after `form-package: `)
    for (input, want) in [
        ("", "invalid I-JSON: unexpected end of input"),
        ("-0", "invalid I-JSON: negative zero \"-0\" is forbidden"),
        ("\u{feff}{}", "invalid I-JSON: invalid number at offset 0"),
        (
            "{\"a\":1,\"a\":2}",
            "invalid I-JSON: duplicate object name \"a\"",
        ),
        ("[1,]", "invalid I-JSON: invalid number at offset 3"),
        (
            "{\"a\":1,}",
            "invalid I-JSON: object name: expected string at offset 7",
        ),
        ("{\"x\":01}", "invalid I-JSON: leading zero at offset 6"),
        ("-01", "invalid I-JSON: leading zero at offset 2"),
        ("[1,0012]", "invalid I-JSON: leading zero at offset 4"),
        ("[1.]", "invalid I-JSON: fraction has no digits"),
        ("[1.5e+]", "invalid I-JSON: exponent has no digits"),
        (
            "[\"\\u12\"]",
            "invalid I-JSON: invalid Unicode escape at offset 4",
        ),
        (
            "[\"\\uZZZZ\"]",
            "invalid I-JSON: invalid Unicode escape at offset 4",
        ),
        ("[\"abc", "invalid I-JSON: unterminated string"),
        ("[\"a\\q\"]", "invalid I-JSON: invalid escape \\q"),
        ("[\"\\", "invalid I-JSON: unterminated escape"),
        (
            "[\"\u{1}\"]",
            "invalid I-JSON: unescaped control character at offset 2",
        ),
        (
            "{} x",
            "invalid I-JSON: unexpected trailing byte at offset 3",
        ),
        ("[1 2]", "invalid I-JSON: expected ',' or ']' at offset 3"),
        ("tru", "invalid I-JSON: invalid literal at offset 0"),
        ("{\"ab", "invalid I-JSON: object name: unterminated string"),
        (
            "{\"a\\q\":1}",
            "invalid I-JSON: object name: invalid escape \\q",
        ),
    ] {
        let e = parse(input.as_bytes()).unwrap_err();
        assert_eq!(e.reference_line(), want, "{input:?}: {}", e.detail);
    }
    let e = parse(b"{\"b\":\"\xc3\"}").unwrap_err();
    assert_eq!(e.reference_line(), "I-JSON input is not valid UTF-8");
    // Near miss: our own detail keeps its explanation.
    let e = parse(b"[1,]").unwrap_err();
    assert!(e.detail.contains("trailing comma"), "{}", e.detail);
}

#[test]
fn error_pointer_and_diagnostic() {
    let e = syntax(r#"{"a":[1,{"b":"\q"}]}"#, r"invalid escape \q");
    assert_eq!(e.pointer.as_str(), "/a/1/b");
    let d = e.to_diagnostic();
    assert_eq!(d.pointer.as_str(), "/a/1/b");
    assert_eq!(d.span, Some(e.span.clone()));
    assert_eq!(
        e.to_string(),
        r"invalid I-JSON: invalid escape \q at offset 14"
    );
}

/// `spans_at` (issue 38) locates each pointer it was given as the whole
/// span map does: a member name, a value, an array item, a missing member
/// (its nearest ancestor), the root; near miss: a value no given pointer
/// reaches is not in it.
#[test]
fn spans_at_locates_its_pointers_as_the_whole_map_does() {
    use crate::diag::Target;
    use crate::locate::pointer_span;
    let text = br#"{"a": {"b~c": [1, {"d/e": true}], "f": "x"}, "g": null}"#;
    let whole = spans(text).unwrap();
    let wanted: Vec<(JsonPointer, Target)> = vec![
        (ptr("/a/b~0c/1/d~1e"), Target::Key),
        (ptr("/a/b~0c/1/d~1e"), Target::Value),
        (ptr("/a/f"), Target::Value),
        (ptr("/a/missing/deeper"), Target::Value),
        (ptr("/a/b~0c/0"), Target::Value),
        (ptr(""), Target::Value),
    ];
    let kept = spans_at(text, wanted.iter().map(|(p, _)| p)).unwrap();
    for (p, target) in &wanted {
        assert_eq!(
            pointer_span(&kept, p, *target),
            pointer_span(&whole, p, *target),
            "{p:?}"
        );
        assert!(pointer_span(&kept, p, *target).is_some());
    }
    assert!(whole.value_span(&ptr("/g")).is_some());
    assert_eq!(kept.value_span(&ptr("/g")), None);
    assert!(kept.len() < whole.len());
    // What the reader refuses first is refused the same way.
    assert_eq!(
        spans_at(b"\xEF\xBB\xBF{}", [&ptr("")]).unwrap_err().kind,
        spans(b"\xEF\xBB\xBF{}").unwrap_err().kind
    );
}

/// `spans_at` steps over the values no given pointer reaches and still
/// locates the ones after them as the whole map does: siblings holding
/// brackets and escaped quotes inside strings, nested containers, numbers
/// and literals at every position, an empty container, whitespace before
/// commas. Near miss: nothing inside a stepped-over value is in the map.
#[test]
fn spans_at_steps_over_what_no_pointer_reaches() {
    use crate::diag::Target;
    use crate::locate::pointer_span;
    let text = br#" { "s": "a]}\"[{\\" , "n": -1.5e3 , "t": true,
        "deep": [[{"x": "}"}], {}, [], "\\", 0], "e": {}, "z": [null, "q\"", {"k": [7 ,8]}] } "#;
    let whole = spans(text).unwrap();
    let wanted: Vec<JsonPointer> = ["/z/2/k/1", "/z/1", "/e", "/t", "/n"]
        .into_iter()
        .map(ptr)
        .collect();
    let kept = spans_at(text, &wanted).unwrap();
    for p in &wanted {
        for target in [Target::Key, Target::Value] {
            assert_eq!(
                pointer_span(&kept, p, target),
                pointer_span(&whole, p, target),
                "{p:?}"
            );
        }
        assert!(kept.value_span(p).is_some(), "{p:?}");
    }
    for gone in ["/s", "/deep", "/deep/0/0/x", "/z/0"] {
        assert!(whole.value_span(&ptr(gone)).is_some(), "{gone}");
        assert_eq!(kept.value_span(&ptr(gone)), None, "{gone}");
    }
    // Every pointer of a corpus-like document at once: the whole map's
    // entries for them.
    let all: Vec<JsonPointer> = ["/s", "/deep/0/0/x", "/deep/4", "/z/2/k"]
        .into_iter()
        .map(ptr)
        .collect();
    let kept = spans_at(text, &all).unwrap();
    for p in &all {
        assert_eq!(kept.value_span(p), whole.value_span(p), "{p:?}");
    }
}

/// On every Form Definition under the repository's `fixtures/`, `spans_at` of
/// one pointer in five (and of the last ones, siblings of those stepped
/// over) records for each exactly the whole map's entry: the value, the
/// member name and the integer flag.
#[test]
fn spans_at_agrees_with_the_whole_map_on_real_definitions() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files = 0;
    for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_name() != "definition.json" {
            continue;
        }
        let bytes = std::fs::read(entry.path()).unwrap();
        let Ok(whole) = spans(&bytes) else { continue };
        let mut all: Vec<&String> = whole.entries.keys().collect();
        all.sort();
        let some: Vec<JsonPointer> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 5 == 0 || i + 3 >= all.len())
            .map(|(_, p)| ptr(p))
            .collect();
        let kept = spans_at(&bytes, &some).unwrap();
        for p in &some {
            assert_eq!(
                kept.entries.get(p.as_str()),
                whole.entries.get(p.as_str()),
                "{} {p:?}",
                entry.path().display()
            );
        }
        files += 1;
    }
    assert!(files >= 30, "{files}");
}

/// `plain_run` stops where a byte-by-byte search for `"`, `\` or a control
/// character stops, at every offset of every block (issue 38).
#[test]
fn plain_run_stops_at_the_first_special_byte() {
    let special = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
    for len in 0..50 {
        for at in 0..=len {
            for stop in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                let mut bytes = vec![b'a'; len];
                if at < len {
                    bytes[at] = stop;
                }
                // Near misses beside it: 0x20, 0x7f and a UTF-8 byte are plain.
                if at + 1 < len {
                    bytes[at + 1] = [0x20, 0x7f, 0xc3][at % 3];
                }
                let want = bytes.iter().position(|&b| special(b)).unwrap_or(len);
                assert_eq!(
                    crate::json::plain_run(&bytes),
                    want,
                    "len {len}, stop {stop} at {at}"
                );
            }
        }
    }
}

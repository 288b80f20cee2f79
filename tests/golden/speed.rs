//! Issue 23 (speed): our RFC 8785 writer against the `serde_json_canonicalizer`
//! crate (kept as a dev-dependency, the oracle), and the bounded compiled-schema
//! cache (`form_package::engine::cache`), judged on its own accounting.
//!
//! The writer (`form_package::canonical`) must give the crate's bytes on every
//! file of the corpus, every RFC 8785 vector (the six files, the README's
//! number samples and the ES6 number test file's published SHA-256) and
//! generated documents (numbers of every spelling and magnitude, every
//! escape, supplementary characters, member orders by UTF-16 code unit).
//! Tests that need the corpus are reported *ignored* when it is absent
//! (`FORM_PACKAGE_CORPUS`, default `../shared/corpus`; under `CI` a missing
//! corpus fails).

use crate::common;

use std::path::{Path, PathBuf};

use form_package::canonical::{canonical_any, canonicalize, sha256_digest};
use form_package::json::strict;
use libtest_mimic::{Failed, Trial};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The crate's bytes for `value` (any kind; the crate prints scalars too).
fn oracle(value: &Value) -> Vec<u8> {
    serde_json_canonicalizer::to_vec(value).unwrap()
}

/// Ours against the oracle on one parsed document: `canonical_any`
/// on every kind, `canonicalize` on objects and arrays (it refuses top-level
/// scalars, §2.1 J7).
fn agree(value: &Value, what: &str) -> Result<(), Failed> {
    let want = oracle(value);
    let ours = canonical_any(value);
    if ours != want {
        return Err(format!(
            "{what}: ours {:?} != crate {:?}",
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&want)
        )
        .into());
    }
    if value.is_object() || value.is_array() {
        let full = canonicalize(value).map_err(|d| format!("{what}: {}", d.message))?;
        if full != want {
            return Err(format!("{what}: canonicalize differs from the crate").into());
        }
    }
    Ok(())
}

fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().to_path_buf())
        .collect();
    out.sort();
    out
}

/// Every file of the corpus that the strict reader accepts (JSON of every
/// folder: packages, mutants, engine cases, conformance, contracts,
/// families, trust evidence, RFC 8785 inputs): ours == the crate's.
fn corpus_files_agree(corpus: &Path) -> Result<(), Failed> {
    let (mut compared, mut refused, mut files) = (0usize, 0usize, 0usize);
    for path in files_under(corpus) {
        files += 1;
        let bytes = std::fs::read(&path).unwrap();
        let Ok(value) = strict::parse_value(&bytes) else {
            refused += 1;
            continue;
        };
        agree(&value, &path.display().to_string())?;
        compared += 1;
    }
    println!(
        "    {files} corpus files: {compared} compared byte for byte, {refused} not strict I-JSON"
    );
    if compared < 5000 {
        return Err(format!("only {compared} corpus documents compared").into());
    }
    Ok(())
}

/// The package digest and the `schemaDigest` of every corpus package, by
/// our writer, are the manifest's (computed by the crate and by the
/// reference when the corpus was built) and the crate's.
fn corpus_digests_unchanged(corpus: &Path) -> Result<(), Failed> {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(corpus.join("manifest.json")).unwrap()).unwrap();
    let mut checked = 0usize;
    for entry in manifest.as_array().unwrap() {
        let dir = corpus.join(entry["path"].as_str().unwrap());
        for (file, field) in [
            ("package-index.json", "computedPackageDigest"),
            ("definition.json", "computedSchemaDigest"),
        ] {
            let Some(want) = entry[field].as_str() else {
                continue;
            };
            let Ok(bytes) = std::fs::read(dir.join(file)) else {
                continue;
            };
            let value = strict::parse_value(&bytes)
                .map_err(|e| format!("{}: {}", dir.display(), e.detail))?;
            let ours = sha256_digest(&canonicalize(&value).unwrap());
            let crate_digest = sha256_digest(&oracle(&value));
            if ours != want || crate_digest != want {
                return Err(format!(
                    "{} {file}: ours {ours}, crate {crate_digest}, manifest {want}",
                    dir.display()
                )
                .into());
            }
            checked += 1;
        }
    }
    println!("    {checked} package and schema digests equal the manifest's");
    if checked < 600 {
        return Err(format!("only {checked} digests checked").into());
    }
    Ok(())
}

/// The six RFC 8785 vectors (cyberphone/json-canonicalization `testdata/`)
/// in `dir`: input → exactly the expected output, from ours and the crate.
fn vectors_in(dir: &Path) -> Result<(), Failed> {
    let mut n = 0;
    for input in files_under(&dir.join("input")) {
        let name = input.file_name().unwrap();
        let want = std::fs::read(dir.join("output").join(name)).unwrap();
        let value = strict::parse_value(&std::fs::read(&input).unwrap()).unwrap();
        agree(&value, &input.display().to_string())?;
        if canonicalize(&value).unwrap() != want {
            return Err(format!("vector {}", input.display()).into());
        }
        n += 1;
    }
    if n != 6 {
        return Err(format!("{n} vectors, expected 6").into());
    }
    Ok(())
}

fn shipped_vectors() -> Result<(), Failed> {
    vectors_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rfc8785"))
}

/// Our text for one binary64 value, through the public path (an array of
/// one number).
fn number_text(f: f64) -> String {
    let v = Value::Array(vec![Value::Number(
        serde_json::Number::from_f64(f).unwrap(),
    )]);
    let bytes = canonicalize(&v).unwrap();
    String::from_utf8(bytes[1..bytes.len() - 1].to_vec()).unwrap()
}

/// The ES6 number vectors of the RFC 8785 test data (`rfc8785/README.md`):
/// its sample lines give the expected text; its generator (the static
/// values, 2000 serial values, then a SHA-256 chain) is re-run here and
/// the first 1,000 / 10,000 / 100,000 lines `hex,expected\n` must have the
/// published SHA-256s. Every value is also compared with the crate.
fn es6_numbers(corpus: &Path) -> Result<(), Failed> {
    let readme = std::fs::read_to_string(corpus.join("rfc8785/README.md")).unwrap();
    for line in readme.lines() {
        if let Some((hex, want)) = line.split_once(',') {
            if let Ok(bits) = u64::from_str_radix(hex, 16) {
                let got = number_text(f64::from_bits(bits));
                if got != want {
                    return Err(format!("sample {hex}: ours {got}, expected {want}").into());
                }
            }
        }
    }
    let block = readme
        .split("staticU64s = new BigUint64Array([")
        .nth(1)
        .and_then(|s| s.split("])").next())
        .ok_or("no staticU64s in the README")?;
    let statics: Vec<u64> = block
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| u64::from_str_radix(s.trim_start_matches("0x").trim_end_matches('n'), 16))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let mut values: Vec<u64> = statics.clone();
    values.extend((0..2000u64).map(|i| 0x0010_0000_0000_0000 + i));
    let mut block = [0u8; 32];
    while values.len() < 100_000 {
        block = Sha256::digest(block).into();
        for chunk in block.chunks_exact(8) {
            let bits = u64::from_le_bytes(chunk.try_into().unwrap());
            let f = f64::from_bits(bits);
            if f != 0.0 && f.is_finite() {
                values.push(bits);
            }
        }
    }
    let published = [
        (
            1_000,
            "be18b62b6f69cdab33a7e0dae0d9cfa869fda80ddc712221570f9f40a5878687",
        ),
        (
            10_000,
            "b9f7a8e75ef22a835685a52ccba7f7d6bdc99e34b010992cbc5864cd12be6892",
        ),
        (
            100_000,
            "22776e6d4b49fa294a0d0f349268e5c28808fe7e0cb2bcbe28f63894e494d4c7",
        ),
    ];
    let mut hasher = Sha256::new();
    for (i, bits) in values.iter().take(100_000).enumerate() {
        let f = f64::from_bits(*bits);
        let ours = number_text(f);
        let n = Value::Number(serde_json::Number::from_f64(f).unwrap());
        let theirs = String::from_utf8(oracle(&n)).unwrap();
        if ours != theirs {
            return Err(format!("{bits:x}: ours {ours}, crate {theirs}").into());
        }
        hasher.update(format!("{bits:x},{ours}\n"));
        if let Some((_, want)) = published.iter().find(|(lines, _)| *lines == i + 1) {
            let got: String = hasher
                .clone()
                .finalize()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            if got != *want {
                return Err(
                    format!("first {} lines: sha256 {got}, published {want}", i + 1).into(),
                );
            }
        }
    }
    println!(
        "    {} static + 2000 serial + chained values: 100,000 lines match the published SHA-256s",
        statics.len()
    );
    Ok(())
}

/// A JSON number literal: every spelling (sign, leading digits, fraction,
/// `e`/`E`, exponent sign and zeros) and magnitude (tiny, huge, integers
/// past 2^53 and 2^64, subnormals), or the shortest text of arbitrary
/// binary64 bits in one of Rust's spellings.
fn number_literal() -> impl Strategy<Value = String> {
    let spelled = (
        any::<bool>(),
        "[1-9][0-9]{0,24}|0",
        proptest::option::of("[0-9]{1,20}"),
        proptest::option::of((
            prop_oneof![Just("e"), Just("E")],
            prop_oneof![Just(""), Just("+"), Just("-")],
            "0{0,2}[0-9]{1,3}",
        )),
    )
        .prop_map(|(neg, int, frac, exp)| {
            let mut s = String::new();
            if neg {
                s.push('-');
            }
            s.push_str(&int);
            if let Some(f) = frac {
                s.push('.');
                s.push_str(&f);
            }
            if let Some((e, sign, digits)) = exp {
                s.push_str(e);
                s.push_str(sign);
                s.push_str(&digits);
            }
            s
        });
    let bits = (any::<u64>(), 0..3u8).prop_filter_map("finite", |(b, style)| {
        let f = f64::from_bits(b);
        if !f.is_finite() {
            return None;
        }
        Some(match style {
            0 => format!("{f:e}"),
            1 => format!("{f:E}"),
            _ => format!("{f}"),
        })
    });
    let ints = prop_oneof![
        any::<i64>().prop_map(|i| i.to_string()),
        any::<u64>().prop_map(|u| u.to_string()),
        (1u32..40).prop_map(|n| format!("{}", 10u128.pow(n.min(38)))),
    ];
    prop_oneof![spelled, bits, ints]
}

/// A character from the interesting sets: ASCII, every control character,
/// `"` `\` `/`, U+007F, Latin-1, U+2028/2029, BMP characters above the
/// surrogates (U+E000–U+FFFF sort above supplementary ones in UTF-16),
/// supplementary characters (U+10000–U+10FFFF).
fn json_char() -> impl Strategy<Value = char> {
    prop_oneof![
        proptest::char::range(' ', '~'),
        proptest::char::range('\u{0}', '\u{1f}'),
        prop_oneof![Just('"'), Just('\\'), Just('/'), Just('\u{7f}')],
        proptest::char::range('\u{80}', '\u{2ff}'),
        prop_oneof![
            Just('\u{2028}'),
            Just('\u{2029}'),
            Just('\u{fb33}'),
            Just('\u{ffff}')
        ],
        proptest::char::range('\u{e000}', '\u{ffff}'),
        proptest::char::range('\u{10000}', '\u{10ffff}'),
        prop_oneof![Just('\u{1f600}'), Just('\u{10000}'), Just('\u{d7ff}')],
    ]
}

/// A JSON string literal of `chars`, each written literally or escaped
/// (short escapes, `\u` in either case, supplementary characters as a
/// surrogate pair), as `how` picks.
fn string_literal(chars: &[char], how: &[u8]) -> String {
    let mut s = String::from("\"");
    for (i, &c) in chars.iter().enumerate() {
        let pick = how.get(i).copied().unwrap_or(0);
        let must_escape = c < ' ' || c == '"' || c == '\\';
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '/' => Some("\\/"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            _ => None,
        };
        let hex = |upper: bool| -> String {
            let mut units = [0u16; 2];
            c.encode_utf16(&mut units)
                .iter()
                .map(|u| {
                    if upper {
                        format!("\\u{u:04X}")
                    } else {
                        format!("\\u{u:04x}")
                    }
                })
                .collect()
        };
        match (pick % 4, short) {
            (0, _) if !must_escape => s.push(c),
            (1, Some(e)) => s.push_str(e),
            (2, _) => s.push_str(&hex(true)),
            _ if !must_escape && pick % 4 == 1 => s.push(c),
            _ => s.push_str(&hex(false)),
        }
    }
    s.push('"');
    s
}

fn string_strategy(max: usize) -> impl Strategy<Value = (String, String)> {
    (
        proptest::collection::vec(json_char(), 0..max),
        proptest::collection::vec(any::<u8>(), max),
    )
        .prop_map(|(chars, how)| {
            (
                chars.iter().collect::<String>(),
                string_literal(&chars, &how),
            )
        })
}

/// A JSON document text (containers nested up to 4 deep, random
/// whitespace), built from [`number_literal`] and [`string_strategy`].
fn document() -> impl Strategy<Value = String> {
    let ws = prop_oneof![Just(""), Just(" "), Just("\n  "), Just("\t")];
    let leaf = prop_oneof![
        3 => number_literal(),
        3 => string_strategy(12).prop_map(|(_, lit)| lit),
        1 => prop_oneof![Just("true".to_owned()), Just("false".to_owned()), Just("null".to_owned())],
    ];
    let value = leaf.prop_recursive(4, 64, 8, move |inner| {
        let ws = ws.clone();
        prop_oneof![
            (proptest::collection::vec(inner.clone(), 0..8), ws.clone())
                .prop_map(|(items, w)| { format!("[{w}{}{w}]", items.join(&format!(",{w}"))) }),
            (
                proptest::collection::vec((string_strategy(6), inner), 0..8),
                ws
            )
                .prop_map(|(members, w)| {
                    let mut seen = std::collections::HashSet::new();
                    let body: Vec<String> = members
                        .into_iter()
                        .filter(|((name, _), _)| seen.insert(name.clone()))
                        .map(|((_, lit), v)| format!("{lit}{w}:{w}{v}"))
                        .collect();
                    format!("{{{w}{}{w}}}", body.join(","))
                }),
        ]
    });
    value
}

/// Generated documents: ours == the crate's on every one the strict
/// reader accepts (numbers that overflow binary64 and negative zero are
/// refused by the reader before any canonicalization, §2.1).
fn generated_documents() -> Result<(), Failed> {
    let mut runner = TestRunner::new(Config {
        cases: 2000,
        failure_persistence: None,
        ..Config::default()
    });
    let accepted = std::cell::Cell::new(0usize);
    runner
        .run(&document(), |text| {
            let Ok(value) = strict::parse_value(text.as_bytes()) else {
                return Ok(());
            };
            accepted.set(accepted.get() + 1);
            agree(&value, &text).map_err(|e| TestCaseError::fail(format!("{e:?}")))
        })
        .map_err(|e| e.to_string())?;
    if accepted.get() < 1000 {
        return Err(format!(
            "only {} of 2000 documents were strict I-JSON",
            accepted.get()
        )
        .into());
    }
    Ok(())
}

/// Members order by UTF-16 code units, not code points: U+1F600 (0xD83D
/// 0xDE00) before U+FB33; the same members in another order have the same
/// bytes.
fn utf16_member_order() -> Result<(), Failed> {
    let v = strict::parse_value(r#"{"\ufb33":1,"\ud83d\ude00":2,"a":3,"":4}"#.as_bytes()).unwrap();
    let bytes = canonical_any(&v);
    assert_eq!(
        String::from_utf8(bytes.clone()).unwrap(),
        "{\"\":4,\"a\":3,\"\u{1f600}\":2,\"\u{fb33}\":1}"
    );
    agree(&v, "utf16")?;
    let w = strict::parse_value(r#"{"a":3,"":4,"\ufb33":1,"\ud83d\ude00":2}"#.as_bytes()).unwrap();
    assert_eq!(canonical_any(&w), bytes);
    Ok(())
}

/// A distinct schema per `i` (a closed object with one bounded member).
fn distinct_schema(i: usize) -> Value {
    serde_json::json!({
        "type": "object",
        "properties": {format!("member{i}"): {"type": "string", "maxLength": i}},
        "required": [format!("member{i}")],
        "additionalProperties": false
    })
}

/// A tree of distinct schemas never grows the cache past its budget: after
/// every lookup the charged bytes are within it, the oldest entries were
/// evicted, and every lookup compiled (nothing repeats).
fn cache_budget_holds() -> Result<(), Failed> {
    use form_package::engine::cache::{charge, SchemaCache};
    use form_package::memo::{content_key, Numbers};
    let budget = 64 << 10;
    let cache = SchemaCache::new(budget);
    let n = 300;
    for i in 0..n {
        let schema = distinct_schema(i);
        cache
            .get_or_compile(&schema, form_package::engine::compile)
            .map_err(|e| format!("{e:?}"))?;
        let st = cache.stats();
        if st.charged > budget || st.peak_charged > budget {
            return Err(format!("over budget after {i}: {st:?}").into());
        }
    }
    let st = cache.stats();
    let smallest = charge(content_key(&distinct_schema(0), Numbers::Binary64).1);
    assert_eq!(st.misses, n as u64, "{st:?}");
    assert_eq!(st.hits, 0, "{st:?}");
    assert!(st.entries >= 1 && st.entries * smallest <= budget, "{st:?}");
    assert_eq!(st.evictions, n as u64 - st.entries as u64, "{st:?}");
    // The last schema is held (first in, first out), the first is not.
    let again = cache.stats();
    cache
        .get_or_compile(&distinct_schema(n - 1), |_| Err(Vec::new()))
        .map_err(|_| "the newest entry was evicted")?;
    assert_eq!(cache.stats().hits, again.hits + 1);
    assert!(cache
        .get_or_compile(&distinct_schema(0), |_| Err(Vec::new()))
        .is_err());
    // An entry larger than the whole budget is compiled but not stored.
    let tiny = SchemaCache::new(100);
    tiny.get_or_compile(&distinct_schema(1), form_package::engine::compile)
        .map_err(|e| format!("{e:?}"))?;
    assert_eq!(tiny.stats().too_large, 1);
    assert_eq!((tiny.stats().entries, tiny.stats().charged), (0, 0));
    // Budget 0: no cache at all.
    let off = SchemaCache::new(0);
    for _ in 0..2 {
        off.get_or_compile(&distinct_schema(2), form_package::engine::compile)
            .map_err(|e| format!("{e:?}"))?;
    }
    assert_eq!(
        (off.stats().misses, off.stats().hits, off.stats().entries),
        (2, 0, 0)
    );
    Ok(())
}

/// Keyed by content: the same document spelled differently (whitespace,
/// number spelling, escapes) is one entry; the same members in another
/// order are another entry (the engine reports violations in member
/// order), and each gives exactly the violations of an uncached compile.
/// A schema that does not compile is cached with its errors.
fn cache_is_content_addressed() -> Result<(), Failed> {
    use form_package::engine::{cache::SchemaCache, compile};
    let cache = SchemaCache::new(1 << 20);
    let spellings = [
        r#"{"type":"object","properties":{"a":{"type":"integer","maximum":10},"b":{"type":"string","maxLength":2}}}"#,
        r#"{ "type" : "object", "properties" : { "\u0061" : { "type" : "integer", "maximum" : 1.0e1 },
 "b" : { "type" : "string", "maxLength" : 2.0 } } }"#,
    ];
    let reordered = r#"{"properties":{"b":{"maxLength":2,"type":"string"},"a":{"maximum":10,"type":"integer"}},"type":"object"}"#;
    let instance = serde_json::json!({"a": 11, "b": "xyz"});
    for (i, text) in spellings.iter().chain([&reordered]).enumerate() {
        let schema = strict::parse_value(text.as_bytes()).unwrap();
        let cached = cache
            .get_or_compile(&schema, compile)
            .map_err(|e| format!("{e:?}"))?;
        let fresh = compile(&schema).map_err(|e| format!("{e:?}"))?;
        assert_eq!(
            cached.violations(&instance, 10),
            fresh.violations(&instance, 10),
            "spelling {i}"
        );
        assert_eq!(fresh.violations(&instance, 10).len(), 2);
    }
    let st = cache.stats();
    assert_eq!((st.misses, st.hits, st.entries), (2, 1, 2), "{st:?}");
    let bad = serde_json::json!({"pattern": "(?<"});
    let first = cache.get_or_compile(&bad, compile).unwrap_err();
    let second = cache
        .get_or_compile(&bad, |_| panic!("compiled twice"))
        .unwrap_err();
    assert_eq!(first, second);
    assert!(!first.is_empty());
    assert_eq!(cache.stats().hits, 2);
    Ok(())
}

/// Two threads that miss on one schema at once compile it once: the
/// second waits for the first's compilation and gets the same compiled
/// schema (the same [`CompiledSchema::id`], so the fixture memo's entries
/// are shared). Near miss: another schema at the same time is compiled on
/// its own.
fn cache_compiles_a_schema_once_across_threads() -> Result<(), Failed> {
    use form_package::engine::{cache::SchemaCache, compile};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let cache = SchemaCache::new(1 << 20);
    let compiles = AtomicUsize::new(0);
    let started = std::sync::Barrier::new(3);
    let slow = |schema: &Value| {
        compiles.fetch_add(1, Ordering::SeqCst);
        // Long enough for the other threads to miss on it meanwhile.
        std::thread::sleep(std::time::Duration::from_millis(50));
        compile(schema)
    };
    let ids: Vec<u64> = std::thread::scope(|threads| {
        let runs: Vec<_> = [0, 0, 1]
            .map(|i| {
                let (cache, started, slow) = (&cache, &started, &slow);
                threads.spawn(move || {
                    started.wait();
                    cache
                        .get_or_compile(&distinct_schema(i), slow)
                        .map(|c| c.id())
                        .unwrap_or(0)
                })
            })
            .into_iter()
            .collect();
        runs.into_iter().map(|r| r.join().unwrap_or(0)).collect()
    });
    assert_eq!(compiles.load(Ordering::SeqCst), 2, "{ids:?}");
    assert_eq!(ids[0], ids[1]);
    assert_ne!(ids[0], ids[2]);
    assert!(!ids.contains(&0));
    let st = cache.stats();
    assert_eq!((st.misses, st.hits, st.entries), (2, 1, 2), "{st:?}");
    Ok(())
}

/// This file's trials, run by the binary's `main`.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    let corpus = common::corpus();
    let mut trials = vec![
        Trial::test("rfc8785_shipped_vectors", shipped_vectors),
        Trial::test("rfc8785_generated_documents", generated_documents),
        Trial::test("rfc8785_utf16_member_order", utf16_member_order),
        Trial::test("schema_cache_budget_holds", cache_budget_holds),
        Trial::test(
            "schema_cache_is_content_addressed",
            cache_is_content_addressed,
        ),
        Trial::test(
            "schema_cache_compiles_a_schema_once_across_threads",
            cache_compiles_a_schema_once_across_threads,
        ),
    ];
    let with_corpus =
        |name: &str, f: fn(&Path) -> Result<(), Failed>| common::corpus_trial(name, &corpus, f);
    trials.push(with_corpus("rfc8785_corpus_files", corpus_files_agree));
    trials.push(with_corpus(
        "rfc8785_corpus_digests",
        corpus_digests_unchanged,
    ));
    trials.push(with_corpus("rfc8785_corpus_vectors", |c| {
        vectors_in(&c.join("rfc8785"))
    }));
    trials.push(with_corpus("rfc8785_es6_numbers", es6_numbers));
    trials
}

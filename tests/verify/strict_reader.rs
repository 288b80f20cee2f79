//! Corpus tests of the strict reader and the canonicaliser
//! (`verifier-rules.md` §2.1–§2.3) against the shared corpus.
//!
//! The corpus is found through `FORM_PACKAGE_CORPUS` (default
//! `../shared/corpus` relative to the crate). When it is missing the tests
//! are reported ignored (`no_corpus`, build.rs).

use crate::common;

use std::path::{Path, PathBuf};

use form_package::canonical::{canonicalize, sha256_digest};
use form_package::json::strict::parse;

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn canonical_digest(p: &Path) -> String {
    let bytes = read(p);
    let parsed = parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let canon = canonicalize(&parsed.value).unwrap_or_else(|d| panic!("{}: {d:?}", p.display()));
    sha256_digest(&canon)
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn rfc8785_corpus_vectors_are_byte_exact() {
    let c = common::corpus_root();
    let dir = c.join("rfc8785");
    let mut n = 0;
    for name in [
        "arrays",
        "french",
        "structures",
        "unicode",
        "values",
        "weird",
    ] {
        let input = read(&dir.join("input").join(format!("{name}.json")));
        let output = read(&dir.join("output").join(format!("{name}.json")));
        let got = canonicalize(&parse(&input).unwrap().value).unwrap();
        assert_eq!(got, output, "vector {name}");
        n += 1;
    }
    assert_eq!(n, 6);
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let ft = std::fs::symlink_metadata(&p).unwrap().file_type();
        if ft.is_dir() {
            json_files(&p, out);
        } else if ft.is_file() && p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn strict_reader_agrees_with_serde_json_on_the_corpus() {
    let c = common::corpus_root();
    let mut files = Vec::new();
    json_files(&c.join("packages"), &mut files);
    assert!(files.len() > 2000, "only {} files", files.len());
    let mut accepted = 0;
    for f in &files {
        let bytes = read(f);
        let ours = parse(&bytes);
        let theirs = serde_json::from_slice::<serde_json::Value>(&bytes);
        match (ours, theirs) {
            (Ok(p), Ok(v)) => {
                assert_eq!(p.value, v, "{}", f.display());
                accepted += 1;
            }
            (Err(_), Err(_)) => {}
            (Ok(_), Err(e)) => panic!("{}: strict accepted, serde_json: {e}", f.display()),
            (Err(e), Ok(_)) => panic!("{}: strict refused: {e}", f.display()),
        }
    }
    assert!(accepted > 2000, "only {accepted} accepted");
}

#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn manifest_digests_are_reproduced() {
    let c = common::corpus_root();
    let manifest: serde_json::Value =
        serde_json::from_slice(&read(&c.join("manifest.json"))).unwrap();
    let mut complete = 0;
    let mut big_int = 0;
    for entry in manifest.as_array().unwrap() {
        if entry["complete"] != serde_json::Value::Bool(true) {
            continue;
        }
        let dir = c.join(entry["path"].as_str().unwrap());
        let def = dir.join("definition.json");
        assert_eq!(
            canonical_digest(&def),
            entry["computedSchemaDigest"].as_str().unwrap(),
            "schema digest of {}",
            dir.display()
        );
        assert_eq!(
            canonical_digest(&dir.join("package-index.json")),
            entry["computedPackageDigest"].as_str().unwrap(),
            "package digest of {}",
            dir.display()
        );
        if String::from_utf8_lossy(&read(&def)).contains("9223372036854775807") {
            big_int += 1;
        }
        complete += 1;
    }
    assert!(complete >= 306, "only {complete} complete packages");
    assert!(
        big_int >= 57,
        "only {big_int} definitions hold 9223372036854775807"
    );
}

#[test]
fn whitespace_style_does_not_change_canonical_bytes() {
    let pretty = "{\n    \"b\": 1.0,\n    \"a\": \"x\"\n}\n";
    let compact = r#"{"b":1.0,"a":"x"}"#;
    let a = canonicalize(&parse(pretty.as_bytes()).unwrap().value).unwrap();
    let b = canonicalize(&parse(compact.as_bytes()).unwrap().value).unwrap();
    assert_eq!(a, b);
    assert_eq!(a, br#"{"a":"x","b":1}"#);
}

/// The §2.1 mutants of the corpus: the file the reference names is refused by
/// the strict reader (or, for a scalar, by the canonicaliser) and the detail
/// carries the reference's text.
#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn strict_reader_refuses_the_json_mutants_like_the_reference() {
    let c = common::corpus_root();
    // (mutant, file, reference detail our detail must contain)
    let cases = [
        (
            "json-bom-fixture--v1a1-kvstore",
            "fixtures/negative.json",
            "invalid number at offset 0",
        ),
        (
            "json-duplicate-key-escaped--v1a2-queue",
            "fixtures/negative-missing-name.json",
            "duplicate object name \"messageRetentionSeconds\"",
        ),
        (
            "json-duplicate-key-fixture--v1b1-object-bucket",
            "fixtures/negative-unexpected-property.json",
            "duplicate object name \"takoformUnexpected\"",
        ),
        (
            "json-duplicate-key-index--v1a2-object-bucket",
            "package-index.json",
            "duplicate object name \"kind\"",
        ),
        (
            "json-invalid-utf8-definition--v1a1-kvstore",
            "definition.json",
            "I-JSON input is not valid UTF-8",
        ),
        (
            "json-lone-high-surrogate--v1a2-object-bucket",
            "definition.json",
            "unpaired high surrogate U+D800",
        ),
        (
            "json-negative-zero--v1a1-example-store",
            "definition.json",
            "negative zero \"-0\" is forbidden",
        ),
        (
            "json-nesting-257--v1a3-object-bucket",
            "fixtures/deep.json",
            "JSON nesting exceeds 256 containers",
        ),
        (
            "json-number-overflow--v1a3-worker-deployment",
            "definition.json",
            "number \"1e400\" is not finite IEEE-754 binary64",
        ),
        (
            "json-trailing-value--v1b1-worker-version",
            "fixtures/desired.json",
            "unexpected trailing byte at offset 1717",
        ),
    ];
    for (mutant, file, detail) in cases {
        let p = c.join("mutants").join(mutant).join("package").join(file);
        let e = match parse(&read(&p)) {
            Ok(_) => panic!("{mutant}: {file} accepted"),
            Err(e) => e,
        };
        assert!(
            e.detail.contains(detail),
            "{mutant}: {:?} lacks {detail:?}",
            e.detail
        );
    }
    let p =
        c.join("mutants/json-toplevel-scalar--v1a3-worker-deployment/package/fixtures/scalar.json");
    let v = parse(&read(&p)).unwrap().value;
    let d = canonicalize(&v).unwrap_err();
    assert_eq!(d.code, form_package::codes::Code::ScalarTopLevel);
}

/// The reader is iterative: 256 nested containers parse, canonicalise and
/// drop on a thread with a 512 KiB stack (debug build; the parse alone needs
/// under 128 KiB), and 100,000 nested `[` are refused there too.
#[test]
fn max_depth_fits_a_small_stack() {
    let n = form_package::json::strict::MAX_DEPTH;
    let mut doc = "{\"a\":[".repeat(n / 2);
    doc.push_str(&"]}".repeat(n / 2));
    let h = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let p = parse(doc.as_bytes()).unwrap();
            let c = canonicalize(&p.value).unwrap();
            let mut deeper = "[".repeat(100_000);
            deeper.push_str(&doc);
            let e = parse(deeper.as_bytes()).unwrap_err();
            assert_eq!(e.span, n..n + 1);
            c.len()
        })
        .unwrap();
    assert_eq!(h.join().unwrap(), n / 2 * 8);
}

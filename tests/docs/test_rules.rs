//! Rules of the tests themselves (issue 21 item 7): a test that needs the
//! corpus is reported ignored without it, never passed. A `#[test]` takes
//! the corpus from `corpus_root()` (which fails, not returns, when it is
//! missing) and carries `#[cfg_attr(no_corpus, ignore = …)]` (build.rs sets
//! `no_corpus`); only a file that builds libtest-mimic trials (`pub fn
//! trials`) may ask `common::corpus()`, whose `None` makes them ignored.

use std::path::{Path, PathBuf};

const IGNORE: &str = "#[cfg_attr(no_corpus, ignore";

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            if !p.ends_with("node_modules") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every test source: `src/` and `tests/` but the places that define the
/// rule (the two preludes, this file: `src/testing.rs`'s one unignored
/// corpus test fails under CI when the corpus is missing).
fn test_sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("tests"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|p| {
            !p.starts_with(root.join("tests/common"))
                && !p.ends_with("src/testing.rs")
                && !p.ends_with("tests/docs/test_rules.rs")
        })
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let rel = p.strip_prefix(root).unwrap().display().to_string();
            (rel, text)
        })
        .collect()
}

#[test]
fn no_test_returns_early_without_the_corpus() {
    let mut bad = Vec::new();
    for (file, text) in test_sources() {
        let trials = text.contains("pub fn trials()");
        for (n, line) in text.lines().enumerate() {
            let asks = line.contains("common::corpus()") || line.contains("corpus_dir()");
            if asks && !trials && !line.trim_start().starts_with("//") {
                bad.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "these ask for an optional corpus outside libtest-mimic trials (a #[test] \
         takes corpus_root() and #[cfg_attr(no_corpus, ignore = \"needs the corpus\")]):\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_test_that_reads_the_corpus_is_ignored_without_it() {
    let mut checked = 0;
    let mut bad = Vec::new();
    for (file, text) in test_sources() {
        // A libtest-mimic trial that needs the corpus is built by
        // `common::corpus_trial` or `common::corpus_test` (often through a
        // local `with_corpus`): reported ignored without it.
        if text.contains("pub fn trials()") {
            checked += text
                .lines()
                .map(str::trim_start)
                .filter(|l| !l.starts_with("let ") && !l.starts_with("//"))
                .filter(|l| {
                    ["corpus_trial(", "corpus_test(", "with_corpus("]
                        .iter()
                        .any(|c| l.contains(c))
                })
                .count();
        }
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim() != "#[test]" {
                continue;
            }
            // The test's attributes, then its body up to the closing brace
            // at the indentation of `#[test]`.
            let indent = &line[..line.len() - line.trim_start().len()];
            let end = (i + 1..lines.len())
                .find(|&j| lines[j] == format!("{indent}}}"))
                .unwrap_or(lines.len());
            let body = &lines[i + 1..end];
            if body.iter().any(|l| l.contains("corpus_root()")) {
                checked += 1;
                let head = body.iter().take_while(|l| !l.contains("fn "));
                if !head.clone().any(|l| l.trim_start().starts_with(IGNORE)) {
                    bad.push(format!("{file}:{}", i + 1));
                }
            }
        }
    }
    assert!(checked >= 40, "only {checked} corpus tests found");
    assert!(
        bad.is_empty(),
        "these tests read the corpus without #[cfg_attr(no_corpus, ignore = \"needs the corpus\")]:\n{}",
        bad.join("\n")
    );
}

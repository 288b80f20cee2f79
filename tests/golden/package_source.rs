//! A package gives byte-identical reports whether its files are read from
//! disk or held in memory (issue 21 item 2, `src/source.rs`): every package
//! of the corpus (`packages/`, `engine/`, `mutants/`, `mutants-current/`,
//! the conformance suite's positives), verified both ways, rendered in
//! every format. Reported as ignored, not passed, when the corpus is
//! absent.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use form_package::render::{self, Format, RunView};
use form_package::report::{Entry, EntryKind, ExitRule, Report};
use form_package::source::MemorySource;
use form_package::verify::{verify_package, verify_source};
use rayon::prelude::*;

/// Every file below `dir` by package path, or `None` when the tree holds
/// something a map of bytes cannot (a link, a special file): such a
/// package is read from disk only.
fn files_of(dir: &Path) -> Option<BTreeMap<String, Vec<u8>>> {
    let mut files = BTreeMap::new();
    for e in walkdir::WalkDir::new(dir).min_depth(1) {
        let e = e.ok()?;
        let t = e.file_type();
        if t.is_dir() {
            continue;
        }
        if !t.is_file() {
            return None;
        }
        let rel = e.path().strip_prefix(dir).ok()?.to_str()?.to_owned();
        files.insert(rel, std::fs::read(e.path()).ok()?);
    }
    Some(files)
}

/// The package roots of the corpus sets.
fn roots(corpus: &Path) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    for set in [
        "packages",
        "engine",
        "mutants",
        "mutants-current",
        "conformance/form-package-v1/positive",
    ] {
        let w = form_package::discover::walk(&corpus.join(set), &Default::default());
        assert!(w.findings.is_empty(), "{set}: {:?}", w.findings);
        roots.extend(w.roots);
    }
    roots
}

/// Every format's report of one outcome.
fn reports(o: form_package::verify::PackageOutcome) -> Vec<String> {
    let report = Report::new(vec![Entry::new(EntryKind::Package, o)], ExitRule::default());
    let run = RunView::of(&report);
    let opts = render::Options::here();
    [
        Format::Human,
        Format::Json,
        Format::Sarif,
        Format::Github,
        Format::Junit,
    ]
    .into_iter()
    .map(|f| render::render(f, &run, &opts))
    .collect()
}

fn disk_and_memory_agree(corpus: &Path) -> Result<(), libtest_mimic::Failed> {
    let roots = roots(corpus);
    assert!(roots.len() > 600, "{} package roots", roots.len());
    let compared: Vec<Result<bool, String>> = roots
        .par_iter()
        .map(|root| {
            let Some(files) = files_of(root) else {
                return Ok(false);
            };
            let disk = reports(verify_package(root));
            let memory = reports(verify_source(Box::new(MemorySource::new(root, files))));
            for (d, m) in disk.iter().zip(&memory) {
                if d != m {
                    return Err(format!(
                        "{}:\n--- disk\n{d}\n--- memory\n{m}",
                        root.display()
                    ));
                }
            }
            Ok(true)
        })
        .collect();
    let mut same = 0;
    for c in compared {
        if c? {
            same += 1;
        }
    }
    // The corpus is plain files: every package was compared.
    assert_eq!(same, roots.len());
    Ok(())
}

/// This file's trials, run by the binary's `main`.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    let corpus = common::corpus();
    let trial = common::corpus_trial(
        "disk_and_memory_give_byte_identical_reports_on_the_corpus",
        &corpus,
        disk_and_memory_agree,
    );
    vec![trial]
}

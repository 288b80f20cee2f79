//! Issue 37 item 7: no page of the docs (nor a benchmark script) names a
//! path of the machine it was written on (`/tmp/…`, `/work/…`): docs name
//! paths relative to the repository (`../shared/…`) or `$TMPDIR`.

use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown file of the book, the repository's top-level docs, and
/// the benchmark scripts the benchmarks page tells readers to run
/// (`benches/`: their defaults are `../shared/…` and `$TMPDIR`, too).
fn doc_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(repo().join("docs/src"))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.extend(
        walkdir::WalkDir::new(repo().join("benches"))
            .into_iter()
            .map(|e| e.unwrap().into_path())
            .filter(|p| {
                p.is_file()
                    && p.extension().is_some_and(|e| {
                        ["rs", "py", "sh", "md"].contains(&e.to_str().unwrap_or(""))
                    })
            }),
    );
    for top in ["README.md", "SECURITY.md"] {
        files.push(repo().join(top));
    }
    assert!(files.len() > 50, "{} pages", files.len());
    files
}

/// An absolute path of a machine (a scratch or work directory, a home):
/// `/tmp/…`, `/work/…`, `/home/…`, `/root/…`, `/Users/…`, `/mnt/…`,
/// `/scratch/…` at the start of a word. System paths (`/usr/bin/time`,
/// `/dev/stdout`, `/proc`) are not machine paths, nor is a JSON Pointer
/// such as `/root` without a following segment in prose.
fn machine_path() -> regex::Regex {
    regex::Regex::new(r#"(^|[\s`'"=(:])/(tmp|work|home|root|Users|mnt|scratch)/"#).unwrap()
}

/// Docs name paths relative to the repository (`../shared/…`) or
/// `$TMPDIR`, never the absolute paths of the machine they were measured
/// on. Near miss: the pattern catches each shape it must and spares
/// system paths.
#[test]
fn docs_name_no_absolute_machine_path() {
    let re = machine_path();
    for hit in [
        "see /tmp/x",
        "`/work/shared/corpus`",
        "B=/home/me/bin",
        "--out /root/x",
    ] {
        assert!(re.is_match(hit), "{hit}");
    }
    for miss in [
        "/usr/bin/time -v",
        "/dev/stdout",
        "$TMPDIR/x",
        "../shared/corpus",
        "a/tmp/b",
        ".github/workflows/x",
    ] {
        assert!(!re.is_match(miss), "{miss}");
    }
    let mut found = Vec::new();
    for f in doc_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            if re.is_match(line) {
                let rel = f.strip_prefix(repo()).unwrap().display().to_string();
                found.push(format!("{rel}:{}: {line}", i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "absolute machine paths:\n{}",
        found.join("\n")
    );
}

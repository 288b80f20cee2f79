//! Support shared by the integration tests: where the corpus and the
//! shipped fixtures are, and copying a package so a test can change it.
#![allow(dead_code)] // each test crate uses part of it

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The built `form-package` binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_form-package");

/// The corpus root from `FORM_PACKAGE_CORPUS` (default `../shared/corpus`
/// beside the clone), or `None` after saying on the terminal (past the
/// harness's output capture) that the corpus tests did not run.
///
/// # Panics
/// When the corpus is missing and `CI` is set.
pub fn corpus() -> Option<PathBuf> {
    let root = corpus_path();
    if root.join("manifest.json").is_file() {
        return Some(root);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "corpus missing at {} (set FORM_PACKAGE_CORPUS)",
        root.display()
    );
    let _ = std::io::Write::write_fmt(
        &mut std::io::stderr(),
        format_args!(
            "\n*** CORPUS TESTS DID NOT RUN: no corpus at {} (set FORM_PACKAGE_CORPUS) ***\n",
            root.display()
        ),
    );
    None
}

/// The corpus root, for a `#[test]` that needs it: such a test carries
/// `#[cfg_attr(no_corpus, ignore = "needs the corpus")]` (build.rs sets
/// `no_corpus` when the corpus is missing), so it is reported ignored, not
/// passed, without the corpus.
///
/// # Panics
/// When the corpus is missing all the same (removed after the build): the
/// test fails rather than pass.
pub fn corpus_root() -> PathBuf {
    let root = corpus_path();
    assert!(
        root.join("manifest.json").is_file(),
        "this test needs the corpus, missing at {} (set FORM_PACKAGE_CORPUS)",
        root.display()
    );
    root
}

/// Where the corpus is expected: `FORM_PACKAGE_CORPUS`, default
/// `../shared/corpus` beside the clone.
fn corpus_path() -> PathBuf {
    std::env::var_os("FORM_PACKAGE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

/// A trial that needs the corpus: runs `f` on `corpus`, and is reported
/// ignored (never passed) when [`corpus`] found none.
pub fn corpus_trial(
    name: &str,
    corpus: &Option<PathBuf>,
    f: impl FnOnce(&Path) -> Result<(), libtest_mimic::Failed> + Send + 'static,
) -> libtest_mimic::Trial {
    let c = corpus.clone();
    libtest_mimic::Trial::test(name, move || match &c {
        Some(c) => f(c),
        None => Err("no corpus".into()),
    })
    .with_ignored_flag(corpus.is_none())
}

/// A trial of a test body that fails by panicking, as a `#[test]` does.
pub fn test(name: &str, f: fn()) -> libtest_mimic::Trial {
    libtest_mimic::Trial::test(name, move || {
        f();
        Ok(())
    })
}

/// [`test`] for a body that needs the corpus: reported ignored, never
/// passed, when [`corpus`] found none ([`corpus_trial`]).
pub fn corpus_test(name: &str, corpus: &Option<PathBuf>, f: fn(&Path)) -> libtest_mimic::Trial {
    corpus_trial(name, corpus, move |c| {
        f(c);
        Ok(())
    })
}

/// A trial that needs a tool the machine may lack, given the probe's answer
/// (`Err`: why the tool cannot run here). Without the tool it is reported
/// ignored (never passed; said on the terminal, past the output capture) or,
/// when `required` names a variable that is set, failed.
pub fn needs_tool<T>(
    name: &str,
    probe: Result<T, String>,
    required: &str,
    trial: impl FnOnce(T) -> libtest_mimic::Trial,
) -> libtest_mimic::Trial {
    match probe {
        Ok(tool) => trial(tool),
        Err(why) if std::env::var_os(required).is_some() => {
            let why = format!("{required} is set but {why}");
            libtest_mimic::Trial::test(name, move || Err(why.into()))
        }
        Err(why) => {
            let _ = std::io::Write::write_fmt(
                &mut std::io::stderr(),
                format_args!("\n*** {name} DID NOT RUN (ignored): {why} ***\n"),
            );
            libtest_mimic::Trial::test(name, move || Err(why.into())).with_ignored_flag(true)
        }
    }
}

/// The variables under which a test backed by an oracle (the reference
/// verifier, the snapshot oracle) must run: [`needs_oracle`].
pub const ORACLE_REQUIRED_BY: [&str; 2] = ["CI", "FORM_PACKAGE_REQUIRE_ORACLE"];

/// The one rule of every test backed by an oracle: run `trial` with the
/// oracle `probe` found; without it the trial is reported ignored (never
/// passed), or failed when `CI` or `FORM_PACKAGE_REQUIRE_ORACLE` is set
/// (`.ci/run` sets `CI`).
pub fn needs_oracle<T>(
    name: &str,
    probe: Result<T, String>,
    trial: impl FnOnce(T) -> libtest_mimic::Trial,
) -> libtest_mimic::Trial {
    let required = ORACLE_REQUIRED_BY
        .into_iter()
        .find(|v| std::env::var_os(v).is_some())
        .unwrap_or(ORACLE_REQUIRED_BY[1]);
    needs_tool(name, probe, required, trial)
}

/// The Core's Snapshot compiler as a binary: `FORM_PACKAGE_SNAPSHOT_ORACLE`,
/// else `oracle/snapshot-oracle` beside the corpus (`FORM_PACKAGE_CORPUS`,
/// default `../shared/corpus`); `Err` says where none was found.
pub fn snapshot_oracle() -> Result<PathBuf, String> {
    let p = std::env::var_os("FORM_PACKAGE_SNAPSHOT_ORACLE")
        .map(PathBuf::from)
        .unwrap_or_else(|| corpus_path().join("../oracle/snapshot-oracle"));
    if p.is_file() {
        Ok(p)
    } else {
        Err(format!("no snapshot oracle at {}", p.display()))
    }
}

/// The `main` of a libtest-mimic test binary: runs each file's trials,
/// each listed as `[file] name` (so `cargo test --test BINARY FILE` runs
/// one file's), under the command line's filters.
pub fn run_trials(files: Vec<(&str, Vec<libtest_mimic::Trial>)>) {
    let args = libtest_mimic::Arguments::from_args();
    let trials = files
        .into_iter()
        .flat_map(|(file, trials)| trials.into_iter().map(move |t| t.with_kind(file)))
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// `fixtures/` in the repository.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Copies a directory tree of regular files and directories.
pub fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), &to).unwrap();
        }
    }
}

/// Copies a package into a fresh temporary directory (`<tmp>/pkg`).
pub fn copy_package(src: &Path) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dst = tmp.path().join("pkg");
    copy_dir(src, &dst);
    (tmp, dst)
}

/// Rewrites `package-index.json` from the directory's files (sizes,
/// digests, `formRef.schemaDigest`), even when a test broke their content
/// on purpose ([`form_package::index::build_lenient`]).
pub fn reindex(dir: &Path) {
    let indexed =
        form_package::index::build_lenient(dir, None).unwrap_or_else(|d| panic!("index: {d:?}"));
    form_package::index::write(dir, &indexed).unwrap();
}

/// Runs the built `form-package` binary with `args` in `dir`, colour off.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    let mut c = command(args);
    c.current_dir(dir);
    c.output().unwrap()
}

/// `verify PATH --format FORMAT --output-file FILE`, run in `dir` ([`run_in`]).
pub fn verify_to_file(dir: &Path, path: &str, format: &str, file: &str) -> Output {
    run_in(
        dir,
        &["verify", path, "--format", format, "--output-file", file],
    )
}

/// Runs the built `form-package` binary with `args`, colour off.
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    command(args).output().unwrap()
}

/// The binary with `args`, colour off and no `GITHUB_WORKSPACE` (which
/// would make paths relative to it): the environment of every run.
fn command<S: AsRef<OsStr>>(args: &[S]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_WORKSPACE");
    c
}

/// Asserts that a run exited with `code`, its standard error shown
/// otherwise.
pub fn assert_exit(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A run's standard output as text (lossy).
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The codes of the first package's findings in a JSON report.
pub fn codes(report: &serde_json::Value) -> Vec<&str> {
    report["packages"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect()
}

/// The string member `key` of each element of the JSON array `array` (e.g.
/// the `ruleId` of each SARIF result).
///
/// # Panics
/// When `array` is not an array or an element's `key` is not a string.
pub fn strings<'a>(array: &'a serde_json::Value, key: &str) -> Vec<&'a str> {
    array
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e[key].as_str().unwrap())
        .collect()
}

/// The elements of the JSON array `array` whose member `key` is `value`.
///
/// # Panics
/// When `array` is not an array.
pub fn elements_with<'a>(
    array: &'a serde_json::Value,
    key: &str,
    value: &str,
) -> Vec<&'a serde_json::Value> {
    array
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e[key] == value)
        .collect()
}

/// Makes a FIFO at `path` (`mkfifo`, which must succeed).
pub fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Replaces the `${{ … }}` expressions of a GitHub workflow `value` from
/// `ctx`; every one must be known.
pub fn expand(value: &str, ctx: &std::collections::BTreeMap<&str, String>) -> String {
    let mut out = value.to_owned();
    for (k, v) in ctx {
        out = out.replace(&format!("${{{{ {k} }}}}"), v);
    }
    assert!(!out.contains("${{"), "unevaluated expression in {value:?}");
    out
}

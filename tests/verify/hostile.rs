//! Hostile packages (project issue #7): every input is built at run time in
//! a temp dir from the shipped package `example-store-1.0.0-f486d5e31632`.
//! Each test asserts the diagnostic code and that the verifier stays within
//! bounds: it finishes (every run and every blocking-prone read is under a
//! hang guard, [`HANG_LIMIT`], so a blocking open or a loop that does not
//! end fails the test instead of stalling the suite; no test asserts how
//! fast, which is docs/src/benchmarks.md's) and, where `/usr/bin/time` exists, its
//! peak resident set stays under 256 MiB.
//! The measured numbers are recorded in `SECURITY.md`.
//!
//! Peak memory is printed as `peak-rss <case> <KiB> KiB` (run with
//! `--nocapture` to see it).

use crate::common;
use common::copy_dir;

use std::io::Write;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use form_package::codes::Code;
use form_package::fsread::{self, open_root};
use form_package::index;
use form_package::verify::{verify_package, PackageOutcome};
use serde_json::{json, Value};

/// Peak-memory bound asserted for every measured run (256 MiB, in KiB).
const PEAK_LIMIT_KIB: u64 = 256 * 1024;
/// Hang guard, not a speed bound (speed is docs/src/benchmarks.md's): a run or a
/// read still going after this long is taken as blocked (a FIFO open, a
/// loop that does not end) and fails the test. Generous, so that a slow
/// debug build on a loaded machine never trips it.
const HANG_LIMIT: Duration = Duration::from_secs(300);

fn example_store() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632")
}

/// A fresh copy of the example store in a temp dir: `(guard, package dir)`.
fn package() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dst = tmp.path().join("pkg");
    copy_dir(&example_store(), &dst);
    (tmp, dst)
}

/// Re-indexes `dir` with the crate's own indexer (sizes, digests, formRef).
fn reindex(dir: &Path) {
    let built = index::build_lenient(dir, None).unwrap_or_else(|d| panic!("index: {d:?}"));
    index::write(dir, &built).unwrap();
}

fn read_index(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("package-index.json")).unwrap()).unwrap()
}

fn write_index(dir: &Path, index: &Value) {
    std::fs::write(
        dir.join("package-index.json"),
        serde_json::to_vec(index).unwrap(),
    )
    .unwrap();
}

/// Adds (or replaces) one `files` entry by hand, keeping the list sorted;
/// for payloads `index::build` must not read (it refuses them too).
fn list_by_hand(dir: &Path, path: &str, media_type: &str, size: u64, digest: &str) {
    let mut idx = read_index(dir);
    let files = idx["files"].as_array_mut().unwrap();
    files.retain(|f| f["path"] != path);
    files.push(json!({"digest": digest, "mediaType": media_type, "path": path, "size": size}));
    files.sort_by(|a, b| {
        a["path"]
            .as_str()
            .unwrap()
            .as_bytes()
            .cmp(b["path"].as_str().unwrap().as_bytes())
    });
    write_index(dir, &idx);
}

/// Creates a sparse 1 GiB file at `path` (not one block written).
fn sparse_1gib(path: &Path) {
    std::fs::File::create(path)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
}

/// A sparse 1 GiB file at `rel` in the package, listed by hand with `size`
/// and an all-zero digest.
fn sparse_1gib_listed(dir: &Path, rel: &str, media_type: &str, size: u64) {
    sparse_1gib(&dir.join(rel));
    let zero = format!("sha256:{}", "0".repeat(64));
    list_by_hand(dir, rel, media_type, size, &zero);
}

/// The first finding with `code`, or a panic listing what was found.
fn finding(outcome: &PackageOutcome, code: Code) -> &form_package::diag::Diagnostic {
    outcome
        .diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("{:?}", ids(outcome)))
}

/// Runs the binary on `dir` (measured, see [`verify_bin`]) and asserts it
/// exits 1 with a finding of `code` (e.g. `"FD014"`).
fn bin_fails_with(case: &str, dir: &Path, code: &str) -> Run {
    let run = verify_bin(case, dir);
    assert_eq!(run.output.status.code(), Some(1));
    assert!(run.codes().iter().any(|c| c == code), "{:?}", run.codes());
    run
}

/// Runs the binary on `dir` (measured, see [`verify_bin`]) and asserts its
/// report has a finding of `code` (e.g. `"FD004"`), whatever the exit code.
fn bin_reports(case: &str, dir: &Path, code: &str) -> Run {
    let run = verify_bin(case, dir);
    assert!(run.codes().iter().any(|c| c == code), "{:?}", run.codes());
    run
}

/// Verifies `dir` through the library and asserts its finding of `code`
/// says exactly `message`.
fn finding_says(dir: &Path, code: Code, message: &str) {
    let out = verify_finishes(dir);
    assert_eq!(finding(&out, code).message, message);
}

fn ids(outcome: &PackageOutcome) -> Vec<&'static str> {
    outcome
        .diagnostics
        .iter()
        .map(|d| d.code.info().id)
        .collect()
}

fn has(outcome: &PackageOutcome, code: Code) -> bool {
    outcome.diagnostics.iter().any(|d| d.code == code)
}

/// Runs `f` on a thread and returns what it returns; fails the test only
/// when `f` has not finished after [`HANG_LIMIT`] (blocked or looping) or
/// panicked. A termination guard, never a speed assertion.
fn finishes<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(HANG_LIMIT) {
        Ok(v) => v,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what}: not finished after {HANG_LIMIT:?} (blocked or hung)")
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: panicked"),
    }
}

/// Runs `verify_package` on `dir` under the hang guard ([`finishes`]).
fn verify_finishes(dir: &Path) -> PackageOutcome {
    let dir = dir.to_path_buf();
    finishes("verify_package", move || verify_package(&dir))
}

/// A finished run of the binary: its output and, when `/usr/bin/time`
/// exists, the peak resident set in KiB.
struct Run {
    output: Output,
    peak_kib: Option<u64>,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.output.stdout).unwrap_or_else(|e| {
            panic!(
                "{e}: stdout {} stderr {}",
                String::from_utf8_lossy(&self.output.stdout),
                String::from_utf8_lossy(&self.output.stderr)
            )
        })
    }

    /// The diagnostic codes of the first package of `--format json` output.
    fn codes(&self) -> Vec<String> {
        self.json()["packages"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect()
    }
}

/// Runs `cmd` under a watchdog: a run longer than [`HANG_LIMIT`] is killed
/// and fails the test (this is what catches a blocking FIFO open or a hang).
fn bounded(mut cmd: Command, what: &str) -> Output {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drain the pipes on threads so a large output cannot block the child.
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut so, &mut b).unwrap();
        b
    });
    let t_err = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut se, &mut b).unwrap();
        b
    });
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > HANG_LIMIT {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{what}: still running after {HANG_LIMIT:?} (blocked or hung); killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: t_out.join().unwrap(),
        stderr: t_err.join().unwrap(),
    }
}

fn time_tool() -> Option<&'static Path> {
    let p = Path::new("/usr/bin/time");
    p.is_file().then_some(p)
}

/// Runs `program args` under the watchdog and, when `/usr/bin/time` exists,
/// measures its peak RSS and asserts it is under 256 MiB. `case` names the
/// measurement in the printed line.
fn measured(case: &str, program: &Path, args: &[&std::ffi::OsStr], env: &[(&str, &str)]) -> Run {
    let scratch = tempfile::tempdir().unwrap();
    let report = scratch.path().join("rss");
    let mut cmd = match time_tool() {
        Some(t) => {
            let mut c = Command::new(t);
            c.arg("-f").arg("%M").arg("-o").arg(&report).arg(program);
            c
        }
        None => Command::new(program),
    };
    cmd.args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_WORKSPACE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let output = bounded(cmd, case);
    let peak_kib = match time_tool() {
        Some(_) => {
            let text = std::fs::read_to_string(&report).unwrap();
            // GNU time may prefix a "Command exited with non-zero status" line.
            let kib: u64 = text
                .lines()
                .last()
                .and_then(|l| l.trim().parse().ok())
                .unwrap_or_else(|| panic!("unparsable /usr/bin/time report {text:?}"));
            eprintln!("peak-rss {case} {kib} KiB");
            assert!(
                kib < PEAK_LIMIT_KIB,
                "{case}: peak RSS {kib} KiB exceeds {PEAK_LIMIT_KIB} KiB"
            );
            Some(kib)
        }
        None => {
            eprintln!("peak-rss {case} NOT MEASURED: /usr/bin/time is not installed");
            None
        }
    };
    Run { output, peak_kib }
}

/// `form-package ARGS…`, measured as `case` (see [`measured`]).
fn bin_measured(case: &str, args: &[&std::ffi::OsStr]) -> Run {
    measured(case, Path::new(crate::common::BIN), args, &[])
}

/// `form-package verify DIR --format json`, measured.
fn verify_bin(case: &str, dir: &Path) -> Run {
    let run = bin_measured(
        case,
        &[
            "verify".as_ref(),
            dir.as_os_str(),
            "--format".as_ref(),
            "json".as_ref(),
        ],
    );
    assert!(
        run.output.status.code().is_some(),
        "{case}: killed by a signal: {:?} stderr {}",
        run.output.status,
        String::from_utf8_lossy(&run.output.stderr)
    );
    run
}

/// Re-runs one test of this very binary in a child process (filtered with
/// `--exact`) and measures its peak RSS; the child sees `HOSTILE_CHILD` and
/// skips this step. Used for the cases that only the `fsread` API can reach.
fn measure_self(test: &str) {
    if std::env::var_os("HOSTILE_CHILD").is_some() {
        return;
    }
    let exe = std::env::current_exe().unwrap();
    // The harness names a test by its path below the crate root.
    let module = module_path!().split_once("::").unwrap().1;
    let exact = format!("{module}::{test}");
    let run = measured(
        test,
        &exe,
        &[
            exact.as_ref(),
            "--exact".as_ref(),
            "--test-threads=1".as_ref(),
        ],
        &[("HOSTILE_CHILD", "1")],
    );
    assert!(
        run.output.status.success(),
        "{test} failed in the child: {}",
        String::from_utf8_lossy(&run.output.stdout)
    );
    let _ = run.peak_kib;
}

fn desired_path(dir: &Path) -> PathBuf {
    dir.join("fixtures/desired.json")
}

fn nested(depth: usize) -> Vec<u8> {
    let mut v = vec![b'['; depth];
    v.extend(std::iter::repeat_n(b']', depth));
    v
}

// ---------------------------------------------------------------------------
// JSON nesting

#[test]
fn payload_nested_100000_deep_is_refused_without_stack_overflow() {
    let (_t, dir) = package();
    std::fs::write(desired_path(&dir), nested(100_000)).unwrap();
    reindex(&dir);
    let out = verify_finishes(&dir);
    let d = out
        .diagnostics
        .iter()
        .find(|d| d.code == Code::InvalidJsonPayload || d.code == Code::InvalidIJson)
        .unwrap_or_else(|| panic!("no FD020/FD012 in {:?}", ids(&out)));
    assert_eq!(d.file.as_deref(), Some("fixtures/desired.json"));
    assert!(d.message.contains("nesting"), "{}", d.message);
    assert!(out.report.is_none());

    bin_fails_with("nesting-100000-payload", &dir, "FD020");
}

#[test]
fn definition_nested_100000_deep_is_refused_without_stack_overflow() {
    let (_t, dir) = package();
    let bytes = nested(100_000);
    std::fs::write(dir.join("definition.json"), &bytes).unwrap();
    // The indexer refuses to parse it, so list the new bytes by hand.
    list_by_hand(
        &dir,
        "definition.json",
        "application/vnd.takoform.form-definition.v1+json",
        bytes.len() as u64,
        &form_package::canonical::sha256_digest(&bytes),
    );
    let out = verify_finishes(&dir);
    assert!(
        out.diagnostics
            .iter()
            .any(
                |d| (d.code == Code::InvalidJsonPayload || d.code == Code::InvalidIJson)
                    && d.file.as_deref() == Some("definition.json")
            ),
        "{:?}",
        ids(&out)
    );
    let run = verify_bin("nesting-100000-definition", &dir);
    assert_eq!(run.output.status.code(), Some(1));
}

#[test]
fn canonicalize_command_refuses_deep_nesting() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("deep.json");
    std::fs::write(&f, nested(100_000)).unwrap();
    let run = bin_measured(
        "nesting-100000-canonicalize",
        &["canonicalize".as_ref(), f.as_os_str()],
    );
    assert_eq!(run.output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.output.stderr);
    assert!(err.contains("FD012"), "{err}");
    assert!(err.contains("nesting exceeds 256"), "{err}");
}

#[test]
fn nesting_at_the_limit_is_fine() {
    // Near miss: 256 levels parse; 257 do not.
    assert!(form_package::json::strict::parse(&nested(256)).is_ok());
    assert!(form_package::json::strict::parse(&nested(257)).is_err());
}

// ---------------------------------------------------------------------------
// Sizes

#[test]
fn sparse_1gib_payload_is_refused_by_size_before_reading() {
    let (_t, dir) = package();
    sparse_1gib_listed(&dir, "fixtures/huge.json", "application/json", 1 << 30);
    let out = verify_finishes(&dir);
    let codes = ids(&out);
    // The published index schema bounds `size`, so the index is refused as a
    // whole (FD101) before any payload is opened; nothing is read.
    assert!(
        codes.contains(&"FD101") || codes.contains(&"FD110"),
        "{codes:?}"
    );
    assert!(out.report.is_none());
    let run = verify_bin("sparse-1gib-listed", &dir);
    assert_eq!(run.output.status.code(), Some(1));
}

#[test]
fn sparse_1gib_payload_read_is_refused_from_metadata() {
    measure_self("sparse_1gib_payload_read_is_refused_from_metadata");
    let t = tempfile::tempdir().unwrap();
    sparse_1gib(&t.path().join("huge.json"));
    let root = open_root(t.path()).unwrap();
    let inv = root.inventory();
    // Refused from its metadata: the message gives the size it never read.
    let err = root
        .read("huge.json", fsread::JSON_LIMIT, Some(&inv.files[0].meta))
        .unwrap_err();
    assert_eq!(err.code, Code::UnreadablePayload);
    assert_eq!(
        err.message,
        "read payload \"huge.json\": file is 1073741824 bytes; maximum is 16777216"
    );
}

#[test]
fn sparse_1gib_unlisted_file_is_never_read() {
    // The 1 GiB file is in the directory but listed with a small size: the
    // read is refused from metadata (no 1 GiB allocation), closure holds.
    let (_t, dir) = package();
    sparse_1gib_listed(&dir, "fixtures/notes.txt", "text/plain", 10);
    finding_says(
        &dir,
        Code::UnreadablePayload,
        "read payload \"fixtures/notes.txt\": file is 1073741824 bytes; maximum is 67108864",
    );
    bin_fails_with("sparse-1gib-listed-small", &dir, "FD014");
}

// ---------------------------------------------------------------------------
// Proof budget

/// `levels` closed objects, each with `width` properties that all `$ref`
/// the next level (level 0 is the root schema itself, levels 1.. live in
/// `$defs`): a DAG whose proof spends about `levels * width` operations even
/// with memoisation.
fn ref_dag(levels: usize, width: usize) -> Value {
    let level = |l: usize| {
        let mut props = serde_json::Map::new();
        for w in 0..width {
            let target = if l + 1 < levels {
                json!({"$ref": format!("#/$defs/l{}", l + 1)})
            } else {
                json!({"type": "string"})
            };
            props.insert(format!("f{w}"), target);
        }
        json!({"type": "object", "additionalProperties": false, "properties": props})
    };
    let mut defs = serde_json::Map::new();
    for l in 1..levels {
        defs.insert(format!("l{l}"), level(l));
    }
    let mut root = level(0);
    root["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    root["$defs"] = Value::Object(defs);
    root
}

/// A copy of the package whose definition's desired schema is `schema`,
/// reindexed.
fn package_with_desired_schema(schema: Value) -> (tempfile::TempDir, PathBuf) {
    let (t, dir) = package();
    let path = dir.join("definition.json");
    let mut def: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    def["desiredSchema"] = schema;
    std::fs::write(&path, serde_json::to_vec(&def).unwrap()).unwrap();
    reindex(&dir);
    (t, dir)
}

#[test]
fn ref_dag_over_4096_operations_is_refused() {
    let (_t, dir) = package_with_desired_schema(ref_dag(8, 600));
    let out = verify_finishes(&dir);
    assert!(has(&out, Code::ProofBudgetExceeded), "{:?}", ids(&out));
    bin_fails_with("ref-dag-budget", &dir, "FD220");
}

#[test]
fn ref_dag_proof_budget_boundary() {
    use form_package::json::pointer::JsonPointer;
    use form_package::proof::prove_inline_schema;
    let field = JsonPointer::root().child("desiredSchema");
    // Near miss: a small DAG is proven within budget.
    let small = prove_inline_schema(&field, &ref_dag(3, 10), &|_| None);
    assert!(
        !small
            .diagnostics
            .iter()
            .any(|d| d.code == Code::ProofBudgetExceeded),
        "{:?}",
        small.diagnostics
    );
    assert!(small.operations < 4096);
    let big = prove_inline_schema(&field, &ref_dag(8, 600), &|_| None);
    assert!(big
        .diagnostics
        .iter()
        .any(|d| d.code == Code::ProofBudgetExceeded));
    assert_eq!(big.operations, 4097);
}

#[test]
fn ref_diamond_chain_does_not_explode() {
    // 40 levels of two refs to the next level: 2^40 paths, but each pointer
    // is proven once. Whatever the verdict, it must come back quickly.
    let (_t, dir) = package_with_desired_schema(ref_dag(40, 2));
    let out = verify_finishes(&dir);
    assert!(out.report.is_none() || out.diagnostics.is_empty());
    let run = verify_bin("ref-diamond-chain", &dir);
    assert!(run.output.status.code().is_some());
}

// ---------------------------------------------------------------------------
// File counts

fn add_files(dir: &Path, n: usize) {
    for i in 0..n {
        std::fs::write(dir.join(format!("fixtures/x{i:04}.json")), b"{}").unwrap();
    }
}

/// A copy of the package with `n` more files, all listed in its index (past
/// the limit of 1024): the library's finding says how many it lists.
fn package_with_too_many_files(n: usize) -> (tempfile::TempDir, PathBuf) {
    let (t, dir) = package();
    add_files(&dir, n);
    reindex(&dir);
    assert_eq!(read_index(&dir)["files"].as_array().unwrap().len(), n + 2);
    finding_says(
        &dir,
        Code::TooManyFiles,
        &format!("package lists {} files; maximum is 1024", n + 2),
    );
    (t, dir)
}

#[test]
fn two_thousand_files_fail_cleanly_with_too_many_files() {
    let (_t, dir) = package_with_too_many_files(2000);
    bin_fails_with("files-2002", &dir, "FD103");
}

#[test]
fn index_listing_1025_files_is_refused_and_1024_is_not() {
    let (_t, dir) = package_with_too_many_files(1023);
    bin_reports("files-1025", &dir, "FD103");

    // Near miss: 1024 listed files is within the limit.
    std::fs::remove_file(dir.join("fixtures/x0000.json")).unwrap();
    reindex(&dir);
    assert_eq!(read_index(&dir)["files"].as_array().unwrap().len(), 1024);
    let out = verify_finishes(&dir);
    assert!(!has(&out, Code::TooManyFiles), "{:?}", ids(&out));
}

// ---------------------------------------------------------------------------
// Special files and links

fn mkfifo(path: &Path) {
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        path,
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .unwrap();
}

#[test]
fn fifo_payload_is_refused_without_blocking() {
    let (_t, dir) = package();
    std::fs::remove_file(desired_path(&dir)).unwrap();
    mkfifo(&desired_path(&dir));
    // The index still lists the original bytes: only the FIFO is wrong.
    finding_says(&dir, Code::SpecialFile, "inventory package: package entry \"fixtures/desired.json\" is not a regular file (devices, sockets, and pipes are forbidden)");
    bin_fails_with("fifo-payload", &dir, "FD005");
}

#[test]
fn fifo_read_through_the_api_does_not_block() {
    let t = tempfile::tempdir().unwrap();
    mkfifo(&t.path().join("p.json"));
    let root = open_root(t.path()).unwrap();
    let err = finishes("read of a FIFO", move || {
        root.read("p.json", fsread::JSON_LIMIT, None).unwrap_err()
    });
    assert_eq!(
        err.message,
        "read payload \"p.json\": not a regular non-link file"
    );
}

#[test]
fn symlinked_directory_component_is_refused() {
    let (t, dir) = package();
    let elsewhere = t.path().join("elsewhere");
    std::fs::rename(dir.join("fixtures"), &elsewhere).unwrap();
    symlink(&elsewhere, dir.join("fixtures")).unwrap();
    finding_says(
        &dir,
        Code::SymlinkEntry,
        "inventory package: package entry \"fixtures\" is a symlink",
    );
    bin_reports("symlinked-directory", &dir, "FD004");

    // The read API refuses to walk through the link as well.
    let root = open_root(&dir).unwrap();
    let err = root
        .read("fixtures/desired.json", fsread::JSON_LIMIT, None)
        .unwrap_err();
    assert_eq!(err.code, Code::UnreadablePayload);
    assert!(
        err.message
            .starts_with("read payload \"fixtures/desired.json\": open package file"),
        "{}",
        err.message
    );
}

#[test]
fn symlinked_root_is_refused() {
    let (t, dir) = package();
    let link = t.path().join("link");
    symlink(&dir, &link).unwrap();
    let out = verify_finishes(&link);
    assert_eq!(ids(&out), vec!["FD001"]);
    assert_eq!(
        out.diagnostics[0].message,
        "package root must be a real directory"
    );
    let run = verify_bin("symlinked-root", &link);
    assert_eq!(run.output.status.code(), Some(1));
    assert_eq!(run.codes(), vec!["FD001"]);
    // Near miss: the real directory verifies.
    assert!(verify_finishes(&dir).report.is_some());
}

#[test]
fn non_utf8_file_name_is_refused() {
    use std::os::unix::ffi::OsStrExt;
    let (_t, dir) = package();
    let name = std::ffi::OsStr::from_bytes(b"fixtures/bad\xff.json");
    std::fs::write(dir.join(name), b"{}").unwrap();
    finding_says(
        &dir,
        Code::InvalidEntryPath,
        "inventory package: package entry \"fixtures/bad\u{fffd}.json\": path is not valid UTF-8",
    );
    bin_reports("non-utf8-name", &dir, "FD008");
}

// ---------------------------------------------------------------------------
// Races (simulated through the fsread API: inventory, change, read)

#[test]
fn payload_swapped_for_symlink_after_inventory_is_refused() {
    measure_self("payload_swapped_for_symlink_after_inventory_is_refused");
    let t = tempfile::tempdir().unwrap();
    let pkg = t.path().join("pkg");
    copy_dir(&example_store(), &pkg);
    // The link points at a FIFO outside the root: following it would block.
    let trap = t.path().join("trap");
    mkfifo(&trap);
    let root = open_root(&pkg).unwrap();
    let inv = root.inventory();
    assert_eq!(inv.diagnostics, vec![]);
    let e = inv
        .files
        .iter()
        .find(|e| e.rel == "fixtures/desired.json")
        .unwrap();
    std::fs::remove_file(desired_path(&pkg)).unwrap();
    symlink(&trap, desired_path(&pkg)).unwrap();
    let (root, err) = {
        let (rel, meta) = (e.rel.clone(), e.meta);
        finishes("read through a link to a FIFO", move || {
            let err = root
                .read(&rel, fsread::JSON_LIMIT, Some(&meta))
                .unwrap_err();
            (root, err)
        })
    };
    assert_eq!(err.code, Code::UnreadablePayload);
    assert_eq!(
        err.message,
        "read payload \"fixtures/desired.json\": file identity changed after package inventory"
    );
    // Without the inventory fence the link is still never followed.
    let err = root.read(&e.rel, fsread::JSON_LIMIT, None).unwrap_err();
    assert_eq!(
        err.message,
        "read payload \"fixtures/desired.json\": not a regular non-link file"
    );
    // Near miss: the untouched definition reads with its inventory meta.
    let def = inv
        .files
        .iter()
        .find(|e| e.rel == "definition.json")
        .unwrap();
    assert_eq!(
        root.read(&def.rel, fsread::DEFINITION_LIMIT, Some(&def.meta))
            .unwrap()
            .len(),
        722
    );
}

#[test]
fn payload_growing_after_inventory_is_refused() {
    measure_self("payload_growing_after_inventory_is_refused");
    let (_t, dir) = package();
    let root = open_root(&dir).unwrap();
    let inv = root.inventory();
    let e = inv
        .files
        .iter()
        .find(|e| e.rel == "fixtures/desired.json")
        .unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(desired_path(&dir))
        .unwrap();
    f.write_all(&[b' '; 4096]).unwrap();
    drop(f);
    let err = root
        .read(&e.rel, fsread::JSON_LIMIT, Some(&e.meta))
        .unwrap_err();
    assert_eq!(err.code, Code::UnreadablePayload);
    assert_eq!(
        err.message,
        "read payload \"fixtures/desired.json\": file identity changed after package inventory"
    );
}

#[test]
fn payload_growing_during_read_is_bounded_by_the_limit() {
    // A writer appends continuously while the verifier reads with a small
    // limit: every read either succeeds with a consistent snapshot of at
    // most `limit` bytes or is refused; it never returns more than `limit`.
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("g.json"), b"[]").unwrap();
    let root = open_root(t.path()).unwrap();
    let path = t.path().join("g.json");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                f.write_all(&[b' '; 512]).unwrap();
            }
        })
    };
    let limit = 1 << 20;
    let mut refused = 0;
    let mut reads = 0;
    let start = Instant::now();
    // Stop once a read was refused (the property under test) or after 5 s.
    while refused == 0 && start.elapsed() < Duration::from_secs(5) {
        reads += 1;
        match root.read("g.json", limit, None) {
            Ok(b) => assert!(b.len() as u64 <= limit),
            Err(e) => {
                assert_eq!(e.code, Code::UnreadablePayload);
                assert!(
                    e.message.contains("changed while")
                        || e.message.contains("bytes; maximum is")
                        || e.message.contains("while reading"),
                    "{}",
                    e.message
                );
                refused += 1;
            }
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
    eprintln!("{reads} reads, {refused} refused");
    assert!(refused > 0, "the writer never disturbed a read");
}

#[test]
fn executable_payload_is_refused_before_reading() {
    let (_t, dir) = package();
    std::fs::set_permissions(desired_path(&dir), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = verify_finishes(&dir);
    assert!(has(&out, Code::ExecutableMode), "{:?}", ids(&out));
}

// ---------------------------------------------------------------------------
// No network

fn remote_ref_package() -> (tempfile::TempDir, PathBuf) {
    package_with_desired_schema(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": false,
        "properties": {"name": {"$ref": "https://attacker.invalid/x.json"}},
        "required": ["name"]
    }))
}

// Its proof under strace, `remote_ref_makes_no_network_connection`, is a
// trial of the `trust` binary (tests/trust/trust.rs), beside the trust
// commands' no-network trace and their probe of strace.
#[test]
fn remote_ref_is_refused() {
    let (_t, dir) = remote_ref_package();
    let out = verify_finishes(&dir);
    let d = finding(&out, Code::NonLocalRef);
    assert_eq!(d.pointer.as_str(), "/desiredSchema/properties/name/$ref");
}

// ---------------------------------------------------------------------------
// Deep directory trees

/// Creates `depth` nested directories `d/d/d/...` below `base` with
/// descriptor-relative `mkdirat` (a full path would pass `PATH_MAX`) and puts
/// `leaf.json` in the innermost one.
fn deep_dirs(base: &Path, depth: usize) {
    use rustix::fs::{mkdirat, openat, Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let mut fd = openat(rustix::fs::CWD, base, flags, Mode::empty()).unwrap();
    for _ in 0..depth {
        mkdirat(&fd, "d", Mode::from_raw_mode(0o755)).unwrap();
        fd = openat(&fd, "d", flags, Mode::empty()).unwrap();
    }
    let f = openat(
        &fd,
        "leaf.json",
        OFlags::WRONLY | OFlags::CREATE | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o644),
    )
    .unwrap();
    rustix::io::write(&f, b"{}").unwrap();
}

#[test]
fn directory_tree_3000_deep_fails_cleanly() {
    let (_t, dir) = package();
    deep_dirs(&dir, 3000);
    let out = verify_finishes(&dir);
    assert!(out.report.is_none());
    // The path is far beyond 240 bytes (or the walk runs out of descriptors):
    // either way a file-system finding, not a crash.
    let codes = ids(&out);
    assert!(
        codes
            .iter()
            .any(|c| ["FD002", "FD003", "FD008"].contains(c)),
        "{codes:?}"
    );
    let run = verify_bin("directory-depth-3000", &dir);
    assert_eq!(run.output.status.code(), Some(1));

    // With only 64 descriptors the walk runs out of them: a finding (FD002
    // `Too many open files`), still exit 1, never a crash.
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -n 64 && exec \"$0\" \"$@\"")
        .arg(crate::common::BIN)
        .args(["verify", "--format", "json"])
        .arg(&dir);
    let out = bounded(cmd, "verify with 64 descriptors");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = v["packages"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "FD002")
        .unwrap_or_else(|| panic!("{v}"));
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("Too many open files"),
        "{d}"
    );
}

// ---------------------------------------------------------------------------
// Output (found while building these cases: the human renderer panicked)

/// A single-line definition whose desired schema has `props` open object
/// properties after a `pad`-byte description: every finding sits beyond
/// column `pad` of line 1.
fn long_line_package(props: usize, pad: usize) -> (tempfile::TempDir, PathBuf) {
    let mut properties = serde_json::Map::new();
    for i in 0..props {
        properties.insert(format!("p{i}"), json!({"type": "object"}));
    }
    package_with_desired_schema(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": false,
        "description": "x".repeat(pad),
        "properties": properties
    }))
}

/// Regression: a finding beyond column 65535 made miette panic
/// (`Formatting argument out of range`) in `--format human`; 300 findings on
/// a 300 KB line also made the human output grow to findings × line length.
#[test]
fn human_output_survives_findings_on_a_300kb_line() {
    let (_t, dir) = long_line_package(300, 300_000);
    let run = bin_measured(
        "human-output-300-findings-on-300kb-line",
        &["verify".as_ref(), dir.as_os_str()],
    );
    let stderr = String::from_utf8_lossy(&run.output.stderr);
    assert_eq!(run.output.status.code(), Some(1), "{stderr}");
    let text = String::from_utf8_lossy(&run.output.stdout);
    assert_eq!(text.matches("FD213 open-object-schema").count(), 300);
    assert!(text.contains("definition.json:1:300"), "no location line");
    assert!(text.len() < 1024 * 1024, "{} bytes of output", text.len());
    assert!(text.contains("FAIL "), "no verdict line");
}

#[test]
fn human_output_keeps_excerpts_for_ordinary_lines() {
    // Near miss: a short line still gets its excerpt with the pointer label.
    let (_t, dir) = long_line_package(1, 10);
    let out = Command::new(crate::common::BIN)
        .args(["verify", "--color", "never"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FD213 open-object-schema"), "{text}");
    assert!(text.contains("/definition.json:1:"), "{text}");
    assert!(text.contains("╭─["), "{text}");
    assert!(text.contains("/desiredSchema/properties/p0"), "{text}");
}

/// Regression: rendering recomputed each finding's line and column by
/// scanning its file from the start, O(findings × file size): 20,000
/// forbidden names in a 440 KB fixture took 186 s (debug build) to render;
/// a 16 MiB fixture would have taken hours. With a per-file line index both
/// formats stay linear: docs/src/benchmarks.md records the time (`benches/findings.sh`);
/// this test checks every finding is rendered, located, in both formats.
#[test]
fn twenty_thousand_findings_in_one_fixture_render_in_json_and_human() {
    let (_t, dir) = package();
    let mut doc = serde_json::Map::new();
    doc.insert("name".into(), json!("x"));
    for i in 0..20_000 {
        doc.insert(format!("password{i}"), json!(i));
    }
    std::fs::write(desired_path(&dir), serde_json::to_vec(&doc).unwrap()).unwrap();
    reindex(&dir);
    let run = verify_bin("findings-20000-json", &dir);
    let codes = run.codes();
    // 20,000 forbidden names, and the fixture itself, over the work budget
    // of §4.7 (fixtures run beside unrelated errors).
    assert_eq!(codes.len(), 20_001);
    assert_eq!(codes.iter().filter(|c| *c == "FD300").count(), 20_000);
    assert_eq!(
        codes.iter().find(|c| *c != "FD300").map(String::as_str),
        Some("FD409")
    );
    let last = run.json()["packages"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .rfind(|d| d["code"] == "FD300")
        .cloned()
        .unwrap();
    assert_eq!(last["line"], 1);
    assert!(last["column"].as_u64().unwrap() > 1000, "{last}");

    let run = bin_measured(
        "findings-20000-human",
        &["verify".as_ref(), dir.as_os_str()],
    );
    assert_eq!(run.output.status.code(), Some(1));
    let text = String::from_utf8_lossy(&run.output.stdout);
    assert_eq!(text.matches("FD300 ").count(), 20_000);
}

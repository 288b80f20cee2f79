//! Issue 37 items 1–3: the GitHub Action (`action.yml`) run as a runner
//! would run it, here.
//!
//! [`Runner`] reads the composite action's steps from the YAML and runs
//! them in order: a `run` step under `bash --noprofile --norc -eo pipefail`
//! (GitHub's `shell: bash`) with its `env` expanded from the expression
//! context (`github.*`, `inputs.*`, `runner.os`, `runner.arch`,
//! `steps.ID.outputs.NAME`, each step's outputs read back from its own
//! `GITHUB_OUTPUT` file), `RUNNER_OS`, `RUNNER_ARCH` and
//! `GITHUB_STEP_SUMMARY` set; `actions/cache` simulated by a cache
//! directory (restore on a hit, save after the job on a miss, as its post
//! step does); `upload-sarif` recorded; `if:` evaluated (`always()`, `==`,
//! `!=` joined by `&&`); a failed step skips every later step without
//! `always()`. The release is served on 127.0.0.1 by [`Server`] (a minimal
//! HTTP/1.1 file server over `std::net`), its asset this build's binary and
//! its `SHA256SUMS` written here; `cargo` is a stub on `PATH` that records
//! being called and "builds" by copying this build's binary.
//!
//! Near misses: a tampered asset (its bytes are not the ones `SHA256SUMS`
//! names) and a tampered restored cache (a binary swapped for a script
//! that would leave a mark) fail the install step and are never run.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use libtest_mimic::Trial;
use sha2::{Digest, Sha256};
use yaml_rust2::{Yaml, YamlLoader};

use crate::common::{self, copy_dir, fixtures, BIN};

const STORE: &str = "packages/v1alpha1/example-store-1.0.0-f486d5e31632";
const LINUX_ASSET: &str = "form-package-x86_64-unknown-linux-gnu";
const TAG: &str = "v9.9.9";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn action() -> Yaml {
    let text = std::fs::read_to_string(repo().join("action.yml")).unwrap();
    YamlLoader::load_from_str(&text).unwrap().remove(0)
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A minimal HTTP/1.1 file server on 127.0.0.1 (GET and HEAD, one request
/// per connection): `/PATH` is `root/PATH`, 404 otherwise. Every request
/// path is recorded.
struct Server {
    url: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start(root: PathBuf) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut first = String::new();
                if reader.read_line(&mut first).is_err() {
                    continue;
                }
                loop {
                    let mut h = String::new();
                    if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" || h == "\n" {
                        break;
                    }
                }
                let mut parts = first.split_whitespace();
                let method = parts.next().unwrap_or("").to_owned();
                let path = parts.next().unwrap_or("/").to_owned();
                log.lock().unwrap().push(format!("{method} {path}"));
                let file = root.join(path.trim_start_matches('/'));
                let body = if path.contains("..") {
                    None
                } else {
                    std::fs::read(&file).ok().filter(|_| file.is_file())
                };
                let _ = match body {
                    Some(b) => {
                        let head = format!(
                            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                            b.len()
                        );
                        stream.write_all(head.as_bytes()).and_then(|()| {
                            if method == "HEAD" {
                                Ok(())
                            } else {
                                stream.write_all(&b)
                            }
                        })
                    }
                    None => stream.write_all(
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    ),
                };
                let _ = stream.flush();
                let _ = stream.shutdown(std::net::Shutdown::Both);
            }
        });
        Server { url, requests }
    }

    fn requested(&self, what: &str) -> bool {
        self.requests
            .lock()
            .unwrap()
            .iter()
            .any(|r| r.ends_with(what))
    }
}

/// Writes the release `TAG` of the repository `owner/form-package` under
/// `root` (as served at `/owner/form-package/releases/download/TAG/`):
/// `asset` holding `bytes`, and `SHA256SUMS` naming `sums_of`'s digest.
fn publish(root: &Path, asset: &str, bytes: &[u8], sums_of: &[u8]) {
    let dir = root.join("owner/form-package/releases/download").join(TAG);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(asset), bytes).unwrap();
    std::fs::write(
        dir.join("SHA256SUMS"),
        format!("{}  {asset}\n", sha256_hex(sums_of)),
    )
    .unwrap();
}

/// What a job run of the action left.
struct Job {
    /// Each step by name: Some(exit code) when it ran, None when skipped.
    steps: Vec<(String, Option<i32>)>,
    /// The log (every run step's stdout and stderr).
    log: String,
    /// The job summary (`$GITHUB_STEP_SUMMARY`).
    summary: String,
    /// Outputs by `steps.ID.outputs.NAME`.
    outputs: BTreeMap<String, String>,
    /// The `sarif_file` of each upload that ran.
    uploads: Vec<String>,
    /// The cache key the cache step used, and whether it hit.
    cache: Option<(String, bool)>,
}

impl Job {
    fn ran(&self, name: &str) -> Option<i32> {
        self.steps
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no step {name}"))
            .1
    }

    fn failed(&self) -> bool {
        self.steps
            .iter()
            .any(|(_, c)| matches!(c, Some(c) if *c != 0))
    }
}

/// The simulated runner of one test: a workspace, the action's checkout,
/// a cache directory kept across jobs, a `cargo` stub.
struct Runner {
    tmp: tempfile::TempDir,
    os: &'static str,
    arch: &'static str,
    server: Server,
}

impl Runner {
    fn new(os: &'static str, arch: &'static str) -> Runner {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for d in ["workspace", "action", "cache", "releases", "stub", "tmpdir"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        // The action's checkout: its YAML and the files a build reads.
        for f in ["action.yml", "Cargo.toml", "Cargo.lock"] {
            std::fs::copy(repo().join(f), root.join("action").join(f)).unwrap();
        }
        let stub = root.join("stub/cargo");
        std::fs::write(
            &stub,
            format!(
                "#!/bin/sh\necho \"cargo $*\" >> \"$STUB_LOG\"\nmkdir -p \"$(dirname \"$5\")/target/release\"\ncp {BIN:?} \"$(dirname \"$5\")/target/release/form-package$STUB_EXE\"\n"
            ),
        )
        .unwrap();
        let mut perms = std::fs::metadata(&stub).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&stub, perms).unwrap();
        let server = Server::start(root.join("releases"));
        Runner {
            tmp,
            os,
            arch,
            server,
        }
    }

    fn path(&self, p: &str) -> PathBuf {
        self.tmp.path().join(p)
    }

    fn cargo_calls(&self) -> String {
        std::fs::read_to_string(self.path("cargo.log")).unwrap_or_default()
    }

    /// Runs the action once with `inputs` (defaults from the YAML).
    fn run(&self, inputs: &[(&str, &str)]) -> Job {
        let action = action();
        let mut ctx: BTreeMap<String, String> = BTreeMap::new();
        let action_path = self.path("action");
        ctx.insert(
            "github.action_path".into(),
            action_path.display().to_string(),
        );
        ctx.insert("github.action_ref".into(), TAG.into());
        ctx.insert("github.server_url".into(), self.server.url.clone());
        ctx.insert(
            "github.action_repository".into(),
            "owner/form-package".into(),
        );
        ctx.insert("runner.os".into(), self.os.into());
        ctx.insert("runner.arch".into(), self.arch.into());
        for (k, v) in action["inputs"].as_hash().unwrap() {
            let k = k.as_str().unwrap();
            let given = inputs.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
            let default = v["default"].as_str().unwrap_or("");
            ctx.insert(format!("inputs.{k}"), given.unwrap_or(default).to_owned());
        }
        for (k, _) in inputs {
            assert!(ctx.contains_key(&format!("inputs.{k}")), "no input {k}");
        }
        let summary = self.path("step_summary");
        std::fs::write(&summary, "").unwrap();
        let path = format!(
            "{}:{}",
            self.path("stub").display(),
            std::env::var("PATH").unwrap()
        );
        let mut job = Job {
            steps: Vec::new(),
            log: String::new(),
            summary: String::new(),
            outputs: BTreeMap::new(),
            uploads: Vec::new(),
            cache: None,
        };
        let mut failed = false;
        let mut save: Option<(PathBuf, PathBuf)> = None;
        for (i, step) in action["runs"]["steps"].as_vec().unwrap().iter().enumerate() {
            let name = step["name"].as_str().unwrap().to_owned();
            let cond = step["if"].as_str().unwrap_or("success()");
            if !eval_if(cond, &ctx, failed) {
                job.steps.push((name, None));
                continue;
            }
            let with = |k: &str| expand(step["with"][k].as_str().unwrap(), &ctx);
            if let Some(uses) = step["uses"].as_str() {
                let action = uses.split('@').next().unwrap();
                match action {
                    "actions/cache" => {
                        let key = with("key");
                        let dir = PathBuf::from(with("path"));
                        let stored = self.path("cache").join(&key);
                        let hit = stored.is_dir();
                        if hit {
                            copy_dir(&stored, &dir);
                        } else {
                            save = Some((dir, stored));
                        }
                        job.cache = Some((key, hit));
                    }
                    "github/codeql-action/upload-sarif" => job.uploads.push(with("sarif_file")),
                    other => panic!("the runner here does not know {other}"),
                }
                job.steps.push((name, Some(0)));
                continue;
            }
            assert_eq!(step["shell"].as_str(), Some("bash"), "{name}");
            let output = self.path(&format!("github_output_{i}"));
            std::fs::write(&output, "").unwrap();
            let mut cmd = Command::new("bash");
            cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c"])
                .arg(step["run"].as_str().unwrap())
                .current_dir(self.path("workspace"))
                .env("GITHUB_OUTPUT", &output)
                .env("GITHUB_STEP_SUMMARY", &summary)
                .env("GITHUB_WORKSPACE", self.path("workspace"))
                .env("GITHUB_SERVER_URL", "https://github.example")
                .env("GITHUB_REPOSITORY", "user/forms")
                .env("GITHUB_SHA", "0123abc")
                .env("RUNNER_OS", self.os)
                .env("RUNNER_ARCH", self.arch)
                .env("RUNNER_TEMP", self.path("tmpdir"))
                .env("TMPDIR", self.path("tmpdir"))
                .env("PATH", &path)
                .env("STUB_LOG", self.path("cargo.log"))
                .env("STUB_EXE", if self.os == "Windows" { ".exe" } else { "" });
            if let Some(env) = step["env"].as_hash() {
                for (k, v) in env {
                    cmd.env(k.as_str().unwrap(), expand(v.as_str().unwrap(), &ctx));
                }
            }
            let out = cmd.output().unwrap();
            job.log.push_str(&String::from_utf8_lossy(&out.stdout));
            job.log.push_str(&String::from_utf8_lossy(&out.stderr));
            let code = out.status.code().unwrap_or(-1);
            if let Some(id) = step["id"].as_str() {
                for line in std::fs::read_to_string(&output).unwrap().lines() {
                    let (k, v) = line.split_once('=').unwrap();
                    let key = format!("steps.{id}.outputs.{k}");
                    ctx.insert(key.clone(), v.to_owned());
                    job.outputs.insert(key, v.to_owned());
                }
            }
            if code != 0 {
                failed = true;
            }
            job.steps.push((name, Some(code)));
        }
        // actions/cache's post step: a miss is saved when the job succeeded.
        if let Some((dir, stored)) = save {
            if !failed && dir.is_dir() {
                copy_dir(&dir, &stored);
            }
        }
        job.summary = std::fs::read_to_string(&summary).unwrap();
        // The steps' own temporary files are gone.
        let left: Vec<_> = std::fs::read_dir(self.path("tmpdir")).unwrap().collect();
        assert!(
            left.is_empty(),
            "steps left {left:?} in the temporary directory"
        );
        job
    }
}

/// `${{ expr }}` replaced from `ctx`; an expression unknown here fails the
/// test (an empty step output reads as the empty string, as on GitHub).
fn expand(value: &str, ctx: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").unwrap() + start;
        let expr = rest[start + 3..end].trim();
        out.push_str(&lookup(expr, ctx));
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

fn lookup(expr: &str, ctx: &BTreeMap<String, String>) -> String {
    match ctx.get(expr) {
        Some(v) => v.clone(),
        None if expr.starts_with("steps.") => String::new(),
        None => panic!("unknown expression {expr:?}"),
    }
}

/// A step's `if:`: `${{ … }}` or bare; `always()`, `success()`, and
/// `A == 'lit'` / `A != 'lit'` joined by `&&`.
fn eval_if(cond: &str, ctx: &BTreeMap<String, String>, failed: bool) -> bool {
    let cond = cond.trim();
    let cond = cond
        .strip_prefix("${{")
        .and_then(|c| c.strip_suffix("}}"))
        .unwrap_or(cond);
    let mut always = false;
    let mut all = true;
    for term in cond.split("&&").map(str::trim) {
        let value = match term {
            "always()" => {
                always = true;
                true
            }
            "success()" => !failed,
            _ => {
                let (lhs, rhs, eq) = match term.split_once("==") {
                    Some((l, r)) => (l, r, true),
                    None => {
                        let (l, r) = term.split_once("!=").unwrap_or_else(|| panic!("{term}"));
                        (l, r, false)
                    }
                };
                let lit = rhs.trim().trim_matches('\'');
                (lookup(lhs.trim(), ctx) == lit) == eq
            }
        };
        all &= value;
    }
    all && (always || !failed)
}

fn workspace_with(runner: &Runner, good: bool) {
    let ws = runner.path("workspace");
    let _ = std::fs::remove_dir_all(ws.join("packages"));
    copy_dir(&fixtures().join(STORE), &ws.join("packages/good"));
    if !good {
        let bad = ws.join("packages/bad");
        copy_dir(&fixtures().join(STORE), &bad);
        std::fs::remove_file(bad.join("fixtures/desired.json")).unwrap();
    }
}

const INSTALL: &str = "Install form-package";
const VERIFY: &str = "Verify";
const FAIL: &str = "Fail when verify or compat failed";

/// A good release asset is downloaded, checked, installed and run; the
/// cache key is the sources' digest with the runner's OS and CPU
/// architecture; the next job restores it from the cache, re-checks it
/// (no download) and runs it.
fn release_is_checked_installed_and_cached() {
    let runner = Runner::new("Linux", "X64");
    let bytes = std::fs::read(BIN).unwrap();
    publish(&runner.path("releases"), LINUX_ASSET, &bytes, &bytes);
    workspace_with(&runner, true);
    let job = runner.run(&[("paths", "packages")]);
    assert_eq!(job.ran(INSTALL), Some(0), "{}", job.log);
    assert!(
        job.log.contains(&format!("release binary {LINUX_ASSET}")),
        "{}",
        job.log
    );
    assert!(runner.server.requested(&format!("/{TAG}/{LINUX_ASSET}")));
    assert_eq!(job.ran(VERIFY), Some(0));
    assert_eq!(job.ran(FAIL), Some(0));
    assert!(!job.failed(), "{}", job.log);
    assert_eq!(runner.cargo_calls(), "", "no build");
    let bin = PathBuf::from(&job.outputs["steps.key.outputs.bin"]);
    assert_eq!(std::fs::read(&bin).unwrap(), bytes);
    // The key: OS, architecture, the sources' digest, the release's digest.
    let (key, hit) = job.cache.clone().unwrap();
    assert!(!hit);
    let sources = &job.outputs["steps.key.outputs.sources"];
    assert_eq!(sources.len(), 64);
    assert_eq!(
        key,
        format!(
            "form-package-Linux-X64-{sources}-release-{}",
            sha256_hex(&bytes)
        )
    );
    // The summary: the run's line, the package's verdict.
    assert!(
        job.summary.starts_with("### form-package verify\n"),
        "{}",
        job.summary
    );
    assert!(
        job.summary
            .contains("| packages/good | verified | 0 | 0 | 0 |"),
        "{}",
        job.summary
    );
    // No SARIF unless asked: none written, none uploaded.
    assert!(job.uploads.is_empty());
    assert!(!runner.path("workspace/form-package.sarif").exists());

    // The next job: a cache hit, re-checked against SHA256SUMS, not downloaded.
    std::fs::remove_dir_all(runner.path("action/target")).unwrap();
    runner.server.requests.lock().unwrap().clear();
    let again = runner.run(&[("paths", "packages")]);
    assert_eq!(again.cache, Some((key.clone(), true)));
    assert_eq!(again.ran(INSTALL), Some(0), "{}", again.log);
    assert!(again.log.contains("cached binary"), "{}", again.log);
    assert!(!runner.server.requested(&format!("/{TAG}/{LINUX_ASSET}")));
    assert!(runner.server.requested(&format!("/{TAG}/SHA256SUMS")));
    assert_eq!(again.ran(VERIFY), Some(0));

    // A changed source (a moving ref's next commit) is a new key.
    std::fs::write(runner.path("action/Cargo.toml"), "# changed\n").unwrap();
    std::fs::remove_dir_all(runner.path("action/target")).unwrap();
    let moved = runner.run(&[("paths", "packages")]);
    let (moved_key, hit) = moved.cache.unwrap();
    assert!(!hit);
    assert_ne!(moved_key, key);
    // Another CPU architecture is another key (and asset).
    let arm = Runner::new("Linux", "ARM64");
    publish(
        &arm.path("releases"),
        "form-package-aarch64-unknown-linux-gnu",
        &bytes,
        &bytes,
    );
    workspace_with(&arm, true);
    let job = arm.run(&[("paths", "packages")]);
    assert!(job
        .cache
        .unwrap()
        .0
        .starts_with("form-package-Linux-ARM64-"));
}

/// Near miss: an asset whose bytes are not the ones SHA256SUMS names
/// fails the install step; it is never installed nor run, nothing is
/// built, verify never runs.
fn tampered_asset_is_never_run() {
    let runner = Runner::new("Linux", "X64");
    let bytes = std::fs::read(BIN).unwrap();
    let evil = format!("#!/bin/sh\ntouch {:?}\n", runner.path("ran"));
    publish(
        &runner.path("releases"),
        LINUX_ASSET,
        evil.as_bytes(),
        &bytes,
    );
    workspace_with(&runner, true);
    let job = runner.run(&[("paths", "packages")]);
    assert_eq!(job.ran(INSTALL), Some(1));
    assert!(job.log.contains("SHA256SUMS says"), "{}", job.log);
    assert_eq!(job.ran(VERIFY), None);
    assert_eq!(job.ran(FAIL), None);
    assert!(!runner.path("ran").exists(), "the tampered asset ran");
    assert!(!Path::new(&job.outputs["steps.key.outputs.bin"]).exists());
    assert_eq!(runner.cargo_calls(), "", "no build hides the mismatch");
    // Nothing was saved to the cache.
    assert_eq!(std::fs::read_dir(runner.path("cache")).unwrap().count(), 0);
    // A release with the asset but no SHA256SUMS: refused before anything.
    std::fs::remove_file(
        runner
            .path("releases/owner/form-package/releases/download")
            .join(TAG)
            .join("SHA256SUMS"),
    )
    .unwrap();
    let job = runner.run(&[("paths", "packages")]);
    assert!(job.log.contains("but no SHA256SUMS"), "{}", job.log);
    assert_eq!(job.ran(INSTALL), None);
    assert_eq!(runner.cargo_calls(), "");
}

/// Near miss: a restored cache whose binary was swapped fails the install
/// step (checked against SHA256SUMS for a release, against the digest
/// recorded at the build otherwise), is removed and never run.
fn tampered_cache_is_never_run() {
    for release in [true, false] {
        let runner = Runner::new("Linux", "X64");
        let bytes = std::fs::read(BIN).unwrap();
        if release {
            publish(&runner.path("releases"), LINUX_ASSET, &bytes, &bytes);
        }
        workspace_with(&runner, true);
        let first = runner.run(&[("paths", "packages")]);
        assert!(!first.failed(), "{}", first.log);
        let (key, _) = first.cache.unwrap();
        let stored = runner.path("cache").join(&key);
        assert!(stored.join("form-package").is_file());
        assert!(stored.join("form-package.sha256").is_file());
        // Poison the cache: the binary is now a script leaving a mark.
        let evil = format!("#!/bin/sh\ntouch {:?}\n", runner.path("ran"));
        std::fs::write(stored.join("form-package"), evil).unwrap();
        std::fs::remove_dir_all(runner.path("action/target")).unwrap();
        let job = runner.run(&[("paths", "packages")]);
        assert_eq!(job.cache.as_ref().map(|c| c.1), Some(true));
        assert_eq!(job.ran(INSTALL), Some(1), "release {release}: {}", job.log);
        assert!(job.log.contains("removed, not run"), "{}", job.log);
        assert_eq!(job.ran(VERIFY), None);
        assert!(!runner.path("ran").exists(), "the poisoned cache ran");
        assert!(!Path::new(&job.outputs["steps.key.outputs.bin"]).exists());
        // A build's record poisoned too (binary and digest): still refused
        // for a release, whose digest comes from SHA256SUMS afresh.
        if release {
            let evil = std::fs::read(stored.join("form-package")).unwrap();
            std::fs::write(
                stored.join("form-package.sha256"),
                format!("{}  form-package\n", sha256_hex(&evil)),
            )
            .unwrap();
            std::fs::remove_dir_all(runner.path("action/target")).unwrap();
            let job = runner.run(&[("paths", "packages")]);
            assert_eq!(job.ran(INSTALL), Some(1));
            assert!(!runner.path("ran").exists());
        }
    }
}

/// A ref without a release takes the build path (`cargo build --release
/// --locked`); its digest is recorded beside the binary, and the next job
/// restores it and checks it against that record.
fn no_release_builds_from_source() {
    let runner = Runner::new("Linux", "X64");
    workspace_with(&runner, true);
    let job = runner.run(&[("paths", "packages")]);
    assert_eq!(job.ran(INSTALL), Some(0), "{}", job.log);
    assert_eq!(
        runner.cargo_calls().trim(),
        format!(
            "cargo build --release --locked --manifest-path {}/Cargo.toml",
            runner.path("action").display()
        )
    );
    assert!(job.cache.as_ref().unwrap().0.ends_with("-build"));
    let bytes = std::fs::read(BIN).unwrap();
    let record = runner.path("action/target/form-package-bin/form-package.sha256");
    assert_eq!(
        std::fs::read_to_string(record).unwrap(),
        format!("{}  form-package\n", sha256_hex(&bytes))
    );
    assert_eq!(job.ran(VERIFY), Some(0));
    std::fs::remove_dir_all(runner.path("action/target")).unwrap();
    let again = runner.run(&[("paths", "packages")]);
    assert!(again.log.contains("cached binary"), "{}", again.log);
    assert_eq!(runner.cargo_calls().lines().count(), 1, "built once");
}

/// Findings are where the user looks: `::error` annotations in the log,
/// and the job summary with the package's verdict, the counts per code and
/// the first findings linked to their lines; the last step fails the job.
/// With `upload-sarif: true` the SARIF report is written and uploaded.
fn findings_are_annotated_and_summarised() {
    let runner = Runner::new("Windows", "X64");
    let bytes = std::fs::read(BIN).unwrap();
    let win = "form-package-x86_64-pc-windows-msvc.exe";
    publish(&runner.path("releases"), win, &bytes, &bytes);
    workspace_with(&runner, false);
    let job = runner.run(&[("paths", "packages"), ("upload-sarif", "true")]);
    // Windows: the binary is `form-package.exe`, cached as such.
    let bin = &job.outputs["steps.key.outputs.bin"];
    assert!(
        bin.ends_with("target/form-package-bin/form-package.exe"),
        "{bin}"
    );
    assert_eq!(job.ran(INSTALL), Some(0), "{}", job.log);
    assert_eq!(job.outputs["steps.verify.outputs.exit-code"], "1");
    assert_eq!(job.ran(FAIL), Some(1));
    assert!(
        job.log.contains("::error file=packages/bad/"),
        "annotations in the log: {}",
        job.log
    );
    let s = &job.summary;
    assert!(s.contains("| packages/bad | failed |"), "{s}");
    assert!(s.contains("| FD019 "), "{s}");
    assert!(
        s.contains("](https://github.example/user/forms/blob/0123abc/packages/bad/"),
        "{s}"
    );
    assert!(s.contains("- error FD019 "), "{s}");
    // SARIF written and uploaded (tolerant: continue-on-error).
    assert_eq!(job.uploads, ["form-package.sarif"]);
    let sarif: serde_json::Value = serde_json::from_slice(
        &std::fs::read(runner.path("workspace/form-package.sarif")).unwrap(),
    )
    .unwrap();
    assert!(!sarif["runs"][0]["results"].as_array().unwrap().is_empty());
    let action = action();
    for s in action["runs"]["steps"].as_vec().unwrap() {
        if s["uses"]
            .as_str()
            .is_some_and(|u| u.contains("upload-sarif"))
        {
            assert_eq!(s["continue-on-error"].as_bool(), Some(true));
        }
    }
}

/// Copies the shipped store package to `new` as a breaking 1.0.1 (a
/// lifecycle capability dropped: `FD670`, `FD656` against the 1.0.0).
fn breaking_copy(new: &Path) {
    copy_dir(&fixtures().join(STORE), new);
    let file = new.join("definition.json");
    let mut d: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    d["definitionVersion"] = serde_json::json!("1.0.1");
    d["lifecycleCapabilities"] = serde_json::json!(["create", "observe", "delete"]);
    std::fs::write(&file, serde_json::to_vec(&d).unwrap()).unwrap();
    common::reindex(new);
}

/// `baseline` runs `compat --baseline BASE PATHS` with `compat-args`:
/// its annotations, its own summary section and its exit status, which
/// fails the job even when verify passed.
fn baseline_runs_compat() {
    let runner = Runner::new("Linux", "X64");
    let bytes = std::fs::read(BIN).unwrap();
    publish(&runner.path("releases"), LINUX_ASSET, &bytes, &bytes);
    let ws = runner.path("workspace");
    copy_dir(&fixtures().join(STORE), &ws.join("published/store"));
    let new = ws.join("packages/store");
    breaking_copy(&new);
    let job = runner.run(&[
        ("paths", "packages"),
        ("baseline", "published"),
        ("compat-args", "--color never"),
        ("compat-sarif-file", "compat.sarif"),
    ]);
    assert_eq!(job.outputs["steps.verify.outputs.exit-code"], "0");
    assert_eq!(job.outputs["steps.compat.outputs.compat-exit-code"], "1");
    assert_eq!(job.ran(FAIL), Some(1));
    assert!(job.log.contains("FD670"), "{}", job.log);
    assert!(
        job.summary.contains("### form-package compat\n"),
        "{}",
        job.summary
    );
    assert!(job.summary.contains("FD670"), "{}", job.summary);
    let compat: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ws.join("compat.sarif")).unwrap()).unwrap();
    let ids: Vec<&str> = common::strings(&compat["runs"][0]["results"], "ruleId");
    assert!(ids.contains(&"FD670") && ids.contains(&"FD656"), "{ids:?}");
    assert!(job.uploads.is_empty(), "upload is opt-in");
    // Both baseline inputs: refused (exit 2), the job fails.
    let job = runner.run(&[
        ("paths", "packages"),
        ("baseline", "published"),
        ("baseline-rev", "HEAD"),
    ]);
    assert_eq!(job.outputs["steps.compat.outputs.compat-exit-code"], "2");
    assert_eq!(job.ran(FAIL), Some(2));
}

/// Breaker4 H9: the Action passes its PATHs after `--`, so a directory
/// of a pull request named like an option is a PATH: `--help` (a breaking
/// 1.0.1) and `--version` (a package missing a fixture). Before, `verify
/// --help --version …` printed help and both steps exited 0. Now verify
/// fails on `--version` (FD019) and compat on `--help` (FD670), exit 1
/// each. (The near miss, the same packages under ordinary names, is
/// `baseline_runs_compat` and `findings_are_annotated_and_summarised`.)
fn paths_that_look_like_options_are_paths() {
    let runner = Runner::new("Linux", "X64");
    let bytes = std::fs::read(BIN).unwrap();
    publish(&runner.path("releases"), LINUX_ASSET, &bytes, &bytes);
    let ws = runner.path("workspace");
    copy_dir(&fixtures().join(STORE), &ws.join("published/store"));
    let new = ws.join("--help");
    breaking_copy(&new);
    let bad = ws.join("--version");
    copy_dir(&fixtures().join(STORE), &bad);
    std::fs::remove_file(bad.join("fixtures/desired.json")).unwrap();
    let job = runner.run(&[("paths", "--help --version"), ("baseline", "published")]);
    assert_eq!(
        job.outputs["steps.verify.outputs.exit-code"], "1",
        "{}",
        job.log
    );
    assert_eq!(
        job.outputs["steps.compat.outputs.compat-exit-code"], "1",
        "{}",
        job.log
    );
    assert_eq!(job.ran(FAIL), Some(1));
    assert!(
        job.log.contains("FD019") && job.log.contains("FD670"),
        "{}",
        job.log
    );
    assert!(!job.log.contains("Usage:"), "{}", job.log);
}

/// Every action the YAML uses is pinned by a full commit SHA with its
/// version in a comment (issue 37 item 9).
fn actions_are_pinned() {
    let text = std::fs::read_to_string(repo().join("action.yml")).unwrap();
    let pin =
        regex::Regex::new(r"^\s*(?:- )?uses: [\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$").unwrap();
    let uses: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("uses:") && !l.trim_start().starts_with('#'))
        .collect();
    assert_eq!(uses.len(), 3);
    for l in uses {
        assert!(pin.is_match(l), "not pinned: {l}");
    }
}

/// This file's trials.
pub fn trials() -> Vec<Trial> {
    vec![
        common::test(
            "release_is_checked_installed_and_cached",
            release_is_checked_installed_and_cached,
        ),
        common::test("tampered_asset_is_never_run", tampered_asset_is_never_run),
        common::test("tampered_cache_is_never_run", tampered_cache_is_never_run),
        common::test(
            "no_release_builds_from_source",
            no_release_builds_from_source,
        ),
        common::test(
            "findings_are_annotated_and_summarised",
            findings_are_annotated_and_summarised,
        ),
        common::test("baseline_runs_compat", baseline_runs_compat),
        common::test(
            "paths_that_look_like_options_are_paths",
            paths_that_look_like_options_are_paths,
        ),
        common::test("actions_are_pinned", actions_are_pinned),
    ]
}

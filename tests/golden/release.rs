//! Issue 23 item 4: the release workflow (`.github/workflows/release.yml`)
//! and the Action's download of a release binary (`action.yml`).
//!
//! The workflow is parsed (YAML) and checked for what it must do: a native
//! build for Linux x86_64 and aarch64, macOS and Windows, SHA-256 checksums,
//! a build-provenance attestation of every binary, one release with a
//! `SHA256SUMS` file. The steps that can run here are run as the runner
//! would run them (bash, the step's `env`): the checksum step of the Linux
//! x86_64 job and the publish job's `SHA256SUMS` step, on this build's
//! binary (the Action's install step against a release served on
//! 127.0.0.1 is `tests/golden/action.rs`'s). The Linux x86_64 build command
//! itself is a whole static release build (about four minutes on a 2-core
//! machine): it runs when `FORM_PACKAGE_RELEASE_BUILD` is set, to the
//! target directory to build into (relative to the repository, or
//! absolute), checks that the binary is static (`file`, `ldd`, no
//! `PT_INTERP`, no `DT_NEEDED`) and runs it; otherwise it reports itself
//! ignored. `.ci/run` leaves it off (see `docs/src/benchmarks.md`, *Issue 23*):
//!
//! ```sh
//! FORM_PACKAGE_RELEASE_BUILD=$TMPDIR/fp-release cargo test --locked --test golden -- --include-ignored linux_build_runs
//! rm -rf "$TMPDIR"/fp-release
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use libtest_mimic::{Failed, Trial};
use sha2::{Digest, Sha256};
use yaml_rust2::{Yaml, YamlLoader};

use crate::common::{expand, BIN};
const LINUX_X64: &str = "x86_64-unknown-linux-gnu";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(file: &str) -> Yaml {
    let text = std::fs::read_to_string(repo().join(file)).unwrap();
    YamlLoader::load_from_str(&text).unwrap().remove(0)
}

fn workflow() -> Yaml {
    load(".github/workflows/release.yml")
}

/// The step of `steps` named `name`.
fn step<'y>(steps: &'y Yaml, name: &str) -> &'y Yaml {
    steps
        .as_vec()
        .unwrap()
        .iter()
        .find(|s| s["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("no step {name:?}"))
}

/// Runs a `shell: bash` step in `dir` with its `env` (expanded from
/// `ctx`) and `extra` variables.
fn run_step(s: &Yaml, dir: &Path, ctx: &BTreeMap<&str, String>, extra: &[(&str, &str)]) -> Output {
    assert_eq!(s["shell"].as_str(), Some("bash"), "{:?}", s["name"]);
    let mut cmd = Command::new("bash");
    cmd.args(["-e", "-c", s["run"].as_str().unwrap()])
        .current_dir(dir);
    if let Some(env) = s["env"].as_hash() {
        for (k, v) in env {
            cmd.env(k.as_str().unwrap(), expand(v.as_str().unwrap(), ctx));
        }
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The matrix entry of `target`, as the expression context of its job.
fn matrix_ctx(target: &str) -> BTreeMap<&'static str, String> {
    let w = workflow();
    let entry = w["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_vec()
        .unwrap()
        .iter()
        .find(|e| e["target"].as_str() == Some(target))
        .unwrap()
        .clone();
    BTreeMap::from([
        ("matrix.target", target.to_owned()),
        ("matrix.exe", entry["exe"].as_str().unwrap().to_owned()),
        ("matrix.os", entry["os"].as_str().unwrap().to_owned()),
    ])
}

/// The workflow's shape: tag trigger, the five native builds, checksums,
/// an attestation per binary with the permissions it needs, one release.
fn workflow_shape() -> Result<(), Failed> {
    let w = workflow();
    let tags = w["on"]["push"]["tags"].as_vec().unwrap();
    let build = &w["jobs"]["build"];
    assert_eq!(tags, &[Yaml::String("v*".into())]);
    // No permission by default; each job names its own.
    assert!(w["permissions"].as_hash().unwrap().is_empty());
    assert_eq!(build["permissions"]["contents"].as_str(), Some("read"));
    let targets: Vec<&str> = build["strategy"]["matrix"]["include"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|e| e["target"].as_str().unwrap())
        .collect();
    assert_eq!(
        targets,
        [
            LINUX_X64,
            "aarch64-unknown-linux-gnu",
            "x86_64-apple-darwin",
            "aarch64-apple-darwin",
            "x86_64-pc-windows-msvc"
        ]
    );
    assert_eq!(build["runs-on"].as_str(), Some("${{ matrix.os }}"));
    for (k, v) in [("id-token", "write"), ("attestations", "write")] {
        assert_eq!(build["permissions"][k].as_str(), Some(v), "build job {k}");
    }
    let steps = &build["steps"];
    let uses: Vec<&str> = steps
        .as_vec()
        .unwrap()
        .iter()
        .filter_map(|s| s["uses"].as_str())
        .collect();
    let names: Vec<&str> = uses.iter().map(|u| u.split('@').next().unwrap()).collect();
    assert_eq!(
        names,
        [
            "actions/checkout",
            "actions/attest-build-provenance",
            "actions/upload-artifact",
            "actions/upload-artifact"
        ]
    );
    // The wheel (issue 37 item 4): the same target, a tag PyPI accepts,
    // maturin pinned; uploaded apart from the release assets.
    let wheel = step(steps, "Wheel")["run"].as_str().unwrap();
    assert!(
        wheel.contains(
            "maturin\" build --release --locked --target \"$TARGET\" --compatibility pypi --out wheels"
        ),
        "{wheel}"
    );
    assert!(wheel.contains("\"maturin==1.16.0\""), "{wheel}");
    // Pinned by full commit SHA, the version in a comment (issue 37 item 9).
    let text = std::fs::read_to_string(repo().join(".github/workflows/release.yml")).unwrap();
    let pin =
        regex::Regex::new(r"^\s*(?:- )?uses: [\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$").unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("uses:")).collect();
    assert_eq!(lines.len(), 7);
    for l in lines {
        assert!(pin.is_match(l), "not pinned: {l}");
    }
    let checkout = steps
        .as_vec()
        .unwrap()
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/checkout@"))
        })
        .unwrap();
    assert_eq!(
        checkout["with"]["persist-credentials"].as_bool(),
        Some(false)
    );
    let attest = step(steps, "Attest build provenance");
    assert_eq!(
        attest["with"]["subject-path"].as_str(),
        Some("dist/form-package-${{ matrix.target }}${{ matrix.exe }}")
    );
    let publish = &w["jobs"]["publish"];
    assert_eq!(publish["needs"].as_str(), Some("build"));
    assert_eq!(publish["permissions"]["contents"].as_str(), Some("write"));
    // The release takes the binaries only; the wheels go to PyPI by
    // trusted publishing, after the release, with no other permission.
    assert_eq!(
        publish["steps"][0]["with"]["pattern"].as_str(),
        Some("form-package-*")
    );
    let pypi = &w["jobs"]["pypi"];
    assert_eq!(pypi["needs"].as_str(), Some("publish"));
    assert_eq!(pypi["environment"].as_str(), Some("pypi"));
    let perms = pypi["permissions"].as_hash().unwrap();
    assert_eq!(perms.len(), 1);
    assert_eq!(pypi["permissions"]["id-token"].as_str(), Some("write"));
    assert_eq!(
        pypi["steps"][0]["with"]["pattern"].as_str(),
        Some("wheel-*")
    );
    assert!(pypi["steps"][1]["uses"]
        .as_str()
        .unwrap()
        .starts_with("pypa/gh-action-pypi-publish@"));
    let release = step(&publish["steps"], "Publish the release");
    let cmd = release["run"].as_str().unwrap();
    assert!(
        cmd.starts_with("gh release create \"$TAG\" dist/*"),
        "{cmd}"
    );
    // Every bash step's expressions are ones this test (or the runner) knows.
    let ctx = {
        let mut c = matrix_ctx(LINUX_X64);
        c.insert("github.token", "t".into());
        c.insert("github.repository", "o/r".into());
        c.insert("github.ref_name", "v1.0.0".into());
        c
    };
    for job in ["build", "publish", "pypi"] {
        for s in w["jobs"][job]["steps"].as_vec().unwrap() {
            if let Some(env) = s["env"].as_hash() {
                for v in env.values() {
                    expand(v.as_str().unwrap(), &ctx);
                }
            }
        }
    }
    Ok(())
}

/// A temp tree holding `target/x86_64-unknown-linux-gnu/release/form-package`
/// (where the workflow's `--target` build puts it): this build's binary.
fn built_tree() -> (tempfile::TempDir, Vec<u8>) {
    let tmp = tempfile::tempdir().unwrap();
    let release = tmp.path().join("target").join(LINUX_X64).join("release");
    std::fs::create_dir_all(&release).unwrap();
    let bytes = std::fs::read(BIN).unwrap();
    std::fs::write(release.join("form-package"), &bytes).unwrap();
    (tmp, bytes)
}

/// Runs the Linux x86_64 job's checksum step and the publish job's
/// `SHA256SUMS` step on this build's binary; returns the release
/// directory (`dist`) and the binary's bytes.
fn checksummed() -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let w = workflow();
    let (tmp, bytes) = built_tree();
    let ctx = matrix_ctx(LINUX_X64);
    let out = run_step(
        step(&w["jobs"]["build"]["steps"], "Checksum"),
        tmp.path(),
        &ctx,
        &[],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run_step(
        step(&w["jobs"]["publish"]["steps"], "SHA256SUMS"),
        tmp.path(),
        &BTreeMap::new(),
        &[],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dist = tmp.path().join("dist");
    (tmp, dist, bytes)
}

/// The checksum file is in `sha256sum` format and names the binary with
/// its real digest; nothing else is left beside the assets.
fn checksum_file_names_the_binary() -> Result<(), Failed> {
    let (_tmp, dist, bytes) = checksummed();
    let asset = format!("form-package-{LINUX_X64}");
    let sums = std::fs::read_to_string(dist.join("SHA256SUMS")).unwrap();
    assert_eq!(sums, format!("{}  {asset}\n", sha256_hex(&bytes)));
    assert_eq!(std::fs::read(dist.join(&asset)).unwrap(), bytes);
    let mut names: Vec<String> = std::fs::read_dir(&dist)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["SHA256SUMS".to_owned(), asset]);
    // `sha256sum -c` agrees (the Action and users check with it).
    let check = Command::new("sha256sum")
        .args(["-c", "SHA256SUMS"])
        .current_dir(&dist)
        .output()
        .unwrap();
    assert!(check.status.success());
    Ok(())
}

/// The Linux x86_64 job's build command, run here (a static release build
/// into the target directory `FORM_PACKAGE_RELEASE_BUILD` names); its
/// binary is where the checksum step takes it from, is statically linked
/// (no program interpreter, no shared library needed: `file` and `ldd` say
/// so too) and runs.
fn linux_build_runs() -> Result<(), Failed> {
    let w = workflow();
    let dir = std::env::var_os("FORM_PACKAGE_RELEASE_BUILD").unwrap();
    let target_dir = repo().join(dir);
    let out = run_step(
        step(&w["jobs"]["build"]["steps"], "Build"),
        &repo(),
        &matrix_ctx(LINUX_X64),
        &[("CARGO_TARGET_DIR", target_dir.to_str().unwrap())],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bin = target_dir.join(LINUX_X64).join("release/form-package");
    let tool = |prog: &str, args: &[&str]| {
        let out = Command::new(prog)
            .args(args)
            .arg(&bin)
            .output()
            .unwrap_or_else(|e| panic!("{prog}: {e}"));
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    // The ELF itself: no program interpreter (`ld.so`), no shared library.
    let headers = tool("readelf", &["-lW"]);
    assert!(headers.contains("LOAD"), "{headers}");
    assert!(!headers.contains("INTERP"), "{headers}");
    let dynamic = tool("readelf", &["-dW"]);
    assert!(!dynamic.contains("(NEEDED)"), "{dynamic}");
    // What a user would ask: `file` says static (a static-pie keeps address
    // randomisation), `ldd` finds nothing to load.
    let file = tool("file", &["-b"]);
    assert!(
        file.contains("static-pie linked") || file.contains("statically linked"),
        "{file}"
    );
    let ldd = tool("ldd", &[]);
    assert!(
        ldd.contains("not a dynamic executable") || ldd.contains("statically linked"),
        "{ldd}"
    );
    let v = Command::new(&bin).arg("version").output().unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    assert!(String::from_utf8_lossy(&v.stdout).contains("form-package"));
    Ok(())
}

/// This file's trials, run by the binary's `main`.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    let build = std::env::var_os("FORM_PACKAGE_RELEASE_BUILD").is_some();
    vec![
        Trial::test("workflow_shape", workflow_shape),
        Trial::test(
            "checksum_file_names_the_binary",
            checksum_file_names_the_binary,
        ),
        // A release build: set FORM_PACKAGE_RELEASE_BUILD (a target
        // directory) to run it.
        Trial::test("linux_build_runs", linux_build_runs).with_ignored_flag(!build),
    ]
}

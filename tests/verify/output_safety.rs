//! Output safety and exit codes a tester found wrong (T1 B1, B2, B8, C9,
//! C10, C11, D1): `--output-file` never destroys a link, device or FIFO;
//! `-` is stdout; a report that cannot be written is exit 2 with a line on
//! stderr (a reader that left, `| head`, is not); a missing PATH is always
//! said; SARIF says when the run could not complete; `--sarif-root` and
//! `--exclude` are checked. Runs on the packages shipped in `fixtures/`
//! (no corpus needed).

use crate::common;
use common::{copy_package, fixtures, run_in};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn example_store() -> PathBuf {
    fixtures().join("packages/v1alpha1/example-store-1.0.0-f486d5e31632")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn bin() -> Command {
    let mut c = Command::new(crate::common::BIN);
    c.env("NO_COLOR", "1").env_remove("GITHUB_WORKSPACE");
    c
}

/// The human report of the shipped package, as `verify pkg` prints it.
const REPORT: &str = "ok pkg (2 files";

#[cfg(unix)]
fn is_symlink(p: &Path) -> bool {
    std::fs::symlink_metadata(p)
        .unwrap()
        .file_type()
        .is_symlink()
}

/// B1: a symlink named as `--output-file` is followed (its target holds
/// the report, the link stays a link), also when dangling (the target is
/// created) and when relative to a subdirectory; a link whose target is
/// inside the package being verified is refused (exit 2, nothing
/// written); `relations` likewise. Near miss: an existing regular file is
/// written in place (its permissions and hard links kept, T2 F1); a
/// directory is a write error (exit 2), never replaced.
#[cfg(unix)]
#[test]
fn output_file_follows_symlinks_and_refuses_one_into_the_package() {
    use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
    let (tmp, pkg) = copy_package(&example_store());
    let t = tmp.path();
    std::fs::write(t.join("target.txt"), "orig\n").unwrap();
    symlink("target.txt", t.join("link")).unwrap();
    std::fs::create_dir(t.join("sub")).unwrap();
    symlink("../target2.txt", t.join("sub/rel")).unwrap();
    symlink("sub/new.txt", t.join("dangling")).unwrap();
    for (link, target) in [
        ("link", "target.txt"),
        ("sub/rel", "target2.txt"),
        ("dangling", "sub/new.txt"),
    ] {
        let o = run_in(t, &["verify", "pkg", "--output-file", link]);
        assert_eq!(o.status.code(), Some(0), "{link}: {}", text(&o.stderr));
        assert!(o.stdout.is_empty(), "{link}");
        assert!(is_symlink(&t.join(link)), "{link} was replaced");
        let report = text(&std::fs::read(t.join(target)).unwrap());
        assert!(report.contains(REPORT), "{target}: {report}");
    }
    // `relations` writes through the same hook.
    let o = run_in(
        t,
        &[
            "relations",
            "pkg",
            "--format",
            "json",
            "--output-file",
            "link",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(is_symlink(&t.join("link")));
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(t.join("target.txt")).unwrap()).unwrap();
    assert_eq!(doc["version"], 1, "{doc}");

    // A link into the package being verified: the resolved target is refused.
    symlink("pkg/report.txt", t.join("inside")).unwrap();
    for args in [
        vec!["verify", "pkg", "--output-file", "inside"],
        vec!["relations", "pkg", "--output-file", "inside"],
    ] {
        let o = run_in(t, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(text(&o.stderr).contains("being verified"), "{args:?}");
        assert!(!pkg.join("report.txt").exists(), "{args:?} wrote into pkg");
        assert!(is_symlink(&t.join("inside")));
    }

    // Near miss: a regular file is replaced, its mode kept.
    std::fs::write(t.join("plain.txt"), "old\n").unwrap();
    std::fs::set_permissions(t.join("plain.txt"), std::fs::Permissions::from_mode(0o600)).unwrap();
    let o = run_in(t, &["verify", "pkg", "--output-file", "plain.txt"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&std::fs::read(t.join("plain.txt")).unwrap()).contains(REPORT));
    let mode = std::fs::metadata(t.join("plain.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    // T2 F1: written in place, as a shell's `>` does: a hard link to it
    // sees the report (a rename would have broken the link).
    std::fs::hard_link(t.join("plain.txt"), t.join("hard.txt")).unwrap();
    let o = run_in(t, &["verify", "pkg", "--output-file", "hard.txt"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        std::fs::read(t.join("plain.txt")).unwrap(),
        std::fs::read(t.join("hard.txt")).unwrap()
    );
    assert_eq!(std::fs::metadata(t.join("plain.txt")).unwrap().nlink(), 2);
    // A shorter report truncates the longer file it replaces.
    std::fs::write(t.join("long.txt"), "x".repeat(10_000)).unwrap();
    let o = run_in(t, &["verify", "pkg", "--output-file", "long.txt", "-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(!std::fs::read_to_string(t.join("long.txt"))
        .unwrap()
        .contains('x'));
    // A directory is a write error; it stays, and no temporary file is left.
    std::fs::create_dir(t.join("adir")).unwrap();
    let o = run_in(t, &["verify", "pkg", "--output-file", "adir"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("form-package: write adir:"),
        "{}",
        text(&o.stderr)
    );
    assert!(t.join("adir").is_dir());
    let o = run_in(t, &["verify", "pkg", "--output-file", "nodir/x.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("form-package: write nodir/x.txt:"));
    let leftovers: Vec<_> = std::fs::read_dir(t)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// B1: a FIFO named as `--output-file` is written in place, never
/// replaced by a regular file. The test holds the FIFO open for reading
/// and writing itself (Linux: such an open never blocks), so the run never
/// waits for a reader, and a sentinel it writes after the run ends what it
/// reads (a regression that replaced the FIFO fails instead of hanging).
#[cfg(target_os = "linux")]
#[test]
fn output_file_writes_a_fifo_in_place() {
    use std::io::{Read, Write};
    use std::os::unix::fs::FileTypeExt;
    let (tmp, _pkg) = copy_package(&example_store());
    let fifo = tmp.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    let mut held = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .unwrap();
    let o = run_in(tmp.path(), &["verify", "pkg", "--output-file", "fifo"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    held.write_all(b"\0END").unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while !got.ends_with(b"\0END") {
        let n = held.read(&mut buf).unwrap();
        got.extend_from_slice(&buf[..n]);
    }
    let report = text(&got[..got.len() - 4]);
    assert!(report.contains(REPORT), "{report:?}");
}

/// D1: `--output-file -` is stdout (no file named `-`); `./-` is a file
/// named `-`. `/dev/stdout` (Linux: a link to this process's descriptor
/// 1) is also stdout, written through the descriptor, not replaced.
#[test]
fn output_file_dash_is_stdout() {
    let (tmp, _pkg) = copy_package(&example_store());
    let o = run_in(tmp.path(), &["verify", "pkg", "--output-file", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains(REPORT), "{}", text(&o.stdout));
    assert!(!tmp.path().join("-").exists());
    let o = run_in(tmp.path(), &["verify", "pkg", "--output-file", "./-"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    assert!(text(&std::fs::read(tmp.path().join("-")).unwrap()).contains(REPORT));
    #[cfg(target_os = "linux")]
    {
        let o = run_in(
            tmp.path(),
            &["verify", "pkg", "--output-file", "/dev/stdout"],
        );
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        assert!(text(&o.stdout).contains(REPORT), "{}", text(&o.stdout));
        let o = run_in(
            tmp.path(),
            &["verify", "pkg", "--output-file", "/dev/stderr"],
        );
        assert_eq!(o.status.code(), Some(0));
        assert!(o.stdout.is_empty());
        assert!(text(&o.stderr).contains(REPORT), "{}", text(&o.stderr));
    }
}

/// B2: a report that cannot be written to stdout (`> /dev/full`) is exit
/// 2 with a `form-package: write stdout:` line, also for a command that
/// would exit 0 and for `--help` (printed by clap). Near miss: a reader that left (a closed pipe, `| head`)
/// is no error: nothing on stderr, the verdict's exit status.
#[cfg(target_os = "linux")]
#[test]
fn a_lost_report_is_exit_2_and_a_closed_pipe_is_quiet() {
    let (tmp, _pkg) = copy_package(&example_store());
    for args in [
        vec!["verify", "pkg"],
        vec!["schema", "report"],
        vec!["--help"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full (Linux)");
        let o = bin()
            .args(&args)
            .current_dir(tmp.path())
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert!(
            err.contains("form-package: write stdout:"),
            "{args:?}: {err}"
        );

        // The read end is closed before the run starts: every write is EPIPE.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = bin()
            .args(&args)
            .current_dir(tmp.path())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        assert_eq!(text(&o.stderr), "", "{args:?}");
    }
}

/// B8: a missing PATH makes the run exit 2, so no selection hides it:
/// `--ignore FD900` and `--select FD2` still show `FD900`. Near miss:
/// `--ignore FD900` with an existing PATH verifies it (exit 0).
#[test]
fn a_selection_never_hides_a_missing_path() {
    let (tmp, _pkg) = copy_package(&example_store());
    for sel in [["--ignore", "FD900"], ["--select", "FD2"]] {
        let o = run_in(
            tmp.path(),
            &["verify", sel[0], sel[1], "nonexist", "--format", "json"],
        );
        assert_eq!(o.status.code(), Some(2), "{sel:?}");
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(doc["packages"][0]["path"], "nonexist", "{doc}");
        assert_eq!(
            doc["packages"][0]["diagnostics"][0]["code"], "FD900",
            "{doc}"
        );
    }
    let o = run_in(tmp.path(), &["verify", "--ignore", "FD900", "pkg"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
}

/// C9: SARIF `invocations[0].executionSuccessful` is false on a run that
/// exits 2 (a PATH does not exist), with an error notification saying
/// why. Near miss: true on a run that exits 0 or 1.
#[test]
fn sarif_says_when_the_run_could_not_complete() {
    let (tmp, _pkg) = copy_package(&example_store());
    let sarif = |args: &[&str]| {
        let o = run_in(tmp.path(), args);
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (o.status.code(), doc["runs"][0]["invocations"][0].clone())
    };
    let (code, inv) = sarif(&["verify", "--format", "sarif", "nonexist", "pkg"]);
    assert_eq!(code, Some(2));
    assert_eq!(inv["executionSuccessful"], false, "{inv}");
    assert_eq!(
        inv["toolExecutionNotifications"][0]["level"], "error",
        "{inv}"
    );
    let (code, inv) = sarif(&["verify", "--format", "sarif", "pkg"]);
    assert_eq!(code, Some(0));
    assert_eq!(inv["executionSuccessful"], true, "{inv}");
    // T3 C4: the missing PATH's result is located at the PATH itself.
    let o = run_in(tmp.path(), &["verify", "--format", "sarif", "nonexist"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "nonexist"
    );
}

/// T3 C2: `GITHUB_WORKSPACE` is the base of `file=` for every command with
/// `--format github` (`check` too), read in one place
/// (`render::Options::here`). Near miss: without it, the working directory.
#[test]
fn github_paths_are_relative_to_the_workspace_in_every_command() {
    let (tmp, _pkg) = copy_package(&example_store());
    std::fs::write(tmp.path().join("pkg/empty.json"), b"").unwrap();
    let github = |workspace: Option<&Path>| {
        let mut c = bin();
        c.args(["check", "--format", "github", "empty.json"])
            .current_dir(tmp.path().join("pkg"))
            .env_remove("GITHUB_WORKSPACE");
        if let Some(w) = workspace {
            c.env("GITHUB_WORKSPACE", w);
        }
        text(&c.output().unwrap().stdout)
    };
    assert!(
        github(Some(tmp.path())).starts_with("::error file=pkg/empty.json,"),
        "{}",
        github(Some(tmp.path()))
    );
    assert!(github(None).starts_with("::error file=empty.json,"));
}

/// C10: `--sarif-root` that does not exist or is a file is a usage error
/// (exit 2, nothing on stdout), for `verify` and `relations`. Near miss:
/// an existing directory.
#[test]
fn sarif_root_must_be_a_directory() {
    let (tmp, _pkg) = copy_package(&example_store());
    std::fs::write(tmp.path().join("f"), "").unwrap();
    for cmd in ["verify", "relations"] {
        for root in ["nonexist", "f"] {
            let o = run_in(
                tmp.path(),
                &[cmd, "--format", "sarif", "--sarif-root", root, "pkg"],
            );
            assert_eq!(o.status.code(), Some(2), "{cmd} {root}");
            assert!(o.stdout.is_empty(), "{cmd} {root}");
            assert!(
                text(&o.stderr).contains(&format!("--sarif-root {root}:")),
                "{cmd} {root}: {}",
                text(&o.stderr)
            );
        }
        let o = run_in(
            tmp.path(),
            &[cmd, "--format", "sarif", "--sarif-root", ".", "pkg"],
        );
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", text(&o.stderr));
    }
}

/// C11: an invalid `--exclude` glob (an unclosed class or group) is a
/// usage error (exit 2) and in `form-package.toml` an `FD903` finding at
/// `/exclude`. Near miss: valid globs, and `\[` for a literal bracket.
#[test]
fn an_invalid_exclude_glob_is_refused() {
    let (tmp, _pkg) = copy_package(&example_store());
    for glob in ["[", "a/{b"] {
        let o = run_in(tmp.path(), &["verify", "--exclude", glob, "pkg"]);
        assert_eq!(o.status.code(), Some(2), "{glob}");
        assert!(o.stdout.is_empty());
        assert!(
            text(&o.stderr).contains("--exclude:") && text(&o.stderr).contains("not a valid glob"),
            "{glob}: {}",
            text(&o.stderr)
        );
    }
    let o = run_in(
        tmp.path(),
        &["verify", "--exclude", "build/,vendor/**,\\[", "pkg"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));

    std::fs::write(tmp.path().join("form-package.toml"), "exclude = [\"[\"]\n").unwrap();
    let o = run_in(tmp.path(), &["verify", "--format", "json", "pkg"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = &doc["packages"][0]["diagnostics"][0];
    assert_eq!(d["code"], "FD903", "{doc}");
    assert_eq!(d["pointer"], "/exclude", "{doc}");
    std::fs::write(
        tmp.path().join("form-package.toml"),
        "exclude = [\"\\\\[\"]\n",
    )
    .unwrap();
    let o = run_in(tmp.path(), &["verify", "pkg"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
}

/// Issue 37 item 8: every file the tool writes goes through one writer
/// with one rule, nothing into a package, through a hard link or a
/// symbolic link neither: `trust verify-checkpoint --pin-out`,
/// `--summary-file`, `--output-file` of a run over another PATH and
/// `compat --write-witnesses` are refused (exit 2) when the file is a hard
/// link (beside the package) or a symlink to a package file, and the
/// package still verifies. Near miss: the same names as plain files, or a
/// hard link between two files outside every package, are written.
#[test]
fn one_writer_never_writes_into_a_package() {
    let (tmp, pkg) = copy_package(&example_store());
    let dir = tmp.path();
    let index = pkg.join("package-index.json");
    let before = std::fs::read(&index).unwrap();
    common::copy_dir(&example_store(), &dir.join("other"));
    let pkg_rel = pkg.file_name().unwrap().to_str().unwrap().to_owned();
    let writers = |name: &str| -> Vec<Vec<String>> {
        vec![
            vec![
                "trust".into(),
                "verify-checkpoint".into(),
                "--checkpoint".into(),
                "c.json".into(),
                "--bundle".into(),
                "b.json".into(),
                "--trusted-root".into(),
                "r.json".into(),
                "--policy".into(),
                "p.json".into(),
                "--pin-out".into(),
                name.into(),
            ],
            vec![
                "verify".into(),
                "other".into(),
                "--summary-file".into(),
                name.into(),
            ],
            vec![
                "verify".into(),
                "other".into(),
                "--output-file".into(),
                name.into(),
            ],
        ]
    };
    for link in ["hard", "symbolic"] {
        let name = format!("{link}.json");
        let path = dir.join(&name);
        if link == "hard" {
            std::fs::hard_link(&index, &path).unwrap();
        } else {
            std::os::unix::fs::symlink(&index, &path).unwrap();
        }
        for args in writers(&name) {
            let o = bin().args(&args).current_dir(dir).output().unwrap();
            assert_eq!(
                o.status.code(),
                Some(2),
                "{link} {args:?}: {}",
                text(&o.stderr)
            );
            let err = text(&o.stderr);
            assert!(err.contains("inside the package"), "{link} {args:?}: {err}");
            assert_eq!(std::fs::read(&index).unwrap(), before, "{link} {args:?}");
        }
        std::fs::remove_file(&path).unwrap();
    }
    let o = bin()
        .args(["verify", &pkg_rel])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    // Near miss: two names of one file outside every package are written.
    std::fs::write(dir.join("a.md"), "old\n").unwrap();
    std::fs::hard_link(dir.join("a.md"), dir.join("b.md")).unwrap();
    let o = bin()
        .args(["verify", &pkg_rel, "--summary-file", "a.md"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let summary = std::fs::read_to_string(dir.join("b.md")).unwrap();
    assert!(
        summary.starts_with("old\n### form-package verify\n"),
        "{summary}"
    );
}

//! Command-line behaviour a tester found surprising (N1 findings §3, §4):
//! where `--output-file` may go, `--statistics` with the machine formats,
//! the `ok` line when a selection hides findings, the `canonicalize` /
//! `digest` first line. Runs on the packages shipped in `fixtures/` (no
//! corpus needed).

use crate::common;
use common::{copy_package, fixtures, run_in};

use std::path::PathBuf;

fn example_store() -> PathBuf {
    fixtures().join("packages/v1alpha1/example-store-1.0.0-f486d5e31632")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// N1 §3.1: an `--output-file` inside a package being verified is refused
/// (exit 2) and nothing is written: not over a listed payload, not as a
/// new (unlisted) file, also when the PATH is the tree above the package;
/// also for `relations`. Near miss: a sibling whose name extends the
/// PATH's (`pkg2` beside `pkg`) and a tree's root outside its packages.
#[test]
fn output_file_inside_a_verified_path_is_refused() {
    let (tmp, pkg) = copy_package(&example_store());
    let before = std::fs::read(pkg.join("definition.json")).unwrap();
    for (args, file) in [
        (
            vec!["verify", "pkg", "--output-file", "pkg/definition.json"],
            "pkg/definition.json",
        ),
        (
            vec!["verify", "pkg", "--output-file", "./pkg/../pkg/report.json"],
            "pkg/report.json",
        ),
        (
            vec!["verify", ".", "--output-file", "pkg/fixtures/report.json"],
            "pkg/fixtures/report.json",
        ),
        (
            vec![
                "relations",
                "pkg",
                "--format",
                "json",
                "--output-file",
                "pkg/r.json",
            ],
            "pkg/r.json",
        ),
    ] {
        let o = run_in(tmp.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = text(&o.stderr);
        assert!(
            err.contains("being verified") && err.contains("--output-file"),
            "{args:?}: {err}"
        );
        if file != "pkg/definition.json" {
            assert!(!tmp.path().join(file).exists(), "{file} was written");
        }
    }
    assert_eq!(std::fs::read(pkg.join("definition.json")).unwrap(), before);
    // A symlink to the package is resolved: still inside.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&pkg, tmp.path().join("link")).unwrap();
        let o = run_in(
            tmp.path(),
            &["verify", "pkg", "--output-file", "link/x.txt"],
        );
        assert_eq!(o.status.code(), Some(2));
        assert!(!pkg.join("x.txt").exists());
        std::fs::remove_file(tmp.path().join("link")).unwrap();
    }
    // Near miss: beside the package, in a sibling named like it, and in
    // the root of a tree being verified, outside its packages (the GitHub
    // Action's default: `verify . --output-file form-package.sarif`).
    std::fs::create_dir(tmp.path().join("pkg2")).unwrap();
    for (path, file) in [
        ("pkg", "report.txt"),
        ("pkg", "pkg2/report.txt"),
        (".", "form-package.sarif"),
    ] {
        let o = run_in(tmp.path(), &["verify", path, "--output-file", file]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", text(&o.stderr));
        let report = text(&std::fs::read(tmp.path().join(file)).unwrap());
        assert!(report.contains("pkg (2 files"), "{file}: {report}");
    }
    // The tree verifies again with the report in it: it is in no package.
    let o = run_in(tmp.path(), &["verify", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    // The package is still verified afterwards: nothing was written into it.
    let o = run_in(tmp.path(), &["verify", "pkg"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
}

/// Breaker G9: a PATH that is a package's own file (`compat
/// OLD/definition.json NEW/definition.json`) stands for its package: an
/// `--output-file` in NEW (or through a link into it) is refused, exit 2,
/// nothing written. Near miss: a lone definition (no index beside it) may
/// have the report beside it.
#[test]
fn output_file_in_the_package_of_a_named_file_is_refused() {
    let (tmp, pkg) = copy_package(&example_store());
    let before = std::fs::read(pkg.join("fixtures/desired.json")).unwrap();
    std::os::unix::fs::symlink(pkg.join("fixtures/x.json"), tmp.path().join("link.json")).unwrap();
    for file in [
        "pkg/fixtures/x.json",
        "pkg/fixtures/desired.json",
        "link.json",
    ] {
        let o = run_in(
            tmp.path(),
            &[
                "compat",
                "pkg/definition.json",
                "pkg/definition.json",
                "--output-file",
                file,
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{file}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains("being verified"), "{file}");
    }
    assert!(!pkg.join("fixtures/x.json").exists());
    assert_eq!(
        std::fs::read(pkg.join("fixtures/desired.json")).unwrap(),
        before
    );
    let lone = tmp.path().join("lone");
    std::fs::create_dir(&lone).unwrap();
    std::fs::copy(pkg.join("definition.json"), lone.join("definition.json")).unwrap();
    let o = run_in(
        tmp.path(),
        &[
            "compat",
            "lone/definition.json",
            "lone/definition.json",
            "--output-file",
            "lone/report.txt",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(lone.join("report.txt").exists());
}

/// Breaker G10: symbolic links planted under the temporary names the
/// report writer once used (`.NAME.<pid>.tmp` for the next process ids)
/// are never followed: the file they point to keeps its bytes and the
/// report is a plain file. Near miss: the report is written.
#[test]
fn planted_temporary_links_are_never_followed() {
    let (tmp, _pkg) = copy_package(&example_store());
    let victim = tmp.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let next = std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .unwrap_or_else(std::process::id);
    for pid in next..next + 2000 {
        std::os::unix::fs::symlink(&victim, tmp.path().join(format!(".report.sarif.{pid}.tmp")))
            .unwrap();
    }
    let o = run_in(
        tmp.path(),
        &[
            "verify",
            "pkg",
            "--format",
            "sarif",
            "--output-file",
            "report.sarif",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let report = tmp.path().join("report.sarif");
    assert!(!std::fs::symlink_metadata(&report)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(text(&std::fs::read(&report).unwrap()).contains("\"runs\""));
}

/// N1 §3.5: `--statistics` with a format that has no statistics form
/// (SARIF, GitHub, JUnit) is a usage error (exit 2, nothing on stdout);
/// `statistics = true` in `form-package.toml` leaves those formats'
/// reports intact. Near miss: human and JSON still print the table.
#[test]
fn statistics_with_a_machine_format_is_a_usage_error() {
    let (tmp, pkg) = copy_package(&example_store());
    std::fs::write(pkg.join("stray.txt"), "x").unwrap(); // FD018, one error
    for format in ["sarif", "github", "junit"] {
        let o = run_in(
            tmp.path(),
            &["verify", "--statistics", "--format", format, "pkg"],
        );
        assert_eq!(o.status.code(), Some(2), "{format}");
        assert!(o.stdout.is_empty(), "{format}");
        let err = text(&o.stderr);
        assert!(
            err.contains(&format!("--statistics has no {format} form")),
            "{format}: {err}"
        );
    }
    let human = run_in(tmp.path(), &["verify", "--statistics", "pkg"]);
    assert_eq!(human.status.code(), Some(1));
    assert_eq!(
        text(&human.stdout),
        "1\tFD018\tunlisted-file\nform-package: 1 package (0 verified, 1 failed), 1 error, 0 warnings, 0 notes\n"
    );
    let json = run_in(
        tmp.path(),
        &["verify", "--statistics", "--format", "json", "pkg"],
    );
    assert_eq!(json.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["statistics"][0]["code"], "FD018", "{v}");
    assert_eq!(v["summary"]["failed"], 1, "{v}");
    // The configuration file's `statistics = true`: SARIF still gets SARIF.
    let cfg = tmp.path().join("form-package.toml");
    std::fs::write(&cfg, "statistics = true\n").unwrap();
    let o = run_in(
        tmp.path(),
        &[
            "verify",
            "--config",
            cfg.to_str().unwrap(),
            "--format",
            "sarif",
            "pkg",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let sarif: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "FD018", "{sarif}");
    let o = run_in(
        tmp.path(),
        &["verify", "--config", cfg.to_str().unwrap(), "pkg"],
    );
    // Human statistics: the file in force named first (issue 37 item 5).
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("form-package: configuration "),
        "{out}"
    );
    assert!(lines[0].ends_with("form-package.toml"), "{out}");
    assert_eq!(lines[1], "1\tFD018\tunlisted-file");
    assert!(lines[2].starts_with("form-package: 1 package (0 verified, 1 failed)"));
}

/// N1 §3.2: a selection that hides (or demotes) a package's only error
/// lets it pass (exit 0, ruff's meaning) but its `ok` line shows the real
/// file count and package digest and says the findings were hidden, and
/// the summary does not count it as verified; also through
/// `form-package.toml`. Near miss: a selection that hides nothing leaves
/// the verified line and summary as they were.
#[test]
fn a_hidden_error_passes_but_is_not_called_verified() {
    let (tmp, pkg) = copy_package(&example_store());
    let clean = run_in(tmp.path(), &["verify", "pkg"]);
    assert_eq!(clean.status.code(), Some(0));
    let clean = text(&clean.stdout);
    let ok = clean.lines().find(|l| l.starts_with("ok pkg (")).unwrap();
    // `ok pkg (2 files, 1 fixture validation run, sha256:…)`
    let figures = ok.trim_start_matches("ok pkg (").trim_end_matches(')');
    assert!(
        figures.contains("sha256:") && !figures.starts_with("0 files"),
        "{ok}"
    );
    let near = run_in(tmp.path(), &["verify", "pkg", "--ignore", "FD213"]);
    assert_eq!(text(&near.stdout), clean, "a selection that hides nothing");
    assert!(clean.contains("(1 verified, 0 failed)"), "{clean}");

    std::fs::write(pkg.join("stray.txt"), "x").unwrap(); // FD018, the only error
    let (files, rest) = figures.split_once(", ").unwrap();
    let digest = rest.rsplit(", ").next().unwrap();
    for (args, why) in [
        (
            vec!["verify", "pkg", "--ignore", "FD018"],
            "findings hidden: 1 error",
        ),
        (
            vec!["verify", "pkg", "--select", "FD2"],
            "findings hidden: 1 error",
        ),
        (
            vec!["verify", "pkg", "--warn", "unlisted-file"],
            "1 error reported as a warning",
        ),
    ] {
        let o = run_in(tmp.path(), &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let out = text(&o.stdout);
        let line = out.lines().find(|l| l.starts_with("ok pkg (")).unwrap();
        assert!(
            line.starts_with(&format!("ok pkg ({why}; not verified: {files}, ")),
            "{line}"
        );
        assert!(line.contains(&format!(", {digest})")), "{line} vs {digest}");
        assert!(
            out.contains(
                "(0 verified, 1 unverified: errors hidden or demoted by a selection, 0 failed)"
            ),
            "{out}"
        );
    }
    let github = run_in(
        tmp.path(),
        &["verify", "pkg", "--ignore", "FD018", "--format", "github"],
    );
    assert!(
        text(&github.stdout).contains("0 verified, 1 unverified"),
        "{}",
        text(&github.stdout)
    );
    let json = run_in(
        tmp.path(),
        &["verify", "pkg", "--ignore", "FD018", "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["summary"]["verified"], 0, "{v}");
    assert_eq!(v["packages"][0]["verdict"], "ok", "{v}");
    // The configuration file's `ignore`, named on the command line (a file
    // found upward never hides FD018, an integrity finding: issue 22 item 4).
    std::fs::write(
        tmp.path().join("form-package.toml"),
        "ignore = [\"FD018\"]\n",
    )
    .unwrap();
    let o = run_in(tmp.path(), &["verify", "pkg"]);
    assert_eq!(o.status.code(), Some(1));
    let o = run_in(
        tmp.path(),
        &["verify", "pkg", "--config", "form-package.toml"],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(
        text(&o.stdout).contains(&format!(
            "ok pkg (findings hidden: 1 error; not verified: {files}, "
        )),
        "{}",
        text(&o.stdout)
    );
}

/// N1 §3.3: `canonicalize` and `digest` print the reference verifier's
/// error line first on stderr (each `want` below is the oracle's answer,
/// `form-package-reference canonicalize FILE`, recorded), then our finding
/// with its code. Near miss: a valid file prints nothing on stderr.
#[test]
fn canonicalize_and_digest_print_the_reference_line_first() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: &[(&[u8], &str)] = &[
        (b"", "invalid I-JSON: unexpected end of input"),
        (b"-0", "invalid I-JSON: negative zero \"-0\" is forbidden"),
        (
            b"\xef\xbb\xbf{}",
            "invalid I-JSON: invalid number at offset 0",
        ),
        (
            b"{\"a\":1,\"a\":2}",
            "invalid I-JSON: duplicate object name \"a\"",
        ),
        (b"{\"x\":01}", "invalid I-JSON: leading zero at offset 6"),
        (b"[1,]", "invalid I-JSON: invalid number at offset 3"),
        (b"[1", "invalid I-JSON: expected ',' or ']' at offset 2"),
        (b"{\"ab", "invalid I-JSON: object name: unterminated string"),
        (b"\xff", "I-JSON input is not valid UTF-8"),
        (
            b"\"s\"",
            "RFC 8785 canonicalization: Expected '{' but got '\"'",
        ),
        (
            b"  1",
            "RFC 8785 canonicalization: Expected '{' but got '1'",
        ),
        (
            b"null",
            "RFC 8785 canonicalization: Expected '{' but got 'n'",
        ),
        (
            b"true",
            "RFC 8785 canonicalization: Expected '{' but got 't'",
        ),
    ];
    let file = tmp.path().join("in.json");
    for (bytes, want) in cases {
        std::fs::write(&file, bytes).unwrap();
        for cmd in ["canonicalize", "digest"] {
            let o = run_in(tmp.path(), &[cmd, "in.json"]);
            assert_eq!(o.status.code(), Some(1), "{cmd} {bytes:?}");
            assert!(o.stdout.is_empty());
            let err = text(&o.stderr);
            let mut lines = err.lines();
            assert_eq!(
                lines.next(),
                Some(format!("form-package: {want}").as_str()),
                "{cmd} {bytes:?}"
            );
            assert!(
                err.contains("FD0"),
                "{cmd} {bytes:?}: the finding follows: {err}"
            );
        }
    }
    std::fs::write(&file, b"{\"b\":1,\"a\":[true]}").unwrap();
    let o = run_in(tmp.path(), &["canonicalize", "in.json"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stderr.is_empty());
    assert_eq!(text(&o.stdout), "{\"a\":[true],\"b\":1}\n");
}

/// N1 §4: every page a SUBCOMMANDS section of `form-package man` names
/// (`form-package-verify(1)`, …, nested `form-package-trust-verify-bundle(1)`)
/// is printed by `form-package man SUBCOMMAND...` under that name, with
/// the subcommand's options. Near miss: a name that is no subcommand is a
/// usage error (exit 2).
#[test]
fn every_man_page_the_manual_names_exists() {
    fn named(page: &str) -> Vec<String> {
        // `.TP` then `form\-package\-verify(1)` in the SUBCOMMANDS section.
        let Some(section) = page.split(".SH SUBCOMMANDS").nth(1) else {
            return Vec::new();
        };
        let section = section.split("\n.SH ").next().unwrap();
        section
            .lines()
            .filter_map(|l| l.strip_suffix("(1)"))
            .map(|l| l.replace("\\-", "-"))
            .collect()
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = run_in(tmp.path(), &["man"]);
    assert_eq!(root.status.code(), Some(0));
    let mut todo: Vec<(Vec<String>, String)> = vec![(Vec::new(), text(&root.stdout))];
    let mut seen = Vec::new();
    while let Some((path, page)) = todo.pop() {
        for name in named(&page) {
            let sub = name
                .strip_prefix(&format!(
                    "form-package-{}",
                    path.iter().map(|p| format!("{p}-")).collect::<String>()
                ))
                .unwrap_or_else(|| panic!("{name} under {path:?}"))
                .to_owned();
            let mut args = vec!["man".to_owned()];
            args.extend(path.iter().cloned());
            args.push(sub.clone());
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = run_in(tmp.path(), &argv);
            assert_eq!(o.status.code(), Some(0), "{argv:?}");
            let sub_page = text(&o.stdout);
            assert!(
                sub_page.contains(&format!(".TH {name} 1")),
                "{argv:?}: {sub_page}"
            );
            seen.push(name);
            let mut next = path.clone();
            next.push(sub);
            todo.push((next, sub_page));
        }
    }
    for want in [
        "form-package-verify",
        "form-package-canonicalize",
        "form-package-trust-verify-bundle",
    ] {
        assert!(seen.iter().any(|s| s == want), "{want} not in {seen:?}");
    }
    assert!(!seen.iter().any(|s| s.ends_with("-help")), "{seen:?}");
    let verify = text(&run_in(tmp.path(), &["man", "verify"]).stdout);
    assert!(
        verify.contains("\\-\\-output\\-file"),
        "the subcommand's options: {verify}"
    );
    let o = run_in(tmp.path(), &["man", "no-such"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}

/// N1 §4: `relations --color always|never|auto` as `verify`'s: a refusal
/// (here a duplicate member name, FD012) is coloured only under `always`.
/// Near miss: `auto` under `NO_COLOR` and `never` print no escape code.
#[test]
fn relations_has_color() {
    let (tmp, pkg) = copy_package(&example_store());
    std::fs::write(pkg.join("definition.json"), "{\"a\":1,\"a\":2}").unwrap();
    for (color, escapes) in [("always", true), ("never", false), ("auto", false)] {
        let o = run_in(tmp.path(), &["relations", "pkg", "--color", color]);
        assert_eq!(o.status.code(), Some(1), "{color}");
        let err = text(&o.stderr);
        assert!(err.contains("FD012"), "{color}: {err}");
        assert_eq!(err.contains('\u{1b}'), escapes, "{color}: {err:?}");
    }
}

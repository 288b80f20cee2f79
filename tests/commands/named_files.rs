//! Issue 21 item 2: every file a command reads outside a package goes
//! through one reader (`form_package::fileread`) with one policy. A file the
//! user named is followed through their own link; a file the tool found is
//! never read through a link; only a regular file is read (a FIFO, a
//! device or a directory is refused without blocking); a read is bounded
//! by the caller's limit (a sparse file over it is refused from its size).
//!
//! One table: for each command and each file it names, a FIFO, `/dev/zero`,
//! a sparse file over every limit and a directory must each be refused
//! with the command's own exit status and code, and the run must return
//! (killed after [`HANG_LIMIT`]: a termination guard, not a speed
//! assertion); the near miss, a symlink to a good file, must be read.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{fixtures, BIN};

/// How long a run may take before it counts as blocked.
const HANG_LIMIT: Duration = Duration::from_secs(60);

/// A finished run: exit status and both streams as one text.
struct Ran {
    code: Option<i32>,
    text: String,
}

/// Runs the binary with `args` in `cwd` (standard input empty), killed and
/// failed when it has not returned after [`HANG_LIMIT`].
fn run_bounded(what: &str, cwd: &Path, args: &[OsString]) -> Ran {
    run_bounded_with(what, cwd, args, Stdio::null())
}

/// [`run_bounded`] with `stdin` as standard input.
fn run_bounded_with(what: &str, cwd: &Path, args: &[OsString], stdin: Stdio) -> Ran {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_WORKSPACE")
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            s
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > HANG_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: not finished after {HANG_LIMIT:?} (blocked or reading forever)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut text = String::from_utf8_lossy(&out.join().unwrap()).into_owned();
    text.push_str(&String::from_utf8_lossy(&err.join().unwrap()));
    Ran {
        code: status.code(),
        text,
    }
}

/// The hostile files a named FILE is replaced with, and the reason each
/// refusal gives.
#[derive(Clone, Copy, Debug)]
enum Hostile {
    Fifo,
    Device,
    Sparse,
    Directory,
}

impl Hostile {
    const ALL: [Hostile; 4] = [
        Hostile::Fifo,
        Hostile::Device,
        Hostile::Sparse,
        Hostile::Directory,
    ];

    /// Makes it at `at` (`/dev/zero` itself for the device).
    fn make(self, at: &Path) -> PathBuf {
        match self {
            Hostile::Fifo => {
                rustix::fs::mkfifoat(rustix::fs::CWD, at, rustix::fs::Mode::from_raw_mode(0o644))
                    .unwrap();
                at.to_path_buf()
            }
            Hostile::Device => PathBuf::from("/dev/zero"),
            Hostile::Sparse => {
                // Over every limit a named file has (the largest is the
                // trust subject's, the package total of 256 MiB).
                let f = std::fs::File::create(at).unwrap();
                f.set_len(form_package::limits::TOTAL_BYTES + 1).unwrap();
                at.to_path_buf()
            }
            Hostile::Directory => {
                std::fs::create_dir(at).unwrap();
                at.to_path_buf()
            }
        }
    }

    /// The reason the reader gives for it.
    fn reason(self) -> &'static str {
        match self {
            Hostile::Fifo => "not a regular file: a FIFO",
            Hostile::Device => "not a regular file: a character device",
            Hostile::Sparse => "bytes; maximum is",
            Hostile::Directory => "a directory",
        }
    }
}

/// One file a command names: the arguments with `F` for it, how a refusal
/// shows (`exit`, a text of the command's own report such as its code),
/// the good file its near miss links to and the exit status that gives.
struct Named {
    name: &'static str,
    args: Vec<&'static str>,
    exit: i32,
    shows: &'static str,
    /// Hostile kinds that are no refusal for this argument (a directory is
    /// a package for `relations` and `compat`).
    not: &'static [&'static str],
    good: PathBuf,
    good_exit: i32,
}

/// `trust COMMAND` over the trust fixtures (`B`, `R`, `P`) with `F` in
/// place of the file of `flag`, then `rest`.
fn trust(command: &'static str, flag: &'static str, rest: &[&'static str]) -> Vec<&'static str> {
    let mut args = vec!["trust", command];
    for (f, v) in [
        ("--bundle", "B"),
        ("--trusted-root", "R"),
        ("--policy", "P"),
    ] {
        args.push(f);
        args.push(if f == flag { "F" } else { v });
    }
    args.extend(rest);
    args
}

/// The table. `B`, `R`, `P`, `K` are the trust fixtures' bundle, trusted
/// root, policy and package; `D` a Form Definition; `E` an empty file.
fn table(dir: &Path) -> Vec<Named> {
    let t = fixtures().join("trust");
    let def =
        fixtures().join("packages/versionless/queue-consumer-0.2.0-03c2f61a47b7/definition.json");
    let empty = dir.join("empty.toml");
    std::fs::write(&empty, b"").unwrap();
    let obj = dir.join("object.json");
    std::fs::write(&obj, b"{}").unwrap();
    let named = |name, args: Vec<&'static str>, exit, shows, good: &Path, good_exit| Named {
        name,
        args,
        exit,
        shows,
        not: &[],
        good: good.to_path_buf(),
        good_exit,
    };
    vec![
        named(
            "canonicalize",
            vec!["canonicalize", "F"],
            2,
            "form-package: ",
            &obj,
            0,
        ),
        named("digest", vec!["digest", "F"], 2, "form-package: ", &obj, 0),
        named("check", vec!["check", "F"], 2, "FD905", &def, 0),
        named(
            "validate-revocation",
            vec!["validate-revocation", "F"],
            2,
            "form-package: read",
            &obj,
            1,
        ),
        named(
            "validate-revocation-checkpoint",
            vec!["validate-revocation-checkpoint", "F"],
            2,
            "form-package: read",
            &obj,
            1,
        ),
        named(
            "trust --bundle",
            trust("verify-bundle", "--bundle", &["--package", "K"]),
            2,
            "FD815",
            &t.join("object-bucket-0.1.0-52a0cd0b11d3.sigstore.json"),
            0,
        ),
        named(
            "trust --trusted-root",
            trust("verify-bundle", "--trusted-root", &["--package", "K"]),
            2,
            "FD815",
            &t.join("trusted-root.json"),
            0,
        ),
        named(
            "trust --policy",
            trust("verify-bundle", "--policy", &["--package", "K"]),
            2,
            "FD815",
            &t.join("publisher-policy.json"),
            0,
        ),
        named(
            "trust --subject",
            trust("verify-bundle", "", &["--subject", "F"]),
            2,
            "FD815",
            // Read, then refused as not the signed subject (FD806).
            &obj,
            1,
        ),
        named(
            "trust verify-checkpoint --checkpoint",
            trust("verify-checkpoint", "", &["--checkpoint", "F"]),
            2,
            "FD815",
            &obj,
            1,
        ),
        Named {
            not: &["Directory"],
            ..named(
                "compat",
                vec!["compat", "F", "D"],
                2,
                "cannot read",
                &def,
                0,
            )
        },
        Named {
            not: &["Directory"],
            ..named(
                "relations",
                vec!["relations", "F"],
                2,
                "form-package: relations:",
                &def,
                0,
            )
        },
        named(
            "relations --instance",
            vec!["relations", "D", "--instance", "F"],
            2,
            "--instance",
            &obj,
            0,
        ),
        named(
            "verify --config",
            vec!["verify", "--config", "F", "K"],
            2,
            "form-package: read",
            &empty,
            0,
        ),
    ]
}

/// The arguments of `n` with `F` = `file` and the fixtures filled in.
fn args_of(n: &Named, file: &Path) -> Vec<OsString> {
    let t = fixtures().join("trust");
    let def =
        fixtures().join("packages/versionless/queue-consumer-0.2.0-03c2f61a47b7/definition.json");
    n.args
        .iter()
        .map(|a| match *a {
            "F" => file.into(),
            "B" => t
                .join("object-bucket-0.1.0-52a0cd0b11d3.sigstore.json")
                .into(),
            "R" => t.join("trusted-root.json").into(),
            "P" => t.join("publisher-policy.json").into(),
            "K" => t.join("object-bucket-0.1.0-52a0cd0b11d3").into(),
            "D" => def.clone().into(),
            other => other.into(),
        })
        .collect()
}

#[test]
fn every_named_file_refuses_special_files_and_oversize_without_blocking() {
    let tmp = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for n in table(tmp.path()) {
        for (i, h) in Hostile::ALL.into_iter().enumerate() {
            if n.not.contains(&format!("{h:?}").as_str()) {
                continue;
            }
            let at = tmp
                .path()
                .join(format!("{}-{i}", n.name.replace([' ', '-'], "_")));
            let file = h.make(&at);
            let what = format!("{} on {h:?}", n.name);
            let ran = run_bounded(&what, tmp.path(), &args_of(&n, &file));
            assert_eq!(ran.code, Some(n.exit), "{what}: {}", ran.text);
            assert!(ran.text.contains(n.shows), "{what}: {}", ran.text);
            assert!(ran.text.contains(h.reason()), "{what}: {}", ran.text);
            checked += 1;
        }
    }
    assert_eq!(checked, 14 * 4 - 2);
}

#[test]
fn a_named_symlink_to_a_good_file_is_followed() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, n) in table(tmp.path()).into_iter().enumerate() {
        let link = tmp.path().join(format!("link-{i}"));
        std::os::unix::fs::symlink(&n.good, &link).unwrap();
        let ran = run_bounded(n.name, tmp.path(), &args_of(&n, &link));
        assert_eq!(ran.code, Some(n.good_exit), "{}: {}", n.name, ran.text);
        assert!(
            !ran.text.contains("not a regular file"),
            "{}: {}",
            n.name,
            ran.text
        );
        assert!(!ran.text.contains("FD815"), "{}: {}", n.name, ran.text);
    }
}

/// A file the tool finds is never read through a link: a discovered
/// `form-package.toml` that is a symlink is refused (exit 2), named with
/// `--config` the same link is followed. Near miss: the regular file.
#[test]
fn a_found_configuration_is_not_read_through_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join(".git")).unwrap();
    let pkg = fixtures().join("trust/object-bucket-0.1.0-52a0cd0b11d3");
    crate::common::copy_dir(&pkg, &tmp.path().join("pkg"));
    let real = tmp.path().join("real.toml");
    std::fs::write(&real, b"").unwrap();
    let config = tmp.path().join("form-package.toml");
    std::os::unix::fs::symlink(&real, &config).unwrap();
    let verify = |extra: &[&str]| {
        let mut args: Vec<OsString> = vec!["verify".into()];
        args.extend(extra.iter().map(OsString::from));
        args.push("pkg".into());
        run_bounded("verify", tmp.path(), &args)
    };
    let found = verify(&[]);
    assert_eq!(found.code, Some(2), "{}", found.text);
    assert!(
        found
            .text
            .contains("form-package.toml: not a regular file: a symbolic link"),
        "{}",
        found.text
    );
    let named = verify(&["--config", "form-package.toml"]);
    assert_eq!(named.code, Some(0), "{}", named.text);
    std::fs::remove_file(&config).unwrap();
    std::fs::rename(&real, &config).unwrap();
    let regular = verify(&[]);
    assert_eq!(regular.code, Some(0), "{}", regular.text);
    // A FIFO found there is refused without blocking.
    std::fs::remove_file(&config).unwrap();
    Hostile::Fifo.make(&config);
    let fifo = verify(&[]);
    assert_eq!(fifo.code, Some(2), "{}", fifo.text);
    assert!(fifo.text.contains(Hostile::Fifo.reason()), "{}", fifo.text);
}

/// A conformance suite's `manifest.json` is found in the DIR named, so it
/// is never read through a link; a FIFO there is refused without blocking.
/// Near miss: the same manifest as a regular file is read.
#[test]
fn a_conformance_manifest_is_found_not_named() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    std::fs::create_dir(&suite).unwrap();
    let real = tmp.path().join("manifest.json");
    std::fs::write(&real, br#"{"schemaVersion":1,"positive":[],"negative":[]}"#).unwrap();
    let manifest = suite.join("manifest.json");
    let run = || {
        run_bounded(
            "conformance",
            tmp.path(),
            &["conformance".into(), "suite".into()],
        )
    };
    std::os::unix::fs::symlink(&real, &manifest).unwrap();
    let linked = run();
    assert_eq!(linked.code, Some(2), "{}", linked.text);
    assert!(
        linked.text.contains("not a regular file: a symbolic link"),
        "{}",
        linked.text
    );
    std::fs::remove_file(&manifest).unwrap();
    Hostile::Fifo.make(&manifest);
    let fifo = run();
    assert_eq!(fifo.code, Some(2), "{}", fifo.text);
    assert!(fifo.text.contains(Hostile::Fifo.reason()), "{}", fifo.text);
    std::fs::remove_file(&manifest).unwrap();
    std::fs::rename(&real, &manifest).unwrap();
    let regular = run();
    assert!(
        !regular.text.contains("not a regular file"),
        "{}",
        regular.text
    );
    // Read and judged: this manifest lists no case (FD640).
    assert!(regular.text.contains("FD640"), "{}", regular.text);
}

/// Files the tool finds are never read through a link and never block:
/// a fixture beside a checked definition that is a symlink or a FIFO is
/// skipped as missing (said so on the report), a family's candidate set
/// that is a FIFO is a finding (FD005, as `verify` says of a FIFO in a
/// package). Near misses: the regular files.
#[test]
fn found_fixtures_and_candidate_sets_are_not_read_through_links_or_fifos() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = fixtures().join("packages/versionless/queue-consumer-0.2.0-03c2f61a47b7");
    let dir = tmp.path().join("doc");
    crate::common::copy_dir(&pkg, &dir);
    std::fs::remove_file(dir.join("package-index.json")).unwrap();
    let fixture = dir.join("fixtures/desired.json");
    let check = || {
        run_bounded(
            "check",
            tmp.path(),
            &["check".into(), "doc/definition.json".into()],
        )
    };
    let regular = check();
    assert_eq!(regular.code, Some(0), "{}", regular.text);
    assert!(
        regular.text.contains("17 fixture validations run"),
        "{}",
        regular.text
    );
    let real = tmp.path().join("desired.json");
    std::fs::rename(&fixture, &real).unwrap();
    std::os::unix::fs::symlink(&real, &fixture).unwrap();
    let linked = check();
    std::fs::remove_file(&fixture).unwrap();
    Hostile::Fifo.make(&fixture);
    let fifo = check();
    for ran in [linked, fifo] {
        assert_eq!(ran.code, Some(0), "{}", ran.text);
        assert!(
            ran.text.contains(
                "skipped fixture fixtures/desired.json: no regular file beside the definition"
            ),
            "{}",
            ran.text
        );
        assert!(
            ran.text.contains("16 fixture validations run"),
            "{}",
            ran.text
        );
    }

    let sets = tmp.path().join("family/sets");
    std::fs::create_dir_all(&sets).unwrap();
    let set = sets.join("candidate-set-a.json");
    Hostile::Fifo.make(&set);
    let family = || run_bounded("family", tmp.path(), &["family".into(), "family".into()]);
    let fifo = family();
    assert_eq!(fifo.code, Some(1), "{}", fifo.text);
    assert!(fifo.text.contains("FD005"), "{}", fifo.text);
    assert!(!fifo.text.contains("FD012"), "{}", fifo.text);
    assert!(fifo.text.contains(Hostile::Fifo.reason()), "{}", fifo.text);
    std::fs::remove_file(&set).unwrap();
    std::fs::write(&set, b"{}").unwrap();
    let read = family();
    assert!(!read.text.contains("FD005"), "{}", read.text);
    assert!(read.text.contains("1 candidate sets"), "{}", read.text);
}

/// Standard input (`-`) is read with a bound too: `/dev/zero` as standard
/// input is refused past the limit (exit 2), never read forever, in words
/// that name standard input (`standard input exceeds L bytes`, not
/// `file`). Near miss: a definition on standard input is checked.
#[test]
fn standard_input_is_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, limit) in [
        (["check", "-"], form_package::limits::PAYLOAD_BYTES),
        (["relations", "-"], form_package::limits::DEFINITION_BYTES),
    ] {
        let zero = std::fs::File::open("/dev/zero").unwrap();
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let ran = run_bounded_with(args[0].to_str().unwrap(), tmp.path(), &args, zero.into());
        assert_eq!(ran.code, Some(2), "{}", ran.text);
        let why = format!("read standard input: standard input exceeds {limit} bytes");
        assert!(ran.text.contains(&why), "{}", ran.text);
        // Standard input is no file: the refusal never calls it one.
        assert!(!ran.text.contains("file exceeds"), "{}", ran.text);
        let def = fixtures()
            .join("packages/versionless/queue-consumer-0.2.0-03c2f61a47b7/definition.json");
        let good = std::fs::File::open(def).unwrap();
        let ran = run_bounded_with(args[0].to_str().unwrap(), tmp.path(), &args, good.into());
        assert_eq!(ran.code, Some(0), "{}", ran.text);
    }
}

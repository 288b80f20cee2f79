//! One walk, one policy (issue 21, breaker F14 and the F11 addendum):
//! `family` finds its packages, contracts and candidate sets through
//! `verify`'s walk, with its rules (hidden directories, `.gitignore` inside
//! a git repository, `--exclude`; `--no-ignore`), and every report says
//! which directories a rule skipped: `verify`'s JSON (`skippedDirectories`),
//! SARIF (`invocations[0].properties.skippedDirectories` and a note),
//! JUnit (a `skippedDirectory` suite property) and GitHub (a notice), and
//! `family`'s human, JSON, DOT and Mermaid reports. Each way a rule skips, and the near miss that
//! walks it.

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// A way a rule of the walk skips a directory.
#[derive(Clone, Copy, Debug)]
enum Way {
    /// A hidden directory (`.hidden`).
    Hidden,
    /// A directory a `.gitignore` names inside a git repository.
    Gitignore,
    /// A directory `--exclude` names.
    Exclude,
}

impl Way {
    const ALL: [Way; 3] = [Way::Hidden, Way::Gitignore, Way::Exclude];

    /// The directory the rule skips.
    fn dir(self) -> &'static str {
        match self {
            Way::Hidden => ".hidden",
            Way::Gitignore => "ignored",
            Way::Exclude => "excluded",
        }
    }

    /// The rule's name as every report gives it.
    fn rule(self) -> &'static str {
        match self {
            Way::Hidden => "hidden",
            Way::Gitignore => ".gitignore",
            Way::Exclude => "exclude",
        }
    }

    /// The flags that make the rule apply.
    fn flags(self) -> Vec<&'static str> {
        match self {
            Way::Exclude => vec!["--exclude", "excluded"],
            _ => vec![],
        }
    }

    /// The flags that walk the directory after all: `--no-ignore` for
    /// hidden and `.gitignore`, no `--exclude` for an exclude.
    fn near_miss(self) -> Vec<&'static str> {
        match self {
            Way::Exclude => vec![],
            _ => vec!["--no-ignore"],
        }
    }
}

/// A tree holding a package that verifies (`good`) and, in the directory
/// the rule of `way` skips, a package that fails (`bad`, an empty index)
/// and an Interface Definition (`contract/definition.json`). For
/// `.gitignore`, the tree is a git repository (a `.git` file, as a
/// worktree has) whose `.gitignore` names the directory.
fn tree(way: Way) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("tree");
    common::copy_dir(
        &common::fixtures().join("packages/v1beta1/worker-version-0.1.0-54e6d25738e7"),
        &root.join("good"),
    );
    let skipped = root.join(way.dir());
    std::fs::create_dir_all(skipped.join("bad")).unwrap();
    std::fs::write(skipped.join("bad/package-index.json"), "{}").unwrap();
    std::fs::create_dir_all(skipped.join("contract")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "fixtures/families/v1beta1-001/contracts/interfaces/v1alpha1/edge.kv-231cfe2a7d8a/definition.json",
        ),
        skipped.join("contract/definition.json"),
    )
    .unwrap();
    if let Way::Gitignore = way {
        std::fs::write(root.join(".git"), "gitdir: /nonexistent\n").unwrap();
        std::fs::write(root.join(".gitignore"), "ignored/\n").unwrap();
    }
    (tmp, root)
}

/// `form-package ARGS... .` run in `root`.
fn run(root: &Path, args: &[&str]) -> std::process::Output {
    let mut all = args.to_vec();
    all.push(".");
    common::run_in(root, &all)
}

fn parse(o: &std::process::Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", common::stdout(o)))
}

/// The validator of one of our own output schemas (`schemas/NAME`).
fn validator(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schemas")
            .join(name),
    )
    .unwrap();
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

/// `verify --format FORMAT` over the tree of `way`: (the run with the
/// rule, that of the near miss), exit statuses checked (0: the failing
/// package is not walked; 1: it is).
fn verify_both(way: Way, format: &str) -> (std::process::Output, std::process::Output) {
    let (_tmp, root) = tree(way);
    let mut outs = Vec::new();
    for (extra, code) in [(way.flags(), 0), (way.near_miss(), 1)] {
        let mut args = vec!["verify", "--format", format];
        args.extend(extra);
        let out = run(&root, &args);
        common::assert_exit(&out, code);
        outs.push(out);
    }
    let near = outs.pop().unwrap();
    (outs.pop().unwrap(), near)
}

/// `[{"path": "./<dir>", "rule": "<rule>"}]`.
fn expected(way: Way) -> Value {
    json!([{"path": format!("./{}", way.dir()), "rule": way.rule()}])
}

/// `verify --format json`: the skipped directory is a top-level member,
/// the document satisfies its schema, the failing package under it is
/// not verified (exit 0); the near miss walks it (exit 1) and has no
/// member.
#[test]
fn verify_json_names_each_skipped_directory() {
    let schema = validator("form-package-report-v1.schema.json");
    for way in Way::ALL {
        let (out, near) = verify_both(way, "json");
        let doc = parse(&out);
        assert_eq!(doc["skippedDirectories"], expected(way), "{way:?}");
        assert_eq!(doc["summary"]["packages"], 1, "{way:?}");
        assert!(schema.is_valid(&doc), "{way:?}");
        // The stderr line is still there.
        assert!(String::from_utf8_lossy(&out.stderr).contains("1 directory skipped by a rule"));
        let doc = parse(&near);
        assert!(doc.get("skippedDirectories").is_none(), "{way:?}: {doc}");
        assert_eq!(doc["summary"]["packages"], 2, "{way:?}");
        assert_eq!(doc["summary"]["failed"], 1, "{way:?}");
        assert!(schema.is_valid(&doc), "{way:?}");
    }
}

/// `verify --format sarif`: `invocations[0].properties.skippedDirectories`
/// and a note among the invocation's notifications; neither in the near
/// miss.
#[test]
fn verify_sarif_names_each_skipped_directory() {
    for way in Way::ALL {
        let (out, near) = verify_both(way, "sarif");
        let log = parse(&out);
        let inv = &log["runs"][0]["invocations"][0];
        assert_eq!(
            inv["properties"]["skippedDirectories"],
            expected(way),
            "{way:?}"
        );
        assert_eq!(inv["executionSuccessful"], true);
        let notes = inv["toolExecutionNotifications"].as_array().unwrap();
        assert_eq!(notes.len(), 1, "{way:?}: {notes:?}");
        assert_eq!(notes[0]["level"], "note");
        let text = notes[0]["message"]["text"].as_str().unwrap();
        assert!(
            text.starts_with("1 directory skipped by a rule") && text.contains("not verified"),
            "{text}"
        );
        assert_eq!(log["runs"][0]["results"], json!([]), "{way:?}");
        let log = parse(&near);
        let inv = &log["runs"][0]["invocations"][0];
        assert!(inv.get("properties").is_none(), "{way:?}: {inv}");
        assert!(
            inv.get("toolExecutionNotifications").is_none(),
            "{way:?}: {inv}"
        );
    }
}

/// `verify --format junit`: one `skippedDirectory` property of the suite,
/// `<path> (<rule>)`; none in the near miss.
#[test]
fn verify_junit_names_each_skipped_directory() {
    for way in Way::ALL {
        let (out, near) = verify_both(way, "junit");
        let xml = common::stdout(&out);
        let property = format!(
            "<property name=\"skippedDirectory\" value=\"./{} ({})\"/>",
            way.dir(),
            way.rule()
        );
        assert_eq!(xml.matches(&property).count(), 1, "{way:?}: {xml}");
        assert!(xml.contains("tests=\"1\""), "{xml}");
        let xml = common::stdout(&near);
        assert!(!xml.contains("skippedDirectory"), "{way:?}: {xml}");
        assert!(xml.contains("tests=\"2\""), "{xml}");
    }
}

/// `verify --format github`: one notice names each skipped directory and
/// its rule; none in the near miss.
#[test]
fn verify_github_names_each_skipped_directory() {
    for way in Way::ALL {
        let (out, near) = verify_both(way, "github");
        let log = common::stdout(&out);
        let notice = format!(
            "::notice title=form-package skipped directories::1 directory skipped by a rule (hidden, .gitignore, exclude; --no-ignore searches them): not verified: ./{} ({})\n",
            way.dir(),
            way.rule()
        );
        assert!(log.starts_with(&notice), "{way:?}: {log}");
        assert!(!common::stdout(&near).contains("skipped"), "{way:?}");
    }
}

/// `family` walks as `verify` does (F14: it walked `.hidden/` and
/// reported its package FAIL): the package and the contract under the
/// skipped directory are not loaded, and each format says so; with the
/// near miss they are loaded and nothing is said.
#[test]
fn family_skips_as_verify_does_and_says_so_in_every_format() {
    let schema = validator("form-package-family-v1.schema.json");
    for way in Way::ALL {
        let (_tmp, root) = tree(way);
        let listed = format!("./{} ({})", way.dir(), way.rule());
        let with = |format: &str, extra: &[&str]| {
            let mut args = vec!["family", "--partial", "--format", format];
            args.extend(extra);
            run(&root, &args)
        };
        let flags = way.flags();
        let out = with("json", &flags);
        let doc = parse(&out);
        assert_eq!(doc["skippedDirectories"], expected(way), "{way:?}");
        assert_eq!(doc["summary"]["packages"], 1, "{way:?}");
        assert_eq!(doc["summary"]["failed"], 0, "{way:?}");
        assert_eq!(doc["summary"]["contracts"], 0, "{way:?}");
        assert!(schema.is_valid(&doc), "{way:?}");
        // The flags of the walk are recorded when given.
        let exclude = match way {
            Way::Exclude => json!(["excluded"]),
            _ => Value::Null,
        };
        assert_eq!(doc["options"]["exclude"], exclude, "{way:?}");
        assert!(doc["options"].get("noIgnore").is_none(), "{way:?}");
        let human = common::stdout(&with("human", &flags));
        assert!(
            human.ends_with(&format!(
                "1 directory skipped by a rule (hidden, .gitignore, exclude; --no-ignore searches them):\n  {listed}\n"
            )),
            "{way:?}: {human}"
        );
        assert!(human.contains("packages: 1 verified, 0 failed"), "{human}");
        let dot = common::stdout(&with("dot", &flags));
        assert!(
            dot.contains(&format!("  // skipped directory {listed}: not loaded\n")),
            "{dot}"
        );
        let mermaid = common::stdout(&with("mermaid", &flags));
        assert!(
            mermaid.contains(&format!("  %% skipped directory {listed}: not loaded\n")),
            "{mermaid}"
        );
        // The near miss: walked, its package fails and its contract loads.
        let near = way.near_miss();
        let doc = parse(&with("json", &near));
        assert!(doc.get("skippedDirectories").is_none(), "{way:?}");
        assert_eq!(doc["summary"]["packages"], 2, "{way:?}");
        assert_eq!(doc["summary"]["failed"], 1, "{way:?}");
        assert_eq!(doc["summary"]["contracts"], 1, "{way:?}");
        assert!(schema.is_valid(&doc), "{way:?}");
        let no_ignore = match way {
            Way::Exclude => Value::Null,
            _ => json!(true),
        };
        assert_eq!(doc["options"]["noIgnore"], no_ignore, "{way:?}");
        for format in ["human", "dot", "mermaid"] {
            let text = common::stdout(&with(format, &near));
            assert!(!text.contains("skipped"), "{way:?} {format}: {text}");
        }
    }
}

/// The library's `load` (the default rules) skips a hidden directory and
/// records it; `load_with` under `--no-ignore` walks it.
#[test]
fn family_load_records_what_it_skipped() {
    use form_package::family::load;
    let (_tmp, root) = tree(Way::Hidden);
    let fam = load::load(std::slice::from_ref(&root)).unwrap();
    assert_eq!(
        fam.skipped,
        [(
            root.join(".hidden"),
            form_package::discover::SkipRule::Hidden
        )]
    );
    assert_eq!(fam.packages.len(), 1);
    assert!(fam.contracts.is_empty());
    let rules = form_package::discover::WalkRules {
        no_ignore: true,
        ..Default::default()
    };
    let fam = load::load_with(std::slice::from_ref(&root), &rules).unwrap();
    assert!(fam.skipped.is_empty());
    assert_eq!(fam.packages.len(), 2);
    assert_eq!(fam.contracts.len(), 1);
}

/// A tree whose only package is hidden is no family (exit 2), and the
/// reason names the directory skipped; `--no-ignore` checks it; an
/// `--exclude` glob that does not parse is refused (exit 2) as `verify`
/// refuses it.
#[test]
fn family_refusals_name_the_skipped_directories_and_bad_globs() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("tree");
    std::fs::create_dir_all(root.join(".bad")).unwrap();
    std::fs::write(root.join(".bad/package-index.json"), "{}").unwrap();
    let out = run(&root, &["family"]);
    common::assert_exit(&out, 2);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "form-package: no Form Package, contract or candidate set under . outside the directory skipped by a rule: ./.bad (hidden) (--no-ignore searches hidden and .gitignore'd ones)\n"
    );
    let out = run(&root, &["family", "--no-ignore"]);
    common::assert_exit(&out, 1);
    assert!(common::stdout(&out).contains("packages: 0 verified, 1 failed"));
    let out = run(&root, &["family", "--exclude", "["]);
    common::assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("form-package: --exclude: \"[\" is not a valid glob"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

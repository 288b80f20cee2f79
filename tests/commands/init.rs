//! `init` and `schema definition|index` end to end (issue 26 item 1):
//! `init` for every index profile writes a package `verify` accepts, and
//! never writes over an existing package.

use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(crate::common::BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// `init DIR --group GROUP --kind EdgeCache EXTRA…`.
fn init_edge_cache(dir: &str, group: &str, extra: &[&str]) -> Output {
    let mut args = vec!["init", dir, "--group", group, "--kind", "EdgeCache"];
    args.extend_from_slice(extra);
    run(&args)
}

/// The group each profile carries.
const PROFILES: [(&str, &str); 5] = [
    ("v1alpha1", "forms.takoform.com/v1alpha1"),
    ("v1alpha2", "forms.takoform.com/v1alpha1"),
    ("v1alpha3", "forms.takoform.com/v1alpha2"),
    ("v1alpha4", "edge.example.com/v1beta1"),
    ("v1alpha5", "edge.example.com"),
];

/// `init` of the authoring page's example, `edge-cache` (`EdgeCache` in
/// `edge.example.com`).
pub(crate) const INIT_EDGE_CACHE: [&str; 6] = [
    "init",
    "edge-cache",
    "--group",
    "edge.example.com",
    "--kind",
    "EdgeCache",
];

#[test]
fn init_writes_a_package_that_verifies_under_every_profile() {
    let tmp = tempfile::tempdir().unwrap();
    for (profile, group) in PROFILES {
        let dir = tmp.path().join(profile);
        let d = dir.to_str().unwrap();
        let o = run(&[
            "init",
            d,
            "--group",
            group,
            "--kind",
            "EdgeCache",
            "--profile",
            profile,
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{profile}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.starts_with(&format!(
                "profile packages.forms.takoform.com/{profile} (asked for with --profile)\n"
            )),
            "{out}"
        );
        let v = run(&["verify", "--format", "json", d]);
        assert_eq!(
            v.status.code(),
            Some(0),
            "{profile}: {}",
            String::from_utf8_lossy(&v.stdout)
        );
        let report: Value = serde_json::from_slice(&v.stdout).unwrap();
        let pkg = &report["packages"][0];
        assert_eq!(pkg["verdict"], "ok");
        // One positive and one negative fixture ran.
        assert_eq!(pkg["fileCount"], 3, "{pkg}");
        assert_eq!(pkg["fixturesRun"], 2, "{pkg}");
        let index: Value =
            serde_json::from_slice(&std::fs::read(dir.join("package-index.json")).unwrap())
                .unwrap();
        assert_eq!(
            index["apiVersion"],
            format!("packages.forms.takoform.com/{profile}")
        );
        assert_eq!(index["formRef"]["apiVersion"], group);
        // `index --check` agrees: init wrote what index writes.
        assert_eq!(run(&["index", "--check", d]).status.code(), Some(0));
        // The negative fixture is refused by the schema, not by accident.
        let neg: Value = serde_json::from_slice(
            &std::fs::read(dir.join("fixtures/negative-empty-name.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(neg["name"], "");
    }
    // Without --profile, the group's profile is inferred and said.
    let dir = tmp.path().join("inferred");
    let o = init_edge_cache(dir.to_str().unwrap(), "edge.example.com", &[]);
    assert!(String::from_utf8_lossy(&o.stdout).starts_with(
        "profile packages.forms.takoform.com/v1alpha5 (the definition's apiVersion \"edge.example.com\" is a versionless group (the current profile))"
    ));
}

#[test]
fn init_never_writes_over_a_package() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().to_str().unwrap();
    std::fs::write(tmp.path().join("notes.txt"), "mine").unwrap();
    let o = init_edge_cache(d, "edge.example.com", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not empty"));
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    // A group the profile does not take: refused, nothing created, the
    // profile it fits named.
    let dir = tmp.path().join("pkg");
    let o = init_edge_cache(
        dir.to_str().unwrap(),
        "edge.example.com/v1",
        &["--profile", "v1alpha5"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("\"edge.example.com/v1\" fits packages.forms.takoform.com/v1alpha4"));
    assert!(!dir.exists());
}

/// `init DIR` inside an existing package (a directory above DIR holds a
/// `package-index.json`) is refused, exit 2, naming the package, and
/// writes nothing (the outer package would then fail `verify` with FD018);
/// the near miss: a sibling directory beside the package is written and
/// the package still verifies.
#[test]
fn init_never_writes_inside_a_package() {
    let tmp = tempfile::tempdir().unwrap();
    let outer = tmp.path().join("outer");
    let o = init_edge_cache(outer.to_str().unwrap(), "edge.example.com", &[]);
    assert_eq!(o.status.code(), Some(0));
    let files = |d: &std::path::Path| {
        walkdir::WalkDir::new(d)
            .into_iter()
            .filter_map(Result::ok)
            .count()
    };
    let before = files(&outer);
    for inner in [outer.join("sub"), outer.join("fixtures/deeper/still")] {
        let o = init_edge_cache(inner.to_str().unwrap(), "edge.example.com", &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!(
                "is inside the package {}",
                std::fs::canonicalize(&outer).unwrap().display()
            )),
            "{err}"
        );
        assert!(!inner.exists());
    }
    assert_eq!(files(&outer), before);
    let sibling = tmp.path().join("sibling");
    let o = init_edge_cache(sibling.to_str().unwrap(), "edge.example.com", &[]);
    assert_eq!(o.status.code(), Some(0), "{:?}", o);
    for d in [&outer, &sibling] {
        let o = run(&["verify", d.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
}

/// `--profile` takes the same spellings in `init`, `index` and `schema`
/// (one parser): the version token `v1alpha5` and the index apiVersion
/// give the same index; an unknown one is refused by each, exit 2, with
/// the same list.
#[test]
fn every_profile_option_takes_the_short_form() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pkg");
    let d = dir.to_str().unwrap();
    let o = init_edge_cache(d, "edge.example.com", &["--profile", "v1alpha5"]);
    assert_eq!(o.status.code(), Some(0));
    let index = std::fs::read(dir.join("package-index.json")).unwrap();
    for p in ["v1alpha5", "packages.forms.takoform.com/v1alpha5"] {
        let o = run(&["index", d, "--profile", p]);
        assert_eq!(o.status.code(), Some(0), "{p}: {o:?}");
        assert_eq!(
            std::fs::read(dir.join("package-index.json")).unwrap(),
            index
        );
        let o = run(&["schema", "index", "--profile", p]);
        assert_eq!(o.status.code(), Some(0), "{p}: {o:?}");
    }
    let new = tmp.path().join("new");
    for command in [
        vec!["index", d, "--profile", "v9"],
        vec!["schema", "index", "--profile", "v9"],
        vec![
            "init",
            new.to_str().unwrap(),
            "--group",
            "edge.example.com",
            "--kind",
            "A",
            "--profile",
            "v9",
        ],
    ] {
        let o = run(&command);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{command:?}: {err}");
        assert!(
            err.contains(&format!(
                "{}: unknown --profile \"v9\" (packages.forms.takoform.com/v1alpha1,",
                command[0]
            )),
            "{err}"
        );
    }
}

#[test]
fn schema_prints_the_published_definition_and_index_schemas() {
    for (profile, definition) in [
        (
            "v1alpha1",
            "https://forms.takoform.com/schemas/v1alpha1/form-definition.schema.json",
        ),
        (
            "v1alpha3",
            "https://forms.takoform.com/schemas/v1alpha2/form-definition.schema.json",
        ),
        (
            "v1alpha4",
            "https://forms.takoform.com/schemas/v1beta1/form-definition.schema.json",
        ),
        (
            "packages.forms.takoform.com/v1alpha5",
            "https://forms.takoform.com/schemas/v1/form-definition.schema.json",
        ),
    ] {
        let o = run(&["schema", "definition", "--profile", profile]);
        assert_eq!(o.status.code(), Some(0), "{profile}");
        let s: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(s["$id"], definition, "{profile}");
    }
    let o = run(&["schema", "index"]);
    let s: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        s["$id"],
        "https://forms.takoform.com/schemas/v1alpha5/package-index.schema.json"
    );
    // Near misses: an unknown profile, and --profile on an output schema.
    assert_eq!(
        run(&["schema", "index", "--profile", "v9"]).status.code(),
        Some(2)
    );
    assert_eq!(
        run(&["schema", "report", "--profile", "v1alpha5"])
            .status
            .code(),
        Some(2)
    );
    let report: Value = serde_json::from_slice(&run(&["schema", "report"]).stdout).unwrap();
    assert!(report["$id"].as_str().unwrap().contains("report"));
}

/// The authoring page shows real output: `init` and `verify` of the page's
/// own command print what the page says, and the definition is the one
/// `init` writes.
#[test]
fn the_authoring_page_shows_what_init_prints() {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/authoring.md"),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new(crate::common::BIN)
        .args(INIT_EDGE_CACHE)
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let init = String::from_utf8(o.stdout).unwrap();
    assert!(
        page.contains(&format!(
            "$ form-package init edge-cache --group edge.example.com --kind EdgeCache\n{init}"
        )),
        "docs/src/authoring.md is stale:\n{init}"
    );
    let v = Command::new(crate::common::BIN)
        .args(["verify", "edge-cache"])
        .env("NO_COLOR", "1")
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let verify = String::from_utf8(v.stdout).unwrap();
    assert!(
        page.contains(&verify),
        "docs/src/authoring.md is stale:\n{verify}"
    );
    let definition =
        std::fs::read_to_string(tmp.path().join("edge-cache/definition.json")).unwrap();
    assert!(
        page.contains(&format!("```json\n{definition}```")),
        "docs/src/authoring.md shows another definition:\n{definition}"
    );
}

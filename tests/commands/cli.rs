//! The binary end to end: exit codes, formats, canonicalize/digest, and the
//! exact positions of findings. Runs on the packages shipped in `fixtures/`
//! (no corpus needed).

use crate::common;
use common::{copy_package, fixtures, reindex};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn bin() -> Command {
    Command::new(crate::common::BIN)
}

fn example_store() -> PathBuf {
    fixtures().join("packages/v1alpha1/example-store-1.0.0-f486d5e31632")
}

fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_WORKSPACE")
        .output()
        .unwrap()
}

/// `index DIR` refuses with `code` (exit 1, the code on stderr) and leaves
/// `package-index.json` byte for byte as it was.
fn assert_index_refuses(dir: &Path, code: &str) {
    let before = std::fs::read(dir.join("package-index.json")).unwrap();
    let o = run(&["index", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(code), "{err}");
    assert_eq!(
        std::fs::read(dir.join("package-index.json")).unwrap(),
        before,
        "index rewrote package-index.json while refusing with {code}"
    );
}

/// `dir`'s `definition.json` as a JSON value.
fn definition_of(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("definition.json")).unwrap()).unwrap()
}

/// Rewrites `dir`'s definition after `edit`, pretty-printed or compact (the
/// lines and columns of its findings follow), and returns the text written;
/// the caller reindexes.
fn rewrite_definition(dir: &Path, pretty: bool, edit: impl FnOnce(&mut Value)) -> String {
    let mut def = definition_of(dir);
    edit(&mut def);
    let text = if pretty {
        serde_json::to_string_pretty(&def)
    } else {
        serde_json::to_string(&def)
    }
    .unwrap();
    std::fs::write(dir.join("definition.json"), &text).unwrap();
    text
}

/// Asserts that a run's standard output contains `needle` (shown whole
/// otherwise).
fn assert_stdout_has(o: &Output, needle: &str) {
    assert!(stdout(o).contains(needle), "{}", stdout(o));
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json_of(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn every_shipped_package_verifies_with_its_digest() {
    let o = run(&[
        "verify",
        "--format",
        "json",
        fixtures().join("packages").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let v = json_of(&o);
    assert_eq!(v["version"], 1);
    let packages = v["packages"].as_array().unwrap();
    assert_eq!(packages.len(), 8);
    for p in packages {
        assert_eq!(p["verdict"], "ok", "{p}");
        // directory names end in the first 12 hex of the packageDigest
        let path = p["path"].as_str().unwrap();
        let hex12 = &path[path.len() - 12..];
        assert_eq!(
            &p["packageDigest"].as_str().unwrap()[7..19],
            hex12,
            "{path}"
        );
        assert!(p["fileCount"].as_u64().unwrap() >= 2);
    }
    assert_eq!(v["summary"]["failed"], 0);
}

#[test]
fn report_members_match_the_reference_example() {
    let dir = fixtures().join("packages/versionless/actor-namespace-0.2.0-6cb09560435e");
    let o = run(&["verify", "--format", "json", dir.to_str().unwrap()]);
    let p = &json_of(&o)["packages"][0];
    assert_eq!(p["fileCount"], 7);
    assert_eq!(p["payloadBytes"], 5160);
    assert!(p["packageDigest"]
        .as_str()
        .unwrap()
        .starts_with("sha256:6cb09560435e4ba3"));
    assert_eq!(p["formRef"]["apiVersion"], "edge.forms.takoform.com");
}

#[test]
fn duplicate_name_is_refused_at_the_second_name_and_never_digested() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("dup.json");
    std::fs::write(&f, r#"{"qty":1,"qty":-1}"#).unwrap();
    for cmd in ["canonicalize", "digest"] {
        let o = run(&[cmd, f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty(), "nothing is digested");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("duplicate object name \"qty\""), "{err}");
        assert!(err.contains("dup.json:1:10"), "{err}");
    }
}

#[test]
fn canonicalize_answers_like_the_reference() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            r#"{"\ufb33":1,"\ud83d\ude00":2}"#,
            Some("{\"\u{1F600}\":2,\"\u{FB33}\":1}"),
        ),
        ("[1e-6,2.9514790517935283e20,-0.0,1e21]", None),
        (
            "[1e-6,2.9514790517935283e20,1e21,9.999999999999997e22]",
            Some("[0.000001,295147905179352830000,1e+21,9.999999999999997e+22]"),
        ),
        ("[1424953923781206.25]", Some("[1424953923781206.2]")),
        ("5", None),
    ];
    for (i, (input, want)) in cases.iter().enumerate() {
        let f = tmp.path().join(format!("c{i}.json"));
        std::fs::write(&f, input).unwrap();
        let o = run(&["canonicalize", f.to_str().unwrap()]);
        match want {
            Some(w) => {
                assert_eq!(o.status.code(), Some(0), "{input}");
                assert_eq!(stdout(&o), format!("{w}\n"));
            }
            None => {
                assert_eq!(o.status.code(), Some(1), "{input}");
                assert!(o.stdout.is_empty());
            }
        }
    }
    let f = tmp.path().join("c0.json");
    let o = run(&["canonicalize", f.to_str().unwrap()]);
    let hex: String = o.stdout[..o.stdout.len() - 1]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(hex, "7b22f09f9880223a322c22efacb3223a317d");
    let o = run(&["digest", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let d = stdout(&o);
    assert!(d.starts_with("sha256:") && d.len() == 72, "{d}");
}

#[test]
fn a_trailing_comma_in_a_package_file_is_found_at_the_comma() {
    let (_tmp, dir) = copy_package(&example_store());
    std::fs::write(dir.join("fixtures/desired.json"), "{\"a\":1,}").unwrap();
    reindex(&dir);
    let o = run(&["verify", "--format", "json", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let v = json_of(&o);
    let d = v["packages"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["file"] == "fixtures/desired.json")
        .unwrap()
        .clone();
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(1), Some(7)),
        "{d}"
    );
    assert_eq!(d["code"], "FD020");
    assert_eq!(d["specCode"], "PAYLOAD_IJSON");
}

#[test]
fn an_unexpected_definition_member_is_shown_at_its_line_and_column() {
    let (_tmp, dir) = copy_package(&example_store());
    let def = definition_of(&dir);
    let body = serde_json::to_string(&def).unwrap();
    let inner = &body[1..body.len() - 1];
    std::fs::write(
        dir.join("definition.json"),
        format!("{{\n  {inner},\n  \"extra\": true\n}}\n"),
    )
    .unwrap();
    reindex(&dir);
    let o = run(&["verify", "--format", "json", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    let diags = v["packages"][0]["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["pointer"], "/extra");
    assert_eq!(d["file"], "definition.json");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(d["code"], "FD121");
    let human = run(&["verify", "--color", "never", dir.to_str().unwrap()]);
    assert_stdout_has(&human, "definition.json:3:3");
}

#[test]
fn exit_codes() {
    assert_eq!(
        run(&["verify", "--no-such-flag", "x"]).status.code(),
        Some(2)
    );
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        run(&["verify", "/definitely/not/here"]).status.code(),
        Some(2)
    );
    assert_eq!(
        run(&["digest", "/definitely/not/here.json"]).status.code(),
        Some(2)
    );
    let empty = tempfile::tempdir().unwrap();
    let o = run(&["verify", "--format", "json", empty.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        json_of(&o)["packages"][0]["diagnostics"][0]["code"],
        "FD009"
    );
    let link = empty.path().join("link");
    std::os::unix::fs::symlink(example_store(), &link).unwrap();
    let o = run(&["verify", "--format", "json", link.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        json_of(&o)["packages"][0]["diagnostics"][0]["code"],
        "FD001"
    );
    assert_eq!(
        run(&["verify", example_store().to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn many_findings_in_one_run() {
    let (_tmp, dir) = copy_package(&example_store());
    std::fs::write(dir.join("extra.txt"), "x").unwrap();
    std::fs::write(dir.join("run.sh"), "x").unwrap();
    std::fs::write(dir.join("fixtures/desired.json"), "{\"name\":\"changed\"}").unwrap();
    let o = run(&["verify", "--format", "json", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    let codes = crate::common::codes(&v);
    for want in ["FD007", "FD015", "FD016", "FD018"] {
        assert!(codes.contains(&want), "{want} missing from {codes:?}");
    }
}

#[test]
fn index_writes_checks_and_refuses() {
    let (_tmp, dir) = copy_package(&example_store());
    let d = dir.to_str().unwrap();
    let before = std::fs::read(dir.join("package-index.json")).unwrap();
    let o = run(&["index", "--check", d]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("up to date"));
    assert_eq!(
        std::fs::read(dir.join("package-index.json")).unwrap(),
        before,
        "--check writes nothing"
    );
    // drift: a fixture changes
    std::fs::write(dir.join("fixtures/desired.json"), "{\"name\":\"other\"}").unwrap();
    assert_eq!(run(&["index", "--check", d]).status.code(), Some(1));
    assert_eq!(run(&["verify", d]).status.code(), Some(1));
    let o = run(&["index", d]);
    common::assert_exit(&o, 0);
    assert_eq!(
        run(&["verify", d]).status.code(),
        Some(0),
        "re-indexed package verifies"
    );
    assert_eq!(run(&["index", "--check", d]).status.code(), Some(0));
    assert!(
        !dir.join(".package-index.json.tmp").exists(),
        "no temporary file left behind"
    );
    // refusal: a symlink in the package; nothing is written
    std::os::unix::fs::symlink("definition.json", dir.join("alias.json")).unwrap();
    assert_index_refuses(&dir, "FD004");
    assert_eq!(
        run(&["index", "/definitely/not/here"]).status.code(),
        Some(2)
    );
}

#[test]
fn index_creates_a_new_index_with_the_requested_profile() {
    let (_tmp, dir) =
        copy_package(&fixtures().join("packages/versionless/actor-namespace-0.2.0-6cb09560435e"));
    let published = std::fs::read(dir.join("package-index.json")).unwrap();
    std::fs::remove_file(dir.join("package-index.json")).unwrap();
    let d = dir.to_str().unwrap();
    let o = run(&[
        "index",
        "--profile",
        "packages.forms.takoform.com/v1alpha5",
        d,
    ]);
    common::assert_exit(&o, 0);
    let canon = |b: &[u8]| {
        let v = form_package::json::strict::parse(b).unwrap().value;
        form_package::canonical::canonicalize(&v).unwrap()
    };
    assert_eq!(
        canon(&std::fs::read(dir.join("package-index.json")).unwrap()),
        canon(&published),
        "byte-identical canonical index"
    );
    assert_eq!(run(&["verify", d]).status.code(), Some(0));
}

/// Issue 21 (F15 follow-up): one parser reads `--profile P` of `init`,
/// `index` and `schema`, and one text describes it in their help: both
/// forms (an index `apiVersion` or its version token), every profile of
/// the table. `index` takes the short form as it says (the index it writes
/// is the one the long form writes); an unknown token is refused, exit 2,
/// naming every profile.
#[test]
fn profile_help_is_one_text_for_init_index_and_schema() {
    let versions = form_package::profile::api_versions();
    assert_eq!(versions.len(), 5);
    let tokens: Vec<String> = versions
        .iter()
        .map(|v| format!("`{}`", v.rsplit('/').next().unwrap()))
        .collect();
    let said = format!(
        "Index profile: an index `apiVersion` (`packages.forms.takoform.com/v1alpha5`) or its version token ({}). ",
        tokens.join(", ")
    );
    for command in ["init", "index", "schema"] {
        let help = stdout(&run(&[command, "--help"]));
        let line = help
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("--profile <P>"))
            .find(|l| l.contains("Index profile"))
            .unwrap_or_else(|| panic!("{command}: {help}"));
        assert!(line.trim_start().contains(&said), "{command}: {line}");
    }
    let (_tmp, dir) =
        copy_package(&fixtures().join("packages/versionless/actor-namespace-0.2.0-6cb09560435e"));
    let published = std::fs::read(dir.join("package-index.json")).unwrap();
    std::fs::remove_file(dir.join("package-index.json")).unwrap();
    let d = dir.to_str().unwrap();
    let o = run(&["index", "--profile", "v9alpha9", d]);
    common::assert_exit(&o, 2);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&versions.join(", ")),
        "{o:?}"
    );
    assert!(!dir.join("package-index.json").exists());
    common::assert_exit(&run(&["index", "--profile", "v1alpha5", d]), 0);
    let written: Value =
        serde_json::from_slice(&std::fs::read(dir.join("package-index.json")).unwrap()).unwrap();
    assert_eq!(
        written,
        serde_json::from_slice::<Value>(&published).unwrap()
    );
}

/// The human renderer with its fixed no-colour theme, pinned byte for byte
/// (`tests/snapshots/open-object-schema.txt`; regenerate with `BLESS=1`).
#[test]
fn human_output_is_pinned() {
    let (_tmp, dir) = copy_package(&example_store());
    rewrite_definition(&dir, true, |def| {
        def["desiredSchema"]["properties"]["spec"] = serde_json::json!({"type": "object"});
    });
    reindex(&dir);
    let o = bin()
        .args(["verify", "--color", "never", "."])
        .current_dir(&dir)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let snapshot =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/open-object-schema.txt");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&snapshot, &o.stdout).unwrap();
    }
    let want = std::fs::read_to_string(&snapshot).unwrap();
    assert_eq!(stdout(&o), want);
    // The header and the help line give the same position, and the help
    // line names the marked token.
    assert!(want.contains("╭─[./definition.json:19:15]"));
    assert!(
        want.contains("./definition.json:19:15: the value {… at /desiredSchema/properties/spec")
    );
    // The summary line counts packages, errors, warnings and notes.
    assert!(want.ends_with(
        "form-package: 1 package (0 verified, 1 failed), 1 error, 0 warnings, 0 notes\n"
    ));
}

/// Issue #3, done-when 5: an open desired schema is reported open at both
/// objects, each with the span of that object in `definition.json`.
#[test]
fn open_objects_are_reported_with_their_spans() {
    let (_tmp, dir) = copy_package(&example_store());
    let text = rewrite_definition(&dir, true, |def| {
        def["desiredSchema"] = serde_json::json!({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"spec":{"type":"object"}}});
        def.as_object_mut().unwrap().remove("conformanceFixtures");
    });
    std::fs::remove_dir_all(dir.join("fixtures")).unwrap();
    reindex(&dir);
    let o = run(&["verify", "--format", "json", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    let diags = v["packages"][0]["diagnostics"].as_array().unwrap();
    let parsed = form_package::json::strict::parse(text.as_bytes()).unwrap();
    for ptr in ["/desiredSchema", "/desiredSchema/properties/spec"] {
        let d = diags
            .iter()
            .find(|d| d["pointer"] == ptr && d["severity"] == "error")
            .unwrap_or_else(|| panic!("no error at {ptr}: {diags:?}"));
        assert_eq!(d["code"], "FD213", "{d}");
        assert_eq!(d["file"], "definition.json");
        let want = parsed
            .spans
            .value_span(&form_package::json::pointer::JsonPointer::from(ptr))
            .unwrap();
        assert_eq!(
            (d["span"]["start"].as_u64(), d["span"]["end"].as_u64()),
            (Some(want.start as u64), Some(want.end as u64))
        );
        assert_eq!(&text[want.start..want.start + 1], "{");
        assert_eq!(&text[want.end - 1..want.end], "}");
    }
}

#[test]
fn index_infers_the_profile_and_refuses_what_verify_would() {
    let (_tmp, dir) = copy_package(&example_store());
    let d = dir.to_str().unwrap();
    std::fs::remove_file(dir.join("package-index.json")).unwrap();
    assert_eq!(
        run(&["index", "--profile", "bogus/v9", d]).status.code(),
        Some(2)
    );
    assert!(!dir.join("package-index.json").exists());
    let o = run(&["index", d]);
    common::assert_exit(&o, 0);
    let index: Value =
        serde_json::from_slice(&std::fs::read(dir.join("package-index.json")).unwrap()).unwrap();
    assert_eq!(
        index["apiVersion"], "packages.forms.takoform.com/v1alpha2",
        "a Legacy definition gets the content-addressed Legacy profile"
    );
    assert_eq!(run(&["verify", d]).status.code(), Some(0));
    // a file no media type fits is refused, nothing written
    std::fs::write(dir.join("blob.bin2"), "y").unwrap();
    assert_index_refuses(&dir, "FD115");
    // content verify refuses is refused too: a JSON payload that is not I-JSON
    std::fs::remove_file(dir.join("blob.bin2")).unwrap();
    // (FD020 invalid-json-payload, the code verify gives the same bytes:
    // issue 36 item 7)
    std::fs::write(dir.join("fixtures/desired.json"), "{\"a\":1,}").unwrap();
    assert_index_refuses(&dir, "FD020");
    std::fs::write(dir.join("blob.bin2"), "y").unwrap();
    std::fs::write(dir.join("fixtures/desired.json"), "{\"name\":\"example\"}").unwrap();
    // --check names what would change
    std::fs::remove_file(dir.join("blob.bin2")).unwrap();
    std::fs::write(dir.join("notes.txt"), "hello").unwrap();
    let o = run(&["index", "--check", d]);
    assert_eq!(o.status.code(), Some(1));
    assert_stdout_has(&o, "  added notes.txt");
}

#[test]
fn overlapping_paths_verify_each_package_once() {
    let tree = fixtures().join("packages");
    let one = tree.join("v1beta1");
    let o = run(&[
        "verify",
        "--format",
        "json",
        tree.to_str().unwrap(),
        one.to_str().unwrap(),
    ]);
    assert_eq!(json_of(&o)["summary"]["packages"], 8);
}

#[test]
fn deny_warnings_fails_in_every_format() {
    let (_tmp, dir) =
        copy_package(&fixtures().join("packages/versionless/queue-consumer-0.2.0-03c2f61a47b7"));
    rewrite_definition(&dir, true, |def| {
        def["desiredSchema"]["properties"]["queue"]
            .as_object_mut()
            .unwrap()
            .remove("x-takoform-required-interface");
    });
    reindex(&dir);
    let d = dir.to_str().unwrap();
    let plain = run(&["verify", d]);
    assert_eq!(
        plain.status.code(),
        Some(0),
        "a warning alone does not fail"
    );
    assert_stdout_has(&plain, "ok ");
    let denied = run(&["verify", "--deny-warnings", d]);
    assert_eq!(denied.status.code(), Some(1));
    assert_stdout_has(&denied, "FAIL ");
    let gh = run(&["verify", "--deny-warnings", "--format", "github", d]);
    assert_stdout_has(&gh, "0 verified, 1 failed");
}

#[test]
fn relations_refuses_an_instance_that_is_not_an_object() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("i.json");
    std::fs::write(&f, "[1,2]").unwrap();
    let pkg = fixtures().join("packages/v1beta1/worker-version-0.1.0-54e6d25738e7");
    let o = run(&[
        "relations",
        pkg.to_str().unwrap(),
        "--instance",
        f.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    // Near miss: relations shares verify's formats (front end), so SARIF runs.
    let sarif = run(&["relations", pkg.to_str().unwrap(), "--format", "sarif"]);
    assert_eq!(sarif.status.code(), Some(0));
    let log: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
}

/// One cause, one finding: a forbidden property name (found by the
/// definition scan, not again by the proof), an index that is a FIFO (no
/// "missing index" besides), an oversized payload (not read again).
#[test]
fn one_cause_gives_one_finding() {
    let codes = |dir: &Path| -> Vec<String> {
        let o = run(&["verify", "--format", "json", dir.to_str().unwrap()]);
        json_of(&o)["packages"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == "error")
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_t1, a) = copy_package(&example_store());
    rewrite_definition(&a, false, |def| {
        def["desiredSchema"]["properties"]["password"] = serde_json::json!({"type": "string"});
    });
    reindex(&a);
    assert_eq!(codes(&a), ["FD300"]);

    let (_t2, b) = copy_package(&example_store());
    std::fs::remove_file(b.join("package-index.json")).unwrap();
    common::mkfifo(&b.join("package-index.json"));
    assert_eq!(codes(&b), ["FD005"]);

    let (_t3, c) = copy_package(&example_store());
    let mut index: Value =
        serde_json::from_slice(&std::fs::read(c.join("package-index.json")).unwrap()).unwrap();
    index["files"][1]["size"] = serde_json::json!(16 * 1024 * 1024 + 1);
    std::fs::write(
        c.join("package-index.json"),
        serde_json::to_string(&index).unwrap(),
    )
    .unwrap();
    assert_eq!(codes(&c), ["FD112"]);
}

/// Issue 14 item 9: one location shape everywhere. `index`, `relations`,
/// `canonicalize`, `digest` and `verify` each print `<package>/<file>:line:
/// column` for a finding in a file, and the help line names the marked
/// token (`index` used to print "offset N" with nothing marked).
#[test]
fn every_command_prints_package_file_line_column_and_the_marked_token() {
    let (_tmp, dir) = copy_package(&example_store());
    // `tru` on line 3, column 12 (after two spaces, `"name": `).
    let broken = "{\n  \"a\": 1,\n  \"name\": tru\n}\n";
    std::fs::write(dir.join("fixtures/desired.json"), broken).unwrap();
    let d = dir.to_str().unwrap();
    let want = format!("{d}/fixtures/desired.json:3:11: the token tru");
    let idx = run(&["index", d]);
    assert_eq!(idx.status.code(), Some(1));
    let err = String::from_utf8_lossy(&idx.stderr);
    assert!(err.contains(&want), "index: {err}");
    assert!(
        err.contains(&format!("╭─[{d}/fixtures/desired.json:3:11]")),
        "index: {err}"
    );

    let file = dir.join("fixtures/desired.json");
    let f = file.to_str().unwrap();
    for cmd in ["canonicalize", "digest"] {
        let o = run(&[cmd, f]);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!("{f}:3:11: the token tru")),
            "{cmd}: {err}"
        );
    }

    let v = run(&["verify", d]);
    assert!(stdout(&v).contains(&want), "verify: {}", stdout(&v));

    // relations: a definition that does not parse, inside the package.
    std::fs::write(dir.join("definition.json"), "{\"a\": nul}").unwrap();
    let r = run(&["relations", d]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains(&format!("{d}/definition.json:1:7: the token nul")),
        "relations: {err}"
    );
}

/// Issue 26 item 2: `index` says which profile it wrote and why, and says
/// when it wrote nothing.
#[test]
fn index_names_its_profile_and_says_when_it_wrote_nothing() {
    let (_tmp, dir) =
        copy_package(&fixtures().join("packages/versionless/actor-namespace-0.2.0-6cb09560435e"));
    let d = dir.to_str().unwrap();
    std::fs::remove_file(dir.join("package-index.json")).unwrap();
    let o = run(&["index", d]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).starts_with("profile packages.forms.takoform.com/v1alpha5 (the definition's apiVersion \"edge.forms.takoform.com\" is a versionless group (the current profile))\nwrote "),
        "{}",
        stdout(&o)
    );
    let o = run(&["index", "--check", d]);
    assert_eq!(
        stdout(&o),
        "profile packages.forms.takoform.com/v1alpha5 (kept from the existing package-index.json)\npackage-index.json is up to date\n"
    );
    // A typo in the definition: refused, said of definition.json, and
    // nothing written.
    let def = std::fs::read_to_string(dir.join("definition.json")).unwrap();
    std::fs::write(
        dir.join("definition.json"),
        def.replacen(
            "\"definitionVersion\": \"0.2.0\"",
            "\"definitionVersion\": \"v0.2\"",
            1,
        ),
    )
    .unwrap();
    let before = std::fs::read(dir.join("package-index.json")).unwrap();
    let o = run(&["index", d]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("FD121 definition-schema-violation"), "{err}");
    assert!(!err.contains("FD101"), "{err}");
    assert!(err.contains("definition.json:4:"), "{err}");
    assert!(
        err.ends_with(&format!(
            "form-package: index wrote nothing: {d}/package-index.json is unchanged\n"
        )),
        "{err}"
    );
    assert_eq!(
        std::fs::read(dir.join("package-index.json")).unwrap(),
        before
    );
}

/// Issue 22 item 10: FD018's help for a name no index can list says to
/// rename it; near miss: a listable unlisted file is told to be listed.
#[test]
fn an_unlistable_file_is_told_to_be_renamed() {
    let (_tmp, dir) = copy_package(&example_store());
    std::fs::write(dir.join("café.json"), "{}").unwrap();
    std::fs::write(dir.join("extra.json"), "{}").unwrap();
    let o = run(&["verify", "--format", "json", dir.to_str().unwrap()]);
    let v = json_of(&o);
    let help_of = |file: &str| {
        v["packages"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "FD018" && d["file"] == file)
            .unwrap_or_else(|| panic!("no FD018 for {file}: {v}"))["help"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let help = help_of("café.json");
    assert!(help.starts_with("rename it to ASCII letters"), "{help}");
    assert!(!help.contains("list it"), "{help}");
    assert_eq!(
        help_of("extra.json"),
        "list it in `files` or remove it from the directory"
    );
}

/// Issue 26 item 4: a copy that lacks most of its files is one FD019
/// listing them, with help for the author and the operator alike; near
/// miss: two missing files are two findings, `/files/2` before
/// `/files/10`.
#[test]
fn a_mostly_missing_copy_is_one_finding_and_indices_sort_numerically() {
    let src = fixtures().join("packages/versionless/queue-consumer-0.2.0-03c2f61a47b7");
    let (_tmp, dir) = copy_package(&src);
    let index: Value =
        serde_json::from_slice(&std::fs::read(dir.join("package-index.json")).unwrap()).unwrap();
    let paths: Vec<String> = index["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(paths.len(), 18);
    for p in &paths[2..] {
        std::fs::remove_file(dir.join(p)).unwrap();
    }
    let v = json_of(&run(&["verify", "--format", "json", dir.to_str().unwrap()]));
    let fd019: Vec<&Value> =
        common::elements_with(&v["packages"][0]["diagnostics"], "code", "FD019");
    assert_eq!(fd019.len(), 1, "{v}");
    assert_eq!(fd019[0]["pointer"], "/files");
    assert!(fd019[0]["message"]
        .as_str()
        .unwrap()
        .contains("16 of the 18 listed files are not in the directory"));
    let notes = fd019[0]["notes"].to_string();
    for p in &paths[2..] {
        assert!(notes.contains(p.as_str()), "{p} not listed: {notes}");
    }
    let help = fd019[0]["help"].as_str().unwrap();
    assert!(
        help.contains("re-index") && help.contains("do not install"),
        "{help}"
    );

    let (_tmp, dir) = copy_package(&src);
    std::fs::remove_file(dir.join(&paths[2])).unwrap();
    std::fs::remove_file(dir.join(&paths[10])).unwrap();
    let v = json_of(&run(&["verify", "--format", "json", dir.to_str().unwrap()]));
    let pointers: Vec<&str> = v["packages"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "FD019")
        .map(|d| d["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["/files/2/path", "/files/10/path"]);
}

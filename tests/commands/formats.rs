//! The machine formats end to end (issue #6): `--format sarif` validates
//! against the official SARIF 2.1.0 schema (`tests/sarif/`), `--format
//! github` prints exactly the expected workflow commands, `--format json`
//! validates against our own `schemas/form-package-report-v1.schema.json`,
//! and all three report the same (code, file, pointer) findings.
//!
//! Runs on the packages shipped in `fixtures/` and on a broken copy of
//! `example-store` built in a temp dir (no corpus needed).

use crate::common;
use common::copy_dir;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use jsonschema::Draft;
use serde_json::Value;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `form-package verify <path> --format <format>` in `cwd` (`format`
/// may carry more flags after a space).
fn verify(cwd: &Path, path: &str, format: &str) -> Output {
    Command::new(crate::common::BIN)
        .current_dir(cwd)
        .args(["verify", path, "--format"])
        .args(format.split(' '))
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_WORKSPACE")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn json_of(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

/// `<tmp>/pkg`: example-store with an unlisted file, an unlisted file whose
/// name needs escaping (space, comma, colon), changed fixture bytes and an
/// opened desired schema (so findings land in three files, some without a
/// span, some with a pointer into definition.json).
fn broken_package() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    copy_dir(
        &manifest().join("fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632"),
        &pkg,
    );
    std::fs::write(pkg.join("extra.json"), "{\"a\":1}\n").unwrap();
    std::fs::write(pkg.join("odd name,1:2.txt"), "x").unwrap();
    std::fs::write(pkg.join("fixtures/desired.json"), "{\"name\":\"changed\"}").unwrap();
    let def = std::fs::read_to_string(pkg.join("definition.json")).unwrap();
    let opened = def.replacen(
        "\"additionalProperties\":false,\"properties\":{\"name\"",
        "\"properties\":{\"name\"",
        1,
    );
    assert_ne!(opened, def, "the fixture's desiredSchema changed shape");
    std::fs::write(pkg.join("definition.json"), opened).unwrap();
    tmp
}

fn load(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn sarif_schema() -> Value {
    load(&manifest().join("tests/sarif/sarif-schema-2.1.0.json"))
}

/// The `language` patterns of `run` and `toolComponent` in the shipped
/// schema have a stray `]` (`…-[a-zA-Z]{2}]?$`), which the `jsonschema`
/// crate's Draft 7 meta-validation rejects (format `regex`), so the schema
/// cannot be compiled as shipped. The file stays byte-exact; only these two
/// patterns are repaired in memory (stray `]` removed). We never write
/// `language`.
const SARIF_LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";

fn sarif_validator() -> jsonschema::Validator {
    let mut schema = sarif_schema();
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    for def in ["run", "toolComponent"] {
        let pattern = &mut schema["definitions"][def]["properties"]["language"]["pattern"];
        assert_eq!(
            pattern, SARIF_LANGUAGE_PATTERN,
            "the shipped schema changed"
        );
        *pattern = SARIF_LANGUAGE_PATTERN.replace("]?$", "?$").into();
    }
    jsonschema::options()
        .with_draft(Draft::Draft7)
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

fn report_validator() -> jsonschema::Validator {
    let schema = load(&manifest().join("schemas/form-package-report-v1.schema.json"));
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert!(
        jsonschema::meta::is_valid(&schema),
        "report schema is not a valid Draft 2020-12 schema"
    );
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

fn assert_valid(v: &jsonschema::Validator, doc: &Value, what: &str) {
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

/// (code, file, pointer) of one finding; `file` is package-relative.
type Finding = (String, Option<String>, String);

fn json_findings(doc: &Value) -> Vec<Finding> {
    let mut out: Vec<Finding> = doc["packages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["diagnostics"].as_array().unwrap().iter())
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["file"].as_str().map(str::to_owned),
                d["pointer"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// The package-relative file of `path` (`None` when it is the package).
fn relative(path: &str, package: &str) -> Option<String> {
    if path == package {
        return None;
    }
    let rest = path
        .strip_prefix(package)
        .and_then(|r| r.strip_prefix('/'))
        .unwrap_or_else(|| panic!("{path} is not inside {package}"));
    Some(rest.to_owned())
}

fn sarif_findings(log: &Value, package: &str) -> Vec<Finding> {
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let mut out: Vec<Finding> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let id = r["ruleId"].as_str().unwrap().to_owned();
            let index = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(
                rules[index]["id"],
                id.as_str(),
                "ruleIndex points at its rule"
            );
            let loc = &r["locations"][0];
            let uri = loc["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap();
            let pointer = loc["logicalLocations"][0]["fullyQualifiedName"]
                .as_str()
                .unwrap()
                .to_owned();
            (id, relative(&percent_decode(uri), package), pointer)
        })
        .collect();
    out.sort();
    out
}

fn github_unescape(s: &str) -> String {
    s.replace("%2C", ",")
        .replace("%3A", ":")
        .replace("%0A", "\n")
        .replace("%0D", "\r")
        .replace("%25", "%")
}

fn github_findings(text: &str, package: &str) -> Vec<Finding> {
    let mut out: Vec<Finding> = text
        .lines()
        .filter(|l| l.starts_with("::"))
        .map(|l| {
            let (head, message) = l[2..].split_once("::").unwrap();
            let (_, props) = head.split_once(' ').unwrap();
            let mut file = None;
            let mut code = None;
            for kv in props.split(',') {
                let (k, v) = kv.split_once('=').unwrap();
                match k {
                    "file" => file = Some(github_unescape(v)),
                    "title" => code = Some(v.split(' ').next().unwrap().to_owned()),
                    _ => {}
                }
            }
            let message = github_unescape(message);
            let pointer = match message.rfind(" (at ") {
                Some(i) if message.ends_with(')') => message[i + 5..message.len() - 1].to_owned(),
                _ => String::new(),
            };
            (code.unwrap(), relative(&file.unwrap(), package), pointer)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn sarif_of_broken_and_good_packages_validates_against_the_official_schema() {
    let v = sarif_validator();
    let tmp = broken_package();
    let broken = verify(tmp.path(), "pkg", "sarif");
    assert_eq!(broken.status.code(), Some(1));
    let log = json_of(&broken);
    assert_valid(&v, &log, "broken package SARIF");
    assert_eq!(log["$schema"], sarif_schema()["$id"]);
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "form-package");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let ids: Vec<&str> = common::strings(&driver["rules"], "id");
    assert_eq!(ids, ["FD008", "FD015", "FD016", "FD018", "FD123", "FD213"]);
    let fd213 = &driver["rules"][5];
    assert_eq!(fd213["name"], "open-object-schema");
    assert_eq!(
        fd213["shortDescription"]["text"],
        "an object schema without additionalProperties false or the typed-map escape"
    );
    // Rules carry what `explain` says: full description, help text and Markdown
    // (no helpUri: the project has no published URL to point at).
    let explain = Command::new(crate::common::BIN)
        .args(["explain", "FD213"])
        .output()
        .unwrap();
    assert_eq!(fd213["help"]["text"], stdout(&explain).as_str());
    assert!(fd213["help"]["markdown"]
        .as_str()
        .unwrap()
        .contains("**Fix:** add \"additionalProperties\": false"));
    assert!(fd213["fullDescription"]["text"]
        .as_str()
        .unwrap()
        .starts_with("A schema whose type includes \"object\""));
    assert!(fd213.get("helpUri").is_none(), "{fd213}");
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 8);
    // The FD213 finding in definition.json, with a region and its pointer.
    let open = results.iter().find(|r| r["ruleId"] == "FD213").unwrap();
    assert_eq!(open["level"], "error");
    assert_eq!(
        open["message"]["text"],
        "object schema must set additionalProperties to false or a typed schema"
    );
    let loc = &open["locations"][0];
    assert_eq!(
        loc["physicalLocation"]["artifactLocation"]["uri"],
        "pkg/definition.json"
    );
    assert_eq!(loc["physicalLocation"]["region"]["startLine"], 1);
    assert_eq!(loc["physicalLocation"]["region"]["startColumn"], 168);
    assert_eq!(
        loc["logicalLocations"][0]["fullyQualifiedName"],
        "/desiredSchema"
    );
    // The odd file name is percent-encoded; a finding about a whole file
    // has the region of its first line.
    let odd: Vec<&Value> = results.iter().filter(|r| r["ruleId"] == "FD008").collect();
    assert_eq!(odd.len(), 1);
    let odd_loc = &odd[0]["locations"][0]["physicalLocation"];
    assert_eq!(
        odd_loc["artifactLocation"]["uri"],
        "pkg/odd%20name%2C1%3A2.txt"
    );
    assert_eq!(odd_loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(odd_loc["region"], serde_json::json!({"startLine": 1}));

    // Good packages: a valid log with no rules and no results.
    let good = verify(&manifest(), "fixtures/packages", "sarif");
    assert_eq!(good.status.code(), Some(0));
    let log = json_of(&good);
    assert_valid(&v, &log, "good packages SARIF");
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
    assert_eq!(
        log["runs"][0]["tool"]["driver"]["rules"],
        serde_json::json!([])
    );
}

#[test]
fn sarif_schema_has_teeth() {
    // Near miss: a log the official schema must reject (bad level).
    let v = sarif_validator();
    let tmp = broken_package();
    let mut log = json_of(&verify(tmp.path(), "pkg", "sarif"));
    let mut bad_level = log.clone();
    bad_level["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!v.is_valid(&bad_level));
    // Formats are asserted: an unencoded space is no URI reference.
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
        "pkg/odd name.txt".into();
    assert!(!v.is_valid(&log));
}

#[test]
fn github_lines_are_exact() {
    let tmp = broken_package();
    let out = verify(tmp.path(), "pkg", "github");
    assert_eq!(out.status.code(), Some(1));
    let expected = "\
::error file=pkg/definition.json,line=1,col=168,title=FD213 open-object-schema::object schema must set additionalProperties to false or a typed schema (at /desiredSchema)
::error file=pkg/extra.json,title=FD018 unlisted-file::package file closure mismatch: \"extra.json\" is not listed
::error file=pkg/odd name%2C1%3A2.txt,title=FD008 invalid-entry-path::inventory package: package entry \"odd name,1:2.txt\": volume or URI-like paths are forbidden
::error file=pkg/package-index.json,line=1,col=108,title=FD016 payload-digest-mismatch::payload \"definition.json\" digest is sha256:ff7ae146ab29fe02680fa73113cc88cb37129392937460449089306958a9e69b, index says sha256:3218e1354b79141e15c996e719cd9bb6b79cb301013865b4f36faece5e4fd247 (at /files/0/digest)
::error file=pkg/package-index.json,line=1,col=277,title=FD015 payload-size-mismatch::payload \"definition.json\" size is 693, index says 722 (at /files/0/size)
::error file=pkg/package-index.json,line=1,col=292,title=FD016 payload-digest-mismatch::payload \"fixtures/desired.json\" digest is sha256:427a655735253e317f62cec99605407412f1f8f8ccb21b17be7318984383a3b8, index says sha256:9579cf52285b23b618b615d704b19d04ff591ae513f6ae34ef37e2b9a067cb12 (at /files/1/digest)
::error file=pkg/package-index.json,line=1,col=435,title=FD015 payload-size-mismatch::payload \"fixtures/desired.json\" size is 18, index says 19 (at /files/1/size)
::error file=pkg/package-index.json,line=1,col=559,title=FD123 schema-digest-mismatch::FormRef schemaDigest is sha256:7d3ccaec178df99f28a368b8eb3f3bf2f0df55f0e13dd78a34b4be658af01a4d, canonical definition digest is sha256:b3e7bd3e3caff82a8b565e11bf3382d46bf7309a4415963d4f51209ad86c3414 (at /formRef/schemaDigest)
form-package: 1 package, 0 verified, 1 failed, 8 errors, 0 warnings
";
    assert_eq!(stdout(&out), expected);

    let good = verify(&manifest(), "fixtures/packages", "github");
    assert_eq!(good.status.code(), Some(0));
    assert_eq!(
        stdout(&good),
        "form-package: 8 packages, 8 verified, 0 failed, 0 errors, 0 warnings\n"
    );
}

#[test]
fn json_validates_against_our_report_schema() {
    let v = report_validator();
    let good = json_of(&verify(&manifest(), "fixtures/packages", "json"));
    assert_eq!(good["summary"]["verified"], 8);
    assert_valid(&v, &good, "good packages JSON");
    let tmp = broken_package();
    let broken = json_of(&verify(tmp.path(), "pkg", "json"));
    assert_eq!(broken["packages"][0]["verdict"], "fail");
    assert_valid(&v, &broken, "broken package JSON");

    // Near misses the schema must reject: an unknown member, a bad verdict,
    // a report member on a failed package, a malformed code.
    let mut extra = broken.clone();
    extra["packages"][0]["diagnostics"][0]["extra"] = true.into();
    assert!(!v.is_valid(&extra));
    let mut verdict = broken.clone();
    verdict["packages"][0]["verdict"] = "failed".into();
    assert!(!v.is_valid(&verdict));
    let mut report = broken.clone();
    report["packages"][0]["formRef"] = good["packages"][0]["formRef"].clone();
    report["packages"][0]["fileCount"] = 2.into();
    report["packages"][0]["payloadBytes"] = 741.into();
    assert!(!v.is_valid(&report));
    let mut code = broken;
    code["packages"][0]["diagnostics"][0]["code"] = "E213".into();
    assert!(!v.is_valid(&code));
}

#[test]
fn all_machine_formats_report_the_same_findings() {
    let tmp = broken_package();
    let json = json_of(&verify(tmp.path(), "pkg", "json"));
    let from_json = json_findings(&json);
    assert_eq!(from_json.len(), 8);
    assert!(from_json.contains(&(
        "FD213".to_owned(),
        Some("definition.json".to_owned()),
        "/desiredSchema".to_owned()
    )));
    assert!(from_json.contains(&(
        "FD008".to_owned(),
        Some("odd name,1:2.txt".to_owned()),
        String::new()
    )));
    // One finding per cause: a file with an inventory finding is not also unlisted.
    assert!(!from_json.contains(&(
        "FD018".to_owned(),
        Some("odd name,1:2.txt".to_owned()),
        String::new()
    )));
    let sarif = json_of(&verify(tmp.path(), "pkg", "sarif"));
    assert_eq!(sarif_findings(&sarif, "pkg"), from_json);
    let github = stdout(&verify(tmp.path(), "pkg", "github"));
    assert_eq!(github_findings(&github, "pkg"), from_json);

    // Line/column agree between json and sarif for every finding with a span
    // (SARIF gives a finding without one the region of its first line).
    let diags = json["packages"][0]["diagnostics"].as_array().unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    for (d, r) in diags.iter().zip(results) {
        assert_eq!(d["code"], r["ruleId"]);
        let region = &r["locations"][0]["physicalLocation"]["region"];
        match d.get("line") {
            Some(line) => {
                assert_eq!(Some(line), region.get("startLine"));
                assert_eq!(d.get("column"), region.get("startColumn"));
            }
            None => assert_eq!(region, &serde_json::json!({"startLine": 1})),
        }
    }
}

/// Runs the binary with `args` in `cwd`.
fn bin_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(crate::common::BIN)
        .current_dir(cwd)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_WORKSPACE")
        .output()
        .unwrap()
}

/// GitHub code scanning's documented limits and required properties for an
/// uploaded SARIF file ("SARIF support for code scanning" and "SARIF results
/// exceed one or more limits", docs.github.com, code-security/code-scanning):
/// the upload is rejected past these maxima.
mod github_code_scanning {
    /// Largest upload, gzip-compressed.
    pub const MAX_GZIP_BYTES: usize = 10 * 1024 * 1024;
    /// Runs per file.
    pub const MAX_RUNS: usize = 20;
    /// Results per run (only the top 5,000 are shown).
    pub const MAX_RESULTS_PER_RUN: usize = 25_000;
    /// Rules per run.
    pub const MAX_RULES_PER_RUN: usize = 25_000;
    /// Tool extensions per run.
    pub const MAX_EXTENSIONS_PER_RUN: usize = 100;
    /// Locations per result.
    pub const MAX_LOCATIONS_PER_RESULT: usize = 1_000;
    /// Tags per rule.
    pub const MAX_TAGS_PER_RULE: usize = 20;
}

/// Checks a log against GitHub's limits and required properties: `$schema`,
/// `version` 2.1.0, `runs[].tool.driver.name`, `rules[].id`, each result's
/// `ruleId`, `message.text`, a `locations[].physicalLocation` with a
/// relative `artifactLocation.uri` and a `region.startLine`, and
/// `partialFingerprints`; rules with `shortDescription.text`,
/// `fullDescription.text`, `help.text` and `help.markdown`.
fn assert_github_accepts(log: &Value) {
    use github_code_scanning::*;
    assert!(log["$schema"].is_string());
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert!(!runs.is_empty() && runs.len() <= MAX_RUNS);
    let text = serde_json::to_vec(log).unwrap();
    // gzip never makes JSON text larger than ~1.01x: the raw size bounds it.
    assert!(text.len() / 2 < MAX_GZIP_BYTES, "log too large");
    for run in runs {
        let driver = &run["tool"]["driver"];
        assert!(driver["name"].is_string());
        let extensions = run["tool"]["extensions"].as_array().map_or(0, Vec::len);
        assert!(extensions <= MAX_EXTENSIONS_PER_RUN);
        let rules = driver["rules"].as_array().unwrap();
        assert!(rules.len() <= MAX_RULES_PER_RUN);
        for r in rules {
            assert!(r["id"].is_string());
            for k in ["shortDescription", "fullDescription"] {
                assert!(r[k]["text"].as_str().is_some_and(|t| !t.is_empty()), "{k}");
            }
            assert!(r["help"]["text"].is_string() && r["help"]["markdown"].is_string());
            let tags = r["properties"]["tags"].as_array().map_or(0, Vec::len);
            assert!(tags <= MAX_TAGS_PER_RULE);
        }
        let results = run["results"].as_array().unwrap();
        assert!(results.len() <= MAX_RESULTS_PER_RUN);
        for r in results {
            assert!(r["ruleId"].is_string());
            assert!(r["message"]["text"].is_string());
            assert!(r["partialFingerprints"]
                .as_object()
                .is_some_and(|o| !o.is_empty()));
            let locations = r["locations"].as_array().unwrap();
            assert!(!locations.is_empty() && locations.len() <= MAX_LOCATIONS_PER_RESULT);
            for l in locations {
                let p = &l["physicalLocation"];
                let uri = p["artifactLocation"]["uri"].as_str().unwrap();
                assert!(
                    !uri.starts_with('/') && !uri.contains("://") && !uri.starts_with("file:"),
                    "absolute uri {uri}"
                );
                assert!(p["region"]["startLine"].as_u64().is_some_and(|l| l >= 1));
            }
        }
    }
}

#[test]
fn sarif_meets_github_code_scanning_requirements_and_is_stable() {
    let tmp = broken_package();
    let first = json_of(&verify(tmp.path(), "pkg", "sarif"));
    assert_github_accepts(&first);
    let run = &first["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    // %SRCROOT% is described, never an absolute machine path.
    let base = &run["originalUriBaseIds"]["%SRCROOT%"];
    assert!(base.get("uri").is_none(), "{base}");
    let text = serde_json::to_string(&first).unwrap();
    assert!(
        !text.contains(tmp.path().to_str().unwrap()),
        "machine path in SARIF"
    );
    // Stable fingerprints: the same package run from another directory with
    // the same --sarif-root gives the same URIs and fingerprints.
    let abs = tmp.path().join("pkg");
    let root = tmp.path().to_str().unwrap();
    let second = json_of(&bin_in(
        &manifest(),
        &[
            "verify",
            abs.to_str().unwrap(),
            "--format",
            "sarif",
            "--sarif-root",
            root,
        ],
    ));
    let prints = |log: &Value| -> Vec<(Value, Value)> {
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].clone(),
                    r["partialFingerprints"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(prints(&first), prints(&second));
    let all: std::collections::HashSet<String> =
        prints(&first).iter().map(|(_, f)| f.to_string()).collect();
    assert_eq!(all.len(), 8, "one fingerprint per finding");
    // Near miss: another root moves the URIs (relative, with `..`), not to an absolute path.
    let sub = tmp.path().join("pkg/fixtures");
    let third = json_of(&verify(
        tmp.path(),
        "pkg",
        &format!("sarif --sarif-root {}", sub.display()),
    ));
    assert_eq!(
        third["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
            ["uri"],
        "../definition.json"
    );
    assert_github_accepts(&third);
}

/// `text` with JUnit's `time` attributes (how long a package took: the
/// one value that differs between runs) written `time="<seconds>"`.
fn untimed(text: &str) -> String {
    regex::Regex::new(r#" time="[0-9.]+""#)
        .unwrap()
        .replace_all(text, r#" time="<seconds>""#)
        .into_owned()
}

/// `--output-file`: the report goes to the file (atomically: no temporary
/// file is left), stdout stays empty, and the exit status is unchanged.
#[test]
fn output_file_is_written_atomically_in_every_format() {
    let tmp = broken_package();
    for format in ["human", "json", "sarif", "github", "junit", "concise"] {
        let file = tmp.path().join(format!("out.{format}"));
        std::fs::write(&file, "old").unwrap();
        let o = common::verify_to_file(tmp.path(), "pkg", format, file.to_str().unwrap());
        assert_eq!(o.status.code(), Some(1), "{format}");
        assert!(o.stdout.is_empty(), "{format}");
        let written = std::fs::read(&file).unwrap();
        assert_eq!(
            untimed(&String::from_utf8_lossy(&written)),
            untimed(&stdout(&verify(tmp.path(), "pkg", format))),
            "{format}"
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // Near miss: a file in a directory that does not exist cannot be written: exit 2.
    let o = bin_in(
        tmp.path(),
        &["verify", "pkg", "--output-file", "no/such/dir/out.txt"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no/such/dir/out.txt"));
}

#[test]
fn junit_has_one_testcase_per_package_and_one_line_per_error() {
    let tmp = broken_package();
    copy_dir(
        &manifest().join("fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632"),
        &tmp.path().join("good"),
    );
    let o = bin_in(tmp.path(), &["verify", "pkg", "good", "--format", "junit"]);
    assert_eq!(o.status.code(), Some(1));
    let xml = stdout(&o);
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 2, "{xml}");
    assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");
    assert!(xml.contains(r#"<testcase name="pkg""#), "{xml}");
    assert!(xml.contains(r#"message="8 errors""#), "{xml}");
    let failure = &xml[xml.find("<failure").unwrap()..xml.find("</failure>").unwrap()];
    assert_eq!(failure.matches(": pkg/").count(), 8, "{failure}");
    assert!(failure.contains(
        "FD213 open-object-schema: pkg/definition.json:1:168: object schema must set additionalProperties to false or a typed schema (at /desiredSchema)"
    ));
}

/// Every renderer on the same finding set (the broken package), pinned
/// byte for byte in `tests/snapshots/formats/` (regenerate with `BLESS=1`).
#[test]
fn every_renderer_is_pinned_on_the_same_findings() {
    let tmp = broken_package();
    let dir = manifest().join("tests/snapshots/formats");
    for format in ["human", "json", "sarif", "github", "junit", "concise"] {
        let o = verify(tmp.path(), "pkg", &format!("{format} --color never"));
        assert_eq!(o.status.code(), Some(1), "{format}");
        let got = stdout(&o).replace(env!("CARGO_PKG_VERSION"), "<version>");
        let got = untimed(&got);
        let file = dir.join(format!("broken.{format}.txt"));
        if std::env::var_os("BLESS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&file, &got).unwrap();
        }
        let want = std::fs::read_to_string(&file).unwrap();
        assert_eq!(got, want, "{format} differs from {}", file.display());
    }
}

/// Issue 10 item 5: one column unit (code points) and one line rule (LF,
/// CR LF, lone CR) everywhere. The definition has CR-only line ends and the
/// open object sits after `"é😀": ` — byte columns or LF-only lines would
/// give other numbers.
#[test]
fn every_format_gives_the_same_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    copy_dir(
        &manifest().join("fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632"),
        &pkg,
    );
    let mut def: Value = load(&pkg.join("definition.json"));
    def["desiredSchema"]["properties"]["é😀"] = serde_json::json!({"type": "object"});
    def["desiredSchema"]["properties"]["name"]["maxLength"] = 64.into();
    let text = serde_json::to_string(&def).unwrap();
    // One member per line, CR only: `\r  "é😀": {"type":"object"},` lands on line 4.
    let text = text
        .replacen("{\"$schema\"", "{\r\"$schema\"", 1)
        .replacen(
            ",\"additionalProperties\"",
            ",\r\"additionalProperties\"",
            1,
        )
        .replacen("\"é😀\":", "\r  \"é😀\": ", 1);
    std::fs::write(pkg.join("definition.json"), &text).unwrap();
    let idx = bin_in(tmp.path(), &["index", "pkg"]);
    common::assert_exit(&idx, 0);
    // Where the open object is: line and code-point column by hand.
    let at = text.find("\"é😀\": ").unwrap() + "\"é😀\": ".len();
    let before = &text[..at];
    let line = 1 + before.matches('\r').count();
    let col = 1 + before[before.rfind('\r').unwrap() + 1..].chars().count();
    assert_eq!((line, col), (4, 9), "the test's own arithmetic");
    let want = format!("{line}:{col}");

    let json = json_of(&verify(tmp.path(), "pkg", "json"));
    let d = &json["packages"][0]["diagnostics"][0];
    assert_eq!(d["code"], "FD213", "{json}");
    assert_eq!(format!("{}:{}", d["line"], d["column"]), want);

    let sarif = json_of(&verify(tmp.path(), "pkg", "sarif"));
    let region = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        format!("{}:{}", region["startLine"], region["startColumn"]),
        want
    );

    let github = stdout(&verify(tmp.path(), "pkg", "github"));
    assert!(
        github.contains(&format!(",line={line},col={col},")),
        "{github}"
    );

    let junit = stdout(&verify(tmp.path(), "pkg", "junit"));
    assert!(
        junit.contains(&format!("pkg/definition.json:{want}: ")),
        "{junit}"
    );

    let human = stdout(&verify(tmp.path(), "pkg", "human"));
    assert!(
        human.contains(&format!("╭─[pkg/definition.json:{want}]")),
        "{human}"
    );
    assert!(
        human.contains(&format!("help: pkg/definition.json:{want}: the value {{\"type\":\"object\"}} at /desiredSchema/properties/é😀")),
        "{human}"
    );
}

/// Issue 14 item 13: the human summary line counts packages, errors,
/// warnings and notes; `-v` adds what each stage checked.
#[test]
fn human_summary_counts_and_verbose_stages() {
    let tmp = broken_package();
    copy_dir(
        &manifest().join("fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632"),
        &tmp.path().join("good"),
    );
    let o = bin_in(tmp.path(), &["verify", "pkg", "good"]);
    let text = stdout(&o);
    assert!(
        text.ends_with(
            "form-package: 2 packages (1 verified, 1 failed), 8 errors, 0 warnings, 0 notes\n"
        ),
        "{text}"
    );
    assert!(!text.contains("  checked "));
    let v = stdout(&bin_in(tmp.path(), &["verify", "-v", "good"]));
    assert!(v.contains("  checked index: package-index.json read as strict I-JSON and canonicalized (package digest sha256:"), "{v}");
    assert!(
        v.contains("  checked files: 2 files listed, inventoried and digested"),
        "{v}"
    );
    assert!(
        v.contains("  checked fixtures: 1 fixture validation\n"),
        "{v}"
    );
    // Near miss: --quiet prints neither.
    let q = stdout(&bin_in(tmp.path(), &["verify", "-q", "pkg", "good"]));
    assert!(
        !q.contains("form-package:") && !q.contains("checked"),
        "{q}"
    );
}

/// T1 C1, C2, C4: the `--format json` of `check` and `validate-revocation*`
/// validates against the report schema, refused revocation documents
/// included (their catalogue code is the family row `REVOCATION_*`); each
/// document is named by its own path; an advance carries its pin in json
/// (and sarif, valid SARIF 2.1.0). Near misses the schema must reject: a
/// catalogue code with a `*` elsewhere, a pin with an unknown member.
#[test]
fn check_and_revocation_json_validate_against_the_report_schema() {
    let v = report_validator();
    let tmp = tempfile::tempdir().unwrap();
    let inputs = manifest().join("tests/reference/inputs");
    for f in ["statement-1.json", "checkpoint-1.json", "checkpoint-2.json"] {
        std::fs::copy(inputs.join(f), tmp.path().join(f)).unwrap();
    }
    std::fs::write(
        tmp.path().join("w.json"),
        r#"{"apiVersion":"trust.forms.takoform.com/v9","kind":"FormPackageRevocation"}"#,
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("c.json"),
        r#"{"apiVersion":"trust.forms.takoform.com/v1alpha1","kind":"FormPackageRevocationCheckpoint"}"#,
    )
    .unwrap();
    let runs: [(&[&str], i32); 6] = [
        (
            &[
                "check",
                "--format",
                "json",
                "w.json",
                "statement-1.json",
                "c.json",
            ],
            1,
        ),
        (&["validate-revocation", "--format", "json", "w.json"], 1),
        (
            &[
                "validate-revocation",
                "--format",
                "json",
                "statement-1.json",
            ],
            0,
        ),
        (
            &[
                "validate-revocation-checkpoint",
                "--format",
                "json",
                "c.json",
            ],
            1,
        ),
        (
            &[
                "validate-revocation-checkpoint",
                "--format",
                "json",
                "--advance",
                "checkpoint-1.json",
            ],
            0,
        ),
        (
            &[
                "validate-revocation-checkpoint",
                "--format",
                "json",
                "checkpoint-2.json",
            ],
            0,
        ),
    ];
    let mut refused_codes = Vec::new();
    for (args, exit) in runs {
        let o = bin_in(tmp.path(), args);
        assert_eq!(
            o.status.code(),
            Some(exit),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let doc = json_of(&o);
        assert_valid(&v, &doc, &format!("{args:?}"));
        // Each document is named by its own path (C2).
        let paths: Vec<&str> = common::strings(&doc["packages"], "path");
        let named: Vec<&str> = args
            .iter()
            .copied()
            .filter(|a| a.ends_with(".json"))
            .collect();
        assert_eq!(paths, named, "{args:?}");
        for p in doc["packages"].as_array().unwrap() {
            for d in p["diagnostics"].as_array().unwrap() {
                refused_codes.push(d["specCode"].as_str().unwrap().to_owned());
            }
        }
    }
    assert!(
        refused_codes.iter().any(|c| c == "REVOCATION_*"),
        "{refused_codes:?}"
    );

    // C4: the advance's pin is in the document, as the default output has it.
    let plain: Value = serde_json::from_slice(
        &bin_in(
            tmp.path(),
            &[
                "validate-revocation-checkpoint",
                "--advance",
                "checkpoint-1.json",
            ],
        )
        .stdout,
    )
    .unwrap();
    let advanced = json_of(&bin_in(
        tmp.path(),
        &[
            "validate-revocation-checkpoint",
            "--format",
            "json",
            "--advance",
            "checkpoint-1.json",
        ],
    ));
    assert_eq!(advanced["packages"][0]["pin"], plain["pin"]);
    assert_eq!(plain["pin"]["sequence"], 1);
    let sarif = json_of(&bin_in(
        tmp.path(),
        &[
            "validate-revocation-checkpoint",
            "--format",
            "sarif",
            "--advance",
            "checkpoint-1.json",
        ],
    ));
    assert_eq!(sarif["runs"][0]["properties"]["pin"], plain["pin"]);
    assert_valid(&sarif_validator(), &sarif, "advance SARIF");
    let junit = stdout(&bin_in(
        tmp.path(),
        &[
            "validate-revocation-checkpoint",
            "--format",
            "junit",
            "--advance",
            "checkpoint-1.json",
        ],
    ));
    let digest = plain["pin"]["digest"].as_str().unwrap();
    assert!(
        junit.contains(
            "<property name=\"pin\" value=\"{&quot;sequence&quot;:1,&quot;digest&quot;:&quot;"
        ) && junit.contains(digest),
        "{junit}"
    );
    let github = stdout(&bin_in(
        tmp.path(),
        &[
            "validate-revocation-checkpoint",
            "--format",
            "github",
            "--advance",
            "checkpoint-1.json",
        ],
    ));
    assert!(
        github.starts_with(&format!(
            "::notice title=form-package pin::pin {}\n",
            plain["pin"]
        )),
        "{github}"
    );
    // Near miss: without --advance there is no pin.
    let no_pin = json_of(&bin_in(
        tmp.path(),
        &[
            "validate-revocation-checkpoint",
            "--format",
            "json",
            "checkpoint-1.json",
        ],
    ));
    assert!(no_pin["packages"][0].get("pin").is_none());

    let mut star = advanced.clone();
    star["packages"][0]["diagnostics"] = serde_json::json!([{
        "code": "FD600", "name": "x", "severity": "error", "specCode": "REVOCATION*X",
        "message": "m", "file": null, "pointer": "", "target": "value", "notes": []
    }]);
    assert!(!v.is_valid(&star));
    star["packages"][0]["diagnostics"][0]["specCode"] = "REVOCATION_*".into();
    star["packages"][0]["errors"] = 1.into();
    star["packages"][0]["verdict"] = "fail".into();
    assert_valid(
        &v,
        &star,
        "the same finding with the catalogue's family code",
    );
    let mut pin = advanced;
    pin["packages"][0]["pin"]["extra"] = 1.into();
    assert!(!v.is_valid(&pin));
}

/// Issue 37 item 6: JUnit gives each package its own `classname` (the
/// package path, as `name`) and a `time` (seconds, a decimal number);
/// `--format concise` prints one `path:line:col: CODE message` line per
/// finding and the summary line. Near miss: a package that verifies has
/// no concise line but is counted in the summary.
#[test]
fn junit_classname_and_time_per_package_and_concise_lines() {
    let tmp = broken_package();
    copy_dir(
        &manifest().join("fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632"),
        &tmp.path().join("good"),
    );
    let o = bin_in(tmp.path(), &["verify", "--format", "junit", "pkg", "good"]);
    let xml = stdout(&o);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 2, "{xml}");
    for (case, name) in cases.iter().zip(["pkg", "good"]) {
        assert_eq!(case.attribute("name"), Some(name));
        assert_eq!(case.attribute("classname"), Some(name));
        let t: f64 = case.attribute("time").unwrap().parse().unwrap();
        assert!(t >= 0.0, "{xml}");
    }
    let o = bin_in(
        tmp.path(),
        &["verify", "--format", "concise", "pkg", "good"],
    );
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(
            &"pkg/extra.json: FD018 package file closure mismatch: \"extra.json\" is not listed"
        ),
        "{text}"
    );
    let located = regex::Regex::new(r"^pkg/definition\.json:\d+:\d+: FD213 ").unwrap();
    assert!(lines.iter().any(|l| located.is_match(l)), "{text}");
    assert!(!text.contains("good/"), "{text}");
    assert_eq!(
        lines.last().copied(),
        Some("form-package: 2 packages (1 verified, 1 failed), 8 errors, 0 warnings, 0 notes")
    );
}

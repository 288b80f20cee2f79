//! The code registry end to end: every code of `codes::TABLE` has a full
//! explanation; every active code either has a golden case
//! (`fixtures/golden/<ID>-<name>/`, run by `tests/golden/golden.rs`, which shows the
//! code fires with its message and location) or says in its code file
//! (`unreachable` in `src/codes/FDnnn.toml`) why no input can produce it; a
//! pre-empted code is shown losing to the earlier check; and the `explain` / `rules`
//! subcommands print what the table says.

use crate::common;
use common::copy_dir;
use common::run;

use std::path::{Path, PathBuf};

use form_package::codes::{Code, Status, TABLE};
use serde_json::{json, Map, Value};

const STORE: &str = "fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632";
const BUCKET: &str = "fixtures/packages/v1beta1/object-bucket-0.1.0-553675391d88";
const ACTOR: &str = "fixtures/packages/versionless/actor-namespace-0.2.0-6cb09560435e";
const BUNDLE: &str = "fixtures/packages/v1alpha3/worker-bundle-0.1.0-4fa281311512";

/// Active codes `verify` cannot produce, with the reason: the
/// `unreachable` member of their code file (`src/codes/FDnnn.toml`). For a
/// code pre-empted by an earlier check, [`attempt`] builds the nearest
/// package and the test shows the earlier code fires instead.
fn unreachable_codes() -> Vec<(Code, &'static str)> {
    TABLE
        .iter()
        .filter_map(|i| i.unreachable.map(|r| (i.code, r)))
        .collect()
}

// ---------------------------------------------------------------- helpers

/// A copy of a shipped package in a temp dir.
struct Pkg {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

impl Pkg {
    fn new(src: &str) -> Pkg {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("pkg");
        copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(src), &dir);
        Pkg { _tmp: tmp, dir }
    }
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }
    fn write(&self, rel: &str, bytes: &[u8]) {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    fn json(&self, rel: &str) -> Value {
        serde_json::from_slice(&std::fs::read(self.path(rel)).unwrap()).unwrap()
    }
    fn write_json(&self, rel: &str, v: &Value) {
        self.write(rel, &serde_json::to_vec(v).unwrap());
    }
    /// Changes the definition and re-indexes.
    fn def(&self, f: impl FnOnce(&mut Map<String, Value>)) -> &Self {
        let mut d = self.json("definition.json");
        f(d.as_object_mut().unwrap());
        self.write_json("definition.json", &d);
        self.reindex()
    }
    /// Adds a desired property and re-indexes.
    fn prop(&self, name: &str, schema: Value) -> &Self {
        self.def(|d| {
            d["desiredSchema"]["properties"]
                .as_object_mut()
                .unwrap()
                .insert(name.into(), schema);
        })
    }
    /// Changes the index (no re-indexing).
    fn index(&self, f: impl FnOnce(&mut Map<String, Value>)) -> &Self {
        let mut i = self.json("package-index.json");
        f(i.as_object_mut().unwrap());
        self.write_json("package-index.json", &i);
        self
    }
    fn reindex(&self) -> &Self {
        let indexed = form_package::index::build_lenient(&self.dir, None)
            .unwrap_or_else(|d| panic!("index: {d:?}"));
        form_package::index::write(&self.dir, &indexed).unwrap();
        self
    }
    fn codes(&self) -> Vec<Code> {
        verify(&self.dir)
    }
}

fn verify(path: &Path) -> Vec<Code> {
    form_package::verify::verify_package(path)
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect()
}

fn zeros() -> String {
    format!("sha256:{}", "0".repeat(64))
}

fn push(d: &mut Map<String, Value>, list: &str, item: Value) {
    d.entry(list)
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .unwrap()
        .push(item);
}

fn files(i: &mut Map<String, Value>) -> &mut Vec<Value> {
    i["files"].as_array_mut().unwrap()
}

// ---------------------------------------------------------------- tests

/// For a pre-empted code of [`unreachable_codes`]: the code that fires first and
/// the codes `verify` reports for a package that breaks the pre-empted rule.
fn attempt(code: Code) -> Option<(Code, Vec<Code>)> {
    let store = || Pkg::new(STORE);
    let entry = |path: &str, media: &str| json!({"path": path, "mediaType": media, "size": 2, "digest": zeros()});
    Some(match code {
        Code::IndexIdentity => (
            Code::IndexSchemaViolation,
            store().index(|i| i["kind"] = json!("FormBundle")).codes(),
        ),
        Code::InvalidPayloadPath => (
            Code::IndexSchemaViolation,
            store()
                .index(|i| files(i).push(entry("x:y.json", "application/json")))
                .codes(),
        ),
        Code::NonCanonicalDigest => (
            Code::IndexSchemaViolation,
            store()
                .index(|i| files(i)[1]["digest"] = json!(format!("sha256:{}", "A".repeat(64))))
                .codes(),
        ),
        Code::PayloadSizeOutOfRange => (
            Code::IndexSchemaViolation,
            store()
                .index(|i| files(i)[1]["size"] = json!(64 * 1024 * 1024 + 1))
                .codes(),
        ),
        Code::UnsupportedMediaType => (
            Code::IndexSchemaViolation,
            store()
                .index(|i| files(i)[1]["mediaType"] = json!("image/png"))
                .codes(),
        ),
        Code::DefinitionCount => (
            Code::IndexSchemaViolation,
            store()
                .index(|i| {
                    files(i).push(entry(
                        "z.json",
                        "application/vnd.takoform.form-definition.v1+json",
                    ))
                })
                .codes(),
        ),
        Code::FixtureCount => (
            Code::DefinitionSchemaViolation,
            store()
                .def(|d| {
                    for n in 0..32 {
                        push(d, "conformanceFixtures", json!({"name": format!("f{n}"), "desiredPath": "fixtures/desired.json"}));
                    }
                })
                .codes(),
        ),
        Code::InvalidFixturePath => (
            Code::DefinitionSchemaViolation,
            store()
                .def(|d| push(d, "conformanceFixtures", json!({"name": "up", "desiredPath": "fixtures/../fixtures/desired.json"})))
                .codes(),
        ),
        Code::UnsupportedNegativeStage => (
            Code::DefinitionSchemaViolation,
            store()
                .def(|d| push(d, "negativeConformanceFixtures", json!({"name": "neg", "stage": "import", "inputPath": "fixtures/desired.json", "expectedFailure": "schema_validation_failed"})))
                .codes(),
        ),
        Code::InvalidDefinitionVersion => (
            Code::IndexSchemaViolation,
            store()
                .def(|d| {
                    d.insert("definitionVersion".into(), json!("1.0.0.1"));
                })
                .codes(),
        ),
        _ => return None,
    })
}

fn unreachable_reason(code: Code) -> Option<&'static str> {
    code.info().unreachable
}

#[test]
fn unreachable_table_is_exact() {
    let unreachable = unreachable_codes();
    assert!(unreachable.len() >= 10, "{unreachable:?}");
    for (code, reason) in &unreachable {
        let info = code.info();
        assert_eq!(
            info.status,
            Status::Active,
            "{} is removed: drop it",
            info.id
        );
        assert!(!reason.is_empty(), "{}", info.id);
        assert!(
            golden_case(info).is_none(),
            "{} has a golden case: drop `unreachable` from its code file",
            info.id
        );
        if reason.starts_with("pre-empted") {
            let (first, codes) =
                attempt(*code).unwrap_or_else(|| panic!("{}: no attempt", info.id));
            assert!(codes.contains(&first), "{}: {codes:?}", info.id);
            assert!(!codes.contains(code), "{} is reachable: {codes:?}", info.id);
        }
    }
}

/// The golden folder of a code, when there is one.
fn golden_case(info: &form_package::codes::CodeInfo) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/golden")
        .join(format!("{}-{}", info.id, info.name));
    dir.join("case.json").is_file().then_some(dir)
}

/// Issue 11 item 5: the golden folders cover every code the registry lists
/// as reachable (every active code not in [`unreachable_codes`]); `tests/golden/golden.rs`
/// runs each folder and checks its code fires.
#[test]
fn every_reachable_code_has_a_golden_case() {
    let missing: Vec<String> = TABLE
        .iter()
        .filter(|i| i.status == Status::Active && unreachable_reason(i.code).is_none())
        .filter(|i| golden_case(i).is_none())
        .map(|i| format!("{} {}", i.id, i.name))
        .collect();
    assert!(
        missing.is_empty(),
        "no fixtures/golden/<ID>-<name>/ for: {missing:?}"
    );
}

#[test]
fn removed_codes_have_no_golden_case() {
    // A removed code is never emitted; it still has an explanation.
    for info in TABLE.iter().filter(|i| i.status == Status::Removed) {
        assert!(golden_case(info).is_none(), "{}", info.id);
        let text = form_package::explain::explain(info.code);
        assert!(text.contains("removed"), "{text}");
    }
}

#[test]
fn every_code_has_a_complete_explanation() {
    for info in TABLE {
        let e = form_package::explain::explanation(info.code);
        for (section, text) in [
            ("checks", e.checks),
            ("why", e.why),
            ("failing", e.failing),
            ("passing", e.passing),
        ] {
            assert!(
                !text.trim().is_empty(),
                "{} has an empty {section} section",
                info.id
            );
        }
        assert_ne!(e.failing, e.passing, "{}", info.id);
        let text = form_package::explain::explain(info.code);
        for needle in [
            info.id,
            info.name,
            info.spec_ref,
            e.checks,
            e.why,
            e.failing,
            e.passing,
        ] {
            assert!(text.contains(needle), "{}: missing {needle:?}", info.id);
        }
        if !info.spec_code.is_empty() {
            assert!(text.contains(info.spec_code), "{}", info.id);
        }
        if let Some(help) = info.help {
            assert!(text.contains(help), "{}", info.id);
        }
    }
}

// ---------------------------------------------------------------- CLI

#[test]
fn cli_explain_by_id() {
    let o = run(&["explain", "FD213"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("FD213 open-object-schema\n"), "{text}");
    for needle in [
        "severity: error",
        "status: active",
        "verifier-rules.md §4.3",
        "PROOF_OBJECT_OPEN",
        "Failing example",
        "Passing example",
        "add \"additionalProperties\": false",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn cli_explain_by_name_matches_id() {
    let by_name = run(&["explain", "open-object-schema"]);
    let by_id = run(&["explain", "fd213"]);
    assert_eq!(by_name.status.code(), Some(0));
    assert_eq!(by_name.stdout, by_id.stdout);
}

#[test]
fn cli_explain_unknown_code_exits_2() {
    let o = run(&["explain", "FD999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("unknown diagnostic code \"FD999\""), "{err}");
}

#[test]
fn cli_rules_lists_every_code_aligned() {
    let o = run(&["rules"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), TABLE.len() + 1, "header + one line per code");
    assert!(lines[0].starts_with("ID"), "{}", lines[0]);
    let summary_col = lines[0].find("SUMMARY").unwrap();
    for (info, line) in TABLE.iter().zip(&lines[1..]) {
        assert!(line.starts_with(info.id), "{line}");
        assert!(line.contains(info.name), "{line}");
        assert_eq!(&line[summary_col..], info.summary, "{line}");
    }
    assert!(text.contains("FD418  role-bindings"));
    assert!(text.contains("removed"));
}

/// The near miss of the edits: each base package, re-indexed by the same
/// helper the golden cases and attempts use, verifies with no finding at all.
#[test]
fn base_packages_verify_clean_after_reindexing() {
    for src in [STORE, BUCKET, ACTOR, BUNDLE] {
        let p = Pkg::new(src);
        assert_eq!(p.codes(), vec![], "{src}");
        let before = std::fs::read(p.path("definition.json")).unwrap();
        p.def(|_| {});
        assert_eq!(p.codes(), vec![], "{src} after def() + reindex");
        let after: Value = p.json("definition.json");
        assert_eq!(after, serde_json::from_slice::<Value>(&before).unwrap());
    }
}

/// The examples of the proof codes are real: each `desiredSchema.properties.x
/// = {…}` failing example, added to the example store, fires its code, and
/// the passing example does not.
#[test]
fn desired_property_examples_fire_and_pass() {
    const AT: &str = "desiredSchema.properties.x = ";
    let mut checked = Vec::new();
    for info in TABLE {
        let e = form_package::explain::explanation(info.code);
        let (Some(fail), Some(pass)) = (e.failing.strip_prefix(AT), e.passing.strip_prefix(AT))
        else {
            continue;
        };
        let (Ok(fail), Ok(pass)) = (
            serde_json::from_str::<Value>(fail),
            serde_json::from_str::<Value>(pass),
        ) else {
            continue;
        };
        let got = Pkg::new(STORE).prop("x", fail).codes();
        assert!(
            got.contains(&info.code),
            "{} failing example: {got:?}",
            info.id
        );
        let got = Pkg::new(STORE).prop("x", pass).codes();
        assert!(
            !got.contains(&info.code),
            "{} passing example: {got:?}",
            info.id
        );
        checked.push(info.id);
    }
    assert!(checked.len() >= 15, "only {checked:?}");
}

//! `form-package conformance DIR`: the reference's own conformance suite
//! (`verifier-rules.md` §11.5; `conformance/form-package-v1`: 36 positive
//! packages, 51 negative cases), run through the checks `verify` uses.
//!
//! `DIR/manifest.json`: strict I-JSON, `schemaVersion` 1, non-empty
//! `positive` (`{name, path, kind}`) and `negative` (`{name, operation,
//! path | value, wantError}`) lists, names unique across both. A case
//! `path` is relative to DIR and never leaves it: it passes the package
//! path grammar (`verifier-rules.md` §1.5 R1.13: no `..`, no leading `/`,
//! no `\`, no `:`) and holds no NUL ([`case_path`]), and no component of it
//! is a symbolic link ([`crate::fsread::PackageRoot::first_link`], seen
//! from the suite directory held open). A manifest that is not this format,
//! or a case path that would leave DIR, is FD640 (a finding at the case's
//! `path`, located in the manifest) and exit 2: no case runs. A case file is
//! read through the fenced reader ([`crate::fsread::PackageRoot::read`]:
//! no link followed, a regular non-executable file of at most
//! `limits::JSON_BYTES`).
//!
//! - A positive case passes when [`crate::verify::verify_package`] finds no
//!   error and the report's FormRef `kind` equals the manifest's `kind`.
//! - A negative case passes when the check its `operation` names refuses it
//!   with an error whose code is the one [`gist_code`] gives for its
//!   `wantError` (the reference's message fragment) and whose message
//!   contains it (or, for an engine location, whose pointer is at or
//!   below it; [`gist_matches`]): `canonicalize` (strict
//!   I-JSON, RFC 8785), `content-policy` (strict I-JSON and the
//!   forbidden-name scan from `$`), `schema-policy` (the file as an inline
//!   schema: the `$ref` scan, the closed-object proof, the structural work
//!   estimate), `definition` (the Form Definition on its own, as `check`
//!   runs it), `package-path` (the path grammar on `value`).
//!
//! [`run`] returns a [`SuiteReport`]; `render::conformance` prints it (one
//! line per case and a summary, or one JSON document); exit 0 when every
//! case passes, 1 otherwise.

use crate::diag::escape::quote;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::fileread::{read_file, Reach};
use crate::fsread::PackageRoot;
use crate::json::pointer::JsonPointer;
use crate::json::strict;
use crate::limits::JSON_BYTES;
use crate::report::{Entry, EntryKind, ExitRule, Report};

/// The reference's message gists and the code of ours that corresponds to
/// each. A refusal matches a gist only when one error has that code AND a
/// message containing the gist (our messages for these causes keep the
/// reference's words), so two gists that share a code (FD012 covers
/// duplicate names, `-0`, surrogates…) are not interchangeable
/// (`verifier-rules.md` §11.5: "the error must exist and contain
/// `wantError`"; N1 findings §3.0). [`gist_code`] also maps the
/// engine-location gists (`at '/…'`) to the definition schema code,
/// matched by the finding's JSON Pointer ([`gist_matches`]).
pub const GISTS: &[(&str, Code)] = &[
    // canonicalize: strict I-JSON (verifier-rules.md §2.1)
    ("duplicate object name", Code::InvalidIJson),
    ("unpaired high surrogate", Code::InvalidIJson),
    ("unpaired low surrogate", Code::InvalidIJson),
    ("negative zero", Code::InvalidIJson),
    ("invalid UTF-8", Code::InvalidUtf8),
    // content-policy: the name scan (§6)
    ("forbidden field", Code::ForbiddenPayloadField),
    // schema-policy: the proof (§4, §5)
    ("boolean true", Code::TrueSchema),
    ("arbitrary object", Code::OpenSchema),
    ("without explicit type=object", Code::ImplicitObjectKeywords),
    ("must declare items", Code::ArrayWithoutItems),
    ("must set additionalProperties", Code::OpenObjectSchema),
    ("patternProperties is forbidden", Code::PatternProperties),
    ("document-local fragment", Code::NonLocalRef),
    ("dynamic resolution", Code::DynamicRef),
    ("cyclic schema references", Code::CyclicRef),
    // package-path: the path grammar (§1.5)
    ("traversal", Code::InvalidPayloadPath),
    ("absolute", Code::InvalidPayloadPath),
    ("backslash", Code::InvalidPayloadPath),
    // definition: legacy interface rules (§3.6) and the schema (§3)
    ("is a literal without a value", Code::InterfaceInputRule),
    ("must not carry a pointer", Code::InterfaceInputRule),
    ("carries a value with source", Code::InterfaceInputRule),
    ("duplicate input", Code::InterfaceInputRule),
    (
        "does not satisfy documentSchema",
        Code::InterfaceDocumentViolation,
    ),
    (
        "does not satisfy Draft 2020-12 schema",
        Code::DefinitionSchemaViolation,
    ),
];

/// The code a `wantError` gist corresponds to: the [`GISTS`] table, or for
/// a gist naming an engine location (`at '/interfaces/0/…'`), the
/// definition schema code. `None` for a gist the runner does not know.
pub fn gist_code(gist: &str) -> Option<Code> {
    if let Some((_, c)) = GISTS.iter().find(|(g, _)| *g == gist) {
        return Some(*c);
    }
    gist.starts_with("at '/")
        .then_some(Code::DefinitionSchemaViolation)
}

/// One error a check found: its code, message and JSON Pointer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The finding's code.
    pub code: Code,
    /// Its message.
    pub message: String,
    /// Its JSON Pointer (RFC 6901 string; empty for the document).
    pub pointer: String,
}

/// Whether `refusal` is the refusal the gist names: its code is the
/// gist's in [`GISTS`] and its message contains the gist, or for an
/// engine-location gist `at '/P'…` (whose wording is the Go engine's, not
/// ours) its code is the definition schema code and its JSON Pointer is
/// `/P` or below it. `false` for a gist the runner does not know.
pub fn gist_matches(gist: &str, refusal: &Refusal) -> bool {
    if let Some((_, code)) = GISTS.iter().find(|(g, _)| *g == gist) {
        return refusal.code == *code && refusal.message.contains(gist);
    }
    let Some(location) = gist
        .strip_prefix("at '")
        .and_then(|rest| rest.split('\'').next())
        .filter(|l| l.starts_with('/'))
    else {
        return false;
    };
    refusal.code == Code::DefinitionSchemaViolation
        && (refusal.pointer == location
            || refusal
                .pointer
                .strip_prefix(location)
                .is_some_and(|rest| rest.starts_with('/')))
}

/// The operations a negative case may name.
pub const OPERATIONS: &[&str] = &[
    "canonicalize",
    "content-policy",
    "schema-policy",
    "definition",
    "package-path",
];

/// One case's result.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CaseResult {
    /// The manifest's name.
    pub name: String,
    /// `positive` or `negative`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The negative case's operation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// Whether the case passed.
    pub passed: bool,
    /// Positive: the FormRef kind wanted; negative: the code wanted (`FDnnn`).
    pub want: String,
    /// Positive: the kind found (if verified); negative: the error codes found.
    pub got: Vec<String>,
    /// Why it failed (empty when it passed).
    pub detail: String,
}

#[derive(Debug)]
struct Negative {
    name: String,
    operation: String,
    path: Option<String>,
    /// The JSON Pointer of its `path` member in the manifest.
    at: JsonPointer,
    value: Option<String>,
    want_error: String,
}

#[derive(Debug)]
struct Positive {
    name: String,
    path: String,
    /// The JSON Pointer of its `path` member in the manifest.
    at: JsonPointer,
    kind: String,
}

/// The grammar of a case `path` in the manifest: the package path grammar
/// ([`crate::fsread::path_grammar`], `verifier-rules.md` §1.5 R1.13:
/// relative, canonical, no `..`, no `\`, no `:`, 1..240 bytes) and no NUL
/// (`NUL bytes are forbidden`), so a case never names a file outside the
/// suite directory. `Err` is the reason, as the grammar words it.
pub fn case_path(path: &str) -> Result<(), &'static str> {
    if path.contains('\0') {
        return Err("NUL bytes are forbidden");
    }
    crate::fsread::path_grammar(path)
}

fn manifest_error(msg: impl Into<String>, ptr: JsonPointer) -> Diagnostic {
    Diagnostic::new(Code::ConformanceManifest, msg)
        .in_file("manifest.json")
        .at(ptr)
}

/// Reads and checks `manifest.json`.
fn read_manifest(value: &Value) -> Result<(Vec<Positive>, Vec<Negative>), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let root = JsonPointer::root();
    if value.get("schemaVersion").and_then(Value::as_u64) != Some(1) {
        diags.push(manifest_error(
            "conformance manifest schemaVersion must be 1",
            root.child("schemaVersion"),
        ));
    }
    let mut names = BTreeSet::new();
    let mut positives = Vec::new();
    let mut negatives = Vec::new();
    let string = |o: &Value, k: &str| o.get(k).and_then(Value::as_str).map(str::to_owned);
    for list in ["positive", "negative"] {
        let at = root.child(list);
        let Some(items) = value
            .get(list)
            .and_then(Value::as_array)
            .filter(|a| !a.is_empty())
        else {
            diags.push(manifest_error(
                format!("conformance manifest needs a non-empty {list} list"),
                at,
            ));
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let at = at.index(i);
            let Some(name) = string(item, "name").filter(|n| !n.is_empty()) else {
                diags.push(manifest_error("case needs a name", at.child("name")));
                continue;
            };
            if !names.insert(name.clone()) {
                diags.push(manifest_error(
                    format!("duplicate case name {}", quote(&name)),
                    at.child("name"),
                ));
            }
            let path = string(item, "path");
            if let Some(p) = &path {
                if let Err(reason) = case_path(p) {
                    diags.push(manifest_error(
                        format!("case {} path: {reason}", quote(&name)),
                        at.child("path"),
                    ));
                    continue;
                }
            }
            if list == "positive" {
                match (path, string(item, "kind")) {
                    (Some(path), Some(kind)) => positives.push(Positive {
                        name,
                        path,
                        at: at.child("path"),
                        kind,
                    }),
                    _ => diags.push(manifest_error(
                        format!("positive case {} needs path and kind", quote(&name)),
                        at,
                    )),
                }
                continue;
            }
            let operation = string(item, "operation").unwrap_or_default();
            if !OPERATIONS.contains(&operation.as_str()) {
                diags.push(manifest_error(
                    format!(
                        "negative case {} has unknown operation {}",
                        quote(&name),
                        quote(&operation)
                    ),
                    at.child("operation"),
                ));
                continue;
            }
            let value_member = string(item, "value");
            let Some(want_error) = string(item, "wantError").filter(|w| !w.is_empty()) else {
                diags.push(manifest_error(
                    format!("negative case {} needs wantError", quote(&name)),
                    at.child("wantError"),
                ));
                continue;
            };
            let needs_value = operation == "package-path";
            if (needs_value && value_member.is_none()) || (!needs_value && path.is_none()) {
                diags.push(manifest_error(
                    format!(
                        "negative case {} needs {}",
                        quote(&name),
                        if needs_value { "value" } else { "path" }
                    ),
                    at,
                ));
                continue;
            }
            negatives.push(Negative {
                name,
                operation,
                path,
                at: at.child("path"),
                value: value_member,
                want_error,
            });
        }
    }
    if diags.is_empty() {
        Ok((positives, negatives))
    } else {
        Err(diags)
    }
}

fn error_codes(diags: &[Diagnostic]) -> Vec<Code> {
    let mut codes: Vec<Code> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    codes.sort_unstable();
    codes.dedup();
    codes
}

/// The errors among `diags`, as [`Refusal`]s.
fn refusals(diags: &[Diagnostic]) -> Vec<Refusal> {
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| Refusal {
            code: d.code,
            message: d.message.clone(),
            pointer: d.pointer.as_str().to_owned(),
        })
        .collect()
}

/// The errors the check `operation` finds in the case, its file read from
/// the suite directory held as `root` (the fenced reader: no link
/// followed).
fn run_operation(root: &PackageRoot, case: &Negative) -> Result<Vec<Refusal>, String> {
    if case.operation == "package-path" {
        let value = case.value.as_deref().unwrap_or_default();
        return Ok(match crate::fsread::path_grammar(value) {
            Ok(()) => Vec::new(),
            Err(why) => vec![Refusal {
                code: Code::InvalidPayloadPath,
                message: why.to_owned(),
                pointer: String::new(),
            }],
        });
    }
    let rel = case.path.as_deref().unwrap_or_default();
    let bytes = root.read(rel, JSON_BYTES, None).map_err(|d| d.message)?;
    let value = match strict::parse_value(&bytes) {
        Ok(v) => v,
        Err(e) => return Ok(refusals(&[e.to_diagnostic()])),
    };
    let diags = match case.operation.as_str() {
        "canonicalize" => crate::canonical::canonicalize(&value)
            .err()
            .into_iter()
            .collect(),
        "content-policy" => crate::vocabulary::scan_document(
            &value,
            Code::ForbiddenPayloadField,
            &crate::vocabulary::ScanOptions::payload_scan(&Value::Null, false),
        ),
        "schema-policy" => {
            crate::proof::prove_inline_schema(
                &JsonPointer::root().child("desiredSchema"),
                &value,
                &crate::checks::proof_name_policy,
            )
            .diagnostics
        }
        _ => {
            let checked = crate::document::check_document(rel, bytes, None)?;
            checked.outcome.diagnostics
        }
    };
    Ok(refusals(&diags))
}

/// What `conformance DIR` found ([`run`]): the suite and what became of
/// it. The command prints it with `render::conformance`.
#[derive(Debug)]
pub struct SuiteReport {
    /// The suite directory as given (`suite` in `--format json`).
    pub suite: PathBuf,
    /// The cases' results, or why none ran.
    pub result: SuiteResult,
}

/// What became of a suite.
#[derive(Debug)]
pub enum SuiteResult {
    /// Every case ran: positives, then negatives, each in manifest order.
    Ran(Vec<CaseResult>),
    /// `manifest.json` is not the reference's format (exit 2): the report
    /// of the manifest ([`SuiteResult::refused`]).
    Refused(Report),
    /// `manifest.json` cannot be read (exit 2): the message, `read PATH: cause`.
    Unreadable(String),
}

impl SuiteReport {
    /// The exit status: 0 when every case passed, 1 when one failed, 2
    /// when no case ran (a refused or unreadable manifest).
    pub fn exit_code(&self) -> u8 {
        match &self.result {
            SuiteResult::Ran(cases) => u8::from(cases.iter().any(|c| !c.passed)),
            SuiteResult::Refused(report) => report.exit_code(),
            SuiteResult::Unreadable(_) => 2,
        }
    }
}

impl SuiteResult {
    /// A refused manifest as a report built complete: one
    /// [`EntryKind::Document`] entry named `<dir>/manifest.json`, its
    /// findings (`diagnostics`, their files relative to the suite
    /// directory `dir`: `manifest.json`) and the manifest's bytes and spans
    /// (`manifest`), so each finding is located
    /// (`<dir>/manifest.json:line:column`) in every format as `verify`'s
    /// are; [`Report::could_not_read`] set: no case ran (exit 2).
    pub fn refused(dir: &Path, diagnostics: Vec<Diagnostic>, manifest: &[u8]) -> Self {
        let source = crate::verify::Source {
            spans: strict::parse(manifest).ok().map(|p| p.spans),
            bytes: manifest.to_vec(),
        };
        let outcome = crate::verify::PackageOutcome {
            path: dir.to_path_buf(),
            diagnostics,
            sources: std::collections::BTreeMap::from([("manifest.json".to_owned(), source)]),
            ..Default::default()
        };
        let entry = Entry::new(EntryKind::Document, outcome).named(dir.join("manifest.json"));
        let mut report = Report::new(vec![entry], ExitRule::default());
        report.could_not_read = true;
        SuiteResult::Refused(report)
    }
}

/// `conformance DIR`: runs every case of the suite in `dir` (the module
/// doc says how each passes). Never fails: a manifest that cannot be read
/// or is not the reference's format is the report's [`SuiteResult`].
pub fn run(dir: &Path) -> SuiteReport {
    let result = match run_suite(dir) {
        Ok(cases) => SuiteResult::Ran(cases),
        Err(why) => why,
    };
    SuiteReport {
        suite: dir.to_path_buf(),
        result,
    }
}

/// Runs every case of the suite in `dir`. Its `manifest.json` is found,
/// not named: read by [`crate::fileread`] never through a link, a regular
/// file of at most `limits::JSON_BYTES`. The directory is then held open
/// (the user's own link to it followed) and every case path is seen from
/// it: one that goes through a symbolic link refuses the manifest (FD640 at
/// that `path`) before any case runs; case files are read by the fenced
/// reader, packages verified at the path under the held directory. `Err`
/// is a manifest or directory that cannot be read
/// ([`SuiteResult::Unreadable`]) or a manifest that is not the reference's
/// format ([`SuiteResult::Refused`]).
fn run_suite(dir: &Path) -> Result<Vec<CaseResult>, SuiteResult> {
    let path = dir.join("manifest.json");
    let bytes = read_file(&path, Reach::Found, JSON_BYTES)
        .map_err(|e| SuiteResult::Unreadable(format!("read {}: {e}", path.display())))?;
    let refused = |diagnostics: Vec<Diagnostic>, manifest: &[u8]| {
        SuiteResult::refused(dir, diagnostics, manifest)
    };
    let value = strict::parse_value(&bytes)
        .map_err(|e| refused(vec![e.to_diagnostic().in_file("manifest.json")], &bytes))?;
    let (positives, negatives) = read_manifest(&value).map_err(|d| refused(d, &bytes))?;
    // The suite directory the user named (a link to it followed, as a
    // named path is), held open: every case path is seen from it.
    let root = std::fs::canonicalize(dir)
        .map_err(|e| e.to_string())
        .and_then(|real| crate::fsread::open_root(&real).map_err(|d| d.message))
        .map_err(|why| SuiteResult::Unreadable(format!("open {}: {why}", dir.display())))?;
    let case_paths = positives.iter().map(|p| (&p.name, &p.path, &p.at)).chain(
        negatives
            .iter()
            .filter(|n| n.operation != "package-path")
            .filter_map(|n| n.path.as_ref().map(|path| (&n.name, path, &n.at))),
    );
    let through_links: Vec<Diagnostic> = case_paths
        .filter_map(|(name, path, at)| {
            let link = root.first_link(path)?;
            Some(manifest_error(
                format!("case {} path: {} is a symbolic link, never followed (it may lead outside the suite)", quote(name), quote(&link)),
                at.clone(),
            ))
        })
        .collect();
    if !through_links.is_empty() {
        return Err(refused(through_links, &bytes));
    }
    let mut results = Vec::new();
    for p in positives {
        let outcome = crate::verify::verify_package(&root.path().join(&p.path));
        let found = outcome
            .report
            .as_ref()
            .and_then(|r| r.form_ref.get("kind"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let errors = error_codes(&outcome.diagnostics);
        let (passed, detail) = match (&found, errors.is_empty()) {
            (Some(k), true) if *k == p.kind => (true, String::new()),
            (Some(k), true) => (false, format!("verified, but its kind is {}", quote(k))),
            _ => (
                false,
                format!(
                    "refused: {}",
                    outcome
                        .diagnostics
                        .iter()
                        .find(|d| d.is_error())
                        .map(|d| format!("{} {}", d.code.info().id, d.message))
                        .unwrap_or_default()
                ),
            ),
        };
        results.push(CaseResult {
            name: p.name,
            kind: "positive",
            operation: None,
            passed,
            want: p.kind,
            got: if errors.is_empty() {
                found.into_iter().collect()
            } else {
                errors.iter().map(|c| c.info().id.to_owned()).collect()
            },
            detail,
        });
    }
    for n in negatives {
        let want = gist_code(&n.want_error);
        let (got, detail) = match run_operation(&root, &n) {
            Ok(found) => {
                let mut codes: Vec<Code> = found.iter().map(|r| r.code).collect();
                codes.sort_unstable();
                codes.dedup();
                let detail = match want {
                    None => format!("no code corresponds to the gist {}", quote(&n.want_error)),
                    Some(_) if found.iter().any(|r| gist_matches(&n.want_error, r)) => {
                        String::new()
                    }
                    Some(_) if found.is_empty() => "accepted".to_owned(),
                    Some(w) => {
                        let why = if codes.contains(&w) {
                            format!("refused, but not for {}", quote(&n.want_error))
                        } else {
                            "refused by another check".to_owned()
                        };
                        let messages: Vec<String> = found
                            .iter()
                            .map(|r| format!("{} {}", r.code.info().id, r.message))
                            .collect();
                        format!("{why} ({})", messages.join("; "))
                    }
                };
                (codes, detail)
            }
            Err(e) => (Vec::new(), e),
        };
        results.push(CaseResult {
            name: n.name,
            kind: "negative",
            operation: Some(n.operation),
            passed: detail.is_empty(),
            want: want.map_or_else(|| "?".to_owned(), |c| c.info().id.to_owned()),
            got: got.iter().map(|c| c.info().id.to_owned()).collect(),
            detail,
        });
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_gist_maps_to_one_code() {
        assert_eq!(
            gist_code("forbidden field"),
            Some(Code::ForbiddenPayloadField)
        );
        assert_eq!(gist_code("boolean true"), Some(Code::TrueSchema));
        assert_eq!(gist_code("traversal"), Some(Code::InvalidPayloadPath));
        assert_eq!(
            gist_code("at '/interfaces/0/inputs/0/pointer'"),
            Some(Code::DefinitionSchemaViolation)
        );
        assert_eq!(
            gist_code("does not satisfy documentSchema"),
            Some(Code::InterfaceDocumentViolation)
        );
        // Near miss: a gist the runner does not know has no code.
        assert_eq!(gist_code("something else"), None);
        let mut gists: Vec<&str> = GISTS.iter().map(|(g, _)| *g).collect();
        let n = gists.len();
        gists.sort_unstable();
        gists.dedup();
        assert_eq!(gists.len(), n, "each gist once");
    }

    #[test]
    fn a_gist_matches_its_cause_not_only_its_code() {
        let r = |code, message: &str, pointer: &str| Refusal {
            code,
            message: message.to_owned(),
            pointer: pointer.to_owned(),
        };
        let dup = r(Code::InvalidIJson, "duplicate object name \"a\"", "/a");
        assert!(gist_matches("duplicate object name", &dup));
        // Same code, another cause: no match.
        assert!(!gist_matches("unpaired high surrogate", &dup));
        assert!(!gist_matches("negative zero", &dup));
        // The gist's words under another code: no match.
        let other = r(Code::ForbiddenPayloadField, "duplicate object name", "");
        assert!(!gist_matches("duplicate object name", &other));
        // Engine locations: at or below the pointer, not a sibling.
        let at = r(
            Code::DefinitionSchemaViolation,
            "does not satisfy Draft 2020-12 schema",
            "/interfaces/0/inputs/0/pointer",
        );
        assert!(gist_matches("at '/interfaces/0/inputs/0/pointer'", &at));
        assert!(gist_matches("at '/interfaces/0/inputs/0': 'x' failed", &at));
        assert!(!gist_matches(
            "at '/interfaces/0/inputs/0/source': 'anyOf' failed",
            &at
        ));
        assert!(!gist_matches("at '/interfaces/0/inputs/0/poin'", &at));
        assert!(!gist_matches("something else", &at));
    }

    #[test]
    fn a_case_path_is_the_package_path_grammar_without_nul() {
        assert_eq!(case_path("a\0b.json"), Err("NUL bytes are forbidden"));
        assert_eq!(
            case_path("../x.json"),
            Err("path traversal and non-canonical paths are forbidden")
        );
        assert_eq!(
            case_path("/etc/passwd"),
            Err("absolute paths are forbidden")
        );
        assert_eq!(case_path("a\\b"), Err("backslash paths are forbidden"));
        // Near miss: a nested relative path.
        assert_eq!(case_path("negative/nested/x.json"), Ok(()));
    }

    #[test]
    fn manifest_format_is_checked() {
        let v: Value = serde_json::from_str(
            r#"{"schemaVersion":2,"positive":[{"name":"a","path":"../x","kind":"K"}],"negative":[{"name":"a","operation":"zap","path":"n.json","wantError":"x"}]}"#,
        )
        .unwrap();
        let e = read_manifest(&v).unwrap_err();
        let msgs: Vec<&str> = e.iter().map(|d| d.message.as_str()).collect();
        assert!(msgs.iter().any(|m| m.contains("schemaVersion")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("path")), "{msgs:?}");
        assert!(
            msgs.iter().any(|m| m.contains("unknown operation")),
            "{msgs:?}"
        );
        assert!(e.iter().all(|d| d.code == Code::ConformanceManifest));
    }
}

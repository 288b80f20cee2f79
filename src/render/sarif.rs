//! `--format sarif`: the whole run as one SARIF 2.1.0 log (OASIS SARIF
//! v2.1.0; validated in `tests/commands/formats.rs` against the official schema
//! shipped in `tests/sarif/`, and against GitHub code scanning's documented
//! upload limits and required properties). The log is built from typed
//! structs ([`Log`], [`Run`], [`ReportingDescriptor`], [`SarifResult`], …)
//! and serialized with serde.
//!
//! Shape: one `run` whose `tool.driver` is `form-package` at the crate
//! version, with one `reportingDescriptor` per code that occurs (sorted by
//! id): `id` = `FD213`, `name` = the kebab name, `shortDescription` = the
//! code's summary, `fullDescription` = what it checks (`explain`), `help` =
//! the `explain` text and the same as Markdown (no `helpUri`: the project
//! has no published URL, and the help is all in the rule),
//! `defaultConfiguration.level` = its default severity. One `result` per
//! diagnostic, packages in the order given, diagnostics in their sorted
//! order:
//!
//! - `ruleId` / `ruleIndex`, `level` (`error` | `warning` | `note`),
//!   `message.text` = the diagnostic message;
//! - one `location` whose `physicalLocation.artifactLocation` is `{uri,
//!   uriBaseId: "%SRCROOT%"}`: `uri` is the finding's file (the package path
//!   joined with its file; for a finding about the package directory, the
//!   package's `package-index.json`) relative to the SARIF root
//!   (`--sarif-root DIR`, default the working directory), `/` separators,
//!   percent-encoded, `..` segments when the file is outside the root; never
//!   an absolute path. `run.originalUriBaseIds["%SRCROOT%"]` names the root
//!   only by description (the consumer, e.g. GitHub, supplies it).
//! - a `region` on every result: 1-based `startLine`/`startColumn` and
//!   `endLine`/`endColumn` just past the span when the span resolves
//!   (columns in Unicode code points: `run.columnKind` is
//!   `unicodeCodePoints`, the same numbers as every other format), else
//!   `startLine: 1` (a finding about a whole file or a directory);
//! - one `logicalLocation` whose `fullyQualifiedName` is the JSON Pointer
//!   (`kind` `value`, or `property` when the finding is about the member name);
//! - `partialFingerprints["formPackage/v1"]`: 32 hex digits of SHA-256 over
//!   (ruleId, uri, pointer, target, message): stable across runs and
//!   machines for the same finding;
//! - `properties`: `package` (the path as given), `file` (or null),
//!   `pointer`, `specCode`, and `help` / `notes` when present.
//!
//! GitHub code scanning rejects a run with more than 25,000 results
//! ([`GITHUB_MAX_RESULTS`]): the log still holds every result, and then says
//! so in a `toolExecutionNotification` of the run's invocation.
//!
//! The directories the walk skipped by a rule (hidden, `.gitignore`,
//! `exclude`; [`RunView::skipped`]) are listed in
//! `invocations[0].properties.skippedDirectories` (`[{"path", "rule"}]`)
//! and counted by a `note` notification of the invocation, so a host that
//! reads only this log knows a directory was not verified; a run that
//! skipped none has neither.

use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};

use serde::Serialize;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use super::{Located, Options, RunView};
use crate::codes::Code;
use crate::diag::{Severity, Target};

/// The SARIF version written.
pub const SARIF_VERSION: &str = "2.1.0";
/// The `$schema` URI written: the `$id` of the OASIS SARIF TC's 2.1.0
/// schema (the one shipped in `tests/sarif/`).
pub const SARIF_SCHEMA_URI: &str =
    "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json";
/// The base id every artifact URI is relative to.
pub const SRCROOT: &str = "%SRCROOT%";
/// The `partialFingerprints` key.
pub const FINGERPRINT_KEY: &str = "formPackage/v1";
/// GitHub code scanning rejects a run with more results than this.
pub const GITHUB_MAX_RESULTS: usize = 25_000;

/// SARIF `level` of a severity (`error`, `warning`, `note`).
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// The SARIF log (§3.13).
#[derive(Serialize)]
pub struct Log<'r, 'a> {
    /// [`SARIF_SCHEMA_URI`].
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    /// [`SARIF_VERSION`].
    pub version: &'static str,
    /// Exactly one run.
    pub runs: Vec<Run<'r, 'a>>,
}

/// One run (§3.14).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run<'r, 'a> {
    /// The tool.
    pub tool: Tool,
    /// `%SRCROOT%`, described but without a machine path.
    pub original_uri_base_ids: BTreeMap<&'static str, BaseId>,
    /// Always `unicodeCodePoints`.
    pub column_kind: &'static str,
    /// One invocation; carries notifications (e.g. past GitHub's limits).
    pub invocations: Vec<Invocation>,
    /// One result per finding, built while it is written.
    pub results: Results<'r, 'a>,
    /// The property bag: every entry's
    /// [`crate::verify::PackageOutcome::summary`]'s members (an advance's `pin`).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub properties: serde_json::Map<String, serde_json::Value>,
}

/// The results of a run, serialized one at a time straight from the
/// located run (never all held as [`SarifResult`]s at once: 80,000 findings
/// would hold hundreds of megabytes).
pub struct Results<'r, 'a> {
    run: &'r RunView<'a>,
    opts: &'r Options,
    rule_index: HashMap<Code, usize>,
}

impl Serialize for Results<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.run.findings().map(|(p, f)| {
            let index = self
                .rule_index
                .get(&f.diag.code)
                .copied()
                .unwrap_or_default();
            result(p.path(), f, index, self.opts)
        }))
    }
}

/// `tool` (§3.18).
#[derive(Serialize)]
pub struct Tool {
    /// The driver.
    pub driver: Driver,
}

/// `tool.driver` (§3.19).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Driver {
    /// `form-package`.
    pub name: &'static str,
    /// The crate version.
    pub version: &'static str,
    /// Same as `version`, for consumers that read it.
    pub semantic_version: &'static str,
    /// One per occurring code, in id order.
    pub rules: Vec<ReportingDescriptor>,
}

/// An `originalUriBaseIds` entry (an artifactLocation without `uri`).
#[derive(Serialize)]
pub struct BaseId {
    /// What the base is.
    pub description: Text,
}

/// `invocation` (§3.20).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Invocation {
    /// False when the command could not run.
    pub execution_successful: bool,
    /// Notes about the run itself.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_execution_notifications: Vec<Notification>,
    /// `{"configuration": "<file in force>"}` when a configuration file was
    /// read ([`RunView::config`]); `"skippedDirectories": [{"path", "rule"}]`
    /// when the walk skipped directories by a rule ([`RunView::skipped`]).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub properties: serde_json::Map<String, serde_json::Value>,
}

/// `notification` (§3.58).
#[derive(Serialize)]
pub struct Notification {
    /// `error`, `warning` or `note`.
    pub level: &'static str,
    /// What happened.
    pub message: Text,
}

/// `{ "text": … }`.
#[derive(Serialize)]
pub struct Text {
    /// Plain text.
    pub text: String,
}

/// `{ "text": …, "markdown": … }` (§3.12).
#[derive(Serialize)]
pub struct MultiformatText {
    /// Plain text.
    pub text: String,
    /// GitHub-flavoured Markdown.
    pub markdown: String,
}

/// A rule (§3.49).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportingDescriptor {
    /// `FD213`.
    pub id: &'static str,
    /// `open-object-schema`.
    pub name: &'static str,
    /// The code's one-line summary.
    pub short_description: Text,
    /// What the rule checks (`explain`).
    pub full_description: Text,
    /// The `explain` text, and as Markdown.
    pub help: MultiformatText,
    /// The default level.
    pub default_configuration: Configuration,
    /// `specCode`, `specRef`, `tags`, `precision`.
    pub properties: Value,
}

/// `reportingConfiguration` (§3.50).
#[derive(Serialize)]
pub struct Configuration {
    /// `error`, `warning` or `note`.
    pub level: &'static str,
}

/// A result (§3.27).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    /// `FD213`.
    pub rule_id: &'static str,
    /// Index into `tool.driver.rules`.
    pub rule_index: usize,
    /// `error`, `warning` or `note`.
    pub level: &'static str,
    /// The diagnostic message.
    pub message: Text,
    /// Exactly one location.
    pub locations: Vec<Location>,
    /// [`FINGERPRINT_KEY`] → 32 hex digits.
    pub partial_fingerprints: BTreeMap<&'static str, String>,
    /// `package`, `file`, `pointer`, `specCode`, `help`, `notes`.
    pub properties: Map<String, Value>,
}

/// `location` (§3.28).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// File and region.
    pub physical_location: PhysicalLocation,
    /// The JSON Pointer.
    pub logical_locations: Vec<LogicalLocation>,
}

/// `physicalLocation` (§3.29).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    /// The file, relative to `%SRCROOT%`.
    pub artifact_location: ArtifactLocation,
    /// Always present (`startLine` 1 at least).
    pub region: Region,
}

/// `artifactLocation` (§3.4).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactLocation {
    /// A relative URI reference.
    pub uri: String,
    /// [`SRCROOT`].
    pub uri_base_id: &'static str,
}

/// `region` (§3.30), lines and code-point columns, 1-based.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    /// First line.
    pub start_line: usize,
    /// First column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_column: Option<usize>,
    /// Last line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    /// Column just past the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_column: Option<usize>,
}

/// `logicalLocation` (§3.33).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogicalLocation {
    /// The JSON Pointer.
    pub fully_qualified_name: String,
    /// `value` or `property`.
    pub kind: &'static str,
}

/// Turns a file-system path (relative) into a SARIF URI reference (RFC
/// 3986 §4.1): `\` becomes `/`, and every byte outside the unreserved set,
/// `/` and the sub-delimiters other than `,` is percent-encoded (`:` too, so
/// a relative path never reads as a scheme).
/// `"pkg dir/a.json"` → `"pkg%20dir/a.json"`.
pub fn path_to_uri(path: &str) -> String {
    /// Every byte but the unreserved set, `/`, `@` and the sub-delimiters
    /// other than `,`.
    const ESCAPED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~')
        .remove(b'/')
        .remove(b'!')
        .remove(b'$')
        .remove(b'&')
        .remove(b'\'')
        .remove(b'(')
        .remove(b')')
        .remove(b'*')
        .remove(b'+')
        .remove(b';')
        .remove(b'=')
        .remove(b'@');
    percent_encoding::utf8_percent_encode(&path.replace('\\', "/"), ESCAPED).to_string()
}

/// `path` without `.` segments and with `..` applied (lexically; links are
/// not resolved, so the URI names the path as the user wrote it).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `path` relative to `root` (both made absolute against `cwd`, then
/// normalized): `..` segments when `path` is outside `root`. Never absolute.
/// When the names alone put `path` outside `root`, their real paths
/// (symlinks resolved) are compared too: a working directory reached
/// through a symlink (`$PWD/pkg` against the canonical working directory)
/// still gives `pkg/…` (T2 F4).
pub fn relative_to(path: &Path, root: &Path, cwd: &Path) -> PathBuf {
    let lexical = lexical_relative(path, root, cwd);
    if lexical.starts_with("..") {
        if let (Ok(p), Ok(r)) = (
            std::fs::canonicalize(cwd.join(path)),
            std::fs::canonicalize(cwd.join(root)),
        ) {
            let real = lexical_relative(&p, &r, cwd);
            if !real.starts_with("..") {
                return real;
            }
        }
    }
    lexical
}

fn lexical_relative(path: &Path, root: &Path, cwd: &Path) -> PathBuf {
    let path = normalize(&cwd.join(path));
    let root = normalize(&cwd.join(root));
    let p: Vec<Component> = path.components().collect();
    let r: Vec<Component> = root.components().collect();
    let common = p.iter().zip(&r).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..r.len() {
        out.push("..");
    }
    for c in p.iter().skip(common) {
        out.push(c.as_os_str());
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// The URI of a finding's artifact, relative to the SARIF root: the package
/// path joined with `file`, or the package's `package-index.json` for a
/// finding about the package directory.
pub fn artifact_uri(package: &Path, file: Option<&str>, opts: &Options) -> String {
    let joined = package.join(file.unwrap_or(crate::verify::INDEX_FILE));
    let rel = relative_to(&joined, &opts.sarif_root, &opts.cwd);
    let text: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    path_to_uri(&text.join("/"))
}

/// The stable fingerprint of a result (see the module docs).
pub fn fingerprint(
    rule_id: &str,
    uri: &str,
    pointer: &str,
    target: Target,
    message: &str,
) -> String {
    let mut h = Sha256::new();
    for part in [rule_id, uri, pointer, target_kind(target), message] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    h.finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn target_kind(t: Target) -> &'static str {
    match t {
        Target::Value => "value",
        Target::Key => "property",
    }
}

/// The Markdown help of a rule: what it checks, why, a failing and a
/// passing example, the fix and the spec section (the `explain` sections).
pub fn help_markdown(code: Code) -> String {
    let i = code.info();
    let e = crate::explain::explanation(code);
    let mut md = format!(
        "**{} {}** ({})\n\n{}\n\n**Why:** {}\n\nFails:\n\n```text\n{}\n```\n\nPasses:\n\n```text\n{}\n```\n",
        i.id,
        i.name,
        level(i.severity),
        e.checks,
        e.why,
        e.failing,
        e.passing
    );
    if let Some(h) = i.help {
        md.push_str(&format!("\n**Fix:** {h}\n"));
    }
    md.push_str(&format!("\nSpec: {}\n", i.spec_ref));
    md
}

/// The reporting descriptor of one code.
pub fn rule(code: Code) -> ReportingDescriptor {
    let info = code.info();
    ReportingDescriptor {
        id: info.id,
        name: info.name,
        short_description: Text {
            text: info.summary.to_owned(),
        },
        full_description: Text {
            text: crate::explain::explanation(code).checks.to_owned(),
        },
        help: MultiformatText {
            text: crate::explain::explain(code),
            markdown: help_markdown(code),
        },
        default_configuration: Configuration {
            level: level(info.severity),
        },
        properties: json!({
            "specCode": info.spec_code,
            "specRef": info.spec_ref,
            "tags": ["form-package", level(info.severity)],
            "precision": "very-high",
        }),
    }
}

fn result(package: &Path, f: &Located<'_>, rule_index: usize, opts: &Options) -> SarifResult {
    let d = f.diag;
    let info = d.code.info();
    // A walk finding (a PATH that does not exist, a directory that cannot
    // be read or is a link) is about that path itself: it has no
    // `package-index.json` to point at (T3 C4).
    let uri = match (&d.file, d.code) {
        (None, Code::PathNotFound | Code::UnreadableDirectory | Code::SymlinkedDirectory) => {
            artifact_uri(package, Some(""), opts)
        }
        (file, _) => artifact_uri(package, file.as_deref(), opts),
    };
    let region = match (&d.file, f.start, f.end) {
        (Some(_), Some(s), Some(e)) => Region {
            start_line: s.line,
            start_column: Some(s.column),
            end_line: Some(e.line),
            end_column: Some(e.column),
        },
        _ => Region {
            start_line: 1,
            start_column: None,
            end_line: None,
            end_column: None,
        },
    };
    let mut props = Map::new();
    props.insert("package".into(), json!(package.display().to_string()));
    props.insert("file".into(), json!(d.file));
    props.insert("pointer".into(), json!(d.pointer.as_str()));
    props.insert("specCode".into(), json!(info.spec_code));
    if let Some(h) = &d.help {
        props.insert("help".into(), json!(h));
    }
    if !d.notes.is_empty() {
        props.insert("notes".into(), json!(d.notes));
    }
    let fp = fingerprint(info.id, &uri, d.pointer.as_str(), d.target, &d.message);
    SarifResult {
        rule_id: info.id,
        rule_index,
        level: level(d.severity),
        message: Text {
            text: d.message.clone(),
        },
        locations: vec![Location {
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation {
                    uri,
                    uri_base_id: SRCROOT,
                },
                region,
            },
            logical_locations: vec![LogicalLocation {
                fully_qualified_name: d.pointer.as_str().to_owned(),
                kind: target_kind(d.target),
            }],
        }],
        partial_fingerprints: BTreeMap::from([(FINGERPRINT_KEY, fp)]),
        properties: props,
    }
}

/// The SARIF 2.1.0 log of a located run (see the module docs).
pub fn log<'r, 'a>(run: &'r RunView<'a>, opts: &'r Options) -> Log<'r, 'a> {
    // One rule per code that occurs, in id order (Code's order is id order).
    let codes: std::collections::BTreeSet<Code> =
        run.findings().map(|(_, f)| f.diag.code).collect();
    let rule_index: HashMap<Code, usize> = codes.iter().enumerate().map(|(i, c)| (*c, i)).collect();
    let rules: Vec<ReportingDescriptor> = codes.iter().map(|c| rule(*c)).collect();
    let count = run.findings().count();
    let mut notifications = Vec::new();
    if count > GITHUB_MAX_RESULTS {
        notifications.push(Notification {
            level: "warning",
            message: Text {
                text: format!(
                    "{count} results: GitHub code scanning rejects a run with more than {GITHUB_MAX_RESULTS} results (every result is in this log; --format json holds them too)"
                ),
            },
        });
    }
    if !run.skipped.is_empty() {
        // A host reading only this log learns that a directory was not
        // verified (F11 addendum); the paths are in the properties.
        notifications.push(Notification {
            level: "note",
            message: Text {
                text: format!(
                    "{} skipped by a rule (hidden, .gitignore, exclude; --no-ignore searches them): not verified (invocations[0].properties.skippedDirectories lists them)",
                    if run.skipped.len() == 1 {
                        "1 directory".to_owned()
                    } else {
                        format!("{} directories", run.skipped.len())
                    }
                ),
            },
        });
    }
    if run.could_not_run() {
        notifications.push(Notification {
            level: "error",
            message: Text {
                text: "the run could not complete (an input does not exist or cannot be read: FD900, FD905): form-package exits 2".to_owned(),
            },
        });
    }
    Log {
        schema: SARIF_SCHEMA_URI,
        version: SARIF_VERSION,
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "form-package",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    rules,
                },
            },
            original_uri_base_ids: BTreeMap::from([(
                SRCROOT,
                BaseId {
                    description: Text {
                        text: "The directory given by --sarif-root (default: the working directory of the run)".to_owned(),
                    },
                },
            )]),
            column_kind: "unicodeCodePoints",
            invocations: vec![Invocation {
                execution_successful: !run.could_not_run(),
                tool_execution_notifications: notifications,
                properties: run
                    .config
                    .iter()
                    .map(|c| {
                        (
                            "configuration".to_owned(),
                            serde_json::Value::String(c.display().to_string()),
                        )
                    })
                    .chain((!run.skipped.is_empty()).then(|| {
                        (
                            "skippedDirectories".to_owned(),
                            super::skipped_value(&run.skipped),
                        )
                    }))
                    .collect(),
            }],
            results: Results {
                run,
                opts,
                rule_index,
            },
            properties: run
                .packages
                .iter()
                .flat_map(|p| p.outcome.summary_members())
                .collect(),
        }],
    }
}

/// Bytes reserved per result before writing: more than a result takes, so
/// the buffer is never copied while it grows (untouched reserved pages
/// cost no memory).
const RESERVE_PER_RESULT: usize = 4096;

/// Renders the whole run as one compact SARIF 2.1.0 log (one line) with a
/// trailing newline. Compact, not pretty-printed: a log of 80,000 results is
/// half the size, and no SARIF consumer reads the whitespace.
pub fn render(run: &RunView<'_>, opts: &Options) -> String {
    let count = run.findings().count();
    let mut buf = Vec::with_capacity(64 * 1024 + count.saturating_mul(RESERVE_PER_RESULT));
    if let Err(e) = serde_json::to_writer(&mut buf, &log(run, opts)) {
        return format!("{{\"error\":\"{e}\"}}\n");
    }
    buf.push(b'\n');
    String::from_utf8(buf).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostic;
    use crate::json::pointer::JsonPointer;
    use crate::testing::outcome;
    use crate::verify::{PackageOutcome, Source};
    use std::path::PathBuf;

    fn opts() -> Options {
        Options {
            sarif_root: PathBuf::from("/w"),
            cwd: PathBuf::from("/w"),
            ..Default::default()
        }
    }

    fn log(all: &[PackageOutcome]) -> Value {
        serde_json::to_value(super::log(&RunView::new(all, false), &opts())).unwrap()
    }

    #[test]
    fn uri_encodes_spaces_colons_and_backslashes() {
        assert_eq!(path_to_uri("pkg dir/a.json"), "pkg%20dir/a.json");
        assert_eq!(path_to_uri("c:\\x\\y.json"), "c%3A/x/y.json");
        assert_eq!(path_to_uri("a,b%/é"), "a%2Cb%25/%C3%A9");
        // Near miss: a plain relative path stays as it is.
        assert_eq!(
            path_to_uri("fixtures/packages/v1alpha1/x-1.0.0/definition.json"),
            "fixtures/packages/v1alpha1/x-1.0.0/definition.json"
        );
    }

    #[test]
    fn artifact_uri_is_relative_to_the_sarif_root() {
        let o = opts();
        let p = PathBuf::from("pkgs/one");
        assert_eq!(
            artifact_uri(&p, Some("fixtures/d.json"), &o),
            "pkgs/one/fixtures/d.json"
        );
        // A finding about the directory points at its index.
        assert_eq!(artifact_uri(&p, None, &o), "pkgs/one/package-index.json");
        // An absolute package path under the root loses the root.
        assert_eq!(
            artifact_uri(Path::new("/w/a/./b/../c"), Some("x.json"), &o),
            "a/c/x.json"
        );
        // Outside the root: `..`, never an absolute path.
        let other = Options {
            sarif_root: PathBuf::from("/w/sub"),
            ..opts()
        };
        assert_eq!(
            artifact_uri(&p, Some("x.json"), &other),
            "../pkgs/one/x.json"
        );
        assert_eq!(
            artifact_uri(Path::new("/elsewhere/p"), Some("x.json"), &other),
            "../../elsewhere/p/x.json"
        );
        // A relative root is taken against the working directory.
        let rel = Options {
            sarif_root: PathBuf::from("pkgs"),
            ..opts()
        };
        assert_eq!(artifact_uri(&p, Some("x y.json"), &rel), "one/x%20y.json");
    }

    #[test]
    fn fingerprints_are_stable_and_distinguish_findings() {
        let a = fingerprint("FD213", "p/d.json", "/x", Target::Value, "m");
        assert_eq!(
            a,
            fingerprint("FD213", "p/d.json", "/x", Target::Value, "m")
        );
        assert_eq!(a.len(), 32);
        assert_ne!(a, fingerprint("FD213", "p/d.json", "/x", Target::Key, "m"));
        assert_ne!(
            a,
            fingerprint("FD213", "p/d.json", "/y", Target::Value, "m")
        );
        // Near miss: the separator keeps ("a","bc") apart from ("ab","c").
        assert_ne!(
            fingerprint("FD213", "a", "bc", Target::Value, "m"),
            fingerprint("FD213", "ab", "c", Target::Value, "m")
        );
    }

    #[test]
    fn one_rule_per_occurring_code_in_id_order() {
        let a = Diagnostic::new(Code::OpenObjectSchema, "open")
            .in_file("definition.json")
            .at(JsonPointer::from("/desiredSchema"));
        let b = Diagnostic::new(Code::UnlistedFile, "x").in_file("x.json");
        let c = Diagnostic::new(Code::OpenObjectSchema, "open again")
            .in_file("definition.json")
            .at(JsonPointer::from("/observedSchema"));
        let log = log(&[outcome("p", vec![a, b, c])]);
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["FD018", "FD213"]);
        assert_eq!(rules[1]["name"], "open-object-schema");
        assert_eq!(
            rules[1]["help"]["text"],
            crate::explain::explain(Code::OpenObjectSchema)
        );
        assert!(rules[1]["help"]["markdown"]
            .as_str()
            .unwrap()
            .contains("**Fix:** add \"additionalProperties\": false"));
        // No helpUri: the project has no published URL (N1 findings §4:
        // the placeholder host pointed at an anchor README.md lacks).
        assert!(rules[1].get("helpUri").is_none(), "{}", rules[1]);
        assert_eq!(
            rules[1]["shortDescription"]["text"],
            Code::OpenObjectSchema.info().summary
        );
        let results = run["results"].as_array().unwrap();
        let idx: Vec<u64> = results
            .iter()
            .map(|r| r["ruleIndex"].as_u64().unwrap())
            .collect();
        assert_eq!(idx, [1, 0, 1]);
        assert_eq!(results[2]["ruleId"], "FD213");
        assert_eq!(
            results[2]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
            "/observedSchema"
        );
        assert_eq!(
            results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "p/definition.json"
        );
        // No source: the whole file, line 1.
        assert_eq!(
            results[2]["locations"][0]["physicalLocation"]["region"],
            json!({"startLine": 1})
        );
        assert_eq!(
            results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"],
            "%SRCROOT%"
        );
    }

    #[test]
    fn rule_help_names_the_fix_and_the_spec() {
        let r = serde_json::to_value(rule(Code::RootOpen)).unwrap();
        let md = r["help"]["markdown"].as_str().unwrap();
        assert!(
            md.contains("**Fix:** check the directory's permissions and that it still exists"),
            "{md}"
        );
        assert!(md.ends_with("Spec: verifier-rules.md §1.2 R1.2\n"), "{md}");
        assert_eq!(
            r["fullDescription"]["text"],
            crate::explain::explanation(Code::RootOpen).checks
        );
        assert_eq!(r["defaultConfiguration"]["level"], "error");
    }

    #[test]
    fn levels_key_target_and_missing_file() {
        let w = Diagnostic::new(Code::UnsatisfiableAllOf, "w")
            .in_file("definition.json")
            .severity(Severity::Warning);
        let n = Diagnostic::new(Code::RootChanged, "n").severity(Severity::Note);
        let k = Diagnostic::new(Code::ForbiddenPayloadField, "k")
            .in_file("f.json")
            .at_key(JsonPointer::from("/password"));
        let log = log(&[outcome("q", vec![w, n, k])]);
        let results = log["runs"][0]["results"].as_array().unwrap();
        let levels: Vec<&str> = results
            .iter()
            .map(|r| r["level"].as_str().unwrap())
            .collect();
        assert_eq!(levels, ["warning", "note", "error"]);
        assert_eq!(
            results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "q/package-index.json"
        );
        assert_eq!(results[1]["properties"]["file"], Value::Null);
        assert_eq!(
            results[2]["locations"][0]["logicalLocations"][0]["kind"],
            "property"
        );
        assert_eq!(
            results[0]["locations"][0]["logicalLocations"][0]["kind"],
            "value"
        );
    }

    #[test]
    fn region_from_explicit_span() {
        let bytes = b"{\n  \"a\": 1\n}".to_vec();
        let mut p = outcome(
            "r",
            vec![Diagnostic::new(Code::InvalidIJson, "bad")
                .in_file("x.json")
                .span(4..7)],
        );
        p.sources
            .insert("x.json".into(), Source { bytes, spans: None });
        let log = log(&[p]);
        let region = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
        assert_eq!(
            region,
            &json!({"startLine": 2, "startColumn": 3, "endLine": 2, "endColumn": 6})
        );
    }

    #[test]
    fn empty_run_has_no_rules_or_results() {
        let log = log(&[outcome("ok", vec![])]);
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(
            log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"].get("uri"),
            None
        );
        assert_eq!(log["runs"][0]["tool"]["driver"]["name"], "form-package");
        assert_eq!(log["runs"][0]["tool"]["driver"]["rules"], json!([]));
        assert_eq!(log["runs"][0]["results"], json!([]));
    }
}

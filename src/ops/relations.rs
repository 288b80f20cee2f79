//! `form-package relations PATH [--format human|json] [--instance FILE]`:
//! the relations a host derives from a Form Definition's `desiredSchema`
//! (decision 0015 rules 1, 2 and 8; `verifier-rules.md` §8), as a table or
//! JSON, optionally resolved against one desired document (§8.6).
//!
//! PATH is a package directory (its `package-index.json` names the
//! definition in `definitionPath`; without an index, or without that
//! member, `definition.json` is used), a bare definition file, or `-`:
//! a definition on standard input, named `<stdin>` in findings. The
//! definition is read with the strict I-JSON reader and handed to
//! [`relations::derive`]; nothing else of the package is checked (that is
//! `verify`).
//!
//! [`run`] is the operation: it returns the typed result ([`Derived`], or
//! a [`Refusal`]), each finding in a [`Report`] built complete (the
//! entries of a bare definition, standard input and a refused `--instance`
//! document named where they are made), and prints nothing;
//! [`crate::render::relations`] alone turns it into text, and the exit
//! status is the report's ([`exit_code`], issue 21 item 3).
//!
//! Exit status ([`exit_code`]): `0` the relations were derived (warnings
//! allowed), `1` the definition (or the index naming it) cannot be read or
//! parsed, is not a Form Definition ([`not_a_definition`], FD630), or the
//! `--instance` document does not parse or is not a JSON object (FD630) —
//! in `human` the finding is printed to stderr, located as
//! `<package>/<file>:line:column`; in a machine format it is a document of
//! that format on stdout (or `--output-file`) carrying the finding as
//! `verify` reports a failing package (T2 F3): `json` with no relations
//! (or, for a bad `--instance`, the derivation with the finding among its
//! diagnostics) —, `2` PATH (or the `--instance` FILE) does not exist, or
//! the `--instance` FILE is a directory or cannot be read.
//!
//! Output goes through the render front end ([`crate::render`]) with the same
//! [`Format`](crate::render::Format) as `verify`: `human` is the table then
//! the findings (located by [`crate::render::RunView`], like `verify`'s),
//! `json` the document below, and `sarif`, `github` and `junit` report the
//! derivation's findings exactly as `verify` reports a package's (one
//! package: PATH), except that the `github` summary is the human count
//! line (`8 relations, 0 warnings, 0 notes`): nothing was verified.
//!
//! `--format json` prints one document (pretty, final newline). This is a
//! versioned contract (`"version": 1`):
//!
//! ```text
//! { "version": 1,
//!   "definition": { "apiVersion": "…", "kind": "…", "definitionVersion": "…" },
//!   "relations": [ {                              // sorted by pointer, byte-wise
//!       "pointer": "/kvBindings/*/resource",      // `*` = every array element
//!       "targetApiVersion": "…", "targetKind": "…",
//!       "binding": "module-worker.edge-kv" | "",
//!       "required": true | false,
//!       "targetFormRefs"?: [ { "apiVersion", "kind", "definitionVersion", "schemaDigest" } ],
//!       "requiredInterface"?: { "apiVersion", "name", "version", "schemaDigest" } } ],
//!   "diagnostics": [ … ],     // the objects of `verify --format json`
//!                             // (`render::json::diagnostic_value`), sorted by
//!                             // (pointer, severity, code); warnings FD500–FD507 and FD509, note FD508
//!   "instances"?: [ { "relation": "/kvBindings/*/resource",   // only with --instance
//!                     "pointer": "/kvBindings/0/resource", "name": "cache" } ] }
//! ```
//!
//! Definition members that are absent or not strings show as `""`.

use crate::diag::escape::quote;
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::fsread;
use crate::json::strict;
use crate::package::{Source, INDEX_FILE};
use crate::relations::{self, Instance, Relation};
use crate::report::{Entry, EntryKind, ExitRule, Report};
use crate::verify::PackageOutcome;

/// The version of the `--format json` document.
pub const VERSION: u32 = 1;

/// The definition file used when the index does not name one.
pub const DEFAULT_DEFINITION: &str = "definition.json";

/// The definition the relations are derived from, as the reports name it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Definition {
    /// Its name in findings: package-relative (`definition.json`, or the
    /// index's `definitionPath`), PATH as given for a bare file, or
    /// `<stdin>`.
    pub name: String,
    /// Its `apiVersion` (`""` when absent or not a string).
    pub api_version: String,
    /// Its `kind` (`""` when absent or not a string).
    pub kind: String,
    /// Its `definitionVersion` (`""` when absent or not a string).
    pub definition_version: String,
}

impl Definition {
    /// The definition named `name` whose members are read from `value`.
    fn of(name: &str, value: &Value) -> Self {
        Definition {
            name: name.to_owned(),
            api_version: str_member(value, "apiVersion"),
            kind: str_member(value, "kind"),
            definition_version: str_member(value, "definitionVersion"),
        }
    }
}

/// A finding that stopped `relations` (exit 1): the definition (or the
/// index naming it, or the `--instance` document) cannot be read or
/// parsed, or is not what `relations` takes (FD630).
#[derive(Debug)]
pub struct Stopped {
    /// The document when it parsed but is not a Form Definition (FD630):
    /// its members name it in the `--format json` document.
    pub definition: Option<Definition>,
    /// The report of the run: one entry, the finding's, as `verify`
    /// reports a failing package (its path the package directory, or,
    /// for a file named as given, named after that file).
    pub report: Report,
}

/// The entry of a finding that stopped the command, as `verify` reports a
/// failing package: its path is the package directory the finding's file
/// is relative to (`""` for a file named as given: a bare definition,
/// standard input, the `--instance` FILE, and the entry is then named
/// after that file, so no JUnit testcase or JSON entry is named ""); its
/// one source the bytes of the finding's file (and its spans when it
/// parsed), for the excerpt, when it could be read.
fn stop_entry(diagnostic: Diagnostic, source: Option<Source>, package: &Path) -> Entry {
    let sources = match (&diagnostic.file, source) {
        (Some(file), Some(source)) => std::collections::BTreeMap::from([(file.clone(), source)]),
        _ => std::collections::BTreeMap::new(),
    };
    let name = diagnostic
        .file
        .clone()
        .filter(|_| package.as_os_str().is_empty());
    let entry = Entry::new(
        EntryKind::Package,
        PackageOutcome {
            path: package.to_path_buf(),
            diagnostics: vec![diagnostic],
            sources,
            ..Default::default()
        },
    );
    match name {
        Some(name) => entry.named(name.into()),
        None => entry,
    }
}

/// Why `relations` produced no relations.
#[derive(Debug)]
pub enum Refusal {
    /// The command could not run (exit 2): PATH (or the `--instance` FILE)
    /// does not exist, is not a regular file or directory, or cannot be
    /// read; standard input cannot be read. The message names the cause;
    /// there is no report (nothing goes to stdout, in any format).
    Usage(String),
    /// A finding stopped it (exit 1).
    Stopped(Box<Stopped>),
}

impl Refusal {
    fn finding(d: &Diagnostic, source: Option<Source>, package: &Path) -> Self {
        Refusal::Stopped(Box::new(Stopped {
            definition: None,
            report: Report::new(
                vec![stop_entry(d.clone(), source, package)],
                ExitRule::default(),
            ),
        }))
    }
}

/// The relations of one definition: what `relations` reports.
#[derive(Debug)]
pub struct Derived {
    /// The definition they were derived from.
    pub definition: Definition,
    /// The relations, sorted by pointer (byte-wise).
    pub relations: Vec<Relation>,
    /// With `--instance`: the concrete instances in the desired document
    /// (none when that document was refused, see
    /// [`Derived::instance_refused`]).
    pub instances: Option<Vec<Instance>>,
    /// The report of the run, built complete. Its first entry is the
    /// definition's: its path is the package directory (empty for a bare
    /// definition or standard input, and the entry is then named after the
    /// definition: [`Definition::name`]), its findings (warnings
    /// FD500–FD507 and FD509, note FD508) sorted by (pointer, severity,
    /// code), its one source the definition. A second entry is a
    /// `--instance` document that does not parse or is not a JSON object
    /// (FD012…, FD630), named after the FILE as given: the run exits 1.
    pub report: Report,
}

impl Derived {
    /// The entry of the refused `--instance` document, if it was refused.
    pub fn instance_refused(&self) -> Option<&Entry> {
        self.report.entries.get(1)
    }
}

/// A strictly parsed JSON file: its value and its source (for spans).
struct Read {
    /// The name used in diagnostics (package-relative, or the path as given).
    name: String,
    value: Value,
    source: Source,
}

/// Reads and strictly parses `path`, naming it `name` (relative to
/// `package`) in diagnostics.
fn read_json(path: &Path, name: &str, package: &Path) -> Result<Read, Refusal> {
    let bytes = if package.as_os_str().is_empty() {
        // A FILE named on the command line: the user's own link is
        // followed, but only a regular file is read (a FIFO would block);
        // one that cannot be read is the command failing to run (exit 2).
        read_regular(path, fsread::DEFINITION_LIMIT).map_err(|e| {
            Refusal::Usage(format!(
                "{}: {e}; relations reads a Form Definition (a JSON file) or a package directory",
                path.display()
            ))
        })?
    } else {
        // A file of a package: read as `verify` reads it (T3 B1, B2): never
        // through a symlink nor from a FIFO or device, within its size
        // limit (FD004/FD005-like refusals, here as unreadable findings).
        let limit = if name == INDEX_FILE {
            fsread::INDEX_LIMIT
        } else {
            fsread::DEFINITION_LIMIT
        };
        let root = fsread::open_root(package).map_err(|d| Refusal::finding(&d, None, package))?;
        root.read(name, limit, None)
            .map_err(|d| Refusal::finding(&d, None, package))?
    };
    parse_json(bytes, name, package)
}

/// Strictly parses `bytes` of the file named `name` (relative to
/// `package`); a document that is not strict I-JSON is a finding (exit 1).
fn parse_json(bytes: Vec<u8>, name: &str, package: &Path) -> Result<Read, Refusal> {
    match strict::parse(&bytes) {
        Ok(parsed) => Ok(Read {
            name: name.to_owned(),
            value: parsed.value,
            source: Source {
                bytes,
                spans: Some(parsed.spans),
            },
        }),
        Err(e) => {
            let source = Source { bytes, spans: None };
            Err(Refusal::finding(
                &e.to_diagnostic().in_file(name),
                Some(source),
                package,
            ))
        }
    }
}

/// Where the definition is: (file system path, name for diagnostics).
fn locate_definition(path: &Path) -> Result<(PathBuf, String), Refusal> {
    if !path.is_dir() {
        return Ok((path.to_path_buf(), path.display().to_string()));
    }
    let index = path.join(INDEX_FILE);
    let def_path = if index.is_file() {
        let read = read_json(&index, INDEX_FILE, path)?;
        match read.value.get("definitionPath") {
            None => DEFAULT_DEFINITION.to_owned(),
            Some(Value::String(s))
                if !s.is_empty()
                    && Path::new(s)
                        .components()
                        .all(|c| matches!(c, Component::Normal(_))) =>
            {
                s.clone()
            }
            Some(_) => {
                let d = Diagnostic::new(
                    Code::IndexSchemaViolation,
                    "definitionPath is not a relative path inside the package",
                )
                .in_file(INDEX_FILE)
                .at(crate::json::pointer::JsonPointer::root().child("definitionPath"));
                return Err(Refusal::finding(&d, Some(read.source), path));
            }
        }
    } else {
        DEFAULT_DEFINITION.to_owned()
    };
    Ok((path.join(&def_path), def_path))
}

/// `FD630` when `value` is not a Form Definition with a `desiredSchema`
/// object (a JSON array, a package index, a revocation document, an
/// unrecognised object, a definition whose `desiredSchema` is not an
/// object): relations are derived from a Form Definition's desired schema,
/// and "0 relations" of anything else would read as success. The message
/// names what the document is instead. `None` for a Form Definition.
pub fn not_a_definition(value: &Value) -> Option<Diagnostic> {
    use crate::doc_kind::{classify, DocKind};
    use crate::json::pointer::JsonPointer;
    let named = |v: &Value| {
        format!(
            "apiVersion {}, kind {}",
            quote(&str_member(v, "apiVersion")),
            quote(&str_member(v, "kind"))
        )
    };
    let what = match value {
        Value::Object(_) => match classify(value) {
            Some(DocKind::Definition) => {
                if value.get("desiredSchema").is_some_and(Value::is_object) {
                    return None;
                }
                let d = Diagnostic::new(
                    Code::UnrecognizedDocument,
                    "not a Form Definition relations can read: its desiredSchema is not an object (relations are derived from a Form Definition's desiredSchema)",
                );
                return Some(if value.get("desiredSchema").is_some() {
                    d.at(JsonPointer::root().child("desiredSchema"))
                } else {
                    d
                });
            }
            Some(DocKind::PackageIndex) => format!(
                "a package index ({}); give the package directory, or its definition file",
                named(value)
            ),
            Some(k) => format!("a {} ({})", k.label(), named(value)),
            None if value.get("apiVersion").is_some() => {
                format!("an unrecognised document ({})", named(value))
            }
            None => "a JSON object without an apiVersion".to_owned(),
        },
        other => json_type(other).to_owned(),
    };
    Some(Diagnostic::new(
        Code::UnrecognizedDocument,
        format!("not a Form Definition: it is {what}; relations are derived from a Form Definition's desiredSchema"),
    ))
}

/// The package a `relations` PATH belongs to, for the `--output-file`
/// guard ("nothing is written to a package being verified"): PATH itself
/// when it is a directory, else the nearest directory above the file that
/// holds a `package-index.json` (a bare `definition.json` inside a
/// package), else none (a definition file outside any package).
pub fn enclosing_package(path: &Path) -> Option<std::path::PathBuf> {
    if path.is_dir() {
        return Some(path.to_path_buf());
    }
    let absolute = std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .ok()?;
    absolute
        .ancestors()
        .skip(1)
        .find(|d| std::fs::symlink_metadata(d.join(INDEX_FILE)).is_ok())
        .map(Path::to_path_buf)
}

fn str_member(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Derives the relations of PATH (a package directory, a bare definition
/// file, or `-`: a definition on standard input), resolving them against
/// the `instance` desired document when given. Nothing is printed: the
/// result is rendered by [`crate::render::relations::render`]. `Err` when nothing
/// was derived (see [`Refusal`]); a refused `--instance` document is
/// reported in [`Derived::instance_refused`] beside the derivation.
pub fn run(path: &Path, instance: Option<&Path>) -> Result<Derived, Refusal> {
    let stdin = path.as_os_str() == "-";
    if !stdin && !path.exists() {
        return Err(Refusal::Usage(format!(
            "{}: no such file or directory",
            path.display()
        )));
    }
    if let Some(i) = instance {
        if !i.exists() {
            return Err(Refusal::Usage(format!(
                "{}: no such file or directory",
                i.display()
            )));
        }
        if i.is_dir() {
            return Err(Refusal::Usage(format!(
                "--instance {}: is a directory; --instance takes one desired document (a JSON file)",
                i.display()
            )));
        }
    }
    // The package the findings are in: PATH when it is a directory (the
    // definition's name is then package-relative), else none (the name is
    // PATH as given).
    let package = if !stdin && path.is_dir() {
        path
    } else {
        Path::new("")
    };
    let (def_name, def) = if stdin {
        // `-` is standard input (as for `check`): a definition, named
        // `<stdin>` in findings.
        let bytes = crate::fileread::read_stdin(fsread::DEFINITION_LIMIT)
            .map_err(|e| Refusal::Usage(format!("read standard input: {e}")))?;
        (
            STDIN_NAME.to_owned(),
            parse_json(bytes, STDIN_NAME, package)?,
        )
    } else {
        let (def_file, def_name) = locate_definition(path)?;
        let def = read_json(&def_file, &def_name, package)?;
        (def_name, def)
    };
    if let Some(d) = not_a_definition(&def.value) {
        let entry = stop_entry(d.in_file(&def_name), Some(def.source), package);
        return Err(Refusal::Stopped(Box::new(Stopped {
            definition: Some(Definition::of("", &def.value)),
            report: Report::new(vec![entry], ExitRule::default()),
        })));
    }
    let derivation = relations::derive(&def.value);
    let mut diagnostics: Vec<Diagnostic> = derivation
        .diagnostics
        .into_iter()
        .map(|d| d.in_file_if_unset(&def_name))
        .collect();
    diagnostics.sort_by(|a, b| {
        (a.pointer.as_str(), a.severity, a.code.info().id).cmp(&(
            b.pointer.as_str(),
            b.severity,
            b.code.info().id,
        ))
    });
    // A bad --instance document: a finding (exit 1), reported beside the
    // derivation (T2 F3).
    let mut instance_refused: Option<Entry> = None;
    let instances = match instance {
        Some(i) => {
            // An --instance FILE that cannot be read is the command
            // failing to run (exit 2), like a missing one; one that does
            // not parse is a finding (exit 1).
            let bytes = read_regular(i, fsread::JSON_LIMIT).map_err(|e| {
                Refusal::Usage(format!("--instance {}: cannot read: {e}", i.display()))
            })?;
            match read_instance(bytes, &i.display().to_string()) {
                Ok(doc) => Some(relations::resolve(&derivation.relations, &doc)),
                Err(Refusal::Stopped(stopped)) => {
                    instance_refused = stopped.report.entries.into_iter().next();
                    None
                }
                Err(usage) => return Err(usage),
            }
        }
        None => None,
    };
    let Read {
        name,
        value,
        source,
    } = def;
    let outcome = PackageOutcome {
        path: package.to_path_buf(),
        diagnostics,
        sources: std::collections::BTreeMap::from([(name.clone(), source)]),
        ..Default::default()
    };
    let mut entry = Entry::new(EntryKind::Package, outcome);
    if package.as_os_str().is_empty() {
        // A bare definition file (or standard input) is no directory: the
        // entry is named after it (a JUnit testcase, a JSON entry).
        entry = entry.named(name.clone().into());
    }
    let entries = std::iter::once(entry).chain(instance_refused).collect();
    Ok(Derived {
        definition: Definition::of(&name, &value),
        relations: derivation.relations,
        instances,
        report: Report::new(entries, ExitRule::default()),
    })
}

/// The exit status of a `relations` run: `0` relations derived (warnings
/// allowed), `1` a finding stopped it or refused the `--instance`
/// document, `2` it could not run.
pub fn exit_code(result: &Result<Derived, Refusal>) -> u8 {
    match result {
        Ok(derived) => derived.report.exit_code(),
        Err(Refusal::Usage(_)) => 2,
        Err(Refusal::Stopped(stopped)) => stopped.report.exit_code(),
    }
}

/// The name standard input gets in findings (`relations -`).
const STDIN_NAME: &str = "<stdin>";

/// What a JSON value is, for messages: `a JSON object`, `a JSON array`, …
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "a JSON object",
        Value::Array(_) => "a JSON array",
        Value::String(_) => "a JSON string",
        Value::Number(_) => "a JSON number",
        Value::Bool(_) => "a JSON boolean",
        Value::Null => "JSON null",
    }
}

/// Reads a FILE named on the command line ([`crate::fileread`]): the
/// user's own symlink is followed, but only a regular file of at most
/// `limit` bytes is read (a FIFO would block, a device never ends).
fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, crate::fileread::FileRefusal> {
    crate::fileread::read_file(path, crate::fileread::Reach::Named, limit)
}

/// Strictly parses the `--instance` document (named `name`, the FILE as
/// given): one that is not strict I-JSON, or is not a JSON object (a
/// desired document is one, FD630), is a finding.
fn read_instance(bytes: Vec<u8>, name: &str) -> Result<Value, Refusal> {
    let doc = parse_json(bytes, name, Path::new(""))?;
    if doc.value.is_object() {
        return Ok(doc.value);
    }
    let what = json_type(&doc.value);
    let d = Diagnostic::new(
        Code::UnrecognizedDocument,
        format!("not a desired document: it is {what}; --instance takes a desired document (a JSON object)"),
    )
    .in_file(name);
    Err(Refusal::finding(&d, Some(doc.source), Path::new("")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worker_version() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7")
    }

    fn names(report: &Report) -> Vec<Option<PathBuf>> {
        report
            .entries
            .iter()
            .map(|e| e.given_name().map(Path::to_path_buf))
            .collect()
    }

    /// Issue 21 item 3 (`relations --format junit DEF.json` named its
    /// testcase ""): the definition's entry is named where it is made, a
    /// bare definition file after the file as given, a package directory
    /// by its path (no name); a refused `--instance` document is a second
    /// entry named after the FILE as given, and the run exits 1 by the
    /// report's rule. Near miss: a valid `--instance` document adds no
    /// entry, and the run exits 0.
    #[test]
    fn each_entry_is_named_where_it_is_made() {
        let package = worker_version();
        let definition = package.join("definition.json");
        let derived = run(&package, None).unwrap();
        assert_eq!(names(&derived.report), [None]);
        assert_eq!(derived.report.entries[0].outcome().path, package);
        let bare = run(&definition, Some(&package.join("fixtures/desired.json"))).unwrap();
        assert_eq!(names(&bare.report), [Some(definition.clone())]);
        assert!(bare.instance_refused().is_none());
        assert_eq!(exit_code(&Ok(bare)), 0);
        let tmp = tempfile::tempdir().unwrap();
        let array = tmp.path().join("array.json");
        std::fs::write(&array, b"[1]").unwrap();
        let refused = run(&definition, Some(&array)).unwrap();
        assert_eq!(
            names(&refused.report),
            [Some(definition.clone()), Some(array.clone())]
        );
        let entry = refused.instance_refused().unwrap();
        assert_eq!(
            entry.outcome().diagnostics[0].code,
            Code::UnrecognizedDocument
        );
        assert_eq!(exit_code(&Ok(refused)), 1);
    }

    /// A finding that stopped the command is a report of one entry, as
    /// `verify` reports a failing package: a bare file's entry is named
    /// after it, a package's finding is under the package directory (no
    /// name); exit 1 by the report's rule. Near miss: PATH that does not
    /// exist is no report at all (exit 2).
    #[test]
    fn a_stop_is_a_report_of_one_named_entry() {
        let tmp = tempfile::tempdir().unwrap();
        let dup = tmp.path().join("dup.json");
        std::fs::write(&dup, b"{\"a\":1,\"a\":2}").unwrap();
        let index = worker_version().join(INDEX_FILE);
        for (path, name) in [(&dup, Some(dup.clone())), (&index, Some(index.clone()))] {
            let result = run(path, None);
            let Err(Refusal::Stopped(stopped)) = &result else {
                panic!("{result:?}");
            };
            assert_eq!(names(&stopped.report), [name]);
            assert_eq!(exit_code(&result), 1);
        }
        let package = tmp.path().join("package");
        std::fs::create_dir(&package).unwrap();
        std::fs::write(package.join(INDEX_FILE), b"{\"definitionPath\": 1}").unwrap();
        let result = run(&package, None);
        let Err(Refusal::Stopped(stopped)) = &result else {
            panic!("{result:?}");
        };
        assert_eq!(names(&stopped.report), [None]);
        assert_eq!(stopped.report.entries[0].outcome().path, package);
        assert_eq!(exit_code(&result), 1);
        let missing = run(&tmp.path().join("nope"), None);
        assert!(matches!(missing, Err(Refusal::Usage(_))));
        assert_eq!(exit_code(&missing), 2);
    }
}

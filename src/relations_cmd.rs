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
//! Exit status: `0` the relations were derived (warnings allowed), `1` the
//! definition (or the index naming it) cannot be read or parsed, is not a
//! Form Definition ([`not_a_definition`], FD630), or the `--instance`
//! document does not parse or is not a JSON object (FD630) — in `human`
//! the finding is printed to stderr with [`human::render_diagnostic_in`],
//! located as `<package>/<file>:line:column`; in a machine format it is a
//! document of that format on stdout (or `--output-file`) carrying the
//! finding as `verify` reports a failing package (T2 F3): `json` with no
//! relations (or, for a bad `--instance`, the derivation with the
//! finding among its diagnostics) —, `2` PATH (or the `--instance` FILE)
//! does not exist, or the `--instance` FILE is a directory or cannot be
//! read.
//!
//! Output goes through the render front end ([`crate::render`]) with the same
//! [`Format`] as `verify`: `human` is the table then the findings (located by
//! [`crate::render::RunView`], like `verify`'s), `json` the document below,
//! and `sarif`, `github` and `junit` report the derivation's findings exactly
//! as `verify` reports a package's (one package: PATH), except that the
//! `github` summary is the human count line (`8 relations, 0 warnings, 0
//! notes`): nothing was verified.
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

use std::path::{Component, Path};

use serde_json::{json, Value};

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::fsread;
use crate::json::strict;
use crate::output::Output;
use crate::package::{Source, INDEX_FILE};
use crate::relations::{self, Instance, Relation};
use crate::render::count;
use crate::render::{self, human, json as render_json, Format, RunView};
use crate::verify::PackageOutcome;

/// The version of the `--format json` document.
pub const VERSION: u32 = 1;

/// The definition file used when the index does not name one.
pub const DEFAULT_DEFINITION: &str = "definition.json";

/// A failure to produce relations: what to print on stderr and the status.
struct Failure {
    stderr: String,
    /// A finding that stopped the command, rendered on stderr (in colour
    /// under `--color`) after `stderr`.
    finding: Option<Box<(Diagnostic, Option<Source>, std::path::PathBuf)>>,
    code: u8,
    /// The document when it parsed but is not a Form Definition (FD630):
    /// its members name it in the refusal's JSON document.
    definition: Option<Value>,
}

impl Failure {
    fn usage(msg: String) -> Self {
        Failure {
            stderr: format!("form-package: relations: {msg}\n"),
            finding: None,
            code: 2,
            definition: None,
        }
    }

    fn finding(d: &Diagnostic, source: Option<Source>, package: &Path) -> Self {
        Failure {
            stderr: String::new(),
            finding: Some(Box::new((d.clone(), source, package.to_path_buf()))),
            code: 1,
            definition: None,
        }
    }

    /// The finding as the outcome of one package (its directory, or `""`
    /// for a file named as given), for the renderers of `verify`.
    fn into_outcome(self) -> Option<PackageOutcome> {
        let (d, source, package) = *self.finding?;
        let sources = match (&d.file, source) {
            (Some(file), Some(source)) => {
                std::collections::BTreeMap::from([(file.clone(), source)])
            }
            _ => std::collections::BTreeMap::new(),
        };
        Some(PackageOutcome {
            path: package,
            diagnostics: vec![d],
            sources,
            ..Default::default()
        })
    }

    /// What to print on stderr, coloured when `color`.
    fn render(self, color: bool) -> String {
        let mut text = self.stderr;
        if let Some(finding) = self.finding {
            let (d, source, package) = *finding;
            text.push_str(&human::render_diagnostic_in(
                &d,
                source.as_ref(),
                Some(&package),
                color,
            ));
        }
        text
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
fn read_json(path: &Path, name: &str, package: &Path) -> Result<Read, Failure> {
    let bytes = if package.as_os_str().is_empty() {
        // A FILE named on the command line: the user's own link is
        // followed, but only a regular file is read (a FIFO would block);
        // one that cannot be read is the command failing to run (exit 2).
        read_regular(path, fsread::DEFINITION_LIMIT).map_err(|e| {
            Failure::usage(format!(
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
        let root = fsread::open_root(package).map_err(|d| Failure::finding(&d, None, package))?;
        root.read(name, limit, None)
            .map_err(|d| Failure::finding(&d, None, package))?
    };
    parse_json(bytes, name, package)
}

/// Strictly parses `bytes` of the file named `name` (relative to
/// `package`); a document that is not strict I-JSON is a finding (exit 1).
fn parse_json(bytes: Vec<u8>, name: &str, package: &Path) -> Result<Read, Failure> {
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
            Err(Failure::finding(
                &e.to_diagnostic().in_file(name),
                Some(source),
                package,
            ))
        }
    }
}

/// Where the definition is: (file system path, name for diagnostics).
fn locate_definition(path: &Path) -> Result<(std::path::PathBuf, String), Failure> {
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
                return Err(Failure::finding(&d, Some(read.source), path));
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
    use crate::check_cmd::{classify, DocKind};
    use crate::json::pointer::JsonPointer;
    let named = |v: &Value| {
        format!(
            "apiVersion {:?}, kind {:?}",
            str_member(v, "apiVersion"),
            str_member(v, "kind")
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

/// One line of the target-contract column: `formrefs: <apiVersion> <kind>
/// <definitionVersion>, …`, `interface: <name>@<version>`, or `-`.
pub fn contract_text(r: &Relation) -> String {
    let mut parts = Vec::new();
    if let Some(refs) = &r.target_form_refs {
        let list: Vec<String> = refs
            .iter()
            .map(|f| {
                format!(
                    "{} {} {}",
                    str_member(f, "apiVersion"),
                    str_member(f, "kind"),
                    str_member(f, "definitionVersion")
                )
            })
            .collect();
        parts.push(format!("formrefs: {}", list.join(", ")));
    }
    if let Some(i) = &r.required_interface {
        parts.push(format!(
            "interface: {}@{}",
            str_member(i, "name"),
            str_member(i, "version")
        ));
    }
    if parts.is_empty() {
        "-".to_owned()
    } else {
        parts.join("; ")
    }
}

/// Left-aligned columns separated by two spaces; the last column is not
/// padded.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i + 1 == row.len() {
                line.push_str(cell);
            } else {
                let width = widths.get(i).copied().unwrap_or(0);
                line.push_str(&format!("{cell:<width$}  "));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The human rendering: header line, relation table, instance table (with
/// `--instance`), findings (located as `verify`'s; coloured when `color`), count line.
fn render_human(
    def: &Read,
    relations: &[Relation],
    run: &RunView<'_>,
    instances: Option<&[Instance]>,
    color: bool,
) -> String {
    let diagnostics: Vec<&Diagnostic> = run.findings().map(|(_, f)| f.diag).collect();
    let v = &def.value;
    let mut out = format!(
        "{} {} {} ({})\n\n",
        str_member(v, "apiVersion"),
        str_member(v, "kind"),
        str_member(v, "definitionVersion"),
        def.name
    );
    if relations.is_empty() {
        out.push_str("no relations\n");
    } else {
        let rows: Vec<Vec<String>> = relations
            .iter()
            .map(|r| {
                vec![
                    r.pointer.clone(),
                    format!("{}/{}", r.target_api_version, r.target_kind),
                    if r.binding.is_empty() {
                        "-".to_owned()
                    } else {
                        r.binding.clone()
                    },
                    if r.required { "yes" } else { "no" }.to_owned(),
                    contract_text(r),
                ]
            })
            .collect();
        out.push_str(&table(
            &[
                "POINTER",
                "TARGET",
                "BINDING",
                "REQUIRED",
                "TARGET CONTRACT",
            ],
            &rows,
        ));
    }
    if let Some(instances) = instances {
        out.push('\n');
        if instances.is_empty() {
            out.push_str("no instances\n");
        } else {
            let rows: Vec<Vec<String>> = instances
                .iter()
                .map(|i| vec![i.pointer.clone(), i.name.clone(), i.relation.clone()])
                .collect();
            out.push_str(&table(&["INSTANCE", "NAME", "RELATION"], &rows));
        }
    }
    if !diagnostics.is_empty() {
        out.push('\n');
    }
    out.push_str(&human::render_run(
        run,
        &render::Options {
            quiet: true,
            color,
            ..Default::default()
        },
    ));
    out.push('\n');
    out.push_str(&count_line(relations.len(), run, instances.map(<[_]>::len)));
    out.push('\n');
    out
}

/// The closing count of the human and `github` outputs: `8 relations, 1
/// warning, 0 notes` (`, 2 instances` with `--instance`). `relations`
/// derives, it does not verify: no "verified" count.
fn count_line(relations: usize, run: &RunView<'_>, instances: Option<usize>) -> String {
    // Errors only when some finding is one (a bad `--instance` document in
    // a machine format); a derivation itself has warnings and notes.
    let errors = match run.counts.errors {
        0 => String::new(),
        n => format!("{}, ", count(n, "error")),
    };
    let mut line = format!(
        "{}, {errors}{}, {}",
        count(relations, "relation"),
        count(run.counts.warnings, "warning"),
        count(run.counts.notes, "note")
    );
    if let Some(n) = instances {
        line.push_str(&format!(", {}", count(n, "instance")));
    }
    line
}

/// The `--format json` document (shape in the module doc).
fn render_json_doc(
    def: &Read,
    relations: &[Relation],
    run: &RunView<'_>,
    instances: Option<&[Instance]>,
) -> String {
    let v = &def.value;
    let mut doc = json!({
        "version": VERSION,
        "definition": {
            "apiVersion": str_member(v, "apiVersion"),
            "kind": str_member(v, "kind"),
            "definitionVersion": str_member(v, "definitionVersion"),
        },
        "relations": relations,
        "diagnostics": run
            .findings()
            .map(|(_, f)| render_json::diagnostic_value(f))
            .collect::<Vec<_>>(),
    });
    if let (Some(instances), Some(o)) = (instances, doc.as_object_mut()) {
        o.insert("instances".to_owned(), json!(instances));
    }
    let mut text =
        serde_json::to_string_pretty(&doc).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    text.push('\n');
    text
}

fn run_inner(
    path: &Path,
    format: Format,
    instance: Option<&Path>,
    opts: &render::Options,
) -> Result<(String, u8), Failure> {
    let stdin = path.as_os_str() == "-";
    if !stdin && !path.exists() {
        return Err(Failure::usage(format!(
            "{}: no such file or directory",
            path.display()
        )));
    }
    if let Some(i) = instance {
        if !i.exists() {
            return Err(Failure::usage(format!(
                "{}: no such file or directory",
                i.display()
            )));
        }
        if i.is_dir() {
            return Err(Failure::usage(format!(
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
            .map_err(|e| Failure::usage(format!("read standard input: {e}")))?;
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
        let mut failure = Failure::finding(&d.in_file(&def_name), Some(def.source), package);
        failure.definition = Some(def.value);
        return Err(failure);
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
    // A bad --instance document: a finding (exit 1). In a machine format it
    // is reported beside the derivation, as a second entry named after the
    // FILE as given (T2 F3); in `human` it stops the command on stderr.
    let mut refused: Option<Failure> = None;
    let instances = match instance {
        Some(i) => {
            // An --instance FILE that cannot be read is the command
            // failing to run (exit 2), like a missing one; one that does
            // not parse is a finding (exit 1).
            let bytes = read_regular(i, fsread::JSON_LIMIT).map_err(|e| {
                Failure::usage(format!("--instance {}: cannot read: {e}", i.display()))
            })?;
            match read_instance(bytes, &i.display().to_string()) {
                Ok(doc) => Some(relations::resolve(&derivation.relations, &doc)),
                Err(f) if format == Format::Human => return Err(f),
                Err(f) => {
                    refused = Some(f);
                    None
                }
            }
        }
        None => None,
    };
    let Read {
        name,
        value,
        source,
    } = def;
    let mut outcome = vec![PackageOutcome {
        path: package.to_path_buf(),
        diagnostics,
        sources: std::collections::BTreeMap::from([(name.clone(), source)]),
        ..Default::default()
    }];
    let code = u8::from(refused.is_some());
    outcome.extend(refused.and_then(Failure::into_outcome));
    let mut run = RunView::new(&outcome, opts.deny_warnings);
    name_bare_entries(&mut run);
    if let Some(first) = run.packages.first_mut() {
        // A bare definition file (or standard input) is no directory: the
        // entry is named after it (a JUnit testcase, a JSON entry).
        if first.path().as_os_str().is_empty() {
            first.display = Some(name.clone().into());
        }
    }
    let def = Read {
        name,
        value,
        source: Source::default(),
    };
    let stdout = match format {
        Format::Json => render_json_doc(&def, &derivation.relations, &run, instances.as_deref()),
        Format::Human => render_human(
            &def,
            &derivation.relations,
            &run,
            instances.as_deref(),
            opts.color,
        ),
        // The workflow commands as `verify` writes them, then the count
        // line of the human output (the package summary would say
        // "verified" of a package that was only derived from).
        Format::Github => format!(
            "{}form-package: {}\n",
            github_findings(&run, opts),
            count_line(
                derivation.relations.len(),
                &run,
                instances.as_deref().map(<[_]>::len)
            )
        ),
        other => render::render(other, &run, opts),
    };
    Ok((stdout, code))
}

/// The name standard input gets in findings (`relations -`).
const STDIN_NAME: &str = "<stdin>";

/// Names each entry of `run` that is no directory (a bare definition file,
/// standard input, an `--instance` FILE: its path is empty) after the file
/// its first finding is in, so no JUnit testcase or JSON entry is named ""
/// (a bare definition without findings is named by the caller).
fn name_bare_entries(run: &mut RunView<'_>) {
    for p in &mut run.packages {
        if p.path().as_os_str().is_empty() && p.display.is_none() {
            p.display = p
                .findings
                .iter()
                .find_map(|f| f.diag.file.as_deref())
                .map(Into::into);
        }
    }
}

/// The findings of `run` as `verify --format github` writes them, without
/// its package summary line (`relations` closes with its own count line).
fn github_findings(run: &RunView<'_>, opts: &render::Options) -> String {
    render::render(
        Format::Github,
        run,
        &render::Options {
            quiet: true,
            ..opts.clone()
        },
    )
}

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
fn read_instance(bytes: Vec<u8>, name: &str) -> Result<Value, Failure> {
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
    Err(Failure::finding(&d, Some(doc.source), Path::new("")))
}

/// The document of a machine `format` for a finding that stopped the
/// command (T2 F3): the finding as `verify` reports a failing package
/// (PATH, or the `--instance` FILE), so stdout and `--output-file` carry a
/// document of the format asked for. `json` is the usual document with no
/// relations (definition members from the definition when it parsed);
/// `github` closes with a count line, as a derivation does.
fn render_refusal(failure: Failure, format: Format, opts: &render::Options) -> String {
    let definition = failure.definition.clone().unwrap_or(Value::Null);
    let outcome: Vec<PackageOutcome> = failure.into_outcome().into_iter().collect();
    let mut run = RunView::new(&outcome, opts.deny_warnings);
    name_bare_entries(&mut run);
    match format {
        Format::Json => {
            let def = Read {
                name: String::new(),
                value: definition,
                source: Source::default(),
            };
            render_json_doc(&def, &[], &run, None)
        }
        Format::Github => format!(
            "{}form-package: no relations derived, {}, {}, {}\n",
            github_findings(&run, opts),
            count(run.counts.errors, "error"),
            count(run.counts.warnings, "warning"),
            count(run.counts.notes, "note")
        ),
        other => render::render(other, &run, opts),
    }
}

/// Runs `relations` on PATH (a package directory or a definition file) in
/// `format`, resolving against the `instance` desired document when given;
/// SARIF URIs are relative to the working directory. Exit status and JSON
/// shape: see the module doc.
pub fn run(path: &Path, format: Format, instance: Option<&Path>) -> Output {
    run_with(path, format, instance, &render::Options::here())
}

/// [`run`] with the renderer options of the command line.
pub fn run_with(
    path: &Path,
    format: Format,
    instance: Option<&Path>,
    opts: &render::Options,
) -> Output {
    match run_inner(path, format, instance, opts) {
        Ok((stdout, code)) => Output {
            stdout: stdout.into_bytes(),
            code,
            ..Default::default()
        },
        Err(f) if f.finding.is_some() && format != Format::Human => Output {
            code: f.code,
            stdout: render_refusal(f, format, opts).into_bytes(),
            ..Default::default()
        },
        Err(f) => Output {
            code: f.code,
            stderr: f.render(opts.color),
            ..Default::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worker_version() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7")
    }

    #[test]
    fn contract_text_names_formrefs_interfaces_or_dash() {
        let mut r = Relation {
            pointer: "/a".into(),
            target_api_version: "x/v1".into(),
            target_kind: "K".into(),
            binding: String::new(),
            required: true,
            target_form_refs: Some(vec![
                json!({"apiVersion":"x/v1","kind":"K","definitionVersion":"0.1.0","schemaDigest":"sha256:00"}),
            ]),
            required_interface: None,
        };
        assert_eq!(contract_text(&r), "formrefs: x/v1 K 0.1.0");
        r.target_form_refs = None;
        assert_eq!(contract_text(&r), "-");
        r.required_interface = Some(json!({"name":"edge.kv","version":"1.0.0"}));
        assert_eq!(contract_text(&r), "interface: edge.kv@1.0.0");
    }

    #[test]
    fn table_pads_all_but_last_column() {
        let t = table(&["A", "BB"], &[vec!["xyz".into(), "1".into()]]);
        assert_eq!(t, "A    BB\nxyz  1\n");
    }

    #[test]
    fn every_format_goes_through_the_front_end() {
        for format in [Format::Sarif, Format::Github, Format::Junit] {
            let o = run(&worker_version(), format, None);
            assert_eq!(o.code, 0, "{format:?}: {}", o.stderr);
            assert!(!o.stdout.is_empty(), "{format:?}");
        }
        let sarif: Value =
            serde_json::from_slice(&run(&worker_version(), Format::Sarif, None).stdout).unwrap();
        assert_eq!(sarif["version"], "2.1.0");
        assert_eq!(sarif["runs"][0]["results"], json!([]));
        let junit = String::from_utf8(run(&worker_version(), Format::Junit, None).stdout).unwrap();
        assert_eq!(junit.matches("<testcase ").count(), 1, "{junit}");
        // `relations` derives, it does not verify: its github summary is the
        // count line of the human output, never "1 verified".
        let github =
            String::from_utf8(run(&worker_version(), Format::Github, None).stdout).unwrap();
        assert_eq!(github, "form-package: 8 relations, 0 warnings, 0 notes\n");
    }

    #[test]
    fn missing_path_is_status_2_and_bad_definition_is_status_1() {
        let o = run(Path::new("/nonexistent/form-package-x"), Format::Json, None);
        assert_eq!(o.code, 2);
        let tmp = std::env::temp_dir().join(format!("relcmd-{}.json", std::process::id()));
        std::fs::write(&tmp, b"{\"a\":1,\"a\":2}").unwrap();
        let o = run(&tmp, Format::Human, None);
        std::fs::remove_file(&tmp).unwrap();
        assert_eq!(o.code, 1);
        assert!(o.stderr.contains("FD0"), "{}", o.stderr);
        assert!(o.stderr.contains("duplicate object name"), "{}", o.stderr);
        assert!(o.stdout.is_empty());
    }

    #[test]
    fn json_document_has_the_documented_members() {
        let o = run(&worker_version(), Format::Json, None);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["version"], 1);
        assert_eq!(v["definition"]["kind"], "WorkerVersion");
        assert_eq!(v["relations"].as_array().unwrap().len(), 8);
        assert_eq!(v["diagnostics"], json!([]));
        assert!(v.get("instances").is_none());
    }
}

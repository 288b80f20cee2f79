//! `form-package desired validate|materialize DIR... REF FILE` (issue 39
//! item 2): what a host does with one request's desired document
//! (`host-rules.md` §1.6).
//!
//! 1. Every package under the DIRs (package directories or trees, found as
//!    `verify` finds them) is verified by the library ([`crate::verify`]);
//!    a refused one is an entry of the report with its findings and takes
//!    no part in the set.
//! 2. REF — `GROUP/KIND@VERSION`, or a file holding a FormRef — is looked up
//!    exactly among the verified Forms ([`resolve`]): apiVersion, kind and
//!    definitionVersion equal, and the schemaDigest too for a FormRef. Never
//!    "latest", never by kind alone: no match is `FD760`, two are `FD761`,
//!    a REF file that is not a FormRef `FD763`.
//! 3. FILE is read as strict I-JSON and validated against the Form's
//!    `desiredSchema` by the fixture engine (`FD762` per violation);
//!    `materialize` first inserts the Form's defaults as the Core does
//!    ([`crate::host::materialize`]), validates the result, and hands on its
//!    RFC 8785 bytes ([`DesiredRun::materialized`]).
//!
//! The seam for the Snapshot compiler (issue 39 item 1): the set is the
//! verified packages given ([`Set`]); [`compile_set`] is where the set will
//! be compiled as the Core compiles it (lane, duplicate identity, contract
//! closure, default pins) once `snapshot` exists. Until then an
//! `--interface`, `--binding` or `--default` given is not checked, and a
//! note (`FD764`) says so.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use crate::codes::Code;
use crate::diag::escape::quote;
use crate::diag::{self, Diagnostic};
use crate::document::{document_entry, document_outcome};
use crate::fileread::{read_file, FileRefusal, Reach};
use crate::host::materialize;
use crate::json::pointer::JsonPointer;
use crate::json::strict;
use crate::report::{Entry, EntryKind, ExitRule, Report};
use crate::verify;

/// What `desired` does with the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The Core's `Validate`: the document as given.
    Validate,
    /// The Core's `Materialize`: defaults inserted, then validated, then
    /// RFC 8785 bytes.
    Materialize,
}

/// What the command line asked besides the inputs.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--default GROUP/KIND@VERSION` pins (repeatable).
    pub defaults: Vec<String>,
    /// `--interface FILE` (repeatable).
    pub interfaces: Vec<PathBuf>,
    /// `--binding FILE` (repeatable).
    pub bindings: Vec<PathBuf>,
    /// `--deny-warnings`.
    pub deny_warnings: bool,
}

/// The exact Form REF names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wanted {
    /// `apiVersion` (the group).
    pub api_version: String,
    /// `kind`.
    pub kind: String,
    /// `definitionVersion`.
    pub definition_version: String,
    /// `schemaDigest`, when REF is a FormRef.
    pub schema_digest: Option<String>,
}

impl Wanted {
    /// `GROUP/KIND@VERSION` (the group may hold a `/`: the kind is the last
    /// segment before `@`); `None` for any other shape.
    pub fn parse(text: &str) -> Option<Wanted> {
        let (head, version) = text.rsplit_once('@')?;
        let (group, kind) = head.rsplit_once('/')?;
        if group.is_empty() || kind.is_empty() || version.is_empty() {
            return None;
        }
        Some(Wanted {
            api_version: group.to_owned(),
            kind: kind.to_owned(),
            definition_version: version.to_owned(),
            schema_digest: None,
        })
    }

    /// A FormRef value: an object of exactly the four members, each a
    /// string; `Err` says what is wrong.
    pub fn from_form_ref(v: &Value) -> Result<Wanted, String> {
        let Some(map) = v.as_object() else {
            return Err("a FormRef is a JSON object".into());
        };
        let field = |name: &str| -> Result<String, String> {
            match map.get(name) {
                Some(Value::String(s)) => Ok(s.clone()),
                Some(_) => Err(format!("{name} is not a string")),
                None => Err(format!("{name} is missing")),
            }
        };
        let wanted = Wanted {
            api_version: field("apiVersion")?,
            kind: field("kind")?,
            definition_version: field("definitionVersion")?,
            schema_digest: Some(field("schemaDigest")?),
        };
        if let Some(extra) = map.keys().find(|k| {
            !matches!(
                k.as_str(),
                "apiVersion" | "kind" | "definitionVersion" | "schemaDigest"
            )
        }) {
            return Err(format!("{} is no member of a FormRef", quote(extra)));
        }
        Ok(wanted)
    }

    /// The Core's subject of an exact Form: `group/Kind@version` and, when
    /// known, ` schema=sha256:…`.
    pub fn subject(&self) -> String {
        let mut s = format!(
            "{}/{}@{}",
            self.api_version, self.kind, self.definition_version
        );
        if let Some(d) = &self.schema_digest {
            s.push_str(" schema=");
            s.push_str(d);
        }
        s
    }

    /// True when the FormRef `form_ref` is this one.
    fn matches(&self, form_ref: &Value) -> bool {
        let is = |k: &str, want: &str| form_ref.get(k).and_then(Value::as_str) == Some(want);
        is("apiVersion", &self.api_version)
            && is("kind", &self.kind)
            && is("definitionVersion", &self.definition_version)
            && self
                .schema_digest
                .as_deref()
                .is_none_or(|d| is("schemaDigest", d))
    }
}

/// One verified Form of the set: where it came from, its FormRef, and its
/// definition.
#[derive(Debug)]
pub struct Form {
    /// The package directory as found.
    pub path: PathBuf,
    /// The index FormRef.
    pub form_ref: Value,
    /// The Form Definition.
    pub definition: Value,
}

impl Form {
    /// The Core's subject of this exact Form.
    pub fn subject(&self) -> String {
        Wanted::from_form_ref(&self.form_ref)
            .map(|w| w.subject())
            .unwrap_or_default()
    }
}

/// The set of Forms a host would serve: the verified packages given.
#[derive(Debug, Default)]
pub struct Set {
    /// Every verified Form, in the order found.
    pub forms: Vec<Form>,
}

/// Where the set is compiled as the Core compiles it (issue 39 item 1):
/// until `snapshot` exists this checks nothing beyond verification, and
/// returns a note (`FD764`) when contracts or pins were given, so nothing
/// given is passed over in silence.
pub fn compile_set(set: Set, opts: &Options) -> (Set, Vec<Diagnostic>) {
    let mut notes = Vec::new();
    let given: Vec<String> = [
        ("--interface", opts.interfaces.len()),
        ("--binding", opts.bindings.len()),
        ("--default", opts.defaults.len()),
    ]
    .iter()
    .filter(|(_, n)| *n > 0)
    .map(|(flag, n)| format!("{n} {flag}"))
    .collect();
    if !given.is_empty() {
        notes.push(Diagnostic::new(
            Code::DesiredSetNotCompiled,
            format!(
                "{} given: not checked; REF is looked up among the verified packages",
                given.join(", ")
            ),
        ));
    }
    (set, notes)
}

/// The one exact lookup of REF in the set: the Form, or the finding that
/// refuses it (`FD760` none, `FD761` more than one). `refused`: the
/// FormRefs of packages that were refused, named in a note when one of
/// them is the Form wanted.
///
/// # Errors
/// The finding (no file; the caller places it).
// Called once a run: the large `Err` costs nothing measurable.
#[allow(clippy::result_large_err)]
pub fn resolve<'s>(
    set: &'s Set,
    wanted: &Wanted,
    refused: &[(PathBuf, Value)],
) -> Result<&'s Form, Diagnostic> {
    let found: Vec<&Form> = set
        .forms
        .iter()
        .filter(|f| wanted.matches(&f.form_ref))
        .collect();
    match found.as_slice() {
        [one] => Ok(one),
        [] => {
            let mut d = Diagnostic::new(
                Code::DesiredFormNotServed,
                format!(
                    "exact Form {} is absent from the verified packages given",
                    quote(&wanted.subject())
                ),
            );
            for (path, _) in refused.iter().filter(|(_, r)| wanted.matches(r)) {
                d = d.note(format!(
                    "the package {} names it but was refused (its findings above)",
                    quote(&path.display().to_string())
                ));
            }
            let near: Vec<String> = set
                .forms
                .iter()
                .filter(|f| {
                    f.form_ref.get("apiVersion").and_then(Value::as_str)
                        == Some(wanted.api_version.as_str())
                        && f.form_ref.get("kind").and_then(Value::as_str)
                            == Some(wanted.kind.as_str())
                })
                .map(|f| quote(&f.subject()))
                .collect();
            if !near.is_empty() {
                d = d.note(format!("verified of that kind: {}", near.join(", ")));
            }
            Err(d)
        }
        many => Err(Diagnostic::new(
            Code::DesiredFormAmbiguous,
            format!(
                "{} matches {} verified packages, want 1",
                quote(&wanted.subject()),
                many.len()
            ),
        )
        .note(format!(
            "packages: {}",
            many.iter()
                .map(|f| quote(&format!("{} ({})", f.path.display(), f.subject())))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// What a `desired` run found and made.
#[derive(Debug)]
pub struct DesiredRun {
    /// What was asked.
    pub mode: Mode,
    /// Every package, the REF file when it was one and had a finding, and
    /// the desired document (the last entry), each with its findings.
    pub report: Report,
    /// The Form's subject, when REF was found.
    pub form: Option<String>,
    /// `materialize`: the RFC 8785 bytes of the materialized document,
    /// when it was valid.
    pub materialized: Option<Vec<u8>>,
}

impl DesiredRun {
    /// The exit status ([`Report::exit_code`]).
    pub fn exit_code(&self) -> u8 {
        self.report.exit_code()
    }
}

/// How REF was given.
enum Ref {
    /// `GROUP/KIND@VERSION`, or a FormRef file that holds one.
    Wanted(Wanted),
    /// A file that holds no FormRef: its entry.
    Refused(Box<Entry>),
}

/// Reads REF: an existing file is a FormRef file, else `GROUP/KIND@VERSION`.
fn read_ref(reference: &str) -> Result<Ref, String> {
    let path = Path::new(reference);
    if std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        let bytes = read_file(path, Reach::Named, crate::limits::PAYLOAD_BYTES)
            .map_err(|e| format!("REF {}: {e}", quote(reference)))?;
        let finding = match strict::parse_value(&bytes) {
            Err(e) => e.to_diagnostic(),
            Ok(v) => match Wanted::from_form_ref(&v) {
                Ok(w) => return Ok(Ref::Wanted(w)),
                Err(why) => Diagnostic::new(
                    Code::DesiredRefInvalid,
                    format!("REF {} is not a FormRef: {why}", quote(reference)),
                ),
            },
        };
        let outcome = document_outcome(reference, bytes, vec![finding.in_file(reference)]);
        return Ok(Ref::Refused(Box::new(document_entry(reference, outcome))));
    }
    Wanted::parse(reference).map(Ref::Wanted).ok_or_else(|| {
        format!(
            "REF {} is neither a file nor GROUP/KIND@VERSION",
            quote(reference)
        )
    })
}

/// The finding of a FILE that could not be read (`FD900` it does not
/// exist, `FD905` anything else), as `check` words it.
fn unreadable(display: &str, e: &FileRefusal) -> Diagnostic {
    if e.is_not_found() {
        Diagnostic::new(
            Code::PathNotFound,
            format!("FILE {} does not exist ({e})", quote(display)),
        )
    } else {
        Diagnostic::new(
            Code::UnreadableFile,
            format!("FILE {} cannot be read ({e})", quote(display)),
        )
    }
}

/// The verified packages under `dirs` (each PATH walked as `verify` walks
/// it): the report entries of every package and walk finding, the Forms
/// of the packages that verified, and the FormRefs of those refused.
fn load(dirs: &[PathBuf]) -> (Vec<Entry>, Set, Vec<(PathBuf, Value)>) {
    let mut walked =
        crate::report::walk::discover(dirs, &crate::discover::WalkRules::default(), &|_| false);
    let mut entries = walked.entries();
    let mut seen = std::collections::BTreeSet::new();
    let roots: Vec<PathBuf> = walked
        .roots()
        .into_iter()
        .filter(|r| seen.insert(r.clone()))
        .collect();
    let verified: Vec<verify::Verified> = roots
        .par_iter()
        .map(|r| verify::verify_package_keeping_definition(r))
        .collect();
    let mut set = Set::default();
    let mut refused = Vec::new();
    for v in verified {
        let form_ref = v.outcome.figures.as_ref().map(|f| f.form_ref.clone());
        match (
            v.outcome.has_errors(),
            v.outcome.report.as_ref(),
            &v.definition,
        ) {
            (false, Some(report), Some(def)) => {
                if let Ok(definition) = strict::parse_value(&def.bytes) {
                    set.forms.push(Form {
                        path: v.outcome.path.clone(),
                        form_ref: report.form_ref.clone(),
                        definition,
                    });
                }
            }
            _ => {
                if let Some(r) = form_ref {
                    refused.push((v.outcome.path.clone(), r));
                }
            }
        }
        entries.push(Entry::new(EntryKind::Package, v.outcome));
    }
    (entries, set, refused)
}

/// Runs `desired validate|materialize` (see the module docs).
///
/// # Errors
/// The command could not run (exit 2): REF is neither a file nor
/// `GROUP/KIND@VERSION`, or the REF file cannot be read.
pub fn run(
    mode: Mode,
    dirs: &[PathBuf],
    reference: &str,
    file: &Path,
    opts: &Options,
) -> Result<DesiredRun, String> {
    let wanted = read_ref(reference)?;
    let (mut entries, set, refused) = load(dirs);
    let (set, notes) = compile_set(set, opts);
    let display = file.display().to_string();
    let mut rule = ExitRule {
        deny_warnings: opts.deny_warnings,
        ..ExitRule::default()
    };
    rule.deny_warnings = opts.deny_warnings;
    let mut run = DesiredRun {
        mode,
        report: Report::new(Vec::new(), rule),
        form: None,
        materialized: None,
    };
    let mut findings: Vec<Diagnostic> = notes;
    let form = match wanted {
        Ref::Refused(entry) => {
            entries.push(*entry);
            None
        }
        Ref::Wanted(w) => match resolve(&set, &w, &refused) {
            Ok(f) => Some(f),
            Err(d) => {
                findings.push(d);
                None
            }
        },
    };
    run.form = form.map(Form::subject);
    let bytes = match read_file(file, Reach::Named, crate::limits::PAYLOAD_BYTES) {
        Ok(b) => b,
        Err(e) => {
            run.report.could_not_read = true;
            findings.push(unreadable(&display, &e));
            let outcome = document_outcome(&display, Vec::new(), findings);
            entries.push(document_entry(&display, outcome));
            run.report.entries = entries;
            return Ok(run);
        }
    };
    let mut document = None;
    match materialize::read(&bytes) {
        Err(e) => findings.push(e.to_diagnostic()),
        Ok(d) => document = Some(d),
    }
    let mut extra = serde_json::Map::new();
    if let (Some(form), Some(desired)) = (form, document) {
        let schema = form.definition.get("desiredSchema").unwrap_or(&Value::Null);
        let compiled = crate::engine::compile_shared(schema).map_err(|e| {
            format!(
                "{}: desiredSchema does not compile after verification: {}",
                form.path.display(),
                e.first().map(|e| e.message.as_str()).unwrap_or("")
            )
        })?;
        extra.insert("formRef".into(), form.form_ref.clone());
        let (value, numbers, after) = match mode {
            Mode::Validate => (desired.value, desired.numbers, false),
            Mode::Materialize => {
                let m = materialize::materialize(schema, &desired);
                (m.value, m.numbers, true)
            }
        };
        let (violations, rest) = materialize::violations(&compiled, &value, numbers);
        let subject = form.subject();
        for v in &violations {
            let mut d = Diagnostic::new(
                Code::DesiredDocumentInvalid,
                format!(
                    "desired document does not satisfy exact Form {}: {}",
                    quote(&subject),
                    v.message
                ),
            )
            .note(format!(
                "schema keyword: /desiredSchema{}",
                v.schema_pointer.as_str()
            ));
            if after {
                d = d.note("validated after the Form's defaults were inserted, as a host does");
            }
            findings.push(match v.target {
                diag::Target::Key => d.at_key(v.instance_pointer.clone()),
                diag::Target::Value => d.at(v.instance_pointer.clone()),
            });
        }
        if rest > 0 {
            let mut d = Diagnostic::new(
                Code::DesiredDocumentInvalid,
                format!(
                    "{rest} more violation(s) of exact Form {} not shown",
                    quote(&subject)
                ),
            )
            .at(JsonPointer::root());
            d.not_shown = rest.saturating_sub(1);
            findings.push(d);
        }
        if violations.is_empty() && mode == Mode::Materialize {
            match crate::canonical::canonicalize(&value) {
                Ok(canonical) => {
                    extra.insert(
                        "materialized".into(),
                        Value::String(String::from_utf8_lossy(&canonical).into_owned()),
                    );
                    run.materialized = Some(canonical);
                }
                Err(d) => findings.push(d),
            }
        }
    }
    let findings = findings
        .into_iter()
        .map(|d| d.in_file_if_unset(&display))
        .collect();
    let mut outcome = document_outcome(&display, bytes, findings);
    outcome.extra = extra;
    entries.push(document_entry(&display, outcome));
    run.report.entries = entries;
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `GROUP/KIND@VERSION` splits at the last `/` before the last `@`;
    /// near misses: no `@`, no `/`, an empty part.
    #[test]
    fn a_short_ref_is_group_kind_and_version() {
        let w = Wanted::parse("edge.forms.takoform.com/v1alpha1/Worker@1.0.0").unwrap();
        assert_eq!(w.api_version, "edge.forms.takoform.com/v1alpha1");
        assert_eq!(w.kind, "Worker");
        assert_eq!(w.definition_version, "1.0.0");
        assert_eq!(w.subject(), "edge.forms.takoform.com/v1alpha1/Worker@1.0.0");
        for bad in ["a/b", "ab@1", "a/@1", "/b@1", "a/b@"] {
            assert_eq!(Wanted::parse(bad), None, "{bad}");
        }
    }

    /// A FormRef is exactly four strings; near misses: one missing, one
    /// not a string, a fifth member.
    #[test]
    fn a_form_ref_file_holds_exactly_a_form_ref() {
        let r = json!({"apiVersion": "g", "kind": "K", "definitionVersion": "1.0.0",
            "schemaDigest": "sha256:00"});
        let w = Wanted::from_form_ref(&r).unwrap();
        assert_eq!(w.subject(), "g/K@1.0.0 schema=sha256:00");
        let mut missing = r.clone();
        missing.as_object_mut().unwrap().remove("schemaDigest");
        assert_eq!(
            Wanted::from_form_ref(&missing).unwrap_err(),
            "schemaDigest is missing"
        );
        let mut number = r.clone();
        number["kind"] = json!(1);
        assert_eq!(
            Wanted::from_form_ref(&number).unwrap_err(),
            "kind is not a string"
        );
        let mut extra = r;
        extra["x"] = json!("y");
        assert!(Wanted::from_form_ref(&extra).is_err());
    }

    fn form(version: &str, digest: &str) -> Form {
        Form {
            path: PathBuf::from(format!("p-{version}-{digest}")),
            form_ref: json!({"apiVersion": "g", "kind": "K", "definitionVersion": version,
                "schemaDigest": digest}),
            definition: json!({}),
        }
    }

    /// The lookup is exact: another version is no match (FD760, naming the
    /// versions there are), two digests of one version are FD761, and a
    /// FormRef picks one of them.
    #[test]
    fn the_lookup_is_exact_never_latest() {
        let set = Set {
            forms: vec![form("1.0.0", "sha256:a"), form("1.1.0", "sha256:b")],
        };
        let w = Wanted::parse("g/K@1.2.0").unwrap();
        let d = resolve(&set, &w, &[]).unwrap_err();
        assert_eq!(d.code, Code::DesiredFormNotServed);
        assert!(d.notes[0].contains("g/K@1.1.0"), "{:?}", d.notes);
        let ok = resolve(&set, &Wanted::parse("g/K@1.1.0").unwrap(), &[]).unwrap();
        assert_eq!(ok.path, PathBuf::from("p-1.1.0-sha256:b"));
        let twice = Set {
            forms: vec![form("1.0.0", "sha256:a"), form("1.0.0", "sha256:c")],
        };
        let d = resolve(&twice, &Wanted::parse("g/K@1.0.0").unwrap(), &[]).unwrap_err();
        assert_eq!(d.code, Code::DesiredFormAmbiguous);
        let mut exact = Wanted::parse("g/K@1.0.0").unwrap();
        exact.schema_digest = Some("sha256:c".into());
        assert_eq!(
            resolve(&twice, &exact, &[]).unwrap().path,
            PathBuf::from("p-1.0.0-sha256:c")
        );
    }
}

//! The lone-document check: one Takoform JSON document on its own, checked
//! by what it is, with the findings, codes and locations it would get
//! inside a package (issue 12 part 3). `check FILE...`
//! ([`crate::ops::check`]) runs it over each FILE; `compat`, `conformance`,
//! the revocation commands and the language server call it too.
//!
//! Recognised kinds ([`DocKind`], from `apiVersion` and `kind`):
//! - a Form Definition (any profile): verified as the only payload of a
//!   package held in memory ([`crate::source::MemorySource`], nothing
//!   written to disk), with the fixtures it names that sit beside it at the
//!   named paths, so every definition-level rule, proof, the vocabulary,
//!   relations and fixtures run through the very pipeline `verify` runs
//!   ([`crate::verify::verify_source`]); the synthesised index is correct by
//!   construction ([`crate::index::build_lenient_source`]);
//! - a package index: verified alone the same way, keeping the findings of
//!   the index and its entries (the payloads are not there to check);
//! - a revocation statement or checkpoint ([`crate::revocation`]);
//! - a Binding or Interface Definition: strict I-JSON, its published schema
//!   (FD631/FD632), and its canonical digest.
//!
//! Anything else is FD630 naming the recognised kinds. A document's
//! canonical digest is reported (`packageDigest` in `--format json`: for a
//! package index it is the package digest, for any other document the digest
//! a FormRef, InterfaceRef or checkpoint entry would name).

use crate::diag::escape::quote;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::canonical::{canonicalize, sha256_digest};
use crate::codes::Code;
use crate::diag::{self, Diagnostic};
use crate::error::Error;
use crate::fileread::{read_file, FileRefusal, Reach};
use crate::json::pointer::JsonPointer;
use crate::json::strict;
use crate::report::{Entry, EntryKind};
use crate::schemas;
use crate::source::{MemorySource, ParsedDocument};
use crate::verify::{PackageOutcome, Source, INDEX_FILE};

pub use crate::doc_kind::{classify, DocKind, RECOGNISED};

/// One checked document.
#[derive(Debug)]
pub struct Checked {
    /// Findings, sources and (for a definition) relations and fixture count;
    /// `path` is the directory the document sits in and every finding's
    /// file is relative to it.
    pub outcome: PackageOutcome,
    /// What the document is, when recognised.
    pub kind: Option<DocKind>,
    /// The `apiVersion` it names, if any.
    pub api_version: Option<String>,
    /// `sha256:` of its RFC 8785 form, when it canonicalized.
    pub digest: Option<String>,
    /// The path as the user gave it (for the verdict line).
    pub shown: String,
    /// The document's one parse (value and span map) when it is strict
    /// I-JSON, whatever it is: the checks ran on it and `compat` goes on
    /// with it, reading and parsing nothing again.
    pub parsed: Option<strict::Parsed>,
}

/// Splits a path into (directory, file name) the way findings name them.
pub fn split(path: &str) -> (PathBuf, String) {
    let p = Path::new(path);
    match (p.parent(), p.file_name()) {
        (Some(dir), Some(name)) => (dir.to_path_buf(), name.to_string_lossy().into_owned()),
        _ => (PathBuf::new(), path.to_owned()),
    }
}

/// The report entry of a single document: `outcome` (its findings, the
/// directory its files are relative to) as an [`EntryKind::Document`]
/// named by `display`, the path as given ([`Entry::named`]): the `path` of
/// its `--format json` entry and the `name` of its JUnit testcase.
pub fn document_entry(display: &str, outcome: PackageOutcome) -> Entry {
    Entry::new(EntryKind::Document, outcome).named(PathBuf::from(display))
}

/// A single-document outcome: `display` (the path as given) becomes the
/// directory + file name pair the renderers join back together.
pub fn document_outcome(display: &str, bytes: Vec<u8>, diags: Vec<Diagnostic>) -> PackageOutcome {
    let (dir, name) = split(display);
    let spans = strict::parse(&bytes).ok().map(|p| p.spans);
    let mut diagnostics: Vec<Diagnostic> = diags
        .into_iter()
        .map(|d| {
            let file = d.file.clone();
            match file {
                Some(f) if f == display => d.in_file(name.clone()),
                None => d.in_file(name.clone()),
                Some(_) => d,
            }
        })
        .collect();
    diag::finish(&mut diagnostics);
    let mut sources = BTreeMap::new();
    sources.insert(name, Source { bytes, spans });
    PackageOutcome {
        path: dir,
        diagnostics,
        sources,
        ..Default::default()
    }
}

/// Checks one document. `display`: its path as given (or the
/// `--stdin-filename`); `beside`: the directory its fixtures would sit in
/// (`None` for standard input without a name).
///
/// The document is parsed once ([`strict::parse_with_numbers`]): that
/// parse is what every check reads (a definition's in-memory package takes
/// it, [`MemorySource::with_parsed`]) and what [`Checked::parsed`] hands on.
///
/// # Errors
/// Only when a fixture beside the definition, a regular file, cannot be read
/// (exit 2).
pub fn check_document(
    display: &str,
    bytes: Vec<u8>,
    beside: Option<&Path>,
) -> Result<Checked, String> {
    let mut checked = unchecked(display);
    let (parsed, numbers) = match strict::parse_with_numbers(&bytes) {
        Ok(p) => p,
        Err(e) => {
            checked.outcome = document_outcome(display, bytes, vec![e.to_diagnostic()]);
            checked
                .outcome
                .skipped
                .push("everything else: the document is not strict I-JSON".into());
            return Ok(checked);
        }
    };
    let doc = Arc::new(ParsedDocument { parsed, numbers });
    checked = check_parsed(checked, bytes, &doc, beside)?;
    // The sources that shared the parse are gone: it moves to the caller.
    checked.parsed = Some(Arc::try_unwrap(doc).map_or_else(|d| d.parsed.clone(), |d| d.parsed));
    Ok(checked)
}

/// [`check_document`] of a document its caller already parsed (an
/// editor's buffer, parsed once when its text arrived): `doc` must be the
/// strict reader's parse ([`strict::parse_with_numbers`]) of `bytes`, and
/// is what every check reads. [`Checked::parsed`] is left `None` (the
/// caller has the parse).
///
/// # Errors
/// As [`check_document`].
pub fn check_parsed_document(
    display: &str,
    bytes: Vec<u8>,
    doc: &Arc<ParsedDocument>,
    beside: Option<&Path>,
) -> Result<Checked, String> {
    check_parsed(unchecked(display), bytes, doc, beside)
}

/// A document's result before any check: shown as `display`.
fn unchecked(display: &str) -> Checked {
    Checked {
        outcome: PackageOutcome::default(),
        kind: None,
        api_version: None,
        digest: None,
        shown: display.to_owned(),
        parsed: None,
    }
}

/// [`check_document`] once the document parsed: `doc` is its parse, of
/// `bytes`.
fn check_parsed(
    mut checked: Checked,
    bytes: Vec<u8>,
    doc: &Arc<ParsedDocument>,
    beside: Option<&Path>,
) -> Result<Checked, String> {
    let display = checked.shown.clone();
    let display = display.as_str();
    let value = &doc.parsed.value;
    match canonicalize(value) {
        Ok(c) => checked.digest = Some(sha256_digest(&c)),
        Err(d) => {
            checked.outcome = document_outcome(display, bytes, vec![d]);
            return Ok(checked);
        }
    }
    checked.api_version = value
        .get("apiVersion")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let kind = classify(value);
    checked.kind = kind;
    let (_, name) = split(display);
    let mut fault = None;
    let diags = match kind {
        None => vec![Diagnostic::new(
            Code::UnrecognizedDocument,
            format!("not a recognised Takoform document; check recognises {RECOGNISED}"),
        )],
        Some(DocKind::RevocationStatement) => refused(
            crate::revocation::validate_statement(display, value).err(),
            &mut fault,
        ),
        Some(DocKind::RevocationCheckpoint) => refused(
            crate::revocation::validate_checkpoint(display, value).err(),
            &mut fault,
        ),
        Some(DocKind::BindingDefinition | DocKind::InterfaceDefinition) => contract(display, value)
            .unwrap_or_else(|e| {
                fault = Some(e);
                Vec::new()
            }),
        Some(DocKind::Definition) => {
            let mut out = as_package(&name, &bytes, doc, beside, true)?;
            out.path = split(display).0;
            out.package_digest = checked.digest.clone();
            if let Some(note) = beside.and_then(|dir| index_would_change(dir, &name)) {
                out.diagnostics.push(note);
                diag::finish(&mut out.diagnostics);
            }
            checked.outcome = out;
            return Ok(checked);
        }
        Some(DocKind::PackageIndex) => {
            let mut out = as_package(&name, &bytes, doc, None, false)?;
            out.path = split(display).0;
            out.package_digest = checked.digest.clone();
            checked.outcome = out;
            return Ok(checked);
        }
    };
    checked.outcome = document_outcome(display, bytes, diags);
    checked.outcome.package_digest = checked.digest.clone();
    checked.outcome.fault = fault;
    Ok(checked)
}

/// FD633 (issue 26 item 5): when `dir` holds a package index whose
/// `definitionPath` is `name`, the note that `index dir` would change it,
/// naming what; `None` when there is no such index, it is up to date, or
/// `index` would refuse (the definition's own findings say why).
fn index_would_change(dir: &Path, name: &str) -> Option<Diagnostic> {
    let found = read_file(
        &dir.join(INDEX_FILE),
        Reach::Found,
        crate::limits::INDEX_BYTES,
    );
    let bytes = found.ok()?;
    let existing = strict::parse_value(&bytes).ok()?;
    if existing.get("definitionPath").and_then(Value::as_str) != Some(name) {
        return None;
    }
    let indexed = crate::index::build(dir, None).ok()?;
    indexed.drift.then(|| {
        Diagnostic::new(
            Code::IndexWouldChange,
            format!(
                "{INDEX_FILE} beside this definition would change: {}",
                indexed.changes.join("; ")
            ),
        )
        .in_file(name)
    })
}

/// The findings of a revocation document's refusal; a fault of the
/// verifier goes to `fault` instead (the command then exits 2).
fn refused(refusal: Option<crate::error::Refused>, fault: &mut Option<Error>) -> Vec<Diagnostic> {
    match refusal {
        None => Vec::new(),
        Some(crate::error::Refused::Findings(diags)) => diags,
        Some(crate::error::Refused::Fault(e)) => {
            *fault = Some(e);
            Vec::new()
        }
    }
}

/// A Binding or Interface Definition: its published schema.
///
/// # Errors
/// [`Error::Internal`] when the embedded published schema does not build
/// (a fault of the verifier, never a finding about the document).
fn contract(display: &str, value: &Value) -> Result<Vec<Diagnostic>, Error> {
    let api = value
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let Some(row) = crate::profile::contract_profile(api) else {
        return Ok(vec![Diagnostic::new(
            Code::UnsupportedContractApiVersion,
            format!("contract: unsupported apiVersion {}", quote(api)),
        )
        .in_file(display)
        .at(JsonPointer::root().child("apiVersion"))]);
    };
    let (schema, what) = (row.schema, row.kind.document());
    schemas::validate(schema, value)
        .map(|v| schemas::to_diagnostics(v, Code::ContractSchemaViolation, display, what))
        .map_err(Error::Internal)
}

/// The definition member naming the fixture an index finding at
/// `/files/<i>/…` is about (`listed[i]` is that entry's path), e.g.
/// FD114 for `fixtures/desired` at `/conformanceFixtures/0/desiredPath`;
/// `None` for any other pointer or an entry no fixture path names.
fn entry_pointer(
    pointer: &str,
    listed: &[String],
    fixtures: &[(JsonPointer, String)],
) -> Option<JsonPointer> {
    let rest = pointer.strip_prefix("/files/")?;
    let index: usize = rest.split('/').next()?.parse().ok()?;
    let path = listed.get(index)?;
    fixtures
        .iter()
        .find(|(_, p)| p == path)
        .map(|(ptr, _)| ptr.clone())
}

/// A string member of `v`, or `""`.
fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// Verifies a lone definition (`definition`: true) or index as a package
/// held in memory ([`MemorySource`]: the document, the fixtures beside it
/// that it names, and for a definition an index synthesised from them), and
/// maps the findings back onto the document (named `name`) and the
/// fixtures beside it. Nothing is written anywhere. `doc` is the parse of
/// `bytes`: a definition's index build and checks take it, parsing it
/// never again.
fn as_package(
    name: &str,
    bytes: &[u8],
    doc: &Arc<ParsedDocument>,
    beside: Option<&Path>,
    definition: bool,
) -> Result<PackageOutcome, String> {
    let value = &doc.parsed.value;
    // The in-memory package of the files `files`, its definition given as
    // parsed (the one parse of `bytes`).
    let source = |files: BTreeMap<String, Vec<u8>>| {
        let source = MemorySource::new(MEMORY_ROOT, files);
        if definition {
            source.with_parsed("definition.json", Arc::clone(doc))
        } else {
            source
        }
    };
    let inner = if definition {
        "definition.json"
    } else {
        INDEX_FILE
    };
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    files.insert(inner.to_owned(), bytes.to_vec());
    let mut placeholder = false;
    let mut missing: BTreeSet<String> = BTreeSet::new();
    if definition {
        for (_, p) in crate::fixtures::named_fixture_paths(value) {
            if p == "definition.json" || crate::fsread::path_grammar(&p).is_err() {
                continue;
            }
            // A fixture beside the FILE is found, not named: never read
            // through a link, a regular file of at most the payload limit
            // (the package rules then apply their own); anything else is
            // missing.
            let Some(f) = beside.map(|d| d.join(&p)) else {
                missing.insert(p);
                continue;
            };
            match read_file(&f, Reach::Found, crate::limits::PAYLOAD_BYTES) {
                Ok(data) => {
                    files.insert(p, data);
                }
                Err(e @ (FileRefusal::TooLarge { .. } | FileRefusal::Io(_)))
                    if !e.is_not_found() =>
                {
                    return Err(format!("read {}: {e}", f.display()));
                }
                Err(_) => {
                    missing.insert(p);
                }
            }
        }
        let api = value
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let profile = crate::index::profile_for_definition(api);
        let unindexed = source(files.clone());
        let index =
            match crate::index::build_lenient_source(&unindexed, Some(&profile.api_version())) {
                Ok(indexed)
                    if schemas::validate(profile.index_schema(), &indexed.index)
                        .is_ok_and(|v| v.is_empty()) =>
                {
                    indexed.bytes
                }
                _ => {
                    // The definition's identity cannot make a valid index (an
                    // apiVersion no lane knows, a kind that is not a kind): index
                    // it under a placeholder identity instead, so every
                    // definition-level check still runs, and drop the identity
                    // findings the placeholder itself causes.
                    placeholder = true;
                    placeholder_index(profile, &files)?
                }
            };
        files.insert(INDEX_FILE.to_owned(), index);
    }
    // The synthesised index's `files[i].path`, to place an index finding
    // about a fixture's entry at the definition member naming that fixture.
    let listed: Vec<String> = files
        .get(INDEX_FILE)
        .and_then(|b| serde_json::from_slice::<Value>(b).ok())
        .and_then(|v| {
            v.get("files")
                .and_then(Value::as_array)
                .map(|files| files.iter().map(|f| str_of(f, "path").to_owned()).collect())
        })
        .unwrap_or_default();
    let verified = crate::verify::verify_source(Box::new(source(files)));
    let fixtures = if definition {
        crate::fixtures::named_fixture_paths(value)
    } else {
        Vec::new()
    };
    let mut diagnostics = Vec::new();
    for d in verified.diagnostics {
        let file = d.file.clone().unwrap_or_default();
        if definition {
            if file == "definition.json" {
                // A fixture that is not beside the definition is not checked, not missing.
                let named_missing = d.code == Code::FixtureUnlisted
                    && d.pointer
                        .resolve(value)
                        .and_then(Value::as_str)
                        .is_some_and(|p| missing.contains(p));
                if !named_missing {
                    diagnostics.push(d.in_file(name));
                }
            } else if file == INDEX_FILE
                && placeholder
                && matches!(
                    d.code,
                    Code::SchemaDigestMismatch
                        | Code::FormRefIdentityMismatch
                        | Code::InvalidFormRef
                        | Code::VersionedFormRef
                )
            {
                // caused by the placeholder identity, not by the definition
            } else if file == INDEX_FILE {
                // The synthesised index carries the definition's identity:
                // its findings are the definition's.
                let ptr = if d.pointer.as_str().starts_with("/formRef/") {
                    JsonPointer::from(d.pointer.as_str().trim_start_matches("/formRef"))
                } else {
                    entry_pointer(d.pointer.as_str(), &listed, &fixtures)
                        .unwrap_or_else(JsonPointer::root)
                };
                diagnostics.push(d.in_file(name).at(ptr).note(PACKAGED_NOTE));
            } else {
                diagnostics.push(d);
            }
        } else if file == INDEX_FILE && d.code != Code::MissingListedFile {
            diagnostics.push(d.in_file(name));
        }
    }
    // Fixtures named, none beside the definition, nothing else wrong: no
    // fixture ran, which a warning says in every format, so the definition
    // is not called verified in silence (issue 22 item 8). With an error
    // it fails anyway and the fixtures could not have run.
    if let (true, Some((first, _))) = (definition, fixtures.first()) {
        if fixtures.iter().all(|(_, p)| missing.contains(p))
            && !diagnostics.iter().any(Diagnostic::is_error)
        {
            let mut paths: Vec<&str> = fixtures.iter().map(|(_, p)| p.as_str()).collect();
            paths.dedup();
            diagnostics.push(
                Diagnostic::new(
                    Code::NoFixtureRan,
                    format!(
                        "no fixture ran: none of the {} fixture file{} the definition names is beside it ({})",
                        paths.len(),
                        if paths.len() == 1 { "" } else { "s" },
                        paths.join(", ")
                    ),
                )
                .in_file(name)
                .at(first.clone()),
            );
        }
    }
    // An index finding mapped onto a definition member that already has an
    // error of its own (the reserved group refused as FD120 and, in the
    // index, as FD125) says nothing new about the lone definition.
    let own: BTreeSet<(String, JsonPointer)> = diagnostics
        .iter()
        .filter(|d| d.is_error() && d.notes.iter().all(|n| !n.starts_with(PACKAGED_NOTE)))
        .map(|d| (d.file.clone().unwrap_or_default(), d.pointer.clone()))
        .collect();
    diagnostics.retain(|d| {
        !(d.notes.iter().any(|n| n.starts_with(PACKAGED_NOTE))
            && own.contains(&(d.file.clone().unwrap_or_default(), d.pointer.clone())))
    });
    diag::finish(&mut diagnostics);
    let mut sources = BTreeMap::new();
    for (f, s) in verified.sources {
        let key = if f == inner { name.to_owned() } else { f };
        sources.insert(key, s);
    }
    if !sources.contains_key(name) {
        sources.insert(
            name.to_owned(),
            Source {
                bytes: bytes.to_vec(),
                spans: Some(doc.parsed.spans.clone()),
            },
        );
    }
    let mut skipped: Vec<String> = if definition {
        verified.skipped
    } else {
        Vec::new()
    };
    if definition {
        for p in &missing {
            skipped.push(format!(
                "fixture {p}: no regular file beside the definition, not checked"
            ));
        }
    } else {
        skipped.push("payloads, definition, fixtures: a package index on its own".into());
    }
    Ok(PackageOutcome {
        path: PathBuf::new(),
        diagnostics,
        report: None,
        figures: None,
        package_digest: None,
        skipped,
        relations: verified.relations,
        fixtures_run: verified.fixtures_run,
        fixture_rejections: verified.fixture_rejections,
        sources,
        fault: verified.fault,
        summary: None,
        locator: None,
        elapsed: None,
    })
}

/// The name of the package `check` holds in memory (never shown: a
/// document's findings are named after the document).
const MEMORY_ROOT: &str = "package";

/// The note on a finding of the index a package of the definition would have.
const PACKAGED_NOTE: &str = "found in the package index a package of this definition would have";

/// A package index for the definition and the fixtures of `files` (the
/// package in memory, keyed by package path), with a placeholder FormRef
/// valid for `profile` (used when the definition's own identity cannot
/// make a valid index).
fn placeholder_index(
    profile: crate::profile::IndexProfile,
    files: &BTreeMap<String, Vec<u8>>,
) -> Result<Vec<u8>, String> {
    use crate::profile::IndexProfile as P;
    use sha2::Digest as _;
    let digest = |b: &[u8]| -> String {
        let hex: String = sha2::Sha256::digest(b)
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect();
        format!("sha256:{hex}")
    };
    let mut files: Vec<(String, &str, Vec<u8>)> = files
        .iter()
        .map(|(p, b)| {
            let media = if p == "definition.json" {
                crate::verify::DEFINITION_MEDIA_TYPE
            } else {
                "application/json"
            };
            (p.clone(), media, b.clone())
        })
        .collect();
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let api = match profile {
        P::V1alpha1 | P::V1alpha2 => "forms.takoform.com/v1alpha1",
        P::V1alpha3 => "forms.takoform.com/v1alpha2",
        P::V1alpha4 => "placeholder.forms.example.com/v1alpha1",
        P::V1alpha5 => "placeholder.forms.example.com",
    };
    let mut index = serde_json::json!({
        "apiVersion": profile.api_version(),
        "kind": "FormPackage",
        "definitionPath": "definition.json",
        "files": files.iter().map(|(p, m, b)| serde_json::json!({
            "path": p, "mediaType": m, "size": b.len(), "digest": digest(b),
        })).collect::<Vec<_>>(),
        "formRef": {
            "apiVersion": api,
            "kind": "Placeholder",
            "definitionVersion": "0.0.0",
            "schemaDigest": digest(b""),
        },
    });
    if let (P::V1alpha1, Some(map)) = (profile, index.as_object_mut()) {
        map.insert("packageVersion".into(), "0.0.0".into());
    }
    serde_json::to_vec_pretty(&index).map_err(|e| format!("temporary index: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revocation_fault_is_no_finding() {
        let mut fault = None;
        let diags = refused(
            Some(crate::error::Refused::Fault(Error::Internal(
                "embedded schema x: broken".into(),
            ))),
            &mut fault,
        );
        assert!(diags.is_empty());
        assert_eq!(
            fault.map(|e| e.to_string()).as_deref(),
            Some("internal error: embedded schema x: broken")
        );
        let mut fault = None;
        let finding = Diagnostic::new(Code::RevocationDecode, "bad");
        let diags = refused(Some(vec![finding.clone()].into()), &mut fault);
        assert_eq!(diags, vec![finding]);
        assert!(fault.is_none());
        assert!(refused(None, &mut fault).is_empty());
    }
}

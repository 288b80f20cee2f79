//! One side of a comparison: a Form Package directory or a bare
//! `definition.json`, verified first with the pipeline of `verify` (a
//! package) or `check` (a lone definition), then read for its definition
//! and FormRef (issue 20: "both are verified first, and a refused one is
//! reported and not compared").

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::canonical::{canonicalize, sha256_digest};
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::document::{check_document, DocKind};
use crate::error::Error;
use crate::fileread::{read_file, Reach};
use crate::json::pointer::JsonPointer;
use crate::limits::DEFINITION_BYTES;
use crate::verify::{PackageOutcome, Source, INDEX_FILE};

/// The definition file of a package whose index names none.
const DEFAULT_DEFINITION: &str = "definition.json";

/// The identity of a Form Definition (versioning-rules V1): the group
/// (`apiVersion`), `kind`, `definitionVersion` as written and
/// `schemaDigest` (the RFC 8785 digest of the definition,
/// `sha256:<64 hex>`): the one FormRef type, the snapshot compiler's.
pub use crate::host::snapshot::FormRef;

impl FormRef {
    /// `group kind version` (package text, as written).
    pub fn label(&self) -> String {
        format!(
            "{} {} {}",
            self.api_version, self.kind, self.definition_version
        )
    }
}

/// Which document of a side a pointer is into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Doc {
    /// The Form Definition.
    Definition,
    /// The package index (`package-index.json`; packages only).
    Index,
}

/// One side, read.
#[derive(Debug)]
pub struct Side {
    /// The PATH as found (a package directory or a definition file).
    pub path: PathBuf,
    /// The definition file as findings name it: `<package>/<definitionPath>`
    /// for a package, the PATH itself for a bare definition.
    pub def_file: String,
    /// The definition.
    pub definition: Value,
    /// Its bytes and span map.
    pub def_source: Source,
    /// `<package>/package-index.json`, for a package.
    pub index_file: Option<String>,
    /// The parsed index, for a package.
    pub index: Option<Value>,
    /// Its bytes and span map, for a package.
    pub index_source: Option<Source>,
    /// The definition's FormRef (digest computed from its bytes).
    pub form_ref: FormRef,
    /// The bytes a FormRef names, as one digest: the package digest for a
    /// package (the index lists every file's digest, V1: a fixture or the
    /// index changing needs a new version too), else the schema digest.
    pub digest: String,
    /// The findings of `verify` (or `check`) when it refused this side:
    /// the side is then reported and never compared.
    pub refused: Option<PackageOutcome>,
    /// The relations verification derived from the desired schema
    /// (decision 0015; empty when its relations check did not run: a
    /// legacy lane, a refused definition), compared by
    /// `meaning::relation_changes`.
    pub relations: Vec<crate::relations::Relation>,
    /// The desired schema as verification compiled it (`None`: it compiled
    /// none, or this side is a bare definition), so the comparison
    /// compiles it no second time (issue 35 item 4).
    pub desired_compiled: Option<crate::engine::CompiledSchema>,
    /// The package's regular files (package paths, byte order) as
    /// verification's inventory listed them ([`crate::verify::Verified::files`];
    /// empty for a bare definition).
    pub files: Vec<String>,
}

impl Side {
    /// The file name and source of one of this side's documents
    /// (`None`: a bare definition has no index).
    pub fn document(&self, doc: Doc) -> Option<(&str, &Source)> {
        match doc {
            Doc::Definition => Some((&self.def_file, &self.def_source)),
            Doc::Index => Some((self.index_file.as_deref()?, self.index_source.as_ref()?)),
        }
    }

    /// The value of one of this side's documents.
    pub fn value(&self, doc: Doc) -> Option<&Value> {
        match doc {
            Doc::Definition => Some(&self.definition),
            Doc::Index => self.index.as_ref(),
        }
    }

    /// `(line, column)` of `pointer` in one of this side's documents (of
    /// the nearest ancestor that resolves; 1-based), located as every
    /// finding is ([`crate::locate::pointer_position`]); `None` when the
    /// side has no such document or the pointer does not resolve.
    pub fn line_column(&self, doc: Doc, pointer: &JsonPointer) -> Option<(usize, usize)> {
        let (_, source) = self.document(doc)?;
        let p = crate::locate::pointer_position(source, pointer)?;
        Some((p.line, p.column))
    }

    /// True when both sides are the same bytes (the same digest).
    pub fn same_bytes(&self, other: &Side) -> bool {
        self.digest == other.digest
    }
}

/// What [`load`] found at a PATH.
#[derive(Debug)]
pub enum Loaded {
    /// A side (possibly refused by verification: [`Side::refused`]).
    Side(Box<Side>),
    /// Verification refused it and its definition could not be read at
    /// all: only the findings are left, and the package's regular files
    /// as for a side ([`Side::files`]).
    Refused(Box<PackageOutcome>, Vec<String>),
}

impl Loaded {
    /// The package's regular files as verification's inventory listed
    /// them ([`Side::files`]).
    pub fn files(&self) -> &[String] {
        match self {
            Loaded::Side(s) => &s.files,
            Loaded::Refused(_, files) => files,
        }
    }
}

/// Verifies and reads the package directory or definition file `path`
/// (a file through the lone-document check,
/// [`crate::document::check_document`]).
///
/// # Errors
/// [`Error::Usage`] when `path` does not exist; a fault of the verifier
/// itself (exit 2).
pub fn load(path: &Path) -> Result<Loaded, Error> {
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))?;
    if meta.is_dir() {
        load_package(path)
    } else {
        load_file(path)
    }
}

/// A package directory: `verify`, then its index and definition as verify
/// read them.
fn load_package(path: &Path) -> Result<Loaded, Error> {
    from_verified(path, crate::verify::verify_package_keeping_definition(path))
}

/// A package held in memory (`compat --baseline-rev`: BASE read from
/// git), named by its source's path: `verify`, then its index and
/// definition as verify read them, as for a directory.
///
/// # Errors
/// A fault of the verifier (exit 2).
pub fn load_source(source: Box<dyn crate::source::PackageSource>) -> Result<Loaded, Error> {
    let path = source.path().to_path_buf();
    from_verified(
        &path,
        crate::verify::verify_source_keeping_definition(source),
    )
}

/// A side from what verification of the package `path` kept.
fn from_verified(path: &Path, verified: crate::verify::Verified) -> Result<Loaded, Error> {
    let outcome = verified.outcome;
    if let Some(fault) = outcome.fault {
        return Err(fault);
    }
    let files = verified.files;
    let refused = outcome.has_errors().then_some(outcome);
    let Some((index, index_source)) = verified.index else {
        return Ok(refused_only(refused, path, files));
    };
    let index_file = path.join(INDEX_FILE);
    let mut relations = Vec::new();
    let mut desired_compiled = None;
    let mut digested = None;
    let read = verified.definition.and_then(|mut d| {
        relations = d.relations.take().unwrap_or_default();
        desired_compiled = d.desired.take();
        digested = d.schema_digest.take();
        let parsed = d.parse().ok()?;
        let source = Source {
            bytes: d.bytes,
            spans: Some(parsed.spans),
        };
        Some((path.join(d.path), parsed.value, source))
    });
    let (def_file, definition, def_source, form_ref) = match read {
        Some((def_file, definition, def_source)) => {
            match form_ref_digested(&definition, digested) {
                Some(f) => (def_file, definition, def_source, f),
                None => return Ok(refused_only(refused, path, files)),
            }
        }
        // A refused package whose definition is missing or unreadable
        // keeps its place in a version order by the FormRef its index
        // names; it is never compared.
        None => match (refused.is_some(), index_form_ref(&index)) {
            (true, Some(f)) => {
                let named = index.get("definitionPath").and_then(Value::as_str);
                let def_file = path.join(named.unwrap_or(DEFAULT_DEFINITION));
                (def_file, Value::Null, Source::default(), f)
            }
            _ => return Ok(refused_only(refused, path, files)),
        },
    };
    let digest = canonicalize(&index)
        .map(|c| sha256_digest(&c))
        .unwrap_or_else(|_| form_ref.schema_digest.clone());
    Ok(Loaded::Side(Box::new(Side {
        path: path.to_path_buf(),
        def_file: def_file.display().to_string(),
        definition,
        def_source,
        index_file: Some(index_file.display().to_string()),
        index: Some(index),
        index_source: Some(index_source),
        form_ref,
        digest,
        refused,
        relations,
        desired_compiled,
        files,
    })))
}

/// A bare definition file: `check`'s pipeline (the definition verified as
/// the only payload of a private package), then the document itself, as
/// that pipeline parsed it (value and span map from its one parse).
fn load_file(path: &Path) -> Result<Loaded, Error> {
    let display = path.display().to_string();
    // A FILE named on the command line ([`crate::fileread`]): the user's
    // own link is followed, only a regular file of at most the Form
    // Definition limit (4 MiB, `limits::DEFINITION_BYTES`) is read.
    let bytes = read_file(path, Reach::Named, DEFINITION_BYTES)
        .map_err(|e| Error::Usage(format!("{display}: cannot read: {e}")))?;
    let beside = path.parent().filter(|p| !p.as_os_str().is_empty());
    let checked = check_document(
        &display,
        bytes.clone(),
        Some(beside.unwrap_or(Path::new("."))),
    )
    .map_err(Error::Internal)?;
    let is_definition = checked.kind == Some(DocKind::Definition);
    let (mut outcome, parsed) = (checked.outcome, checked.parsed);
    if let Some(fault) = outcome.fault.take() {
        return Err(fault);
    }
    if parsed.is_some() && !is_definition {
        let name = path
            .file_name()
            .map_or_else(|| display.clone(), |n| n.to_string_lossy().into_owned());
        outcome.diagnostics.push(
            Diagnostic::new(
                Code::UnrecognizedDocument,
                "not a Form Definition: compat compares two Form Definitions (a package directory or its definition.json)",
            )
            .in_file(name)
            .at(JsonPointer::root()),
        );
    }
    // The relations `check` derived, as its outcome carries them.
    let relations = outcome
        .relations
        .iter()
        .filter_map(|r| serde_json::from_value(r.clone()).ok())
        .collect();
    let refused = outcome.has_errors().then_some(outcome);
    let Some(parsed) = parsed else {
        return Ok(refused_only(refused, path, Vec::new()));
    };
    let Some(form_ref) = form_ref(&parsed.value) else {
        return Ok(refused_only(refused, path, Vec::new()));
    };
    Ok(Loaded::Side(Box::new(Side {
        path: path.to_path_buf(),
        def_file: display,
        definition: parsed.value,
        def_source: Source {
            bytes,
            spans: Some(parsed.spans),
        },
        index_file: None,
        index: None,
        index_source: None,
        digest: form_ref.schema_digest.clone(),
        form_ref,
        refused,
        relations,
        desired_compiled: None,
        files: Vec::new(),
    })))
}

/// The refusal of a side whose definition cannot be read (the findings of
/// verification say why; a side verification passed always reads), with
/// the package's regular `files`.
fn refused_only(refused: Option<PackageOutcome>, path: &Path, files: Vec<String>) -> Loaded {
    let outcome = refused.unwrap_or_else(|| PackageOutcome {
        path: path.to_path_buf(),
        diagnostics: vec![Diagnostic::new(
            Code::UnrecognizedDocument,
            "the Form Definition could not be read after verification (it changed meanwhile?)",
        )],
        ..Default::default()
    });
    Loaded::Refused(Box::new(outcome), files)
}

/// The FormRef of a definition: `None` unless `apiVersion`, `kind` and
/// `definitionVersion` are strings and it canonicalizes.
pub fn form_ref(definition: &Value) -> Option<FormRef> {
    form_ref_digested(definition, None)
}

/// [`form_ref`] with the definition's schema digest when verification
/// computed it already (`None`: computed here).
fn form_ref_digested(definition: &Value, digest: Option<String>) -> Option<FormRef> {
    let s = |k: &str| definition.get(k).and_then(Value::as_str).map(str::to_owned);
    Some(FormRef {
        api_version: s("apiVersion")?,
        kind: s("kind")?,
        definition_version: s("definitionVersion")?,
        schema_digest: match digest {
            Some(d) => d,
            None => sha256_digest(&canonicalize(definition).ok()?),
        },
    })
}

/// The FormRef an index names (`formRef` with four strings).
fn index_form_ref(index: &Value) -> Option<FormRef> {
    let f = index.get("formRef")?;
    let s = |k: &str| f.get(k).and_then(Value::as_str).map(str::to_owned);
    Some(FormRef {
        api_version: s("apiVersion")?,
        kind: s("kind")?,
        definition_version: s("definitionVersion")?,
        schema_digest: s("schemaDigest")?,
    })
}

//! Loading a family: packages (verified by [`crate::verify`]), contracts
//! and candidate sets under the PATHs (issue 13).
//!
//! Everything comes from one walk per PATH, the walk `verify` makes with
//! verify's rules ([`crate::discover::walk_with_files`]: hidden
//! directories, `.gitignore` inside a git repository and `--exclude` globs
//! skipped, `--no-ignore` turns the first two off; each skipped directory is
//! kept with its rule in [`Family::skipped`]; its FD901/FD902 findings are
//! the family's). It never follows links and never descends into a
//! package. Package roots are its roots, and each package's Form comes from
//! the definition verify read (no second read, no link followed; a package
//! whose definition verify could not read has no Form, FD740, its findings
//! say why); a PATH that holds no package at all (a folder of contracts)
//! contributes none. The files it found outside packages named
//! `definition.json` are contracts, those named `candidate-set*.json`
//! candidate sets. Nothing is written anywhere.

use crate::diag::escape::quote;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use super::{Finding, Location, Step};
use crate::canonical::{canonicalize, sha256_digest};
use crate::codes::Code;
use crate::diag::Severity;
use crate::discover;
use crate::fileread::{read_file, FileRefusal, Reach};
use crate::json::pointer::JsonPointer;
use crate::json::strict::{self, SpanIndex};
use crate::locate::LineIndex;
use crate::relations::{self, Relation};
use crate::verify::{self, PackageOutcome};

/// Largest contract, candidate set or Form Definition read (the Form
/// Definition limit of `verifier-rules.md` §1.4, 4 MiB).
pub const MAX_DOCUMENT: u64 = crate::limits::DEFINITION_BYTES;

/// A parsed JSON file with what is needed to point into it.
#[derive(Debug)]
pub struct Doc {
    /// The path as found (PATH joined with the relative path).
    pub file: String,
    /// Raw bytes.
    pub bytes: Vec<u8>,
    /// The parsed value.
    pub value: Value,
    spans: SpanIndex,
    lines: LineIndex,
}

impl Doc {
    /// Reads and strictly parses `path`, a file found by the family walk
    /// ([`crate::fileread`], [`Reach::Found`]: a regular file, never through
    /// a link, at most [`MAX_DOCUMENT`] bytes).
    ///
    /// # Errors
    /// A finding (step [`Step::Contract`] unless the caller changes it):
    /// `FD011`/`FD012`/`FD013` for bytes that are not I-JSON; a file that
    /// cannot be read gets the code `verify` gives the same fault in a
    /// package ([`unreadable`]: a link `FD004`, a FIFO, socket or device
    /// `FD005`, anything else, too large among them, `FD014`), never an
    /// I-JSON code.
    pub fn read(path: &Path) -> Result<Doc, Box<Finding>> {
        Doc::read_as(path, Reach::Found)
    }

    /// [`Doc::read`] of a file reached as `reach`: a file the user named
    /// ([`Reach::Named`]) is read through their own link, as every command
    /// reads a file it is given.
    ///
    /// # Errors
    /// As [`Doc::read`].
    pub fn read_as(path: &Path, reach: Reach) -> Result<Doc, Box<Finding>> {
        let bytes =
            read_file(path, reach, MAX_DOCUMENT).map_err(|why| Box::new(unreadable(path, &why)))?;
        Doc::from_bytes(path.display().to_string(), bytes)
    }

    /// Strictly parses `bytes` of the file named `file` (as found).
    ///
    /// # Errors
    /// A finding (step [`Step::Contract`]): `FD011`/`FD012` for bytes that
    /// are not I-JSON, located where the reader stopped.
    pub fn from_bytes(file: String, bytes: Vec<u8>) -> Result<Doc, Box<Finding>> {
        let parsed = strict::parse(&bytes);
        Doc::from_parsed(file, bytes, parsed)
    }

    /// [`Doc::from_bytes`] for bytes already parsed: `parsed` is the strict
    /// reader's answer on `bytes` (with the span map).
    ///
    /// # Errors
    /// As [`Doc::from_bytes`].
    pub fn from_parsed(
        file: String,
        bytes: Vec<u8>,
        parsed: Result<strict::Parsed, strict::ParseError>,
    ) -> Result<Doc, Box<Finding>> {
        match parsed {
            Ok(p) => {
                let lines = LineIndex::new(&bytes);
                Ok(Doc {
                    file,
                    bytes,
                    value: p.value,
                    spans: p.spans,
                    lines,
                })
            }
            Err(e) => {
                let d = e.to_diagnostic();
                let at = crate::locate::offset_position(&bytes, e.span.start);
                let mut f = Finding::new(
                    d.code,
                    Step::Contract,
                    format!("invalid I-JSON: {}", d.message),
                );
                f.locate(Location {
                    file,
                    pointer: d.pointer.as_str().to_owned(),
                    line: at.line,
                    column: at.column,
                });
                f.diagnostic.help = d.help;
                Err(Box::new(f))
            }
        }
    }

    /// The location of `pointer` (its value, or the nearest ancestor that
    /// exists; line 1 column 1 when nothing resolves), located as every
    /// finding is ([`crate::locate::pointer_position_in`]).
    pub fn loc(&self, pointer: &JsonPointer) -> Location {
        let at = crate::locate::pointer_position_in(&self.bytes, &self.spans, &self.lines, pointer);
        Location {
            file: self.file.clone(),
            pointer: pointer.as_str().to_owned(),
            line: at.line,
            column: at.column,
        }
    }

    /// [`Doc::loc`] of a pointer given as text.
    pub fn loc_str(&self, pointer: &str) -> Location {
        self.loc(&JsonPointer::from(pointer))
    }

    /// RFC 8785 canonical digest of the value (`None` for a top-level scalar).
    pub fn digest(&self) -> Option<String> {
        canonicalize(&self.value).ok().map(|c| sha256_digest(&c))
    }
}

pub use crate::report::family::ContractRef;

impl ContractRef {
    /// Reads the four members; `None` unless all are strings.
    pub fn from_value(v: &Value) -> Option<ContractRef> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        Some(ContractRef {
            api_version: s("apiVersion").unwrap_or_default(),
            name: s("name")?,
            version: s("version")?,
            schema_digest: s("schemaDigest")?,
        })
    }

    /// Same name, version and digest (the identity decision 0015 and
    /// `verifier-rules.md` §8.7 compare; the `apiVersion` is not compared).
    pub fn same(&self, other: &ContractRef) -> bool {
        self.name == other.name
            && self.version == other.version
            && self.schema_digest == other.schema_digest
    }

    /// `name@version`.
    pub fn label(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }
}

/// A Form loaded from a package's Form Definition.
#[derive(Debug)]
pub struct Form {
    /// The definition file.
    pub doc: Doc,
    /// `apiVersion` of the definition (its family).
    pub api_version: String,
    /// `kind`.
    pub kind: String,
    /// `definitionVersion`.
    pub definition_version: String,
    /// RFC 8785 digest of the definition (what a FormRef's `schemaDigest` names).
    pub schema_digest: String,
    /// `role`, when declared.
    pub role: Option<String>,
    /// `providedInterfaces` entries with their index.
    pub provided: Vec<(usize, ContractRef)>,
    /// `acceptedBindings` entries with their index.
    pub accepted: Vec<(usize, ContractRef)>,
    /// Relations derived as `form-package relations` derives them.
    pub relations: Vec<Relation>,
}

impl Form {
    /// `apiVersion kind definitionVersion`.
    pub fn label(&self) -> String {
        format!(
            "{} {} {}",
            self.api_version, self.kind, self.definition_version
        )
    }
}

/// One package: its `verify` outcome and, when readable, its Form.
#[derive(Debug)]
pub struct Package {
    /// The package directory as found.
    pub path: String,
    /// What `verify` found.
    pub outcome: PackageOutcome,
    /// The Form, when its definition could be read.
    pub form: Option<Form>,
}

pub use crate::profile::ContractKind;

/// The members of a Binding Definition the checks read.
#[derive(Clone, Debug)]
pub struct BindingInfo {
    /// `sourceRole`.
    pub source_role: String,
    /// `targetInterface`.
    pub target_interface: Option<ContractRef>,
    /// `allowedTargetForms` as `(apiVersion, kind)`.
    pub allowed_target_forms: Vec<(String, String)>,
}

/// A loaded contract file.
#[derive(Debug)]
pub struct Contract {
    /// The file.
    pub doc: Doc,
    /// Binding or Interface, from the `apiVersion` group.
    pub kind: ContractKind,
    /// `name`, `version`, `apiVersion` and the computed digest.
    pub identity: ContractRef,
    /// For Binding Definitions.
    pub binding: Option<BindingInfo>,
    /// True when it satisfies its published schema (only valid contracts
    /// count as loaded for the relation checks: a host refuses the others).
    pub valid: bool,
}

/// A loaded candidate set.
#[derive(Debug)]
pub struct CandidateSet {
    /// The file.
    pub doc: Doc,
    /// `takoform.binding-candidates@v1` or `takoform.interface-candidates@v1`.
    pub kind: Option<ContractKind>,
}

/// Everything under the PATHs.
#[derive(Debug, Default)]
pub struct Family {
    /// Packages, sorted by path.
    pub packages: Vec<Package>,
    /// Contracts, sorted by path (files that did not parse are not here;
    /// their findings are).
    pub contracts: Vec<Contract>,
    /// Candidate sets, sorted by path.
    pub candidate_sets: Vec<CandidateSet>,
    /// Findings of loading (contract or candidate files that are not I-JSON,
    /// packages whose Form could not be read).
    pub findings: Vec<Finding>,
    /// The directories the walk skipped by a rule, each with its rule
    /// (`hidden`, `.gitignore`, `exclude`; [`discover::Walk::skipped`]), in
    /// walk order: nothing under them was loaded.
    pub skipped: Vec<(PathBuf, crate::discover::SkipRule)>,
}

/// Why `family` cannot run (exit status 2).
#[derive(Debug)]
pub struct LoadError(pub String);

/// Loads the family under `paths` with the walk's default rules
/// ([`load_with`]: hidden and `.gitignore`d directories skipped, no
/// `exclude`).
///
/// # Errors
/// As [`load_with`].
pub fn load(paths: &[PathBuf]) -> Result<Family, LoadError> {
    load_with(paths, &discover::WalkRules::default())
}

/// Loads the family under `paths`, walked under `rules` (verify's
/// [`discover::WalkRules`]: `--no-ignore`, `--exclude`).
///
/// # Errors
/// [`LoadError`] when a PATH is a file (regular, a device such as
/// `/dev/null`, a FIFO, a socket) that is none of a package (a
/// directory), a contract (`definition.json`) or a candidate set
/// (`candidate-set*.json`) (README *family*: exit 2). A PATH that does not
/// exist is no error here: it is an `FD900` finding (step
/// [`Step::Path`]) and every other PATH is loaded (the run exits 2).
pub fn load_with(paths: &[PathBuf], rules: &discover::WalkRules) -> Result<Family, LoadError> {
    let mut roots = Vec::new();
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    let mut missing = Vec::new();
    // Contracts and candidate sets named as PATHs: read as named (a link
    // the user gives is followed), never walked.
    let mut named = Vec::new();
    for p in paths {
        let meta = match std::fs::symlink_metadata(p) {
            Ok(meta) => meta,
            Err(e) => {
                // Reported, and every other PATH still loaded (T2 F7), as
                // `verify` does: FD900, the run exits 2.
                let f = Finding::new(
                    Code::PathNotFound,
                    Step::Path,
                    format!("PATH {} does not exist ({e})", p.display()),
                );
                missing.push(f);
                continue;
            }
        };
        if is_family_file(p) {
            // A contract or candidate set named directly is not a package.
            named.push(p.clone());
            continue;
        }
        // A regular file, a device (`/dev/null`), a FIFO or a socket is no
        // package; a symlink goes to the walk, which reports it (FD902).
        if !meta.is_dir() && !meta.file_type().is_symlink() {
            return Err(LoadError(format!(
                "{}: is none of a Form Package (a directory), a contract (definition.json) or a candidate set (candidate-set*.json)",
                p.display()
            )));
        }
        // The walk `verify` makes, with its rules: a directory it cannot
        // read (FD901) or a symlinked directory (FD902) is a finding of
        // its own, never a package or contract dropped in silence (T3 B3);
        // one a rule skips is said in the report.
        let mut walked =
            crate::report::walk::discover(std::slice::from_ref(p), rules, &is_family_name);
        for entry in walked.entries() {
            for d in &entry.outcome().diagnostics {
                missing.push(Finding::new(d.code, Step::Path, d.message.clone()));
            }
        }
        skipped.append(&mut walked.skipped);
        found.append(&mut walked.files);
        // A folder without any package (contracts only) is not a package here.
        if walked.no_package.is_empty() {
            roots.extend(walked.roots());
        }
    }
    let mut seen = HashSet::new();
    roots.retain(|r| seen.insert(r.clone()));
    roots.sort();
    let mut family = Family {
        findings: missing,
        skipped,
        ..Family::default()
    };
    let loaded: Vec<(Package, Option<Finding>)> = roots
        .par_iter()
        .map(|r| {
            let verify::Verified {
                outcome,
                definition,
                ..
            } = verify::verify_package_keeping_definition(r);
            let path = r.display().to_string();
            match load_form(r, definition) {
                Ok(form) => (
                    Package {
                        path,
                        outcome,
                        form: Some(form),
                    },
                    None,
                ),
                Err((why, location)) => {
                    let mut f = Finding::new(
                        Code::FamilyFormNotLoaded,
                        Step::Package,
                        format!("the package's Form Definition could not be loaded: {why}"),
                    );
                    f.source = Some(path.clone());
                    if let Some(l) = location {
                        f.locate(l);
                    }
                    (
                        Package {
                            path,
                            outcome,
                            form: None,
                        },
                        Some(f),
                    )
                }
            }
        })
        .collect();
    for (p, f) in loaded {
        family.packages.push(p);
        family.findings.extend(f);
    }
    let mut contract_files = Vec::new();
    let mut candidate_files = Vec::new();
    for f in found {
        // A link is not followed: a warning, as in a package.
        if std::fs::symlink_metadata(&f).is_ok_and(|m| m.file_type().is_symlink()) {
            family.findings.push(symlink_entry(&f));
        } else if f.file_name().is_some_and(|n| n == "definition.json") {
            contract_files.push(f);
        } else {
            candidate_files.push(f);
        }
    }
    // A file both named and found under another PATH is read as named
    // (the named entry comes first; the sort is stable).
    let (named_contracts, named_candidates): (Vec<PathBuf>, Vec<PathBuf>) = named
        .into_iter()
        .partition(|p| p.file_name().is_some_and(|n| n == "definition.json"));
    let reached = |named: Vec<PathBuf>, found: Vec<PathBuf>| {
        let mut files: Vec<(PathBuf, Reach)> = named
            .into_iter()
            .map(|f| (f, Reach::Named))
            .chain(found.into_iter().map(|f| (f, Reach::Found)))
            .collect();
        files.sort_by(|a, b| a.0.cmp(&b.0));
        files.dedup_by(|a, b| a.0 == b.0);
        files
    };
    let contract_files = reached(named_contracts, contract_files);
    let candidate_files = reached(named_candidates, candidate_files);
    for (f, reach) in contract_files {
        match Doc::read_as(&f, reach) {
            Ok(doc) => {
                if let Some(c) = contract(doc, &mut family.findings) {
                    family.contracts.push(c);
                }
            }
            Err(e) => family.findings.push(*e),
        }
    }
    for (f, reach) in candidate_files {
        match Doc::read_as(&f, reach) {
            Ok(doc) => {
                let kind = match doc.value.get("format").and_then(Value::as_str) {
                    Some("takoform.binding-candidates@v1") => Some(ContractKind::Binding),
                    Some("takoform.interface-candidates@v1") => Some(ContractKind::Interface),
                    _ => None,
                };
                family.candidate_sets.push(CandidateSet { doc, kind });
            }
            Err(e) => {
                let mut e = *e;
                e.step = Step::CandidateSet;
                family.findings.push(e);
            }
        }
    }
    Ok(family)
}

/// The finding for a contract or candidate set found at `path` that the
/// reader refused (`why`), with the code and help `verify` gives the same
/// fault in a package (`form-package rules`): a symbolic link is
/// `symlink_entry` (`FD004`, a warning: it is not followed); a FIFO, a
/// socket or a device `FD005` special-file-entry; a file larger than
/// [`MAX_DOCUMENT`], a directory or an OS error `FD014`
/// unreadable-payload. Step [`Step::Contract`], located at the file's
/// 1:1; the message says why.
pub fn unreadable(path: &Path, why: &FileRefusal) -> Finding {
    if why.is_symlink() {
        return symlink_entry(path);
    }
    let code = if why.is_special() {
        Code::SpecialFile
    } else {
        Code::UnreadablePayload
    };
    let file = path.display().to_string();
    let mut f = Finding::new(code, Step::Contract, format!("cannot read {file}: {why}"));
    f.locate(Location {
        file,
        pointer: String::new(),
        line: 1,
        column: 1,
    });
    f
}

/// `FD004` for a symbolic link named like a contract or a candidate set
/// (`definition.json`, `candidate-set*.json`): not followed, a warning.
fn symlink_entry(path: &Path) -> Finding {
    let mut f = Finding::new(
        Code::SymlinkEntry,
        Step::Contract,
        format!(
            "{} is a symbolic link; links are not followed",
            path.display()
        ),
    );
    f.diagnostic.severity = Severity::Warning;
    f
}

/// A regular file named `definition.json` or `candidate-set*.json`, or a
/// link to one (a PATH the user named is followed, as every command follows
/// a file it is given).
fn is_family_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
        && path.file_name().is_some_and(is_family_name)
}

/// True for the name of a contract (`definition.json`) or a candidate set
/// (`candidate-set*.json`), read lossily (a name that is not UTF-8 is
/// matched with U+FFFD in place of its bad bytes).
fn is_family_name(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name == "definition.json" || (name.starts_with("candidate-set") && name.ends_with(".json"))
}

/// The package's Form from the definition `verify` read (never read
/// again: verify's fenced reader is the one reader of a package's files,
/// no link followed): `None` when verify could not read it (its findings
/// say why).
fn load_form(
    root: &Path,
    definition: Option<verify::ReadDefinition>,
) -> Result<Form, (String, Option<Location>)> {
    let Some(mut definition) = definition else {
        return Err((
            "verify could not read it (see the package's findings)".to_owned(),
            None,
        ));
    };
    let file = root.join(&definition.path).display().to_string();
    let parsed = definition.parse();
    let doc = Doc::from_parsed(file, definition.bytes, parsed).map_err(|f| {
        let location = f.location();
        (f.diagnostic.message, location)
    })?;
    let s = |k: &str| doc.value.get(k).and_then(Value::as_str).map(str::to_owned);
    let (Some(api_version), Some(kind)) = (s("apiVersion"), s("kind")) else {
        return Err((
            "the definition has no string apiVersion and kind".to_owned(),
            Some(doc.loc_str("")),
        ));
    };
    let schema_digest = doc.digest().ok_or_else(|| {
        (
            "the definition is not a JSON object".to_owned(),
            Some(doc.loc_str("")),
        )
    })?;
    let refs = |k: &str| -> Vec<(usize, ContractRef)> {
        doc.value
            .get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .enumerate()
                    .filter_map(|(i, v)| ContractRef::from_value(v).map(|r| (i, r)))
                    .collect()
            })
            .unwrap_or_default()
    };
    let provided = refs("providedInterfaces");
    let accepted = refs("acceptedBindings");
    // Verify's relations when its check derived them, else (a legacy lane,
    // a definition that is not valid) derived here as `relations` does.
    let relations = definition
        .relations
        .unwrap_or_else(|| relations::derive(&doc.value).relations);
    Ok(Form {
        definition_version: s("definitionVersion").unwrap_or_default(),
        role: s("role"),
        api_version,
        kind,
        schema_digest,
        provided,
        accepted,
        relations,
        doc,
    })
}

/// Validates one parsed contract file and builds the [`Contract`]; `None`
/// (with a finding) when its `apiVersion` selects no contract schema.
fn contract(doc: Doc, findings: &mut Vec<Finding>) -> Option<Contract> {
    let api = doc
        .value
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let Some(&crate::profile::ContractRow { kind, schema, .. }) =
        crate::profile::contract_profile(api)
    else {
        let group = api.split('/').next().unwrap_or_default();
        let contract_group = matches!(group, "bindings.takoform.com" | "interfaces.takoform.com");
        let mut f = Finding::new(
            Code::UnsupportedContractApiVersion,
            Step::Contract,
            if contract_group {
                format!("{} selects no contract schema (bindings.takoform.com/v1alpha1, v1alpha2 or interfaces.takoform.com/v1alpha1)", quote(api))
            } else {
                format!(
                    "not a Binding or Interface Definition (apiVersion {}); ignored",
                    quote(api)
                )
            },
        );
        if !contract_group {
            // A definition.json outside any package that is no contract
            // (a loose Form Definition, say) is named, not checked.
            f.diagnostic.severity = Severity::Note;
            f.diagnostic.help = Some("contracts have apiVersion bindings.takoform.com/… or interfaces.takoform.com/…; Form Definitions belong in a package".to_owned());
        }
        f.locate(doc.loc_str("/apiVersion"));
        findings.push(f);
        return None;
    };
    let mut valid = true;
    match crate::schemas::validate(schema, &doc.value) {
        Ok(violations) => {
            for v in violations {
                valid = false;
                let mut f =
                    Finding::new(
                        Code::ContractSchemaViolation,
                        Step::Contract,
                        format!(
                        "the {} Definition does not satisfy its published Draft 2020-12 schema: {}",
                        if kind == ContractKind::Binding { "Binding" } else { "Interface" },
                        v.message
                    ),
                    );
                f.locate(doc.loc(&v.pointer));
                f.diagnostic
                    .notes
                    .push(format!("schema keyword: {}", v.schema_path));
                findings.push(f);
            }
        }
        Err(e) => {
            valid = false;
            let mut f = Finding::new(
                Code::ContractSchemaViolation,
                Step::Contract,
                format!("internal error: the embedded contract schema did not build: {e}"),
            );
            f.locate(doc.loc_str(""));
            findings.push(f);
        }
    }
    let s = |k: &str| {
        doc.value
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let identity = ContractRef {
        api_version: api.to_owned(),
        name: s("name"),
        version: s("version"),
        schema_digest: doc.digest().unwrap_or_default(),
    };
    let binding = (kind == ContractKind::Binding).then(|| BindingInfo {
        source_role: s("sourceRole"),
        target_interface: doc
            .value
            .get("targetInterface")
            .and_then(ContractRef::from_value),
        allowed_target_forms: doc
            .value
            .get("allowedTargetForms")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|t| {
                        Some((
                            t.get("apiVersion")?.as_str()?.to_owned(),
                            t.get("kind")?.as_str()?.to_owned(),
                        ))
                    })
                    .collect()
            })
            .unwrap_or_default(),
    });
    Some(Contract {
        doc,
        kind,
        identity,
        binding,
        valid,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code: a panic is a failed test
    use super::*;

    /// A package whose definition is not I-JSON is `FD740` at the place
    /// the strict reader names (near miss: a definition verify could not
    /// read has a reason and no place).
    #[test]
    fn a_form_that_does_not_load_is_located_where_its_read_failed() {
        let pkg = Path::new("pkg");
        let read = verify::ReadDefinition {
            path: "definition.json".to_owned(),
            bytes: br#"{"apiVersion": 1, "apiVersion": 2}"#.to_vec(),
            parsed: None,
            relations: None,
            desired: None,
            schema_digest: None,
        };
        let (why, at) = load_form(pkg, Some(read)).err().unwrap();
        assert!(why.contains("duplicate object name"), "{why}");
        let at = at.unwrap();
        assert_eq!(at.file, "pkg/definition.json");
        assert_eq!((at.line, at.column), (1, 19));
        let (why, at) = load_form(pkg, None).err().unwrap();
        assert!(why.starts_with("verify could not read it"), "{why}");
        assert!(at.is_none());
    }

    /// The Form is built from the definition verify read, with the
    /// relations verify derived: nothing is read again (the package's
    /// directory may be gone by then).
    #[test]
    fn a_form_is_built_from_what_verify_read() {
        let pkg = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7");
        let verified = verify::verify_package_keeping_definition(&pkg);
        assert!(verified.outcome.diagnostics.is_empty());
        let read = verified.definition.unwrap();
        let derived = read.relations.clone().unwrap();
        assert!(!derived.is_empty());
        let form = load_form(Path::new("/nonexistent/pkg"), Some(read)).unwrap();
        assert_eq!(form.relations, derived);
        assert_eq!(form.doc.file, "/nonexistent/pkg/definition.json");
        assert_eq!(verified.outcome.relations.len(), derived.len());
    }
}

//! `form-package check FILE...`: one Takoform JSON document on its own,
//! checked by what it is, with the findings, codes and locations it would
//! get inside a package (issue 12 part 3).
//!
//! Recognised kinds ([`DocKind`], from `apiVersion` and `kind`):
//! - a Form Definition (any profile): verified as the only payload of a
//!   package built in a private temporary directory, with the fixtures it
//!   names that sit beside it at the named paths, so every definition-level
//!   rule, proof, the vocabulary, relations and fixtures run through the
//!   very pipeline `verify` runs ([`crate::verify::verify_package`]); the
//!   synthesised index is correct by construction ([`crate::index::build_lenient`]);
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

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::canonical::{canonicalize, sha256_digest};
use crate::codes::Code;
use crate::diag::{self, Diagnostic};
use crate::error::Error;
use crate::json::pointer::JsonPointer;
use crate::json::strict;
use crate::output::Output;
use crate::render::{self, human, Format};
use crate::schemas;
use crate::verify::{PackageOutcome, Source, INDEX_FILE};

/// What a document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocKind {
    /// A Form Definition (any lane).
    Definition,
    /// A `package-index.json`.
    PackageIndex,
    /// A revocation statement (`FormPackageRevocation`).
    RevocationStatement,
    /// A revocation checkpoint (`FormPackageRevocationCheckpoint`).
    RevocationCheckpoint,
    /// A Binding Definition (`bindings.takoform.com`).
    BindingDefinition,
    /// An Interface Definition (`interfaces.takoform.com`).
    InterfaceDefinition,
}

impl DocKind {
    /// The kind's name in output.
    pub fn label(self) -> &'static str {
        match self {
            DocKind::Definition => "Form Definition",
            DocKind::PackageIndex => "package index",
            DocKind::RevocationStatement => "revocation statement",
            DocKind::RevocationCheckpoint => "revocation checkpoint",
            DocKind::BindingDefinition => "Binding Definition",
            DocKind::InterfaceDefinition => "Interface Definition",
        }
    }
}

/// The recognised kinds, as FD630 lists them.
pub const RECOGNISED: &str = "a Form Definition, a package index (packages.forms.takoform.com, FormPackage), a revocation statement or checkpoint (trust.forms.takoform.com), a Binding Definition (bindings.takoform.com) or an Interface Definition (interfaces.takoform.com)";

/// Classifies a parsed document by its `apiVersion` group and `kind`;
/// `None` when it is none of the recognised kinds.
pub fn classify(value: &Value) -> Option<DocKind> {
    let api = value.get("apiVersion").and_then(Value::as_str)?;
    let kind = value
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let group = api.split('/').next().unwrap_or(api);
    let definition_like =
        value.get("desiredSchema").is_some() || value.get("definitionVersion").is_some();
    Some(match group {
        _ if kind == "FormPackage" => DocKind::PackageIndex,
        "trust.forms.takoform.com" if kind == crate::revocation::CHECKPOINT_KIND => {
            DocKind::RevocationCheckpoint
        }
        "trust.forms.takoform.com" => DocKind::RevocationStatement,
        "bindings.takoform.com" => DocKind::BindingDefinition,
        "interfaces.takoform.com" => DocKind::InterfaceDefinition,
        _ if kind == crate::revocation::STATEMENT_KIND => DocKind::RevocationStatement,
        _ if kind == crate::revocation::CHECKPOINT_KIND => DocKind::RevocationCheckpoint,
        // A definition that names a reserved group is still a definition
        // (refused as one: FD120).
        _ if definition_like => DocKind::Definition,
        "packages.forms.takoform.com" => DocKind::PackageIndex,
        _ => return None,
    })
}

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
}

/// Splits a path into (directory, file name) the way findings name them.
pub fn split(path: &str) -> (PathBuf, String) {
    let p = Path::new(path);
    match (p.parent(), p.file_name()) {
        (Some(dir), Some(name)) => (dir.to_path_buf(), name.to_string_lossy().into_owned()),
        _ => (PathBuf::new(), path.to_owned()),
    }
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
/// # Errors
/// Only when a temporary directory cannot be created or written (exit 2).
pub fn check_document(
    display: &str,
    bytes: Vec<u8>,
    beside: Option<&Path>,
) -> Result<Checked, String> {
    let mut checked = Checked {
        outcome: PackageOutcome::default(),
        kind: None,
        api_version: None,
        digest: None,
        shown: display.to_owned(),
    };
    let parsed = match strict::parse(&bytes) {
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
    let value = parsed.value;
    match canonicalize(&value) {
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
    let kind = classify(&value);
    checked.kind = kind;
    let (_, name) = split(display);
    let mut fault = None;
    let diags = match kind {
        None => vec![Diagnostic::new(
            Code::UnrecognizedDocument,
            format!("not a recognised Takoform document; check recognises {RECOGNISED}"),
        )],
        Some(DocKind::RevocationStatement) => refused(
            crate::revocation::validate_statement(display, &value).err(),
            &mut fault,
        ),
        Some(DocKind::RevocationCheckpoint) => refused(
            crate::revocation::validate_checkpoint(display, &value).err(),
            &mut fault,
        ),
        Some(DocKind::BindingDefinition | DocKind::InterfaceDefinition) => {
            contract(display, &value).unwrap_or_else(|e| {
                fault = Some(e);
                Vec::new()
            })
        }
        Some(DocKind::Definition) => {
            let mut out = as_package(&name, &bytes, &value, beside, true)?;
            out.path = split(display).0;
            out.package_digest = checked.digest.clone();
            checked.outcome = out;
            return Ok(checked);
        }
        Some(DocKind::PackageIndex) => {
            let mut out = as_package(&name, &bytes, &value, None, false)?;
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
            format!("contract: unsupported apiVersion {api:?}"),
        )
        .in_file(display)
        .at(JsonPointer::root().child("apiVersion"))]);
    };
    let (schema, what) = (row.schema, row.kind.document());
    schemas::validate(schema, value)
        .map(|v| schemas::to_diagnostics(v, Code::ContractSchemaViolation, display, what))
        .map_err(Error::Internal)
}

/// The fixture paths a definition names (positive stage paths and negative
/// input paths).
fn fixture_paths(definition: &Value) -> Vec<(JsonPointer, String)> {
    let mut out = Vec::new();
    let lists = [
        (
            "conformanceFixtures",
            &["desiredPath", "observedPath", "outputPath"][..],
        ),
        ("negativeConformanceFixtures", &["inputPath"][..]),
    ];
    for (list, members) in lists {
        if let Some(items) = definition.get(list).and_then(Value::as_array) {
            for (i, f) in items.iter().enumerate() {
                for m in members {
                    if let Some(p) = f.get(*m).and_then(Value::as_str) {
                        out.push((
                            JsonPointer::root().child(list).index(i).child(m),
                            p.to_owned(),
                        ));
                    }
                }
            }
        }
    }
    out
}

/// Verifies a lone definition (`definition`: true) or index as a package
/// in a private temporary directory, and maps the findings back onto the
/// document (named `name`) and the fixtures beside it.
fn as_package(
    name: &str,
    bytes: &[u8],
    value: &Value,
    beside: Option<&Path>,
    definition: bool,
) -> Result<PackageOutcome, String> {
    let tmp = tempfile::Builder::new()
        .prefix("form-package-check-")
        .tempdir()
        .map_err(|e| format!("temporary directory: {e}"))?;
    let root = tmp.path().join("package");
    std::fs::create_dir(&root).map_err(|e| format!("temporary directory: {e}"))?;
    let inner = if definition {
        "definition.json"
    } else {
        INDEX_FILE
    };
    std::fs::write(root.join(inner), bytes).map_err(|e| format!("temporary file: {e}"))?;
    let mut placeholder = false;
    let mut missing: BTreeSet<String> = BTreeSet::new();
    let mut copied: BTreeSet<String> = BTreeSet::new();
    if definition {
        for (_, p) in fixture_paths(value) {
            if p == "definition.json" || crate::fsread::path_grammar(&p).is_err() {
                continue;
            }
            let from = beside.map(|d| d.join(&p));
            let regular = from
                .as_ref()
                .and_then(|f| std::fs::symlink_metadata(f).ok())
                .is_some_and(|m| m.is_file());
            match from {
                Some(f) if regular => {
                    let to = root.join(&p);
                    if let Some(parent) = to.parent() {
                        std::fs::create_dir_all(parent)
                            .map_err(|e| format!("temporary directory: {e}"))?;
                    }
                    let data =
                        std::fs::read(&f).map_err(|e| format!("read {}: {e}", f.display()))?;
                    std::fs::write(&to, data).map_err(|e| format!("temporary file: {e}"))?;
                    copied.insert(p);
                }
                _ => {
                    missing.insert(p);
                }
            }
        }
        let api = value
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let profile = crate::index::profile_for_definition(api);
        match crate::index::build_lenient(&root, Some(&profile.api_version())) {
            Ok(indexed)
                if schemas::validate(profile.index_schema(), &indexed.index)
                    .is_ok_and(|v| v.is_empty()) =>
            {
                crate::index::write(&root, &indexed).map_err(|e| format!("temporary index: {e}"))?
            }
            _ => {
                // The definition's identity cannot make a valid index (an
                // apiVersion no lane knows, a kind that is not a kind): index
                // it under a placeholder identity instead, so every
                // definition-level check still runs, and drop the identity
                // findings the placeholder itself causes.
                placeholder = true;
                let index = placeholder_index(profile, bytes, &root, &copied)?;
                std::fs::write(root.join(INDEX_FILE), index)
                    .map_err(|e| format!("temporary index: {e}"))?;
            }
        }
    }
    let verified = crate::verify::verify_package(&root);
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
                    JsonPointer::root()
                };
                diagnostics.push(d.in_file(name).at(ptr).note(PACKAGED_NOTE));
            } else {
                diagnostics.push(d);
            }
        } else if file == INDEX_FILE && d.code != Code::MissingListedFile {
            diagnostics.push(d.in_file(name));
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
                spans: strict::parse(bytes).ok().map(|p| p.spans),
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
        sources,
        fault: verified.fault,
    })
}

/// The note on a finding of the index a package of the definition would have.
const PACKAGED_NOTE: &str = "found in the package index a package of this definition would have";

/// A package index for `definition.json` and the `copied` fixtures under
/// `root`, with a placeholder FormRef valid for `profile` (used when the
/// definition's own identity cannot make a valid index).
fn placeholder_index(
    profile: crate::profile::IndexProfile,
    definition: &[u8],
    root: &Path,
    copied: &BTreeSet<String>,
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
    let mut files = vec![(
        "definition.json".to_owned(),
        crate::verify::DEFINITION_MEDIA_TYPE,
        definition.to_vec(),
    )];
    for p in copied {
        let b = std::fs::read(root.join(p)).map_err(|e| format!("temporary file: {e}"))?;
        files.push((p.clone(), "application/json", b));
    }
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

/// Renders single-document outcomes in `format`; `verdicts` are the human
/// verdict lines (one per outcome), used for `human` only.
pub fn render_documents(
    outcomes: &[PackageOutcome],
    verdicts: &[String],
    format: Format,
    color: bool,
    deny_warnings: bool,
) -> String {
    let run = render::RunView::new(outcomes, deny_warnings);
    let opts = render::Options {
        color,
        quiet: true,
        deny_warnings,
        ..render_options()
    };
    match format {
        Format::Human => {
            let mut text = String::new();
            for (p, v) in run.packages.iter().zip(verdicts) {
                text.push_str(&human::render_package(p, &opts));
                for s in &p.outcome.skipped {
                    text.push_str(&format!("  skipped {s}\n"));
                }
                text.push_str(v);
            }
            text
        }
        other => render::render(other, &run, &opts),
    }
}

/// Render options for single documents: SARIF URIs relative to the working
/// directory, as `verify` does by default.
fn render_options() -> render::Options {
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("."));
    render::Options {
        sarif_root: cwd.clone(),
        cwd,
        ..render::Options::default()
    }
}

/// The human verdict line of one checked document.
pub fn verdict_line(c: &Checked, deny_warnings: bool) -> String {
    let errors = c
        .outcome
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .count();
    let warnings = c
        .outcome
        .diagnostics
        .iter()
        .filter(|d| d.severity == diag::Severity::Warning)
        .count();
    let what = match (c.kind, &c.api_version) {
        (Some(k), Some(a)) => format!("{} {a}", k.label()),
        (Some(k), None) => k.label().to_owned(),
        (None, _) => "unrecognised document".to_owned(),
    };
    let warn = match warnings {
        0 => String::new(),
        1 => ", 1 warning".to_owned(),
        n => format!(", {n} warnings"),
    };
    if render::fails(&c.outcome, deny_warnings) {
        let e = if errors == 1 {
            "1 error".to_owned()
        } else {
            format!("{errors} errors")
        };
        format!("FAIL {}: {e}{warn} ({what})\n", c.shown)
    } else {
        let fixtures = if c.outcome.fixtures_run > 0 {
            match c.outcome.fixtures_run {
                1 => ", 1 fixture validation run".to_owned(),
                n => format!(", {n} fixture validations run"),
            }
        } else {
            String::new()
        };
        format!(
            "ok {} ({what}, {}{fixtures}{warn})\n",
            c.shown,
            c.digest.as_deref().unwrap_or_default()
        )
    }
}

/// `check FILE... [--stdin-filename NAME]`: `-` reads standard input.
pub fn run(
    files: &[PathBuf],
    stdin_filename: Option<&str>,
    format: Format,
    color: bool,
    deny_warnings: bool,
) -> Output {
    let mut checked = Vec::new();
    for f in files {
        let (display, bytes, beside) = if f.as_os_str() == "-" {
            let mut bytes = Vec::new();
            if let Err(e) = std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes) {
                return fail2(format!("read standard input: {e}"));
            }
            let name = stdin_filename.unwrap_or("<stdin>").to_owned();
            let beside = stdin_filename.map(|n| split(n).0);
            (name, bytes, beside)
        } else {
            match std::fs::metadata(f) {
                Ok(m) if m.is_dir() => {
                    return fail2(format!(
                        "{}: is a directory; check takes JSON documents (use `verify` for a package directory)",
                        f.display()
                    ))
                }
                _ => {}
            }
            match std::fs::read(f) {
                Ok(b) => {
                    let display = f.display().to_string();
                    let beside = Some(split(&display).0);
                    (display, b, beside)
                }
                Err(e) => return fail2(format!("read {}: {e}", f.display())),
            }
        };
        let beside = beside.map(|b| {
            if b.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                b
            }
        });
        match check_document(&display, bytes, beside.as_deref()) {
            Ok(c) => checked.push(c),
            Err(e) => return fail2(e),
        }
    }
    if let Some(out) = fault_exit(&checked) {
        return out;
    }
    let failed = checked
        .iter()
        .any(|c| render::fails(&c.outcome, deny_warnings));
    let verdicts: Vec<String> = checked
        .iter()
        .map(|c| verdict_line(c, deny_warnings))
        .collect();
    let outcomes: Vec<PackageOutcome> = checked.into_iter().map(|c| c.outcome).collect();
    let mut stdout = render_documents(&outcomes, &verdicts, format, color, deny_warnings);
    if format == Format::Human && outcomes.len() > 1 {
        let bad = outcomes
            .iter()
            .filter(|o| render::fails(o, deny_warnings))
            .count();
        stdout.push_str(&format!(
            "{} documents: {} ok, {} failed\n",
            outcomes.len(),
            outcomes.len() - bad,
            bad
        ));
    }
    Output {
        stdout: stdout.into_bytes(),
        stderr: String::new(),
        code: u8::from(failed),
    }
}

/// Exit 2 naming the first document whose checks an internal fault stopped
/// ([`PackageOutcome::fault`], e.g. an embedded published schema that does
/// not build): the command could not run, whatever the other documents say
/// (`DEVELOPERS.md` exit codes; `verify` does the same in
/// [`crate::app`]). `None` when no document has a fault.
fn fault_exit(checked: &[Checked]) -> Option<Output> {
    checked.iter().find_map(|c| {
        c.outcome
            .fault
            .as_ref()
            .map(|fault| fail2_with(format!("{}: {fault}", c.shown), fault.exit_code()))
    })
}

fn fail2(msg: String) -> Output {
    fail2_with(msg, 2)
}

fn fail2_with(msg: String, code: u8) -> Output {
    Output {
        stderr: format!("form-package: {msg}\n"),
        code,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(shown: &str, fault: Option<Error>, errors: usize) -> Checked {
        let diags = (0..errors)
            .map(|_| Diagnostic::new(Code::UnrecognizedDocument, "not recognised"))
            .collect();
        let mut outcome = document_outcome(shown, b"{}".to_vec(), diags);
        outcome.fault = fault;
        Checked {
            outcome,
            kind: None,
            api_version: None,
            digest: None,
            shown: shown.to_owned(),
        }
    }

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

    #[test]
    fn a_fault_exits_2_naming_the_document() {
        let docs = [
            checked("a.json", None, 1),
            checked(
                "b.json",
                Some(Error::Internal("embedded schema x: broken".into())),
                0,
            ),
        ];
        let out = fault_exit(&docs).unwrap();
        assert_eq!(out.code, 2);
        assert_eq!(
            out.stderr,
            "form-package: b.json: internal error: embedded schema x: broken\n"
        );
        assert!(out.stdout.is_empty());
    }

    #[test]
    fn findings_without_a_fault_are_no_fault_exit() {
        // Near miss: a refused document is a finding (exit 1 from `run`),
        // never the command failing to run.
        let docs = [checked("a.json", None, 2), checked("b.json", None, 0)];
        assert!(fault_exit(&docs).is_none());
        assert!(render::fails(&docs[0].outcome, false));
    }

    #[test]
    fn run_exits_1_on_a_refused_document() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, br#"{"apiVersion":"x/v1","kind":"Nothing"}"#).unwrap();
        let out = run(&[bad], None, Format::Human, false, false);
        assert_eq!(out.code, 1);
        assert!(String::from_utf8_lossy(&out.stdout).contains("FD630"));
    }
}

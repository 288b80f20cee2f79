//! The package pipeline: one package directory in, every finding out.
//!
//! Order follows `verifier-rules.md` §1.1 as changed by `current-profile.md`
//! §10 (the payload name scan runs after the FormRef re-validation). Unlike
//! the reference, which stops at the first error, every independent finding
//! is reported; a stage is skipped only when it depends on one that failed,
//! and the skipped stages are named in [`PackageOutcome::skipped`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::canonical::{canonicalize, is_canonical_digest, sha256_digest};
use crate::codes::Code;
use crate::diag::{self, Diagnostic};
use crate::fsread::{self, PackageRoot, StableMeta};
use crate::json::pointer::JsonPointer;
use crate::json::strict::{self, SpanIndex};
use crate::profile::{self, FormRefSchema, IndexProfile};
use crate::schemas::{self, SchemaRef};
use crate::stages;

/// The index file name.
pub const INDEX_FILE: &str = "package-index.json";
/// The Form Definition media type.
pub const DEFINITION_MEDIA_TYPE: &str = "application/vnd.takoform.form-definition.v1+json";

/// The reference report members (`verifier-rules.md` §9), emitted for a
/// package that verifies.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// `sha256:` digest of the RFC 8785 form of `package-index.json`.
    pub package_digest: String,
    /// The index FormRef (`apiVersion`, `kind`, `definitionVersion`, `schemaDigest`).
    pub form_ref: Value,
    /// Number of `files` entries (the index is not counted).
    pub file_count: usize,
    /// Sum of declared sizes in bytes (the index is not counted).
    pub payload_bytes: u64,
}

/// A file's bytes and, for JSON that parsed, its span map (for rendering).
#[derive(Debug, Default)]
pub struct Source {
    /// Raw bytes.
    pub bytes: Vec<u8>,
    /// Pointer → byte span map from the strict reader.
    pub spans: Option<SpanIndex>,
}

/// Everything `verify` learned about one package.
#[derive(Debug, Default)]
pub struct PackageOutcome {
    /// The package directory as given.
    pub path: PathBuf,
    /// Every finding, sorted by (file, pointer, severity, code).
    pub diagnostics: Vec<Diagnostic>,
    /// The reference report, when the package has no error.
    pub report: Option<Report>,
    /// The computed package digest, whenever the index canonicalized.
    pub package_digest: Option<String>,
    /// Stages not run because an earlier one failed, with the reason.
    pub skipped: Vec<String>,
    /// Relations derived from the desired schema (family and current lanes).
    pub relations: Vec<Value>,
    /// Fixture documents validated (positive + negative).
    pub fixtures_run: usize,
    /// Sources by package-relative path, for rendering spans: only the files
    /// some diagnostic names are kept (a tree of verified packages holds no
    /// file bytes).
    pub sources: BTreeMap<String, Source>,
}

impl PackageOutcome {
    /// True when some diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// One listed payload after the per-entry checks.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    pub(crate) index: usize,
    pub(crate) path: String,
    pub(crate) media_type: String,
    pub(crate) size: u64,
    pub(crate) digest: String,
}

/// A JSON payload that parsed.
pub(crate) struct JsonPayload {
    pub(crate) value: Value,
    /// The literal text of every number of `value` (§12 E4).
    pub(crate) numbers: crate::engine::numbers::Literals,
}

/// Verifies one package directory. Never panics on bad input; every problem
/// with the package is a diagnostic.
pub fn verify_package(path: &Path) -> PackageOutcome {
    let mut out = PackageOutcome {
        path: path.to_path_buf(),
        ..Default::default()
    };
    let mut run = Run {
        diags: Vec::new(),
        out: &mut out,
        parsed_json: BTreeSet::new(),
    };
    run.pipeline(path);
    let mut diags = std::mem::take(&mut run.diags);
    let parsed_json = std::mem::take(&mut run.parsed_json);
    diag::finish(&mut diags);
    out.diagnostics = diags;
    // Renderers look sources up only through a diagnostic's file.
    let named: BTreeSet<&str> = out
        .diagnostics
        .iter()
        .filter_map(|d| d.file.as_deref())
        .collect();
    out.sources.retain(|f, _| named.contains(f.as_str()));
    // Documents were parsed without span maps; build them for the files
    // that parsed and are kept (the same parse, so it succeeds again).
    for (file, source) in &mut out.sources {
        if source.spans.is_none() && parsed_json.contains(file) {
            source.spans = strict::parse(&source.bytes).ok().map(|p| p.spans);
        }
    }
    if out.has_errors() {
        out.report = None;
    }
    out
}

struct Run<'o> {
    diags: Vec<Diagnostic>,
    out: &'o mut PackageOutcome,
    /// Files whose bytes parsed as strict JSON (their span maps are built
    /// only if a diagnostic names them).
    parsed_json: BTreeSet<String>,
}

impl Run<'_> {
    fn skip(&mut self, what: &str, why: &str) {
        self.out.skipped.push(format!("{what}: {why}"));
    }

    fn pipeline(&mut self, path: &Path) {
        // 1. root
        let root = match fsread::open_root(path) {
            Ok(r) => r,
            Err(d) => {
                self.diags.push(d);
                self.skip("everything else", "the package root could not be opened");
                return;
            }
        };
        // 2. inventory
        let inventory = root.inventory();
        // Files with an inventory finding, and links and special files, count
        // as present (no closure cascade) but are never read (no second
        // finding for one cause). A directory with a finding is not a file.
        let mut present: BTreeMap<String, Option<StableMeta>> = BTreeMap::new();
        for e in &inventory.files {
            present.insert(e.rel.clone(), Some(e.meta));
        }
        for d in &inventory.diagnostics {
            if let Some(f) = &d.file {
                if let Some(slot) = present.get_mut(f) {
                    *slot = None;
                } else if matches!(d.code, Code::SymlinkEntry | Code::SpecialFile) {
                    present.insert(f.clone(), None);
                }
            }
        }
        self.diags.extend(inventory.diagnostics.iter().cloned());
        // An index that is a link, a FIFO or executable already has its
        // inventory finding: nothing more can be read, and "no index" or
        // "unreadable index" would be a second finding for the same cause.
        if inventory
            .diagnostics
            .iter()
            .any(|d| d.file.as_deref() == Some(INDEX_FILE))
        {
            self.skip(
                "index, payloads, definition, fixtures",
                "package-index.json is not a plain file",
            );
            return;
        }
        if !inventory.has_index {
            self.diags.push(Diagnostic::new(
                Code::MissingIndex,
                "package has no root package-index.json",
            ));
            self.skip(
                "index, payloads, definition, fixtures",
                "there is no package-index.json",
            );
            return;
        }
        // 3. fence
        if let Some(d) = root.fence() {
            self.diags.push(d);
        }
        // 4.–5. index
        let Some((profile, index)) =
            self.read_index(&root, present.get(INDEX_FILE).cloned().flatten())
        else {
            self.skip(
                "payloads, definition, fixtures",
                "package-index.json is not a valid index",
            );
            return;
        };
        let listed = self.check_entries(&index);
        // 10. closure
        let flagged: BTreeSet<String> = inventory
            .diagnostics
            .iter()
            .filter_map(|d| d.file.clone())
            .collect();
        self.closure(&listed, &present, &flagged);
        // 11. payloads
        let payloads = self.read_payloads(&root, &listed, &present);
        // 12.–19. definition, identity, fixtures
        stages::definition_and_after(
            self.out,
            &mut self.diags,
            profile,
            &index,
            &listed,
            &payloads,
        );
        if let Some(d) = root.fence() {
            self.diags.push(d);
        }
        if !self.diags.iter().any(Diagnostic::is_error) {
            if let Some(digest) = &self.out.package_digest {
                self.out.report = Some(Report {
                    package_digest: digest.clone(),
                    form_ref: index.get("formRef").cloned().unwrap_or(Value::Null),
                    file_count: listed.len(),
                    payload_bytes: listed.iter().map(|l| l.size).sum(),
                });
            }
        }
    }

    /// Steps 4–7: read, parse, canonicalize, select the profile, validate the
    /// index schema and the typed decode.
    fn read_index(
        &mut self,
        root: &PackageRoot,
        meta: Option<StableMeta>,
    ) -> Option<(IndexProfile, Value)> {
        let bytes = match root.read(INDEX_FILE, fsread::INDEX_LIMIT, meta.as_ref()) {
            Ok(b) => b,
            Err(d) => {
                self.diags
                    .push(retag(d, Code::UnreadableIndex).in_file_if_unset(INDEX_FILE));
                return None;
            }
        };
        let parsed = strict::parse_value(&bytes);
        let source = self.out.sources.entry(INDEX_FILE.to_owned()).or_default();
        source.bytes = bytes;
        let index = match parsed {
            Ok(p) => p,
            Err(e) => {
                self.diags.push(e.to_diagnostic().in_file(INDEX_FILE));
                return None;
            }
        };
        self.parsed_json.insert(INDEX_FILE.to_owned());
        match canonicalize(&index) {
            Ok(c) => self.out.package_digest = Some(sha256_digest(&c)),
            Err(d) => {
                self.diags.push(d.in_file(INDEX_FILE));
                return None;
            }
        }
        let api = match index.get("apiVersion") {
            Some(Value::String(s)) => s.clone(),
            _ => {
                let what = if index.is_object() {
                    "apiVersion must be a string"
                } else {
                    "the index must be a JSON object"
                };
                self.diags.push(
                    Diagnostic::new(
                        Code::UnsupportedIndexApiVersion,
                        format!("package index: {what}"),
                    )
                    .in_file(INDEX_FILE)
                    .at(if index.is_object() {
                        JsonPointer::root().child("apiVersion")
                    } else {
                        JsonPointer::root()
                    }),
                );
                return None;
            }
        };
        let Some(profile) = IndexProfile::from_api_version(&api) else {
            self.diags.push(
                Diagnostic::new(
                    Code::UnsupportedIndexApiVersion,
                    format!("package index: unsupported apiVersion {api:?}"),
                )
                .in_file(INDEX_FILE)
                .at(JsonPointer::root().child("apiVersion")),
            );
            return None;
        };
        match schemas::validate(profile.index_schema(), &index) {
            Ok(v) if v.is_empty() => {}
            Ok(v) => {
                self.diags.extend(schemas::to_diagnostics(
                    v,
                    Code::IndexSchemaViolation,
                    INDEX_FILE,
                    "package index",
                ));
                return None;
            }
            Err(e) => {
                self.diags.push(
                    Diagnostic::new(Code::IndexSchemaViolation, format!("internal: {e}"))
                        .in_file(INDEX_FILE),
                );
                return None;
            }
        }
        // typed decode: sizes are int64 (QUIRK: `1.0` / `1e2` pass the schema but not the decode)
        let mut ok = true;
        if let Some(files) = index.get("files").and_then(Value::as_array) {
            for (i, f) in files.iter().enumerate() {
                if let Some(n) = f.get("size").and_then(Value::as_number) {
                    if n.as_i64().is_none() {
                        ok = false;
                        self.diags.push(
                            Diagnostic::new(Code::IndexDecode, format!("package index: json: cannot unmarshal number {n} into int64 size"))
                                .in_file(INDEX_FILE)
                                .at(JsonPointer::root().child("files").index(i).child("size")),
                        );
                    }
                }
            }
            if files.len() > fsread::MAX_FILES {
                ok = false;
                self.diags.push(
                    Diagnostic::new(
                        Code::TooManyFiles,
                        format!(
                            "package lists {} files; maximum is {}",
                            files.len(),
                            fsread::MAX_FILES
                        ),
                    )
                    .in_file(INDEX_FILE)
                    .at(JsonPointer::root().child("files")),
                );
            }
        }
        if index.get("kind").and_then(Value::as_str) != Some("FormPackage") {
            ok = false;
            self.diags.push(
                Diagnostic::new(
                    Code::IndexIdentity,
                    format!(
                        "unsupported package identity {api}/{}",
                        index.get("kind").unwrap_or(&Value::Null)
                    ),
                )
                .in_file(INDEX_FILE)
                .at(JsonPointer::root().child("kind")),
            );
        }
        ok.then_some((profile, index))
    }

    /// Step 8–9: per-entry checks (R1.12–R1.17, §1.8) and the one-definition rule.
    fn check_entries(&mut self, index: &Value) -> Vec<Listed> {
        let files = index
            .get("files")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let mut listed = Vec::new();
        let mut seen = BTreeSet::new();
        let mut previous: Option<String> = None;
        let mut total: u64 = 0;
        let mut total_reported = false;
        let mut definitions = 0;
        for (i, f) in files.iter().enumerate() {
            let at = JsonPointer::root().child("files").index(i);
            let path = f
                .get("path")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let media_type = f
                .get("mediaType")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let digest = f
                .get("digest")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let size = f.get("size").and_then(Value::as_u64).unwrap_or(0);
            let d = |code: Code, msg: String, member: &str| {
                Diagnostic::new(code, msg)
                    .in_file(INDEX_FILE)
                    .at(at.child(member))
            };
            if let Err(reason) = fsread::path_grammar(&path) {
                self.diags.push(d(
                    Code::InvalidPayloadPath,
                    format!("files[{i}].path: {reason}"),
                    "path",
                ));
            }
            if path == INDEX_FILE {
                self.diags.push(d(
                    Code::IndexListsItself,
                    "package index is the signed subject and must not list itself as a payload"
                        .into(),
                    "path",
                ));
            }
            if !seen.insert(path.clone()) {
                self.diags.push(d(
                    Code::DuplicatePayloadPath,
                    format!("duplicate payload path {path:?}"),
                    "path",
                ));
            } else if let Some(prev) = &previous {
                if path.as_bytes() <= prev.as_bytes() {
                    self.diags.push(d(
                        Code::UnsortedPayloadPaths,
                        format!("payload paths must be unique and sorted lexicographically: {path:?} follows {prev:?}"),
                        "path",
                    ));
                }
            }
            previous = Some(path.clone());
            if !is_canonical_digest(&digest) {
                self.diags.push(d(
                    Code::NonCanonicalDigest,
                    format!("payload {path:?} has non-canonical digest"),
                    "digest",
                ));
            }
            if size > fsread::PAYLOAD_LIMIT {
                self.diags.push(d(
                    Code::PayloadSizeOutOfRange,
                    format!(
                        "payload {path:?} size is outside 0..{} bytes",
                        fsread::PAYLOAD_LIMIT
                    ),
                    "size",
                ));
            }
            if media_type == DEFINITION_MEDIA_TYPE {
                definitions += 1;
                if size > fsread::DEFINITION_LIMIT {
                    self.diags.push(d(
                        Code::DefinitionTooLarge,
                        format!(
                            "Form Definition payload {path:?} exceeds {} bytes",
                            fsread::DEFINITION_LIMIT
                        ),
                        "size",
                    ));
                }
            } else if is_json_media_type(&media_type) && size > fsread::JSON_LIMIT {
                self.diags.push(d(
                    Code::JsonPayloadTooLarge,
                    format!("JSON payload {path:?} exceeds {} bytes", fsread::JSON_LIMIT),
                    "size",
                ));
            }
            if let Some(diag) = media_check(&path, &media_type) {
                self.diags
                    .push(diag.in_file(INDEX_FILE).at(at.child("mediaType")));
            }
            total = total.saturating_add(size);
            if total > fsread::TOTAL_LIMIT && !total_reported {
                total_reported = true;
                self.diags.push(d(
                    Code::PayloadTotalTooLarge,
                    format!(
                        "package payload total exceeds {} bytes",
                        fsread::TOTAL_LIMIT
                    ),
                    "size",
                ));
            }
            listed.push(Listed {
                index: i,
                path,
                media_type,
                size,
                digest,
            });
        }
        if definitions != 1 {
            self.diags.push(
                Diagnostic::new(
                    Code::DefinitionCount,
                    format!("one Form Package must contain exactly one Form Definition payload; found {definitions}"),
                )
                .in_file(INDEX_FILE)
                .at(JsonPointer::root().child("files")),
            );
        }
        listed
    }

    /// Step 10 (R1.18): listed set == inventoried files minus the index.
    fn closure(
        &mut self,
        listed: &[Listed],
        present: &BTreeMap<String, Option<StableMeta>>,
        flagged: &BTreeSet<String>,
    ) {
        let listed_set: BTreeSet<&str> = listed.iter().map(|l| l.path.as_str()).collect();
        for name in present.keys() {
            // A file with an inventory finding already fails; saying it is
            // also unlisted would be a second finding for one cause.
            if name != INDEX_FILE
                && !listed_set.contains(name.as_str())
                && !flagged.contains(name.as_str())
            {
                let d = Diagnostic::new(
                    Code::UnlistedFile,
                    format!("package file closure mismatch: {name:?} is not listed"),
                )
                .in_file(name.clone());
                // A file no allowed media type fits can never be listed.
                let d = if crate::index::infer_media_type(name).is_none() {
                    d.help("no allowed media type fits this file (.json, .md, .markdown, .txt): remove it from the package directory")
                } else {
                    d
                };
                self.diags.push(d);
            }
        }
        for l in listed {
            if !present.contains_key(&l.path) && l.path != INDEX_FILE {
                self.diags.push(
                    Diagnostic::new(
                        Code::MissingListedFile,
                        format!(
                            "package file closure mismatch: listed {:?} is not in the directory",
                            l.path
                        ),
                    )
                    .in_file(INDEX_FILE)
                    .at(JsonPointer::root()
                        .child("files")
                        .index(l.index)
                        .child("path")),
                );
            }
        }
    }

    /// Step 11 (R1.20–R1.24): read every listed payload that exists, check its
    /// size and digest, and parse JSON strictly.
    fn read_payloads(
        &mut self,
        root: &PackageRoot,
        listed: &[Listed],
        present: &BTreeMap<String, Option<StableMeta>>,
    ) -> BTreeMap<String, Option<JsonPayload>> {
        let mut payloads = BTreeMap::new();
        for l in listed {
            let Some(Some(meta)) = present.get(&l.path) else {
                continue;
            };
            if l.path == INDEX_FILE || payloads.contains_key(&l.path) {
                continue;
            }
            let limit = if l.media_type == DEFINITION_MEDIA_TYPE {
                fsread::DEFINITION_LIMIT
            } else if is_json_media_type(&l.media_type) {
                fsread::JSON_LIMIT
            } else {
                fsread::PAYLOAD_LIMIT
            };
            if l.size > limit {
                // Already refused by its declared size (FD110/FD111/FD112):
                // reading it would only refuse it a second time.
                continue;
            }
            let at = JsonPointer::root().child("files").index(l.index);
            let bytes = match root.read(&l.path, limit, Some(meta)) {
                Ok(b) => b,
                Err(d) => {
                    self.diags.push(d.in_file_if_unset(&l.path));
                    payloads.insert(l.path.clone(), None);
                    continue;
                }
            };
            if bytes.len() as u64 != l.size {
                self.diags.push(
                    Diagnostic::new(
                        Code::PayloadSizeMismatch,
                        format!(
                            "payload {:?} size is {}, index says {}",
                            l.path,
                            bytes.len(),
                            l.size
                        ),
                    )
                    .in_file(INDEX_FILE)
                    .at(at.child("size")),
                );
            }
            let actual = sha256_digest(&bytes);
            if actual != l.digest {
                self.diags.push(
                    Diagnostic::new(
                        Code::PayloadDigestMismatch,
                        format!(
                            "payload {:?} digest is {actual}, index says {}",
                            l.path, l.digest
                        ),
                    )
                    .in_file(INDEX_FILE)
                    .at(at.child("digest")),
                );
            }
            let mut value = None;
            let source = self.out.sources.entry(l.path.clone()).or_default();
            if is_json_media_type(&l.media_type) {
                match strict::parse_value_with_numbers(&bytes) {
                    Ok((parsed, numbers)) => {
                        self.parsed_json.insert(l.path.clone());
                        match crate::canonical::check(&parsed) {
                            Ok(()) => {
                                value = Some(JsonPayload {
                                    value: parsed,
                                    numbers: numbers.into(),
                                });
                            }
                            Err(d) => self.diags.push(d.in_file(l.path.clone())),
                        }
                    }
                    Err(e) => self
                        .diags
                        .push(payload_parse_diagnostic(&e).in_file(l.path.clone())),
                }
            } else if std::str::from_utf8(&bytes).is_err() || bytes.contains(&0) {
                self.diags.push(
                    Diagnostic::new(
                        Code::InvalidTextPayload,
                        format!(
                            "text payload {:?} must be valid UTF-8 without NUL bytes",
                            l.path
                        ),
                    )
                    .in_file(l.path.clone()),
                );
            }
            source.bytes = bytes;
            payloads.insert(l.path.clone(), value);
        }
        payloads
    }
}

/// A JSON media type (§1.8 and R1.23: anything ending in `+json` too).
pub fn is_json_media_type(media_type: &str) -> bool {
    media_type == "application/json"
        || media_type == "application/schema+json"
        || media_type.ends_with("+json")
}

/// Media type / extension pairing (`verifier-rules.md` §1.8), in the
/// reference order: executable extension, pairing, unknown type.
fn media_check(path: &str, media_type: &str) -> Option<Diagnostic> {
    if fsread::executable_extension(path).is_some() {
        return Some(Diagnostic::new(
            Code::ExecutablePayloadExtension,
            format!("payload {path:?} has executable-code extension"),
        ));
    }
    let ext = extension(path);
    let (ok, msg) = match media_type {
        DEFINITION_MEDIA_TYPE | "application/schema+json" | "application/json" => {
            (ext == ".json", "JSON payload {p} must use .json extension")
        }
        "text/markdown" => (
            ext == ".md" || ext == ".markdown",
            "Markdown payload {p} must use .md or .markdown extension",
        ),
        "text/plain" => (
            ext == ".txt",
            "plain-text payload {p} must use .txt extension",
        ),
        _ => {
            return Some(Diagnostic::new(
                Code::UnsupportedMediaType,
                format!("payload {path:?} uses unsupported media type {media_type:?}"),
            ));
        }
    };
    (!ok).then(|| {
        Diagnostic::new(
            Code::MediaTypeExtensionMismatch,
            msg.replace("{p}", &format!("{path:?}")),
        )
    })
}

/// Go `filepath.Ext` of the last path element, lower-cased.
fn extension(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rfind('.')
        .map(|i| name[i..].to_ascii_lowercase())
        .unwrap_or_default()
}

/// A payload's parse error: invalid UTF-8 keeps `invalid-utf8` (IJSON_UTF8);
/// every other refusal, a BOM included, is `invalid-json-payload`
/// (PAYLOAD_IJSON), as the reference classifies them.
fn payload_parse_diagnostic(e: &strict::ParseError) -> Diagnostic {
    let d = e.to_diagnostic();
    match e.kind {
        strict::ParseErrorKind::InvalidUtf8 => d,
        strict::ParseErrorKind::Syntax => retag(d, Code::InvalidJsonPayload),
    }
}

fn retag(mut d: Diagnostic, code: Code) -> Diagnostic {
    d.code = code;
    d.severity = code.info().severity;
    d
}

/// Selects the definition schema or explains why none applies.
pub(crate) fn definition_schema_for(api: &str, profile: IndexProfile) -> Option<SchemaRef> {
    profile::definition_schema(api, profile.family())
}

/// FormRef schema for re-validation.
pub(crate) fn formref_schema_for(api: &str, profile: IndexProfile) -> FormRefSchema {
    profile::formref_schema(api, profile.family())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_pairing() {
        assert!(media_check("a.json", "application/json").is_none());
        assert!(media_check("a.JSON", "application/schema+json").is_none());
        assert_eq!(
            media_check("a.md", "application/json").unwrap().code,
            Code::MediaTypeExtensionMismatch
        );
        assert!(media_check("README.markdown", "text/markdown").is_none());
        assert_eq!(
            media_check("a.txt", "text/markdown").unwrap().code,
            Code::MediaTypeExtensionMismatch
        );
        assert_eq!(
            media_check("a.js", "application/json").unwrap().code,
            Code::ExecutablePayloadExtension
        );
        assert_eq!(
            media_check("a.bin", "application/octet-stream")
                .unwrap()
                .code,
            Code::ExecutablePayloadExtension
        );
        assert_eq!(
            media_check("a.dat", "application/octet-stream")
                .unwrap()
                .code,
            Code::UnsupportedMediaType
        );
        assert_eq!(extension("x/.DS_Store"), ".ds_store");
        assert!(is_json_media_type(DEFINITION_MEDIA_TYPE));
        assert!(!is_json_media_type("text/plain"));
    }
}

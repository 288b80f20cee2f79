//! The package index: reading, profile selection, schema and typed decode
//! (`verifier-rules.md` §1.1 steps 4–7), then the per-entry checks and the
//! one-definition rule (steps 8–9: R1.12–R1.17, §1.8).
//!
//! # What it checks
//!
//! - `index` (`DOCUMENT`): FD010 `unreadable-package-index`, FD011
//!   `invalid-utf8`, FD012 `invalid-i-json`, FD013 `scalar-top-level`, FD100
//!   `unsupported-index-api-version`, FD101 `index-schema-violation`, FD102
//!   `index-decode`, FD103 `too-many-files`, FD104 `index-identity`, FD127
//!   `index-profile-mismatch` (a note)
//! - `index-entries` (`ENTRIES`): FD105 `invalid-payload-path`, FD106
//!   `index-lists-itself`, FD107 `duplicate-payload-path`, FD108
//!   `unsorted-payload-paths`, FD109 `non-canonical-digest`, FD110
//!   `payload-size-out-of-range`, FD111 `definition-too-large`, FD112
//!   `json-payload-too-large`, FD113 `executable-payload-extension`, FD114
//!   `media-type-extension-mismatch`, FD115 `unsupported-media-type`, FD116
//!   `payload-total-too-large`, FD117 `definition-count`
//!
//! # Why
//!
//! The package index is the package's table of contents and the source of its
//! identity: every file, size and digest a host trusts comes from it, so it
//! must match the published schema of its profile exactly and list each file
//! once, with exactly one Form Definition.
//!
//! # Example
//!
//! Failing (FD010 `unreadable-package-index`): `store/package-index.json   (4194305 bytes: "file is 4194305 bytes; maximum is 4194304")`
//!
//! Passing: `store/package-index.json   (a few hundred bytes)`
//!
//! Every code's own failing and passing example: `form-package explain CODE`.
//!
//! # Spec rule
//!
//! verifier-rules.md §1.4; verifier-rules.md §2.1 J1; verifier-rules.md §2.1
//! J2-J6; verifier-rules.md §2.1 J7, §2.2; verifier-rules.md §0.2 S1;
//! current-profile.md §2.1; verifier-rules.md §2.6; current-profile.md §3;
//! verifier-rules.md §1.5; verifier-rules.md §1.1 step 7; verifier-rules.md
//! §1.5 R1.12-R1.13; verifier-rules.md §1.5 R1.14; verifier-rules.md §1.5
//! R1.15; verifier-rules.md §1.5 R1.16; verifier-rules.md §1.5 R1.17, §2.3
//! D1; verifier-rules.md §1.5 R1.17; verifier-rules.md §1.8;
//! verifier-rules.md §1.6 R1.19.

use crate::diag::escape::quote;
use std::collections::BTreeSet;

use serde_json::Value;

use crate::canonical::{canonicalize, is_canonical_digest, sha256_digest};
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::error::Error;
use crate::fsread;
use crate::json::pointer::JsonPointer;
use crate::json::strict;
use crate::json::Members;
use crate::package::{
    is_json_media_type, Fact, Listed, Package, DEFINITION_MEDIA_TYPE, INDEX_FILE,
};
use crate::profile::IndexProfile;
use crate::schemas;

use super::{Check, CheckResult, FileRole, Need, FAULT};

const MODULE: &str = "src/checks/index.rs";
const NOT_VALID: &str = "package-index.json is not a valid index";

/// The profile the index's `formRef.apiVersion` implies
/// ([`crate::profile::profile_for_definition`]), when it is not `profile`
/// and it accepts this index with only its `apiVersion` changed (issue 36
/// item 9): the index names the wrong profile.
fn profile_the_form_ref_fits(index: &Value, profile: IndexProfile) -> Option<IndexProfile> {
    let form_api = index.pointer("/formRef/apiVersion")?.as_str()?;
    let implied = crate::profile::profile_for_definition(form_api);
    if implied == profile {
        return None;
    }
    let mut moved = index.clone();
    moved
        .as_object_mut()?
        .insert("apiVersion".into(), Value::String(implied.api_version()));
    match schemas::validate(implied.index_schema(), &moved) {
        Ok(v) if v.is_empty() => Some(implied),
        _ => None,
    }
}

/// Steps 4–7: read, parse, canonicalize, select the profile, validate the
/// index schema and the typed decode.
///
/// **Why:** An unbounded read of an attacker's file exhausts memory; a file
/// that changes while it is read has no single digest.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD010 `unreadable-package-index`: package-index.json could not be read
///   or exceeds 4 MiB (verifier-rules.md §1.4)
/// - FD011 `invalid-utf8`: a JSON input is not valid UTF-8 (verifier-rules.md
///   §2.1 J1)
/// - FD012 `invalid-i-json`: a JSON input breaks the strict I-JSON grammar
///   (syntax, duplicate names, surrogates, -0, non-finite numbers, nesting)
///   (verifier-rules.md §2.1 J2-J6)
/// - FD013 `scalar-top-level`: a JSON document whose top level is not an
///   object or array cannot be canonicalized (verifier-rules.md §2.1 J7, §2.2)
/// - FD100 `unsupported-index-api-version`: the package index apiVersion is
///   not a known profile (or the envelope is not an object with a string
///   apiVersion) (verifier-rules.md §0.2 S1; current-profile.md §2.1)
/// - FD101 `index-schema-violation`: package-index.json does not satisfy its
///   profile's Draft 2020-12 schema (verifier-rules.md §2.6; current-profile.md
///   §3)
/// - FD102 `index-decode`: an index number the schema accepts is not a plain
///   integer literal (typed decode) (verifier-rules.md §1.5)
/// - FD103 `too-many-files`: the index lists more than 1024 files
///   (verifier-rules.md §1.4)
/// - FD104 `index-identity`: index apiVersion/kind is not an accepted package
///   identity (verifier-rules.md §1.1 step 7)
/// - FD127 `index-profile-mismatch`: the index names a profile that does not
///   take its FormRef's apiVersion, and another profile would: the index's
///   apiVersion is what is wrong (a note; verifier-rules.md §0.1,
///   current-profile.md §2.1 (ours))
///
/// **Failing** (FD010): `store/package-index.json   (4194305 bytes: "file is 4194305 bytes; maximum is 4194304")`
///
/// **Passing:** `store/package-index.json   (a few hundred bytes)`
pub(super) const DOCUMENT: Check = Check {
    name: "index",
    module: MODULE,
    codes: &[
        Code::UnreadableIndex,
        Code::InvalidUtf8,
        Code::InvalidIJson,
        Code::ScalarTopLevel,
        Code::UnsupportedIndexApiVersion,
        Code::IndexSchemaViolation,
        Code::IndexProfileMismatch,
        Code::IndexDecode,
        Code::TooManyFiles,
        Code::IndexIdentity,
    ],
    needs: &[Need::Fact(Fact::IndexFile)],
    establishes: Some(Fact::Index),
    file: FileRole::Index,
    run: document,
};

fn document(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(root) = &pkg.root else {
        return Err(NOT_VALID);
    };
    let meta = pkg.present.get(INDEX_FILE).copied().flatten();
    // `read` reports `unreadable-package-index` in the index itself.
    let bytes = match root.read(INDEX_FILE, fsread::INDEX_LIMIT, meta.as_ref()) {
        Ok(b) => b,
        Err(d) => {
            diags.push(d);
            return Err(NOT_VALID);
        }
    };
    let keep_spans = pkg.keep_spans;
    // An index its package's builder already parsed (an editor's buffer,
    // [`crate::source::PackageSource::parsed`]): that one parse, value and
    // span map, not a second one of the same bytes.
    // Its span map is taken from that parse when a finding names the
    // index ([`crate::verify`]'s outcome), or here for `keep_spans`.
    let given = root.parsed(INDEX_FILE).map(|d| {
        let spans = keep_spans.then(|| d.parsed.spans.clone());
        (d.parsed.value.clone(), spans)
    });
    let source = pkg.sources.entry(INDEX_FILE.to_owned()).or_default();
    source.bytes = bytes;
    let parsed = if let Some((value, spans)) = given {
        source.spans = spans;
        Ok(value)
    } else if keep_spans {
        strict::parse(&source.bytes).map(|p| {
            source.spans = Some(p.spans);
            p.value
        })
    } else {
        strict::parse_value(&source.bytes)
    };
    let index = match parsed {
        Ok(p) => p,
        Err(e) => {
            diags.push(e.to_diagnostic());
            return Err(NOT_VALID);
        }
    };
    pkg.parsed_json.insert(INDEX_FILE.to_owned());
    match canonicalize(&index) {
        Ok(c) => pkg.package_digest = Some(sha256_digest(&c)),
        Err(d) => {
            diags.push(d);
            return Err(NOT_VALID);
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
            diags.push(
                Diagnostic::new(
                    Code::UnsupportedIndexApiVersion,
                    format!("package index: {what}"),
                )
                .at(if index.is_object() {
                    JsonPointer::root().child("apiVersion")
                } else {
                    JsonPointer::root()
                }),
            );
            return Err(NOT_VALID);
        }
    };
    let Some(profile) = IndexProfile::from_api_version(&api) else {
        diags.push(
            Diagnostic::new(
                Code::UnsupportedIndexApiVersion,
                format!("package index: unsupported apiVersion {}", quote(&api)),
            )
            .at(JsonPointer::root().child("apiVersion")),
        );
        return Err(NOT_VALID);
    };
    // The definition and FormRef validators build while this thread
    // validates the index, reads and digests the payloads and proves.
    schemas::prewarm(&profile.likely_schemas());
    match schemas::validate(profile.index_schema(), &index) {
        Ok(v) if v.is_empty() => {}
        Ok(v) => {
            let mut found =
                schemas::to_diagnostics(v, Code::IndexSchemaViolation, INDEX_FILE, "package index");
            if let Some(fits) = profile_the_form_ref_fits(&index, profile) {
                let fits = fits.api_version();
                for d in found
                    .iter_mut()
                    .filter(|d| d.pointer.as_str().starts_with("/formRef/"))
                {
                    d.help = Some(format!(
                        "the index's apiVersion is what is wrong, not the FormRef's: this FormRef fits {fits} (FD127 at /apiVersion)"
                    ));
                }
                let dir = crate::diag::escape::text(&pkg.path.display().to_string()).into_owned();
                let form_api = index
                    .pointer("/formRef/apiVersion")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                found.push(
                    Diagnostic::new(
                        Code::IndexProfileMismatch,
                        format!(
                            "index profile {} does not take the FormRef's apiVersion {}; it fits {fits}, the profile that apiVersion implies",
                            quote(&api),
                            quote(form_api)
                        ),
                    )
                    .at(JsonPointer::root().child("apiVersion"))
                    .help(format!(
                        "write \"apiVersion\": \"{fits}\", or run `form-package index --profile {fits} {dir}`"
                    )),
                );
            }
            diags.extend(found);
            return Err(NOT_VALID);
        }
        Err(e) => {
            pkg.fault = Some(Error::Internal(e));
            return Err(FAULT);
        }
    }
    // typed decode: sizes are int64 (QUIRK: `1.0` / `1e2` pass the schema but not the decode)
    let mut ok = true;
    if let Some(files) = index.get("files").and_then(Value::as_array) {
        for (i, f) in files.iter().enumerate() {
            if let Some(n) = f.get("size").and_then(Value::as_number) {
                if n.as_i64().is_none() {
                    ok = false;
                    diags.push(
                        Diagnostic::new(
                            Code::IndexDecode,
                            format!(
                                "package index: json: cannot unmarshal number {n} into int64 size"
                            ),
                        )
                        .at(JsonPointer::root().child("files").index(i).child("size")),
                    );
                }
            }
        }
        if let Some(d) = too_many_files(files) {
            ok = false;
            diags.push(d);
        }
    }
    if index.get("kind").and_then(Value::as_str) != Some("FormPackage") {
        ok = false;
        diags.push(
            Diagnostic::new(
                Code::IndexIdentity,
                format!(
                    "unsupported package identity {api}/{}",
                    index.get("kind").unwrap_or(&Value::Null)
                ),
            )
            .at(JsonPointer::root().child("kind")),
        );
    }
    if !ok {
        return Err(NOT_VALID);
    }
    pkg.profile = Some(profile);
    pkg.index = Some(index);
    Ok(())
}

/// FD103: more than [`fsread::MAX_FILES`] entries in `files`.
fn too_many_files(files: &[Value]) -> Option<Diagnostic> {
    (files.len() > fsread::MAX_FILES).then(|| {
        Diagnostic::new(
            Code::TooManyFiles,
            format!(
                "package lists {} files; maximum is {}",
                files.len(),
                fsread::MAX_FILES
            ),
        )
        .at(JsonPointer::root().child("files"))
    })
}

/// The limits and entry rules `verify` applies to an index that passed
/// its schema (FD103 too many files, then every `ENTRIES` rule: FD111
/// definition over 4 MiB, FD112 JSON payload over 16 MiB, FD116 total
/// over 256 MiB, media types, …), run on an index value that is not on
/// disk: `index` applies them to the index it is about to write, so it
/// never writes one `verify` refuses (issue 22 item 6). Findings are at
/// pointers of `index` (`/files`, `/files/3/size`), with no file set.
pub fn limit_findings(index: &Value) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let files = index
        .get("files")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    diags.extend(too_many_files(files));
    let mut pkg = Package {
        index: Some(index.clone()),
        ..Default::default()
    };
    // `entries` always establishes its fact; its findings are the result.
    let _ = entries(&mut pkg, &mut diags);
    diags
}

/// Steps 8–9: per-entry checks (R1.12–R1.17, §1.8) and the one-definition rule.
///
/// **Why:** A listed path that escapes the root or is spelled two ways would
/// let the index describe files outside the package.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD105 `invalid-payload-path`: a listed path fails the package path
///   grammar (verifier-rules.md §1.5 R1.12-R1.13)
/// - FD106 `index-lists-itself`: the index lists package-index.json as a
///   payload (verifier-rules.md §1.5 R1.14)
/// - FD107 `duplicate-payload-path`: two index entries name the same path
///   (verifier-rules.md §1.5 R1.15)
/// - FD108 `unsorted-payload-paths`: index entries are not in strictly
///   ascending byte order of path (verifier-rules.md §1.5 R1.16)
/// - FD109 `non-canonical-digest`: a listed digest is not `sha256:` + 64
///   lowercase hex (verifier-rules.md §1.5 R1.17, §2.3 D1)
/// - FD110 `payload-size-out-of-range`: a listed size is outside 0..67108864
///   (verifier-rules.md §1.5 R1.17)
/// - FD111 `definition-too-large`: the Form Definition payload exceeds 4 MiB
///   (verifier-rules.md §1.4)
/// - FD112 `json-payload-too-large`: a JSON payload exceeds 16 MiB
///   (verifier-rules.md §1.4)
/// - FD113 `executable-payload-extension`: a listed payload has an
///   executable-code extension (verifier-rules.md §1.8)
/// - FD114 `media-type-extension-mismatch`: a payload's extension does not
///   match its media type (verifier-rules.md §1.8)
/// - FD115 `unsupported-media-type`: a payload's media type is outside the
///   allowlist (verifier-rules.md §1.8)
/// - FD116 `payload-total-too-large`: the listed sizes add up to more than
///   256 MiB (verifier-rules.md §1.4)
/// - FD117 `definition-count`: the index does not list exactly one Form
///   Definition payload (verifier-rules.md §1.6 R1.19)
///
/// **Failing** (FD105): `index files[]: {"path":"../definition.json",…}`
///
/// **Passing:** `index files[]: {"path":"definition.json",…}`
pub(super) const ENTRIES: Check = Check {
    name: "index-entries",
    module: MODULE,
    codes: &[
        Code::InvalidPayloadPath,
        Code::IndexListsItself,
        Code::DuplicatePayloadPath,
        Code::UnsortedPayloadPaths,
        Code::NonCanonicalDigest,
        Code::PayloadSizeOutOfRange,
        Code::DefinitionTooLarge,
        Code::JsonPayloadTooLarge,
        Code::ExecutablePayloadExtension,
        Code::MediaTypeExtensionMismatch,
        Code::UnsupportedMediaType,
        Code::PayloadTotalTooLarge,
        Code::DefinitionCount,
    ],
    needs: &[Need::Fact(Fact::Index)],
    establishes: None,
    file: FileRole::Index,
    run: entries,
};

fn entries(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let files = pkg
        .index
        .as_ref()
        .and_then(|i| i.member("files"))
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
            .member("path")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let media_type = f
            .member("mediaType")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let digest = f
            .member("digest")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let size = f.member("size").and_then(Value::as_u64).unwrap_or(0);
        let d =
            |code: Code, msg: String, member: &str| Diagnostic::new(code, msg).at(at.child(member));
        if let Err(reason) = fsread::path_grammar(&path) {
            diags.push(d(
                Code::InvalidPayloadPath,
                format!("files[{i}].path: {reason}"),
                "path",
            ));
        }
        if path == INDEX_FILE {
            diags.push(d(
                Code::IndexListsItself,
                "package index is the signed subject and must not list itself as a payload".into(),
                "path",
            ));
        }
        if !seen.insert(path.clone()) {
            diags.push(d(
                Code::DuplicatePayloadPath,
                format!("duplicate payload path {}", quote(&path)),
                "path",
            ));
        } else if let Some(prev) = &previous {
            if path.as_bytes() <= prev.as_bytes() {
                diags.push(d(
                    Code::UnsortedPayloadPaths,
                    format!(
                        "payload paths must be unique and sorted lexicographically: {} follows {}",
                        quote(&path),
                        quote(prev)
                    ),
                    "path",
                ));
            }
        }
        previous = Some(path.clone());
        if !is_canonical_digest(&digest) {
            diags.push(d(
                Code::NonCanonicalDigest,
                format!("payload {} has non-canonical digest", quote(&path)),
                "digest",
            ));
        }
        if size > fsread::PAYLOAD_LIMIT {
            diags.push(d(
                Code::PayloadSizeOutOfRange,
                format!(
                    "payload {} size is outside 0..{} bytes",
                    quote(&path),
                    fsread::PAYLOAD_LIMIT
                ),
                "size",
            ));
        }
        if media_type == DEFINITION_MEDIA_TYPE {
            definitions += 1;
            if size > fsread::DEFINITION_LIMIT {
                diags.push(d(
                    Code::DefinitionTooLarge,
                    format!(
                        "Form Definition payload {} exceeds {} bytes",
                        quote(&path),
                        fsread::DEFINITION_LIMIT
                    ),
                    "size",
                ));
            }
        } else if is_json_media_type(&media_type) && size > fsread::JSON_LIMIT {
            diags.push(d(
                Code::JsonPayloadTooLarge,
                format!(
                    "JSON payload {} exceeds {} bytes",
                    quote(&path),
                    fsread::JSON_LIMIT
                ),
                "size",
            ));
        }
        if let Some(diag) = media_check(&path, &media_type) {
            let member = media_member(diag.code);
            diags.push(diag.at(at.child(member)));
        }
        total = total.saturating_add(size);
        if total > fsread::TOTAL_LIMIT && !total_reported {
            total_reported = true;
            diags.push(d(
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
        diags.push(
            Diagnostic::new(
                Code::DefinitionCount,
                format!("one Form Package must contain exactly one Form Definition payload; found {definitions}"),
            )
            .at(JsonPointer::root().child("files")),
        );
    }
    pkg.listed = listed;
    Ok(())
}

/// Media type / extension pairing (`verifier-rules.md` §1.8), in the
/// reference order: executable extension, pairing, unknown type.
fn media_check(path: &str, media_type: &str) -> Option<Diagnostic> {
    if fsread::executable_extension(path).is_some() {
        return Some(Diagnostic::new(
            Code::ExecutablePayloadExtension,
            format!("payload {} has executable-code extension", quote(path)),
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
                format!(
                    "payload {} uses unsupported media type {}",
                    quote(path),
                    quote(media_type)
                ),
            ));
        }
    };
    (!ok).then(|| {
        Diagnostic::new(
            Code::MediaTypeExtensionMismatch,
            msg.replace("{p}", &quote(path)),
        )
    })
}

/// The member of an index entry a [`media_check`] finding points at: an
/// executable extension is the fault of the entry's `path` (whatever its
/// media type), a mismatched or unknown type that of its `mediaType`.
fn media_member(code: Code) -> &'static str {
    match code {
        Code::ExecutablePayloadExtension => "path",
        _ => "mediaType",
    }
}

/// Go `filepath.Ext` of the last path element, lower-cased.
fn extension(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rfind('.')
        .map(|i| name[i..].to_ascii_lowercase())
        .unwrap_or_default()
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

    #[test]
    fn media_findings_point_at_the_member_at_fault() {
        let code = |path, media| media_check(path, media).unwrap().code;
        assert_eq!(media_member(code("tool.js", "application/json")), "path");
        assert_eq!(media_member(code("a.md", "application/json")), "mediaType");
        assert_eq!(
            media_member(code("a.dat", "application/octet-stream")),
            "mediaType"
        );
    }
}

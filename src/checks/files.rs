//! The package directory and its files: the root (R1.1–R1.3), the
//! inventory (R1.5–R1.10, §1.1 steps 1–3), the file closure (step 10,
//! R1.18) and the payload reads (step 11, R1.20–R1.24): size, digest,
//! strict I-JSON parse, text encoding (`verifier-rules.md` §1).
//!
//! # What it checks
//!
//! - `root` (`ROOT`): FD001 `root-not-directory`, FD002 `root-open-failed`,
//!   FD003 `root-changed`
//! - `inventory` (`INVENTORY`): FD002 `root-open-failed`, FD003
//!   `root-changed`, FD004 `symlink-entry`, FD005 `special-file-entry`, FD006
//!   `executable-mode-entry`, FD007 `executable-extension-entry`, FD008
//!   `invalid-entry-path`, FD009 `missing-package-index`
//! - `fence` (`FENCE`): FD003 `root-changed`
//! - `fence-after-reads` (`FENCE_AFTER`): FD003 `root-changed`
//! - `closure` (`CLOSURE`): FD018 `unlisted-file`, FD019
//!   `missing-listed-file`
//! - `payloads` (`PAYLOADS`): FD014 `unreadable-payload`, FD015
//!   `payload-size-mismatch`, FD016 `payload-digest-mismatch`, FD011
//!   `invalid-utf8`, FD020 `invalid-json-payload`, FD012 `invalid-i-json`,
//!   FD013 `scalar-top-level`, FD017 `invalid-text-payload`
//!
//! # Why
//!
//! A package is inert data copied between machines: anything that is not a
//! plain, non-executable, well-named regular file could run code, leak host
//! files or behave differently on another file system, and every byte a host
//! installs must be the byte that was indexed (size, SHA-256, strict I-JSON).
//!
//! # Example
//!
//! Failing (FD018 `unlisted-file`): `store/extra.txt exists but no files[] entry has "path":"extra.txt"`
//!
//! Passing: `index files[]: {"path":"extra.txt","mediaType":"text/plain","size":1,"digest":"sha256:…"}`
//!
//! Every code's own failing and passing example: `form-package explain CODE`.
//!
//! # Spec rule
//!
//! verifier-rules.md §1.2 R1.1; verifier-rules.md §1.2 R1.2;
//! verifier-rules.md §1.2 R1.3; verifier-rules.md §1.3 R1.5;
//! verifier-rules.md §1.3 R1.7; verifier-rules.md §1.3 R1.8;
//! verifier-rules.md §1.3 R1.9; verifier-rules.md §1.3 R1.10, R1.13;
//! verifier-rules.md §1.3 R1.11; verifier-rules.md §1.6 R1.18;
//! verifier-rules.md §1.7 R1.20; verifier-rules.md §1.7 R1.21;
//! verifier-rules.md §1.7 R1.22; verifier-rules.md §2.1 J1; verifier-rules.md
//! §1.7 R1.23, §2.1; verifier-rules.md §2.1 J2-J6; verifier-rules.md §2.1 J7,
//! §2.2; verifier-rules.md §1.7 R1.24.

use crate::diag::escape::quote;
use std::collections::BTreeSet;

use crate::canonical::sha256_digest;
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::fsread;
use crate::json::pointer::JsonPointer;
use crate::json::strict;
use crate::package::{
    infer_media_type, is_json_media_type, Fact, JsonPayload, Listed, Package,
    DEFINITION_MEDIA_TYPE, INDEX_FILE,
};

use super::{Check, CheckResult, FileRole, Need};

const MODULE: &str = "src/checks/files.rs";

/// R1.1–R1.3: the root is a real directory and can be opened.
///
/// **Why:** Following a link would verify a directory other than the one
/// named, and the held root handle is what keeps later reads inside the
/// package.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD001 `root-not-directory`: the package root is not a real directory
///   (missing, a file, or a symlink) (verifier-rules.md §1.2 R1.1)
/// - FD002 `root-open-failed`: the package root could not be opened or
///   inspected (verifier-rules.md §1.2 R1.2)
/// - FD003 `root-changed`: the package root's identity or metadata changed
///   during verification (verifier-rules.md §1.2 R1.3)
///
/// **Failing** (FD001): `verify pkg-link   (pkg-link -> packages/store, a symlink)`
///
/// **Passing:** `verify packages/store   (a real directory)`
pub(super) const ROOT: Check = Check {
    name: "root",
    module: MODULE,
    codes: &[Code::RootNotDirectory, Code::RootOpen, Code::RootChanged],
    needs: &[],
    establishes: Some(Fact::Root),
    file: FileRole::Package,
    run: root,
};

fn root(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    // A package held in memory comes with its source.
    if pkg.root.is_some() {
        return Ok(());
    }
    match crate::source::open_disk(&pkg.path) {
        Ok(r) => {
            pkg.root = Some(r);
            Ok(())
        }
        Err(d) => {
            diags.push(d);
            Err("the package root could not be opened")
        }
    }
}

/// §1.1 steps 1–2: every entry below the root, and the index is a plain file.
///
/// **Why:** Every later read is relative to this handle; a root that cannot
/// be opened or inspected cannot be verified safely.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD002 `root-open-failed`: the package root could not be opened or
///   inspected (verifier-rules.md §1.2 R1.2)
/// - FD003 `root-changed`: the package root's identity or metadata changed
///   during verification (verifier-rules.md §1.2 R1.3)
/// - FD004 `symlink-entry`: a symlink inside the package (verifier-rules.md
///   §1.3 R1.5)
/// - FD005 `special-file-entry`: a FIFO, socket or device inside the package
///   (verifier-rules.md §1.3 R1.7)
/// - FD006 `executable-mode-entry`: a file with an execute bit
///   (verifier-rules.md §1.3 R1.8)
/// - FD007 `executable-extension-entry`: a file whose extension names
///   executable code (verifier-rules.md §1.3 R1.9)
/// - FD008 `invalid-entry-path`: a file name on disk fails the package path
///   grammar (verifier-rules.md §1.3 R1.10, R1.13)
/// - FD009 `missing-package-index`: no package-index.json directly in the
///   package root (verifier-rules.md §1.3 R1.11)
///
/// **Failing** (FD002): `verify store   (store/ is a directory that cannot be opened or listed: EACCES, EIO, or swapped between lstat and open)`
///
/// **Passing:** `verify store   (store/ is a readable directory opened and stat-ed without error)`
pub(super) const INVENTORY: Check = Check {
    name: "inventory",
    module: MODULE,
    codes: &[
        Code::RootOpen,
        Code::RootChanged,
        Code::SymlinkEntry,
        Code::SpecialFile,
        Code::ExecutableMode,
        Code::ExecutableExtension,
        Code::InvalidEntryPath,
        Code::MissingIndex,
    ],
    needs: &[Need::Fact(Fact::Root)],
    establishes: Some(Fact::IndexFile),
    file: FileRole::Package,
    run: inventory,
};

fn inventory(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(root) = &pkg.root else {
        return Err("the package root could not be opened");
    };
    let inventory = root.inventory();
    // Files with an inventory finding, and links and special files, count
    // as present (no closure cascade) but are never read (no second
    // finding for one cause). A directory with a finding is not a file.
    for e in &inventory.files {
        pkg.present.insert(e.rel.clone(), Some(e.meta));
    }
    for d in &inventory.diagnostics {
        if let Some(f) = &d.file {
            pkg.flagged.insert(f.clone());
            if let Some(slot) = pkg.present.get_mut(f) {
                *slot = None;
            } else if matches!(d.code, Code::SymlinkEntry | Code::SpecialFile) {
                pkg.present.insert(f.clone(), None);
            }
        }
    }
    diags.extend(inventory.diagnostics.iter().cloned());
    // An index that is a link, a FIFO or executable already has its
    // inventory finding: nothing more can be read, and "no index" or
    // "unreadable index" would be a second finding for the same cause.
    if pkg.flagged.contains(INDEX_FILE) {
        return Err("package-index.json is not a plain file");
    }
    if !inventory.has_index {
        diags.push(Diagnostic::new(
            Code::MissingIndex,
            "package has no root package-index.json",
        ));
        return Err("there is no package-index.json");
    }
    Ok(())
}

/// §1.1 step 3: the root did not change since it was opened.
///
/// **Why:** A package that changes while it is verified is not the package
/// that was verified (time-of-check/time-of-use).
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD003 `root-changed`: the package root's identity or metadata changed
///   during verification (verifier-rules.md §1.2 R1.3)
///
/// **Failing** (FD003): `` a file is created in store/ while `verify store` runs (the root mtime changes) ``
///
/// **Passing:** `` store/ is an immutable copy that nothing writes during `verify store` ``
pub(super) const FENCE: Check = Check {
    name: "fence",
    module: MODULE,
    codes: &[Code::RootChanged],
    needs: &[Need::Fact(Fact::IndexFile)],
    establishes: None,
    file: FileRole::Package,
    run: fence,
};

/// The fence again once every file was read.
///
/// **Why:** A package that changes while it is verified is not the package
/// that was verified (time-of-check/time-of-use).
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD003 `root-changed`: the package root's identity or metadata changed
///   during verification (verifier-rules.md §1.2 R1.3)
///
/// **Failing** (FD003): `` a file is created in store/ while `verify store` runs (the root mtime changes) ``
///
/// **Passing:** `` store/ is an immutable copy that nothing writes during `verify store` ``
pub(super) const FENCE_AFTER: Check = Check {
    name: "fence-after-reads",
    module: MODULE,
    codes: &[Code::RootChanged],
    needs: &[Need::Fact(Fact::Index)],
    establishes: None,
    file: FileRole::Package,
    run: fence,
};

fn fence(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    if let Some(d) = pkg.root.as_ref().and_then(|r| r.fence()) {
        diags.push(d);
    }
    Ok(())
}

/// Step 10 (R1.18): listed set == inventoried files minus the index.
///
/// **Why:** An unlisted file is not covered by any digest, so it could be
/// added or changed after signing without anyone noticing.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD018 `unlisted-file`: a file in the package directory is not listed in
///   package-index.json (verifier-rules.md §1.6 R1.18)
/// - FD019 `missing-listed-file`: a file listed in package-index.json is not
///   in the package directory (verifier-rules.md §1.6 R1.18)
///
/// **Failing** (FD018): `store/extra.txt exists but no files[] entry has "path":"extra.txt"`
///
/// **Passing:** `index files[]: {"path":"extra.txt","mediaType":"text/plain","size":1,"digest":"sha256:…"}`
pub(super) const CLOSURE: Check = Check {
    name: "closure",
    module: MODULE,
    codes: &[Code::UnlistedFile, Code::MissingListedFile],
    needs: &[Need::Fact(Fact::Index)],
    establishes: None,
    file: FileRole::Index,
    run: closure,
};

/// The fewest missing listed files reported as one finding, when they are
/// also more than half of the listed files (FD019).
const MOSTLY_MISSING_AT_LEAST: usize = 3;

fn closure(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let listed_set: BTreeSet<&str> = pkg.listed.iter().map(|l| l.path.as_str()).collect();
    for name in pkg.present.keys() {
        // A file with an inventory finding already fails; saying it is
        // also unlisted would be a second finding for one cause.
        if name != INDEX_FILE
            && !listed_set.contains(name.as_str())
            && !pkg.flagged.contains(name.as_str())
        {
            let d = Diagnostic::new(
                Code::UnlistedFile,
                format!(
                    "package file closure mismatch: {} is not listed",
                    quote(name)
                ),
            )
            .in_file(name.clone());
            // A file no allowed media type fits, or whose name no index
            // schema admits, can never be listed.
            let d = if !crate::package::listable_path(name) {
                d.help(crate::package::UNLISTABLE_HELP)
            } else if infer_media_type(name).is_none() {
                d.help("no allowed media type fits this file (.json, .md, .markdown, .txt): remove it from the package directory")
            } else {
                d
            };
            diags.push(d);
        }
    }
    let missing: Vec<_> = pkg
        .listed
        .iter()
        .filter(|l| !pkg.present.contains_key(&l.path) && l.path != INDEX_FILE)
        .collect();
    // A copy that lacks most of its files is one finding that lists them
    // (issue 26 item 4: 22 blocks for one package), not one per file.
    if missing.len() >= MOSTLY_MISSING_AT_LEAST && missing.len() * 2 > pkg.listed.len() {
        let names: Vec<String> = missing.iter().map(|l| quote(&l.path)).collect();
        diags.push(
            Diagnostic::new(
                Code::MissingListedFile,
                format!(
                    "package file closure mismatch: {} of the {} listed files are not in the directory (an incomplete copy)",
                    missing.len(),
                    pkg.listed.len()
                ),
            )
            .at(JsonPointer::root().child("files"))
            .note(format!("missing: {}", names.join(", "))),
        );
        return Ok(());
    }
    for l in missing {
        diags.push(
            Diagnostic::new(
                Code::MissingListedFile,
                format!(
                    "package file closure mismatch: listed {} is not in the directory",
                    quote(&l.path)
                ),
            )
            .at(JsonPointer::root()
                .child("files")
                .index(l.index)
                .child("path")),
        );
    }
    Ok(())
}

/// Step 11 (R1.20–R1.24): read every listed payload that exists, check its
/// size and digest, and parse JSON strictly.
///
/// **Why:** A file swapped, grown or replaced between inventory and read
/// would be verified as one thing and used as another.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD014 `unreadable-payload`: a listed payload could not be opened or read
///   safely, or changed while being read (verifier-rules.md §1.7 R1.20)
/// - FD015 `payload-size-mismatch`: a payload's byte length differs from its
///   listed size (verifier-rules.md §1.7 R1.21)
/// - FD016 `payload-digest-mismatch`: a payload's SHA-256 differs from its
///   listed digest (verifier-rules.md §1.7 R1.22)
/// - FD011 `invalid-utf8`: a JSON input is not valid UTF-8 (verifier-rules.md
///   §2.1 J1)
/// - FD020 `invalid-json-payload`: a listed JSON payload breaks the strict
///   I-JSON grammar (verifier-rules.md §1.7 R1.23, §2.1)
/// - FD012 `invalid-i-json`: a JSON input breaks the strict I-JSON grammar
///   (syntax, duplicate names, surrogates, -0, non-finite numbers, nesting)
///   (verifier-rules.md §2.1 J2-J6)
/// - FD013 `scalar-top-level`: a JSON document whose top level is not an
///   object or array cannot be canonicalized (verifier-rules.md §2.1 J7, §2.2)
/// - FD017 `invalid-text-payload`: a text payload is not valid UTF-8 or
///   contains NUL (verifier-rules.md §1.7 R1.24)
///
/// **Failing** (FD014): `definition.json is 4194305 bytes on disk ("file is 4194305 bytes; maximum is 4194304")`
///
/// **Passing:** `definition.json is 722 bytes on disk and listed with size 722`
pub(super) const PAYLOADS: Check = Check {
    name: "payloads",
    module: MODULE,
    codes: &[
        Code::UnreadablePayload,
        Code::PayloadSizeMismatch,
        Code::PayloadDigestMismatch,
        Code::InvalidUtf8,
        Code::InvalidJsonPayload,
        Code::InvalidIJson,
        Code::ScalarTopLevel,
        Code::InvalidTextPayload,
    ],
    needs: &[Need::Fact(Fact::Index)],
    establishes: None,
    file: FileRole::Index,
    run: payloads,
};

fn payloads(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    if pkg.root.is_none() {
        return Ok(());
    }
    // The definition is read first: it names the payloads whose parsed
    // value a later check reads (its fixtures). Each entry's findings are
    // its own (named by its file or its `files` pointer), so the order in
    // which entries are read changes nothing once findings are sorted.
    let def_path = pkg
        .index
        .as_ref()
        .and_then(|i| i.get("definitionPath"))
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let listed = std::mem::take(&mut pkg.listed);
    let spans = pkg.keep_spans;
    for l in listed.iter().filter(|l| l.path == def_path) {
        read_payload(pkg, l, true, spans, diags);
    }
    // (`pkg.def_path` is set later, by the definition's own check.)
    let definition = pkg
        .payloads
        .get(&def_path)
        .and_then(Option::as_ref)
        .map(|p| &p.value);
    let keep = fixture_texts(definition);
    for l in listed.iter().filter(|l| l.path != def_path) {
        read_payload(pkg, l, keep.contains(l.path.as_str()), false, diags);
    }
    pkg.listed = listed;
    Ok(())
}

/// Every string inside the definition's `conformanceFixtures` and
/// `negativeConformanceFixtures` (a superset of the fixture paths
/// `crate::fixtures` looks up): the payloads whose parsed value is kept.
fn fixture_texts(definition: Option<&serde_json::Value>) -> BTreeSet<String> {
    fn strings(v: &serde_json::Value, out: &mut BTreeSet<String>) {
        match v {
            serde_json::Value::String(s) => {
                out.insert(s.clone());
            }
            serde_json::Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
            serde_json::Value::Object(map) => map.values().for_each(|i| strings(i, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for key in ["conformanceFixtures", "negativeConformanceFixtures"] {
        if let Some(v) = definition.and_then(|d| d.get(key)) {
            strings(v, &mut out);
        }
    }
    out
}

/// Reads one listed payload (step 11): size, digest, strict parse. `keep`:
/// its parsed value is kept for later checks (the definition, a fixture).
/// Any other JSON payload is first scanned without building its value
/// ([`strict::accepts_unflagged`]): when the strict reader accepts it and
/// the vocabulary flags none of its member names, no check has anything to
/// read in it (the payload name scan would find nothing), and it is kept as
/// read but unparsed (`None`). Otherwise it is parsed as before, findings
/// and all. `spans`: a kept JSON payload's span map is built in the same
/// parse ([`Package::keep_spans`], for the definition).
fn read_payload(
    pkg: &mut Package,
    l: &Listed,
    keep: bool,
    spans: bool,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(root) = &pkg.root else {
        return;
    };
    let Some(Some(meta)) = pkg.present.get(&l.path) else {
        return;
    };
    if l.path == INDEX_FILE || pkg.payloads.contains_key(&l.path) {
        return;
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
        return;
    }
    let at = JsonPointer::root().child("files").index(l.index);
    // `read` names the file in its finding.
    let bytes = match root.read(&l.path, limit, Some(meta)) {
        Ok(b) => b,
        Err(d) => {
            diags.push(d);
            pkg.payloads.insert(l.path.clone(), None);
            return;
        }
    };
    if bytes.len() as u64 != l.size {
        diags.push(
            Diagnostic::new(
                Code::PayloadSizeMismatch,
                format!(
                    "payload {} size is {}, index says {}",
                    quote(&l.path),
                    bytes.len(),
                    l.size
                ),
            )
            .at(at.child("size")),
        );
    }
    let actual = sha256_digest(&bytes);
    if actual != l.digest {
        diags.push(
            Diagnostic::new(
                Code::PayloadDigestMismatch,
                format!(
                    "payload {} digest is {actual}, index says {}",
                    quote(&l.path),
                    l.digest
                ),
            )
            .at(at.child("digest")),
        );
    }
    let mut value = None;
    let mut span_map = None;
    if is_json_media_type(&l.media_type) {
        let plain = !keep
            && strict::accepts_unflagged(&bytes, &mut |name| {
                crate::vocabulary::is_forbidden(name).is_some()
            });
        if plain {
            pkg.parsed_json.insert(l.path.clone());
        } else {
            // A document the package's builder already parsed (a package
            // held in memory: `check FILE`'s definition, an editor's
            // buffer): that one parse, value, numbers and span map, not a
            // second one of its bytes (the span map is taken from it here
            // for `spans`, else by the outcome when a finding names the file).
            let done = pkg.root.as_ref().and_then(|r| r.parsed(&l.path)).map(|d| {
                span_map = spans.then(|| d.parsed.spans.clone());
                (d.parsed.value.clone(), d.numbers.clone())
            });
            let parsed = if let Some(done) = done {
                Ok(done)
            } else if spans {
                strict::parse_with_numbers(&bytes).map(|(p, numbers)| {
                    span_map = Some(p.spans);
                    (p.value, numbers)
                })
            } else {
                strict::parse_value_with_numbers(&bytes)
            };
            match parsed {
                Ok((parsed, numbers)) => {
                    pkg.parsed_json.insert(l.path.clone());
                    match crate::canonical::check(&parsed) {
                        Ok(()) => {
                            value = Some(JsonPayload {
                                value: parsed,
                                numbers: numbers.into(),
                                digest: actual,
                            });
                        }
                        Err(d) => diags.push(d.in_file(l.path.clone())),
                    }
                }
                Err(e) => diags.push(e.to_payload_diagnostic().in_file(l.path.clone())),
            }
        }
    } else if let Some(fault) = text_fault(&bytes) {
        diags.push(
            Diagnostic::new(
                Code::InvalidTextPayload,
                format!(
                    "text payload {} must be valid UTF-8 without NUL bytes",
                    quote(&l.path)
                ),
            )
            .in_file(l.path.clone())
            .span(fault),
        );
    }
    let source = pkg.sources.entry(l.path.clone()).or_default();
    source.bytes = bytes;
    if span_map.is_some() {
        source.spans = span_map;
    }
    pkg.payloads.insert(l.path.clone(), value);
}

/// A payload's parse error: invalid UTF-8 keeps `invalid-utf8` (IJSON_UTF8);
/// every other refusal, a BOM included, is `invalid-json-payload`
/// (PAYLOAD_IJSON), as the reference classifies them.
/// The byte range of the first fault of a text payload (`verifier-rules.md`
/// §1.8: UTF-8 without NUL): the first invalid UTF-8 sequence or NUL byte,
/// whichever comes first; `None` for valid text.
fn text_fault(bytes: &[u8]) -> Option<std::ops::Range<usize>> {
    let invalid = std::str::from_utf8(bytes).err().map(|e| {
        let at = e.valid_up_to();
        at..at + e.error_len().unwrap_or(bytes.len() - at)
    });
    let nul = bytes.iter().position(|&b| b == 0).map(|at| at..at + 1);
    match (invalid, nul) {
        (Some(a), Some(b)) => Some(if a.start < b.start { a } else { b }),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_fault_is_the_first_bad_byte() {
        assert_eq!(text_fault(b"# fine\n"), None);
        assert_eq!(text_fault("é ok".as_bytes()), None);
        assert_eq!(text_fault(b"# store\xff\n"), Some(7..8));
        assert_eq!(text_fault(b"a\0b\xff"), Some(1..2));
        assert_eq!(text_fault(b"ab\xff\0"), Some(2..3));
        // a sequence cut off by the end of the file: the rest of the file
        assert_eq!(text_fault(b"ab\xe2\x82"), Some(2..4));
    }
}

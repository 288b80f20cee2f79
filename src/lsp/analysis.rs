//! One package verified from the editor's buffers over the disk, and its
//! findings as LSP diagnostics.
//!
//! The package is read from disk through the fenced reader
//! ([`crate::source::open_disk`]: no link followed, nothing special
//! opened), every open buffer replaces its file's bytes (or adds a file
//! not yet saved), and the result is verified as a
//! [`MemorySource`] by [`crate::verify::verify_source`], the same checks
//! as `verify`. The disk's inventory findings (links, special files,
//! names) and refused reads are kept: a buffer never hides them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Position, Range,
    Uri,
};

use crate::diag::{Diagnostic, Severity};
use crate::fsread::INDEX_NAME;
use crate::render::model::RunView;
use crate::report::{Entry, EntryKind, ExitRule, Report};
use crate::source::{MemorySource, PackageSource};
use crate::verify::PackageOutcome;

/// How many directories above a file are searched for its package root.
const ROOT_SEARCH_DEPTH: usize = 64;

/// The package a file belongs to: the nearest directory at or above its
/// parent that holds `package-index.json` (a regular file on disk, never a
/// link, or an open buffer: `is_open_index`). `None` for a file in no
/// package.
pub fn package_root(file: &Path, is_open_index: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .take(ROOT_SEARCH_DEPTH)
        .find(|dir| {
            let index = dir.join(INDEX_NAME);
            is_open_index(&index)
                || std::fs::symlink_metadata(&index).is_ok_and(|m| m.file_type().is_file())
        })
        .map(Path::to_path_buf)
}

/// The package path of `file` under `root` (`fixtures/a.json`), `None`
/// when it is not below `root` or a component is not UTF-8.
pub fn package_path(root: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    let parts = parts?;
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// A verified package: its report and the bytes of every file it was
/// verified from (positions are computed on these).
#[derive(Debug)]
pub struct Analysis {
    /// The package directory.
    pub root: PathBuf,
    /// What `verify` found, as a report built complete: one entry, the
    /// package ([`EntryKind::Package`]; a lone document's is an
    /// [`EntryKind::Document`] named by its file, [`Analysis::document`]).
    pub report: Report,
    /// Package path → bytes, as verified.
    pub files: BTreeMap<String, Vec<u8>>,
    /// The disk's own findings (inventory: links, special files, names;
    /// refused reads), also in `report`: a package with any is one
    /// `index` refuses to index.
    pub disk_findings: Vec<Diagnostic>,
}

/// The files of a package as last read from disk through the fenced
/// reader ([`crate::source::open_disk`]), kept between edits: the language
/// server reads a package's disk once and again only when a file of it is
/// opened, saved or closed, or the client reports a change on disk
/// (`workspace/didChangeWatchedFiles`), never on a keystroke (a package
/// of many files, or a walk refused for too many files, costs one walk,
/// not one per change).
#[derive(Debug, Default)]
pub struct DiskSnapshot {
    /// The disk's inventory findings (links, special files, names, a walk
    /// refused) and a root that could not be opened.
    findings: Vec<Diagnostic>,
    /// Package path → its bytes, or the finding that refused its read
    /// (`None`: refused, but the inventory already has a finding for the
    /// file, and one cause gets one finding, as in `verify`).
    files: BTreeMap<String, Result<Vec<u8>, Option<Diagnostic>>>,
}

impl DiskSnapshot {
    /// Reads the package at `root` from disk.
    pub fn read(root: &Path) -> Self {
        let mut snapshot = DiskSnapshot::default();
        match crate::source::open_disk(root) {
            Ok(disk) => {
                let inv = disk.inventory();
                let flagged: std::collections::BTreeSet<String> = inv
                    .diagnostics
                    .iter()
                    .filter_map(|d| d.file.clone())
                    .collect();
                snapshot.findings.extend(inv.diagnostics);
                for e in &inv.files {
                    let read = disk
                        .read(&e.rel, crate::limits::PAYLOAD_BYTES, Some(&e.meta))
                        .map_err(|d| (!flagged.contains(&e.rel)).then_some(d));
                    snapshot.files.insert(e.rel.clone(), read);
                }
            }
            Err(d) => snapshot.findings.push(d),
        }
        snapshot
    }
}

/// The files of the package: its files on disk as `disk` read them, each
/// open buffer (`buffers`: package path → bytes) over its file; and the
/// disk's inventory findings and refused reads (a buffered file's refused
/// read is not kept: the buffer is what is verified).
pub fn package_files(
    disk: &DiskSnapshot,
    buffers: &BTreeMap<String, Vec<u8>>,
) -> (BTreeMap<String, Vec<u8>>, Vec<Diagnostic>) {
    let mut files = BTreeMap::new();
    let mut kept: Vec<Diagnostic> = disk.findings.clone();
    for (rel, read) in &disk.files {
        if buffers.contains_key(rel) {
            continue;
        }
        match read {
            Ok(bytes) => {
                files.insert(rel.clone(), bytes.clone());
            }
            Err(Some(d)) => kept.push(d.clone()),
            Err(None) => {}
        }
    }
    for (rel, bytes) in buffers {
        files.insert(rel.clone(), bytes.clone());
    }
    (files, kept)
}

/// Verifies the package at `root` with `buffers` (package path → bytes)
/// over its files on disk as `disk` holds them (see the module docs).
pub fn analyze(root: &Path, disk: &DiskSnapshot, buffers: &BTreeMap<String, Vec<u8>>) -> Analysis {
    let (files, kept) = package_files(disk, buffers);
    let source = MemorySource::new(root, files.clone());
    let mut outcome = crate::verify::verify_source(Box::new(source) as Box<dyn PackageSource>);
    // The memory source gives the same findings for the names it holds:
    // the exact duplicates go.
    outcome.diagnostics.extend(kept.iter().cloned());
    crate::diag::finish(&mut outcome.diagnostics);
    Analysis {
        root: root.to_path_buf(),
        report: Report::new(
            vec![Entry::new(EntryKind::Package, outcome)],
            ExitRule::default(),
        ),
        files,
        disk_findings: kept,
    }
}

impl Analysis {
    /// The analysis of a lone document `name` (its `bytes`, as checked:
    /// `outcome`), one [`EntryKind::Document`] entry named `name`
    /// ([`crate::document::document_entry`]).
    pub fn document(name: &str, bytes: Vec<u8>, outcome: PackageOutcome) -> Self {
        Analysis {
            root: PathBuf::new(),
            report: Report::new(
                vec![crate::document::document_entry(name, outcome)],
                ExitRule::default(),
            ),
            files: [(name.to_owned(), bytes)].into(),
            disk_findings: Vec::new(),
        }
    }
}

/// How many UTF-16 code units `bytes` are in the client's text: UTF-8
/// as it decodes, a lone surrogate in its WTF-8 form (`ED A0 80`, as
/// [`super::surrogates`] keeps one) one unit, any other invalid sequence
/// one unit each (as `String::from_utf8_lossy` replaces it).
fn utf16_units(mut bytes: &[u8]) -> usize {
    let mut units = 0;
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => return units + s.encode_utf16().count(),
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                units += std::str::from_utf8(good).map_or(0, |s| s.encode_utf16().count()) + 1;
                let skip = match super::surrogates::unit_at(rest) {
                    Some(_) => 3,
                    None => e.error_len().unwrap_or(rest.len()),
                };
                bytes = rest.get(skip..).unwrap_or_default();
            }
        }
    }
}

/// The LSP position of byte `offset` in `text`: 0-based line, column in
/// UTF-16 code units (LSP 3.17 default `utf-16` position encoding). Lines
/// end at LF, CR LF or a lone CR, as in [`crate::render::position`];
/// invalid UTF-8 counts one unit per replaced sequence, a lone surrogate
/// one (in its WTF-8 form). Offsets past the end are clamped.
pub fn lsp_position(text: &[u8], offset: usize) -> Position {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let mut line = 0u32;
    let mut start = 0;
    for (i, &b) in before.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && text.get(i + 1) != Some(&b'\n')) {
            line += 1;
            start = i + 1;
        }
    }
    let column = utf16_units(before.get(start..).unwrap_or_default());
    Position::new(line, u32::try_from(column).unwrap_or(u32::MAX))
}

/// [`lsp_position`] of each of `offsets` in `text`, in one pass over the
/// text (plus sorting the offsets). Equal to [`lsp_position`] for offsets
/// on character boundaries (the ends of JSON tokens always are).
pub fn lsp_positions(
    text: &[u8],
    offsets: impl IntoIterator<Item = usize>,
) -> BTreeMap<usize, Position> {
    let mut sorted: Vec<usize> = offsets.into_iter().collect();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out = BTreeMap::new();
    // Scanned up to `scanned`; the current line starts at `line_start`;
    // `column` units lie between `line_start` and `counted`.
    let (mut line, mut line_start, mut scanned) = (0u32, 0usize, 0usize);
    let (mut counted, mut column) = (0usize, 0usize);
    for asked in sorted {
        let offset = asked.min(text.len());
        for i in scanned..offset {
            let b = text.get(i).copied().unwrap_or_default();
            if b == b'\n' || (b == b'\r' && text.get(i + 1) != Some(&b'\n')) {
                line += 1;
                line_start = i + 1;
            }
        }
        scanned = scanned.max(offset);
        if counted < line_start {
            counted = line_start;
            column = 0;
        }
        let chunk = text.get(counted..offset).unwrap_or_default();
        column += utf16_units(chunk);
        counted = offset;
        out.insert(
            asked,
            Position::new(line, u32::try_from(column).unwrap_or(u32::MAX)),
        );
    }
    out
}

/// The byte offset of an LSP position in `text` (the inverse of
/// [`lsp_position`]); `None` when the line does not exist or the column is
/// past its end.
pub fn byte_offset(text: &str, pos: Position) -> Option<usize> {
    let mut line_start = 0;
    let bytes = text.as_bytes();
    for _ in 0..pos.line {
        let rest = bytes.get(line_start..)?;
        let i = rest.iter().position(|&b| b == b'\n' || b == b'\r')?;
        let crlf = rest.get(i) == Some(&b'\r') && rest.get(i + 1) == Some(&b'\n');
        line_start += i + if crlf { 2 } else { 1 };
    }
    let line = text.get(line_start..)?;
    let mut units = 0u32;
    for (i, c) in line.char_indices() {
        if units >= pos.character || c == '\n' || c == '\r' {
            return (units == pos.character).then_some(line_start + i);
        }
        units += c.len_utf16() as u32;
    }
    (units == pos.character).then_some(text.len())
}

/// The LSP severity of a finding's.
fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Note => DiagnosticSeverity::INFORMATION,
    }
}

/// Every finding of `a` as LSP diagnostics, by the package path of the
/// file it names (a finding about the package directory itself is shown
/// on `package-index.json`, at its start). `uri_of` gives a file's URI.
///
/// Each diagnostic has the code (`FD213`), source `form-package`, the
/// finding's severity and message, the exact range in UTF-16 columns
/// (the start of the file when the finding has no span), the help line
/// and notes as related information at the same place, and `data`
/// `{"name", "pointer"}`. No `codeDescription`: the codes have no
/// published documentation URL (`form-package explain CODE` is the
/// documentation, shown on hover).
pub fn diagnostics(
    a: &Analysis,
    uri_of: impl Fn(&str) -> Option<Uri>,
) -> BTreeMap<String, (Uri, Vec<lsp_types::Diagnostic>)> {
    let mut out: BTreeMap<String, (Uri, Vec<lsp_types::Diagnostic>)> = BTreeMap::new();
    let view = RunView::of(&a.report);
    // Every position of a file in one pass over it (a per-finding scan is
    // quadratic: 80,000 findings in a 2 MB file).
    let mut wanted: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    // Each finding's span; a lone surrogate's whole (see `lone_surrogate`).
    let spans: Vec<(Option<std::ops::Range<usize>>, Option<u16>)> = view
        .findings()
        .map(|(_, f)| {
            let bytes = f.diag.file.as_ref().and_then(|file| a.files.get(file));
            match (bytes, &f.span) {
                (Some(b), Some(span)) => match lone_surrogate(f.diag, b, span) {
                    Some((whole, unit)) => (Some(whole), Some(unit)),
                    None => (Some(span.clone()), None),
                },
                (_, span) => (span.clone(), None),
            }
        })
        .collect();
    for ((_, f), (span, _)) in view.findings().zip(&spans) {
        if let (Some(file), Some(span)) = (&f.diag.file, span) {
            wanted
                .entry(file.as_str())
                .or_default()
                .extend([span.start, span.end]);
        }
    }
    let positions: BTreeMap<&str, BTreeMap<usize, Position>> = wanted
        .into_iter()
        .map(|(file, offsets)| {
            let text = a.files.get(file).map(Vec::as_slice).unwrap_or_default();
            (file, lsp_positions(text, offsets))
        })
        .collect();
    for ((_, f), (span, lone)) in view.findings().zip(&spans) {
        let d = f.diag;
        let file = d.file.clone().unwrap_or_else(|| INDEX_NAME.to_owned());
        let range = match (&d.file, span) {
            (Some(_), Some(span)) => {
                let at = |o: usize| {
                    positions
                        .get(file.as_str())
                        .and_then(|p| p.get(&o))
                        .copied()
                        .unwrap_or_default()
                };
                Range::new(at(span.start), at(span.end))
            }
            _ => Range::default(),
        };
        let entry = match out.entry(file) {
            std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => {
                let Some(uri) = uri_of(v.key()) else { continue };
                v.insert((uri, Vec::new()))
            }
        };
        let here = Location::new(entry.0.clone(), range);
        let related: Vec<DiagnosticRelatedInformation> = d
            .help
            .iter()
            .map(|h| format!("help: {h}"))
            .chain(d.notes.iter().map(|n| format!("note: {n}")))
            .chain(lone.map(|unit| format!(
                "note: here the editor's text holds the lone surrogate U+{unit:04X} (one half of a UTF-16 surrogate pair, without the other), which has no UTF-8 form: a file holding it is refused the same way"
            )))
            .map(|message| DiagnosticRelatedInformation {
                location: here.clone(),
                message,
            })
            .collect();
        let info = d.code.info();
        entry.1.push(lsp_types::Diagnostic {
            range,
            severity: Some(severity(d.severity)),
            code: Some(NumberOrString::String(info.id.to_owned())),
            code_description: None,
            source: Some("form-package".to_owned()),
            message: d.message.clone(),
            related_information: (!related.is_empty()).then_some(related),
            tags: None,
            data: Some(serde_json::json!({
                "name": info.name,
                "pointer": d.pointer.as_str(),
            })),
        });
    }
    out
}

/// The whole lone surrogate (its three WTF-8 bytes, [`super::surrogates`])
/// where an `invalid-utf8` finding `d` starts in `bytes`, and its code
/// unit: the strict reader refuses its first byte, the editor shows one
/// character. `None` for any other finding or byte.
fn lone_surrogate(
    d: &Diagnostic,
    bytes: &[u8],
    span: &std::ops::Range<usize>,
) -> Option<(std::ops::Range<usize>, u16)> {
    if d.code != crate::codes::Code::InvalidUtf8 {
        return None;
    }
    let unit = super::surrogates::unit_at(bytes.get(span.start..)?)?;
    Some((span.start..span.start + 3, unit))
}

/// The most diagnostics sent for one file (a package of 80,000 findings
/// would otherwise be one notification of tens of megabytes, which editors
/// freeze on). Set at 1,000: more than a person reads in a file, and a
/// publication an editor takes in at once.
pub const MAX_PER_FILE: usize = 1000;

/// `list` cut to [`MAX_PER_FILE`] diagnostics, in its order, then — never
/// silently — one more diagnostic that says how many were left out and
/// where to see them all: at the range of the first one left out, with the
/// most severe severity of those left out, no code, and `data`
/// `{"omitted": N}`. A list within the cap is returned as it is.
pub fn capped(mut list: Vec<lsp_types::Diagnostic>) -> Vec<lsp_types::Diagnostic> {
    if list.len() <= MAX_PER_FILE {
        return list;
    }
    let rest = list.split_off(MAX_PER_FILE);
    let omitted = rest.len();
    let severity = rest.iter().filter_map(|d| d.severity).min();
    let range = rest.first().map(|d| d.range).unwrap_or_default();
    list.push(lsp_types::Diagnostic {
        range,
        severity,
        code: None,
        code_description: None,
        source: Some("form-package".to_owned()),
        message: format!(
            "{omitted} more findings in this file are not shown (the editor is sent at most {MAX_PER_FILE} per file); `form-package verify` on this package lists them all"
        ),
        related_information: None,
        tags: None,
        data: Some(serde_json::json!({ "omitted": omitted })),
    });
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_utf16_and_round_trip() {
        let text = "{\"é😀\": 1,\r\n \"b\":\r2}";
        let b = text.as_bytes();
        // `:` after the key: `{"é😀"` is 1+1+1+2+1 = 6 UTF-16 units.
        let colon = text.find(':').unwrap();
        assert_eq!(lsp_position(b, colon), Position::new(0, 6));
        assert_eq!(byte_offset(text, Position::new(0, 6)), Some(colon));
        let two = text.find('2').unwrap();
        assert_eq!(lsp_position(b, two), Position::new(2, 0));
        assert_eq!(byte_offset(text, Position::new(2, 0)), Some(two));
        assert_eq!(
            byte_offset(text, Position::new(1, 5)),
            Some(text.find("\r2").unwrap())
        );
        // Near misses: inside a surrogate pair, past a line, past the end.
        assert_eq!(byte_offset(text, Position::new(0, 4)), None);
        assert_eq!(byte_offset(text, Position::new(1, 6)), None);
        assert_eq!(byte_offset(text, Position::new(9, 0)), None);
        assert_eq!(lsp_position(b, 999), Position::new(2, 2));
    }

    /// A lone surrogate in its WTF-8 form is one UTF-16 unit, as in the
    /// editor's text; near miss: other invalid bytes count as
    /// `from_utf8_lossy` replaces them.
    #[test]
    fn a_lone_surrogate_is_one_unit() {
        let b = b"\"a\xED\xA0\x80b\"";
        assert_eq!(lsp_position(b, 5), Position::new(0, 3));
        let all = lsp_positions(b, [2, 5, 6]);
        assert_eq!(all[&5], Position::new(0, 3));
        assert_eq!(all[&6], Position::new(0, 4));
        let odd = b"a\xFF\xC3b";
        let lossy = String::from_utf8_lossy(odd).encode_utf16().count() as u32;
        assert_eq!(lsp_position(odd, odd.len()), Position::new(0, lossy));
    }

    fn diag(line: u32, severity: DiagnosticSeverity) -> lsp_types::Diagnostic {
        lsp_types::Diagnostic {
            range: Range::new(Position::new(line, 0), Position::new(line, 1)),
            severity: Some(severity),
            ..Default::default()
        }
    }

    #[test]
    fn a_long_list_is_capped_and_says_how_many_more() {
        let list: Vec<_> = (0..MAX_PER_FILE as u32 + 5)
            .map(|i| {
                let s = if i == MAX_PER_FILE as u32 + 3 {
                    DiagnosticSeverity::ERROR
                } else {
                    DiagnosticSeverity::WARNING
                };
                diag(i, s)
            })
            .collect();
        let out = capped(list.clone());
        assert_eq!(out.len(), MAX_PER_FILE + 1);
        assert_eq!(out[..MAX_PER_FILE], list[..MAX_PER_FILE]);
        let last = &out[MAX_PER_FILE];
        assert!(
            last.message.starts_with("5 more findings in this file"),
            "{last:?}"
        );
        assert_eq!(last.severity, Some(DiagnosticSeverity::ERROR));
        assert_eq!(last.range.start.line, MAX_PER_FILE as u32);
        assert_eq!(last.data, Some(serde_json::json!({"omitted": 5})));
        // Near miss: a list at the cap is sent whole, with nothing added.
        let whole: Vec<_> = list[..MAX_PER_FILE].to_vec();
        assert_eq!(capped(whole.clone()), whole);
    }

    #[test]
    fn positions_in_one_pass_equal_positions_one_by_one() {
        let text = "{\"é😀\": 1,\r\n \"b\":\r2,\n\n \"c\": \"ü\"}";
        let b = text.as_bytes();
        let all: Vec<usize> = (0..=b.len() + 2)
            .filter(|&i| i > b.len() || text.is_char_boundary(i))
            .collect();
        let got = lsp_positions(b, all.iter().rev().copied());
        assert_eq!(got.len(), all.len());
        for i in all {
            assert_eq!(got[&i], lsp_position(b, i), "offset {i}");
        }
    }

    #[test]
    fn package_paths_are_slash_separated_and_below_the_root() {
        let root = Path::new("/p/pkg");
        assert_eq!(
            package_path(root, Path::new("/p/pkg/fixtures/a.json")).as_deref(),
            Some("fixtures/a.json")
        );
        assert_eq!(package_path(root, Path::new("/p/other.json")), None);
        assert_eq!(package_path(root, root), None);
    }
}

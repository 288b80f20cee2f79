//! Where a package's files come from (issue 21 item 2): a [`PackageSource`]
//! gives the inventory of a package's files and reads one of them, with the
//! findings of `verifier-rules.md` §1.2–§1.7. The checks of
//! [`crate::checks`] read a package only through it.
//!
//! Two sources:
//! - the disk ([`fsread::PackageRoot`], opened by [`open_disk`]): the fenced
//!   reader every command uses (no link followed, nothing special opened,
//!   the root and each file fenced against change);
//! - memory ([`MemorySource`]): a map of package-relative path → bytes, for
//!   a document that is not on disk (`check FILE`, standard input, an
//!   editor's buffer). Its files are plain, non-executable and never
//!   change; the name rules (R1.9 extensions, R1.10/R1.13 path grammar),
//!   the R1.11 index rule and the size limits of a read are the disk's own,
//!   with the same findings and messages.
//!
//! A package gives the same report from either source
//! (`tests/golden/package_source.rs` on the whole corpus).

use crate::diag::escape::quote;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::Diagnostic;
use crate::fsread::{self, Entry, EntryKind, Inventory, PackageRoot, StableMeta};

/// A package's files: their inventory and a fenced read of one of them.
pub trait PackageSource: std::fmt::Debug + Send + Sync {
    /// The package path as findings and reports name it.
    fn path(&self) -> &Path;
    /// Every file of the package and the findings of its entries
    /// ([`PackageRoot::inventory`]'s contract: files sorted byte-wise by
    /// `rel`, one finding per offending entry, `has_index` set).
    fn inventory(&self) -> Inventory;
    /// At most `limit` bytes of the file `rel` (a package path), fenced
    /// against `expected`, the inventory's metadata
    /// ([`PackageRoot::read`]'s contract and findings: `UnreadablePayload`,
    /// `UnreadableIndex` for the index).
    ///
    /// # Errors
    /// The finding that refuses the read, in file `rel`.
    #[allow(clippy::result_large_err)] // the crate-wide finding type
    fn read(
        &self,
        rel: &str,
        limit: u64,
        expected: Option<&StableMeta>,
    ) -> Result<Vec<u8>, Diagnostic>;
    /// R1.3: `Some(RootChanged)` when the package changed while it was
    /// verified; a source that cannot change says `None`.
    fn fence(&self) -> Option<Diagnostic>;
    /// The JSON document `rel` as whoever built this package already parsed
    /// it (a package held in memory: `check FILE` parses its document
    /// once, [`MemorySource::with_parsed`]); the checks and the index build
    /// take it instead of parsing the same bytes again. `None` (the disk,
    /// and any file not given so): they parse what they read.
    fn parsed(&self, rel: &str) -> Option<&ParsedDocument> {
        let _ = rel;
        None
    }
}

/// A JSON document parsed once by the strict reader
/// ([`crate::json::strict::parse_with_numbers`]) of the very bytes a
/// [`MemorySource`] holds for it: its value, span map and number literals.
#[derive(Clone, Debug)]
pub struct ParsedDocument {
    /// Its value and span map.
    pub parsed: crate::json::strict::Parsed,
    /// Its number literals as written, in document order (the engine's
    /// `numbers`).
    pub numbers: Vec<Box<str>>,
}

impl PackageSource for PackageRoot {
    fn path(&self) -> &Path {
        PackageRoot::path(self)
    }
    fn inventory(&self) -> Inventory {
        PackageRoot::inventory(self)
    }
    fn read(
        &self,
        rel: &str,
        limit: u64,
        expected: Option<&StableMeta>,
    ) -> Result<Vec<u8>, Diagnostic> {
        PackageRoot::read(self, rel, limit, expected)
    }
    fn fence(&self) -> Option<Diagnostic> {
        PackageRoot::fence(self)
    }
}

/// Opens the package directory `path` on disk ([`fsread::open_root`], R1.1–R1.2).
///
/// # Errors
/// `RootNotDirectory`, `RootOpen` or `RootChanged`, as [`fsread::open_root`].
#[allow(clippy::result_large_err)] // the crate-wide finding type
pub fn open_disk(path: &Path) -> Result<Box<dyn PackageSource>, Diagnostic> {
    fsread::open_root(path).map(|r| Box::new(r) as Box<dyn PackageSource>)
}

/// A package held in memory: package-relative path (`forms/a.json`) →
/// bytes. Every file is a regular, non-executable file of mode `0644`
/// that never changes, unless [`MemorySource::with_entry`] says otherwise
/// (a package read from a git tree, `compat --baseline-rev`, can hold an
/// executable file or a symbolic link, which verify refuses as on disk);
/// directories are implied by the paths.
///
/// The bytes are shared ([`Arc`]): a source built from bytes someone
/// else keeps ([`MemorySource::shared`]: the language server's disk
/// snapshot and buffers, on every edit) copies none of them.
#[derive(Clone, Debug, Default)]
pub struct MemorySource {
    path: PathBuf,
    files: BTreeMap<String, Arc<[u8]>>,
    parsed: BTreeMap<String, Arc<ParsedDocument>>,
    odd: BTreeMap<String, OddEntry>,
}

/// An entry of a [`MemorySource`] that is no plain `0644` file, shown to
/// the checks as the disk shows it (breaker F2: a package at a git revision
/// holding one is refused as `verify` refuses it on disk, never dropped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OddEntry {
    /// The file (its bytes in the map) has an execute bit (mode `0755`):
    /// `ExecutableMode`, as on disk.
    Executable,
    /// A symbolic link (no bytes, never followed): `SymlinkEntry`, as on
    /// disk; reading it fails.
    Symlink,
    /// A regular file of `size` bytes that was not read (over a limit of
    /// the reader that holds the package): its metadata is inventoried and
    /// reading it fails with `why` (or with the read limit it is over).
    Unread {
        /// Its size in bytes.
        size: u64,
        /// Why it was not read.
        why: String,
    },
}

impl MemorySource {
    /// A package named `path` in reports, holding `files`.
    pub fn new(path: impl Into<PathBuf>, files: BTreeMap<String, Vec<u8>>) -> Self {
        let files = files.into_iter().map(|(k, v)| (k, Arc::from(v))).collect();
        Self::shared(path, files)
    }

    /// A package named `path` in reports, holding `files` as they are
    /// shared (no byte is copied to build it).
    pub fn shared(path: impl Into<PathBuf>, files: BTreeMap<String, Arc<[u8]>>) -> Self {
        MemorySource {
            path: path.into(),
            files,
            parsed: BTreeMap::new(),
            odd: BTreeMap::new(),
        }
    }

    /// This package with the entry `rel` of another kind than a plain file
    /// ([`OddEntry`]): an executable file keeps its bytes in the map; a
    /// symbolic link or an unread file has none (any given are dropped).
    #[must_use]
    pub fn with_entry(mut self, rel: &str, kind: OddEntry) -> Self {
        if kind != OddEntry::Executable {
            self.files.remove(rel);
        }
        self.odd.insert(rel.to_owned(), kind);
        self
    }

    /// This package with the file `rel` given as already parsed: `parsed`
    /// must be the strict reader's parse of the bytes `files` holds at
    /// `rel` ([`PackageSource::parsed`]; shared, so two sources of one
    /// document share its one parse).
    #[must_use]
    pub fn with_parsed(mut self, rel: &str, parsed: Arc<ParsedDocument>) -> Self {
        self.parsed.insert(rel.to_owned(), parsed);
        self
    }

    /// The files, by package path.
    pub fn files(&self) -> &BTreeMap<String, Arc<[u8]>> {
        &self.files
    }

    /// The metadata a file of `size` bytes at position `i` of the map shows:
    /// a regular file `0644` (`0755` when [`OddEntry::Executable`]), its
    /// inode the position (distinct per file).
    fn meta(&self, i: usize, rel: &str, size: u64) -> StableMeta {
        let mode = match self.odd.get(rel) {
            Some(OddEntry::Executable) => 0o100_755,
            _ => 0o100_644,
        };
        StableMeta {
            dev: 0,
            ino: i as u64 + 1,
            mode,
            size,
            mtime_sec: 0,
            mtime_nsec: 0,
        }
    }
}

impl PackageSource for MemorySource {
    fn path(&self) -> &Path {
        &self.path
    }

    fn inventory(&self) -> Inventory {
        let mut inv = Inventory::default();
        // The disk walk meets each directory's names in byte order, depth
        // first: findings come in the order of the paths compared name by
        // name (`a/b.json` before `a.json`, as the directory `a` sorts first).
        let mut walk: Vec<(usize, &String, Option<u64>)> = self
            .files
            .iter()
            .map(|(rel, bytes)| (rel, Some(bytes.len() as u64)))
            .chain(self.odd.iter().filter_map(|(rel, odd)| match odd {
                OddEntry::Executable => None,
                OddEntry::Symlink => Some((rel, None)),
                OddEntry::Unread { size, .. } => Some((rel, Some(*size))),
            }))
            .enumerate()
            .map(|(i, (rel, size))| (i, rel, size))
            .collect();
        walk.sort_by(|a, b| a.1.split('/').cmp(b.1.split('/')));
        for (i, rel, size) in walk {
            let Some(size) = size else {
                inv.diagnostics.push(fsread::symlink_finding(rel));
                continue;
            };
            let meta = self.meta(i, rel, size);
            if rel == fsread::INDEX_NAME {
                inv.has_index = true;
            }
            if let Some(d) = fsread::entry_check(rel.as_bytes(), rel, &meta) {
                inv.diagnostics.push(d);
            }
            inv.files.push(Entry {
                rel: rel.clone(),
                kind: EntryKind::File,
                meta,
            });
        }
        inv.files
            .sort_by(|a, b| a.rel.as_bytes().cmp(b.rel.as_bytes()));
        inv
    }

    fn read(
        &self,
        rel: &str,
        limit: u64,
        expected: Option<&StableMeta>,
    ) -> Result<Vec<u8>, Diagnostic> {
        let open_fail = |why: &str| {
            fsread::read_failure(rel, format!("open package file {}: {why}", quote(rel)))
        };
        fsread::path_grammar(rel).map_err(open_fail)?;
        if let Some(OddEntry::Unread { size, why }) = self.odd.get(rel) {
            // Its position in the inventory's numbering: after the files,
            // among the entries that hold no bytes.
            let i = self.files.len()
                + self
                    .odd
                    .iter()
                    .take_while(|(k, _)| *k != rel)
                    .filter(|(_, o)| **o != OddEntry::Executable)
                    .count();
            let meta = self.meta(i, rel, *size);
            if expected.is_some_and(|e| !meta.unchanged(e)) {
                return Err(fsread::read_failure(
                    rel,
                    "file identity changed after package inventory".into(),
                ));
            }
            return Err(if *size > limit {
                fsread::read_failure(rel, format!("file is {size} bytes; maximum is {limit}")).note(
                    format!("refused from metadata before reading; limit {limit} bytes"),
                )
            } else {
                fsread::read_failure(rel, why.clone())
            });
        }
        let Some((i, bytes)) = self
            .files
            .iter()
            .enumerate()
            .find_map(|(i, (name, b))| (name == rel).then_some((i, b)))
        else {
            return Err(open_fail("No such file or directory (os error 2)"));
        };
        let meta = self.meta(i, rel, bytes.len() as u64);
        if expected.is_some_and(|e| !meta.unchanged(e)) {
            return Err(fsread::read_failure(
                rel,
                "file identity changed after package inventory".into(),
            ));
        }
        if meta.size > limit {
            return Err(fsread::read_failure(
                rel,
                format!("file is {} bytes; maximum is {limit}", meta.size),
            )
            .note(format!(
                "refused from metadata before reading; limit {limit} bytes"
            )));
        }
        Ok(bytes.to_vec())
    }

    fn fence(&self) -> Option<Diagnostic> {
        None
    }

    fn parsed(&self, rel: &str) -> Option<&ParsedDocument> {
        self.parsed.get(rel).map(Arc::as_ref)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;

    fn source(files: &[(&str, &[u8])]) -> MemorySource {
        MemorySource::new(
            "mem",
            files
                .iter()
                .map(|(p, b)| ((*p).to_owned(), b.to_vec()))
                .collect(),
        )
    }

    /// The inventory's file names, in its order.
    fn rels(inv: &Inventory) -> Vec<&str> {
        inv.files.iter().map(|e| e.rel.as_str()).collect()
    }

    /// The inventory's findings as (code, file), in its order.
    fn flagged(inv: &Inventory) -> Vec<(Code, &str)> {
        inv.diagnostics
            .iter()
            .map(|d| (d.code, d.file.as_deref().unwrap_or_default()))
            .collect()
    }

    #[test]
    fn memory_inventory_has_the_disk_findings_for_names() {
        let s = source(&[
            ("package-index.json", b"{}"),
            ("run.sh", b"x"),
            ("a/b.json", b"{}"),
            ("a.json", b"x"),
            ("a/c.exe", b"x"),
            ("a.exe", b"x"),
        ]);
        let inv = s.inventory();
        assert!(inv.has_index);
        assert_eq!(
            rels(&inv),
            [
                "a.exe",
                "a.json",
                "a/b.json",
                "a/c.exe",
                "package-index.json",
                "run.sh"
            ]
        );
        // In the disk walk's order: the directory `a` before `a.exe`.
        assert_eq!(
            flagged(&inv),
            [
                (Code::ExecutableExtension, "a/c.exe"),
                (Code::ExecutableExtension, "a.exe"),
                (Code::ExecutableExtension, "run.sh"),
            ]
        );
        // A near miss: no index, no finding for a plain name.
        let inv = source(&[("definition.json", b"{}")]).inventory();
        assert!(!inv.has_index && inv.diagnostics.is_empty());
    }

    /// Breaker F2: an entry of a package read from a git tree that is no
    /// plain file shows as the disk shows it: an executable file
    /// `ExecutableMode`, a symbolic link `SymlinkEntry` (never read), a file
    /// not read refused at its read with the limit or the reason. Near
    /// miss: the same files without the odd entries have no finding.
    #[test]
    fn odd_entries_show_as_on_disk() {
        let plain = source(&[
            ("package-index.json", b"{}"),
            ("definition.json", b"{}"),
            ("fixtures/a.json", b"{}"),
        ]);
        assert!(plain.inventory().diagnostics.is_empty());
        let odd = plain
            .clone()
            .with_entry("definition.json", OddEntry::Executable)
            .with_entry("fixtures/a.json", OddEntry::Symlink)
            .with_entry(
                "fixtures/big.json",
                OddEntry::Unread {
                    size: 10,
                    why: "not read".into(),
                },
            );
        let inv = odd.inventory();
        assert_eq!(
            flagged(&inv),
            [
                (Code::ExecutableMode, "definition.json"),
                (Code::SymlinkEntry, "fixtures/a.json"),
            ]
        );
        assert_eq!(
            rels(&inv),
            ["definition.json", "fixtures/big.json", "package-index.json"]
        );
        assert!(odd.read("fixtures/a.json", 100, None).is_err());
        let big = inv
            .files
            .iter()
            .find(|e| e.rel == "fixtures/big.json")
            .unwrap();
        let e = odd
            .read("fixtures/big.json", 100, Some(&big.meta))
            .unwrap_err();
        assert!(e.message.contains("not read"), "{}", e.message);
        let e = odd
            .read("fixtures/big.json", 5, Some(&big.meta))
            .unwrap_err();
        assert!(e.message.contains("maximum is 5"), "{}", e.message);
        assert_eq!(odd.read("definition.json", 100, None).unwrap(), b"{}");
    }

    /// A document given as parsed is read from that parse, never parsed
    /// again: a parse that differs from the bytes (here, one member more)
    /// is what the checks see. Near miss: the same files without it verify.
    #[test]
    fn a_parsed_document_is_what_the_checks_read() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632");
        let mut files = BTreeMap::new();
        for rel in [
            "definition.json",
            "package-index.json",
            "fixtures/desired.json",
        ] {
            files.insert(rel.to_owned(), std::fs::read(dir.join(rel)).unwrap());
        }
        let plain = crate::verify::verify_source(Box::new(MemorySource::new("mem", files.clone())));
        assert!(!plain.has_errors(), "{:?}", plain.diagnostics);
        let (mut parsed, numbers) =
            crate::json::strict::parse_with_numbers(&files["definition.json"]).unwrap();
        parsed.value["notAMember"] = serde_json::json!(true);
        let seeded = MemorySource::new("mem", files).with_parsed(
            "definition.json",
            Arc::new(ParsedDocument { parsed, numbers }),
        );
        assert!(seeded.parsed("definition.json").is_some());
        assert!(seeded.parsed("package-index.json").is_none());
        let out = crate::verify::verify_source(Box::new(seeded));
        assert!(
            out.diagnostics
                .iter()
                .any(|d| d.is_error() && d.file.as_deref() == Some("definition.json")),
            "{:?}",
            out.diagnostics
        );
    }

    #[test]
    fn memory_reads_are_fenced_and_capped_as_on_disk() {
        let s = source(&[("package-index.json", b"{}"), ("big.txt", b"12345")]);
        let inv = s.inventory();
        let meta = inv.files[0].meta;
        assert_eq!(s.read("big.txt", 5, Some(&meta)).unwrap(), b"12345");
        let over = s.read("big.txt", 4, None).unwrap_err();
        assert_eq!(over.code, Code::UnreadablePayload);
        assert_eq!(
            over.message,
            "read payload \"big.txt\": file is 5 bytes; maximum is 4"
        );
        let index = s.read("package-index.json", 1, None).unwrap_err();
        assert_eq!(index.code, Code::UnreadableIndex);
        let missing = s.read("nope.json", 9, None).unwrap_err();
        assert_eq!(missing.file.as_deref(), Some("nope.json"));
        assert!(missing.message.contains("No such file or directory"));
        assert!(s.fence().is_none());
    }
}

//! Package file-system layer: the held package root, the tree inventory and
//! bounded payload reads that never follow a link and never block.
//!
//! Implements `verifier-rules.md` §1.2 (R1.1–R1.4, root and fences), §1.3
//! (inventory, R1.5–R1.11), §1.4 (size limits), §1.5 R1.13 (path grammar)
//! and §1.7 R1.20 (secure open with identity fence).
//!
//! After [`open_root`] no path string is ever resolved by the kernel from the
//! current directory again except the root path itself in [`PackageRoot::fence`]
//! (which only `lstat`s it). Every entry is reached relative to the held root
//! descriptor, one component at a time, with `O_NOFOLLOW`; special files are
//! classified from `lstat`-style metadata and never opened.

use crate::diag::escape::quote;
use std::ffi::{CStr, CString};
use std::fs::File;
use std::io::Read;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Dir, Mode, OFlags, Stat, CWD};

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::limits;

/// Maximum bytes of `package-index.json` (4 MiB; `verifier-rules.md` §1.4).
pub const INDEX_LIMIT: u64 = limits::INDEX_BYTES;
/// Maximum declared size and read length of the Form Definition payload
/// (4 MiB; §1.4, R1.17).
pub const DEFINITION_LIMIT: u64 = limits::DEFINITION_BYTES;
/// Maximum declared size and read length of any JSON payload (16 MiB; §1.4).
pub const JSON_LIMIT: u64 = limits::JSON_BYTES;
/// Maximum declared size and read length of any other payload; declared sizes
/// must lie in `0..=PAYLOAD_LIMIT` (64 MiB; §1.4, R1.17).
pub const PAYLOAD_LIMIT: u64 = limits::PAYLOAD_BYTES;
/// Maximum running sum of declared payload sizes (256 MiB; §1.4, R1.17).
pub const TOTAL_LIMIT: u64 = limits::TOTAL_BYTES;
/// Maximum number of `files` entries in the index; the index itself is not
/// counted (§1.4, §1.1 step 6).
pub const MAX_FILES: usize = limits::FILES;
/// Maximum container nesting of every parsed JSON document (§1.4, §2.1).
pub const JSON_NESTING_LIMIT: usize = limits::JSON_NESTING;
/// Maximum length in bytes of a package path (R1.13).
pub const MAX_PATH_BYTES: usize = limits::PATH_BYTES;
/// File name of the package index, directly in the root (R1.11).
pub const INDEX_NAME: &str = "package-index.json";

/// The 45 executable-code extensions of R1.9 (`verifier-rules.md` §1.3),
/// lower-case, with the leading dot, sorted.
pub const EXECUTABLE_EXTENSIONS: [&str; 45] = [
    ".bat", ".bin", ".c", ".cc", ".class", ".cmd", ".com", ".cpp", ".cs", ".cxx", ".dll", ".dylib",
    ".exe", ".go", ".groovy", ".h", ".hcl", ".hpp", ".htm", ".html", ".jar", ".java", ".js",
    ".jsx", ".kt", ".kts", ".lua", ".mjs", ".php", ".pl", ".ps1", ".py", ".rb", ".rs", ".scala",
    ".sh", ".so", ".sql", ".svelte", ".swift", ".tf", ".ts", ".tsx", ".vue", ".wasm",
];

// File-type bits of `st_mode`; identical on every Unix (POSIX `S_IF*`).
const S_IFMT: u32 = 0o170_000;
const S_IFREG: u32 = 0o100_000;
const S_IFDIR: u32 = 0o040_000;
const S_IFLNK: u32 = 0o120_000;

/// The metadata the fences compare: identity (`dev`, `ino`) and the "stable
/// metadata" (`mode`, `size`, `mtime`) of `verifier-rules.md` §1.2 R1.2.
///
/// `mode` is the raw `st_mode` (type and permission bits), `size` is in bytes,
/// `mtime_sec`/`mtime_nsec` are the modification time since the Unix epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StableMeta {
    /// Device id (`st_dev`).
    pub dev: u64,
    /// Inode number (`st_ino`).
    pub ino: u64,
    /// Raw `st_mode`: file type and permission bits.
    pub mode: u32,
    /// Size in bytes (`st_size`).
    pub size: u64,
    /// Modification time, whole seconds.
    pub mtime_sec: i64,
    /// Modification time, nanoseconds part.
    pub mtime_nsec: i64,
}

impl StableMeta {
    /// True when both describe the same file (equal `dev` and `ino`).
    pub fn same_file(&self, other: &StableMeta) -> bool {
        self.dev == other.dev && self.ino == other.ino
    }

    /// True when the stable metadata (`mode`, `size`, `mtime`) is equal (R1.2).
    pub fn same_stable(&self, other: &StableMeta) -> bool {
        self.mode == other.mode
            && self.size == other.size
            && self.mtime_sec == other.mtime_sec
            && self.mtime_nsec == other.mtime_nsec
    }

    /// True when identity and stable metadata are both equal.
    pub fn unchanged(&self, other: &StableMeta) -> bool {
        self.same_file(other) && self.same_stable(other)
    }

    /// The entry kind from the `st_mode` type bits (as seen without following
    /// links).
    pub fn kind(&self) -> EntryKind {
        match self.mode & S_IFMT {
            S_IFREG => EntryKind::File,
            S_IFDIR => EntryKind::Dir,
            S_IFLNK => EntryKind::Symlink,
            _ => EntryKind::Special,
        }
    }

    /// True when any execute bit is set (`mode & 0o111 != 0`, R1.8).
    pub fn is_executable(&self) -> bool {
        self.mode & 0o111 != 0
    }
}

/// Converts a kernel `stat` into [`StableMeta`].
// The field types of `Stat` differ between targets (e.g. `c_ulong` vs `u32`
// for `st_mtime_nsec`), so plain widening casts are the portable spelling;
// on targets where they are identity casts clippy would flag them.
#[allow(clippy::unnecessary_cast)]
fn meta_of(st: &Stat) -> StableMeta {
    StableMeta {
        dev: st.st_dev as u64,
        ino: st.st_ino as u64,
        mode: st.st_mode as u32,
        // The kernel never reports a negative size for a file.
        size: st.st_size as u64,
        mtime_sec: st.st_mtime as i64,
        mtime_nsec: st.st_mtime_nsec as i64,
    }
}

/// What an inventoried directory entry is, seen without following links.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (never followed).
    Symlink,
    /// A FIFO, socket, character or block device (never opened).
    Special,
}

/// One regular file found by [`PackageRoot::inventory`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Slash-separated path relative to the root (`forms/a.json`); a name that
    /// is not UTF-8 is shown lossily (and has an `InvalidEntryPath` finding).
    pub rel: String,
    /// Always [`EntryKind::File`] in [`Inventory::files`].
    pub kind: EntryKind,
    /// The metadata seen by the walk; pass it to [`PackageRoot::read`] as
    /// `expected` to fence the read against the inventory (R1.20).
    pub meta: StableMeta,
}

/// The result of walking the package tree (`verifier-rules.md` §1.3).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inventory {
    /// Every regular file below the root, including the root
    /// `package-index.json` and files that also have a finding, sorted by
    /// byte-wise comparison of `rel` (the order of R1.16).
    pub files: Vec<Entry>,
    /// One finding per offending entry (the first failing check of R1.5,
    /// R1.7–R1.10), in walk order: each directory's names in byte order,
    /// depth first (the order the reference walk meets them, so the first
    /// element is the reference's error). I/O failures during the walk are
    /// `RootOpen`/`RootChanged` findings here too.
    pub diagnostics: Vec<Diagnostic>,
    /// True when `package-index.json` is a regular file directly in the root.
    pub has_index: bool,
}

impl Inventory {
    /// R1.11: `Some(MissingIndex)` with the reference message
    /// `package has no root package-index.json` when [`Inventory::has_index`]
    /// is false.
    pub fn index_check(&self) -> Option<Diagnostic> {
        if self.has_index {
            None
        } else {
            Some(Diagnostic::new(
                Code::MissingIndex,
                "package has no root package-index.json",
            ))
        }
    }
}

/// The opened package root, held for the whole run (R1.2).
#[derive(Debug)]
pub struct PackageRoot {
    fd: OwnedFd,
    meta: StableMeta,
    path: PathBuf,
    /// The directory the last [`PackageRoot::read`] below the root read
    /// from: its relative path and its descriptor, opened component by
    /// component from the root as every read's are. Payloads are read in
    /// path order, so the files of one directory follow each other: each
    /// reuses the held descriptor instead of opening and closing the
    /// directories again (issue 38: two system calls per file). One
    /// directory at most is held.
    last_dir: std::sync::Mutex<Option<(String, OwnedFd)>>,
}

fn io_text(e: rustix::io::Errno) -> String {
    std::io::Error::from(e).to_string()
}

/// Opens and fences the package root (`verifier-rules.md` §1.2 R1.1–R1.2).
///
/// `lstat(path)` must be a directory (a symlink, a file or a missing path is
/// refused); the directory is then opened
/// `O_RDONLY|O_DIRECTORY|O_CLOEXEC|O_NOFOLLOW` and the handle's `fstat` must
/// be the same file with equal (mode, size, mtime).
///
/// Errors: `RootNotDirectory` (`inspect package root: <os error>` or
/// `package root must be a real directory`), `RootOpen`
/// (`open package root: …`, `inspect opened package root: …`),
/// `RootChanged` (`package root identity or metadata changed while opening`).
// The `Diagnostic` error is the crate-wide finding type (the agreed API).
#[allow(clippy::result_large_err)]
pub fn open_root(path: &Path) -> Result<PackageRoot, Diagnostic> {
    let shown = format!("root: {}", path.display());
    let st = rustix::fs::lstat(path).map_err(|e| {
        Diagnostic::new(
            Code::RootNotDirectory,
            format!("inspect package root: {}", io_text(e)),
        )
        .note(shown.clone())
    })?;
    let meta = meta_of(&st);
    if meta.kind() != EntryKind::Dir {
        let d = Diagnostic::new(
            Code::RootNotDirectory,
            "package root must be a real directory",
        )
        .note(shown);
        // A lone JSON document has its own command (issue 12).
        return Err(if meta.kind() == EntryKind::File {
            d.note(format!(
                "to check one JSON document on its own, run `form-package check {}`",
                path.display()
            ))
        } else {
            d
        });
    }
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NOFOLLOW;
    let fd = rustix::fs::openat(CWD, path, flags, Mode::empty()).map_err(|e| {
        Diagnostic::new(Code::RootOpen, format!("open package root: {}", io_text(e)))
            .note(shown.clone())
    })?;
    let opened = rustix::fs::fstat(&fd).map_err(|e| {
        Diagnostic::new(
            Code::RootOpen,
            format!("inspect opened package root: {}", io_text(e)),
        )
        .note(shown.clone())
    })?;
    let opened = meta_of(&opened);
    if opened.kind() != EntryKind::Dir || !opened.unchanged(&meta) {
        return Err(Diagnostic::new(
            Code::RootChanged,
            "package root identity or metadata changed while opening",
        )
        .note(shown));
    }
    Ok(PackageRoot {
        fd,
        meta,
        path: path.to_path_buf(),
        last_dir: std::sync::Mutex::new(None),
    })
}

/// One directory being walked: its descriptor (`None` = the held root), its
/// remaining names in byte order and its relative path prefix (`""` or
/// `"dir/"`, as raw bytes).
struct Frame {
    /// The directory's stream (its names were read through it; its
    /// descriptor is the base of the entries' `statat` and `openat`), or
    /// `None` for the root, whose descriptor the package holds.
    dir: Option<Dir>,
    names: Vec<CString>,
    next: usize,
    prefix: Vec<u8>,
}

/// Reads the names of the directory `dir` reads (without `.` and `..`),
/// sorted byte-wise. The stream owns its descriptor: a subdirectory's is
/// the one the walk opened (no second open), the root's a duplicate of the
/// held one (`Dir::read_from` would reopen `.` by path).
fn read_names(dir: &mut Dir) -> rustix::io::Result<Vec<CString>> {
    let mut names = Vec::new();
    while let Some(ent) = dir.read() {
        let ent = ent?;
        let name: &CStr = ent.file_name();
        let bytes = name.to_bytes();
        if bytes == b"." || bytes == b".." {
            continue;
        }
        names.push(name.to_owned());
    }
    names.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    Ok(names)
}

fn entry_diag(code: Code, message: String, rel: &str) -> Diagnostic {
    Diagnostic::new(code, message).in_file(rel)
}

/// R1.5: the finding of a symbolic link at `rel` (never followed), the
/// disk walk's and a package held in memory's
/// ([`crate::source::OddEntry::Symlink`]).
pub fn symlink_finding(rel: &str) -> Diagnostic {
    entry_diag(
        Code::SymlinkEntry,
        format!(
            "inventory package: package entry {} is a symlink",
            quote(rel)
        ),
        rel,
    )
}

impl PackageRoot {
    /// The path the root was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The metadata of the root as seen by `lstat` when it was opened.
    pub fn meta(&self) -> &StableMeta {
        &self.meta
    }

    /// Walks the whole tree below the root (`verifier-rules.md` §1.3,
    /// R1.5–R1.10) without following links or opening anything but
    /// directories.
    ///
    /// Per entry, in this order, the first failing check gives one finding
    /// with `file` = the relative path: symlink → `SymlinkEntry` (never
    /// followed); a directory is walked and otherwise accepted (R1.6);
    /// FIFO/socket/device → `SpecialFile`; execute bit → `ExecutableMode`;
    /// an R1.9 extension → `ExecutableExtension`; a relative path that is not
    /// UTF-8 or fails [`path_grammar`] → `InvalidEntryPath`. Messages are the
    /// reference's, e.g. `inventory package: package entry "<rel>" is a
    /// symlink`, `inventory package: package entry "<rel>": <reason>`
    /// (`<rel>` quoted with Rust `{:?}`, which matches Go `%q` for the
    /// printable names a package can hold).
    /// Also records whether the root holds a regular `package-index.json`;
    /// R1.11 itself is [`Inventory::index_check`].
    ///
    /// Holds one descriptor per directory level being walked; a walk failure
    /// (unreadable directory, descriptor exhaustion, a directory swapped
    /// during the walk) is a finding, never a panic.
    pub fn inventory(&self) -> Inventory {
        let mut inv = Inventory::default();
        // The duplicate shares the held descriptor's position, which an
        // earlier inventory left at the end: read from the start.
        let root_names = match rustix::io::fcntl_dupfd_cloexec(&self.fd, 0)
            .and_then(Dir::new)
            .and_then(|mut dir| {
                dir.rewind();
                read_names(&mut dir)
            }) {
            Ok(n) => n,
            Err(e) => {
                inv.diagnostics.push(Diagnostic::new(
                    Code::RootOpen,
                    format!("inventory package: read package root: {}", io_text(e)),
                ));
                return inv;
            }
        };
        let mut stack = vec![Frame {
            dir: None,
            names: root_names,
            next: 0,
            prefix: Vec::new(),
        }];
        while let Some(top) = stack.last_mut() {
            let Some(name) = top.names.get(top.next).cloned() else {
                stack.pop();
                continue;
            };
            top.next += 1;
            let at_root = top.dir.is_none();
            let mut rel_bytes = top.prefix.clone();
            rel_bytes.extend_from_slice(name.as_bytes());
            let child = {
                let dirfd = match top.dir.as_ref().map(Dir::fd) {
                    Some(Ok(fd)) => fd,
                    None => self.fd.as_fd(),
                    Some(Err(e)) => {
                        // Never on Linux (the stream's descriptor is at
                        // hand); the directory's entries are then a finding.
                        let dir = String::from_utf8_lossy(&top.prefix).into_owned();
                        inv.diagnostics.push(entry_diag(
                            Code::RootOpen,
                            format!(
                                "inventory package: read directory {}: {}",
                                quote(dir.trim_end_matches('/')),
                                io_text(e)
                            ),
                            dir.trim_end_matches('/'),
                        ));
                        top.next = top.names.len();
                        continue;
                    }
                };
                self.visit(dirfd, &name, rel_bytes, at_root, &mut inv)
            };
            if let Some(frame) = child {
                stack.push(frame);
            }
        }
        inv.files
            .sort_by(|a, b| a.rel.as_bytes().cmp(b.rel.as_bytes()));
        inv
    }

    /// Classifies one entry; returns the frame to walk when it is a directory.
    fn visit(
        &self,
        dirfd: BorrowedFd<'_>,
        name: &CStr,
        rel_bytes: Vec<u8>,
        at_root: bool,
        inv: &mut Inventory,
    ) -> Option<Frame> {
        let rel = String::from_utf8_lossy(&rel_bytes).into_owned();
        let st = match rustix::fs::statat(dirfd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => meta_of(&st),
            Err(e) => {
                inv.diagnostics.push(entry_diag(
                    Code::RootOpen,
                    format!("inventory package: inspect {}: {}", quote(&rel), io_text(e)),
                    &rel,
                ));
                return None;
            }
        };
        match st.kind() {
            EntryKind::Symlink => {
                inv.diagnostics.push(symlink_finding(&rel));
                None
            }
            EntryKind::Dir => self.descend(dirfd, name, &st, rel_bytes, &rel, inv),
            EntryKind::Special => {
                inv.diagnostics.push(entry_diag(
                    Code::SpecialFile,
                    format!("inventory package: package entry {} is not a regular file (devices, sockets, and pipes are forbidden)", quote(&rel)),
                    &rel,
                ));
                None
            }
            EntryKind::File => {
                if at_root && name.to_bytes() == INDEX_NAME.as_bytes() {
                    inv.has_index = true;
                }
                if let Some(d) = entry_check(&rel_bytes, &rel, &st) {
                    inv.diagnostics.push(d);
                }
                inv.files.push(Entry {
                    rel,
                    kind: EntryKind::File,
                    meta: st,
                });
                None
            }
        }
    }

    /// Opens a subdirectory relative to its parent (no link following) and
    /// checks that it is the directory `statat` saw.
    fn descend(
        &self,
        dirfd: BorrowedFd<'_>,
        name: &CStr,
        seen: &StableMeta,
        rel_bytes: Vec<u8>,
        rel: &str,
        inv: &mut Inventory,
    ) -> Option<Frame> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NOFOLLOW;
        let opened = rustix::fs::openat(dirfd, name, flags, Mode::empty())
            .and_then(|fd| rustix::fs::fstat(&fd).map(|st| (fd, meta_of(&st))));
        let (fd, meta) = match opened {
            Ok(v) => v,
            Err(e) => {
                inv.diagnostics.push(entry_diag(
                    Code::RootOpen,
                    format!(
                        "inventory package: open directory {}: {}",
                        quote(rel),
                        io_text(e)
                    ),
                    rel,
                ));
                return None;
            }
        };
        if meta.kind() != EntryKind::Dir || !meta.same_file(seen) {
            inv.diagnostics.push(entry_diag(
                Code::RootChanged,
                format!(
                    "inventory package: package entry {} changed during inventory",
                    quote(rel)
                ),
                rel,
            ));
            return None;
        }
        match Dir::new(fd).and_then(|mut dir| read_names(&mut dir).map(|names| (dir, names))) {
            Ok((dir, names)) => {
                let mut prefix = rel_bytes;
                prefix.push(b'/');
                Some(Frame {
                    dir: Some(dir),
                    names,
                    next: 0,
                    prefix,
                })
            }
            Err(e) => {
                inv.diagnostics.push(entry_diag(
                    Code::RootOpen,
                    format!(
                        "inventory package: read directory {}: {}",
                        quote(rel),
                        io_text(e)
                    ),
                    rel,
                ));
                None
            }
        }
    }

    /// R1.3 root fence (`verifier-rules.md` §1.1 steps 3 and 19): the held
    /// handle's `fstat` and a fresh `lstat` of the path must both still be
    /// the original directory (same dev/ino, not a symlink) with unchanged
    /// (mode, size, mtime).
    ///
    /// Returns `Some(RootChanged)` with
    /// `package root identity or metadata changed during verification`
    /// (a note says which view moved), else `None`.
    pub fn fence(&self) -> Option<Diagnostic> {
        let ok = |m: &StableMeta| m.kind() == EntryKind::Dir && m.unchanged(&self.meta);
        let held = rustix::fs::fstat(&self.fd).map(|s| meta_of(&s));
        let fresh = rustix::fs::lstat(&self.path).map(|s| meta_of(&s));
        let mut notes = Vec::new();
        match held {
            Ok(m) if ok(&m) => {}
            Ok(_) => notes.push("the held root handle's metadata changed".to_owned()),
            Err(e) => notes.push(format!("inspect held root: {}", io_text(e))),
        }
        match fresh {
            Ok(m) if ok(&m) => {}
            Ok(_) => notes.push(format!(
                "{} is no longer the original directory with the original metadata",
                self.path.display()
            )),
            Err(e) => notes.push(format!("inspect package root: {}", io_text(e))),
        }
        if notes.is_empty() {
            return None;
        }
        let mut d = Diagnostic::new(
            Code::RootChanged,
            "package root identity or metadata changed during verification",
        );
        for n in notes {
            d = d.note(n);
        }
        Some(d)
    }

    /// The first prefix of `rel` (a path that passed [`path_grammar`]) that
    /// is a symbolic link, e.g. `Some("cases")` for `cases/x.json` when
    /// `cases` is a link; `None` when no component up to the first missing
    /// or non-directory one is a link (reading it then reports what it is).
    ///
    /// Walks from the held root one component at a time, inspecting each
    /// without following links and opening each directory
    /// `O_DIRECTORY|O_NOFOLLOW` from the previous one, as
    /// [`PackageRoot::read`] does; nothing is read. `conformance DIR` uses it
    /// to refuse a suite's case path that would leave the suite through a
    /// link before a case runs.
    pub fn first_link(&self, rel: &str) -> Option<String> {
        let mut held: Option<OwnedFd> = None;
        let mut end = 0;
        for comp in rel.split('/') {
            end += comp.len();
            let base = match &held {
                Some(fd) => fd.as_fd(),
                None => self.fd.as_fd(),
            };
            let st = rustix::fs::statat(base, comp, AtFlags::SYMLINK_NOFOLLOW).ok()?;
            match meta_of(&st).kind() {
                EntryKind::Symlink => return Some(rel[..end].to_owned()),
                EntryKind::Dir => {
                    let flags =
                        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                    let next = rustix::fs::openat(base, comp, flags, Mode::empty()).ok()?;
                    held = Some(next);
                }
                EntryKind::File | EntryKind::Special => return None,
            }
            end += 1;
        }
        None
    }

    /// Reads one payload relative to the held root (`verifier-rules.md` §1.7
    /// R1.20), returning at most `limit` bytes.
    ///
    /// `rel` must pass [`path_grammar`]; each directory component is opened
    /// `O_DIRECTORY|O_NOFOLLOW` from the previous one (the directory of the
    /// previous read below the root is held and reused when `rel` is in the
    /// same one; the file's identity is still checked against the
    /// inventory's), the final component is
    /// first inspected without following links (with `expected`, the
    /// inventory's inspection is that one, and the file is inspected again
    /// only to name a refusal) and then opened
    /// `O_NOFOLLOW|O_NONBLOCK` (special files are never opened, so a FIFO
    /// cannot block). The file must be regular and non-executable; with
    /// `expected` (the inventory's meta) its identity and stable metadata
    /// must be unchanged; a size above `limit` is refused before reading; the
    /// metadata must be equal before open, after open and after the read of
    /// at most `limit + 1` bytes.
    ///
    /// Errors (`file` = `rel`): `UnreadablePayload` with
    /// `read payload "<rel>": <gist>`, or, for the root `package-index.json`,
    /// `UnreadableIndex` with `read package-index.json: <gist>`. Gists:
    /// `open package file "<rel>": <reason>`,
    /// `file identity changed after package inventory`,
    /// `not a regular non-link file`, `executable file`,
    /// `file is N bytes; maximum is L`,
    /// `file identity or metadata changed while opening`,
    /// `read package file "<rel>": <os error>`,
    /// `file exceeds L bytes while reading`,
    /// `file identity or metadata changed while reading`.
    // The `Diagnostic` error is the crate-wide finding type (the agreed API).
    #[allow(clippy::result_large_err)]
    pub fn read(
        &self,
        rel: &str,
        limit: u64,
        expected: Option<&StableMeta>,
    ) -> Result<Vec<u8>, Diagnostic> {
        let fail = |gist: String| read_failure(rel, gist);
        let open_fail = |why: String| fail(format!("open package file {}: {why}", quote(rel)));
        path_grammar(rel).map_err(|r| open_fail(r.to_owned()))?;

        let (dir, last) = rel.rsplit_once('/').unwrap_or(("", rel));
        let mut last_dir = self
            .last_dir
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !dir.is_empty() && last_dir.as_ref().is_none_or(|(held, _)| held != dir) {
            *last_dir = None;
            let mut held: Option<OwnedFd> = None;
            for comp in dir.split('/') {
                let base = match &held {
                    Some(fd) => fd.as_fd(),
                    None => self.fd.as_fd(),
                };
                let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                let next = rustix::fs::openat(base, comp, flags, Mode::empty())
                    .map_err(|e| open_fail(io_text(e)))?;
                held = Some(next);
            }
            *last_dir = held.map(|fd| (dir.to_owned(), fd));
        }
        let parent = match (dir.is_empty(), last_dir.as_ref()) {
            (false, Some((_, fd))) => fd.as_fd(),
            _ => self.fd.as_fd(),
        };

        // The metadata before the open: with `expected`, the inventory's
        // `statat` of this entry, taken while this package is verified, is
        // it (R1.2), and a fresh `statat` is taken only when something
        // refuses the file, to say whether it changed after the inventory
        // (the first refusal then, as if it had been taken first). Without,
        // a fresh `statat`.
        let fresh = || {
            rustix::fs::statat(parent, last, AtFlags::SYMLINK_NOFOLLOW)
                .map(|s| meta_of(&s))
                .map_err(|e| open_fail(io_text(e)))
        };
        let changed_since_inventory = || match expected {
            Some(exp) => match fresh() {
                Err(d) => Some(d),
                Ok(now) if !now.unchanged(exp) => {
                    Some(fail("file identity changed after package inventory".into()))
                }
                Ok(_) => None,
            },
            None => None,
        };
        let before = match expected {
            Some(exp) => *exp,
            None => fresh()?,
        };
        let refused = if before.kind() != EntryKind::File {
            Some(fail("not a regular non-link file".into()))
        } else if before.is_executable() {
            Some(fail("executable file".into()))
        } else if before.size > limit {
            Some(
                fail(format!("file is {} bytes; maximum is {limit}", before.size)).note(format!(
                    "refused from metadata before reading; limit {limit} bytes"
                )),
            )
        } else {
            None
        };
        if let Some(d) = refused {
            return Err(changed_since_inventory().unwrap_or(d));
        }

        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(parent, last, flags, Mode::empty())
            .map_err(|e| changed_since_inventory().unwrap_or_else(|| open_fail(io_text(e))))?;
        let opened = rustix::fs::fstat(&fd)
            .map(|s| meta_of(&s))
            .map_err(|e| open_fail(io_text(e)))?;
        if opened.kind() != EntryKind::File || !opened.unchanged(&before) {
            return Err(changed_since_inventory().unwrap_or_else(|| {
                fail("file identity or metadata changed while opening".into())
            }));
        }

        let mut file = File::from(fd);
        // `before.size <= limit` here; a size that does not fit in memory
        // simply starts with no preallocation.
        let capacity = usize::try_from(before.size).unwrap_or(0);
        let mut buf = Vec::with_capacity(capacity.saturating_add(1));
        (&mut file)
            .take(limit.saturating_add(1))
            .read_to_end(&mut buf)
            .map_err(|e| fail(format!("read package file {}: {e}", quote(rel))))?;
        if u64::try_from(buf.len()).unwrap_or(u64::MAX) > limit {
            return Err(fail(format!("file exceeds {limit} bytes while reading")));
        }
        let after = rustix::fs::fstat(&file)
            .map(|s| meta_of(&s))
            .map_err(|e| fail(format!("read package file {}: {}", quote(rel), io_text(e))))?;
        if !after.unchanged(&before) {
            return Err(fail(
                "file identity or metadata changed while reading".into(),
            ));
        }
        Ok(buf)
    }
}

/// The finding of a refused read of `rel` (file `rel`): `UnreadableIndex`
/// `read package-index.json: <gist>` for the index, else
/// `UnreadablePayload` `read payload "<rel>": <gist>`
/// ([`PackageRoot::read`]; a package in memory refuses with the same).
pub fn read_failure(rel: &str, gist: String) -> Diagnostic {
    let d = if rel == INDEX_NAME {
        Diagnostic::new(Code::UnreadableIndex, format!("read {INDEX_NAME}: {gist}"))
    } else {
        Diagnostic::new(
            Code::UnreadablePayload,
            format!("read payload {}: {gist}", quote(rel)),
        )
    };
    d.in_file(rel)
}

/// Go `path.Clean` for a relative path that contains no backslash handling:
/// collapses repeated slashes, drops `.` segments and resolves inner `..`
/// lexically; the empty result is `.`. Only called on paths that do not start
/// with `/`.
fn clean_relative(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if matches!(out.last(), Some(s) if *s != "..") {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            s => out.push(s),
        }
    }
    if out.is_empty() {
        ".".to_owned()
    } else {
        out.join("/")
    }
}

/// The last R1.13 rule: no empty, `.` or `..` segment. With the checks in the
/// reference order this never fires after the `path.Clean` rule (a path equal
/// to its clean form has no such segment unless it is `.`/`..` or starts with
/// `../`); kept as a second guard.
fn segment_check(p: &str) -> Result<(), &'static str> {
    if p.split('/').any(|s| s.is_empty() || s == "." || s == "..") {
        Err("empty, dot, and parent segments are forbidden")
    } else {
        Ok(())
    }
}

/// The package path grammar (`verifier-rules.md` §1.5 R1.13), used for listed
/// paths (R1.12), fixture paths and on-disk entries (R1.10).
///
/// Checks, in order, returning the first failing reason verbatim:
/// 1..240 bytes (`path must contain 1..240 bytes`); no `\`
/// (`backslash paths are forbidden`); not starting with `/`
/// (`absolute paths are forbidden`); no `:`
/// (`volume or URI-like paths are forbidden`); equal to its own `path.Clean`
/// form, not `.`/`..`, not starting with `../`
/// (`path traversal and non-canonical paths are forbidden`); no empty, `.`
/// or `..` segment (`empty, dot, and parent segments are forbidden`).
/// Segments like `...`, `.x` and `a..b` are legal.
pub fn path_grammar(p: &str) -> Result<(), &'static str> {
    if p.is_empty() || p.len() > MAX_PATH_BYTES {
        return Err("path must contain 1..240 bytes");
    }
    if p.contains('\\') {
        return Err("backslash paths are forbidden");
    }
    if p.starts_with('/') {
        return Err("absolute paths are forbidden");
    }
    if p.contains(':') {
        return Err("volume or URI-like paths are forbidden");
    }
    if clean_relative(p) != p || p == "." || p == ".." || p.starts_with("../") {
        return Err("path traversal and non-canonical paths are forbidden");
    }
    segment_check(p)
}

/// R1.9 (`verifier-rules.md` §1.3): the lower-cased extension of the final
/// element of `name` (slash-separated), taken as Go `filepath.Ext` does —
/// from the last `.` of the final element, `""` when there is none — when it
/// is one of [`EXECUTABLE_EXTENSIONS`]; `None` otherwise.
///
/// `payload.JS` → `Some(".js")`; `.DS_Store` → `None`; `.c` → `Some(".c")`.
pub fn executable_extension(name: &str) -> Option<String> {
    let base = name.rsplit('/').next().unwrap_or(name);
    let dot = base.rfind('.')?;
    let ext = base[dot..].to_ascii_lowercase();
    EXECUTABLE_EXTENSIONS
        .binary_search(&ext.as_str())
        .ok()
        .map(|_| ext)
}

/// R1.8–R1.10 for one regular file; the first failing check wins.
/// The R1.8–R1.10 finding of a regular file's entry, if any: an execute
/// bit (`ExecutableMode`), an R1.9 extension (`ExecutableExtension`), a
/// relative path that is not UTF-8 or fails [`path_grammar`]
/// (`InvalidEntryPath`); `rel_bytes` is the raw name, `rel` its text. Also
/// the rule a package held in memory gets ([`crate::source::MemorySource`]).
pub fn entry_check(rel_bytes: &[u8], rel: &str, meta: &StableMeta) -> Option<Diagnostic> {
    if meta.is_executable() {
        return Some(entry_diag(
            Code::ExecutableMode,
            format!(
                "inventory package: package entry {} is executable",
                quote(rel)
            ),
            rel,
        ));
    }
    if let Some(ext) = executable_extension(rel) {
        return Some(
            entry_diag(
                Code::ExecutableExtension,
                format!(
                    "inventory package: package entry {} has executable-code extension",
                    quote(rel)
                ),
                rel,
            )
            .note(format!("extension {ext}")),
        );
    }
    let reason = match std::str::from_utf8(rel_bytes) {
        Err(_) => Err("path is not valid UTF-8"),
        Ok(p) => path_grammar(p),
    };
    match reason {
        Ok(()) => None,
        Err(why) => Some(entry_diag(
            Code::InvalidEntryPath,
            format!("inventory package: package entry {}: {why}", quote(rel)),
            rel,
        )),
    }
}

#[cfg(test)]
mod tests;

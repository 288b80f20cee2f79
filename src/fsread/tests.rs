//! Tests of the fenced package reader ([`super`]), in a file of their own
//! (issue 34: no production file over 1,500 lines).

use super::*;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::time::{Duration, Instant};

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, bytes).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
}

fn rels(inv: &Inventory) -> Vec<&str> {
    inv.files.iter().map(|e| e.rel.as_str()).collect()
}

fn codes(inv: &Inventory) -> Vec<(Code, Option<&str>)> {
    inv.diagnostics
        .iter()
        .map(|d| (d.code, d.file.as_deref()))
        .collect()
}

fn entry<'a>(inv: &'a Inventory, rel: &str) -> &'a Entry {
    inv.files.iter().find(|e| e.rel == rel).unwrap()
}

#[test]
fn constants_match_spec() {
    assert_eq!(INDEX_LIMIT, 4_194_304);
    assert_eq!(DEFINITION_LIMIT, 4_194_304);
    assert_eq!(JSON_LIMIT, 16_777_216);
    assert_eq!(PAYLOAD_LIMIT, 67_108_864);
    assert_eq!(TOTAL_LIMIT, 268_435_456);
    assert_eq!(MAX_FILES, 1024);
    let mut sorted = EXECUTABLE_EXTENSIONS;
    sorted.sort_unstable();
    assert_eq!(sorted, EXECUTABLE_EXTENSIONS, "binary search needs sorted");
}

#[test]
fn clean_tree_inventories_in_byte_order() {
    let t = tempfile::tempdir().unwrap();
    for rel in [
        "package-index.json",
        "definition.json",
        "README.md",
        "B.txt",
        "a-c",
        "a/b",
        "fixtures/a.json",
        "fixtures-b.json",
        ".DS_Store",
        ".notes.txt",
        "deep/er/still/x.json",
    ] {
        write(t.path(), rel, b"{}");
    }
    std::fs::create_dir(t.path().join("empty")).unwrap();
    let root = open_root(t.path()).unwrap();
    let inv = root.inventory();
    assert_eq!(inv.diagnostics, vec![]);
    assert!(inv.has_index);
    assert_eq!(inv.index_check(), None);
    assert_eq!(
        rels(&inv),
        vec![
            ".DS_Store",
            ".notes.txt",
            "B.txt",
            "README.md",
            "a-c",
            "a/b",
            "deep/er/still/x.json",
            "definition.json",
            "fixtures-b.json",
            "fixtures/a.json",
            "package-index.json",
        ]
    );
    let e = entry(&inv, "a/b");
    assert_eq!(e.kind, EntryKind::File);
    assert_eq!(e.meta.size, 2);
    assert!(root.fence().is_none());
    assert_eq!(root.path(), t.path());
}

#[test]
fn missing_or_nested_index_is_reported_by_index_check() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "sub/package-index.json", b"{}");
    let inv = open_root(t.path()).unwrap().inventory();
    assert!(!inv.has_index);
    let d = inv.index_check().unwrap();
    assert_eq!(d.code, Code::MissingIndex);
    assert_eq!(d.message, "package has no root package-index.json");
}

#[test]
fn symlinks_are_reported_and_never_followed() {
    let t = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.txt", b"x");
    write(outside.path(), "evil.sh", b"x");
    write(t.path(), "real/f.txt", b"hello");
    symlink("real", t.path().join("link")).unwrap();
    symlink(outside.path(), t.path().join("out")).unwrap();
    symlink("real/f.txt", t.path().join("alias.txt")).unwrap();
    let root = open_root(t.path()).unwrap();
    let inv = root.inventory();
    assert_eq!(rels(&inv), vec!["real/f.txt"]);
    assert_eq!(
        codes(&inv),
        vec![
            (Code::SymlinkEntry, Some("alias.txt")),
            (Code::SymlinkEntry, Some("link")),
            (Code::SymlinkEntry, Some("out")),
        ]
    );
    assert_eq!(
        inv.diagnostics[0].message,
        "inventory package: package entry \"alias.txt\" is a symlink"
    );
    // A symlinked final component is refused from metadata.
    let err = root.read("alias.txt", PAYLOAD_LIMIT, None).unwrap_err();
    assert_eq!(err.code, Code::UnreadablePayload);
    assert_eq!(
        err.message,
        "read payload \"alias.txt\": not a regular non-link file"
    );
    // A symlinked directory component fails to open.
    let err = root.read("link/f.txt", PAYLOAD_LIMIT, None).unwrap_err();
    assert!(
        err.message
            .starts_with("read payload \"link/f.txt\": open package file \"link/f.txt\": "),
        "{}",
        err.message
    );
    assert_eq!(err.file.as_deref(), Some("link/f.txt"));
    // Near miss: the real path reads.
    assert_eq!(
        root.read("real/f.txt", PAYLOAD_LIMIT, None).unwrap(),
        b"hello"
    );
}

#[test]
fn fifo_is_special_and_nothing_blocks() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "package-index.json", b"{}");
    rustix::fs::mkfifoat(
        CWD,
        t.path().join("named-pipe.txt"),
        Mode::from_raw_mode(0o644),
    )
    .unwrap();
    let root = open_root(t.path()).unwrap();
    let start = Instant::now();
    let inv = root.inventory();
    assert_eq!(
        codes(&inv),
        vec![(Code::SpecialFile, Some("named-pipe.txt"))]
    );
    assert_eq!(
        inv.diagnostics[0].message,
        "inventory package: package entry \"named-pipe.txt\" is not a regular file (devices, sockets, and pipes are forbidden)"
    );
    assert_eq!(rels(&inv), vec!["package-index.json"]);
    let err = root
        .read("named-pipe.txt", PAYLOAD_LIMIT, None)
        .unwrap_err();
    assert_eq!(
        err.message,
        "read payload \"named-pipe.txt\": not a regular non-link file"
    );
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn execute_bit_is_reported_before_extension() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "README.md", b"# hi");
    write(t.path(), "run.sh", b"#!/bin/sh");
    write(t.path(), "plain.txt", b"x");
    for rel in ["README.md", "run.sh"] {
        std::fs::set_permissions(t.path().join(rel), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    // Near miss: group-readable/others-writable but no execute bit.
    std::fs::set_permissions(
        t.path().join("plain.txt"),
        std::fs::Permissions::from_mode(0o666),
    )
    .unwrap();
    let root = open_root(t.path()).unwrap();
    let inv = root.inventory();
    assert_eq!(
        codes(&inv),
        vec![
            (Code::ExecutableMode, Some("README.md")),
            (Code::ExecutableMode, Some("run.sh")),
        ]
    );
    assert_eq!(
        inv.diagnostics[0].message,
        "inventory package: package entry \"README.md\" is executable"
    );
    let err = root.read("README.md", PAYLOAD_LIMIT, None).unwrap_err();
    assert_eq!(err.message, "read payload \"README.md\": executable file");
}

#[test]
fn executable_extensions_and_hidden_files() {
    let t = tempfile::tempdir().unwrap();
    for rel in [
        "payload.js",
        "x/Tool.PY",
        ".c",
        ".DS_Store",
        "a.json",
        "archive.tar.gz",
    ] {
        write(t.path(), rel, b"x");
    }
    let inv = open_root(t.path()).unwrap().inventory();
    assert_eq!(
        codes(&inv),
        vec![
            (Code::ExecutableExtension, Some(".c")),
            (Code::ExecutableExtension, Some("payload.js")),
            (Code::ExecutableExtension, Some("x/Tool.PY")),
        ]
    );
    assert_eq!(
        inv.diagnostics[1].message,
        "inventory package: package entry \"payload.js\" has executable-code extension"
    );
    assert_eq!(inv.diagnostics[2].notes, vec!["extension .py".to_owned()]);
    assert_eq!(rels(&inv).len(), 6);
}

#[test]
fn executable_extension_follows_go_ext() {
    assert_eq!(executable_extension("payload.js").as_deref(), Some(".js"));
    assert_eq!(executable_extension("a/b/MAIN.RS").as_deref(), Some(".rs"));
    assert_eq!(executable_extension("x.tar.wasm").as_deref(), Some(".wasm"));
    assert_eq!(executable_extension(".sh").as_deref(), Some(".sh"));
    assert_eq!(executable_extension(".DS_Store"), None);
    assert_eq!(executable_extension("js"), None);
    assert_eq!(executable_extension("a.js/b"), None);
    assert_eq!(executable_extension("a.json"), None);
    assert_eq!(executable_extension("a.jsx.txt"), None);
    assert_eq!(executable_extension("a."), None);
    for ext in EXECUTABLE_EXTENSIONS {
        assert_eq!(
            executable_extension(&format!("f{ext}")).as_deref(),
            Some(ext)
        );
    }
}

#[test]
fn bad_names_on_disk() {
    let t = tempfile::tempdir().unwrap();
    let bad = t.path().join(OsStr::from_bytes(b"bad\xff.txt"));
    std::fs::write(&bad, b"x").unwrap();
    write(t.path(), "a:b/f.txt", b"x");
    write(t.path(), &"n".repeat(241), b"x");
    std::fs::create_dir(t.path().join("empty:dir")).unwrap();
    // Non-UTF-8 directory name: its files are reported; the name is
    // checked for extension first (R1.9 before R1.10).
    let dir = t.path().join(OsStr::from_bytes(b"d\xfe"));
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("f.js"), b"x").unwrap();
    std::fs::write(dir.join("g.txt"), b"x").unwrap();
    let inv = open_root(t.path()).unwrap().inventory();
    let got: Vec<(Code, &str)> = inv
        .diagnostics
        .iter()
        .map(|d| (d.code, d.message.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                Code::InvalidEntryPath,
                "inventory package: package entry \"a:b/f.txt\": volume or URI-like paths are forbidden"
            ),
            (
                Code::InvalidEntryPath,
                "inventory package: package entry \"bad\u{fffd}.txt\": path is not valid UTF-8"
            ),
            (
                Code::ExecutableExtension,
                "inventory package: package entry \"d\u{fffd}/f.js\" has executable-code extension"
            ),
            (
                Code::InvalidEntryPath,
                "inventory package: package entry \"d\u{fffd}/g.txt\": path is not valid UTF-8"
            ),
            (
                Code::InvalidEntryPath,
                &*format!(
                    "inventory package: package entry {:?}: path must contain 1..240 bytes",
                    "n".repeat(241)
                )
            ),
        ]
    );
    assert_eq!(inv.diagnostics[1].file.as_deref(), Some("bad\u{fffd}.txt"));
}

#[test]
fn root_must_be_a_real_directory() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "real/package-index.json", b"{}");
    write(t.path(), "file", b"x");
    symlink(t.path().join("real"), t.path().join("link")).unwrap();

    let err = open_root(&t.path().join("link")).unwrap_err();
    assert_eq!(err.code, Code::RootNotDirectory);
    assert_eq!(err.message, "package root must be a real directory");

    let err = open_root(&t.path().join("file")).unwrap_err();
    assert_eq!(err.code, Code::RootNotDirectory);
    assert_eq!(err.message, "package root must be a real directory");

    let err = open_root(&t.path().join("missing")).unwrap_err();
    assert_eq!(err.code, Code::RootNotDirectory);
    assert!(
        err.message.starts_with("inspect package root: "),
        "{}",
        err.message
    );

    // Near miss: the real directory opens.
    let root = open_root(&t.path().join("real")).unwrap();
    assert_eq!(root.meta().kind(), EntryKind::Dir);
}

fn age(path: &Path) {
    let old = rustix::fs::Timespec {
        tv_sec: 1_000_000_000,
        tv_nsec: 0,
    };
    let times = rustix::fs::Timestamps {
        last_access: old,
        last_modification: old,
    };
    rustix::fs::utimensat(CWD, path, &times, AtFlags::empty()).unwrap();
}

#[test]
fn fence_detects_root_changes() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "a.txt", b"x");
    age(t.path());
    let root = open_root(t.path()).unwrap();
    // Near miss: inventory and reads leave the fence intact.
    let inv = root.inventory();
    root.read("a.txt", PAYLOAD_LIMIT, Some(&entry(&inv, "a.txt").meta))
        .unwrap();
    assert_eq!(root.fence(), None);

    write(t.path(), "b.txt", b"y");
    let d = root.fence().unwrap();
    assert_eq!(d.code, Code::RootChanged);
    assert_eq!(
        d.message,
        "package root identity or metadata changed during verification"
    );
    assert_eq!(d.notes.len(), 2, "{:?}", d.notes);
}

#[test]
fn fence_detects_root_swapped_for_new_directory() {
    let t = tempfile::tempdir().unwrap();
    let pkg = t.path().join("pkg");
    write(&pkg, "a.txt", b"x");
    let root = open_root(&pkg).unwrap();
    std::fs::rename(&pkg, t.path().join("old")).unwrap();
    write(&pkg, "a.txt", b"x");
    let d = root.fence().unwrap();
    assert_eq!(d.code, Code::RootChanged);
}

#[test]
fn read_detects_replacement_after_inventory() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "a.txt", b"first");
    write(t.path(), "b.txt", b"same");
    let root = open_root(t.path()).unwrap();
    let inv = root.inventory();
    let meta_a = entry(&inv, "a.txt").meta;
    let meta_b = entry(&inv, "b.txt").meta;
    write(t.path(), "a.tmp", b"first");
    std::fs::rename(t.path().join("a.tmp"), t.path().join("a.txt")).unwrap();
    let err = root
        .read("a.txt", PAYLOAD_LIMIT, Some(&meta_a))
        .unwrap_err();
    assert_eq!(err.code, Code::UnreadablePayload);
    assert_eq!(
        err.message,
        "read payload \"a.txt\": file identity changed after package inventory"
    );
    // Near miss: the untouched file reads with its inventory meta.
    assert_eq!(
        root.read("b.txt", PAYLOAD_LIMIT, Some(&meta_b)).unwrap(),
        b"same"
    );
}

/// A read with the inventory's metadata takes that metadata as the file's
/// before the open and inspects the file again only to name a refusal
/// (issue 38): whatever refuses a file replaced after the inventory (the
/// open of a symlink now there, or a size the inventory saw over the
/// limit), the finding is that it changed after the inventory; the same
/// refusals of an unchanged file keep their own gist (near misses).
#[test]
fn a_refusal_after_the_inventory_names_the_change() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "link.json", b"{}");
    write(t.path(), "big.json", b"123456");
    write(t.path(), "other.json", b"{}");
    let root = open_root(t.path()).unwrap();
    let inv = root.inventory();
    let meta = |rel: &str| entry(&inv, rel).meta;
    let read = |rel: &str, limit: u64| {
        root.read(rel, limit, Some(&meta(rel)))
            .map_err(|d| d.message)
    };
    // Over the limit by the inventory's size, unchanged: the size gist.
    assert_eq!(
        read("big.json", 3).unwrap_err(),
        "read payload \"big.json\": file is 6 bytes; maximum is 3"
    );
    // Replaced by a symlink after the inventory: the open refuses it, the
    // finding names the change.
    std::fs::remove_file(t.path().join("link.json")).unwrap();
    std::os::unix::fs::symlink("other.json", t.path().join("link.json")).unwrap();
    assert_eq!(
        read("link.json", PAYLOAD_LIMIT).unwrap_err(),
        "read payload \"link.json\": file identity changed after package inventory"
    );
    // Replaced after the inventory and over the limit by the inventory's
    // size: the change, not the size.
    write(t.path(), "big.tmp", b"123456");
    std::fs::rename(t.path().join("big.tmp"), t.path().join("big.json")).unwrap();
    assert_eq!(
        read("big.json", 3).unwrap_err(),
        "read payload \"big.json\": file identity changed after package inventory"
    );
    assert_eq!(read("other.json", PAYLOAD_LIMIT).unwrap(), b"{}");
}

/// The root's names are read through a duplicate of the held descriptor
/// (issue 38), which shares its position: a second inventory of the same
/// root still lists every file (near miss: the first one does).
#[test]
fn a_second_inventory_of_one_root_lists_the_same_files() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "package-index.json", b"{}");
    write(t.path(), "d/a.json", b"{}");
    let root = open_root(t.path()).unwrap();
    let first = root.inventory();
    assert_eq!(rels(&first), ["d/a.json", "package-index.json"]);
    let second = root.inventory();
    assert_eq!(rels(&second), rels(&first));
    assert!(second.has_index);
}

/// Reads in one directory reuse the held directory (issue 38) and still
/// refuse a file replaced there after the inventory; reads in another
/// directory, at the root and back again each give their own file's bytes.
#[test]
fn reads_through_the_held_directory_still_check_each_file() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "d/a.json", b"a");
    write(t.path(), "d/b.json", b"b");
    write(t.path(), "d/c.json", b"c");
    write(t.path(), "e/f/a.json", b"efa");
    write(t.path(), "top.json", b"top");
    let root = open_root(t.path()).unwrap();
    let inv = root.inventory();
    let meta = |rel: &str| entry(&inv, rel).meta;
    let read = |rel: &str| {
        root.read(rel, PAYLOAD_LIMIT, Some(&meta(rel)))
            .map_err(|d| d.message)
    };
    assert_eq!(read("d/a.json").unwrap(), b"a");
    // Replaced in the directory now held: refused as before.
    write(t.path(), "d/b.tmp", b"b");
    std::fs::rename(t.path().join("d/b.tmp"), t.path().join("d/b.json")).unwrap();
    assert_eq!(
        read("d/b.json").unwrap_err(),
        "read payload \"d/b.json\": file identity changed after package inventory"
    );
    // Near miss: its untouched neighbour reads.
    assert_eq!(read("d/c.json").unwrap(), b"c");
    assert_eq!(read("e/f/a.json").unwrap(), b"efa");
    assert_eq!(read("top.json").unwrap(), b"top");
    assert_eq!(read("d/a.json").unwrap(), b"a");
    // A name of the held directory is not read from another one.
    assert!(root.read("e/f/c.json", PAYLOAD_LIMIT, None).is_err());
}

#[test]
fn index_reads_use_the_index_code() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "package-index.json", b"{\"a\":1}");
    let root = open_root(t.path()).unwrap();
    assert_eq!(
        root.read(INDEX_NAME, INDEX_LIMIT, None).unwrap(),
        b"{\"a\":1}"
    );
    let err = root.read(INDEX_NAME, 3, None).unwrap_err();
    assert_eq!(err.code, Code::UnreadableIndex);
    assert_eq!(
        err.message,
        "read package-index.json: file is 7 bytes; maximum is 3"
    );
    let err = root.read("missing.json", INDEX_LIMIT, None).unwrap_err();
    assert_eq!(err.code, Code::UnreadablePayload);
    assert!(err
        .message
        .starts_with("read payload \"missing.json\": open package file \"missing.json\": "));
}

#[test]
fn size_limit_is_checked_from_metadata() {
    let t = tempfile::tempdir().unwrap();
    let f = std::fs::File::create(t.path().join("huge.txt")).unwrap();
    f.set_len(1 << 30).unwrap();
    drop(f);
    write(t.path(), "ten.txt", b"0123456789");
    let root = open_root(t.path()).unwrap();
    let start = Instant::now();
    let err = root.read("huge.txt", PAYLOAD_LIMIT, None).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(1));
    assert_eq!(
        err.message,
        "read payload \"huge.txt\": file is 1073741824 bytes; maximum is 67108864"
    );
    // Exactly at the limit reads; one byte over is refused.
    assert_eq!(root.read("ten.txt", 10, None).unwrap(), b"0123456789");
    let err = root.read("ten.txt", 9, None).unwrap_err();
    assert_eq!(
        err.message,
        "read payload \"ten.txt\": file is 10 bytes; maximum is 9"
    );
}

#[test]
fn read_refuses_paths_outside_the_grammar() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "a.txt", b"x");
    let root = open_root(t.path()).unwrap();
    for p in ["../a.txt", "/etc/passwd", "./a.txt", ""] {
        let err = root.read(p, PAYLOAD_LIMIT, None).unwrap_err();
        assert_eq!(err.code, Code::UnreadablePayload, "{p}");
    }
    let err = root.read("sub", PAYLOAD_LIMIT, None).unwrap_err();
    assert!(err.message.contains("open package file"), "{}", err.message);
}

#[test]
fn first_link_names_the_first_linked_component() {
    let t = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "x.json", b"{}");
    write(t.path(), "a/b/c.json", b"{}");
    symlink(outside.path(), t.path().join("a/out")).unwrap();
    symlink("b", t.path().join("a/inside")).unwrap();
    let root = open_root(t.path()).unwrap();
    assert_eq!(root.first_link("a/out/x.json").as_deref(), Some("a/out"));
    assert_eq!(root.first_link("a/out").as_deref(), Some("a/out"));
    // A link that stays inside is a link all the same.
    assert_eq!(
        root.first_link("a/inside/c.json").as_deref(),
        Some("a/inside")
    );
    // Near misses: real directories and files, a missing component.
    assert_eq!(root.first_link("a/b/c.json"), None);
    assert_eq!(root.first_link("a/b"), None);
    assert_eq!(root.first_link("a/missing/c.json"), None);
    assert_eq!(root.first_link("a/b/c.json/d"), None);
}

#[test]
fn directory_is_not_a_payload() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "d/a.txt", b"x");
    let root = open_root(t.path()).unwrap();
    let err = root.read("d", PAYLOAD_LIMIT, None).unwrap_err();
    assert_eq!(
        err.message,
        "read payload \"d\": not a regular non-link file"
    );
}

#[test]
fn path_grammar_messages() {
    let cases: &[(&str, &str)] = &[
        (
            "../definition.json",
            "path traversal and non-canonical paths are forbidden",
        ),
        (
            "forms/../../definition.json",
            "path traversal and non-canonical paths are forbidden",
        ),
        ("/etc/passwd", "absolute paths are forbidden"),
        ("forms\\definition.json", "backslash paths are forbidden"),
        (
            "C:/definition.json",
            "volume or URI-like paths are forbidden",
        ),
        (
            "forms//definition.json",
            "path traversal and non-canonical paths are forbidden",
        ),
        (
            "./definition.json",
            "path traversal and non-canonical paths are forbidden",
        ),
        ("", "path must contain 1..240 bytes"),
        (".", "path traversal and non-canonical paths are forbidden"),
        ("..", "path traversal and non-canonical paths are forbidden"),
        ("a/", "path traversal and non-canonical paths are forbidden"),
        (
            "a/.",
            "path traversal and non-canonical paths are forbidden",
        ),
        (
            "a/b/..",
            "path traversal and non-canonical paths are forbidden",
        ),
        ("https://x", "volume or URI-like paths are forbidden"),
        ("/a\\b", "backslash paths are forbidden"),
    ];
    for (p, want) in cases {
        assert_eq!(path_grammar(p), Err(*want), "{p:?}");
    }
    let long = "a".repeat(241);
    assert_eq!(path_grammar(&long), Err("path must contain 1..240 bytes"));
    assert_eq!(path_grammar(&"a".repeat(240)), Ok(()));
    for p in [
        "...",
        ".x",
        "a..b/c.json",
        "definition.json",
        "a/.../b",
        "..a",
        "a/b..",
        "é.txt",
    ] {
        assert_eq!(path_grammar(p), Ok(()), "{p:?}");
    }
    // The last rule is shadowed by the Clean rule in the reference order;
    // its own message is still exact.
    assert_eq!(
        segment_check("a//b"),
        Err("empty, dot, and parent segments are forbidden")
    );
    assert_eq!(
        segment_check("a/./b"),
        Err("empty, dot, and parent segments are forbidden")
    );
    assert_eq!(
        segment_check("a/../b"),
        Err("empty, dot, and parent segments are forbidden")
    );
    assert_eq!(segment_check("a/.../b"), Ok(()));
}

#[test]
fn clean_matches_go_path_clean() {
    assert_eq!(clean_relative("a//b"), "a/b");
    assert_eq!(clean_relative("a/./b/"), "a/b");
    assert_eq!(clean_relative("a/../.."), "..");
    assert_eq!(clean_relative("../../a"), "../../a");
    assert_eq!(clean_relative("a/b/../../.."), "..");
    assert_eq!(clean_relative(""), ".");
}

#[test]
fn two_thousand_files_inventory_fine() {
    let t = tempfile::tempdir().unwrap();
    for i in 0..2000 {
        std::fs::write(t.path().join(format!("f{i:04}.json")), b"{}").unwrap();
    }
    let inv = open_root(t.path()).unwrap().inventory();
    assert_eq!(inv.diagnostics, vec![]);
    assert_eq!(inv.files.len(), 2000);
    assert_eq!(inv.files[0].rel, "f0000.json");
    assert_eq!(inv.files[1999].rel, "f1999.json");
    assert!(inv.files.windows(2).all(|w| w[0].rel < w[1].rel));
}

/// Materialises a corpus mutant: `package/` as is, or a copy of `base/`
/// with the recipe steps applied (corpus `mutants/README.md`).
fn materialise(case: &Path, expected: &serde_json::Value, scratch: &Path) -> PathBuf {
    if expected["packageDir"] == "package" {
        return case.join("package");
    }
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for ent in std::fs::read_dir(from).unwrap() {
            let ent = ent.unwrap();
            let ty = ent.file_type().unwrap();
            let dst = to.join(ent.file_name());
            if ty.is_dir() {
                copy(&ent.path(), &dst);
            } else {
                std::fs::copy(ent.path(), &dst).unwrap();
            }
        }
    }
    let dir = scratch.join("pkg");
    copy(&case.join("base"), &dir);
    for step in expected["recipe"]["steps"].as_array().unwrap() {
        let path = dir.join(step["path"].as_str().unwrap());
        match step["op"].as_str().unwrap() {
            "mkdir" => std::fs::create_dir_all(&path).unwrap(),
            "mkfifo" => rustix::fs::mkfifoat(CWD, &path, Mode::from_raw_mode(0o644)).unwrap(),
            "chmod" => {
                let mode = u32::from_str_radix(step["mode"].as_str().unwrap(), 8).unwrap();
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            }
            "symlink" => symlink(step["target"].as_str().unwrap(), &path).unwrap(),
            op => panic!("unknown recipe op {op}"),
        }
    }
    dir
}

/// Every corpus mutant: the inventory's first finding is the reference
/// message for inventory-stage faults, and no other case has one; every
/// inventoried file reads back fenced against the inventory.
#[test]
#[cfg_attr(no_corpus, ignore = "needs the corpus")]
fn corpus_mutants_inventory_like_the_reference() {
    let corpus = crate::testing::corpus_root();
    let corpus = corpus.as_path();
    let mut checked = 0;
    for set in ["mutants", "mutants-current"] {
        let Ok(cases) = std::fs::read_dir(corpus.join(set)) else {
            continue;
        };
        for case in cases {
            let case = case.unwrap().path();
            let Ok(text) = std::fs::read_to_string(case.join("expected.json")) else {
                continue;
            };
            let expected: serde_json::Value = serde_json::from_str(&text).unwrap();
            let scratch = tempfile::tempdir().unwrap();
            let dir = materialise(&case, &expected, scratch.path());
            let root = open_root(&dir).unwrap();
            let inv = root.inventory();
            let message = expected["oracleMessage"].as_str().unwrap_or("");
            let name = case.display().to_string();
            if message.starts_with("inventory package:") {
                assert_eq!(inv.diagnostics[0].message, message, "{name}");
            } else {
                assert_eq!(inv.diagnostics, vec![], "{name}");
                if message == "package has no root package-index.json" {
                    assert_eq!(inv.index_check().unwrap().message, message, "{name}");
                } else {
                    assert!(inv.has_index, "{name}");
                }
            }
            for e in &inv.files {
                if inv
                    .diagnostics
                    .iter()
                    .any(|d| d.file.as_deref() == Some(&*e.rel))
                {
                    continue;
                }
                let bytes = root.read(&e.rel, PAYLOAD_LIMIT, Some(&e.meta)).unwrap();
                assert_eq!(bytes.len() as u64, e.meta.size, "{name} {}", e.rel);
            }
            assert_eq!(root.fence(), None, "{name}");
            checked += 1;
        }
    }
    assert!(checked >= 184, "only {checked} cases");
}

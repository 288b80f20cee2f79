//! The one reader of single files outside a package (issue 21 item 2): a
//! FILE named on the command line (`canonicalize`, `digest`, `check`,
//! `relations`, `compat`, the `trust` and revocation commands,
//! `--config`, `--instance`, …) and a file the tool finds by itself (a
//! family's contracts and candidate sets, a discovered
//! `form-package.toml`, a fixture beside a checked definition, a
//! conformance suite's manifest and case files, an index shown again).
//! A package's own files are read by [`crate::fsread`] through a
//! [`crate::source::PackageSource`], never here.
//!
//! One policy, [`read_file`]:
//! - a path the user **named** ([`Reach::Named`]) is followed through the
//!   user's own symbolic link, as `cat` follows it; a file the tool
//!   **found** ([`Reach::Found`]) is never read through a link
//!   (`O_NOFOLLOW`), as the package walk never follows one;
//! - only a regular file is read: a directory, a FIFO, a socket or a
//!   device is refused from its metadata without being opened, and the
//!   opened handle (`O_NONBLOCK`, so nothing swapped in can block) must
//!   itself be a regular file (`fstat`);
//! - the read is bounded: a size above the caller's limit (one of
//!   [`crate::limits`]) is refused before reading, and at most limit + 1
//!   bytes are ever read, whatever the size said, so a file that grows
//!   or a device cannot exhaust memory.
//!
//! Standard input (`-`) is read with the same bound by [`read_stdin`].

use std::fmt;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

use rustix::fs::{Mode, OFlags};

/// How a file was reached, which decides whether a symbolic link in its
/// last component is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Named by the user (a FILE argument, `--config`, `--policy`, …): the
    /// user's own link is followed, as `cat` does.
    Named,
    /// Found by the tool (walking or looking into a directory): a link is
    /// refused, never followed, as the package walk does.
    Found,
}

/// Why [`read_file`] or [`read_stdin`] read nothing. Its `Display` is the
/// reason alone (no path); each command prints it its usual way, e.g.
/// `read <path>: <reason>`.
#[derive(Debug)]
pub enum FileRefusal {
    /// The path could not be inspected, opened or read: the OS error
    /// (`No such file or directory (os error 2)`, permission denied, …).
    Io(std::io::Error),
    /// Not a regular file; what it is: `a directory`, `a FIFO`, `a socket`,
    /// `a character device`, `a block device`, or, found and not named,
    /// `a symbolic link`.
    NotRegular(&'static str),
    /// Larger than `limit` bytes: `size` is the size the metadata gave
    /// (refused before reading), `None` when the read itself passed the
    /// limit (the file grew, or a stream).
    TooLarge {
        /// The size from the metadata, in bytes, if that is what refused.
        size: Option<u64>,
        /// The caller's limit, in bytes.
        limit: u64,
    },
    /// Standard input ([`read_stdin`]) gave more than `limit` bytes (it is
    /// no file: its own words, `standard input exceeds L bytes`).
    StdinTooLarge {
        /// The caller's limit, in bytes.
        limit: u64,
    },
}

impl FileRefusal {
    /// True when the path does not exist (an OS `NotFound`).
    pub fn is_not_found(&self) -> bool {
        matches!(self, FileRefusal::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }

    /// True when the path is a directory.
    pub fn is_directory(&self) -> bool {
        matches!(self, FileRefusal::NotRegular(DIRECTORY))
    }

    /// True when a file found (not named) is a symbolic link, not followed.
    pub fn is_symlink(&self) -> bool {
        matches!(self, FileRefusal::NotRegular(SYMLINK))
    }

    /// True when the path is a FIFO, a socket or a device: neither a
    /// regular file, a directory nor a link.
    pub fn is_special(&self) -> bool {
        matches!(self, FileRefusal::NotRegular(_)) && !self.is_directory() && !self.is_symlink()
    }
}

impl fmt::Display for FileRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileRefusal::Io(e) => write!(f, "{e}"),
            FileRefusal::NotRegular(SYMLINK) => f.write_str(
                "not a regular file: a symbolic link, not followed in a file found (name the file itself to read it)",
            ),
            FileRefusal::NotRegular(what) => write!(f, "not a regular file: {what}"),
            FileRefusal::TooLarge {
                size: Some(size),
                limit,
            } => write!(f, "file is {size} bytes; maximum is {limit}"),
            FileRefusal::TooLarge { size: None, limit } => {
                write!(f, "file exceeds {limit} bytes while reading")
            }
            FileRefusal::StdinTooLarge { limit } => {
                write!(f, "standard input exceeds {limit} bytes")
            }
        }
    }
}

impl std::error::Error for FileRefusal {}

impl From<FileRefusal> for std::io::Error {
    /// The OS error itself, or an `Other` error whose text is the refusal.
    fn from(r: FileRefusal) -> Self {
        match r {
            FileRefusal::Io(e) => e,
            other => std::io::Error::other(other.to_string()),
        }
    }
}

const DIRECTORY: &str = "a directory";
const SYMLINK: &str = "a symbolic link";

/// What `meta` is when it is not a regular file.
fn not_regular(meta: &Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    Some(if t.is_file() {
        return None;
    } else if t.is_dir() {
        DIRECTORY
    } else if t.is_symlink() {
        SYMLINK
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else {
        "not a file"
    })
}

/// Reads the regular file at `path`, reached as `reach` says, of at most
/// `limit` bytes (a limit of [`crate::limits`]; each caller names its own).
///
/// The path is inspected first (`stat` when named, `lstat` when found)
/// and anything but a regular file is refused without being opened; the
/// file is then opened `O_RDONLY|O_NONBLOCK|O_CLOEXEC` (plus `O_NOFOLLOW`
/// when found), the handle's own metadata (`fstat`) must be a regular file
/// of at most `limit` bytes, and at most `limit + 1` bytes are read.
///
/// # Errors
/// [`FileRefusal::Io`] (missing, permission, …), [`FileRefusal::NotRegular`]
/// (directory, FIFO, socket, device; a link when found), and
/// [`FileRefusal::TooLarge`]. Never blocks on a FIFO and never reads more
/// than `limit + 1` bytes.
pub fn read_file(path: &Path, reach: Reach, limit: u64) -> Result<Vec<u8>, FileRefusal> {
    let seen = match reach {
        Reach::Named => std::fs::metadata(path),
        Reach::Found => std::fs::symlink_metadata(path),
    }
    .map_err(FileRefusal::Io)?;
    if let Some(what) = not_regular(&seen) {
        return Err(FileRefusal::NotRegular(what));
    }
    let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    if reach == Reach::Found {
        flags |= OFlags::NOFOLLOW;
    }
    // `openat` from the working directory, as `std::fs` opens (the
    // system call a trace of the run sees).
    let fd = rustix::fs::openat(rustix::fs::CWD, path, flags, Mode::empty()).map_err(|e| {
        if e == rustix::io::Errno::LOOP && reach == Reach::Found {
            // A link swapped in after the `lstat`.
            FileRefusal::NotRegular(SYMLINK)
        } else {
            FileRefusal::Io(e.into())
        }
    })?;
    let file = File::from(fd);
    let opened = file.metadata().map_err(FileRefusal::Io)?;
    if let Some(what) = not_regular(&opened) {
        return Err(FileRefusal::NotRegular(what));
    }
    if opened.len() > limit {
        return Err(FileRefusal::TooLarge {
            size: Some(opened.len()),
            limit,
        });
    }
    read_bounded(file, limit, usize::try_from(opened.len()).unwrap_or(0))
}

/// Reads standard input to its end, at most `limit` bytes (`check -`,
/// `relations -`).
///
/// # Errors
/// [`FileRefusal::Io`] when the read fails, [`FileRefusal::StdinTooLarge`]
/// past `limit` bytes.
pub fn read_stdin(limit: u64) -> Result<Vec<u8>, FileRefusal> {
    stream_refusal(read_bounded(std::io::stdin().lock(), limit, 0))
}

/// A read of standard input refused for its size says so in its own words
/// (no file was read).
fn stream_refusal(read: Result<Vec<u8>, FileRefusal>) -> Result<Vec<u8>, FileRefusal> {
    read.map_err(|e| match e {
        FileRefusal::TooLarge { limit, .. } => FileRefusal::StdinTooLarge { limit },
        other => other,
    })
}

/// Reads `from` to its end, refusing more than `limit` bytes after reading
/// at most `limit + 1`; `capacity` is the expected length.
fn read_bounded(from: impl Read, limit: u64, capacity: usize) -> Result<Vec<u8>, FileRefusal> {
    let mut buf = Vec::with_capacity(capacity.saturating_add(1));
    from.take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(FileRefusal::Io)?;
    if u64::try_from(buf.len()).unwrap_or(u64::MAX) > limit {
        return Err(FileRefusal::TooLarge { size: None, limit });
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn fifo(path: &Path) {
        rustix::fs::mkfifoat(rustix::fs::CWD, path, Mode::from_raw_mode(0o644)).unwrap();
    }

    #[test]
    fn a_regular_file_is_read_named_or_found() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("a.json");
        std::fs::write(&f, b"{}").unwrap();
        for reach in [Reach::Named, Reach::Found] {
            assert_eq!(read_file(&f, reach, 2).unwrap(), b"{}");
        }
    }

    #[test]
    fn a_link_is_followed_when_named_and_refused_when_found() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("a.json");
        std::fs::write(&f, b"{}").unwrap();
        let l = t.path().join("l.json");
        symlink(&f, &l).unwrap();
        assert_eq!(read_file(&l, Reach::Named, 16).unwrap(), b"{}");
        let e = read_file(&l, Reach::Found, 16).unwrap_err();
        assert!(matches!(e, FileRefusal::NotRegular(SYMLINK)), "{e:?}");
        assert!(e
            .to_string()
            .starts_with("not a regular file: a symbolic link"));
    }

    #[test]
    fn special_files_and_directories_are_refused_without_blocking() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("pipe");
        fifo(&p);
        let linked = t.path().join("to-pipe");
        symlink(&p, &linked).unwrap();
        for (path, reach, what) in [
            (p.as_path(), Reach::Named, "a FIFO"),
            (p.as_path(), Reach::Found, "a FIFO"),
            (linked.as_path(), Reach::Named, "a FIFO"),
            (linked.as_path(), Reach::Found, SYMLINK),
            (Path::new("/dev/zero"), Reach::Named, "a character device"),
            (t.path(), Reach::Named, DIRECTORY),
        ] {
            match read_file(path, reach, 1 << 20) {
                Err(FileRefusal::NotRegular(w)) => assert_eq!(w, what, "{path:?}"),
                other => panic!("{path:?} {reach:?}: {other:?}"),
            }
        }
        assert!(read_file(t.path(), Reach::Named, 1)
            .unwrap_err()
            .is_directory());
    }

    #[test]
    fn the_size_is_bounded_and_a_file_at_the_limit_is_read() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("big");
        let file = File::create(&f).unwrap();
        file.set_len(1 << 34).unwrap(); // sparse: 16 GiB of zeros
        let e = read_file(&f, Reach::Named, 1024).unwrap_err();
        assert_eq!(e.to_string(), "file is 17179869184 bytes; maximum is 1024");
        file.set_len(1024).unwrap();
        assert_eq!(read_file(&f, Reach::Found, 1024).unwrap().len(), 1024);
        // A stream past the limit is cut at limit + 1 bytes.
        let e = read_bounded(std::io::repeat(0), 8, 0).unwrap_err();
        assert!(matches!(
            e,
            FileRefusal::TooLarge {
                size: None,
                limit: 8
            }
        ));
        assert_eq!(read_bounded(&b"12345678"[..], 8, 0).unwrap().len(), 8);
    }

    /// Standard input past the limit is named as what it is, never "file";
    /// near miss: a file that grows past the limit while read is a file.
    #[test]
    fn standard_input_past_the_limit_is_not_called_a_file() {
        let e = stream_refusal(read_bounded(std::io::repeat(0), 8, 0)).unwrap_err();
        assert!(
            matches!(e, FileRefusal::StdinTooLarge { limit: 8 }),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "standard input exceeds 8 bytes");
        assert_eq!(
            stream_refusal(read_bounded(&b"12345678"[..], 8, 0)).unwrap(),
            b"12345678"
        );
        let grown = read_bounded(std::io::repeat(0), 8, 0).unwrap_err();
        assert_eq!(grown.to_string(), "file exceeds 8 bytes while reading");
    }

    #[test]
    fn a_missing_file_is_an_os_error() {
        let e = read_file(Path::new("/nonexistent/x"), Reach::Named, 1).unwrap_err();
        assert!(e.is_not_found());
        assert!(e.to_string().contains("os error 2"), "{e}");
    }
}

//! Every file this tool writes, through one writer with one rule ([`write()`],
//! [`written_inside`]: nothing is written into a package, through a
//! symbolic or a hard link neither; issue 37 item 8), and the ways it
//! writes: [`write_output`] (a report or a pin), [`append`] (a job
//! summary), [`replace`].
//!
//! Replacing a file without following what is there (breaker G10): every
//! file this tool creates whole — an `--output-file` report or a `trust
//! --pin-out` pin that does not exist yet, a `compat --write-witnesses`
//! witness, the `package-index.json` of `index --write` — is written to a
//! temporary file created new beside it and renamed over its name.
//!
//! The temporary file is `tempfile`'s (`O_CREAT | O_EXCL` under a random
//! name, retried on a clash): a link planted under a predictable name
//! (`.NAME.<pid>.tmp` before) is never followed nor moved into place, and
//! the file is removed on every failure path. A well-kept crate over our
//! own code: nothing here is what this project exists for.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` as the file `path`: a temporary file `.NAME.XXXXXX.tmp`
/// created new in `path`'s directory (mode `0666` less the umask, as
/// `File::create` gives), written, flushed to disk, then renamed over
/// `path`. Whatever `path` was (a file, a link) is replaced as a directory
/// entry, never written through: a hard link elsewhere keeps its bytes, a
/// symbolic link's target is untouched. Readers see the old file or the
/// whole new one.
///
/// # Errors
/// The I/O error of creating, writing, syncing or renaming; the temporary
/// file is gone on every failure path.
pub fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "output".to_owned(), |n| n.to_string_lossy().into_owned());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map(drop).map_err(|e| e.error)
}

/// Appends `bytes` to the file `path`, created when missing (mode `0666`
/// less the umask), as a shell's `>>` does: the one way this tool adds to
/// a file it does not own whole (`--summary-file`, GitHub's
/// `$GITHUB_STEP_SUMMARY`). A symbolic link under the name is followed,
/// as for `--output-file`: the caller refuses a target inside a package
/// first (`cli::args::written_inside`).
///
/// # Errors
/// The I/O error of opening or writing.
pub fn append(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)?;
    f.write_all(bytes)?;
    f.flush()
}

/// Writes the report `bytes` to `--output-file` `path` without ever
/// destroying what is there (T1 B1):
/// - a new path: atomically, a temporary file created new in the same
///   directory (never through a link planted there, breaker G10), flushed
///   to disk, then renamed to it ([`replace`]; readers see
///   no file or the whole report, never a part);
/// - an existing regular file: truncated and written in place, as a
///   shell's `>` does, so its permissions (a read-only file is refused),
///   owner and hard links are kept;
/// - a symlink: followed ([`output_target`]), its target written as above
///   (a dangling link's target is created); a link to an open descriptor
///   (`/dev/stdout` → `/proc/self/fd/1`, `/dev/fd/N`) is opened and
///   appended to, so a shell redirection's file is never replaced;
/// - anything else that exists (a character device such as `/dev/null` or
///   `/dev/stderr`, a FIFO, a socket): opened for writing and written in
///   place, never unlinked or replaced (a FIFO waits for its reader, as a
///   shell redirection does);
/// - a directory: an error, nothing written.
///
/// `-` is standard output: the caller handles it (`cli::args::OutputArgs::file`).
///
/// # Errors
/// The I/O error of resolving, creating, writing, syncing or renaming;
/// the temporary file is removed on every failure path.
pub fn write_output(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let (path, fd_link) = resolve_links(path, true)?;
    if fd_link {
        // `/dev/stdout`, `/dev/fd/3`: appended through the descriptor's
        // file, so what the shell's redirection already holds is kept.
        let mut f = std::fs::OpenOptions::new().append(true).open(&path)?;
        f.write_all(bytes)?;
        return f.flush();
    }
    let existing = match std::fs::metadata(&path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(m) = &existing {
        if m.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "is a directory",
            ));
        }
        // A regular file is truncated and written in place, as a shell's
        // `>` does (T2 F1): its mode, owner and hard links are honoured,
        // and a read-only one is refused. A device, FIFO or socket is
        // written in place too, never replaced.
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .truncate(m.is_file())
            .open(&path)?;
        f.write_all(bytes)?;
        return f.flush();
    }
    replace(&path, bytes)
}

/// Where `--output-file` `path` writes: `path` itself, or, while it is a
/// symlink, the link's target (a relative target read against the link's
/// directory, as the kernel does; at most 40 links, `ELOOP`'s bound). The
/// directories on the way are left to the kernel. A path that does not
/// exist is returned as is. Used to check where a report would land.
///
/// # Errors
/// More than 40 links, or a link that cannot be read.
pub fn output_target(path: &Path) -> std::io::Result<PathBuf> {
    resolve_links(path, false).map(|(p, _)| p)
}

/// Which standard stream of this process `--output-file` `path` names
/// (Linux: `/dev/stdout`, `/dev/stderr`, `/dev/fd/1`, `/proc/self/fd/2`):
/// `Some(1)` or `Some(2)`. The report then goes through that descriptor
/// itself, in order with the rest of the stream and at its offset
/// (reopening `/proc/self/fd/1` would start a new offset at 0 and
/// overwrite what the shell's `> file` already holds).
pub fn standard_stream(path: &Path) -> Option<u8> {
    let (p, fd_link) = resolve_links(path, true).ok()?;
    if !fd_link {
        return None;
    }
    let dir = std::fs::canonicalize(p.parent()?).ok()?;
    if dir
        != Path::new("/proc")
            .join(std::process::id().to_string())
            .join("fd")
    {
        return None;
    }
    match p.file_name()?.to_str()? {
        "1" => Some(1),
        "2" => Some(2),
        _ => None,
    }
}

/// [`output_target`]; with `stop_at_fd_links`, the walk stops at a link in
/// `/proc` (`/dev/stdout` → `/proc/self/fd/1`, `/dev/fd/N`) and says so:
/// such a link names an open file description of this process (the
/// shell's redirection), which is written through, never replaced.
fn resolve_links(path: &Path, stop_at_fd_links: bool) -> std::io::Result<(PathBuf, bool)> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
                if stop_at_fd_links
                    && parent
                        .and_then(|d| std::fs::canonicalize(d).ok())
                        .is_some_and(|d| d.starts_with("/proc"))
                {
                    return Ok((p, true));
                }
                let link = std::fs::read_link(&p)?;
                p = match parent {
                    Some(d) => d.join(link),
                    None => link,
                };
            }
            _ => return Ok((p, false)),
        }
    }
    Err(std::io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// How [`write()`] puts its bytes in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// The whole file: [`write_output`] (a new path atomically, an
    /// existing file in place as a shell's `>` does).
    Whole,
    /// Added at its end: [`append`] (a shell's `>>`).
    Append,
}

/// Why [`write()`] wrote nothing.
#[derive(Debug)]
pub enum WriteError {
    /// The file would land inside a package ([`written_inside`]).
    Inside {
        /// The PATH of the command (or the package itself) it is under.
        path: PathBuf,
        /// The package directory.
        package: PathBuf,
    },
    /// Creating, writing, syncing or renaming failed.
    Io(std::io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Inside { package, .. } => write!(
                f,
                "is inside the package {}: nothing is written into a package (through a symbolic or hard link neither); write it outside",
                package.display()
            ),
            WriteError::Io(e) => e.fmt(f),
        }
    }
}

/// The one writer of every file this tool writes but a package's own
/// (`--output-file`, `--summary-file`, `trust … --pin-out`, `compat
/// --write-witnesses`; issue 37 item 8): refused when [`written_inside`]
/// finds it inside a package (under `paths`, the command's package PATHs,
/// or any other), else written as `how` says. `init` and `index --write`,
/// which make a package's own files, use [`replace`] directly.
///
/// # Errors
/// [`WriteError::Inside`], or the I/O error of writing.
pub fn write(file: &Path, bytes: &[u8], how: How, paths: &[PathBuf]) -> Result<(), WriteError> {
    if let Some((path, package)) = written_inside(file, paths) {
        return Err(WriteError::Inside { path, package });
    }
    match how {
        How::Whole => write_output(file, bytes),
        How::Append => append(file, bytes),
    }
    .map_err(WriteError::Io)
}

/// The one rule of every file this tool writes (`--output-file`,
/// `--summary-file`, `trust … --pin-out`, `compat --write-witnesses`;
/// issue 37 item 8): nothing is written into a Form Package. Where `file`
/// would land inside one: `(the PATH, the package directory)`, or `None`
/// when it lands outside every package. Checked, both sides resolved:
/// - the file as named and, when it is a symbolic link, its target
///   (a link is followed, as a shell's `>` follows it; a link to a place
///   outside every package is written through): inside a package under a
///   PATH of the command, or equal to a PATH;
/// - the same two places against every package at all: a directory from
///   the file's own up to the filesystem root holding a
///   `package-index.json` (then both members are that directory), so a
///   command without package PATHs (`trust verify-checkpoint --pin-out`)
///   never writes into one either;
/// - an existing regular file with more than one hard link: compared by
///   device and inode with every regular file under each PATH and under
///   the directory the file is written in (a hard link beside a package
///   to one of its files), refused when that file is in a package.
pub fn written_inside(file: &Path, paths: &[PathBuf]) -> Option<(PathBuf, PathBuf)> {
    let resolve = |p: &Path| {
        std::fs::canonicalize(p).unwrap_or_else(|_| std::path::absolute(p).unwrap_or(p.into()))
    };
    let located = |f: &Path| match (f.parent(), f.file_name()) {
        (Some(parent), Some(name)) => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            resolve(parent).join(name)
        }
        _ => resolve(f),
    };
    let mut targets = vec![located(file)];
    if let Ok(t) = output_target(file) {
        if t != file {
            targets.push(located(&t));
        }
    }
    let package_of = |target: &Path, root: &Path| {
        target
            .parent()?
            .ancestors()
            .take_while(|d| d.starts_with(root))
            .find(|d| std::fs::symlink_metadata(d.join(crate::verify::INDEX_FILE)).is_ok())
            .map(Path::to_path_buf)
    };
    // A PATH that is a package's own file (`compat OLD/definition.json
    // NEW/definition.json`) stands for its package: the directory holding
    // it, when that directory holds a `package-index.json` (breaker G9).
    let root_of = |p: &Path| {
        let root = resolve(p);
        match root.parent() {
            Some(dir)
                if root.is_file()
                    && std::fs::symlink_metadata(dir.join(crate::verify::INDEX_FILE)).is_ok() =>
            {
                dir.to_path_buf()
            }
            _ => root,
        }
    };
    let by_path = paths.iter().find_map(|p| {
        let named = resolve(p);
        let root = root_of(p);
        targets.iter().find_map(|target| {
            if *target == named || *target == root {
                return Some((p, root.clone()));
            }
            package_of(target, &root).map(|d| (p, d))
        })
    });
    // Any package at all: a directory from the file's own up holding a
    // package index (issue 37 item 8).
    let by_ancestor = || {
        targets.iter().find_map(|target| {
            let dir = target
                .parent()?
                .ancestors()
                .find(|d| std::fs::symlink_metadata(d.join(crate::verify::INDEX_FILE)).is_ok())?
                .to_path_buf();
            Some((dir.clone(), dir))
        })
    };
    // A hard link is the same file under another name: compared by device
    // and inode, a link outside every package to a file inside one is
    // refused too (issue 22 item 5), found under each PATH and under the
    // directory the file is written in. Only an existing regular file
    // with more than one link needs the walk.
    let here = targets
        .first()
        .and_then(|t| t.parent())
        .map(Path::to_path_buf);
    let roots: Vec<PathBuf> = paths.iter().cloned().chain(here).collect();
    let by_inode = || {
        use std::os::unix::fs::MetadataExt;
        let meta = targets
            .iter()
            .find_map(|t| std::fs::metadata(t).ok())
            .filter(|m| m.is_file() && m.nlink() > 1)?;
        let id = (meta.dev(), meta.ino());
        roots.iter().find_map(|p| {
            let root = root_of(p);
            walkdir::WalkDir::new(&root)
                .follow_links(false)
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file())
                .find_map(|e| {
                    let m = e.metadata().ok()?;
                    if (m.dev(), m.ino()) != id {
                        return None;
                    }
                    if e.path() == root {
                        return Some((p, root.clone()));
                    }
                    package_of(e.path(), &root).map(|d| (p, d))
                })
        })
    };
    by_path
        .map(|(path, package)| (path.clone(), package))
        .or_else(by_ancestor)
        .or_else(|| by_inode().map(|(path, package)| (path.clone(), package)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    /// A new file gets the bytes and `File::create`'s mode; a symbolic
    /// link and a hard link under the name are replaced, their targets
    /// keep their bytes; nothing else is left in the directory.
    #[test]
    fn replaces_the_entry_never_what_it_points_to() {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("out.json");
        replace(&out, b"one").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"one");
        let reference = t.path().join("reference");
        std::fs::File::create(&reference).unwrap();
        let want = std::fs::metadata(&reference).unwrap().permissions().mode();
        assert_eq!(std::fs::metadata(&out).unwrap().permissions().mode(), want);
        std::fs::remove_file(&reference).unwrap();
        let victim = t.path().join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        std::fs::remove_file(&out).unwrap();
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        replace(&out, b"two").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert!(!std::fs::symlink_metadata(&out)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&out).unwrap(), b"two");
        std::fs::remove_file(&out).unwrap();
        std::fs::hard_link(&victim, &out).unwrap();
        replace(&out, b"three").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert_eq!(std::fs::metadata(&victim).unwrap().nlink(), 1);
        let mut names: Vec<_> = std::fs::read_dir(t.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["out.json", "victim"]);
    }

    /// Links planted under the names the old code used (`.NAME.<pid>.tmp`)
    /// are neither followed nor moved into place; near miss: a rename that
    /// fails (the name is a directory) leaves no temporary file.
    #[test]
    fn planted_temporary_names_are_never_followed() {
        let t = tempfile::tempdir().unwrap();
        let victim = t.path().join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        let out = t.path().join("report.sarif");
        std::os::unix::fs::symlink(
            &victim,
            t.path()
                .join(format!(".report.sarif.{}.tmp", std::process::id())),
        )
        .unwrap();
        replace(&out, b"report").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert_eq!(std::fs::read(&out).unwrap(), b"report");
        let dir = t.path().join("dir");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("x"), b"x").unwrap();
        assert!(replace(&dir, b"no").is_err());
        let tmps = std::fs::read_dir(t.path())
            .unwrap()
            .filter(|e| {
                let n = e.as_ref().unwrap().file_name();
                let n = n.to_string_lossy();
                n.ends_with(".tmp") && !n.starts_with(".report.sarif.")
            })
            .count();
        assert_eq!(tmps, 0);
    }
}

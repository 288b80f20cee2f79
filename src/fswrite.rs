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
use std::path::Path;

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

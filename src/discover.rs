//! Finding package roots under the PATHs given to `verify`.
//!
//! A PATH is a package directory or a tree: every directory below it that
//! holds a `package-index.json` is a package, and the walk does not descend
//! into a package. A PATH holding no package at all is itself reported as a
//! package (it then fails with `missing-package-index`, as the reference
//! does). A PATH that is a symlink or a file is handed on as a package too,
//! so the loader reports it (`root-not-directory`). `walkdir` is used only
//! here, never following links (including a symlinked root).

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::error::Error;
use crate::package::INDEX_FILE;

/// Package roots below `path`, sorted by path.
///
/// # Errors
/// [`Error::Usage`] when `path` does not exist (nothing at all, not even a
/// dangling symlink).
pub fn package_roots(path: &Path) -> Result<Vec<PathBuf>, Error> {
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut roots = Vec::new();
    let mut walk = WalkDir::new(path)
        .follow_links(false)
        .follow_root_links(false)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = walk.next() {
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_dir() {
            continue;
        }
        let index = entry.path().join(INDEX_FILE);
        if std::fs::symlink_metadata(&index).is_ok() {
            roots.push(entry.path().to_path_buf());
            walk.skip_current_dir();
        }
    }
    if roots.is_empty() {
        roots.push(path.to_path_buf());
    }
    Ok(roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_packages_and_does_not_descend() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let nested = a.join("fixtures/inner");
        std::fs::create_dir_all(&nested).unwrap();
        std::fs::write(a.join(INDEX_FILE), "{}").unwrap();
        std::fs::write(nested.join(INDEX_FILE), "{}").unwrap();
        let b = dir.path().join("x/b");
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(b.join(INDEX_FILE), "{}").unwrap();
        std::fs::create_dir_all(dir.path().join("empty")).unwrap();
        let roots = package_roots(dir.path()).unwrap();
        assert_eq!(roots, vec![a, b]);
    }

    #[test]
    fn empty_tree_is_itself_a_package_and_missing_is_usage() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            package_roots(dir.path()).unwrap(),
            vec![dir.path().to_path_buf()]
        );
        assert!(package_roots(&dir.path().join("nope")).is_err());
    }

    #[test]
    fn symlinked_root_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir_all(&real).unwrap();
        std::fs::write(real.join(INDEX_FILE), "{}").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert_eq!(package_roots(&link).unwrap(), vec![link.clone()]);
    }
}

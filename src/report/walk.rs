//! The walk for packages over a command's PATHs as the report holds it
//! (closing note, duplicate D5): [`discover`] walks each PATH as `verify`
//! does ([`crate::discover::walk_with_files`]) and returns each finding of
//! the walk about a PATH (`FD900` a PATH that does not exist, `FD901` a
//! directory it cannot read, `FD902` one it will not follow) as a
//! [`EntryKind::Path`] entry, beside the package roots it found, in walk
//! order. `locator`, `snapshot`, `desired` and `family`'s loader call it;
//! each verifies the roots its own way.

use std::ffi::OsStr;
use std::path::PathBuf;

use super::{Entry, EntryKind};
use crate::discover::{SkipRule, WalkRules};
use crate::verify::PackageOutcome;

/// One thing the walk found, in walk order (PATH by PATH, each PATH's walk
/// findings before its package roots).
#[derive(Debug)]
pub enum Found {
    /// A finding of the walk about a PATH, as its report entry.
    Path(Box<Entry>),
    /// A package root.
    Root(PathBuf),
}

/// What the walks over a command's PATHs found (see the module docs).
#[derive(Debug, Default)]
pub struct Discovered {
    /// Walk findings and package roots, in walk order.
    pub found: Vec<Found>,
    /// The PATHs below which the walk found no package: each is its own
    /// root in [`Discovered::found`] (it then fails as a package, FD009,
    /// as the reference answers; `family` takes no package from it).
    pub no_package: Vec<PathBuf>,
    /// The directories skipped by a rule, each with its rule (`hidden`,
    /// `.gitignore`, `exclude`).
    pub skipped: Vec<(PathBuf, SkipRule)>,
    /// The files outside every package whose name the caller wanted
    /// ([`crate::discover::Walk::files`]).
    pub files: Vec<PathBuf>,
}

impl Discovered {
    /// The walk findings, as report entries, in walk order (moved out).
    pub fn entries(&mut self) -> Vec<Entry> {
        self.take(|f| matches!(f, Found::Path(_)))
            .into_iter()
            .filter_map(|f| match f {
                Found::Path(e) => Some(*e),
                Found::Root(_) => None,
            })
            .collect()
    }

    /// The package roots, in walk order (moved out).
    pub fn roots(&mut self) -> Vec<PathBuf> {
        self.take(|f| matches!(f, Found::Root(_)))
            .into_iter()
            .filter_map(|f| match f {
                Found::Root(r) => Some(r),
                Found::Path(_) => None,
            })
            .collect()
    }

    /// Moves out what `pick` is true for, leaving the rest in order.
    fn take(&mut self, pick: impl Fn(&Found) -> bool) -> Vec<Found> {
        let (taken, rest) = std::mem::take(&mut self.found).into_iter().partition(pick);
        self.found = rest;
        taken
    }
}

/// Walks each of `paths` under `rules` (keeping the files `wanted` names,
/// see [`crate::discover::walk_with_files`]); see the module docs.
pub fn discover(
    paths: &[PathBuf],
    rules: &WalkRules,
    wanted: &dyn Fn(&OsStr) -> bool,
) -> Discovered {
    discover_each(paths, rules, wanted, &mut |_| {})
}

/// [`discover`], also telling `on_root` each package root as the walk
/// finds it ([`crate::discover::walk_each`]): the same roots, in the same
/// order, as [`Discovered::roots`] gives.
pub fn discover_each(
    paths: &[PathBuf],
    rules: &WalkRules,
    wanted: &dyn Fn(&OsStr) -> bool,
    on_root: &mut dyn FnMut(&std::path::Path),
) -> Discovered {
    let mut out = Discovered::default();
    for path in paths {
        let walk = crate::discover::walk_each(path, rules, wanted, on_root);
        out.found.extend(walk.findings.into_iter().map(|(path, d)| {
            Found::Path(Box::new(Entry::new(
                EntryKind::Path,
                PackageOutcome {
                    path,
                    diagnostics: vec![d],
                    ..PackageOutcome::default()
                },
            )))
        }));
        if walk.fallback {
            out.no_package.push(path.clone());
        }
        out.found.extend(walk.roots.into_iter().map(Found::Root));
        out.skipped.extend(walk.skipped);
        out.files.extend(walk.files);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;

    /// Each PATH's walk findings come as Path entries before its roots, a
    /// PATH without a package below it is its own root and said so, the
    /// wanted files are kept; near miss: a tree with a package is no
    /// `no_package` PATH.
    #[test]
    fn the_walk_findings_are_path_entries_beside_the_roots() {
        let tmp = tempfile::tempdir().unwrap();
        let tree = tmp.path().join("tree");
        let pkg = tree.join("p");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(pkg.join("package-index.json"), "{}").unwrap();
        std::fs::write(tree.join("candidate-set.json"), "{}").unwrap();
        let empty = tmp.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let gone = tmp.path().join("gone");
        let paths = [gone.clone(), tree.clone(), empty.clone()];
        let mut d = discover(&paths, &WalkRules::default(), &|n| {
            n.to_str().is_some_and(|n| n.starts_with("candidate-set"))
        });
        assert!(matches!(&d.found[0], Found::Path(e) if e.kind() == EntryKind::Path));
        assert_eq!(d.no_package, std::slice::from_ref(&empty));
        assert_eq!(d.files, [tree.join("candidate-set.json")]);
        let entries = d.entries();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].outcome().path, gone);
        assert_eq!(entries[0].outcome().diagnostics[0].code, Code::PathNotFound);
        assert_eq!(d.roots(), [pkg, empty]);
        assert!(d.found.is_empty());
    }
}

//! Finding package roots under the PATHs given to `verify`.
//!
//! A PATH is a package directory or a tree: every directory below it that
//! holds a `package-index.json` is a package (so is one holding a Form
//! Definition `definition.json` but no index: it then fails with FD009),
//! and the walk does not descend
//! into a package (its inventory is the loader's, complete: no rule of this
//! walk applies inside a package). A PATH holding no package at all is
//! itself reported as a package (it then fails with
//! `missing-package-index`, as the reference does). A PATH that is a symlink
//! or a file is handed on as a package too, so the loader reports it
//! (`root-not-directory`). `walkdir` is used only here, never following
//! links (including a symlinked root).
//!
//! Nothing is skipped in silence (issue 14 items 1, 7): a directory the
//! walk cannot read is a finding (`FD901 unreadable-directory`), a symlink
//! to a directory is a finding (`FD902 symlinked-directory`), a PATH that
//! does not exist is a finding (`FD900 path-not-found`), and a directory
//! skipped by a rule (hidden, `.gitignore`, `exclude`) is listed in
//! [`Walk::skipped`] with the rule. Hidden directories and `.gitignore`
//! are matched with the `ignore` crate's gitignore matcher (the one
//! ripgrep uses); as in ripgrep, a `.gitignore` applies only inside a git
//! repository (a `.git` in its directory or above); `--no-ignore` turns
//! both off.

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use walkdir::WalkDir;

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::doc_kind::{classify, DocKind};
use crate::error::Error;
use crate::fileread::Reach;
use crate::package::INDEX_FILE;

/// The rules of the walk for package roots (flags and `form-package.toml`).
#[derive(Debug, Clone, Default)]
pub struct WalkRules {
    /// Do not skip hidden directories nor those `.gitignore` files name.
    pub no_ignore: bool,
    /// `exclude` globs (gitignore syntax) and the directory they are
    /// relative to (the configuration file's directory, or the working
    /// directory for `--exclude`).
    pub exclude: Vec<(PathBuf, String)>,
}

/// The rule by which a directory, or the Form Package in it, is skipped:
/// the walk's (hidden, `.gitignore`, `exclude`) and `compat`'s two more
/// (a package inside a package, a git submodule at REV). Printed by its
/// [`SkipRule::name`] (`Display`); ordered as its name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipRule {
    /// A directory a `.gitignore` names (`.gitignore`).
    Gitignore,
    /// A directory an `exclude` glob names (`exclude`).
    Exclude,
    /// A hidden directory: its name starts with `.` (`hidden`).
    Hidden,
    /// A Form Package inside another package, below whose root the walk
    /// does not search (`nested`; `compat`, breaker4 H5).
    Nested,
    /// A git submodule at REV, whose objects are another repository's
    /// (`submodule`; `compat --baseline-rev`, breaker4 H1).
    Submodule,
}

impl SkipRule {
    /// The rule as every report names it: `.gitignore`, `exclude`,
    /// `hidden`, `nested`, `submodule`.
    pub fn name(self) -> &'static str {
        match self {
            SkipRule::Gitignore => ".gitignore",
            SkipRule::Exclude => "exclude",
            SkipRule::Hidden => "hidden",
            SkipRule::Nested => "nested",
            SkipRule::Submodule => "submodule",
        }
    }

    /// What a directory skipped by this rule is, in a sentence ("… is in
    /// DIR, a hidden directory").
    pub fn what(self) -> &'static str {
        match self {
            SkipRule::Gitignore => "a directory a .gitignore names",
            SkipRule::Exclude => "a directory skipped by the rule exclude",
            SkipRule::Hidden => "a hidden directory",
            SkipRule::Nested => "a Form Package, below whose root the walk does not search",
            SkipRule::Submodule => "a git submodule",
        }
    }
}

impl std::fmt::Display for SkipRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the walk over one PATH found.
#[derive(Debug, Default)]
pub struct Walk {
    /// Package roots, sorted by path.
    pub roots: Vec<PathBuf>,
    /// Directories the walk could not enter or will not follow (and a PATH
    /// that does not exist), each with its finding.
    pub findings: Vec<(PathBuf, Diagnostic)>,
    /// Directories skipped by a rule, with the rule (hidden, `.gitignore`,
    /// `exclude`).
    pub skipped: Vec<(PathBuf, SkipRule)>,
    /// True when the PATH does not exist (the run exits 2).
    pub missing: bool,
    /// True when the only root is the PATH itself because the walk found no
    /// package below it (it then fails as a package, FD009, as the
    /// reference answers; `family` takes no package from it).
    pub fallback: bool,
    /// Files outside every package (and every skipped directory) whose name
    /// the caller wanted ([`walk_with_files`]: `family`'s contracts and
    /// candidate sets), symlinks among them (not followed: the caller says
    /// so), in walk order. Empty for [`walk`].
    pub files: Vec<PathBuf>,
}

/// Package roots below `path`, sorted by path (no rule skips anything).
///
/// # Errors
/// [`Error::Usage`] when `path` does not exist (nothing at all, not even a
/// dangling symlink).
pub fn package_roots(path: &Path) -> Result<Vec<PathBuf>, Error> {
    let w = walk(
        path,
        &WalkRules {
            no_ignore: true,
            ..Default::default()
        },
    );
    if w.missing {
        return Err(Error::Usage(format!(
            "{}: no such file or directory",
            path.display()
        )));
    }
    Ok(w.roots)
}

/// The package directory `dir` is in (or is), if any: the nearest
/// directory from `dir` upward, resolved through its existing part, that
/// holds a `package-index.json` ("nothing is written to a package": `init`
/// and `compat --write-witnesses` refuse such a directory).
pub fn inside_package(dir: &Path) -> Option<PathBuf> {
    resolved(dir)?
        .ancestors()
        .find(|d| std::fs::symlink_metadata(d.join(INDEX_FILE)).is_ok())
        .map(Path::to_path_buf)
}

/// `path` made absolute with its longest existing prefix resolved (links,
/// `..`) and the rest kept, so a path that does not exist (yet, or any
/// more) compares with canonical ones; `None` when it cannot be made
/// absolute or its existing prefix cannot be resolved.
pub fn resolved(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    while std::fs::symlink_metadata(existing).is_err() {
        rest.push(existing.file_name()?.to_owned());
        existing = existing.parent()?;
    }
    let mut resolved = std::fs::canonicalize(existing).ok()?;
    for part in rest.iter().rev() {
        resolved.push(part);
    }
    Some(resolved)
}

/// `package` (a resolved directory, as [`inside_package`] gives it) named
/// as the user named it: the nearest of `given`'s own ancestors (itself
/// included, `.` for an empty one) that resolves to `package`, so a
/// refusal shows `n`, not `/home/…/n` (issue 35 item 5); `package` itself
/// when none does (a link climbed out of what was given).
pub fn as_given(given: &Path, package: &Path) -> PathBuf {
    let mut named = given;
    loop {
        let shown = if named.as_os_str().is_empty() {
            Path::new(".")
        } else {
            named
        };
        if std::fs::canonicalize(shown).is_ok_and(|r| r == package) {
            return shown.to_path_buf();
        }
        match named.parent() {
            Some(up) if !named.as_os_str().is_empty() => named = up,
            _ => return package.to_path_buf(),
        }
    }
}

/// Walks `path` for package roots under `rules`; see the module docs.
pub fn walk(path: &Path, rules: &WalkRules) -> Walk {
    walk_with_files(path, rules, &|_| false)
}

/// [`walk`], also keeping in [`Walk::files`] every file (or symlink that is
/// not to a directory) whose name `wanted` accepts, found where the walk
/// looks for packages: outside every package and every directory a rule
/// skipped (the one walk and policy of `verify` and `family`). A PATH that
/// is no directory is kept too when its name is wanted.
pub fn walk_with_files(
    path: &Path,
    rules: &WalkRules,
    wanted: &dyn Fn(&std::ffi::OsStr) -> bool,
) -> Walk {
    walk_each(path, rules, wanted, &mut |_| {})
}

/// [`walk_with_files`], also telling `on_root` each package root as the
/// walk finds it, before the walk goes on (and the fallback root, a PATH
/// holding no package, at its end): `verify` starts verifying a package
/// while the walk still looks for the next (issue 38). The roots are in
/// [`Walk::roots`] too, in the same order.
pub fn walk_each(
    path: &Path,
    rules: &WalkRules,
    wanted: &dyn Fn(&std::ffi::OsStr) -> bool,
    on_root: &mut dyn FnMut(&Path),
) -> Walk {
    let mut out = Walk::default();
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) => {
            out.missing = true;
            out.findings.push((
                path.to_path_buf(),
                Diagnostic::new(
                    Code::PathNotFound,
                    format!("PATH {} does not exist ({e})", path.display()),
                ),
            ));
            return out;
        }
    };
    if !meta.is_dir() {
        on_root(path);
        out.roots.push(path.to_path_buf());
        if path.file_name().is_some_and(wanted) {
            out.files.push(path.to_path_buf());
        }
        return out;
    }
    let exclude = exclude_matcher(&rules.exclude);
    // `.gitignore` matchers of the directories above the current entry, with their depth.
    let mut gitignores: Vec<(usize, Gitignore)> = Vec::new();
    // `.gitignore` files apply only inside a git repository, as in ripgrep
    // (T1 D2): PATH is in one when it or a directory above it holds `.git`;
    // below PATH, a directory holding `.git` starts one (depths kept).
    let above_in_repo = !rules.no_ignore && in_git_repository(path);
    let mut repos: Vec<usize> = Vec::new();
    let mut entries = WalkDir::new(path)
        .follow_links(false)
        .follow_root_links(false)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = entries.next() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let dir = e.path().unwrap_or(path).to_path_buf();
                let why = e
                    .io_error()
                    .map_or_else(|| e.to_string(), ToString::to_string);
                out.findings.push((
                    dir.clone(),
                    Diagnostic::new(
                        Code::UnreadableDirectory,
                        format!(
                            "cannot read directory {} ({why}): packages below it were not searched",
                            dir.display()
                        ),
                    ),
                ));
                continue;
            }
        };
        let depth = entry.depth();
        gitignores.retain(|(d, _)| *d < depth);
        repos.retain(|d| *d < depth);
        let ft = entry.file_type();
        let is_dir_link = ft.is_symlink()
            && depth > 0
            && std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
        if !ft.is_dir() && !is_dir_link {
            if wanted(entry.file_name()) {
                out.files.push(entry.path().to_path_buf());
            }
            continue;
        }
        if depth > 0 {
            if let Some(rule) = skip_rule(entry.path(), rules, &exclude, &gitignores) {
                out.skipped.push((entry.path().to_path_buf(), rule));
                if ft.is_dir() {
                    entries.skip_current_dir();
                }
                continue;
            }
        }
        if is_dir_link {
            let target = std::fs::read_link(entry.path())
                .map_or_else(|_| "?".to_owned(), |t| t.display().to_string());
            out.findings.push((
                entry.path().to_path_buf(),
                Diagnostic::new(
                    Code::SymlinkedDirectory,
                    format!(
                        "{} is a symlink to the directory {target}: not followed",
                        entry.path().display()
                    ),
                ),
            ));
            continue;
        }
        if holds_package(entry.path()) {
            on_root(entry.path());
            out.roots.push(entry.path().to_path_buf());
            entries.skip_current_dir();
            continue;
        }
        if !rules.no_ignore && !above_in_repo && entry.path().join(".git").exists() {
            repos.push(depth);
        }
        if !rules.no_ignore && (above_in_repo || !repos.is_empty()) {
            let file = entry.path().join(".gitignore");
            // Found, so read as every found file is ([`crate::fileread`]:
            // never through a link, a regular file, at most
            // `limits::CONFIG_BYTES`); one that cannot be read adds no rule.
            let limit = crate::limits::CONFIG_BYTES;
            if let Ok(bytes) = crate::fileread::read_file(&file, Reach::Found, limit) {
                let mut b = GitignoreBuilder::new(entry.path());
                add_gitignore_lines(&mut b, &file, &bytes);
                if let Ok(g) = b.build() {
                    gitignores.push((depth, g));
                }
            }
        }
    }
    if out.roots.is_empty() && out.findings.is_empty() {
        on_root(path);
        out.roots.push(path.to_path_buf());
        out.fallback = true;
    }
    out
}

/// True when the walk of `path` ends at `path` itself, its one root: a
/// PATH that is no directory (handed on as a package, see the module docs)
/// or a directory that holds a package (a package index or a lost one, as
/// the walk decides it for every directory). `verify` runs
/// such a PATH alone without starting a thread pool.
pub fn is_root_itself(path: &Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_dir() => true,
        Ok(_) => holds_package(path),
        Err(_) => false,
    }
}

/// True when the directory `dir` is a package root for the walk: it holds
/// a `package-index.json` (any kind of entry) or a lost one ([`lost_index`]).
fn holds_package(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(INDEX_FILE)).is_ok() || lost_index(dir)
}

/// True when `dir` holds no `package-index.json` but a `definition.json`
/// that is a Form Definition ([`classify`]; a Binding or
/// Interface Definition is a contract, not a package): a package whose
/// index was forgotten, verified as a package so that it fails with
/// `FD009 missing-package-index` instead of being passed over in silence
/// (T3 B4; `explain FD009`'s own failing example). Only a regular file of
/// at most the definition limit is read, never through a link
/// ([`crate::fileread`], found).
fn lost_index(dir: &Path) -> bool {
    let file = dir.join("definition.json");
    let limit = crate::limits::DEFINITION_BYTES;
    crate::fileread::read_file(&file, Reach::Found, limit)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| classify(&v) == Some(DocKind::Definition))
}

/// Adds the lines of the `.gitignore` `file` (its `bytes`) to `b` as
/// `GitignoreBuilder::add` adds a file it opens itself: split at `\n` with
/// a final `\r` dropped, a line that is not UTF-8 skipped, a BOM at the
/// start dropped (as git does); a malformed line is dropped by the
/// builder, the rest still apply.
fn add_gitignore_lines(b: &mut GitignoreBuilder, file: &Path, bytes: &[u8]) {
    for (i, line) in bytes.split(|c| *c == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        let _ = b.add_line(Some(file.to_path_buf()), line);
    }
}

/// True when `path` or a directory above it holds `.git` (a directory, or
/// the file a worktree or submodule has): `path` is in a git repository.
fn in_git_repository(path: &Path) -> bool {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    abs.ancestors().any(|dir| dir.join(".git").exists())
}

/// Checks one `exclude` glob (gitignore syntax, the `ignore` crate's
/// parser, the one the walk uses, with an unclosed `[` refused where git
/// would read it as a literal: write `\[` for one): `--exclude '['` is a
/// usage error (exit 2) and `exclude = ["["]` in `form-package.toml` an
/// `FD903`, never a rule taken in silence (T1 C11).
///
/// # Errors
/// A message naming the glob and what is wrong with it.
pub fn check_exclude_glob(glob: &str) -> Result<(), String> {
    let mut b = GitignoreBuilder::new("/");
    b.allow_unclosed_class(false);
    b.add_line(None, glob)
        .and_then(|b| b.build())
        .map(|_| ())
        .map_err(|e| format!("{glob:?} is not a valid glob: {e}"))
}

/// The `exclude` globs as one matcher per base directory.
fn exclude_matcher(globs: &[(PathBuf, String)]) -> Vec<Gitignore> {
    let mut by_base: Vec<(PathBuf, GitignoreBuilder)> = Vec::new();
    for (base, glob) in globs {
        let base = std::path::absolute(base).unwrap_or_else(|_| base.clone());
        let pos = match by_base.iter().position(|(b, _)| *b == base) {
            Some(p) => p,
            None => {
                let mut b = GitignoreBuilder::new(&base);
                b.allow_unclosed_class(false);
                by_base.push((base.clone(), b));
                by_base.len() - 1
            }
        };
        if let Some((_, b)) = by_base.get_mut(pos) {
            let _ = b.add_line(None, glob);
        }
    }
    by_base
        .into_iter()
        .filter_map(|(_, b)| b.build().ok())
        .collect()
}

/// The rule that skips directory `dir`, if any.
fn skip_rule(
    dir: &Path,
    rules: &WalkRules,
    exclude: &[Gitignore],
    gitignores: &[(usize, Gitignore)],
) -> Option<SkipRule> {
    if !exclude.is_empty() {
        let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        if exclude
            .iter()
            .any(|m| abs.starts_with(m.path()) && m.matched(&abs, true).is_ignore())
        {
            return Some(SkipRule::Exclude);
        }
    }
    if rules.no_ignore {
        return None;
    }
    if dir
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.') && n != "." && n != "..")
    {
        return Some(SkipRule::Hidden);
    }
    for (_, g) in gitignores.iter().rev() {
        let m = g.matched(dir, true);
        if m.is_ignore() {
            return Some(SkipRule::Gitignore);
        }
        if m.is_whitelist() {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `add_gitignore_lines` matches as the `ignore` crate's own file
    /// reader (`GitignoreBuilder::add`, the oracle) on a BOM, CRLF line
    /// ends, a line that is not UTF-8, a malformed glob and a negation.
    #[test]
    fn gitignore_lines_match_the_crates_own_reader() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(".gitignore");
        let bytes = b"\xef\xbb\xbfbuild\r\nbad\xff\nout/\n[\n*.tmp\n!keep.tmp\nlast";
        std::fs::write(&file, bytes).unwrap();
        let mut ours = GitignoreBuilder::new(dir.path());
        add_gitignore_lines(&mut ours, &file, bytes);
        let ours = ours.build().unwrap();
        let mut theirs = GitignoreBuilder::new(dir.path());
        let _ = theirs.add(&file);
        let theirs = theirs.build().unwrap();
        assert_eq!(ours.num_ignores(), theirs.num_ignores());
        assert_eq!(ours.num_whitelists(), theirs.num_whitelists());
        for (path, is_dir) in [
            ("build", true),
            ("bad\u{fffd}", false),
            ("out", true),
            ("a.tmp", false),
            ("keep.tmp", false),
            ("last", false),
            ("other", false),
        ] {
            let p = dir.path().join(path);
            let (o, t) = (ours.matched(&p, is_dir), theirs.matched(&p, is_dir));
            assert_eq!(
                (o.is_ignore(), o.is_whitelist()),
                (t.is_ignore(), t.is_whitelist()),
                "{path}"
            );
        }
        assert!(ours.matched(dir.path().join("build"), true).is_ignore());
        assert!(ours
            .matched(dir.path().join("keep.tmp"), false)
            .is_whitelist());
    }

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

    /// T3 B4: a directory holding a Form Definition but no index is a
    /// package (it then fails with FD009); one holding a contract's
    /// `definition.json`, or nothing, is not.
    #[test]
    fn a_form_definition_without_its_index_is_a_package() {
        let dir = tempfile::tempdir().unwrap();
        let write = |rel: &str, text: &str| {
            let p = dir.path().join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        write(
            "lost/definition.json",
            r#"{"apiVersion":"edge.forms.takoform.com","kind":"Queue","definitionVersion":"1.0.0","desiredSchema":{}}"#,
        );
        write(
            "contract/definition.json",
            r#"{"apiVersion":"interfaces.takoform.com/v1alpha1","kind":"InterfaceDefinition"}"#,
        );
        write("other/notes.json", "{}");
        write("ok/package-index.json", "{}");
        let roots = package_roots(dir.path()).unwrap();
        assert_eq!(roots, vec![dir.path().join("lost"), dir.path().join("ok")]);
        assert!(lost_index(&dir.path().join("lost")));
        assert!(!lost_index(&dir.path().join("contract")));
        assert!(!lost_index(&dir.path().join("other")));
    }

    /// `walk_with_files` keeps the wanted files the walk passes: outside
    /// packages and outside skipped directories, a symlink among them (not
    /// followed: the caller says so); `--no-ignore` keeps the hidden one.
    #[test]
    fn wanted_files_are_those_the_walk_passes() {
        let dir = tempfile::tempdir().unwrap();
        let write = |rel: &str| {
            let p = dir.path().join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "{}").unwrap();
        };
        write("pkg/package-index.json");
        write("pkg/fixtures/want.json");
        write(".hidden/want.json");
        write("loose/want.json");
        write("loose/other.json");
        std::os::unix::fs::symlink("loose/want.json", dir.path().join("want.json")).unwrap();
        let wanted = |n: &std::ffi::OsStr| n == "want.json";
        let w = walk_with_files(dir.path(), &WalkRules::default(), &wanted);
        assert_eq!(
            w.files,
            [
                dir.path().join("loose/want.json"),
                dir.path().join("want.json")
            ]
        );
        assert_eq!(w.roots, [dir.path().join("pkg")]);
        assert_eq!(w.skipped, [(dir.path().join(".hidden"), SkipRule::Hidden)]);
        let rules = WalkRules {
            no_ignore: true,
            ..Default::default()
        };
        let w = walk_with_files(dir.path(), &rules, &wanted);
        assert_eq!(w.files.len(), 3);
        assert!(w.files.contains(&dir.path().join(".hidden/want.json")));
        assert!(walk(dir.path(), &rules).files.is_empty());
    }

    #[test]
    fn exclude_globs_that_do_not_parse_are_refused() {
        assert!(check_exclude_glob("[")
            .unwrap_err()
            .contains("unclosed character class"));
        assert!(check_exclude_glob("a/{b").is_err());
        for ok in ["build/", "vendor/**", "\\[", "[ab]/x", "!keep"] {
            assert_eq!(check_exclude_glob(ok), Ok(()), "{ok}");
        }
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

    /// `inside_package` (what `init` and `compat --write-witnesses` ask):
    /// the package itself, a directory below it that does not exist yet
    /// and a link from outside into it are inside it, each named by the
    /// package's resolved path. Near miss: a sibling directory, a link to
    /// it and a directory that does not exist outside every package are not.
    #[cfg(unix)]
    #[test]
    fn a_path_inside_a_package_names_the_package() {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("pkg");
        std::fs::create_dir_all(pkg.join("fixtures")).unwrap();
        std::fs::write(pkg.join(INDEX_FILE), "{}").unwrap();
        let sibling = dir.path().join("sibling");
        std::fs::create_dir(&sibling).unwrap();
        std::os::unix::fs::symlink(pkg.join("fixtures"), dir.path().join("in")).unwrap();
        std::os::unix::fs::symlink(&sibling, dir.path().join("out")).unwrap();
        let real = std::fs::canonicalize(&pkg).unwrap();
        for inside in [
            pkg.clone(),
            pkg.join("fixtures/not/yet"),
            dir.path().join("in/new"),
        ] {
            assert_eq!(inside_package(&inside), Some(real.clone()), "{inside:?}");
        }
        for outside in [
            sibling.clone(),
            dir.path().join("out/new"),
            dir.path().join("none/yet"),
        ] {
            assert_eq!(inside_package(&outside), None, "{outside:?}");
        }
    }
}

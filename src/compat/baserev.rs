//! `compat --baseline-rev REV PATH...` (issue 35 item 3; breaker F3): BASE is
//! every package of the whole tree at the git revision REV of the repository
//! the PATHs live in, read from git's objects without a checkout, a
//! worktree or a file written: each package's files are held in memory
//! ([`crate::source::MemorySource`]) and verified as `verify` verifies a
//! directory, named `REV:PATH/…` in every finding (the PATH as given).
//!
//! The objects are read by the `git` command (`git rev-parse`, `git ls-tree`,
//! `git cat-file --batch`), not by a crate: it is on every machine that
//! holds a clone (CI checkouts included), it reads every repository format
//! git writes (shallow, partial, alternates, packs, `extensions.*`), and it
//! says itself why a revision is missing; the git crates that read all of
//! that (`gix`) add hundreds of crates to a build this project keeps small
//! (the `search` tool found no lighter reader of packs and shallow clones).
//! Only the repository's own `.git` is read (breaker4 C1): git runs with
//! `safe.bareRepository=explicit`, so a directory a PR commits as plain
//! files that git would take for a bare repository (`HEAD`, `objects/`,
//! `refs/`, `config`) is refused (exit 2), never read as BASE; replace refs
//! are ignored (`GIT_NO_REPLACE_OBJECTS=1`); and every PATH of a run must
//! lie in one repository.
//!
//! No network: lazy fetches of a partial clone are turned off
//! (`GIT_NO_LAZY_FETCH=1`) and nothing is fetched; a revision the clone
//! lacks is exit 2 with the command that fetches it.
//!
//! The walk is `verify`'s over the tree at REV: a directory holding a
//! `package-index.json` is a package (nothing below it is searched), a
//! hidden directory below a PATH is skipped. A package at REV holding a
//! symbolic link or an executable file is one `verify` refuses on disk
//! (FD004, FD006): it is verified with those entries as the disk shows
//! them, so it is refused with the same findings and keeps its place in
//! BASE's version line (breaker F2: a published version is never dropped);
//! a submodule is the directory a checkout leaves; a file over the payload
//! limit, or past the total limit, is inventoried and not read.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::discover::SkipRule;
use crate::error::Error;
use crate::limits::{PAYLOAD_BYTES, TOTAL_BYTES};
use crate::source::OddEntry;
use crate::verify::INDEX_FILE;

/// One package of BASE at REV: its name in reports (`REV:PATH/…`) and its
/// files, or why it is refused without being read.
#[derive(Debug)]
pub struct RevPackage {
    /// `REV:<the package's directory, reached from the first PATH of its
    /// repository as given>`.
    pub display: PathBuf,
    /// That directory in the working tree (the same path, without `REV:`).
    pub here: PathBuf,
    /// Package path → bytes of every file read.
    pub files: BTreeMap<String, Vec<u8>>,
    /// The entries that are no plain file (an executable file, its bytes
    /// in `files`; a symbolic link; a file not read), shown to `verify` as
    /// the disk shows them.
    pub odd: Vec<(String, OddEntry)>,
}

impl RevPackage {
    /// The package as a source `verify` reads.
    pub fn source(self) -> crate::source::MemorySource {
        self.odd.into_iter().fold(
            crate::source::MemorySource::new(self.display, self.files),
            |s, (rel, kind)| s.with_entry(&rel, kind),
        )
    }
}

/// What a git command said: its stdout, or its stderr when it failed.
fn git(
    dir: &Path,
    args: &[&str],
    input: Option<Vec<u8>>,
) -> Result<Result<Vec<u8>, String>, Error> {
    let mut cmd = Command::new("git");
    // Breaker4 C1: BASE is read only from the repository's own `.git`. A
    // directory a PR commits as plain files (`HEAD`, `objects/`, `refs/`,
    // `config`) is what git's discovery takes for a bare repository before
    // it looks further up: `safe.bareRepository=explicit` refuses it (the
    // run exits 2), and no replace ref (`refs/replace/`, planted or local)
    // may swap the commit REV names for another (`GIT_NO_REPLACE_OBJECTS`).
    cmd.args(["-c", "safe.bareRepository=explicit"])
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_NO_REPLACE_OBJECTS", "1")
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| {
        Error::Usage(format!(
            "--baseline-rev reads BASE with the git command, which could not be run ({e}): install git, or check BASE out and pass --baseline BASE"
        ))
    })?;
    // stdin is written by its own thread so that a large answer on stdout
    // never blocks the writer.
    let writer = match (input, child.stdin.take()) {
        (Some(bytes), Some(mut stdin)) => Some(std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        })),
        _ => None,
    };
    // Both pipes are drained together by the standard library (no deadlock
    // on a large answer); no file is read here.
    let output = child
        .wait_with_output()
        .map_err(|e| Error::Internal(format!("git {}: {e}", args.join(" "))))?;
    if let Some(w) = writer {
        let _ = w.join();
    }
    let (status, out, err) = (output.status, output.stdout, output.stderr);
    Ok(if status.success() {
        Ok(out)
    } else {
        Err(String::from_utf8_lossy(&err).trim().to_owned())
    })
}

/// One line of text from git's answer, without its newline.
fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .trim_end_matches('\n')
        .to_owned()
}

/// The repository a PATH lives in: its top directory (as git prints it),
/// and PATH's path relative to it (`""` at the top, `/`-separated).
fn repository_of(path: &Path, rev: &str) -> Result<(PathBuf, String), Error> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| {
        Error::Usage(format!(
            "--baseline-rev {rev}: PATH {} does not exist ({e})",
            path.display()
        ))
    })?;
    let (dir, leaf) = if meta.is_dir() {
        (path.to_path_buf(), None)
    } else {
        let parent = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        (parent.to_path_buf(), path.file_name())
    };
    let answer = git(
        &dir,
        &["rev-parse", "--show-toplevel", "--show-prefix"],
        None,
    )?;
    let out = answer.map_err(|why| {
        if why.contains("safe.bareRepository") {
            return Error::Usage(format!(
                "--baseline-rev {rev}: {} lies in a directory git reads as a bare repository ({why}): compat reads BASE only from the repository's own .git, never from files a tree holds (HEAD, objects/, refs/ committed as plain files); remove them, or check BASE out and pass --baseline BASE",
                path.display()
            ));
        }
        Error::Usage(format!(
            "--baseline-rev {rev}: {} is not in a git repository ({why}): run compat inside a clone of the repository, or check BASE out and pass --baseline BASE",
            path.display()
        ))
    })?;
    let out = text(&out);
    let mut lines = out.lines();
    let top = PathBuf::from(lines.next().unwrap_or_default());
    let mut prefix = lines
        .next()
        .unwrap_or_default()
        .trim_end_matches('/')
        .to_owned();
    if let Some(leaf) = leaf {
        if !prefix.is_empty() {
            prefix.push('/');
        }
        prefix.push_str(&leaf.to_string_lossy());
    }
    Ok((top, prefix))
}

/// The commit REV names in the repository `top`, or why it names none:
/// no such revision, or a shallow clone that lacks it, each with the
/// command that fetches it (nothing is fetched here).
fn commit_of(top: &Path, given: &Path, rev: &str) -> Result<String, Error> {
    let spec = format!("{rev}^{{commit}}");
    if let Ok(out) = git(
        top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ],
        None,
    )? {
        return Ok(text(&out));
    }
    let shallow = git(top, &["rev-parse", "--is-shallow-repository"], None)?
        .map(|o| text(&o) == "true")
        .unwrap_or(false);
    Err(Error::Usage(if shallow {
        format!(
            "--baseline-rev {rev}: the revision is not in this shallow clone (the repository of {}; its history was cut): fetch it with `git fetch --deepen=<N>` (or `git fetch origin {rev}`), or clone with the full history (actions/checkout: `fetch-depth: 0`); nothing is fetched by compat",
            given.display()
        )
    } else {
        format!(
            "--baseline-rev {rev}: unknown revision in the repository of {}: fetch it with `git fetch origin {rev}` (a branch of a remote is named `origin/<branch>`); nothing is fetched by compat",
            given.display()
        )
    }))
}

/// One entry of `git ls-tree -r -l -z`.
struct TreeEntry {
    mode: String,
    kind: String,
    oid: String,
    size: Option<u64>,
    path: String,
}

/// Every entry below `prefix` in the tree of `commit`.
fn entries(top: &Path, commit: &str, prefix: &str) -> Result<Vec<TreeEntry>, Error> {
    let mut args = vec!["ls-tree", "-r", "-l", "-z", "--full-tree", commit];
    let spec = format!(":(literal){prefix}");
    if !prefix.is_empty() {
        args.extend(["--", &spec]);
    }
    let out = git(top, &args, None)?
        .map_err(|why| Error::Internal(format!("git ls-tree {commit}: {why}")))?;
    let mut list = Vec::new();
    for record in out.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let record = String::from_utf8_lossy(record);
        let Some((head, path)) = record.split_once('\t') else {
            continue;
        };
        let mut fields = head.split_whitespace();
        let (Some(mode), Some(kind), Some(oid), size) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        list.push(TreeEntry {
            mode: mode.to_owned(),
            kind: kind.to_owned(),
            oid: oid.to_owned(),
            size: size.and_then(|s| s.parse().ok()),
            path: path.to_owned(),
        });
    }
    Ok(list)
}

/// The bytes of each blob of `oids`, in order (`git cat-file --batch`).
fn blobs(top: &Path, oids: &[&str]) -> Result<Vec<Vec<u8>>, Error> {
    if oids.is_empty() {
        return Ok(Vec::new());
    }
    let input: Vec<u8> = oids
        .iter()
        .flat_map(|o| format!("{o}\n").into_bytes())
        .collect();
    let out = git(top, &["cat-file", "--batch"], Some(input))?
        .map_err(|why| Error::Internal(format!("git cat-file --batch: {why}")))?;
    let mut rest = out.as_slice();
    let mut all = Vec::with_capacity(oids.len());
    for oid in oids {
        let end = rest
            .iter()
            .position(|b| *b == b'\n')
            .ok_or_else(|| Error::Internal(format!("git cat-file: no header for {oid}")))?;
        let header = String::from_utf8_lossy(rest.get(..end).unwrap_or_default()).into_owned();
        let size: usize = header
            .split(' ')
            .nth(2)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| {
                Error::Usage(format!(
                    "--baseline-rev: the object {oid} could not be read ({header}): a partial clone lacks it and compat fetches nothing; run `git fetch` to complete the clone"
                ))
            })?;
        let body = rest
            .get(end + 1..end + 1 + size)
            .ok_or_else(|| Error::Internal(format!("git cat-file: {oid} cut short")))?;
        all.push(body.to_vec());
        rest = rest.get(end + 2 + size..).unwrap_or_default();
    }
    Ok(all)
}

/// The repository's top directory as reached from `given`, a PATH whose
/// path in the repository is `prefix`: `given` less the trailing
/// components that spell `prefix` (`packages/store-1.0.1` with that prefix
/// → ``), else `given` with one `..` per component of `prefix`.
fn top_as_given(given: &Path, prefix: &str) -> PathBuf {
    let depth = prefix.split('/').filter(|c| !c.is_empty()).count();
    let mut left = given.to_path_buf();
    for c in prefix.split('/').filter(|c| !c.is_empty()).rev() {
        if left.file_name().is_some_and(|n| n == c) {
            left.pop();
        } else {
            return (0..depth).fold(given.to_path_buf(), |p, _| p.join(".."));
        }
    }
    left
}

/// What the walk of the tree at REV found ([`packages_at`]).
#[derive(Debug, Default)]
pub struct AtRev {
    /// Every package the walk reads, in path order.
    pub packages: Vec<RevPackage>,
    /// Every package the walk skips, in path order: its name (`REV:…`),
    /// the directory that hides it (`REV:…`) and why: `hidden` (below a
    /// hidden directory, as the walk of a checkout skips it), `nested`
    /// (inside another package, whose files the walk does not search;
    /// breaker4 H5) or `submodule` (a gitlink: another repository's
    /// objects, never read; the package is the submodule's directory;
    /// breaker4 H1). compat reports each (`FD683`, breaker2 G1: a package
    /// the gate does not see can still be published). A `.gitignore` skips
    /// nothing at REV: git publishes what it tracks.
    pub skipped: Vec<(PathBuf, PathBuf, SkipRule)>,
}

/// Every package at `rev` in the whole tree of each repository a PATH
/// lives in (breaker F3, the lead's decision: the published line of a kind
/// is looked up in the whole repository at REV, so `--baseline-rev HEAD
/// packages/store-1.0.1` finds `packages/store-1.0.0`; the PATHs only
/// select which working-tree packages are the PR's), in path order. A
/// hidden directory is skipped, except on the way to a PATH and below it
/// up to the next hidden one, as `verify`'s walk of that PATH skips them;
/// each package it holds is listed in [`AtRev::skipped`].
///
/// # Errors
/// [`Error::Usage`] (exit 2) when a PATH does not exist, is in no git
/// repository, or REV names no commit there (unknown, or a shallow clone
/// lacks it: the message says how to fetch it), or git cannot be run.
pub fn packages_at(rev: &str, paths: &[PathBuf]) -> Result<AtRev, Error> {
    // (repository top, commit) → (the top as the first PATH reaches it, the
    // PATHs' prefixes in the repository).
    let mut repos: BTreeMap<(PathBuf, String), (PathBuf, Vec<String>)> = BTreeMap::new();
    let mut first_top: Option<(PathBuf, &PathBuf)> = None;
    for given in paths {
        let (top, prefix) = repository_of(given, rev)?;
        // One run, one repository (breaker4 C1: BASE was the union of two
        // repositories' trees when one PATH reached another repository).
        match &first_top {
            None => first_top = Some((top.clone(), given)),
            Some((t, first)) if *t != top => {
                return Err(Error::Usage(format!(
                    "--baseline-rev {rev}: the PATHs lie in different git repositories ({} in {}, {} in {}): BASE is read from one repository; run compat once per repository",
                    first.display(),
                    t.display(),
                    given.display(),
                    top.display()
                )))
            }
            Some(_) => {}
        }
        let commit = commit_of(&top, given, rev)?;
        repos
            .entry((top, commit))
            .or_insert_with(|| (top_as_given(given, &prefix), Vec::new()))
            .1
            .push(prefix);
    }
    let mut all = Vec::new();
    let mut skipped = Vec::new();
    for ((top, commit), (named_top, prefixes)) in repos {
        let hidden_dir = |dirs: &[&str]| dirs.iter().any(|d| d.starts_with('.'));
        let shown = |p: &str| -> bool {
            let dirs: Vec<&str> = p.split('/').collect();
            let dirs = dirs.get(..dirs.len().saturating_sub(1)).unwrap_or_default();
            !hidden_dir(dirs)
                || prefixes.iter().any(|prefix| {
                    let n = prefix.split('/').filter(|c| !c.is_empty()).count();
                    let below =
                        prefix.is_empty() || p == prefix || p.starts_with(&format!("{prefix}/"));
                    below && !hidden_dir(dirs.get(n..).unwrap_or_default())
                })
        };
        // (path in the repository, entry): every entry, a package's own
        // hidden files included (its inventory meets them on disk).
        let listed: Vec<(String, TreeEntry)> = entries(&top, &commit, "")?
            .into_iter()
            .map(|e| (e.path.clone(), e))
            .collect();
        // Package roots: directories holding an index, none inside another,
        // none reached through a hidden directory the walk skips (those are
        // kept apart, `hidden`: the packages the walk skips).
        let mut roots: Vec<(bool, String)> = listed
            .iter()
            .filter_map(|(b, _)| match b.rsplit_once('/') {
                Some((dir, INDEX_FILE)) => Some((shown(b), dir.to_owned())),
                None if b == INDEX_FILE => Some((true, String::new())),
                _ => None,
            })
            .collect();
        roots.sort_by(|a, b| a.1.cmp(&b.1));
        let mut kept: Vec<String> = Vec::new();
        let mut hidden: Vec<String> = Vec::new();
        // (nested package, the package it is in).
        let mut nested: Vec<(String, String)> = Vec::new();
        for (seen, r) in roots {
            let inside = |k: &&String| k.is_empty() || r.starts_with(&format!("{k}/"));
            if let Some(outer) = kept.iter().find(inside) {
                if seen {
                    nested.push((r.clone(), outer.clone()));
                }
                continue;
            }
            if seen {
                kept.push(r);
            } else if !hidden.iter().any(|k| inside(&k)) {
                hidden.push(r);
            }
        }
        let named_at = |dir: &str| {
            let named = if dir.is_empty() {
                named_top.clone()
            } else {
                named_top.join(dir)
            };
            let named = if named.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                named
            };
            (PathBuf::from(format!("{rev}:{}", named.display())), named)
        };
        for root in hidden {
            // The hidden directory that skips it: the shortest one whose
            // contents the walk does not show.
            let parts: Vec<&str> = root.split('/').collect();
            let dir = (1..=parts.len())
                .map(|n| parts.get(..n).unwrap_or_default().join("/"))
                .find(|d| !shown(&format!("{d}/{INDEX_FILE}")))
                .unwrap_or_else(|| root.clone());
            skipped.push((named_at(&root).0, named_at(&dir).0, SkipRule::Hidden));
        }
        for (root, outer) in nested {
            skipped.push((named_at(&root).0, named_at(&outer).0, SkipRule::Nested));
        }
        // A submodule's packages are another repository's objects: never
        // read at REV, so never silently empty (breaker4 H1).
        for (path, e) in &listed {
            if e.mode == "160000" && shown(&format!("{path}/{INDEX_FILE}")) {
                skipped.push((named_at(path).0, named_at(path).0, SkipRule::Submodule));
            }
        }
        for root in kept {
            let inside = |b: &str| -> Option<String> {
                if root.is_empty() {
                    Some(b.to_owned())
                } else {
                    b.strip_prefix(&format!("{root}/")).map(str::to_owned)
                }
            };
            let files: Vec<(String, &TreeEntry)> = listed
                .iter()
                .filter_map(|(b, e)| inside(b).map(|rel| (rel, e)))
                .collect();
            let (display, named) = named_at(&root);
            // Each entry as `verify` would meet it in a checkout (breaker
            // F2: a package at REV holding a link or an executable file is
            // refused as on disk and keeps its place in BASE's line, never
            // dropped): a symbolic link is an entry never followed, an
            // executable file is read with its mode, a submodule is the
            // directory a checkout leaves (not an entry), a file over the
            // payload limit, or past the total limit in path order, is
            // inventoried and not read.
            let mut odd = Vec::new();
            let mut read = Vec::new();
            let mut total = 0u64;
            for (rel, e) in files {
                match (e.mode.as_str(), e.kind.as_str()) {
                    ("120000", _) => odd.push((rel, OddEntry::Symlink)),
                    ("160000", _) | (_, "commit") => {}
                    (mode, "blob") => {
                        let size = e.size.unwrap_or_default();
                        total = total.saturating_add(size);
                        if size > PAYLOAD_BYTES || total > TOTAL_BYTES {
                            let why = format!(
                                "not read from {rev}: the package there is over {TOTAL_BYTES} bytes or this file over {PAYLOAD_BYTES}"
                            );
                            odd.push((rel, OddEntry::Unread { size, why }));
                        } else {
                            if mode == "100755" {
                                odd.push((rel.clone(), OddEntry::Executable));
                            }
                            read.push((rel, e.oid.as_str()));
                        }
                    }
                    _ => {}
                }
            }
            let oids: Vec<&str> = read.iter().map(|(_, oid)| *oid).collect();
            let bytes = blobs(&top, &oids)?;
            let files = read.into_iter().map(|(rel, _)| rel).zip(bytes).collect();
            all.push(RevPackage {
                display,
                here: named,
                files,
                odd,
            });
        }
    }
    all.sort_by(|a, b| a.display.cmp(&b.display));
    skipped.sort();
    Ok(AtRev {
        packages: all,
        skipped,
    })
}

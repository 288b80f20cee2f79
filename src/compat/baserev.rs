//! `compat --baseline-rev REV PATH...` (issue 35 item 3): BASE is the
//! packages under the same PATHs at the git revision REV of the repository
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
//! No network: lazy fetches of a partial clone are turned off
//! (`GIT_NO_LAZY_FETCH=1`) and nothing is fetched; a revision the clone
//! lacks is exit 2 with the command that fetches it.
//!
//! The walk is `verify`'s over the tree at REV: a directory holding a
//! `package-index.json` is a package (nothing below it is searched), a
//! hidden directory below a PATH is skipped. A package at REV holding a
//! symbolic link, a submodule or an executable file is one `verify` refuses
//! on disk (FD004, FD006): it is counted as a refused package of BASE and
//! never used as a baseline, as is one over the size or file-count limits
//! (never read).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::Error;
use crate::limits::{FILES, PAYLOAD_BYTES, TOTAL_BYTES};
use crate::verify::INDEX_FILE;

/// One package of BASE at REV: its name in reports (`REV:PATH/…`) and its
/// files, or why it is refused without being read.
#[derive(Debug)]
pub struct RevPackage {
    /// `REV:<PATH as given>/<directory below it>`.
    pub display: PathBuf,
    /// Package path → bytes; `Err`: why the package is refused unread (a
    /// link, a submodule, an executable file, over a limit).
    pub files: Result<BTreeMap<String, Vec<u8>>, String>,
}

/// What a git command said: its stdout, or its stderr when it failed.
fn git(
    dir: &Path,
    args: &[&str],
    input: Option<Vec<u8>>,
) -> Result<Result<Vec<u8>, String>, Error> {
    let mut cmd = Command::new("git");
    cmd.arg("-C")
        .arg(dir)
        .args(args)
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

/// Every package under `paths` at `rev` (the repository each PATH lives
/// in), in path order.
///
/// # Errors
/// [`Error::Usage`] (exit 2) when a PATH does not exist, is in no git
/// repository, or REV names no commit there (unknown, or a shallow clone
/// lacks it: the message says how to fetch it), or git cannot be run.
pub fn packages_at(rev: &str, paths: &[PathBuf]) -> Result<Vec<RevPackage>, Error> {
    let mut all = Vec::new();
    for given in paths {
        let (top, prefix) = repository_of(given, rev)?;
        let commit = commit_of(&top, given, rev)?;
        let below = |p: &str| -> Option<String> {
            if prefix.is_empty() {
                Some(p.to_owned())
            } else if p == prefix {
                Some(String::new())
            } else {
                p.strip_prefix(&format!("{prefix}/")).map(str::to_owned)
            }
        };
        // (path below PATH, entry), hidden directories below PATH skipped.
        let listed: Vec<(String, TreeEntry)> = entries(&top, &commit, &prefix)?
            .into_iter()
            .filter_map(|e| below(&e.path).map(|b| (b, e)))
            .filter(|(b, _)| {
                let dirs: Vec<&str> = b.split('/').collect();
                let n = dirs.len().saturating_sub(1);
                !dirs.iter().take(n).any(|d| d.starts_with('.'))
            })
            .collect();
        // Package roots: directories holding an index, none inside another.
        let mut roots: Vec<String> = listed
            .iter()
            .filter_map(|(b, _)| match b.rsplit_once('/') {
                Some((dir, INDEX_FILE)) => Some(dir.to_owned()),
                None if b == INDEX_FILE => Some(String::new()),
                _ => None,
            })
            .collect();
        roots.sort();
        let mut kept: Vec<String> = Vec::new();
        for r in roots {
            if !kept
                .iter()
                .any(|k| k.is_empty() || r.starts_with(&format!("{k}/")))
            {
                kept.push(r);
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
            let display = PathBuf::from(format!(
                "{rev}:{}",
                if root.is_empty() {
                    given.clone()
                } else {
                    given.join(&root)
                }
                .display()
            ));
            let total: u64 = files.iter().filter_map(|(_, e)| e.size).sum();
            let refusal = files
                .iter()
                .find_map(|(rel, e)| match (e.mode.as_str(), e.kind.as_str()) {
                    ("120000", _) => Some(format!("{rel} is a symbolic link")),
                    ("160000", _) | (_, "commit") => Some(format!("{rel} is a submodule")),
                    ("100755", _) => Some(format!("{rel} is executable")),
                    (_, "blob") if e.size.is_some_and(|s| s > PAYLOAD_BYTES) => {
                        Some(format!("{rel} is over {PAYLOAD_BYTES} bytes"))
                    }
                    (_, "blob") => None,
                    _ => Some(format!("{rel} is no file")),
                })
                .or_else(|| (files.len() > FILES).then(|| format!("over {FILES} files")))
                .or_else(|| (total > TOTAL_BYTES).then(|| format!("over {TOTAL_BYTES} bytes")));
            let files = match refusal {
                Some(why) => Err(why),
                None => {
                    let oids: Vec<&str> = files.iter().map(|(_, e)| e.oid.as_str()).collect();
                    let bytes = blobs(&top, &oids)?;
                    Ok(files.into_iter().map(|(rel, _)| rel).zip(bytes).collect())
                }
            };
            all.push(RevPackage { display, files });
        }
    }
    all.sort_by(|a, b| a.display.cmp(&b.display));
    Ok(all)
}

//! `trust verify-set` (issue 39 item 4): a published trust set
//! (`forms/trust/sets/<commit>/` of a publisher's repository, as
//! `shared/corpus/trust/README.md` describes it) verified offline as a
//! whole, every failure a finding of the part of the set it concerns.
//!
//! The layout, and what is checked of each part:
//! - `publisher-policy.json`, `trusted-root.json` (each optional): byte for
//!   byte the pinned `--policy` and `--trusted-root` (`FD787`);
//! - `packages/<releaseId>/sha256-<digest>/package-index.sigstore.json`
//!   (at least one): the folder pair is a Form Package tag
//!   `forms/<releaseId>/sha256-<digest>` by the locator's grammar
//!   ([`crate::host::locator::parse_tag`]: its codes), and the bundle
//!   verifies ([`verify_bundle`]) with the folder's digest as the signed,
//!   prehashed subject, or, when the package is at hand ([`AtHand`]), over
//!   its RFC 8785 package index itself;
//! - `revocations/checkpoint.json` with `checkpoint.sigstore.json`: the
//!   signed checkpoint ([`verify_signed_checkpoint`]), advanced from no pin
//!   (it must be the genesis) or, with a replay directory, from the pin the
//!   replay ends at (the set's checkpoint may be that very one);
//! - nothing else: no other entry, no symbolic link (`FD788`).
//!
//! A replay directory holds signed checkpoints as `<name>.json` beside
//! `<name>.sigstore.json`; they are replayed in sequence order from no pin
//! (so from the genesis) with the one pin model
//! ([`crate::revocation::advance`]), each a part of its own.
//!
//! The checks themselves are the ones every `trust` command runs (one
//! [`TrustError`] per bundle or checkpoint, its code kept); this module
//! only walks the set and places their refusals.

use std::path::{Path, PathBuf};

use super::policy::PublisherPolicy;
use super::revocation::{verify_signed_checkpoint, Pin};
use super::verify::{verify_bundle, Subject};
use super::TrustError;
use crate::canonical::sha256_digest;
use crate::codes::Code;
use crate::diag::escape::quote;
use crate::diag::Diagnostic;
use crate::fileread::{read_file, Reach};
use crate::limits::JSON_BYTES;

/// The set's own copy of the publisher policy.
pub const POLICY_FILE: &str = "publisher-policy.json";
/// The set's own copy of the trusted root.
pub const ROOT_FILE: &str = "trusted-root.json";
/// The folder of package bundles.
pub const PACKAGES_DIR: &str = "packages";
/// The folder of the signed revocation checkpoint.
pub const REVOCATIONS_DIR: &str = "revocations";
/// The bundle of one package folder.
pub const BUNDLE_FILE: &str = "package-index.sigstore.json";
/// The signed checkpoint.
pub const CHECKPOINT_FILE: &str = "checkpoint.json";
/// Its bundle.
pub const CHECKPOINT_BUNDLE_FILE: &str = "checkpoint.sigstore.json";
/// A bundle's suffix (a replay directory's `<name>.sigstore.json`).
const BUNDLE_SUFFIX: &str = ".sigstore.json";

/// The pinned trust inputs, read and parsed by the caller.
#[derive(Clone, Copy, Debug)]
pub struct Pinned<'a> {
    /// The trusted root's bytes.
    pub root: &'a [u8],
    /// The publisher policy's bytes (compared with the set's copy).
    pub policy_bytes: &'a [u8],
    /// The publisher policy, parsed.
    pub policy: &'a PublisherPolicy,
}

/// A verified Form Package at hand (`--package`): what places it in a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtHand {
    /// Its directory as given.
    pub path: String,
    /// Its package digest, `sha256:<hex>`.
    pub package_digest: String,
    /// Its release id (`k-…`, from its locator).
    pub release_id: String,
    /// Its package index in RFC 8785 form: the bytes the publisher signs.
    pub canonical_index: Vec<u8>,
}

/// What a [`Part`] of the set is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// The set folder itself: its layout, its policy and root copies.
    Set,
    /// A `packages/<releaseId>/sha256-<digest>/` folder and its bundle.
    Bundle,
    /// `revocations/`: the set's signed checkpoint.
    Checkpoint,
    /// One checkpoint of the replay directory.
    Replayed,
}

/// One part of the set and what was found about it.
#[derive(Clone, Debug)]
pub struct Part {
    /// What it is.
    pub kind: PartKind,
    /// Its folder (or, for a replayed checkpoint, the replay directory) as
    /// a path under the DIR given: the entry's path in a report.
    pub path: PathBuf,
    /// Its name in a report when it is not `path` (a replayed
    /// checkpoint: `<replay dir>/<name>.json`).
    pub name: Option<PathBuf>,
    /// Its findings, each file relative to `path`.
    pub findings: Vec<Diagnostic>,
}

impl Part {
    fn new(kind: PartKind, path: PathBuf) -> Self {
        Part {
            kind,
            path,
            name: None,
            findings: Vec::new(),
        }
    }
}

/// What [`verify_set`] found.
#[derive(Clone, Debug, Default)]
pub struct SetOutcome {
    /// Every part, in the order walked (the set first).
    pub parts: Vec<Part>,
    /// Per package at hand (in the order given), the findings that place
    /// it (`FD789`), empty when its folder is in the set.
    pub packages: Vec<Vec<Diagnostic>>,
    /// The set (or the replay) directory itself could not be read: the
    /// command could not run.
    pub could_not_read: bool,
}

/// A directory entry: its name and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Is {
    File,
    Dir,
    Link,
    Other,
}

impl Is {
    fn what(self) -> &'static str {
        match self {
            Is::File => "a file",
            Is::Dir => "a directory",
            Is::Link => "a symbolic link",
            Is::Other => "a special file",
        }
    }
}

/// The entries of `dir`, sorted by name (a link is never followed).
fn list(dir: &Path) -> std::io::Result<Vec<(String, Is)>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let t = std::fs::symlink_metadata(e.path())?.file_type();
        let is = if t.is_symlink() {
            Is::Link
        } else if t.is_dir() {
            Is::Dir
        } else if t.is_file() {
            Is::File
        } else {
            Is::Other
        };
        out.push((e.file_name().to_string_lossy().into_owned(), is));
    }
    out.sort();
    Ok(out)
}

/// `FD788` for an entry the layout has no place for.
fn unexpected(rel: &str, is: Is, place: &str) -> Diagnostic {
    Diagnostic::new(
        Code::TrustSetEntryInvalid,
        format!("{} is {}: {place}", quote(rel), is.what()),
    )
    .in_file(rel.to_owned())
}

/// `FD788` for an entry the layout needs and the set lacks.
fn missing(rel: &str, why: &str) -> Diagnostic {
    Diagnostic::new(
        Code::TrustSetEntryInvalid,
        format!("{} is missing: {why}", quote(rel)),
    )
    .in_file(rel.to_owned())
}

/// A check's refusal as the finding of `file`, its class in a note.
fn refusal(e: &TrustError, file: &str) -> Diagnostic {
    Diagnostic::new(e.code, e.message.clone())
        .in_file(file.to_owned())
        .note(format!("the Core's error class: {}", e.class.as_str()))
}

/// Reads a file found in the set (a link is refused, not followed).
fn read(path: &Path, rel: &str) -> Result<Vec<u8>, Box<Diagnostic>> {
    read_file(path, Reach::Found, JSON_BYTES).map_err(|e| {
        Box::new(
            Diagnostic::new(Code::TrustInputError, format!("read {}: {e}", quote(rel)))
                .in_file(rel.to_owned()),
        )
    })
}

/// Verifies the trust set at `dir` against `pinned`; `at_hand`: the
/// verified packages given, `replay`: the replay directory (see the
/// module docs).
pub fn verify_set(
    dir: &Path,
    pinned: Pinned<'_>,
    at_hand: &[AtHand],
    replay: Option<&Path>,
) -> SetOutcome {
    let mut out = SetOutcome {
        packages: vec![Vec::new(); at_hand.len()],
        ..SetOutcome::default()
    };
    let mut set = Part::new(PartKind::Set, dir.to_path_buf());
    let entries = match list(dir) {
        Ok(e) => e,
        Err(e) => {
            out.could_not_read = true;
            set.findings.push(Diagnostic::new(
                Code::TrustInputError,
                format!("read trust set {}: {e}", quote(&dir.display().to_string())),
            ));
            out.parts.push(set);
            return out;
        }
    };
    let (mut packages, mut revocations) = (false, false);
    let mut named_packages = false;
    let mut bundles = Vec::new();
    let mut checkpoint = None;
    for (name, is) in entries {
        let path = dir.join(&name);
        match (name.as_str(), is) {
            (POLICY_FILE, Is::File) => compare(
                &mut set,
                &path,
                POLICY_FILE,
                pinned.policy_bytes,
                "--policy",
            ),
            (ROOT_FILE, Is::File) => {
                compare(&mut set, &path, ROOT_FILE, pinned.root, "--trusted-root");
            }
            (PACKAGES_DIR, Is::Dir) => {
                packages = true;
                walk_packages(&path, &mut set, &mut bundles);
            }
            (REVOCATIONS_DIR, Is::Dir) => {
                revocations = true;
                checkpoint = Some(revocations_part(&path));
            }
            _ => {
                // `packages` or `revocations` of the wrong type is that one
                // finding, not also a missing folder.
                named_packages |= name == PACKAGES_DIR;
                revocations |= name == REVOCATIONS_DIR;
                set.findings.push(unexpected(
                    &name,
                    is,
                    "a trust set holds publisher-policy.json, trusted-root.json, packages/ and revocations/ only",
                ));
            }
        }
    }
    if !packages && !named_packages {
        set.findings.push(missing(
            PACKAGES_DIR,
            "the set signs no package (packages/<releaseId>/sha256-<digest>/package-index.sigstore.json)",
        ));
    } else if packages && bundles.is_empty() {
        set.findings.push(missing(
            &format!("{PACKAGES_DIR}/<releaseId>/sha256-<digest>"),
            "packages/ holds no package folder",
        ));
    }
    if !revocations {
        set.findings.push(missing(
            REVOCATIONS_DIR,
            "the set carries no signed revocation checkpoint (revocations/checkpoint.json and checkpoint.sigstore.json)",
        ));
    }
    out.parts.push(set);
    // The packages at hand: each placed in its own folder, or refused.
    let mut subjects: Vec<Option<usize>> = vec![None; bundles.len()];
    for (i, p) in at_hand.iter().enumerate() {
        let hex = p.package_digest.strip_prefix("sha256:").unwrap_or("");
        let artifact = format!("sha256-{hex}");
        match bundles
            .iter()
            .position(|b: &Folder| b.release_id == p.release_id && b.artifact == artifact)
        {
            Some(b) => {
                if let Some(slot) = subjects.get_mut(b) {
                    *slot = Some(i);
                }
            }
            None => {
                let elsewhere: Vec<String> = bundles
                    .iter()
                    .filter(|b| b.artifact == artifact)
                    .map(|b| quote(&b.release_id))
                    .collect();
                let message = if elsewhere.is_empty() {
                    format!(
                        "the trust set signs no folder {} for the package digest {}",
                        quote(&format!("{PACKAGES_DIR}/{}/{artifact}", p.release_id)),
                        p.package_digest
                    )
                } else {
                    format!(
                        "the trust set signs the package digest {} under the release id {}, not under the package's own {}",
                        p.package_digest,
                        elsewhere.join(", "),
                        quote(&p.release_id)
                    )
                };
                if let Some(slot) = out.packages.get_mut(i) {
                    slot.push(Diagnostic::new(Code::TrustSetPackageMismatch, message));
                }
            }
        }
    }
    for (b, subject) in bundles.into_iter().zip(subjects) {
        out.parts.push(verify_folder(
            b,
            subject.and_then(|i| at_hand.get(i)),
            pinned,
        ));
    }
    // The replay, then the set's checkpoint from where it ends.
    let mut pin = None;
    if let Some(r) = replay {
        match replay_parts(r, pinned) {
            Ok((parts, last)) => {
                out.parts.extend(parts);
                pin = last;
            }
            Err(d) => {
                out.could_not_read = true;
                let mut part = Part::new(PartKind::Replayed, r.to_path_buf());
                part.findings.push(*d);
                out.parts.push(part);
            }
        }
    }
    if let Some(c) = checkpoint {
        out.parts
            .push(verify_checkpoint(c, pinned, pin.as_ref(), replay.is_some()));
    }
    out
}

/// `FD787` unless the set's `rel` is byte for byte `pinned` (`flag`).
fn compare(set: &mut Part, path: &Path, rel: &str, pinned: &[u8], flag: &str) {
    match read(path, rel) {
        Err(d) => set.findings.push(*d),
        Ok(bytes) if bytes == pinned => {}
        Ok(bytes) => set.findings.push(
            Diagnostic::new(
                Code::TrustSetPinMismatch,
                format!("the set's {rel} is not byte for byte the {flag} file pinned"),
            )
            .in_file(rel.to_owned())
            .note(format!(
                "the set's is {}, the pinned one {} (SHA-256 of the raw bytes)",
                sha256_digest(&bytes),
                sha256_digest(pinned)
            )),
        ),
    }
}

/// A package folder found: `packages/<release_id>/<artifact>`.
#[derive(Clone, Debug)]
struct Folder {
    release_id: String,
    artifact: String,
    /// The folder.
    path: PathBuf,
    /// Findings of its layout (entries it should not hold, a missing bundle).
    findings: Vec<Diagnostic>,
    /// The bundle file, when it is there.
    bundle: Option<PathBuf>,
}

/// Walks `packages/`: release-id folders of digest folders.
fn walk_packages(packages: &Path, set: &mut Part, bundles: &mut Vec<Folder>) {
    let releases = match list(packages) {
        Ok(r) => r,
        Err(e) => {
            set.findings.push(
                Diagnostic::new(
                    Code::TrustInputError,
                    format!("read {}: {e}", quote(PACKAGES_DIR)),
                )
                .in_file(PACKAGES_DIR.to_owned()),
            );
            return;
        }
    };
    for (release, is) in releases {
        let rel = format!("{PACKAGES_DIR}/{release}");
        if is != Is::Dir {
            set.findings.push(unexpected(
                &rel,
                is,
                "packages/ holds one directory per release id",
            ));
            continue;
        }
        let path = packages.join(&release);
        let artifacts = match list(&path) {
            Ok(a) => a,
            Err(e) => {
                set.findings.push(
                    Diagnostic::new(Code::TrustInputError, format!("read {}: {e}", quote(&rel)))
                        .in_file(rel.clone()),
                );
                continue;
            }
        };
        if artifacts.is_empty() {
            set.findings.push(missing(
                &format!("{rel}/sha256-<digest>"),
                "a release id folder holds the package folders it signs",
            ));
        }
        for (artifact, is) in artifacts {
            let rel = format!("{rel}/{artifact}");
            if is != Is::Dir {
                set.findings.push(unexpected(
                    &rel,
                    is,
                    "a release id folder holds one sha256-<digest> directory per package",
                ));
                continue;
            }
            let folder_path = path.join(&artifact);
            let mut folder = Folder {
                release_id: release.clone(),
                artifact,
                path: folder_path.clone(),
                findings: Vec::new(),
                bundle: None,
            };
            match list(&folder_path) {
                Err(e) => folder.findings.push(Diagnostic::new(
                    Code::TrustInputError,
                    format!("read {}: {e}", quote(&rel)),
                )),
                Ok(files) => {
                    for (name, is) in files {
                        if name == BUNDLE_FILE && is == Is::File {
                            folder.bundle = Some(folder_path.join(&name));
                        } else {
                            folder.findings.push(unexpected(
                                &name,
                                is,
                                "a package folder holds package-index.sigstore.json only",
                            ));
                        }
                    }
                }
            }
            bundles.push(folder);
        }
    }
}

/// Verifies one package folder: its name a tag, its bundle over the
/// folder's digest (or the package at hand's canonical index).
fn verify_folder(f: Folder, package: Option<&AtHand>, pinned: Pinned<'_>) -> Part {
    let mut part = Part::new(PartKind::Bundle, f.path.clone());
    part.findings = f.findings;
    let tag = format!("forms/{}/{}", f.release_id, f.artifact);
    let digest = f
        .artifact
        .strip_prefix("sha256-")
        .map(|hex| format!("sha256:{hex}"));
    let mut subject = digest.as_deref().and_then(Subject::from_digest_text);
    match crate::host::locator::parse_tag(&tag) {
        // A central id with a digest artifact is a tag of two lanes: the
        // folder names it exactly all the same.
        Ok(_) => {}
        Err(r) if r.code == Code::LocatorTagAmbiguous => {}
        Err(r) => {
            part.findings.push(
                Diagnostic::new(
                    r.code,
                    format!("the folder is no Form Package tag: {}", r.message),
                )
                .note(format!(
                    "a package folder is packages/<releaseId>/sha256-<64 lowercase hex> (the tag {})",
                    quote(&tag)
                )),
            );
            subject = None;
        }
    }
    let Some(bundle_path) = f.bundle else {
        part.findings.push(missing(
            BUNDLE_FILE,
            "every package folder holds the bundle that signs its digest",
        ));
        return part;
    };
    let Some(mut subject) = subject else {
        return part;
    };
    if let Some(p) = package {
        subject = Subject::Bytes(p.canonical_index.clone());
    }
    let bundle = match read(&bundle_path, BUNDLE_FILE) {
        Ok(b) => b,
        Err(d) => {
            part.findings.push(*d);
            return part;
        }
    };
    match verify_bundle(&subject, &bundle, pinned.root, pinned.policy) {
        Ok(_) => {}
        Err(e) => {
            let mut d = refusal(&e, BUNDLE_FILE);
            if let Some(p) = package {
                d = d.note(format!(
                    "verified over the RFC 8785 package index of {}",
                    quote(&p.path)
                ));
            }
            part.findings.push(d);
        }
    }
    part
}

/// A signed checkpoint found: its file, its bundle, and the part that
/// holds findings of their layout.
struct SignedFiles {
    part: Part,
    checkpoint: Option<(PathBuf, String)>,
    bundle: Option<PathBuf>,
}

/// `revocations/`: exactly the checkpoint and its bundle.
fn revocations_part(path: &Path) -> SignedFiles {
    let mut s = SignedFiles {
        part: Part::new(PartKind::Checkpoint, path.to_path_buf()),
        checkpoint: None,
        bundle: None,
    };
    match list(path) {
        Err(e) => s.part.findings.push(Diagnostic::new(
            Code::TrustInputError,
            format!("read {}: {e}", quote(REVOCATIONS_DIR)),
        )),
        Ok(files) => {
            for (name, is) in files {
                match (name.as_str(), is) {
                    (CHECKPOINT_FILE, Is::File) => {
                        s.checkpoint = Some((path.join(&name), name.clone()));
                    }
                    (CHECKPOINT_BUNDLE_FILE, Is::File) => s.bundle = Some(path.join(&name)),
                    _ => s.part.findings.push(unexpected(
                        &name,
                        is,
                        "revocations/ holds checkpoint.json and checkpoint.sigstore.json only",
                    )),
                }
            }
        }
    }
    s
}

/// Verifies a signed checkpoint from `previous` (see
/// [`verify_signed_checkpoint`]); the pin it ends at, when it verified.
fn verify_checkpoint(
    mut s: SignedFiles,
    pinned: Pinned<'_>,
    previous: Option<&Pin>,
    allow_unchanged: bool,
) -> Part {
    let (checkpoint, bundle) = match (&s.checkpoint, &s.bundle) {
        (Some(c), Some(b)) => (c.clone(), b.clone()),
        (c, b) => {
            if c.is_none() {
                s.part.findings.push(missing(
                    CHECKPOINT_FILE,
                    "the signed revocation checkpoint of the set",
                ));
            }
            if b.is_none() {
                s.part.findings.push(missing(
                    CHECKPOINT_BUNDLE_FILE,
                    "the bundle that signs checkpoint.json",
                ));
            }
            return s.part;
        }
    };
    let _ = signed(
        &mut s.part,
        &checkpoint,
        &bundle,
        pinned,
        previous,
        allow_unchanged,
    );
    s.part
}

/// Verifies the checkpoint `file` (`(path, name relative to the part)`)
/// with its `bundle`; its findings go to `part`, the pin it ends at is
/// returned.
fn signed(
    part: &mut Part,
    file: &(PathBuf, String),
    bundle: &Path,
    pinned: Pinned<'_>,
    previous: Option<&Pin>,
    allow_unchanged: bool,
) -> Option<Pin> {
    let (path, rel) = file;
    let bundle_rel = bundle
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = match read(path, rel) {
        Ok(b) => b,
        Err(d) => {
            part.findings.push(*d);
            return None;
        }
    };
    let bundle_bytes = match read(bundle, &bundle_rel) {
        Ok(b) => b,
        Err(d) => {
            part.findings.push(*d);
            return None;
        }
    };
    match verify_signed_checkpoint(
        &path.display().to_string(),
        bytes,
        &bundle_bytes,
        pinned.root,
        pinned.policy,
        previous,
        allow_unchanged,
    ) {
        Ok(s) => Some(s.advanced.pin),
        Err(e) => {
            // The model's refusals name the file they concern; a bundle's
            // refusal concerns the bundle.
            let file = match e.class {
                super::ErrorClass::InvalidCheckpoint => rel.clone(),
                _ => bundle_rel,
            };
            part.findings.push(refusal(&e, &file));
            None
        }
    }
}

/// The replay directory: its checkpoints in sequence order, each verified
/// and advanced from the pin before it (the first from none); the parts
/// and the last pin reached.
fn replay_parts(
    dir: &Path,
    pinned: Pinned<'_>,
) -> Result<(Vec<Part>, Option<Pin>), Box<Diagnostic>> {
    let entries = list(dir).map_err(|e| {
        Box::new(Diagnostic::new(
            Code::TrustInputError,
            format!(
                "read replay directory {}: {e}",
                quote(&dir.display().to_string())
            ),
        ))
    })?;
    let names: std::collections::BTreeSet<String> =
        entries.iter().map(|(n, _)| n.clone()).collect();
    let mut stray = Part::new(PartKind::Replayed, dir.to_path_buf());
    let mut checkpoints = Vec::new();
    for (name, is) in &entries {
        if let Some(stem) = name.strip_suffix(BUNDLE_SUFFIX) {
            if is != &Is::File || !names.contains(&format!("{stem}.json")) {
                stray.findings.push(unexpected(
                    name,
                    *is,
                    "a replay directory holds <name>.json checkpoints, each beside its <name>.sigstore.json bundle",
                ));
            }
            continue;
        }
        match (name.strip_suffix(".json"), is) {
            (Some(stem), Is::File) => {
                let path = dir.join(name);
                // Ordered by the sequence it claims (the replay checks it).
                let sequence = read_file(&path, Reach::Found, JSON_BYTES)
                    .ok()
                    .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
                    .and_then(|v| v.get("sequence").and_then(serde_json::Value::as_u64))
                    .unwrap_or(u64::MAX);
                let bundle = format!("{stem}{BUNDLE_SUFFIX}");
                let bundle = names.contains(&bundle).then(|| dir.join(bundle));
                checkpoints.push((sequence, name.clone(), path, bundle));
            }
            _ => stray.findings.push(unexpected(
                name,
                *is,
                "a replay directory holds <name>.json checkpoints, each beside its <name>.sigstore.json bundle",
            )),
        }
    }
    checkpoints.sort();
    if checkpoints.is_empty() {
        stray.findings.push(missing(
            "<name>.json",
            "a replay directory holds the signed checkpoints from the genesis on",
        ));
    }
    let mut parts = Vec::new();
    if !stray.findings.is_empty() {
        parts.push(stray);
    }
    let mut pin: Option<Pin> = None;
    for (_, name, path, bundle) in checkpoints {
        let mut part = Part::new(PartKind::Replayed, dir.to_path_buf());
        part.name = Some(dir.join(&name));
        match bundle {
            None => part.findings.push(missing(
                &format!(
                    "{}{BUNDLE_SUFFIX}",
                    name.strip_suffix(".json").unwrap_or(&name)
                ),
                "every replayed checkpoint is verified with its bundle",
            )),
            Some(b) => {
                if let Some(p) = signed(&mut part, &(path, name), &b, pinned, pin.as_ref(), false) {
                    pin = Some(p);
                }
            }
        }
        parts.push(part);
    }
    Ok((parts, pin))
}

//! The `trust` operations on a plain [`TrustRequest`] (`cli/trust.rs`
//! parses the command line into it): read the files, call
//! [`crate::trust::verify`] and [`crate::trust::revocation`], answer one JSON document
//! ([`Answer`], stdout, exit 0) or refuse with a [`TrustError`] (its
//! failure report, the Core's plus our code, is `render::trust::failure`:
//! exit 1, or 2 for a usage error or an input file that could not be read).
//! `verify-set` ([`verify_set`]) reports every finding of a whole trust
//! set instead, in the report model every format prints.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::report::{Entry, EntryKind, ExitRule, Report};
use crate::trust::policy::{parse_policy, PublisherPolicy};
use crate::trust::revocation::{self, Lookup, Pin};
use crate::trust::set::AtHand;
use crate::trust::verify::{self, verify_bundle};
use crate::trust::TrustError;

/// What a `trust` operation is asked to do: the inputs of one
/// subcommand, as plain data (`cli/trust.rs` parses the command line into
/// it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrustRequest {
    /// `verify-bundle`: a Sigstore v0.3 bundle over a subject.
    VerifyBundle(Subject, TrustFiles),
    /// `verify-checkpoint`: a signed revocation checkpoint and its continuity.
    VerifyCheckpoint(CheckpointInput),
    /// `check-not-revoked`: a verified checkpoint, then the lookup.
    CheckNotRevoked(LookupInput),
}

/// What was signed (`verify-bundle`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The exact signed subject file (its SHA-256 is signed).
    File(PathBuf),
    /// A Form Package directory: verified first; its package digest is the subject.
    Package(PathBuf),
    /// A package digest `sha256:<64 hex>` as given, the prehashed subject
    /// (anything else is a usage error).
    PackageDigest(String),
}

/// The trust inputs every operation takes (files, read whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustFiles {
    /// The Sigstore v0.3 bundle (`.sigstore.json`).
    pub bundle: PathBuf,
    /// The caller-chosen Sigstore trusted root (`trusted_root.json`).
    pub trusted_root: PathBuf,
    /// The exact publisher policy (`PublisherPolicy`).
    pub policy: PathBuf,
}

/// The inputs of `verify-checkpoint`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointInput {
    /// The exact RFC 8785 revocation checkpoint file (the signed subject).
    pub checkpoint: PathBuf,
    /// Its bundle, the trusted root and the policy.
    pub files: TrustFiles,
    /// The pin kept from the last trusted checkpoint, or a whole earlier
    /// report (`None`: this is the first trusted checkpoint).
    pub previous_pin: Option<PathBuf>,
    /// The checkpoint the previous pin already names is a success
    /// (`unchanged`, the pin kept): [`crate::revocation::advance`].
    pub allow_unchanged: bool,
}

/// The inputs of `check-not-revoked`: the checkpoint, then what to look up
/// (a package directory, a package digest, a FormRef or package index
/// file; at least a digest and a FormRef must follow from them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookupInput {
    /// The checkpoint inputs.
    pub checkpoint: CheckpointInput,
    /// A Form Package directory (verified first).
    pub package: Option<PathBuf>,
    /// A package digest as given.
    pub package_digest: Option<String>,
    /// A FormRef JSON file, or a package index.
    pub form_ref: Option<PathBuf>,
}

pub use crate::report::trust::{Answer, CheckpointReport, NotRevokedReport, PackageSummary};

/// Runs one `trust` operation: reads its inputs, verifies, answers.
///
/// # Errors
/// The [`TrustError`] of the first check that refused (printed by
/// `render::trust::failure`).
pub fn answer(request: &TrustRequest) -> Result<Answer, TrustError> {
    match request {
        TrustRequest::VerifyBundle(subject, files) => verify_bundle_cmd(subject, files),
        TrustRequest::VerifyCheckpoint(a) => verify_checkpoint(a).map(Answer::Checkpoint),
        TrustRequest::CheckNotRevoked(a) => check_not_revoked(a),
    }
}

/// The bytes `--pin-out` writes: the pin as compact JSON and a final
/// newline, exactly the shape `--previous-pin` reads.
///
/// # Errors
/// Only if serialising fails.
pub fn pin_file(pin: &Pin) -> Result<Vec<u8>, TrustError> {
    crate::report::trust::json_line(pin).map_err(input_error)
}

/// The JSON report of `answer` on stdout ([`Answer::to_json`]: one line,
/// a final newline).
///
/// # Errors
/// Only if serialising fails (`input-error`).
pub fn answer_json(answer: &Answer) -> Result<Vec<u8>, TrustError> {
    answer.to_json().map_err(input_error)
}

/// A value that could not be serialised, as the `input-error` refusal.
fn input_error(e: serde_json::Error) -> TrustError {
    TrustError::new(Code::TrustInputError, e.to_string())
}

/// Reads a trust file the user named ([`crate::fileread`]: their link
/// followed, a regular file only): a subject of at most the package total
/// (256 MiB, `limits::TOTAL_BYTES`), every other file (a JSON document) at
/// most `limits::JSON_BYTES` (16 MiB). A refusal is `TrustInputError`,
/// exit 2.
fn read(label: &str, path: &Path) -> Result<Vec<u8>, TrustError> {
    let limit = if label == "subject" {
        crate::limits::TOTAL_BYTES
    } else {
        crate::limits::JSON_BYTES
    };
    crate::fileread::read_file(path, crate::fileread::Reach::Named, limit).map_err(|e| {
        TrustError::new(
            Code::TrustInputError,
            format!("read {label} file {}: {e}", path.display()),
        )
        .could_not_run()
    })
}

/// Reads the trust files; the policy is parsed first (its class wins).
fn read_files(f: &TrustFiles) -> Result<(Vec<u8>, Vec<u8>, PublisherPolicy), TrustError> {
    let bundle = read("bundle", &f.bundle)?;
    let root = read("trusted-root", &f.trusted_root)?;
    let policy = parse_policy(&read("policy", &f.policy)?)?;
    Ok((bundle, root, policy))
}

fn verify_bundle_cmd(subject: &Subject, files: &TrustFiles) -> Result<Answer, TrustError> {
    let mut package = None;
    let subject = match subject {
        Subject::File(p) => verify::Subject::Bytes(read("subject", p)?),
        Subject::Package(dir) => {
            let (subject, summary) = package_subject(dir)?;
            package = Some(summary);
            subject
        }
        Subject::PackageDigest(d) => digest_subject(d)?,
    };
    let (bundle, root, policy) = read_files(files)?;
    let report = verify_bundle(&subject, &bundle, &root, &policy)?;
    Ok(Answer::Bundle(report, package))
}

fn digest_subject(d: &str) -> Result<verify::Subject, TrustError> {
    verify::Subject::from_digest_text(d).ok_or_else(|| {
        // A flag value that is not a digest is a usage error (T2 F11).
        TrustError::new(
            Code::TrustInputError,
            format!("--package-digest {d:?} is not sha256:<64 lowercase hex>"),
        )
        .could_not_run()
    })
}

/// Verifies the package with the package verifier; its package digest is
/// the subject.
fn package_subject(dir: &Path) -> Result<(verify::Subject, PackageSummary), TrustError> {
    // A PATH that does not exist is no package that fails (as `verify`
    // treats it, FD900): the command could not run.
    if let Err(e) = std::fs::symlink_metadata(dir) {
        return Err(TrustError::new(
            Code::TrustInputError,
            format!("read package {}: {e}", dir.display()),
        )
        .could_not_run());
    }
    let outcome = crate::verify::verify_package(dir);
    let report = match (&outcome.report, outcome.has_errors()) {
        (Some(r), false) => r.clone(),
        _ => {
            let codes: Vec<String> = outcome
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .take(5)
                .map(|d| format!("{} {}", d.code.info().id, d.message))
                .collect();
            return Err(TrustError::new(
                Code::TrustInputError,
                format!(
                    "package {} does not verify: {}",
                    dir.display(),
                    codes.join("; ")
                ),
            ));
        }
    };
    let subject = digest_subject(&report.package_digest)?;
    Ok((
        subject,
        PackageSummary {
            path: dir.display().to_string(),
            package_digest: report.package_digest,
            form_ref: report.form_ref,
        },
    ))
}

fn invalid_checkpoint(m: impl Into<String>) -> TrustError {
    TrustError::new(Code::TrustInvalidCheckpoint, m)
}

/// Verifies a checkpoint: canonical bytes, the bundle over them, then the
/// revocation model ([`crate::revocation`], through [`revocation`]): the
/// full schema and typed rules, and the continuity from the previous pin.
fn verify_checkpoint_inner(
    a: &CheckpointInput,
) -> Result<(CheckpointReport, revocation::ValidCheckpoint), TrustError> {
    let checkpoint = read("checkpoint", &a.checkpoint)?;
    let (bundle, root, policy) = read_files(&a.files)?;
    let previous = match &a.previous_pin {
        None => None,
        Some(p) => Some(revocation::parse_pin(
            &p.display().to_string(),
            &read("previous-pin", p)?,
        )?),
    };
    let file = a.checkpoint.display().to_string();
    let revocation::SignedCheckpoint {
        bundle: report,
        valid,
        advanced,
    } = revocation::verify_signed_checkpoint(
        &file,
        checkpoint,
        &bundle,
        &root,
        &policy,
        previous.as_ref(),
        a.allow_unchanged,
    )?;
    Ok((
        CheckpointReport {
            status: if advanced.unchanged {
                "unchanged"
            } else {
                "verified"
            },
            bundle: report,
            checkpoint_version: valid.checkpoint.checkpoint_version.clone(),
            entry_count: valid.checkpoint.entries.len(),
            pin: advanced.pin,
        },
        valid,
    ))
}

fn verify_checkpoint(a: &CheckpointInput) -> Result<CheckpointReport, TrustError> {
    verify_checkpoint_inner(a).map(|(r, _)| r)
}

/// The package digest and FormRef `check-not-revoked` looks up, derived
/// together from `--package` or a package index given as `--form-ref`,
/// and cross-checked against every other input that names them.
///
/// Returns the digest, the FormRef, the package (with `--package`) and
/// whether the two were derived together (false: a bare digest and a bare
/// FormRef, which nothing can check against each other).
#[allow(clippy::type_complexity)]
fn lookup_subject(
    a: &LookupInput,
) -> Result<(String, Map<String, Value>, Option<PackageSummary>, bool), TrustError> {
    let input = |m: String| TrustError::new(Code::TrustInputError, m);
    let usage = |m: &str| input(m.to_owned()).could_not_run();
    let mut digest: Option<(String, &str)> = None;
    let mut form_ref: Option<(Map<String, Value>, &str)> = None;
    let mut package = None;
    if let Some(dir) = &a.package {
        let (_, summary) = package_subject(dir)?;
        let fr = revocation::parse_form_ref(summary.form_ref.to_string().as_bytes())
            .map_err(|e| input(format!("package FormRef: {e}")))?;
        digest = Some((summary.package_digest.clone(), "--package"));
        form_ref = Some((fr, "--package"));
        package = Some(summary);
    }
    if let Some(path) = &a.form_ref {
        let bytes = read("form-ref", path)?;
        let value = crate::json::strict::parse_value(&bytes)
            .map_err(|e| input(format!("form-ref: {e}")))?;
        let (fr, from_index) = match value.get("formRef") {
            // A package index: its formRef, and its package digest.
            Some(inner) => (
                revocation::parse_form_ref(inner.to_string().as_bytes()),
                Some(
                    crate::canonical::canonicalize(&value)
                        .map(|c| crate::canonical::sha256_digest(&c))
                        .map_err(|d| input(format!("form-ref: {}", d.message)))?,
                ),
            ),
            None => (revocation::parse_form_ref(&bytes), None),
        };
        let fr = fr.map_err(|e| input(format!("form-ref: {e}")))?;
        match &form_ref {
            Some((known, from)) if *known != fr => {
                return Err(input(format!(
                    "--form-ref names another FormRef than {from} ({} {} {})",
                    fr.get("kind").and_then(Value::as_str).unwrap_or(""),
                    fr.get("definitionVersion")
                        .and_then(Value::as_str)
                        .unwrap_or(""),
                    fr.get("schemaDigest").and_then(Value::as_str).unwrap_or("")
                )))
            }
            Some(_) => {}
            None => form_ref = Some((fr, "--form-ref")),
        }
        if let Some(d) = from_index {
            match &digest {
                Some((known, from)) if *known != d => {
                    return Err(input(format!(
                        "the package index given as --form-ref has package digest {d}, {from} has {known}"
                    )))
                }
                Some(_) => {}
                None => digest = Some((d, "the package index given as --form-ref")),
            }
        }
    }
    if let Some(d) = &a.package_digest {
        // Its form is the lookup's to refuse (invalid-checkpoint, as the
        // Core does), after the checkpoint is verified.
        match &digest {
            Some((known, from)) if known != d => {
                return Err(input(format!(
                    "--package-digest {d} is not the package digest of {from} ({known})"
                )))
            }
            Some(_) => {}
            None => digest = Some((d.clone(), "--package-digest")),
        }
    }
    match (digest, form_ref) {
        (Some((d, dfrom)), Some((fr, ffrom))) => {
            // Derived together unless each came from its own bare flag.
            let cross_checked = !(dfrom == "--package-digest" && ffrom == "--form-ref");
            Ok((d, fr, package, cross_checked))
        }
        (None, _) => Err(usage(
            "give --package DIR, or --package-digest with --form-ref (a FormRef or the package index)",
        )),
        (_, None) => Err(usage(
            "give --form-ref (a FormRef or the package index) with --package-digest, or --package DIR",
        )),
    }
}

fn check_not_revoked(a: &LookupInput) -> Result<Answer, TrustError> {
    // The checkpoint first, as before `--package`: a refusal keeps its
    // class whatever the lookup inputs are.
    let (report, cp) = verify_checkpoint_inner(&a.checkpoint)?;
    let (package_digest, form_ref, package, cross_checked) = lookup_subject(a)?;
    match revocation::check_not_revoked(&cp, &package_digest, &form_ref)
        .map_err(invalid_checkpoint)?
    {
        Lookup::Revoked(version, seq) => Err(TrustError::new(
            Code::TrustRevoked,
            format!("Form Package is revoked: statement {version} at sequence {seq}"),
        )),
        Lookup::NotRevoked => Ok(Answer::NotRevoked(NotRevokedReport {
            package,
            status: "not-revoked",
            package_digest,
            form_ref,
            cross_checked,
            checkpoint: report,
        })),
    }
}

/// The inputs of `verify-set`: the set directory, the pinned trust inputs,
/// the packages at hand and the replay directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SetInput {
    /// The trust set (`forms/trust/sets/<commit>/`).
    pub dir: PathBuf,
    /// The pinned trusted root.
    pub trusted_root: PathBuf,
    /// The pinned publisher policy.
    pub policy: PathBuf,
    /// Packages (directories or trees, found as `verify` finds them) whose
    /// folders are verified over their canonical index.
    pub packages: Vec<PathBuf>,
    /// Signed checkpoints replayed from the genesis before the set's.
    pub replay: Option<PathBuf>,
}

/// `trust verify-set` ([`crate::trust::set`]): the report of every
/// package at hand (verified first, as `verify` does), then of every part
/// of the set (the set folder, each package folder, `revocations/`, each
/// replayed checkpoint), each with its findings. A pinned file that cannot
/// be read, a set or replay directory that cannot be listed, or a PATH of
/// `--package` that does not exist make the run one that could not run
/// (exit 2); a pinned policy that does not parse is the one finding (exit 1).
pub fn verify_set(a: &SetInput) -> Report {
    let named = |path: &Path, d: Diagnostic| {
        let display = path.display().to_string();
        let outcome = crate::document::document_outcome(&display, Vec::new(), vec![d]);
        crate::document::document_entry(&display, outcome)
    };
    let (root, policy_bytes) = match (
        read("trusted-root", &a.trusted_root),
        read("policy", &a.policy),
    ) {
        (Ok(r), Ok(p)) => (r, p),
        (r, p) => {
            let mut entries = Vec::new();
            for (path, e) in [(&a.trusted_root, r.err()), (&a.policy, p.err())] {
                if let Some(e) = e {
                    entries.push(named(path, Diagnostic::new(e.code, e.message)));
                }
            }
            let mut report = Report::new(entries, ExitRule::default());
            report.could_not_read = true;
            return report;
        }
    };
    let policy = match parse_policy(&policy_bytes) {
        Ok(p) => p,
        Err(e) => {
            return Report::new(
                vec![named(&a.policy, Diagnostic::new(e.code, e.message))],
                ExitRule::default(),
            )
        }
    };
    let (mut entries, at_hand, outcomes) = packages_at_hand(&a.packages);
    let found = crate::trust::set::verify_set(
        &a.dir,
        crate::trust::set::Pinned {
            root: &root,
            policy_bytes: &policy_bytes,
            policy: &policy,
        },
        &at_hand,
        a.replay.as_deref(),
    );
    for (mut outcome, placed) in outcomes {
        if let Some(findings) = placed.and_then(|i| found.packages.get(i)) {
            outcome.diagnostics.extend(findings.iter().cloned());
        }
        entries.push(Entry::new(EntryKind::Package, outcome));
    }
    for part in found.parts {
        let mut diagnostics = part.findings;
        crate::diag::finish(&mut diagnostics);
        let outcome = crate::verify::PackageOutcome {
            path: part.path,
            diagnostics,
            ..crate::verify::PackageOutcome::default()
        };
        let entry = Entry::new(EntryKind::TrustSet, outcome);
        entries.push(match part.name {
            Some(n) => entry.named(n),
            None => entry,
        });
    }
    let mut report = Report::new(entries, ExitRule::default());
    report.could_not_read = found.could_not_read;
    report
}

/// The packages under `dirs` (each walked as `verify` walks a PATH),
/// verified: the entries of the walk's findings, the verified packages as
/// the set places them, and every package's outcome with the index of its
/// [`AtHand`] (none for a refused package).
#[allow(clippy::type_complexity)]
fn packages_at_hand(
    dirs: &[PathBuf],
) -> (
    Vec<Entry>,
    Vec<AtHand>,
    Vec<(crate::verify::PackageOutcome, Option<usize>)>,
) {
    let mut walked =
        crate::report::walk::discover(dirs, &crate::discover::WalkRules::default(), &|_| false);
    let entries = walked.entries();
    let mut at_hand = Vec::new();
    let mut outcomes = Vec::new();
    for root in walked.roots() {
        let v = crate::verify::verify_package_keeping_definition(&root);
        let mut outcome = v.outcome;
        let placed = match (&v.index, &outcome.package_digest) {
            (Some((index, _)), Some(digest))
                if !outcome.has_errors() && outcome.fault.is_none() =>
            {
                let canonical = crate::canonical::canonicalize(index);
                let locator = crate::host::locator::for_index(index, digest);
                match (canonical, locator) {
                    (Ok(bytes), Ok(l)) => {
                        at_hand.push(AtHand {
                            path: outcome.path.display().to_string(),
                            package_digest: digest.clone(),
                            release_id: l.release_id,
                            canonical_index: bytes,
                        });
                        Some(at_hand.len() - 1)
                    }
                    (Err(d), _) => {
                        outcome.diagnostics.push(d);
                        None
                    }
                    (_, Err(r)) => {
                        outcome.diagnostics.push(
                            Diagnostic::new(r.code, r.message).in_file(crate::package::INDEX_FILE),
                        );
                        None
                    }
                }
            }
            _ => None,
        };
        outcomes.push((outcome, placed));
    }
    (entries, at_hand, outcomes)
}

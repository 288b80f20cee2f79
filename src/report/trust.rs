//! What a `trust` subcommand answers (`ops::trust::answer`): the
//! verification, the checkpoint or the not-revoked lookup, as typed
//! reports; `render::trust` prints the human summary, [`Answer::to_json`]
//! the JSON report.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::diag::Diagnostic;
use crate::revocation::Pin;

/// The package a `--package` subject came from.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageSummary {
    /// The directory as given.
    pub path: String,
    /// Its package digest (the signed subject).
    pub package_digest: String,
    /// Its index FormRef.
    pub form_ref: Value,
}

#[derive(Serialize)]
struct WithPackage<'a> {
    #[serde(flatten)]
    report: &'a BundleReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    package: Option<PackageSummary>,
}

/// Counts and times behind a verification (ours, on top of the Core's
/// members).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    /// Log entries whose body, SET (when present), inclusion proof and
    /// checkpoint verified.
    pub log_entries: usize,
    /// RFC 3161 timestamps that verified.
    pub rfc3161_timestamps: usize,
    /// Embedded SCTs that verified.
    pub certificate_timestamps: usize,
    /// Verified signing times (SET integrated times, then TSA times), RFC 3339.
    pub signing_times: Vec<String>,
    /// The URI of the Fulcio CA the leaf chains to.
    pub certificate_authority: String,
}

/// A successful verification: the Core's members, in its order.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BundleReport {
    /// Always `verified`.
    pub status: &'static str,
    /// `sha256:` of the signed subject.
    pub subject_digest: String,
    /// `sha256:` of the bundle file's raw bytes.
    pub bundle_digest: String,
    /// `sha256:` of the trusted root file's raw bytes.
    pub trusted_root_digest: String,
    /// The policy's issuer.
    pub oidc_issuer: String,
    /// The policy's repository.
    pub source_repository: String,
    /// The policy's workflow.
    pub workflow: String,
    /// The policy's ref.
    #[serde(rename = "ref")]
    pub git_ref: String,
    /// `workflow@ref`.
    pub publisher_identity: String,
    /// Source repository commit (certificate extension 1.13).
    pub source_commit: String,
    /// Workflow commit (build signer digest, 1.10).
    pub workflow_commit: String,
    /// Build config commit (1.19).
    pub build_config_commit: String,
    /// Always true on success.
    pub transparency_log_verified: bool,
    /// The log-entry threshold (1).
    pub transparency_log_threshold: u32,
    /// Our evidence summary.
    pub evidence: Evidence,
}

/// A verified checkpoint (the Core's `RevocationCheckpointVerification`).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckpointReport {
    /// `verified`, or with `--allow-unchanged` `unchanged` when the
    /// checkpoint is the one the previous pin already names (a nightly run
    /// against an unchanged checkpoint succeeds; the pin stays).
    pub status: &'static str,
    /// The bundle verification of the checkpoint bytes.
    pub bundle: BundleReport,
    /// `checkpointVersion`.
    pub checkpoint_version: String,
    /// Number of cumulative entries.
    pub entry_count: usize,
    /// The pin to keep for the next checkpoint.
    pub pin: Pin,
}

/// `check-not-revoked`'s answer.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotRevokedReport {
    /// The package, with `--package`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<PackageSummary>,
    /// Always `not-revoked`.
    pub status: &'static str,
    /// The package digest looked up.
    pub package_digest: String,
    /// The FormRef looked up.
    pub form_ref: Map<String, Value>,
    /// Whether the package digest and the FormRef were derived together
    /// (`--package`, or a package index as `--form-ref`) rather than given
    /// as two unrelated inputs.
    pub cross_checked: bool,
    /// The verified checkpoint.
    pub checkpoint: CheckpointReport,
}

/// What a `trust` subcommand answered, for `render::trust` (the human
/// summary) and [`Answer::to_json`] (the report on stdout).
// One per run: its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Answer {
    /// `verify-bundle`: the verification and, with `--package`, the package.
    Bundle(BundleReport, Option<PackageSummary>),
    /// `verify-checkpoint`.
    Checkpoint(CheckpointReport),
    /// `check-not-revoked`.
    NotRevoked(NotRevokedReport),
}

impl Answer {
    /// The JSON report (one line, a final newline).
    ///
    /// # Errors
    /// Only if serialising fails (`ops::trust::answer_json` makes it an
    /// `input-error`).
    pub fn to_json(&self) -> serde_json::Result<Vec<u8>> {
        match self {
            Answer::Bundle(report, package) => json_line(&WithPackage {
                report,
                package: package.clone(),
            }),
            Answer::Checkpoint(r) => json_line(r),
            Answer::NotRevoked(r) => json_line(r),
        }
    }

    /// The pin the answer keeps (`verify-checkpoint`, `check-not-revoked`).
    pub fn pin(&self) -> Option<&Pin> {
        match self {
            Answer::Bundle(..) => None,
            Answer::Checkpoint(r) => Some(&r.pin),
            Answer::NotRevoked(r) => Some(&r.checkpoint.pin),
        }
    }
}

/// `v` as compact JSON and a final newline (a `trust` report, a pin).
///
/// # Errors
/// Only if serialising fails.
pub fn json_line<T: Serialize>(v: &T) -> serde_json::Result<Vec<u8>> {
    let mut out = serde_json::to_vec(v)?;
    out.push(b'\n');
    Ok(out)
}

/// A refusal of a `trust` subcommand as its failure report on stderr
/// prints it (`render::trust::failure`): the Core's members (`code`, its
/// class, and `message`) plus our diagnostic code. Filled from the trust
/// module's refusal by `TrustError::failure`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The class of the code as printed (`verification-failed` …).
    pub class: &'static str,
    /// The refusal as a finding: its stable code (FD8xx) and what failed,
    /// one phrase (its control characters escaped).
    pub diagnostic: Diagnostic,
}

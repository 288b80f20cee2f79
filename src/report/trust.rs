//! What a `trust` subcommand answers (`ops::trust::answer`): the
//! verification, the checkpoint or the not-revoked lookup, as typed
//! reports; `render::trust` prints the human summary, [`Answer::to_json`]
//! the JSON report.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::codes::Code;
use crate::trust::revocation::Pin;
use crate::trust::verify::BundleReport;
use crate::trust::TrustError;

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
    /// Only if serialising fails (`input-error`).
    pub fn to_json(&self) -> Result<Vec<u8>, TrustError> {
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
/// Only if serialising fails (`input-error`).
pub fn json_line<T: Serialize>(v: &T) -> Result<Vec<u8>, TrustError> {
    let mut out =
        serde_json::to_vec(v).map_err(|e| TrustError::new(Code::TrustInputError, e.to_string()))?;
    out.push(b'\n');
    Ok(out)
}

//! The trust commands' side of the one revocation model: `trust
//! verify-checkpoint` and `check-not-revoked` validate a checkpoint
//! against its profile's full schema and typed rules, read the previous
//! pin and advance with [`crate::revocation`] (the very functions
//! `validate-revocation-checkpoint` calls); this module only turns their
//! findings into the trust commands' refusals (one phrase, a class) and
//! looks a package up in a validated checkpoint.

use crate::diag::escape::quote;
use serde_json::{Map, Value};

use super::policy::PublisherPolicy;
use super::verify::{verify_bundle, Subject};
use super::TrustError;
use crate::canonical::is_canonical_digest;
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::error::Refused;
use crate::report::trust::BundleReport;
use crate::revocation::{self, Advanced, CURRENT};
pub use crate::revocation::{Pin, ValidCheckpoint};

fn invalid(message: impl Into<String>) -> TrustError {
    TrustError::new(Code::TrustInvalidCheckpoint, message)
}

/// Findings as the one phrase of a trust refusal: each message without the
/// checkpoint prefix the revocation commands print, its notes in
/// parentheses, joined by `; `.
pub fn phrase(diags: &[Diagnostic]) -> String {
    let prefix = format!("{}: ", revocation::CHECKPOINT_PREFIX);
    diags
        .iter()
        .map(|d| {
            let m = d.message.strip_prefix(&prefix).unwrap_or(&d.message);
            if d.notes.is_empty() {
                m.to_owned()
            } else {
                format!("{m} ({})", d.notes.join("; "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A refusal of the revocation model as a trust refusal: findings are
/// `invalid-checkpoint`; a verifier fault (an embedded schema that does
/// not build) is a command that could not run.
fn refused(r: Refused) -> TrustError {
    match r {
        Refused::Findings(diags) => invalid(phrase(&diags)),
        Refused::Fault(e) => TrustError::new(Code::TrustInputError, e.to_string()).could_not_run(),
    }
}

/// The signed checkpoint bytes, parsed: they must be strict I-JSON and
/// already their own RFC 8785 form (the signed subject is those bytes).
///
/// # Errors
/// `invalid-checkpoint` for bytes that do not parse or are not canonical.
pub fn canonical_checkpoint(bytes: &[u8]) -> Result<Value, TrustError> {
    let value = crate::json::strict::parse_value(bytes).map_err(|e| invalid(e.to_string()))?;
    let canonical = crate::canonical::canonicalize(&value).map_err(|d| invalid(d.message))?;
    if canonical != bytes {
        return Err(invalid(
            "signed checkpoint bytes must be RFC 8785 canonical JSON",
        ));
    }
    Ok(value)
}

/// Validates a checkpoint with [`revocation::validate_checkpoint`]: the
/// full schema of its profile, the typed decode and every typed rule.
///
/// # Errors
/// `invalid-checkpoint` naming every finding.
pub fn validate_checkpoint(file: &str, value: &Value) -> Result<ValidCheckpoint, TrustError> {
    revocation::validate_checkpoint(file, value).map_err(refused)
}

/// Reads a previous pin with [`revocation::previous_pin`] (the one reader
/// `validate-revocation-checkpoint` uses too): the pin itself, or a
/// previous run's whole report, whose `pin` is read.
///
/// # Errors
/// `input-error` for a file that is not strict I-JSON or not a pin
/// (FD620); `invalid-checkpoint` for a current sequence-0 pin that is not
/// the genesis (FD626, as the advance from it refuses it).
pub fn parse_pin(file: &str, bytes: &[u8]) -> Result<Pin, TrustError> {
    let input = |m: String| TrustError::new(Code::TrustInputError, format!("previous-pin: {m}"));
    let value = crate::json::strict::parse_value(bytes).map_err(|e| input(e.to_string()))?;
    revocation::previous_pin(file, &value).map_err(|diags| {
        if diags.iter().all(|d| d.code == Code::CheckpointGenesisPin) {
            invalid(phrase(&diags))
        } else {
            input(phrase(&diags))
        }
    })
}

/// Advances with [`revocation::advance`] (continuity from the previous
/// pin; with `allow_unchanged` the pinned checkpoint itself is unchanged).
///
/// # Errors
/// `invalid-checkpoint` naming every finding.
pub fn advance(
    file: &str,
    previous: Option<&Pin>,
    valid: &ValidCheckpoint,
    allow_unchanged: bool,
) -> Result<Advanced, TrustError> {
    revocation::advance(file, previous, valid, allow_unchanged).map_err(|d| invalid(phrase(&d)))
}

/// A signed revocation checkpoint that verified: the bundle's report, the
/// validated checkpoint and where the advance from the previous pin ended.
#[derive(Clone, Debug)]
pub struct SignedCheckpoint {
    /// The bundle verified over the checkpoint's exact bytes.
    pub bundle: BundleReport,
    /// The checkpoint, validated against its profile.
    pub valid: ValidCheckpoint,
    /// The pin to keep (or the previous one, unchanged).
    pub advanced: Advanced,
}

/// Verifies one signed checkpoint, in the order every trust command uses:
/// its bytes canonical ([`canonical_checkpoint`]), the bundle over those
/// bytes ([`verify_bundle`]), the checkpoint valid
/// ([`validate_checkpoint`]), then the advance from `previous`
/// ([`advance`]; `None`: the first trusted checkpoint). `trust
/// verify-checkpoint`, `check-not-revoked` and `verify-set` (its set's
/// checkpoint and every `--replay` checkpoint) all call this.
///
/// # Errors
/// The [`TrustError`] of the first check that refused.
pub fn verify_signed_checkpoint(
    file: &str,
    checkpoint: Vec<u8>,
    bundle: &[u8],
    root: &[u8],
    policy: &PublisherPolicy,
    previous: Option<&Pin>,
    allow_unchanged: bool,
) -> Result<SignedCheckpoint, TrustError> {
    let value = canonical_checkpoint(&checkpoint)?;
    let report = verify_bundle(&Subject::Bytes(checkpoint), bundle, root, policy)?;
    let valid = validate_checkpoint(file, &value)?;
    let advanced = advance(file, previous, &valid, allow_unchanged)?;
    Ok(SignedCheckpoint {
        bundle: report,
        valid,
        advanced,
    })
}

/// Parses a FormRef file: an object of exactly `apiVersion`, `kind`,
/// `definitionVersion`, `schemaDigest` (strings; the digest canonical).
///
/// # Errors
/// A phrase naming what is wrong.
pub fn parse_form_ref(bytes: &[u8]) -> Result<Map<String, Value>, String> {
    let v = crate::json::strict::parse_value(bytes).map_err(|e| e.to_string())?;
    let Value::Object(m) = v else {
        return Err("the FormRef is not an object".into());
    };
    const MEMBERS: [&str; 4] = ["apiVersion", "kind", "definitionVersion", "schemaDigest"];
    if m.len() != 4
        || !MEMBERS
            .iter()
            .all(|k| m.get(*k).is_some_and(Value::is_string))
    {
        return Err(
            "a FormRef has exactly apiVersion, kind, definitionVersion, schemaDigest (strings)"
                .into(),
        );
    }
    if !m
        .get("schemaDigest")
        .and_then(Value::as_str)
        .is_some_and(is_canonical_digest)
    {
        return Err("schemaDigest is not a canonical digest".into());
    }
    Ok(m)
}

/// Whether `form_ref` is of the checkpoint's profile: the current profile
/// takes a versionless group that is not the reserved trust group, the
/// legacy one a `group/version`.
fn form_ref_of_profile(api: &str, form_ref: &Map<String, Value>) -> Result<(), String> {
    let group = form_ref
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let dns = |g: &str| {
        !g.is_empty()
            && g.split('.').all(|l| {
                !l.is_empty()
                    && l.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            })
    };
    if api == CURRENT {
        if group.contains('/') || !dns(group) {
            return Err(format!(
                "FormRef apiVersion {} is not a versionless group of the current profile",
                quote(group)
            ));
        }
        if group == "trust.forms.takoform.com" {
            return Err(format!(
                "FormRef apiVersion {} is reserved or unsupported",
                quote(group)
            ));
        }
    } else if !group
        .split_once('/')
        .is_some_and(|(g, v)| dns(g) && !v.is_empty())
    {
        return Err(format!(
            "FormRef apiVersion {} is not a legacy group/version",
            quote(group)
        ));
    }
    Ok(())
}

/// What a revocation lookup found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The package is not revoked by this checkpoint.
    NotRevoked,
    /// Revoked: `(statementVersion, sequence)` of the entry.
    Revoked(String, u64),
}

/// Looks the package up in the checkpoint.
///
/// # Errors
/// A phrase when the digest is not canonical, the FormRef is not of the
/// checkpoint's profile, or the checkpoint maps the digest to another
/// FormRef.
pub fn check_not_revoked(
    valid: &ValidCheckpoint,
    package_digest: &str,
    form_ref: &Map<String, Value>,
) -> Result<Lookup, String> {
    if !is_canonical_digest(package_digest) {
        return Err("package digest is not canonical".into());
    }
    let cp = &valid.checkpoint;
    form_ref_of_profile(&cp.api_version, form_ref).map_err(|e| format!("FormRef: {e}"))?;
    let wanted =
        serde_json::from_value::<revocation::FormRef>(Value::Object(form_ref.clone())).ok();
    match cp
        .entries
        .iter()
        .find(|e| e.package_digest == package_digest)
    {
        None => Ok(Lookup::NotRevoked),
        Some(e) if wanted.as_ref() != Some(&e.form_ref) => {
            Err("checkpoint maps package digest to a different FormRef".into())
        }
        Some(e) => Ok(Lookup::Revoked(e.statement_version.clone(), e.sequence)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GENESIS: &[u8] = br#"{"apiVersion":"trust.forms.takoform.com/v1","checkpointVersion":"0.0.0","entries":[],"kind":"FormPackageRevocationCheckpoint","previousCheckpointDigest":null,"sequence":0}"#;

    fn genesis() -> ValidCheckpoint {
        let value = canonical_checkpoint(GENESIS).unwrap_or_else(|e| panic!("{e}"));
        validate_checkpoint("genesis.json", &value).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn genesis_pin_and_replay() {
        let cp = genesis();
        let pin = advance("g", None, &cp, false)
            .unwrap_or_else(|e| panic!("{e}"))
            .pin;
        assert_eq!(pin.digest, revocation::genesis_digest());
        assert_eq!(
            pin.entries_digest,
            "sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"
        );
        let replay = advance("g", Some(&pin), &cp, false).map_err(|e| e.message);
        assert_eq!(
            replay,
            Err(format!(
                "revocation checkpoint sequence is 0, want 1 ({})",
                revocation::UNCHANGED_NOTE
            ))
        );
        // Near miss: with allow_unchanged the pin is kept.
        let kept = advance("g", Some(&pin), &cp, true).unwrap_or_else(|e| panic!("{e}"));
        assert!(kept.unchanged);
        assert_eq!(kept.pin, pin);
        let mut legacy = pin.clone();
        legacy.checkpoint_api_version = None;
        assert!(advance("g", Some(&legacy), &cp, true)
            .is_err_and(|e| e.message.contains("does not match pinned legacy profile")));
    }

    #[test]
    fn a_pin_is_read_alone_or_from_a_report() {
        let pin = advance("g", None, &genesis(), false)
            .unwrap_or_else(|e| panic!("{e}"))
            .pin;
        let alone = serde_json::to_vec(&pin).unwrap_or_default();
        assert_eq!(parse_pin("p", &alone), Ok(pin.clone()));
        let report = serde_json::json!({"status": "verified", "pin": pin});
        assert_eq!(parse_pin("p", report.to_string().as_bytes()), Ok(pin));
        let e = parse_pin("p", br#"{"sequence":1}"#).map_err(|e| e.class);
        assert_eq!(e, Err(super::super::ErrorClass::InputError));
    }

    #[test]
    fn form_refs_of_the_profile() {
        let cp = genesis();
        let fr = |api: &str| {
            parse_form_ref(format!(r#"{{"apiVersion":"{api}","kind":"K","definitionVersion":"1.0.0","schemaDigest":"sha256:{}"}}"#, "c".repeat(64)).as_bytes()).unwrap_or_default()
        };
        let d = format!("sha256:{}", "a".repeat(64));
        assert_eq!(
            check_not_revoked(&cp, &d, &fr("edge.forms.takoform.com")),
            Ok(Lookup::NotRevoked)
        );
        assert!(check_not_revoked(&cp, &d, &fr("forms.takoform.com/v1alpha1")).is_err());
        assert!(check_not_revoked(&cp, &d, &fr("trust.forms.takoform.com")).is_err());
        assert!(check_not_revoked(&cp, &d.to_uppercase(), &fr("edge.forms.takoform.com")).is_err());
    }
}

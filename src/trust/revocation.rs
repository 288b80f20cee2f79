//! A minimal reader of revocation checkpoints (`revocation-checkpoint-v1`),
//! just what `verify-checkpoint` and `check-not-revoked` need: the
//! checkpoint's shape, the pin it advances to from the caller's previous
//! pin, and the lookup of a package digest.
//!
//! This is deliberately small and self-contained: the full validator
//! (`validate-revocation-checkpoint`, with the JSON Schemas and every
//! statement rule) is written beside it in `src/revocation.rs` (branch
//! `cli12`). The interface below ([`parse_checkpoint`], [`advance`],
//! [`check_not_revoked`], [`parse_pin`], [`parse_form_ref`]) is what the
//! trust commands call, so the integrator can point these five functions at
//! that module without touching the commands. Errors are plain phrases; the
//! caller gives them the class (`invalid-checkpoint` or `input-error`).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::canonical::{is_canonical_digest, sha256_digest};

/// The current checkpoint profile.
pub const CURRENT: &str = "trust.forms.takoform.com/v1";
/// The legacy checkpoint profile.
pub const LEGACY: &str = "trust.forms.takoform.com/v1alpha1";
const KIND: &str = "FormPackageRevocationCheckpoint";

/// A checkpoint that passed the shape checks.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// `apiVersion` ([`CURRENT`] or [`LEGACY`]).
    pub api_version: String,
    /// `sequence`.
    pub sequence: u64,
    /// `checkpointVersion`.
    pub checkpoint_version: String,
    /// `previousCheckpointDigest`.
    pub previous: Option<String>,
    /// `entries`, cumulative.
    pub entries: Vec<Map<String, Value>>,
    /// `sha256:` of the RFC 8785 form of the checkpoint.
    pub digest: String,
}

/// A caller-retained pin of the last trusted checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pin {
    /// Profile; absent for a legacy pin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint_api_version: Option<String>,
    /// Sequence of the pinned checkpoint.
    pub sequence: u64,
    /// Canonical digest of the pinned checkpoint.
    pub digest: String,
    /// Canonical digest of its `entries` array.
    pub entries_digest: String,
}

fn canonical_digest(v: &Value) -> Result<String, String> {
    crate::canonical::canonicalize(v)
        .map(|c| sha256_digest(&c))
        .map_err(|d| d.message)
}

/// Parses checkpoint bytes (already known to be RFC 8785) and checks the
/// shape the trust commands rely on.
///
/// # Errors
/// A phrase naming the first rule broken.
pub fn parse_checkpoint(bytes: &[u8]) -> Result<Checkpoint, String> {
    let v = crate::json::strict::parse_value(bytes).map_err(|e| e.to_string())?;
    let digest = canonical_digest(&v)?;
    let Value::Object(m) = v else {
        return Err("checkpoint is not an object".into());
    };
    const MEMBERS: [&str; 6] = [
        "apiVersion",
        "kind",
        "checkpointVersion",
        "sequence",
        "previousCheckpointDigest",
        "entries",
    ];
    if let Some(k) = m.keys().find(|k| !MEMBERS.contains(&k.as_str())) {
        return Err(format!("unknown member {k:?}"));
    }
    let api = m.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    if api != CURRENT && api != LEGACY {
        return Err(format!("unsupported apiVersion {api:?}"));
    }
    if m.get("kind").and_then(Value::as_str) != Some(KIND) {
        return Err(format!("kind is not {KIND}"));
    }
    let sequence = m
        .get("sequence")
        .and_then(Value::as_u64)
        .ok_or("sequence is not a non-negative integer")?;
    let version = m
        .get("checkpointVersion")
        .and_then(Value::as_str)
        .ok_or("checkpointVersion is not a string")?
        .to_owned();
    let previous = match m.get("previousCheckpointDigest") {
        Some(Value::Null) => None,
        Some(Value::String(s)) if is_canonical_digest(s) => Some(s.clone()),
        _ => return Err("previousCheckpointDigest is not null or a canonical digest".into()),
    };
    let Some(Value::Array(list)) = m.get("entries") else {
        return Err("entries is not an array".into());
    };
    let mut entries = Vec::new();
    for (i, e) in list.iter().enumerate() {
        let Value::Object(e) = e else {
            return Err(format!("entries[{i}] is not an object"));
        };
        if !e
            .get("packageDigest")
            .and_then(Value::as_str)
            .is_some_and(is_canonical_digest)
        {
            return Err(format!(
                "entries[{i}].packageDigest is not a canonical digest"
            ));
        }
        if !e.get("formRef").is_some_and(Value::is_object) {
            return Err(format!("entries[{i}].formRef is not an object"));
        }
        let want = u64::try_from(i + 1).unwrap_or(u64::MAX);
        if e.get("sequence").and_then(Value::as_u64) != Some(want) {
            return Err(format!("entries[{i}].sequence is not {want}"));
        }
        entries.push(e.clone());
    }
    if u64::try_from(entries.len()).ok() != Some(sequence) {
        return Err(format!(
            "sequence {sequence} requires {sequence} cumulative entries, found {}",
            entries.len()
        ));
    }
    if api == CURRENT {
        if sequence == 0 && (version != "0.0.0" || previous.is_some()) {
            return Err("sequence 0 admits only the genesis".into());
        }
        if sequence > 0 && (version == "0.0.0" || previous.is_none()) {
            return Err(format!(
                "sequence {sequence} requires a canonical previousCheckpointDigest and a statement version"
            ));
        }
        if let Some(last) = entries.last() {
            if last.get("statementVersion").and_then(Value::as_str) != Some(version.as_str()) {
                return Err("final statementVersion must equal checkpointVersion".into());
            }
        }
    } else {
        if sequence == 0 {
            return Err("legacy checkpoints start at sequence 1".into());
        }
        if (sequence == 1) != previous.is_none() {
            return Err(format!(
                "sequence {sequence} has the wrong previousCheckpointDigest (null only at 1)"
            ));
        }
    }
    Ok(Checkpoint {
        api_version: api.to_owned(),
        sequence,
        checkpoint_version: version,
        previous,
        entries,
        digest,
    })
}

fn entries_digest(entries: &[Map<String, Value>]) -> Result<String, String> {
    canonical_digest(&Value::Array(
        entries.iter().cloned().map(Value::Object).collect(),
    ))
}

/// The digest of the one current-profile genesis.
fn genesis_digest() -> Result<String, String> {
    canonical_digest(&serde_json::json!({
        "apiVersion": CURRENT, "checkpointVersion": "0.0.0", "entries": [],
        "kind": KIND, "previousCheckpointDigest": null, "sequence": 0
    }))
}

/// Advances from the caller's previous pin (none: the first trusted
/// checkpoint) to the pin of `cp`.
///
/// # Errors
/// A phrase for a rollback, replay, fork, rewritten prefix, profile change,
/// or a first checkpoint that is not the profile's start.
pub fn advance(previous: Option<&Pin>, cp: &Checkpoint) -> Result<Pin, String> {
    let current = cp.api_version == CURRENT;
    match previous {
        None => {
            if current && cp.sequence != 0 {
                return Err("first trusted current revocation checkpoint must be the signed sequence 0 genesis".into());
            }
            if !current && cp.sequence != 1 {
                return Err("first trusted legacy revocation checkpoint must be sequence 1".into());
            }
        }
        Some(pin) => {
            let pinned = pin.checkpoint_api_version.as_deref().unwrap_or(LEGACY);
            if pinned != cp.api_version {
                let which = if pin.checkpoint_api_version.is_none() {
                    "legacy profile"
                } else {
                    "profile"
                };
                return Err(format!(
                    "revocation checkpoint apiVersion {:?} does not match pinned {which} {pinned:?}",
                    cp.api_version
                ));
            }
            let want = pin.sequence.saturating_add(1);
            if cp.sequence != want {
                return Err(format!(
                    "revocation checkpoint sequence is {}, want {want}",
                    cp.sequence
                ));
            }
            if current && pin.sequence == 0 && pin.digest != genesis_digest()? {
                return Err("previous revocation checkpoint pin does not identify the exact signed current genesis".into());
            }
            if cp.previous.as_deref() != Some(pin.digest.as_str()) {
                return Err("revocation checkpoint does not extend the pinned digest".into());
            }
            let n = usize::try_from(pin.sequence).unwrap_or(usize::MAX);
            let prefix = cp.entries.get(..n).ok_or("fewer entries than the pin")?;
            if entries_digest(prefix)? != pin.entries_digest {
                return Err("revocation checkpoint rewrites the pinned cumulative entries".into());
            }
        }
    }
    Ok(Pin {
        checkpoint_api_version: current.then(|| CURRENT.to_owned()),
        sequence: cp.sequence,
        digest: cp.digest.clone(),
        entries_digest: entries_digest(&cp.entries)?,
    })
}

/// Parses a previous-pin file (the shape `takoform-trust` reads).
///
/// # Errors
/// A phrase for non-I-JSON, unknown or missing members, non-canonical
/// digests, an unknown profile, or a legacy pin at sequence 0.
pub fn parse_pin(bytes: &[u8]) -> Result<Pin, String> {
    let v = crate::json::strict::parse_value(bytes).map_err(|e| e.to_string())?;
    let Value::Object(m) = v else {
        return Err("the pin is not an object".into());
    };
    if let Some(k) = m.keys().find(|k| {
        ![
            "checkpointApiVersion",
            "sequence",
            "digest",
            "entriesDigest",
        ]
        .contains(&k.as_str())
    }) {
        return Err(format!("unknown member {k:?}"));
    }
    let digest = |k: &str| -> Result<String, String> {
        match m.get(k) {
            Some(Value::String(s)) if is_canonical_digest(s) => Ok(s.clone()),
            _ => Err("canonical digests are required".into()),
        }
    };
    let sequence = m
        .get("sequence")
        .and_then(Value::as_u64)
        .ok_or("sequence is not a non-negative integer")?;
    let api = match m.get("checkpointApiVersion") {
        None => None,
        Some(Value::String(s)) if s == CURRENT => Some(s.clone()),
        Some(other) => return Err(format!("unsupported checkpointApiVersion {other}")),
    };
    if api.is_none() && sequence == 0 {
        return Err("legacy profile requires sequence 1 or greater".into());
    }
    Ok(Pin {
        checkpoint_api_version: api,
        sequence,
        digest: digest("digest")?,
        entries_digest: digest("entriesDigest")?,
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
                "FormRef apiVersion {group:?} is not a versionless group of the current profile"
            ));
        }
        if group == "trust.forms.takoform.com" {
            return Err(format!(
                "FormRef apiVersion {group:?} is reserved or unsupported"
            ));
        }
    } else if !group
        .split_once('/')
        .is_some_and(|(g, v)| dns(g) && !v.is_empty())
    {
        return Err(format!(
            "FormRef apiVersion {group:?} is not a legacy group/version"
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
    cp: &Checkpoint,
    package_digest: &str,
    form_ref: &Map<String, Value>,
) -> Result<Lookup, String> {
    if !is_canonical_digest(package_digest) {
        return Err("package digest is not canonical".into());
    }
    form_ref_of_profile(&cp.api_version, form_ref).map_err(|e| format!("FormRef: {e}"))?;
    for e in &cp.entries {
        if e.get("packageDigest").and_then(Value::as_str) != Some(package_digest) {
            continue;
        }
        if e.get("formRef").and_then(Value::as_object) != Some(form_ref) {
            return Err("checkpoint maps package digest to a different FormRef".into());
        }
        return Ok(Lookup::Revoked(
            e.get("statementVersion")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            e.get("sequence").and_then(Value::as_u64).unwrap_or(0),
        ));
    }
    Ok(Lookup::NotRevoked)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GENESIS: &[u8] = br#"{"apiVersion":"trust.forms.takoform.com/v1","checkpointVersion":"0.0.0","entries":[],"kind":"FormPackageRevocationCheckpoint","previousCheckpointDigest":null,"sequence":0}"#;

    #[test]
    fn genesis_pin_and_replay() {
        let cp = parse_checkpoint(GENESIS).unwrap_or_else(|e| panic!("{e}"));
        let pin = advance(None, &cp).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            pin.digest,
            "sha256:35c5c4cdc6cd6c4beaec8ba273091be10ae02c0d6f49861f97062fd59f9e8f66"
        );
        assert_eq!(
            pin.entries_digest,
            "sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"
        );
        assert_eq!(
            advance(Some(&pin), &cp),
            Err("revocation checkpoint sequence is 0, want 1".into())
        );
        let mut legacy = pin.clone();
        legacy.checkpoint_api_version = None;
        assert!(advance(Some(&legacy), &cp)
            .is_err_and(|e| e.contains("does not match pinned legacy profile")));
    }

    #[test]
    fn form_refs_of_the_profile() {
        let cp = parse_checkpoint(GENESIS).unwrap_or_else(|e| panic!("{e}"));
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

//! Rekor transparency-log evidence: the entry body (a `hashedrekord` 0.0.1
//! of this signature), the signed entry timestamp (SET), the RFC 6962
//! Merkle inclusion proof, and the signed checkpoint note. Hand-written
//! glue over `sha2` and the ECDSA verifiers: each piece is a few lines of
//! a published format and no maintained crate on the `der` 0.7 line
//! verifies them offline (see the module docs of [`super`]).

use serde_json::{json, Value};

use super::bundle::TlogEntry;
use super::keys::{sha256, HashAlg};
use super::root::Log;
use super::time::format_rfc3339;
use super::{b64, fail, hex, TrustError};
use crate::codes::Code;

/// Finds the Rekor log of the root that the entry names and whose key was
/// valid at the entry's integrated time.
///
/// # Errors
/// [`Code::TrustLogEntry`] when no log of the root matches.
pub fn log_for<'a>(entry: &TlogEntry, tlogs: &'a [Log]) -> Result<&'a Log, TrustError> {
    let Some(log) = tlogs.iter().find(|l| l.log_id == entry.log_id) else {
        return fail(
            Code::TrustLogEntry,
            "the entry's log is not a transparency log of the trusted root",
        );
    };
    if let super::keys::PublicKey::Unsupported(alg) = &log.key {
        return fail(
            Code::TrustLogEntry,
            format!(
                "the key of {} ({alg}) is of a type this verifier does not implement",
                log.base_url
            ),
        );
    }
    if !log.valid.contains(entry.integrated_time) {
        return fail(
            Code::TrustLogEntry,
            format!(
                "the log key of {} is not valid at the integrated time {}",
                log.base_url,
                format_rfc3339(entry.integrated_time)
            ),
        );
    }
    Ok(log)
}

/// Checks that the entry body is a `hashedrekord` 0.0.1 of this signature:
/// the same SHA-256 digest, signature bytes and certificate.
///
/// # Errors
/// [`Code::TrustLogEntry`] naming the first member that differs.
pub fn check_body(
    entry: &TlogEntry,
    digest: &[u8; 32],
    signature: &[u8],
    leaf_der: &[u8],
) -> Result<(), TrustError> {
    let bad = |m: &str| fail::<()>(Code::TrustLogEntry, format!("log entry body: {m}"));
    if entry.kind != "hashedrekord" || entry.version != "0.0.1" {
        return bad(&format!(
            "kind {}/{} is not hashedrekord/0.0.1",
            entry.kind, entry.version
        ));
    }
    let Ok(body) = serde_json::from_slice::<Value>(&entry.body) else {
        return bad("not JSON");
    };
    if body.get("kind").and_then(Value::as_str) != Some("hashedrekord")
        || body.get("apiVersion").and_then(Value::as_str) != Some("0.0.1")
    {
        return bad("kind or apiVersion differs from kindVersion");
    }
    let at = |p: &str| body.pointer(p).and_then(Value::as_str);
    if at("/spec/data/hash/algorithm") != Some("sha256")
        || at("/spec/data/hash/value") != Some(hex(digest).as_str())
    {
        return bad("the logged digest is not the subject's");
    }
    if at("/spec/signature/content").and_then(b64).as_deref() != Some(signature) {
        return bad("the logged signature is not the bundle's");
    }
    let pem = at("/spec/signature/publicKey/content")
        .and_then(b64)
        .and_then(|p| String::from_utf8(p).ok());
    let cert = pem.as_deref().and_then(pem_body);
    if cert.as_deref() != Some(leaf_der) {
        return bad("the logged certificate is not the bundle's");
    }
    Ok(())
}

/// The DER inside one PEM `CERTIFICATE` block.
fn pem_body(pem: &str) -> Option<Vec<u8>> {
    let start = pem.find("-----BEGIN CERTIFICATE-----")? + 27;
    let end = pem.find("-----END CERTIFICATE-----")?;
    let b: String = pem
        .get(start..end)?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    b64(&b)
}

/// Verifies the signed entry timestamp: the log's signature over the RFC
/// 8785 JSON `{"body","integratedTime","logID","logIndex"}` (Rekor's
/// promise that the entry is integrated at that time).
///
/// # Errors
/// [`Code::TrustLogEntry`] when the SET is absent-but-required (never: the
/// caller decides) or does not verify.
pub fn verify_set(entry: &TlogEntry, log: &Log) -> Result<bool, TrustError> {
    let Some(set) = &entry.set else {
        return Ok(false);
    };
    let payload = json!({
        "body": entry.body_b64,
        "integratedTime": entry.integrated_time,
        "logID": hex(&entry.log_id),
        "logIndex": entry.log_index,
    });
    let bytes = crate::canonical::canonicalize(&payload)
        .map_err(|d| TrustError::new(Code::TrustLogEntry, d.message))?;
    if !log.key.verify(HashAlg::Sha256, &bytes, set) {
        return fail(
            Code::TrustLogEntry,
            "the signed entry timestamp does not verify under the log key",
        );
    }
    Ok(true)
}

fn node(left: &[u8], right: &[u8]) -> [u8; 32] {
    let mut buf = Vec::with_capacity(65);
    buf.push(1);
    buf.extend_from_slice(left);
    buf.extend_from_slice(right);
    sha256(&buf)
}

/// The RFC 6962 leaf hash `SHA-256(0x00 || body)`.
pub fn leaf_hash(body: &[u8]) -> [u8; 32] {
    let mut buf = Vec::with_capacity(body.len() + 1);
    buf.push(0);
    buf.extend_from_slice(body);
    sha256(&buf)
}

/// The root an audit path leads to (RFC 9162 §2.1.3.2), or `None` when the
/// path's length does not fit the index and size.
pub fn root_from_path(index: u64, size: u64, leaf: [u8; 32], path: &[Vec<u8>]) -> Option<[u8; 32]> {
    if index >= size {
        return None;
    }
    let (mut fn_, mut sn) = (index, size - 1);
    let mut r = leaf;
    for p in path {
        if p.len() != 32 || sn == 0 {
            return None;
        }
        if fn_ & 1 == 1 || fn_ == sn {
            r = node(p, &r);
            while fn_ & 1 == 0 && fn_ != 0 {
                fn_ >>= 1;
                sn >>= 1;
            }
        } else {
            r = node(&r, p);
        }
        fn_ >>= 1;
        sn >>= 1;
    }
    (sn == 0).then_some(r)
}

/// Verifies the inclusion proof of the entry's body.
///
/// # Errors
/// [`Code::TrustInclusionProof`] when the path does not reach `rootHash`.
pub fn verify_inclusion(entry: &TlogEntry) -> Result<(), TrustError> {
    let p = &entry.proof;
    match root_from_path(p.log_index, p.tree_size, leaf_hash(&entry.body), &p.hashes) {
        Some(r) if r.as_slice() == p.root_hash.as_slice() => Ok(()),
        Some(_) => fail(
            Code::TrustInclusionProof,
            "the inclusion proof does not lead to its root hash",
        ),
        None => fail(
            Code::TrustInclusionProof,
            "the inclusion proof's path does not fit its index and tree size",
        ),
    }
}

/// Verifies the signed checkpoint (a transparency-dev signed note): the
/// body `origin\nsize\nbase64(root)\n[extension lines]` ends at the first
/// blank line; signature lines are `— <name> base64(keyhint[4] || sig)`
/// (U+2014). The size and root must be the proof's, and one signature
/// whose key hint is the first 4 bytes of the log id must verify under the
/// log key over the body bytes.
///
/// # Errors
/// [`Code::TrustLogCheckpoint`] naming what failed.
pub fn verify_checkpoint(entry: &TlogEntry, log: &Log) -> Result<(), TrustError> {
    let bad = |m: &str| fail::<()>(Code::TrustLogCheckpoint, format!("log checkpoint: {m}"));
    let note = &entry.proof.checkpoint;
    let Some(split) = note.find("\n\n") else {
        return bad("no blank line between body and signatures");
    };
    let (body, sigs) = (
        note.get(..=split).unwrap_or(""),
        note.get(split + 2..).unwrap_or(""),
    );
    let mut lines = body.lines();
    let (Some(origin), Some(size), Some(root)) = (lines.next(), lines.next(), lines.next()) else {
        return bad("body has fewer than three lines");
    };
    if origin.is_empty() {
        return bad("empty origin");
    }
    if size.parse::<u64>().ok() != Some(entry.proof.tree_size)
        || size.starts_with('0') && size != "0"
    {
        return bad("its tree size is not the proof's");
    }
    if b64(root).as_deref() != Some(entry.proof.root_hash.as_slice()) {
        return bad("its root hash is not the proof's");
    }
    let hint = entry.log_id.get(..4).unwrap_or_default();
    let mut any = false;
    for line in sigs.lines().filter(|l| !l.is_empty()) {
        let Some(rest) = line.strip_prefix("\u{2014} ") else {
            return bad("a signature line does not start with U+2014 and a space");
        };
        let Some((_name, sig)) = rest.rsplit_once(' ') else {
            return bad("a signature line has no signature");
        };
        let Some(sig) = b64(sig) else {
            return bad("a signature is not base64");
        };
        if sig.get(..4) == Some(hint) {
            any = true;
            if log.key.verify(
                HashAlg::Sha256,
                body.as_bytes(),
                sig.get(4..).unwrap_or_default(),
            ) {
                return Ok(());
            }
        }
    }
    if any {
        bad("its signature does not verify under the log key")
    } else {
        bad("no signature by the log's key")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proof_walk_matches_a_small_tree() {
        // Tree of 3 leaves: root = H(H(l0,l1), l2).
        let l: Vec<[u8; 32]> = (0u8..3).map(|i| leaf_hash(&[i])).collect();
        let (l0, l1, l2) = (l[0], l[1], l[2]);
        let n01 = node(&l0, &l1);
        let root = node(&n01, &l2);
        assert_eq!(
            root_from_path(0, 3, l0, &[l1.to_vec(), l2.to_vec()]),
            Some(root)
        );
        assert_eq!(
            root_from_path(1, 3, l1, &[l0.to_vec(), l2.to_vec()]),
            Some(root)
        );
        assert_eq!(root_from_path(2, 3, l2, &[n01.to_vec()]), Some(root));
        // near misses: wrong index, short path, index past the size
        assert_ne!(
            root_from_path(1, 3, l0, &[l1.to_vec(), l2.to_vec()]),
            Some(root)
        );
        assert_eq!(root_from_path(0, 3, l0, &[l1.to_vec()]), None);
        assert_eq!(root_from_path(3, 3, l2, &[n01.to_vec()]), None);
    }
}

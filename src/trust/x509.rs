//! The Fulcio leaf certificate: its chain to a CA of the trusted root at a
//! verified time (RFC 5280 path checks limited to what Sigstore needs:
//! signatures, names, validity, CA and code-signing usage), its embedded
//! SCT (RFC 6962 §3.2, hand-built signed data: no crate verifies an SCT
//! over a precertificate on the `der` 0.7 line), and the identity the
//! Fulcio extensions carry (OID arc 1.3.6.1.4.1.57264.1).

use const_oid::ObjectIdentifier;
use der::asn1::Utf8StringRef;
use der::{Decode, Encode, Reader, SliceReader};
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::pkix::{BasicConstraints, ExtendedKeyUsage, SubjectAltName};
use x509_cert::Certificate;

use super::keys::{sha256, HashAlg, PublicKey};
use super::root::{Authority, Log};
use super::time::format_rfc3339;

const SCT_LIST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.4.1.11129.2.4.2");
const SAN: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.17");
const EKU: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.37");
const BASIC_CONSTRAINTS: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.19");
/// `id-kp-codeSigning`.
pub(crate) const CODE_SIGNING: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.3");
/// `id-kp-timeStamping`.
pub(crate) const TIME_STAMPING: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.8");

/// The raw `tbsCertificate` TLV of a certificate's DER (the signed bytes, as
/// issued, not re-encoded).
pub(crate) fn raw_tbs(cert_der: &[u8]) -> Option<&[u8]> {
    let mut r = SliceReader::new(cert_der).ok()?;
    // Skip the outer Certificate SEQUENCE header; the next TLV is the TBS.
    der::Header::decode(&mut r).ok()?;
    r.tlv_bytes().ok()
}

/// Whether `issuer`'s key signed `cert` (name chaining and signature).
pub(crate) fn issued_by(cert: &Certificate, cert_der: &[u8], issuer: &Certificate) -> bool {
    if cert.tbs_certificate.issuer != issuer.tbs_certificate.subject {
        return false;
    }
    let Some(hash) = HashAlg::of_signature_oid(&cert.signature_algorithm.oid) else {
        return false;
    };
    let Ok(key) = PublicKey::of_certificate(issuer) else {
        return false;
    };
    let Some(tbs) = raw_tbs(cert_der) else {
        return false;
    };
    let Some(sig) = cert.signature.as_bytes() else {
        return false;
    };
    key.verify(hash, tbs, sig)
}

/// Whether `t` (Unix seconds) is inside the certificate's validity.
pub(crate) fn valid_at(cert: &Certificate, t: i64) -> bool {
    let v = &cert.tbs_certificate.validity;
    let secs = |x: x509_cert::time::Time| i64::try_from(x.to_unix_duration().as_secs()).ok();
    match (secs(v.not_before), secs(v.not_after)) {
        (Some(a), Some(b)) => a <= t && t <= b,
        _ => false,
    }
}

fn extension<'a>(cert: &'a Certificate, oid: &ObjectIdentifier) -> Option<&'a [u8]> {
    cert.tbs_certificate
        .extensions
        .as_ref()?
        .iter()
        .find(|e| e.extn_id == *oid)
        .map(|e| e.extn_value.as_bytes())
}

/// Whether the certificate's extended key usage lists `purpose`.
pub(crate) fn has_eku(cert: &Certificate, purpose: &ObjectIdentifier) -> bool {
    extension(cert, &EKU)
        .and_then(|v| ExtendedKeyUsage::from_der(v).ok())
        .is_some_and(|e| e.0.contains(purpose))
}

fn is_ca(cert: &Certificate) -> bool {
    extension(cert, &BASIC_CONSTRAINTS)
        .and_then(|v| BasicConstraints::from_der(v).ok())
        .is_some_and(|b| b.ca)
}

/// Checks that `leaf` chains through `authority.chain` to its self-signed
/// last certificate, every certificate valid at `t`, the authority's window
/// containing `t`, and every issuer a CA. Returns the certificate that
/// issued the leaf.
///
/// # Errors
/// A phrase saying which link failed.
pub(crate) fn chain_at<'a>(
    leaf: &Certificate,
    leaf_der: &[u8],
    authority: &'a Authority,
    t: i64,
) -> Result<&'a Certificate, String> {
    let at = format_rfc3339(t);
    if !authority.valid.contains(t) {
        return Err(format!(
            "the authority {} is not valid at {at}",
            authority.uri
        ));
    }
    if !valid_at(leaf, t) {
        return Err(format!("the leaf certificate is not valid at {at}"));
    }
    let first = authority.chain.first().ok_or("empty chain")?;
    if !issued_by(leaf, leaf_der, first) {
        return Err(format!("the leaf is not issued by {}", authority.uri));
    }
    let mut current = first;
    let mut rest = authority.chain.iter().skip(1);
    loop {
        if !valid_at(current, t) {
            return Err(format!(
                "CA certificate {} is not valid at {at}",
                current.tbs_certificate.subject
            ));
        }
        if !is_ca(current) {
            return Err(format!(
                "certificate {} is not a CA",
                current.tbs_certificate.subject
            ));
        }
        let der = current.to_der().map_err(|e| e.to_string())?;
        match rest.next() {
            Some(next) => {
                if !issued_by(current, &der, next) {
                    return Err(format!(
                        "{} is not issued by {}",
                        current.tbs_certificate.subject, next.tbs_certificate.subject
                    ));
                }
                current = next;
            }
            None => {
                if !issued_by(current, &der, current) {
                    return Err("the chain does not end in a self-signed root".into());
                }
                return Ok(first);
            }
        }
    }
}

/// One parsed SCT (RFC 6962 §3.2, v1).
struct Sct<'a> {
    log_id: &'a [u8],
    timestamp_ms: u64,
    extensions: &'a [u8],
    hash: u8,
    signature: &'a [u8],
}

fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (head, tail) = (b.get(..n)?, b.get(n..)?);
    *b = tail;
    Some(head)
}

fn take_len<'a>(b: &mut &'a [u8], width: usize) -> Option<&'a [u8]> {
    let n = take(b, width)?
        .iter()
        .fold(0usize, |acc, x| (acc << 8) | usize::from(*x));
    take(b, n)
}

fn parse_scts(list: &[u8]) -> Option<Vec<Sct<'_>>> {
    let mut outer = list;
    let mut body = take_len(&mut outer, 2)?;
    let mut out = Vec::new();
    while !body.is_empty() {
        let mut s = take_len(&mut body, 2)?;
        if take(&mut s, 1)? != [0] {
            continue; // not v1: cannot count
        }
        let log_id = take(&mut s, 32)?;
        let ts = take(&mut s, 8)?;
        let timestamp_ms = ts.iter().fold(0u64, |a, x| (a << 8) | u64::from(*x));
        let extensions = take_len(&mut s, 2)?;
        let alg = take(&mut s, 2)?;
        let signature = take_len(&mut s, 2)?;
        out.push(Sct {
            log_id,
            timestamp_ms,
            extensions,
            hash: *alg.first()?,
            signature,
        });
    }
    Some(out)
}

/// Counts the embedded SCTs that verify under a CT log of the root whose
/// window holds the SCT's time. `issuer` is the certificate that issued the
/// leaf (its key hash is part of the signed data).
///
/// # Errors
/// A phrase when the leaf has no SCT extension or it does not parse.
pub(crate) fn verified_scts(
    leaf: &Certificate,
    issuer: &Certificate,
    ctlogs: &[Log],
) -> Result<usize, String> {
    let raw = extension(leaf, &SCT_LIST).ok_or("the leaf certificate carries no SCT")?;
    let list =
        der::asn1::OctetStringRef::from_der(raw).map_err(|e| format!("SCT extension: {e}"))?;
    let scts = parse_scts(list.as_bytes()).ok_or("the SCT list does not parse")?;
    // The precertificate TBS: the leaf's TBS without the SCT extension.
    let mut tbs = leaf.tbs_certificate.clone();
    if let Some(exts) = tbs.extensions.as_mut() {
        exts.retain(|e| e.extn_id != SCT_LIST);
    }
    let tbs_der = tbs.to_der().map_err(|e| e.to_string())?;
    let spki = issuer
        .tbs_certificate
        .subject_public_key_info
        .to_der()
        .map_err(|e| e.to_string())?;
    let issuer_key_hash = sha256(&spki);
    let mut ok = 0;
    for sct in &scts {
        let Some(log) = ctlogs.iter().find(|l| l.log_id == sct.log_id) else {
            continue;
        };
        let t = i64::try_from(sct.timestamp_ms / 1000).unwrap_or(i64::MAX);
        if !log.valid.contains(t) {
            continue;
        }
        let hash = match sct.hash {
            4 => HashAlg::Sha256,
            5 => HashAlg::Sha384,
            6 => HashAlg::Sha512,
            _ => continue,
        };
        let (Ok(tbs_len), Ok(ext_len)) = (
            u32::try_from(tbs_der.len()),
            u16::try_from(sct.extensions.len()),
        ) else {
            continue;
        };
        let mut signed = Vec::with_capacity(tbs_der.len() + 64);
        signed.extend_from_slice(&[0, 0]); // v1, certificate_timestamp
        signed.extend_from_slice(&sct.timestamp_ms.to_be_bytes());
        signed.extend_from_slice(&[0, 1]); // precert_entry
        signed.extend_from_slice(&issuer_key_hash);
        signed.extend_from_slice(tbs_len.to_be_bytes().get(1..).unwrap_or_default());
        signed.extend_from_slice(&tbs_der);
        signed.extend_from_slice(&ext_len.to_be_bytes());
        signed.extend_from_slice(sct.extensions);
        if log.key.verify(hash, &signed, sct.signature) {
            ok += 1;
        }
    }
    Ok(ok)
}

/// The identity a Fulcio certificate carries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CertIdentity {
    /// OIDC issuer (1.3.6.1.4.1.57264.1.8, else the legacy 1.1).
    pub issuer: Option<String>,
    /// URI subject alternative names.
    pub san_uris: Vec<String>,
    /// Build signer URI (1.9).
    pub build_signer_uri: Option<String>,
    /// Build signer digest (1.10): the workflow commit.
    pub build_signer_digest: Option<String>,
    /// Source repository URI (1.12).
    pub source_repository_uri: Option<String>,
    /// Source repository digest (1.13): the source commit.
    pub source_repository_digest: Option<String>,
    /// Source repository ref (1.14).
    pub source_repository_ref: Option<String>,
    /// Build config digest (1.19): the build config commit.
    pub build_config_digest: Option<String>,
}

fn fulcio(n: u32) -> Option<ObjectIdentifier> {
    ObjectIdentifier::new(&format!("1.3.6.1.4.1.57264.1.{n}")).ok()
}

/// A Fulcio v2 extension: a DER UTF8String.
fn utf8_ext(cert: &Certificate, n: u32) -> Option<String> {
    let v = extension(cert, &fulcio(n)?)?;
    Utf8StringRef::from_der(v)
        .ok()
        .map(|s| s.as_str().to_owned())
}

/// Reads the identity extensions of a Fulcio certificate.
pub fn identity(cert: &Certificate) -> CertIdentity {
    let legacy_issuer = fulcio(1)
        .and_then(|o| extension(cert, &o))
        .and_then(|v| std::str::from_utf8(v).ok())
        .map(str::to_owned);
    let san_uris = extension(cert, &SAN)
        .and_then(|v| SubjectAltName::from_der(v).ok())
        .map(|s| {
            s.0.into_iter()
                .filter_map(|g| match g {
                    GeneralName::UniformResourceIdentifier(u) => Some(u.to_string()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    CertIdentity {
        issuer: utf8_ext(cert, 8).or(legacy_issuer),
        san_uris,
        build_signer_uri: utf8_ext(cert, 9),
        build_signer_digest: utf8_ext(cert, 10),
        source_repository_uri: utf8_ext(cert, 12),
        source_repository_digest: utf8_ext(cert, 13),
        source_repository_ref: utf8_ext(cert, 14),
        build_config_digest: utf8_ext(cert, 19),
    }
}

/// One non-null Git commit as GitHub writes it: 40 lowercase hex, not all
/// zeros.
pub fn is_git_commit(s: &str) -> bool {
    s.len() == 40
        && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        && s.bytes().any(|b| b != b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_commits() {
        assert!(is_git_commit("5173386b3e898a607b99a87ae0dc6f386927ca9e"));
        assert!(!is_git_commit("5173386B3E898A607B99A87AE0DC6F386927CA9E"));
        assert!(!is_git_commit(&"0".repeat(40)));
        assert!(!is_git_commit("5173386b3e898a607b99a87ae0dc6f386927ca9"));
        assert!(!is_git_commit("sha1:5173386b3e898a607b99a87ae0dc6f386927"));
    }
}

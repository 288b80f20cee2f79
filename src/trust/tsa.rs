//! RFC 3161 timestamps: a `TimeStampResp` whose token is a CMS SignedData
//! (RFC 5652, decoded with the `cms` crate) over a TSTInfo (read here: a
//! few fields, decoded with `der`). The token must be granted, cover the
//! bundle's signature bytes (message imprint), carry signed attributes
//! binding the TSTInfo, and be signed by a timestamp authority of the
//! trusted root whose chain and window hold the token's time.

use cms::content_info::ContentInfo;
use cms::signed_data::SignedData;
use const_oid::ObjectIdentifier;
use der::asn1::{BitString, OctetString};
use der::{Any, Decode, Encode, Reader, SliceReader, Tag};
use spki::AlgorithmIdentifierOwned;

use super::keys::{HashAlg, PublicKey};
use super::root::Authority;
use super::x509::{chain_at, has_eku, valid_at, TIME_STAMPING};
use super::{fail, TrustError};
use crate::codes::Code;

const SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
const TST_INFO: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.1.4");
const CONTENT_TYPE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.3");
const MESSAGE_DIGEST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.4");

#[derive(der::Sequence)]
struct PkiStatusInfo {
    status: u32,
    status_string: Option<Vec<String>>,
    fail_info: Option<BitString>,
}

#[derive(der::Sequence)]
struct TimeStampResp {
    status: PkiStatusInfo,
    token: Option<ContentInfo>,
}

#[derive(der::Sequence)]
struct MessageImprint {
    hash_algorithm: AlgorithmIdentifierOwned,
    hashed_message: OctetString,
}

/// `YYYYMMDDHHMMSS[.fraction]Z` → Unix seconds (fraction dropped).
fn generalized_time(bytes: &[u8]) -> Option<i64> {
    let s = std::str::from_utf8(bytes).ok()?;
    let s = s.strip_suffix('Z')?;
    let whole = s.split('.').next()?;
    if whole.len() != 14 || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let text = format!(
        "{}-{}-{}T{}:{}:{}Z",
        whole.get(0..4)?,
        whole.get(4..6)?,
        whole.get(6..8)?,
        whole.get(8..10)?,
        whole.get(10..12)?,
        whole.get(12..14)?
    );
    super::time::parse_rfc3339(&text)
}

/// (imprint hash, imprint, genTime) of a TSTInfo.
fn parse_tst_info(bytes: &[u8]) -> der::Result<(AlgorithmIdentifierOwned, Vec<u8>, Any)> {
    let mut r = SliceReader::new(bytes)?;
    let out = r.sequence(|r| {
        let _version: u8 = r.decode()?;
        let _policy: ObjectIdentifier = r.decode()?;
        let imprint: MessageImprint = r.decode()?;
        let _serial: der::asn1::Int = r.decode()?;
        let gen_time: Any = r.decode()?;
        while !r.is_finished() {
            let _: Any = r.decode()?;
        }
        Ok((
            imprint.hash_algorithm,
            imprint.hashed_message.as_bytes().to_vec(),
            gen_time,
        ))
    })?;
    r.finish(out)
}

/// Verifies one RFC 3161 `TimeStampResp` over `signature` and returns its
/// time (Unix seconds).
///
/// # Errors
/// [`Code::TrustTimestamp`] naming the first check that failed.
pub fn verify_timestamp(
    resp_der: &[u8],
    signature: &[u8],
    tsas: &[Authority],
) -> Result<i64, TrustError> {
    let bad = |m: String| fail::<i64>(Code::TrustTimestamp, format!("RFC 3161 timestamp: {m}"));
    let resp = match TimeStampResp::from_der(resp_der) {
        Ok(r) => r,
        Err(e) => return bad(format!("not a TimeStampResp: {e}")),
    };
    if resp.status.status > 1 {
        return bad(format!("status {} is not granted", resp.status.status));
    }
    let Some(token) = resp.token else {
        return bad("no token".into());
    };
    if token.content_type != SIGNED_DATA {
        return bad("the token is not CMS SignedData".into());
    }
    let sd: SignedData = match token.content.decode_as() {
        Ok(s) => s,
        Err(e) => return bad(format!("SignedData: {e}")),
    };
    if sd.encap_content_info.econtent_type != TST_INFO {
        return bad("the signed content is not a TSTInfo".into());
    }
    let Some(tst) = sd
        .encap_content_info
        .econtent
        .as_ref()
        .and_then(|c| c.decode_as::<OctetString>().ok())
    else {
        return bad("no TSTInfo content".into());
    };
    let tst = tst.as_bytes();
    let (imprint_alg, imprint, gen_time) = match parse_tst_info(tst) {
        Ok(t) => t,
        Err(e) => return bad(format!("TSTInfo: {e}")),
    };
    let Some(imprint_hash) = HashAlg::of_digest_oid(&imprint_alg.oid) else {
        return bad(format!("unsupported imprint hash {}", imprint_alg.oid));
    };
    if imprint_hash.digest(signature) != imprint {
        return bad("the message imprint is not of this signature".into());
    }
    if der::Tagged::tag(&gen_time) != Tag::GeneralizedTime {
        return bad("genTime is not a GeneralizedTime".into());
    }
    let Some(t) = generalized_time(gen_time.value()) else {
        return bad("genTime does not parse".into());
    };
    let mut signers = sd.signer_infos.0.iter();
    let (Some(si), None) = (signers.next(), signers.next()) else {
        return bad("the token does not have exactly one signer".into());
    };
    let Some(digest_hash) = HashAlg::of_digest_oid(&si.digest_alg.oid) else {
        return bad(format!("unsupported digest {}", si.digest_alg.oid));
    };
    let Some(attrs) = &si.signed_attrs else {
        return bad("no signed attributes".into());
    };
    let attr = |oid: ObjectIdentifier| {
        attrs
            .iter()
            .find(|a| a.oid == oid)
            .and_then(|a| a.values.iter().next())
    };
    if attr(CONTENT_TYPE).and_then(|v| v.decode_as::<ObjectIdentifier>().ok()) != Some(TST_INFO) {
        return bad("the content-type attribute is not TSTInfo".into());
    }
    let md = attr(MESSAGE_DIGEST).and_then(|v| v.decode_as::<OctetString>().ok());
    if md.as_ref().map(OctetString::as_bytes) != Some(digest_hash.digest(tst).as_slice()) {
        return bad("the message-digest attribute is not the TSTInfo's".into());
    }
    let signed = match attrs.to_der() {
        Ok(s) => s,
        Err(e) => return bad(format!("signed attributes: {e}")),
    };
    let sig_hash = HashAlg::of_signature_oid(&si.signature_algorithm.oid).unwrap_or(digest_hash);
    let mut reasons = Vec::new();
    for tsa in tsas {
        let Some(leaf) = tsa.chain.first() else {
            continue;
        };
        let Ok(key) = PublicKey::of_certificate(leaf) else {
            continue;
        };
        if !key.verify(sig_hash, &signed, si.signature.as_bytes()) {
            reasons.push(format!("not signed by {}", tsa.uri));
            continue;
        }
        if !has_eku(leaf, &TIME_STAMPING) {
            reasons.push(format!("{} is not a timestamping certificate", tsa.uri));
            continue;
        }
        let checked = if tsa.chain.len() > 1 {
            let parents = Authority {
                uri: tsa.uri.clone(),
                chain: tsa.chain.iter().skip(1).cloned().collect(),
                valid: tsa.valid,
            };
            match leaf.to_der() {
                Ok(der) => chain_at(leaf, &der, &parents, t).map(|_| ()),
                Err(e) => Err(e.to_string()),
            }
        } else if tsa.valid.contains(t) && valid_at(leaf, t) {
            Ok(())
        } else {
            Err("the TSA is not valid at the token's time".into())
        };
        match checked {
            Ok(()) => return Ok(t),
            Err(e) => reasons.push(e),
        }
    }
    if reasons.is_empty() {
        bad("no timestamp authority in the trusted root".into())
    } else {
        bad(reasons.join("; "))
    }
}

//! The Sigstore bundle: v0.3 (`application/vnd.dev.sigstore.bundle.v0.3+json`)
//! message-signature bundles with a Fulcio certificate, Rekor entries with
//! inclusion proofs, and RFC 3161 timestamps. Parsing only; the checks are
//! in [`super::verify`].

use crate::diag::escape::quote;
use der::Decode;
use serde_json::{Map, Value};
use x509_cert::Certificate;

use super::{b64, fail, TrustError};
use crate::codes::Code;

/// Media types of a v0.3 bundle.
pub const BUNDLE_MEDIA_TYPES: [&str; 2] = [
    "application/vnd.dev.sigstore.bundle.v0.3+json",
    "application/vnd.dev.sigstore.bundle+json;version=0.3",
];

/// A Rekor inclusion proof with its signed checkpoint.
#[derive(Clone, Debug)]
pub struct InclusionProof {
    /// Leaf index in the tree the proof is for.
    pub log_index: u64,
    /// Root hash the proof leads to.
    pub root_hash: Vec<u8>,
    /// Tree size.
    pub tree_size: u64,
    /// Audit path, leaf to root.
    pub hashes: Vec<Vec<u8>>,
    /// The signed checkpoint note text.
    pub checkpoint: String,
}

/// One transparency-log entry.
#[derive(Clone, Debug)]
pub struct TlogEntry {
    /// Global log index.
    pub log_index: i64,
    /// Log id bytes.
    pub log_id: Vec<u8>,
    /// `kindVersion.kind`.
    pub kind: String,
    /// `kindVersion.version`.
    pub version: String,
    /// Integrated time, Unix seconds.
    pub integrated_time: i64,
    /// Signed entry timestamp (DER ECDSA), if present.
    pub set: Option<Vec<u8>>,
    /// The inclusion proof (always present: its absence is refused).
    pub proof: InclusionProof,
    /// `canonicalizedBody` as written (base64).
    pub body_b64: String,
    /// The decoded body (canonical JSON of the entry).
    pub body: Vec<u8>,
}

/// A parsed v0.3 message-signature bundle.
#[derive(Clone, Debug)]
pub struct Bundle {
    /// The leaf certificate's DER.
    pub leaf_der: Vec<u8>,
    /// The leaf certificate.
    pub leaf: Certificate,
    /// Transparency-log entries (at least one).
    pub entries: Vec<TlogEntry>,
    /// RFC 3161 `TimeStampResp` DER blobs.
    pub timestamps: Vec<Vec<u8>>,
    /// `messageDigest`: algorithm name and digest bytes, if present.
    pub message_digest: Option<(String, Vec<u8>)>,
    /// The DER ECDSA signature.
    pub signature: Vec<u8>,
}

fn bad<T>(m: impl Into<String>) -> Result<T, TrustError> {
    fail(Code::TrustMalformedBundle, m)
}

fn obj<'a>(v: Option<&'a Value>, at: &str) -> Result<&'a Map<String, Value>, TrustError> {
    match v {
        Some(Value::Object(m)) => Ok(m),
        Some(_) => bad(format!("{at} is not an object")),
        None => bad(format!("{at} is missing")),
    }
}

fn string<'a>(m: &'a Map<String, Value>, k: &str, at: &str) -> Result<&'a str, TrustError> {
    super::member_str(Code::TrustMalformedBundle, m, k, at)
}

fn bytes(m: &Map<String, Value>, k: &str, at: &str) -> Result<Vec<u8>, TrustError> {
    super::member_b64(Code::TrustMalformedBundle, m, k, at)
}

/// A protobuf JSON int64: a decimal string (or a plain JSON integer).
fn int(m: &Map<String, Value>, k: &str, at: &str) -> Result<i64, TrustError> {
    match m.get(k) {
        Some(Value::String(s)) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s
            .parse()
            .map_or_else(|_| bad(format!("{at}.{k} is out of range")), Ok),
        Some(Value::Number(n)) => n
            .as_i64()
            .map_or_else(|| bad(format!("{at}.{k} is not an integer")), Ok),
        // protobuf JSON omits zero values
        None => Ok(0),
        _ => bad(format!("{at}.{k} is not an integer")),
    }
}

fn unknown(m: &Map<String, Value>, known: &[&str], at: &str) -> Result<(), TrustError> {
    match m.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => bad(format!("{at}: unknown member {}", quote(k))),
        None => Ok(()),
    }
}

fn entry(v: &Value, at: &str) -> Result<TlogEntry, TrustError> {
    let m = obj(Some(v), at)?;
    unknown(
        m,
        &[
            "logIndex",
            "logId",
            "kindVersion",
            "integratedTime",
            "inclusionPromise",
            "inclusionProof",
            "canonicalizedBody",
        ],
        at,
    )?;
    let kv = obj(m.get("kindVersion"), &format!("{at}.kindVersion"))?;
    let set = match m.get("inclusionPromise") {
        None => None,
        Some(p) => Some(bytes(
            obj(Some(p), &format!("{at}.inclusionPromise"))?,
            "signedEntryTimestamp",
            &format!("{at}.inclusionPromise"),
        )?),
    };
    let Some(proof) = m.get("inclusionProof") else {
        return fail(
            Code::TrustMissingTransparency,
            format!("{at} has no inclusion proof"),
        );
    };
    let pat = format!("{at}.inclusionProof");
    let p = obj(Some(proof), &pat)?;
    let hashes = match p.get("hashes") {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|h| {
                h.as_str()
                    .and_then(b64)
                    .map_or_else(|| bad(format!("{pat}.hashes has a non-base64 member")), Ok)
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return bad(format!("{pat}.hashes is not an array")),
    };
    let checkpoint = obj(p.get("checkpoint"), &format!("{pat}.checkpoint"))?;
    let nonneg = |n: i64, k: &str| {
        u64::try_from(n).map_or_else(|_| bad(format!("{pat}.{k} is negative")), Ok)
    };
    let body_b64 = string(m, "canonicalizedBody", at)?.to_owned();
    let body =
        b64(&body_b64).map_or_else(|| bad(format!("{at}.canonicalizedBody is not base64")), Ok)?;
    Ok(TlogEntry {
        log_index: int(m, "logIndex", at)?,
        log_id: bytes(obj(m.get("logId"), &format!("{at}.logId"))?, "keyId", at)?,
        kind: string(kv, "kind", at)?.to_owned(),
        version: string(kv, "version", at)?.to_owned(),
        integrated_time: int(m, "integratedTime", at)?,
        set,
        proof: InclusionProof {
            log_index: nonneg(int(p, "logIndex", &pat)?, "logIndex")?,
            root_hash: bytes(p, "rootHash", &pat)?,
            tree_size: nonneg(int(p, "treeSize", &pat)?, "treeSize")?,
            hashes,
            checkpoint: string(checkpoint, "envelope", &pat)?.to_owned(),
        },
        body_b64,
        body,
    })
}

/// Parses a bundle file's bytes.
///
/// # Errors
/// [`Code::TrustMalformedBundle`] for non-I-JSON, another media type or
/// version, no certificate, no message signature (a DSSE envelope), an
/// unknown member, or a field of the wrong type;
/// [`Code::TrustMissingTransparency`] for no log entry or an entry without
/// an inclusion proof; [`Code::TrustIdentity`] (verification-failed) for a
/// bundle signed by a bare public key, which no certificate identity covers.
pub fn parse_bundle(raw: &[u8]) -> Result<Bundle, TrustError> {
    if raw.is_empty() {
        return bad("input is empty");
    }
    let v = crate::json::strict::parse_value(raw)
        .map_err(|e| TrustError::new(Code::TrustMalformedBundle, e.to_string()))?;
    let top = obj(Some(&v), "bundle")?;
    unknown(
        top,
        &[
            "mediaType",
            "verificationMaterial",
            "messageSignature",
            "dsseEnvelope",
        ],
        "bundle",
    )?;
    match top.get("mediaType").and_then(Value::as_str) {
        Some(t) if BUNDLE_MEDIA_TYPES.contains(&t) => {}
        other => return bad(format!("bundle mediaType is {other:?}, want a v0.3 bundle")),
    }
    let vm = obj(top.get("verificationMaterial"), "verificationMaterial")?;
    unknown(
        vm,
        &[
            "certificate",
            "x509CertificateChain",
            "publicKey",
            "tlogEntries",
            "timestampVerificationData",
        ],
        "verificationMaterial",
    )?;
    let leaf_der = match (vm.get("certificate"), vm.get("publicKey")) {
        (Some(c), _) => bytes(obj(Some(c), "certificate")?, "rawBytes", "certificate")?,
        (None, Some(_)) => {
            return fail(
                Code::TrustIdentity,
                "bundle is not certificate-signed (public key material)",
            )
        }
        (None, None) => return bad("a v0.3 bundle carries verificationMaterial.certificate"),
    };
    let leaf = Certificate::from_der(&leaf_der)
        .map_err(|e| TrustError::new(Code::TrustMalformedBundle, format!("certificate: {e}")))?;
    if top.contains_key("dsseEnvelope") {
        return bad("bundle must contain a message signature, not a DSSE envelope");
    }
    let ms = obj(top.get("messageSignature"), "messageSignature")?;
    let signature = bytes(ms, "signature", "messageSignature")?;
    let message_digest = match ms.get("messageDigest") {
        None => None,
        Some(d) => {
            let d = obj(Some(d), "messageSignature.messageDigest")?;
            Some((
                string(d, "algorithm", "messageDigest")?.to_owned(),
                bytes(d, "digest", "messageDigest")?,
            ))
        }
    };
    let mut timestamps = Vec::new();
    if let Some(t) = vm.get("timestampVerificationData") {
        let t = obj(Some(t), "timestampVerificationData")?;
        if let Some(list) = t.get("rfc3161Timestamps") {
            let Value::Array(list) = list else {
                return bad("rfc3161Timestamps is not an array");
            };
            for (i, ts) in list.iter().enumerate() {
                let at = format!("rfc3161Timestamps[{i}]");
                timestamps.push(bytes(obj(Some(ts), &at)?, "signedTimestamp", &at)?);
            }
        }
    }
    let entries = match vm.get("tlogEntries") {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, e)| entry(e, &format!("tlogEntries[{i}]")))
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return bad("tlogEntries is not an array"),
    };
    if entries.is_empty() {
        return fail(
            Code::TrustMissingTransparency,
            "bundle has no transparency-log entry",
        );
    }
    Ok(Bundle {
        leaf_der,
        leaf,
        entries,
        timestamps,
        message_digest,
        signature,
    })
}

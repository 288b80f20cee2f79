//! The caller's Sigstore trusted root (`trusted_root.json`, media type
//! `application/vnd.dev.sigstore.trustedroot+json;version=0.1`): Rekor
//! logs, Fulcio CAs, CT logs and timestamp authorities, each with its
//! validity window. Read from the file only; nothing is fetched.

use crate::diag::escape::quote;
use der::Decode;
use serde_json::{Map, Value};
use x509_cert::Certificate;

use super::keys::PublicKey;
use super::time::parse_rfc3339;
use super::{fail, TrustError};
use crate::codes::Code;

/// Media types of a trusted root this verifier reads.
pub const ROOT_MEDIA_TYPES: [&str; 2] = [
    "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
    "application/vnd.dev.sigstore.trustedroot.v0.2+json",
];

/// A validity window in Unix seconds (`end` open when absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// First second of validity.
    pub start: i64,
    /// Last second of validity, if any.
    pub end: Option<i64>,
}

impl Window {
    /// Whether `t` (Unix seconds) lies in the window.
    pub fn contains(&self, t: i64) -> bool {
        t >= self.start && self.end.is_none_or(|e| t <= e)
    }
}

/// A transparency (Rekor) or CT log.
#[derive(Clone, Debug)]
pub struct Log {
    /// `baseUrl`.
    pub base_url: String,
    /// `logId.keyId` bytes (SHA-256 of the key's DER for these logs).
    pub log_id: Vec<u8>,
    pub(crate) key: PublicKey,
    /// The key's validity window.
    pub valid: Window,
}

/// A certificate authority (Fulcio) or timestamp authority.
#[derive(Clone, Debug)]
pub struct Authority {
    /// `uri`.
    pub uri: String,
    /// `certChain.certificates`, in file order (issuing certificate first,
    /// the self-signed root last).
    pub chain: Vec<Certificate>,
    /// The authority's validity window.
    pub valid: Window,
}

/// A parsed trusted root.
#[derive(Clone, Debug)]
pub struct TrustedRoot {
    /// Rekor logs (`tlogs`).
    pub tlogs: Vec<Log>,
    /// Fulcio CAs (`certificateAuthorities`).
    pub cas: Vec<Authority>,
    /// CT logs (`ctlogs`).
    pub ctlogs: Vec<Log>,
    /// Timestamp authorities (`timestampAuthorities`).
    pub tsas: Vec<Authority>,
}

fn bad<T>(m: impl Into<String>) -> Result<T, TrustError> {
    fail(Code::TrustMalformedRoot, m)
}

fn obj<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>, TrustError> {
    v.as_object()
        .map_or_else(|| bad(format!("{at} is not an object")), Ok)
}

fn bytes(m: &Map<String, Value>, k: &str, at: &str) -> Result<Vec<u8>, TrustError> {
    super::member_b64(Code::TrustMalformedRoot, m, k, at)
}

fn array<'a>(m: &'a Map<String, Value>, k: &str, at: &str) -> Result<&'a [Value], TrustError> {
    match m.get(k) {
        None => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => bad(format!("{at}.{k} is not an array")),
    }
}

fn window(m: &Map<String, Value>, at: &str) -> Result<Window, TrustError> {
    let Some(v) = m.get("validFor") else {
        return bad(format!("{at}.validFor is missing"));
    };
    let w = obj(v, at)?;
    let time = |k: &str| -> Result<Option<i64>, TrustError> {
        match w.get(k) {
            None => Ok(None),
            Some(Value::String(s)) => parse_rfc3339(s).map(Some).map_or_else(
                || bad(format!("{at}.validFor.{k} is not an RFC 3339 time")),
                Ok,
            ),
            Some(_) => bad(format!("{at}.validFor.{k} is not a string")),
        }
    };
    let Some(start) = time("start")? else {
        return bad(format!("{at}.validFor.start is missing"));
    };
    Ok(Window {
        start,
        end: time("end")?,
    })
}

fn log(v: &Value, at: &str) -> Result<Log, TrustError> {
    let m = obj(v, at)?;
    let key = m
        .get("publicKey")
        .map_or_else(|| bad(format!("{at}.publicKey is missing")), |k| obj(k, at))?;
    let raw = bytes(key, "rawBytes", &format!("{at}.publicKey"))?;
    let parsed = PublicKey::from_spki_der(&raw)
        .map_err(|e| TrustError::new(Code::TrustMalformedRoot, format!("{at}.publicKey: {e}")))?;
    let id = m
        .get("logId")
        .map_or_else(|| bad(format!("{at}.logId is missing")), |k| obj(k, at))?;
    Ok(Log {
        base_url: m
            .get("baseUrl")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        log_id: bytes(id, "keyId", &format!("{at}.logId"))?,
        key: parsed,
        valid: window(key, &format!("{at}.publicKey"))?,
    })
}

fn authority(v: &Value, at: &str) -> Result<Authority, TrustError> {
    let m = obj(v, at)?;
    let chain = m
        .get("certChain")
        .map_or_else(|| bad(format!("{at}.certChain is missing")), |c| obj(c, at))?;
    let mut certs = Vec::new();
    for (i, c) in array(chain, "certificates", at)?.iter().enumerate() {
        let cat = format!("{at}.certChain.certificates[{i}]");
        let der = bytes(obj(c, &cat)?, "rawBytes", &cat)?;
        certs.push(
            Certificate::from_der(&der)
                .map_err(|e| TrustError::new(Code::TrustMalformedRoot, format!("{cat}: {e}")))?,
        );
    }
    if certs.is_empty() {
        return bad(format!("{at}.certChain has no certificate"));
    }
    Ok(Authority {
        uri: m
            .get("uri")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        chain: certs,
        valid: window(m, at)?,
    })
}

/// Parses a trusted root file's bytes.
///
/// # Errors
/// [`Code::TrustMalformedRoot`]: not I-JSON, not an object, an unknown
/// `mediaType`, or a log, key, certificate or window that does not parse.
/// An empty list (no CA, no log) parses; verification then fails.
pub fn parse_root(raw: &[u8]) -> Result<TrustedRoot, TrustError> {
    if raw.is_empty() {
        return bad("input is empty");
    }
    let v = crate::json::strict::parse_value(raw)
        .map_err(|e| TrustError::new(Code::TrustMalformedRoot, e.to_string()))?;
    let m = obj(&v, "trusted root")?;
    match m.get("mediaType").and_then(Value::as_str) {
        Some(t) if ROOT_MEDIA_TYPES.contains(&t) => {}
        Some(other) => {
            return bad(format!(
                "unsupported trusted root mediaType {}",
                quote(other)
            ))
        }
        None => return bad("the trusted root has no string mediaType"),
    }
    // Each member of the array `k`, parsed by `parse` at `k[i]`.
    fn each<T>(
        m: &Map<String, Value>,
        k: &str,
        parse: fn(&Value, &str) -> Result<T, TrustError>,
    ) -> Result<Vec<T>, TrustError> {
        array(m, k, "trusted root")?
            .iter()
            .enumerate()
            .map(|(i, v)| parse(v, &format!("{k}[{i}]")))
            .collect()
    }
    Ok(TrustedRoot {
        tlogs: each(m, "tlogs", log)?,
        cas: each(m, "certificateAuthorities", authority)?,
        ctlogs: each(m, "ctlogs", log)?,
        tsas: each(m, "timestampAuthorities", authority)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root without a `mediaType` says so (not a debug `None`); one with an
    /// unknown type quotes it.
    #[test]
    fn a_missing_or_unknown_media_type_is_named() {
        let m = |raw: &[u8]| parse_root(raw).err().map(|e| (e.code, e.message));
        assert_eq!(
            m(b"{}"),
            Some((
                Code::TrustMalformedRoot,
                "the trusted root has no string mediaType".to_owned()
            ))
        );
        assert_eq!(
            m(br#"{"mediaType": "x"}"#),
            Some((
                Code::TrustMalformedRoot,
                "unsupported trusted root mediaType \"x\"".to_owned()
            ))
        );
    }
}

//! Offline publisher trust for Form Packages (issue 15): `trust
//! verify-bundle`, `trust verify-checkpoint`, `trust check-not-revoked`,
//! and a published trust set as a whole, `trust verify-set` ([`set`],
//! issue 39 item 4).
//!
//! A Sigstore v0.3 message-signature bundle is verified against a
//! caller-chosen trusted root and an exact `PublisherPolicy`; nothing is
//! fetched (no TUF, no network): every trust input is a file. The checks,
//! their order and the error classes follow the Core's `takoform-trust`
//! (tako0614/takoform `cmd/takoform-trust`, `trust/`), restated here:
//!
//! 1. the policy parses and is exact ([`policy`], class `invalid-policy`);
//! 2. the trusted root parses ([`root`], `malformed-trusted-root`);
//! 3. the bundle is a v0.3 message-signature bundle with at least one log
//!    entry, each with an inclusion proof ([`bundle`], `malformed-bundle`,
//!    `missing-transparency`);
//! 4. every log entry: its body binds this signature, certificate and
//!    digest; its signed entry timestamp, RFC 6962 inclusion proof and
//!    signed checkpoint verify under a Rekor key of the root ([`tlog`]);
//!    every RFC 3161 timestamp verifies under a TSA of the root ([`tsa`]);
//!    thresholds 1 log entry, 1 verified time, 1 SCT;
//! 5. the leaf chains to a Fulcio CA of the root at every verified time and
//!    carries a valid SCT of a CT log of the root ([`x509`]);
//! 6. the signature verifies over the subject's SHA-256;
//! 7. the certificate identity matches the policy exactly, and the three
//!    commit extensions are 40 lowercase hex, not all zeros.
//!
//! Every failure of 4–7 is `verification-failed`.
//!
//! # Why RustCrypto and not the `sigstore` crate
//! `sigstore` 0.15 was measured (`shared/guides/trust.md`): it does not
//! verify the SET, the inclusion proof, the checkpoint or RFC 3161
//! timestamps offline (tampered bundles verified), and its `verify` feature
//! links an HTTP client, a TLS backend and a TUF client. So this module is
//! built on the RustCrypto/X.509 crates of ONE `der` generation (0.7:
//! `x509-cert` 0.2, `spki` 0.7, `const-oid` 0.9, `cms` 0.2, `ecdsa` 0.16,
//! `p256`/`p384` 0.13, and the `sha2` 0.10 already in the tree). The 0.8
//! generation's `cms` is a prerelease, and `sha2` 0.10 is shared with the
//! rest of the verifier. Our own code is the glue: the SCT and SET signed
//! payloads, the RFC 6962 proof walk, the checkpoint note, the TSTInfo
//! read, and the policy.

pub mod bundle;
pub(crate) mod keys;
pub mod policy;
pub mod revocation;
pub mod root;
pub mod set;
pub(crate) mod time;
pub mod tlog;
pub mod tsa;
pub mod verify;
pub mod x509;

use crate::codes::Code;

/// The error classes of `takoform-trust`, first match wins (see
/// `corpus/trust/README.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// The command line is wrong (exit 2).
    Usage,
    /// The publisher policy does not parse or is not exact.
    InvalidPolicy,
    /// The bundle is not a well-formed v0.3 message-signature bundle.
    MalformedBundle,
    /// The trusted root does not parse.
    MalformedTrustedRoot,
    /// No log entry, or an entry without an inclusion proof.
    MissingTransparency,
    /// The revocation checkpoint or its continuity is invalid.
    InvalidCheckpoint,
    /// The package is revoked.
    Revoked,
    /// A cryptographic or identity check failed.
    VerificationFailed,
    /// An input file could not be read or is not what its flag expects.
    InputError,
}

impl ErrorClass {
    /// The class as printed (`verification-failed` …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Usage => "usage",
            Self::InvalidPolicy => "invalid-policy",
            Self::MalformedBundle => "malformed-bundle",
            Self::MalformedTrustedRoot => "malformed-trusted-root",
            Self::MissingTransparency => "missing-transparency",
            Self::InvalidCheckpoint => "invalid-checkpoint",
            Self::Revoked => "revoked",
            Self::VerificationFailed => "verification-failed",
            Self::InputError => "input-error",
        }
    }

    /// The class of a trust diagnostic code (one place maps them).
    pub fn of_code(code: Code) -> Self {
        match code {
            Code::TrustInvalidPolicy => Self::InvalidPolicy,
            Code::TrustMalformedBundle => Self::MalformedBundle,
            Code::TrustMalformedRoot => Self::MalformedTrustedRoot,
            Code::TrustMissingTransparency => Self::MissingTransparency,
            Code::TrustInvalidCheckpoint => Self::InvalidCheckpoint,
            Code::TrustRevoked => Self::Revoked,
            Code::TrustInputError => Self::InputError,
            _ => Self::VerificationFailed,
        }
    }
}

/// A refusal: a diagnostic code (FD8xx), its class, and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustError {
    /// The stable code.
    pub code: Code,
    /// The class the code belongs to.
    pub class: ErrorClass,
    /// What failed, one phrase.
    pub message: String,
    /// The command could not run (exit 2, not 1): a usage error, or an
    /// input file that could not be read, so nothing was checked.
    pub could_not_run: bool,
}

impl TrustError {
    /// A refusal with `code` (its class follows from it): exit 1. Any
    /// control, bidi or separator character in `message` is escaped
    /// ([`crate::diag::escape::text`], breaker F13).
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            class: ErrorClass::of_code(code),
            message: crate::diag::escape::text(&message.into()).into_owned(),
            could_not_run: false,
        }
    }

    /// The refusal as the report model carries it (what
    /// `render::trust::failure` prints).
    pub fn failure(&self) -> crate::report::trust::Failure {
        // The message as the refusal holds it (`TrustError::new` escaped
        // it; a usage refusal names the user's own paths as given).
        let mut diagnostic = crate::diag::Diagnostic::new(self.code, "");
        diagnostic.message.clone_from(&self.message);
        crate::report::trust::Failure {
            class: self.class.as_str(),
            diagnostic,
        }
    }

    /// The same refusal, marked as a command that could not run (exit 2).
    #[must_use]
    pub fn could_not_run(self) -> Self {
        Self {
            could_not_run: true,
            ..self
        }
    }
}

impl std::fmt::Display for TrustError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.class.as_str(), self.message)
    }
}

impl std::error::Error for TrustError {}

/// Shorthand: `Err(TrustError::new(code, message))`.
pub(crate) fn fail<T>(code: Code, message: impl Into<String>) -> Result<T, TrustError> {
    Err(TrustError::new(code, message))
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The string member `k` of the object at `at` in a trust document;
/// `Err` with `code` (the document's malformed-input code) when it is
/// missing or not a string.
pub(crate) fn member_str<'a>(
    code: Code,
    m: &'a serde_json::Map<String, serde_json::Value>,
    k: &str,
    at: &str,
) -> Result<&'a str, TrustError> {
    match m.get(k) {
        Some(serde_json::Value::String(s)) => Ok(s),
        _ => fail(code, format!("{at}.{k} is missing or not a string")),
    }
}

/// The bytes of the base64 string member `k` (see [`member_str`]); `Err`
/// with `code` when it is missing, not a string or not base64.
pub(crate) fn member_b64(
    code: Code,
    m: &serde_json::Map<String, serde_json::Value>,
    k: &str,
    at: &str,
) -> Result<Vec<u8>, TrustError> {
    b64(member_str(code, m, k, at)?)
        .map_or_else(|| fail(code, format!("{at}.{k} is not base64")), Ok)
}

/// Standard base64 (with padding) decoding, as protobuf JSON writes bytes.
pub(crate) fn b64(text: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(text).ok()
}

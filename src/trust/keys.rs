//! Public keys and ECDSA verification: the glue between X.509/SPKI bytes and
//! the RustCrypto `p256`/`p384` verifiers. Every Sigstore key in the corpus
//! (Fulcio CAs and leaves, CT logs, Rekor v1, the TSA) is ECDSA P-256 or
//! P-384; other key types are kept as [`PublicKey::Unsupported`] so a root
//! that lists one (Rekor v2's Ed25519 log) still parses and fails only when
//! such a key would have to verify something.

use const_oid::ObjectIdentifier;
use der::{Decode, Encode};
use ecdsa::signature::hazmat::PrehashVerifier;
use sha2::{Digest, Sha256, Sha384, Sha512};
use spki::SubjectPublicKeyInfoRef;

const EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const P256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const P384: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");
const ECDSA_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.2");
const ECDSA_SHA384: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.3");
const ECDSA_SHA512: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.4");
const SHA256_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");
const SHA384_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.2");
const SHA512_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.3");

/// A hash function named by a signature or digest algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HashAlg {
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
}

impl HashAlg {
    /// The hash of an `ecdsa-with-SHA*` signature algorithm OID.
    pub(crate) fn of_signature_oid(oid: &ObjectIdentifier) -> Option<Self> {
        match *oid {
            ECDSA_SHA256 => Some(Self::Sha256),
            ECDSA_SHA384 => Some(Self::Sha384),
            ECDSA_SHA512 => Some(Self::Sha512),
            _ => None,
        }
    }

    /// The hash of a digest algorithm OID (`id-sha256` …).
    pub(crate) fn of_digest_oid(oid: &ObjectIdentifier) -> Option<Self> {
        match *oid {
            SHA256_OID => Some(Self::Sha256),
            SHA384_OID => Some(Self::Sha384),
            SHA512_OID => Some(Self::Sha512),
            _ => None,
        }
    }

    /// The digest of `data`.
    pub(crate) fn digest(self, data: &[u8]) -> Vec<u8> {
        match self {
            Self::Sha256 => Sha256::digest(data).to_vec(),
            Self::Sha384 => Sha384::digest(data).to_vec(),
            Self::Sha512 => Sha512::digest(data).to_vec(),
        }
    }
}

/// SHA-256 of `data` as an array.
pub(crate) fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// A verification key.
#[derive(Clone, Debug)]
pub(crate) enum PublicKey {
    /// ECDSA over NIST P-256.
    P256(p256::ecdsa::VerifyingKey),
    /// ECDSA over NIST P-384.
    P384(p384::ecdsa::VerifyingKey),
    /// A key type this verifier does not implement (its algorithm OID).
    Unsupported(String),
}

impl PublicKey {
    /// Reads a DER `SubjectPublicKeyInfo`. `Err` when the bytes are not an
    /// SPKI or an EC point does not decode; an unknown algorithm is
    /// `Ok(Unsupported)`.
    pub(crate) fn from_spki_der(der: &[u8]) -> Result<Self, String> {
        let spki = SubjectPublicKeyInfoRef::from_der(der)
            .map_err(|e| format!("not a DER SubjectPublicKeyInfo: {e}"))?;
        Self::from_spki(&spki)
    }

    /// As [`Self::from_spki_der`], from a decoded SPKI.
    pub(crate) fn from_spki(spki: &SubjectPublicKeyInfoRef<'_>) -> Result<Self, String> {
        if spki.algorithm.oid != EC_PUBLIC_KEY {
            return Ok(Self::Unsupported(spki.algorithm.oid.to_string()));
        }
        let curve = spki
            .algorithm
            .parameters
            .as_ref()
            .and_then(|p| p.decode_as::<ObjectIdentifier>().ok())
            .ok_or("EC public key without a named curve")?;
        let point = spki.subject_public_key.raw_bytes();
        match curve {
            P256 => p256::ecdsa::VerifyingKey::from_sec1_bytes(point)
                .map(Self::P256)
                .map_err(|_| "invalid P-256 point".to_owned()),
            P384 => p384::ecdsa::VerifyingKey::from_sec1_bytes(point)
                .map(Self::P384)
                .map_err(|_| "invalid P-384 point".to_owned()),
            other => Ok(Self::Unsupported(format!("EC curve {other}"))),
        }
    }

    /// Reads the SPKI of a certificate.
    pub(crate) fn of_certificate(cert: &x509_cert::Certificate) -> Result<Self, String> {
        let der = cert
            .tbs_certificate
            .subject_public_key_info
            .to_der()
            .map_err(|e| e.to_string())?;
        Self::from_spki_der(&der)
    }

    /// Verifies a DER ECDSA signature over a precomputed digest. False for
    /// an unsupported key, a malformed signature or a mismatch.
    pub(crate) fn verify_prehash(&self, digest: &[u8], signature_der: &[u8]) -> bool {
        match self {
            Self::P256(k) => p256::ecdsa::Signature::from_der(signature_der)
                .is_ok_and(|s| k.verify_prehash(digest, &s).is_ok()),
            Self::P384(k) => p384::ecdsa::Signature::from_der(signature_der)
                .is_ok_and(|s| k.verify_prehash(digest, &s).is_ok()),
            Self::Unsupported(_) => false,
        }
    }

    /// Verifies a DER ECDSA signature over `message` hashed with `hash`.
    pub(crate) fn verify(&self, hash: HashAlg, message: &[u8], signature_der: &[u8]) -> bool {
        self.verify_prehash(&hash.digest(message), signature_der)
    }
}

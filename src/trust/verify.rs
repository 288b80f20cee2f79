//! `verify-bundle`: the checks of [`super`] in order, and the success
//! report (the Core's `BundleVerification` members, in its order, plus our
//! `evidence`: [`BundleReport`], a type of the report model that
//! `render::trust` reads).

use crate::diag::escape::quote;

use super::bundle::parse_bundle;
use super::keys::{sha256, PublicKey};
use super::policy::PublisherPolicy;
use super::root::parse_root;
use super::time::format_rfc3339;
use super::x509::{chain_at, has_eku, identity, is_git_commit, verified_scts, CODE_SIGNING};
use super::{fail, hex, tlog, tsa, TrustError};
use crate::canonical::sha256_digest;
use crate::codes::Code;
use crate::report::trust::{BundleReport, Evidence};

/// What was signed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The exact subject bytes (their SHA-256 is signed).
    Bytes(Vec<u8>),
    /// A prehashed SHA-256 subject (a package digest).
    Digest([u8; 32]),
}

impl Subject {
    /// Parses `sha256:<64 lowercase hex>` as a prehashed subject.
    pub fn from_digest_text(s: &str) -> Option<Self> {
        if !crate::canonical::is_canonical_digest(s) {
            return None;
        }
        let hex = s.get(7..)?;
        let mut out = [0u8; 32];
        for (i, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(Self::Digest(out))
    }

    /// The SHA-256 that is signed.
    pub fn digest(&self) -> [u8; 32] {
        match self {
            Self::Bytes(b) => sha256(b),
            Self::Digest(d) => *d,
        }
    }
}

/// Verifies a Sigstore v0.3 bundle over `subject` against the trusted root
/// and the policy (all caller-supplied; nothing is fetched).
///
/// # Errors
/// A [`TrustError`] whose class is `malformed-trusted-root`,
/// `malformed-bundle`, `missing-transparency` or `verification-failed`
/// (see [`super`] for the order of checks).
pub fn verify_bundle(
    subject: &Subject,
    bundle_raw: &[u8],
    root_raw: &[u8],
    policy: &PublisherPolicy,
) -> Result<BundleReport, TrustError> {
    if matches!(subject, Subject::Bytes(b) if b.is_empty()) {
        return fail(Code::TrustSignature, "signed subject is empty");
    }
    super::policy::validate(policy)?;
    let root = parse_root(root_raw)?;
    let bundle = parse_bundle(bundle_raw)?;
    let digest = subject.digest();

    // The signature over the subject.
    if let Some((alg, d)) = &bundle.message_digest {
        if alg != "SHA2_256" {
            return fail(
                Code::TrustSignature,
                format!("messageDigest algorithm {alg} is not SHA2_256"),
            );
        }
        if d.as_slice() != digest.as_slice() {
            return fail(
                Code::TrustSignature,
                format!(
                    "the bundle signs sha256:{}, not the subject sha256:{}",
                    hex(d),
                    hex(&digest)
                ),
            );
        }
    }
    let key = PublicKey::of_certificate(&bundle.leaf)
        .map_err(|e| TrustError::new(Code::TrustSignature, format!("leaf key: {e}")))?;
    if !key.verify_prehash(&digest, &bundle.signature) {
        return fail(
            Code::TrustSignature,
            "the signature does not verify over the subject's SHA-256",
        );
    }

    // Transparency log: every entry must verify.
    let mut times = Vec::new();
    for entry in &bundle.entries {
        let log = tlog::log_for(entry, &root.tlogs)?;
        tlog::check_body(entry, &digest, &bundle.signature, &bundle.leaf_der)?;
        if tlog::verify_set(entry, log)? {
            times.push(entry.integrated_time);
        }
        tlog::verify_inclusion(entry)?;
        tlog::verify_checkpoint(entry, log)?;
    }
    // RFC 3161 timestamps: every token must verify.
    let mut tsa_count = 0;
    for ts in &bundle.timestamps {
        times.push(tsa::verify_timestamp(ts, &bundle.signature, &root.tsas)?);
        tsa_count += 1;
    }
    if times.is_empty() {
        return fail(
            Code::TrustThreshold,
            "no verified signing time (neither a signed entry timestamp nor an RFC 3161 timestamp)",
        );
    }

    // The certificate chain at every verified time.
    if root.cas.is_empty() {
        return fail(
            Code::TrustCertificateChain,
            "the trusted root has no certificate authority",
        );
    }
    if !has_eku(&bundle.leaf, &CODE_SIGNING) {
        return fail(
            Code::TrustCertificateChain,
            "the leaf certificate is not for code signing",
        );
    }
    let mut issuer = None;
    for &t in &times {
        let mut reasons = Vec::new();
        let found =
            root.cas
                .iter()
                .find_map(|ca| match chain_at(&bundle.leaf, &bundle.leaf_der, ca, t) {
                    Ok(i) => Some((i, ca.uri.clone())),
                    Err(e) => {
                        reasons.push(e);
                        None
                    }
                });
        match found {
            Some(f) => issuer = Some(f),
            None => {
                return fail(
                    Code::TrustCertificateChain,
                    format!(
                    "no certificate authority of the trusted root issued the leaf valid at {}: {}",
                    format_rfc3339(t),
                    reasons.join("; ")
                ),
                )
            }
        }
    }
    let Some((issuer, ca_uri)) = issuer else {
        return fail(Code::TrustCertificateChain, "no verified signing time");
    };
    let scts = verified_scts(&bundle.leaf, issuer, &root.ctlogs)
        .map_err(|e| TrustError::new(Code::TrustCertificateTimestamp, e))?;
    if scts == 0 {
        return fail(
            Code::TrustCertificateTimestamp,
            "no SCT of the leaf verifies under a CT log of the trusted root",
        );
    }

    // The identity, literally.
    let id = identity(&bundle.leaf);
    let want = policy.identity();
    // What the certificate says against what the policy wants, both named.
    let mismatch = |what: &str, found: Option<&str>, wanted: &str| {
        fail::<BundleReport>(
            Code::TrustIdentity,
            format!(
                "certificate {what} mismatch: the certificate has {}, the policy wants {}",
                found.map_or_else(|| "none".to_owned(), quote),
                quote(wanted)
            ),
        )
    };
    if id.issuer.as_deref() != Some(policy.oidc_issuer.as_str()) {
        return mismatch("OIDC issuer", id.issuer.as_deref(), &policy.oidc_issuer);
    }
    if id.san_uris.len() != 1 || id.san_uris.first() != Some(&want) {
        let found = id.san_uris.join(", ");
        let found = (!id.san_uris.is_empty()).then_some(found.as_str());
        return mismatch("workflow/ref identity (SAN)", found, &want);
    }
    if id.source_repository_uri.as_deref() != Some(policy.source_repository.as_str()) {
        return mismatch(
            "source repository",
            id.source_repository_uri.as_deref(),
            &policy.source_repository,
        );
    }
    if id.source_repository_ref.as_deref() != Some(policy.git_ref.as_str()) {
        return mismatch(
            "source repository ref",
            id.source_repository_ref.as_deref(),
            &policy.git_ref,
        );
    }
    if id.build_signer_uri.as_deref() != Some(want.as_str()) {
        return mismatch(
            "build signer workflow/ref",
            id.build_signer_uri.as_deref(),
            &want,
        );
    }
    let commit = |name: &str, v: &Option<String>| -> Result<String, TrustError> {
        match v {
            Some(c) if is_git_commit(c) => Ok(c.clone()),
            _ => fail(
                Code::TrustIdentity,
                format!("certificate {name} digest is not a canonical Git commit"),
            ),
        }
    };
    let source_commit = commit("source repository", &id.source_repository_digest)?;
    let workflow_commit = commit("build signer", &id.build_signer_digest)?;
    let build_config_commit = commit("build config", &id.build_config_digest)?;

    Ok(BundleReport {
        status: "verified",
        subject_digest: format!("sha256:{}", hex(&digest)),
        bundle_digest: sha256_digest(bundle_raw),
        trusted_root_digest: sha256_digest(root_raw),
        oidc_issuer: policy.oidc_issuer.clone(),
        source_repository: policy.source_repository.clone(),
        workflow: policy.workflow.clone(),
        git_ref: policy.git_ref.clone(),
        publisher_identity: want,
        source_commit,
        workflow_commit,
        build_config_commit,
        transparency_log_verified: true,
        transparency_log_threshold: 1,
        evidence: Evidence {
            log_entries: bundle.entries.len(),
            rfc3161_timestamps: tsa_count,
            certificate_timestamps: scts,
            signing_times: times.iter().map(|t| format_rfc3339(*t)).collect(),
            certificate_authority: ca_uri,
        },
    })
}

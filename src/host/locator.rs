//! The publication locator of a Form Package (`host-rules.md` §3): the
//! release id, artifact id, tag and source path under which a verified
//! package is published, and the Core's grammar for reading a tag back.
//!
//! - Release id: `k-` + lowercase unpadded RFC 4648 base32 of the Form kind
//!   (package apiVersions v1alpha1–v1alpha3) or of `<group>/<Kind>` (the
//!   family lanes v1alpha4 and v1alpha5, whose group must be namespaced).
//!   Decoding must round-trip exactly.
//! - Artifact id: v1alpha1 the index's `packageVersion`; v1alpha2–v1alpha5
//!   the package digest with its first `:` replaced by `-` (and no
//!   `packageVersion`).
//! - Tag `forms/<releaseId>/<v<packageVersion> | artifact id>`; source path
//!   `forms/releases/<releaseId>/<artifactId>`.
//!
//! Parsing a tag without the package apiVersion recovers it only where the
//! tag says it: a `v`+SemVer artifact is v1alpha1 (refused with a family
//! id), a `sha256-` artifact with a family id is v1alpha4 when the decoded
//! group itself holds a `/` and v1alpha5 otherwise, and with a central id
//! it is refused as ambiguous between v1alpha2 and v1alpha3. Given the
//! apiVersion, the central content-addressed lanes parse (a family id
//! refused) and the others must agree with what the tag implies.

use crate::json::Members;
use data_encoding::BASE32_NOPAD;
use serde::Serialize;
use serde_json::Value;

use crate::codes::Code;
use crate::diag::escape::quote;

const V1ALPHA1: &str = "packages.forms.takoform.com/v1alpha1";
const V1ALPHA2: &str = "packages.forms.takoform.com/v1alpha2";
const V1ALPHA3: &str = "packages.forms.takoform.com/v1alpha3";
const V1ALPHA4: &str = "packages.forms.takoform.com/v1alpha4";
const V1ALPHA5: &str = "packages.forms.takoform.com/v1alpha5";

/// The locator of one exact package artifact (member order as the Core's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Locator {
    /// The package index `apiVersion`.
    pub api_version: String,
    /// `k-<lowercase base32>`.
    pub release_id: String,
    /// The `packageVersion` (v1alpha1) or `sha256-<hex>`.
    pub artifact_id: String,
    /// `forms/<releaseId>/<artifact>`.
    pub tag: String,
    /// `forms/releases/<releaseId>/<artifactId>`.
    pub source_path: String,
}

impl Locator {
    /// The locator as JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Why no locator: our code and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// `FD783`–`FD786`.
    pub code: Code,
    /// What is wrong.
    pub message: String,
}

fn refuse<T>(code: Code, message: String) -> Result<T, Refusal> {
    Err(Refusal { code, message })
}

/// The release id of a kind (or of `<group>/<Kind>`).
pub fn release_id(text: &str) -> String {
    format!("k-{}", BASE32_NOPAD.encode(text.as_bytes()).to_lowercase())
}

/// The decoded value of a release id (its bytes, which round-trip), or why
/// it is not one.
///
/// # Errors
/// `FD783` outside `k-…`; `FD784` not canonical lowercase base32.
pub fn decode_release_id(id: &str) -> Result<Vec<u8>, Refusal> {
    let Some(encoded) = id.strip_prefix("k-") else {
        return refuse(
            Code::LocatorTagInvalid,
            format!(
                "release id {} is outside k-<lowercase-base32-kind>",
                quote(id)
            ),
        );
    };
    if encoded.is_empty() || encoded != encoded.to_lowercase() {
        return refuse(
            Code::LocatorReleaseIdNotCanonical,
            format!("release id {} is not canonical lowercase base32", quote(id)),
        );
    }
    let raw = match BASE32_NOPAD.decode(encoded.to_uppercase().as_bytes()) {
        Ok(r) => r,
        Err(e) => {
            return refuse(
                Code::LocatorReleaseIdNotCanonical,
                format!("release id {}: not base32 ({e})", quote(id)),
            )
        }
    };
    if raw.is_empty() || format!("k-{}", BASE32_NOPAD.encode(&raw).to_lowercase()) != id {
        return refuse(
            Code::LocatorReleaseIdNotCanonical,
            format!(
                "release id {} is not the canonical encoding of a Form kind",
                quote(id)
            ),
        );
    }
    Ok(raw)
}

/// True for a namespaced Form group (a DNS name under the family
/// namespace, optionally versioned): the family lanes' requirement.
fn namespaced(group: &str) -> bool {
    crate::profile::namespaced_form_group(group)
}

fn locator(api_version: &str, release: String, artifact: &str, tag_artifact: &str) -> Locator {
    Locator {
        api_version: api_version.to_owned(),
        tag: format!("forms/{release}/{tag_artifact}"),
        source_path: format!("forms/releases/{release}/{artifact}"),
        artifact_id: artifact.to_owned(),
        release_id: release,
    }
}

/// The locator of a verified package: its index value and package digest.
///
/// # Errors
/// `FD783` for an index the locator is not defined for (not a
/// `FormPackage`, no kind, a digest that is not canonical, a v1alpha1
/// index without `packageVersion` or a content-addressed one with it, a
/// family index whose group is not namespaced, an unknown apiVersion).
pub fn for_index(index: &Value, package_digest: &str) -> Result<Locator, Refusal> {
    let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
    let api = s(index.member("apiVersion"));
    let form_ref = index.member("formRef");
    let kind = s(form_ref.and_then(|f| f.member("kind")));
    let group = s(form_ref.and_then(|f| f.member("apiVersion")));
    let version = s(index.member("packageVersion"));
    if s(index.member("kind")) != "FormPackage"
        || kind.is_empty()
        || !crate::canonical::is_canonical_digest(package_digest)
    {
        return refuse(Code::LocatorTagInvalid, "package publication identity requires FormPackage, FormRef kind, and canonical package digest".into());
    }
    match api.as_str() {
        V1ALPHA1 => {
            if version.is_empty() {
                return refuse(
                    Code::LocatorTagInvalid,
                    "v1alpha1 package publication identity requires packageVersion".into(),
                );
            }
            Ok(locator(
                &api,
                release_id(&kind),
                &version,
                &format!("v{version}"),
            ))
        }
        V1ALPHA2 | V1ALPHA3 | V1ALPHA4 | V1ALPHA5 => {
            if !version.is_empty() {
                return refuse(
                    Code::LocatorTagInvalid,
                    "content-addressed package publication identity forbids packageVersion".into(),
                );
            }
            let release = if matches!(api.as_str(), V1ALPHA4 | V1ALPHA5) {
                if !namespaced(&group) {
                    return refuse(Code::LocatorTagInvalid, format!("family package publication identity requires a namespaced Form group, not {}", quote(&group)));
                }
                release_id(&format!("{group}/{kind}"))
            } else {
                release_id(&kind)
            };
            let artifact = package_digest.replacen(':', "-", 1);
            Ok(locator(&api, release, &artifact, &artifact))
        }
        _ => refuse(
            Code::LocatorTagInvalid,
            format!("unsupported package apiVersion {}", quote(&api)),
        ),
    }
}

/// A tag split: release id, its decoded bytes, the artifact segment.
fn split(tag: &str) -> Result<(String, Vec<u8>, String), Refusal> {
    let parts: Vec<&str> = tag.split('/').collect();
    let [forms, release, segment] = parts.as_slice() else {
        return refuse(
            Code::LocatorTagInvalid,
            format!(
                "Form Package tag {} is not a canonical publication locator",
                quote(tag)
            ),
        );
    };
    if *forms != "forms" {
        return refuse(
            Code::LocatorTagInvalid,
            format!(
                "Form Package tag {} is not a canonical publication locator",
                quote(tag)
            ),
        );
    }
    let decoded = decode_release_id(release)?;
    Ok(((*release).to_owned(), decoded, (*segment).to_owned()))
}

/// `sha256-` and 64 lowercase hex digits.
fn digest_artifact(s: &str) -> bool {
    s.strip_prefix("sha256-")
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
}

/// SemVer 2.0.0 exactly (no leading zeros, pre-release and build parts).
fn semver(s: &str) -> bool {
    semver::Version::parse(s).is_ok_and(|v| {
        // The crate accepts what SemVer 2.0.0 accepts, except that it
        // also allows leading zeros in no part: nothing to add.
        v.to_string() == s
    })
}

/// `path.Base` of a slash path, as Go's `path` package gives it.
fn base(p: &str) -> &str {
    let t = p.trim_end_matches('/');
    if t.is_empty() {
        return if p.is_empty() { "." } else { "/" };
    }
    t.rsplit('/').next().unwrap_or(t)
}

/// Parses a tag without the package apiVersion (see the module docs).
///
/// # Errors
/// `FD783` a tag of another shape or artifact, `FD784` a release id that is
/// not canonical, `FD785` a family id with a SemVer artifact, `FD786` a
/// central id with a digest artifact (v1alpha2 or v1alpha3).
pub fn parse_tag(tag: &str) -> Result<Locator, Refusal> {
    let (release, decoded, segment) = split(tag)?;
    let family = decoded.contains(&b'/');
    if let Some(v) = segment.strip_prefix('v').filter(|v| semver(v)) {
        if family {
            return refuse(Code::LocatorFamilySemver, format!("Form Package tag {} carries a Form Family release id with a retained SemVer artifact locator", quote(tag)));
        }
        return Ok(from_tag(tag, V1ALPHA1, &release, v));
    }
    if digest_artifact(&segment) {
        if !family {
            return refuse(Code::LocatorTagAmbiguous, format!("Form Package tag {} is ambiguous between central content-addressed package apiVersions {} and {}; give --package-api-version", quote(tag), quote(V1ALPHA2), quote(V1ALPHA3)));
        }
        let text = String::from_utf8_lossy(&decoded);
        let group = text
            .strip_suffix(&format!("/{}", base(&text)))
            .unwrap_or(&text);
        let api = if group.contains('/') {
            V1ALPHA4
        } else {
            V1ALPHA5
        };
        return Ok(from_tag(tag, api, &release, &segment));
    }
    refuse(
        Code::LocatorTagInvalid,
        format!(
            "Form Package tag {} has an unsupported artifact locator",
            quote(tag)
        ),
    )
}

fn from_tag(tag: &str, api: &str, release: &str, artifact: &str) -> Locator {
    Locator {
        api_version: api.to_owned(),
        release_id: release.to_owned(),
        artifact_id: artifact.to_owned(),
        tag: tag.to_owned(),
        source_path: format!("forms/releases/{release}/{artifact}"),
    }
}

/// Parses a tag under the package apiVersion `api` (see the module docs).
///
/// # Errors
/// As [`parse_tag`], and `FD783` when the tag belongs to another apiVersion,
/// carries a family id under a central one, or `api` is unknown.
pub fn parse_tag_for(tag: &str, api: &str) -> Result<Locator, Refusal> {
    match api {
        V1ALPHA1 | V1ALPHA4 | V1ALPHA5 => {
            let l = parse_tag(tag)?;
            if l.api_version != api {
                return refuse(
                    Code::LocatorTagInvalid,
                    format!(
                        "Form Package tag {} belongs to package apiVersion {}, not {}",
                        quote(tag),
                        quote(&l.api_version),
                        quote(api)
                    ),
                );
            }
            Ok(l)
        }
        V1ALPHA2 | V1ALPHA3 => {
            let (release, decoded, segment) = split(tag)?;
            if decoded.contains(&b'/') {
                return refuse(Code::LocatorTagInvalid, format!("Form Package tag {} carries a Form Family release id, not a central package apiVersion {}", quote(tag), quote(api)));
            }
            if !digest_artifact(&segment) {
                return refuse(Code::LocatorTagInvalid, format!("Form Package tag {} does not carry the content-addressed artifact required by package apiVersion {}", quote(tag), quote(api)));
            }
            Ok(from_tag(tag, api, &release, &segment))
        }
        _ => refuse(
            Code::LocatorTagInvalid,
            format!("unsupported package apiVersion {}", quote(api)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked examples of `host-rules.md` §3.
    #[test]
    fn release_ids_are_the_cores() {
        assert_eq!(release_id("ExampleStore"), "k-iv4gc3lqnrsvg5dpojsq");
        assert_eq!(
            release_id("ContainerService"),
            "k-inxw45dbnfxgk4stmvzhm2ldmu"
        );
        assert_eq!(
            release_id("edge.forms.takoform.com/ObjectBucket"),
            "k-mvsgozjomzxxe3ltfz2gc23pmzxxe3jomnxw2l2pmjvgky3uij2wg23foq"
        );
        assert_eq!(
            decode_release_id("k-iv4gc3lqnrsvg5dpojsq").unwrap(),
            b"ExampleStore"
        );
    }

    /// Each refusal, with its near miss.
    #[test]
    fn tags_parse_as_the_core_parses_them() {
        let code = |t: &str| parse_tag(t).err().map(|r| r.code);
        let d = "sha256-52a0cd0b11d35fbf8ab57ac7d5717f550efa77a2b20997b8ac0abdf3e4752200";
        let family = "k-mvsgozjomzxxe3ltfz2gc23pmzxxe3jomnxw2l2pmjvgky3uij2wg23foq";
        assert_eq!(
            parse_tag(&format!("forms/{family}/{d}"))
                .unwrap()
                .api_version,
            V1ALPHA5
        );
        assert_eq!(
            code(&format!("forms/k-{}/{d}", family[2..].to_uppercase())),
            Some(Code::LocatorReleaseIdNotCanonical)
        );
        assert_eq!(
            code(&format!("forms/{family}/v0.1.0")),
            Some(Code::LocatorFamilySemver)
        );
        assert_eq!(
            code(&format!("forms/k-inxw45dbnfxgk4stmvzhm2ldmu/{d}")),
            Some(Code::LocatorTagAmbiguous)
        );
        assert_eq!(
            parse_tag_for(&format!("forms/k-inxw45dbnfxgk4stmvzhm2ldmu/{d}"), V1ALPHA3)
                .unwrap()
                .api_version,
            V1ALPHA3
        );
        assert_eq!(
            parse_tag("forms/k-iv4gc3lqnrsvg5dpojsq/v1.0.0")
                .unwrap()
                .artifact_id,
            "1.0.0"
        );
        assert_eq!(
            code("forms/k-iv4gc3lqnrsvg5dpojsq/1.0.0"),
            Some(Code::LocatorTagInvalid)
        );
        assert_eq!(
            code("releases/k-iv4gc3lqnrsvg5dpojsq/v1.0.0"),
            Some(Code::LocatorTagInvalid)
        );
        // Non-canonical base32: a trailing character that round-trips to another id.
        assert_eq!(
            code("forms/k-iv4gc3lqnrsvg5dpojsr/v1.0.0"),
            Some(Code::LocatorReleaseIdNotCanonical)
        );
    }
}

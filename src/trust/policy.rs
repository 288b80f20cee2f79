//! The publisher policy: `trust.forms.takoform.com/v1alpha1`
//! `PublisherPolicy`, one exact keyless publisher identity (issue 15; the
//! rules of tako0614/takoform `trust/policy.go`, restated). Six members, all
//! strings, no others; URIs in their exact spelling; the workflow inside the
//! source repository; one exact `refs/<namespace>/<name>` without
//! wildcards. Every comparison made with it is literal.

use crate::diag::escape::quote;
use serde_json::Value;

use super::{fail, TrustError};
use crate::codes::Code;

/// The policy document's `apiVersion`.
pub const POLICY_API_VERSION: &str = "trust.forms.takoform.com/v1alpha1";
/// The policy document's `kind`.
pub const POLICY_KIND: &str = "PublisherPolicy";

/// One exact publisher identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublisherPolicy {
    /// OIDC issuer URI the certificate must carry (e.g.
    /// `https://token.actions.githubusercontent.com`).
    pub oidc_issuer: String,
    /// Source repository URI (no trailing slash).
    pub source_repository: String,
    /// Signing workflow URI without `@ref`, inside `source_repository`.
    pub workflow: String,
    /// `refs/<namespace>/<name>`.
    pub git_ref: String,
}

impl PublisherPolicy {
    /// `workflow@ref`: the SAN and build-signer URI the certificate must carry.
    pub fn identity(&self) -> String {
        format!("{}@{}", self.workflow, self.git_ref)
    }
}

/// Parses and validates a policy file's bytes.
///
/// # Errors
/// [`Code::TrustInvalidPolicy`] for non-I-JSON input, a non-object, a
/// missing, extra or non-string member, a wrong `apiVersion`/`kind`, a URI
/// not in exact spelling, a workflow outside the repository, or a ref that
/// is not one exact `refs/<namespace>/<name>`.
pub fn parse_policy(bytes: &[u8]) -> Result<PublisherPolicy, TrustError> {
    let bad = |m: String| fail::<PublisherPolicy>(Code::TrustInvalidPolicy, m);
    let value = match crate::json::strict::parse_value(bytes) {
        Ok(v) => v,
        Err(e) => return bad(e.to_string()),
    };
    let Value::Object(map) = value else {
        return bad("the policy is not a JSON object".into());
    };
    const MEMBERS: [&str; 6] = [
        "apiVersion",
        "kind",
        "oidcIssuer",
        "sourceRepository",
        "workflow",
        "ref",
    ];
    if let Some(extra) = map.keys().find(|k| !MEMBERS.contains(&k.as_str())) {
        return bad(format!("unknown member {}", quote(extra)));
    }
    let get = |k: &str| -> Result<String, TrustError> {
        match map.get(k) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => fail(Code::TrustInvalidPolicy, format!("{k} is not a string")),
            None => fail(Code::TrustInvalidPolicy, format!("{k} is missing")),
        }
    };
    for (member, want) in [("apiVersion", POLICY_API_VERSION), ("kind", POLICY_KIND)] {
        let got = get(member)?;
        if got != want {
            return bad(format!("{member} is {}, want {}", quote(&got), quote(want)));
        }
    }
    let policy = PublisherPolicy {
        oidc_issuer: get("oidcIssuer")?,
        source_repository: get("sourceRepository")?,
        workflow: get("workflow")?,
        git_ref: get("ref")?,
    };
    validate(&policy)?;
    Ok(policy)
}

/// The rules on the four identity members (see [`parse_policy`]).
///
/// # Errors
/// [`Code::TrustInvalidPolicy`] naming the first member that breaks a rule.
pub fn validate(p: &PublisherPolicy) -> Result<(), TrustError> {
    exact_uri("oidcIssuer", &p.oidc_issuer)?;
    exact_uri("sourceRepository", &p.source_repository)?;
    if p.source_repository.ends_with('/') {
        return fail(
            Code::TrustInvalidPolicy,
            "sourceRepository must not end in slash",
        );
    }
    exact_uri("workflow", &p.workflow)?;
    if !p.workflow.starts_with(&format!("{}/", p.source_repository)) {
        return fail(
            Code::TrustInvalidPolicy,
            "workflow must be an exact path within sourceRepository",
        );
    }
    if p.workflow.contains('@') {
        return fail(
            Code::TrustInvalidPolicy,
            "workflow must not contain the ref separator '@'",
        );
    }
    let parts: Vec<&str> = p.git_ref.split('/').collect();
    if !p.git_ref.starts_with("refs/") || parts.len() < 3 {
        return fail(
            Code::TrustInvalidPolicy,
            "ref must be one exact refs/<namespace>/<name> identity",
        );
    }
    if parts
        .iter()
        .any(|s| s.is_empty() || *s == "." || *s == "..")
    {
        return fail(
            Code::TrustInvalidPolicy,
            "ref contains an empty or relative path segment",
        );
    }
    if p.git_ref
        .chars()
        .any(|c| matches!(c, '*' | '?' | '[' | ']' | '\\') || c.is_whitespace() || c.is_control())
    {
        return fail(
            Code::TrustInvalidPolicy,
            "ref must not contain wildcards, escapes, or whitespace",
        );
    }
    Ok(())
}

/// One absolute URI in its exact spelling: a lowercase scheme, `://`, a
/// non-empty host without user info, no query or fragment, no whitespace,
/// only RFC 3986 characters, and `%` only as a `%XX` escape. (A hand check,
/// not a URI crate: the rule is "already exact", which no parser states; it
/// is narrower than Go's `url.Parse` + `String()` round trip on purpose.)
fn exact_uri(field: &str, value: &str) -> Result<(), TrustError> {
    let bad = || {
        fail::<()>(
            Code::TrustInvalidPolicy,
            format!("{field} must be one exact absolute URI without user info, query, or fragment"),
        )
    };
    let Some((scheme, rest)) = value.split_once("://") else {
        return bad();
    };
    let scheme_ok = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase())
        && scheme
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '+' | '-' | '.'));
    let host = rest.split('/').next().unwrap_or("");
    if !scheme_ok || host.is_empty() || host.contains('@') || value.contains(['?', '#']) {
        return bad();
    }
    let allowed = |c: char| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                '-' | '.'
                    | '_'
                    | '~'
                    | ':'
                    | '/'
                    | '['
                    | ']'
                    | '!'
                    | '$'
                    | '&'
                    | '\''
                    | '('
                    | ')'
                    | '*'
                    | '+'
                    | ','
                    | ';'
                    | '='
                    | '%'
            )
    };
    if !value.chars().all(allowed) || host.chars().any(|c| c.is_ascii_uppercase()) {
        return fail(
            Code::TrustInvalidPolicy,
            format!("{field} must already be in its exact URI spelling"),
        );
    }
    let bytes = value.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'%'
            && !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
        {
            return fail(
                Code::TrustInvalidPolicy,
                format!("{field} must already be in its exact URI spelling"),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"apiVersion":"trust.forms.takoform.com/v1alpha1","kind":"PublisherPolicy","oidcIssuer":"https://token.actions.githubusercontent.com","ref":"refs/heads/main","sourceRepository":"https://github.com/o/r","workflow":"https://github.com/o/r/.github/workflows/release.yml"}"#;

    fn with(member: &str, value: &str) -> String {
        let mut v: serde_json::Value = serde_json::from_str(GOOD).unwrap_or_default();
        if let Some(m) = v.as_object_mut() {
            m.insert(member.into(), serde_json::Value::String(value.into()));
        }
        v.to_string()
    }

    #[test]
    fn a_policy_that_is_not_i_json_says_so_once() {
        // T1 C5: the parse error already reads "invalid I-JSON: …".
        let e = parse_policy(b"{\"a\":").map(|p| p.identity());
        let msg = e.err().map(|e| e.message).unwrap_or_default();
        assert_eq!(msg, "invalid I-JSON: unexpected end of input");
    }

    #[test]
    fn accepts_the_exact_policy() {
        let p = parse_policy(GOOD.as_bytes());
        assert_eq!(
            p.map(|p| p.identity()),
            Ok("https://github.com/o/r/.github/workflows/release.yml@refs/heads/main".into())
        );
        // near miss: a deeper ref is still one exact ref
        assert!(parse_policy(with("ref", "refs/heads/agent/probe").as_bytes()).is_ok());
    }

    #[test]
    fn refuses_loose_policies() {
        for (m, v) in [
            ("ref", "refs/heads/*"),
            ("ref", "main"),
            ("ref", "refs/heads/../x"),
            ("ref", "refs/heads/a b"),
            ("oidcIssuer", ""),
            ("oidcIssuer", "https://user@issuer.example"),
            ("oidcIssuer", "https://issuer.example/?q"),
            ("sourceRepository", "https://github.com/o/r/"),
            ("workflow", "https://attacker.example/ci/release"),
            (
                "workflow",
                "https://github.com/o/r/.github/workflows/x.yml@refs/heads/main",
            ),
            ("apiVersion", "trust.forms.takoform.com/v1"),
            ("kind", "Policy"),
            ("official", "yes"),
        ] {
            let e = parse_policy(with(m, v).as_bytes());
            assert_eq!(
                e.map_err(|e| e.code),
                Err(Code::TrustInvalidPolicy),
                "{m}={v}"
            );
        }
        assert!(parse_policy(b"[]").is_err());
        assert!(parse_policy(b"{\"a\":1,\"a\":2}").is_err());
    }
}

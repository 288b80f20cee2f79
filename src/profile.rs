//! Profile selection: which index, definition and FormRef schema applies.
//!
//! Spec: `verifier-rules.md` §0 (S1–S4) as changed by `current-profile.md`
//! §2: the index schema is chosen by the index's own `apiVersion`; the
//! family validation profile by the index too (v1alpha4 → retained-beta,
//! everything else → current-neutral); the definition schema by the
//! definition's own `apiVersion` within that profile; the FormRef schema by
//! `formRef.apiVersion` within the same profile.

use std::sync::LazyLock;

use regex::Regex;

use crate::schemas::SchemaRef;

/// Index profile prefix.
pub const INDEX_PREFIX: &str = "packages.forms.takoform.com/";

/// The five index profiles (`packages.forms.takoform.com/v1alpha1..5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IndexProfile {
    /// Legacy, `packageVersion` required.
    V1alpha1,
    /// Content-addressed Legacy.
    V1alpha2,
    /// `forms.takoform.com/v1alpha2` definitions.
    V1alpha3,
    /// Versioned namespaced groups (retained-beta).
    V1alpha4,
    /// Versionless groups (current-neutral).
    V1alpha5,
}

impl IndexProfile {
    /// Exact-string selection (S1). `None` for anything else.
    pub fn from_api_version(v: &str) -> Option<Self> {
        Some(match v.strip_prefix(INDEX_PREFIX)? {
            "v1alpha1" => IndexProfile::V1alpha1,
            "v1alpha2" => IndexProfile::V1alpha2,
            "v1alpha3" => IndexProfile::V1alpha3,
            "v1alpha4" => IndexProfile::V1alpha4,
            "v1alpha5" => IndexProfile::V1alpha5,
            _ => return None,
        })
    }

    /// The profile's version token (`v1alpha1`…).
    pub fn version(self) -> &'static str {
        match self {
            IndexProfile::V1alpha1 => "v1alpha1",
            IndexProfile::V1alpha2 => "v1alpha2",
            IndexProfile::V1alpha3 => "v1alpha3",
            IndexProfile::V1alpha4 => "v1alpha4",
            IndexProfile::V1alpha5 => "v1alpha5",
        }
    }

    /// The full `apiVersion` string.
    pub fn api_version(self) -> String {
        format!("{INDEX_PREFIX}{}", self.version())
    }

    /// The index schema (S1).
    pub fn index_schema(self) -> SchemaRef {
        SchemaRef::Index(self.version())
    }

    /// The family validation profile (`current-profile.md` §2.2).
    pub fn family(self) -> Family {
        if self == IndexProfile::V1alpha4 {
            Family::RetainedBeta
        } else {
            Family::CurrentNeutral
        }
    }
}

/// Family validation profile (`current-profile.md` §2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Index v1alpha4: v1beta1 definition and FormRef schemas for every namespaced group.
    RetainedBeta,
    /// Every other index: v1 definition schema, versionless FormRef.
    CurrentNeutral,
}

/// Legacy definition lane.
pub const LEGACY_V1ALPHA1: &str = "forms.takoform.com/v1alpha1";
/// Second Legacy lane.
pub const LEGACY_V1ALPHA2: &str = "forms.takoform.com/v1alpha2";

static GROUP: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+(?:/v[0-9]+(?:(?:alpha|beta)[0-9]+)?)?$").ok()
});

/// `NamespacedFormGroup(v)` as `current-profile.md` §2.4 orders it: the
/// reserved groups (`forms.takoform.com`, `packages.forms.takoform.com`,
/// `trust.forms.takoform.com`, with or without a version) are refused
/// before the pattern; the `/vN` suffix is optional; at most 320 bytes.
pub fn namespaced_form_group(v: &str) -> bool {
    let group = v.split('/').next().unwrap_or(v);
    if matches!(
        group,
        "forms.takoform.com" | "packages.forms.takoform.com" | "trust.forms.takoform.com"
    ) {
        return false;
    }
    v.len() <= 320 && GROUP.as_ref().is_some_and(|re| re.is_match(v))
}

/// Definition schema for a definition `apiVersion` (`current-profile.md` §2.3).
/// `None` means `Form Definition: unsupported apiVersion`.
pub fn definition_schema(api_version: &str, family: Family) -> Option<SchemaRef> {
    match api_version {
        LEGACY_V1ALPHA1 => Some(SchemaRef::Definition("v1alpha1")),
        LEGACY_V1ALPHA2 => Some(SchemaRef::Definition("v1alpha2")),
        v if namespaced_form_group(v) => Some(match family {
            Family::RetainedBeta => SchemaRef::Definition("v1beta1"),
            Family::CurrentNeutral => SchemaRef::Definition("v1"),
        }),
        _ => None,
    }
}

/// Outcome of FormRef schema selection (`current-profile.md` §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormRefSchema {
    /// Validate with this schema.
    Schema(SchemaRef),
    /// Current-neutral FormRef with a group version.
    VersionedInNeutral,
    /// Not a known lane.
    Unsupported,
}

/// FormRef schema for re-validation (step 16).
pub fn formref_schema(api_version: &str, family: Family) -> FormRefSchema {
    match api_version {
        LEGACY_V1ALPHA1 => FormRefSchema::Schema(SchemaRef::FormRef("v1alpha1")),
        LEGACY_V1ALPHA2 => FormRefSchema::Schema(SchemaRef::FormRef("v1alpha2")),
        v if namespaced_form_group(v) => match family {
            Family::RetainedBeta => FormRefSchema::Schema(SchemaRef::FormRef("v1beta1")),
            Family::CurrentNeutral if v.contains('/') => FormRefSchema::VersionedInNeutral,
            Family::CurrentNeutral => FormRefSchema::Schema(SchemaRef::FormRef("v1beta2")),
        },
        _ => FormRefSchema::Unsupported,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaced_group_table() {
        for ok in [
            "resources.publisher.example",
            "forms.example.com",
            "edge.forms.takoform.com",
            "service.another-publisher.example",
            "resources.publisher.example/v1alpha1",
            "forms.example.com/v1",
            "edge.forms.takoform.com/v1alpha1",
        ] {
            assert!(namespaced_form_group(ok), "{ok}");
        }
        for bad in [
            "forms.takoform.com",
            "forms.takoform.com/v1",
            "forms.takoform.com/v1alpha1",
            "forms.takoform.com/v1alpha3",
            "forms.takoform.com/v9beta1",
            "packages.forms.takoform.com",
            "packages.forms.takoform.com/v1alpha4",
            "trust.forms.takoform.com",
            "trust.forms.takoform.com/v1",
            "forms/v1",
            "forms",
            "Forms.Example.com/v1alpha",
            "forms.example.com/version1",
            "forms.takoform.com/v1alpha1x",
        ] {
            assert!(!namespaced_form_group(bad), "{bad}");
        }
        let long = format!("{}.example/v1", "a".repeat(61));
        assert!(namespaced_form_group(&long));
        let too_long = format!("{}example", "abcdefghij.".repeat(30));
        assert!(too_long.len() > 320 && !namespaced_form_group(&too_long));
    }

    #[test]
    fn selection_by_profile() {
        assert_eq!(
            IndexProfile::from_api_version("packages.forms.takoform.com/v1alpha5"),
            Some(IndexProfile::V1alpha5)
        );
        assert_eq!(
            IndexProfile::from_api_version("packages.forms.takoform.com/v1alpha6"),
            None
        );
        let beta = IndexProfile::V1alpha4.family();
        let neutral = IndexProfile::V1alpha5.family();
        assert_eq!(
            definition_schema("edge.forms.takoform.com/v1alpha1", beta),
            Some(SchemaRef::Definition("v1beta1"))
        );
        assert_eq!(
            definition_schema("edge.forms.takoform.com", neutral),
            Some(SchemaRef::Definition("v1"))
        );
        assert_eq!(
            definition_schema("forms.takoform.com/v1alpha3", neutral),
            None
        );
        assert_eq!(
            definition_schema(LEGACY_V1ALPHA1, neutral),
            Some(SchemaRef::Definition("v1alpha1"))
        );
        assert_eq!(
            formref_schema("edge.forms.takoform.com/v1beta1", neutral),
            FormRefSchema::VersionedInNeutral
        );
        assert_eq!(
            formref_schema("edge.forms.takoform.com", neutral),
            FormRefSchema::Schema(SchemaRef::FormRef("v1beta2"))
        );
        assert_eq!(
            formref_schema("edge.forms.takoform.com/v1beta1", beta),
            FormRefSchema::Schema(SchemaRef::FormRef("v1beta1"))
        );
        assert_eq!(formref_schema("nope", beta), FormRefSchema::Unsupported);
    }
}

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

/// The five index profiles (`packages.forms.takoform.com/v1alpha1..5`);
/// everything about each is its row of [`PROFILES`].
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

/// One index profile as data: the schema registry (`schemas`), selection
/// (`checks::index`, `checks::definition`, `checks::identity`), `index
/// --profile` and the docs ([`profiles_markdown`]) all read this row.
#[derive(Clone, Copy, Debug)]
pub struct ProfileRow {
    /// The profile.
    pub profile: IndexProfile,
    /// Version token after [`INDEX_PREFIX`]; also the `package-index`
    /// schema version (S1).
    pub version: &'static str,
    /// The family validation profile (`current-profile.md` §2.2).
    pub family: Family,
    /// Whether the definition's own name scan reports
    /// `forbidden-field-in-definition` (the current verifier) rather than
    /// the payload code the older reference and its mutants carry.
    pub definition_scan_code: bool,
    /// The Legacy lane schema version its packages usually carry (`None`:
    /// namespaced groups of the family); only a speed hint, for building
    /// those validators early ([`IndexProfile::likely_schemas`]).
    pub likely_legacy: Option<&'static str>,
    /// One line for the docs.
    pub summary: &'static str,
}

/// Every index profile, in version order (`verifier-rules.md` §0 S1,
/// `current-profile.md` §2). A new profile is one row here plus its schemas.
pub static PROFILES: [ProfileRow; 5] = [
    ProfileRow {
        profile: IndexProfile::V1alpha1,
        version: "v1alpha1",
        family: Family::CurrentNeutral,
        definition_scan_code: false,
        likely_legacy: Some("v1alpha1"),
        summary: "Legacy packages; `packageVersion` required",
    },
    ProfileRow {
        profile: IndexProfile::V1alpha2,
        version: "v1alpha2",
        family: Family::CurrentNeutral,
        definition_scan_code: false,
        likely_legacy: Some("v1alpha1"),
        summary: "content-addressed Legacy packages",
    },
    ProfileRow {
        profile: IndexProfile::V1alpha3,
        version: "v1alpha3",
        family: Family::CurrentNeutral,
        definition_scan_code: false,
        likely_legacy: Some("v1alpha2"),
        summary: "`forms.takoform.com/v1alpha2` definitions",
    },
    ProfileRow {
        profile: IndexProfile::V1alpha4,
        version: "v1alpha4",
        family: Family::RetainedBeta,
        definition_scan_code: false,
        likely_legacy: None,
        summary: "versioned namespaced groups (retained-beta family)",
    },
    ProfileRow {
        profile: IndexProfile::V1alpha5,
        version: "v1alpha5",
        family: Family::CurrentNeutral,
        definition_scan_code: true,
        likely_legacy: None,
        summary: "versionless namespaced groups (current-neutral family)",
    },
];

/// One family validation profile as data (`current-profile.md` §2.2–§2.5):
/// the definition and FormRef schemas of namespaced groups.
#[derive(Clone, Copy, Debug)]
pub struct FamilyRow {
    /// The family.
    pub family: Family,
    /// `form-definition` schema version for a namespaced group.
    pub definition_schema: &'static str,
    /// `form-ref` schema version for a namespaced group.
    pub formref_schema: &'static str,
    /// Whether a FormRef group may carry a `/vN` version.
    pub versioned_formref: bool,
}

/// Both families.
pub static FAMILIES: [FamilyRow; 2] = [
    FamilyRow {
        family: Family::RetainedBeta,
        definition_schema: "v1beta1",
        formref_schema: "v1beta1",
        versioned_formref: true,
    },
    FamilyRow {
        family: Family::CurrentNeutral,
        definition_schema: "v1",
        formref_schema: "v1beta2",
        versioned_formref: false,
    },
];

/// A Legacy definition lane as data: fixed definition and FormRef schemas
/// whatever the family, and the index profile a new index gets.
#[derive(Clone, Copy, Debug)]
pub struct LegacyLane {
    /// The definition `apiVersion`.
    pub api_version: &'static str,
    /// `form-definition` and `form-ref` schema version.
    pub schema: &'static str,
    /// Index profile `index` writes for a new package of this lane.
    pub new_index: IndexProfile,
}

/// The Legacy lanes (`verifier-rules.md` §0.1). They derive no relations.
pub static LEGACY_LANES: [LegacyLane; 2] = [
    LegacyLane {
        api_version: LEGACY_V1ALPHA1,
        schema: "v1alpha1",
        new_index: IndexProfile::V1alpha2,
    },
    LegacyLane {
        api_version: LEGACY_V1ALPHA2,
        schema: "v1alpha2",
        new_index: IndexProfile::V1alpha3,
    },
];

impl IndexProfile {
    /// This profile's row of [`PROFILES`].
    pub fn row(self) -> &'static ProfileRow {
        // Invariant: the table lists every variant once, in declaration
        // order (the `profile_table_is_complete` test).
        #[allow(clippy::indexing_slicing)]
        &PROFILES[self as usize]
    }

    /// Exact-string selection (S1). `None` for anything else.
    pub fn from_api_version(v: &str) -> Option<Self> {
        let version = v.strip_prefix(INDEX_PREFIX)?;
        PROFILES
            .iter()
            .find(|r| r.version == version)
            .map(|r| r.profile)
    }

    /// The profile's version token (`v1alpha1`…).
    pub fn version(self) -> &'static str {
        self.row().version
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
        self.row().family
    }

    /// The definition and FormRef schemas a package of this profile most
    /// likely needs (a speed hint: [`crate::schemas::prewarm`]).
    pub fn likely_schemas(self) -> [SchemaRef; 2] {
        let f = self.family().row();
        match self.row().likely_legacy {
            Some(v) => [SchemaRef::Definition(v), SchemaRef::FormRef(v)],
            None => [
                SchemaRef::Definition(f.definition_schema),
                SchemaRef::FormRef(f.formref_schema),
            ],
        }
    }
}

impl Family {
    /// This family's row of [`FAMILIES`].
    pub fn row(self) -> &'static FamilyRow {
        // Invariant: both variants are rows, in declaration order (the
        // `profile_table_is_complete` test).
        #[allow(clippy::indexing_slicing)]
        &FAMILIES[self as usize]
    }
}

/// Every accepted index `apiVersion`, for messages (`index --profile`).
pub fn api_versions() -> Vec<String> {
    PROFILES.iter().map(|r| r.profile.api_version()).collect()
}

/// The profile table as Markdown (for the docs): one row per index profile
/// with its index schema, family, definition and FormRef schemas.
pub fn profiles_markdown() -> String {
    let mut out = String::from(
        "| index `apiVersion` | family | definition schema | FormRef schema | what |\n|---|---|---|---|---|\n",
    );
    for r in &PROFILES {
        let f = r.family.row();
        out.push_str(&format!(
            "| `{}` | {:?} | Legacy lanes, else `{}` | Legacy lanes, else `{}` | {} |\n",
            r.profile.api_version(),
            r.family,
            f.definition_schema,
            f.formref_schema,
            r.summary
        ));
    }
    out
}

/// The profile a `--profile P` names, the one parser of every command's
/// `--profile` (`init`, `index`, `schema`): an index `apiVersion`
/// (`packages.forms.takoform.com/v1alpha5`) or its version token
/// (`v1alpha5`).
///
/// # Errors
/// [`crate::error::Error::Usage`] `<command>: unknown --profile "P" (…)`,
/// listing every profile.
pub fn parse_option(command: &str, profile: &str) -> Result<IndexProfile, crate::error::Error> {
    PROFILES
        .iter()
        .map(|r| r.profile)
        .find(|r| r.api_version() == profile || r.version() == profile)
        .ok_or_else(|| {
            crate::error::Error::Usage(format!(
                "{command}: unknown --profile {profile:?} ({})",
                api_versions().join(", ")
            ))
        })
}

/// The published schema `schema definition|index --profile P` prints:
/// the package index schema of profile `profile` (an index `apiVersion` or
/// its version token, `v1alpha5`), or the Form Definition schema it
/// applies: its Legacy lane's for v1alpha1–v1alpha3, its family's
/// namespaced-group schema for v1alpha4 (v1beta1) and v1alpha5 (v1).
///
/// # Errors
/// [`crate::error::Error::Usage`] for an unknown profile.
pub fn published_schema(profile: &str, index: bool) -> Result<&'static str, crate::error::Error> {
    let p = parse_option("schema", profile)?;
    let schema = if index {
        p.index_schema()
    } else {
        match p {
            IndexProfile::V1alpha1 | IndexProfile::V1alpha2 => SchemaRef::Definition("v1alpha1"),
            IndexProfile::V1alpha3 => SchemaRef::Definition("v1alpha2"),
            IndexProfile::V1alpha4 | IndexProfile::V1alpha5 => {
                SchemaRef::Definition(p.family().row().definition_schema)
            }
        }
    };
    let id = schema.id();
    crate::schemas::PUBLISHED
        .iter()
        .find(|s| s.id == id)
        .map(|s| s.text)
        .ok_or_else(|| crate::error::Error::Internal(format!("no embedded schema {id}")))
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

/// The Legacy lane of a definition `apiVersion`, if it is one.
pub fn legacy_lane(api_version: &str) -> Option<&'static LegacyLane> {
    LEGACY_LANES.iter().find(|l| l.api_version == api_version)
}

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
    if let Some(lane) = legacy_lane(api_version) {
        return Some(SchemaRef::Definition(lane.schema));
    }
    namespaced_form_group(api_version)
        .then(|| SchemaRef::Definition(family.row().definition_schema))
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
    if let Some(lane) = legacy_lane(api_version) {
        return FormRefSchema::Schema(SchemaRef::FormRef(lane.schema));
    }
    if !namespaced_form_group(api_version) {
        return FormRefSchema::Unsupported;
    }
    let row = family.row();
    if api_version.contains('/') && !row.versioned_formref {
        FormRefSchema::VersionedInNeutral
    } else {
        FormRefSchema::Schema(SchemaRef::FormRef(row.formref_schema))
    }
}

/// The index profile a new index gets from its definition's `apiVersion`:
/// Legacy → v1alpha2 (content-addressed, no `packageVersion` to invent),
/// `forms.takoform.com/v1alpha2` → v1alpha3, a versioned group → v1alpha4,
/// a versionless group → v1alpha5 (`verifier-rules.md` §0.1,
/// `current-profile.md` §2.1).
pub fn profile_for_definition(api_version: &str) -> IndexProfile {
    match legacy_lane(api_version) {
        Some(lane) => lane.new_index,
        None if api_version.contains('/') => IndexProfile::V1alpha4,
        None => IndexProfile::V1alpha5,
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
    fn profile_table_is_complete() {
        let all = [
            IndexProfile::V1alpha1,
            IndexProfile::V1alpha2,
            IndexProfile::V1alpha3,
            IndexProfile::V1alpha4,
            IndexProfile::V1alpha5,
        ];
        for (p, row) in all.iter().zip(&PROFILES) {
            assert_eq!(*p, row.profile);
            assert_eq!(p.row().profile, *p);
            assert_eq!(IndexProfile::from_api_version(&p.api_version()), Some(*p));
            // Every profile's index schema is embedded.
            assert!(crate::schemas::PUBLISHED
                .iter()
                .any(|s| s.id == p.index_schema().id()));
        }
        for f in [Family::RetainedBeta, Family::CurrentNeutral] {
            assert_eq!(f.row().family, f);
            for id in [
                SchemaRef::Definition(f.row().definition_schema).id(),
                SchemaRef::FormRef(f.row().formref_schema).id(),
            ] {
                assert!(crate::schemas::PUBLISHED.iter().any(|s| s.id == id), "{id}");
            }
        }
        let md = profiles_markdown();
        assert_eq!(md.lines().count(), 2 + PROFILES.len());
        assert!(md.contains("| `packages.forms.takoform.com/v1alpha4` | RetainedBeta | Legacy lanes, else `v1beta1` |"));
        assert_eq!(api_versions().len(), 5);
        // The docs read the same table.
        let page = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/profiles.md"),
        )
        .unwrap();
        assert!(
            page.contains(&md),
            "docs/src/profiles.md profile table is stale:\n{md}"
        );
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

/// Binding or Interface Definition (decision 0015): the two contract kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ContractKind {
    /// `bindings.takoform.com`.
    Binding,
    /// `interfaces.takoform.com`.
    Interface,
}

impl ContractKind {
    /// "Binding Definition" or "Interface Definition", as findings name it.
    #[must_use]
    pub fn document(self) -> &'static str {
        match self {
            ContractKind::Binding => "Binding Definition",
            ContractKind::Interface => "Interface Definition",
        }
    }
}

/// One contract profile: a contract `apiVersion` and the published schema
/// it selects.
#[derive(Clone, Copy, Debug)]
pub struct ContractRow {
    /// The document's `apiVersion`, exactly.
    pub api_version: &'static str,
    /// Binding or Interface Definition.
    pub kind: ContractKind,
    /// The embedded published schema that validates it.
    pub schema: SchemaRef,
}

/// Every contract profile (`bindings.takoform.com/v1alpha1`, `v1alpha2`,
/// `interfaces.takoform.com/v1alpha1`): read by `check` and `family`, so a
/// new contract version is one row plus its schema.
pub static CONTRACT_PROFILES: [ContractRow; 3] = [
    ContractRow {
        api_version: "bindings.takoform.com/v1alpha1",
        kind: ContractKind::Binding,
        schema: SchemaRef::BindingDefinition("v1alpha1"),
    },
    ContractRow {
        api_version: "bindings.takoform.com/v1alpha2",
        kind: ContractKind::Binding,
        schema: SchemaRef::BindingDefinition("v1alpha2"),
    },
    ContractRow {
        api_version: "interfaces.takoform.com/v1alpha1",
        kind: ContractKind::Interface,
        schema: SchemaRef::InterfaceDefinition("v1alpha1"),
    },
];

/// The contract profile a contract `apiVersion` selects, if any.
#[must_use]
pub fn contract_profile(api_version: &str) -> Option<&'static ContractRow> {
    CONTRACT_PROFILES
        .iter()
        .find(|r| r.api_version == api_version)
}

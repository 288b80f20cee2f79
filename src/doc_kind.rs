//! What a JSON document is, by its `apiVersion` group and `kind`: a Form
//! Definition, a package index, a revocation statement or checkpoint, a
//! Binding or Interface Definition. `check` dispatches on it, `relations`
//! names what it was given instead of a definition, and the walk for
//! package roots (`discover`) uses it to tell a Form Definition left without
//! its index from a contract.

use serde_json::Value;

use crate::revocation::{CHECKPOINT_KIND, STATEMENT_KIND};

/// What a document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocKind {
    /// A Form Definition (any lane).
    Definition,
    /// A `package-index.json`.
    PackageIndex,
    /// A revocation statement (`FormPackageRevocation`).
    RevocationStatement,
    /// A revocation checkpoint (`FormPackageRevocationCheckpoint`).
    RevocationCheckpoint,
    /// A Binding Definition (`bindings.takoform.com`).
    BindingDefinition,
    /// An Interface Definition (`interfaces.takoform.com`).
    InterfaceDefinition,
}

impl DocKind {
    /// The kind's name in output.
    pub fn label(self) -> &'static str {
        match self {
            DocKind::Definition => "Form Definition",
            DocKind::PackageIndex => "package index",
            DocKind::RevocationStatement => "revocation statement",
            DocKind::RevocationCheckpoint => "revocation checkpoint",
            DocKind::BindingDefinition => "Binding Definition",
            DocKind::InterfaceDefinition => "Interface Definition",
        }
    }
}

/// The recognised kinds, as FD630 lists them.
pub const RECOGNISED: &str = "a Form Definition, a package index (packages.forms.takoform.com, FormPackage), a revocation statement or checkpoint (trust.forms.takoform.com), a Binding Definition (bindings.takoform.com) or an Interface Definition (interfaces.takoform.com)";

/// Classifies a parsed document by its `apiVersion` group and `kind`;
/// `None` when it is none of the recognised kinds.
pub fn classify(value: &Value) -> Option<DocKind> {
    let api = value.get("apiVersion").and_then(Value::as_str)?;
    let kind = value
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let group = api.split('/').next().unwrap_or(api);
    let definition_like =
        value.get("desiredSchema").is_some() || value.get("definitionVersion").is_some();
    Some(match group {
        _ if kind == "FormPackage" => DocKind::PackageIndex,
        "trust.forms.takoform.com" if kind == CHECKPOINT_KIND => DocKind::RevocationCheckpoint,
        "trust.forms.takoform.com" => DocKind::RevocationStatement,
        "bindings.takoform.com" => DocKind::BindingDefinition,
        "interfaces.takoform.com" => DocKind::InterfaceDefinition,
        _ if kind == STATEMENT_KIND => DocKind::RevocationStatement,
        _ if kind == CHECKPOINT_KIND => DocKind::RevocationCheckpoint,
        // A definition that names a reserved group is still a definition
        // (refused as one: FD120).
        _ if definition_like => DocKind::Definition,
        "packages.forms.takoform.com" => DocKind::PackageIndex,
        _ => return None,
    })
}

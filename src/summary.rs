//! What a command says about one entry of its report besides its findings
//! (issue 34 item 2: no raw-JSON hatch in an outcome): the pin of a
//! revocation checkpoint's advance, a `compat` pair's verdict and bumps, a
//! `desired` document's Form and materialized bytes, a `snapshot` set's
//! status, digest and roster. Each is typed here; [`Summary::members`] is
//! the one place it becomes the JSON members every format prints (`json`
//! puts them in the entry's object, `sarif` in the run's property bag,
//! `junit` as testcase properties, `github` as notice lines). A document
//! the entry carries (a FormRef, a pin, a witness, a roster's identities)
//! stays the JSON value it is.
//!
//! The relations derived from a definition ([`Relation`], and with
//! `--instance` each [`Instance`] of one) are values an entry carries too:
//! `relations` derives them, every format prints them.
//!
//! Written below the report model and every command (it names none of
//! them), so an operation builds one and every renderer reads it.

use serde_json::{json, Map, Value};

/// One entry's summary (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub enum Summary {
    /// `validate-revocation-checkpoint --advance`: the new pin (member `pin`).
    Pin(Value),
    /// A `compat` pair (one member, named after the pair).
    Pair(Box<PairSummary>),
    /// `desired validate|materialize`: the Form the document was held to
    /// and, materialized, its canonical bytes.
    Desired(DesiredSummary),
    /// A set compiled by `snapshot`.
    Set(Box<SetSummary>),
}

impl Summary {
    /// The JSON members of the summary, in the order every format prints
    /// them.
    pub fn members(&self) -> Map<String, Value> {
        let mut m = Map::new();
        match self {
            Summary::Pin(pin) => {
                m.insert("pin".into(), pin.clone());
            }
            Summary::Pair(p) => {
                m.insert(p.name.clone(), p.value());
            }
            Summary::Desired(d) => {
                if let Some(form_ref) = &d.form_ref {
                    m.insert("formRef".into(), form_ref.clone());
                }
                if let Some(bytes) = &d.materialized {
                    m.insert("materialized".into(), Value::String(bytes.clone()));
                }
            }
            Summary::Set(s) => {
                m.insert("hostApi".into(), json!(s.host_api));
                match &s.status {
                    SetStatus::Compiled { digest, roster } => {
                        m.insert("status".into(), json!("compiled"));
                        m.insert("snapshotDigest".into(), json!(digest));
                        m.extend(roster.clone());
                    }
                    SetStatus::Failed { core_diagnostics } => {
                        m.insert("status".into(), json!("failed"));
                        m.insert(
                            "coreDiagnostics".into(),
                            Value::Array(core_diagnostics.clone()),
                        );
                    }
                    SetStatus::NotCompiled => {
                        m.insert("status".into(), json!("not-compiled"));
                    }
                }
            }
        }
        m
    }
}

/// One side of a `compat` pair.
#[derive(Clone, Debug, PartialEq)]
pub struct PairSide {
    /// Its FormRef (`apiVersion`, `kind`, `definitionVersion`, `schemaDigest`).
    pub form_ref: Value,
    /// The PATH as given.
    pub path: String,
    /// Its definition file.
    pub definition: String,
}

/// A `compat` pair's verdict and bumps (shapes: [`crate::render::compat`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PairSummary {
    /// The pair's name as an entry of the run's report.
    pub name: String,
    /// The older side.
    pub old: PairSide,
    /// The newer side.
    pub new: PairSide,
    /// The bump the versions show (`none|patch|minor|major`).
    pub actual_bump: &'static str,
    /// The bump the changes require; `None` when not compared.
    pub required_bump: Option<&'static str>,
    /// Why the changes require it, in one line.
    pub required_bump_reason: Option<String>,
    /// True when the versions say truthfully what changed.
    pub bump_ok: bool,
    /// The desired verdict (`verdict`, and its witness documents);
    /// `None` when the pair was not compared.
    pub desired: Option<Value>,
}

impl PairSummary {
    /// The pair's members shared by `compat --format json` and its entry:
    /// `old` and `new` (`formRef`, `path`, `definition`), `compared`,
    /// `actualBump`, `requiredBump`, `requiredBumpReason`, `bumpOk` and
    /// `desired`.
    pub fn value(&self) -> Value {
        let side = |s: &PairSide| {
            json!({
                "formRef": s.form_ref,
                "path": s.path,
                "definition": s.definition,
            })
        };
        json!({
            "old": side(&self.old),
            "new": side(&self.new),
            "compared": self.desired.is_some(),
            "actualBump": self.actual_bump,
            "requiredBump": self.required_bump,
            "requiredBumpReason": self.required_bump_reason,
            "bumpOk": self.bump_ok,
            "desired": self.desired.clone().unwrap_or(Value::Null),
        })
    }
}

/// A `desired` document's summary.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DesiredSummary {
    /// The FormRef of the exact Form the document was held to, when one
    /// was served.
    pub form_ref: Option<Value>,
    /// The materialized document's canonical bytes (RFC 8785), when it
    /// was materialized and valid.
    pub materialized: Option<String>,
}

/// A `snapshot` set's summary.
#[derive(Clone, Debug, PartialEq)]
pub struct SetSummary {
    /// The lane it was compiled for.
    pub host_api: String,
    /// Whether it compiled, and what came of it.
    pub status: SetStatus,
}

/// Whether a set compiled.
#[derive(Clone, Debug, PartialEq)]
pub enum SetStatus {
    /// Compiled: the Snapshot digest and the roster's lists (`forms`,
    /// `interfaces`, `bindings`, `defaults`).
    Compiled {
        /// The Snapshot digest.
        digest: String,
        /// The roster, as its members.
        roster: Map<String, Value>,
    },
    /// The compiler refused it: its diagnostics as the Core writes them.
    Failed {
        /// The Core's diagnostics.
        core_diagnostics: Vec<Value>,
    },
    /// A finding before the compiler stopped it from being compiled.
    NotCompiled,
}

/// One derived relation (`verifier-rules.md` §8.5). Serialises camelCase;
/// `targetFormRefs` / `requiredInterface` are omitted when absent (and read
/// back so by `compat`, from `check`'s outcome).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Relation {
    /// Relation pointer into desired documents: `/a/b`, `*` for every array
    /// element, tokens escaped (`~0`, `~1`).
    pub pointer: String,
    /// The reference's `apiVersion` const.
    pub target_api_version: String,
    /// The reference's `kind` const.
    pub target_kind: String,
    /// The `x-takoform-binding` contract name from the nearest annotated
    /// ancestor (§8.3 `B`), or `""`.
    pub binding: String,
    /// Whether the reference is required at every level of its path.
    pub required: bool,
    /// The well-formed `x-takoform-target-formrefs` entries, if declared so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_form_refs: Option<Vec<Value>>,
    /// The well-formed `x-takoform-required-interface`, if declared so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_interface: Option<Value>,
}

/// One concrete relation instance in a desired document
/// (`verifier-rules.md` §8.6).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Instance {
    /// The relation's pointer (with `*`).
    pub relation: String,
    /// The concrete pointer (indices substituted).
    pub pointer: String,
    /// The referenced resource's `name`.
    pub name: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each summary's members are what the formats printed from the
    /// outcome's JSON before: names, order, values; near miss: a desired
    /// document held to no Form has none.
    #[test]
    fn each_summary_has_its_members_in_order() {
        let keys = |s: &Summary| s.members().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&Summary::Pin(json!({"a": 1}))), ["pin"]);
        let set = |status| {
            Summary::Set(Box::new(SetSummary {
                host_api: "v1".into(),
                status,
            }))
        };
        let mut roster = Map::new();
        roster.insert("forms".into(), json!([]));
        assert_eq!(
            keys(&set(SetStatus::Compiled {
                digest: "sha256:x".into(),
                roster
            })),
            ["hostApi", "status", "snapshotDigest", "forms"]
        );
        assert_eq!(keys(&set(SetStatus::NotCompiled)), ["hostApi", "status"]);
        let desired = Summary::Desired(DesiredSummary {
            form_ref: Some(json!({})),
            materialized: Some("{}".into()),
        });
        assert_eq!(keys(&desired), ["formRef", "materialized"]);
        assert!(Summary::Desired(DesiredSummary::default())
            .members()
            .is_empty());
        let side = PairSide {
            form_ref: json!({}),
            path: "a".into(),
            definition: "a/definition.json".into(),
        };
        let pair = PairSummary {
            name: "compat a -> b".into(),
            old: side.clone(),
            new: side,
            actual_bump: "patch",
            required_bump: None,
            required_bump_reason: None,
            bump_ok: true,
            desired: None,
        };
        let v = pair.value();
        assert_eq!(v["compared"], json!(false));
        assert_eq!(v["requiredBump"], Value::Null);
        assert_eq!(keys(&Summary::Pair(Box::new(pair))), ["compat a -> b"]);
    }
}

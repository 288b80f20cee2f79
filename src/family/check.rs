//! The cross-package checks of `family` (issue 13; decision 0015 rules 3,
//! 5 and 8; `verifier-rules.md` §8.4 and §8.7).
//!
//! Per relation and per loaded target Form, the checks run in a host's
//! order and the first that fails is the finding (a host stops there too):
//! the target kind is loaded (`FD702`, or the notes `FD703` under
//! `--partial` and `FD704` under `--allow-external`); for a binding relation
//! rule 8 steps 1–5 (`FD710`–`FD714`); then the target contract
//! (`FD705`–`FD707`). Independently: contracts (`FD631`, `FD632`, `FD701`),
//! candidate sets (`FD730`–`FD732`) and every `acceptedBindings` entry
//! (`FD720`–`FD722`, and `FD702`/`FD703` when no allowed target kind is
//! loaded).

use crate::diag::escape::quote;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::load::{Contract, ContractKind, ContractRef, Family, Form};
use super::{finish, Finding, Options, Step};
use crate::codes::Code;
use crate::diag::Severity;
use crate::json::pointer::{unescape, JsonPointer};
use crate::relations::Relation;

pub use crate::report::family::{Edge, EdgeStatus, EdgeTarget};

/// The outcome of `family`.
#[derive(Debug)]
pub struct Report {
    /// What was loaded.
    pub family: Family,
    /// What was accepted.
    pub options: Options,
    /// Relation edges, in source order (package path, relation pointer, target).
    pub edges: Vec<Edge>,
    /// Target kinds that are not loaded, as `(apiVersion, kind)`.
    pub missing: Vec<(String, String)>,
    /// Every family finding (loading included), sorted.
    pub findings: Vec<Finding>,
}

impl Report {
    /// True when some package fails `verify` or some family finding is an error.
    pub fn fails(&self) -> bool {
        self.family.packages.iter().any(|p| p.outcome.has_errors())
            || self.findings.iter().any(Finding::is_error)
    }

    /// Count of family findings by severity: (errors, warnings, notes).
    pub fn counts(&self) -> (usize, usize, usize) {
        let n = |s: Severity| {
            self.findings
                .iter()
                .filter(|f| f.diagnostic.severity == s)
                .count()
        };
        (n(Severity::Error), n(Severity::Warning), n(Severity::Note))
    }

    /// [`Report::counts`] plus the packages' own `verify` findings: what
    /// the human summary line counts, so a package that fails is never
    /// "0 errors … FAIL".
    pub fn all_counts(&self) -> (usize, usize, usize) {
        let (mut e, mut w, mut n) = self.counts();
        for d in self
            .family
            .packages
            .iter()
            .flat_map(|p| &p.outcome.diagnostics)
        {
            match d.severity {
                Severity::Error => e += 1,
                Severity::Warning => w += 1,
                Severity::Note => n += 1,
            }
        }
        (e, w, n)
    }
}

/// The schema location of a relation in its definition and of the
/// `x-takoform-binding` annotation in effect (`verifier-rules.md` §8.3: the
/// walk goes through `properties/<name>` and `items`; the binding comes
/// from the nearest annotated node on the `properties` path, and for an
/// `items` hop from the array node).
pub fn relation_schema_pointer(
    definition: &Value,
    pointer: &str,
) -> (JsonPointer, Option<JsonPointer>) {
    let mut at = JsonPointer::root().child("desiredSchema");
    let mut node = definition.get("desiredSchema");
    let annotated = |n: Option<&Value>| {
        n.and_then(|n| n.get("x-takoform-binding"))
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
    };
    let mut binding = annotated(node).then(|| at.child("x-takoform-binding"));
    let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
    for token in tokens {
        let items = node.and_then(|n| n.get("items")).filter(|v| v.is_object());
        if token == "*" && items.is_some() {
            at = at.child("items");
            node = items;
        } else {
            let name = unescape(token);
            at = at.child("properties").child(&name);
            node = node
                .and_then(|n| n.get("properties"))
                .and_then(|p| p.get(&name));
            if annotated(node) {
                binding = Some(at.child("x-takoform-binding"));
            }
        }
    }
    (at, binding)
}

fn edge_label(r: &Relation) -> String {
    if let Some(i) = &r.required_interface {
        let s = |k: &str| {
            i.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        return format!("interface {}@{}", s("name"), s("version"));
    }
    if let Some(refs) = &r.target_form_refs {
        let list: Vec<String> = refs
            .iter()
            .map(|f| {
                let s = |k: &str| {
                    f.get(k)
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned()
                };
                format!("{} {}", s("kind"), s("definitionVersion"))
            })
            .collect();
        return format!("formref {}", list.join(", "));
    }
    "no target contract".to_owned()
}

fn group(api_version: &str) -> &str {
    api_version.split('/').next().unwrap_or(api_version)
}

fn short_digest(d: &str) -> &str {
    d.get(..19).unwrap_or(d)
}

struct Ctx<'a> {
    family: &'a Family,
    options: &'a Options,
    /// Valid contracts by kind.
    bindings: Vec<&'a Contract>,
    interfaces: Vec<&'a Contract>,
    /// Loaded Forms by `(apiVersion, kind)`.
    by_kind: BTreeMap<(&'a str, &'a str), Vec<usize>>,
}

impl<'a> Ctx<'a> {
    fn form(&self, i: usize) -> Option<&'a Form> {
        self.family.packages.get(i).and_then(|p| p.form.as_ref())
    }

    fn package_path(&self, i: usize) -> String {
        self.family
            .packages
            .get(i)
            .map(|p| p.path.clone())
            .unwrap_or_default()
    }

    fn external(&self, api_version: &str) -> bool {
        self.options
            .allow_external
            .iter()
            .any(|g| g == api_version || g == group(api_version))
    }

    fn binding(&self, r: &ContractRef) -> Option<&'a Contract> {
        self.bindings.iter().copied().find(|c| c.identity.same(r))
    }

    fn binding_named(&self, name: &str) -> Option<&'a Contract> {
        self.bindings
            .iter()
            .copied()
            .find(|c| c.identity.name == name)
    }

    /// Points `f` at a loaded Binding Definition of the same name (another
    /// version or digest), when there is one, and notes its identity.
    fn name_other_version(&self, f: &mut Finding, name: &str) {
        if let Some(other) = self.binding_named(name) {
            f.set_contract(other.doc.loc_str(""));
            f.diagnostic.notes.push(format!(
                "loaded {}@{} has canonical digest {}",
                other.identity.name, other.identity.version, other.identity.schema_digest
            ));
        }
    }

    fn interface(&self, r: &ContractRef) -> Option<&'a Contract> {
        self.interfaces.iter().copied().find(|c| c.identity.same(r))
    }
}

/// Runs every family check over what [`super::load::load`] found.
pub fn check(mut family: Family, options: &Options) -> Report {
    let mut findings = std::mem::take(&mut family.findings);
    let mut edges = Vec::new();
    let mut missing: Vec<(String, String)> = Vec::new();
    {
        let mut ctx = Ctx {
            family: &family,
            options,
            bindings: Vec::new(),
            interfaces: Vec::new(),
            by_kind: BTreeMap::new(),
        };
        for c in family.contracts.iter().filter(|c| c.valid) {
            match c.kind {
                ContractKind::Binding => ctx.bindings.push(c),
                ContractKind::Interface => ctx.interfaces.push(c),
            }
        }
        for (i, p) in family.packages.iter().enumerate() {
            if let Some(f) = &p.form {
                ctx.by_kind
                    .entry((f.api_version.as_str(), f.kind.as_str()))
                    .or_default()
                    .push(i);
            }
        }
        contracts(&family, &mut findings);
        candidate_sets(&family, &mut findings);
        for (i, p) in family.packages.iter().enumerate() {
            let Some(form) = &p.form else { continue };
            for r in &form.relations {
                relation(&ctx, i, form, r, &mut edges, &mut missing, &mut findings);
            }
            accepted_bindings(&ctx, i, form, &mut findings);
        }
    }
    finish(&mut findings);
    Report {
        family,
        options: options.clone(),
        edges,
        missing,
        findings,
    }
}

/// `FD701`: same kind, name and version, different canonical digests.
fn contracts(family: &Family, findings: &mut Vec<Finding>) {
    let mut groups: BTreeMap<(ContractKind, &str, &str), Vec<&Contract>> = BTreeMap::new();
    for c in &family.contracts {
        groups
            .entry((
                c.kind,
                c.identity.name.as_str(),
                c.identity.version.as_str(),
            ))
            .or_default()
            .push(c);
    }
    for ((_, name, version), list) in groups {
        let digests: BTreeSet<&str> = list
            .iter()
            .map(|c| c.identity.schema_digest.as_str())
            .collect();
        if digests.len() < 2 {
            continue;
        }
        for c in &list {
            let others: Vec<String> = list
                .iter()
                .filter(|o| o.identity.schema_digest != c.identity.schema_digest)
                .map(|o| format!("{} ({})", o.doc.file, o.identity.schema_digest))
                .collect();
            let mut f = Finding::new(
                Code::ContractDigestConflict,
                Step::Contract,
                format!(
                    "{name}@{version} is loaded with {} different canonical digests; this one is {}",
                    digests.len(),
                    c.identity.schema_digest
                ),
            );
            f.target = Some(format!("{name}@{version}"));
            f.locate(c.doc.loc_str("/version"));
            f.diagnostic
                .notes
                .push(format!("also loaded: {}", others.join(", ")));
            findings.push(f);
        }
    }
}

/// `FD730`–`FD732`: candidate sets against the loaded contracts.
fn candidate_sets(family: &Family, findings: &mut Vec<Finding>) {
    for set in &family.candidate_sets {
        let Some(kind) = set.kind else {
            let mut f = Finding::new(
                Code::CandidateSetInvalid,
                Step::CandidateSet,
                "the candidate set's format is neither takoform.binding-candidates@v1 nor takoform.interface-candidates@v1",
            );
            f.locate(set.doc.loc_str("/format"));
            findings.push(f);
            continue;
        };
        let key = match kind {
            ContractKind::Binding => "bindings",
            ContractKind::Interface => "interfaces",
        };
        let Some(entries) = set.doc.value.get(key).and_then(Value::as_array) else {
            let mut f = Finding::new(
                Code::CandidateSetInvalid,
                Step::CandidateSet,
                format!("the candidate set has no {key} array"),
            );
            f.locate(set.doc.loc_str(""));
            findings.push(f);
            continue;
        };
        for (i, e) in entries.iter().enumerate() {
            let at = JsonPointer::root().child(key).index(i);
            let Some(r) = ContractRef::from_value(e) else {
                let mut f = Finding::new(
                    Code::CandidateSetInvalid,
                    Step::CandidateSet,
                    "the candidate entry lacks a string name, version or schemaDigest",
                );
                f.locate(set.doc.loc(&at));
                findings.push(f);
                continue;
            };
            let same: Vec<&Contract> = family
                .contracts
                .iter()
                .filter(|c| {
                    c.kind == kind && c.identity.name == r.name && c.identity.version == r.version
                })
                .collect();
            if same.is_empty() {
                let mut f = Finding::new(
                    Code::CandidateNotLoaded,
                    Step::CandidateSet,
                    format!(
                        "the candidate set lists {} but no such contract is loaded",
                        r.label()
                    ),
                );
                f.target = Some(r.label());
                f.locate(set.doc.loc(&at));
                findings.push(f);
            } else if !same
                .iter()
                .any(|c| c.identity.schema_digest == r.schema_digest)
            {
                let mut f = Finding::new(
                    Code::CandidateDigestMismatch,
                    Step::CandidateSet,
                    format!(
                        "the candidate set lists {} at {} but the loaded contract's canonical digest is {}",
                        r.label(),
                        r.schema_digest,
                        same.iter().map(|c| c.identity.schema_digest.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                );
                f.target = Some(r.label());
                f.locate(set.doc.loc(&at.child("schemaDigest")));
                if let Some(c) = same.first() {
                    f.set_contract(c.doc.loc_str(""));
                }
                findings.push(f);
            }
        }
    }
}

/// One relation `r` of the Form of package `from`, as rule 8 and the target
/// contract see it: where its schema (`schema_at`) and its binding
/// annotation (`annotation_at`) are in the source definition, and how a
/// finding about it is made.
struct Site<'s, 'a> {
    ctx: &'s Ctx<'a>,
    from: usize,
    form: &'s Form,
    r: &'s Relation,
    schema_at: JsonPointer,
    annotation_at: Option<JsonPointer>,
}

impl Site<'_, '_> {
    /// A finding about this relation at `at` of the source definition.
    fn finding(&self, at: &JsonPointer, code: Code, step: Step, message: String) -> Finding {
        let mut f = Finding::new(code, step, message);
        f.source = Some(self.ctx.package_path(self.from));
        f.relation = Some(self.r.pointer.clone());
        f.target = Some(format!(
            "{} {}",
            self.r.target_api_version, self.r.target_kind
        ));
        f.locate(self.form.doc.loc(at));
        f
    }

    /// [`Site::finding`], boxed as the steps return it.
    fn fail(&self, code: Code, step: Step, at: &JsonPointer, message: String) -> Box<Finding> {
        Box::new(self.finding(at, code, step, message))
    }
}

#[allow(clippy::too_many_arguments)]
fn relation(
    ctx: &Ctx<'_>,
    from: usize,
    form: &Form,
    r: &Relation,
    edges: &mut Vec<Edge>,
    missing: &mut Vec<(String, String)>,
    findings: &mut Vec<Finding>,
) {
    let (schema_at, annotation_at) = relation_schema_pointer(&form.doc.value, &r.pointer);
    let site = Site {
        ctx,
        from,
        form,
        r,
        schema_at,
        annotation_at,
    };
    let mut edge = Edge {
        from,
        to: EdgeTarget::Missing(0),
        pointer: r.pointer.clone(),
        binding: r.binding.clone(),
        contract: edge_label(r),
        required: r.required,
        status: EdgeStatus::Ok,
        step: None,
        code: None,
    };
    let targets = ctx
        .by_kind
        .get(&(r.target_api_version.as_str(), r.target_kind.as_str()))
        .cloned()
        .unwrap_or_default();
    if targets.is_empty() {
        let key = (r.target_api_version.clone(), r.target_kind.clone());
        let idx = missing.iter().position(|m| *m == key).unwrap_or_else(|| {
            missing.push(key.clone());
            missing.len() - 1
        });
        // Rule 8 steps 1-3 need no target: their failure is the finding.
        if let Err(f) = source_steps(&site) {
            edge.to = EdgeTarget::Missing(idx);
            edge.status = EdgeStatus::Failed;
            edge.step = Some(f.step);
            edge.code = Some(f.code());
            findings.push(*f);
            edges.push(edge);
            return;
        }
        let (code, status, message) = if ctx.external(&r.target_api_version) {
            (
                Code::RelationTargetExternal,
                EdgeStatus::External,
                format!(
                    "target {} {} is outside the family (--allow-external)",
                    r.target_api_version, r.target_kind
                ),
            )
        } else if ctx.options.partial {
            (
                Code::RelationTargetUnchecked,
                EdgeStatus::Unchecked,
                format!(
                    "cannot be checked: target kind {} {} not loaded",
                    r.target_api_version, r.target_kind
                ),
            )
        } else {
            (
                Code::RelationTargetNotLoaded,
                EdgeStatus::Failed,
                format!(
                    "target not loaded: no Form {} {} in the family",
                    r.target_api_version, r.target_kind
                ),
            )
        };
        findings.push(site.finding(&site.schema_at, code, Step::TargetKind, message));
        edge.to = EdgeTarget::Missing(idx);
        edge.status = status;
        edge.step = Some(Step::TargetKind);
        edge.code = Some(code);
        edges.push(edge);
        return;
    }
    let results: Vec<(usize, Result<(), Box<Finding>>)> =
        targets.iter().map(|&t| (t, evaluate(&site, t))).collect();
    let any_ok = results.iter().any(|(_, r)| r.is_ok());
    for (t, result) in results {
        let mut e = edge.clone();
        e.to = EdgeTarget::Form(t);
        if let Err(mut f) = result {
            e.status = EdgeStatus::Failed;
            e.step = Some(f.step);
            e.code = Some(f.code());
            if any_ok {
                f.diagnostic.severity = Severity::Note;
                f.diagnostic.notes.push(
                    "another loaded Form of the target kind satisfies this relation".to_owned(),
                );
            }
            findings.push(*f);
        }
        edges.push(e);
    }
}

/// Rule 8 steps 1–5 for a binding relation, then the target contract, for
/// one target Form; the first failure is the finding.
fn evaluate(site: &Site<'_, '_>, target_index: usize) -> Result<(), Box<Finding>> {
    let ctx = site.ctx;
    let schema_at = &site.schema_at;
    let Some(target) = ctx.form(target_index) else {
        return Ok(());
    };
    let target_path = ctx.package_path(target_index);
    if let Some(binding) = source_steps(site)? {
        let Some(info) = &binding.binding else {
            return Ok(());
        };
        // (4) the target Form is in allowedTargetForms.
        if !info
            .allowed_target_forms
            .iter()
            .any(|(a, k)| *a == target.api_version && *k == target.kind)
        {
            let mut f = site.fail(
                Code::BindingTargetFormNotAllowed,
                Step::Rule8Step4,
                schema_at,
                format!(
                    "rule 8 step 4: target Form {} {} is not in {}'s allowedTargetForms",
                    target.api_version,
                    target.kind,
                    binding.identity.label()
                ),
            );
            f.set_contract(binding.doc.loc_str("/allowedTargetForms"));
            f.diagnostic
                .notes
                .push(format!("target package: {target_path}"));
            return Err(f);
        }
        // (5) the target declares targetInterface.
        if let Some(ti) = &info.target_interface {
            if !target.provided.iter().any(|(_, p)| p.same(ti)) {
                let mut f = site.fail(
                    Code::BindingTargetInterfaceNotProvided,
                    Step::Rule8Step5,
                    schema_at,
                    format!(
                        "rule 8 step 5: target Form {} does not declare {}'s targetInterface {} ({}) in providedInterfaces",
                        target.kind,
                        binding.identity.label(),
                        ti.label(),
                        short_digest(&ti.schema_digest)
                    ),
                );
                f.set_contract(binding.doc.loc_str("/targetInterface"));
                f.diagnostic.notes.push(format!(
                    "target {} declares {}",
                    target.doc.loc_str("/providedInterfaces"),
                    provided_text(target)
                ));
                return Err(f);
            }
        }
    }
    target_contract(site, target, &target_path)
}

/// Rule 8 steps 1–3, which do not depend on the target: `Ok(None)` for a
/// relation without a binding, `Ok(Some(binding))` when they pass.
fn source_steps<'a>(site: &Site<'_, 'a>) -> Result<Option<&'a Contract>, Box<Finding>> {
    let Site {
        ctx,
        form,
        r,
        ref schema_at,
        ref annotation_at,
        ..
    } = *site;
    if r.binding.is_empty() {
        return Ok(None);
    }
    // (1) acceptedBindings carries the annotated contract (by name, first entry; §8.5).
    let Some((entry_index, accepted)) = form.accepted.iter().find(|(_, a)| a.name == r.binding)
    else {
        return Err(site.fail(
                Code::BindingNotAcceptedBySource,
                Step::Rule8Step1,
                annotation_at.as_ref().unwrap_or(schema_at),
                format!("rule 8 step 1: acceptedBindings does not carry the binding contract {} this list is annotated with", quote(&r.binding)),
            ));
    };
    let entry_at = JsonPointer::root()
        .child("acceptedBindings")
        .index(*entry_index);
    // (2) a loaded Binding Definition has exactly that name, version and digest.
    let Some(binding) = ctx.binding(accepted) else {
        let mut f = site.fail(
            Code::BindingContractNotLoaded,
            Step::Rule8Step2,
            &entry_at,
            format!(
                "rule 8 step 2: no loaded Binding Definition is {} at {}",
                accepted.label(),
                accepted.schema_digest
            ),
        );
        ctx.name_other_version(&mut f, &accepted.name);
        return Err(f);
    };
    let Some(info) = &binding.binding else {
        return Ok(Some(binding));
    };
    // (3) source role equals sourceRole.
    let role = form.role.as_deref().unwrap_or("");
    if role != info.source_role {
        let mut f = site.fail(
            Code::BindingSourceRole,
            Step::Rule8Step3,
            &JsonPointer::root().child("role"),
            format!(
                "rule 8 step 3: the source Form's role {} is not the Binding's sourceRole {}",
                quote(role),
                quote(&info.source_role)
            ),
        );
        f.set_contract(binding.doc.loc_str("/sourceRole"));
        return Err(f);
    }
    Ok(Some(binding))
}

fn provided_text(f: &Form) -> String {
    if f.provided.is_empty() {
        return "no providedInterfaces".to_owned();
    }
    f.provided
        .iter()
        .map(|(_, p)| format!("{} ({})", p.label(), short_digest(&p.schema_digest)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The relation's target contract against one target Form (§8.4, §8.7).
fn target_contract(
    site: &Site<'_, '_>,
    target: &Form,
    target_path: &str,
) -> Result<(), Box<Finding>> {
    let Site {
        ctx,
        r,
        ref schema_at,
        ..
    } = *site;
    if let Some(refs) = &r.target_form_refs {
        let s = |v: &Value, k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let exact = refs.iter().any(|f| {
            s(f, "apiVersion") == target.api_version
                && s(f, "kind") == target.kind
                && s(f, "definitionVersion") == target.definition_version
                && s(f, "schemaDigest") == target.schema_digest
        });
        if !exact {
            let listed: Vec<String> = refs
                .iter()
                .map(|f| {
                    format!(
                        "{} {} ({})",
                        s(f, "kind"),
                        s(f, "definitionVersion"),
                        short_digest(&s(f, "schemaDigest")).to_owned()
                    )
                })
                .collect();
            let mut f = site.fail(
                Code::TargetFormRefNotInFamily,
                Step::TargetContract,
                &schema_at.child("x-takoform-target-formrefs"),
                format!(
                    "target contract: the listed FormRefs ({}) do not include the family's {} {} ({})",
                    listed.join(", "),
                    target.kind,
                    target.definition_version,
                    short_digest(&target.schema_digest)
                ),
            );
            f.diagnostic.notes.push(format!(
                "target package: {target_path} ({})",
                target.schema_digest
            ));
            return Err(f);
        }
    }
    if let Some(iface) = r
        .required_interface
        .as_ref()
        .and_then(ContractRef::from_value)
    {
        let at = schema_at.child("x-takoform-required-interface");
        if !target.provided.iter().any(|(_, p)| p.same(&iface)) {
            let mut f = site.fail(
                Code::TargetInterfaceNotProvided,
                Step::TargetContract,
                &at,
                format!(
                    "target contract: target Form {} does not declare the required Interface {} ({}) in providedInterfaces",
                    target.kind,
                    iface.label(),
                    short_digest(&iface.schema_digest)
                ),
            );
            f.diagnostic.notes.push(format!(
                "target {} declares {}",
                target.doc.loc_str("/providedInterfaces"),
                provided_text(target)
            ));
            return Err(f);
        }
        if ctx.interface(&iface).is_none() {
            let mut f = site.fail(
                Code::RequiredInterfaceNotLoaded,
                Step::TargetContract,
                &at,
                format!(
                    "target contract: the Interface Definition {} at {} is not loaded",
                    iface.label(),
                    iface.schema_digest
                ),
            );
            if let Some(other) = ctx
                .interfaces
                .iter()
                .find(|c| c.identity.name == iface.name)
            {
                f.set_contract(other.doc.loc_str(""));
                f.diagnostic.notes.push(format!(
                    "loaded {}@{} has canonical digest {}",
                    other.identity.name, other.identity.version, other.identity.schema_digest
                ));
            }
            return Err(f);
        }
    }
    Ok(())
}

/// Every `acceptedBindings` entry of one Form: `FD722` when its Binding
/// Definition is not loaded and no derived relation names it (the
/// relation's step 2 reports it otherwise), `FD720` when the Form's role is
/// not the Binding's `sourceRole`, `FD702`/`FD703` when no allowed target
/// kind is loaded (the note `FD704` when every allowed target kind is in a
/// group `--allow-external` accepts), `FD721` when no loaded allowed target
/// declares the `targetInterface`.
fn accepted_bindings(ctx: &Ctx<'_>, from: usize, form: &Form, findings: &mut Vec<Finding>) {
    for (i, accepted) in &form.accepted {
        let at = JsonPointer::root().child("acceptedBindings").index(*i);
        let base = |code: Code, message: String| {
            let mut f = Finding::new(code, Step::AcceptedBinding, message);
            f.source = Some(ctx.package_path(from));
            f.target = Some(accepted.label());
            f.locate(form.doc.loc(&at));
            f
        };
        let Some(binding) = ctx.binding(accepted) else {
            if !form.relations.iter().any(|r| r.binding == accepted.name) {
                let mut f = base(
                    Code::AcceptedBindingNotLoaded,
                    format!(
                        "accepted binding {} at {} is not loaded",
                        accepted.label(),
                        accepted.schema_digest
                    ),
                );
                ctx.name_other_version(&mut f, &accepted.name);
                findings.push(f);
            }
            continue;
        };
        let Some(info) = &binding.binding else {
            continue;
        };
        let role = form.role.as_deref().unwrap_or("");
        if role != info.source_role {
            let mut f = base(
                Code::AcceptedBindingRoleMismatch,
                format!("accepted binding {} has sourceRole {} but this Form's role is {}: no binding of it can verify", accepted.label(), quote(&info.source_role), quote(role)),
            );
            f.set_contract(binding.doc.loc_str("/sourceRole"));
            findings.push(f);
        }
        let Some(ti) = &info.target_interface else {
            continue;
        };
        let allowed: Vec<usize> = info
            .allowed_target_forms
            .iter()
            .flat_map(|(a, k)| {
                ctx.by_kind
                    .get(&(a.as_str(), k.as_str()))
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        if allowed.is_empty() {
            let kinds: Vec<String> = info
                .allowed_target_forms
                .iter()
                .map(|(a, k)| format!("{a} {k}"))
                .collect();
            let external = !info.allowed_target_forms.is_empty()
                && info
                    .allowed_target_forms
                    .iter()
                    .all(|(a, _)| ctx.external(a));
            let (code, message) = if external {
                // Accepted on purpose, and said so: a note, as for a relation.
                (
                    Code::RelationTargetExternal,
                    format!(
                        "every allowed target kind of {} is outside the family (--allow-external): {}",
                        accepted.label(),
                        kinds.join(", ")
                    ),
                )
            } else if ctx.options.partial {
                (
                    Code::RelationTargetUnchecked,
                    format!(
                        "cannot be checked: no allowed target kind of {} is loaded ({})",
                        accepted.label(),
                        kinds.join(", ")
                    ),
                )
            } else {
                (
                    Code::RelationTargetNotLoaded,
                    format!(
                        "target not loaded: no allowed target kind of {} is in the family ({})",
                        accepted.label(),
                        kinds.join(", ")
                    ),
                )
            };
            let mut f = base(code, message);
            f.set_contract(binding.doc.loc_str("/allowedTargetForms"));
            if let Some(note) = declared_note(ctx, ti) {
                f.diagnostic
                    .notes
                    .push(format!("{note} (not an allowed target)"));
            }
            findings.push(f);
            continue;
        }
        if !allowed
            .iter()
            .filter_map(|&t| ctx.form(t))
            .any(|t| t.provided.iter().any(|(_, p)| p.same(ti)))
        {
            let mut f = base(
                Code::AcceptedBindingUnsatisfiable,
                format!(
                    "no binding of {} could ever verify: no loaded Form in its allowedTargetForms declares its targetInterface {} ({})",
                    accepted.label(),
                    ti.label(),
                    short_digest(&ti.schema_digest)
                ),
            );
            f.set_contract(binding.doc.loc_str("/targetInterface"));
            for t in allowed.iter().filter_map(|&t| ctx.form(t)) {
                f.diagnostic.notes.push(format!(
                    "allowed target {} declares {}",
                    t.kind,
                    provided_text(t)
                ));
            }
            f.diagnostic.notes.extend(declared_note(ctx, ti));
            findings.push(f);
        }
    }
}

/// Kinds of the loaded Forms that declare `iface` in providedInterfaces.
/// `<interface> is declared by <Kind>, <Kind>`: the loaded Forms that
/// declare `iface`; `None` when none does.
fn declared_note(ctx: &Ctx<'_>, iface: &ContractRef) -> Option<String> {
    let declared: Vec<&str> = ctx
        .family
        .packages
        .iter()
        .filter_map(|p| p.form.as_ref())
        .filter(|t| t.provided.iter().any(|(_, p)| p.same(iface)))
        .map(|t| t.kind.as_str())
        .collect();
    (!declared.is_empty())
        .then(|| format!("{} is declared by {}", iface.label(), declared.join(", ")))
}

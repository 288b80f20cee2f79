//! Portability proof of one inline schema of a Form Definition
//! (`verifier-rules.md` §4, §5; `current-profile.md` §7.2–7.3, §8).
//!
//! [`prove_inline_schema`] runs, in order: the local `$ref` closure scan
//! ([`ref_closure::scan`], §5 F1) → the closed-object proof
//! ([`closed_object::Prover`], §4.1–4.5, with `$ref` resolution §5 F3/F4) →
//! the structural work estimate ([`work::structural_work`], §4.6). Unlike the
//! reference verifier (which stops at the first error), every independent
//! violation is reported in one run; only an exhausted budget (4096
//! operations, depth 64) stops the proof early, and its diagnostic says so.
//!
//! Pure code over `serde_json::Value`; no I/O, no printing.

pub mod closed_object;
pub mod memo;
pub mod ref_closure;
pub mod work;

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::codes::Code;
use crate::diag::{self, Diagnostic};
use crate::json::pointer::JsonPointer;

/// Which name a schema declares, for the forbidden-field policy hook
/// (`verifier-rules.md` §4.2 steps 9–11, §6 V3; `current-profile.md` §7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameSite {
    /// A member name of `properties`.
    Property,
    /// A string of `required`.
    Required,
    /// A key of `dependentRequired`, or a string of one of its arrays.
    DependentRequired,
}

/// One name handed to the [`NamePolicy`].
#[derive(Clone, Copy, Debug)]
pub struct NameQuery<'a> {
    /// The declared name, unescaped.
    pub name: &'a str,
    /// Where it is declared.
    pub site: NameSite,
    /// True when the inline schema is `desiredSchema` (the reviewed-field
    /// exemption of `current-profile.md` §7.3 applies at any depth there).
    pub in_desired: bool,
    /// For `Property`: its schema. For `Required`: the sibling
    /// `properties[name]`, if any. For `DependentRequired`: `None` (no
    /// exemption applies there).
    pub property_schema: Option<&'a Value>,
}

/// The forbidden-name policy: returns `Some(reason)` when the name is
/// forbidden (the reason becomes a note). The vocabulary module supplies the
/// real one; tests can pass a closure.
pub type NamePolicy<'p> = &'p dyn Fn(&NameQuery<'_>) -> Option<String>;

/// Result of proving one inline schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofReport {
    /// Every finding, sorted by pointer (see [`diag::finish`]); pointers are
    /// full pointers inside `definition.json` (prefixed with the field).
    pub diagnostics: Vec<Diagnostic>,
    /// Proof operations spent (§4.4: +1 per first proof of a pointer, +1 per
    /// `$ref` occurrence, +1 per exact-const literal node); at most 4097
    /// (the operation that broke the budget is counted).
    pub operations: usize,
    /// Height of the root in edges (longest path below it, `$ref` hops and
    /// exact-const literal depth included); 0 when the proof stopped early.
    pub height: usize,
    /// The structural work estimate W of §4.6, saturated at 16385; 0 when it
    /// was not computed (a `$ref` cycle or an exhausted proof budget makes it
    /// meaningless, and a note on that diagnostic says so).
    pub structural_work: u32,
}

impl ProofReport {
    /// True when any diagnostic is an error (the package fails).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Proves one inline schema portable (`verifier-rules.md` §3.2 order: §5
/// local-reference check → §4 closed-object proof → §4.6 structural work).
///
/// `field` is the JSON Pointer of the schema inside `definition.json`
/// (`/desiredSchema`, `/interfaces/3/documentSchema`); every diagnostic
/// pointer is prefixed with it. `names` is consulted for every `properties`
/// name, `required` string and `dependentRequired` key and string of every
/// proven node; `in_desired` is true iff `field` is `/desiredSchema`.
///
/// Codes: FD200–FD221, FD223 (warning), FD302. The `$ref` scan never stops
/// the proof: refs it refused are skipped by the proof without further
/// findings. The work estimate runs unless the proof found a `$ref` cycle or
/// ran out of a budget.
pub fn prove_inline_schema(
    field: &JsonPointer,
    schema: &Value,
    names: NamePolicy<'_>,
) -> ProofReport {
    let label = field_label(field);
    let mut diags = ref_closure::scan(schema);
    for d in &mut diags {
        let gist = if d.code == Code::DynamicRef {
            ref_closure::DYNAMIC_GIST
        } else {
            ref_closure::NON_LOCAL_GIST
        };
        let disp = display(&label, &d.pointer);
        d.notes.push(format!("reference message: {disp} {gist}"));
    }

    let in_desired = field.as_str() == "/desiredSchema";
    let mut prover = closed_object::Prover::new(schema, names, in_desired);
    let proved = prover.prove_root(&label);
    let operations = prover.ops;
    diags.append(&mut prover.diags);
    let height = proved.as_ref().copied().unwrap_or(0);

    let blocker = diags.iter().position(|d| {
        matches!(
            d.code,
            Code::CyclicRef | Code::ProofDepthExceeded | Code::ProofBudgetExceeded
        )
    });
    let structural_work = match blocker.and_then(|i| diags.get_mut(i)) {
        Some(d) => {
            d.notes
                .push("the structural work estimate (§4.6) was not computed".to_owned());
            0
        }
        None => {
            let w = work::structural_work(schema);
            if w > work::WORK_LIMIT {
                let gist = format!(
                    "worst-case fixture validation work exceeds {} schema evaluations",
                    work::WORK_LIMIT
                );
                diags.push(
                    Diagnostic::new(Code::StructuralWorkExceeded, gist.clone())
                        .note(format!("estimate saturated at {w}"))
                        .note(format!("reference message: {label} {gist}"))
                        .help("share less: every `$ref` occurrence and combinator branch is counted again"),
                );
            }
            w
        }
    };

    let mut diagnostics: Vec<Diagnostic> = diags.into_iter().map(|d| d.under(field)).collect();
    diag::finish(&mut diagnostics);
    ProofReport {
        diagnostics,
        operations,
        height,
        structural_work,
    }
}

/// The reference's label of a field: `/desiredSchema` → `desiredSchema`,
/// `/interfaces/3/documentSchema` → `interfaces[3].documentSchema`.
pub fn field_label(field: &JsonPointer) -> String {
    display("", field)
}

/// Reference-style location text: `.name` per member, `[i]` per index.
fn display(prefix: &str, ptr: &JsonPointer) -> String {
    let mut out = prefix.to_owned();
    for t in ptr.tokens() {
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{t}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&t);
        }
    }
    out
}

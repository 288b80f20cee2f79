//! One pair OLD → NEW (issue 20): the desired verdict, the change records,
//! and the bump the versions show against the bump the changes require
//! (versioning-rules V1–V4).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Value};

use super::bump::{self, Bump};
use super::changes::{self, Change, Class};
use super::desired::{compare_compiled, Verdict};
use super::side::{Doc, Side};
use crate::codes::Code;
use crate::diag::{Diagnostic, Severity};
use crate::json::pointer::JsonPointer;
use crate::report::{Entry, EntryKind};
use crate::summary::{PairSide, PairSummary, Summary};
use crate::verify::{PackageOutcome, Source};

/// A finding about a pair's versions (FD670–FD678), with where it is in
/// OLD's and NEW's definition (`/definitionVersion` unless said).
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// Its code.
    pub code: Code,
    /// One phrase; package text in it is escaped.
    pub message: String,
    /// Pointer into OLD's definition, when it is about OLD.
    pub old: Option<JsonPointer>,
    /// Pointer into NEW's definition, when it is about NEW.
    pub new: Option<JsonPointer>,
}

impl Finding {
    /// The code's severity (error, warning or note).
    pub fn severity(&self) -> Severity {
        self.code.info().severity
    }
}

/// One compared pair.
#[derive(Debug)]
pub struct Pair {
    /// The older side.
    pub old: Arc<Side>,
    /// The newer side.
    pub new: Arc<Side>,
    /// The desired verdict; `None` when the pair was not compared (a side
    /// refused by verification, FD678).
    pub desired: Option<Verdict>,
    /// Every change record, in definition member order.
    pub changes: Vec<Change>,
    /// The bump the versions show.
    pub actual: Bump,
    /// The bump the changes require (`none` for a re-identification: no
    /// bump is asked); `None` when the pair was not compared (FD678).
    pub required: Option<Bump>,
    /// Why the changes require [`Pair::required`], in one line
    /// ([`bump::reason`] and the codes that decide, e.g. `0.x: a breaking
    /// change needs a minor (FD650 desired-schema-breaking)`); `None` when
    /// no bump is asked (not compared, a re-identification, NEW not after
    /// OLD, the same version).
    pub required_reason: Option<String>,
    /// True when the versions say truthfully what changed: no error finding.
    pub bump_ok: bool,
    /// The findings about the versions.
    pub findings: Vec<Finding>,
}

impl Pair {
    /// True when OLD and NEW name different groups or kinds.
    pub fn reidentified(&self) -> bool {
        self.old.form_ref.api_version != self.new.form_ref.api_version
            || self.old.form_ref.kind != self.new.form_ref.kind
    }
}

impl Pair {
    /// The pair's name as an entry of the run's report: `compat <OLD's
    /// label> -> <NEW's label>` ([`super::side::FormRef::label`]).
    pub fn name(&self) -> String {
        format!(
            "compat {} -> {}",
            self.old.form_ref.label(),
            self.new.form_ref.label()
        )
    }

    /// The pair's typed summary, shared by the `--format json` document
    /// ([`PairSummary::value`]) and its entry's
    /// [`PackageOutcome::summary`]: both sides (`formRef`, `path`,
    /// `definition`), the bumps, whether they fit, and the desired verdict
    /// (shapes: [`crate::render::compat`]).
    pub fn summary(&self) -> PairSummary {
        PairSummary {
            name: self.name(),
            old: side_summary(&self.old),
            new: side_summary(&self.new),
            actual_bump: self.actual.name(),
            required_bump: self.required.map(Bump::name),
            required_bump_reason: self.required_reason.clone(),
            bump_ok: self.bump_ok,
            desired: self.desired.as_ref().map(desired_value),
        }
    }

    /// The findings of the pair (not its change records) as diagnostics,
    /// each located in NEW (in OLD for what NEW lacks) with the other side's
    /// location as a note, and the source of its file.
    fn finding_diagnostics(&self) -> Vec<(Diagnostic, Option<&Source>)> {
        self.findings
            .iter()
            .map(|f| {
                self.placed(
                    f.code,
                    &f.message,
                    Doc::Definition,
                    f.old.as_ref(),
                    f.new.as_ref(),
                )
            })
            .collect()
    }

    /// A diagnostic at NEW's pointer (else OLD's) in the document `doc`,
    /// noting the other side's location (`old: file:line:column at
    /// /pointer`, escaped as every note is) or that NEW has none, with
    /// the source of its file; a bare diagnostic when the side has no such
    /// document.
    fn placed(
        &self,
        code: Code,
        message: &str,
        doc: Doc,
        old: Option<&JsonPointer>,
        new: Option<&JsonPointer>,
    ) -> (Diagnostic, Option<&Source>) {
        let (side, ptr, other) = match (new, old) {
            (Some(n), o) => (&self.new, n, o.map(|o| ("old", &self.old, o))),
            (None, Some(o)) => (&self.old, o, None),
            (None, None) => (&self.new, &JsonPointer::default(), None),
        };
        let Some((file, source)) = side.document(doc) else {
            return (Diagnostic::new(code, message), None);
        };
        let mut d = Diagnostic::new(code, message).in_file(file).at(ptr.clone());
        if let Some((label, s, o)) = other {
            d = d.note(format!("{label}: {}", s.location(doc, o)));
        } else if old.is_some() && new.is_none() {
            d = d.note("old only: NEW has no counterpart");
        }
        (d, Some(source))
    }

    /// The pair as an entry of the run's report, built complete: named
    /// [`Pair::name`], its findings its change records then the pair's
    /// findings, each located in NEW (in OLD for what NEW lacks) with the other side's location as a note, the sources of
    /// their files, and [`Pair::summary`] as its
    /// [`PackageOutcome::summary`]. It fails ([`Entry::fails`]) exactly when the bump
    /// does not fit ([`Pair::bump_ok`] is false: every finding that says
    /// so is an error, every other finding and change record is a warning
    /// or a note), so the run's verdict is the report's.
    pub fn entry(&self) -> Entry {
        let mut diagnostics = Vec::new();
        let mut sources: BTreeMap<String, Source> = BTreeMap::new();
        let changes = self
            .changes
            .iter()
            .map(|c| self.placed(c.code, &c.message, c.doc, c.old.as_ref(), c.new.as_ref()));
        for (d, s) in changes.chain(self.finding_diagnostics()) {
            if let (Some(f), Some(s)) = (&d.file, s) {
                sources.entry(f.clone()).or_insert_with(|| Source::clone(s));
            }
            diagnostics.push(d);
        }
        let summary = self.summary();
        let name = summary.name.clone();
        Entry::new(
            EntryKind::Package,
            PackageOutcome {
                path: PathBuf::new(),
                diagnostics,
                sources,
                summary: Some(Summary::Pair(Box::new(summary))),
                ..Default::default()
            },
        )
        .named(name.into())
    }
}

/// A side as its pair's summary names it: `formRef`, `path`, `definition`.
fn side_summary(s: &Side) -> PairSide {
    PairSide {
        form_ref: json!(s.form_ref),
        path: s.path.display().to_string(),
        definition: s.def_file.clone(),
    }
}

/// The desired verdict as its JSON object: `verdict`, and `newlyAccepted`,
/// `witness` or `pointer` and `reason` as the verdict has them.
fn desired_value(v: &Verdict) -> Value {
    let mut o = json!({"verdict": v.name()});
    if let Some(m) = o.as_object_mut() {
        match v {
            Verdict::Widened { newly_accepted } => {
                m.insert("newlyAccepted".to_owned(), newly_accepted.clone());
            }
            Verdict::Breaking { witness } => {
                m.insert("witness".to_owned(), witness.clone());
            }
            Verdict::Unknown { pointer, reason } | Verdict::Compatible { pointer, reason } => {
                m.insert("pointer".to_owned(), json!(pointer.as_str()));
                m.insert("reason".to_owned(), json!(reason));
            }
            Verdict::Identical | Verdict::Equivalent => {}
        }
    }
    o
}

/// The pointer of the version in a definition.
fn version_at() -> JsonPointer {
    JsonPointer::root().child("definitionVersion")
}

/// Compares OLD and NEW (see the module docs). Never panics; a side
/// refused by verification is not compared.
pub fn compare_pair(old: Arc<Side>, new: Arc<Side>) -> Pair {
    let mut pair = Pair {
        old,
        new,
        desired: None,
        changes: Vec::new(),
        actual: Bump::None,
        required: Some(Bump::None),
        required_reason: None,
        bump_ok: false,
        findings: Vec::new(),
    };
    let (o, n) = (Arc::clone(&pair.old), Arc::clone(&pair.new));
    if o.refused.is_some() || n.refused.is_some() {
        let which = match (o.refused.is_some(), n.refused.is_some()) {
            (true, true) => "OLD and NEW were",
            (true, false) => "OLD was",
            _ => "NEW was",
        };
        pair.findings.push(Finding {
            code: Code::SideRefused,
            message: format!(
                "not compared: {which} refused by verification (its findings are reported)"
            ),
            old: o.refused.is_some().then(JsonPointer::root),
            new: n.refused.is_some().then(JsonPointer::root),
        });
        // The versions still show a bump; none is required, nothing
        // having been compared.
        pair.required = None;
        if let (Some(ov), Some(nv)) = (
            bump::parse(&o.form_ref.definition_version),
            bump::parse(&n.form_ref.definition_version),
        ) {
            pair.actual = bump::actual(&ov, &nv);
        }
        return pair;
    }
    let null = Value::Null;
    let verdict = compare_compiled(
        o.definition.get("desiredSchema").unwrap_or(&null),
        n.definition.get("desiredSchema").unwrap_or(&null),
        [o.desired_compiled.as_ref(), n.desired_compiled.as_ref()],
    );
    pair.changes = changes::changes(&o, &n, &verdict);
    pair.desired = Some(verdict);
    let (ov, nv) = (
        bump::parse(&o.form_ref.definition_version),
        bump::parse(&n.form_ref.definition_version),
    );
    for (v, side, is_old) in [(&ov, &o, true), (&nv, &n, false)] {
        if v.is_none() {
            pair.findings.push(Finding {
                code: Code::InvalidDefinitionVersion,
                message: format!(
                    "definitionVersion {} is not a SemVer 2.0.0 version",
                    changes::quoted(&side.form_ref.definition_version)
                ),
                old: is_old.then(version_at),
                new: (!is_old).then(version_at),
            });
        }
    }
    let (Some(ov), Some(nv)) = (ov, nv) else {
        return pair;
    };
    if pair.reidentified() {
        pair.findings.push(Finding {
            code: Code::ReIdentification,
            message: format!(
                "a new identity: {} → {} (compared and reported; no bump is asked)",
                identity(&o),
                identity(&n)
            ),
            old: Some(JsonPointer::root().child("apiVersion")),
            new: Some(JsonPointer::root().child("apiVersion")),
        });
        pair.actual = bump::actual(&ov, &nv);
        pair.bump_ok = true;
        return pair;
    }
    if ov.cmp_precedence(&nv) == std::cmp::Ordering::Equal {
        if o.same_bytes(&n) {
            pair.bump_ok = true;
        } else {
            pair.findings.push(reused(&o, &n));
        }
        return pair;
    }
    if !bump::increases(&ov, &nv) {
        pair.findings.push(Finding {
            code: Code::VersionNotIncreasing,
            message: format!(
                "definitionVersion {} does not follow {} in SemVer precedence",
                changes::quoted(&n.form_ref.definition_version),
                changes::quoted(&o.form_ref.definition_version)
            ),
            old: Some(version_at()),
            new: Some(version_at()),
        });
        // No bump can fit a version that goes back: none is required
        // (issue 35 item 5: no "bump none, required none").
        pair.required = None;
        return pair;
    }
    pair.actual = bump::actual(&ov, &nv);
    let required = bump::required(&ov, &pair.changes);
    pair.required = Some(required);
    pair.required_reason = Some(match required {
        Bump::None => bump::reason(&ov, &pair.changes),
        _ => format!(
            "{} ({})",
            bump::reason(&ov, &pair.changes),
            why(&pair.changes, required, ov.major == 0)
        ),
    });
    let fits = pair.actual >= required;
    // Breaker F11 (SemVer 2.0.0 §9, versioning-rules V1): an OLD
    // pre-release promised nothing, so nothing after it is held to it. A
    // NEW pre-release after a release previews its release (`1.0.1-rc.1`
    // is 1.0.1 to come) and is an installable FormRef of its own: it is
    // held to the bump its release shows, so a breaking change cannot ship
    // as `1.0.1-rc.1` any more than as `1.0.1` (name it `2.0.0-rc.1`).
    if !ov.pre.is_empty() {
        pair.findings.push(Finding {
            code: Code::PreReleaseVersion,
            message: format!(
                "OLD is a pre-release: no compatibility promise; the changes would require a {} bump ({} shown{})",
                required.name(),
                pair.actual.name(),
                if fits { "" } else { ", which would not fit" }
            ),
            old: Some(version_at()),
            new: (!nv.pre.is_empty()).then(version_at),
        });
        pair.bump_ok = true;
        return pair;
    }
    if !nv.pre.is_empty() {
        pair.findings.push(Finding {
            code: Code::PreReleaseVersion,
            message: format!(
                "NEW is a pre-release of {}.{}.{}: held to the bump its release shows; the changes require a {} bump ({} shown)",
                nv.major,
                nv.minor,
                nv.patch,
                required.name(),
                pair.actual.name(),
            ),
            old: None,
            new: Some(version_at()),
        });
    }
    pair.bump_ok = fits;
    if !fits {
        pair.findings.push(Finding {
            code: Code::BumpTooSmall,
            message: format!(
                "{} → {} is a {} bump; the changes require a {} ({})",
                o.form_ref.definition_version,
                n.form_ref.definition_version,
                pair.actual.name(),
                required.name(),
                why(&pair.changes, required, ov.major == 0)
            ),
            old: Some(version_at()),
            new: Some(version_at()),
        });
    } else if pair.actual == Bump::Major && ov.major >= 1 && required < Bump::Major {
        pair.findings.push(Finding {
            code: Code::MajorNotEarned,
            message: format!(
                "{} → {} is a major, but every change is proved compatible: a {} would do",
                o.form_ref.definition_version,
                n.form_ref.definition_version,
                required.name()
            ),
            old: Some(version_at()),
            new: Some(version_at()),
        });
    }
    pair
}

/// `group kind`, escaped.
fn identity(s: &Side) -> String {
    crate::diag::escape::text(&format!("{} {}", s.form_ref.api_version, s.form_ref.kind))
        .into_owned()
}

/// FD671 for two copies of one (group, kind, definitionVersion).
fn reused(o: &Side, n: &Side) -> Finding {
    Finding {
        code: Code::FormRefReused,
        // The FormRef and the two directories, escaped (breaker F13).
        message: crate::diag::escape::text(&format!(
            "{} names different bytes in {} and {} ({} {})",
            o.form_ref.label(),
            o.path.display(),
            n.path.display(),
            if o.form_ref.schema_digest == n.form_ref.schema_digest {
                "same definition, other package bytes:"
            } else {
                "different definitions:"
            },
            short(&o.digest) + " vs " + &short(&n.digest)
        ))
        .into_owned(),
        old: Some(version_at()),
        new: Some(version_at()),
    }
}

/// `sha256:` + the first 12 hex of a digest.
fn short(d: &str) -> String {
    d.chars().take(19).collect()
}

/// The codes of the changes that set the required bump, for a message.
fn why(changes: &[Change], required: Bump, zero: bool) -> String {
    let class_needed = |c: &Change| match required {
        Bump::Major => c.class == Class::Breaking,
        Bump::Minor if zero => c.class >= Class::Relaxation,
        Bump::Minor => c.class == Class::Addition || c.class == Class::Relaxation,
        _ => true,
    };
    let mut codes: Vec<String> = changes
        .iter()
        .filter(|c| class_needed(c))
        .map(|c| format!("{} {}", c.code.info().id, c.code.info().name))
        .collect();
    codes.dedup();
    codes.truncate(4);
    if codes.is_empty() {
        "see the change records".to_owned()
    } else {
        codes.join(", ")
    }
}

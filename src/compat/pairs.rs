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
use crate::diag::{Diagnostic, Related, Target};
use crate::json::pointer::JsonPointer;
use crate::json::position::Position;
use crate::report::compat::{Place, Record, Which, OLD};
use crate::report::{Entry, EntryKind};
use crate::summary::{PairSide, PairSummary, Summary};
use crate::verify::{PackageOutcome, Source};

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
    /// The findings about the versions (FD670–FD678), each a diagnostic
    /// located in NEW's definition (in OLD's for what NEW lacks;
    /// `/definitionVersion` unless said), OLD's location related.
    pub findings: Vec<Record>,
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

    /// A finding about the versions (`code`, `message`) at `old` in OLD's
    /// definition and `new` in NEW's ([`Pair::placed`]), added to
    /// [`Pair::findings`].
    fn find(
        &mut self,
        code: Code,
        message: String,
        old: Option<JsonPointer>,
        new: Option<JsonPointer>,
    ) {
        let record = self.placed(code, &message, Doc::Definition, old.as_ref(), new.as_ref());
        self.findings.push(record);
    }

    /// A change record as a [`Record`] ([`Pair::placed`]).
    pub fn change_record(&self, c: &Change) -> Record {
        self.placed(c.code, &c.message, c.doc, c.old.as_ref(), c.new.as_ref())
    }

    /// A record at NEW's pointer (else OLD's) in the document `doc`, with
    /// OLD's location as its related location and as a note (`old:
    /// file:line:column at /pointer`, escaped as every note is), or noting
    /// that NEW has none; a bare diagnostic when the side has no such
    /// document. Each location is found by [`crate::locate`]
    /// ([`Side::line_column`]).
    pub fn placed(
        &self,
        code: Code,
        message: &str,
        doc: Doc,
        old: Option<&JsonPointer>,
        new: Option<&JsonPointer>,
    ) -> Record {
        let (which, ptr) = match (new, old) {
            (Some(n), _) => (Some(Which::New), n),
            (None, Some(o)) => (Some(Which::Old), o),
            (None, None) => (None, &JsonPointer::default()),
        };
        // OLD's location, when NEW has the record too.
        let related = old.filter(|_| new.is_some()).map(|o| Related {
            label: OLD,
            file: self.old.document(doc).map(|(f, _)| f.to_owned()),
            pointer: o.clone(),
            target: Target::Value,
            position: position(&self.old, doc, o),
        });
        let side = self.side(which);
        let Some((file, _)) = side.document(doc) else {
            let mut d = Diagnostic::new(code, message);
            d.related.extend(related);
            return Record {
                diagnostic: d,
                side: which,
                position: None,
            };
        };
        let mut d = Diagnostic::new(code, message).in_file(file).at(ptr.clone());
        if let Some(related) = related {
            d = d.note(format!("{OLD}: {}", Place::of(&related).shown()));
            d = d.related(related);
        } else if old.is_some() {
            d = d.note("old only: NEW has no counterpart");
        }
        Record {
            position: position(side, doc, ptr),
            diagnostic: d,
            side: which,
        }
    }

    /// The side a record's diagnostic is located in (NEW when it names
    /// neither).
    fn side(&self, which: Option<Which>) -> &Side {
        match which {
            Some(Which::Old) => &self.old,
            _ => &self.new,
        }
    }

    /// The source of the file `r`'s diagnostic names (a document of the
    /// side it is located in), when it names one.
    fn source(&self, r: &Record, doc: Doc) -> Option<&Source> {
        r.diagnostic.file.as_ref()?;
        self.side(r.side).document(doc).map(|(_, s)| s)
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
        let changes = self.changes.iter().map(|c| {
            let r = self.change_record(c);
            let source = self.source(&r, c.doc);
            (r, source)
        });
        let findings = self
            .findings
            .iter()
            .map(|r| (r.clone(), self.source(r, Doc::Definition)));
        for (r, s) in changes.chain(findings) {
            let d = r.diagnostic;
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

/// The position of `pointer` in the document `doc` of `side`
/// ([`Side::line_column`]).
fn position(side: &Side, doc: Doc, pointer: &JsonPointer) -> Option<Position> {
    let (line, column) = side.line_column(doc, pointer)?;
    Some(Position { line, column })
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
        pair.find(
            Code::SideRefused,
            format!("not compared: {which} refused by verification (its findings are reported)"),
            o.refused.is_some().then(JsonPointer::root),
            n.refused.is_some().then(JsonPointer::root),
        );
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
            pair.find(
                Code::InvalidDefinitionVersion,
                format!(
                    "definitionVersion {} is not a SemVer 2.0.0 version",
                    changes::quoted(&side.form_ref.definition_version)
                ),
                is_old.then(version_at),
                (!is_old).then(version_at),
            );
        }
    }
    let (Some(ov), Some(nv)) = (ov, nv) else {
        return pair;
    };
    if pair.reidentified() {
        pair.find(
            Code::ReIdentification,
            format!(
                "a new identity: {} → {} (compared and reported; no bump is asked)",
                identity(&o),
                identity(&n)
            ),
            Some(JsonPointer::root().child("apiVersion")),
            Some(JsonPointer::root().child("apiVersion")),
        );
        pair.actual = bump::actual(&ov, &nv);
        pair.bump_ok = true;
        return pair;
    }
    if ov.cmp_precedence(&nv) == std::cmp::Ordering::Equal {
        if o.same_bytes(&n) {
            pair.bump_ok = true;
        } else {
            pair.find(
                Code::FormRefReused,
                reused(&o, &n),
                Some(version_at()),
                Some(version_at()),
            );
        }
        return pair;
    }
    if !bump::increases(&ov, &nv) {
        pair.find(
            Code::VersionNotIncreasing,
            format!(
                "definitionVersion {} does not follow {} in SemVer precedence",
                changes::quoted(&n.form_ref.definition_version),
                changes::quoted(&o.form_ref.definition_version)
            ),
            Some(version_at()),
            Some(version_at()),
        );
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
        pair.find(
            Code::PreReleaseVersion,
            format!(
                "OLD is a pre-release: no compatibility promise; the changes would require a {} bump ({} shown{})",
                required.name(),
                pair.actual.name(),
                if fits { "" } else { ", which would not fit" }
            ),
            Some(version_at()),
            (!nv.pre.is_empty()).then(version_at),
        );
        pair.bump_ok = true;
        return pair;
    }
    if !nv.pre.is_empty() {
        pair.find(
            Code::PreReleaseVersion,
            format!(
                "NEW is a pre-release of {}.{}.{}: held to the bump its release shows; the changes require a {} bump ({} shown)",
                nv.major,
                nv.minor,
                nv.patch,
                required.name(),
                pair.actual.name(),
            ),
            None,
            Some(version_at()),
        );
    }
    pair.bump_ok = fits;
    if !fits {
        pair.find(
            Code::BumpTooSmall,
            format!(
                "{} → {} is a {} bump; the changes require a {} ({})",
                o.form_ref.definition_version,
                n.form_ref.definition_version,
                pair.actual.name(),
                required.name(),
                why(&pair.changes, required, ov.major == 0)
            ),
            Some(version_at()),
            Some(version_at()),
        );
    } else if pair.actual == Bump::Major && ov.major >= 1 && required < Bump::Major {
        pair.find(
            Code::MajorNotEarned,
            format!(
                "{} → {} is a major, but every change is proved compatible: a {} would do",
                o.form_ref.definition_version,
                n.form_ref.definition_version,
                required.name()
            ),
            Some(version_at()),
            Some(version_at()),
        );
    }
    pair
}

/// `group kind`, escaped.
fn identity(s: &Side) -> String {
    crate::diag::escape::text(&format!("{} {}", s.form_ref.api_version, s.form_ref.kind))
        .into_owned()
}

/// The message of FD671 for two copies of one (group, kind,
/// definitionVersion): the FormRef and the two directories, escaped
/// (breaker F13).
fn reused(o: &Side, n: &Side) -> String {
    crate::diag::escape::text(&format!(
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
    .into_owned()
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

//! The three operations of `form-package compat` and the report they
//! return (`ops::compat` makes it the report model's
//! [`crate::report::compat::Compat`], which `render::compat` alone prints):
//! - [`pair`]: `compat OLD NEW`;
//! - [`history`]: `compat --history PATH...`: every package under the
//!   PATHs (verify's walk) grouped by (group, kind), ordered by SemVer
//!   precedence, each consecutive pair compared; a (group, kind,
//!   definitionVersion) present twice with different bytes is FD671 at
//!   both copies;
//! - [`baseline`]: `compat --baseline BASE PATH...`: each package under a
//!   PATH whose version BASE lacks compared with its published neighbours
//!   (the newest older version of its (group, kind) in BASE, and each
//!   newer one it would stand before); the same
//!   version with different bytes in both is FD671; a published version
//!   the PATHs lack is FD679; a kind BASE lacks has nothing to compare
//!   (FD677).
//!
//! A side refused by verification is reported with its own findings (in
//! [`Report::report`]) and never compared; in a tree it keeps its place
//! in the version order when its definition can be read, and the pairs it
//! is in say they were not compared (FD678).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use semver::Version;

use super::bump;
use super::pairs::{compare_pair, Pair};
use super::side::{load, Loaded, Side};
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::discover::{SkipRule, WalkRules};
use crate::error::Error;
use crate::json::pointer::JsonPointer;
use crate::report::walk::discover;
use crate::report::{Entry, EntryKind, ExitRule};
use crate::verify::PackageOutcome;

/// Which command produced a report (a value of the report model, which
/// `render::compat` prints).
pub use crate::report::compat::Mode;

/// Where `--baseline` reads BASE, the published tree.
#[derive(Clone, Copy, Debug)]
pub enum Base<'a> {
    /// `--baseline BASE`: a directory.
    Dir(&'a Path),
    /// `--baseline-rev REV`: every package of the whole tree at the git
    /// revision REV of the repository they live in ([`super::baserev`]).
    Rev(&'a str),
}

impl Base<'_> {
    /// BASE as messages name it: the directory, or the revision.
    fn label(&self) -> String {
        match self {
            Base::Dir(p) => p.display().to_string(),
            Base::Rev(rev) => (*rev).to_owned(),
        }
    }
}

/// Every package of BASE at a revision ([`super::baserev::packages_at`]),
/// verified in memory and read in parallel (order kept); a package
/// refused is counted in `found` and, when its FormRef can be read,
/// keeps its place in BASE's line as `--baseline DIR` keeps it.
fn sides_at(rev: &str, paths: &[PathBuf], found: &mut Found) -> Result<Vec<Arc<Side>>, Error> {
    let at = super::baserev::packages_at(rev, paths)?;
    let packages = at.packages;
    // A package the walk skipped is said (FD683) rather than "no package".
    if packages.is_empty() && at.skipped.is_empty() {
        // Breaker F9, as for a directory ([`no_package_in_dir`]).
        return Err(Error::Usage(format!(
            "--baseline-rev {rev}: the repository of {} holds no Form Package at {rev} (no directory with a package-index.json outside hidden directories): check REV is the published revision; for a repository's first release run compat without --baseline-rev",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let loaded: Vec<(PathBuf, Result<Loaded, Error>)> = packages
        .into_par_iter()
        .map(|p| {
            let here = p.here.clone();
            (here, super::side::load_source(Box::new(p.source())))
        })
        .collect();
    // Breaker2 G1: a package at REV below a hidden directory is not read
    // as published, and is said (FD683), as `--baseline DIR` says it.
    let base = Base::Rev(rev);
    for (package, dir, rule) in at.skipped {
        found
            .outcomes
            .push(skipped_package(&package, &dir, rule, Some(&base)));
    }
    let mut sides = Vec::new();
    for (here, l) in loaded {
        match l? {
            Loaded::Side(s) => {
                found.base_refused += usize::from(s.refused.is_some());
                found.rev_here.insert(s.path.clone(), here);
                sides.push(Arc::from(s));
            }
            Loaded::Refused(o, _) => unplaced(*o, found),
        }
    }
    Ok(sides)
}

/// A package of BASE refused by verification whose FormRef cannot be read
/// (its package index refused: an unknown member, a byte-order mark, a
/// duplicate key, a link): it cannot be placed in its version line, so no
/// new version can be shown to fit the release it may be (breaker2 G2: it
/// used to vanish, and a breaking next version passed). Its own findings
/// are reported with an FD678 that says why the run fails (exit 1).
fn unplaced(mut o: PackageOutcome, found: &mut Found) {
    found.base_refused += 1;
    o.diagnostics.push(Diagnostic::new(
        Code::SideRefused,
        "this package of BASE is refused by verification and names no FormRef that can be read, so it cannot be placed in its version line: no new version can be shown to fit it (fix or remove it in BASE)",
    ));
    found.outcomes.push(o);
}

/// Everything one `compat` run found.
#[derive(Debug)]
pub struct Report {
    /// The command.
    pub mode: Mode,
    /// Every compared pair, in (group, kind, precedence) order.
    pub pairs: Vec<Pair>,
    /// Packages of BASE refused by verification (never used as a baseline;
    /// counted; those in a pair, whose FD678 says so, are also listed with
    /// their own findings, breaker2 G4).
    pub base_refused: usize,
    /// The run's report, built complete: first the findings outside the
    /// pairs ([`Report::outside_pairs`]), each as the entry of the package
    /// (or PATH) it is about: a side refused by verification (its own
    /// findings), a walk finding (FD900–FD902), FormRef reuse in a tree
    /// (FD671), nothing to compare (FD677), a version that is not SemVer
    /// (FD676); then one entry per pair, in order ([`Pair::entry`], named
    /// [`Pair::name`]). [`crate::report::Report::could_not_read`]: a PATH
    /// does not exist (exit 2).
    pub report: crate::report::Report,
    /// Directories the walk of `--history` / `--baseline` skipped by a rule
    /// (hidden, `.gitignore`), with the rule: never compared, and said in
    /// every format by `render::compat::report` (compat has no
    /// `--no-ignore`: not in [`crate::report::Report::skipped`], whose
    /// SARIF and JUnit texts name verify's flags).
    pub skipped: Vec<(PathBuf, SkipRule)>,
}

impl Report {
    /// The number of entries of [`Report::report`] outside the pairs (its
    /// first ones).
    pub fn outside_pairs(&self) -> usize {
        self.report.entries.len().saturating_sub(self.pairs.len())
    }

    /// The exit status, the report's ([`crate::report::Report::exit_code`]):
    /// 2 could not run, 1 some entry fails (a bump does not fit: its
    /// pair's entry holds the error that says so, [`Pair::entry`]; a
    /// FormRef is reused; a side is refused; a walk finding), else 0.
    pub fn exit_code(&self) -> u8 {
        self.report.exit_code()
    }
}

/// What a run found outside the pairs, while it runs ([`Found::finish`]
/// makes the [`Report`]).
#[derive(Debug)]
struct Found {
    /// The command.
    mode: Mode,
    /// Findings outside the pairs, each as the outcome of the package (or
    /// PATH) it is about ([`Report::report`]).
    outcomes: Vec<PackageOutcome>,
    /// Packages of BASE refused by verification.
    base_refused: usize,
    /// `--baseline-rev`: each package of BASE (by its name, `REV:…`) and
    /// its directory in the working tree.
    rev_here: BTreeMap<PathBuf, PathBuf>,
    /// A PATH does not exist.
    missing: bool,
    /// Directories the walk skipped by a rule, with the rule.
    skipped: Vec<(PathBuf, SkipRule)>,
}

impl Found {
    fn new(mode: Mode) -> Self {
        Found {
            mode,
            outcomes: Vec::new(),
            base_refused: 0,
            rev_here: BTreeMap::new(),
            missing: false,
            skipped: Vec::new(),
        }
    }

    /// The report of the run that compared `pairs` (see [`Report::report`]):
    /// each outcome an entry of its path, findings and sources, then each
    /// pair's entry.
    fn finish(self, pairs: Vec<Pair>) -> Report {
        let outside = self.outcomes.into_iter().map(|o| {
            Entry::new(
                EntryKind::Package,
                PackageOutcome {
                    path: o.path,
                    diagnostics: o.diagnostics,
                    sources: o.sources,
                    ..Default::default()
                },
            )
        });
        let entries = outside.chain(pairs.iter().map(Pair::entry)).collect();
        Report {
            mode: self.mode,
            pairs,
            base_refused: self.base_refused,
            report: crate::report::Report {
                could_not_read: self.missing,
                ..crate::report::Report::new(entries, ExitRule::default())
            },
            skipped: self.skipped,
        }
    }
}

/// `compat OLD NEW`.
///
/// # Errors
/// [`Error::Usage`] when OLD or NEW does not exist; a fault of the verifier.
pub fn pair(old: &Path, new: &Path) -> Result<Report, Error> {
    let mut found = Found::new(Mode::Pair);
    let (a, b) = (load(old)?, load(new)?);
    let mut pairs = Vec::new();
    match (a, b) {
        (Loaded::Side(a), Loaded::Side(b)) => {
            let (a, b) = (Arc::from(a), Arc::from(b));
            found.outcomes.extend(refusal(&a));
            found.outcomes.extend(refusal(&b));
            pairs.push(compare_pair(a, b));
        }
        (a, b) => {
            for l in [a, b] {
                match l {
                    Loaded::Refused(o, _) => found.outcomes.push(*o),
                    Loaded::Side(s) => found.outcomes.extend(refusal(&s)),
                }
            }
        }
    }
    Ok(found.finish(pairs))
}

/// The verification findings of a refused side.
fn refusal(s: &Side) -> Option<PackageOutcome> {
    s.refused.as_ref().map(|o| PackageOutcome {
        path: o.path.clone(),
        diagnostics: o.diagnostics.clone(),
        sources: o.sources.clone(),
        ..Default::default()
    })
}

/// Every package under `paths` (verify's walk, default rules), verified
/// and read in parallel (order kept). Walk findings and the directories
/// skipped by a rule go to `found`, and so does an FD683 for each package
/// in a directory the walk skipped that no PATH names ([`packages_skipped`];
/// breaker2 G1). `base`: the walk is BASE's (`--baseline DIR`), whose
/// refused packages are counted, not listed (`None`: the PATHs', whose
/// refused packages are listed with their findings).
fn sides_under(
    paths: &[PathBuf],
    found: &mut Found,
    base: Option<&Base>,
) -> Result<Vec<Arc<Side>>, Error> {
    let list_refused = base.is_none();
    // The one walk-and-report helper over every PATH: its walk findings
    // (FD900-FD902), in walk order, before the FD683s below.
    let mut walked = discover(paths, &WalkRules::default(), &|_| false);
    for e in walked.entries() {
        found.missing |= e.is_missing_path();
        found.outcomes.push(e.into_outcome());
    }
    let mut skipped = packages_skipped(&walked.skipped);
    found.skipped.append(&mut walked.skipped);
    let roots = walked.roots();
    let loaded: Vec<Result<Loaded, Error>> = roots.par_iter().map(|r| load(r)).collect();
    // A package inside another package (breaker4 H5): the walk stops at a
    // package root, so it is never compared; said, as a skipped one is.
    // Found in verification's inventory of the package, not walked again.
    for (root, l) in roots.iter().zip(&loaded) {
        let files = l.as_ref().map(Loaded::files).unwrap_or_default();
        skipped.extend(packages_nested(root, files).map(|p| (p, root.clone(), SkipRule::Nested)));
    }
    // A package another PATH names is compared there: not skipped.
    let named: std::collections::BTreeSet<PathBuf> = roots
        .iter()
        .filter_map(|r| std::fs::canonicalize(r).ok())
        .collect();
    for (package, dir, rule) in skipped {
        if std::fs::canonicalize(&package).is_ok_and(|p| named.contains(&p)) {
            continue;
        }
        found
            .outcomes
            .push(skipped_package(&package, &dir, rule, base));
    }
    let mut sides = Vec::new();
    for l in loaded {
        match l? {
            Loaded::Side(s) => {
                if s.refused.is_some() {
                    if list_refused {
                        found.outcomes.extend(refusal(&s));
                    } else {
                        found.base_refused += 1;
                    }
                }
                sides.push(Arc::from(s));
            }
            Loaded::Refused(o, _) if list_refused => found.outcomes.push(*o),
            Loaded::Refused(o, _) => unplaced(*o, found),
        }
    }
    Ok(sides)
}

/// The Form Packages in the directories a walk skipped by a rule
/// (`skipped`, the walk's own records, each with its rule): each directory
/// holding a `package-index.json` found below one of them by the same walk
/// with no rule ([`discover`] with `no_ignore`), as (package,
/// skipped directory, rule), in walk order. A `.git` directory is not
/// searched: git never tracks a path inside one, so nothing there is
/// published (and a large repository's objects are not walked).
fn packages_skipped(skipped: &[(PathBuf, SkipRule)]) -> Vec<(PathBuf, PathBuf, SkipRule)> {
    let every = WalkRules {
        no_ignore: true,
        ..WalkRules::default()
    };
    skipped
        .iter()
        .filter(|(dir, _)| dir.file_name().is_none_or(|n| n != ".git"))
        // A link is not followed by the walk, nor published as a directory.
        .filter(|(dir, _)| std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()))
        .flat_map(|(dir, rule)| {
            let mut w = discover(std::slice::from_ref(dir), &every, &|_| false);
            let roots = if w.no_package.is_empty() {
                w.roots()
            } else {
                Vec::new()
            };
            roots
                .into_iter()
                .filter(|r| std::fs::symlink_metadata(r.join(crate::verify::INDEX_FILE)).is_ok())
                .map(|r| (r, dir.clone(), *rule))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The directories below the package root `root` (not `root` itself)
/// that hold a `package-index.json`, from `files`, the package's regular
/// files as verification's inventory listed them ([`Loaded::files`]):
/// Form Packages inside a package, which the walk never reaches (breaker4
/// H5). Links are not followed (the inventory lists none); nothing below
/// a `.git` directory counts. In walk order: name by name, depth first.
fn packages_nested<'a>(root: &'a Path, files: &'a [String]) -> impl Iterator<Item = PathBuf> + 'a {
    let mut nested: Vec<(&str, &str)> = files
        .iter()
        .filter_map(|f| {
            Some((
                f.as_str(),
                f.strip_suffix(crate::verify::INDEX_FILE)?
                    .strip_suffix('/')?,
            ))
        })
        .filter(|(_, dir)| !dir.split('/').any(|c| c == ".git"))
        .collect();
    nested.sort_by(|(a, _), (b, _)| a.split('/').cmp(b.split('/')));
    nested.into_iter().map(|(_, dir)| root.join(dir))
}

/// FD683 (an error, breaker2 G1; the lead's decision: compat never skips a
/// Form Package in silence): the Form Package `package` is in `dir`, a
/// directory skipped by `rule` (hidden, `.gitignore`, a package it is
/// inside; at REV also a git submodule, the package's own directory), on
/// BASE's side (`base`) or on the PATHs'. The outcome of the package itself,
/// its message each rule's own.
fn skipped_package(
    package: &Path,
    dir: &Path,
    rule: SkipRule,
    base: Option<&Base>,
) -> PackageOutcome {
    let place = if package == dir {
        format!("{} is {}", package.display(), rule.what())
    } else {
        format!(
            "{} is in {}, {}",
            package.display(),
            dir.display(),
            rule.what()
        )
    };
    let message = match (rule, base) {
        // A submodule is not known to hold a package: its objects are not read.
        (SkipRule::Submodule, _) => format!(
            "{place} at {}: its objects are another repository's and are not read, so a Form Package in it was not read as published and no new version was checked against it",
            base.map(Base::label).unwrap_or_default()
        ),
        (_, Some(b)) => format!(
            "the Form Package {place}, which the walk of BASE {} skips: it was not read as published, so no new version was checked against it",
            b.label()
        ),
        (_, None) => format!("the Form Package {place}, which the walk skips: it was not compared"),
    };
    PackageOutcome {
        path: package.to_path_buf(),
        diagnostics: vec![Diagnostic::new(Code::SkippedPackage, message)],
        ..Default::default()
    }
}

/// One slot of a version line: every copy of one (group, kind,
/// definitionVersion precedence), and the copy that stands for it (the
/// first verified copy by path, else the first).
struct Slot {
    version: Version,
    copies: Vec<Arc<Side>>,
}

impl Slot {
    fn representative(&self) -> Option<&Arc<Side>> {
        self.copies
            .iter()
            .find(|s| s.refused.is_none())
            .or_else(|| self.copies.first())
    }
}

/// The two copies, one of each slot, that stand for a step between two
/// versions: when a version was published with several different bytes
/// (FD671 at each copy), the step is the pair of copies closest to each
/// other: verified before refused, then the same desired schema, then the
/// fewest top-level members that differ, then path order. `None` when a
/// slot is empty.
fn closest(olds: &[Arc<Side>], news: &[Arc<Side>]) -> Option<(Arc<Side>, Arc<Side>)> {
    let distance = |a: &Side, b: &Side| {
        let (x, y) = (&a.definition, &b.definition);
        let differing = match (x.as_object(), y.as_object()) {
            (Some(m), Some(n)) => {
                m.iter().filter(|(k, v)| n.get(*k) != Some(*v)).count()
                    + n.keys().filter(|k| !m.contains_key(*k)).count()
            }
            _ => usize::MAX,
        };
        (
            usize::from(a.refused.is_some()) + usize::from(b.refused.is_some()),
            x.get("desiredSchema") != y.get("desiredSchema"),
            differing,
        )
    };
    let mut best: Option<((usize, bool, usize), usize, usize)> = None;
    for (i, a) in olds.iter().enumerate() {
        for (j, b) in news.iter().enumerate() {
            let d = distance(a, b);
            if best.is_none_or(|(bd, _, _)| d < bd) {
                best = Some((d, i, j));
            }
        }
    }
    let (_, i, j) = best?;
    Some((Arc::clone(olds.get(i)?), Arc::clone(news.get(j)?)))
}

/// Sides grouped by (group, kind), each group's versions in precedence
/// order; a version that is not SemVer is FD676 in `found`.
fn lines(sides: Vec<Arc<Side>>, found: &mut Found) -> BTreeMap<(String, String), Vec<Slot>> {
    let mut groups: BTreeMap<(String, String), Vec<Slot>> = BTreeMap::new();
    for s in sides {
        let Some(v) = bump::parse(&s.form_ref.definition_version) else {
            found.outcomes.push(side_finding(
                &s,
                Code::InvalidDefinitionVersion,
                format!(
                    "definitionVersion {} is not a SemVer 2.0.0 version: left out of the version order",
                    super::changes::quoted(&s.form_ref.definition_version)
                ),
            ));
            continue;
        };
        let line = groups
            .entry((s.form_ref.api_version.clone(), s.form_ref.kind.clone()))
            .or_default();
        match line
            .iter_mut()
            .find(|slot| slot.version.cmp_precedence(&v) == std::cmp::Ordering::Equal)
        {
            Some(slot) => slot.copies.push(s),
            None => line.push(Slot {
                version: v,
                copies: vec![s],
            }),
        }
    }
    for line in groups.values_mut() {
        line.sort_by(|a, b| a.version.cmp_precedence(&b.version));
        for slot in line.iter_mut() {
            slot.copies.sort_by(|a, b| a.path.cmp(&b.path));
        }
    }
    groups
}

/// A finding about one side, at its definition's `/definitionVersion`,
/// as an outcome of its own (the definition's bytes kept for the location).
fn side_finding(s: &Side, code: Code, message: String) -> PackageOutcome {
    PackageOutcome {
        path: PathBuf::new(),
        diagnostics: vec![Diagnostic::new(code, message)
            .in_file(s.def_file.clone())
            .at(JsonPointer::root().child("definitionVersion"))],
        sources: BTreeMap::from([(s.def_file.clone(), s.def_source.clone())]),
        ..Default::default()
    }
}

/// FD671 at `at`, whose FormRef names other bytes at each side of
/// `others` (none: no finding); `whose` says where those are, e.g. ` (in
/// BASE, published)`. The one text of a reuse in the tree modes.
fn reuse_finding(at: &Side, others: &[&Side], whose: &str, found: &mut Found) {
    if others.is_empty() {
        return;
    }
    let paths: Vec<String> = others
        .iter()
        .map(|o| o.path.display().to_string())
        .collect();
    found.outcomes.push(side_finding(
        at,
        Code::FormRefReused,
        format!(
            "{} names different bytes here and in {}{whose}",
            at.form_ref.label(),
            paths.join(", ")
        ),
    ));
}

/// FD671 at each of `copies` that differs in bytes from some of `among`.
fn reuse_among(copies: &[Arc<Side>], among: &[Arc<Side>], whose: &str, found: &mut Found) {
    for c in copies {
        let others: Vec<&Side> = among
            .iter()
            .filter(|o| !o.same_bytes(c))
            .map(|o| &**o)
            .collect();
        reuse_finding(c, &others, whose, found);
    }
}

/// FD671 at every copy of a slot whose copies are not all the same bytes.
fn reuse_findings(slot: &Slot, found: &mut Found) {
    reuse_among(&slot.copies, &slot.copies, "", found);
}

/// The slot a version `new` is compared with among `earlier` (the older
/// slots of its line, in precedence order): the newest older *release* —
/// a pre-release carries no compatibility promise (SemVer 2.0.0 §9,
/// FD673), so `1.0.0 → 1.0.1-rc.1 → 1.0.1` compares `1.0.1` with `1.0.0`,
/// never only with its release candidate (breaker G8: a breaking change
/// shipped as a patch behind an rc passed); a pre-release is held to the
/// release it follows too (breaker F11: `1.0.1-rc.2` is compared with
/// `1.0.0`, not with `1.0.1-rc.1`, which promised nothing). With no older
/// release, the newest older version. `None` when nothing is older.
fn older_to_compare(earlier: &[Slot]) -> Option<&Slot> {
    older_to_compare_by(earlier, |s| &s.version)
}

/// [`older_to_compare`] over any items of a version line (`version` reads
/// each one's version): the one rule of which older version a version is
/// held to, shared by the slots of a tree and by the versions of BASE with
/// one candidate inserted ([`newer_neighbours`]).
fn older_to_compare_by<T>(earlier: &[T], version: impl Fn(&T) -> &Version) -> Option<&T> {
    earlier
        .iter()
        .rev()
        .find(|s| version(s).pre.is_empty())
        .or_else(|| earlier.last())
}

/// The published slots of `line` (BASE's versions of one (group, kind), in
/// precedence order) that `candidate`, a version BASE lacks, would stand
/// before once published: each newer slot that, in BASE with the candidate
/// inserted, is compared with the candidate by [`older_to_compare`] (issue
/// 35 item 2: BASE 1.0.0 (`a`), 1.2.0 (`a`, `b`) and a new 1.1.0 (`a`,
/// `c`) make the published 1.1.0 → 1.2.0 minor breaking, which `--history`
/// over the merged tree finds). A pre-release never stands between
/// releases: a new `1.1.0-rc.1` is no neighbour of a published `1.1.0`
/// after a published `1.0.0`; the oldest newer release is a neighbour of a
/// new release, and so is a pre-release between them.
fn newer_neighbours<'a>(line: &'a [Slot], candidate: &Version) -> Vec<&'a Slot> {
    use std::cmp::Ordering::Less;
    line.iter()
        .filter(|p| candidate.cmp_precedence(&p.version) == Less)
        .filter(|p| {
            let mut earlier: Vec<(&Version, bool)> = line
                .iter()
                .filter(|o| o.version.cmp_precedence(&p.version) == Less)
                .map(|o| (&o.version, false))
                .collect();
            earlier.push((candidate, true));
            earlier.sort_by(|a, b| a.0.cmp_precedence(b.0));
            older_to_compare_by(&earlier, |e| e.0).is_some_and(|e| e.1)
        })
        .collect()
}

/// The copies of a published `slot` a new version is held to under
/// `--baseline` (breaker4 H6): each verified copy, one per digest, in path
/// order (a copy `verify` refused is no release a host installs); when
/// every copy is refused, the first (its findings are then reported).
fn published_copies(slot: &Slot) -> Vec<Arc<Side>> {
    let mut seen = std::collections::BTreeSet::new();
    let verified: Vec<Arc<Side>> = slot
        .copies
        .iter()
        .filter(|s| s.refused.is_none() && seen.insert(s.digest.clone()))
        .cloned()
        .collect();
    if verified.is_empty() {
        slot.representative().cloned().into_iter().collect()
    } else {
        verified
    }
}

/// Compares each pair of `todo` (in parallel), in order.
fn compare_all(todo: Vec<(Arc<Side>, Arc<Side>)>) -> Vec<Pair> {
    todo.into_par_iter()
        .map(|(a, b)| compare_pair(a, b))
        .collect()
}

/// `compat --history PATH...`.
///
/// # Errors
/// A fault of the verifier (exit 2).
pub fn history(paths: &[PathBuf]) -> Result<Report, Error> {
    let mut found = Found::new(Mode::History);
    let sides = sides_under(paths, &mut found, None)?;
    let groups = lines(sides, &mut found);
    let mut todo = Vec::new();
    for line in groups.values() {
        for slot in line {
            reuse_findings(slot, &mut found);
        }
        for (i, new) in line.iter().enumerate() {
            let earlier = line.get(..i).unwrap_or_default();
            if let Some(old) = older_to_compare(earlier) {
                if let Some(pair) = closest(&old.copies, &new.copies) {
                    todo.push(pair);
                }
            }
        }
    }
    Ok(found.finish(compare_all(todo)))
}

/// `compat --baseline BASE PATH...` and `compat --baseline-rev REV
/// PATH...`.
///
/// # Errors
/// BASE at REV cannot be read ([`super::baserev::packages_at`], exit 2); a
/// fault of the verifier (exit 2).
pub fn baseline(base: Base, paths: &[PathBuf]) -> Result<Report, Error> {
    let mut found = Found::new(Mode::Baseline);
    let published = match base {
        Base::Dir(dir) => {
            no_package_in_dir(dir)?;
            sides_under(&[dir.to_path_buf()], &mut found, Some(&base))?
        }
        Base::Rev(rev) => sides_at(rev, paths, &mut found)?,
    };
    let published_paths: std::collections::BTreeSet<PathBuf> =
        published.iter().map(|s| s.path.clone()).collect();
    let published = lines(published, &mut found);
    let candidates = sides_under(paths, &mut found, None)?;
    let candidates = lines(candidates, &mut found);
    let mut todo = Vec::new();
    // Breaker2 G11: at REV, a kind whose every published version is gone
    // from the working tree under the PATHs was removed too (its
    // directories are known; a BASE directory maps to no working tree).
    if let Base::Rev(_) = base {
        let under: Vec<PathBuf> = paths
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect();
        for (_, line) in published
            .iter()
            .filter(|(k, _)| !candidates.contains_key(*k))
        {
            for slot in line {
                let Some(side) = slot.representative() else {
                    continue;
                };
                let gone = found.rev_here.get(&side.path).is_some_and(|here| {
                    let here = crate::discover::resolved(here).unwrap_or_else(|| here.clone());
                    under.iter().any(|p| here.starts_with(p))
                        && !holds_version(&here, &slot.version)
                });
                if gone {
                    found.outcomes.push(removed(side, &base, paths));
                }
            }
        }
    }
    let mut new_versions = 0usize;
    for (key, line) in &candidates {
        let base_line = published.get(key);
        for gone in base_line.into_iter().flatten().filter(|p| {
            !line
                .iter()
                .any(|s| s.version.cmp_precedence(&p.version) == std::cmp::Ordering::Equal)
        }) {
            let Some(side) = gone.representative() else {
                continue;
            };
            // At REV, BASE is the whole repository (breaker F3): a
            // published package outside the PATHs whose directory still
            // holds that version in the working tree was not removed.
            if found
                .rev_here
                .get(&side.path)
                .is_some_and(|here| holds_version(here, &gone.version))
            {
                continue;
            }
            found.outcomes.push(removed(side, &base, paths));
        }
        for slot in line {
            reuse_findings(slot, &mut found);
            let Some(new) = slot.representative() else {
                continue;
            };
            let same = base_line.and_then(|l| {
                l.iter()
                    .find(|s| s.version.cmp_precedence(&slot.version) == std::cmp::Ordering::Equal)
            });
            if let Some(published_slot) = same {
                let (published, here) = (&published_slot.copies, &slot.copies);
                reuse_among(here, published, " (in BASE, published)", &mut found);
                reuse_among(
                    published,
                    here,
                    " (this copy is the published one)",
                    &mut found,
                );
                continue;
            }
            new_versions += 1;
            // The older neighbour is taken from the merged line, BASE's
            // versions with the PR's new ones (breaker F1): two new
            // versions of one PR (1.1.0 adds `c`, 1.2.0 retypes it) are
            // held to each other, as `--history` over the merged tree
            // holds them, never each to BASE alone.
            let mut earlier: Vec<&Slot> = base_line
                .into_iter()
                .flatten()
                .chain(line.iter().filter(|s| {
                    !base_line.is_some_and(|l| {
                        l.iter().any(|p| {
                            p.version.cmp_precedence(&s.version) == std::cmp::Ordering::Equal
                        })
                    })
                }))
                .filter(|s| bump::increases(&s.version, &slot.version))
                .collect();
            earlier.sort_by(|a, b| a.version.cmp_precedence(&b.version));
            let older = older_to_compare_by(&earlier, |s| &s.version).copied();
            let newer: Vec<_> = base_line
                .map(|l| newer_neighbours(l, &slot.version))
                .unwrap_or_default();
            // Breaker4 H6: a published neighbour is every copy BASE holds
            // of that version (each one's FormRef is installable), so the
            // new version is held to each, never to the friendliest one
            // alone; a neighbour the PR adds is its closest copy (its
            // copies are FD671 already).
            let is_published =
                |o: &Slot| base_line.is_some_and(|l| l.iter().any(|p| std::ptr::eq(p, o)));
            let older: Vec<_> = match older {
                Some(o) if is_published(o) => published_copies(o)
                    .into_iter()
                    .map(|c| (c, Arc::clone(new)))
                    .collect(),
                Some(o) => closest(&o.copies, std::slice::from_ref(new))
                    .into_iter()
                    .collect(),
                None => Vec::new(),
            };
            let after = newer.iter().flat_map(|p| {
                published_copies(p)
                    .into_iter()
                    .map(|c| (Arc::clone(new), c))
            });
            let before = todo.len();
            todo.extend(older.into_iter().chain(after));
            if todo.len() == before {
                found
                    .outcomes
                    .push(nothing_to_compare(new, &slot.version, &base));
            }
        }
    }
    // Nothing new, and nothing removed or rewritten: BASE may hold the PR.
    let changed = found
        .outcomes
        .iter()
        .flat_map(|o| &o.diagnostics)
        .any(|d| matches!(d.code, Code::PublishedVersionRemoved | Code::FormRefReused));
    if new_versions == 0 && !changed {
        found.outcomes.push(nothing_new(&base, paths));
    }
    // Breaker2 G4: a refused package of BASE in a pair (its FD678 says
    // "its findings are reported") is reported with its own findings, once,
    // at its BASE path or `REV:` path, in every format; one in no pair is
    // counted in the summary (its errors would fail a run whose PR is
    // right).
    let mut shown = std::collections::BTreeSet::new();
    for s in todo.iter().flat_map(|(a, b)| [a, b]) {
        if published_paths.contains(&s.path) && shown.insert(s.path.clone()) {
            found.outcomes.extend(refusal(s));
        }
    }
    Ok(found.finish(compare_all(todo)))
}

/// FD679 at `side`, a published version no package under `paths` is.
fn removed(side: &Side, base: &Base, paths: &[PathBuf]) -> PackageOutcome {
    side_finding(
        side,
        Code::PublishedVersionRemoved,
        format!(
            "BASE {} published {} and no package under {} is that version: a published release was removed (its neighbours are no longer checked against it)",
            base.label(),
            side.form_ref.label(),
            shown_paths(paths)
        ),
    )
}

/// The PATHs as given, `, `-separated.
fn shown_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// FD684 (a note, breaker2 G9): no package under `paths` is new against
/// BASE (every version there is published, none was removed or
/// rewritten), so nothing was compared: most
/// often BASE already holds the PR (`--baseline-rev HEAD` once the PR is
/// committed, or BASE and a PATH the same directory). A note, not a
/// warning: a pull request that changes no package runs the same way and
/// is right, and `--deny-warnings` must not fail it. The outcome of the
/// first PATH.
fn nothing_new(base: &Base, paths: &[PathBuf]) -> PackageOutcome {
    let same = match base {
        Base::Dir(dir) => std::fs::canonicalize(dir).ok().and_then(|d| {
            paths
                .iter()
                .find(|p| std::fs::canonicalize(p).is_ok_and(|p| p == d))
        }),
        Base::Rev(_) => None,
    };
    let message = match (base, same) {
        (Base::Dir(dir), Some(p)) => format!(
            "BASE {} and the PATH {} are the same directory: no package under the PATHs is new against BASE, so nothing was compared; did you mean --baseline <a checkout of the base branch>, or --baseline-rev <base sha>?",
            dir.display(),
            p.display()
        ),
        (Base::Dir(dir), None) => format!(
            "no package under the PATHs ({}) is new against BASE {}, so nothing was compared; is BASE the published tree (a checkout of the base branch), or did you mean --baseline-rev <base sha>?",
            shown_paths(paths),
            dir.display()
        ),
        (Base::Rev(rev), _) => format!(
            "no package under the PATHs ({}) is new against BASE {rev}, so nothing was compared; did you mean --baseline-rev <base sha> (the pull request's base, not a revision that already holds its commits)?",
            shown_paths(paths)
        ),
    };
    PackageOutcome {
        path: paths.first().cloned().unwrap_or_default(),
        diagnostics: vec![Diagnostic::new(Code::NothingNew, message)],
        ..Default::default()
    }
}

/// True when the working-tree directory `dir` holds a package index whose
/// `formRef.definitionVersion` has the precedence of `version`.
fn holds_version(dir: &Path, version: &Version) -> bool {
    let Ok(bytes) = crate::fileread::read_file(
        &dir.join(crate::verify::INDEX_FILE),
        crate::fileread::Reach::Found,
        crate::limits::INDEX_BYTES,
    ) else {
        return false;
    };
    serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|i| {
            i.pointer("/formRef/definitionVersion")
                .and_then(serde_json::Value::as_str)
                .and_then(bump::parse)
        })
        .is_some_and(|v| v.cmp_precedence(version) == std::cmp::Ordering::Equal)
}

/// The versions a kind's first release plausibly has (breaker F9), less
/// any pre-release and build: `0.1.0`, `1.0.0`, `0.0.1` (the first
/// version of each SemVer habit) and `0.0.0` (a placeholder before any
/// release, as the corpus's `0.0.0-legacy.1`).
const FIRST_RELEASES: [(u64, u64, u64); 4] = [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)];

/// True when `v` is a plausible first release of a kind
/// (0.0.0, 0.0.1, 0.1.0, 1.0.0, with any pre-release or build).
pub fn plausible_first_release(v: &Version) -> bool {
    FIRST_RELEASES.contains(&(v.major, v.minor, v.patch))
}

/// The finding of a new version `new` compared with nothing (no older
/// version in the merged line, no newer one in BASE): `FD677` (a note) for
/// a plausible first release, else `FD681` (a warning: BASE may not be the
/// published tree; breaker F9).
fn nothing_to_compare(new: &Side, version: &Version, base: &Base) -> PackageOutcome {
    let what = format!(
        "no older version of {} {} in BASE {}",
        new.form_ref.api_version,
        new.form_ref.kind,
        base.label()
    );
    if plausible_first_release(version) {
        side_finding(
            new,
            Code::NothingToCompare,
            format!("{what}: nothing to compare"),
        )
    } else {
        side_finding(
            new,
            Code::UnexpectedFirstVersion,
            format!(
                "{what}, and {} is not a first release (0.1.0, 1.0.0, 0.0.1, 0.0.0 or a pre-release of one): nothing was compared; is BASE the published tree, and are the older versions under the PATHs?",
                super::changes::quoted(&new.form_ref.definition_version)
            ),
        )
    }
}

/// `--baseline BASE`: BASE must hold a Form Package (breaker F9: an empty
/// directory, or a tree whose packages sit under a hidden directory the
/// walk skips, turned the gate off, every new version "nothing to
/// compare", exit 0).
///
/// # Errors
/// [`Error::Usage`] (exit 2) when the walk of BASE finds no directory
/// holding a `package-index.json`, naming the hidden directories it
/// skipped.
fn no_package_in_dir(dir: &Path) -> Result<(), Error> {
    let w = discover(&[dir.to_path_buf()], &WalkRules::default(), &|_| false);
    // The walk's fallback: no package below BASE, and BASE itself none.
    if w.no_package.is_empty() {
        return Ok(());
    }
    let skipped: Vec<String> = w
        .skipped
        .iter()
        .map(|(p, rule)| format!("{} ({rule})", p.display()))
        .collect();
    Err(Error::Usage(format!(
        "--baseline {}: BASE holds no Form Package (no directory with a package-index.json{}): check it is the published tree (a checkout of the base branch); for a repository's first release run compat without --baseline",
        dir.display(),
        if skipped.is_empty() {
            String::new()
        } else {
            format!("; skipped: {}", skipped.join(", "))
        }
    )))
}

/// Runs the command line's request: `--history` over `paths`,
/// `--baseline BASE` (or `--baseline-rev REV`) over `paths`, else the pair
/// `paths` = [OLD, NEW].
///
/// # Errors
/// [`Error::Usage`] for a pair that is not exactly two PATHs, a PATH or
/// BASE that does not exist, BASE at REV that cannot be read; a fault of
/// the verifier.
pub fn run(paths: &[PathBuf], history_mode: bool, base: Option<Base>) -> Result<Report, Error> {
    match (history_mode, base) {
        (true, _) => history(paths),
        (false, Some(b)) => {
            if let Base::Dir(dir) = b {
                if std::fs::symlink_metadata(dir).is_err() {
                    return Err(Error::Usage(format!(
                        "--baseline {}: no such file or directory",
                        dir.display()
                    )));
                }
            }
            baseline(b, paths)
        }
        (false, None) => match paths {
            [old, new] => pair(old, new),
            _ => Err(Error::Usage(format!(
                "compat takes OLD and NEW ({} PATHs given); use --history or --baseline BASE for trees",
                paths.len()
            ))),
        },
    }
}

/// `--write-witnesses DIR`: each breaking pair's witness (a desired
/// document valid under OLD and refused by NEW) as
/// `DIR/<kind>-<old>-to-<new>.negative.json` (names reduced to the package
/// path grammar; a name two pairs of the run share is prefixed with the
/// group's `apiVersion`, `_` for `/`, then numbered `-2`, `-3`), pretty JSON with a final newline: a publisher adds it as
/// a negative fixture of NEW (stage `desired`). Returns the files written.
///
/// # Errors
/// [`Error::Io`] when DIR cannot be created or a file cannot be written.
pub fn write_witnesses(report: &Report, dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let breaking: Vec<(&Pair, &serde_json::Value)> = report
        .pairs
        .iter()
        .filter_map(|p| match &p.desired {
            Some(super::desired::Verdict::Breaking { witness }) => Some((p, witness)),
            _ => None,
        })
        .collect();
    let stems: Vec<String> = breaking
        .iter()
        .map(|(p, _)| {
            format!(
                "{}-{}-to-{}",
                safe(&p.new.form_ref.kind),
                safe(&p.old.form_ref.definition_version),
                safe(&p.new.form_ref.definition_version)
            )
        })
        .collect();
    if !breaking.is_empty() {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    // Two Forms of one kind in different groups (or two copies of one step)
    // would share a name (breaker G7: one witness lost, both said written):
    // a name two pairs share is qualified by the group, then numbered.
    // The packages of the run's pairs: where a hard link's other names are
    // looked for.
    let guard: Vec<PathBuf> = report
        .pairs
        .iter()
        .flat_map(|p| [p.old.path.clone(), p.new.path.clone()])
        .collect();
    let mut taken = std::collections::BTreeSet::new();
    let mut written = Vec::new();
    for ((p, witness), short) in breaking.iter().copied().zip(&stems) {
        let stem = if stems.iter().filter(|s| *s == short).count() > 1 {
            format!("{}-{short}", safe(&p.new.form_ref.api_version))
        } else {
            short.clone()
        };
        let mut name = format!("{stem}.negative.json");
        let mut n = 1;
        while !taken.insert(name.clone()) {
            n += 1;
            name = format!("{stem}-{n}.negative.json");
        }
        let file = dir.join(name);
        let mut bytes = serde_json::to_vec_pretty(witness)
            .map_err(|e| Error::Internal(format!("witness: {e}")))?;
        bytes.push(b'\n');
        write_witness(&file, &bytes, &guard)?;
        written.push(file);
    }
    Ok(written)
}

/// Writes one witness `file` through the one writer
/// ([`crate::fswrite::write()`]: never into a package, through a symbolic or
/// a hard link neither; `guard`, the packages of the run's pairs, are
/// searched for a hard link's other names; breaker G1: a link planted in
/// DIR pointed the write into a package); a file there outside every
/// package is written as `--output-file` writes a report.
///
/// # Errors
/// [`Error::Usage`] when it would land inside a package (exit 2, nothing
/// written), or [`Error::Io`] when the file cannot be written.
fn write_witness(file: &Path, bytes: &[u8], guard: &[PathBuf]) -> Result<(), Error> {
    use crate::fswrite::{How, WriteError};
    match crate::fswrite::write(file, bytes, How::Whole, guard) {
        Ok(()) => Ok(()),
        Err(e @ WriteError::Inside { .. }) => Err(Error::Usage(format!(
            "--write-witnesses: {} {e}",
            file.display()
        ))),
        Err(WriteError::Io(source)) => Err(Error::Io {
            path: file.to_path_buf(),
            source,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::worker_definition_at as definition_at;

    /// Closing note (work done twice): a package inside a package is found
    /// in verification's inventory, as the second walk (walkdir, the
    /// oracle here) found it and in its order: name by name, depth first
    /// (`a/b` before `a`, `a` before `a-b`). Near misses: the root's own
    /// index, one below `.git`, a file named `xpackage-index.json` and a
    /// link named `package-index.json` count not.
    #[test]
    fn a_nested_package_is_found_in_the_inventory_as_a_walk_finds_it() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("p");
        for f in [
            "package-index.json",
            "a/package-index.json",
            "a/b/package-index.json",
            "a-b/package-index.json",
            ".git/x/package-index.json",
            "d/xpackage-index.json",
            "e/f.json",
        ] {
            let file = root.join(f);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, "{}").unwrap();
        }
        std::os::unix::fs::symlink("f.json", root.join("e/package-index.json")).unwrap();
        // The walk as it was, but for `min_depth(2)`, which kept its
        // `.git` filter from a `.git` right below the root (walkdir does
        // not filter what `min_depth` leaves out): the depth is tested.
        let walked: Vec<PathBuf> = walkdir::WalkDir::new(&root)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.file_name() != ".git")
            .filter_map(Result::ok)
            .filter(|e| e.depth() >= 2)
            .filter(|e| e.file_type().is_file() && e.file_name() == crate::verify::INDEX_FILE)
            .filter_map(|e| e.path().parent().map(Path::to_path_buf))
            .collect();
        let files = crate::verify::verify_package_keeping_definition(&root).files;
        let found: Vec<PathBuf> = packages_nested(&root, &files).collect();
        assert_eq!(found, walked);
        assert_eq!(found, [root.join("a/b"), root.join("a"), root.join("a-b")]);
    }

    /// Issue 21 item 3: a pair is an entry of the run's report, named
    /// where it is made (`compat OLD -> NEW`), after the entries outside
    /// the pairs, and it fails exactly when its bump does not fit, so the
    /// exit status is the report's. Near miss: a patch that fits passes.
    #[test]
    fn a_pair_entry_fails_exactly_when_its_bump_does_not_fit() {
        let tmp = tempfile::tempdir().unwrap();
        let old = definition_at(&tmp.path().join("old"), "0.1.0");
        for (version, fits) in [("0.1.1", true), ("0.0.9", false)] {
            let new = definition_at(&tmp.path().join(version), version);
            let r = pair(&old, &new).unwrap();
            assert_eq!((r.pairs.len(), r.outside_pairs()), (1, 0), "{r:?}");
            let entry = &r.report.entries[0];
            assert_eq!(
                entry.given_name(),
                Some(Path::new(&format!(
                    "compat edge.forms.takoform.com/v1beta1 WorkerVersion 0.1.0 -> edge.forms.takoform.com/v1beta1 WorkerVersion {version}"
                )))
            );
            assert_eq!(r.pairs[0].bump_ok, fits);
            assert_eq!(entry.fails(false), !fits);
            assert_eq!(r.exit_code(), u8::from(!fits));
        }
    }

    /// A PATH of a tree that does not exist is an entry outside the pairs
    /// (FD900) and a run that could not read its input: exit 2. Near miss:
    /// a tree that exists, one version of each kind, has nothing to compare
    /// and exits 0.
    #[test]
    fn a_missing_tree_is_a_run_that_could_not_read() {
        let tmp = tempfile::tempdir().unwrap();
        let r = history(&[tmp.path().join("nope")]).unwrap();
        assert!(r.report.could_not_read);
        assert_eq!(r.outside_pairs(), 1);
        assert_eq!(
            r.report.entries[0].outcome().diagnostics[0].code,
            Code::PathNotFound
        );
        assert_eq!(r.exit_code(), 2);
        let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/packages/v1beta1");
        let r = history(&[tree]).unwrap();
        assert!(!r.report.could_not_read);
        assert_eq!((r.pairs.len(), r.report.entries.len()), (0, 0), "{r:?}");
        assert_eq!(r.exit_code(), 0);
    }

    /// A side's file name is escaped in the note of a pair's finding that
    /// names OLD's location (as every note escapes package text), so no
    /// format shows a control character of it. Near miss: the side's own
    /// `path` member in the JSON-encoded formats carries it as it is.
    #[test]
    fn a_control_character_in_a_side_path_is_escaped_in_its_notes() {
        use crate::render::{compat::render, Format, Options};
        let tmp = tempfile::tempdir().unwrap();
        let old = definition_at(&tmp.path().join("e\u{1b}[31m"), "0.2.0");
        let new = definition_at(&tmp.path().join("new"), "0.1.0");
        let r = pair(&old, &new).unwrap();
        let notes: Vec<&String> = r.report.findings().flat_map(|d| &d.notes).collect();
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("old: ") && n.contains("e\\x1b[31m")),
            "{notes:?}"
        );
        let r = crate::ops::compat::compat_model(r);
        let human = render(&r, Format::Human, &Options::default());
        assert!(!human.contains('\u{1b}'), "{human}");
        assert!(
            human.contains("old: ") && human.contains("e\\x1b[31m"),
            "{human}"
        );
        let sarif = render(&r, Format::Sarif, &Options::default());
        assert!(
            sarif.contains("e\\u001b[31m")
                && sarif.contains("old: ")
                && sarif.contains("e\\\\x1b[31m"),
            "{sarif}"
        );
    }
}

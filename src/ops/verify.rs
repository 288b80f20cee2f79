//! The verify run over PATHs (`form-package verify`): the configuration
//! and the command line's rules ([`crate::select`]), the walk
//! ([`crate::report::walk::discover`], PATH by PATH), every package
//! verified ([`crate::verify`]), the selection applied as each entry of
//! the [`Report`] is built. The result
//! is the report or a typed [`Refusal`]; `cli/verify.rs` renders it and
//! takes its exit status from [`Report::exit_code`]: 0 every package
//! verified (warnings allowed unless `--deny-warnings`), 1 a finding, 2 the
//! command could not run (a refusal, a PATH that does not exist).

use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;
use crate::discover;
use crate::error::Error;
use crate::fileread::Reach;
use crate::report::{Entry, EntryKind, ExitRule, Report};
use crate::select::RuleArgs;
use crate::verify::{self, PackageOutcome, Source};

/// Why a verify run did not run (exit 2): nothing was reported.
#[derive(Debug)]
pub enum Refusal {
    /// The configuration file could not be read (its message).
    Config(String),
    /// A `--select`, `--ignore` or `--warn` selector names no code.
    Selector {
        /// The flag (`--select`, `--ignore`, `--warn`).
        flag: &'static str,
        /// Why the selector is refused.
        message: String,
    },
    /// An `--exclude` glob does not parse (its message).
    Exclude(String),
    /// `--statistics` with a format that has no statistics form (SARIF,
    /// GitHub commands, JUnit; N1 §3.5): the format's name.
    Statistics(String),
    /// A fault of the verifier itself stopped a package's checks: no
    /// finding about the package.
    Fault {
        /// The package directory as given.
        path: PathBuf,
        /// The fault.
        error: Error,
    },
}

impl std::fmt::Display for Refusal {
    /// The refusal's message (unescaped; the command line escapes a fault's
    /// package path, [`crate::render::fault`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Config(m) => f.write_str(m),
            Refusal::Selector { flag, message } => write!(f, "{flag}: {message}"),
            Refusal::Exclude(m) => write!(f, "--exclude: {m}"),
            Refusal::Statistics(format) => write!(
                f,
                "--statistics has no {format} form (only human and json); drop --statistics or use --format json"
            ),
            Refusal::Fault { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

/// What the run needs to know of how its report will be printed: the
/// command line fills it from its options and `--format`
/// ([`crate::render::Format::without_statistics`]); the operation never
/// names a renderer.
#[derive(Clone, Debug, Default)]
pub struct Printed {
    /// The working directory: relative paths are named against it.
    pub cwd: PathBuf,
    /// `--deny-warnings`: the report's [`ExitRule`].
    pub deny_warnings: bool,
    /// The `--format` value's name when that format has no statistics
    /// form (SARIF, GitHub commands, JUnit): `--statistics` is then
    /// refused; `None` for human and JSON.
    pub without_statistics: Option<String>,
}

/// Who watches a verify run as it goes (the command line draws a progress
/// bar on stderr, `render::progress`): the library itself never draws.
/// Every method has a default that does nothing; `()` watches nothing.
pub trait Observer: Sync {
    /// The walk is over: it found `packages` package roots in all (some
    /// may be verified already: each is verified as soon as it is found).
    fn start(&self, packages: usize) {
        let _ = packages;
    }
    /// One package root verified (called from any thread, once a root).
    fn package_done(&self) {}
    /// Every package root verified (before the report is built).
    fn finish(&self) {}
}

/// Nobody watches.
impl Observer for () {}

/// One thing a PATH yields: a package root to verify, or a finding of the
/// walk (or of the configuration file) reported as an entry of its own.
enum Item {
    /// A package root and its number in the walk's order of new roots.
    Root(PathBuf, usize),
    Finding(EntryKind, PathBuf, Box<Diagnostic>),
}

impl Item {
    fn path(&self) -> &Path {
        match self {
            Item::Root(p, _) | Item::Finding(_, p, _) => p,
        }
    }
}

/// Verifies every package under `paths` (in parallel; the report's order
/// and content do not depend on the thread count) under the settings of
/// `form-package.toml` and `rules` ([`crate::select`]), for a report in
/// `printed` (only human and JSON have a statistics form); `printed.cwd`
/// names relative paths, `printed.deny_warnings` is the `--deny-warnings`
/// of the report's [`ExitRule`]. `observer` is told the number of package
/// roots once the walk is over and each root as it is verified.
///
/// Nothing is skipped in silence (issue 14 items 1, 2, 7): a PATH that
/// does not exist, a directory the walk cannot read and a symlink to a
/// directory are entries of the report ([`EntryKind::Path`]; a missing PATH
/// makes the exit status 2, every other PATH still verified); directories
/// skipped by a rule are part of the report ([`Report::skipped`]).
///
/// # Errors
/// A [`Refusal`]: the configuration file cannot be read, a selector or an
/// `--exclude` glob is refused, `--statistics` in a format without a
/// statistics form, or a fault of the verifier.
pub fn verify_paths_with(
    paths: &[PathBuf],
    printed: &Printed,
    rules: &RuleArgs,
    observer: &dyn Observer,
) -> Result<Report, Refusal> {
    use crate::select;
    // Every package needs the meta-schema validator first: build it while walking.
    crate::schemas::prewarm_meta();
    // `--isolated` reads no configuration file (clap refuses it with
    // `--config`); a discovered file was not named by the user (its
    // selection never applies to integrity findings, issue 22 item 4).
    let config_path = match &rules.config {
        Some(f) => Some(f.clone()),
        None if rules.isolated => None,
        None => paths
            .first()
            .and_then(|p| select::find_upward(p, &printed.cwd)),
    };
    let discovered = rules.config.is_none();
    let reach = if discovered {
        Reach::Found
    } else {
        Reach::Named
    };
    let loaded = match config_path.as_deref().map(|p| select::load(p, reach)) {
        None => select::Loaded::default(),
        Some(Ok(l)) => l,
        Some(Err(e)) => return Err(Refusal::Config(e)),
    };
    let mut settings = loaded.settings.clone();
    for (flag, value) in [
        ("--select", &rules.select),
        ("--ignore", &rules.ignore),
        ("--warn", &rules.warn),
    ] {
        for sel in value.iter().flatten() {
            if let Err(message) = select::check_selector(sel) {
                return Err(Refusal::Selector { flag, message });
            }
        }
    }
    for glob in rules.exclude.iter().flatten() {
        if let Err(e) = discover::check_exclude_glob(glob) {
            return Err(Refusal::Exclude(e));
        }
    }
    if let Some(v) = &rules.select {
        settings.select.clone_from(v);
    }
    if let Some(v) = &rules.ignore {
        settings.ignore.clone_from(v);
    }
    if let Some(v) = &rules.warn {
        settings.warn.clone_from(v);
    }
    if discovered {
        settings.discovered = select::Discovered {
            select: rules.select.is_none() && !settings.select.is_empty(),
            ignore: rules.ignore.is_none() && !settings.ignore.is_empty(),
            warn: rules.warn.is_none() && !settings.warn.is_empty(),
            exit_zero: !rules.exit_zero && settings.exit_zero,
        };
    }
    // `--statistics` has a human (table) and a JSON form only: with a format
    // a CI step parses (SARIF, GitHub commands, JUnit) it is a usage error,
    // never text the consumer cannot read (N1 §3.5). The file's
    // `statistics = true` applies to human and JSON; the other formats
    // render their report as asked.
    if let (true, Some(format)) = (rules.statistics, &printed.without_statistics) {
        return Err(Refusal::Statistics(format.clone()));
    }
    settings.exit_zero |= rules.exit_zero;
    settings.statistics |= rules.statistics;
    settings.statistics &= printed.without_statistics.is_none();
    settings.no_ignore |= rules.no_ignore;
    // The file's `exclude` globs are relative to the file's directory
    // however its path is spelled (`--config form-package.toml` has the
    // empty parent, `./form-package.toml` has `.`: both are the working
    // directory; issue 37 item 5).
    let config_dir = loaded
        .path
        .as_deref()
        .and_then(Path::parent)
        .map(|d| printed.cwd.join(d))
        .unwrap_or_default();
    let mut walk_rules = discover::WalkRules {
        no_ignore: settings.no_ignore,
        exclude: settings
            .exclude
            .iter()
            .map(|g| (config_dir.clone(), g.clone()))
            .collect(),
    };
    if let Some(globs) = &rules.exclude {
        walk_rules.exclude = globs
            .iter()
            .map(|g| (printed.cwd.clone(), g.clone()))
            .collect();
    }

    let mut items: Vec<Item> = Vec::new();
    let mut skipped = Vec::new();
    // The configuration file as the run names it, when it has findings:
    // their entries come first and are no package (T2 F8).
    let mut config_name = std::path::PathBuf::new();
    if let Some(p) = &loaded.path {
        // The file's directory as the run names paths: relative to the
        // working directory when under it (found upward, it is absolute).
        let dir = p.parent().unwrap_or(Path::new("."));
        let dir = match dir.strip_prefix(&printed.cwd) {
            Ok(rel) if rel.as_os_str().is_empty() => Path::new(".").to_path_buf(),
            Ok(rel) => rel.to_path_buf(),
            Err(_) => dir.to_path_buf(),
        };
        config_name = match p.file_name() {
            Some(f) if dir == Path::new(".") => f.into(),
            Some(f) => dir.join(f),
            None => p.clone(),
        };
        for d in &loaded.findings {
            items.push(Item::Finding(
                EntryKind::Configuration,
                dir.clone(),
                Box::new(d.clone()),
            ));
        }
    }

    // Overlapping PATHs (a tree and a package inside it) verify each package once.
    let mut seen = std::collections::HashSet::new();
    let mut resolved_parents = std::collections::HashMap::new();
    let verify_root = |r: &Path| {
        let start = std::time::Instant::now();
        // The report is only printed: each file's span map holds what
        // locating its findings reads.
        let mut o = verify::verify_package_to_print(r);
        o.elapsed = Some(start.elapsed());
        observer.package_done();
        o
    };
    // The one walk-and-report helper, PATH by PATH: each PATH's roots and
    // walk findings are one group, sorted by path. Each new root is
    // numbered in the walk's order (`Item::Root`'s number) and told to
    // `found` as the walk finds it; once the walk is over, the observer is
    // told how many there are, and so is the caller.
    let mut walk = |found: &mut dyn FnMut(usize, &Path)| {
        let mut roots = 0;
        for p in paths {
            let mut group: Vec<Item> = Vec::new();
            let mut found_here = crate::report::walk::discover_each(
                std::slice::from_ref(p),
                &walk_rules,
                &|_| false,
                &mut |r| {
                    if seen.insert(identity(r, &mut resolved_parents)) {
                        group.push(Item::Root(r.to_path_buf(), roots));
                        found(roots, r);
                        roots += 1;
                    }
                },
            );
            skipped.append(&mut found_here.skipped);
            group.extend(found_here.entries().iter().flat_map(|e| {
                let o = e.outcome();
                o.diagnostics
                    .iter()
                    .map(|d| Item::Finding(EntryKind::Path, o.path.clone(), Box::new(d.clone())))
            }));
            group.sort_by(|a, b| a.path().cmp(b.path()));
            items.extend(group);
        }
        observer.start(roots);
        roots
    };
    let verified = std::sync::Mutex::new(Vec::new());
    let roots = if matches!(paths, [only] if discover::is_root_itself(only)) {
        // One package runs on this thread, below: starting the pool costs
        // more than it saves.
        walk(&mut |_, _| {})
    } else {
        // Each package root goes to the pool as soon as the walk finds it
        // (issue 38): the walk runs on one worker of the pool while the
        // others verify, taking the oldest roots first; once the walk is
        // over its worker verifies too, the newest roots first, so the
        // workers meet in the middle, each among other packages (and other
        // schemas) than the rest. The report's order and content do not
        // depend on it.
        rayon::scope(|pool| {
            walk(&mut |i, r| {
                let (r, verified, verify_root) = (r.to_path_buf(), &verified, &verify_root);
                pool.spawn(move |_| {
                    let o = verify_root(&r);
                    if let Ok(mut v) = verified.lock() {
                        v.push((i, o));
                    }
                });
            })
        })
    };
    let mut by_root: Vec<Option<PackageOutcome>> = Vec::new();
    by_root.resize_with(roots, || None);
    for (i, o) in verified
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        if let Some(slot) = by_root.get_mut(i) {
            *slot = Some(o);
        }
    }
    let mut outcomes: Vec<PackageOutcome> = items
        .iter()
        .map(|item| match item {
            // A root the pool did not verify (the one root of a PATH that
            // is itself a package; never one the pool lost) is verified
            // here, on this thread, never taken for a package without
            // findings.
            Item::Root(r, i) => by_root
                .get_mut(*i)
                .and_then(Option::take)
                .unwrap_or_else(|| verify_root(r)),
            Item::Finding(kind, p, d) => PackageOutcome {
                path: p.clone(),
                diagnostics: vec![(**d).clone()],
                // A configuration finding names its file: its bytes as
                // `select::load` read them (once), so the finding's span shows
                // as line:column (TOML has no JSON spans). A walk finding names
                // no file.
                sources: d
                    .file
                    .as_deref()
                    .filter(|_| *kind == EntryKind::Configuration)
                    .map(|f| {
                        let bytes = loaded.bytes.clone();
                        (f.to_owned(), Source { bytes, spans: None })
                    })
                    .into_iter()
                    .collect(),
                ..Default::default()
            },
        })
        .collect();
    observer.finish();
    // A fault of the verifier is no finding about the package: exit 2.
    for o in &mut outcomes {
        if let Some(error) = o.fault.take() {
            return Err(Refusal::Fault {
                path: std::mem::take(&mut o.path),
                error,
            });
        }
    }
    // The file's own findings come first; its selection cannot hide them
    // (a misspelled key beside `select = ["FD2"]` would pass in silence):
    // only the command line's --select/--ignore/--warn apply to them.
    let flags_only = select::Settings {
        select: rules.select.clone().unwrap_or_default(),
        ignore: rules.ignore.clone().unwrap_or_default(),
        warn: rules.warn.clone().unwrap_or_default(),
        ..Default::default()
    };
    let entries = items
        .iter()
        .zip(outcomes)
        .filter_map(|(item, o)| {
            let entry = match item {
                Item::Root(..) => Entry::selected(EntryKind::Package, o, Some(&settings)),
                Item::Finding(EntryKind::Configuration, ..) => {
                    Entry::selected(EntryKind::Configuration, o, Some(&flags_only))
                        .named(config_name.clone())
                }
                Item::Finding(kind, ..) => Entry::selected(*kind, o, Some(&settings)),
            };
            // A walk or configuration finding the selection hides leaves no entry behind.
            let hidden_whole =
                matches!(item, Item::Finding(..)) && entry.outcome().diagnostics.is_empty();
            (!hidden_whole).then_some(entry)
        })
        .collect();
    let notes = match &loaded.path {
        Some(_) => select::discovered_notes(&settings, &config_name),
        None => Vec::new(),
    };
    Ok(Report {
        entries,
        config: loaded.path.is_some().then_some(config_name),
        skipped,
        statistics: settings.statistics,
        rule: ExitRule {
            deny_warnings: printed.deny_warnings,
            exit_zero: settings.exit_zero,
            discovered_exit_zero: settings.discovered.exit_zero,
        },
        could_not_read: false,
        notes,
    })
}

/// The identity of a package root for de-duplication: its parent directory
/// resolved, joined with its own name (the root itself is not resolved, so
/// a symlinked root stays distinct and is reported as such). Each parent is
/// resolved once a run (`parents`): the roots of a tree share a few.
fn identity(
    root: &Path,
    parents: &mut std::collections::HashMap<PathBuf, Option<PathBuf>>,
) -> std::path::PathBuf {
    let name = root.file_name();
    let parent = root
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let resolved = parents
        .entry(parent.to_path_buf())
        .or_insert_with(|| std::fs::canonicalize(parent).ok());
    match (resolved, name) {
        (Some(p), Some(n)) => p.join(n),
        _ => std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::render::Format;

    fn package() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7")
    }

    fn opts() -> Printed {
        printed(Format::Json)
    }

    fn printed(format: Format) -> Printed {
        Printed {
            cwd: env!("CARGO_MANIFEST_DIR").into(),
            without_statistics: format.without_statistics(),
            ..Printed::default()
        }
    }

    fn isolated() -> RuleArgs {
        RuleArgs {
            isolated: true,
            ..RuleArgs::default()
        }
    }

    /// What an observer saw, in order: `start N`, `done`, `finish`.
    #[derive(Default)]
    struct Seen(std::sync::Mutex<Vec<String>>);

    impl Observer for Seen {
        fn start(&self, packages: usize) {
            self.0.lock().unwrap().push(format!("start {packages}"));
        }
        fn package_done(&self) {
            self.0.lock().unwrap().push("done".into());
        }
        fn finish(&self) {
            self.0.lock().unwrap().push("finish".into());
        }
    }

    /// The run tells its observer (the command line's progress bar) how
    /// many package roots the walk found, each one verified (while the
    /// walk goes on, so possibly before the count) and the end;
    /// it draws nothing itself. Near miss: a missing PATH is an entry of
    /// the report but no package verified, so it is not counted; a refused
    /// run tells nothing.
    #[test]
    fn the_run_tells_its_observer_each_package() {
        let other = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1beta1/object-bucket-0.1.0-553675391d88");
        let seen = Seen::default();
        let paths = [package(), other, PathBuf::from("no/such/path")];
        let report = verify_paths_with(&paths, &opts(), &isolated(), &seen).unwrap();
        assert_eq!(report.entries.len(), 3);
        // Packages are verified while the walk goes on: a `done` may come
        // before `start`, but every root is counted once and `finish` is last.
        let mut told = seen.0.lock().unwrap().clone();
        assert_eq!(told.pop().as_deref(), Some("finish"));
        told.sort();
        assert_eq!(told, ["done", "done", "start 2"]);
        let refused = Seen::default();
        let rules = RuleArgs {
            select: Some(vec!["XX".into()]),
            ..isolated()
        };
        assert!(verify_paths_with(&[package()], &opts(), &rules, &refused).is_err());
        assert!(refused.0.lock().unwrap().is_empty());
    }

    /// A run that cannot start is a typed refusal, one of each kind, said
    /// as the command line says it; near miss: `--statistics` in JSON runs.
    #[test]
    fn a_run_that_cannot_start_is_a_typed_refusal() {
        let run = |format: Format, rules: RuleArgs| {
            verify_paths_with(&[package()], &printed(format), &rules, &())
        };
        let warn = run(
            Format::Human,
            RuleArgs {
                warn: Some(vec!["FD2".into(), "XX".into()]),
                ..isolated()
            },
        );
        assert!(
            matches!(&warn, Err(Refusal::Selector { flag: "--warn", message }) if message.contains("\"XX\"")),
            "{warn:?}"
        );
        let glob = run(
            Format::Human,
            RuleArgs {
                exclude: Some(vec!["[".into()]),
                ..isolated()
            },
        );
        assert!(matches!(glob, Err(Refusal::Exclude(_))), "{glob:?}");
        let statistics = RuleArgs {
            statistics: true,
            ..isolated()
        };
        let sarif = run(Format::Sarif, statistics.clone());
        assert!(
            matches!(&sarif, Err(Refusal::Statistics(f)) if f == "sarif"),
            "{sarif:?}"
        );
        assert_eq!(
            sarif.err().map(|r| r.to_string()).unwrap_or_default(),
            "--statistics has no sarif form (only human and json); drop --statistics or use --format json"
        );
        let json = run(Format::Json, statistics);
        assert!(json.is_ok_and(|r| r.statistics && r.exit_code() == 0));
        let config = run(
            Format::Human,
            RuleArgs {
                config: Some("/nonexistent/form-package.toml".into()),
                ..RuleArgs::default()
            },
        );
        assert!(matches!(config, Err(Refusal::Config(_))), "{config:?}");
    }

    /// The report of a run holds each entry as built: the configuration
    /// file's finding first, named, which the file's own selection does not
    /// hide; a package given twice once; a missing PATH as a walk entry that
    /// makes the run exit 2. Near miss: without the missing PATH it exits 1
    /// (the configuration file's error), with `--ignore FD903` it exits 0.
    #[test]
    fn the_report_holds_each_entry_as_built() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("form-package.toml");
        std::fs::write(&file, "select = [\"FD2\"]\nbogus = 1\n").unwrap();
        let rules = RuleArgs {
            config: Some(file.clone()),
            ..RuleArgs::default()
        };
        let missing = PathBuf::from("no/such/path");
        let report = verify_paths_with(
            &[package(), package(), missing.clone()],
            &opts(),
            &rules,
            &(),
        )
        .unwrap();
        let kinds: Vec<EntryKind> = report.entries.iter().map(|e| e.kind()).collect();
        assert_eq!(
            kinds,
            [
                EntryKind::Configuration,
                EntryKind::Package,
                EntryKind::Path
            ]
        );
        assert_eq!(report.entries[0].name(), file.as_path());
        assert_eq!(report.config.as_deref(), Some(file.as_path()));
        assert_eq!(
            report.entries[0].outcome().diagnostics[0].code,
            Code::ConfigInvalid
        );
        // The file's finding shows its line:column from the bytes the one
        // read of the file gave (`select::Loaded::bytes`); a walk finding
        // names no file and carries none.
        let sources = &report.entries[0].outcome().sources;
        let shown: Vec<(&str, &[u8])> = sources
            .iter()
            .map(|(name, s)| (name.as_str(), s.bytes.as_slice()))
            .collect();
        assert_eq!(
            shown,
            [(
                "form-package.toml",
                b"select = [\"FD2\"]\nbogus = 1\n".as_slice()
            )]
        );
        assert!(report.entries[2].outcome().sources.is_empty());
        assert_eq!(report.entries[2].outcome().path, missing);
        assert!(report.could_not_run());
        assert_eq!(report.exit_code(), 2);
        let report = verify_paths_with(&[package()], &opts(), &rules, &()).unwrap();
        assert_eq!(report.entries.len(), 2);
        assert_eq!(report.exit_code(), 1);
        let ignored = RuleArgs {
            ignore: Some(vec!["FD903".into()]),
            ..rules
        };
        let report = verify_paths_with(&[package()], &opts(), &ignored, &()).unwrap();
        let kinds: Vec<EntryKind> = report.entries.iter().map(|e| e.kind()).collect();
        assert_eq!(kinds, [EntryKind::Package]);
        assert_eq!(report.exit_code(), 0);
    }
}

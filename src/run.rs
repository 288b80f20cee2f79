//! The verify run over PATHs (`form-package verify`): the configuration
//! and the command line's rules ([`crate::select`]), the walk
//! ([`crate::discover`]), every package verified ([`crate::verify`]), the
//! selection applied, the run rendered through the one front end
//! ([`crate::render::render`]). Exit status: 0 every package verified
//! (warnings allowed unless `--deny-warnings`), 1 a finding, 2 the command
//! could not run (usage, a PATH that does not exist, an internal error).

use std::path::Path;

use rayon::prelude::*;

use crate::diag::Diagnostic;
use crate::discover;
use crate::error::Error;
use crate::fileread::{read_file, Reach};
use crate::limits::CONFIG_BYTES;
use crate::output::Output;
use crate::render::progress::Progress;
use crate::render::{self, Format};
use crate::select::RuleArgs;
use crate::verify::{self, PackageOutcome, Source};

/// [`verify_paths_with`] under the default rules (and the nearest
/// `form-package.toml`).
pub fn verify_paths(
    paths: &[std::path::PathBuf],
    format: Format,
    opts: &render::Options,
) -> Output {
    verify_paths_with(paths, format, opts, &RuleArgs::default())
}

/// One thing a PATH yields: a package root to verify, or a finding of the
/// walk (or of the configuration file) rendered as a package of its own.
enum Item {
    Root(std::path::PathBuf),
    Finding(std::path::PathBuf, Box<Diagnostic>),
}

impl Item {
    fn path(&self) -> &Path {
        match self {
            Item::Root(p) | Item::Finding(p, _) => p,
        }
    }
}

/// Verifies every package under `paths` (in parallel; output order and
/// content do not depend on the thread count) under the settings of
/// `form-package.toml` and `rules` ([`crate::select`]), and renders the run
/// in `format` through the one front end ([`render::render`]).
///
/// Nothing is skipped in silence (issue 14 items 1, 2, 7): a PATH that
/// does not exist, a directory the walk cannot read and a symlink to a
/// directory are findings rendered in every format (a missing PATH makes
/// the exit status 2, every other PATH still verified); directories skipped
/// by a rule are part of the report ([`render::RunView::skipped`]):
/// counted after the human report (listed with `-v`), or on stderr for the
/// other formats ([`render::report`]).
pub fn verify_paths_with(
    paths: &[std::path::PathBuf],
    format: Format,
    opts: &render::Options,
    rules: &RuleArgs,
) -> Output {
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
            .and_then(|p| select::find_upward(p, &opts.cwd)),
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
        Some(Err(e)) => {
            return Output {
                stderr: crate::render::escape::line(&e.to_string()),
                code: 2,
                ..Default::default()
            }
        }
    };
    let mut settings = loaded.settings.clone();
    for (flag, value) in [
        ("--select", &rules.select),
        ("--ignore", &rules.ignore),
        ("--warn", &rules.warn),
    ] {
        for sel in value.iter().flatten() {
            if let Err(e) = select::check_selector(sel) {
                return Output {
                    stderr: crate::render::escape::line(&format!("{flag}: {e}")),
                    code: 2,
                    ..Default::default()
                };
            }
        }
    }
    for glob in rules.exclude.iter().flatten() {
        if let Err(e) = discover::check_exclude_glob(glob) {
            return Error::Usage(format!("--exclude: {e}")).into();
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
    if rules.statistics && !matches!(format, Format::Human | Format::Json) {
        return Error::Usage(format!(
            "--statistics has no {} form (only human and json); drop --statistics or use --format json",
            format!("{format:?}").to_lowercase()
        ))
        .into();
    }
    settings.exit_zero |= rules.exit_zero;
    settings.statistics |= rules.statistics;
    settings.statistics &= matches!(format, Format::Human | Format::Json);
    settings.no_ignore |= rules.no_ignore;
    let config_dir = loaded
        .path
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
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
            .map(|g| (opts.cwd.clone(), g.clone()))
            .collect();
    }

    let mut items: Vec<Item> = Vec::new();
    let mut skipped = Vec::new();
    let mut missing = false;
    // The configuration file as the run names it, when it has findings:
    // their entries come first and are no package (T2 F8).
    let mut config_name = std::path::PathBuf::new();
    if let Some(p) = &loaded.path {
        // The file's directory as the run names paths: relative to the
        // working directory when under it (found upward, it is absolute).
        let dir = p.parent().unwrap_or(Path::new("."));
        let dir = match dir.strip_prefix(&opts.cwd) {
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
            items.push(Item::Finding(dir.clone(), Box::new(d.clone())));
        }
    }
    let config_count = if loaded.path.is_some() {
        loaded.findings.len()
    } else {
        0
    };

    // Overlapping PATHs (a tree and a package inside it) verify each package once.
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        let w = discover::walk(p, &walk_rules);
        missing |= w.missing;
        skipped.extend(w.skipped);
        let mut group: Vec<Item> = w
            .roots
            .into_iter()
            .filter(|r| seen.insert(identity(r)))
            .map(Item::Root)
            .chain(
                w.findings
                    .into_iter()
                    .map(|(p, d)| Item::Finding(p, Box::new(d))),
            )
            .collect();
        group.sort_by(|a, b| a.path().cmp(b.path()));
        items.extend(group);
    }
    // The configuration entries are the first `config_kept` outcomes (fewer
    // when a selection hides some of them).
    let mut config_kept = config_count;
    let roots = items.iter().filter(|i| matches!(i, Item::Root(_))).count();
    let progress = Progress::on_stderr(roots);
    let one = |item: &Item| match item {
        Item::Root(r) => {
            let o = verify::verify_package(r);
            progress.tick();
            o
        }
        Item::Finding(p, d) => PackageOutcome {
            path: p.clone(),
            diagnostics: vec![(**d).clone()],
            // A configuration finding names its file: keep its bytes, so the
            // finding's span shows as line:column (TOML has no JSON spans).
            sources: d
                .file
                .as_deref()
                .and_then(|f| {
                    // Read again for its line:column (as `select::load`
                    // read it: bounded, a regular file).
                    let bytes = read_file(&p.join(f), Reach::Named, CONFIG_BYTES).ok()?;
                    Some((f.to_owned(), bytes))
                })
                .map(|(f, bytes)| (f, Source { bytes, spans: None }))
                .into_iter()
                .collect(),
            ..Default::default()
        },
    };
    // Which outcomes are walk findings (a PATH, not a package; the
    // configuration file's findings come first and are marked apart).
    let mut walk: Vec<bool> = items
        .iter()
        .enumerate()
        .map(|(i, item)| matches!(item, Item::Finding(..)) && i >= config_count)
        .collect();
    // One package runs on the main thread: starting the pool costs more than it saves.
    let mut outcomes: Vec<PackageOutcome> = if items.len() == 1 {
        items.iter().map(one).collect()
    } else {
        items.par_iter().map(one).collect()
    };
    progress.finish();
    // A fault of the verifier is no finding about the package: exit 2.
    if let Some((o, fault)) = outcomes
        .iter()
        .find_map(|o| o.fault.as_ref().map(|f| (o, f)))
    {
        return Output {
            stderr: render::fault(&o.path, fault),
            code: fault.exit_code(),
            ..Default::default()
        };
    }
    let mut hidden: Vec<render::model::Hidden> = Vec::new();
    if settings != select::Settings::default() {
        // The file's own findings come first; its selection cannot hide them
        // (a misspelled key beside `select = ["FD2"]` would pass in silence):
        // only the command line's --select/--ignore/--warn apply to them.
        let flags_only = select::Settings {
            select: rules.select.clone().unwrap_or_default(),
            ignore: rules.ignore.clone().unwrap_or_default(),
            warn: rules.warn.clone().unwrap_or_default(),
            ..Default::default()
        };
        for (i, o) in outcomes.iter_mut().enumerate() {
            // A PATH that does not exist is why the run exits 2: no
            // selection hides or demotes it, or the run would fail
            // without a word (T1 B8).
            if o.diagnostics
                .iter()
                .any(|d| d.code == crate::codes::Code::PathNotFound)
            {
                hidden.push(render::model::Hidden::default());
                continue;
            }
            let selection = if i < config_count {
                &flags_only
            } else {
                &settings
            };
            hidden.push(hidden_by(selection, o));
        }
        // A walk or configuration finding the selection hides leaves no entry behind.
        let mut finding = items.iter().map(|i| matches!(i, Item::Finding(..)));
        let keep: Vec<bool> = outcomes
            .iter()
            .map(|o| !(finding.next().unwrap_or(false) && o.diagnostics.is_empty()))
            .collect();
        config_kept = keep.iter().take(config_count).filter(|k| **k).count();
        let mut k = keep.iter();
        outcomes.retain(|_| *k.next().unwrap_or(&true));
        let mut k = keep.iter();
        hidden.retain(|_| *k.next().unwrap_or(&true));
        let mut k = keep.iter();
        walk.retain(|_| *k.next().unwrap_or(&true));
    }
    let mut run = render::RunView::new(&outcomes, opts.deny_warnings);
    run.could_not_run = missing;
    for (p, h) in run.packages.iter_mut().zip(hidden) {
        p.hidden = h;
    }
    for i in 0..config_kept {
        run.mark_configuration(i, config_name.clone());
    }
    for (i, _) in walk.iter().enumerate().filter(|(_, w)| **w) {
        run.mark_path(i);
    }
    if loaded.path.is_some() {
        run.config = Some(config_name.clone());
    }
    run.skipped = skipped;
    let (stdout, stderr) = if settings.statistics {
        // The statistics are the one document on stdout: the skipped
        // directories are said on stderr.
        (
            render::statistics::output(
                outcomes.iter().flat_map(|o| o.diagnostics.iter()),
                format == Format::Json,
            ),
            render::skipped(&run, opts),
        )
    } else {
        render::report(format, &run, opts)
    };
    let code = if missing {
        2
    } else if settings.exit_zero
        && !(settings.discovered.exit_zero
            && run
                .findings()
                .any(|(_, f)| f.diag.is_error() && f.diag.code.is_integrity()))
    {
        // A discovered file's `exit-zero` never passes a run with an
        // integrity error (issue 22 item 4).
        0
    } else {
        u8::from(run.fails())
    };
    Output {
        stdout: stdout.into_bytes(),
        stderr,
        code,
    }
}

/// Applies `selection` to one outcome's findings and returns what it hid
/// or demoted.
fn hidden_by(selection: &crate::select::Settings, o: &mut PackageOutcome) -> render::model::Hidden {
    use crate::diag::Severity;
    let mut h = render::model::Hidden::default();
    let mut shown_errors: usize = 0;
    for d in &o.diagnostics {
        if !selection.shows(d.code) {
            h.counts.add_diagnostic(d);
        } else if d.severity == Severity::Error {
            shown_errors += d.weight();
        }
    }
    selection.apply(&mut o.diagnostics);
    h.demoted = shown_errors.saturating_sub(
        o.diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(Diagnostic::weight)
            .sum(),
    );
    h
}

/// The identity of a package root for de-duplication: its parent directory
/// resolved, joined with its own name (the root itself is not resolved, so
/// a symlinked root stays distinct and is reported as such).
fn identity(root: &Path) -> std::path::PathBuf {
    let name = root.file_name();
    let parent = root
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match (std::fs::canonicalize(parent), name) {
        (Ok(p), Some(n)) => p.join(n),
        _ => std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf()),
    }
}

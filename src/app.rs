//! Runs one command and returns what to print and the exit status; the
//! binary only writes these out. Exit status: 0 every package verified
//! (warnings allowed unless `--deny-warnings`), 1 a finding, 2 the command
//! could not run (usage, a PATH that does not exist, an internal error).

use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::canonical::{canonicalize, sha256_digest};
use crate::cli::{Cli, Command};
use crate::diag::Diagnostic;
use crate::discover;
use crate::error::Error;
use crate::render::{self, human, Format};
use crate::verify::{self, PackageOutcome, Source};

pub use crate::output::Output;

/// Runs a parsed command line. `is_terminal`: whether stdout is a terminal.
pub fn run(cli: Cli, is_terminal: bool) -> Output {
    match cli.command {
        Command::Verify {
            paths,
            format,
            color,
            deny_warnings,
            quiet,
            verbose,
            output,
            rules,
        } => {
            if let Some(refused) = refuse_output_args(&output, &paths) {
                return refused;
            }
            let color = human::use_color(color, is_terminal && output.file().is_none());
            let opts = render_options(&output, color, quiet, verbose, deny_warnings);
            deliver(
                verify_paths_with(&paths, format, &opts, &rules),
                output.file(),
            )
        }
        Command::Canonicalize { file } => canonical_command(&file, false),
        Command::Digest { file } => canonical_command(&file, true),
        Command::Relations {
            path,
            format,
            instance,
            color,
            output,
        } => {
            // PATH, the package a bare definition file sits in, and the
            // --instance document (never overwritten by the report, T3 C9).
            let guarded: Vec<_> = std::iter::once(path.clone())
                .chain(crate::relations_cmd::enclosing_package(&path))
                .chain(instance.clone())
                .collect();
            if let Some(refused) = refuse_output_args(&output, &guarded) {
                return refused;
            }
            let color = human::use_color(color, is_terminal && output.file().is_none());
            let opts = render_options(&output, color, false, false, false);
            deliver(
                crate::relations_cmd::run_with(&path, format, instance.as_deref(), &opts),
                output.file(),
            )
        }
        Command::Index {
            dir,
            check,
            profile,
        } => index_command(&dir, check, profile.as_deref()),
        Command::Explain { code } => match code.parse::<crate::codes::Code>() {
            Ok(c) => Output {
                stdout: crate::explain::explain(c).into_bytes(),
                ..Default::default()
            },
            Err(e) => Error::Usage(e.to_string()).into(),
        },
        Command::Rules => Output {
            stdout: crate::explain::rules().into_bytes(),
            ..Default::default()
        },
        Command::ValidateRevocation {
            file,
            format,
            color,
        } => crate::revocation_cmd::statement(&file, format, human::use_color(color, is_terminal)),
        Command::ValidateRevocationCheckpoint {
            file,
            advance,
            previous_pin,
            format,
            color,
        } => crate::revocation_cmd::checkpoint(
            &file,
            advance,
            previous_pin.as_deref(),
            format,
            human::use_color(color, is_terminal),
        ),
        Command::Check {
            files,
            stdin_filename,
            format,
            color,
            deny_warnings,
        } => crate::check_cmd::run(
            &files,
            stdin_filename.as_deref(),
            format,
            human::use_color(color, is_terminal),
            deny_warnings,
        ),
        Command::Compat {
            paths,
            history,
            baseline,
            format,
            color,
            write_witnesses,
            output,
        } => {
            let mut guarded = paths.clone();
            guarded.extend(baseline.clone());
            if let Some(refused) = refuse_output_args(&output, &guarded) {
                return refused;
            }
            let witness_probe = write_witnesses.as_ref().map(|d| d.join("witness.json"));
            if let Some(refused) = refuse_output_inside(witness_probe.as_deref(), &guarded) {
                return refused;
            }
            let color = human::use_color(color, is_terminal && output.file().is_none());
            let opts = render_options(&output, color, false, false, false);
            let report = match crate::compat::report::run(&paths, history, baseline.as_deref()) {
                Ok(r) => r,
                Err(e) => return e.into(),
            };
            let mut out = Output {
                stdout: render::compat::render(&report, format, &opts).into_bytes(),
                code: report.exit_code(),
                ..Default::default()
            };
            if let Some(dir) = &write_witnesses {
                match crate::compat::report::write_witnesses(&report, dir) {
                    Ok(written) => {
                        for w in written {
                            out.stderr.push_str(&format!(
                                "form-package: wrote witness {}\n",
                                w.display()
                            ));
                        }
                    }
                    Err(e) => return e.into(),
                }
            }
            deliver(out, output.file())
        }
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut stdout = Vec::new();
            clap_complete::generate(shell, &mut cmd, "form-package", &mut stdout);
            Output {
                stdout,
                ..Default::default()
            }
        }
        Command::Man { command } => {
            let mut stdout = Vec::new();
            let Some(page) = man_page(&command) else {
                return Error::Usage(format!(
                    "man: no subcommand {:?} (form-package --help lists them)",
                    command.join(" ")
                ))
                .into();
            };
            match clap_mangen::Man::new(page).render(&mut stdout) {
                Ok(()) => Output {
                    stdout,
                    ..Default::default()
                },
                Err(e) => Output {
                    stderr: format!("form-package: man: {e}\n"),
                    code: 2,
                    ..Default::default()
                },
            }
        }
        Command::Schema { which } => Output {
            stdout: match which {
                crate::cli::SchemaName::Report => crate::schemas::REPORT_SCHEMA.as_bytes().to_vec(),
                crate::cli::SchemaName::Family => crate::schemas::FAMILY_SCHEMA.as_bytes().to_vec(),
                crate::cli::SchemaName::Compat => crate::schemas::COMPAT_SCHEMA.as_bytes().to_vec(),
            },
            ..Default::default()
        },
        Command::Conformance { dir, format } => crate::conformance::run(&dir, format),
        Command::Family {
            paths,
            partial,
            allow_external,
            format,
        } => crate::family::run(
            &paths,
            &crate::family::Options {
                partial,
                allow_external,
            },
            format,
        ),
        Command::Version => Output {
            stdout: version_line(env!("FORM_PACKAGE_COMMIT")).into_bytes(),
            ..Default::default()
        },
        Command::Trust { command } => crate::trust::cmd::run(&command),
    }
}

/// The command whose manual page `man SUBCOMMAND...` prints: the root for
/// no name, else the named (nested) subcommand, built so its page is named
/// as the root's SUBCOMMANDS section names it (`form-package-verify(1)`).
/// `None` for a name that is no subcommand.
fn man_page(names: &[String]) -> Option<clap::Command> {
    let mut cmd = <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    cmd.build();
    for name in names {
        cmd = cmd.find_subcommand(name)?.clone();
    }
    Some(cmd)
}

/// The renderer options of a command line: the SARIF root defaults to the
/// working directory.
fn render_options(
    output: &crate::cli::OutputArgs,
    color: bool,
    quiet: bool,
    verbose: bool,
    deny_warnings: bool,
) -> render::Options {
    let here = render::Options::here();
    render::Options {
        color,
        quiet,
        verbose,
        deny_warnings,
        sarif_root: output.sarif_root.clone().unwrap_or(here.sarif_root),
        ..here
    }
}

/// `--output-file FILE`: the report goes to FILE (see
/// [`render::write_output`]: atomically, never replacing a link, device or
/// FIFO) instead of stdout; a failure to write it is exit 2 with a
/// `form-package: write FILE: …` line. `None` (no flag, or `-`) leaves the
/// report for stdout. A command that could not run (exit 2, nothing on stdout) writes
/// nothing.
pub fn deliver(mut out: Output, output_file: Option<&Path>) -> Output {
    let Some(file) = output_file else { return out };
    if out.code == 2 && out.stdout.is_empty() {
        return out;
    }
    match render::standard_stream(file) {
        Some(1) => return out,
        Some(_) => {
            let report = String::from_utf8_lossy(&out.stdout).into_owned();
            out.stderr.insert_str(0, &report);
            out.stdout.clear();
            return out;
        }
        None => {}
    }
    match render::write_output(file, &out.stdout) {
        Ok(()) => out.stdout.clear(),
        Err(e) => {
            out.stderr
                .push_str(&format!("form-package: write {}: {e}\n", file.display()));
            out.stdout.clear();
            out.code = 2;
        }
    }
    out
}

/// The usage errors of `--output-file` and `--sarif-root` (exit 2, nothing
/// verified, nothing written): a `--sarif-root` that is not an existing
/// directory (T1 C10: URIs relative to a missing or a file root mean
/// nothing), then [`refuse_output_inside`].
fn refuse_output_args(
    output: &crate::cli::OutputArgs,
    paths: &[std::path::PathBuf],
) -> Option<Output> {
    if let Some(root) = &output.sarif_root {
        let why = match std::fs::metadata(root) {
            Ok(m) if m.is_dir() => None,
            Ok(_) => Some("is not a directory".to_owned()),
            Err(e) => Some(e.to_string()),
        };
        if let Some(why) = why {
            return Some(
                Error::Usage(format!(
                    "--sarif-root {}: {why} (SARIF URIs are relative to an existing directory)",
                    root.display()
                ))
                .into(),
            );
        }
    }
    refuse_output_inside(output.file(), paths)
}

/// "Nothing is written to a package being verified" (DEVELOPERS.md): an
/// `--output-file` inside a package under one of `paths` (a directory from
/// the file's own up to the PATH holds a `package-index.json`, as
/// [`discover`] finds packages), or equal to a PATH (a listed payload named
/// as the PATH of `relations`), is a usage error (exit 2, nothing verified,
/// nothing written). A report in a tree beside its packages (the GitHub
/// Action's default `verify . --output-file form-package.sarif`) is
/// written. Both sides are compared resolved: each PATH through its
/// symlinks; the file twice, as named (through its parent directory) and
/// as written ([`render::output_target`]: a symlink named as the file is
/// followed, so its target is checked too, T1 B1). A PATH or parent that
/// cannot be resolved is compared as written, made absolute.
fn refuse_output_inside(file: Option<&Path>, paths: &[std::path::PathBuf]) -> Option<Output> {
    let file = file?;
    let resolve = |p: &Path| {
        std::fs::canonicalize(p).unwrap_or_else(|_| std::path::absolute(p).unwrap_or(p.into()))
    };
    let located = |f: &Path| match (f.parent(), f.file_name()) {
        (Some(parent), Some(name)) => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            resolve(parent).join(name)
        }
        _ => resolve(f),
    };
    let mut targets = vec![located(file)];
    if let Ok(t) = render::output_target(file) {
        if t != file {
            targets.push(located(&t));
        }
    }
    let (path, package) = paths.iter().find_map(|p| {
        let root = resolve(p);
        targets.iter().find_map(|target| {
            if *target == root {
                return Some((p, root.clone()));
            }
            target
                .parent()?
                .ancestors()
                .take_while(|d| d.starts_with(&root))
                .find(|d| std::fs::symlink_metadata(d.join(verify::INDEX_FILE)).is_ok())
                .map(|d| (p, d.to_path_buf()))
        })
    })?;
    Some(
        Error::Usage(format!(
            "--output-file {} is inside the package {} being verified (PATH {}): nothing is written to a package being verified; write the report outside it",
            file.display(),
            package.display(),
            path.display()
        ))
        .into(),
    )
}

/// [`verify_paths_with`] under the default rules (and the nearest
/// `form-package.toml`).
pub fn verify_paths(
    paths: &[std::path::PathBuf],
    format: Format,
    opts: &render::Options,
) -> Output {
    verify_paths_with(paths, format, opts, &crate::cli::RuleArgs::default())
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
/// by a rule are counted after the human report (listed with `-v`), or on
/// stderr for the other formats.
pub fn verify_paths_with(
    paths: &[std::path::PathBuf],
    format: Format,
    opts: &render::Options,
    rules: &crate::cli::RuleArgs,
) -> Output {
    use crate::select;
    // Every package needs the meta-schema validator first: build it while walking.
    crate::schemas::prewarm_meta();
    let config_path = match &rules.config {
        Some(f) => Some(f.clone()),
        None => paths.first().and_then(|p| select::find_upward(p)),
    };
    let loaded = match config_path.as_deref().map(select::load) {
        None => select::Loaded::default(),
        Some(Ok(l)) => l,
        Some(Err(e)) => {
            return Output {
                stderr: format!("form-package: {e}\n"),
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
                    stderr: format!("form-package: {flag}: {e}\n"),
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
    let progress = Progress::new(roots, std::io::stderr().is_terminal());
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
                .and_then(|f| Some((f.to_owned(), std::fs::read(p.join(f)).ok()?)))
                .map(|(f, bytes)| (f, Source { bytes, spans: None }))
                .into_iter()
                .collect(),
            ..Default::default()
        },
    };
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
            stderr: format!("form-package: {}: {fault}\n", o.path.display()),
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
    }
    let mut run = render::RunView::new(&outcomes, opts.deny_warnings);
    run.could_not_run = missing;
    for (p, h) in run.packages.iter_mut().zip(hidden) {
        p.hidden = h;
    }
    for i in 0..config_kept {
        run.mark_configuration(i, config_name.clone());
    }
    let mut stderr = String::new();
    let mut stdout = if settings.statistics {
        select::statistics(
            outcomes.iter().flat_map(|o| o.diagnostics.iter()),
            format == Format::Json,
        )
    } else {
        render::render(format, &run, opts)
    };
    if !skipped.is_empty() {
        let mut text = format!(
            "{} director{} skipped by a rule (hidden, .gitignore, exclude; --no-ignore searches them){}\n",
            skipped.len(),
            if skipped.len() == 1 { "y" } else { "ies" },
            if opts.verbose { ":" } else { "; -v lists them" }
        );
        if opts.verbose {
            for (dir, rule) in &skipped {
                text.push_str(&format!("  {} ({rule})\n", dir.display()));
            }
        }
        if format == Format::Human && !settings.statistics {
            stdout.push_str(&text);
        } else {
            stderr.push_str(&text);
        }
    }
    let code = if missing {
        2
    } else if settings.exit_zero {
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
            h.add(d.severity);
        } else if d.severity == Severity::Error {
            shown_errors += 1;
        }
    }
    selection.apply(&mut o.diagnostics);
    h.demoted = shown_errors.saturating_sub(o.diagnostics.iter().filter(|d| d.is_error()).count());
    h
}

/// `canonicalize FILE` / `digest FILE`: strict read (no size cap), RFC 8785.
fn canonical_command(file: &Path, digest: bool) -> Output {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(source) => {
            return Error::Io {
                path: file.to_path_buf(),
                source,
            }
            .into()
        }
    };
    let name = file.display().to_string();
    // First the reference's `form-package: <message>` line, then our finding.
    let refuse = |line: String, d: Diagnostic, source: Source| {
        let d = d.in_file(name.clone());
        let text = human::render_diagnostic(&d, Some(&source), false);
        Output {
            stderr: format!("form-package: {line}\n{text}"),
            code: 1,
            ..Default::default()
        }
    };
    let parsed = match crate::json::strict::parse(&bytes) {
        Ok(p) => p,
        Err(e) => {
            return refuse(
                e.reference_line(),
                e.to_diagnostic(),
                Source { bytes, spans: None },
            )
        }
    };
    if !matches!(
        parsed.value,
        serde_json::Value::Object(_) | serde_json::Value::Array(_)
    ) {
        // The reference reads the top level expecting an object and names
        // the first byte it got (a scalar starts with an ASCII byte).
        let first = bytes
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .map_or(' ', |b| char::from(*b));
        let line = format!("RFC 8785 canonicalization: Expected '{{' but got '{first}'");
        if let Err(d) = canonicalize(&parsed.value) {
            let source = Source {
                bytes,
                spans: Some(parsed.spans),
            };
            return refuse(line, d, source);
        }
    }
    match canonicalize(&parsed.value) {
        Ok(c) => {
            let mut stdout = if digest {
                sha256_digest(&c).into_bytes()
            } else {
                c
            };
            stdout.push(b'\n');
            Output {
                stdout,
                ..Default::default()
            }
        }
        Err(d) => refuse(
            d.message.clone(),
            d,
            Source {
                bytes,
                spans: Some(parsed.spans),
            },
        ),
    }
}

/// `index DIR [--check] [--profile P]`: writes the index atomically, or
/// with `--check` exits 1 when it would change. Refuses (exit 1, nothing
/// written) a directory `verify` would refuse at the file-system level.
fn index_command(dir: &Path, check: bool, profile: Option<&str>) -> Output {
    if std::fs::symlink_metadata(dir).is_err() {
        return Error::Usage(format!("{}: no such directory", dir.display())).into();
    }
    if let Some(p) = profile {
        if crate::profile::IndexProfile::from_api_version(p).is_none() {
            return Error::Usage(format!(
                "index: unknown --profile {p:?} ({})",
                crate::profile::api_versions().join(", ")
            ))
            .into();
        }
    }
    match crate::index::build(dir, profile) {
        Err(crate::error::Refused::Fault(e)) => e.into(),
        Err(crate::error::Refused::Findings(diags)) => Output {
            stderr: render_findings_of(dir, diags),
            code: 1,
            ..Default::default()
        },
        Ok(indexed) if check => {
            let mut msg = if indexed.drift {
                "package-index.json would change:\n".to_owned()
            } else {
                "package-index.json is up to date\n".to_owned()
            };
            if indexed.drift {
                for c in &indexed.changes {
                    msg.push_str(&format!("  {c}\n"));
                }
            }
            Output {
                stdout: msg.into_bytes(),
                code: u8::from(indexed.drift),
                ..Default::default()
            }
        }
        Ok(indexed) => match crate::index::write(dir, &indexed) {
            Ok(()) => Output {
                stdout: format!("wrote {}\n", dir.join(verify::INDEX_FILE).display()).into_bytes(),
                ..Default::default()
            },
            Err(source) => Error::Io {
                path: dir.join(verify::INDEX_FILE),
                source,
            }
            .into(),
        },
    }
}

/// Largest file re-read to show where a finding of `index` is.
const MAX_SHOWN_FILE: u64 = 16 * 1024 * 1024;

/// Renders the findings of a command about package `dir` (not `verify`) in
/// the human format, through the same front end as `verify`: each file a
/// finding names is read again (a regular file, not followed through a link,
/// at most 16 MiB) and strictly parsed for its spans, so every finding shows
/// `<package>/<file>:line:column` and its marked token.
fn render_findings_of(dir: &Path, diagnostics: Vec<Diagnostic>) -> String {
    let mut sources = std::collections::BTreeMap::new();
    for f in diagnostics.iter().filter_map(|d| d.file.as_deref()) {
        if sources.contains_key(f) {
            continue;
        }
        let path = dir.join(f);
        let regular = std::fs::symlink_metadata(&path)
            .is_ok_and(|m| m.file_type().is_file() && m.len() <= MAX_SHOWN_FILE);
        let Some(bytes) = regular.then(|| std::fs::read(&path).ok()).flatten() else {
            continue;
        };
        let spans = crate::json::strict::parse(&bytes).ok().map(|p| p.spans);
        sources.insert(f.to_owned(), Source { bytes, spans });
    }
    let outcome = [PackageOutcome {
        path: dir.to_path_buf(),
        diagnostics,
        sources,
        ..Default::default()
    }];
    let run = render::RunView::new(&outcome, false);
    human::render_run(
        &run,
        &render::Options {
            quiet: true,
            ..Default::default()
        },
    )
}

/// A progress bar on stderr for runs over a second, only when stderr is a
/// terminal: piped or captured output gets nothing extra. It never changes
/// stdout, so output is identical whatever the thread count.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    start: Instant,
    shown: AtomicBool,
}

impl Progress {
    fn new(total: usize, is_terminal: bool) -> Self {
        let bar = (is_terminal && total > 1).then(|| {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(total as u64),
                indicatif::ProgressDrawTarget::hidden(),
            );
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} packages {elapsed}")
            {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    fn tick(&self) {
        let Some(bar) = &self.bar else { return };
        if self.start.elapsed() > Duration::from_secs(1)
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        bar.inc(1);
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
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

/// The `version` line: the reference's members in its order (`command`,
/// `module`, `version`, then `commit` when the build knows it: 40 or 64
/// lowercase hex from `build.rs`; `current-profile.md` §11.1). No `sum`:
/// a Cargo build has no Go module checksum.
pub fn version_line(commit: &str) -> String {
    let mut line = format!(
        "{{\"command\":\"form-package\",\"module\":\"form-package\",\"version\":\"{}\"",
        env!("CARGO_PKG_VERSION")
    );
    if !commit.is_empty() {
        line.push_str(&format!(",\"commit\":\"{commit}\""));
    }
    line.push_str("}\n");
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_that_cannot_run_exits_2_with_its_cause() {
        let o = Output::from(Error::Internal("no embedded schema x".into()));
        assert_eq!(o.code, 2);
        assert_eq!(
            o.stderr,
            "form-package: internal error: no embedded schema x\n"
        );
        assert!(o.stdout.is_empty());
        let missing = canonical_command(Path::new("/nonexistent/form-package/x.json"), true);
        assert_eq!(missing.code, 2);
        assert!(missing
            .stderr
            .starts_with("form-package: /nonexistent/form-package/x.json: "));
        let unknown = index_command(Path::new("/nonexistent/form-package"), true, None);
        assert_eq!(unknown.code, 2);
    }
}

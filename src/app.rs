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
        } => {
            let color = human::use_color(color, is_terminal);
            verify_paths(&paths, format, color, deny_warnings, quiet)
        }
        Command::Canonicalize { file } => canonical_command(&file, false),
        Command::Digest { file } => canonical_command(&file, true),
        Command::Relations {
            path,
            format,
            instance,
        } => crate::relations_cmd::run(&path, format.into(), instance.as_deref()),
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
        Command::Version => Output {
            stdout: format!(
                "{{\"command\":\"form-package\",\"module\":\"form-package\",\"version\":\"{}\"}}\n",
                env!("CARGO_PKG_VERSION")
            )
            .into_bytes(),
            ..Default::default()
        },
    }
}

/// Verifies every package under `paths` (in parallel; output order and
/// content do not depend on the thread count).
pub fn verify_paths(
    paths: &[std::path::PathBuf],
    format: Format,
    color: bool,
    deny_warnings: bool,
    quiet: bool,
) -> Output {
    let mut roots = Vec::new();
    for p in paths {
        match discover::package_roots(p) {
            Ok(r) => roots.extend(r),
            Err(e) => return e.into(),
        }
    }
    // Overlapping PATHs (a tree and a package inside it) verify each package once.
    let mut seen = std::collections::HashSet::new();
    roots.retain(|r| seen.insert(identity(r)));
    let progress = Progress::new(roots.len(), std::io::stderr().is_terminal());
    let one = |r: &std::path::PathBuf| {
        let o = verify::verify_package(r);
        progress.tick();
        o
    };
    // One package runs on the main thread: starting the pool costs more than it saves.
    let outcomes: Vec<PackageOutcome> = if roots.len() == 1 {
        roots.iter().map(one).collect()
    } else {
        roots.par_iter().map(one).collect()
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
    let failed = outcomes.iter().any(|o| render::fails(o, deny_warnings));
    let stdout = match format {
        Format::Json => render::json::render(&outcomes, deny_warnings),
        Format::Sarif => render::sarif::render(&outcomes),
        Format::Github => render::github::render(&outcomes, deny_warnings, quiet),
        Format::Human => {
            let mut text = String::new();
            for o in &outcomes {
                text.push_str(&human::render_package(o, color, quiet, deny_warnings));
            }
            if !quiet && outcomes.len() > 1 {
                let bad = outcomes
                    .iter()
                    .filter(|o| render::fails(o, deny_warnings))
                    .count();
                text.push_str(&format!(
                    "{} packages: {} verified, {} failed\n",
                    outcomes.len(),
                    outcomes.len() - bad,
                    bad
                ));
            }
            text
        }
    };
    Output {
        stdout: stdout.into_bytes(),
        stderr: String::new(),
        code: u8::from(failed),
    }
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
    let refuse = |d: Diagnostic, source: Source| {
        let d = d.in_file(name.clone());
        let text = human::render_diagnostic(&d, Some(&source), false);
        Output {
            stderr: format!("form-package: {}\n{text}", d.message),
            code: 1,
            ..Default::default()
        }
    };
    let parsed = match crate::json::strict::parse(&bytes) {
        Ok(p) => p,
        Err(e) => return refuse(e.to_diagnostic(), Source { bytes, spans: None }),
    };
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
        Err(crate::index::Refused::Fault(e)) => e.into(),
        Err(crate::index::Refused::Findings(diags)) => {
            let mut stderr = String::new();
            for d in &diags {
                stderr.push_str(&human::render_diagnostic(d, None, false));
            }
            Output {
                stderr,
                code: 1,
                ..Default::default()
            }
        }
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

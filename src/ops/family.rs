//! `form-package family PATH...`: loads what the PATHs hold
//! ([`crate::family::load`]) and checks it as one Form Family
//! ([`crate::family::check`]); `render::family` prints the checked report
//! and `cli/family.rs` passes its exit status on.

use std::path::PathBuf;

use crate::family::{check, load, Options};

/// Why `family` could not run at all (the command exits 2 and prints
/// nothing on stdout). Its `Display` is the reason alone; the command line
/// prints it as `form-package: <reason>`.
#[derive(Debug)]
pub enum Refusal {
    /// A PATH is a file that is none of a package, a contract or a
    /// candidate set ([`load::LoadError`]: `/dev/null`, a FIFO, …).
    Load(load::LoadError),
    /// The PATHs (as given) hold no Form Package, contract or candidate
    /// set, and none of them is missing; with the directories the walk
    /// skipped by a rule (and the rule), which the reason names.
    Empty(Vec<PathBuf>, Vec<(PathBuf, String)>),
    /// An `--exclude` glob that does not parse (the message names it).
    Exclude(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Load(e) => f.write_str(&e.0),
            Refusal::Empty(paths, skipped) => {
                write!(
                    f,
                    "no Form Package, contract or candidate set under {}",
                    paths
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )?;
                if !skipped.is_empty() {
                    let dirs: Vec<String> = skipped
                        .iter()
                        .map(|(dir, rule)| format!("{} ({rule})", dir.display()))
                        .collect();
                    write!(
                        f,
                        " outside the {} skipped by a rule: {} (--no-ignore searches hidden and .gitignore'd ones)",
                        if skipped.len() == 1 { "directory" } else { "directories" },
                        dirs.join(", ")
                    )?;
                }
                Ok(())
            }
            Refusal::Exclude(e) => write!(f, "--exclude: {e}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// Runs `family` over `paths`: loads what they hold ([`load::load`]) and
/// checks it ([`check::check`]). The checked [`check::Report`] carries the
/// exit status ([`check::Report::exit_code`]: 0 when every package
/// verifies and no family finding is an error, 1 otherwise, 2 when a PATH
/// does not exist, reported as an `FD900` finding with every other PATH
/// still checked); `crate::render::family` prints it.
///
/// # Errors
/// [`Refusal`] (exit 2): an `--exclude` glob that does not parse, a PATH
/// that is a file none of a family's, or PATHs that hold nothing a family
/// is made of (outside the directories a rule skipped).
pub fn run(paths: &[PathBuf], options: &Options) -> Result<check::Report, Refusal> {
    for (_, glob) in &options.walk.exclude {
        crate::discover::check_exclude_glob(glob).map_err(Refusal::Exclude)?;
    }
    let family = load::load_with(paths, &options.walk).map_err(Refusal::Load)?;
    if family.packages.is_empty()
        && family.contracts.is_empty()
        && family.findings.is_empty()
        && family.candidate_sets.is_empty()
    {
        return Err(Refusal::Empty(paths.to_vec(), family.skipped));
    }
    Ok(check::check(family, options))
}

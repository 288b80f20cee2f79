//! Renderers: the only code that turns outcomes into text.
//!
//! One front end for every command's output: [`model::RunView`] resolves
//! every finding's span and `line:column` once per file ([`position`]: one
//! column unit, Unicode code points), then [`render`] dispatches on
//! [`Format`] to `human` (miette, default), `json` (our versioned contract,
//! see [`json`]), `sarif` (typed SARIF 2.1.0), `github` (workflow commands),
//! `junit` (JUnit XML) or `concise` (one line per finding). `verify` and `relations` share the enum and the
//! dispatch; [`write_output`] writes `--output-file` (a new file
//! atomically, an existing one in place; never replacing a link, device or
//! FIFO). Checks never
//! print; `main.rs` writes what these return.

pub mod canonical;
pub mod check;
pub mod compat;
pub mod concise;
pub mod conformance;
pub mod desired;
pub mod digest;
pub mod escape;
pub mod family;
pub mod github;
pub mod human;
pub mod index;
pub mod json;
pub mod junit;
pub mod locator;
pub mod model;
pub use crate::json::position;
pub mod progress;
pub mod relations;
pub mod revocation;
pub mod sarif;
pub mod snapshot;
pub mod statistics;
pub mod summary;
pub mod trust;

use std::path::{Path, PathBuf};

use crate::report::SkipRule;
pub use model::{Counts, EntryKind, Located, PackageView, RunView};
pub use position::{LineIndex, Position};

/// `1 file`, `0 files`, `7 files`: a count and its noun (plural `s`),
/// in every summary line.
pub fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The output format of every command (`--format`), the one value type
/// each command's command line parses into. A command takes the values it
/// can print, each with the help its `--help` lists (`cli::args::Formats`):
/// `verify` and the commands that report findings as it does (`check`,
/// `relations`, `compat`, `snapshot`, `locator`, `desired`, the revocation
/// commands) take the six report formats; `family` takes `human`, `json`,
/// `dot` and `mermaid`; `conformance` `human` and `json`; `digest` `text`
/// ([`Format::Human`]) and `json`. A renderer handed a format its command
/// does not take prints it as [`Format::Human`] (the command line never
/// does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Text for a person: miette diagnostics with source excerpts and a
    /// summary (`verify`), a command's own text report (`family`,
    /// `conformance`, `digest`'s `text`).
    Human,
    /// One JSON document for the whole run (its JSON Schema: `form-package
    /// schema report`, `schema family`, `schema compat`).
    Json,
    /// SARIF 2.1.0, one rule per code.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::`).
    Github,
    /// JUnit XML: one testcase per package, a failure for each failing one.
    Junit,
    /// One line per finding, `path:line:col: CODE message`, then the summary.
    Concise,
    /// A Graphviz digraph (`family`'s relation graph).
    Dot,
    /// A Mermaid flowchart (`family`'s relation graph).
    Mermaid,
}

impl Format {
    /// `None` when the format has a statistics form (human: a table; JSON:
    /// a member), else its name as `--format` takes it: a CI step parses
    /// SARIF, GitHub commands and JUnit, so `--statistics` is refused with
    /// them (what `verify`'s operation is told: `Printed::without_statistics`).
    pub fn without_statistics(self) -> Option<String> {
        (!matches!(self, Format::Human | Format::Json)).then(|| self.name().to_owned())
    }

    /// The format's name as `--format` takes it for `verify` (`human`,
    /// `json`, `sarif`, `github`, `junit`, `concise`, `dot`, `mermaid`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Human => "human",
            Format::Json => "json",
            Format::Sarif => "sarif",
            Format::Github => "github",
            Format::Junit => "junit",
            Format::Concise => "concise",
            Format::Dot => "dot",
            Format::Mermaid => "mermaid",
        }
    }
}

/// What every renderer may need besides the findings.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Colour human output.
    pub color: bool,
    /// Findings only: no per-package verdict lines, no summary line.
    pub quiet: bool,
    /// Human output adds what each stage checked, per package.
    pub verbose: bool,
    /// A warning fails its package.
    pub deny_warnings: bool,
    /// SARIF `%SRCROOT%`: artifact URIs are relative to this directory
    /// (absolute; `--sarif-root`, default the working directory).
    pub sarif_root: PathBuf,
    /// The working directory, against which relative package paths are
    /// resolved before they are made relative to `sarif_root`.
    pub cwd: PathBuf,
    /// GitHub: `file=` paths are relative to this directory
    /// (`GITHUB_WORKSPACE`, the repository's checkout, when set), else to
    /// `cwd`.
    pub workspace: Option<PathBuf>,
}

impl Options {
    /// The options of a command run in this process's working directory:
    /// `cwd` and `sarif_root` are the working directory ("." when it cannot
    /// be read), `workspace` is `GITHUB_WORKSPACE` when set to an absolute
    /// path (the one place that reads it). Every other field is off.
    pub fn here() -> Self {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        Options {
            sarif_root: cwd.clone(),
            cwd,
            workspace: std::env::var_os("GITHUB_WORKSPACE")
                .map(PathBuf::from)
                .filter(|w| w.is_absolute()),
            ..Options::default()
        }
    }
}

/// Renders a located run in `format` (the one dispatch of every command).
pub fn render(format: Format, run: &RunView<'_>, opts: &Options) -> String {
    match format {
        // `dot` and `mermaid` are `family`'s graphs: a run has none.
        Format::Human | Format::Dot | Format::Mermaid => human::render_run(run, opts),
        Format::Json => json::render(run),
        Format::Sarif => sarif::render(run, opts),
        Format::Github => github::render(run, opts),
        Format::Junit => junit::render(run),
        Format::Concise => concise::render(run, opts),
    }
}

/// The report of a walked run in `format`: (stdout, stderr). Stdout is
/// [`render`]'s; the directories the walk skipped by a rule
/// ([`RunView::skipped`], see [`skipped`]) follow the human report on
/// stdout, and go to stderr in the machine formats, whose stdout stays
/// one document.
pub fn report(format: Format, run: &RunView<'_>, opts: &Options) -> (String, String) {
    let mut stdout = render(format, run, opts);
    let skipped = skipped(run, opts);
    if format == Format::Human {
        stdout.push_str(&skipped);
        (stdout, String::new())
    } else {
        (stdout, skipped)
    }
}

/// The one line a run that stopped on a fault of the verifier prints on
/// stderr (it exits 2, [`crate::error::Error::exit_code`]): `form-package:
/// <package>: <fault>`, both escaped.
pub fn fault(package: &Path, fault: &crate::error::Error) -> String {
    escape::line(&format!("{}: {fault}", package.display()))
}

/// The directories the walk skipped by a rule ([`RunView::skipped`]):
/// `N directories skipped by a rule (…; --no-ignore searches them); -v
/// lists them`, or with `opts.verbose` the count then one escaped path
/// and its rule a line. Empty when none was skipped.
pub fn skipped(run: &RunView<'_>, opts: &Options) -> String {
    skipped_text(&run.skipped, opts.verbose)
}

/// The directories a walk skipped by a rule (`dirs`, each with its rule)
/// as text: the count line, then with `list` one escaped path and its rule
/// a line (without, the count line ends `; -v lists them`). Empty when
/// `dirs` is. [`skipped`]'s text, and `family`'s human report's.
pub fn skipped_text(dirs: &[(PathBuf, SkipRule)], list: bool) -> String {
    let what = if list { ":" } else { "; -v lists them" };
    skipped_lines(
        dirs,
        &format!("(hidden, .gitignore, exclude; --no-ignore searches them){what}"),
        list,
    )
}

/// `N director(y|ies) skipped by a rule <what>`, then with `list` one
/// escaped path and its rule a line; empty when `dirs` is. The one text of
/// every command's skipped directories (`verify`, `family`, `compat`).
fn skipped_lines(dirs: &[(PathBuf, SkipRule)], what: &str, list: bool) -> String {
    if dirs.is_empty() {
        return String::new();
    }
    let mut text = format!(
        "{} director{} skipped by a rule {what}\n",
        dirs.len(),
        if dirs.len() == 1 { "y" } else { "ies" },
    );
    if list {
        for (dir, rule) in dirs {
            text.push_str(&format!("  {} ({rule})\n", escape::path(dir)));
        }
    }
    text
}

/// The directories a walk skipped by a rule (`dirs`, each with its rule:
/// `hidden`, `.gitignore` or `exclude`) as the JSON array every machine
/// document carries (`skippedDirectories` in the `json` reports of
/// `verify` and `family`, in SARIF `invocations[0].properties`):
/// `[{"path": "<as the walk named it>", "rule": "<rule>"}]`, in walk order.
pub fn skipped_value(dirs: &[(PathBuf, SkipRule)]) -> serde_json::Value {
    dirs.iter()
        .map(|(dir, rule)| serde_json::json!({"path": dir.display().to_string(), "rule": rule.name()}))
        .collect()
}

/// The `--output-file` writer and where it lands, in [`crate::fswrite`]
/// (every file the tool writes goes through that module).
pub use crate::fswrite::{output_target, standard_stream, write_output};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PackageOutcome;

    /// A fault of the verifier is one escaped line naming the package.
    #[test]
    fn a_fault_is_one_escaped_line() {
        let e = crate::error::Error::Internal("no schema \u{7}x".into());
        assert_eq!(
            fault(Path::new("pkgs/a\nb"), &e),
            "form-package: pkgs/a\\nb: internal error: no schema \\ax\n"
        );
    }

    /// The walk's skipped directories are part of the report: after the
    /// human report, on stderr in a machine format (stdout stays one
    /// document), listed with `-v`, escaped. Near miss: a run that skipped
    /// nothing says nothing.
    #[test]
    fn skipped_directories_follow_the_human_report_and_go_to_stderr_otherwise() {
        let outcomes = vec![PackageOutcome {
            path: "tree/a".into(),
            ..Default::default()
        }];
        let mut run = RunView::new(&outcomes, false);
        let opts = Options::default();
        let (_, stderr) = report(Format::Human, &run, &opts);
        assert_eq!(skipped(&run, &opts), "");
        assert_eq!(stderr, "");
        run.skipped = vec![
            ("tree/.hidden".into(), SkipRule::Hidden),
            ("tree/e\u{1b}[31m".into(), SkipRule::Exclude),
        ];
        let line = "2 directories skipped by a rule (hidden, .gitignore, exclude; --no-ignore searches them)";
        let (stdout, stderr) = report(Format::Human, &run, &opts);
        assert!(
            stdout.ends_with(&format!("{line}; -v lists them\n")),
            "{stdout}"
        );
        assert_eq!(stderr, "");
        let (stdout, stderr) = report(Format::Json, &run, &opts);
        assert!(serde_json::from_str::<serde_json::Value>(&stdout).is_ok());
        assert_eq!(stderr, format!("{line}; -v lists them\n"));
        let verbose = Options {
            verbose: true,
            ..Options::default()
        };
        assert_eq!(
            skipped(&run, &verbose),
            format!("{line}:\n  tree/.hidden (hidden)\n  tree/e\\x1b[31m (exclude)\n")
        );
    }
}

//! The argument groups several subcommands flatten ([`ReportArgs`],
//! [`OutputArgs`]; `verify`'s [`SelectArgs`]), the renderer options they
//! make, the one `--output-file` writer ([`deliver`], after
//! [`refuse_output_args`]), and the output of a canonical form or digest
//! ([`canonical_output`], `canonicalize` and `digest`).
//! Subcommand files import this module and no other of `cli/`.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::output::Output;
use crate::render::{self, human::Color, Format};
use crate::select;

/// Where a written file lands inside a package: the one rule, in
/// [`crate::fswrite`].
pub use crate::fswrite::written_inside;

/// The `--format` values a command takes: each value's name, the one
/// [`Format`] it selects, and the help line `--help` lists for it (what
/// that format prints for this command). Every command's `--format`
/// parses with one of these into the one [`Format`] (`value_parser =
/// FORMATS`); a value not listed is refused as clap refuses any value
/// outside a list.
#[derive(Clone, Copy, Debug)]
pub struct Formats(pub &'static [(&'static str, Format, &'static str)]);

impl Formats {
    /// The values as clap lists them.
    fn possible(&self) -> impl Iterator<Item = clap::builder::PossibleValue> + '_ {
        self.0
            .iter()
            .map(|(name, _, help)| clap::builder::PossibleValue::new(*name).help(*help))
    }
}

impl clap::builder::TypedValueParser for Formats {
    type Value = Format;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Format, clap::Error> {
        let given =
            clap::builder::PossibleValuesParser::new(self.possible()).parse_ref(cmd, arg, value)?;
        let ignore_case = arg.is_some_and(clap::Arg::is_ignore_case_set);
        self.possible()
            .zip(self.0)
            .find(|(v, _)| v.matches(&given, ignore_case))
            .map(|(_, (_, format, _))| *format)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(self.possible()))
    }
}

/// The six formats of `verify`'s report, and of every command that reports
/// findings as it does.
pub const REPORT_FORMATS: Formats = Formats(&[
    (
        "human",
        Format::Human,
        "miette diagnostics with source excerpts, then a summary",
    ),
    (
        "json",
        Format::Json,
        "One JSON document for the whole run (its JSON Schema: `form-package schema report`)",
    ),
    ("sarif", Format::Sarif, "SARIF 2.1.0, one rule per code"),
    (
        "github",
        Format::Github,
        "GitHub Actions workflow commands (`::error file=…,line=…,col=…::`)",
    ),
    (
        "junit",
        Format::Junit,
        "JUnit XML: one testcase per package, a failure for each failing one",
    ),
    (
        "concise",
        Format::Concise,
        "One line per finding, `path:line:col: CODE message`, then the summary",
    ),
]);

/// How a report is printed, shared by every command that reports findings
/// in the six formats (`verify`, `relations`, `check`, `compat`,
/// `snapshot`, `locator`).
#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// Output format.
    #[arg(long, value_parser = REPORT_FORMATS, default_value = "human")]
    pub format: Format,
    /// When to colour human output (NO_COLOR is honoured with `auto`).
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
}

impl ReportArgs {
    /// Whether to colour: `--color`, `NO_COLOR`, and whether the report
    /// goes to a terminal (`to_terminal`).
    pub fn use_color(&self, to_terminal: bool) -> bool {
        render::human::use_color(self.color, to_terminal)
    }
}

/// Where output goes, shared by every command that reports findings.
#[derive(Debug, Clone, clap::Args)]
pub struct OutputArgs {
    /// Write the report to FILE instead of stdout; `-` is stdout (a file
    /// named `-` is `./-`). A new path is written atomically (a temporary
    /// file renamed to it), an existing file in place as a shell's `>` does
    /// (its mode, owner and links kept), a symlink is followed and its
    /// target written, a device or FIFO (`/dev/stderr`, a named
    /// pipe) is written in place, never replaced. Refused (exit 2) inside a
    /// package being verified, also when a symlink points there.
    #[arg(long, value_name = "FILE")]
    pub output_file: Option<PathBuf>,
    /// SARIF: artifact URIs are relative to DIR (`%SRCROOT%`), an existing
    /// directory (else exit 2); default the working directory. Never
    /// written as an absolute path.
    #[arg(long, value_name = "DIR")]
    pub sarif_root: Option<PathBuf>,
}

impl OutputArgs {
    /// The file `--output-file` names, `None` for stdout (no flag, or `-`,
    /// the clap/ripgrep convention for standard output).
    pub fn file(&self) -> Option<&Path> {
        self.output_file.as_deref().filter(|f| f.as_os_str() != "-")
    }
}

/// `--summary-file FILE` (`verify`, `compat`): a Markdown job summary
/// appended to FILE ([`render::summary`]; issue 37 item 2).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SummaryArgs {
    /// Append a Markdown summary of the run (packages, verdicts, counts
    /// per code, the first findings with links) to FILE, e.g.
    /// `$GITHUB_STEP_SUMMARY`; whatever `--format` prints. Refused (exit 2)
    /// inside a package, as `--output-file` is.
    #[arg(long, value_name = "FILE")]
    pub summary_file: Option<PathBuf>,
}

impl SummaryArgs {
    /// Refused like `--output-file`: FILE inside a package under `paths`
    /// (through a symlink or a hard link too).
    pub fn refuse(&self, paths: &[PathBuf]) -> Option<Output> {
        let file = self.summary_file.as_deref()?;
        let (path, package) = written_inside(file, paths)?;
        Some(
            Error::Usage(format!(
                "--summary-file {} is inside the package {} being verified (PATH {}): nothing is written to a package being verified; write the summary outside it",
                file.display(),
                package.display(),
                path.display()
            ))
            .into(),
        )
    }

    /// Appends `summary` to FILE (when given) unless the command could not
    /// run; a failure to write is exit 2 with a `form-package: write FILE:
    /// …` line.
    pub fn deliver(&self, mut out: Output, summary: impl FnOnce() -> String) -> Output {
        let Some(file) = self.summary_file.as_deref() else {
            return out;
        };
        if out.code == 2 {
            return out;
        }
        let bytes = summary().into_bytes();
        if let Err(e) = crate::fswrite::write(file, &bytes, crate::fswrite::How::Append, &[]) {
            out.stderr.push_str(&render::escape::line(&format!(
                "write {}: {e}",
                file.display()
            )));
            out.code = 2;
        }
        out
    }
}

/// Choosing what to see and where to look (issue 14 items 6, 7; ruff's
/// meanings): the flags of `verify` (flattened by `cli/verify.rs`; the doc
/// comments are their `--help`), handed to the run as a
/// [`select::RuleArgs`] ([`SelectArgs::rules`]). Each flag replaces the
/// value of `form-package.toml`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SelectArgs {
    /// Show only these codes: ids (`FD213`), names (`open-object-schema`),
    /// id prefixes (`FD2`) or `ALL`, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "CODE")]
    pub select: Option<Vec<String>>,
    /// Hide these codes (the more specific of --select and --ignore wins).
    #[arg(long, value_delimiter = ',', value_name = "CODE")]
    pub ignore: Option<Vec<String>>,
    /// Report these codes' errors and notes as warnings.
    #[arg(long, value_delimiter = ',', value_name = "CODE")]
    pub warn: Option<Vec<String>>,
    /// Exit 0 even when a finding fails a package (2 still means the command could not run).
    #[arg(long)]
    pub exit_zero: bool,
    /// Print the number of findings per code instead of the findings.
    #[arg(long)]
    pub statistics: bool,
    /// Read settings from FILE instead of the nearest `form-package.toml`
    /// (found upward from the first PATH, no higher than the repository
    /// root; outside a repository, than the working directory).
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,
    /// Read no configuration file (neither `--config` nor one found upward):
    /// the flags alone decide.
    #[arg(long)]
    pub isolated: bool,
    /// Do not search these directories for packages (gitignore-style globs, relative to the working directory).
    #[arg(long, value_delimiter = ',', value_name = "GLOB")]
    pub exclude: Option<Vec<String>>,
    /// Search hidden directories and those `.gitignore` names too (never applies inside a package).
    #[arg(long)]
    pub no_ignore: bool,
}

impl SelectArgs {
    /// The flags as the library's plain [`select::RuleArgs`].
    pub fn rules(&self) -> select::RuleArgs {
        select::RuleArgs {
            select: self.select.clone(),
            ignore: self.ignore.clone(),
            warn: self.warn.clone(),
            exit_zero: self.exit_zero,
            statistics: self.statistics,
            config: self.config.clone(),
            isolated: self.isolated,
            exclude: self.exclude.clone(),
            no_ignore: self.no_ignore,
        }
    }
}

/// The `--help` of `--profile P`, one text for `init`, `index` and
/// `schema` (one parser, [`crate::profile::parse_option`], reads the flag
/// of all three): the forms it accepts, an index `apiVersion` or its
/// version token, every profile listed from the profile table, then the
/// command's own `rest` (what the profile is for there, its default).
pub fn profile_help(rest: &str) -> String {
    let versions = crate::profile::api_versions();
    let tokens: Vec<String> = versions
        .iter()
        .map(|v| format!("`{}`", v.trim_start_matches(crate::profile::INDEX_PREFIX)))
        .collect();
    format!(
        "Index profile: an index `apiVersion` (`{}`) or its version token ({}). {rest}",
        versions.last().map(String::as_str).unwrap_or_default(),
        tokens.join(", ")
    )
}

/// The renderer options of a command line: the SARIF root defaults to the
/// working directory.
pub fn render_options(
    output: &OutputArgs,
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
    match crate::fswrite::write(file, &out.stdout, crate::fswrite::How::Whole, &[]) {
        Ok(()) => out.stdout.clear(),
        Err(e) => {
            out.stderr.push_str(&crate::render::escape::line(&format!(
                "write {}: {e}",
                file.display()
            )));
            out.stdout.clear();
            out.code = 2;
        }
    }
    out
}

/// The usage errors of `--output-file` and `--sarif-root` (exit 2, nothing
/// verified, nothing written): a `--sarif-root` that is not an existing
/// directory (T1 C10: URIs relative to a missing or a file root mean
/// nothing), then `refuse_output_inside`.
pub fn refuse_output_args(output: &OutputArgs, paths: &[PathBuf]) -> Option<Output> {
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

/// "Nothing is written to a package being verified" (docs/src/commands/verify.md, `--output-file`): an
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
/// cannot be resolved is compared as written, made absolute. An existing
/// file with more than one hard link is also compared by device and inode
/// with every regular file under each PATH (issue 22 item 5): a hard link
/// to a package file is refused wherever it is named.
fn refuse_output_inside(file: Option<&Path>, paths: &[PathBuf]) -> Option<Output> {
    let (path, package) = written_inside(file?, paths)?;
    Some(
        Error::Usage(format!(
            "--output-file {} is inside the package {} being verified (PATH {}): nothing is written to a package being verified; write the report outside it",
            file?.display(),
            crate::discover::as_given(file?, &package).display(),
            path.display()
        ))
        .into(),
    )
}

/// The `Output` of a canonical form or its digest, or its refusal
/// ([`crate::render::canonical::output`]; the exit status is the
/// operation's, [`crate::ops::canonicalize::exit_code`]): what
/// `canonicalize FILE` and `digest FILE` print.
pub fn canonical_output(result: Result<Vec<u8>, crate::ops::canonicalize::Refusal>) -> Output {
    let code = crate::ops::canonicalize::exit_code(&result);
    let (stdout, stderr) = render::canonical::output(result);
    Output {
        stdout,
        stderr,
        code,
    }
}

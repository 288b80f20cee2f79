//! Command-line interface (clap derive). Doc comments are the `--help` text.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::render::human::Color;
use crate::render::Format;

/// Verify Takoform Form Packages: strict I-JSON, RFC 8785 digests, schema
/// proofs, the forbidden-field vocabulary, fixtures and relations.
///
/// Exit status: 0 every package verified (warnings allowed), 1 some package
/// has an error, 2 the command could not run.
#[derive(Debug, Parser)]
#[command(
    name = "form-package",
    version,
    about,
    long_about = None,
    after_help = "Exit status: 0 verified or valid (warnings allowed), 1 a finding refused some input, 2 the command could not run (a usage error too: the reference exits 1 for those)."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Verify every Form Package under each PATH (a package directory or a tree).
    Verify {
        /// Package directories or trees holding packages.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// When to colour human output (NO_COLOR is honoured with `auto`).
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
        /// Treat warnings as errors (exit 1 when any package has a warning).
        #[arg(long)]
        deny_warnings: bool,
        /// Print only findings (no per-package summary lines).
        #[arg(long, short)]
        quiet: bool,
        /// Human output: add what each stage checked, per package.
        #[arg(long, short, conflicts_with = "quiet")]
        verbose: bool,
        /// `--output-file`, `--sarif-root`.
        #[command(flatten)]
        output: OutputArgs,
        /// `--select`, `--ignore`, `--warn`, `--exit-zero`, `--statistics`, `--config`, `--exclude`, `--no-ignore`.
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Print the RFC 8785 canonical form of a JSON file, then a newline.
    Canonicalize {
        /// The JSON file (any size).
        file: PathBuf,
    },
    /// Print `sha256:<64 hex>` of the RFC 8785 canonical form of a JSON file.
    Digest {
        /// The JSON file (any size).
        file: PathBuf,
    },
    /// Show the relations derived from a Definition's desired schema (decision 0015).
    Relations {
        /// A package directory or a bare `definition.json`.
        path: PathBuf,
        /// Output format: `human` (a table, then the findings), `json` (the
        /// relations document); `sarif`, `github` and `junit` report the
        /// findings as `verify` does.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Resolve the relations against this desired document and list the concrete instances.
        #[arg(long)]
        instance: Option<PathBuf>,
        /// When to colour the findings of human output (NO_COLOR is honoured with `auto`).
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
        /// `--output-file`, `--sarif-root`.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Write (or with `--check` only compare) an author's `package-index.json`.
    Index {
        /// The package directory.
        dir: PathBuf,
        /// Only compare; exit 1 when the index would change.
        #[arg(long)]
        check: bool,
        /// Index profile to write (e.g. `packages.forms.takoform.com/v1alpha5`), over the
        /// existing index's; the definition must fit it. Default: the existing index's profile,
        /// else the one the definition's lane gets.
        #[arg(long)]
        profile: Option<String>,
    },
    /// Explain a diagnostic code (`FD213` or `open-object-schema`).
    Explain {
        /// The code or its name.
        code: String,
    },
    /// List every diagnostic code.
    Rules,
    /// Print this build's identity as one compact JSON line.
    Version,
    /// Validate a revocation statement (trust.forms.takoform.com/v1alpha1 or /v1); print it as the reference does.
    ValidateRevocation {
        /// The statement (JSON).
        file: PathBuf,
        /// Output format for findings (default: the reference's output, findings on stderr).
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// When to colour human output.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
    /// Validate a revocation checkpoint (with --advance or --previous-pin, also advance to it and print the pin).
    ValidateRevocationCheckpoint {
        /// The checkpoint (JSON).
        file: PathBuf,
        /// Advance with no previous pin: the first trusted checkpoint (legacy sequence 1, or the current genesis).
        #[arg(long, conflicts_with = "previous_pin")]
        advance: bool,
        /// Advance from this pin (a JSON file: {checkpointApiVersion?, sequence, digest, entriesDigest}).
        #[arg(long, value_name = "PIN_FILE")]
        previous_pin: Option<PathBuf>,
        /// Output format for findings (default: the reference's output, findings on stderr).
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// When to colour human output.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
    /// Check single JSON documents by what they are (definition, index, revocation, Binding or Interface Definition).
    ///
    /// A Form Definition of any profile gets every definition-level rule, the
    /// proofs, the vocabulary, relations and the fixtures beside it at the
    /// paths it names; a package index its schema and entry rules; a
    /// revocation statement or checkpoint, a Binding or an Interface
    /// Definition its published schema and rules. `-` reads standard input.
    Check {
        /// The documents (`-` for standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The name standard input gets in findings (and where its fixtures sit).
        #[arg(long, value_name = "NAME")]
        stdin_filename: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// When to colour human output.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
        /// Treat warnings as errors.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Did a Form change the way its new definitionVersion says? Compare
    /// two versions of a Form Definition (versioning-rules V1-V5).
    ///
    /// `compat OLD NEW` (each a package directory or a definition.json;
    /// both verified first), `compat --history PATH...` (each consecutive
    /// version of every (group, kind) under the PATHs), or `compat
    /// --baseline BASE PATH...` (each package under a PATH against the
    /// newest older version of its kind in the published tree BASE). Exit
    /// status: 0 every bump fits, 1 some does not (or a FormRef is reused,
    /// or a side is refused), 2 the command could not run.
    Compat {
        /// OLD NEW; with --history or --baseline, the trees to walk.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Compare each consecutive version of every (group, kind) under the PATHs.
        #[arg(long, conflicts_with = "baseline")]
        history: bool,
        /// Compare each package under the PATHs with the newest older version of its kind in BASE.
        #[arg(long, value_name = "BASE")]
        baseline: Option<PathBuf>,
        /// Output format (`json`: its schema is `form-package schema compat`).
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// When to colour human output (NO_COLOR is honoured with `auto`).
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
        /// Write each breaking pair's witness into DIR as a JSON file a
        /// publisher can add as a negative fixture (never inside a package
        /// being checked).
        #[arg(long, value_name = "DIR")]
        write_witnesses: Option<PathBuf>,
        /// `--output-file`, `--sarif-root`.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff, section 1) on stdout: `form-package man | man -l -`.
    ///
    /// `form-package man verify` prints form-package-verify(1), `man trust verify-bundle`
    /// form-package-trust-verify-bundle(1): every page a SUBCOMMANDS section names.
    Man {
        /// The subcommand whose page to print (nested: `trust verify-bundle`).
        #[arg(value_name = "SUBCOMMAND")]
        command: Vec<String>,
    },
    /// Print a JSON Schema embedded in the binary (the shape of an output format).
    Schema {
        /// Which schema: `report` (`verify --format json`) or `family` (`family --format json`).
        #[arg(value_enum)]
        which: SchemaName,
    },
    /// Run the reference's conformance suite (DIR/manifest.json) through verify's checks.
    Conformance {
        /// The suite directory (e.g. conformance/form-package-v1).
        dir: PathBuf,
        /// Output format (`human`: one line per case and a summary; `json`).
        #[arg(long, value_enum, default_value_t = crate::conformance::ConformanceFormat::Human)]
        format: crate::conformance::ConformanceFormat,
    },
    /// Check a whole Form Family and its Binding/Interface Definitions:
    /// every package as `verify` does, every relation's target and
    /// contract, decision 0015 rule 8 for every binding, every accepted
    /// Binding, candidate sets; draw the graph.
    Family {
        /// Trees holding the family's packages, contracts and candidate sets.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The snapshot is known to be incomplete: a target kind that is not
        /// loaded is a note, not an error.
        #[arg(long)]
        partial: bool,
        /// Accept relations into this group (or apiVersion) without loading it (repeatable).
        #[arg(long, value_name = "GROUP")]
        allow_external: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = crate::family::FamilyFormat::Human)]
        format: crate::family::FamilyFormat,
    },
    /// Publisher trust, offline: verify a package's Sigstore bundle and its revocation status.
    Trust {
        /// What to verify.
        #[command(subcommand)]
        command: crate::trust::cmd::TrustCommand,
    },
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
    pub fn file(&self) -> Option<&std::path::Path> {
        self.output_file.as_deref().filter(|f| f.as_os_str() != "-")
    }
}

/// The schemas `form-package schema` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemaName {
    /// The JSON report of `verify --format json` (embedded; version 1).
    Report,
    /// The JSON document of `family --format json` (embedded; version 1).
    Family,
    /// The JSON document of `compat --format json` (embedded; version 1).
    Compat,
}

/// Choosing what to see and where to look (issue 14 items 6, 7; ruff's
/// meanings). Each flag replaces the value of `form-package.toml`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct RuleArgs {
    /// Show only these codes: ids (`FD213`), names (`open-object-schema`),
    /// id prefixes (`FD2`) or `ALL`, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "CODE")]
    pub select: Option<Vec<String>>,
    /// Hide these codes (the more specific of --select and --ignore wins).
    #[arg(long, value_delimiter = ',', value_name = "CODE")]
    pub ignore: Option<Vec<String>>,
    /// Report these codes' errors as warnings.
    #[arg(long, value_delimiter = ',', value_name = "CODE")]
    pub warn: Option<Vec<String>>,
    /// Exit 0 even when a finding fails a package (2 still means the command could not run).
    #[arg(long)]
    pub exit_zero: bool,
    /// Print the number of findings per code instead of the findings.
    #[arg(long)]
    pub statistics: bool,
    /// Read settings from FILE instead of the nearest `form-package.toml`
    /// (found upward from the first PATH).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Do not search these directories for packages (gitignore-style globs, relative to the working directory).
    #[arg(long, value_delimiter = ',', value_name = "GLOB")]
    pub exclude: Option<Vec<String>>,
    /// Search hidden directories and those `.gitignore` names too (never applies inside a package).
    #[arg(long)]
    pub no_ignore: bool,
}

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
#[command(name = "form-package", version, about, long_about = None)]
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
        /// Output format (`human` table or `json`).
        #[arg(long, value_enum, default_value_t = TableFormat::Human)]
        format: TableFormat,
        /// Resolve the relations against this desired document and list the concrete instances.
        #[arg(long)]
        instance: Option<PathBuf>,
    },
    /// Write (or with `--check` only compare) an author's `package-index.json`.
    Index {
        /// The package directory.
        dir: PathBuf,
        /// Only compare; exit 1 when the index would change.
        #[arg(long)]
        check: bool,
        /// Index profile for a new index (e.g. `packages.forms.takoform.com/v1alpha5`).
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
    /// Publisher trust, offline: verify a package's Sigstore bundle and its revocation status.
    Trust {
        /// What to verify.
        #[command(subcommand)]
        command: crate::trust::cmd::TrustCommand,
    },
}

/// Output format of `relations`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// A table, then the findings.
    Human,
    /// One JSON document (shape in `src/relations_cmd.rs`).
    Json,
}

impl From<TableFormat> for Format {
    fn from(f: TableFormat) -> Self {
        match f {
            TableFormat::Human => Format::Human,
            TableFormat::Json => Format::Json,
        }
    }
}

//! Command-line interface (clap derive): one file per subcommand, each
//! parsing its arguments and calling one library operation; the argument
//! groups several commands share ([`args::ReportArgs`],
//! [`args::OutputArgs`]) and the one `--output-file` writer
//! ([`args::deliver`]) live in [`args`]. Doc comments are the `--help`
//! text.
//!
//! Layers (asserted by `tests/docs/imports.rs`): a subcommand file imports no
//! other subcommand file (only [`args`]); the library never imports `cli`.
//! This module only dispatches.

pub mod args;
pub mod canonicalize;
pub mod check;
pub mod compat;
pub mod completions;
pub mod conformance;
pub mod desired;
pub mod digest;
pub mod explain;
pub mod family;
pub mod index;
pub mod init;
pub mod locator;
pub mod lsp;
pub mod man;
pub mod relations;
pub mod revocation;
pub mod schema;
pub mod snapshot;
pub mod trust;
pub mod verify;
pub mod version;

use clap::{CommandFactory, Parser, Subcommand};

use crate::output::Output;

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
    Verify(verify::Args),
    /// Print the RFC 8785 canonical form of a JSON file, then a newline.
    Canonicalize(canonicalize::Args),
    /// Print `sha256:<64 hex>` of the RFC 8785 canonical form of a JSON file; of a
    /// package directory, its FormRef and package digest (after verifying it).
    Digest(digest::Args),
    /// Show the relations derived from a Definition's desired schema (decision 0015).
    Relations(relations::Args),
    /// Write (or with `--check` only compare) an author's `package-index.json`.
    Index(index::Args),
    /// Start a Form Package that verifies: a definition with a closed desired schema, one
    /// positive and one negative fixture, and the index (never over an existing package).
    Init(init::Args),
    /// Explain a diagnostic code (`FD213` or `open-object-schema`).
    Explain(explain::Args),
    /// List every diagnostic code.
    Rules,
    /// Print this build's identity as one compact JSON line.
    Version,
    /// Validate a revocation statement (trust.forms.takoform.com/v1alpha1 or /v1); print it as the reference does.
    ValidateRevocation(revocation::StatementArgs),
    /// Validate a revocation checkpoint (with --advance or --previous-pin, also advance to it and print the pin).
    ValidateRevocationCheckpoint(revocation::CheckpointArgs),
    /// Check single JSON documents by what they are (definition, index, revocation, Binding or Interface Definition).
    ///
    /// A Form Definition of any profile gets every definition-level rule, the
    /// proofs, the vocabulary, relations and the fixtures beside it at the
    /// paths it names; a package index its schema and entry rules; a
    /// revocation statement or checkpoint, a Binding or an Interface
    /// Definition its published schema and rules. `-` reads standard input.
    Check(check::Args),
    /// Did a Form change the way its new definitionVersion says? Compare
    /// versions of a Form Definition (versioning-rules V1-V5).
    ///
    /// `compat OLD NEW` (each a package directory or a definition.json;
    /// both verified first), `compat --history PATH...` (each consecutive
    /// version of every (group, kind) under the PATHs), or `compat
    /// --baseline BASE PATH...` (each package under a PATH against the
    /// newest older version of its kind in the published tree BASE). Exit
    /// status: 0 every bump fits, 1 some does not (or a FormRef is reused,
    /// or a side is refused), 2 the command could not run.
    Compat(compat::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions(completions::Args),
    /// Print a manual page (roff, section 1) on stdout: `form-package man | man -l -`.
    ///
    /// `form-package man verify` prints form-package-verify(1), `man trust verify-bundle`
    /// form-package-trust-verify-bundle(1): every page a SUBCOMMANDS section names.
    Man(man::Args),
    /// Print a JSON Schema embedded in the binary: an output format's, or the published
    /// definition or index schema of a profile.
    Schema(schema::Args),
    /// Run the reference's conformance suite (DIR/manifest.json) through verify's checks.
    Conformance(conformance::Args),
    /// Check a whole Form Family and its Binding/Interface Definitions:
    /// every package as `verify` does, every relation's target and
    /// contract, decision 0015 rule 8 for every binding, every accepted
    /// Binding, candidate sets; draw the graph.
    Family(family::Args),
    /// Compile the set a host will serve as the current Core does: every package verified, then
    /// the Snapshot compiler's stages (lane, duplicates, contracts, closure, requiresHostApi,
    /// target FormRefs, default-create pins); on success the Snapshot digest and roster.
    Snapshot(snapshot::Args),
    /// Print each verified package's publication locator (release id, artifact id, tag,
    /// source path), or read a tag back with the Core's grammar (`--parse TAG`).
    Locator(locator::Args),
    /// Publisher trust, offline: verify a package's Sigstore bundle and its revocation status.
    Trust(trust::Args),
    /// Language server over standard input and output: findings while you type, hover on codes.
    Lsp(lsp::Args),
    /// Validate or materialize one desired document against an exact Form, as a host does
    /// (the Core's `Validate`/`Materialize`): `desired validate|materialize DIR... REF FILE`.
    Desired(desired::Args),
}

/// Runs a parsed command line: hands each subcommand's arguments to its
/// file. `is_terminal`: whether stdout is a terminal (colour, `auto`).
pub fn run(cli: Cli, is_terminal: bool) -> Output {
    match cli.command {
        Command::Verify(a) => verify::run(a, is_terminal),
        Command::Canonicalize(a) => canonicalize::run(&a, false),
        Command::Digest(a) => digest::run(&a),
        Command::Relations(a) => relations::run(a, is_terminal),
        Command::Index(a) => index::run(&a),
        Command::Init(a) => init::run(&a),
        Command::Explain(a) => explain::run(&a),
        Command::Rules => explain::rules(),
        Command::Version => version::run(),
        Command::ValidateRevocation(a) => revocation::statement(&a, is_terminal),
        Command::ValidateRevocationCheckpoint(a) => revocation::checkpoint(&a, is_terminal),
        Command::Check(a) => check::run(&a, is_terminal),
        Command::Compat(a) => compat::run(a, is_terminal),
        Command::Completions(a) => completions::run(&a, Cli::command()),
        Command::Man(a) => man::run(&a, Cli::command()),
        Command::Schema(a) => schema::run(&a),
        Command::Conformance(a) => conformance::run(&a),
        Command::Family(a) => family::run(a),
        Command::Snapshot(a) => snapshot::run(a, is_terminal),
        Command::Locator(a) => locator::run(a, is_terminal),
        Command::Trust(a) => trust::run(&a),
        Command::Lsp(a) => lsp::run(&a),
        Command::Desired(a) => desired::run(&a, is_terminal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Format;

    /// The `--format` of `command` (a command line after `form-package`),
    /// or clap's refusal.
    fn format_of(line: &str) -> Result<Format, String> {
        let words = std::iter::once("form-package").chain(line.split(' '));
        let cli = Cli::try_parse_from(words).map_err(|e| e.kind().to_string())?;
        Ok(match cli.command {
            Command::Verify(a) => a.report.format,
            Command::Digest(a) => a.format,
            Command::Family(a) => a.format,
            Command::Conformance(a) => a.format,
            Command::ValidateRevocation(a) => a.format.unwrap_or(Format::Human),
            other => panic!("no --format read here: {other:?}"),
        })
    }

    /// Every command's `--format` parses into the one `Format`: each
    /// command takes its own values (`digest`'s `text` is `human`,
    /// `family`'s graphs), and its default; near misses: a value another
    /// command takes is refused as any unknown value is.
    #[test]
    fn every_command_parses_its_formats_into_the_one_format() {
        assert_eq!(format_of("verify x"), Ok(Format::Human));
        assert_eq!(format_of("verify --format concise x"), Ok(Format::Concise));
        assert_eq!(format_of("digest x"), Ok(Format::Human));
        assert_eq!(format_of("digest --format text x"), Ok(Format::Human));
        assert_eq!(format_of("digest --format json x"), Ok(Format::Json));
        assert_eq!(format_of("family --format dot x"), Ok(Format::Dot));
        assert_eq!(format_of("family --format mermaid x"), Ok(Format::Mermaid));
        assert_eq!(format_of("conformance --format json x"), Ok(Format::Json));
        assert_eq!(
            format_of("validate-revocation --format sarif x"),
            Ok(Format::Sarif)
        );
        let refused = Err(clap::error::ErrorKind::InvalidValue.to_string());
        assert_eq!(format_of("family --format sarif x"), refused);
        assert_eq!(format_of("verify --format dot x"), refused);
        assert_eq!(format_of("digest --format human x"), refused);
        assert_eq!(format_of("conformance --format concise x"), refused);
    }
}

//! `form-package trust …`: publisher trust, offline. Parses the
//! subcommand's arguments into a plain [`TrustRequest`] for
//! [`crate::ops::trust::answer`] (summarized by `render::trust`), and
//! writes `--pin-out`.

use std::path::{Path, PathBuf};

use crate::cli::args;
use crate::codes::Code;
use crate::ops::trust::{
    CheckpointInput, LookupInput, SetInput, Subject, TrustFiles, TrustRequest,
};
use crate::output::Output;
use crate::trust::{ErrorClass, TrustError};

/// `trust`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to verify.
    #[command(subcommand)]
    pub command: TrustCommand,
}

/// `form-package trust …`.
#[derive(Debug, clap::Subcommand)]
pub enum TrustCommand {
    /// Verify a Sigstore v0.3 bundle over a subject, offline, against a
    /// trusted root and an exact publisher policy.
    VerifyBundle(VerifyBundleArgs),
    /// Verify a signed revocation checkpoint and its continuity from a pin.
    VerifyCheckpoint(CheckpointArgs),
    /// Verify a revocation checkpoint, then answer whether a package is revoked.
    CheckNotRevoked(NotRevokedArgs),
    /// Verify a published trust set (`forms/trust/sets/<commit>/`) as a whole:
    /// its policy and root copies, every package bundle, its checkpoint.
    VerifySet(VerifySetArgs),
}

/// What was signed: exactly one of the three.
#[derive(Debug, clap::Args)]
#[group(required = true, multiple = false)]
pub struct SubjectArgs {
    /// The exact signed subject file (its SHA-256 is signed).
    #[arg(long)]
    pub subject: Option<PathBuf>,
    /// A Form Package directory: verified first; its package digest is the subject.
    #[arg(long)]
    pub package: Option<PathBuf>,
    /// A package digest `sha256:<64 hex>`, used as the prehashed subject.
    #[arg(long)]
    pub package_digest: Option<String>,
}

/// The trust inputs every command takes.
#[derive(Debug, clap::Args)]
pub struct FilesArgs {
    /// The Sigstore v0.3 bundle (`.sigstore.json`).
    #[arg(long)]
    pub bundle: PathBuf,
    /// The caller-chosen Sigstore trusted root (`trusted_root.json`).
    #[arg(long)]
    pub trusted_root: PathBuf,
    /// The exact publisher policy (`trust.forms.takoform.com/v1alpha1` PublisherPolicy).
    #[arg(long)]
    pub policy: PathBuf,
}

/// `trust verify-bundle`.
#[derive(Debug, clap::Args)]
pub struct VerifyBundleArgs {
    /// The subject.
    #[command(flatten)]
    pub subject: SubjectArgs,
    /// The trust inputs.
    #[command(flatten)]
    pub files: FilesArgs,
}

/// `trust verify-checkpoint`.
#[derive(Debug, clap::Args)]
pub struct CheckpointArgs {
    /// The exact RFC 8785 revocation checkpoint file (the signed subject).
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// The trust inputs.
    #[command(flatten)]
    pub files: FilesArgs,
    /// The pin kept from the last trusted checkpoint (none: this is the
    /// first): the pin itself, or a previous run's whole report of
    /// `verify-checkpoint` or of `validate-revocation-checkpoint` (its
    /// output or its `--format json` report; its pin is read).
    #[arg(long)]
    pub previous_pin: Option<PathBuf>,
    /// Also write the pin to keep for the next run to FILE (the exact
    /// shape `--previous-pin` reads).
    #[arg(long, value_name = "FILE")]
    pub pin_out: Option<PathBuf>,
    /// A checkpoint that is the very one `--previous-pin` names is a
    /// success (`"status":"unchanged"`, the pin kept), for a scheduled run
    /// against a checkpoint that has not moved. Without it the Core's rule
    /// stands: the next checkpoint must be the pin's sequence + 1
    /// (`forms-genesis-replayed` in the trust corpus).
    #[arg(long, requires = "previous_pin")]
    pub allow_unchanged: bool,
}

/// `trust check-not-revoked`.
#[derive(Debug, clap::Args)]
pub struct NotRevokedArgs {
    /// The checkpoint inputs.
    #[command(flatten)]
    pub checkpoint: CheckpointArgs,
    /// A Form Package directory: verified first; its package digest and
    /// FormRef are looked up together (cross-checked against
    /// `--package-digest` and `--form-ref` when those are given too).
    #[arg(long)]
    pub package: Option<PathBuf>,
    /// The package digest `sha256:<64 hex>` to look up (with `--form-ref`,
    /// unless `--package` or a package index as `--form-ref` gives it).
    #[arg(long)]
    pub package_digest: Option<String>,
    /// A FormRef JSON file (of the checkpoint's own profile), or a package
    /// index (`package-index.json`: its `formRef`, and its package digest).
    #[arg(long)]
    pub form_ref: Option<PathBuf>,
}

/// `trust verify-set`.
#[derive(Debug, clap::Args)]
pub struct VerifySetArgs {
    /// The trust set directory (`forms/trust/sets/<commit>/`).
    pub dir: PathBuf,
    /// The caller-chosen Sigstore trusted root (`trusted_root.json`); the
    /// set's own copy, where it has one, must be byte-equal to it.
    #[arg(long)]
    pub trusted_root: PathBuf,
    /// The exact publisher policy; the set's own copy, where it has one,
    /// must be byte-equal to it.
    #[arg(long)]
    pub policy: PathBuf,
    /// A Form Package directory or tree at hand (repeatable): each package
    /// is verified first, must have its folder in the set, and its bundle
    /// is verified over its RFC 8785 package index.
    #[arg(long = "package", value_name = "DIR")]
    pub packages: Vec<PathBuf>,
    /// A directory of signed checkpoints (`<name>.json` beside
    /// `<name>.sigstore.json`) replayed from the genesis; the set's
    /// checkpoint then advances from the pin the replay ends at (or is that
    /// very checkpoint).
    #[arg(long, value_name = "DIR")]
    pub replay: Option<PathBuf>,
    /// How the report is printed.
    #[command(flatten)]
    pub report: args::ReportArgs,
}

impl FilesArgs {
    fn files(&self) -> TrustFiles {
        TrustFiles {
            bundle: self.bundle.clone(),
            trusted_root: self.trusted_root.clone(),
            policy: self.policy.clone(),
        }
    }
}

impl CheckpointArgs {
    fn input(&self) -> CheckpointInput {
        CheckpointInput {
            checkpoint: self.checkpoint.clone(),
            files: self.files.files(),
            previous_pin: self.previous_pin.clone(),
            allow_unchanged: self.allow_unchanged,
        }
    }
}

impl TrustCommand {
    /// The library request; `Err` for a `verify-bundle` without a subject
    /// (clap's group refuses it first).
    fn request(&self) -> Result<TrustRequest, TrustError> {
        Ok(match self {
            TrustCommand::VerifyBundle(a) => {
                let s = &a.subject;
                let subject = match (&s.subject, &s.package, &s.package_digest) {
                    (Some(p), _, _) => Subject::File(p.clone()),
                    (_, Some(dir), _) => Subject::Package(dir.clone()),
                    (_, _, Some(d)) => Subject::PackageDigest(d.clone()),
                    (None, None, None) => {
                        return Err(TrustError {
                            code: Code::TrustInputError,
                            class: ErrorClass::Usage,
                            message: "one of --subject, --package, --package-digest is required"
                                .into(),
                            could_not_run: true,
                        })
                    }
                };
                TrustRequest::VerifyBundle(subject, a.files.files())
            }
            TrustCommand::VerifyCheckpoint(a) => TrustRequest::VerifyCheckpoint(a.input()),
            TrustCommand::CheckNotRevoked(a) => TrustRequest::CheckNotRevoked(LookupInput {
                checkpoint: a.checkpoint.input(),
                package: a.package.clone(),
                package_digest: a.package_digest.clone(),
                form_ref: a.form_ref.clone(),
            }),
            TrustCommand::VerifySet(_) => {
                return Err(TrustError {
                    code: Code::TrustInputError,
                    class: ErrorClass::Usage,
                    message: "verify-set reports through its own run".into(),
                    could_not_run: true,
                })
            }
        })
    }

    /// The package `check-not-revoked --package DIR` verifies, if any.
    fn package(&self) -> Option<PathBuf> {
        match self {
            TrustCommand::CheckNotRevoked(a) => a.package.clone(),
            _ => None,
        }
    }

    /// Where `--pin-out` asks the pin to be written, if it does.
    fn pin_out(&self) -> Option<&Path> {
        match self {
            TrustCommand::VerifyBundle(_) | TrustCommand::VerifySet(_) => None,
            TrustCommand::VerifyCheckpoint(a) => a.pin_out.as_deref(),
            TrustCommand::CheckNotRevoked(a) => a.checkpoint.pin_out.as_deref(),
        }
    }
}

/// Runs the `trust` subcommand: the JSON report on stdout, its human
/// summary on stderr ([`crate::render::trust`]); `--pin-out` writes the pin
/// once the command succeeded (as `--output-file` writes a report: a new
/// file atomically, an existing one in place). A refusal is the JSON
/// failure report on stderr ([`crate::render::trust::failure`]): exit 1,
/// or 2 when the command could not run (a usage error, an unreadable input).
/// `verify-set` prints its report in `--format` instead (`verify_set`);
/// `is_terminal`: whether stdout is a terminal.
pub fn run(a: &Args, is_terminal: bool) -> Output {
    if let TrustCommand::VerifySet(s) = &a.command {
        return verify_set(s, is_terminal);
    }
    if let Some(e) = pin_out_inside_package(&a.command) {
        return refused(&e);
    }
    let answer = match a
        .command
        .request()
        .and_then(|r| crate::ops::trust::answer(&r))
    {
        Ok(answer) => answer,
        Err(e) => return refused(&e),
    };
    let pin_out = a.command.pin_out();
    let written = match (pin_out, answer.pin()) {
        (Some(path), Some(pin)) => crate::ops::trust::pin_file(pin).and_then(|bytes| {
            let guard: Vec<PathBuf> = a.command.package().into_iter().collect();
            crate::fswrite::write(path, &bytes, crate::fswrite::How::Whole, &guard).map_err(|e| {
                TrustError::new(
                    Code::TrustInputError,
                    format!("write pin file {}: {e}", path.display()),
                )
                .could_not_run()
            })
        }),
        _ => Ok(()),
    };
    match written.and_then(|()| crate::ops::trust::answer_json(&answer)) {
        Ok(stdout) => Output {
            stdout,
            stderr: crate::render::trust::summary(&answer, pin_out),
            ..Default::default()
        },
        Err(e) => refused(&e),
    }
}

/// `trust verify-set`: [`crate::ops::trust::verify_set`]'s report printed
/// by [`crate::render::trust::set_output`], with the report's exit status.
fn verify_set(a: &VerifySetArgs, is_terminal: bool) -> Output {
    let report = crate::ops::trust::verify_set(&SetInput {
        dir: a.dir.clone(),
        trusted_root: a.trusted_root.clone(),
        policy: a.policy.clone(),
        packages: a.packages.clone(),
        replay: a.replay.clone(),
    });
    let opts = crate::render::Options {
        color: a.report.use_color(is_terminal),
        ..crate::render::Options::here()
    };
    let (stdout, stderr) = crate::render::trust::set_output(&report, a.report.format, &opts);
    Output {
        stdout: stdout.into_bytes(),
        stderr,
        code: report.exit_code(),
    }
}

/// "Nothing is written to a package being verified": a `--pin-out` FILE
/// inside the `--package` DIR that `check-not-revoked` verifies (as
/// named, through a symlink, or a hard link to one of its files;
/// [`args::written_inside`]) is a usage error, exit 2, before anything is
/// read (breaker G2: the pin went into the package and its next
/// verification failed FD018).
fn pin_out_inside_package(command: &TrustCommand) -> Option<TrustError> {
    let pin = command.pin_out()?;
    let guard: Vec<PathBuf> = command.package().into_iter().collect();
    let (path, package) = args::written_inside(pin, &guard)?;
    Some(
        TrustError {
            code: Code::TrustInputError,
            class: ErrorClass::Usage,
            message: format!(
                "--pin-out {} is inside the package {} (under {}): nothing is written to a package being verified or any other (through a symbolic or a hard link neither); write the pin outside it",
                pin.display(),
                package.display(),
                path.display()
            ),
            could_not_run: true,
        },
    )
}

/// A refusal: its failure report on stderr, exit 1 (2 when the command
/// could not run).
fn refused(e: &TrustError) -> Output {
    Output {
        stderr: crate::render::trust::failure(&e.failure()),
        code: if e.could_not_run { 2 } else { 1 },
        ..Default::default()
    }
}

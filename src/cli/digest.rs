//! `form-package digest FILE`, `digest DIR` and `digest --form-ref FILE`
//! (issue 36 item 14). A FILE alone is the reference's command
//! ([`crate::ops::canonicalize::run`], unchanged byte for byte); a package
//! directory or `--form-ref` is [`crate::ops::digest`], printed by
//! [`crate::render::digest`].

use std::path::PathBuf;

use crate::cli::args::Formats;
use crate::output::Output;
use crate::render::Format;

/// `digest`'s `--format` values: `text` is [`Format::Human`].
const FORMATS: Formats = Formats(&[
    (
        "text",
        Format::Human,
        "`sha256:…` (a file); the FormRef as canonical JSON, then the package digest (a package directory)",
    ),
    (
        "json",
        Format::Json,
        "One JSON object: `formRef` and `packageDigest` (a package directory), `formRef` and `profile` (`--form-ref`), `digest` (a file)",
    ),
]);

/// The arguments of `digest`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A JSON file (any size), or a package directory: verified first, then
    /// its FormRef (canonical JSON) and package digest.
    pub file: PathBuf,
    /// Print the FormRef the definition FILE would have in a package index
    /// of the profile its apiVersion implies (after checking it against
    /// that profile's definition schema).
    #[arg(long)]
    pub form_ref: bool,
    /// Output format.
    #[arg(long, value_parser = FORMATS, default_value = "text")]
    pub format: Format,
}

/// Runs `digest`.
pub fn run(a: &Args) -> Output {
    let json = a.format == Format::Json;
    let opts = crate::render::Options::here();
    let digested = if a.form_ref {
        crate::ops::digest::form_ref(&a.file).map_err(Err)
    } else if a.file.is_dir() {
        crate::ops::digest::package(&a.file, &opts.cwd).map_err(Ok)
    } else if json {
        let result = crate::ops::canonicalize::run(&a.file, true);
        return match result {
            Ok(digest) => Output {
                stdout: format!(
                    "{}\n",
                    serde_json::to_string_pretty(
                        &serde_json::json!({"digest": String::from_utf8_lossy(&digest)})
                    )
                    .unwrap_or_default()
                )
                .into_bytes(),
                ..Output::default()
            },
            Err(refusal) => crate::cli::args::canonical_output(Err(refusal)),
        };
    } else {
        return crate::cli::args::canonical_output(crate::ops::canonicalize::run(&a.file, true));
    };
    match digested {
        Ok(d) => {
            use crate::ops::digest::Digested;
            let (stdout, stderr) = match &d {
                Digested::Package {
                    form_ref,
                    package_digest,
                } => crate::render::digest::package(form_ref, package_digest, json),
                Digested::FormRef { form_ref, profile } => {
                    crate::render::digest::form_ref(form_ref, profile, json)
                }
                Digested::Refused(report) => crate::render::digest::refused(report, json, &opts),
            };
            Output {
                stdout: stdout.into_bytes(),
                stderr,
                code: d.exit_code(),
            }
        }
        Err(Ok(error)) => Output::from(error),
        Err(Err(refusal)) => crate::cli::args::canonical_output(Err(refusal)),
    }
}

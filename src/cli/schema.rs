//! `form-package schema WHICH [--profile P]`: a JSON Schema embedded in
//! the binary ([`crate::schemas`]).

use crate::cli::args;
use crate::error::Error;
use crate::output::Output;

/// `schema`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which schema: `report` (`verify --format json`), `family` (`family --format json`), `compat` (`compat --format json`), or a profile's published `definition` or `index` schema.
    #[arg(value_enum)]
    pub which: SchemaName,
    /// `--profile P`, the profile of `definition` and `index`
    /// ([`args::profile_help`]).
    #[arg(long, value_name = "P", help = args::profile_help(
        "For `definition` and `index` only; `definition` prints the schema of the profile's \
         namespaced groups (v1 for v1alpha5, v1beta1 for v1alpha4), or of its Legacy lane. \
         Default: `v1alpha5`."
    ))]
    pub profile: Option<String>,
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
    /// The published Form Definition schema of a profile.
    Definition,
    /// The published package index schema of a profile.
    Index,
}

/// Prints the schema.
pub fn run(a: &Args) -> Output {
    let text = match (a.which, a.profile.as_deref()) {
        (SchemaName::Report, None) => crate::schemas::REPORT_SCHEMA,
        (SchemaName::Family, None) => crate::schemas::FAMILY_SCHEMA,
        (SchemaName::Compat, None) => crate::schemas::COMPAT_SCHEMA,
        (SchemaName::Report | SchemaName::Family | SchemaName::Compat, Some(_)) => {
            return Error::Usage(
                "schema: --profile applies to `definition` and `index` only".into(),
            )
            .into()
        }
        (which, profile) => {
            match crate::profile::published_schema(
                profile.unwrap_or("v1alpha5"),
                which == SchemaName::Index,
            ) {
                Ok(text) => text,
                Err(e) => return e.into(),
            }
        }
    };
    Output {
        stdout: text.as_bytes().to_vec(),
        ..Default::default()
    }
}

//! `form-package schema WHICH`: a JSON Schema embedded in the binary
//! ([`crate::schemas`]).

use crate::output::Output;

/// `schema`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which schema: `report` (`verify --format json`), `family` (`family --format json`) or `compat` (`compat --format json`).
    #[arg(value_enum)]
    pub which: SchemaName,
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

/// Prints the schema.
pub fn run(a: &Args) -> Output {
    Output {
        stdout: match a.which {
            SchemaName::Report => crate::schemas::REPORT_SCHEMA.as_bytes().to_vec(),
            SchemaName::Family => crate::schemas::FAMILY_SCHEMA.as_bytes().to_vec(),
            SchemaName::Compat => crate::schemas::COMPAT_SCHEMA.as_bytes().to_vec(),
        },
        ..Default::default()
    }
}

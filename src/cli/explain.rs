//! `form-package explain CODE` and `form-package rules`
//! ([`crate::explain`]).

use crate::error::Error;
use crate::output::Output;

/// `explain`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The code or its name.
    pub code: String,
}

/// Explains one code; an unknown code or name is a usage error (exit 2).
pub fn run(a: &Args) -> Output {
    match a.code.parse::<crate::codes::Code>() {
        Ok(c) => Output {
            stdout: crate::explain::explain(c).into_bytes(),
            ..Default::default()
        },
        Err(e) => Error::Usage(e.to_string()).into(),
    }
}

/// `rules`: the table of every code.
pub fn rules() -> Output {
    Output {
        stdout: crate::explain::rules().into_bytes(),
        ..Default::default()
    }
}

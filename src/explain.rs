//! `explain CODE` and `rules`, generated from the one code table
//! ([`crate::codes::TABLE`]).

use crate::codes::{Code, TABLE};

/// The text `explain` prints for a code.
pub fn explain(code: Code) -> String {
    let i = code.info();
    format!(
        "{} {}\n\n{}\n\nSpec: {}\n",
        i.id, i.name, i.summary, i.spec_ref
    )
}

/// The text `rules` prints: one line per code.
pub fn rules() -> String {
    TABLE
        .iter()
        .map(|i| format!("{}  {:<40} {:?}  {}\n", i.id, i.name, i.severity, i.summary))
        .collect()
}

//! `relations PATH`: the relations derived from a Definition's desired
//! schema (decision 0015), as a table or JSON. Stub until #5 lands.

use std::path::Path;

use crate::app::Output;
use crate::render::Format;

/// Runs `relations`.
pub fn run(path: &Path, format: Format, instance: Option<&Path>) -> Output {
    let _ = (path, format, instance);
    Output {
        stderr: "form-package: relations: not implemented yet\n".into(),
        code: 2,
        ..Default::default()
    }
}

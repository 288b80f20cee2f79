//! `validate-revocation FILE` and `validate-revocation-checkpoint FILE
//! [--advance | --previous-pin PIN_FILE]` (issue 12 part 1; rules in
//! [`crate::revocation`]).
//!
//! Output, as the reference prints it: on success (and with no `--format`)
//! stdout is the decoded document as 2-space JSON plus a newline, byte for
//! byte the reference's; with `--advance` or `--previous-pin` it is one
//! JSON object `{"checkpoint": …, "pin": …}`. On failure stderr starts with
//! the reference's one line (`form-package: <first message>`) and then gives
//! every finding (code, JSON Pointer, `file:line:column`, help). With
//! `--format json|sarif|github` stdout is that format's document instead.
//! Exit 0 valid, 1 refused, 2 could not run (unreadable file).

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::check_cmd::{document_outcome, render_documents};
use crate::diag::Diagnostic;
use crate::error::Refused;
use crate::json::strict;
use crate::output::Output;
use crate::render::Format;
use crate::revocation::{self, Pin};

fn fail2(msg: String) -> Output {
    Output {
        stderr: format!("form-package: {msg}\n"),
        code: 2,
        ..Default::default()
    }
}

/// Reads and strictly parses one file: `Err(Output)` for an unreadable file
/// (exit 2) or a document that is not strict I-JSON (exit 1 with findings).
fn read(
    path: &Path,
    format: Option<Format>,
    color: bool,
) -> Result<(String, Vec<u8>, Value), Output> {
    let display = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| fail2(format!("read {display}: {e}")))?;
    match strict::parse(&bytes) {
        Ok(p) => Ok((display, bytes, p.value)),
        Err(e) => Err(refuse(
            &display,
            bytes,
            vec![e.to_diagnostic()],
            format,
            color,
        )),
    }
}

/// Exit 1 with the findings in `format` (`None`: the reference's first line
/// on stderr, then our human findings).
fn refuse(
    display: &str,
    bytes: Vec<u8>,
    diags: Vec<Diagnostic>,
    format: Option<Format>,
    color: bool,
) -> Output {
    let first = diags.first().map(|d| d.message.clone()).unwrap_or_default();
    let outcome = document_outcome(display, bytes, diags);
    let errors = outcome.diagnostics.iter().filter(|d| d.is_error()).count();
    let verdict = format!(
        "FAIL {display}: {errors} error{}\n",
        if errors == 1 { "" } else { "s" }
    );
    match format {
        None | Some(Format::Human) => Output {
            stderr: format!(
                "form-package: {first}\n{}",
                render_documents(
                    &[outcome],
                    &[display.to_owned()],
                    &[verdict],
                    Format::Human,
                    color,
                    false
                )
            ),
            code: 1,
            ..Default::default()
        },
        Some(f) => Output {
            stdout: render_documents(
                &[outcome],
                &[display.to_owned()],
                &[verdict],
                f,
                color,
                false,
            )
            .into_bytes(),
            code: 1,
            ..Default::default()
        },
    }
}

/// Exit 0: `text` on stdout with no `--format` (or `human`); the format's
/// document otherwise.
fn accept(
    display: &str,
    bytes: Vec<u8>,
    text: String,
    format: Option<Format>,
    color: bool,
) -> Output {
    match format {
        None | Some(Format::Human) => Output {
            stdout: text.into_bytes(),
            ..Default::default()
        },
        Some(f) => {
            let outcome = document_outcome(display, bytes, Vec::new());
            Output {
                stdout: render_documents(
                    &[outcome],
                    &[display.to_owned()],
                    &[String::new()],
                    f,
                    color,
                    false,
                )
                .into_bytes(),
                ..Default::default()
            }
        }
    }
}

/// `validate-revocation FILE`.
pub fn statement(path: &Path, format: Option<Format>, color: bool) -> Output {
    let (display, bytes, value) = match read(path, format, color) {
        Ok(r) => r,
        Err(o) => return o,
    };
    match revocation::validate_statement(&display, &value) {
        Ok(s) => accept(
            &display,
            bytes,
            revocation::reference_json(&s),
            format,
            color,
        ),
        Err(Refused::Findings(diags)) => refuse(&display, bytes, diags, format, color),
        Err(Refused::Fault(e)) => e.into(),
    }
}

#[derive(Serialize)]
struct Advanced<'a> {
    checkpoint: &'a revocation::Checkpoint,
    pin: &'a Pin,
}

/// `validate-revocation-checkpoint FILE [--advance | --previous-pin PIN_FILE]`.
pub fn checkpoint(
    path: &Path,
    advance: bool,
    previous_pin: Option<&Path>,
    format: Option<Format>,
    color: bool,
) -> Output {
    let (display, bytes, value) = match read(path, format, color) {
        Ok(r) => r,
        Err(o) => return o,
    };
    let pin = match previous_pin {
        None => None,
        Some(p) => {
            let (pin_display, pin_bytes, pin_value) = match read(p, format, color) {
                Ok(r) => r,
                Err(o) => return o,
            };
            match revocation::parse_pin(&pin_display, &pin_value) {
                Ok(pin) => Some(pin),
                Err(diags) => return refuse(&pin_display, pin_bytes, diags, format, color),
            }
        }
    };
    let valid = match revocation::validate_checkpoint(&display, &value) {
        Ok(v) => v,
        Err(Refused::Findings(diags)) => return refuse(&display, bytes, diags, format, color),
        Err(Refused::Fault(e)) => return e.into(),
    };
    if !advance && previous_pin.is_none() {
        let text = revocation::reference_json(&valid.checkpoint);
        return accept(&display, bytes, text, format, color);
    }
    match revocation::advance(&display, pin.as_ref(), &valid) {
        Ok(new_pin) => {
            let text = revocation::reference_json(&Advanced {
                checkpoint: &valid.checkpoint,
                pin: &new_pin,
            });
            accept(&display, bytes, text, format, color)
        }
        Err(diags) => refuse(&display, bytes, diags, format, color),
    }
}

//! `form-package desired validate|materialize DIR... REF FILE`: one
//! request's desired document checked as a host checks it
//! ([`crate::ops::desired::run`]), printed by
//! [`crate::render::desired::output`]; the exit status is the operation's
//! ([`crate::ops::desired::DesiredRun::exit_code`]).

use std::path::PathBuf;

use crate::cli::args;
use crate::ops::desired::{Mode, Options};
use crate::output::Output;
use crate::render::{human::Color, Format};

/// `desired`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to do with the document.
    #[command(subcommand)]
    pub action: Action,
}

/// `desired validate` or `desired materialize`.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Validate FILE against the exact Form REF as a host does (the Core's `Validate`).
    Validate(Inputs),
    /// Insert the exact Form's defaults into FILE as a host does, validate the result
    /// and print its RFC 8785 bytes (the Core's `Materialize`).
    Materialize(Inputs),
}

/// The inputs and options of both actions.
#[derive(Debug, clap::Args)]
pub struct Inputs {
    /// DIR... REF FILE: the packages (package directories or trees; each
    /// verified first), the exact Form (`GROUP/KIND@VERSION`, or a file
    /// holding a FormRef) and the desired document (JSON).
    #[arg(required = true, value_name = "DIR... REF FILE")]
    pub inputs: Vec<PathBuf>,
    /// The default-create Form of its group and kind (repeatable), as `snapshot-oracle compile-dirs --default`.
    #[arg(long = "default", value_name = "GROUP/KIND@VERSION")]
    pub defaults: Vec<String>,
    /// An Interface Definition served with the set (repeatable).
    #[arg(long = "interface", value_name = "FILE")]
    pub interfaces: Vec<PathBuf>,
    /// A Binding Definition served with the set (repeatable).
    #[arg(long = "binding", value_name = "FILE")]
    pub bindings: Vec<PathBuf>,
    /// Output format (default: validate prints the human report; materialize prints the
    /// document on stdout and any finding on stderr).
    #[arg(long, value_parser = args::REPORT_FORMATS)]
    pub format: Option<Format>,
    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Treat warnings as errors.
    #[arg(long)]
    pub deny_warnings: bool,
}

/// Runs `desired`; `is_terminal`: whether stdout is a terminal.
pub fn run(a: &Args, is_terminal: bool) -> Output {
    let (mode, inputs) = match &a.action {
        Action::Validate(i) => (Mode::Validate, i),
        Action::Materialize(i) => (Mode::Materialize, i),
    };
    let n = inputs.inputs.len();
    let (dirs, rest) = inputs.inputs.split_at(n.saturating_sub(2));
    let (false, Some(reference), Some(file)) = (dirs.is_empty(), rest.first(), rest.get(1)) else {
        return Output {
            stderr: crate::render::escape::line("desired: give DIR... REF FILE (at least one DIR)"),
            code: 2,
            ..Default::default()
        };
    };
    let opts = Options {
        defaults: inputs.defaults.clone(),
        interfaces: inputs.interfaces.clone(),
        bindings: inputs.bindings.clone(),
        deny_warnings: inputs.deny_warnings,
    };
    let reference = reference.to_string_lossy();
    match crate::ops::desired::run(mode, dirs, &reference, file, &opts) {
        Ok(run) => {
            let color = crate::render::human::use_color(inputs.color, is_terminal);
            let view = crate::render::desired::Desired {
                report: &run.report,
                materialize: mode == Mode::Materialize,
                form: run.form.as_deref(),
                materialized: run.materialized.as_deref(),
            };
            let (stdout, stderr) = crate::render::desired::output(&view, inputs.format, color);
            Output {
                stdout,
                stderr,
                code: run.exit_code(),
            }
        }
        Err(message) => Output {
            stderr: crate::render::escape::line(&format!("desired: {message}")),
            code: 2,
            ..Default::default()
        },
    }
}

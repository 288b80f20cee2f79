//! The view of `form-package digest DIR` and `digest --form-ref FILE`
//! (issue 36 item 14), given plain values by `cli/digest.rs`:
//!
//! - text: the FormRef as RFC 8785 canonical JSON on one line, then (for a
//!   package) its package digest on a second line;
//! - `--format json`: `{"formRef": {…}, "packageDigest": "sha256:…"}` (a
//!   package) or `{"formRef": {…}, "profile": "…"}` (a definition);
//! - a refusal ([`refused`]): the report as `verify` prints it, on stderr
//!   (text; quiet, no summary) or as `verify --format json` on stdout.
//!
//! A FormRef printed here passed its profile's schema (ASCII group, kind,
//! SemVer and digest patterns), so its canonical JSON holds no text that
//! needs escaping.

use serde_json::{json, Value};

use crate::render::{self, Format, Options, RunView};
use crate::report::Report;

/// A verified package: its FormRef and package digest, as (stdout, stderr).
pub fn package(form_ref: &Value, package_digest: &str, json: bool) -> (String, String) {
    if json {
        (
            pretty(&json!({"formRef": form_ref, "packageDigest": package_digest})),
            String::new(),
        )
    } else {
        (
            format!("{}\n{package_digest}\n", canonical(form_ref)),
            String::new(),
        )
    }
}

/// A definition's FormRef under `profile`, as (stdout, stderr).
pub fn form_ref(form_ref: &Value, profile: &str, json: bool) -> (String, String) {
    if json {
        (
            pretty(&json!({"formRef": form_ref, "profile": profile})),
            String::new(),
        )
    } else {
        (format!("{}\n", canonical(form_ref)), String::new())
    }
}

/// A refused package or definition: its report, as (stdout, stderr).
pub fn refused(report: &Report, json: bool, opts: &Options) -> (String, String) {
    let run = RunView::of(report);
    if json {
        render::report(Format::Json, &run, opts)
    } else {
        let quiet = Options {
            quiet: true,
            ..opts.clone()
        };
        let (stdout, stderr) = render::report(Format::Human, &run, &quiet);
        (String::new(), format!("{stdout}{stderr}"))
    }
}

/// RFC 8785 canonical JSON of a FormRef.
fn canonical(v: &Value) -> String {
    crate::canonical::canonicalize(v)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_else(|| v.to_string())
}

/// A JSON document on stdout: pretty, then a newline.
fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}
